// SPDX-License-Identifier: MIT
/*
 * The context-switch fallback of off-CPU profiling on synthetic sequences
 * of PERF_RECORD_SWITCH records and context-switches samples.
 */
#include <errno.h>

#include <prism/event.h>
#include <prism/offcpu.h>

#include "test.h"

#define MAX_IV 4096

struct got {
	struct prism_offcpu_interval iv[MAX_IV];
	uint64_t chain[MAX_IV][4]; /* first callchain entries, copied */
	size_t nr;
	int ret; /* what the callback returns */
};

static struct got got;

static int collect(const struct prism_offcpu_interval *iv, void *arg)
{
	struct got *g = arg;
	uint64_t i;

	if (g->nr < MAX_IV) {
		g->iv[g->nr] = *iv;
		for (i = 0; i < iv->callchain_nr && i < 4; i++)
			g->chain[g->nr][i] = iv->callchain[i];
		g->iv[g->nr].callchain = iv->callchain ? g->chain[g->nr] : NULL;
		g->nr++;
	}
	return g->ret;
}

static struct prism_offcpu_fallback *new_fb(bool preempted)
{
	struct prism_offcpu_fallback_opts o = {
		.fn = collect,
		.arg = &got,
		.include_preempted = preempted,
	};

	memset(&got, 0, sizeof(got));
	return prism_offcpu_fallback__new(&o);
}

static const uint64_t chain_a[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ull, PERF_CONTEXT_USER,
				    0x401234 };
static const uint64_t chain_b[] = { PERF_CONTEXT_USER, 0x405678 };

static void test_basic_pair(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);
	const struct prism_offcpu_fallback_stats *st;

	TEST_TRUE(fb);
	TEST_EQ(prism_offcpu_fallback__sample(fb, 1000, 7, 8, 0, chain_a, 4), 0);
	TEST_EQ(prism_offcpu_fallback__switch(fb, 1001, 7, 8, 0, true, false), 0);
	TEST_EQ(got.nr, 0);
	TEST_EQ(prism_offcpu_fallback__switch(fb, 11001, 7, 8, 1, false, false), 0);
	TEST_EQ(got.nr, 1);
	TEST_EQ(got.iv[0].pid, 7);
	TEST_EQ(got.iv[0].tid, 8);
	TEST_EQ_U64(got.iv[0].start, 1001);
	TEST_EQ_U64(got.iv[0].end, 11001);
	TEST_EQ(got.iv[0].cpu_out, 0);
	TEST_EQ(got.iv[0].cpu_in, 1);
	TEST_TRUE(!got.iv[0].preempted);
	TEST_TRUE(!got.iv[0].in_progress);
	TEST_EQ(got.iv[0].callchain_nr, 4);
	TEST_EQ_U64(got.iv[0].callchain[3], 0x401234);
	st = prism_offcpu_fallback__stats(fb);
	TEST_EQ(st->intervals, 1);
	TEST_EQ(st->no_callchain, 0);
	prism_offcpu_fallback__free(fb);
}

/* two threads interleaved on two CPUs, each with its own stack */
static void test_interleaved_threads(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);

	TEST_TRUE(fb);
	prism_offcpu_fallback__sample(fb, 100, 1, 1, 0, chain_a, 4);
	prism_offcpu_fallback__switch(fb, 101, 1, 1, 0, true, false);
	prism_offcpu_fallback__sample(fb, 150, 2, 2, 1, chain_b, 2);
	prism_offcpu_fallback__switch(fb, 151, 2, 2, 1, true, false);
	prism_offcpu_fallback__switch(fb, 400, 2, 2, 0, false, false);
	prism_offcpu_fallback__switch(fb, 500, 1, 1, 1, false, false);
	TEST_EQ(got.nr, 2);
	TEST_EQ(got.iv[0].tid, 2);
	TEST_EQ_U64(got.iv[0].end - got.iv[0].start, 249);
	TEST_EQ_U64(got.iv[0].callchain[1], 0x405678);
	TEST_EQ(got.iv[1].tid, 1);
	TEST_EQ_U64(got.iv[1].end - got.iv[1].start, 399);
	TEST_EQ_U64(got.iv[1].callchain[3], 0x401234);
	prism_offcpu_fallback__free(fb);
}

