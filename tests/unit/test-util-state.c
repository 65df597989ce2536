// SPDX-License-Identifier: MIT
/*
 * The utilization state machine driven by synthetic event sequences: one
 * case per semantic of curt that prism keeps and per curt defect prism
 * must not have (issue 5).  Times are in ns; MS = one millisecond.
 */
#include <stdlib.h>
#include <string.h>

#include <prism/util.h>

#include "test.h"
#include "util-test.h"

#define MS 1000000ULL

static struct prism_util *u;

static void start(void)
{
	prism_util__free(u);
	u = prism_util__new(NULL);
	prism_util__set_arch(u, "x86_64");
}

static int ev(enum prism_util_ev_type type, uint64_t time, uint32_t cpu, uint32_t tid, int64_t a,
	      int64_t b, int64_t c)
{
	return util_event(u, type, time, cpu, tid, a, b, c);
}

static int sw(uint64_t time, uint32_t cpu, uint32_t prev, int64_t state, uint32_t next)
{
	return ev(PRISM_UTIL_EV_SWITCH, time, cpu, prev, prev, state, next);
}

static const struct prism_util_result *report(void)
{
	return util_report(u);
}

static const struct prism_util_task *task(const struct prism_util_result *r, uint32_t tid,
					  int image)
{
	size_t i, j;

	for (i = 0; r && i < r->nr_processes; i++)
		for (j = 0; j < r->processes[i].nr_tasks; j++)
			if (r->processes[i].tasks[j]->tid == tid &&
			    r->processes[i].tasks[j]->image == image)
				return r->processes[i].tasks[j];
	return NULL;
}

static const struct prism_util_call *call(const struct prism_util_task *t,
					  enum prism_util_call_kind k, int64_t id)
{
	size_t i;

	for (i = 0; t && i < t->nr_calls[k]; i++)
		if (t->calls[k][i].id == id)
			return &t->calls[k][i];
	return NULL;
}

static const struct prism_util_call *syscall_of(const struct prism_util_result *r, int64_t id)
{
	size_t i;

	for (i = 0; i < r->nr_calls[PRISM_UTIL_SYSCALL]; i++)
		if (r->calls[PRISM_UTIL_SYSCALL][i].id == id)
			return &r->calls[PRISM_UTIL_SYSCALL][i];
	return NULL;
}

static uint64_t run(const struct prism_util_times *t)
{
	return t->user + t->sys + t->irq + t->softirq + t->hv + t->busy;
}

static uint64_t cpu_sum(const struct prism_util_times *t)
{
	return run(t) + t->idle;
}

/* ---- curt's semantics to keep ---- */

static void test_pending_at_trace_start(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_OTHER, 0, 0, 0, 0, 0, 0); /* trace starts, CPU 0 idle */
	ev(PRISM_UTIL_EV_SYS_EXIT, 5 * MS, 1, 100, 0, 0, 0); /* read, entered before */
	ev(PRISM_UTIL_EV_SYS_ENTER, 6 * MS, 1, 100, 1, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 7 * MS, 1, 100, 1, 0, 0);
	r = report();
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0);
	TEST_TRUE(c);
	TEST_EQ(c->count, 0);
	TEST_EQ_U64(c->pending, 5 * MS);
	TEST_EQ(c->nr_pending_start, 1);
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 1);
	TEST_EQ(c->count, 1);
	TEST_EQ_U64(c->elapsed, 1 * MS);
	TEST_EQ_U64(c->pending, 0);
}

static void test_pending_at_trace_end(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 7, 0, 0); /* poll */
	ev(PRISM_UTIL_EV_OTHER, 10 * MS, 1, 0, 0, 0, 0);
	r = report();
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 7);
	TEST_TRUE(c);
	TEST_EQ(c->count, 0);
	TEST_EQ_U64(c->pending, 10 * MS);
	TEST_EQ(c->nr_pending_end, 1);
	TEST_EQ_U64(c->min, 0);
	TEST_EQ_U64(c->max, 0);
}

