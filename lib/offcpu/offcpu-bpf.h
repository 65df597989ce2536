/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Types shared by the off-CPU BPF program (offcpu.bpf.c) and its loader
 * (offcpu.c): map keys and values, the ring-buffer record of one long block,
 * the loss counters and the state classes.  Only fixed-size __u types, so
 * that both compilers (clang -target bpf and the host cc) lay them out the
 * same way.
 */
#ifndef PRISM_OFFCPU_BPF_H
#define PRISM_OFFCPU_BPF_H

#include <linux/types.h>

/* task->__state bits that matter here; the rest (0x2000 FREEZABLE, ...) are masked off */
#define OFFCPU_STATE_MASK 0xff
#define OFFCPU_TASK_INTERRUPTIBLE 0x01
#define OFFCPU_TASK_UNINTERRUPTIBLE 0x02
#define OFFCPU_TASK_DEAD 0x80
#define OFFCPU_PF_KTHREAD 0x00200000

/* state classes, as bits of the state_mask filter (same values as PRISM_OFFCPU_STATE_*) */
#define OFFCPU_CLASS_RUNNABLE (1u << 0) /* preempted or yielded: state 0 */
#define OFFCPU_CLASS_S (1u << 1) /* TASK_INTERRUPTIBLE */
#define OFFCPU_CLASS_D (1u << 2) /* TASK_UNINTERRUPTIBLE (also TASK_KILLABLE, TASK_IDLE) */
#define OFFCPU_CLASS_OTHER (1u << 3) /* stopped, traced, parked, ... */

/* tgid_filter values */
#define OFFCPU_TRACK_MATCH 1u
#define OFFCPU_TRACK_CHILDREN 2u

/*
 * The user context at switch-out that a frame-pointer walk does not give:
 * the registers the unwinders start from and a window of the user stack at
 * sp.  A frameless leaf (a libc syscall wrapper) keeps its return address
 * there, which the frame-pointer walk skips; prism offcpu finds it with the
 * leaf's CFI.  All zero when not collected.
 */
#define OFFCPU_WIN_MAX 128 /* bytes; a multiple of 8 */
struct offcpu_ustate {
	__u64 ip, sp, bp;
	__u32 win_size; /* bytes of win read (0: none or unreadable) */
	__u32 pad;
	__u8 win[OFFCPU_WIN_MAX];
};

/*
 * A user stack as the program walks it (by frame pointers, ips[0] the user
 * ip), kept in the ustacks map under a 63-bit hash of its frames: that hash
 * is the user stack id.  The map's values are cut to the frames asked for.
 */
#define OFFCPU_USTACK_MAX 127
#define OFFCPU_FRAME_MAX (8u << 20) /* a frame record above the last by more: the end */
struct offcpu_ustack {
	__u64 nr;
	__u64 ips[OFFCPU_USTACK_MAX];
};

/* Per-task switch-out record kept in task storage. */
struct offcpu_tstamp {
	__u64 ts; /* bpf_ktime_get_ns() at switch-out; 0 = not off CPU (or not tracked) */
	__s64 ustack; /* user stack id (a hash), or -errno */
	__s32 kstack; /* kernel stack map id, or -errno */
	__u32 state; /* __state & 0xff */
	__u32 cpu; /* CPU it left */
	__u32 pad;
	__u64 runtime; /* task->se.sum_exec_runtime at switch-out */
	__u64 uhash; /* ustate_hash(&u) */
	struct offcpu_ustate u;
};

/*
 * Aggregation key; an unavailable stack is kept as -errno so its time still
 * counts.  The user state is part of it, as its hash: two callers of one
 * frameless libc function share a frame-pointer stack but not their return
 * addresses.  A 32-byte key keeps the hash table's hashing and compares
 * cheap; the user state itself is in the value (that of the key's first
 * block, the same for all of them but for a 64-bit hash collision).
 */
struct offcpu_key {
	__u32 tid;
	__u32 tgid;
	__s64 ustack;
	__s32 kstack;
	__u32 state;
	__u64 uhash; /* a hash of the user state (ustate_hash() in offcpu.bpf.c) */
};

struct offcpu_val {
	__u64 total_ns;
	__u64 count;
	struct offcpu_ustate u;
};

/* the stack id of a block that began before the recording (asleep at its start): -ENODATA */
#define OFFCPU_NO_STACK_ASLEEP (-61)

