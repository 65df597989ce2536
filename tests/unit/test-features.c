// SPDX-License-Identifier: MIT
/*
 * Header features: every perf 6.1 fixture decodes and prints exactly what
 * `perf report --header-only -I` printed for it; damaged, oversized and
 * byte-swapped sections are handled.
 */
#include <byteswap.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <prism/error.h>
#include <prism/features.h>
#include <prism/log.h>
#include <prism/strbuf.h>

#include "test.h"

/* ---- log capture ---- */

static int nr_warnings;
static char last_warning[512];

static void count_log(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	(void)ctx;
	if (level > PRISM_LOG_WARN)
		return;
	nr_warnings++;
	vsnprintf(last_warning, sizeof(last_warning), fmt, ap);
}

/* counts warnings (silently) from here on */
static void capture_log(void)
{
	nr_warnings = 0;
	last_warning[0] = '\0';
	prism_log_set(count_log, NULL, PRISM_LOG_WARN);
}

/* ---- reading a perf.data file's feature sections ---- */

struct section {
	unsigned int feat;
	const uint8_t *data;
	size_t size;
};

struct pfile {
	uint8_t *buf;
	size_t size;
	struct section sec[PRISM_FEAT_BITS];
	size_t nr_sec;
};

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (fp && !fseek(fp, 0, SEEK_END) && (n = ftell(fp)) >= 0 && !fseek(fp, 0, SEEK_SET)) {
		buf = malloc(n + 1);
		if (buf && fread(buf, 1, n, fp) == (size_t)n) {
			buf[n] = '\0';
			*size = n;
		} else {
			free(buf);
			buf = NULL;
		}
	}
	if (fp)
		fclose(fp);
	return buf;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/*
 * Opens a normal (not pipe) perf.data file: data section at 40..55, feature
 * bitmap at 72..103, the index table at data.offset + data.size.
 * Return: 0, 1 for a pipe file, -1 on error.
 */
static int pfile_open(struct pfile *pf, const char *path)
{
	uint64_t table, bitmap[4];
	unsigned int bit;

	memset(pf, 0, sizeof(*pf));
	pf->buf = slurp(path, &pf->size);
	if (!pf->buf || pf->size < 16 || memcmp(pf->buf, "PERFILE2", 8))
		return -1;
	if (rd64(pf->buf + 8) != 104)
		return 1;
	if (pf->size < 104)
		return -1;
	table = rd64(pf->buf + 40) + rd64(pf->buf + 48);
	memcpy(bitmap, pf->buf + 72, sizeof(bitmap));
	for (bit = 0; bit < PRISM_FEAT_BITS; bit++) {
		uint64_t off, size;

		if (!(bitmap[bit / 64] >> (bit % 64) & 1))
			continue;
		if (table + 16 > pf->size)
			return -1;
		off = rd64(pf->buf + table);
		size = rd64(pf->buf + table + 8);
		table += 16;
		if (off > pf->size || size > pf->size - off)
			return -1;
		pf->sec[pf->nr_sec++] = (struct section){ bit, pf->buf + off, size };
	}
	return 0;
}

static const struct section *pfile_sec(const struct pfile *pf, unsigned int feat)
{
	size_t i;

	for (i = 0; i < pf->nr_sec; i++)
		if (pf->sec[i].feat == feat)
			return &pf->sec[i];
	return NULL;
}

/* decode from an exact-size heap copy, so ASan sees any over-read */
static int decode_copy(struct prism_features *f, unsigned int feat, const void *data, size_t size,
		       bool swap)
{
	void *copy = malloc(size ? size : 1);
	int err;

	if (!copy)
		return -ENOMEM;
	if (size)
		memcpy(copy, data, size);
	err = prism_features__decode(f, feat, size ? copy : NULL, size, swap);
	free(copy);
	return err;
}

static struct prism_features *decode_all(const struct pfile *pf, int *err)
{
	struct prism_features *f = prism_features__new();
	size_t i;

	*err = 0;
	for (i = 0; f && i < pf->nr_sec; i++) {
		int e = decode_copy(f, pf->sec[i].feat, pf->sec[i].data, pf->sec[i].size, false);

		if (e && !*err)
			*err = e;
	}
	return f;
}

/* ---- the golden comparison ---- */

