// SPDX-License-Identifier: MIT
/*
 * --itrace=l[N]: the last N branches of each thread, as perf 6.1 keeps
 * them beside its thread stack (a ring of the taken branches, trace begins
 * and ends among them, every one recorded before the samples that follow
 * it), copied into each instruction sample the latest first; both start
 * over where a thread's branches move to another CPU's trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "thread-stack.h"

void pt_stack_trace(struct pt_stack *s, size_t trace_nr)
{
	if (s->trace_nr == trace_nr)
		return;
	if (s->trace_nr) {
		s->cnt = 0;
		s->lbr_pos = s->lbr_nr = 0;
	}
	s->trace_nr = trace_nr;
}

int pt_lbr_event(struct pt_stack *s, unsigned int sz, uint32_t flags, uint64_t from, uint64_t to)
{
	struct prism_pt_branch *b;

	if (!sz)
		return 0;
	if (!s->lbr) {
		s->lbr = calloc(sz, sizeof(*s->lbr));
		if (!s->lbr)
			return -ENOMEM;
		s->lbr_sz = sz;
	}
	/* the ring fills downwards: the latest at lbr_pos, the older after it */
	if (!s->lbr_pos)
		s->lbr_pos = s->lbr_sz;
	b = &s->lbr[--s->lbr_pos];
	b->from = from;
	b->to = to;
	b->flags = flags;
	if (s->lbr_nr < s->lbr_sz)
		s->lbr_nr++;
	return 0;
}

size_t pt_lbr_copy(const struct pt_stack *s, struct prism_pt_branch *out, size_t max)
{
	size_t n, first;

	if (!s || !s->lbr)
		return 0;
	n = s->lbr_nr < max ? s->lbr_nr : max;
	first = s->lbr_sz - s->lbr_pos < n ? s->lbr_sz - s->lbr_pos : n;
	memcpy(out, s->lbr + s->lbr_pos, first * sizeof(*out));
	memcpy(out + first, s->lbr, (n - first) * sizeof(*out));
	return n;
}

void pt_lbr_sample(struct prism_pt_branch **slots, size_t slot, size_t nr_slots, unsigned int sz,
		   const struct pt_stack *st, struct prism_pt_item *it)
{
	struct prism_pt_branch *out;

	if (!*slots) {
		*slots = calloc(nr_slots * sz, sizeof(**slots));
		if (!*slots)
			return;
	}
	out = *slots + slot * sz;
	it->nr_brstack = (uint32_t)pt_lbr_copy(st, out, sz);
	it->brstack = out;
}
