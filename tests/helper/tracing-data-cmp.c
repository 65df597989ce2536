// SPDX-License-Identifier: MIT
/*
 * tracing-data-cmp: compare the TRACING_DATA blob prism builds with the one
 * perf wrote into a perf.data file.
 *
 *   tracing-data-cmp PERF.DATA EVENTS
 *
 * EVENTS is the -e argument perf recorded (tracepoints).  Every section up
 * to saved_cmdlines (which changes from one moment to the next) must be
 * byte-identical: magic, version, flags, page size, header_page,
 * header_event, ftrace and event formats, kallsyms, printk_formats.
 * Exit 0 when equal, 1 when different (the first differing section and
 * offset are printed), 2 on usage or I/O errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evspec.h>
#include <prism/tracefs.h>
#include <prism/tracing-data.h>

#include "internal.h"
#include "tp/blob.h"

/* the feature-1 section of a seekable perf.data file */
static int perf_blob(const char *path, unsigned char **blob, size_t *len)
{
	unsigned char hdr[104], sec[16];
	uint64_t data_off, data_size, bits[4], off, size;
	int nth;
	FILE *f = fopen(path, "rb");

	if (!f || fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || memcmp(hdr, "PERFILE2", 8)) {
		fprintf(stderr, "%s: not a perf.data file\n", path);
		return -1;
	}
	data_off = get_u64(hdr + 40);
	data_size = get_u64(hdr + 48);
	memcpy(bits, hdr + 72, sizeof(bits));
	if (!(bits[0] & 2)) {
		fprintf(stderr, "%s: no TRACING_DATA feature\n", path);
		return -1;
	}
	/* sections are indexed in feature-bit order: only bit 0 (reserved) can precede */
	nth = (int)(bits[0] & 1);
	if (fseek(f, (long)(data_off + data_size + 16 * (uint64_t)nth), SEEK_SET) ||
	    fread(sec, 1, sizeof(sec), f) != sizeof(sec)) {
		fprintf(stderr, "%s: cannot read the feature index\n", path);
		return -1;
	}
	off = get_u64(sec);
	size = get_u64(sec + 8);
	*blob = malloc(size ? size : 1);
	if (!*blob || fseek(f, (long)off, SEEK_SET) || fread(*blob, 1, size, f) != size) {
		fprintf(stderr, "%s: cannot read %llu bytes at %llu\n", path,
			(unsigned long long)size, (unsigned long long)off);
		return -1;
	}
	fclose(f);
	*len = size;
	return 0;
}

/* bytes before saved_cmdlines' u64 size */
static size_t stable_prefix(const void *blob, size_t len, const char *who)
{
	struct tp_blob b;
	size_t n;

	if (tp_blob__parse(&b, blob, len)) {
		fprintf(stderr, "%s: malformed tracing data\n", who);
		exit(2);
	}
	n = (size_t)(b.cmdlines.data - (const char *)blob) - 8;
	printf("%s: %zu bytes, %zu formats (%zu ftrace), printk_formats %zu bytes, "
	       "saved_cmdlines %zu bytes\n",
	       who, len, b.nr_formats, b.nr_ftrace, b.printk.size, b.cmdlines.size);
	tp_blob__release(&b);
	return n;
}

int main(int argc, char **argv)
{
	struct prism_evspecs *l;
	unsigned char *theirs;
	void *ours;
	size_t tl, ol, tp, op, i;

	if (argc != 3) {
		fprintf(stderr, "usage: tracing-data-cmp PERF.DATA EVENTS\n");
		return 2;
	}
	if (perf_blob(argv[1], &theirs, &tl))
		return 2;
	l = prism_evspecs__new();
	if (prism_tracefs_init(NULL) || !l || prism_evspecs__parse(l, argv[2])) {
		fprintf(stderr, "cannot parse '%s': %s\n", argv[2],
			l ? prism_evspecs__error(l) : "");
		return 2;
	}
	if (prism_tracing_data_build(l, &ours, &ol)) {
		fprintf(stderr, "prism_tracing_data_build failed\n");
		return 2;
	}
	tp = stable_prefix(theirs, tl, "perf");
	op = stable_prefix(ours, ol, "prism");
	for (i = 0; i < tp && i < op; i++)
		if (theirs[i] != ((unsigned char *)ours)[i])
			break;
	if (i < tp || i < op) {
		printf("first difference at byte %zu (stable parts: perf %zu, prism %zu bytes)\n",
		       i, tp, op);
		return 1;
	}
	printf("identical up to saved_cmdlines (%zu bytes)\n", tp);
	free(theirs);
	free(ours);
	prism_evspecs__free(l);
	return 0;
}