static bool caller_line(const char *line)
{
	static const char *const prefixes[] = {
		"# captured on", "# header version", "# data offset",
		"# data size",	 "# feat offset",    "# missing features:",
	};
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(line, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * The header part of NAME.report-header.txt (between the first two
 * "# ========" lines) without the caller's lines, and its missing line.
 */
static bool expected_header(const char *path, struct prism_strbuf *want,
			    struct prism_strbuf *missing)
{
	size_t size, n;
	char *text = (char *)slurp(path, &size), *line, *next;
	int seps = 0;

	if (!text)
		return false;
	for (line = text; *line && seps < 2; line = next) {
		next = strchr(line, '\n');
		n = next ? (size_t)(next - line) : strlen(line);
		next = next ? next + 1 : line + n;
		if (!strncmp(line, "# ========", 10)) {
			seps++;
			continue;
		}
		if (seps != 1)
			continue;
		if (!strncmp(line, "# missing features:", 19)) {
			prism_strbuf_add(missing, line, n);
			prism_strbuf_addch(missing, '\n');
		} else if (!caller_line(line)) {
			prism_strbuf_add(want, line, n);
			prism_strbuf_addch(want, '\n');
		}
	}
	free(text);
	return seps == 2;
}

/* copies line @n (from 1) of @s into @buf */
static const char *nth_line(const char *s, int n, char *buf, size_t len)
{
	while (--n > 0 && strchr(s, '\n'))
		s = strchr(s, '\n') + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(s, "\n"), s);
	return buf;
}

/* the number (from 1) of the first line where @a and @b differ, 0 if none */
static int diff_line(const char *a, const char *b)
{
	int line = 1;

	for (; *a == *b; a++, b++) {
		if (!*a)
			return 0;
		line += *a == '\n';
	}
	return line;
}

static void test_fixtures_print_like_perf(void)
{
	const char *dir = test_fixture_path("perf-6.1");
	char *names[64], path[4096], gbuf[1024], wbuf[1024];
	size_t nr = 0, i, checked = 0;
	struct dirent *de;
	DIR *d;

	if (!dir)
		TEST_SKIP("../shared/fixtures is not there");
	d = opendir(dir);
	TEST_TRUE(d != NULL);
	while ((de = readdir(d)) && nr < PRISM_ARRAY_SIZE(names)) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".data"))
			names[nr++] = strdup(de->d_name);
	}
	closedir(d);
	/* perf printed the reference time in the fixture machine's zone, UTC */
	setenv("TZ", "UTC", 1);
	tzset();

	for (i = 0; i < nr; i++) {
		struct prism_strbuf got = STRBUF_INIT, want = STRBUF_INIT, miss = STRBUF_INIT,
				    gmiss = STRBUF_INIT;
		struct prism_features *f;
		struct pfile pf;
		int rc, err, line;
		bool ok;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rc = pfile_open(&pf, path);
		if (rc) {
			free(pf.buf);
			if (rc < 0)
				TEST_FAIL("%s: cannot read the file header", names[i]);
			free(names[i]);
			continue; /* pipe file */
		}
		capture_log();
		f = decode_all(&pf, &err);
		free(pf.buf);
		if (!f || err || nr_warnings)
			TEST_FAIL("%s: decode failed (%d), %d warnings: %s", names[i], err,
				  nr_warnings, last_warning);
		prism_features__print(f, &got);
		prism_features__print_missing(f, &gmiss);
		prism_features__free(f);

		snprintf(path, sizeof(path), "%s/%.*s.report-header.txt", dir,
			 (int)(strlen(names[i]) - 5), names[i]);
		ok = expected_header(path, &want, &miss);
		if (!ok)
			TEST_FAIL("%s: no header part in %s", names[i], path);
		line = diff_line(got.buf, want.buf);
		if (line)
			TEST_FAIL("%s: line %d differs:\n     got: %s\n    want: %s", names[i],
				  line, nth_line(got.buf, line, gbuf, sizeof(gbuf)),
				  nth_line(want.buf, line, wbuf, sizeof(wbuf)));
		TEST_STREQ(gmiss.buf, miss.buf);
		prism_strbuf_release(&got);
		prism_strbuf_release(&want);
		prism_strbuf_release(&miss);
		prism_strbuf_release(&gmiss);
		free(names[i]);
		names[i] = NULL;
		checked++;
	}
	TEST_TRUE(checked >= 20);
}

/* newer perf (attr size 136, BPF programs with BTF): decodes without a warning */
static void test_compressed_fixtures_decode_cleanly(void)
{
	static const char *const files[] = { "compressed/sleep.data",
					     "compressed/sleep.compressed.data",
					     "compressed/sleep.compressed2.data" };
	size_t i;

	if (!test_fixture_path("compressed"))
		TEST_SKIP("../shared/fixtures is not there");
	for (i = 0; i < PRISM_ARRAY_SIZE(files); i++) {
		struct prism_strbuf sb = STRBUF_INIT;
		const struct prism_feat_event_desc *ed;
		struct prism_features *f;
		struct pfile pf;
		int err;

		TEST_EQ(pfile_open(&pf, test_fixture_path(files[i])), 0);
		capture_log();
		f = decode_all(&pf, &err);
		free(pf.buf);
		if (!f || err || nr_warnings)
			TEST_FAIL("%s: decode failed (%d), %d warnings: %s", files[i], err,
				  nr_warnings, last_warning);
		ed = prism_features__event_desc(f);
		TEST_TRUE(ed && ed->nr_events >= 1);
		TEST_EQ(ed->attr_size, 136);
		TEST_EQ(ed->events[0].attr_size, 136);
		TEST_TRUE(prism_features__cpu_topology(f) && prism_features__cache(f));
		TEST_TRUE(prism_features__pmu_caps(f) && prism_features__clock_data(f));
		TEST_TRUE(prism_features__bpf_prog_info(f) && prism_features__bpf_btf(f));
		prism_features__print(f, &sb);
		TEST_TRUE(!prism_strbuf_failed(&sb) && sb.len > 1000);
		prism_strbuf_release(&sb);
		prism_features__free(f);
	}
}

