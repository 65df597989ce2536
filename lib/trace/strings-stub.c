// SPDX-License-Identifier: MIT
/*
 * prism_strcap without libbpf: no string capture; prism trace prints the
 * pointers, as perf 6.1 does.
 */
#include <errno.h>

#include <prism/trace.h>

struct prism_strcap *prism_strcap__new(struct prism_strace *st, bool task_filter)
{
	(void)st;
	(void)task_filter;
	errno = ENOTSUP;
	return NULL;
}

int prism_strcap__add_tgid(struct prism_strcap *c, int tgid)
{
	(void)c;
	(void)tgid;
	return -ENOTSUP;
}

void prism_strcap__fill(struct prism_strcap *c, struct prism_strace_enter *e)
{
	(void)c;
	(void)e;
}

uint64_t prism_strcap__lost(const struct prism_strcap *c)
{
	(void)c;
	return 0;
}

void prism_strcap__free(struct prism_strcap *c)
{
	(void)c;
}
