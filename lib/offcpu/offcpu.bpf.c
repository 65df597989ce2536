// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Off-CPU time by stack, in the kernel.
 *
 * At each context switch (tp_btf/sched_switch) the task leaving the CPU, if
 * it passes the filters, gets its switch-out time, state and stack ids
 * stored in task storage; the task entering the CPU, if it has such a
 * record, is charged the time it was away: blocks of at least thresh_ns go
 * to user space one by one through a ring buffer (they become timestamped
 * samples), the others are summed in a hash map keyed by (tid, tgid, user
 * stack, kernel stack, state, user state).  Every block ends up in exactly one of the
 * two, or is counted as lost.  Blocks still open when the session stops are
 * closed by the iter/task program, which the loader runs once after
 * detaching the switch program.
 *
 * The switch path is kept short (bench/offcpu.sh measures it): the filters
 * first, before any map lookup, clock read or stack walk; task fields read
 * directly (BTF pointers) rather than through helpers; the user stack
 * walked here (see user_stack()); 32-byte aggregation keys.
 *
 * Filters are read-only data or maps filled before the program is attached,
 * so they hold from the first switch of the workload; fork tracking adds the
 * children of followed processes to the tgid filter as they are created.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "vmlinux-min.h"
#include "offcpu-bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* set by the loader before load */
const volatile __u32 state_mask = OFFCPU_CLASS_S | OFFCPU_CLASS_D;
const volatile __u64 min_ns = 0;
const volatile __u64 max_ns = 0; /* 0: no upper bound */
const volatile bool kthreads_only = false; /* only kernel threads (with kernel_threads) */
const volatile __u64 thresh_ns = 0; /* 0: never emit individually */
const volatile bool kernel_threads = false;
const volatile bool want_ustack = true;
const volatile bool want_kstack = true;
const volatile bool has_cpu_filter = false;
const volatile bool has_task_filter = false;
const volatile bool has_cgroup_filter = false;
const volatile __u32 win_size = 0; /* bytes of user stack kept at sp (<= OFFCPU_WIN_MAX) */
const volatile __u32 copy_size = 0; /* DWARF mode: bytes of user stack copied per key */
const volatile __u32 ustack_depth = OFFCPU_USTACK_MAX; /* frames per user stack */

/* set by the loader at stop: the end of every still-open block */
__u64 stop_ns = 0;
/* set by the loader at start: the start of the blocks of tasks asleep then */
__u64 start_ns = 0;
/* set by the loader before start: a process it holds until then (not asleep at the start) */
__u32 presleep_skip_tgid = 0;

/* sizes are set by the loader (bpf_map__set_max_entries / set_value_size) */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct offcpu_tstamp);
} tstamp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
	__uint(max_entries, 16384);
} stacks SEC(".maps");

/* user stacks by id (value_size cut to the frames asked for by the loader) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, struct offcpu_ustack);
	__uint(max_entries, 16384);
} ustacks SEC(".maps");

/* the user stack being walked */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct offcpu_ustack);
	__uint(max_entries, 1);
} ustack_buf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct offcpu_key);
	__type(value, struct offcpu_val);
	__uint(max_entries, 32768);
} agg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} blocks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, OFFCPU_CNT__MAX);
} counters SEC(".maps");

/* a new aggregation value is built here (too big for the stack of the inlined callers) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct offcpu_val);
	__uint(max_entries, 1);
} val_scratch SEC(".maps");

/* DWARF mode: the keys whose stack was copied already */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct offcpu_key);
	__type(value, __u8);
	__uint(max_entries, 1);
} copied SEC(".maps");

/*
 * DWARF mode: one stack copy being built per CPU (too big for a per-CPU
 * array's 32 KiB unit; the program runs with preemption off, so the CPU's
 * slot is its own); max_entries = possible CPUs
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct offcpu_copy);
	__uint(max_entries, 1);
} copybuf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1);
} cpu_filter SEC(".maps");

/* the cgroup filter: slot 0 holds the cgroup (v2) directory's fd */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} cgroup_filter SEC(".maps");

