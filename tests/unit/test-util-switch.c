// SPDX-License-Identifier: MIT
/*
 * Who runs where when the trace lacks switches (issue 22): inferred
 * switch-ins placed no earlier than the task's wakeup, its last switch-out
 * and the CPU's last event; and switch records (PERF_RECORD_SWITCH, EXIT)
 * taken as the authority over sched_switch tracepoints.  Times in ns.
 */
#include <prism/util.h>

#include "test.h"
#include "util-test.h"

#define MS 1000000ULL

static struct prism_util *u;

static void start(void)
{
	prism_util__free(u);
	u = prism_util__new(NULL);
}

static void ev(enum prism_util_ev_type type, uint64_t time, uint32_t cpu, uint32_t tid, int64_t a,
	       int64_t b, int64_t c)
{
	TEST_EQ(util_event(u, type, time, cpu, tid, a, b, c), 0);
}

/* a sched_switch tracepoint, in @prev's context; @state 1 = S (sleeping), 0 = R */
static void sw(uint64_t time, uint32_t cpu, uint32_t prev, int64_t state, uint32_t next)
{
	ev(PRISM_UTIL_EV_SWITCH, time, cpu, prev, prev, state, next);
}

/* a switch record of @tid: in, or out (@preempt: still runnable) */
static void rec_in(uint64_t time, uint32_t cpu, uint32_t tid)
{
	ev(PRISM_UTIL_EV_SWITCH_IN, time, cpu, tid, 0, 0, 0);
}

static void rec_out(uint64_t time, uint32_t cpu, uint32_t tid, int preempt)
{
	ev(PRISM_UTIL_EV_SWITCH_OUT, time, cpu, tid, preempt, 0, 0);
}

static const struct prism_util_task *task(const struct prism_util_result *r, uint32_t tid)
{
	return util_task(r, tid, -1);
}

/*
 * This VM's pattern (issue 22, item 3): a task that sleeps in poll with a
 * 100 ms timeout switches out to the idle task each time, and the switch
 * back in is never emitted; its wakeup (from the timer interrupt, in the
 * idle task's context) is there.  It ran 1 ms per period, not 100.
 */
