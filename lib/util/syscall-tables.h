/* SPDX-License-Identifier: MIT */
/*
 * The generated syscall name tables (syscall-tables.c, from scripts/gen-syscalls).
 */
#ifndef PRISM_UTIL_SYSCALL_TABLES_H
#define PRISM_UTIL_SYSCALL_TABLES_H

#include <stddef.h>

#include <prism/core.h>

struct syscall_table {
	const char *arch; /* canonical name: x86_64, i386, arm, arm64, riscv64, ... */
	const char *const *names; /* indexed by number; NULL holes */
	size_t nr;
	/*
	 * when set, names[] holds only the differences from this table:
	 * a NULL hole falls through to it, "" means "no such syscall here"
	 */
	const char *base;
};

struct hcall_name {
	unsigned int opcode;
	const char *name;
};

/* POWER hypervisor calls, ascending opcode */
extern const struct hcall_name hcall_names[];
extern const size_t nr_hcall_names;

extern const struct syscall_table syscall_tables[];
extern const size_t nr_syscall_tables;

#endif /* PRISM_UTIL_SYSCALL_TABLES_H */
