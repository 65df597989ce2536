/* SPDX-License-Identifier: MIT */
/*
 * perf sched's analyses of a scheduler trace (sched_switch, sched_wakeup*,
 * sched_waking, sched_migrate_task, sched_stat_runtime tracepoints plus the
 * COMM/FORK/EXIT records), computed as perf 6.1 computes them:
 *
 *	struct prism_sched_opts o = { .mode = PRISM_SCHED_TIMEHIST };
 *	struct prism_sched *s = prism_sched__new(&o, &ops, ctx);
 *	prism_session__process(session, prism_sched__tool(), s) ...
 *	prism_sched__timehist_summary(s, on_task, ctx);
 *	prism_sched__free(s);
 *
 * Ownership: the analysis copies @opts (not the arrays it points to, which
 * must outlive it) and owns every thread; rows point into it.
 *
 * Threads follow perf's machine model (a thread first seen without a COMM
 * record is named ":TID", a pid is only ever filled in when unknown), so the
 * names and groupings are perf's.  Rows are handed to callbacks; nothing here
 * prints.  Every string given to a callback is valid during the call only.
 */
#ifndef PRISM_SCHED_H
#define PRISM_SCHED_H

#include <prism/core.h>
#include <prism/event.h>

struct prism_sched;
struct prism_session;
struct prism_tool;

enum prism_sched_mode {
	PRISM_SCHED_TIMEHIST,
	PRISM_SCHED_LATENCY,
	PRISM_SCHED_MAP,
};

struct prism_sched_opts {
	enum prism_sched_mode mode;
	/* timehist */
	bool summary_only, idle_hist, migrations, wakeups;
	uint64_t time_start, time_end; /* --time window in ns; 0: open */
	const int64_t *pids, *tids; /* -p / -t lists; NULL: no filter */
	size_t nr_pids, nr_tids;
	const uint8_t *cpus; /* -C (timehist) / --cpus (map): cpus[n] != 0 shows CPU n */
	size_t nr_cpus; /* entries in cpus */
	/* timehist: CPUs online at record time (0: perf's default of 4) */
	uint32_t nr_cpus_online;
	/* latency */
	int profile_cpu; /* -C, -1: none */
	/* map */
	bool compact;
	uint32_t map_max_cpu; /* sysconf(_SC_NPROCESSORS_CONF) of the reading machine */
	const int64_t *color_pids;
	size_t nr_color_pids;
};

/* a thread as perf names it */
struct prism_sched_task {
	const char *comm;
	int32_t pid, tid, ppid;
};

/* a timehist sched_switch row */
struct prism_sched_row {
	uint64_t time; /* the row's time (clipped to --time's end) */
	uint32_t cpu, max_cpu; /* max_cpu: the highest CPU so far (-V columns: max_cpu + 1) */
	struct prism_sched_task task;
	bool idle; /* the per-CPU idle task */
	uint64_t wait, delay, run; /* ns */
	int64_t state; /* prev_state */
	const char *next_comm;
	uint32_t next_pid;
	const struct prism_event *ev; /* the sched_switch sample (its call chain) */
};

/* a timehist wakeup (-w) or migration (-M) row */
struct prism_sched_event_row {
	uint64_t time;
	uint32_t cpu, max_cpu;
	struct prism_sched_task task, target; /* who woke/moved, who was woken/moved */
	bool migration;
	uint32_t orig_cpu, dest_cpu;
};

/* a map row: one sched_switch */
struct prism_sched_map_row {
	uint64_t time;
	uint32_t this_cpu;
	size_t nr_cols;
	const int32_t *col_cpu; /* nr_cols CPUs, in column order */
	const char *const *col_name; /* their current task's short name ("A0", ". "), NULL: none */
	const bool *col_color; /* the task is in --color-pids */
	bool shown; /* this_cpu is in --cpus */
	bool announce; /* a new short name or comm: "A0 => comm:tid" */
	const char *name; /* the incoming task's short name */
	struct prism_sched_task task; /* the incoming task */
	bool task_color;
	bool new_cpu; /* --compact: first switch on this CPU */
};

struct prism_sched_ops {
	int (*row)(void *ctx, const struct prism_sched_row *r);
	int (*event)(void *ctx, const struct prism_sched_event_row *r);
	int (*lost)(void *ctx, uint64_t time, uint64_t lost, uint32_t cpu);
	int (*map)(void *ctx, const struct prism_sched_map_row *r);
	/*
	 * timehist -I: a task of sample @ev left @cpu idle (@append false: its
	 * call chain is the one to charge), or the idle task left @cpu after
	 * @idle_ns (@append true: charge the last chain kept for the CPU)
	 */
	int (*idle_chain)(void *ctx, uint32_t cpu, bool append, const struct prism_event *ev,
			  uint64_t idle_ns);
};

