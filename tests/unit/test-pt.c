// SPDX-License-Identifier: MIT
/*
 * lib/pt: the AUX-area records, TSC <-> perf time, and the packet dump's
 * edge cases (an empty trace, a packet cut at the end, bytes that are no
 * packet, the flush callback).  t1000 compares whole dumps with perf.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/core.h>
#include <prism/error.h>
#include <prism/pt.h>
#include <prism/strbuf.h>

#include "test.h"

static uint64_t rec[64];

/* an event over rec[] with a header of @type and @size bytes */
static struct prism_event event(uint32_t type, uint16_t size)
{
	struct prism_event ev;
	struct perf_event_header *h = (struct perf_event_header *)rec;

	memset(&ev, 0, sizeof(ev));
	h->type = type;
	h->misc = 0;
	h->size = size;
	ev.raw = h;
	ev.type = type;
	return ev;
}

static void test_info(void)
{
	struct prism_pt_info i;
	struct prism_event ev;
	struct prism_time_conv tc;
	int k;

	memset(rec, 0, sizeof(rec));
	rec[1] = PRISM_AUXTRACE_INTEL_PT;
	for (k = 0; k < 17; k++)
		rec[2 + k] = 100 + (uint64_t)k;
	rec[2 + 16] = 5; /* filter string length */
	memcpy(&rec[19], "main\0\0\0", 8);
	ev = event(PRISM_RECORD_AUXTRACE_INFO, 8 + 8 + 18 * 8);
	TEST_EQ(prism_pt_info__parse(&ev, &i), 0);
	TEST_EQ(i.type, 1);
	TEST_EQ_U64(i.pmu_type, 100);
	TEST_EQ_U64(i.time_zero, 103);
	TEST_EQ_U64(i.per_cpu_mmaps, 109);
	TEST_TRUE(i.has_mtc && i.has_filter);
	TEST_EQ_U64(i.max_nonturbo_ratio, 115);
	TEST_STREQ(i.filter, "main");
	prism_pt_info__time_conv(&i, &tc);
	TEST_EQ_U64(tc.time_mult, 102);
	/* a perf 4.2 record: no MTC words, no filter */
	ev = event(PRISM_RECORD_AUXTRACE_INFO, 8 + 8 + 10 * 8);
	TEST_EQ(prism_pt_info__parse(&ev, &i), 0);
	TEST_TRUE(!i.has_mtc && !i.has_filter && !i.filter);
	/* too short for Intel PT; another tracer's record parses to its type only */
	ev = event(PRISM_RECORD_AUXTRACE_INFO, 8 + 8 + 9 * 8);
	TEST_EQ(prism_pt_info__parse(&ev, &i), -PRISM_E_BAD_RECORD);
	rec[1] = 3;
	TEST_EQ(prism_pt_info__parse(&ev, &i), 0);
	TEST_EQ(i.type, 3);
	TEST_EQ(i.nr_priv, 9);
	/* the filter string without its NUL inside the record is not taken */
	rec[1] = PRISM_AUXTRACE_INTEL_PT;
	memcpy(&rec[19], "mainmain", 8);
	ev = event(PRISM_RECORD_AUXTRACE_INFO, 8 + 8 + 18 * 8);
	TEST_EQ(prism_pt_info__parse(&ev, &i), 0);
	TEST_TRUE(!i.filter);
}

