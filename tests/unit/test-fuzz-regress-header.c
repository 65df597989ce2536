// SPDX-License-Identifier: MIT
/*
 * Replays tests/data/fuzz-regress/NAME.feats (feature-section lists) and
 * NAME.data (whole files) through fuzz-header (feature decoders, printers,
 * build ids).
 */
#include "../fuzz/fuzz-header.c"

#include "fuzz-replay.h"

static void one(const uint8_t *d, size_t size)
{
	LLVMFuzzerTestOneInput(d, size);
}

static void test_header_inputs(void)
{
	int n, m;

	LLVMFuzzerInitialize(NULL, NULL);
	n = fuzz_replay("feats", one);
	m = fuzz_replay("data", one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0 && m >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.feats");
}

TEST_MAIN(TEST(header_inputs));