/*
 * Set at the first switch-out stored: until then no task has a block to
 * close, and switch-ins skip the task-storage lookup (a filter that
 * matches nothing costs almost nothing).  Written once, so its cache line
 * stays shared.
 */
bool stored_any = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1);
} tid_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 1);
} tgid_filter SEC(".maps");

static __always_inline void count(__u32 idx, __u64 n)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &idx);

	if (c)
		*c += n;
}

static __always_inline __u32 task_state(struct task_struct *t)
{
	struct task_struct___old *old;

	if (bpf_core_field_exists(t->__state))
		return t->__state;
	old = (void *)t;
	return BPF_CORE_READ(old, state);
}

static __always_inline __u32 state_class(__u32 state)
{
	if (state == 0)
		return OFFCPU_CLASS_RUNNABLE;
	if (state & OFFCPU_TASK_INTERRUPTIBLE)
		return OFFCPU_CLASS_S;
	if (state & OFFCPU_TASK_UNINTERRUPTIBLE)
		return OFFCPU_CLASS_D;
	if (state & OFFCPU_TASK_DEAD)
		return 0; /* exiting: it never comes back */
	return OFFCPU_CLASS_OTHER;
}

/*
 * Whether the task switching out (current) is to be followed.  The tests
 * cost least first: fields of the task, then one helper (the cgroup: O(1),
 * whatever the depth), then the filter maps.
 */
static __always_inline bool task_wanted(struct task_struct *t, __u32 tid, __u32 tgid, __u32 *state)
{
	bool kthread;

	if (tid == 0) /* the idle task */
		return false;
	*state = task_state(t) & OFFCPU_STATE_MASK;
	if (!(state_class(*state) & state_mask))
		return false;
	kthread = t->flags & OFFCPU_PF_KTHREAD;
	if (!kernel_threads && kthread)
		return false;
	if (kthreads_only && !kthread)
		return false;
	if (has_cgroup_filter && bpf_current_task_under_cgroup(&cgroup_filter, 0) != 1)
		return false;
	if (has_cpu_filter) {
		__u32 cpu = bpf_get_smp_processor_id();
		__u8 *ok = bpf_map_lookup_elem(&cpu_filter, &cpu);

		if (!ok || !*ok)
			return false;
	}
	if (has_task_filter && !bpf_map_lookup_elem(&tid_filter, &tid) &&
	    !bpf_map_lookup_elem(&tgid_filter, &tgid))
		return false;
	return true;
}

/*
 * Kernel stacks taken in the tracepoint start with the BPF program and
 * bpf_trace_run4(); skip them so that they start at __schedule().
 */
#define KSTACK_SKIP 2

static __always_inline __s32 stack_id(void *ctx, __u64 flags, __u32 cnt_eexist)
{
	long id = bpf_get_stackid(ctx, &stacks, flags);

	if (id >= 0)
		return id;
	if (id == -17 /* EEXIST */)
		count(cnt_eexist, 1);
	else if (id == -14 /* EFAULT */)
		count(cnt_eexist + 1, 1);
	else
		count(cnt_eexist + 2, 1);
	return id;
}

/*
 * The user stack by frame pointers, walked here rather than by
 * bpf_get_stackid(BPF_F_USER_STACK): the kernel's walk goes on until a read
 * faults, which ends nearly every chain (the outermost frame's saved bp is 0
 * or a libc register value), and that fault costs several times the rest of
 * the walk.  Here a frame record must lie above the last one (and less than
 * OFFCPU_FRAME_MAX above it), which ends such chains without a read.  The
 * stack is stored once under a 63-bit hash of its frames, its id.
 */
