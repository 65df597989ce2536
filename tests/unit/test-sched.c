// SPDX-License-Identifier: MIT
/*
 * perf sched's analyses on synthetic switch/wakeup sequences: timehist's
 * wait time, scheduling delay and run time (also when a switch-in is
 * missing), latency's delays and switch counts, and perf's thread naming
 * and listing order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched-internal.h"

#include "test.h"

#define MAX_ROWS 16

struct rows {
	struct prism_sched_row r[MAX_ROWS];
	char comm[MAX_ROWS][32];
	int n;
};

static int on_row(void *ctx, const struct prism_sched_row *r)
{
	struct rows *rs = ctx;

	if (rs->n == MAX_ROWS)
		return -ENOSPC;
	rs->r[rs->n] = *r;
	snprintf(rs->comm[rs->n], sizeof(rs->comm[0]), "%s", r->task.comm);
	rs->r[rs->n].task.comm = rs->comm[rs->n];
	rs->n++;
	return 0;
}

static struct sched_ev sw(uint64_t t, uint32_t cpu, uint32_t prev, int64_t state, uint32_t next)
{
	struct sched_ev e = { .kind = SK_SWITCH, .time = t, .cpu = cpu };

	/* the sample's context is the task that leaves the CPU */
	e.pid = e.tid = e.prev_pid = prev;
	e.prev_state = state;
	e.next_pid = next;
	return e;
}

static struct sched_ev wake(uint64_t t, uint32_t cpu, uint32_t waker, uint32_t wakee)
{
	struct sched_ev e = { .kind = SK_WAKING, .time = t, .cpu = cpu };

	e.pid = e.tid = waker;
	e.tpid = wakee;
	return e;
}

static struct prism_sched *new_sched(enum prism_sched_mode mode, struct rows *rs)
{
	struct prism_sched_opts o = { .mode = mode, .profile_cpu = -1, .nr_cpus_online = 2 };
	struct prism_sched_ops ops = { .row = on_row };

	return prism_sched__new(&o, &ops, rs);
}

static void test_timehist_wait_delay_run(void)
{
	struct rows rs = { 0 };
	struct prism_sched *s = new_sched(PRISM_SCHED_TIMEHIST, &rs);
	struct sched_ev e;

	TEST_TRUE(s != NULL);
	e = sw(1000, 0, 10, 1, 20); /* 10 sleeps (S), 20 comes in */
	TEST_EQ(timehist__switch(s, &e), 0);
	e = wake(3000, 1, 30, 10);
	TEST_EQ(timehist__wakeup(s, &e), 0);
	e = sw(5000, 0, 20, 0, 10); /* 20 preempted (R), 10 comes in */
	TEST_EQ(timehist__switch(s, &e), 0);
	e = sw(9000, 0, 10, 2, 0); /* 10 blocks (D), the CPU idles */
	TEST_EQ(timehist__switch(s, &e), 0);
	e = sw(9500, 0, 0, 0, 20); /* the idle task leaves for 20 */
	TEST_EQ(timehist__switch(s, &e), 0);
	TEST_EQ(rs.n, 4);
	/* the CPU's first switch: no previous one, nothing known */
	TEST_EQ(rs.r[0].task.tid, 10);
	TEST_EQ_U64(rs.r[0].run, 0);
	TEST_EQ_U64(rs.r[0].wait, 0);
	/* 20 ran from the first switch to the second */
	TEST_EQ(rs.r[1].task.tid, 20);
	TEST_STREQ(rs.r[1].task.comm, ":20");
	TEST_EQ_U64(rs.r[1].run, 4000);
	TEST_EQ_U64(rs.r[1].delay, 0);
	/* 10: asleep 1000..5000, woken at 3000, in at 5000, out at 9000 */
	TEST_EQ(rs.r[2].task.tid, 10);
	TEST_EQ_U64(rs.r[2].wait, 4000);
	TEST_EQ_U64(rs.r[2].delay, 2000);
	TEST_EQ_U64(rs.r[2].run, 4000);
	/* the idle task of CPU 0 */
	TEST_TRUE(rs.r[3].idle);
	TEST_STREQ(rs.r[3].task.comm, "<idle>");
	TEST_EQ_U64(rs.r[3].run, 500);
	prism_sched__free(s);
}

static void test_timehist_missing_switch_in(void)
{
	struct rows rs = { 0 };
	struct prism_sched *s = new_sched(PRISM_SCHED_TIMEHIST, &rs);
	struct sched_ev e;

	TEST_TRUE(s != NULL);
	e = sw(1000, 1, 40, 1, 0); /* 40 leaves CPU 1 for the idle task... */
	TEST_EQ(timehist__switch(s, &e), 0);
	/* ...whose switch to 50 was never recorded: 50 gets the idle time */
	e = sw(7000, 1, 50, 1, 0);
	TEST_EQ(timehist__switch(s, &e), 0);
	TEST_EQ(rs.n, 2);
	TEST_EQ(rs.r[1].task.tid, 50);
	TEST_EQ_U64(rs.r[1].run, 6000);
	TEST_EQ_U64(rs.r[1].wait, 0);
	TEST_EQ_U64(rs.r[1].delay, 0);
	prism_sched__free(s);
}