static void test_records(void)
{
	static const uint8_t bytes[16] = { 1, 2, 3 };
	struct prism_event ev;
	struct prism_auxtrace at;
	struct prism_aux aux;
	struct prism_auxtrace_error e;
	uint32_t pid, tid;

	memset(rec, 0, sizeof(rec));
	rec[1] = 16;
	rec[2] = 0x100;
	rec[3] = 0x1234;
	rec[4] = 2 | (uint64_t)77 << 32; /* idx, tid */
	rec[5] = 3; /* cpu */
	ev = event(PRISM_RECORD_AUXTRACE, 48);
	ev.payload = bytes;
	ev.payload_size = 16;
	TEST_EQ(prism_auxtrace__parse(&ev, &at), 0);
	TEST_EQ_U64(at.size, 16);
	TEST_EQ_U64(at.reference, 0x1234);
	TEST_EQ(at.idx, 2);
	TEST_EQ(at.tid, 77);
	TEST_EQ(at.cpu, 3);
	TEST_TRUE(at.data == bytes);
	ev.payload = NULL;
	TEST_EQ(prism_auxtrace__parse(&ev, &at), 0);
	TEST_TRUE(!at.data);
	ev = event(PRISM_RECORD_AUXTRACE, 40);
	TEST_EQ(prism_auxtrace__parse(&ev, &at), -PRISM_E_BAD_RECORD);

	rec[1] = 8;
	rec[2] = 0x60;
	rec[3] = PRISM_AUX_FLAG_TRUNCATED | PRISM_AUX_FLAG_COLLISION;
	ev = event(PERF_RECORD_AUX, 32);
	TEST_EQ(prism_aux__parse(&ev, &aux), 0);
	TEST_EQ_U64(aux.size, 0x60);
	TEST_EQ_U64(aux.flags, 9);
	ev = event(PERF_RECORD_AUX, 24);
	TEST_EQ(prism_aux__parse(&ev, &aux), -PRISM_E_BAD_RECORD);

	rec[1] = 5 | (uint64_t)6 << 32;
	ev = event(PERF_RECORD_ITRACE_START, 16);
	TEST_EQ(prism_itrace_start__parse(&ev, &pid, &tid), 0);
	TEST_EQ(pid, 5);
	TEST_EQ(tid, 6);
	/* a record of another type is not read as this one */
	ev = event(PERF_RECORD_AUX, 16);
	TEST_EQ(prism_itrace_start__parse(&ev, &pid, &tid), -PRISM_E_BAD_RECORD);

	/* AUXTRACE_ERROR, fmt 1: time before the message; fmt 0: the message at its place */
	memset(rec, 0, sizeof(rec));
	rec[1] = 1 | (uint64_t)7 << 32;
	rec[2] = 0 | (uint64_t)10 << 32;
	rec[3] = 11 | (uint64_t)1 << 32;
	rec[4] = 0x4000;
	rec[5] = 999;
	memcpy(&rec[6], "Overflow packet", 16);
	ev = event(PRISM_RECORD_AUXTRACE_ERROR, 8 + 40 + 64);
	TEST_EQ(prism_auxtrace_error__parse(&ev, &e), 0);
	TEST_EQ(e.code, 7);
	TEST_EQ(e.tid, 11);
	TEST_EQ_U64(e.time, 999);
	TEST_STREQ(e.msg, "Overflow packet");
	rec[3] = 11;
	memcpy(&rec[5], "old", 4);
	TEST_EQ(prism_auxtrace_error__parse(&ev, &e), 0);
	TEST_EQ_U64(e.time, 0);
	TEST_STREQ(e.msg, "old");
}