static void test_busy_unknown_reclassified(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	ev(PRISM_UTIL_EV_OTHER, 0, 0, 100, 0, 0, 0); /* runs, mode unknown */
	ev(PRISM_UTIL_EV_OTHER, 4 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 5 * MS, 0, 100, 0, 0, 0); /* it was in user mode */
	ev(PRISM_UTIL_EV_SYS_EXIT, 6 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 6 * MS, 1, 200, 0, 0, 0); /* running since the start */
	ev(PRISM_UTIL_EV_SYS_EXIT, 8 * MS, 1, 200, 3, 0, 0); /* it was in the kernel */
	r = report();
	t = task(r, 100, -1);
	TEST_TRUE(t);
	TEST_EQ_U64(t->all.user, 5 * MS + 2 * MS);
	TEST_EQ_U64(t->all.sys, 1 * MS);
	TEST_EQ_U64(t->all.busy, 0);
	t = task(r, 200, -1);
	TEST_TRUE(t);
	TEST_EQ_U64(t->all.busy, 0);
	TEST_EQ_U64(t->all.sys, 8 * MS);
	/* the CPU rows moved with it */
	TEST_EQ_U64(r->cpus[0].t.busy, 0);
	TEST_EQ_U64(r->cpus[0].t.user, 7 * MS);
	TEST_EQ_U64(r->cpus[1].t.sys, 8 * MS);
}

static void test_exec_keeps_old_image(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *old, *cur;
	const struct prism_util_call *c;
	struct prism_util_event e = { .type = PRISM_UTIL_EV_EXEC, .cpu = 0, .tid = 100, .pid = 100 };

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 59, 0, 0); /* execve */
	e.time = 2 * MS;
	e.a = 100;
	e.comm = "ls\0garbage";
	e.comm_len = 11;
	prism_util__event(u, &e);
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 0, 100, 59, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 4 * MS, 0, 100, 0, 0, 0);
	e.time = 5 * MS; /* exec again: a second old image */
	e.comm = "sh";
	e.comm_len = 2;
	prism_util__event(u, &e);
	ev(PRISM_UTIL_EV_OTHER, 9 * MS, 0, 100, 0, 0, 0);
	r = report();
	old = task(r, 100, 0);
	TEST_TRUE(old);
	TEST_EQ_U64(old->all.sys, 2 * MS);
	TEST_EQ_U64(old->end, 2 * MS);
	TEST_EQ(old->nr_cpus, 1);
	c = call(old, PRISM_UTIL_SYSCALL, 59);
	TEST_TRUE(c);
	TEST_EQ(c->count, 0); /* completed in the new image */
	TEST_EQ_U64(c->pending, 0);
	cur = task(r, 100, 1);
	TEST_TRUE(cur);
	TEST_STREQ(cur->comm, "ls");
	c = call(cur, PRISM_UTIL_SYSCALL, 59);
	TEST_EQ(c->count, 1);
	TEST_EQ_U64(c->elapsed, 3 * MS); /* from the entry in the old image */
	cur = task(r, 100, -1);
	TEST_TRUE(cur);
	TEST_STREQ(cur->comm, "sh");
	TEST_EQ_U64(cur->start, 5 * MS);
	/* execve's exit came in image 1 only: nothing doubled */
	TEST_EQ(syscall_of(r, 59)->count, 1);
}

static void test_fork_child_inherits_call(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *child;
	const struct prism_util_call *c;
	struct prism_util_event f = { .type = PRISM_UTIL_EV_FORK,
				      .time = 2 * MS,
				      .cpu = 0,
				      .tid = 100,
				      .pid = 100,
				      .a = 100,
				      .c = 101,
				      .comm2 = "child",
				      .comm2_len = 5 };

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 56, 0, 0); /* clone */
	prism_util__event(u, &f);
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 0, 100, 56, 0, 0);
	sw(4 * MS, 1, 0, 0, 101);
	ev(PRISM_UTIL_EV_SYS_EXIT, 5 * MS, 1, 101, 56, 0, 0); /* the child's return */
	ev(PRISM_UTIL_EV_SYS_ENTER, 6 * MS, 1, 101, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 7 * MS, 1, 101, 0, 0, 0);
	r = report();
	child = task(r, 101, -1);
	TEST_TRUE(child);
	TEST_STREQ(child->comm, "child");
	c = call(child, PRISM_UTIL_SYSCALL, 56);
	TEST_TRUE(c);
	TEST_EQ(c->count, 1);
	TEST_EQ(c->nr_inherited, 1);
	TEST_EQ_U64(c->elapsed, 4 * MS);
	TEST_EQ(c->nr_pending_start, 0);
	/* it was in the kernel (the clone) from its first run */
	TEST_EQ_U64(child->all.sys, 1 * MS + 1 * MS);
	TEST_EQ_U64(child->all.busy, 0);
	TEST_EQ(child->moves, 0);
}