static void test_preempted(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);

	TEST_TRUE(fb);
	prism_offcpu_fallback__sample(fb, 100, 1, 1, 0, chain_a, 4);
	prism_offcpu_fallback__switch(fb, 100, 1, 1, 0, true, true);
	prism_offcpu_fallback__switch(fb, 300, 1, 1, 0, false, false);
	TEST_EQ(got.nr, 0);
	TEST_EQ(prism_offcpu_fallback__stats(fb)->preempted, 1);
	/* the next, voluntary, switch-out must not reuse the preempted one's sample */
	prism_offcpu_fallback__switch(fb, 400, 1, 1, 0, true, false);
	prism_offcpu_fallback__switch(fb, 900, 1, 1, 0, false, false);
	TEST_EQ(got.nr, 1);
	TEST_TRUE(got.iv[0].callchain == NULL);
	TEST_EQ(prism_offcpu_fallback__stats(fb)->no_callchain, 1);
	prism_offcpu_fallback__free(fb);

	fb = new_fb(true);
	TEST_TRUE(fb);
	prism_offcpu_fallback__switch(fb, 100, 1, 1, 0, true, true);
	prism_offcpu_fallback__switch(fb, 300, 1, 1, 0, false, false);
	TEST_EQ(got.nr, 1);
	TEST_TRUE(got.iv[0].preempted);
	prism_offcpu_fallback__free(fb);
}

static void test_in_progress_at_finish(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);
	const struct prism_offcpu_fallback_stats *st;

	TEST_TRUE(fb);
	prism_offcpu_fallback__sample(fb, 10, 3, 4, 1, chain_b, 2);
	prism_offcpu_fallback__switch(fb, 10, 3, 4, 1, true, false);
	prism_offcpu_fallback__switch(fb, 20, 3, 5, 1, true, false);
	prism_offcpu_fallback__switch(fb, 30, 3, 5, 0, false, false);
	TEST_EQ(prism_offcpu_fallback__finish(fb, 1000), 0);
	TEST_EQ(got.nr, 2);
	TEST_EQ(got.iv[1].tid, 4);
	TEST_TRUE(got.iv[1].in_progress);
	TEST_EQ_U64(got.iv[1].end, 1000);
	TEST_EQ_U64(got.iv[1].callchain[1], 0x405678);
	st = prism_offcpu_fallback__stats(fb);
	TEST_EQ(st->in_progress, 1);
	TEST_EQ(st->intervals, 2);
	/* finishing twice reports nothing new */
	TEST_EQ(prism_offcpu_fallback__finish(fb, 2000), 0);
	TEST_EQ(got.nr, 2);
	prism_offcpu_fallback__free(fb);
}

static void test_anomalies(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);
	const struct prism_offcpu_fallback_stats *st;

	TEST_TRUE(fb);
	/* switch-in first: it was out since before the recording */
	prism_offcpu_fallback__switch(fb, 5, 1, 1, 0, false, false);
	/* two switch-outs (the switch-in between was lost): the second one counts */
	prism_offcpu_fallback__switch(fb, 10, 1, 1, 0, true, false);
	prism_offcpu_fallback__switch(fb, 50, 1, 1, 0, true, false);
	prism_offcpu_fallback__switch(fb, 80, 1, 1, 0, false, false);
	/* tid 0 (idle) is ignored */
	prism_offcpu_fallback__switch(fb, 90, 0, 0, 0, true, false);
	prism_offcpu_fallback__switch(fb, 95, 0, 0, 0, false, false);
	TEST_EQ(got.nr, 1);
	TEST_EQ_U64(got.iv[0].start, 50);
	st = prism_offcpu_fallback__stats(fb);
	TEST_EQ(st->unmatched_in, 1);
	TEST_EQ(st->double_out, 1);
	prism_offcpu_fallback__free(fb);
}

static void test_lost_drops_open(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);

	TEST_TRUE(fb);
	prism_offcpu_fallback__switch(fb, 10, 1, 1, 0, true, false);
	prism_offcpu_fallback__switch(fb, 11, 2, 2, 1, true, false);
	prism_offcpu_fallback__lost(fb);
	prism_offcpu_fallback__switch(fb, 50, 1, 1, 0, false, false);
	TEST_EQ(got.nr, 0);
	TEST_EQ(prism_offcpu_fallback__stats(fb)->dropped, 2);
	TEST_EQ(prism_offcpu_fallback__stats(fb)->unmatched_in, 1);
	prism_offcpu_fallback__free(fb);
}

/* a sample far from the switch-out belongs to a switch whose record was lost */
static void test_stale_and_reordered_sample(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);

	TEST_TRUE(fb);
	prism_offcpu_fallback__sample(fb, 1000, 1, 1, 0, chain_a, 4);
	prism_offcpu_fallback__switch(fb, 1000 + 5000000, 1, 1, 0, true, false);
	prism_offcpu_fallback__switch(fb, 1000 + 6000000, 1, 1, 0, false, false);
	TEST_EQ(got.nr, 1);
	TEST_TRUE(got.iv[0].callchain == NULL);
	/* sample delivered after the switch-out with the same time: still matched */
	prism_offcpu_fallback__switch(fb, 9000000, 1, 1, 0, true, false);
	prism_offcpu_fallback__sample(fb, 9000000, 1, 1, 0, chain_b, 2);
	/* a later sample (next switch) must not replace it */
	prism_offcpu_fallback__sample(fb, 9500000, 1, 1, 0, chain_a, 4);
	prism_offcpu_fallback__switch(fb, 9900000, 1, 1, 0, false, false);
	TEST_EQ(got.nr, 2);
	TEST_EQ(got.iv[1].callchain_nr, 2);
	TEST_EQ_U64(got.iv[1].callchain[1], 0x405678);
	prism_offcpu_fallback__free(fb);
}

