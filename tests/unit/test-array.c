// SPDX-License-Identifier: MIT
#include <stdint.h>

#include "internal.h"
#include "test.h"

static void test_grows_geometrically(void)
{
	int *v = NULL;
	size_t cap = 0, i;

	for (i = 0; i < 1000; i++) {
		TEST_EQ(prism_ensure_mem((void **)&v, &cap, sizeof(*v), i + 1), 0);
		v[i] = (int)i;
	}
	TEST_TRUE(cap >= 1000 && cap < 2048);
	TEST_EQ(v[999], 999);
	free(v);
}

static void test_overflow_is_enomem(void)
{
	void *v = NULL;
	size_t cap = 0;

	TEST_EQ(prism_ensure_mem(&v, &cap, 16, SIZE_MAX / 8), -ENOMEM);
	TEST_TRUE(v == NULL);
	TEST_EQ(cap, 0);
	TEST_TRUE(prism_reallocarray(NULL, SIZE_MAX, 2) == NULL);
}

static void test_unaligned_loads(void)
{
	unsigned char b[16];
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)i;
	TEST_EQ_U64(get_u64(b + 1), 0x0807060504030201ull);
	TEST_EQ(get_u32(b + 3), 0x06050403);
	TEST_EQ(get_u16(b + 5), 0x0605);
}

TEST_MAIN(TEST(grows_geometrically), TEST(overflow_is_enomem), TEST(unaligned_loads));
