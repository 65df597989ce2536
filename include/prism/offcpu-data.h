/* SPDX-License-Identifier: MIT */
/*
 * How off-CPU results are stored in perf.data (written by prism record
 * --off-cpu, read by prism offcpu).
 *
 * Like perf's --off-cpu: one event named "offcpu-time" (type SOFTWARE,
 * config PERF_COUNT_SW_BPF_OUTPUT, attr size 128, name in EVENT_DESC) whose
 * samples have sample_type IDENTIFIER | IP | TID | TIME | CPU | PERIOD |
 * CALLCHAIN | RAW.  The period is the off-CPU time in ns; the callchain is
 * PERF_CONTEXT_KERNEL + kernel ips (with --off-cpu-kernel-stack), then
 * PERF_CONTEXT_USER + user ips; the IP is the innermost frame.  perf
 * 6.1 reads it like any software event (perf script prints the RAW part as
 * "BPF output").
 *
 * Samples: an aggregated entry (the blocks shorter than --off-cpu-thresh of
 * one thread, stack pair and state), or an individual block (at least
 * --off-cpu-thresh long, or still off CPU at the end: counted up to it).
 * All are written at the end of the recording with TIME = the end of the
 * recording (the records' clock: CLOCK_MONOTONIC unless -k), after every
 * other record, so perf's ordering never sees them out of order (perf's own
 * --off-cpu uses dummy times for the same reason).  A block's real start
 * (switch-out) is in the RAW payload, in the same clock; its end is
 * start + period.
 *
 * The RAW payload says what perf's format cannot: the task state (S/D
 * split), the kind of sample, the number of blocks summed and why a stack is
 * missing.  The last offcpu-time sample of a file also carries the loss and
 * activity counters of the BPF side (struct prism_offcpu_stats).
 * Layout (little endian, after the u32 raw size):
 *	u32 magic PRISM_OFFCPU_RAW_MAGIC, u16 version (1), u8 kind, u8 state,
 *	u64 count, s32 user stack error, s32 kernel stack error,
 *	u64 start (blocks), u32 nr_stats, then nr_stats u64 counters in the order of
 *	prism_offcpu_stats__desc() (readers ignore counters they do not know),
 *	then, optionally (frame-pointer mode), the user state at switch-out:
 *	u64 ip, u64 sp, u64 bp, u32 window size, u32 0, the window (the
 *	user stack at sp), zero-padded to 8 bytes.
 */
#ifndef PRISM_OFFCPU_DATA_H
#define PRISM_OFFCPU_DATA_H

#include <prism/core.h>
#include <prism/offcpu.h>

#define PRISM_OFFCPU_EVENT_NAME "offcpu-time"
#define PRISM_OFFCPU_RAW_MAGIC 0x55504346u /* "FCPU" */
#define PRISM_OFFCPU_RAW_VERSION 1
/* RAW bytes without counters, and with all of them */
#define PRISM_OFFCPU_RAW_MIN 36
#define PRISM_OFFCPU_WINDOW_MAX 128
#define PRISM_OFFCPU_RAW_MAX (PRISM_OFFCPU_RAW_MIN + 8 * 32 + 32 + PRISM_OFFCPU_WINDOW_MAX)

enum prism_offcpu_kind {
	PRISM_OFFCPU_KIND_ENTRY = 0, /* aggregated short blocks */
	PRISM_OFFCPU_KIND_BLOCK = 1, /* one long block */
	PRISM_OFFCPU_KIND_BLOCK_OPEN = 2, /* one block still off CPU at the end */
	PRISM_OFFCPU_KIND_STATS = 3, /* counters only (period 0), when there was nothing else */
};

/* the decoded RAW payload of one offcpu-time sample */
struct prism_offcpu_raw {
	enum prism_offcpu_kind kind;
	unsigned int state; /* task->__state & 0xff: 1 = S, 2 = D, 0 = runnable */
	uint64_t count; /* blocks summed */
	int ustack_err, kstack_err; /* prism_offcpu_stack.err */
	uint64_t start; /* blocks: switch-out time (the records' clock); entries: 0 */
	bool has_stats;
	struct prism_offcpu_stats stats;
	/* the user state at switch-out; window points into the decoded buffer */
	bool has_ustate;
	uint64_t ip, sp, bp;
	const uint8_t *window;
	uint32_t window_size; /* <= PRISM_OFFCPU_WINDOW_MAX */
};

/**
 * prism_offcpu_raw__encode - build the RAW payload (without the u32 size)
 * @buf: at least PRISM_OFFCPU_RAW_MAX bytes
 * @st: counters to append, or NULL
 * Return: the payload size (4 mod 8, so that size + payload is u64-aligned).
 */
PRISM_API size_t prism_offcpu_raw__encode(void *buf, const struct prism_offcpu_raw *r,
					  const struct prism_offcpu_stats *st);

/**
 * prism_offcpu_raw__decode - parse a RAW payload written by prism
 * Return: 0, or -EINVAL when it is not prism's (other writer, truncated).
 */
PRISM_API int prism_offcpu_raw__decode(const void *buf, size_t size, struct prism_offcpu_raw *out);

/* "S", "D", "R" (runnable: preempted), "T" (stopped, traced) or "?" */
PRISM_API const char *prism_offcpu_state_name(unsigned int state);

/* each counter of struct prism_offcpu_stats: name, for printing */
struct prism_offcpu_stat_desc {
	const char *name;
	bool loss; /* a loss the user should know about */
	const char *hint; /* how to avoid it (losses only) */
};

/* the counters, in storage order */
PRISM_API size_t prism_offcpu_stats__nr(void);
PRISM_API const struct prism_offcpu_stat_desc *prism_offcpu_stats__desc(size_t idx);
PRISM_API uint64_t prism_offcpu_stats__get(const struct prism_offcpu_stats *st, size_t idx);

#endif /* PRISM_OFFCPU_DATA_H */
