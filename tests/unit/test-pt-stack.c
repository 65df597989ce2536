// SPDX-License-Identifier: MIT
/*
 * lib/pt/thread-stack.c: perf's thread-stack rules on made-up branches
 * (calls, returns, a return past its caller, a return without its call,
 * calls to the next instruction, trace ends and begins, syscalls), the call
 * chains' slots (the depth limit, user/kernel switches), the discard of a
 * stack too deep, and the threads' stacks (the idle task one per CPU).
 * t1006/t1007 compare the chains and depths with perf on whole traces.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <prism/pt.h>

#include "pt/thread-stack.h"
#include "test.h"

#define CALL (PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL)
#define RET (PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN)
#define K 0xffffffff81000000ull

static void test_calls(void)
{
	struct pt_stack s = { 0 };

	/* call at 0x100 (5 bytes) to 0x200, call at 0x210 to 0x300 */
	TEST_EQ(pt_stack_event(&s, CALL, 0x100, 0x200, 5), 0);
	TEST_EQ(pt_stack_event(&s, CALL, 0x210, 0x300, 5), 0);
	TEST_EQ(s.cnt, 2);
	TEST_EQ_U64(s.ret[0], 0x105);
	TEST_EQ_U64(s.ret[1], 0x215);
	/* a call to the next instruction (get the IP) and one to an unknown target: none */
	pt_stack_event(&s, CALL, 0x300, 0x305, 5);
	pt_stack_event(&s, CALL, 0x300, 0, 5);
	TEST_EQ(s.cnt, 2);
	/* its return */
	pt_stack_event(&s, RET, 0x310, 0x215, 1);
	TEST_EQ(s.cnt, 1);
	/* a return for a call not seen leaves the stack */
	pt_stack_event(&s, RET, 0x220, 0x999, 1);
	TEST_EQ(s.cnt, 1);
	/* a return of unknown origin is not taken */
	pt_stack_event(&s, RET, 0, 0x105, 1);
	TEST_EQ(s.cnt, 1);
	/* a return past its caller (longjmp): both go */
	pt_stack_event(&s, CALL, 0x220, 0x400, 5);
	pt_stack_event(&s, CALL, 0x410, 0x500, 5);
	TEST_EQ(s.cnt, 3);
	pt_stack_event(&s, RET, 0x501, 0x105, 1);
	TEST_EQ(s.cnt, 0);
	/* jumps and conditional branches do nothing */
	pt_stack_event(&s, PRISM_PT_FL_BRANCH | PRISM_PT_FL_CONDITIONAL, 0x1, 0x2, 2);
	pt_stack_event(&s, PRISM_PT_FL_BRANCH, 0x1, 0x2, 2);
	TEST_EQ(s.cnt, 0);
	pt_stack_release(&s);
}

static void test_trace_ends(void)
{
	struct pt_stack s = { 0 };

	pt_stack_event(&s, CALL, 0x100, 0x200, 5);
	/* a syscall where the trace stops (no target): not pushed */
	pt_stack_event(&s, CALL | PRISM_PT_FL_SYSCALLRET | PRISM_PT_FL_TRACE_END, 0x210, 0, 2);
	TEST_EQ(s.cnt, 1);
	/* a call where the trace ends (its target known): pushed, marked */
	pt_stack_event(&s, CALL | PRISM_PT_FL_TRACE_END, 0x220, 0x600, 2);
	TEST_EQ(s.cnt, 2);
	TEST_TRUE(s.trace_end[1] && !s.trace_end[0]);
	/* the trace begins elsewhere: the call made at its end is dropped */
	pt_stack_event(&s, PRISM_PT_FL_TRACE_BEGIN, 0, 0x212, 0);
	TEST_EQ(s.cnt, 1);
	/* a trace end that is a return, then a begin at the return address: popped */
	pt_stack_event(&s, RET | PRISM_PT_FL_TRACE_END, 0x250, 0, 1);
	TEST_EQ(s.cnt, 1);
	pt_stack_event(&s, PRISM_PT_FL_TRACE_BEGIN, 0, 0x105, 0);
	TEST_EQ(s.cnt, 0);
	/* an interrupt (async, not a call) leaves it */
	pt_stack_event(&s, CALL, 0x100, 0x200, 5);
	pt_stack_event(&s, PRISM_PT_FL_BRANCH | PRISM_PT_FL_ASYNC | PRISM_PT_FL_TRACE_END, 0x201, 0,
		       0);
	TEST_EQ(s.cnt, 1);
	pt_stack_release(&s);
}

static void test_chain(void)
{
	struct pt_stack s = { 0 };
	uint64_t out[32];
	int i;

	/* an empty stack: the ip alone */
	TEST_EQ(pt_stack_chain(&s, 0x50, out, 16), 1);
	TEST_EQ_U64(out[0], 0x50);
	TEST_EQ(pt_stack_chain(NULL, 0x50, out, 16), 1);
	TEST_EQ(pt_stack_chain(&s, 0x50, out, 0), 0);
	for (i = 0; i < 20; i++)
		pt_stack_event(&s, CALL, 0x1000 + 0x10 * (uint64_t)i, 0x9000, 5);
	/* ip, then the innermost return addresses, g16: 16 in all */
	TEST_EQ(pt_stack_chain(&s, 0x50, out, 16), 16);
	TEST_EQ_U64(out[1], 0x1000 + 0x10 * 19 + 5);
	TEST_EQ_U64(out[15], 0x1000 + 0x10 * 5 + 5);
	TEST_EQ(pt_stack_chain(&s, 0x50, out, 1), 1);
	TEST_EQ(pt_stack_chain(&s, 0x50, out, 32), 21);
	pt_stack_release(&s);

	/* kernel ip over user calls: the switch takes a slot (perf's context marker) */
	pt_stack_event(&s, CALL, 0x100, 0x200, 5);
	pt_stack_event(&s, CALL, 0x210, 0x300, 5);
	TEST_EQ(pt_stack_chain(&s, K, out, 16), 3);
	TEST_EQ_U64(out[0], K);
	TEST_EQ_U64(out[1], 0x215);
	TEST_EQ(pt_stack_chain(&s, K, out, 3), 2);
	/* no room for the marker and an entry after it: the chain stops */
	TEST_EQ(pt_stack_chain(&s, K, out, 2), 1);
	pt_stack_release(&s);
}

