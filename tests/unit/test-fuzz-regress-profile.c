// SPDX-License-Identifier: MIT
/*
 * Replays tests/data/fuzz-regress/NAME.data through fuzz-profile (the
 * report path: symbols, call chains, profile, graphs, folded, flame graph)
 * in each of its 16 modes.
 */
#include "../fuzz/fuzz-profile.c"

#include "fuzz-replay.h"

static void all_modes(const uint8_t *d, size_t size)
{
	for (forced_mode = 0; forced_mode < 16; forced_mode++)
		LLVMFuzzerTestOneInput(d, size);
	forced_mode = -1;
}

static void test_profile_inputs(void)
{
	int n;

	LLVMFuzzerInitialize(NULL, NULL);
	n = fuzz_replay("data", all_modes);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.data");
}

TEST_MAIN(TEST(profile_inputs));
