/* SPDX-License-Identifier: MIT */
/*
 * Off-CPU time: how long tasks were blocked, where (user and kernel stack)
 * and in which state.  Two methods:
 *
 * 1. BPF (prism_offcpu__*): a BPF program on tp_btf/sched_switch measures
 *    every block in the kernel.  Needs a build with libbpf/clang/bpftool,
 *    kernel BTF and root (or CAP_BPF + CAP_PERFMON).
 *
 *	struct prism_offcpu_opts o = { .states = PRISM_OFFCPU_STATE_S, .thresh_ns = 500000000 };
 *	struct prism_offcpu *off = prism_offcpu__new(&o);
 *	if (!off || prism_offcpu__open(off))   -> prism_offcpu__error(off)
 *	prism_offcpu__add_pid(off, workload)     (before it runs; followed across fork)
 *	prism_offcpu__start(off);
 *	... prism_offcpu__poll(off, 100) while it runs (drains the long blocks) ...
 *	prism_offcpu__stop(off);                 (still-open blocks counted up to now)
 *	for (i = 0; i < prism_offcpu__nr_entries(off); i++) prism_offcpu__entry(off, i) ...
 *	for (i = 0; i < prism_offcpu__nr_blocks(off); i++) prism_offcpu__block(off, i) ...
 *	prism_offcpu__free(off);
 *
 *    Each block is counted exactly once: either in an aggregated entry or,
 *    when it lasted at least thresh_ns, as an individual block; blocks that
 *    could not be stored are counted in the stats (nothing is dropped
 *    silently).  Times are CLOCK_MONOTONIC nanoseconds.  The object owns
 *    every result; pointers stay valid until prism_offcpu__free().
 *
 * 2. The context-switch fallback (prism_offcpu_fallback__*): pure
 *    computation on perf records, no kernel access.  Feed it, in time order,
 *    the PERF_RECORD_SWITCH / SWITCH_CPU_WIDE records and the samples of the
 *    context-switches software event (period 1, with callchains); it pairs
 *    each task's switch-out with its next switch-in and reports the interval
 *    with the callchain sampled at the switch-out.
 */
#ifndef PRISM_OFFCPU_H
#define PRISM_OFFCPU_H

#include <prism/core.h>

struct prism_event;

/* task-state classes, for prism_offcpu_opts.states */
#define PRISM_OFFCPU_STATE_RUNNABLE (1u << 0) /* preempted or yielded (run-queue wait) */
#define PRISM_OFFCPU_STATE_S (1u << 1) /* interruptible sleep */
#define PRISM_OFFCPU_STATE_D (1u << 2) /* uninterruptible sleep (also killable, idle) */
#define PRISM_OFFCPU_STATE_OTHER (1u << 3) /* stopped, traced, ... */
#define PRISM_OFFCPU_STATE_ALL \
	(PRISM_OFFCPU_STATE_S | PRISM_OFFCPU_STATE_D | PRISM_OFFCPU_STATE_OTHER)

/*
 * Options; zero means the default for every field.  The filters are ANDed
 * (cpus, tasks, cgroup); pids and tids are ORed with each other.  They are
 * in force from the first switch after prism_offcpu__start().
 */
struct prism_offcpu_opts {
	uint32_t states; /* PRISM_OFFCPU_STATE_* mask; 0 = S | D */
	uint64_t min_ns; /* ignore (count only) blocks shorter than this */
	uint64_t max_ns; /* ignore (count only) blocks longer than this; 0 = no bound */
	uint64_t thresh_ns; /* blocks >= this are kept individually with their time; 0 = none */
	bool kernel_threads; /* also measure kernel threads */
	bool kernel_threads_only; /* only kernel threads (implies kernel_threads) */
	bool no_user_stack; /* don't collect user stacks (cheaper) */
	bool no_kernel_stack;
	const int *cpus; /* only tasks switching out on these CPUs */
	size_t nr_cpus;
	const int *pids; /* only these processes (every thread) ... */
	size_t nr_pids;
	const int *tids; /* ... or these threads */
	size_t nr_tids;
	bool follow_children; /* processes in pids (and added later) include their descendants */
	bool task_filter; /* filter on tasks even with no pids/tids yet (add them later) */
	const char *cgroup; /* only tasks in this cgroup v2 directory (a path) or below it */
	uint32_t max_stack_depth; /* frames per stack; 0 = 127 (capped by perf_event_max_stack) */
	uint32_t max_stacks; /* distinct stacks; 0 = 16384 */
	uint32_t max_entries; /* distinct (task, stacks, state) sums; 0 = 32768 */
	uint32_t max_tasks; /* pid/tid filter capacity incl. followed children; 0 = 8192 */
	size_t ringbuf_bytes; /* buffer for individual blocks; 0 = 1 MiB, 8 MiB with dwarf_size */
	/*
	 * bytes of user stack kept at sp with each block, for finding the
	 * return address of a frameless leaf (0 = 64, at most 128); with
	 * no_window none
	 */
	uint32_t window_size;
	bool no_window;
	/* DWARF mode: copy this many bytes of user stack (<= 65528) once per key; 0 = off */
	uint32_t dwarf_size;
};