/* ---- unit tests on a-fp's sections ---- */

static const char *afp(void)
{
	return test_fixture_path("perf-6.1/a-fp.data");
}

static void test_typed_values(void)
{
	const struct prism_feat_cpu_topology *t;
	const struct prism_feat_event_desc *ed;
	const struct prism_feat_build_ids *b;
	const struct prism_feat_cmdline *cl;
	struct prism_features *f;
	struct pfile pf;
	int err;

	if (!afp())
		TEST_SKIP("../shared/fixtures is not there");
	TEST_EQ(pfile_open(&pf, afp()), 0);
	f = decode_all(&pf, &err);
	free(pf.buf);
	TEST_EQ(err, 0);
	TEST_STREQ(prism_features__str(f, PRISM_FEAT_HOSTNAME), "vm");
	TEST_TRUE(prism_features__str(f, PRISM_FEAT_NRCPUS) == NULL);
	TEST_EQ(prism_features__nrcpus(f)->nr_cpus_avail, 2);
	TEST_EQ(prism_features__total_mem(f)->kb, 24684084);
	cl = prism_features__cmdline(f);
	TEST_EQ(cl->argc, 12);
	TEST_STREQ(cl->argv[0], "/usr/bin/perf");
	TEST_STREQ(cl->argv[11], "300");
	ed = prism_features__event_desc(f);
	TEST_EQ(ed->nr_events, 1);
	TEST_STREQ(ed->events[0].name, "cpu-clock");
	TEST_EQ(ed->events[0].attr.sample_freq, 999);
	TEST_EQ(ed->events[0].nr_ids, 2);
	TEST_EQ(ed->events[0].ids[1], 896);
	t = prism_features__cpu_topology(f);
	TEST_TRUE(t->has_cpus && t->has_dies);
	TEST_EQ(t->nr_cpus, 2);
	TEST_EQ(t->cpus[1].core_id, 1);
	b = prism_features__build_ids(f);
	TEST_EQ(b->nr, 3);
	TEST_STREQ(b->entries[0].filename, "[kernel.kallsyms]");
	TEST_EQ(b->entries[0].pid, -1);
	TEST_TRUE(b->entries[0].has_size);
	TEST_EQ(prism_features__mem_topology(f)->block_size, 0x8000000);
	TEST_EQ(prism_features__bpf_prog_info(f)->nr, 0);
	TEST_EQ(prism_features__pmu_caps(f)->nr_pmus, 0);
	TEST_TRUE(prism_features__has(f, PRISM_FEAT_PMU_CAPS));
	TEST_TRUE(!prism_features__has(f, PRISM_FEAT_STAT));
	TEST_TRUE(prism_features__compressed(f) == NULL);
	TEST_STREQ(prism_features__event_name(f, 1, 0, (const uint64_t[]){ 896 }, 1, 5),
		   "cpu-clock");
	TEST_STREQ(prism_features__event_name(f, 1, 0, NULL, 0, 0), "cpu-clock");
	TEST_TRUE(prism_features__event_name(f, 2, 0, NULL, 0, 0) == NULL);
	TEST_STREQ(prism_features__name(PRISM_FEAT_CPU_TOPOLOGY), "CPU_TOPOLOGY");
	TEST_STREQ(prism_features__name(200), "UNKNOWN");
	prism_features__free(f);
}

