/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The few kernel types offcpu.bpf.c reads, declared by hand instead of a
 * generated multi-megabyte vmlinux.h.  preserve_access_index makes clang emit
 * CO-RE relocations, so libbpf fixes every field offset against the running
 * kernel's BTF (/sys/kernel/btf/vmlinux) at load time: the layout below does
 * not have to match any kernel, only the field names and kinds do.
 */
#ifndef PRISM_VMLINUX_MIN_H
#define PRISM_VMLINUX_MIN_H

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct sched_entity {
	__u64 sum_exec_runtime; /* ns on CPU, updated at every switch-out */
};

struct task_struct {
	unsigned int __state; /* 5.14+; 'long state' before (see task_struct___old) */
	unsigned int flags;
	int pid;
	int tgid;
	int on_cpu; /* running (or switching) on a CPU now */
	struct sched_entity se;
};

/* x86-64 user registers, from bpf_task_pt_regs() */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax;
	unsigned long ip, cs, flags, sp, ss;
};

/* kernels before 5.14 */
struct task_struct___old {
	long state;
};

struct bpf_iter_meta {
	void *seq;
	__u64 session_id;
	__u64 seq_num;
};

/* context of SEC("iter/task") programs */
struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
};

#pragma clang attribute pop

#endif /* PRISM_VMLINUX_MIN_H */
