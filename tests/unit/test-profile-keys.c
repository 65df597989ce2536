// SPDX-License-Identifier: MIT
/*
 * profile rows keyed by perf's sample keys (socket, cgroup, cgroup_id,
 * weights, instruction latency): grouping, the values rows show, perf's
 * order of them; the key source's topology, CGROUP and NAMESPACES records;
 * hidden samples (perf's filtered entries), unwound chains' parents
 */
#include <errno.h>
#include <string.h>

#include <linux/perf_event.h>

#include <prism/event.h>
#include <prism/profile.h>

#include "test.h"

static int sx; /* a symbol identity */

static struct prism_frame fr(void)
{
	struct prism_frame f = { 0 };

	f.ip = 0x1000;
	f.map_addr = 0x1000;
	f.dso_name = "prog";
	f.dso_path = "prog";
	f.sym = "f";
	f.sym_id = &sx;
	return f;
}

static void add(struct prism_profile *p, const struct prism_sample_keys *k, uint64_t period)
{
	struct prism_frame f = fr();

	TEST_EQ(prism_profile__set_sample_keys(p, k), 0);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, period, &f, 1), 0);
}

/* weights 7, 7, 3: two rows, ordered by weight (descending); Weight = weight x samples */
static void test_weight(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_LOCAL_WEIGHT };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_LOCAL_WEIGHT);
	struct prism_sample_keys k = { .weight = 3, .ins_lat = 9 };
	struct prism_hist_entry *e;
	size_t n;

	TEST_TRUE(p != NULL);
	add(p, &k, 10);
	k.weight = 7;
	add(p, &k, 10);
	add(p, &k, 10);
	TEST_EQ(prism_profile__entries_by_keys(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_EQ_U64(e[0].weight, 7);
	TEST_EQ_U64(e[0].nr_samples, 2);
	TEST_EQ_U64(e[1].weight, 3);
	TEST_EQ_U64(e[1].ins_lat, 0); /* not a key of this profile: not kept */
	prism_profile__free(p);
}

/* instruction latencies 4, 4, 9: rows by value, the sum of the row's samples */
static void test_ins_lat(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_INS_LAT };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_INS_LAT);
	struct prism_sample_keys k = { .ins_lat = 4, .weight = 100 };
	struct prism_hist_entry *e;
	size_t n;

	TEST_TRUE(p != NULL);
	add(p, &k, 1);
	add(p, &k, 1);
	k.ins_lat = 9;
	k.weight = 5; /* not a key: the same row as any other weight */
	add(p, &k, 1);
	TEST_EQ(prism_profile__entries_by_keys(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_EQ_U64(e[0].ins_lat, 9); /* by value, not by sum (8) */
	TEST_EQ_U64(e[1].ins_lat, 8);
	TEST_EQ_U64(e[1].nr_samples, 2);
	prism_profile__free(p);
}

/* sockets 1 and 0: ascending; cgroup names come with their id */
static void test_socket_cgroup(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SOCKET, PRISM_SORT_CGROUP };
	struct prism_profile *p =
		prism_profile__new(NULL, 1u << PRISM_SORT_SOCKET | 1u << PRISM_SORT_CGROUP);
	struct prism_sample_keys k = { .socket = 1, .cgroup = 42, .cgroup_name = "/a" };
	struct prism_hist_entry *e;
	size_t n;

	TEST_TRUE(p != NULL);
	add(p, &k, 5);
	k.socket = 0;
	k.cgroup = 0;
	k.cgroup_name = NULL;
	add(p, &k, 5);
	TEST_EQ(prism_profile__entries_by_keys(p, keys, 2, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_EQ(e[0].socket, 0);
	TEST_TRUE(e[0].cgroup_name == NULL);
	TEST_EQ(e[1].socket, 1);
	TEST_EQ_U64(e[1].cgroup, 42);
	TEST_STREQ(e[1].cgroup_name, "/a");
	prism_profile__free(p);
}

/* the source: a CGROUP record names an id (the first name stays), NAMESPACES a task's */
static void test_source(void)
{
	struct prism_key_source *ks = prism_key_source__new(NULL);
	uint64_t links[2 * (CGROUP_NS_INDEX + 1)] = { 0 };
	struct prism_event ev = { 0 };
	struct prism_sample_keys k;

	TEST_TRUE(ks != NULL);
	ev.type = PERF_RECORD_CGROUP;
	ev.cgroup.id = 42;
	ev.cgroup.path = "/sys.slice";
	TEST_EQ(prism_key_source__event(ks, &ev), 0);
	ev.cgroup.path = "/other";
	TEST_EQ(prism_key_source__event(ks, &ev), 0);
	links[2 * CGROUP_NS_INDEX] = 4;
	links[2 * CGROUP_NS_INDEX + 1] = 0xeffffffb;
	ev.type = PERF_RECORD_NAMESPACES;
	ev.ns.tid = 7;
	ev.ns.nr = CGROUP_NS_INDEX + 1;
	ev.ns.link_info = links;
	TEST_EQ(prism_key_source__event(ks, &ev), 0);

	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_SAMPLE;
	ev.sample.type = PERF_SAMPLE_CGROUP | PERF_SAMPLE_WEIGHT_STRUCT;
	ev.sample.tid = 7;
	ev.sample.cpu = 0;
	ev.sample.cgroup = 42;
	ev.sample.weight = 11;
	ev.sample.weight_var2 = 12;
	prism_key_source__sample(ks, &ev, &k);
	TEST_EQ(k.socket, -1); /* no topology */
	TEST_STREQ(k.cgroup_name, "/sys.slice");
	TEST_EQ_U64(k.cgroup_dev, 4);
	TEST_EQ_U64(k.cgroup_ino, 0xeffffffb);
	TEST_EQ_U64(k.weight, 11);
	TEST_EQ(k.ins_lat, 12);
	ev.sample.tid = 8;
	ev.sample.cgroup = 43;
	prism_key_source__sample(ks, &ev, &k);
	TEST_TRUE(k.cgroup_name == NULL);
	TEST_EQ_U64(k.cgroup_ino, 0);
	prism_key_source__free(ks);
}

static int sa, sm; /* more symbol identities */

static struct prism_frame frame(const char *name, const void *id, uint64_t ip, bool kernel)
{
	struct prism_frame f = fr();

	f.ip = ip;
	f.map_addr = ip;
	f.sym = name;
	f.sym_id = id;
	f.kernel = kernel;
	return f;
}

static const struct prism_hist_entry *find_row(const struct prism_hist_entry *e, size_t n,
					       const char *sym)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].sym && !strcmp(e[i].sym, sym))
			return &e[i];
	return NULL;
}

