/* SPDX-License-Identifier: MIT */
/*
 * The accounting check of a live `prism util`: the kernel's own on-CPU
 * time of the recorded tasks (/proc/PID/task/TID/schedstat, read at the
 * recording's start and end; the workload's rusage), compared with what the
 * report shows for them.
 *
 *	struct prism_util_check *k = prism_util_check__new();
 *	prism_util_check__read(k, false, pids, nr);	right before the events are enabled
 *	... record ...
 *	prism_util_check__read(k, true, pids, nr);	right after they are disabled
 *	prism_util_check__set_workload(k, rusage_ns, 0);
 *	prism_util_check__set_end(k, when_disabled_ns);
 *	prism_util_check__save(k, &sb);		the file's PRISM_FEAT_UTIL_CHECK section
 *	prism_util_check__compare(k, result, &res);
 *	prism_util_check__free(k);
 *
 * A file that carries the section gets the same check when it is read
 * again: prism_util_check__load() of the section's bytes.
 *
 * The kernel's window holds the recording (reads before enabling, after
 * disabling): for a task that runs all the time its figure is a little
 * larger.  Times are in nanoseconds.
 */
#ifndef PRISM_UTIL_CHECK_H
#define PRISM_UTIL_CHECK_H

#include <prism/core.h>

struct prism_session;
struct prism_strbuf;
struct prism_util_check;
struct prism_util_result;

/* a task within this much of the kernel agrees with it */
#define PRISM_UTIL_CHECK_TOLERANCE_NS 1000000ULL

struct prism_util_check_result {
	size_t nr_within; /* tasks alive at both reads, within the tolerance */
	size_t nr_differ; /* the others */
	/* tasks alive at both reads that the report does not show, within the tolerance */
	size_t nr_absent;
	/* the task with the largest difference (report - kernel), when nr_within + nr_differ */
	uint32_t worst_tid;
	char worst_comm[16];
	int64_t worst_ns;
	/* the workload (set_workload()): all report tasks but prism's, and its rusage */
	bool has_workload;
	uint64_t workload_ns, workload_kernel_ns;
};

/* NULL with errno = ENOMEM */
PRISM_API struct prism_util_check *prism_util_check__new(void);
/* accepts NULL */
PRISM_API void prism_util_check__free(struct prism_util_check *k);

/**
 * prism_util_check__read - read the on-CPU time of tasks
 * @k: the check
 * @end: false for the start, true for the end (once the start was read)
 * @pids: these processes' threads, or NULL for every thread of the system
 * @nr_pids: entries of @pids
 *
 * Tasks that vanish between the reads are left out; prism's own threads
 * are read like any other.
 *
 * Return: 0, -ENOENT when /proc has no schedstat (CONFIG_SCHED_INFO off),
 * or -ENOMEM.
 */
PRISM_API int prism_util_check__read(struct prism_util_check *k, bool end, const int64_t *pids,
				     size_t nr_pids);

/*
 * The workload's CPU time as the kernel accounted it (its reaped
 * processes' rusage user + sys, which the kernel scales to their run time),
 * compared with every task of the report but those of process @self_pid
 * (prism: 0 for none).
 */
PRISM_API void prism_util_check__set_workload(struct prism_util_check *k, uint64_t ns,
					      uint32_t self_pid);

/*
 * When the recording's events were disabled, in their clock (ns), 0 for
 * unknown: the report of a file with the check ends there, as the live one.
 */
PRISM_API void prism_util_check__set_end(struct prism_util_check *k, uint64_t ns);
PRISM_API uint64_t prism_util_check__end(const struct prism_util_check *k);
/* tasks read at the start; whether the workload's rusage is known */
PRISM_API size_t prism_util_check__nr_tasks(const struct prism_util_check *k);
PRISM_API bool prism_util_check__has_workload(const struct prism_util_check *k, uint64_t *ns);

/*
 * prism_util_check__save - append the check as PRISM_FEAT_UTIL_CHECK's payload
 * (native byte order, tagged, versioned).  Return: 0 or -ENOMEM.
 *
 * prism_util_check__load - replace @k's contents with a payload of @len
 * bytes from a file (either byte order).  Return: 0; -EINVAL when it is not
 * one (another tag or version, a size that does not fit: @k is then
 * empty); -ENOMEM.
 */
PRISM_API int prism_util_check__save(const struct prism_util_check *k, struct prism_strbuf *sb);
PRISM_API int prism_util_check__load(struct prism_util_check *k, const void *buf, size_t len);

/*
 * The check a file carries (its PRISM_FEAT_UTIL_CHECK section), in a new
 * object *@out.  @len (may be NULL): the section's size.  Return: 0;
 * -ENOENT when the file has none; -EINVAL when it is not one this prism
 * reads; -ENOMEM.
 */
PRISM_API int prism_util_check__from_session(const struct prism_session *s,
					     struct prism_util_check **out, size_t *len);

/* compare with the report @r (best unfiltered); 0 or -ENOMEM */
PRISM_API int prism_util_check__compare(const struct prism_util_check *k,
					const struct prism_util_result *r,
					struct prism_util_check_result *res);

#endif /* PRISM_UTIL_CHECK_H */