static __always_inline __s64 user_stack(struct pt_regs *regs)
{
	const __u64 k = 0x9e3779b97f4a7c15ull;
	struct offcpu_ustack *st;
	__u64 fp, sp, fr[2], h;
	__u32 zero = 0, i;

	st = bpf_map_lookup_elem(&ustack_buf, &zero);
	if (!st)
		return -12; /* ENOMEM */
	st->ips[0] = regs->ip;
	h = (regs->ip ^ k) * k;
	fp = regs->bp;
	sp = regs->sp;
	for (i = 1; i < OFFCPU_USTACK_MAX && i < ustack_depth; i++) {
		if (fp < sp || fp - sp > OFFCPU_FRAME_MAX || (fp & 7))
			break;
		if (bpf_probe_read_user(fr, sizeof(fr), (void *)fp) || !fr[1])
			break;
		st->ips[i] = fr[1];
		h = (h ^ (h >> 31) ^ fr[1]) * k;
		sp = fp + sizeof(fr);
		fp = fr[0];
	}
	st->nr = i;
	h = (h ^ (h >> 29) ^ i) & 0x7fffffffffffffffull;
	if (bpf_map_lookup_elem(&ustacks, &h))
		return h;
	/* -EEXIST: another CPU stored the same stack meanwhile */
	if (bpf_map_update_elem(&ustacks, &h, st, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&ustacks, &h)) {
		count(OFFCPU_CNT_USTACK_OTHER, 1);
		return -7; /* E2BIG: the map is full */
	}
	return h;
}

static __always_inline void aggregate(struct offcpu_key *key, const struct offcpu_ustate *u,
				      __u64 delta)
{
	struct offcpu_val *val, *init;
	__u32 zero = 0;
	long err;

	val = bpf_map_lookup_elem(&agg, key);
	if (!val) {
		init = bpf_map_lookup_elem(&val_scratch, &zero);
		if (!init)
			return;
		init->total_ns = delta;
		init->count = 1;
		__builtin_memcpy(&init->u, u, sizeof(init->u));
		err = bpf_map_update_elem(&agg, key, init, BPF_NOEXIST);
		if (!err)
			return;
		/* another CPU inserted the same key meanwhile */
		val = bpf_map_lookup_elem(&agg, key);
		if (!val) {
			count(OFFCPU_CNT_HASH_FULL, 1);
			count(OFFCPU_CNT_HASH_FULL_NS, delta);
			return;
		}
	}
	__sync_fetch_and_add(&val->total_ns, delta);
	__sync_fetch_and_add(&val->count, 1);
}

/* charge one finished (or, at stop, still open) block */
static __always_inline void account(struct offcpu_tstamp *d, __u32 tid, __u32 tgid, __u64 end,
				    __u32 cpu_in, __u32 flags)
{
	struct offcpu_key key = {};
	struct offcpu_block *b;
	__u64 delta;

	if (end <= d->ts)
		return;
	delta = end - d->ts;
	if (delta < min_ns) {
		count(OFFCPU_CNT_SHORT, 1);
		return;
	}
	if (max_ns && delta > max_ns) {
		count(OFFCPU_CNT_LONG, 1);
		return;
	}
	if (thresh_ns && delta >= thresh_ns) {
		b = bpf_ringbuf_reserve(&blocks, sizeof(*b), 0);
		if (b) {
			b->rec = OFFCPU_REC_BLOCK;
			b->pad = 0;
			__builtin_memcpy(&b->u, &d->u, sizeof(b->u));
			b->start_ns = d->ts;
			b->duration_ns = delta;
			b->tid = tid;
			b->tgid = tgid;
			b->ustack = d->ustack;
			b->kstack = d->kstack;
			b->state = d->state;
			b->flags = flags;
			b->cpu_out = d->cpu;
			b->cpu_in = cpu_in;
			b->uhash = d->uhash;
			bpf_ringbuf_submit(b, 0);
			count(OFFCPU_CNT_EMITTED, 1);
			return;
		}
		/* keep its time in the sums rather than losing it */
		count(OFFCPU_CNT_RINGBUF_DROP, 1);
	}
	key.tid = tid;
	key.tgid = tgid;
	key.ustack = d->ustack;
	key.kstack = d->kstack;
	key.state = d->state;
	key.uhash = d->uhash;
	aggregate(&key, &d->u, delta);
}