/* every prefix of every section: no crash, no over-read, a clean result */
static void test_truncated_sections(void)
{
	static const char *const files[] = { "perf-6.1/a-fp.data", "perf-6.1/g-syscalls-group.data",
					     "perf-6.1/o-clockid.data",
					     "compressed/sleep.compressed.data" };
	size_t i, s, len;

	if (!afp())
		TEST_SKIP("../shared/fixtures is not there");
	for (i = 0; i < PRISM_ARRAY_SIZE(files); i++) {
		struct pfile pf;

		TEST_EQ(pfile_open(&pf, test_fixture_path(files[i])), 0);
		for (s = 0; s < pf.nr_sec; s++) {
			const struct section *sec = &pf.sec[s];
			for (len = 0; len < sec->size; len++) {
				struct prism_strbuf sb = STRBUF_INIT;
				struct prism_features *f = prism_features__new();
				const struct section *nr = pfile_sec(&pf, PRISM_FEAT_NRCPUS);
				int err;

				capture_log();
				if (nr && sec->feat != PRISM_FEAT_NRCPUS)
					decode_copy(f, nr->feat, nr->data, nr->size, false);
				err = decode_copy(f, sec->feat, sec->data, len, false);
				if (err && err != -PRISM_E_BAD_FEATURE)
					TEST_FAIL("%s feature %u length %zu: %d", files[i],
						  sec->feat, len, err);
				TEST_TRUE(prism_features__has(f, sec->feat));
				prism_features__print(f, &sb);
				prism_strbuf_release(&sb);
				prism_features__free(f);
			}
		}
		free(pf.buf);
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void expect_bad(unsigned int feat, const uint8_t *data, size_t size)
{
	struct prism_features *f = prism_features__new();
	size_t raw_size;

	capture_log();
	TEST_EQ(decode_copy(f, feat, data, size, false), -PRISM_E_BAD_FEATURE);
	TEST_EQ(nr_warnings, 1);
	if (!strstr(last_warning, prism_features__name(feat)))
		TEST_FAIL("warning does not name %s: %s", prism_features__name(feat), last_warning);
	TEST_TRUE(prism_features__has(f, feat));
	TEST_TRUE(prism_features__raw(f, feat, &raw_size) != NULL);
	TEST_EQ(raw_size, size);
	prism_features__free(f);
}

/* counts far beyond the section fail before anything is allocated from them */
static void test_huge_counts(void)
{
	uint8_t buf[64] = { 0 };

	put32(buf, 0xffffffff); /* CMDLINE argc */
	expect_bad(PRISM_FEAT_CMDLINE, buf, 8);
	put32(buf, 0x40000000); /* EVENT_DESC nr_events */
	put32(buf + 4, 128);
	expect_bad(PRISM_FEAT_EVENT_DESC, buf, 64);
	put32(buf + 4, 16); /* attr size below 64 */
	put32(buf, 1);
	expect_bad(PRISM_FEAT_EVENT_DESC, buf, 64);
	put64(buf, 0x1000000000000000ull); /* AUXTRACE nr */
	expect_bad(PRISM_FEAT_AUXTRACE, buf, 24);
	put32(buf, 3); /* a string whose length runs past the end */
	put32(buf + 4, 0x7fffffff);
	expect_bad(PRISM_FEAT_HOSTNAME, buf + 4, 16);
	expect_bad(PRISM_FEAT_PMU_MAPPINGS, buf, 16);
	put64(buf, 1); /* MEM_TOPOLOGY: version 1, one node with 2^63 bits */
	put64(buf + 8, 4096);
	put64(buf + 16, 1);
	put64(buf + 24, 0);
	put64(buf + 32, 1);
	put64(buf + 40, 0x8000000000000000ull);
	expect_bad(PRISM_FEAT_MEM_TOPOLOGY, buf, 64);
	put64(buf + 16, 0xffffffffffffull); /* ... or 2^48 nodes */
	expect_bad(PRISM_FEAT_MEM_TOPOLOGY, buf, 64);
	put32(buf, 1); /* CACHE version 1, 2^31 levels */
	put32(buf + 4, 0x80000000);
	expect_bad(PRISM_FEAT_CACHE, buf, 64);
	put32(buf, 2); /* ... unknown version */
	expect_bad(PRISM_FEAT_CACHE, buf, 64);
	put32(buf, 0x10000); /* BPF programs */
	expect_bad(PRISM_FEAT_BPF_PROG_INFO, buf, 64);
	put32(buf, 1); /* one program whose data_len runs past the end */
	put32(buf + 4, 8);
	put32(buf + 8, 0xfffffff0);
	expect_bad(PRISM_FEAT_BPF_PROG_INFO, buf, 64);
	put32(buf, 1); /* one BTF blob of 4 GiB */
	put32(buf + 4, 1);
	put32(buf + 8, 0xffffffff);
	expect_bad(PRISM_FEAT_BPF_BTF, buf, 64);
	put32(buf, 7); /* PMU_CAPS */
	expect_bad(PRISM_FEAT_PMU_CAPS, buf, 20);
	put32(buf, 2); /* CLOCK_DATA version 2 */
	expect_bad(PRISM_FEAT_CLOCK_DATA, buf, 24);
	put32(buf, 1); /* BUILD_ID entry whose size runs past the end */
	put32(buf + 4, 0xff000000);
	expect_bad(PRISM_FEAT_BUILD_ID, buf, 64);
	put32(buf + 4, 0x00100000); /* ... or is smaller than its fixed part */
	expect_bad(PRISM_FEAT_BUILD_ID, buf, 64);
}

static void test_unknown_and_empty(void)
{
	struct prism_features *f = prism_features__new();
	uint8_t blob[3] = { 1, 2, 3 };
	const uint8_t *raw;
	size_t size;

	capture_log();
	TEST_EQ(decode_copy(f, 77, blob, sizeof(blob), false), 0);
	TEST_EQ(nr_warnings, 1);
	TEST_TRUE(strstr(last_warning, "77") != NULL);
	TEST_EQ(decode_copy(f, PRISM_FEAT_RESERVED, blob, 1, false), 0);
	TEST_EQ(nr_warnings, 2);
	/* feature 1 is decoded elsewhere: kept raw, silently */
	TEST_EQ(decode_copy(f, PRISM_FEAT_TRACING_DATA, blob, 2, false), 0);
	/* an empty payload (pipe mode's end marker) is fine */
	TEST_EQ(decode_copy(f, PRISM_FEAT_HOSTNAME, NULL, 0, false), 0);
	TEST_EQ(decode_copy(f, PRISM_FEAT_STAT, NULL, 0, false), 0);
	TEST_EQ(nr_warnings, 2);
	TEST_EQ(prism_features__decode(f, 256, blob, 1, false), -EINVAL);
	raw = prism_features__raw(f, 77, &size);
	TEST_EQ(size, 3);
	TEST_MEMEQ(raw, blob, 3);
	TEST_TRUE(prism_features__has(f, PRISM_FEAT_TRACING_DATA));
	TEST_TRUE(prism_features__has(f, PRISM_FEAT_HOSTNAME));
	TEST_TRUE(prism_features__str(f, PRISM_FEAT_HOSTNAME) == NULL);
	TEST_TRUE(prism_features__has(f, PRISM_FEAT_STAT));
	prism_features__free(f);
	prism_features__free(NULL);
}

/* ---- byte-swapped sections ---- */

struct swapper {
	const uint8_t *in;
	uint8_t *out;
	size_t pos, size;
	bool bad;
};

/* swaps a @width-byte integer in place in the output */
static void sw(struct swapper *s, size_t width)
{
	uint64_t v = 0;

	if (s->pos + width > s->size) {
		s->bad = true;
		return;
	}
	memcpy(&v, s->in + s->pos, width);
	v = width == 8 ? bswap_64(v) : bswap_32((uint32_t)v);
	memcpy(s->out + s->pos, &v, width);
	s->pos += width;
}

#define sw32(s) sw((s), 4)
#define sw64(s) sw((s), 8)

/* a string: the length swapped, the bytes as they are */
static void sw_str(struct swapper *s)
{
	uint32_t len;

	if (s->pos + 4 > s->size) {
		s->bad = true;
		return;
	}
	memcpy(&len, s->in + s->pos, 4);
	sw32(s);
	memcpy(s->out + s->pos, s->in + s->pos, len);
	s->pos += len;
}

static uint32_t sw_count(struct swapper *s)
{
	uint32_t n;

	memcpy(&n, s->in + s->pos, 4);
	sw32(s);
	return n;
}

/*
 * A big-endian writer's attr: per-field swaps; the flag word keeps its byte
 * order with the bits of each byte mirrored (perf's swap_bitfield()).
 */
static void sw_attr(struct swapper *s, uint32_t size)
{
	static const uint8_t u32_at[] = { 0, 4, 48, 52, 88, 92, 104, 112, 116 };
	size_t base = s->pos, off, i;

	for (off = 0; off + 8 <= size; off += 8) {
		uint64_t v;

		memcpy(&v, s->in + base + off, 8);
		if (off == 40) {
			uint64_t r = 0;
			int byte, bit;

			for (byte = 0; byte < 8; byte++)
				for (bit = 0; bit < 8; bit++)
					if (v >> (byte * 8 + bit) & 1)
						r |= 1ull << (byte * 8 + 7 - bit);
			v = bswap_64(r); /* perf swaps the bits of each byte, not the bytes */
		}
		v = bswap_64(v);
		memcpy(s->out + base + off, &v, 8);
	}
	/* undo the u64 swap for the u32 pairs and the u16 pair, then swap them alone */
	for (i = 0; i < sizeof(u32_at); i++) {
		uint32_t v;

		memcpy(&v, s->in + base + u32_at[i], 4);
		v = bswap_32(v);
		memcpy(s->out + base + u32_at[i], &v, 4);
	}
	for (off = 108; off <= 110; off += 2) {
		uint16_t v;

		memcpy(&v, s->in + base + off, 2);
		v = bswap_16(v);
		memcpy(s->out + base + off, &v, 2);
	}
	s->pos += size;
}

static bool swap_section(unsigned int feat, const uint8_t *in, size_t size, uint8_t *out,
			 uint32_t nr_cpus)
{
	struct swapper s = { .in = in, .out = out, .size = size };
	uint32_t n, i, j, attr_size;

	switch (feat) {
	case PRISM_FEAT_NRCPUS:
		sw32(&s);
		sw32(&s);
		break;
	case PRISM_FEAT_TOTAL_MEM:
		sw64(&s);
		break;
	case PRISM_FEAT_CPU_TOPOLOGY:
		for (j = 0; j < 2; j++)
			for (n = sw_count(&s), i = 0; i < n; i++)
				sw_str(&s);
		for (i = 0; i < 2 * nr_cpus; i++)
			sw32(&s);
		if (s.pos == size)
			break; /* no die part */
		for (n = sw_count(&s), i = 0; i < n; i++)
			sw_str(&s);
		for (i = 0; i < nr_cpus; i++)
			sw32(&s);
		break;
	case PRISM_FEAT_EVENT_DESC:
		n = sw_count(&s);
		attr_size = sw_count(&s);
		for (i = 0; i < n; i++) {
			uint32_t nr_ids;

			sw_attr(&s, attr_size);
			nr_ids = sw_count(&s);
			sw_str(&s);
			for (j = 0; j < nr_ids; j++)
				sw64(&s);
		}
		break;
	default:
		return false;
	}
	return !s.bad && s.pos == size;
}

static void test_byte_swapped_sections(void)
{
	static const unsigned int feats[] = { PRISM_FEAT_NRCPUS, PRISM_FEAT_TOTAL_MEM,
					      PRISM_FEAT_EVENT_DESC, PRISM_FEAT_CPU_TOPOLOGY };
	static const char *const files[] = { "perf-6.1/a-fp.data", "perf-6.1/p-sched.data",
					     "perf-6.1/m-many-bits.data",
					     "compressed/sleep.compressed.data" };
	size_t i, k;

	if (!afp())
		TEST_SKIP("../shared/fixtures is not there");
	for (k = 0; k < PRISM_ARRAY_SIZE(files); k++) {
		struct prism_features *native = prism_features__new(),
				      *swapped = prism_features__new();
		struct prism_strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		const struct prism_feat_event_desc *en, *es;
		struct pfile pf;

		TEST_EQ(pfile_open(&pf, test_fixture_path(files[k])), 0);
		for (i = 0; i < PRISM_ARRAY_SIZE(feats); i++) {
			const struct section *sec = pfile_sec(&pf, feats[i]);
			const struct prism_feat_nrcpus *n = prism_features__nrcpus(native);
			uint8_t *out;

			TEST_TRUE(sec != NULL);
			out = malloc(sec->size);
			TEST_TRUE(out != NULL);
			if (!swap_section(feats[i], sec->data, sec->size, out,
					  n ? n->nr_cpus_avail : 0)) {
				free(out);
				TEST_FAIL("%s: cannot swap feature %u", files[k], feats[i]);
			}
			TEST_EQ(decode_copy(native, feats[i], sec->data, sec->size, false), 0);
			TEST_EQ(decode_copy(swapped, feats[i], out, sec->size, true), 0);
			free(out);
		}
		free(pf.buf);
		TEST_EQ(prism_features__total_mem(swapped)->kb,
			prism_features__total_mem(native)->kb);
		en = prism_features__event_desc(native);
		es = prism_features__event_desc(swapped);
		TEST_EQ(es->nr_events, en->nr_events);
		for (i = 0; i < en->nr_events; i++) {
			TEST_MEMEQ(&es->events[i].attr, &en->events[i].attr,
				   sizeof(en->events[i].attr));
			TEST_EQ(es->events[i].config3, en->events[i].config3);
			TEST_EQ(es->events[i].nr_ids, en->events[i].nr_ids);
			TEST_EQ(es->events[i].ids[0], en->events[i].ids[0]);
		}
		TEST_EQ(prism_features__cpu_topology(swapped)->cpus[1].core_id,
			prism_features__cpu_topology(native)->cpus[1].core_id);
		prism_features__print(native, &a);
		prism_features__print(swapped, &b);
		TEST_STREQ(b.buf, a.buf);
		prism_strbuf_release(&a);
		prism_strbuf_release(&b);
		prism_features__free(native);
		prism_features__free(swapped);
	}
}

static size_t build_id_entry(uint8_t *p, uint16_t misc, int32_t pid, uint8_t size_byte,
			     const char *name)
{
	size_t n = strlen(name) + 1, len = 36 + ((n + 7) & ~(size_t)7);
	uint16_t sz = (uint16_t)len;
	uint8_t i;

	memset(p, 0, len);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &sz, 2);
	memcpy(p + 8, &pid, 4);
	for (i = 0; i < 20; i++)
		p[12 + i] = (uint8_t)(0xa0 + i);
	p[32] = size_byte;
	memcpy(p + 36, name, n);
	return len;
}

static void test_build_id_without_size_bit(void)
{
	struct prism_features *f = prism_features__new();
	const struct prism_feat_build_ids *b;
	uint8_t buf[256];
	size_t len;

	/* perf inject -b: misc 0x0002 (user) without bit 15, size byte 0 */
	len = build_id_entry(buf, 0x0002, -1, 0, "/tmp/perfdata-workload");
	/* and one with the bit and a 16-byte id */
	len += build_id_entry(buf + len, 0x8001, 1234, 16, "[guest.kernel]");
	TEST_EQ(decode_copy(f, PRISM_FEAT_BUILD_ID, buf, len, false), 0);
	b = prism_features__build_ids(f);
	TEST_EQ(b->nr, 2);
	TEST_TRUE(!b->entries[0].has_size);
	TEST_EQ(b->entries[0].build_id[19], 0xa0 + 19);
	TEST_EQ(b->entries[0].misc, 2);
	TEST_EQ(b->entries[0].pid, -1);
	TEST_STREQ(b->entries[0].filename, "/tmp/perfdata-workload");
	TEST_TRUE(b->entries[1].has_size);
	TEST_EQ(b->entries[1].size, 16);
	TEST_EQ(b->entries[1].build_id[15], 0xa0 + 15);
	TEST_EQ(b->entries[1].build_id[16], 0);
	TEST_EQ(b->entries[1].pid, 1234);
	TEST_STREQ(b->entries[1].filename, "[guest.kernel]");
	prism_features__free(f);
}

/* files from before the pid field: perf's "nel.kallsyms]" quirk */
static void test_build_id_old_abi(void)
{
	struct prism_features *f = prism_features__new();
	const struct prism_feat_build_ids *b;
	uint8_t buf[128] = { 0 };
	uint16_t misc = 1, size = 32 + 24;

	memcpy(buf + 4, &misc, 2);
	memcpy(buf + 6, &size, 2);
	buf[8] = 0x11; /* build id right after the header */
	memcpy(buf + 32, "[kernel.kallsyms]", 17);
	TEST_EQ(decode_copy(f, PRISM_FEAT_BUILD_ID, buf, size, false), 0);
	b = prism_features__build_ids(f);
	TEST_EQ(b->nr, 1);
	TEST_STREQ(b->entries[0].filename, "[kernel.kallsyms]");
	TEST_EQ(b->entries[0].build_id[0], 0x11);
	TEST_EQ(b->entries[0].pid, -1);
	prism_features__free(f);
}

static size_t put_str(uint8_t *p, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) & ~(size_t)63;

	put32(p, (uint32_t)len);
	memset(p + 4, 0, len);
	memcpy(p + 4, s, n);
	return 4 + len;
}

