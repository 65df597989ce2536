/* SPDX-License-Identifier: MIT */
/*
 * CPU utilization (curt done natively): a per-task state machine over the
 * scheduler, syscall, IRQ, softirq and hypervisor-call tracepoints that
 * splits time into user / sys / irq / softirq / hv / busy (state unknown) /
 * idle per task, per CPU, per process and system-wide, with per-call tables.
 *
 *	struct prism_util *u = prism_util__new(NULL);
 *	err = prism_util__process(u, session);	(or prism_util__event() per event)
 *	prism_util__finish(u);
 *	const struct prism_util_result *r;
 *	err = prism_util__report(u, &ropts, &r);
 *	... print r ...
 *	prism_util__free(u);
 *
 * Memory: O(tasks + distinct calls); nothing is kept per event.
 * Ownership: the result and every string and array it points to belong to
 * the prism_util object; they stay valid until the next prism_util__report()
 * or prism_util__free().  Times are in nanoseconds.
 */
#ifndef PRISM_UTIL_H
#define PRISM_UTIL_H

#include <prism/core.h>

struct prism_session;
struct prism_util;
struct prism_event;
struct prism_sample_basic;

/* ---- feeding events (decoded from tracepoints, or synthetic) ---- */

enum prism_util_ev_type {
	PRISM_UTIL_EV_SYS_ENTER, /* a = syscall id */
	PRISM_UTIL_EV_SYS_EXIT, /* a = syscall id (-1 allowed) */
	PRISM_UTIL_EV_IRQ_ENTRY, /* a = irq, name = handler name */
	PRISM_UTIL_EV_IRQ_EXIT, /* a = irq */
	PRISM_UTIL_EV_SOFTIRQ_ENTRY, /* a = vector */
	PRISM_UTIL_EV_SOFTIRQ_EXIT, /* a = vector */
	PRISM_UTIL_EV_HCALL_ENTRY, /* a = opcode */
	PRISM_UTIL_EV_HCALL_EXIT, /* a = opcode */
	/* a = prev pid, b = prev_state, c = next pid; comm = prev, comm2 = next */
	PRISM_UTIL_EV_SWITCH,
	PRISM_UTIL_EV_WAKEUP, /* a = woken pid (sched_wakeup, sched_waking) */
	PRISM_UTIL_EV_WAKEUP_NEW, /* a = woken pid */
	PRISM_UTIL_EV_MIGRATE, /* a = pid, b = orig cpu, c = dest cpu */
	PRISM_UTIL_EV_FORK, /* a = parent pid, c = child pid, comm2 = child comm */
	PRISM_UTIL_EV_EXEC, /* a = pid, comm = new comm (or NULL) */
	PRISM_UTIL_EV_EXIT, /* a = pid (sched_process_exit) */
	PRISM_UTIL_EV_FREE, /* a = pid (sched_process_free) */
	/*
	 * PERF_RECORD_SWITCH (or _CPU_WIDE) about the sample's tid: the
	 * kernel's own word that it starts or stops running on the CPU.  Once
	 * one is seen, switch records are the authority: sched_switch
	 * tracepoints no longer move tasks (per-task recordings see only one
	 * side of them), wakeups and migrations no longer create tasks.
	 */
	PRISM_UTIL_EV_SWITCH_IN,
	PRISM_UTIL_EV_SWITCH_OUT, /* a = 1 when preempted (still runnable) */
	/* PERF_RECORD_EXIT of the sample's tid: with switch records, where its time ends */
	PRISM_UTIL_EV_TASK_END,
	/*
	 * sched_stat_runtime: a = pid, b = ns it ran since the kernel last
	 * accounted it.  In the task's own context right after an unseen
	 * switch-in, it tells when the task started (prism_util__use_runtime()).
	 */
	PRISM_UTIL_EV_RUNTIME,
	PRISM_UTIL_EV_OTHER, /* any other event: only tells who runs where */
	PRISM_UTIL_EV_COMM, /* a = tid, comm = its new name (COMM record): no CPU implied */
	PRISM_UTIL_EV_LOST, /* a = number of lost events (LOST) */
	PRISM_UTIL_EV_LOST_SAMPLES, /* a = number of lost samples (LOST_SAMPLES) */
	PRISM_UTIL_EV__NR,
};