/* a 64-bit hash of the user state: registers and the bytes of the window read */
static __always_inline __u64 ustate_hash(const struct offcpu_ustate *u)
{
	const __u64 k = 0x9e3779b97f4a7c15ull;
	__u64 h = (u->ip ^ k) * k, w;
	__u32 i;

	h = (h ^ (h >> 31) ^ u->sp) * k;
	h = (h ^ (h >> 31) ^ u->bp) * k;
	h = (h ^ (h >> 31) ^ u->win_size) * k;
	for (i = 0; i < OFFCPU_WIN_MAX / 8; i++) {
		if (i * 8 >= u->win_size)
			break;
		__builtin_memcpy(&w, u->win + i * 8, 8);
		h = (h ^ (h >> 31) ^ w) * k;
	}
	return h ^ (h >> 29);
}

/*
 * The user registers and the window at sp of the task switching out
 * (current).  The window's bytes past win_size are left as they were: no
 * reader looks at them.
 */
static __always_inline void user_state(struct pt_regs *regs, struct offcpu_ustate *u)
{
	__u32 n = win_size;

	u->win_size = 0;
	u->pad = 0;
	u->ip = regs->ip;
	u->sp = regs->sp;
	u->bp = regs->bp;
	if (!n || !u->sp)
		return;
	if (n > OFFCPU_WIN_MAX)
		n = OFFCPU_WIN_MAX;
	if (bpf_probe_read_user(u->win, n, (void *)u->sp)) {
		/* the window runs past the top of the stack: up to its page's end */
		n = OFFCPU_PAGE - (u->sp & (OFFCPU_PAGE - 1));
		if (n > OFFCPU_WIN_MAX)
			n = OFFCPU_WIN_MAX;
		if (bpf_probe_read_user(u->win, n, (void *)u->sp))
			return;
	}
	u->win_size = n;
}

/*
 * DWARF mode: the first block of a key sends the registers and a copy of
 * the top copy_size bytes of the user stack, page by page so that a copy
 * that would run past the stack's top keeps what is below it.
 */
static __always_inline void copy_stack(struct task_struct *prev, const struct offcpu_key *key)
{
	__u32 cpu = bpf_get_smp_processor_id(), off = 0, n, i;
	struct pt_regs *regs;
	struct offcpu_copy *c;
	__u8 one = 1;
	__u64 sp;
	long len;

	/* a lookup first: the common case (copied already) takes no bucket lock */
	if (bpf_map_lookup_elem(&copied, key))
		return;
	regs = (struct pt_regs *)bpf_task_pt_regs(prev);
	if (!regs || bpf_map_update_elem(&copied, key, &one, BPF_NOEXIST))
		return;
	c = bpf_map_lookup_elem(&copybuf, &cpu);
	if (!c)
		return;
	c->rec = OFFCPU_REC_COPY;
	__builtin_memcpy(&c->key, key, sizeof(*key));
	/* perf's order: ax bx cx dx si di bp sp ip flags cs ss r8..r15 */
	c->regs[0] = regs->ax;
	c->regs[1] = regs->bx;
	c->regs[2] = regs->cx;
	c->regs[3] = regs->dx;
	c->regs[4] = regs->si;
	c->regs[5] = regs->di;
	c->regs[6] = regs->bp;
	c->regs[7] = sp = regs->sp;
	c->regs[8] = regs->ip;
	c->regs[9] = regs->flags;
	c->regs[10] = regs->cs;
	c->regs[11] = regs->ss;
	c->regs[12] = regs->r8;
	c->regs[13] = regs->r9;
	c->regs[14] = regs->r10;
	c->regs[15] = regs->r11;
	c->regs[16] = regs->r12;
	c->regs[17] = regs->r13;
	c->regs[18] = regs->r14;
	c->regs[19] = regs->r15;
	n = OFFCPU_PAGE - (sp & (OFFCPU_PAGE - 1));
	for (i = 0; i < OFFCPU_COPY_MAX / OFFCPU_PAGE + 2; i++) {
		if (off >= copy_size || off >= OFFCPU_COPY_MAX)
			break;
		if (n > copy_size - off)
			n = copy_size - off;
		if (n > OFFCPU_PAGE || !n)
			break;
		if (bpf_probe_read_user(c->data + off, n, (void *)(sp + off)))
			break;
		off += n;
		n = OFFCPU_PAGE;
	}
	if (!off) {
		/*
		 * not even the page at sp could be read (a block inside a fault
		 * on that page): let a later block of the key try again
		 */
		bpf_map_delete_elem(&copied, key);
		return;
	}
	c->size = off;
	len = offsetof(struct offcpu_copy, data) + ((off + 7) & ~7u);
	if (len > sizeof(*c))
		return;
	if (bpf_ringbuf_output(&blocks, c, len, 0)) {
		count(OFFCPU_CNT_COPY_DROP, 1);
		/* let a later block of the key try again */
		bpf_map_delete_elem(&copied, key);
		return;
	}
	count(OFFCPU_CNT_COPIES, 1);
	count(OFFCPU_CNT_COPY_BYTES, off);
}

