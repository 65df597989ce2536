// SPDX-License-Identifier: MIT
/*
 * lib/data/decomp: streaming zstd decompression of PERF_RECORD_COMPRESSED
 * (81) and COMPRESSED2 (83) payloads, checked against real perf files.
 *
 * The fixtures are walked here by hand (header: u32 type, u16 misc,
 * u16 size; 66 and 71 carry payload after header.size), every compressed
 * payload is fed in file order, and the decompressed bytes must split into
 * records that consume them exactly, carrying a straddling tail from one
 * payload to the next.  perf's "Aggregated stats" count both the
 * COMPRESSED records and the records inside them.
 */
#include <stdio.h>
#include <stdlib.h>

#if HAVE_LIBZSTD
#include <zstd.h>
#endif

#include "internal.h"
#include "data/decomp.h"
#include "test.h"

#define NR_TYPES 128
#define MAX_OUT (1u << 20)
#define REC_COMPRESSED 81
#define REC_COMPRESSED2 83

struct blob {
	uint8_t *buf;
	size_t len;
};

struct walk {
	uint64_t count[NR_TYPES]; /* outer and inner records by type */
	uint64_t total;
	uint64_t inner; /* records found inside compressed payloads */
	unsigned int payloads; /* compressed records fed */
	unsigned int straddles; /* payloads after which a partial record was left */
	size_t stop; /* file offset where the outer walk ended */
	size_t end; /* where it should have ended */
	uint8_t *out; /* all decompressed bytes, concatenated */
	size_t out_len, out_cap;
};