static void print_one(unsigned int feat, const uint8_t *data, size_t size, const char *want)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_features *f = prism_features__new();

	TEST_EQ(decode_copy(f, feat, data, size, false), 0);
	prism_features__print(f, &sb);
	TEST_STREQ(sb.buf, want);
	prism_strbuf_release(&sb);
	prism_features__free(f);
}

static void test_print_details(void)
{
	uint8_t buf[1024];
	size_t n;

	/* strings stop at the first NUL even inside len; quotes are escaped */
	put32(buf, 2);
	n = 4 + put_str(buf + 4, "sh");
	n += put_str(buf + n, "it's");
	print_one(PRISM_FEAT_CMDLINE, buf, n, "# cmdline : sh it\\'s \n");
	/* NUMA cpu lists are re-printed sorted and merged; an empty one is -1 */
	put32(buf, 2);
	n = 4;
	put32(buf + n, 0);
	put64(buf + n + 4, 10);
	put64(buf + n + 12, 5);
	n += 20;
	n += put_str(buf + n, "4-5,0,1,2-3,9");
	put32(buf + n, 1);
	put64(buf + n + 4, 0);
	put64(buf + n + 12, 0);
	n += 20;
	n += put_str(buf + n, "");
	print_one(PRISM_FEAT_NUMA_TOPOLOGY, buf, n,
		  "# node0 meminfo  : total = 10 kB, free = 5 kB\n"
		  "# node0 cpu list : 0-5,9\n"
		  "# node1 meminfo  : total = 0 kB, free = 0 kB\n"
		  "# node1 cpu list : -1\n");
	/* PMU caps, empty and not */
	put32(buf, 2);
	put32(buf + 4, 0);
	n = 8 + put_str(buf + 8, "cpu_atom");
	put32(buf + n, 1);
	n += 4;
	n += put_str(buf + n, "branches");
	n += put_str(buf + n, "32");
	n += put_str(buf + n, "cpu_core");
	print_one(PRISM_FEAT_PMU_CAPS, buf, n,
		  "# cpu_atom pmu capabilities: not available\n"
		  "# cpu_core pmu capabilities: branches=32\n");
	put32(buf, 0);
	print_one(PRISM_FEAT_CPU_PMU_CAPS, buf, 4, "# cpu pmu capabilities: not available\n");
	print_one(PRISM_FEAT_PMU_MAPPINGS, buf, 4, "# pmu mappings: not available\n");
	print_one(PRISM_FEAT_BRANCH_STACK, buf, 0, "# contains samples with branch stack\n");
	put64(buf, 1);
	put64(buf + 8, 100);
	put64(buf + 16, 4096);
	print_one(PRISM_FEAT_AUXTRACE, buf, 24,
		  "# contains AUX area data (e.g. instruction trace)\n");
	print_one(PRISM_FEAT_DIR_FORMAT, buf, 8, "# directory data version : 1\n");
	/* hybrid topology */
	put32(buf, 1);
	n = 4 + put_str(buf + 4, "cpu_core");
	n += put_str(buf + n, "0-15");
	print_one(PRISM_FEAT_HYBRID_TOPOLOGY, buf, n,
		  "# hybrid cpu system:\n# cpu_core cpu list : 0-15\n");
	/* features perf 6.1 does not know print nothing */
	put32(buf, 62);
	put32(buf + 4, 0);
	print_one(PRISM_FEAT_E_MACHINE, buf, 8, "");
	put32(buf, 1);
	print_one(PRISM_FEAT_CLOCKID, buf, 8, "# clockid frequency: 1000 MHz\n");
}