static void test_vm_pattern_switch_in_from_idle_missing(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;
	uint64_t p;

	start();
	sw(0, 0, 0, 0, 100);
	sw(1 * MS, 0, 100, 1, 0);
	for (p = 100 * MS; p <= 500 * MS; p += 100 * MS) {
		ev(PRISM_UTIL_EV_IRQ_ENTRY, p - 20000, 0, 0, 11, 0, 0);
		ev(PRISM_UTIL_EV_WAKEUP, p - 10000, 0, 0, 100, 0, 0);
		ev(PRISM_UTIL_EV_IRQ_EXIT, p, 0, 0, 11, 0, 0);
		/* the switch 0 -> 100 at p is missing */
		sw(p + 1 * MS, 0, 100, 1, 0);
	}
	ev(PRISM_UTIL_EV_OTHER, 600 * MS, 0, 0, 0, 0, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_TRUE(t);
	TEST_EQ_U64(util_run(&t->all), 6 * MS);
	TEST_EQ_U64(t->inferred, 5 * MS);
	TEST_EQ(r->anomalies.inferred_switch_ins, 5);
	TEST_EQ_U64(r->anomalies.inferred_ns, 5 * MS);
	TEST_EQ(r->anomalies.assumed_running, 0);
	TEST_EQ_U64(r->cpus[0].t.idle, 600 * MS - 6 * MS - 5 * 20000);
}

/* woken from another CPU: the switch-in is no earlier than the wakeup */
static void test_switch_in_not_before_wakeup(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	sw(0, 0, 100, 1, 0); /* CPU 0 idle from 0 */
	ev(PRISM_UTIL_EV_OTHER, 0, 1, 200, 0, 0, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 40 * MS, 1, 200, 100, 0, 0);
	/* 100 first shows up on CPU 0 at 50 ms: it ran from 40 */
	ev(PRISM_UTIL_EV_SYS_ENTER, 50 * MS, 0, 100, 0, 0, 0);
	sw(60 * MS, 0, 100, 1, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_EQ_U64(util_run(&t->all), 20 * MS);
	TEST_EQ_U64(t->all.sleep, 40 * MS);
	TEST_EQ(r->anomalies.inferred_switch_ins, 1);
	TEST_EQ_U64(r->anomalies.inferred_ns, 10 * MS);
}

/* an event of the idle CPU after the wakeup bounds the switch-in too */
static void test_switch_in_not_before_cpu_event(void)
{
	const struct prism_util_result *r;

	start();
	sw(0, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 10 * MS, 1, 200, 100, 0, 0);
	ev(PRISM_UTIL_EV_SOFTIRQ_ENTRY, 30 * MS, 0, 0, 1, 0, 0);
	ev(PRISM_UTIL_EV_SOFTIRQ_EXIT, 31 * MS, 0, 0, 1, 0, 0);
	sw(40 * MS, 0, 100, 1, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 9 * MS);
	TEST_EQ_U64(task(r, 100)->all.wait, 21 * MS);
}

/*
 * A task last seen switched out, showing up on a CPU whose state is not
 * known: not "assumed running" since that CPU's start, but switched in no
 * earlier than its last switch-out or wakeup.
 */
static void test_switched_out_task_not_assumed_running(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	sw(0, 0, 0, 0, 100);
	sw(10 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 35 * MS, 0, 0, 100, 0, 0);
	/* CPU 1's first event: 100 running there */
	ev(PRISM_UTIL_EV_SYS_ENTER, 40 * MS, 1, 100, 0, 0, 0);
	sw(45 * MS, 1, 100, 1, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_EQ_U64(util_run(&t->all), 20 * MS);
	TEST_EQ(r->anomalies.assumed_running, 0);
	TEST_EQ(r->anomalies.inferred_switch_ins, 1);
	TEST_EQ_U64(r->anomalies.inferred_ns, 5 * MS);
}

/*
 * A task seen on a second CPU without its switch-out on the first left
 * the first after its last event there, not when it shows up elsewhere.
 */
static void test_move_without_switch_out(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 5 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 0, 1, 0, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 20 * MS, 1, 100, 0, 0, 0);
	sw(25 * MS, 1, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 30 * MS, 0, 0, 0, 0, 0);
	r = util_report(u);
	t = task(r, 100);
	/* CPU 0 until 5 ms, CPU 1 from its last idle event (0) at the earliest: from 5 */
	TEST_EQ_U64(util_run(&t->all), 25 * MS);
	TEST_EQ_U64(t->nr_cpus, 2);
}

/*
 * Per-task recording with switch records: the sched_switch tracepoint
 * names a task that is not recorded (it fires in the context of the
 * recorded one leaving); the records say when the recorded one runs.
 * No time is invented for the other task, and wakeups do not create it.
 */
static void test_switch_records_are_the_authority(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	rec_in(0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 2 * MS, 0, 100, 400, 0, 0);
	sw(5 * MS, 0, 100, 0, 300); /* preempted by 300, not recorded */
	rec_out(5 * MS, 0, 100, 1);
	rec_in(8 * MS, 0, 100);
	ev(PRISM_UTIL_EV_SYS_EXIT, 9 * MS, 0, 100, 0, 0, 0);
	sw(10 * MS, 0, 100, 1, 300);
	rec_out(10 * MS, 0, 100, 0);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 1, 200, 0, 0, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_EQ_U64(util_run(&t->all), 7 * MS);
	TEST_EQ_U64(t->all.wait, 3 * MS);
	TEST_EQ_U64(t->all.sleep, 10 * MS);
	TEST_EQ(t->switch_ins, 2);
	TEST_TRUE(!task(r, 300));
	TEST_TRUE(!task(r, 400));
	TEST_EQ(r->anomalies.switch_records, 4);
	TEST_EQ(r->anomalies.inferred_switch_ins, 0);
	TEST_EQ_U64(r->cpus[0].t.idle, 13 * MS); /* 300's time: not recorded */
}

/* the first record of a task running at the start is its switch-out */
static void test_switch_out_record_of_running_task(void)
{
	const struct prism_util_result *r;

	start();
	ev(PRISM_UTIL_EV_OTHER, 0, 0, 100, 0, 0, 0);
	rec_out(4 * MS, 0, 100, 0);
	rec_in(6 * MS, 1, 100);
	rec_out(7 * MS, 1, 100, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 5 * MS);
	TEST_EQ(task(r, 100)->moves, 1);
}

/*
 * A recorded task's final switch-out is never recorded (its events are
 * torn down at exit): it ends at its EXIT record, not at the trace end.
 */
static void test_task_ends_at_exit_record(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	rec_in(0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 2 * MS, 0, 100, 60, 0, 0); /* exit */
	ev(PRISM_UTIL_EV_EXIT, 8 * MS, 0, 100, 100, 0, 0);
	ev(PRISM_UTIL_EV_TASK_END, 9 * MS, 0, 100, 0, 0, 0);
	rec_in(12 * MS, 0, 200);
	ev(PRISM_UTIL_EV_OTHER, 30 * MS, 0, 200, 0, 0, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_TRUE(t && t->exited);
	TEST_EQ_U64(util_run(&t->all), 9 * MS);
	TEST_EQ_U64(t->end, 9 * MS);
	TEST_EQ_U64(t->tail, 0);
	TEST_EQ(r->anomalies.running_at_end, 1); /* 200 only */
	TEST_EQ_U64(util_run(&task(r, 200)->all), 18 * MS);
	TEST_EQ_U64(r->cpus[0].t.idle, 3 * MS);
}

/* without switch records, an EXIT record changes nothing (the switch tells) */
static void test_exit_record_ignored_without_switch_records(void)
{
	const struct prism_util_result *r;

	start();
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_EXIT, 2 * MS, 0, 100, 100, 0, 0);
	ev(PRISM_UTIL_EV_TASK_END, 3 * MS, 0, 100, 0, 0, 0);
	sw(4 * MS, 0, 100, 0x10, 0);
	ev(PRISM_UTIL_EV_OTHER, 10 * MS, 0, 0, 0, 0, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 4 * MS);
	TEST_EQ(r->anomalies.switch_records, 0);
}

/*
 * With runtime events (sched_stat_runtime), a missing switch-in from the
 * idle task is where the task's first runtime event says: 3 ms before it,
 * not at its wakeup (7 ms earlier) nor at its first event.
 */
static void test_runtime_places_missing_switch_in(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	prism_util__use_runtime(u);
	sw(0, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 40 * MS, 1, 200, 100, 0, 0);
	/* switched in at 47 ms, unseen; its first event at 49 */
	ev(PRISM_UTIL_EV_SYS_ENTER, 49 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 50 * MS, 0, 100, 100, 3 * MS, 0);
	sw(50 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 60 * MS, 0, 0, 0, 0, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_EQ_U64(util_run(&t->all), 3 * MS);
	TEST_EQ_U64(t->all.sleep, 40 * MS + 10 * MS);
	TEST_EQ_U64(t->all.wait, 7 * MS);
	TEST_EQ_U64(t->all.idle, 47 * MS + 10 * MS);
	TEST_EQ_U64(r->cpus[0].t.idle, 57 * MS);
	TEST_EQ(r->anomalies.inferred_switch_ins, 1);
	TEST_EQ_U64(r->anomalies.inferred_ns, 2 * MS); /* before its first event */
}

/*
 * A runtime event moves a start back past a wakeup, no further than the
 * task's switch-out: seen on this VM kind (kdamond), a task that sleeps
 * is woken by a timer of the idle CPU (that wakeup and the switch-in are
 * not recorded), runs, sets itself to sleep and is woken by another CPU
 * (recorded) right before it switches out.  The wakeup would cut off what
 * it ran before.
 */
static void test_runtime_not_bounded_by_later_wakeup(void)
{
	const struct prism_util_result *r;

	start();
	prism_util__use_runtime(u);
	sw(0, 0, 100, 2, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 40 * MS, 1, 200, 100, 0, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 50 * MS, 0, 100, 100, 30 * MS, 0);
	sw(50 * MS, 0, 100, 2, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 30 * MS);
	TEST_EQ_U64(r->cpus[0].t.idle, 20 * MS);
	/* but never before its switch-out */
	start();
	prism_util__use_runtime(u);
	sw(10 * MS, 0, 100, 2, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 50 * MS, 0, 100, 100, 45 * MS, 0);
	sw(50 * MS, 0, 100, 2, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 40 * MS);
}

/*
 * After a wakeup that preempts the running task the kernel skips the next
 * clock update: the rest of the previous task's slice, up to the switch,
 * is counted to the next task (its first runtime event), as schedstat and
 * rusage count it.  Taken from the previous task's buckets, whichever
 * mode it ran in.
 */
static void test_runtime_moves_clock_skip_across_buckets(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *a;

	start();
	prism_util__use_runtime(u);
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 2 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 0, 100, 0, 0, 0);
	sw(4 * MS, 0, 100, 0, 200);
	ev(PRISM_UTIL_EV_RUNTIME, 4 * MS + 10000, 0, 200, 200, 3 * MS + 10000, 0);
	sw(5 * MS, 0, 200, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 6 * MS, 1, 300, 0, 0, 0);
	r = util_report(u);
	a = task(r, 100);
	/* 100 ran 3 ms in user around 1 ms in sys: the 3 ms go from user */
	TEST_EQ_U64(util_run(&a->all), 1 * MS);
	TEST_EQ_U64(a->all.sys, 1 * MS);
	TEST_EQ_U64(util_run(&task(r, 200)->all), 4 * MS);
	TEST_EQ_U64(task(r, 200)->moved, 3 * MS);
	TEST_EQ_U64(util_run(&r->cpus[0].t), 5 * MS);
	/* more than the bucket at the switch holds: user, then sys */
	start();
	prism_util__use_runtime(u);
	sw(0, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 100, 0, 0, 0);
	ev(PRISM_UTIL_EV_SYS_EXIT, 3 * MS, 0, 100, 0, 0, 0);
	sw(4 * MS, 0, 100, 0, 200);
	ev(PRISM_UTIL_EV_RUNTIME, 4 * MS + 10000, 0, 200, 200, 3 * MS + 10000, 0);
	sw(5 * MS, 0, 200, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 6 * MS, 1, 300, 0, 0, 0);
	r = util_report(u);
	a = task(r, 100);
	TEST_EQ_U64(a->all.user, 0);
	TEST_EQ_U64(a->all.sys, 1 * MS);
	TEST_EQ_U64(util_run(&task(r, 200)->all), 4 * MS);
}

/*
 * This VM's PID 1 threads emit no events, not even their switch-outs:
 * switched in (seen, in the previous task's context), they would run until
 * the CPU's next event in another context.  With runtime events, a task
 * that ran on would have had some: it left after its last event.
 */
static void test_silent_task_leaves_after_its_last_event(void)
{
	const struct prism_util_result *r;

	start();
	prism_util__use_runtime(u);
	sw(0, 0, 200, 1, 70);
	ev(PRISM_UTIL_EV_SOFTIRQ_ENTRY, 1 * MS, 0, 70, 1, 0, 0);
	ev(PRISM_UTIL_EV_SOFTIRQ_EXIT, 2 * MS, 0, 70, 1, 0, 0);
	/* 70 -> idle unseen; the idle CPU's interrupt at 90 ms */
	ev(PRISM_UTIL_EV_IRQ_ENTRY, 90 * MS, 0, 0, 11, 0, 0);
	ev(PRISM_UTIL_EV_IRQ_EXIT, 91 * MS, 0, 0, 11, 0, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 70)->all), 2 * MS);
	TEST_EQ_U64(r->cpus[0].t.idle, 88 * MS);
	TEST_EQ(r->anomalies.inferred_switch_ins, 1);
	TEST_EQ_U64(r->anomalies.inferred_ns, 0);
}

