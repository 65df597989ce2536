// SPDX-License-Identifier: MIT
/*
 * Replays tests/data/fuzz-regress/NAME.comp through fuzz-compressed (the
 * records compressed by prism's writer, the file read back).
 */
#include "../fuzz/fuzz-compressed.c"

#include "fuzz-replay.h"

static void one(const uint8_t *d, size_t size)
{
	LLVMFuzzerTestOneInput(d, size);
}

static void test_compressed_inputs(void)
{
	int n;

	LLVMFuzzerInitialize(NULL, NULL);
	n = fuzz_replay("comp", one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.comp");
}

TEST_MAIN(TEST(compressed_inputs));