/*
 * One event.  time/cpu/pid/tid are the sample's (the task whose context
 * emitted it: for a switch, the previous task; 0 = the CPU's idle task).
 * pid is the process id when known, else 0.  Strings need not be
 * NUL-terminated: their lengths are given (comm strings stop at a NUL).
 */
struct prism_util_event {
	enum prism_util_ev_type type;
	uint64_t time;
	uint32_t cpu;
	uint32_t pid, tid;
	int64_t a, b, c;
	const char *comm, *comm2, *name;
	size_t comm_len, comm2_len, name_len;
};

/* ---- results ---- */

enum prism_util_call_kind {
	PRISM_UTIL_SYSCALL,
	PRISM_UTIL_IRQ,
	PRISM_UTIL_SOFTIRQ,
	PRISM_UTIL_HCALL,
	PRISM_UTIL_NR_KINDS,
};

struct prism_util_times {
	uint64_t user, sys, irq, softirq, hv, busy; /* on CPU */
	uint64_t idle; /* off CPU (tasks) or idle (CPUs) */
	uint64_t wait; /* part of a task's idle: runnable, waiting for a CPU */
	uint64_t sleep; /* part of a task's idle: sleeping or blocked */
	/*
	 * On CPU by the wall clock while the hypervisor ran something else
	 * (steal time of a KVM/Xen guest): the kernel's runtime events count
	 * that much less than the time between them.  Not on CPU: neither in
	 * the run time nor in idle.
	 */
	uint64_t steal;
};

struct prism_util_cpu_row {
	uint32_t cpu;
	struct prism_util_times t;
};

struct prism_util_call {
	enum prism_util_call_kind kind;
	int64_t id;
	const char *name; /* never NULL: the number in decimal when no name is known */
	uint64_t count; /* completed calls with a known start */
	uint64_t elapsed; /* wall time enter -> exit of those calls */
	uint64_t min, max; /* of those calls (0 when count == 0) */
	uint64_t pending; /* time of calls running at the trace start or end */
	uint64_t oncpu; /* time on CPU inside the calls (sys, irq, hv), pending included */
	uint64_t nr_pending_start; /* exits seen whose entry preceded the trace */
	uint64_t nr_pending_end; /* entries still running at the end (or at task death) */
	uint64_t nr_inherited; /* completed calls entered by the fork parent */
	/*
	 * Damaged calls, left out of the numbers above (and counted in the
	 * anomalies footer): exits whose entry is missing mid-trace, and
	 * duplicated exit samples (counted once).  perf trace -s counts each
	 * of them as a call.
	 */
	uint64_t nr_unmatched_exits;
	uint64_t nr_duplicate_exits;
};

struct prism_util_task {
	uint32_t tid, pid;
	int image; /* -1: the current image; 0, 1, ...: images replaced by exec, oldest first */
	const char *comm;
	uint64_t start, end; /* lifetime inside the trace */
	bool exited; /* seen dying */
	struct prism_util_times all;
	size_t nr_cpus;
	const struct prism_util_cpu_row *cpus; /* ascending cpu */
	uint64_t moves; /* migrations */
	uint64_t wakeups, wakeup_total, wakeup_max; /* waking -> running latency */
	uint64_t inferred; /* run time placed by inference (see the anomalies) */
	uint64_t tail; /* run time since its last switch-in when the trace ended while it ran */
	uint64_t head; /* run time on a CPU before that CPU's first sched_switch */
	uint64_t orphan; /* run time ended by a switch whose sample had tid -1 (perf counts it to tid -1) */
	uint64_t switch_ins; /* times switched in, seen or inferred */
	uint64_t moved; /* run time runtime events moved to it or from it (runtime_moved_ns) */
	size_t nr_calls[PRISM_UTIL_NR_KINDS];
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS]; /* busiest first */
};