static void test_explicit_migration(void)
{
	const struct prism_util_task *t;

	start();
	sw(0, 0, 0, 0, 100);
	sw(1 * MS, 0, 100, 0, 0);
	ev(PRISM_UTIL_EV_MIGRATE, 2 * MS, 0, 0, 100, 0, 1);
	sw(3 * MS, 1, 0, 0, 100);
	sw(4 * MS, 1, 100, 1, 0);
	t = task(report(), 100, -1);
	TEST_TRUE(t);
	TEST_EQ(t->moves, 1);
	TEST_EQ(t->nr_cpus, 2);
}

static void test_implicit_migration(void)
{
	const struct prism_util_task *t;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 203, 0, 0); /* sched_setaffinity */
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 1, 100, 203, 0, 0); /* returns on CPU 1 */
	t = task(report(), 100, -1);
	TEST_TRUE(t);
	TEST_EQ(t->moves, 1);
	TEST_EQ(call(t, PRISM_UTIL_SYSCALL, 203)->count, 1);
}

static void test_spurious_migration_ignored(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	sw(0, 0, 0, 0, 100);
	sw(1 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_MIGRATE, 2 * MS, 0, 0, 100, 0, 0); /* orig == dest */
	sw(3 * MS, 0, 0, 0, 100);
	r = report();
	t = task(r, 100, -1);
	TEST_EQ(t->moves, 0);
	TEST_EQ(r->anomalies.spurious_migrations, 1);
}

static void test_remote_events_are_not_migrations(void)
{
	const struct prism_util_task *t;

	start();
	sw(0, 0, 0, 0, 100);
	sw(1 * MS, 0, 100, 1, 0);
	/* CPU 1 (task 200 running) wakes 100 and reports about it */
	ev(PRISM_UTIL_EV_WAKEUP, 2 * MS, 1, 200, 100, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 2 * MS + 10, 1, 200, 0, 0, 0);
	sw(3 * MS, 0, 0, 0, 100);
	t = task(report(), 100, -1);
	TEST_TRUE(t);
	TEST_EQ(t->moves, 0);
	TEST_EQ(t->nr_cpus, 1);
	TEST_EQ(t->wakeups, 1);
	TEST_EQ_U64(t->wakeup_max, 1 * MS);
	TEST_EQ_U64(t->all.sleep, 1 * MS);
	TEST_EQ_U64(t->all.wait, 1 * MS);
}

static void test_comm_trimmed_at_nul(void)
{
	struct prism_util_event e = { .type = PRISM_UTIL_EV_SWITCH,
				      .time = 1 * MS,
				      .cpu = 0,
				      .tid = 100,
				      .pid = 100,
				      .a = 100,
				      .b = 1,
				      .c = 0,
				      .comm = "perf\0-terminal-",
				      .comm_len = 16 };
	const struct prism_util_task *t;

	start();
	ev(PRISM_UTIL_EV_OTHER, 0, 0, 100, 0, 0, 0);
	prism_util__event(u, &e);
	t = task(report(), 100, -1);
	TEST_TRUE(t);
	TEST_STREQ(t->comm, "perf");
}

/* ---- curt's defects prism must not have ---- */

