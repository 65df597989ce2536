/* SPDX-License-Identifier: MIT */
/*
 * Counting mode (perf stat): events opened with perf_event_open and read,
 * never sampled; counts scaled for multiplexing, aggregated per CPU, core,
 * socket, thread or in total; running statistics over repeated runs; the
 * derived metrics perf shows beside the counts.
 *
 *	struct prism_stat_opts o = { .events = specs, .argv = cmd };
 *	struct prism_stat *s = prism_stat__new(&o);
 *	if (!s || prism_stat__open(s) || prism_stat__start(s))  -> prism_stat__error(s)
 *	... wait (prism_stat__workload_pidfd(), -I timers) ...
 *	prism_stat__read(s);                   every counter's values now
 *	struct prism_stat_result *res = prism_stat__aggregate(s, PRISM_STAT_AGGR_GLOBAL, false);
 *	prism_stat_result__value(res, unit, event) ...
 *	prism_stat_result__free(res); prism_stat__free(s);
 *
 * Ownership: prism_stat__new() copies the options but not @events, which
 * must stay valid until prism_stat__free(); results are the caller's.
 */
#ifndef PRISM_STAT_H
#define PRISM_STAT_H

#include <linux/perf_event.h>
#include <prism/core.h>

struct prism_evspecs;
struct prism_stat;
struct prism_stat_result;

struct prism_stat_opts {
	/* parsed -e list; NULL: perf's default set (software + generic hardware) */
	struct prism_evspecs *events;
	bool system_wide; /* -a */
	const char *cpu_list; /* -C "0-3,6" */
	const char *pid_list; /* -p "12,34": every thread of these processes */
	const char *tid_list; /* -t "56" */
	const char *const *argv; /* workload, NULL-terminated; NULL for none */
	bool no_inherit; /* --no-inherit: children of the targets are not counted */
	/*
	 * Events the machine cannot count (no PMU for them) are shown as
	 * "<not supported>" instead of failing the open.  Always true for the
	 * default set.
	 */
	bool allow_unsupported;
	bool workload_stdout_to_stderr; /* the workload writes its stdout to stderr */
	/* start() leaves the counters off: prism_stat__enable() starts them (-D) */
	bool delay_enable;
};

/* NULL with errno set (EINVAL: bad options, see prism_stat_new_error()) */
PRISM_API struct prism_stat *prism_stat__new(const struct prism_stat_opts *opts);
PRISM_API const char *prism_stat_new_error(void);
/* accepts NULL; a workload still running is killed and waited for */
PRISM_API void prism_stat__free(struct prism_stat *s);

/*
 * Resolve the targets, fork the workload (held before its exec) and open
 * every counter, disabled.  On error prism_stat__error() holds the message:
 * its first line the error, then "hint: ..." lines.
 * Return: 0 or -errno.
 */
PRISM_API int prism_stat__open(struct prism_stat *s);

/*
 * Start counting: enable the counters, release the workload (whose
 * counters start at its exec, enable_on_exec).  Return: 0 or -errno
 * (the workload's exec failed: -ENOENT and the like, with the message).
 */
PRISM_API int prism_stat__start(struct prism_stat *s);

/* turn the counters on (after start() with delay_enable); 0 or -errno */
PRISM_API int prism_stat__enable(struct prism_stat *s);

/* stop counting (the values stay readable) */
PRISM_API void prism_stat__stop(struct prism_stat *s);

/*
 * Read every counter: the values read before become the "previous" ones
 * of the next prism_stat__aggregate(.., delta=true).  Return: 0 or -errno.
 */
PRISM_API int prism_stat__read(struct prism_stat *s);

/* the workload's pid (0 when none) and a pidfd that polls readable at its exit (-1) */
PRISM_API int prism_stat__workload_pid(const struct prism_stat *s);
PRISM_API int prism_stat__workload_pidfd(const struct prism_stat *s);
/*
 * Wait for the workload's exit (@block false: only if it exited).
 * Return: 1 when it has exited (*@status its wait status), 0 not yet
 * (or none), -errno.
 */
