/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the utilization unit tests (test-util-state.c: the state
 * machine, test-util-calls.c: call tables, test-util-switch.c,
 * test-util-interval.c).
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

/* feed @u one event of task @tid (its pid the same); 0 or -ENOMEM */
static inline int util_event(struct prism_util *u, enum prism_util_ev_type type, uint64_t time,
			     uint32_t cpu, uint32_t tid, int64_t a, int64_t b, int64_t c)
{
	struct prism_util_event e = { .type = type,
				      .time = time,
				      .cpu = cpu,
				      .pid = tid,
				      .tid = tid,
				      .a = a,
				      .b = b,
				      .c = c };

	return prism_util__event(u, &e);
}

/* on-CPU time of a row */
static inline uint64_t util_run(const struct prism_util_times *t)
{
	return t->user + t->sys + t->irq + t->softirq + t->hv + t->busy;
}

#endif /* PRISM_TEST_UTIL_H */