static void test_never_abort_on_enter_in_call(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 1, 0, 0); /* read's exit was lost */
	ev(PRISM_UTIL_EV_SYS_EXIT, 2 * MS, 0, 100, 1, 0, 0);
	ev(PRISM_UTIL_EV_LOST, 0, 0, 0, 7, 0, 0);
	ev(PRISM_UTIL_EV_LOST_SAMPLES, 0, 0, 0, 3, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 3 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 4 * MS, 0, 100, 0, 0, 0);
	r = report();
	TEST_TRUE(r);
	TEST_EQ(r->anomalies.enter_in_call, 1);
	TEST_EQ(r->anomalies.lost_events, 7);
	TEST_EQ(r->anomalies.lost_samples, 3);
	TEST_EQ(r->anomalies.lost_records, 2);
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0);
	TEST_EQ(c->count, 1); /* only the clean read */
	TEST_EQ_U64(c->max, 1 * MS);
	TEST_EQ(call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 1)->count, 1);
}

static void test_exit_without_enter_counted(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 2 * MS, 0, 100, 1, 0, 0); /* its entry was lost */
	r = report();
	TEST_EQ(r->anomalies.exit_without_enter, 1);
	/* left out of the numbers, counted on its call (perf trace counts it) */
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 1);
	TEST_TRUE(c);
	TEST_EQ(c->count, 0);
	TEST_EQ_U64(c->elapsed, 0);
	TEST_EQ(c->nr_unmatched_exits, 1);
	TEST_EQ(call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0)->nr_unmatched_exits, 0);
}

static void test_duplicate_sample_ignored(void)
{
	const struct prism_util_result *r;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 0, 100, 0, 0, 0);
	r = report();
	TEST_EQ(r->anomalies.duplicate_samples, 1);
	TEST_EQ(r->anomalies.exit_without_enter, 0);
	TEST_EQ(call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0)->count, 1);
	TEST_EQ(call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0)->nr_duplicate_exits, 1);
	TEST_EQ(syscall_of(r, 0)->nr_duplicate_exits, 1);
	/* a duplicated entry changes nothing a call counts */
	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 0, 100, 0, 0, 0);
	r = report();
	TEST_EQ(r->anomalies.duplicate_samples, 1);
	TEST_EQ(r->anomalies.enter_in_call, 0);
	TEST_EQ(call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0)->count, 1);
	TEST_EQ(call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 0)->nr_duplicate_exits, 0);
}

/*
 * A record that reached the file later than the time sort allowed (seen
 * in t0502 under load): its call keeps its own times (as perf trace
 * measures them); the clamping is per CPU only.
 */
static void test_late_record_keeps_its_time(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 110, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 2 * MS, 1, 200, 39, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 4 * MS, 1, 200, 39, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 0, 100, 110, 0, 0); /* late */
	ev(PRISM_UTIL_EV_SYS_ENTER, 5 * MS, 0, 100, 110, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 6 * MS, 0, 100, 110, 0, 0);
	r = report();
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 110);
	TEST_TRUE(c);
	TEST_EQ(c->count, 2);
	TEST_EQ_U64(c->elapsed, 3 * MS);
	TEST_EQ_U64(c->max, 2 * MS);
	TEST_EQ_U64(c->min, 1 * MS);
	TEST_EQ_U64(r->length, 5 * MS);
}

static void test_clock_stops_at_exit(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	ev(PRISM_UTIL_EV_OTHER, 0, 1, 0, 0, 0, 0);
	sw(0, 0, 0, 0, 100); /* dd runs 60 ms */
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 231, 0, 0); /* exit_group */
	ev(PRISM_UTIL_EV_EXIT, 59 * MS, 0, 100, 100, 0, 0);
	sw(60 * MS, 0, 100, 0x10 /* X */, 0);
	ev(PRISM_UTIL_EV_OTHER, 3000 * MS, 1, 0, 0, 0, 0); /* a 3 s trace */
	r = report();
	t = task(r, 100, -1);
	TEST_TRUE(t);
	TEST_TRUE(t->exited);
	TEST_EQ_U64(t->end, 60 * MS);
	TEST_EQ_U64(t->all.idle, 0);
	TEST_EQ_U64(run(&t->all), 60 * MS);
	/* exit_group never returns: pending, not a call */
	TEST_EQ(call(t, PRISM_UTIL_SYSCALL, 231)->count, 0);
	TEST_EQ(call(t, PRISM_UTIL_SYSCALL, 231)->nr_pending_end, 1);
}