static void test_time(void)
{
	struct prism_time_conv tc = { .time_shift = 10, .time_mult = 512, .time_zero = 1000 };
	struct prism_event ev;
	uint64_t tsc;

	/* ns = tsc / 2 + zero (perfdata-pt.py's clock) */
	TEST_EQ_U64(prism_tsc_to_perf_time(&tc, 2000000), 1001000);
	TEST_EQ_U64(prism_tsc_to_perf_time(&tc, 1025), 1512);
	for (tsc = 0; tsc < 100000; tsc += 4097)
		TEST_EQ_U64(prism_perf_time_to_tsc(&tc, prism_tsc_to_perf_time(&tc, tsc)),
			    tsc & ~(uint64_t)1);
	/* durations: 1 us is 2000 ticks; none without a multiplier; a damaged shift is 63 */
	TEST_EQ_U64(prism_ns_to_tsc_ticks(&tc, 1000), 2000);
	tc.time_mult = 0;
	TEST_EQ_U64(prism_ns_to_tsc_ticks(&tc, 1000), 1000);
	TEST_EQ_U64(prism_perf_time_to_tsc(&tc, 1000), 0);
	tc = (struct prism_time_conv){ .time_shift = 0x7800000000000000ull, .time_mult = 3 };
	TEST_EQ_U64(prism_ns_to_tsc_ticks(&tc, 3), 1ull << 63);
	/* a 1:1 clock with cap_user_time_short: the counter wraps at the mask */
	tc = (struct prism_time_conv){ .time_shift = 0,
				       .time_mult = 1,
				       .time_zero = 0,
				       .time_cycles = 0x100,
				       .time_mask = 0xff,
				       .cap_user_time_short = true };
	TEST_EQ_U64(prism_tsc_to_perf_time(&tc, 0x305), 0x105);

	memset(rec, 0, sizeof(rec));
	rec[1] = 10;
	rec[2] = 512;
	rec[3] = 7;
	ev = event(PRISM_RECORD_TIME_CONV, 32); /* before perf 5.12: three words */
	TEST_EQ(prism_time_conv__parse(&ev, &tc), 0);
	TEST_TRUE(!tc.has_ext && tc.cap_user_time_zero);
	TEST_EQ_U64(tc.time_zero, 7);
	rec[4] = 5;
	rec[5] = 0xffff;
	rec[6] = 0x0101;
	ev = event(PRISM_RECORD_TIME_CONV, 56);
	TEST_EQ(prism_time_conv__parse(&ev, &tc), 0);
	TEST_TRUE(tc.has_ext && tc.cap_user_time_short);
	TEST_EQ_U64(tc.time_mask, 0xffff);
	ev = event(PRISM_RECORD_TIME_CONV, 24);
	TEST_EQ(prism_time_conv__parse(&ev, &tc), -PRISM_E_BAD_RECORD);
}

static int flushes;
static int count_flush(void *ctx, struct prism_strbuf *sb)
{
	(void)ctx;
	flushes++;
	prism_strbuf_reset(sb);
	return flushes == 3 ? 42 : 0;
}

static void test_packets(void)
{
	/* a TNT, a TIP cut in its payload at the end of the trace */
	static const uint8_t cut[] = { 0x06, 0x6d, 0x39, 0x51 };
	static const uint8_t pad[] = { 0x02, 0x23, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct prism_strbuf sb = STRBUF_INIT;
	uint8_t *big;
	int err;

	if (!prism_feature_enabled(PRISM_FEATURE_LIBIPT))
		TEST_SKIP("built without libipt");
	TEST_EQ(prism_pt__dump_packets(cut, 0, &sb, NULL, NULL), 0);
	TEST_STREQ(sb.buf, ". ... Intel Processor Trace data: size 0 bytes\n");
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_pt__dump_packets(cut, sizeof(cut), &sb, NULL, NULL), 0);
	TEST_STREQ(sb.buf,
		   ". ... Intel Processor Trace data: size 4 bytes\n"
		   ".  00000000:  06                                              TNT T (1)\n"
		   ".  00000001:  6d                                              Bad packet!\n"
		   ".  00000002:  39                                              Bad packet!\n"
		   ".  00000003:  51                                              Bad packet!\n");
	/* zeros after a packet go with it up to 8 bytes, the rest are a PAD */
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_pt__dump_packets(pad, sizeof(pad), &sb, NULL, NULL), 0);
	TEST_STREQ(sb.buf, ". ... Intel Processor Trace data: size 10 bytes\n"
			   ".  00000000:  02 23 00 00 00 00 00 00                         PSBEND\n"
			   ".  00000008:  00 00                                           PAD\n");
	/* a big trace goes out in pieces; the callback's non-zero return stops it */
	big = calloc(1, 1 << 20);
	TEST_TRUE(big);
	prism_strbuf_reset(&sb);
	flushes = 0;
	err = prism_pt__dump_packets(big, 1 << 20, &sb, count_flush, NULL);
	free(big);
	TEST_EQ(err, 42);
	TEST_EQ(flushes, 3);
	prism_strbuf_release(&sb);
}