PRISM_API int prism_stat__workload_wait(struct prism_stat *s, bool block, int *status);
/* whether a thread of -p/-t still exists (always true for CPUs) */
PRISM_API bool prism_stat__targets_alive(const struct prism_stat *s);
/* send @sig to the workload, if it still runs */
PRISM_API void prism_stat__workload_kill(struct prism_stat *s, int sig);

PRISM_API const char *prism_stat__error(const struct prism_stat *s);

/* the events: their number, names, units ("msec" for the clocks, scale 1e-6) */
PRISM_API size_t prism_stat__nr_events(const struct prism_stat *s);
PRISM_API const char *prism_stat__event_name(const struct prism_stat *s, size_t e);
PRISM_API const char *prism_stat__event_unit(const struct prism_stat *s, size_t e);
PRISM_API double prism_stat__event_scale(const struct prism_stat *s, size_t e);
PRISM_API const struct perf_event_attr *prism_stat__event_attr(const struct prism_stat *s,
							       size_t e);
/* false when the machine cannot count it (shown as "<not supported>") */
PRISM_API bool prism_stat__event_supported(const struct prism_stat *s, size_t e);
/* whether the counters are per CPU (-a, -C) rather than per thread */
PRISM_API bool prism_stat__per_cpu(const struct prism_stat *s);
PRISM_API size_t prism_stat__nr_cpus(const struct prism_stat *s);
PRISM_API size_t prism_stat__nr_threads(const struct prism_stat *s);

/* raw values of one counter: value, time enabled, time running */
struct prism_stat_count {
	uint64_t val, ena, run;
};

/*
 * prism_stat_count__scale - the value of a counter that was multiplexed
 *
 * A counter that ran only part of the time it was enabled counted only
 * that part: its value is extrapolated as val * ena / run.
 * Return: the scaled value; -1 when it never ran (run or ena 0: "<not
 * counted>").  *@pct (may be NULL) is 100 * run / ena (100 when never run).
 */
PRISM_API double prism_stat_count__scale(const struct prism_stat_count *c, double *pct);

enum prism_stat_aggr {
	PRISM_STAT_AGGR_GLOBAL, /* one total */
	PRISM_STAT_AGGR_NONE, /* -A: per CPU (per-CPU counters only) */
	PRISM_STAT_AGGR_CORE, /* --per-core: CPUs of a core (sysfs topology) */
	PRISM_STAT_AGGR_DIE, /* --per-die */
	PRISM_STAT_AGGR_SOCKET, /* --per-socket */
	PRISM_STAT_AGGR_THREAD, /* --per-thread: per thread (per-thread counters only) */
};

/* one line's owner in an aggregation */
struct prism_stat_unit {
	int cpu; /* AGGR_NONE: the CPU; else the first CPU of the unit, or -1 */
	int socket, die, core; /* topology ids (-1 when not known) */
	int nr; /* CPUs (or threads) summed into it */
	int tid; /* AGGR_THREAD: the thread */
	char comm[16]; /* AGGR_THREAD: its name (/proc/TID/comm at open) */
};

/* the aggregated values of one event in one unit */
struct prism_stat_value {
	struct prism_stat_count sum; /* raw sums */
	double scaled; /* prism_stat_count__scale(&sum); -1 = not counted */
	double pct; /* 100 * run / ena */
	bool supported;
};

/*
 * prism_stat__aggregate - the counts, summed per unit of @mode
 * @delta: the values since the read before the last one (-I intervals)
 *
 * Units are ordered by CPU (cores, sockets by their first CPU) or thread.
 * Return: a new result (NULL with errno: EINVAL for a mode the counters
 * cannot give, ENOMEM).
 */
PRISM_API struct prism_stat_result *prism_stat__aggregate(const struct prism_stat *s,
							  enum prism_stat_aggr mode, bool delta);