static void test_idle_task_is_cpu_idle(void)
{
	const struct prism_util_result *r;

	start();
	sw(0, 0, 100, 1, 0); /* CPU 0 goes idle */
	ev(PRISM_UTIL_EV_IRQ_ENTRY, 2 * MS, 0, 0, 27, 0, 0);
	ev(PRISM_UTIL_EV_IRQ_EXIT, 3 * MS, 0, 0, 27, 0, 0);
	ev(PRISM_UTIL_EV_SOFTIRQ_ENTRY, 3 * MS, 0, 0, 1, 0, 0);
	ev(PRISM_UTIL_EV_SOFTIRQ_EXIT, 5 * MS, 0, 0, 1, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 10 * MS, 0, 0, 0, 0, 0);
	r = report();
	TEST_TRUE(!task(r, 0, -1)); /* no row for pid 0 */
	TEST_EQ(r->nr_cpus, 1);
	TEST_EQ_U64(r->cpus[0].t.irq, 1 * MS);
	TEST_EQ_U64(r->cpus[0].t.softirq, 2 * MS);
	TEST_EQ_U64(r->cpus[0].t.idle, 7 * MS);
	TEST_EQ(r->nr_calls[PRISM_UTIL_IRQ], 1);
	TEST_EQ(r->calls[PRISM_UTIL_IRQ][0].count, 1);
	TEST_STREQ(r->calls[PRISM_UTIL_SOFTIRQ][0].name, "TIMER");
}

static void test_system_totals_are_per_cpu(void)
{
	const struct prism_util_result *r;
	uint64_t len;
	size_t i;

	start();
	sw(0, 0, 0, 0, 100);
	sw(0, 1, 0, 0, 200);
	sw(10 * MS, 0, 100, 1, 0); /* both sleep long: their off-CPU time is not CPU idle */
	sw(20 * MS, 1, 200, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 100 * MS, 0, 0, 0, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 100 * MS, 1, 0, 0, 0, 0);
	r = report();
	len = r->length;
	TEST_EQ_U64(len, 100 * MS);
	for (i = 0; i < r->nr_cpus; i++)
		TEST_EQ_U64(cpu_sum(&r->cpus[i].t), len);
	TEST_EQ_U64(cpu_sum(&r->all), 2 * len);
	TEST_EQ_U64(r->all.idle, 170 * MS);
	TEST_EQ((int64_t)(r->util_pct * 1000 + 0.5), 15000); /* 30 ms of 200 */
}

static void test_fork_charged_to_first_cpu(void)
{
	const struct prism_util_task *t;
	struct prism_util_event f = { .type = PRISM_UTIL_EV_FORK,
				      .time = 1 * MS,
				      .cpu = 0,
				      .tid = 100,
				      .pid = 100,
				      .a = 100,
				      .c = 101 };

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 56, 0, 0);
	prism_util__event(u, &f);
	/* placed on CPU 1 before it ever ran: not a move */
	ev(PRISM_UTIL_EV_MIGRATE, 1 * MS + 10, 0, 100, 101, 0, 1);
	ev(PRISM_UTIL_EV_WAKEUP_NEW, 1 * MS + 20, 0, 100, 101, 0, 0);
	sw(2 * MS, 1, 0, 0, 101);
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 1, 101, 56, 0, 0);
	t = task(report(), 101, -1);
	TEST_TRUE(t);
	TEST_EQ(t->nr_cpus, 1);
	TEST_EQ(t->cpus[0].cpu, 1);
	TEST_EQ(t->moves, 0);
	TEST_EQ_U64(t->start, 1 * MS);
	TEST_EQ(t->wakeups, 1);
}

static void test_exit_id_minus_one_closes_call(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 15, 0, 0); /* rt_sigreturn */
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 0, 100, -1, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 2 * MS, 0, 100, 999, 0, 0); /* no name */
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 0, 100, 999, 0, 0);
	r = report();
	TEST_EQ(r->anomalies.exit_without_enter, 0);
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 15);
	TEST_TRUE(c);
	TEST_EQ(c->count, 1);
	TEST_STREQ(c->name, "rt_sigreturn");
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 999);
	TEST_STREQ(c->name, "999");
}

