// SPDX-License-Identifier: MIT
#include <errno.h>

#include <prism/error.h>

#include "test.h"

static void test_errno_values(void)
{
	char buf[128];

	TEST_STREQ(prism_strerror(-ENOENT, buf, sizeof(buf)), "No such file or directory");
	TEST_STREQ(prism_strerror(ENOMEM, buf, sizeof(buf)), "Cannot allocate memory");
}

static void test_prism_codes(void)
{
	char buf[128];

	TEST_STREQ(prism_strerror(-PRISM_E_BAD_MAGIC, buf, sizeof(buf)),
		   "not a perf.data file (bad magic)");
	TEST_STREQ(prism_strerror(PRISM_E_TRUNCATED, buf, sizeof(buf)), "file is truncated");
	TEST_TRUE(PRISM_E__START > 4095); /* never collides with an errno */
}

static void test_small_buffer(void)
{
	char buf[5];

	TEST_STREQ(prism_strerror(-PRISM_E_BAD_MAGIC, buf, sizeof(buf)), "not ");
}

TEST_MAIN(TEST(errno_values), TEST(prism_codes), TEST(small_buffer));
