// SPDX-License-Identifier: MIT
/*
 * The call stacks of threads, from the branches of their Intel PT trace,
 * as perf 6.1 keeps them (its thread-stack rules; see thread-stack.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/pt.h>

#include "internal.h"
#include "thread-stack.h"

static int grow(struct pt_stack *s)
{
	size_t sz = s->sz ? 2 * s->sz : 64;
	uint64_t *ret;
	bool *te;

	if (s->sz >= PT_STACK_MAX)
		return -ENOMEM;
	if (sz > PT_STACK_MAX)
		sz = PT_STACK_MAX;
	ret = realloc(s->ret, sz * sizeof(*ret));
	if (!ret)
		return -ENOMEM;
	s->ret = ret;
	te = realloc(s->trace_end, sz * sizeof(*te));
	if (!te)
		return -ENOMEM;
	s->trace_end = te;
	s->sz = sz;
	return 0;
}

static int push(struct pt_stack *s, uint64_t ret, bool trace_end)
{
	int err = 0;

	if (s->cnt == s->sz) {
		err = grow(s);
		if (err)
			s->cnt = 0; /* perf: the stack is discarded */
		if (!s->sz)
			return err;
	}
	s->trace_end[s->cnt] = trace_end;
	s->ret[s->cnt++] = ret;
	return err;
}

/*
 * A return to an address further down the stack returns from the calls
 * above it too (longjmp, a switch that does not stop and start tracing in
 * the same place); a return to an address not on it at all is taken for
 * the return of a call not seen: the stack stays.
 */
static void pop(struct pt_stack *s, uint64_t ret)
{
	size_t i;

	for (i = s->cnt; i; i--) {
		if (s->ret[i - 1] == ret) {
			s->cnt = i - 1;
			return;
		}
	}
}

static void pop_trace_end(struct pt_stack *s)
{
	while (s->cnt && s->trace_end[s->cnt - 1])
		s->cnt--;
}

int pt_stack_event(struct pt_stack *s, uint32_t flags, uint64_t from, uint64_t to,
		   unsigned int insn_len)
{
	if (flags & PRISM_PT_FL_CALL) {
		uint64_t ret = from + insn_len;

		/* a call to the next instruction (to get the IP) is no call */
		if (!to || ret == to)
			return 0;
		return push(s, ret, flags & PRISM_PT_FL_TRACE_END);
	}
	if (flags & PRISM_PT_FL_TRACE_BEGIN) {
		/* tracing may start again where a return went; a call at a trace end does not return */
		pop(s, to);
		pop_trace_end(s);
	} else if ((flags & PRISM_PT_FL_RETURN) && from) {
		pop(s, to);
	}
	return 0;
}

size_t pt_stack_chain(const struct pt_stack *s, uint64_t ip, uint64_t *out, size_t max)
{
	size_t slots = 1, nr = 0, j;
	bool kernel = ip >> 63;

	if (!max)
		return 0;
	out[nr++] = ip;
	for (j = 1; s && slots < max && j <= s->cnt; j++) {
		uint64_t a = s->ret[s->cnt - j];

		if ((bool)(a >> 63) != kernel) {
			/* the context marker perf puts between them takes a slot */
			if (slots + 1 >= max)
				break;
			slots++;
			kernel = !kernel;
		}
		out[nr++] = a;
		slots++;
	}
	return nr;
}

void pt_stack_release(struct pt_stack *s)
{
	free(s->ret);
	free(s->trace_end);
	free(s->lbr);
	memset(s, 0, sizeof(*s));
}

/* ---- the threads' stacks ---- */

struct pt_stack_slot {
	bool used;
	int32_t pid, tid;
	uint32_t cpu;
	struct pt_stack st;
};

static inline __wraps uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	return k ^ (k >> 33);
}

static size_t slot_of(const struct pt_stacks *m, int32_t pid, int32_t tid, uint32_t cpu)
{
	size_t i = (size_t)mix(((uint64_t)(uint32_t)pid << 32 | (uint32_t)tid) ^ mix(cpu)) &
		   (m->alloc - 1);

	while (m->v[i].used && (m->v[i].pid != pid || m->v[i].tid != tid || m->v[i].cpu != cpu))
		i = (i + 1) & (m->alloc - 1);
	return i;
}

static int rehash(struct pt_stacks *m)
{
	struct pt_stacks n = { .alloc = m->alloc ? 2 * m->alloc : 64 };
	size_t i;

	n.v = calloc(n.alloc, sizeof(*n.v));
	if (!n.v)
		return -ENOMEM;
	for (i = 0; i < m->alloc; i++)
		if (m->v[i].used)
			n.v[slot_of(&n, m->v[i].pid, m->v[i].tid, m->v[i].cpu)] = m->v[i];
	n.nr = m->nr;
	free(m->v);
	*m = n; /* last: none */
	return 0;
}

struct pt_stack *pt_stacks_get(struct pt_stacks *m, int32_t pid, int32_t tid, uint32_t cpu)
{
	size_t i;

	/* perf: pid == tid == 0 is the idle task, one on each CPU */
	if (pid > 0 || tid > 0)
		cpu = 0;
	if (m->last && m->last->pid == pid && m->last->tid == tid && m->last->cpu == cpu)
		return &m->last->st;
	if ((m->nr + 1) * 2 > m->alloc && rehash(m))
		return NULL;
	i = slot_of(m, pid, tid, cpu);
	m->last = &m->v[i];
	if (!m->v[i].used) {
		m->v[i].used = true;
		m->v[i].pid = pid;
		m->v[i].tid = tid;
		m->v[i].cpu = cpu;
		m->nr++;
	}
	return &m->v[i].st;
}

void pt_stacks_free(struct pt_stacks *m)
{
	size_t i;

	for (i = 0; i < m->alloc; i++)
		if (m->v[i].used)
			pt_stack_release(&m->v[i].st);
	free(m->v);
	memset(m, 0, sizeof(*m));
}
