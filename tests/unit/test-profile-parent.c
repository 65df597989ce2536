// SPDX-License-Identifier: MIT
/*
 * the parent key where perf finds it: in the recorded part of a chain only
 * (prism_profile__set_parent_depth: not in frames unwound from a stack
 * copy), from the root in caller order, from the leaf in callee order
 */
#include <stdint.h>

#include <prism/profile.h>

#include "test.h"

static int id_leaf, id_sys, id_main, id_start; /* symbol identities */

#define FRAME(n, id, addr, k)                                                                     \
	{                                                                                         \
		.ip = (addr), .map_addr = (addr), .dso_name = (k) ? "[kernel.kallsyms]" : "prog", \
		.dso_path = (k) ? "[kernel.kallsyms]" : "prog", .sym = (n), .sym_id = (id),       \
		.kernel = (k), .kind = (k) ? PRISM_FRAME_KERNEL : PRISM_FRAME_USER                \
	}

/* leaf first: a kernel frame, then user frames as DWARF unwinding adds them */
static const struct prism_frame chain[] = {
	FRAME("sys_write", &id_sys, 0xffffffff81000010ull, true),
	FRAME("leaf", &id_leaf, 0x1010, false),
	FRAME("main", &id_main, 0x1020, false),
	FRAME("__libc_start_main", &id_start, 0x1030, false),
};

/* adds the chain with @depth recorded frames; @out: the only row's parent */
static void parent_of(struct prism_profile *p, size_t depth, bool caller, const char **out)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_PARENT };
	struct prism_hist_entry *e;
	size_t n;

	*out = "(no row)";
	prism_profile__set_parent_depth(p, depth);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, chain, 4), 0);
	prism_profile__set_chain_order(p, false, caller);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 1);
	*out = e[0].parent;
}

static void test_depth_and_order(void)
{
	struct prism_profile *p;
	const char *par;

	/* every frame recorded: the first match from the leaf, or from the root */
	p = prism_profile__new(NULL, 0);
	TEST_EQ(prism_profile__set_parent(p, "main|sys_"), 0);
	parent_of(p, SIZE_MAX, false, &par);
	TEST_STREQ(par, "sys_write");
	parent_of(p, SIZE_MAX, true, &par);
	TEST_STREQ(par, "__libc_start_main");
	prism_profile__free(p);

	/* only the kernel part recorded (--call-graph dwarf): the user frames never match */
	p = prism_profile__new(NULL, 0);
	TEST_EQ(prism_profile__set_parent(p, "main"), 0);
	parent_of(p, 1, false, &par);
	TEST_EQ(par, NULL);
	parent_of(p, 1, true, &par);
	TEST_EQ(par, NULL);
	prism_profile__free(p);

	/* the same stack with another depth is another record: both rows stay apart */
	p = prism_profile__new(NULL, 0);
	TEST_EQ(prism_profile__set_parent(p, "sys_|main"), 0);
	parent_of(p, 1, true, &par);
	TEST_STREQ(par, "sys_write");
	prism_profile__set_parent_depth(p, 3);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 30, chain, 4), 0);
	{
		static const enum prism_sort_key keys[] = { PRISM_SORT_PARENT };
		struct prism_hist_entry *e;
		size_t n;

		TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
		TEST_EQ(n, 2);
		TEST_STREQ(e[0].parent, "main"); /* 30, from the root within 3 frames */
		TEST_STREQ(e[1].parent, "sys_write");
	}
	prism_profile__free(p);
}

TEST_MAIN(TEST(depth_and_order));