/* many threads: the table grows; every interval must come out right */
static void test_many_threads(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);
	uint64_t sum = 0, want = 0;
	uint32_t tid;
	size_t i;

	TEST_TRUE(fb);
	for (tid = 1; tid <= 3000; tid++) {
		uint64_t chain[2] = { PERF_CONTEXT_USER, 0x1000 + tid };

		TEST_EQ(prism_offcpu_fallback__sample(fb, tid * 10, tid, tid, 0, chain, 2), 0);
		TEST_EQ(prism_offcpu_fallback__switch(fb, tid * 10 + 1, tid, tid, 0, true, false),
			0);
	}
	for (tid = 3000; tid >= 1; tid--) {
		TEST_EQ(prism_offcpu_fallback__switch(fb, 100000 + tid, tid, tid, 1, false, false),
			0);
		want += 100000 + tid - (tid * 10 + 1);
	}
	TEST_EQ(got.nr, 3000);
	for (i = 0; i < got.nr; i++) {
		sum += got.iv[i].end - got.iv[i].start;
		TEST_EQ_U64(got.iv[i].callchain[1], 0x1000 + got.iv[i].tid);
	}
	TEST_EQ_U64(sum, want);
	prism_offcpu_fallback__free(fb);
}

static void test_callback_stops(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);

	TEST_TRUE(fb);
	got.ret = 42;
	prism_offcpu_fallback__switch(fb, 1, 1, 1, 0, true, false);
	TEST_EQ(prism_offcpu_fallback__switch(fb, 2, 1, 1, 0, false, false), 42);
	prism_offcpu_fallback__switch(fb, 3, 1, 1, 0, true, false);
	TEST_EQ(prism_offcpu_fallback__finish(fb, 10), 42);
	prism_offcpu_fallback__free(fb);
	TEST_TRUE(prism_offcpu_fallback__new(NULL) == NULL);
}

/* the decoded-record entry point */
static void test_events(void)
{
	struct prism_offcpu_fallback *fb = new_fb(false);
	struct prism_event ev;
	uint64_t chain[3] = { PERF_CONTEXT_USER, 0xabc, 0xdef };

	TEST_TRUE(fb);
	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_SAMPLE;
	ev.sample.type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
	ev.sample.pid = 9;
	ev.sample.tid = 9;
	ev.sample.time = 500;
	ev.sample.callchain = chain;
	ev.sample.callchain_nr = 3;
	TEST_EQ(prism_offcpu_fallback__event(fb, &ev, false), 0); /* not the cs event */
	TEST_EQ(prism_offcpu_fallback__event(fb, &ev, true), 0);

	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_SWITCH_CPU_WIDE;
	ev.sample.type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	ev.sample.pid = 9;
	ev.sample.tid = 9;
	ev.sample.cpu = 1;
	ev.sample.time = 501;
	ev.sw.out = true;
	TEST_EQ(prism_offcpu_fallback__event(fb, &ev, false), 0);
	ev.type = PERF_RECORD_SWITCH;
	ev.sample.time = 2501;
	ev.sample.cpu = 0;
	ev.sw.out = false;
	TEST_EQ(prism_offcpu_fallback__event(fb, &ev, false), 0);
	TEST_EQ(got.nr, 1);
	TEST_EQ_U64(got.iv[0].end - got.iv[0].start, 2000);
	TEST_EQ(got.iv[0].cpu_out, 1);
	TEST_EQ(got.iv[0].cpu_in, 0);
	TEST_EQ_U64(got.iv[0].callchain[2], 0xdef);

	/* a switch record without TIME cannot be paired */
	ev.sample.type = PERF_SAMPLE_TID;
	TEST_EQ(prism_offcpu_fallback__event(fb, &ev, false), -EINVAL);
	prism_offcpu_fallback__free(fb);
}

TEST_MAIN(TEST(basic_pair), TEST(interleaved_threads), TEST(preempted), TEST(in_progress_at_finish),
	  TEST(anomalies), TEST(lost_drops_open), TEST(stale_and_reordered_sample),
	  TEST(many_threads), TEST(callback_stops), TEST(events));
