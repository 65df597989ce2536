/* SPDX-License-Identifier: MIT */
/*
 * A thread's call stack made from the calls and returns of its branch
 * trace, by perf's thread-stack rules; the call chains of synthesized
 * samples (--itrace=g) and the depth of --call-trace's indentation.
 */
#ifndef PRISM_PT_THREAD_STACK_H
#define PRISM_PT_THREAD_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <prism/pt.h>

/* entries a stack holds at most: past that it is discarded (perf's answer to no memory) */
#define PT_STACK_MAX (1u << 20)

struct pt_stack {
	uint64_t *ret; /* return addresses, the outermost first */
	bool *trace_end; /* a call made as the trace ended (not expected to return) */
	size_t cnt, sz;
	/* --itrace=l: a ring of the last lbr_sz branches, the latest at lbr_pos (last-branch.c) */
	struct prism_pt_branch *lbr;
	unsigned int lbr_sz, lbr_pos, lbr_nr;
	size_t trace_nr; /* the trace (queue) of its last branch, 1 up; 0: none yet */
};

/*
 * pt_stack_event - one branch (perf's PRISM_PT_FL_* flags) on @s: a call
 * pushes from + @insn_len (not when the target is unknown or is that
 * address); a return pops down to the entry of its target, and leaves the
 * stack alone when no entry has it (a return for a call not seen); a trace
 * begin pops its target if there, then the calls made as the trace ended.
 * Return: 0, or -ENOMEM (then the stack is emptied, as perf does).
 */
int pt_stack_event(struct pt_stack *s, uint32_t flags, uint64_t from, uint64_t to,
		   unsigned int insn_len);
/*
 * pt_stack_chain - the call chain of a sample at @ip: @ip, then the return
 * addresses innermost first, in at most @max slots as perf counts them (a
 * switch between user and kernel addresses takes one); into @out (@max
 * entries).  Return: the number of addresses.
 */
size_t pt_stack_chain(const struct pt_stack *s, uint64_t ip, uint64_t *out, size_t max);

/*
 * pt_stack_call, pt_stack_return - pt_stack_event of a near call (its
 * return address @ret, the target @to) and of a near return (@to), without
 * a call where the stack needs nothing more than a push or a pop
 */
static inline void pt_stack_call(struct pt_stack *s, uint64_t from, uint64_t to,
				 unsigned int insn_len)
{
	uint64_t ret = from + insn_len;

	if (s->cnt < s->sz && to && ret != to) {
		s->trace_end[s->cnt] = false;
		s->ret[s->cnt++] = ret;
		return;
	}
	pt_stack_event(s, PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL, from, to, insn_len);
}

static inline void pt_stack_return(struct pt_stack *s, uint64_t from, uint64_t to)
{
	if (s->cnt && s->ret[s->cnt - 1] == to && from) {
		s->cnt--;
		return;
	}
	pt_stack_event(s, PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN, from, to, 0);
}
void pt_stack_release(struct pt_stack *s);

/*
 * pt_stack_trace - a branch of @s's thread in trace @trace_nr (1 up): as
 * perf, a thread's stack and last branches start over when its branches
 * come from another trace (another CPU's queue) than its last
 */
void pt_stack_trace(struct pt_stack *s, size_t trace_nr);
/*
 * last-branch.c (--itrace=l): pt_lbr_event - a branch into @s's ring of its
 * last @sz branches (made at the first).  Return: 0 or -ENOMEM.
 */
int pt_lbr_event(struct pt_stack *s, unsigned int sz, uint32_t flags, uint64_t from, uint64_t to);
/* pt_lbr_copy - @s's last branches, the latest first, into @out (@max at most): how many */
size_t pt_lbr_copy(const struct pt_stack *s, struct prism_pt_branch *out, size_t max);
/*
 * pt_lbr_sample - @st's last branches into the sample @it, stored in slot
 * @slot of *@slots (@nr_slots of @sz entries, allocated at the first call)
 */
void pt_lbr_sample(struct prism_pt_branch **slots, size_t slot, size_t nr_slots, unsigned int sz,
		   const struct pt_stack *st, struct prism_pt_item *it);

/* the stacks of the threads (the idle task: one per CPU), found by pid/tid */
struct pt_stack_slot;
struct pt_stacks {
	struct pt_stack_slot *v;
	size_t nr, alloc;
	struct pt_stack_slot *last; /* the last one asked for (a queue asks for it at each branch) */
};
/* @pid/@tid's stack (made empty when new), or NULL without memory */
struct pt_stack *pt_stacks_get(struct pt_stacks *m, int32_t pid, int32_t tid, uint32_t cpu);
void pt_stacks_free(struct pt_stacks *m);

#endif /* PRISM_PT_THREAD_STACK_H */
