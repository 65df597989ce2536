// SPDX-License-Identifier: MIT
/* branch profiles (perf report -b): rows by the keys asked, counts, perf's order of ties */
#include <stdlib.h>
#include <string.h>

#include <prism/profile.h>

#include "test.h"

static struct prism_branch_end end(const char *dso, const char *sym, uint64_t addr, char level)
{
	struct prism_branch_end e = { dso, sym, addr, addr, level };

	return e;
}

static void test_keys(void)
{
	TEST_EQ(prism_branch_key__parse("symbol_from"), PRISM_BRANCH_SYM_FROM);
	TEST_EQ(prism_branch_key__parse("dso_to"), PRISM_BRANCH_DSO_TO);
	TEST_EQ(prism_branch_key__parse("cycles"), PRISM_BRANCH_CYCLES);
	TEST_EQ(prism_branch_key__parse("sym"), -1);
}

static void test_rows(void)
{
	static const enum prism_branch_key keys[] = { PRISM_BRANCH_DSO_FROM, PRISM_BRANCH_SYM_FROM,
						      PRISM_BRANCH_SYM_TO };
	unsigned int mask = 1u << PRISM_BRANCH_DSO_FROM | 1u << PRISM_BRANCH_SYM_FROM |
			    1u << PRISM_BRANCH_SYM_TO;
	struct prism_branches *b = prism_branches__new(mask);
	struct prism_branch_end a = end("prog", "a", 0x1100, '.');
	struct prism_branch_end bb = end("prog", "b", 0x1200, '.');
	struct prism_branch_end k = end("[kernel.kallsyms]", "kf", 0xffffffff81000000ull, 'k');
	struct prism_branch_end none = end(NULL, NULL, 0, 'H');
	const struct prism_branch_row *r;
	size_t n;
	int i;

	for (i = 0; i < 3; i++)
		TEST_EQ(prism_branches__add(b, "prog", 1, &a, &bb, (uint16_t)i), 0);
	TEST_EQ(prism_branches__add(b, "other", 2, &bb, &a, 0), 0);
	TEST_EQ(prism_branches__add(b, "prog", 1, &none, &a, 0), 0);
	TEST_EQ(prism_branches__add(b, "prog", 1, &a, &k, 0), 0);
	TEST_EQ(prism_branches__add(b, "prog", 1, &k, &a, 0), 0);
	TEST_EQ_U64(prism_branches__total(b), 7);
	TEST_EQ(prism_branches__rows(b, keys, 3, &r, &n), 0);
	/* comm, tid and cycles are no keys: a -> b is one row of 3 */
	TEST_EQ(n, 5);
	TEST_STREQ(r[0].from.sym, "a");
	TEST_STREQ(r[0].to.sym, "b");
	TEST_EQ_U64(r[0].count, 3);
	/* ties: no DSO first, names descending (prog before [kernel...]), then by target start */
	TEST_TRUE(!r[1].from.dso);
	TEST_EQ(r[1].from.level, 'H');
	TEST_STREQ(r[2].from.dso, "prog");
	TEST_STREQ(r[2].from.sym, "a");
	TEST_STREQ(r[2].to.sym, "kf"); /* kernel starts come first (perf's wrapped difference) */
	TEST_STREQ(r[3].from.sym, "b");
	TEST_STREQ(r[4].from.dso, "[kernel.kallsyms]");
	prism_branches__free(b);
}

static void test_cycles_key(void)
{
	static const enum prism_branch_key keys[] = { PRISM_BRANCH_CYCLES };
	struct prism_branches *b = prism_branches__new(1u << PRISM_BRANCH_CYCLES);
	struct prism_branch_end a = end("prog", "a", 0x1100, '.');
	const struct prism_branch_row *r;
	size_t n;

	TEST_EQ(prism_branches__add(b, "prog", 1, &a, &a, 4), 0);
	TEST_EQ(prism_branches__add(b, "prog", 1, &a, &a, 9), 0);
	TEST_EQ(prism_branches__add(b, "prog", 1, &a, &a, 4), 0);
	TEST_EQ(prism_branches__add(b, "prog", 1, &a, &a, 0), 0);
	TEST_EQ(prism_branches__rows(b, keys, 1, &r, &n), 0);
	TEST_EQ(n, 3);
	TEST_EQ(r[0].cycles, 4);
	TEST_EQ_U64(r[0].count, 2);
	TEST_EQ(r[1].cycles, 9); /* ties: more cycles first */
	TEST_EQ(r[2].cycles, 0);
	prism_branches__free(b);
	prism_branches__free(NULL);
}

TEST_MAIN(TEST(keys), TEST(rows), TEST(cycles_key));