static void test_elapsed_and_oncpu_separate(void)
{
	const struct prism_util_task *t;
	const struct prism_util_call *c;

	start();
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 0, 0, 0); /* read blocks */
	sw(2 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 8 * MS, 0, 0, 100, 0, 0);
	sw(9 * MS, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_EXIT, 10 * MS, 0, 100, 0, 0, 0);
	t = task(report(), 100, -1);
	c = call(t, PRISM_UTIL_SYSCALL, 0);
	TEST_TRUE(c);
	TEST_EQ_U64(c->elapsed, 9 * MS);
	TEST_EQ_U64(c->oncpu, 2 * MS);
	TEST_EQ_U64(t->all.sys, 2 * MS);
	TEST_EQ_U64(t->all.idle, 7 * MS);
	TEST_EQ_U64(t->all.sleep, 6 * MS);
	TEST_EQ_U64(t->all.wait, 1 * MS);
}

static void test_missing_switch_inferred(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *a, *b;

	start();
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 0, 0, 0);
	/* 100 -> 200 was never emitted: 200 shows up running on CPU 0 */
	ev(PRISM_UTIL_EV_SYS_EXIT, 5 * MS, 0, 200, 0, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 10 * MS, 0, 200, 0, 0, 0);
	r = report();
	TEST_EQ(r->anomalies.inferred_switch_ins, 1);
	TEST_EQ_U64(r->anomalies.inferred_ns, 4 * MS);
	a = task(r, 100, -1);
	b = task(r, 200, -1);
	TEST_TRUE(a && b);
	TEST_EQ_U64(run(&a->all), 5 * MS); /* closed when 200 was seen */
	TEST_EQ_U64(run(&b->all), 5 * MS);
	TEST_EQ_U64(cpu_sum(&r->cpus[0].t), r->length);
	TEST_TRUE(a->inferred && b->inferred);
}

static void test_switch_sample_without_tid(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;
	struct prism_util_event e = { .type = PRISM_UTIL_EV_SWITCH,
				      .time = 5 * MS,
				      .cpu = 0,
				      .tid = UINT32_MAX,
				      .pid = UINT32_MAX,
				      .a = 100,
				      .b = 0x10,
				      .c = 0 };

	start();
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_EXIT, 4 * MS, 0, 100, 100, 0, 0);
	/* an exiting thread's last switch is sampled with tid -1: the payload names it */
	prism_util__event(u, &e);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 0, 0, 0, 0, 0);
	r = report();
	TEST_EQ(r->anomalies.no_tid_samples, 1);
	TEST_EQ(r->anomalies.inferred_switch_ins, 0);
	TEST_TRUE(!task(r, UINT32_MAX, -1));
	t = task(r, 100, -1);
	TEST_TRUE(t);
	TEST_TRUE(t->exited);
	TEST_EQ_U64(run(&t->all), 5 * MS);
	TEST_EQ_U64(t->all.idle, 0);
	TEST_EQ_U64(t->orphan, 5 * MS);
}

static void test_exit_before_cpu_traced_is_pending(void)
{
	const struct prism_util_result *r;
	const struct prism_util_call *c;

	start();
	/* CPU 0 traced first: the task enters ioctl, moves to CPU 1 */
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 16, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 1 * MS, 0, 100, 16, 0, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 2 * MS, 0, 100, 203, 0, 0);
	sw(3 * MS, 0, 100, 1, 0);
	/* CPU 1's events start with an exit whose entry was not traced */
	ev(PRISM_UTIL_EV_SYS_EXIT, 9 * MS, 1, 100, 16, 0, 0);
	r = report();
	TEST_EQ(r->anomalies.exit_without_enter, 0);
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 16);
	TEST_EQ(c->count, 1);
	TEST_EQ(c->nr_pending_start, 1);
	c = call(task(r, 100, -1), PRISM_UTIL_SYSCALL, 203);
	TEST_EQ(c->count, 0);
	TEST_EQ(c->nr_pending_end, 1);
}