struct prism_util_process {
	uint32_t pid;
	const char *comm; /* of the main thread (or the first task) */
	size_t nr_tasks;
	const struct prism_util_task *const *tasks;
	struct prism_util_times all;
	size_t nr_cpus;
	const struct prism_util_cpu_row *cpus; /* per-CPU totals of its tasks */
	uint64_t moves;
	/* its call tables: prism_util__process_calls() */
};

struct prism_util_anomalies {
	uint64_t lost_events; /* sum of PERF_RECORD_LOST counts */
	uint64_t lost_samples; /* sum of PERF_RECORD_LOST_SAMPLES counts */
	uint64_t lost_records; /* LOST and LOST_SAMPLES records */
	uint64_t out_of_order; /* records delivered later than newer ones (time sort window) */
	uint64_t duplicate_samples; /* identical sample twice, second ignored */
	uint64_t enter_in_call; /* an entry while the previous call was open: dropped */
	uint64_t exit_without_enter; /* an exit with no open call (not at the trace start) */
	uint64_t inferred_switch_ins; /* a task seen running with no switch-in */
	uint64_t inferred_ns; /* time around those inferences */
	uint64_t spurious_migrations; /* sched_migrate_task with orig == dest */
	uint64_t unmatched_irq_exits; /* irq/softirq exits with no entry */
	uint64_t events_after_death; /* events of a task already seen dead */
	uint64_t cpus_without_events; /* CPUs counted idle for the whole trace */
	uint64_t busy_unknown_ns; /* on-CPU time whose mode never became known */
	uint64_t assumed_running; /* tasks first seen running: taken as running since the CPU's last known state */
	uint64_t assumed_ns; /* run time so assumed */
	uint64_t running_at_end; /* tasks still running when the trace ended */
	uint64_t running_at_end_ns; /* their run time since their last switch-in */
	uint64_t no_tid_samples; /* samples with tid -1 (an exiting task's last switch) */
	uint64_t before_first_switch_ns; /* task run time on CPUs before their first sched_switch */
	uint64_t switch_records; /* PERF_RECORD_SWITCH in/out and EXIT records used */
	/*
	 * run time moved from a CPU's previous occupant to the task switched
	 * in, by the task's first runtime event (the kernel counts a run from
	 * when the task was picked, before the switch is traced)
	 */
	uint64_t runtime_moved_ns;
	/* steal time (prism_util_times.steal), and the intervals it was found in */
	uint64_t steal_ns;
	uint64_t steal_intervals;
	const char *missing; /* space-separated events the file lacks, "" when complete */
};

struct prism_util_result {
	uint64_t start, end, length; /* trace span */
	uint32_t nr_cpus; /* CPUs in the per-CPU summary */
	const char *arch; /* uname-style, from the file (or this machine) */
	uint64_t nr_events; /* samples processed */
	const struct prism_util_cpu_row *cpus; /* system per-CPU summary */
	struct prism_util_times all; /* sum over the CPUs */
	double util_pct; /* (length * nr_cpus - idle) / (length * nr_cpus) * 100 */
	size_t nr_processes;
	const struct prism_util_process *processes; /* in report order */
	size_t nr_calls[PRISM_UTIL_NR_KINDS];
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS]; /* system-wide */
	struct prism_util_anomalies anomalies;
};

enum prism_util_sort {
	PRISM_UTIL_SORT_UTIL, /* busiest first (default) */
	PRISM_UTIL_SORT_CPU, /* most on-CPU time first */
	PRISM_UTIL_SORT_TID, /* ascending pid, tid */
	PRISM_UTIL_SORT_NAME, /* comm, then pid */
};

struct prism_util_report_opts {
	enum prism_util_sort sort;
	const int64_t *pids; /* keep processes with these pids (NULL: all) */
	size_t nr_pids;
	const int64_t *tids; /* keep tasks with these tids */
	size_t nr_tids;
	const char *const *comms; /* keep tasks with these comms */
	size_t nr_comms;
	const int64_t *cpus; /* keep these CPUs' rows (and tasks that ran there) */
	size_t nr_cpus;
	size_t top; /* keep the N busiest processes (0: all) */
};