#define OFFCPU_BLOCK_IN_PROGRESS 1u /* still off CPU when the session stopped */
#define OFFCPU_BLOCK_ESTIMATED 2u /* switch-in not traced: end estimated (OFFCPU_CNT_UNCLOSED) */

/* ring-buffer records: a block, or the stack copy of a key (DWARF mode) */
#define OFFCPU_REC_BLOCK 1u
#define OFFCPU_REC_COPY 2u

/* One block at or above the threshold, sent through the ring buffer. */
struct offcpu_block {
	__u32 rec; /* OFFCPU_REC_BLOCK */
	__u32 pad;
	__u64 start_ns; /* switch-out, CLOCK_MONOTONIC */
	__u64 duration_ns;
	__u32 tid;
	__u32 tgid;
	__s64 ustack;
	__s32 kstack;
	__u32 state;
	__u32 flags; /* OFFCPU_BLOCK_* */
	__u32 cpu_out; /* CPU it left */
	__u32 cpu_in; /* CPU it came back on (cpu_out when in progress) */
	__u32 pad2;
	__u64 uhash; /* ustate_hash(&u): with the rest, the key of its DWARF copy */
	struct offcpu_ustate u;
};

/*
 * DWARF mode: the user registers (perf's x86-64 order and mask 0xff0fff:
 * ax bx cx dx si di bp sp ip flags cs ss r8..r15) and a copy of the top of
 * the user stack, taken at the switch-out of the first block of each key and
 * sent at once (the task's memory is readable only then).  The record is
 * cut after size bytes of data.
 */
#define OFFCPU_NR_REGS 20
#define OFFCPU_COPY_MAX 65528 /* perf's limit for --call-graph dwarf,SIZE */
#define OFFCPU_PAGE 4096
struct offcpu_copy {
	__u32 rec; /* OFFCPU_REC_COPY */
	__u32 size; /* bytes of data read */
	struct offcpu_key key;
	__u64 regs[OFFCPU_NR_REGS];
	__u8 data[OFFCPU_COPY_MAX + OFFCPU_PAGE]; /* the page more: the verifier's bound */
};

enum offcpu_counter {
	OFFCPU_CNT_SWITCH_OUT, /* switch-outs that passed the filters and were stored */
	OFFCPU_CNT_SWITCH_IN, /* switch-ins that closed a stored block */
	OFFCPU_CNT_SHORT, /* blocks below min_ns, dropped on purpose */
	OFFCPU_CNT_EMITTED, /* blocks sent individually through the ring buffer */
	OFFCPU_CNT_IN_PROGRESS, /* blocks still open at stop, counted up to the stop */
	OFFCPU_CNT_USTACK_EEXIST, /* unused: user stacks are kept by hash, without collisions */
	OFFCPU_CNT_USTACK_EFAULT, /* user stack unreadable */
	OFFCPU_CNT_USTACK_OTHER, /* other bpf_get_stackid error (e.g. -ENOMEM) */
	OFFCPU_CNT_KSTACK_EEXIST,
	OFFCPU_CNT_KSTACK_EFAULT,
	OFFCPU_CNT_KSTACK_OTHER,
	OFFCPU_CNT_HASH_FULL, /* aggregation map full: block lost */
	OFFCPU_CNT_HASH_FULL_NS, /* off-CPU ns lost that way */
	OFFCPU_CNT_RINGBUF_DROP, /* ring buffer full: block aggregated instead */
	OFFCPU_CNT_STORAGE_FAIL, /* task storage could not be created: block lost */
	/*
	 * a new block began before the last one's switch-in was seen (the
	 * kernel did not run the sched_switch tracepoint for it): the last one
	 * ended when the task's CPU time since then says
	 */
	OFFCPU_CNT_UNCLOSED,
	OFFCPU_CNT_FORKS, /* children added to the filter by fork tracking */
	OFFCPU_CNT_FILTER_FULL, /* children not added: filter map full */
	OFFCPU_CNT_COPIES, /* DWARF stack copies sent */
	OFFCPU_CNT_LONG, /* blocks above max_ns, dropped on purpose */
	OFFCPU_CNT_ASLEEP_AT_START, /* tasks found asleep at the start: blocks from it */
	OFFCPU_CNT_COPY_DROP, /* DWARF stack copies the ring buffer had no room for */
	OFFCPU_CNT_COPY_BYTES, /* bytes of stack copied */
	OFFCPU_CNT__MAX
};

#endif /* PRISM_OFFCPU_BPF_H */
