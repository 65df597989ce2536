/* SPDX-License-Identifier: MIT */
/*
 * Perfetto export: a native Perfetto trace (a stream of TracePackets, the
 * protos under github.com/google/perfetto protos/perfetto/trace) that the
 * Perfetto UI and trace processor open:
 *   - a process and a thread track descriptor per task;
 *   - sched_switch and sched_waking as ftrace event bundles per CPU (the UI
 *     draws CPU tracks and thread states from them);
 *   - slices: syscalls on their thread's track, IRQs and softirqs on a
 *     track per CPU;
 *   - a counter track per CPU: its utilization (%) per time window,
 *     from the switches;
 *   - samples (PerfSample) with interned call stacks (functions, mappings
 *     with build ids, frames).
 *
 * Packets are written as the events arrive (timestamps in the recording's
 * clock; the trace processor sorts them).  Memory grows with the number of
 * tasks, CPUs and distinct frames and stacks, never with the events.
 */
#ifndef PRISM_EXPORT_PERFETTO_H
#define PRISM_EXPORT_PERFETTO_H

#include <stdio.h>

#include <prism/core.h>
#include <prism/symbol.h>

struct prism_perfetto;

struct prism_perfetto_opts {
	uint64_t util_window; /* ns per utilization counter value; 0 = 10 ms */
};

/* NULL with errno set */
PRISM_API struct prism_perfetto *prism_perfetto__new(FILE *fp,
						     const struct prism_perfetto_opts *opts);
PRISM_API void prism_perfetto__free(struct prism_perfetto *pf); /* accepts NULL */

/*
 * A task and its name: a process and a thread track are described on the
 * first call for a tid, again when the name changes.  @pid 0 = unknown
 * (the tid is used).  Return: 0 or -errno.
 */
PRISM_API int prism_perfetto__task(struct prism_perfetto *pf, uint32_t pid, uint32_t tid,
				   const char *comm);

/* sched_switch on @cpu; prev_state as the tracepoint gives it */
PRISM_API int prism_perfetto__switch(struct prism_perfetto *pf, uint32_t cpu, uint64_t time,
				     uint32_t prev_tid, const char *prev_comm, int64_t prev_state,
				     uint32_t next_tid, const char *next_comm);
/* sched_waking (@wakeup: sched_wakeup) of @tid, seen on @cpu by @waker */
PRISM_API int prism_perfetto__waking(struct prism_perfetto *pf, uint32_t cpu, uint64_t time,
				     uint32_t waker, uint32_t tid, const char *comm, bool wakeup);

enum prism_perfetto_slice_track {
	PRISM_PERFETTO_THREAD, /* the slice runs on its thread's track (syscalls) */
	PRISM_PERFETTO_CPU, /* on a track of its CPU (IRQs, softirqs) */
};

struct prism_perfetto_slice {
	enum prism_perfetto_slice_track track;
	const char *category; /* "syscall", "irq", "softirq" */
	const char *name;
	uint32_t cpu, pid, tid;
	uint64_t start, end;
};

/* one completed slice.  Return: 0 or -errno */
PRISM_API int prism_perfetto__slice(struct prism_perfetto *pf,
				    const struct prism_perfetto_slice *s);

/*
 * A sample: @frames leaf first, as prism_symbols__resolve() gives them
 * (@nr 0: no stack); @kernel: the sample was taken in kernel mode.
 */
PRISM_API int prism_perfetto__sample(struct prism_perfetto *pf, uint32_t cpu, uint32_t pid,
				     uint32_t tid, uint64_t time, bool kernel,
				     const struct prism_frame *frames, size_t nr);

struct prism_perfetto_stats {
	uint64_t packets, tasks, switches, wakings, samples, counters;
	uint64_t slices;
	uint64_t bytes;
};

/* flush the last events and the utilization windows; 0 or -errno */
PRISM_API int prism_perfetto__finish(struct prism_perfetto *pf, uint64_t end,
				     struct prism_perfetto_stats *st);

#endif /* PRISM_EXPORT_PERFETTO_H */