/*
 * main -> a: a hidden sample makes the row of main first, a kept one adds to
 * it; a's row is made by the kept one: shown, with both periods in main's.
 * @late: the same with the late filter (--socket-filter), the second sample
 * hidden: each row marked by its first sample, the marks apart
 */
static void hidden_rows(bool late)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_SYM);
	struct prism_frame only_main = frame("main", &sm, 0x100, false);
	struct prism_frame chain[2] = { frame("a", &sa, 0x200, false),
					frame("main", &sm, 0x100, false) };
	struct prism_hist_entry *e;
	const struct prism_hist_entry *x;
	size_t n;

	TEST_TRUE(p != NULL);
	(late ? prism_profile__set_filtered : prism_profile__set_hidden)(p, true);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 10, &only_main, 1), 0);
	(late ? prism_profile__set_filtered : prism_profile__set_hidden)(p, false);
	prism_profile__set_hidden(p, late);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 5, chain, 2), 0);
	TEST_EQ_U64(prism_profile__total_period(p), 15);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	x = find_row(e, n, "main");
	TEST_TRUE(x && (late ? x->filtered && !x->hidden : x->hidden && !x->filtered));
	TEST_EQ_U64(x->children, 15);
	x = find_row(e, n, "a");
	TEST_TRUE(x && !x->filtered && x->hidden == late);
	TEST_EQ_U64(x->self, 5);
	prism_profile__free(p);
}

static void test_hidden(void)
{
	hidden_rows(false);
}

static void test_filtered(void)
{
	hidden_rows(true);
}

/*
 * perf -v: a row's address is its first sample's, in its map as a leaf
 * (main's row, made by the leaf at 0x100), as it is in a chain (a's, made
 * by the caller frame at 0x7f0208 before the leaf at 0x7f0200 came)
 */
static void test_verbose_addr(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_SYM);
	struct prism_frame leaf_main = frame("main", &sm, 0x7f0100, false);
	struct prism_frame chain[2] = { frame("main", &sm, 0x7f0110, false),
					frame("a", &sa, 0x7f0208, false) };
	struct prism_frame leaf_a = frame("a", &sa, 0x7f0200, false);
	struct prism_hist_entry *e;
	const struct prism_hist_entry *x;
	size_t n;

	TEST_TRUE(p != NULL);
	leaf_main.map_addr = 0x100;
	leaf_a.map_addr = 0x200;
	prism_profile__set_verbose(p, true);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 1, &leaf_main, 1), 0);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 1, chain, 2), 0);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 1, &leaf_a, 1), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, true, &e, &n), 0);
	x = find_row(e, n, "main");
	TEST_TRUE(x && x->addr == 0x100);
	x = find_row(e, n, "a");
	TEST_TRUE(x && x->addr == 0x7f0208);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	x = find_row(e, n, "a");
	TEST_TRUE(x && x->addr == 0x200);
	prism_profile__free(p);
}

/* an unwound chain's parent is among its kernel frames only */
static void test_unwound_parent(void)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_PARENT };
	struct prism_profile *p = prism_profile__new(NULL, 1u << PRISM_SORT_PARENT);
	struct prism_frame chain[2] = { frame("a", &sa, 0x200, false),
					frame("main", &sm, 0x100, false) };
	struct prism_hist_entry *e;
	size_t n;

	TEST_TRUE(p != NULL);
	TEST_EQ(prism_profile__set_parent(p, "^main$"), 0);
	prism_profile__set_parent_depth(p, 0); /* (both frames unwound) */
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 5, chain, 2), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 1);
	TEST_TRUE(e[0].parent == NULL);
	prism_profile__set_parent_depth(p, SIZE_MAX);
	TEST_EQ(prism_profile__add(p, "prog", 1, 1, 0, 5, chain, 2), 0);
	TEST_EQ(prism_profile__entries(p, keys, 1, false, &e, &n), 0);
	TEST_EQ(n, 2);
	TEST_TRUE((e[0].parent && !strcmp(e[0].parent, "main")) ||
		  (e[1].parent && !strcmp(e[1].parent, "main")));
	prism_profile__free(p);
}

TEST_MAIN(TEST(weight), TEST(ins_lat), TEST(socket_cgroup), TEST(source), TEST(hidden),
	  TEST(filtered), TEST(verbose_addr), TEST(unwound_parent))
