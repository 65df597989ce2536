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

#endif /* PRISM_TEST_UTIL_H */
