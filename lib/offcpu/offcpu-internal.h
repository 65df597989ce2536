/* SPDX-License-Identifier: MIT */
/*
 * Shared by the off-CPU files of lib/offcpu: the environment checks that do
 * not need libbpf (also used by the stub build), the user-stack table.
 */
#ifndef PRISM_OFFCPU_INTERNAL_H
#define PRISM_OFFCPU_INTERNAL_H

#include <prism/offcpu.h>

#define OFFCPU_BTF_PATH "/sys/kernel/btf/vmlinux"

/*
 * offcpu_env_check - kernel BTF present and enough privileges for BPF
 * @reason: one line saying what is missing, when something is
 *
 * Return: 0, -EOPNOTSUPP (no BTF) or -EPERM (not root, no CAP_BPF + CAP_PERFMON).
 */
int offcpu_env_check(char *reason, size_t len);

/* the hint lines matching an offcpu_env_check() error (without "hint: ") */
const char *offcpu_env_hint(int err);

/* the user stacks the BPF program stored (map ustacks), sorted by id */
struct offcpu_ustacks {
	struct offcpu_ustack_slot *v;
	size_t nr;
};

/* read every stack of the map @fd (values: nr, then @depth frames); 0 or -errno */
int offcpu_ustacks__read(struct offcpu_ustacks *t, int fd, uint32_t depth);
/* the stack with @id, or out->err = -ENOENT */
void offcpu_ustacks__find(const struct offcpu_ustacks *t, int64_t id,
			  struct prism_offcpu_stack *out);
void offcpu_ustacks__release(struct offcpu_ustacks *t);

#endif /* PRISM_OFFCPU_INTERNAL_H */