/* @prev passed task_wanted(): store its switch-out */
/*
 * A block whose switch-in never reached this program, found at the task's
 * next switch-out (or its last, when it exits).  The kernel does skip the
 * tracepoint now and then (seen with its own sched_switch trace event on
 * this VM kind: a task woken from a timer interrupt ran without one), so
 * the program is not at fault.  The task has run since, for its CPU time
 * since that switch-out: the block ended that long before now (give or
 * take interrupt time).
 */
static __always_inline void close_unseen(struct offcpu_tstamp *d, __u32 tid, __u32 tgid,
					 __u64 runtime, __u64 now)
{
	__u64 ran = runtime - d->runtime;

	if (!d->ts)
		return;
	if (runtime >= d->runtime && now > d->ts + ran)
		account(d, tid, tgid, now - ran, d->cpu, OFFCPU_BLOCK_ESTIMATED);
	count(OFFCPU_CNT_UNCLOSED, 1);
	d->ts = 0;
}

static __always_inline void switch_out(void *ctx, struct task_struct *prev, __u32 tid, __u32 tgid,
				       __u32 state, __u64 now)
{
	struct offcpu_tstamp *d;
	struct pt_regs *regs;
	__u64 runtime;

	d = bpf_task_storage_get(&tstamp, prev, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!d) {
		count(OFFCPU_CNT_STORAGE_FAIL, 1);
		return;
	}
	runtime = prev->se.sum_exec_runtime;
	close_unseen(d, tid, tgid, runtime, now);
	regs = want_ustack && !(prev->flags & OFFCPU_PF_KTHREAD) ?
		       (struct pt_regs *)bpf_task_pt_regs(prev) :
		       NULL;
	if (!want_ustack) {
		d->ustack = -2;
	} else if (regs) {
		d->ustack = user_stack(regs);
	} else {
		d->ustack = -14; /* EFAULT: a kernel thread */
		count(OFFCPU_CNT_USTACK_EFAULT, 1);
	}
	d->kstack = want_kstack ? stack_id(ctx, KSTACK_SKIP, OFFCPU_CNT_KSTACK_EEXIST) : -2;
	d->state = state;
	d->cpu = bpf_get_smp_processor_id();
	d->runtime = runtime;
	if (regs) {
		user_state(regs, &d->u);
		d->uhash = ustate_hash(&d->u);
	} else {
		__builtin_memset(&d->u, 0, sizeof(d->u));
		d->uhash = 0;
	}
	if (copy_size) {
		struct offcpu_key key = {
			.tid = tid,
			.tgid = tgid,
			.ustack = d->ustack,
			.kstack = d->kstack,
			.state = state,
			.uhash = d->uhash,
		};

		copy_stack(prev, &key);
	}
	d->ts = now;
	if (!stored_any)
		stored_any = true;
	count(OFFCPU_CNT_SWITCH_OUT, 1);
}

static __always_inline void switch_in(struct task_struct *next, __u64 now)
{
	struct offcpu_tstamp *d;

	d = bpf_task_storage_get(&tstamp, next, 0, 0);
	if (!d || !d->ts)
		return;
	if (!now)
		now = bpf_ktime_get_ns();
	account(d, next->pid, next->tgid, now, bpf_get_smp_processor_id(), 0);
	d->ts = 0;
	count(OFFCPU_CNT_SWITCH_IN, 1);
}