/*
 * The kernel counts a run from when the task was picked, before the switch
 * is traced (or recorded): its first runtime event moves the start back,
 * taking the time from the previous occupant, and both say how much moved.
 */
static void test_runtime_moves_seen_switch_in(void)
{
	const struct prism_util_result *r;

	start();
	prism_util__use_runtime(u);
	sw(0, 0, 0, 0, 200);
	ev(PRISM_UTIL_EV_SYS_ENTER, 1 * MS, 0, 200, 0, 0, 0);
	sw(10 * MS, 0, 200, 1, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 12 * MS, 0, 100, 100, 2 * MS + 20000, 0);
	sw(12 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 0, 0, 0, 0, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 2 * MS + 20000);
	TEST_EQ_U64(util_run(&task(r, 200)->all), 10 * MS - 20000);
	TEST_EQ_U64(task(r, 100)->moved, 20000);
	TEST_EQ_U64(task(r, 200)->moved, 20000);
	TEST_EQ_U64(task(r, 200)->all.idle, 10 * MS + 20000);
	TEST_EQ_U64(r->anomalies.runtime_moved_ns, 20000);
	TEST_EQ_U64(r->anomalies.inferred_ns, 0);
	TEST_EQ_U64(util_run(&r->cpus[0].t) + r->cpus[0].t.idle, r->length);
}