static void test_pmu(void)
{
	char dir[] = "/tmp/prism-test-pt-XXXXXX", path[128];
	FILE *f;

	TEST_TRUE(prism_pt__names_intel_pt("intel_pt//u"));
	TEST_TRUE(prism_pt__names_intel_pt("intel_pt"));
	TEST_TRUE(prism_pt__names_intel_pt("cycles,intel_pt/cyc/k"));
	TEST_TRUE(prism_pt__names_intel_pt("{intel_pt//,cycles}"));
	TEST_TRUE(prism_pt__names_intel_pt("intel_pt:u"));
	TEST_TRUE(!prism_pt__names_intel_pt("intel_ptx//"));
	TEST_TRUE(!prism_pt__names_intel_pt("my_intel_pt//"));
	TEST_TRUE(!prism_pt__names_intel_pt("cpu-clock"));
	/* a sysfs tree with and without the PMU */
	TEST_TRUE(mkdtemp(dir));
	TEST_TRUE(!prism_pt__pmu_present(dir));
	snprintf(path, sizeof(path), "mkdir -p %s/bus/event_source/devices/intel_pt", dir);
	TEST_EQ(system(path), 0);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/intel_pt/type", dir);
	f = fopen(path, "w");
	TEST_TRUE(f);
	fputs("8\n", f);
	fclose(f);
	TEST_TRUE(prism_pt__pmu_present(dir));
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	TEST_EQ(system(path), 0);
}

static void test_itrace(void)
{
	struct prism_itrace o;
	struct prism_strbuf sb = STRBUF_INIT;
	const char *bad = NULL;

	TEST_EQ(prism_itrace__parse("i1i", &o, NULL), 0);
	TEST_TRUE(o.instructions && !o.branches && o.period == 1);
	TEST_EQ(o.period_type, PRISM_ITRACE_INSNS);
	TEST_EQ(prism_itrace__parse("i100us", &o, NULL), 0);
	TEST_EQ_U64(o.period, 100000);
	TEST_EQ(o.period_type, PRISM_ITRACE_NS);
	TEST_EQ(prism_itrace__parse("i", &o, NULL), 0); /* perf's default i100us */
	TEST_EQ_U64(o.period, 100000);
	TEST_EQ(prism_itrace__parse("i10000", &o, NULL), 0); /* perf: ns */
	TEST_TRUE(o.period == 10000 && o.period_type == PRISM_ITRACE_NS);
	TEST_EQ(prism_itrace__parse("i10000i", &o, NULL), 0);
	TEST_TRUE(o.period == 10000 && o.period_type == PRISM_ITRACE_INSNS);
	TEST_EQ(prism_itrace__parse("crg8s5", &o, NULL), 0);
	TEST_TRUE(o.branches && o.calls && o.returns && o.callchain);
	TEST_EQ(o.callchain_sz, 8);
	TEST_EQ_U64(o.skip, 5);
	TEST_EQ(prism_itrace__parse("bq", &o, &bad), -EINVAL);
	TEST_EQ(*bad, 'q');
	TEST_EQ(prism_itrace__parse("i0i", &o, &bad), -EINVAL);
	TEST_EQ(prism_itrace__parse("g0", &o, &bad), -EINVAL);
	/* l[N]: perf's 64 by default, 1 to 1024 */
	TEST_EQ(prism_itrace__parse("i1il", &o, NULL), 0);
	TEST_TRUE(o.last_branch && o.last_branch_sz == 64 && o.instructions);
	TEST_EQ(prism_itrace__parse("l8i3i", &o, NULL), 0);
	TEST_TRUE(o.last_branch && o.last_branch_sz == 8 && o.period == 3);
	TEST_EQ(prism_itrace__parse("il1024", &o, NULL), 0);
	TEST_EQ(o.last_branch_sz, 1024);
	TEST_EQ(prism_itrace__parse("il1025", &o, &bad), -EINVAL);
	TEST_EQ(*bad, 'l');
	TEST_EQ(prism_itrace__parse("il0", &o, &bad), -EINVAL);
	TEST_EQ(prism_itrace__parse("ig99999999999999999999", &o, &bad), -EINVAL);
	TEST_EQ(*bad, 'g');
	/* as perf: a unit after spaces or commas; a bare number ends the options */
	TEST_EQ(prism_itrace__parse("i2, us", &o, NULL), 0);
	TEST_TRUE(o.period == 2000 && o.period_type == PRISM_ITRACE_NS);
	TEST_EQ(prism_itrace__parse("i3t,b", &o, NULL), 0);
	TEST_TRUE(o.period == 3 && o.period_type == PRISM_ITRACE_TICKS && o.branches);
	TEST_EQ(prism_itrace__parse("i2000b", &o, &bad), -EINVAL);
	TEST_EQ(*bad, 'b');
	prism_pt_flags__str(PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL, &sb);
	TEST_STREQ(sb.buf, "call");
	prism_strbuf_reset(&sb);
	prism_pt_flags__str(PRISM_PT_FL_TRACE_BEGIN, &sb);
	TEST_STREQ(sb.buf, "tr strt");
	prism_strbuf_reset(&sb);
	prism_pt_flags__str(PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN | PRISM_PT_FL_TRACE_END, &sb);
	TEST_STREQ(sb.buf, "tr end  return");
	prism_strbuf_release(&sb);
}

