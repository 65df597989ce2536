// SPDX-License-Identifier: MIT
/*
 * The profile and trace writers of lib/export on hand-made samples: pprof
 * (inlined frames share a location, strings and counts), Perfetto (the
 * first packet byte for byte, utilization windows), speedscope (the whole
 * document), and write errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_ZLIB
#include <zlib.h>
#endif

#include <prism/error.h>
#include <prism/export-perfetto.h>
#include <prism/export-pprof.h>
#include <prism/export-speedscope.h>

#include "test.h"

static const struct prism_frame chain[] = {
	{ .ip = 0x1010, .sym = "inl", .kind = PRISM_FRAME_INLINED },
	{ .ip = 0x1010, .sym = "outer", .kind = PRISM_FRAME_USER },
	{ .ip = 0x2020, .sym = "main", .kind = PRISM_FRAME_USER },
};

static size_t slurp(FILE *fp, uint8_t *buf, size_t size)
{
	rewind(fp);
	return fread(buf, 1, size, fp);
}

static bool has(const uint8_t *buf, size_t n, const void *what, size_t len)
{
	return memmem(buf, n, what, len) != NULL;
}

static void test_pprof_inlines_and_strings(void)
{
#if HAVE_ZLIB
	struct prism_pprof_opts o = { .value = PRISM_PPROF_CPU_NS,
				      .no_srcline = true,
				      .labels = true };
	struct prism_export_sample s = {
		.comm = "wl", .pid = 7, .tid = 8, .period = 1000, .frames = chain, .nr = 3
	};
	struct prism_pprof_stats st;
	static uint8_t comp[65536], raw[65536];
	struct prism_pprof *p;
	z_stream z = { 0 };
	FILE *fp = tmpfile();
	size_t n;

	TEST_TRUE(fp);
	p = prism_pprof__new(fp, NULL, &o);
	TEST_TRUE(p);
	TEST_EQ(prism_pprof__add(p, &s), 0);
	s.frames = chain + 2; /* main alone */
	s.nr = 1;
	TEST_EQ(prism_pprof__add(p, &s), 0);
	TEST_EQ(prism_pprof__add(p, &s), 0);
	TEST_EQ(prism_pprof__finish(p, 0, 5000, &st), 0);
	prism_pprof__free(p);
	TEST_EQ(st.samples, 3);
	TEST_EQ(st.locations, 2); /* inl+outer at 0x1010, main at 0x2020 */
	TEST_EQ(st.functions, 3);
	TEST_EQ(st.mappings, 0);
	n = slurp(fp, comp, sizeof(comp));
	TEST_EQ(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = comp;
	z.avail_in = (uInt)n;
	z.next_out = raw;
	z.avail_out = sizeof(raw);
	TEST_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
	n = z.total_out;
	inflateEnd(&z);
	TEST_EQ(n, st.proto_bytes);
	/* string_table (6) entries: "" first, then the label keys */
	TEST_TRUE(has(raw, n,
		      "\x32\x00\x32\x03pid\x32\x03tid\x32\x04"
		      "comm\x32\x03"
		      "cpu",
		      21));
	TEST_TRUE(has(raw, n, "\x32\x0bnanoseconds", 13));
	TEST_TRUE(has(raw, n, "\x32\x05outer", 7));
	/* duration_nanos (10) = 5000 */
	TEST_TRUE(has(raw, n, "\x50\x88\x27", 3));
	/* the first location: id 1, address 0x1010, two lines (functions 1 and 2) */
	TEST_TRUE(has(raw, n, "\x22\x0d\x08\x01\x18\x90\x20\x22\x02\x08\x01\x22\x02\x08\x02", 15));
	fclose(fp);
#else
	TEST_SKIP("built without zlib");
#endif
}

static void test_pprof_write_error(void)
{
	struct prism_pprof_opts o = { .no_srcline = true };
	struct prism_export_sample s = { .period = 1, .frames = chain, .nr = 3 };
	struct prism_pprof *p;
	FILE *fp = fopen("/dev/full", "w");
	int i, err = 0;

	if (!fp)
		TEST_SKIP("no /dev/full");
	p = prism_pprof__new(fp, NULL, &o);
	if (!p && errno == PRISM_E_NOFEATURE) {
		fclose(fp);
		TEST_SKIP("built without zlib");
	}
	TEST_TRUE(p);
	for (i = 0; i < 100000 && !err; i++)
		err = prism_pprof__add(p, &s);
	if (!err)
		err = prism_pprof__finish(p, 0, 0, NULL);
	TEST_EQ(err, -ENOSPC);
	prism_pprof__free(p);
	fclose(fp);
}

static void test_perfetto_first_packet(void)
{
	/* Trace.packet { trusted_packet_sequence_id: 1, incremental_state_cleared: true, sequence_flags: 1 } */
	static const uint8_t want[] = { 0x0a, 0x07, 0x50, 0x01, 0xc8, 0x02, 0x01, 0x68, 0x01 };
	struct prism_perfetto *pf;
	uint8_t buf[64];
	FILE *fp = tmpfile();

	TEST_TRUE(fp);
	pf = prism_perfetto__new(fp, NULL);
	TEST_TRUE(pf);
	TEST_EQ(prism_perfetto__finish(pf, 0, NULL), 0);
	prism_perfetto__free(pf);
	TEST_EQ(slurp(fp, buf, sizeof(buf)), sizeof(want));
	TEST_MEMEQ(buf, want, sizeof(want));
	fclose(fp);
}

static size_t count(const uint8_t *buf, size_t n, const void *what, size_t len)
{
	const uint8_t *p = buf;
	size_t c = 0;

	while ((p = memmem(p, n - (size_t)(p - buf), what, len))) {
		c++;
		p++;
	}
	return c;
}