struct prism_util_opts {
	uint64_t time_start, time_end; /* only events inside [start, end]; 0 = open */
	const char *arch; /* syscall table to use; NULL = the file's HEADER_ARCH */
	/*
	 * Live analysis (prism top): prism_util__process() calls on_interval
	 * every interval_ns of event time, before the first event at or past
	 * the interval's end (@now: that event's time), from inside the read;
	 * it typically calls prism_util__interval().  It returns 0 to go on, a
	 * positive value to end the read early, or a negative error.
	 */
	uint64_t interval_ns;
	int (*on_interval)(void *ctx, struct prism_util *u, uint64_t now);
	void *interval_ctx;
};

/**
 * prism_util__new - a new, empty analysis
 * @opts: options, or NULL for defaults
 *
 * Return: the object, or NULL with errno = ENOMEM.
 */
PRISM_API struct prism_util *prism_util__new(const struct prism_util_opts *opts);

/* frees @u and its results; accepts NULL */
PRISM_API void prism_util__free(struct prism_util *u);

/**
 * prism_util__process - run the analysis over a session's records
 * @u: the analysis
 * @s: an open session (not yet processed)
 *
 * Looks the tracepoints up by name in the file's formats (absent events
 * reduce the report, listed in anomalies.missing), takes the architecture
 * from HEADER_ARCH, reads every record and calls prism_util__finish().
 *
 * Return: 0, or the negative error of prism_session__process() (records
 * before the damage were analysed and the result is usable).
 */
PRISM_API int prism_util__process(struct prism_util *u, struct prism_session *s);

/**
 * prism_util__set_arch - name syscalls with @arch's table
 * @u: the analysis
 * @arch: uname-style name ("x86_64", "i686", "aarch64", "armv7l", "ppc64le",
 *	  "s390x", "riscv64", ...)
 *
 * Return: 0, or -ENOENT when prism has no table for @arch (syscalls are then
 * named by number).
 */
PRISM_API int prism_util__set_arch(struct prism_util *u, const char *arch);

/**
 * prism_util__event - feed one event, in time order
 * @u: the analysis
 * @ev: the event
 *
 * Return: 0, or -ENOMEM.
 */
PRISM_API int prism_util__event(struct prism_util *u, const struct prism_util_event *ev);

/* name the events the source lacks ("irq:softirq_entry ..."), shown in the footer */
PRISM_API void prism_util__set_missing(struct prism_util *u, const char *missing);

/*
 * prism_util__use_runtime - the source delivers PRISM_UTIL_EV_RUNTIME
 * events (call before the first event).  A switch-in the trace lacks is
 * then placed where the task's first runtime event says it started, not
 * at the earliest time it can have (its wakeup, the CPU's last event).
 */
PRISM_API void prism_util__use_runtime(struct prism_util *u);

/*
 * prism_util__set_end - the recording lasted until @end (in the events'
 * clock): the trace ends there even when its last event is earlier (a
 * workload asleep when the recording was stopped).  Live recordings only.
 */
PRISM_API void prism_util__set_end(struct prism_util *u, uint64_t end);

/**
 * prism_util__finish - close the trace: running tasks are charged up to
 * the end, open calls become pending.  Further events are ignored.
 */
PRISM_API void prism_util__finish(struct prism_util *u);

/**
 * prism_util__report - build the result
 * @u: a finished analysis
 * @opts: sorting and filters, or NULL
 * @res: set to the result (owned by @u)
 *
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_util__report(struct prism_util *u, const struct prism_util_report_opts *opts,
				 const struct prism_util_result **res);

/**
 * prism_util__process_calls - the call tables of a process of the last report
 * @u: the analysis
 * @p: one of the processes of the result prism_util__report() gave
 * @nr: set to the number of calls of each kind
 * @calls: set to the calls of each kind, in the order of a task's tables
 *
 * The tables of the process's tasks (in the report: filtered as it was),
 * merged.  They are made on demand in memory that the next call reuses: a
 * big trace has thousands of processes.
 *
 * Return: 0, or -ENOMEM; @calls are valid until the next call, report or free.
 */
PRISM_API int prism_util__process_calls(struct prism_util *u, const struct prism_util_process *p,
					size_t nr[PRISM_UTIL_NR_KINDS],
					const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS]);

