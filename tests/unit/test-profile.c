// SPDX-License-Identifier: MIT
/* profiles: self/children rows, call graphs, folded stacks, flame graph XML */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/profile.h>

#include "test.h"

static int sa, sb_, sc, sk; /* symbol identities */

static struct prism_frame fr(const char *name, const void *id, bool kernel)
{
	struct prism_frame f = { 0 };

	f.ip = (uint64_t)(uintptr_t)id;
	f.dso_name = kernel ? "[kernel.kallsyms]" : "prog";
	f.dso_path = f.dso_name;
	f.sym = name;
	f.sym_id = id;
	f.kernel = kernel;
	f.kind = kernel ? PRISM_FRAME_KERNEL : PRISM_FRAME_USER;
	return f;
}

/* main -> a -> b: 7 samples in b, 3 in a; one sample in the kernel under b */
static struct prism_profile *build(void)
{
	struct prism_profile *p = prism_profile__new(NULL, 0);
	struct prism_frame b_chain[3] = { fr("b", &sb_, false), fr("a", &sa, false),
					  fr("main", &sc, false) };
	struct prism_frame k_chain[4] = { fr("sys;call", &sk, true), fr("b", &sb_, false),
					  fr("a", &sa, false), fr("main", &sc, false) };
	int i;

	for (i = 0; i < 7; i++)
		prism_profile__add(p, "my prog", 1, 1, 0, 100, b_chain, 3);
	for (i = 0; i < 3; i++)
		prism_profile__add(p, "my prog", 1, 1, 0, 100, b_chain + 1, 2);
	prism_profile__add(p, "my prog", 1, 2, 0, 100, k_chain, 4);
	return p;
}

static const struct prism_hist_entry *row(struct prism_hist_entry *e, size_t n, const char *sym)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].sym && !strcmp(e[i].sym, sym))
			return &e[i];
	return NULL;
}

static void test_self_and_children(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_COMM, PRISM_SORT_DSO,
						    PRISM_SORT_SYM };
	struct prism_profile *p = build();
	struct prism_hist_entry *e;
	size_t n;

	TEST_EQ_U64(prism_profile__total_period(p), 1100);
	TEST_EQ_U64(prism_profile__nr_samples(p), 11);
	TEST_EQ(prism_profile__nr_stacks(p), 3);
	TEST_EQ(prism_profile__entries(p, keys, 3, false, &e, &n), 0);
	TEST_EQ(n, 3);
	TEST_STREQ(e[0].sym, "b");
	TEST_EQ_U64(e[0].self, 700);
	TEST_EQ_U64(row(e, n, "a")->self, 300);
	TEST_EQ(row(e, n, "a")->nr_samples, 3);
	TEST_EQ(prism_profile__entries(p, keys, 3, true, &e, &n), 0);
	TEST_EQ(n, 4);
	/* ties on children go to the larger self */
	TEST_STREQ(e[0].sym, "a");
	TEST_STREQ(e[1].sym, "main");
	TEST_EQ_U64(e[1].children, 1100);
	TEST_EQ_U64(e[1].self, 0);
	TEST_EQ_U64(row(e, n, "b")->children, 800);
	TEST_EQ_U64(row(e, n, "b")->self, 700);
	TEST_TRUE(row(e, n, "sys;call")->kernel);
	prism_profile__free(p);
}

static void test_callgraph(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM };
	struct prism_profile *p = build();
	struct prism_hist_entry *e;
	struct prism_callgraph *g;
	size_t n;

	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	/* main's graph: main -> a -> {b 800, (a itself) } */
	TEST_STREQ(e[1].sym, "main");
	TEST_EQ(prism_profile__callgraph(p, 1, true, &g), 0);
	TEST_EQ_U64(g->period, 1100);
	TEST_EQ(g->nr_children, 1);
	TEST_STREQ(g->children[0]->name, "main");
	g = g->children[0];
	TEST_EQ(g->nr_children, 1);
	TEST_STREQ(g->children[0]->name, "a");
	g = g->children[0];
	TEST_EQ_U64(g->period, 1100);
	TEST_EQ(g->nr_children, 1);
	TEST_STREQ(g->children[0]->name, "b");
	TEST_EQ_U64(g->children[0]->period, 800);
	/* callee order from b's own samples: b -> a -> main */
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_STREQ(e[0].sym, "b");
	TEST_EQ(prism_profile__callgraph(p, 0, false, &g), 0);
	TEST_STREQ(g->children[0]->name, "b");
	TEST_STREQ(g->children[0]->children[0]->name, "a");
	TEST_EQ(prism_profile__callgraph(p, 99, false, &g), -EINVAL);
	prism_profile__free(p);
}