static void test_deep(void)
{
	struct pt_stack s = { 0 };
	uint64_t i;

	for (i = 0; i < PT_STACK_MAX; i++)
		pt_stack_event(&s, CALL, 0x1000, 0x2000, 5);
	TEST_EQ(s.cnt, PT_STACK_MAX);
	/* one more: the stack is discarded, as perf does when it cannot grow */
	TEST_EQ(pt_stack_event(&s, CALL, 0x3000, 0x2000, 5), -ENOMEM);
	TEST_EQ(s.cnt, 1);
	TEST_EQ_U64(s.ret[0], 0x3005);
	pt_stack_release(&s);
}

static void test_threads(void)
{
	struct pt_stacks m = { 0 };
	struct pt_stack *a, *b;
	int i;

	a = pt_stacks_get(&m, 10, 11, 0);
	pt_stack_event(a, CALL, 0x100, 0x200, 5);
	/* the same thread on another CPU: its stack */
	b = pt_stacks_get(&m, 10, 11, 3);
	TEST_EQ(b->cnt, 1);
	/* the idle task: one a CPU */
	a = pt_stacks_get(&m, 0, 0, 1);
	pt_stack_event(a, CALL, 0x100, 0x200, 5);
	TEST_EQ(pt_stacks_get(&m, 0, 0, 2)->cnt, 0);
	TEST_EQ(pt_stacks_get(&m, 0, 0, 1)->cnt, 1);
	/* many threads: the table grows, each keeps its stack */
	for (i = 0; i < 500; i++) {
		a = pt_stacks_get(&m, 100, 100 + i, 0);
		TEST_TRUE(a != NULL);
		pt_stack_event(a, CALL, 0x100 * (uint64_t)i, 0x7, 5);
	}
	for (i = 0; i < 500; i++) {
		a = pt_stacks_get(&m, 100, 100 + i, 0);
		TEST_EQ(a->cnt, 1);
		TEST_EQ_U64(a->ret[0], 0x100 * (uint64_t)i + 5);
	}
	TEST_EQ(pt_stacks_get(&m, 10, 11, 0)->cnt, 1);
	pt_stacks_free(&m);
}

/* --itrace=l: the ring of the last branches, the latest first; a new trace starts it over */
static void test_last_branch(void)
{
	struct pt_stack s = { 0 };
	struct prism_pt_branch out[4];
	uint64_t i;

	TEST_EQ(pt_lbr_copy(&s, out, 4), 0);
	TEST_EQ(pt_lbr_event(&s, 3, PRISM_PT_FL_TRACE_BEGIN, 0, 0x100), 0);
	TEST_EQ(pt_lbr_event(&s, 3, CALL, 0x105, 0x200), 0);
	TEST_EQ(pt_lbr_copy(&s, out, 4), 2);
	TEST_EQ_U64(out[0].from, 0x105);
	TEST_EQ_U64(out[0].to, 0x200);
	TEST_EQ_U64(out[1].from, 0);
	TEST_EQ(out[1].flags, PRISM_PT_FL_TRACE_BEGIN);
	/* it wraps: the 3 latest of 7, then at most what was asked for */
	for (i = 0; i < 5; i++)
		pt_lbr_event(&s, 3, RET, 0x300 + i, 0x400 + i);
	TEST_EQ(pt_lbr_copy(&s, out, 4), 3);
	TEST_EQ_U64(out[0].from, 0x304);
	TEST_EQ_U64(out[1].from, 0x303);
	TEST_EQ_U64(out[2].from, 0x302);
	TEST_EQ(pt_lbr_copy(&s, out, 2), 2);
	TEST_EQ_U64(out[1].to, 0x403);
	/* the thread's branches in another trace (CPU): stack and ring start over */
	pt_stack_event(&s, CALL, 0x100, 0x200, 5);
	pt_stack_trace(&s, 1);
	TEST_EQ(s.cnt, 1);
	TEST_EQ(pt_lbr_copy(&s, out, 4), 3);
	pt_stack_trace(&s, 2);
	TEST_EQ(s.cnt, 0);
	TEST_EQ(pt_lbr_copy(&s, out, 4), 0);
	pt_lbr_event(&s, 3, CALL, 0x500, 0x600);
	TEST_EQ(pt_lbr_copy(&s, out, 4), 1);
	TEST_EQ_U64(out[0].to, 0x600);
	pt_stack_release(&s);
}

TEST_MAIN(TEST(calls), TEST(trace_ends), TEST(chain), TEST(deep), TEST(threads), TEST(last_branch));
