// SPDX-License-Identifier: MIT
/*
 * perf's text form of perf_event_attr: every attr of every perf 6.1 fixture
 * prints exactly as `perf evlist -v` printed it, plus hand-built attrs.
 */
#include <byteswap.h>
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>

#include <prism/evsel.h>
#include <prism/strbuf.h>

#include "data/attr-print.h"
#include "test.h"

static char *slurp(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (!fseek(fp, 0, SEEK_END) && (n = ftell(fp)) >= 0 && !fseek(fp, 0, SEEK_SET)) {
		buf = malloc(n + 1);
		if (buf && fread(buf, 1, n, fp) == (size_t)n) {
			buf[n] = '\0';
			*size = n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(fp);
	return buf;
}

static uint64_t rd64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * Compares the attrs section of @data (a normal perf.data file) with the
 * lines of @evlist; returns the number of attrs checked, -1 on a mismatch
 * (after reporting it).
 */
static int check_file(const char *name, const char *data, size_t size, char *evlist)
{
	uint64_t attr_size = rd64(data + 16), off = rd64(data + 24), len = rd64(data + 32), i;
	char *line = evlist, *next;
	int checked = 0;

	for (i = 0; attr_size > 16 && i < len / attr_size; i++) {
		struct prism_strbuf sb = STRBUF_INIT;
		struct prism_attr_ext a;
		const char *sep;
		char *name_end;
		bool same;

		/* the next line that is not one of perf's "# Tip" lines */
		while (line && (*line == '#' || *line == '\n'))
			line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
		if (!line || off + (i + 1) * attr_size > size) {
			test_fail(__FILE__, __LINE__, "%s: attr %llu has no evlist line", name,
				  (unsigned long long)i);
			return -1;
		}
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		sep = strstr(line, ": ");
		if (!sep ||
		    prism_attr__read(&a, data + off + i * attr_size, attr_size - 16, false)) {
			test_fail(__FILE__, __LINE__, "%s: cannot read attr %llu", name,
				  (unsigned long long)i);
			return -1;
		}
		name_end = (char *)sep;
		*name_end = '\0';
		prism_attr__print_evlist(&a, line, &sb);
		*name_end = ':';
		same = !strcmp(sb.buf, line);
		if (!same)
			test_fail(__FILE__, __LINE__, "%s attr %llu:\n     got: %s\n    want: %s",
				  name, (unsigned long long)i, sb.buf, line);
		prism_strbuf_release(&sb);
		if (!same)
			return -1;
		checked++;
		line = next;
	}
	return checked;
}

static void test_fixture_attrs_print_like_perf_evlist(void)
{
	const char *dir = test_fixture_path("perf-6.1");
	char path[4096];
	int total = 0, files = 0;
	struct dirent *de;
	DIR *d;

	if (!dir)
		TEST_SKIP("../shared/fixtures is not there");
	d = opendir(dir);
	TEST_TRUE(d != NULL);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), dsize, esize;
		char *data, *evlist;
		int got = 0;

		if (n < 6 || strcmp(de->d_name + n - 5, ".data"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		data = slurp(path, &dsize);
		snprintf(path, sizeof(path), "%s/%.*s.evlist.txt", dir, (int)(n - 5), de->d_name);
		evlist = slurp(path, &esize);
		/* pipe files (16-byte header) have no attrs section */
		if (data && evlist && dsize >= 104 && rd64(data + 8) == 104) {
			got = check_file(de->d_name, data, dsize, evlist);
			total += got > 0 ? got : 0;
			files++;
		}
		free(data);
		free(evlist);
		if (got < 0)
			break;
	}
	closedir(d);
	if (test_failed)
		return;
	TEST_TRUE(files >= 20);
	TEST_TRUE(total >= 30);
}

static void test_sample_type_names(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	/* m-many-bits: TRANSACTION (bit 17) is set, perf 6.1 does not name it */
	prism_sample_type__str(0x1cf908f, &sb);
	TEST_STREQ(sb.buf, "IP|TID|TIME|ADDR|CPU|REGS_USER|IDENTIFIER|REGS_INTR|DATA_SRC|PHYS_ADDR|"
			   "DATA_PAGE_SIZE|CODE_PAGE_SIZE|WEIGHT_STRUCT");
	prism_strbuf_reset(&sb);
	/* perf's order is not bit order: WEIGHT (14) comes after DATA_SRC (15) */
	prism_sample_type__str((1 << 14) | (1 << 15) | (1 << 13), &sb);
	TEST_STREQ(sb.buf, "STACK_USER|DATA_SRC|WEIGHT");
	prism_strbuf_reset(&sb);
	prism_sample_type__str(0, &sb);
	TEST_STREQ(sb.buf, "");
	prism_sample_type__str(1ull << 40, &sb);
	TEST_STREQ(sb.buf, "");
	prism_read_format__str(0x1f, &sb);
	TEST_STREQ(sb.buf, "TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|GROUP|LOST");
	prism_strbuf_release(&sb);
}

static void set_flag(struct perf_event_attr *attr, int bit)
{
	uint64_t w;

	memcpy(&w, (uint8_t *)attr + 40, 8);
	w |= 1ull << bit;
	memcpy((uint8_t *)attr + 40, &w, 8);
}

static void test_header_format(void)
{
	struct prism_attr_ext a = { 0 };
	struct prism_strbuf sb = STRBUF_INIT;
	const uint64_t ids[] = { 895, 896 };

	a.attr.type = PERF_TYPE_SOFTWARE;
	a.attr.size = a.file_size = 128;
	a.attr.sample_period = 999;
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	set_flag(&a.attr, 0); /* disabled */
	set_flag(&a.attr, 10); /* freq */
	prism_attr__print(&a, "cpu-clock", ids, 2, &sb);
	TEST_STREQ(sb.buf, "name = cpu-clock, , id = { 895, 896 }, type = 1, size = 128, "
			   "{ sample_period, sample_freq } = 999, sample_type = IP|TID, "
			   "read_format = ID|LOST, disabled = 1, freq = 1");
	prism_strbuf_reset(&sb);
	/* no ids, hardware type 0 and a VER0 attr (stored size 0) print neither */
	a.attr.type = PERF_TYPE_HARDWARE;
	a.file_size = 0;
	a.attr.sample_type = 0;
	a.attr.read_format = 0;
	a.attr.sample_period = 0;
	set_flag(&a.attr, 16); /* precise_ip = 2 */
	a.attr.clockid = -1;
	a.attr.sample_regs_user = 0xff;
	prism_attr__print(&a, "cycles", NULL, 0, &sb);
	TEST_STREQ(sb.buf, "name = cycles, , disabled = 1, freq = 1, precise_ip = 2, "
			   "sample_regs_user = 0xff, clockid = -1");
	prism_strbuf_reset(&sb);
	prism_attr__print_evlist(&a, "cycles", &sb);
	TEST_STREQ(sb.buf, "cycles: disabled: 1, freq: 1, precise_ip: 2, "
			   "sample_regs_user: 0xff, clockid: -1");
	prism_strbuf_release(&sb);
}

/* an attr written on a big-endian machine prints the same once read */
static void test_swapped_attr(void)
{
	struct prism_attr_ext a, b;
	struct prism_strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	uint8_t raw[128] = { 0 }, sw[128];
	uint64_t flags = (1ull << 0) | (1ull << 1) | (1ull << 8) | (1ull << 15) | (1ull << 23);
	uint32_t v32;
	uint64_t v64;
	int byte, bit;

	v32 = 1;
	memcpy(raw, &v32, 4);
	v32 = 128;
	memcpy(raw + 4, &v32, 4);
	v64 = 4000;
	memcpy(raw + 16, &v64, 8);
	v64 = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	memcpy(raw + 24, &v64, 8);
	memcpy(raw + 40, &flags, 8);
	v32 = 7;
	memcpy(raw + 48, &v32, 4);
	TEST_EQ(prism_attr__read(&a, raw, sizeof(raw), false), 0);

	/*
	 * what a big-endian writer stores: fields swapped; the flag word's bytes
	 * stay in place with their bits mirrored (perf's swap_bitfield())
	 */
	memcpy(sw, raw, sizeof(sw));
	v32 = bswap_32(1);
	memcpy(sw, &v32, 4);
	v32 = bswap_32(128);
	memcpy(sw + 4, &v32, 4);
	v64 = bswap_64(4000);
	memcpy(sw + 16, &v64, 8);
	v64 = bswap_64(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	memcpy(sw + 24, &v64, 8);
	v64 = 0;
	for (byte = 0; byte < 8; byte++)
		for (bit = 0; bit < 8; bit++)
			if (flags >> (byte * 8 + bit) & 1)
				v64 |= 1ull << (byte * 8 + 7 - bit);
	memcpy(sw + 40, &v64, 8);
	v32 = bswap_32(7);
	memcpy(sw + 48, &v32, 4);
	TEST_EQ(prism_attr__read(&b, sw, sizeof(sw), true), 0);

	prism_attr__print(&a, "e", NULL, 0, &x);
	prism_attr__print(&b, "e", NULL, 0, &y);
	TEST_STREQ(y.buf, x.buf);
	TEST_STREQ(x.buf,
		   "name = e, , type = 1, size = 128, { sample_period, sample_freq } = 4000, "
		   "sample_type = IP|CALLCHAIN, disabled = 1, inherit = 1, mmap = 1, "
		   "precise_ip = 1, mmap2 = 1, { wakeup_events, wakeup_watermark } = 7");
	prism_strbuf_release(&x);
	prism_strbuf_release(&y);
}

TEST_MAIN(TEST(fixture_attrs_print_like_perf_evlist), TEST(sample_type_names), TEST(header_format),
	  TEST(swapped_attr));