/* switch records too: the first runtime event after a switch-in record */
static void test_runtime_moves_switch_record(void)
{
	const struct prism_util_result *r;

	start();
	prism_util__use_runtime(u);
	rec_in(0, 0, 100);
	rec_out(1 * MS, 0, 100, 0);
	rec_in(10 * MS, 0, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 11 * MS, 0, 100, 100, 1 * MS + 30000, 0);
	rec_out(11 * MS, 0, 100, 0);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 1, 200, 0, 0, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 2 * MS + 30000);
	TEST_EQ_U64(r->cpus[0].t.idle, 20 * MS - 2 * MS - 30000);
}

/*
 * Steal time: the kernel's runtime events count less than the wall clock
 * while the hypervisor runs something else.  Not on CPU, not idle; small
 * differences are the clocks' noise; a runtime event made from another
 * CPU (an update of the task's runqueue) restarts the count.
 */
static void test_steal_from_runtime_gap(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *a;

	start();
	prism_util__use_runtime(u);
	/* (time 0 is no time: the trace starts at 1 ms) */
	ev(PRISM_UTIL_EV_OTHER, 1 * MS, 0, 300, 0, 0, 0);
	sw(1 * MS, 0, 300, 1, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 11 * MS, 0, 100, 100, 6 * MS, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 21 * MS, 0, 100, 100, 10 * MS - 50000, 0);
	/* from CPU 1, about 100: 2 ms since its last count */
	ev(PRISM_UTIL_EV_RUNTIME, 23 * MS, 1, 300, 100, 2 * MS, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 31 * MS, 0, 100, 100, 7 * MS, 0);
	sw(31 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 41 * MS, 0, 300, 0, 0, 0);
	r = util_report(u);
	a = task(r, 100);
	TEST_EQ_U64(a->all.steal, 4 * MS + 1 * MS);
	TEST_EQ_U64(util_run(&a->all), 30 * MS - 5 * MS);
	TEST_EQ_U64(r->cpus[0].t.steal, 5 * MS);
	TEST_EQ_U64(util_run(&r->cpus[0].t) + r->cpus[0].t.idle + r->cpus[0].t.steal, r->length);
	TEST_EQ_U64(r->anomalies.steal_ns, 5 * MS);
	TEST_EQ_U64(r->anomalies.steal_intervals, 2);
}

