/* SPDX-License-Identifier: MIT */
/* the accounting check's state, shared by check.c and check-section.c */
#ifndef PRISM_UTIL_CHECK_INTERNAL_H
#define PRISM_UTIL_CHECK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt {
	uint32_t tid;
	bool ended; /* read at the end too */
	uint64_t start, end;
	char comm[16];
};

struct prism_util_check {
	struct kt *v; /* ascending tid once the start is read */
	size_t nr, cap;
	bool has_workload;
	uint64_t workload_ns;
	uint32_t self_pid;
	uint64_t end_ns; /* when the events were disabled, their clock; 0 unknown */
};

/* v in ascending tid order */
void check_sort(struct prism_util_check *k);

#endif /* PRISM_UTIL_CHECK_INTERNAL_H */