/* the user registers of prism_offcpu_ustate.regs: perf's x86-64 sample_regs_user mask */
#define PRISM_OFFCPU_REGS_MASK 0xff0fffull
#define PRISM_OFFCPU_NR_REGS 20

/*
 * The user context at switch-out: registers, a window of the stack at sp
 * (frame-pointer mode) and, in DWARF mode, the registers and stack copy
 * taken at the first block of the same key (same thread, stacks, state and
 * window).  Pointers are NULL and sizes 0 when not collected.
 */
struct prism_offcpu_ustate {
	uint64_t ip, sp, bp;
	const uint8_t *window;
	uint32_t window_size;
	const uint64_t *regs; /* PRISM_OFFCPU_NR_REGS, in the bit order of the mask */
	const uint8_t *stack;
	uint32_t stack_size;
};

/*
 * A stack: ips[0] is the innermost frame.  err says why it is missing or
 * partial: 0 ok, -EEXIST stack-map bucket collision, -EFAULT unreadable
 * (e.g. an exiting task, a kernel thread's user stack), -ENOENT not
 * collected, -ENODATA the block began before the measuring did (the task
 * was asleep then: no stack can be taken), other -errno from
 * bpf_get_stackid().
 */
struct prism_offcpu_stack {
	const uint64_t *ips;
	uint32_t nr;
	int err;
};

/* the summed blocks of one (thread, user stack, kernel stack, state) */
struct prism_offcpu_entry {
	int pid, tid; /* process (tgid) and thread */
	unsigned int state; /* task->__state & 0xff at switch-out: 1 = S, 2 = D, 0 = runnable */
	uint64_t total_ns;
	uint64_t count; /* number of blocks */
	struct prism_offcpu_stack user, kernel;
	struct prism_offcpu_ustate ustate;
};

/* one block of at least thresh_ns */
struct prism_offcpu_block {
	uint64_t start_ns; /* switch-out time, CLOCK_MONOTONIC */
	uint64_t duration_ns;
	int pid, tid;
	unsigned int state;
	int cpu_out, cpu_in; /* CPU left and CPU resumed on */
	bool in_progress; /* still off CPU at stop; duration counted up to the stop */
	struct prism_offcpu_stack user, kernel;
	struct prism_offcpu_ustate ustate;
};

/* what the BPF side saw and lost (summed over CPUs) */
struct prism_offcpu_stats {
	uint64_t switch_out; /* blocks started (switch-outs that passed the filters) */
	uint64_t switch_in; /* blocks ended by a switch-in */
	uint64_t in_progress; /* blocks still open at stop, counted up to the stop */
	uint64_t short_blocks; /* blocks under min_ns, ignored on purpose */
	uint64_t long_blocks; /* blocks over max_ns, ignored on purpose */
	/*
	 * tasks found asleep when measuring started (a task iterator): their
	 * block counts from the start, without stacks (err -ENODATA)
	 */
	uint64_t asleep_at_start;
	uint64_t emitted; /* blocks kept individually (>= thresh_ns) */
	uint64_t ustack_collisions, ustack_faults, ustack_errors; /* -EEXIST, -EFAULT, other */
	uint64_t kstack_collisions, kstack_faults, kstack_errors;
	uint64_t hash_full; /* blocks lost: aggregation map full (raise max_entries) */
	uint64_t hash_full_ns; /* their off-CPU time */
	uint64_t ringbuf_drops; /* long blocks the ring buffer had no room for: aggregated */
	uint64_t storage_fail; /* blocks lost: no task storage */
	/*
	 * blocks whose switch-in was never seen (the kernel did not run the
	 * sched_switch tracepoint for it; seen on a Firecracker VM, where its
	 * own sched_switch trace event misses it too): not lost, their end is
	 * estimated at the task's next switch-out from its CPU time since
	 */
	uint64_t unclosed;
	uint64_t prog_misses; /* switches the kernel did not run the program for (recursion) */
	uint64_t forks; /* children added to the filter */
	uint64_t filter_full; /* children not added: raise max_tasks */
	uint64_t copies; /* DWARF stack copies taken (one per key) */
	uint64_t copy_drops; /* copies the ring buffer had no room for (retried at the next block) */
	uint64_t copy_bytes; /* bytes of user stack copied */
	uint64_t start_ns, stop_ns; /* CLOCK_MONOTONIC */
};