static void test_cpu_domain_info(void)
{
	const struct prism_feat_cpu_domain_info *d;
	struct prism_features *f = prism_features__new();
	uint8_t buf[1024];
	size_t n = 0;
	uint32_t cpu;

	put32(buf, 17); /* schedstat version: domains have names */
	put32(buf + 4, 2);
	n = 8;
	for (cpu = 0; cpu < 2; cpu++) {
		put32(buf + n, cpu);
		put32(buf + n + 4, 1);
		put32(buf + n + 8, 0);
		n += 12;
		n += put_str(buf + n, "SMT");
		n += put_str(buf + n, "00000003");
		n += put_str(buf + n, "0-1");
	}
	TEST_EQ(decode_copy(f, PRISM_FEAT_CPU_DOMAIN_INFO, buf, n, false), 0);
	d = prism_features__cpu_domain_info(f);
	TEST_EQ(d->nr_cpus, 2);
	TEST_EQ(d->cpus[1].cpu, 1);
	TEST_STREQ(d->cpus[1].domains[0].name, "SMT");
	TEST_STREQ(d->cpus[1].domains[0].cpulist, "0-1");
	/* a cut entry is malformed */
	capture_log();
	TEST_EQ(decode_copy(f, PRISM_FEAT_CPU_DOMAIN_INFO, buf, n - 10, false),
		-PRISM_E_BAD_FEATURE);
	TEST_TRUE(prism_features__cpu_domain_info(f) == NULL);
	prism_features__free(f);
}

