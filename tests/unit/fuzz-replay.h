/* SPDX-License-Identifier: MIT */
/*
 * Replaying saved fuzz inputs (tests/data/fuzz-regress/) through a fuzz
 * target compiled into a unit test: include the target's .c first, then
 * this header, and call fuzz_replay("ext", fn) for the inputs named *.ext.
 */
#ifndef PRISM_FUZZ_REPLAY_H
#define PRISM_FUZZ_REPLAY_H

#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static uint8_t *fuzz_replay_slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* runs @fn on every fuzz-regress input named *.@ext: the count, or -1 on I/O error */
static int fuzz_replay(const char *ext, void (*fn)(const uint8_t *, size_t))
{
	char pattern[4096];
	glob_t g;
	size_t i;
	int n = 0;

	snprintf(pattern, sizeof(pattern), "%s%s", test_data_path("fuzz-regress/*."), ext);
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		size_t size = 0;
		uint8_t *d = fuzz_replay_slurp(g.gl_pathv[i], &size);

		if (!d) {
			n = -1;
			break;
		}
		fn(d, size);
		free(d);
		n++;
	}
	globfree(&g);
	return n;
}

#endif /* PRISM_FUZZ_REPLAY_H */