/* one completed call, as the observer sees it */
struct prism_util_call_span {
	enum prism_util_call_kind kind;
	int64_t id;
	const char *name; /* display name (valid during the callback only) */
	uint32_t cpu;
	uint32_t pid, tid; /* the task the call counts for (0/0: an IRQ on an idle CPU) */
	uint64_t start, end;
};

/*
 * What prism_util__process() reads, handed on while it goes, for a tool
 * that draws the same trace (prism export perfetto).  Every member may be
 * NULL; callbacks return 0 or a negative error that stops the read.
 */
struct prism_util_observer {
	/* each completed call: exactly those prism_util_call.count counts */
	int (*call)(void *ctx, const struct prism_util_call_span *c);
	/*
	 * each event fed to the analysis (duplicates included) other than
	 * syscall entries and exits
	 */
	int (*event)(void *ctx, const struct prism_util_event *ev);
	/* each sample, after the analysis took it */
	int (*sample)(void *ctx, const struct prism_sample_basic *b);
	/* MMAP/MMAP2, COMM, FORK, EXIT and KSYMBOL records (for symbols and names) */
	int (*record)(void *ctx, const struct prism_event *e);
	void *ctx;
};

/* observe what the analysis is fed (call before prism_util__process()); @o is copied */
PRISM_API void prism_util__set_observer(struct prism_util *u, const struct prism_util_observer *o);

/**
 * prism_util_preset - the tracepoints the analysis uses, as "sys:name"
 *
 * Return: a static NULL-terminated list, in the order a recording should
 * group them; a recorder keeps those its kernel has (powerpc:hcall_* exist
 * only on POWER).
 */
PRISM_API const char *const *prism_util_preset(void);

/* ---- intervals of a live analysis ---- */

struct prism_util_iv_task {
	uint32_t tid, pid;
	char comm[16];
	struct prism_util_times t; /* during the interval (off-CPU times land when it runs again) */
	uint64_t moves; /* migrations during the interval */
	uint64_t wakeups, wakeup_total; /* woken -> running latencies that ended in it */
	bool running; /* on a CPU at the interval's end */
};

struct prism_util_iv_call {
	int64_t id;
	char name[32];
	uint64_t count; /* calls that completed during the interval */
	uint64_t elapsed; /* their wall time, enter -> exit */
};

struct prism_util_interval {
	uint64_t start, end, length; /* in the events' clock */
	uint32_t nr_cpus;
	const struct prism_util_cpu_row *cpus; /* every CPU seen, ascending */
	struct prism_util_times all; /* sum over the CPUs */
	size_t nr_tasks;
	const struct prism_util_iv_task *tasks; /* alive or on a CPU during the interval */
	size_t nr_syscalls;
	const struct prism_util_iv_call *syscalls; /* completed during it, most first */
	uint64_t nr_events; /* events processed during the interval */
	uint64_t lost_events, lost_samples; /* reported lost during the interval */
};

/**
 * prism_util__interval - what happened since the last interval
 * @u: an analysis being fed (not finished)
 * @now: the interval's end, in the events' clock (no earlier than the
 *	 events fed): every CPU is charged up to it
 * @iv: set to the interval (owned by @u, valid until the next call or free)
 *
 * The first interval starts at the first event.  The analysis goes on: a
 * report at the end covers the whole trace, as if no interval was taken.
 *
 * Return: 0, or -ENOMEM.
 */
PRISM_API int prism_util__interval(struct prism_util *u, uint64_t now,
				   const struct prism_util_interval **iv);

/* ---- names ---- */

/* syscall name for @arch (uname-style), or NULL */
PRISM_API const char *prism_syscall_name(const char *arch, int64_t id);
/* the canonical table name of an arch ("x86_64", "i386", "arm64", ...), or NULL */
PRISM_API const char *prism_syscall_table(const char *arch);
/* softirq vector name ("TIMER"), or NULL */
PRISM_API const char *prism_softirq_name(int64_t vec);
/* POWER hypervisor call name ("H_ENTER"), or NULL */
PRISM_API const char *prism_hcall_name(int64_t opcode);

#endif /* PRISM_UTIL_H */
