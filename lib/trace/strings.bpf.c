// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The string arguments of syscalls (paths, names), read at syscall entry as
 * strace does.
 *
 * A raw tracepoint on sys_enter looks up which arguments of the syscall are
 * strings (a bit per argument in str_args, filled by the loader from the
 * sys_enter_* formats), reads each with bpf_probe_read_user_str and sends
 * it with the thread id, syscall id and pointer value through a ring
 * buffer; user space matches it with the raw_syscalls:sys_enter sample of
 * the same call.  A string in a page not faulted in yet cannot be read at
 * entry (BPF does not fault); the kernel's own copy faults it in, so such
 * an argument is read once more at sys_exit (the argument registers are
 * still in pt_regs there) and sent with STRCAP_F_EXIT.  With a task filter only the processes in tgids are
 * looked at, and sched_process_fork adds the children of those.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "strings-bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* only the fields read here; CO-RE relocates them against the kernel's BTF */
struct pt_regs {
	unsigned long di, si, dx, r10, r8, r9, orig_ax;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

const volatile bool has_task_filter = false;
const volatile __u32 self_tgid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, STRCAP_MAX_ID);
	__type(key, __u32);
	__type(value, __u32);
} str_args SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

/* per thread: the arguments of its current call that failed at entry */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, __u32);
} failed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

__u64 lost = 0;

static __always_inline unsigned long arg_of(struct pt_regs *regs, int i)
{
	switch (i) {
	case 0:
		return BPF_CORE_READ(regs, di);
	case 1:
		return BPF_CORE_READ(regs, si);
	case 2:
		return BPF_CORE_READ(regs, dx);
	case 3:
		return BPF_CORE_READ(regs, r10);
	case 4:
		return BPF_CORE_READ(regs, r8);
	default:
		return BPF_CORE_READ(regs, r9);
	}
}

static __always_inline int capture(struct pt_regs *regs, long id, __u32 tid, __u32 mask, __u8 flags)
{
	__u32 failed_mask = 0;
	int i;

	for (i = 0; i < 6; i++) {
		struct strcap_rec *r;
		unsigned long ptr;

		if (!(mask & (1u << i)))
			continue;
		r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
		if (!r) {
			__sync_fetch_and_add(&lost, 1);
			continue;
		}
		ptr = arg_of(regs, i);
		r->tid = tid;
		r->id = (__u16)id;
		r->idx = (__u8)i;
		r->ptr = ptr;
		r->len = bpf_probe_read_user_str(r->str, sizeof(r->str), (const void *)ptr);
		r->flags = flags;
		if (r->len < 0) {
			r->flags |= STRCAP_F_FAILED;
			failed_mask |= 1u << i;
		}
		bpf_ringbuf_submit(r, 0);
	}
	return failed_mask;
}

SEC("raw_tp/sys_enter")
int strcap_enter(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	long id = (long)ctx->args[1];
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 tgid = pid_tgid >> 32, tid = (__u32)pid_tgid, key, *mask, f;

	if (id < 0 || id >= STRCAP_MAX_ID || tgid == self_tgid)
		return 0;
	key = (__u32)id;
	mask = bpf_map_lookup_elem(&str_args, &key);
	if (!mask || !*mask)
		return 0;
	if (has_task_filter && !bpf_map_lookup_elem(&tgids, &tgid))
		return 0;
	f = capture(regs, id, tid, *mask, 0);
	/* execve's arguments are gone with the old image at its exit */
	if (f && id != 59 && id != 322)
		bpf_map_update_elem(&failed, &tid, &f, BPF_ANY);
	return 0;
}

SEC("raw_tp/sys_exit")
int strcap_exit(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), *f, mask;
	long id;

	f = bpf_map_lookup_elem(&failed, &tid);
	if (!f)
		return 0;
	mask = *f;
	bpf_map_delete_elem(&failed, &tid);
	id = (long)BPF_CORE_READ(regs, orig_ax);
	if (id < 0 || id >= STRCAP_MAX_ID)
		return 0;
	capture(regs, id, tid, mask, STRCAP_F_EXIT);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int strcap_fork(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *parent = (struct task_struct *)ctx->args[0];
	struct task_struct *child = (struct task_struct *)ctx->args[1];
	__u32 ptgid, ctgid;
	__u8 one = 1;

	if (!has_task_filter)
		return 0;
	ptgid = BPF_CORE_READ(parent, tgid);
	if (!bpf_map_lookup_elem(&tgids, &ptgid))
		return 0;
	ctgid = BPF_CORE_READ(child, tgid);
	bpf_map_update_elem(&tgids, &ctgid, &one, BPF_ANY);
	return 0;
}