struct prism_offcpu;

/**
 * prism_offcpu_check - whether the BPF method can work here
 * @reason: buffer for a one-line reason when it cannot
 * @len: size of @reason
 *
 * Checks the build (BPF support compiled in), kernel BTF and privileges,
 * without loading anything.
 * Return: 0, -PRISM_E_NOFEATURE (built without BPF), -EOPNOTSUPP (no BTF)
 * or -EPERM (not root, no CAP_BPF + CAP_PERFMON).
 */
PRISM_API int prism_offcpu_check(char *reason, size_t len);

/**
 * prism_offcpu_cgroup_id - the id of a cgroup v2 directory (fails for other paths)
 * @path: e.g. /sys/fs/cgroup/system.slice
 * @id: result
 *
 * Return: 0 or -errno.
 */
PRISM_API int prism_offcpu_cgroup_id(const char *path, uint64_t *id);

/**
 * prism_offcpu__new - check options and make an engine (no kernel access yet)
 * @opts: options (copied); NULL for the defaults
 *
 * Return: the engine, or NULL with errno (EINVAL: bad option, ENOMEM).
 */
PRISM_API struct prism_offcpu *prism_offcpu__new(const struct prism_offcpu_opts *opts);

/**
 * prism_offcpu__open - load the BPF skeleton and fill the filters
 * @off: engine from prism_offcpu__new()
 *
 * Return: 0, or a negative error with prism_offcpu__error() saying why
 * (first line the error, then "hint: " lines): -PRISM_E_NOFEATURE built
 * without BPF, -EOPNOTSUPP no BTF, -EPERM no privileges, others from libbpf.
 */
PRISM_API int prism_offcpu__open(struct prism_offcpu *off);

/**
 * prism_offcpu__add_pid - add a process (e.g. a workload held before exec)
 * @off: opened engine with a task filter (pids, tids, follow_children or task_filter)
 * @pid: process id; followed across fork when opts.follow_children
 *
 * Return: 0, -EINVAL (no task filter), -ENOSPC (max_tasks reached).
 */
PRISM_API int prism_offcpu__add_pid(struct prism_offcpu *off, int pid);

/**
 * prism_offcpu__hold_pid - a process the caller holds until start
 * @off: opened engine
 * @pid: e.g. a workload forked and waiting to be released: its wait is the
 *       caller's, not a block of its own, so it is not one of the tasks found
 *       asleep at the start (one process; a later call replaces it)
 *
 * Return: 0, -EINVAL (not opened, or started), -PRISM_E_NOFEATURE (built without BPF).
 */
PRISM_API int prism_offcpu__hold_pid(struct prism_offcpu *off, int pid);

/*
 * attach the programs: measuring starts.  Tasks asleep at that moment (but
 * the held one) get a block from it, without stacks (err -ENODATA).
 * 0 or -errno (message in __error)
 */
PRISM_API int prism_offcpu__start(struct prism_offcpu *off);

/**
 * prism_offcpu__poll - collect long blocks from the ring buffer
 * @off: started engine
 * @timeout_ms: how long to wait for data; 0 = don't wait
 *
 * Call it regularly while measuring, or the ring buffer fills and long
 * blocks are aggregated instead (counted in ringbuf_drops).
 * Return: the number of blocks collected, or -errno.
 */
PRISM_API int prism_offcpu__poll(struct prism_offcpu *off, int timeout_ms);

/* an fd that becomes readable when blocks are waiting (for epoll), or -EINVAL */
PRISM_API int prism_offcpu__poll_fd(const struct prism_offcpu *off);

/**
 * prism_offcpu__stop - stop measuring and collect the results
 * @off: started engine
 *
 * Detaches the programs, charges blocks still open up to now (as
 * in_progress), drains the ring buffer, reads the sums, the stacks and the
 * counters.  Results are sorted by total time, largest first.
 * Return: 0 or -errno (message in prism_offcpu__error()).
 */
PRISM_API int prism_offcpu__stop(struct prism_offcpu *off);

PRISM_API size_t prism_offcpu__nr_entries(const struct prism_offcpu *off);
/* entry @idx < nr_entries, or NULL */
PRISM_API const struct prism_offcpu_entry *prism_offcpu__entry(const struct prism_offcpu *off,
							       size_t idx);
