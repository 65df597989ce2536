// SPDX-License-Identifier: MIT
/*
 * Intervals of a live analysis (prism_util__interval()): each holds what
 * happened since the previous one (CPU time charged up to its end, per
 * task and CPU, syscalls completed, lost events), and the
 * analysis of the whole trace is the same as without intervals.
 */
#include <prism/util.h>

#include "test.h"
#include "util-test.h"

#define MS 1000000ULL

static void ev(struct prism_util *u, enum prism_util_ev_type type, uint64_t time, uint32_t cpu,
	       uint32_t tid, int64_t a, int64_t b, int64_t c)
{
	TEST_EQ(util_event(u, type, time, cpu, tid, a, b, c), 0);
}

static const struct prism_util_iv_task *iv_task(const struct prism_util_interval *iv, uint32_t tid)
{
	size_t i;

	for (i = 0; i < iv->nr_tasks; i++)
		if (iv->tasks[i].tid == tid)
			return &iv->tasks[i];
	return NULL;
}

/*
 * CPU 0: task 100 runs 0..30 ms (a getppid, id 110, of 1 ms at 5 ms), then
 * 200 runs to 50 ms; intervals end at 10, 40 and 60 ms.
 */
static void feed(struct prism_util *u, bool intervals)
{
	const struct prism_util_interval *iv;
	const struct prism_util_iv_task *t;

	ev(u, PRISM_UTIL_EV_SWITCH, 0, 0, 0, 0, 0, 100);
	ev(u, PRISM_UTIL_EV_SYS_ENTER, 5 * MS, 0, 100, 110, 0, 0);
	ev(u, PRISM_UTIL_EV_SYS_EXIT, 6 * MS, 0, 100, 110, 0, 0);
	if (intervals) {
		TEST_EQ(prism_util__interval(u, 10 * MS, &iv), 0);
		TEST_EQ_U64(iv->length, 10 * MS);
		TEST_EQ(iv->nr_cpus, 1);
		TEST_EQ_U64(util_run(&iv->cpus[0].t), 10 * MS);
		t = iv_task(iv, 100);
		TEST_TRUE(t && t->running);
		TEST_EQ_U64(util_run(&t->t), 10 * MS);
		TEST_EQ_U64(t->t.sys, 1 * MS);
		TEST_EQ(iv->nr_syscalls, 1);
		TEST_EQ(iv->syscalls[0].id, 110);
		TEST_EQ_U64(iv->syscalls[0].count, 1);
		TEST_EQ_U64(iv->syscalls[0].elapsed, 1 * MS);
	}
	ev(u, PRISM_UTIL_EV_SWITCH, 30 * MS, 0, 100, 100, 1, 200);
	ev(u, PRISM_UTIL_EV_LOST, 35 * MS, 0, 0, 7, 0, 0);
	if (intervals) {
		TEST_EQ(prism_util__interval(u, 40 * MS, &iv), 0);
		TEST_EQ_U64(iv->start, 10 * MS);
		TEST_EQ_U64(iv->length, 30 * MS);
		TEST_EQ_U64(util_run(&iv->all), 30 * MS);
		TEST_EQ_U64(util_run(&iv_task(iv, 100)->t), 20 * MS);
		TEST_EQ_U64(util_run(&iv_task(iv, 200)->t), 10 * MS);
		TEST_EQ(iv->nr_syscalls, 0); /* no call completed in it */
		TEST_EQ_U64(iv->lost_events, 7);
	}
	ev(u, PRISM_UTIL_EV_SWITCH, 50 * MS, 0, 200, 200, 1, 0);
	ev(u, PRISM_UTIL_EV_OTHER, 60 * MS, 0, 0, 0, 0, 0);
	if (intervals) {
		TEST_EQ(prism_util__interval(u, 60 * MS, &iv), 0);
		TEST_EQ_U64(iv->length, 20 * MS);
		TEST_EQ_U64(iv->cpus[0].t.idle, 10 * MS);
		TEST_EQ_U64(util_run(&iv_task(iv, 200)->t), 10 * MS);
		t = iv_task(iv, 100);
		TEST_TRUE(t && !t->running);
		TEST_EQ_U64(util_run(&t->t), 0);
		TEST_EQ_U64(iv->lost_events, 0);
	}
}

static void test_intervals_and_whole_trace(void)
{
	struct prism_util *a = prism_util__new(NULL), *b = prism_util__new(NULL);
	const struct prism_util_result *ra, *rb;

	feed(a, true);
	feed(b, false);
	ra = util_report(a);
	rb = util_report(b);
	TEST_EQ_U64(ra->length, rb->length);
	TEST_EQ_U64(util_run(&util_task(ra, 100, -1)->all), util_run(&util_task(rb, 100, -1)->all));
	TEST_EQ_U64(util_run(&util_task(ra, 100, -1)->all), 30 * MS);
	TEST_EQ_U64(ra->cpus[0].t.idle, rb->cpus[0].t.idle);
	TEST_EQ_U64(ra->anomalies.lost_events, 7);
	prism_util__free(a);
	prism_util__free(b);
}

static void test_interval_before_events(void)
{
	struct prism_util *u = prism_util__new(NULL);
	const struct prism_util_interval *iv;

	TEST_EQ(prism_util__interval(u, 5 * MS, &iv), 0);
	TEST_EQ(iv->nr_cpus, 0);
	TEST_EQ(iv->nr_tasks, 0);
	TEST_EQ_U64(iv->length, 0);
	prism_util__free(u);
}

TEST_MAIN(TEST(intervals_and_whole_trace), TEST(interval_before_events));