static void test_timehist_idle_hist(void)
{
	struct prism_sched_opts o = { .mode = PRISM_SCHED_TIMEHIST,
				      .profile_cpu = -1,
				      .nr_cpus_online = 2,
				      .idle_hist = true };
	struct prism_sched_ops ops = { .row = on_row };
	struct rows rs = { 0 };
	struct prism_sched *s = prism_sched__new(&o, &ops, &rs);
	struct sched_ev e;

	TEST_TRUE(s != NULL);
	e = sw(1000, 0, 0, 0, 10); /* idle leaves, no task known to have left it idle: no row */
	TEST_EQ(timehist__switch(s, &e), 0);
	e = sw(2000, 0, 10, 1, 0); /* 10 leaves the CPU idle */
	TEST_EQ(timehist__switch(s, &e), 0);
	e = sw(5000, 0, 0, 0, 10); /* 3000 of idle, charged to 10 */
	TEST_EQ(timehist__switch(s, &e), 0);
	e = sw(6000, 0, 10, 0, 20); /* neither side idle: not shown */
	TEST_EQ(timehist__switch(s, &e), 0);
	TEST_EQ(rs.n, 2);
	TEST_EQ(rs.r[0].task.tid, 10);
	TEST_TRUE(rs.r[1].idle);
	TEST_EQ_U64(rs.r[1].run, 3000);
	prism_sched__free(s);
}

struct lat {
	struct prism_sched_lat_row r[8];
	int n;
};

static int on_lat(void *ctx, const struct prism_sched_lat_row *r)
{
	struct lat *l = ctx;

	if (l->n < 8)
		l->r[l->n++] = *r;
	return 0;
}

static void test_latency_delays(void)
{
	struct prism_sched *s = new_sched(PRISM_SCHED_LATENCY, NULL);
	struct prism_sched_lat_stats st;
	struct lat l = { 0 };
	const char *bad = NULL;
	struct sched_ev e;

	TEST_TRUE(s != NULL);
	e = sw(1000, 0, 10, 1, 20); /* 20 first seen coming in: no delay known */
	TEST_EQ(latency__switch(s, &e), 0);
	e = wake(2000, 1, 30, 10); /* 10 was asleep: it waits from here */
	e.kind = SK_WAKEUP;
	TEST_EQ(latency__wakeup(s, &e), 0);
	e = sw(5000, 0, 20, 0, 10); /* 10 in after 3000; 20 preempted, runnable now */
	TEST_EQ(latency__switch(s, &e), 0);
	e = sw(6000, 0, 10, 1, 20); /* 20 in after 1000 */
	TEST_EQ(latency__switch(s, &e), 0);
	e = sw(7000, 0, 20, 1, 10); /* 10 in without a wakeup: nothing counted */
	TEST_EQ(latency__switch(s, &e), 0);
	TEST_EQ(prism_sched__latency(s, NULL, true, on_lat, &l, &bad), 0);
	TEST_EQ(l.n, 2);
	/* sorted by average delay, highest first */
	TEST_EQ(l.r[0].tid, 10);
	TEST_EQ_U64(l.r[0].switches, 1);
	TEST_EQ_U64(l.r[0].max, 3000);
	TEST_EQ_U64(l.r[0].max_start, 2000);
	TEST_EQ_U64(l.r[0].max_end, 5000);
	TEST_EQ(l.r[1].tid, 20);
	TEST_EQ_U64(l.r[1].switches, 2); /* its first switch-in counts 0 */
	TEST_EQ_U64(l.r[1].avg, 500);
	prism_sched__lat_stats(s, &st);
	TEST_EQ_U64(st.nr_timestamps, 1);
	TEST_EQ(prism_sched__check_sort("runtime,bogus", &bad), -EINVAL);
	TEST_STREQ(bad, "bogus");
	prism_sched__free(s);
}

static void test_threads_naming_and_order(void)
{
	struct threads t;
	struct prism_event ev = { 0 };
	struct sched_thread *th, **v;
	size_t nr;

	TEST_EQ(threads__init(&t), 0);
	/* first seen without a pid: filled in later, never changed after */
	th = threads__findnew(&t, -1, 300);
	TEST_STREQ(th->comm, ":300");
	TEST_EQ(th->pid, -1);
	TEST_TRUE(threads__findnew(&t, 299, 300) == th);
	TEST_EQ(th->pid, 299);
	TEST_TRUE(threads__findnew(&t, 1, 300) == th);
	TEST_EQ(th->pid, 299);
	/* a fork names the child after a named parent */
	ev.type = PERF_RECORD_COMM;
	ev.comm.pid = ev.comm.tid = 44;
	ev.comm.comm = "shell";
	TEST_EQ(threads__event(&t, &ev), 0);
	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_FORK;
	ev.fork.pid = ev.fork.tid = 45;
	ev.fork.ppid = ev.fork.ptid = 44;
	TEST_EQ(threads__event(&t, &ev), 0);
	th = threads__find(&t, -1, 45);
	TEST_TRUE(th != NULL);
	TEST_STREQ(th->comm, "shell");
	TEST_EQ(th->ppid, 44);
	/* perf's order: tid % 256 first, then tid */
	TEST_EQ(threads__sorted(&t, &v, &nr), 0);
	TEST_EQ((int)nr, 4);
	TEST_EQ(v[0]->tid, 0);
	TEST_EQ(v[1]->tid, 44);
	TEST_EQ(v[2]->tid, 300); /* 300 % 256 = 44 */
	TEST_EQ(v[3]->tid, 45);
	free(v);
	threads__release(&t);
}

TEST_MAIN(TEST(timehist_wait_delay_run), TEST(timehist_missing_switch_in), TEST(timehist_idle_hist),
	  TEST(latency_delays), TEST(threads_naming_and_order));