static void test_folded(void)
{
	struct prism_profile *p = build();
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	TEST_EQ(prism_profile__write_folded(p, fp, PRISM_FOLDED_KERNEL_SUFFIX), 0);
	fclose(fp);
	TEST_STREQ(buf, "my_prog;main;a 3\n"
			"my_prog;main;a;b 7\n"
			"my_prog;main;a;b;sys:call_[k] 1\n");
	free(buf);
	prism_profile__free(p);
}

static void test_flamegraph(void)
{
	struct prism_profile *p = build();
	struct prism_flamegraph_opts o = { .title = "t<&>" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	TEST_EQ(prism_profile__write_flamegraph(p, fp, &o), 0);
	fclose(fp);
	TEST_TRUE(strstr(buf, "<?xml") == buf);
	TEST_TRUE(strstr(buf, "t&lt;&amp;&gt;") != NULL);
	TEST_TRUE(strstr(buf, "data-n=\"main\"") != NULL);
	TEST_TRUE(strstr(buf, "(8 samples, 72.73%)") != NULL); /* b: 7 + 1 */
	TEST_TRUE(strstr(buf, "</svg>") != NULL);
	free(buf);
	prism_profile__free(p);
}

static void test_sort_keys(void)
{
	TEST_EQ(prism_sort_key__parse("comm"), PRISM_SORT_COMM);
	TEST_EQ(prism_sort_key__parse("symbol"), PRISM_SORT_SYM);
	TEST_EQ(prism_sort_key__parse("srcline"), PRISM_SORT_SRCLINE);
	TEST_EQ(prism_sort_key__parse("nope"), -1);
	TEST_STREQ(prism_sort_key__name(PRISM_SORT_CPU), "cpu");
}

/* perf's first COMM of a thread: its earlier samples take the name, and merge with it */
static void test_rename_comm(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_COMM, PRISM_SORT_SYM };
	struct prism_profile *p = prism_profile__new(NULL, 0);
	struct prism_frame b = fr("b", &sb_, false), a = fr("a", &sa, false);
	struct prism_hist_entry *e;
	size_t n;

	TEST_EQ(prism_profile__add(p, NULL, 5, 5, 0, 10, &b, 1), 0); /* ":5" */
	TEST_EQ(prism_profile__add(p, "other", 6, 6, 0, 1, &a, 1), 0);
	TEST_EQ(prism_profile__add(p, "prog", 7, 7, 0, 5, &b, 1), 0);
	TEST_EQ(prism_profile__rename_comm(p, ":9", "nobody"), 0); /* no such name: nothing */
	TEST_EQ(prism_profile__rename_comm(p, ":5", "prog"), 0);
	TEST_EQ(prism_profile__add(p, "prog", 5, 5, 0, 20, &b, 1), 0);
	TEST_EQ(prism_profile__entries(p, keys, 2, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_STREQ(e[0].comm, "prog");
	TEST_EQ(e[0].self, 35);
	TEST_EQ(e[0].thread, 5); /* the first sample's thread */
	TEST_STREQ(e[1].comm, "other");
	TEST_EQ(e[1].thread, 6);
	prism_profile__free(p);
}

/*
 * perf's rows of equal children overhead (one thread): with graphs the
 * caller first, by the longest chain each row's graph holds
 */
static void test_depth_ties(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM };
	struct prism_profile *p = prism_profile__new(NULL, 0);
	struct prism_frame chain[3] = { fr("b", &sb_, false), fr("a", &sa, false),
					fr("main", &sc, false) };
	struct prism_frame c;
	struct prism_hist_entry *e;
	size_t n;

	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, chain, 3), 0);
	/* no graphs: the larger self, then by name */
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	TEST_EQ(n, 3);
	TEST_STREQ(e[0].sym, "b");
	TEST_STREQ(e[1].sym, "a");
	TEST_STREQ(e[2].sym, "main");
	/* callee graphs run from a row to the root: main's is the shortest */
	prism_profile__set_chain_order(p, true, false);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	TEST_STREQ(e[0].sym, "main");
	TEST_STREQ(e[1].sym, "a");
	TEST_STREQ(e[2].sym, "b");
	/* caller graphs run to the leaf: b (its whole chain) and main 3, a 2 */
	prism_profile__set_chain_order(p, true, true);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	TEST_STREQ(e[0].sym, "b");
	TEST_STREQ(e[1].sym, "main");
	TEST_STREQ(e[2].sym, "a");
	/* another thread's row does not compare by depth: c (depth 1) by its self */
	c = fr("c", &sk, false);
	TEST_EQ(prism_profile__add(p, "prog", 2, 2, 0, 10, &c, 1), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	TEST_EQ(n, 4);
	TEST_STREQ(e[0].sym, "b");
	TEST_STREQ(e[1].sym, "c");
	TEST_STREQ(e[2].sym, "main");
	TEST_STREQ(e[3].sym, "a");
	prism_profile__free(p);
}