static int load(const char *path, struct blob *b)
{
	FILE *f = fopen(path, "rb");
	long n;

	b->buf = NULL;
	b->len = 0;
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	b->buf = malloc(n ? (size_t)n : 1);
	if (!b->buf || fread(b->buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(b->buf);
		b->buf = NULL;
		return -1;
	}
	fclose(f);
	b->len = (size_t)n;
	return 0;
}

static void count_type(struct walk *w, uint32_t type)
{
	w->count[type < NR_TYPES ? type : 0]++;
	w->total++;
}

/*
 * Take every complete record from the front of the decompressed buffer
 * @buf/@len and return how many bytes they used (the rest is a tail for
 * the next payload), or (size_t)-1 on a malformed header.
 */
static size_t drain(struct walk *w, const uint8_t *buf, size_t len)
{
	size_t off = 0;

	while (len - off >= 8) {
		uint16_t size = get_u16(buf + off + 6);

		if (size < 8)
			return (size_t)-1;
		if (size > len - off)
			break;
		count_type(w, get_u32(buf + off));
		w->inner++;
		off += size;
	}
	return off;
}

/*
 * Walk the records of a perf.data file or pipe in @b, decompressing as we
 * go.  @w->out receives every decompressed byte, in order.
 * Return: 0, or a line number of this file for the first problem.
 */
static int walk_file(const struct blob *b, struct walk *w)
{
	uint8_t *pend = NULL; /* undelivered tail, as a reader would keep it */
	size_t pend_len = 0, pend_cap = 0, off, end;
	struct prism_decomp *d = prism_decomp__new();
	int bad = 0;

	memset(w, 0, sizeof(*w));
	if (!d)
		return __LINE__;
	if (b->len < 16 || memcmp(b->buf, "PERFILE2", 8)) {
		bad = __LINE__;
		goto out;
	}
	if (get_u64(b->buf + 8) == 16) { /* pipe: records to EOF */
		off = 16;
		end = b->len;
	} else {
		if (b->len < 104) {
			bad = __LINE__;
			goto out;
		}
		off = get_u64(b->buf + 40);
		end = off + get_u64(b->buf + 48);
		if (off > b->len || end > b->len || end < off) {
			bad = __LINE__;
			goto out;
		}
	}
	w->end = end;
	while (end - off >= 8) {
		const uint8_t *rec = b->buf + off;
		uint32_t type = get_u32(rec);
		uint16_t size = get_u16(rec + 6);
		uint64_t extra = 0;
		const uint8_t *payload = NULL;
		size_t plen = 0, used, before;

		if (size < 8 || size > end - off)
			break; /* not a record: the caller decides whether that is ok */
		if (type == 66 && size >= 12)
			extra = get_u32(rec + 8);
		else if (type == 71 && size >= 16)
			extra = get_u64(rec + 8);
		if (extra > end - off - size)
			break;
		count_type(w, type);
		if (type == REC_COMPRESSED) {
			payload = rec + 8;
			plen = size - 8u;
		} else if (type == REC_COMPRESSED2) {
			if (size < 16 || get_u64(rec + 8) > size - 16u) {
				bad = __LINE__;
				goto out;
			}
			payload = rec + 16;
			plen = get_u64(rec + 8);
		}
		if (payload) {
			before = pend_len;
			if (prism_decomp__feed(d, payload, plen, &pend, &pend_len, &pend_cap,
					       MAX_OUT)) {
				bad = __LINE__;
				goto out;
			}
			if (prism_ensure_mem((void **)&w->out, &w->out_cap, 1,
					     w->out_len + pend_len - before)) {
				bad = __LINE__;
				goto out;
			}
			memcpy(w->out + w->out_len, pend + before, pend_len - before);
			w->out_len += pend_len - before;
			w->payloads++;
			used = drain(w, pend, pend_len);
			if (used == (size_t)-1) {
				bad = __LINE__;
				goto out;
			}
			memmove(pend, pend + used, pend_len - used);
			pend_len -= used;
			if (pend_len)
				w->straddles++;
		}
		off += size + extra;
	}
	w->stop = off;
	if (pend_len) /* the last record must be complete at the very end */
		bad = __LINE__;
out:
	free(pend);
	prism_decomp__free(d);
	return bad;
}

/*
 * The concatenated output, parsed in one piece, must be a sequence of
 * records that ends exactly at its end.  Frees it.
 * Return: the number of records, or -1.
 */
static long long walk_whole_output(struct walk *w)
{
	long long n = 0;
	size_t off = 0;

	while (w->out_len - off >= 8) {
		uint16_t size = get_u16(w->out + off + 6);

		if (size < 8 || size > w->out_len - off)
			break;
		off += size;
		n++;
	}
	if (off != w->out_len)
		n = -1;
	zfree(&w->out);
	return n;
}

/* perf's record names in "Aggregated stats" (perf 6.1 event.c/session.c) */
static const char *const type_names[NR_TYPES] = {
	[1] = "MMAP",
	[2] = "LOST",
	[3] = "COMM",
	[4] = "EXIT",
	[5] = "THROTTLE",
	[6] = "UNTHROTTLE",
	[7] = "FORK",
	[8] = "READ",
	[9] = "SAMPLE",
	[10] = "MMAP2",
	[11] = "AUX",
	[12] = "ITRACE_START",
	[13] = "LOST_SAMPLES",
	[14] = "SWITCH",
	[15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES",
	[17] = "KSYMBOL",
	[18] = "BPF_EVENT",
	[19] = "CGROUP",
	[20] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR",
	[65] = "EVENT_TYPE",
	[66] = "TRACING_DATA",
	[67] = "BUILD_ID",
	[68] = "FINISHED_ROUND",
	[69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO",
	[71] = "AUXTRACE",
	[72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP",
	[74] = "CPU_MAP",
	[75] = "STAT_CONFIG",
	[76] = "STAT",
	[77] = "STAT_ROUND",
	[78] = "EVENT_UPDATE",
	[79] = "TIME_CONV",
	[80] = "FEATURE",
	[81] = "COMPRESSED",
	[82] = "FINISHED_INIT",
	[83] = "COMPRESSED2",
};

/*
 * Read the "Aggregated stats" block of NAME.record-types.txt into @count.
 * Return: the TOTAL line's value, or -1 (unknown name or no block).
 */
static long long read_record_types(const char *path, uint64_t count[NR_TYPES])
{
	char line[256], name[64];
	unsigned long long n;
	long long total = -1;
	int in_block = 0, t;
	FILE *f = fopen(path, "r");

	memset(count, 0, NR_TYPES * sizeof(count[0]));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Aggregated stats:", 17)) {
			in_block = 1;
			continue;
		}
		if (!in_block)
			continue;
		if (sscanf(line, " %63[A-Z0-9_] events: %llu", name, &n) != 2)
			break; /* per-event block ("cpu-clock stats:") follows */
		if (!strcmp(name, "TOTAL")) {
			total = (long long)n;
			continue;
		}
		for (t = 0; t < NR_TYPES; t++)
			if (type_names[t] && !strcmp(type_names[t], name))
				break;
		if (t == NR_TYPES) {
			total = -1;
			break;
		}
		count[t] = n;
	}
	fclose(f);
	return total;
}

static void check_against_perf(const char *name)
{
	char data[4096], types[4096];
	const char *p;
	uint64_t want[NR_TYPES];
	struct blob b;
	struct walk w;
	long long total;
	int t, line;

	if (!HAVE_LIBZSTD)
		TEST_SKIP("built without libzstd");
	p = test_fixture_path(name);
	if (!p)
		TEST_SKIP("fixture not found (../shared/fixtures)");
	snprintf(data, sizeof(data), "%s", p);
	snprintf(types, sizeof(types), "%.*s.record-types.txt", (int)strlen(data) - 5, data);
	total = read_record_types(types, want);
	TEST_TRUE(total > 0);
	TEST_EQ(load(data, &b), 0);
	line = walk_file(&b, &w);
	free(b.buf);
	TEST_EQ(walk_whole_output(&w), line ? -1 : (long long)w.inner);
	TEST_EQ(line, 0);
	TEST_EQ(w.stop, w.end);
	TEST_TRUE(w.payloads > 0);
	TEST_TRUE(w.inner > 0);
	for (t = 0; t < NR_TYPES; t++)
		if (w.count[t] != want[t])
			TEST_FAIL("record type %d (%s): %" PRIu64 " records, perf counted %" PRIu64,
				  t, type_names[t] ? type_names[t] : "?", w.count[t], want[t]);
	TEST_EQ(w.total, total);
}

static void test_c_zstd_file(void)
{
	check_against_perf("perf-6.1/c-zstd.data");
}

static void test_c2_zstd_pipe(void)
{
	check_against_perf("perf-6.1/c2-zstd-pipe.data");
}

/*
 * Newer perf (6.15+: COMPRESSED2 with u64 data_size and padding), from other
 * machines.  No perf counts come with them: the decompressed records must
 * consume the output exactly.
 */
static void test_compressed_dir(void)
{
	static const struct {
		const char *name;
		uint32_t type; /* compressed record type used, 0 for none */
		int straddle; /* records are known to span payloads */
		int trailing_text; /* perf's stderr was captured into the file */
	} files[] = {
		{ "compressed/sleep.data", 0, 0, 0 },
		{ "compressed/sleep.compressed.data", REC_COMPRESSED, 0, 0 },
		{ "compressed/sleep.compressed.pipe.data", REC_COMPRESSED, 0, 0 },
		{ "compressed/sleep.compressed2.data", REC_COMPRESSED2, 0, 0 },
		{ "compressed/sleep.compressed2.pipe.data", REC_COMPRESSED2, 0, 1 },
		{ "compressed/fibo.compressed2.pipe.data", REC_COMPRESSED2, 1, 0 },
	};
	size_t i;

	if (!HAVE_LIBZSTD)
		TEST_SKIP("built without libzstd");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *p = test_fixture_path(files[i].name);
		struct blob b;
		struct walk w;
		int line;

		if (!p)
			TEST_SKIP("fixture not found (../shared/fixtures/compressed)");
		TEST_EQ(load(p, &b), 0);
		line = walk_file(&b, &w);
		if (walk_whole_output(&w) != (line ? -1 : (long long)w.inner)) {
			free(b.buf);
			TEST_FAIL("%s: the concatenated output does not split into records",
				  files[i].name);
		}
		if (line) {
			free(b.buf);
			TEST_FAIL("%s: walk failed at test-decomp.c:%d", files[i].name, line);
		}
		if (files[i].trailing_text) {
			/* "[ perf record: Woken up ...": not records, perf stops there too */
			const char *txt = "[ perf record:";

			if (w.stop == w.end || b.len - w.stop < strlen(txt) ||
			    memcmp(b.buf + w.stop, txt, strlen(txt))) {
				free(b.buf);
				TEST_FAIL("%s: expected perf's messages after the records",
					  files[i].name);
			}
		} else if (w.stop != w.end) {
			free(b.buf);
			TEST_FAIL("%s: walk stopped at %zu of %zu", files[i].name, w.stop, w.end);
		}
		free(b.buf);
		if (!files[i].type) {
			TEST_EQ(w.payloads, 0);
			continue;
		}
		TEST_EQ(w.payloads, w.count[files[i].type]);
		TEST_TRUE(w.payloads > 0 && w.inner > 0);
		if (files[i].straddle)
			TEST_TRUE(w.straddles > 0);
	}
}

/* the first compressed payload of @name, or skip */
static int first_payload(const char *name, struct blob *file, const uint8_t **payload, size_t *len,
			 size_t nth)
{
	const char *p = test_fixture_path(name);
	size_t off, end;

	if (!p || load(p, file))
		return -1;
	if (get_u64(file->buf + 8) == 16) {
		off = 16;
		end = file->len;
	} else {
		off = get_u64(file->buf + 40);
		end = off + get_u64(file->buf + 48);
	}
	while (end - off >= 8) {
		uint32_t type = get_u32(file->buf + off);
		uint16_t size = get_u16(file->buf + off + 6);

		if (size < 8)
			break;
		if (type == REC_COMPRESSED && !nth--) {
			*payload = file->buf + off + 8;
			*len = size - 8u;
			return 0;
		}
		off += size;
	}
	free(file->buf);
	return -1;
}

/* decompress @src in one go with a fresh decoder */
static int decompress_all(const void *src, size_t len, uint8_t **out, size_t *out_len,
			  size_t *out_cap, size_t max_out)
{
	struct prism_decomp *d = prism_decomp__new();
	int err;

	if (!d)
		return -errno;
	err = prism_decomp__feed(d, src, len, out, out_len, out_cap, max_out);
	prism_decomp__free(d);
	return err;
}

static void test_new_free(void)
{
	struct prism_decomp *d;

	prism_decomp__free(NULL);
	errno = 0;
	d = prism_decomp__new();
#if HAVE_LIBZSTD
	TEST_TRUE(d != NULL);
	prism_decomp__free(d);
#else
	TEST_TRUE(d == NULL);
	TEST_EQ(errno, PRISM_E_NOFEATURE);
#endif
}

/* pieces of any size give the same bytes; output appends after a carried tail */
static void test_split_feed_and_tail(void)
{
	const uint8_t *payload;
	struct blob file;
	size_t len, i, whole_len = 0, whole_cap = 0, part_len, part_cap = 0;
	uint8_t *whole = NULL, *part = NULL;
	struct prism_decomp *d;
	int err = 0;

	if (!HAVE_LIBZSTD)
		TEST_SKIP("built without libzstd");
	if (first_payload("perf-6.1/c-zstd.data", &file, &payload, &len, 0))
		TEST_SKIP("fixture not found");
	TEST_EQ(decompress_all(payload, len, &whole, &whole_len, &whole_cap, MAX_OUT), 0);
	TEST_TRUE(whole_len > len);

	/* a carried 5-byte tail stays in front */
	TEST_EQ(prism_ensure_mem((void **)&part, &part_cap, 1, 5), 0);
	memcpy(part, "TAIL!", 5);
	part_len = 5;
	d = prism_decomp__new();
	TEST_TRUE(d != NULL);
	for (i = 0; i < len && !err; i += 7)
		err = prism_decomp__feed(d, payload + i, len - i < 7 ? len - i : 7, &part,
					 &part_len, &part_cap, MAX_OUT);
	prism_decomp__free(d);
	free(file.buf);
	if (err || part_len != whole_len + 5 || memcmp(part, "TAIL!", 5) ||
	    memcmp(part + 5, whole, whole_len)) {
		free(whole);
		free(part);
		TEST_FAIL("piecewise decompression differs (err %d, %zu vs %zu bytes)", err,
			  part_len, whole_len + 5);
	}
	free(whole);
	free(part);
}

/* a payload cut short gives a prefix; the next payload then cannot be decoded */
static void test_truncated_payload(void)
{
	const uint8_t *p0, *p1;
	struct blob f0, f1;
	size_t len0, len1, full_len = 0, full_cap = 0, out_len = 0, out_cap = 0, before;
	uint8_t *full = NULL, *out = NULL;
	struct prism_decomp *d;
	int err0, err1;

	if (!HAVE_LIBZSTD)
		TEST_SKIP("built without libzstd");
	if (first_payload("perf-6.1/c2-zstd-pipe.data", &f0, &p0, &len0, 0))
		TEST_SKIP("fixture not found");
	if (first_payload("perf-6.1/c2-zstd-pipe.data", &f1, &p1, &len1, 1)) {
		free(f0.buf);
		TEST_SKIP("fixture not found");
	}
	TEST_EQ(decompress_all(p0, len0, &full, &full_len, &full_cap, MAX_OUT), 0);

	d = prism_decomp__new();
	TEST_TRUE(d != NULL);
	err0 = prism_decomp__feed(d, p0, len0 / 2, &out, &out_len, &out_cap, MAX_OUT);
	before = out_len;
	/* skip the rest of payload 0: payload 1 continues a stream we lost */
	err1 = prism_decomp__feed(d, p1, len1, &out, &out_len, &out_cap, MAX_OUT);
	prism_decomp__free(d);
	free(f0.buf);
	free(f1.buf);
	if (err0 || before > full_len || memcmp(out, full, before)) {
		free(full);
		free(out);
		TEST_FAIL("half a payload is not a prefix of the whole (err %d, %zu of %zu)", err0,
			  before, full_len);
	}
	free(full);
	free(out);
	TEST_TRUE(before < full_len);
	TEST_EQ(err1, -PRISM_E_DECOMPRESS);
	TEST_EQ(out_len, before);
}

static void test_corrupt_payload(void)
{
	static const uint8_t garbage[64] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
	const uint8_t *payload;
	struct blob file;
	size_t len, i, out_len, out_cap = 0, n_err = 0;
	uint8_t *copy, *out = NULL;
	int err;

	if (!HAVE_LIBZSTD)
		TEST_SKIP("built without libzstd");
	out_len = 3; /* a carried tail must survive an error */
	TEST_EQ(prism_ensure_mem((void **)&out, &out_cap, 1, 3), 0);
	err = decompress_all(garbage, sizeof(garbage), &out, &out_len, &out_cap, MAX_OUT);
	if (err != -PRISM_E_DECOMPRESS || out_len != 3) {
		free(out);
		TEST_FAIL("garbage: err %d, out_len %zu", err, out_len);
	}
	if (first_payload("perf-6.1/c-zstd.data", &file, &payload, &len, 0)) {
		free(out);
		TEST_SKIP("fixture not found");
	}
	copy = malloc(len);
	if (!copy) {
		free(out);
		free(file.buf);
		TEST_FAIL("out of memory");
	}
	memcpy(copy, payload, len);
	copy[0] ^= 0xff; /* zstd frame magic */
	err = decompress_all(copy, len, &out, &out_len, &out_cap, MAX_OUT);
	if (err != -PRISM_E_DECOMPRESS || out_len != 3) {
		free(out);
		free(copy);
		free(file.buf);
		TEST_FAIL("bad magic: err %d, out_len %zu", err, out_len);
	}
	/* every single-byte corruption: an error or bounded output, never a crash */
	for (i = 0; i < len; i++) {
		memcpy(copy, payload, len);
		copy[i] ^= (uint8_t)(0x5a + i);
		out_len = 3;
		err = decompress_all(copy, len, &out, &out_len, &out_cap, 4096);
		if (err) {
			n_err++;
			if (err != -PRISM_E_DECOMPRESS || out_len != 3)
				break;
		} else if (out_len > 3 + 4096) {
			break;
		}
	}
	free(copy);
	free(file.buf);
	free(out);
	TEST_EQ(i, len);
	TEST_TRUE(n_err > len / 2);
}

static void test_max_out(void)
{
	const uint8_t *payload;
	struct blob file;
	size_t len, n, out_len = 0, out_cap = 0;
	uint8_t *out = NULL;
	int err;

	if (!HAVE_LIBZSTD)
		TEST_SKIP("built without libzstd");
	if (first_payload("perf-6.1/c-zstd.data", &file, &payload, &len, 0))
		TEST_SKIP("fixture not found");
	TEST_EQ(decompress_all(payload, len, &out, &out_len, &out_cap, MAX_OUT), 0);
	n = out_len;
	out_len = 0;
	err = decompress_all(payload, len, &out, &out_len, &out_cap, n);
	if (err || out_len != n) {
		free(out);
		free(file.buf);
		TEST_FAIL("exact bound: err %d, %zu of %zu bytes", err, out_len, n);
	}
	out_len = 0;
	err = decompress_all(payload, len, &out, &out_len, &out_cap, n - 1);
	free(out);
	free(file.buf);
	TEST_EQ(err, -PRISM_E_DECOMPRESS);
	TEST_EQ(out_len, 0);
}

/* 64 MiB of zeros in a few hundred bytes: the buffer must not follow */
static void test_zip_bomb(void)
{
#if HAVE_LIBZSTD
	size_t big = 64u << 20, bound = ZSTD_compressBound(big), clen, out_len = 0, out_cap = 0;
	uint8_t *zeros = calloc(1, big), *comp = malloc(bound), *out = NULL;
	int err;

	if (!zeros || !comp) {
		free(zeros);
		free(comp);
		TEST_FAIL("out of memory");
	}
	clen = ZSTD_compress(comp, bound, zeros, big, 1);
	free(zeros);
	if (ZSTD_isError(clen)) {
		free(comp);
		TEST_FAIL("ZSTD_compress: %s", ZSTD_getErrorName(clen));
	}
	err = decompress_all(comp, clen, &out, &out_len, &out_cap, MAX_OUT);
	free(comp);
	free(out);
	TEST_TRUE(clen < 64 * 1024);
	TEST_EQ(err, -PRISM_E_DECOMPRESS);
	TEST_EQ(out_len, 0);
	TEST_TRUE(out_cap <= 2 * (MAX_OUT + ZSTD_DStreamOutSize()));
#else
	TEST_SKIP("built without libzstd");
#endif
}

TEST_MAIN(TEST(new_free), TEST(c_zstd_file), TEST(c2_zstd_pipe), TEST(compressed_dir),
	  TEST(split_feed_and_tail), TEST(truncated_payload), TEST(corrupt_payload), TEST(max_out),
	  TEST(zip_bomb));