/*
 * The filters come first, before any map lookup, stack walk or clock read:
 * a switch that concerns no followed task costs a few loads.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 tid = prev->pid, tgid = prev->tgid, state = 0;
	__u64 now = 0;

	if (stop_ns)
		return 0;
	if (task_wanted(prev, tid, tgid, &state)) {
		now = bpf_ktime_get_ns();
		switch_out(ctx, prev, tid, tgid, state, now);
	} else if ((state & OFFCPU_TASK_DEAD) && stored_any) {
		/* a task's last switch: a block whose switch-in was not seen ends here */
		struct offcpu_tstamp *d = bpf_task_storage_get(&tstamp, prev, 0, 0);

		if (d && d->ts) {
			now = bpf_ktime_get_ns();
			close_unseen(d, tid, tgid, prev->se.sum_exec_runtime, now);
		}
	}
	if (stored_any)
		switch_in(next, now);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(offcpu_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid;
	__u32 ctgid = child->tgid;
	__u8 *track, val;

	if (ptgid == ctgid) /* a new thread: its tgid is already tracked */
		return 0;
	track = bpf_map_lookup_elem(&tgid_filter, &ptgid);
	if (!track || !(*track & OFFCPU_TRACK_CHILDREN))
		return 0;
	val = *track;
	if (bpf_map_update_elem(&tgid_filter, &ctgid, &val, BPF_ANY))
		count(OFFCPU_CNT_FILTER_FULL, 1);
	else
		count(OFFCPU_CNT_FORKS, 1);
	return 0;
}

/*
 * Run once by the loader after the switch program is detached: every task
 * still holding a switch-out time is charged up to stop_ns.
 */
SEC("iter/task")
int offcpu_sweep(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct offcpu_tstamp *d;

	if (!task || !stop_ns)
		return 0;
	d = bpf_task_storage_get(&tstamp, task, 0, 0);
	if (!d || !d->ts)
		return 0;
	account(d, task->pid, task->tgid, stop_ns, d->cpu, OFFCPU_BLOCK_IN_PROGRESS);
	d->ts = 0;
	count(OFFCPU_CNT_IN_PROGRESS, 1);
	return 0;
}

/*
 * Run once by the loader right after the switch program is attached: a
 * task asleep since before the recording has no switch-out to be seen, so
 * it gets a block from start_ns (its stacks cannot be taken from here: no
 * user stack of another task, marked OFFCPU_NO_STACK_ASLEEP).  A task that
 * switched since the attach already has its own record and is left alone.
 * The cgroup and CPU filters need the task's own context: with them, tasks
 * asleep at the start are not looked for.
 */
SEC("iter/task")
int offcpu_presleep(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct offcpu_tstamp *d;
	__u32 tid, tgid, state, cls;
	bool kthread;

	if (!task || !start_ns || stop_ns || has_cgroup_filter || has_cpu_filter)
		return 0;
	tid = task->pid;
	tgid = task->tgid;
	if (tid == 0 || tgid == presleep_skip_tgid)
		return 0;
	state = task_state(task) & OFFCPU_STATE_MASK;
	cls = state_class(state);
	/* on a CPU with a sleeping state: about to block, its switch-out will say */
	if (!(cls & state_mask) || cls == OFFCPU_CLASS_RUNNABLE || task->on_cpu)
		return 0;
	kthread = task->flags & OFFCPU_PF_KTHREAD;
	if ((!kernel_threads && kthread) || (kthreads_only && !kthread))
		return 0;
	if (has_task_filter && !bpf_map_lookup_elem(&tid_filter, &tid) &&
	    !bpf_map_lookup_elem(&tgid_filter, &tgid))
		return 0;
	d = bpf_task_storage_get(&tstamp, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!d || d->ts)
		return 0;
	__builtin_memset(&d->u, 0, sizeof(d->u));
	d->ustack = OFFCPU_NO_STACK_ASLEEP;
	d->kstack = OFFCPU_NO_STACK_ASLEEP;
	d->state = state;
	d->cpu = 0;
	d->runtime = task->se.sum_exec_runtime;
	d->ts = start_ns;
	stored_any = true;
	count(OFFCPU_CNT_ASLEEP_AT_START, 1);
	return 0;
}