/* damaged input of every kind: never a crash, the per-CPU truths hold */
static void test_random_sequences_keep_invariants(void)
{
	static const enum prism_util_ev_type types[] = {
		PRISM_UTIL_EV_SYS_ENTER,   PRISM_UTIL_EV_SYS_EXIT,	PRISM_UTIL_EV_IRQ_ENTRY,
		PRISM_UTIL_EV_IRQ_EXIT,	   PRISM_UTIL_EV_SOFTIRQ_ENTRY, PRISM_UTIL_EV_SOFTIRQ_EXIT,
		PRISM_UTIL_EV_HCALL_ENTRY, PRISM_UTIL_EV_HCALL_EXIT,	PRISM_UTIL_EV_SWITCH,
		PRISM_UTIL_EV_WAKEUP,	   PRISM_UTIL_EV_WAKEUP_NEW,	PRISM_UTIL_EV_MIGRATE,
		PRISM_UTIL_EV_FORK,	   PRISM_UTIL_EV_EXEC,		PRISM_UTIL_EV_EXIT,
		PRISM_UTIL_EV_FREE,	   PRISM_UTIL_EV_OTHER,		PRISM_UTIL_EV_LOST,
	};
	const struct prism_util_result *r;
	uint64_t t = 0, seed = 12345;
	size_t i;
	int round;

	for (round = 0; round < 20; round++) {
		start();
		for (i = 0; i < 5000; i++) {
			uint32_t tid, x;

			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			x = (uint32_t)(seed >> 33);
			t += x % 3 ? x % 50000 : 0;
			tid = x % 7 == 0 ? 0 : 100 + (x >> 8) % 6;
			TEST_EQ(ev(types[(x >> 12) % PRISM_ARRAY_SIZE(types)], t, (x >> 16) % 3,
				   tid, (x >> 4) % 2 ? 100 + (x >> 20) % 6 : (x >> 20) % 4,
				   (x >> 24) % 3, 100 + (x >> 26) % 6),
				0);
		}
		r = report();
		TEST_TRUE(r);
		for (i = 0; i < r->nr_cpus; i++)
			TEST_EQ_U64(cpu_sum(&r->cpus[i].t), r->length);
	}
}

static void test_hcall_names_and_hv_time(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;
	const struct prism_util_call *c;

	start();
	ev(PRISM_UTIL_EV_SYS_ENTER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_HCALL_ENTRY, 1 * MS, 0, 100, 0xe0, 0, 0); /* H_CEDE */
	ev(PRISM_UTIL_EV_HCALL_EXIT, 3 * MS, 0, 100, 0xe0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 4 * MS, 0, 100, 0, 0, 0);
	r = report();
	t = task(r, 100, -1);
	TEST_EQ_U64(t->all.hv, 2 * MS);
	TEST_EQ_U64(t->all.sys, 2 * MS);
	c = call(t, PRISM_UTIL_HCALL, 0xe0);
	TEST_TRUE(c);
	TEST_STREQ(c->name, "H_CEDE");
	TEST_EQ(c->count, 1);
}

static void test_report_filters_and_top(void)
{
	const struct prism_util_result *r;
	struct prism_util_report_opts o = { 0 };
	int64_t pid = 200;

	start();
	ev(PRISM_UTIL_EV_OTHER, 0, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 0, 1, 200, 0, 0, 0);
	sw(1 * MS, 1, 200, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 10 * MS, 0, 100, 0, 0, 0);
	prism_util__finish(u);
	o.top = 1;
	TEST_EQ(prism_util__report(u, &o, &r), 0);
	TEST_EQ(r->nr_processes, 1);
	TEST_EQ(r->processes[0].pid, 100);
	memset(&o, 0, sizeof(o));
	o.pids = &pid;
	o.nr_pids = 1;
	TEST_EQ(prism_util__report(u, &o, &r), 0);
	TEST_EQ(r->nr_processes, 1);
	TEST_EQ(r->processes[0].pid, 200);
	memset(&o, 0, sizeof(o));
	o.sort = PRISM_UTIL_SORT_TID;
	TEST_EQ(prism_util__report(u, &o, &r), 0);
	TEST_EQ(r->nr_processes, 2);
	TEST_EQ(r->processes[0].pid, 100);
}