/* NULL + errno (ENOMEM, EINVAL) */
PRISM_API struct prism_sched *prism_sched__new(const struct prism_sched_opts *opts,
					       const struct prism_sched_ops *ops, void *ctx);
PRISM_API void prism_sched__free(struct prism_sched *s); /* accepts NULL */

/*
 * prism_sched__tool - the callbacks to give prism_session__process() with the
 * analysis as its context; prism_sched__bind() first ties it to the session.
 */
PRISM_API const struct prism_tool *prism_sched__tool(void);
PRISM_API void prism_sched__bind(struct prism_sched *s, struct prism_session *session);
/* feed one record (what the tool's callbacks do); 0 or -errno / a callback's value */
PRISM_API int prism_sched__event(struct prism_sched *s, const struct prism_event *ev);

/* whether the session has a sched:NAME event ("sched_switch") */
PRISM_API bool prism_sched__has_event(struct prism_session *session, const char *name);
/* whether every event of the session records call chains (perf's -g then shows them) */
PRISM_API bool prism_sched__all_callchains(struct prism_session *session);

/* timehist summary: one task (or per-CPU idle line) */
struct prism_sched_task_stats {
	struct prism_sched_task task;
	uint64_t count; /* sched-in count */
	uint64_t run, min, max, mean; /* ns */
	double stddev_pct;
	uint64_t migrations;
	uint64_t sleep, iowait, preempt, delay; /* ns (--state) */
};

struct prism_sched_summary {
	uint64_t nr_tasks, nr_switches, total_run; /* totals as perf counts them */
	uint64_t hist_time; /* last - first switch time in the window */
	uint32_t max_cpu;
	bool skipped; /* -p/-t left samples out: perf prints no idle stats or totals */
};

/**
 * prism_sched__timehist_summary - timehist's runtime summary
 * @s: a timehist analysis fed with the whole file
 * @task: called for each task that ran, live ones first then the terminated
 *	ones (@dead), in perf's thread order; with @st NULL after each of the
 *	two lists (NULL callback: none)
 * @idle: called for each CPU with an idle task (@st NULL: idle the entire
 *	window), unless -p/-t left samples out (then @sum->skipped is set, and
 *	perf prints no idle stats and no totals)
 * @ctx: passed to both
 * @sum: the totals (its hist_time and max_cpu are set before the first call)
 *
 * Return: 0, -ENOMEM, or a callback's non-zero value.
 */
PRISM_API int prism_sched__timehist_summary(
	struct prism_sched *s,
	int (*task)(void *ctx, const struct prism_sched_task_stats *st, bool dead),
	int (*idle)(void *ctx, uint32_t cpu, const struct prism_sched_task_stats *st), void *ctx,
	struct prism_sched_summary *sum);

/*
 * timehist: the idle time of CPU @cpu (for each CPU below
 * prism_sched__nr_idle()); -ENOENT when the CPU has no idle task
 */
PRISM_API uint32_t prism_sched__nr_idle(const struct prism_sched *s);
PRISM_API int prism_sched__idle_time(const struct prism_sched *s, uint32_t cpu, uint64_t *ns);

/* latency: one line per task (or per comm when merged) */
struct prism_sched_lat_row {
	const char *comm;
	int32_t tid;
	int nr_merged;
	uint64_t runtime, switches, avg, max, max_start, max_end;
};

struct prism_sched_lat_stats {
	uint64_t nr_unordered, nr_timestamps, nr_cs_bugs;
	uint64_t nr_events, nr_lost, nr_lost_chunks;
};

/*
 * prism_sched__latency - sort by @keys ("avg,max,switch,runtime,pid"; NULL:
 * perf's default), merged by comm unless @per_pid, and call @row per line
 * in perf's order.  Return: 0, -EINVAL for an unknown key (*@bad_key set),
 * or @row's value.
 */
PRISM_API int prism_sched__latency(struct prism_sched *s, const char *keys, bool per_pid,
				   int (*row)(void *ctx, const struct prism_sched_lat_row *r),
				   void *ctx, const char **bad_key);
/* whether @keys are all latency sort keys; -EINVAL with *@bad_key set if not */
PRISM_API int prism_sched__check_sort(const char *keys, const char **bad_key);
PRISM_API void prism_sched__lat_stats(const struct prism_sched *s,
				      struct prism_sched_lat_stats *st);

#endif /* PRISM_SCHED_H */
