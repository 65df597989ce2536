/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics for a failed perf_event_open(): what failed and how to fix it.
 */
#ifndef PRISM_PERF_OPEN_H
#define PRISM_PERF_OPEN_H

#include <linux/perf_event.h>
#include <prism/core.h>

/* pid/cpu value of prism_perf_open_strerror_at() meaning "not known" */
#define PRISM_PERF_OPEN_UNKNOWN (-2147483647 - 1)

/**
 * prism_perf_open_strerror - explain a failed perf_event_open(@attr)
 * @err: the errno (positive or negative)
 * @attr: the attributes that were passed
 * @evname: the event's name as the user wrote it, e.g. "cycles"
 * @buf: receives a multi-line message: the first line is the error, the
 *	 following lines are hints, each starting with "hint: "; no trailing
 *	 newline
 * @size: size of @buf (the text is truncated to fit, always NUL-terminated)
 *
 * Covers what perf's evsel__open_strerror() covers: EACCES/EPERM with the
 * current /proc/sys/kernel/perf_event_paranoid value, what it blocks and the
 * fixes (root, CAP_PERFMON, sysctl); EMFILE/ENFILE with the RLIMIT_NOFILE
 * soft and hard limits and how to raise them; ENOENT/EOPNOTSUPP for
 * hardware events on a machine without a hardware PMU; EINVAL for
 * precise_ip, sample_freq above the kernel maximum, clockid; EBUSY; ENODEV;
 * ESRCH; E2BIG; ENOSPC.
 */
PRISM_API void prism_perf_open_strerror(int err, const struct perf_event_attr *attr,
					const char *evname, char *buf, size_t size);

/**
 * prism_perf_open_strerror_at - the same, knowing the target of the open
 * @err: the errno (positive or negative)
 * @attr: the attributes that were passed
 * @evname: the event's name
 * @pid: the pid argument of perf_event_open (-1 = all tasks), or PRISM_PERF_OPEN_UNKNOWN
 * @cpu: the cpu argument (-1 = any CPU), or PRISM_PERF_OPEN_UNKNOWN
 * @buf: receives the message, as prism_perf_open_strerror()
 * @size: size of @buf
 *
 * With the target known the permission hints say exactly which paranoid
 * rule blocked the event (system-wide, kernel profiling, raw tracepoint data).
 */
PRISM_API void prism_perf_open_strerror_at(int err, const struct perf_event_attr *attr,
					   const char *evname, int pid, int cpu, char *buf,
					   size_t size);

#endif /* PRISM_PERF_OPEN_H */