/*
 * The kernel's count of a run ends at its last runtime event, right before
 * the switch to the idle task: the microseconds between go to idle (a
 * kworker's thousands of short runs add up); not after a runtime event
 * long before the switch.
 */
static void test_runtime_ends_run_before_switch_to_idle(void)
{
	const struct prism_util_result *r;

	start();
	prism_util__use_runtime(u);
	ev(PRISM_UTIL_EV_OTHER, 1 * MS, 0, 300, 0, 0, 0);
	sw(1 * MS, 0, 300, 1, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 5 * MS - 10000, 0, 100, 100, 4 * MS - 10000, 0);
	sw(5 * MS, 0, 100, 1, 0);
	sw(6 * MS, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 7 * MS, 0, 100, 100, 1 * MS, 0);
	sw(8 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 9 * MS, 0, 300, 0, 0, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 4 * MS - 10000 + 2 * MS);
	TEST_EQ_U64(task(r, 100)->moved, 10000);
	TEST_EQ_U64(util_run(&r->cpus[0].t) + r->cpus[0].t.idle, r->length);
}

/* a new analysis with runtime events; task 300 shows up on @cpu at 1 ms */
static void start_runtime(uint32_t cpu)
{
	start();
	prism_util__use_runtime(u);
	ev(PRISM_UTIL_EV_OTHER, 1 * MS, cpu, 300, 0, 0, 0);
}