/* a chain cut on the root's side: the sample's row is its address, its graph the chain */
static void test_cut(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM };
	struct prism_profile *p = prism_profile__new(NULL, 0);
	struct prism_frame leaf = fr("sys;call", &sk, true);
	struct prism_frame chain[2] = { fr("a", &sa, false), fr("main", &sc, false) };
	struct prism_hist_entry *e;
	struct prism_callgraph *g;
	size_t n;

	TEST_EQ(prism_profile__add_cut(p, "prog", 1, 1, 0, 10, &leaf, chain, 2), 0);
	TEST_EQ(prism_profile__add_cut(p, "prog", 1, 1, 0, 10, &leaf, chain, 2), 0);
	TEST_EQ(prism_profile__nr_stacks(p), 1);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	TEST_EQ(n, 3);
	TEST_EQ_U64(row(e, n, "sys;call")->self, 20);
	TEST_EQ_U64(row(e, n, "sys;call")->children, 20);
	TEST_EQ_U64(row(e, n, "a")->self, 0);
	TEST_EQ_U64(row(e, n, "main")->children, 20);
	TEST_EQ(prism_profile__callgraph(p, (size_t)(row(e, n, "sys;call") - e), true, &g), 0);
	TEST_EQ(g->nr_children, 1);
	TEST_STREQ(g->children[0]->name, "main");
	TEST_TRUE(g->children[0]->parent == g);
	g = g->children[0];
	TEST_EQ(g->nr_children, 1);
	TEST_STREQ(g->children[0]->name, "a");
	TEST_EQ(g->children[0]->nr_children, 0);
	prism_profile__free(p);
}

/* graph nodes number in post-order: perf's order of chains of equal period */
static void test_graph_seq(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM };
	struct prism_profile *p = build();
	struct prism_hist_entry *e;
	struct prism_callgraph *g, *a;
	size_t n;

	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	TEST_EQ(prism_profile__callgraph(p, (size_t)(row(e, n, "main") - e), true, &g), 0);
	a = g->children[0]->children[0];
	TEST_STREQ(a->name, "a");
	TEST_TRUE(a->children[0]->seq < a->seq);
	TEST_TRUE(a->seq < g->seq);
	TEST_TRUE(g->parent == NULL);
	prism_profile__free(p);
}

TEST_MAIN(TEST(self_and_children), TEST(callgraph), TEST(folded), TEST(flamegraph), TEST(sort_keys),
	  TEST(rename_comm), TEST(depth_ties), TEST(cut), TEST(graph_seq));