/* x, p, w, d; perf's flags of transactions; perf's frequency of a CBR */
static void test_itrace_events(void)
{
	struct prism_itrace o;
	struct prism_strbuf sb;
	struct prism_pt_info info = { .time_shift = 10, .time_mult = 512, .has_mtc = true };
	unsigned int mhz, pc;

	TEST_EQ(prism_itrace__parse("xpwd", &o, NULL), 0);
	TEST_TRUE(o.transactions && o.pwr_events && o.ptwrites && o.log);
	TEST_TRUE(!o.branches && !o.instructions);
	TEST_EQ(prism_itrace__parse("b", &o, NULL), 0);
	TEST_TRUE(!o.transactions && !o.pwr_events && !o.ptwrites && !o.log);
	prism_strbuf_init(&sb);
	prism_pt_flags__str(PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL | PRISM_PT_FL_IN_TX, &sb);
	TEST_STREQ(sb.buf, "call              (x)");
	prism_strbuf_reset(&sb);
	prism_pt_flags__str(PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN | PRISM_PT_FL_TRACE_END |
				    PRISM_PT_FL_IN_TX,
			    &sb);
	TEST_STREQ(sb.buf, "tr end  return    (x)");
	prism_strbuf_reset(&sb);
	prism_pt_flags__str(PRISM_PT_FL_IN_TX, &sb); /* a transaction's begin: perf's letter */
	TEST_STREQ(sb.buf, "x");
	prism_strbuf_reset(&sb);
	prism_pt_flags__str(PRISM_PT_FL_BRANCH | PRISM_PT_FL_TX_ABORT, &sb);
	TEST_STREQ(sb.buf, "tx abrt");
	prism_strbuf_reset(&sb);
	prism_pt_flags__str(0, &sb); /* a commit */
	TEST_EQ(sb.len, 0);
	prism_strbuf_release(&sb);
	/* the TSC at 2 GHz (ns = ticks / 2), MAX_NONTURBO_RATIO 24: 83333 kHz a ratio */
	info.max_nonturbo_ratio = 24;
	prism_pt_cbr_freq(&info, 40, &mhz, &pc);
	TEST_EQ(mhz, 3333);
	TEST_EQ(pc, 167);
	prism_pt_cbr_freq(&info, 24, &mhz, &pc);
	TEST_EQ(mhz, 2000);
	TEST_EQ(pc, 100);
	info.max_nonturbo_ratio = 0; /* unknown: neither */
	prism_pt_cbr_freq(&info, 40, &mhz, &pc);
	TEST_EQ(mhz, 0);
	TEST_EQ(pc, 0);
}

TEST_MAIN(TEST(info), TEST(records), TEST(time), TEST(packets), TEST(pmu), TEST(itrace),
	  TEST(itrace_events));