/* topology without NRCPUS, or from perf before the per-CPU ids */
static void test_cpu_topology_variants(void)
{
	struct prism_features *f = prism_features__new();
	const struct prism_feat_cpu_topology *t;
	struct prism_strbuf sb = STRBUF_INIT;
	uint8_t buf[512];
	size_t n;

	put32(buf, 1);
	n = 4 + put_str(buf + 4, "0-1");
	put32(buf + n, 1);
	n += 4;
	n += put_str(buf + n, "0-1");
	TEST_EQ(decode_copy(f, PRISM_FEAT_CPU_TOPOLOGY, buf, n, false), 0);
	t = prism_features__cpu_topology(f);
	TEST_TRUE(!t->has_cpus && !t->has_dies);
	prism_features__print(f, &sb);
	TEST_STREQ(sb.buf, "# sibling sockets : 0-1\n# sibling threads : 0-1\n"
			   "# Core ID and Socket ID information is not available\n");
	/* per-CPU ids without dies, with NRCPUS known */
	put32(buf + 200, 2);
	put32(buf + 204, 2);
	TEST_EQ(decode_copy(f, PRISM_FEAT_NRCPUS, buf + 200, 8, false), 0);
	put32(buf + n, 0);
	put32(buf + n + 4, 0);
	put32(buf + n + 8, 1);
	put32(buf + n + 12, 0);
	TEST_EQ(decode_copy(f, PRISM_FEAT_CPU_TOPOLOGY, buf, n + 16, false), 0);
	prism_strbuf_reset(&sb);
	prism_features__print(f, &sb);
	TEST_STREQ(sb.buf, "# nrcpus online : 2\n# nrcpus avail : 2\n"
			   "# sibling sockets : 0-1\n# sibling threads : 0-1\n"
			   "# CPU 0: Core ID 0, Socket ID 0\n# CPU 1: Core ID 1, Socket ID 0\n");
	/* per-CPU ids cut short */
	capture_log();
	TEST_EQ(decode_copy(f, PRISM_FEAT_CPU_TOPOLOGY, buf, n + 12, false), -PRISM_E_BAD_FEATURE);
	prism_strbuf_release(&sb);
	prism_features__free(f);
}

TEST_MAIN(TEST(fixtures_print_like_perf), TEST(compressed_fixtures_decode_cleanly),
	  TEST(typed_values), TEST(truncated_sections), TEST(huge_counts), TEST(unknown_and_empty),
	  TEST(byte_swapped_sections), TEST(build_id_without_size_bit), TEST(build_id_old_abi),
	  TEST(print_details), TEST(cpu_domain_info), TEST(cpu_topology_variants));