PRISM_API void prism_stat_result__free(struct prism_stat_result *r);
PRISM_API size_t prism_stat_result__nr_units(const struct prism_stat_result *r);
PRISM_API const struct prism_stat_unit *prism_stat_result__unit(const struct prism_stat_result *r,
								size_t u);
PRISM_API const struct prism_stat_value *prism_stat_result__value(const struct prism_stat_result *r,
								  size_t u, size_t e);

/*
 * The CPU topology ids of @cpu from sysfs (topology/physical_package_id,
 * die_id, core_id); -1 for what sysfs does not say.  Return: 0, -ENOENT.
 */
PRISM_API int prism_cpu_topology(int cpu, int *socket, int *die, int *core);

/* running mean and variance (Welford) over repeated runs (-r) */
struct prism_stat_running {
	double n, mean, m2;
};

PRISM_API void prism_stat_running__add(struct prism_stat_running *r, double v);
/* standard deviation of the mean: sqrt(variance / n); 0 for fewer than 2 values */
PRISM_API double prism_stat_running__stddev(const struct prism_stat_running *r);
/* the same as a percentage of the mean (0 when the mean is 0) */
PRISM_API double prism_stat_running__rel_stddev(const struct prism_stat_running *r);

/*
 * Repeated runs (-r): the results of each run taken in, their means and
 * the relative standard deviation of each count.
 */
struct prism_stat_runs;

PRISM_API struct prism_stat_runs *prism_stat_runs__new(void); /* NULL: ENOMEM */
PRISM_API void prism_stat_runs__free(struct prism_stat_runs *rs);
/*
 * Take in one run's result (its units and events must be those of the
 * first run's).  Return: 0, -EINVAL (another shape), -ENOMEM.
 */
PRISM_API int prism_stat_runs__add(struct prism_stat_runs *rs, const struct prism_stat_result *r);
/* runs taken in */
PRISM_API int prism_stat_runs__nr(const struct prism_stat_runs *rs);
/*
 * A result of the mean values (not counted when a counter ran in no run);
 * NULL with errno (ENOENT: no run yet).
 */
PRISM_API struct prism_stat_result *prism_stat_runs__mean(const struct prism_stat_runs *rs);
/* 100 * stddev of the mean / mean of the scaled counts of (@u, @e) */
PRISM_API double prism_stat_runs__noise(const struct prism_stat_runs *rs, size_t u, size_t e);

/* what a derived metric needs to know about the other counts of the same unit */
struct prism_stat_context {
	double clock_ns; /* task-clock or cpu-clock ns, -1 when not counted */
	double cycles; /* -1 when not counted */
	double branches; /* -1 when not counted */
	double elapsed_ns; /* wall time of the run or interval */
};

struct prism_stat_metric {
	bool has; /* false: no metric for this count */
	double value;
	char text[24]; /* the value as perf prints it in its column ("   0.947", "   1.25 ", "  12.50%") */
	char unit[24]; /* "CPUs utilized", "M/sec", "insn per cycle", "of all branches" */
};

/*
 * prism_stat_metric - the metric perf shows beside a count
 * @attr: the event's attributes; @count its scaled value (in its own unit: ns for clocks)
 * @ctx: the unit's other counts
 * @m: receives the metric: CPUs utilized (clocks), GHz (cycles), insn per
 *     cycle (instructions), % of all branches (branch-misses), else a rate
 *     per second of the clock's time (K/sec, M/sec, G/sec); none when the
 *     clock was not counted
 */
PRISM_API void prism_stat_metric(const struct perf_event_attr *attr, double count,
				 const struct prism_stat_context *ctx, struct prism_stat_metric *m);

/* the values of @mode's unit @u used as @ctx for the metrics */
PRISM_API void prism_stat_result__context(const struct prism_stat *s,
					  const struct prism_stat_result *r, size_t u,
					  double elapsed_ns, struct prism_stat_context *ctx);

#endif /* PRISM_STAT_H */