static void test_perfetto_utilization(void)
{
	struct prism_perfetto_opts o = { .util_window = 10000000 };
	struct prism_perfetto_stats st;
	struct prism_perfetto *pf;
	static uint8_t buf[65536];
	FILE *fp = tmpfile();
	size_t n;

	TEST_TRUE(fp);
	pf = prism_perfetto__new(fp, &o);
	TEST_TRUE(pf);
	/* CPU 0: busy 0-5 ms, idle 5-25 ms, busy 25-30 ms */
	TEST_EQ(prism_perfetto__switch(pf, 0, 0, 0, "swapper", 0, 5, "wl"), 0);
	TEST_EQ(prism_perfetto__switch(pf, 0, 5000000, 5, "wl", 1, 0, "swapper"), 0);
	TEST_EQ(prism_perfetto__switch(pf, 0, 25000000, 0, "swapper", 0, 5, "wl"), 0);
	TEST_EQ(prism_perfetto__finish(pf, 30000000, &st), 0);
	prism_perfetto__free(pf);
	TEST_EQ(st.switches, 3);
	TEST_EQ(st.counters, 3);
	n = slurp(fp, buf, sizeof(buf));
	/* TrackEvent.counter_value (30): 50, 0, 50 */
	TEST_EQ(count(buf, n, "\xf0\x01\x32", 3), 2);
	TEST_EQ(count(buf, n, "\xf0\x01\x00", 3), 1);
	/* the three switches in one bundle of CPU 0 */
	TEST_EQ(count(buf, n, "\x22", 1) >= 3, 1);
	fclose(fp);
}

static void test_speedscope_document(void)
{
	static const char want[] =
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		"\"exporter\":\"prism " PRISM_VERSION "\",\"name\":\"t\",\"activeProfileIndex\":0,"
		"\"shared\":{\"frames\":[{\"name\":\"inl\",\"file\":\"[unknown]\"},"
		"{\"name\":\"outer\",\"file\":\"[unknown]\"},{\"name\":\"main\",\"file\":\"[unknown]\"}]},"
		"\"profiles\":[{\"type\":\"sampled\",\"name\":\"b (2/3)\",\"unit\":\"nanoseconds\","
		"\"startValue\":0,\"endValue\":30,\"samples\":[[2]],\"weights\":[30]},"
		"{\"type\":\"sampled\",\"name\":\"a \\\"x\\\" (1/1)\",\"unit\":\"nanoseconds\","
		"\"startValue\":0,\"endValue\":20,\"samples\":[[2,1,0],[2]],\"weights\":[10,10]}]}\n";
	struct prism_speedscope_opts o = { .name = "t", .unit = "nanoseconds" };
	struct prism_export_sample s = {
		.comm = "a \"x\"", .pid = 1, .tid = 1, .period = 10, .frames = chain, .nr = 3
	};
	struct prism_speedscope_stats st;
	struct prism_speedscope *ss;
	static char buf[4096];
	FILE *fp = tmpfile();
	size_t n;

	TEST_TRUE(fp);
	ss = prism_speedscope__new(fp, &o);
	TEST_TRUE(ss);
	TEST_EQ(prism_speedscope__add(ss, &s), 0);
	s.frames = chain + 2;
	s.nr = 1;
	TEST_EQ(prism_speedscope__add(ss, &s), 0);
	s.comm = "b";
	s.pid = 2;
	s.tid = 3;
	s.period = 30;
	TEST_EQ(prism_speedscope__add(ss, &s), 0);
	TEST_EQ(prism_speedscope__finish(ss, &st), 0);
	prism_speedscope__free(ss);
	TEST_EQ(st.samples, 3);
	TEST_EQ(st.profiles, 2);
	TEST_EQ(st.frames, 3);
	n = slurp(fp, (uint8_t *)buf, sizeof(buf) - 1);
	buf[n] = '\0';
	TEST_STREQ(buf, want);
	TEST_EQ(n, st.bytes);
	fclose(fp);
}

/* a thread with more samples than the in-memory buffer: spilled and read back in order */
static void test_speedscope_spill(void)
{
	struct prism_speedscope_opts o = { .name = "t" };
	struct prism_export_sample s = { .comm = "a", .pid = 1, .tid = 1, .frames = chain, .nr = 1 };
	struct prism_speedscope *ss;
	static char buf[1 << 20];
	char *w;
	FILE *fp = tmpfile();
	size_t n, i;

	TEST_TRUE(fp);
	ss = prism_speedscope__new(fp, &o);
	TEST_TRUE(ss);
	for (i = 0; i < 20000; i++) {
		s.period = i;
		TEST_EQ(prism_speedscope__add(ss, &s), 0);
	}
	TEST_EQ(prism_speedscope__finish(ss, NULL), 0);
	prism_speedscope__free(ss);
	n = slurp(fp, (uint8_t *)buf, sizeof(buf) - 1);
	buf[n] = '\0';
	w = strstr(buf, "\"weights\":[");
	TEST_TRUE(w);
	w += strlen("\"weights\":[");
	for (i = 0; i < 20000; i++) {
		char *end;

		TEST_EQ(strtoull(w, &end, 10), i);
		TEST_TRUE(*end == (i + 1 < 20000 ? ',' : ']'));
		w = end + 1;
	}
	fclose(fp);
}

TEST_MAIN(TEST(pprof_inlines_and_strings), TEST(pprof_write_error), TEST(perfetto_first_packet),
	  TEST(perfetto_utilization), TEST(speedscope_document), TEST(speedscope_spill));