/* ---- names ---- */

static void test_syscall_tables(void)
{
	TEST_STREQ(prism_syscall_name("x86_64", 0), "read");
	TEST_STREQ(prism_syscall_name("x86_64", 59), "execve");
	TEST_STREQ(prism_syscall_name("x86_64", 435), "clone3");
	TEST_STREQ(prism_syscall_name("x86_64", 462), "mseal");
	TEST_STREQ(prism_syscall_name("i686", 11), "execve");
	TEST_STREQ(prism_syscall_name("i386", 3), "read");
	TEST_STREQ(prism_syscall_name("aarch64", 63), "read");
	TEST_STREQ(prism_syscall_name("aarch64", 79), "newfstatat");
	TEST_STREQ(prism_syscall_name("aarch64", 221), "execve");
	TEST_STREQ(prism_syscall_name("armv7l", 3), "read");
	TEST_STREQ(prism_syscall_name("armv7l", 11), "execve");
	TEST_STREQ(prism_syscall_name("ppc64le", 3), "read");
	TEST_STREQ(prism_syscall_name("ppc64le", 11), "execve");
	TEST_STREQ(prism_syscall_name("ppc64", 291), "newfstatat");
	TEST_STREQ(prism_syscall_name("s390x", 3), "read");
	TEST_STREQ(prism_syscall_name("s390x", 11), "execve");
	TEST_STREQ(prism_syscall_name("riscv64", 63), "read");
	TEST_STREQ(prism_syscall_name("riscv64", 258), "riscv_hwprobe");
	TEST_STREQ(prism_syscall_table("i686"), "i386");
	TEST_STREQ(prism_syscall_table("ppc64le"), "powerpc64");
	TEST_TRUE(!prism_syscall_name("x86_64", 100000));
	TEST_TRUE(!prism_syscall_name("x86_64", -1));
	TEST_TRUE(!prism_syscall_table("vax"));
}

static void test_softirq_and_hcall_names(void)
{
	static const char *const want[] = { "HI",	"TIMER",   "NET_TX", "NET_RX",	"BLOCK",
					    "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU" };
	int i;

	for (i = 0; i < 10; i++)
		TEST_STREQ(prism_softirq_name(i), want[i]);
	TEST_TRUE(!prism_softirq_name(10));
	TEST_STREQ(prism_hcall_name(0x4), "H_REMOVE");
	TEST_STREQ(prism_hcall_name(0x8), "H_ENTER");
	TEST_STREQ(prism_hcall_name(0xe0), "H_CEDE");
	TEST_TRUE(!prism_hcall_name(0x3));
}

static void cleanup(void)
{
	prism_util__free(u);
	u = NULL;
}

static void test_zz_free(void)
{
	cleanup();
	TEST_TRUE(!u);
}

TEST_MAIN(TEST(pending_at_trace_start), TEST(pending_at_trace_end), TEST(busy_unknown_reclassified),
	  TEST(exec_keeps_old_image), TEST(fork_child_inherits_call), TEST(explicit_migration),
	  TEST(implicit_migration), TEST(spurious_migration_ignored),
	  TEST(remote_events_are_not_migrations), TEST(comm_trimmed_at_nul),
	  TEST(never_abort_on_enter_in_call), TEST(exit_without_enter_counted),
	  TEST(duplicate_sample_ignored), TEST(late_record_keeps_its_time),
	  TEST(clock_stops_at_exit), TEST(idle_task_is_cpu_idle), TEST(system_totals_are_per_cpu),
	  TEST(fork_charged_to_first_cpu), TEST(exit_id_minus_one_closes_call),
	  TEST(elapsed_and_oncpu_separate), TEST(missing_switch_inferred),
	  TEST(switch_sample_without_tid), TEST(exit_before_cpu_traced_is_pending),
	  TEST(random_sequences_keep_invariants), TEST(hcall_names_and_hv_time),
	  TEST(report_filters_and_top), TEST(syscall_tables), TEST(softirq_and_hcall_names),
	  TEST(zz_free));