/*
 * Seen in a system-wide trace under load (t0507): the sleeper's switch-in
 * from the idle task is missing; it runs from 10 ms, its first event (the
 * sleep's exit) 50 us later.  Another CPU wakes a task onto its runqueue
 * and so makes the kernel count its run: 114 us, a runtime event about it
 * in that CPU's context.  Its own runtime event counts only from there
 * (70 us).  The kernel's 184 us start at 10 ms, as the other CPU's count
 * says, not at the first event.
 */
static void test_remote_runtime_places_missing_switch_in(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start_runtime(1);
	sw(1 * MS, 0, 100, 1, 0);
	/* 0 -> 100 at 10 ms, unseen */
	ev(PRISM_UTIL_EV_SYS_EXIT, 10 * MS + 50000, 0, 100, 230, 0, 0);
	ev(PRISM_UTIL_EV_WAKEUP, 10 * MS + 113000, 1, 300, 400, 0, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 10 * MS + 114000, 1, 300, 100, 114000, 0);
	ev(PRISM_UTIL_EV_SYS_ENTER, 10 * MS + 183000, 0, 100, 230, 0, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 10 * MS + 184000, 0, 100, 100, 70000, 0);
	sw(10 * MS + 185000, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 0, 0, 0, 0, 0);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 1, 300, 0, 0, 0);
	r = util_report(u);
	t = task(r, 100);
	TEST_EQ_U64(util_run(&t->all), 184000);
	TEST_EQ_U64(t->all.idle, r->length - 184000);
	TEST_EQ_U64(util_run(&r->cpus[0].t) + r->cpus[0].t.idle, r->length);
	TEST_EQ_U64(r->cpus[0].t.idle, r->length - 184000);
	/* the same count made while its own start is known moves nothing */
	start_runtime(1);
	sw(1 * MS, 0, 0, 0, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 2 * MS, 0, 100, 100, 1 * MS, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 3 * MS, 1, 300, 100, 1 * MS, 0);
	sw(3 * MS, 0, 100, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 4 * MS, 0, 0, 0, 0, 0);
	r = util_report(u);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 2 * MS);
}

/* 100 runs from 10 ms, wakes 200 at +1347 us and counts @count ns up to it */
static const struct prism_util_result *preempted_by_wakee(uint64_t count)
{
	uint64_t b = 10 * MS;

	start_runtime(1);
	sw(b, 1, 300, 1, 100);
	ev(PRISM_UTIL_EV_WAKEUP, b + 1347000, 1, 100, 200, 0, 0);
	ev(PRISM_UTIL_EV_RUNTIME, b + 2111000, 1, 100, 100, (int64_t)count, 0);
	sw(b + 2115000, 1, 100, 0, 200);
	ev(PRISM_UTIL_EV_RUNTIME, b + 2145000, 1, 200, 200, 798000, 0);
	sw(b + 2146000, 1, 200, 1, 0);
	ev(PRISM_UTIL_EV_OTHER, 20 * MS, 1, 0, 0, 0, 0);
	return util_report(u);
}

/*
 * Seen in a system-wide trace under load (a busy recorder, t0507): 100 runs
 * from 10 ms, wakes 200, which preempts it.  The kernel skips the clock
 * update of the switch: 100's last runtime event, 764 us after the wakeup
 * and 4 us before the switch, counts its run up to the wakeup (1347 us);
 * 200's first one counts from the wakeup on.  The wall clock beyond 100's
 * count is 200's run, not steal time taken from 100 (and then once more
 * by 200's count).
 */
