// SPDX-License-Identifier: MIT
/*
 * The id → evsel map: its direct table (ids in a small range) and its hash
 * lookup (anything else) must answer alike, whatever order ids come in.
 */
#include <stdint.h>
#include <stdlib.h>

#include "session/evsel-internal.h"

#include "test.h"

/* fake evsels: only their addresses are compared */
static struct prism_evsel *ev(int n)
{
	static char slots[64];

	return (struct prism_evsel *)(void *)&slots[n];
}

static void test_increasing_ids_are_direct(void)
{
	struct prism_idmap m = { 0 };
	uint64_t id;

	for (id = 1000; id < 1400; id++)
		TEST_EQ(prism_idmap__add(&m, id, ev((int)(id % 7))), 0);
	TEST_TRUE(m.dense != NULL);
	for (id = 1000; id < 1400; id++)
		TEST_TRUE(prism_idmap__find(&m, id) == ev((int)(id % 7)));
	TEST_TRUE(prism_idmap__find(&m, 999) == NULL);
	TEST_TRUE(prism_idmap__find(&m, 1400) == NULL);
	TEST_TRUE(prism_idmap__find(&m, 0) == NULL);
	TEST_TRUE(prism_idmap__find(&m, UINT64_MAX) == NULL);
	/* the table keeps spare room: an id beyond max inside it is still absent */
	TEST_TRUE(m.dense_cap > 400);
	TEST_TRUE(prism_idmap__find(&m, 1000 + m.dense_cap - 1) == NULL);
	prism_idmap__release(&m);
}

static void test_lower_id_and_reclaimed_id(void)
{
	struct prism_idmap m = { 0 };

	TEST_EQ(prism_idmap__add(&m, 50, ev(1)), 0);
	TEST_EQ(prism_idmap__add(&m, 52, ev(2)), 0);
	TEST_EQ(prism_idmap__add(&m, 40, ev(3)), 0); /* below the table: rebuilt */
	TEST_TRUE(prism_idmap__find(&m, 40) == ev(3));
	TEST_TRUE(prism_idmap__find(&m, 50) == ev(1));
	TEST_TRUE(prism_idmap__find(&m, 52) == ev(2));
	TEST_TRUE(prism_idmap__find(&m, 51) == NULL);
	TEST_TRUE(prism_idmap__find(&m, 39) == NULL);
	/* a later attr claiming an id wins, in both lookups */
	TEST_EQ(prism_idmap__add(&m, 52, ev(4)), 0);
	TEST_TRUE(prism_idmap__find(&m, 52) == ev(4));
	TEST_TRUE(prism_idmap__find_slow(&m, 52) == ev(4));
	prism_idmap__release(&m);
}

static void test_sparse_ids_use_the_hash(void)
{
	struct prism_idmap m = { 0 };
	uint64_t ids[] = { 1, 1ull << 20, 1ull << 40, 77, UINT64_MAX - 1 };
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		TEST_EQ(prism_idmap__add(&m, ids[i], ev((int)i)), 0);
	TEST_TRUE(m.dense == NULL);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		TEST_TRUE(prism_idmap__find(&m, ids[i]) == ev((int)i));
	TEST_TRUE(prism_idmap__find(&m, 2) == NULL);
	TEST_TRUE(prism_idmap__find(&m, UINT64_MAX) == NULL);
	prism_idmap__release(&m);
}

static void test_random_ids_agree_with_the_hash(void)
{
	struct prism_idmap m = { 0 };
	uint64_t x = 12345, id;
	int i;

	for (i = 0; i < 2000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		id = 5000 + (x >> 33) % 3000;
		TEST_EQ(prism_idmap__add(&m, id, ev((int)(id % 50))), 0);
	}
	TEST_TRUE(m.dense != NULL);
	for (id = 4990; id < 8010; id++)
		TEST_TRUE(prism_idmap__find(&m, id) == prism_idmap__find_slow(&m, id));
	prism_idmap__release(&m);
}

TEST_MAIN(TEST(increasing_ids_are_direct), TEST(lower_id_and_reclaimed_id),
	  TEST(sparse_ids_use_the_hash), TEST(random_ids_agree_with_the_hash));
