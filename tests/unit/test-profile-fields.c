// SPDX-License-Identifier: MIT
/*
 * profile rows with perf's output fields as sort keys (overhead, sample,
 * period, overhead_sys/us), entries_by_keys' order, perf's source line text
 * of an address without line information
 */
#include <errno.h>
#include <string.h>

#include <prism/profile.h>

#include "test.h"

static int sx, sy_, sk; /* symbol identities */

static struct prism_frame fr(const char *name, const void *id, uint64_t ip, bool kernel)
{
	struct prism_frame f = { 0 };

	f.ip = ip;
	f.map_addr = ip;
	f.dso_name = kernel ? "[kernel.kallsyms]" : "prog";
	f.dso_path = f.dso_name;
	f.sym = name;
	f.sym_id = id;
	f.kernel = kernel;
	f.kind = kernel ? PRISM_FRAME_KERNEL : PRISM_FRAME_USER;
	return f;
}

/* "zeta": 3 user samples of 10; "alpha": 1 user of 50; "ksys": 1 kernel of 5 */
static struct prism_profile *build(unsigned int mask, int *err)
{
	struct prism_profile *p = prism_profile__new(NULL, mask);
	struct prism_frame z = fr("zeta", &sx, 0x1000, false);
	struct prism_frame a = fr("alpha", &sy_, 0x2000, false);
	struct prism_frame ak = fr("ksys", &sk, 0xffffffff81000000ull, true);
	int i;

	for (i = 0; i < 3; i++)
		*err |= prism_profile__add(p, "prog", 1, 1, 0, 10, &z, 1);
	*err |= prism_profile__add(p, "prog", 1, 1, 0, 50, &a, 1);
	*err |= prism_profile__add(p, "prog", 1, 1, 0, 5, &ak, 1);
	return p;
}

static void test_fields_order(void)
{
	static const enum prism_sort_key by_sample[] = { PRISM_SORT_SAMPLE, PRISM_SORT_SYM };
	static const enum prism_sort_key by_sym[] = { PRISM_SORT_SYM, PRISM_SORT_OVERHEAD };
	static const enum prism_sort_key sym_only[] = { PRISM_SORT_SYM };
	int err = 0;
	struct prism_profile *p = build(1u << PRISM_SORT_SYM, &err);
	struct prism_hist_entry *e;
	size_t n;

	TEST_EQ(err, 0);
	/* no field: overhead first (alpha 50 > zeta 30 > ksys 5) */
	TEST_EQ(prism_profile__entries(p, sym_only, 1, false, &e, &n), 0);
	TEST_EQ(n, 3);
	TEST_STREQ(e[0].sym, "alpha");
	TEST_EQ_U64(e[0].period_us, 50);
	TEST_EQ_U64(e[0].period_sys, 0);
	TEST_STREQ(e[2].sym, "ksys");
	TEST_EQ_U64(e[2].period_sys, 5);
	TEST_EQ_U64(e[2].period_us, 0);
	/* a field first: the keys' order alone (zeta has 3 samples, alpha 2) */
	TEST_EQ(prism_profile__entries(p, by_sample, 2, false, &e, &n), 0);
	TEST_STREQ(e[0].sym, "zeta");
	TEST_EQ_U64(e[0].nr_samples, 3);
	/* symbol before overhead: names ascending */
	TEST_EQ(prism_profile__entries(p, by_sym, 2, false, &e, &n), 0);
	TEST_STREQ(e[0].sym, "alpha");
	/* by the keys alone without a field: names ascending too */
	TEST_EQ(prism_profile__entries_by_keys(p, sym_only, 1, false, &e, &n), 0);
	TEST_STREQ(e[0].sym, "alpha");
	TEST_STREQ(e[1].sym, "ksys");
	TEST_STREQ(e[2].sym, "zeta");
	/* and back to overhead first */
	TEST_EQ(prism_profile__entries(p, sym_only, 1, false, &e, &n), 0);
	TEST_STREQ(e[1].sym, "zeta");
	TEST_EQ(prism_sort_key__parse("period"), PRISM_SORT_PERIOD);
	TEST_STREQ(prism_sort_key__name(PRISM_SORT_OVERHEAD_CHILDREN), "overhead_children");
	prism_profile__free(p);
}

