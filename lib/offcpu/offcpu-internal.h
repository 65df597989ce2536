/* SPDX-License-Identifier: MIT */
/*
 * Shared by the off-CPU files of lib/offcpu: the environment checks that do
 * not need libbpf (also used by the stub build).
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

#endif /* PRISM_OFFCPU_INTERNAL_H */
