/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the utilization unit tests (test-util-state.c: the state
 * machine, test-util-calls.c: call tables).
 */
#ifndef PRISM_TEST_UTIL_H
#define PRISM_TEST_UTIL_H

#include <prism/util.h>

/* finish @u and build its report with the default options; NULL on failure */
static inline const struct prism_util_result *util_report(struct prism_util *u)
{
	const struct prism_util_result *r = NULL;

	prism_util__finish(u);
	if (prism_util__report(u, NULL, &r))
		return NULL;
	return r;
}

/* the task @tid (image -1: the current one) of a report, or NULL */
static inline const struct prism_util_task *util_task(const struct prism_util_result *r,
						      uint32_t tid, int image)
{
	size_t i, j;

	for (i = 0; r && i < r->nr_processes; i++)
		for (j = 0; j < r->processes[i].nr_tasks; j++)
			if (r->processes[i].tasks[j]->tid == tid &&
			    r->processes[i].tasks[j]->image == image)
				return r->processes[i].tasks[j];
	return NULL;
}

/* on-CPU time of a row */
static inline uint64_t util_run(const struct prism_util_times *t)
{
	return t->user + t->sys + t->irq + t->softirq + t->hv + t->busy;
}

#endif /* PRISM_TEST_UTIL_H */