PRISM_API size_t prism_offcpu__nr_blocks(const struct prism_offcpu *off);
/* block @idx < nr_blocks (in arrival order), or NULL */
PRISM_API const struct prism_offcpu_block *prism_offcpu__block(const struct prism_offcpu *off,
							       size_t idx);

/**
 * prism_offcpu__read_stats - the loss and activity counters
 * @off: engine; while started the counters are read live, after stop they are final
 * @st: result
 *
 * Return: 0 or -errno.
 */
PRISM_API int prism_offcpu__read_stats(const struct prism_offcpu *off,
				       struct prism_offcpu_stats *st);

/* the last error message ("" when none); valid until the next call on @off */
PRISM_API const char *prism_offcpu__error(const struct prism_offcpu *off);

/* detach and free everything; accepts NULL and engines in any state */
PRISM_API void prism_offcpu__free(struct prism_offcpu *off);

/* ------------------------------------------------------------------------
 * Context-switch fallback: off-CPU intervals from switch records.
 */

/* one off-CPU interval of one thread; valid during the callback only */
struct prism_offcpu_interval {
	uint32_t pid, tid;
	uint64_t start, end; /* switch-out and switch-in times (the records' clock) */
	uint32_t cpu_out, cpu_in;
	bool preempted; /* switched out while runnable: a run-queue wait, not a block */
	bool in_progress; /* still out at finish(): end is the finish time */
	/*
	 * The callchain of the context-switches sample taken at the switch-out,
	 * as recorded (with PERF_CONTEXT_* markers); NULL/0 when none matched.
	 */
	const uint64_t *callchain;
	uint64_t callchain_nr;
};

/* return non-zero to stop: the feeding function then returns that value */
typedef int (*prism_offcpu_interval_fn)(const struct prism_offcpu_interval *iv, void *arg);

struct prism_offcpu_fallback_opts {
	prism_offcpu_interval_fn fn;
	void *arg;
	bool include_preempted; /* also report run-queue waits */
	/* a sample matches a switch-out at most this far apart; 0 = 1 ms */
	uint64_t max_sample_gap_ns;
};

struct prism_offcpu_fallback_stats {
	uint64_t intervals; /* reported */
	uint64_t preempted; /* preempted intervals (reported only with include_preempted) */
	uint64_t in_progress; /* reported by finish() */
	uint64_t no_callchain; /* reported without a matching sample */
	uint64_t unmatched_in; /* switch-in without a switch-out seen (started before) */
	uint64_t double_out; /* switch-out while already out (a record was lost) */
	uint64_t dropped; /* open intervals discarded by lost() */
};

struct prism_offcpu_fallback;

/* NULL with errno (EINVAL without opts->fn, ENOMEM) */
PRISM_API struct prism_offcpu_fallback *
prism_offcpu_fallback__new(const struct prism_offcpu_fallback_opts *opts);
PRISM_API void prism_offcpu_fallback__free(struct prism_offcpu_fallback *fb); /* accepts NULL */

/* a PERF_RECORD_SWITCH(_CPU_WIDE) of thread @tid; 0, -ENOMEM or the callback's value */
PRISM_API int prism_offcpu_fallback__switch(struct prism_offcpu_fallback *fb, uint64_t time,
					    uint32_t pid, uint32_t tid, uint32_t cpu, bool out,
					    bool preempt);

/* a context-switches sample (taken just before the switch-out); 0 or -ENOMEM */
PRISM_API int prism_offcpu_fallback__sample(struct prism_offcpu_fallback *fb, uint64_t time,
					    uint32_t pid, uint32_t tid, uint32_t cpu,
					    const uint64_t *callchain, uint64_t nr);

/* records were lost: open intervals can no longer be trusted, drop them */
PRISM_API void prism_offcpu_fallback__lost(struct prism_offcpu_fallback *fb);

/*
 * Feed a decoded record: SWITCH / SWITCH_CPU_WIDE, LOST, LOST_SAMPLES, or a
 * SAMPLE when @is_cs_sample (the caller knows which event is the
 * context-switches one).  Other records are ignored.  Needs sample_id_all
 * (TID and TIME) on the switch records.
 */
PRISM_API int prism_offcpu_fallback__event(struct prism_offcpu_fallback *fb,
					   const struct prism_event *ev, bool is_cs_sample);

/* report the intervals still open as in_progress, ending at @end; 0 or the callback's value */
PRISM_API int prism_offcpu_fallback__finish(struct prism_offcpu_fallback *fb, uint64_t end);

PRISM_API const struct prism_offcpu_fallback_stats *
prism_offcpu_fallback__stats(const struct prism_offcpu_fallback *fb);

#endif /* PRISM_OFFCPU_H */