static void test_srcline_unknown(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SRCLINE };
	static const enum prism_sort_key files[] = { PRISM_SORT_SRCFILE };
	struct prism_profile *p =
		prism_profile__new(NULL, 1u << PRISM_SORT_SRCLINE | 1u << PRISM_SORT_SRCFILE);
	struct prism_frame f = fr(NULL, NULL, 0x55550000119cull, false);
	struct prism_frame g = fr("main", &sx, 0x4010, false);
	struct prism_frame chain[2];
	struct prism_hist_entry *e;
	size_t n;

	f.map_addr = 0x119c; /* a PIE: the leaf shows its map-relative address */
	g.sym_start = 0x4000;
	chain[0] = f;
	chain[1] = g;
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, chain, 2), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	/* the leaf's own row, its caller-form row (children), main's */
	TEST_EQ(n, 3);
	TEST_STREQ(e[0].srcline, "prog[119c]");
	TEST_EQ_U64(e[0].self, 10);
	TEST_STREQ(e[1].srcline, "main+16");
	TEST_STREQ(e[2].srcline, "prog[55550000119c]");
	TEST_EQ_U64(e[2].self, 0);
	TEST_EQ_U64(e[2].children, 10);
	/* no file: one row, "" */
	TEST_EQ(prism_profile__entries(p, files, 1, false, &e, &n), 0);
	TEST_EQ(n, 1);
	TEST_STREQ(e[0].srcfile, "");
	prism_profile__free(p);
}

static void test_parent(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_PARENT };
	struct prism_profile *p = prism_profile__new(NULL, 0);
	struct prism_frame c1[3] = { fr("leaf", &sx, 0x10, false), fr("sys_read", &sy_, 0x20, true),
				     fr("main", &sk, 0x30, false) };
	struct prism_frame c2[2] = { fr("leaf", &sx, 0x10, false), fr("main", &sk, 0x30, false) };
	struct prism_hist_entry *e;
	size_t n;

	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, c1, 3), 0);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 30, c2, 2), 0);
	TEST_EQ(prism_profile__add_nochain(p, "prog", 1, 1, 0, 5, c1 + 1), 0);
	TEST_EQ(prism_profile__set_parent(p, "("), -EINVAL);
	/* without an expression: no parents, one row */
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 1);
	TEST_EQ(e[0].parent, NULL);
	TEST_EQ(prism_profile__set_parent(p, "^sys_|^do_page_fault"), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	/* [other] (30 + the chainless 5) first by overhead, then sys_read's 10 */
	TEST_EQ(e[0].parent, NULL);
	TEST_EQ_U64(e[0].self, 35);
	TEST_STREQ(e[1].parent, "sys_read");
	/* the first match from the leaf: leaf, before main */
	TEST_EQ(prism_profile__set_parent(p, "lea|main"), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_STREQ(e[0].parent, "leaf");
	TEST_EQ_U64(e[0].self, 40);
	TEST_EQ(e[1].parent, NULL); /* the sample without a chain */
	prism_profile__free(p);
}

static void test_sym_size(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM_SIZE };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_SYM_SIZE);
	struct prism_frame a = fr("a", &sx, 0x1010, false), b = fr("b", &sy_, 0x2010, false);
	struct prism_frame u = fr(NULL, NULL, 0x3000, false);
	struct prism_hist_entry *e;
	size_t n;

	a.sym_start = 0x1000;
	a.sym_end = 0x1040;
	b.sym_start = 0x2000;
	b.sym_end = 0x2040; /* the same size: one row with a */
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, &a, 1), 0);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, &b, 1), 0);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 5, &u, 1), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_EQ_U64(e[0].sym_size, 0x40);
	TEST_EQ_U64(e[0].self, 20);
	TEST_EQ_U64(e[1].sym_size, 0);
	/* by the size alone: ascending, unknown (0) first */
	TEST_EQ(prism_profile__entries_by_keys(p, keys, 1, false, &e, &n), 0);
	TEST_EQ_U64(e[0].sym_size, 0);
	prism_profile__free(p);
}

static void test_time(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_TIME };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_TIME);
	struct prism_profile *q = prism_profile__new(NULL, 1u << PRISM_SORT_SYM);
	struct prism_frame a = fr("a", &sx, 0x10, false);
	struct prism_hist_entry *e;
	size_t n;

	prism_profile__set_time(p, 200);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, &a, 1), 0);
	prism_profile__set_time(p, 100);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, &a, 1), 0);
	prism_profile__set_time(p, 200);
	TEST_EQ(prism_profile__add_nochain(p, "prog", 1, 1, 0, 5, &a), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_EQ_U64(e[0].time, 200);
	TEST_EQ_U64(e[0].self, 15);
	TEST_EQ(prism_profile__entries_by_keys(p, keys, 1, false, &e, &n), 0);
	TEST_EQ_U64(e[0].time, 100);
	/* a profile without the key: the time is no part of a record */
	prism_profile__set_time(q, 200);
	TEST_EQ(prism_profile__add(q, "prog", 1, 1, 0, 10, &a, 1), 0);
	prism_profile__set_time(q, 100);
	TEST_EQ(prism_profile__add(q, "prog", 1, 1, 0, 10, &a, 1), 0);
	TEST_EQ(prism_profile__nr_stacks(q), 1);
	prism_profile__free(p);
	prism_profile__free(q);
}

TEST_MAIN(TEST(fields_order), TEST(srcline_unknown), TEST(parent), TEST(sym_size), TEST(time));