static void test_skipped_clock_is_not_steal(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *a;

	r = preempted_by_wakee(1347000);
	a = task(r, 100);
	TEST_EQ_U64(util_run(&a->all), 1347000);
	TEST_EQ_U64(a->all.steal, 0);
	TEST_EQ_U64(util_run(&task(r, 200)->all), 798000);
	TEST_EQ_U64(r->cpus[1].t.steal, 0);
	TEST_EQ_U64(r->anomalies.steal_ns, 0);
	TEST_EQ(r->anomalies.steal_intervals, 0);
	TEST_EQ_U64(util_run(&r->cpus[1].t) + r->cpus[1].t.idle, r->length);
	/* with 500 us of steal time before the wakeup: that stays steal */
	r = preempted_by_wakee(847000);
	a = task(r, 100);
	TEST_EQ_U64(util_run(&a->all), 847000);
	TEST_EQ_U64(a->all.steal, 500000);
	TEST_EQ_U64(util_run(&task(r, 200)->all), 798000);
	TEST_EQ_U64(r->cpus[1].t.steal, 500000);
	TEST_EQ_U64(r->anomalies.steal_ns, 500000);
	TEST_EQ(r->anomalies.steal_intervals, 1);
	TEST_EQ_U64(util_run(&r->cpus[1].t) + r->cpus[1].t.idle + r->cpus[1].t.steal, r->length);
}

/* 100 runs from 2 ms, its last runtime event at 50 ms; the recording ends at @end */
static const struct prism_util_result *runs_until(uint64_t end)
{
	start_runtime(0);
	sw(2 * MS, 0, 300, 1, 100);
	ev(PRISM_UTIL_EV_RUNTIME, 3 * MS, 0, 100, 100, 1 * MS, 0);
	ev(PRISM_UTIL_EV_RUNTIME, 50 * MS, 0, 100, 100, 47 * MS, 0);
	prism_util__set_end(u, end);
	return util_report(u);
}

/*
 * The recording's end comes after its events were disabled (one by one,
 * 37 ms under load): a running task shows a runtime event every tick, so
 * one whose CPU has none for 20 ms before the end ran no further there
 * that the trace knows of; a sleeping task sleeps up to the end.  Closer
 * to the end, the running task runs up to it.
 */
static void test_end_after_events_disabled(void)
{
	const struct prism_util_result *r;

	r = runs_until(87 * MS);
	TEST_EQ_U64(r->length, 86 * MS);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 48 * MS);
	TEST_EQ_U64(task(r, 300)->all.sleep, 85 * MS);
	TEST_EQ_U64(r->cpus[0].t.idle, 37 * MS);
	TEST_EQ(r->anomalies.running_at_end, 0);
	r = runs_until(54 * MS);
	TEST_EQ_U64(util_run(&task(r, 100)->all), 52 * MS);
	TEST_EQ(r->anomalies.running_at_end, 1);
}

static void test_zz_free(void)
{
	prism_util__free(u);
	u = NULL;
	TEST_TRUE(!u);
}

TEST_MAIN(TEST(vm_pattern_switch_in_from_idle_missing), TEST(switch_in_not_before_wakeup),
	  TEST(switch_in_not_before_cpu_event), TEST(switched_out_task_not_assumed_running),
	  TEST(move_without_switch_out), TEST(switch_records_are_the_authority),
	  TEST(switch_out_record_of_running_task), TEST(task_ends_at_exit_record),
	  TEST(exit_record_ignored_without_switch_records), TEST(runtime_places_missing_switch_in),
	  TEST(runtime_not_bounded_by_later_wakeup), TEST(runtime_moves_clock_skip_across_buckets),
	  TEST(steal_from_runtime_gap), TEST(runtime_ends_run_before_switch_to_idle),
	  TEST(silent_task_leaves_after_its_last_event), TEST(runtime_moves_seen_switch_in),
	  TEST(runtime_moves_switch_record), TEST(remote_runtime_places_missing_switch_in),
	  TEST(skipped_clock_is_not_steal), TEST(end_after_events_disabled), TEST(zz_free));
