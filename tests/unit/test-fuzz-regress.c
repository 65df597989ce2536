// SPDX-License-Identifier: MIT
/*
 * Replays the inputs under tests/data/fuzz-regress/ that once crashed, leaked
 * or hit undefined behaviour in a fuzz target, through the fuzz targets
 * themselves (compiled in here): NAME.data through fuzz-session in each of
 * its eight read modes and through fuzz-util, NAME.tp through fuzz-tp,
 * NAME.unwind through fuzz-unwind (against tests/data/elf).  A target aborts on a
 * broken invariant; the sanitizer build reports memory errors and leaks.
 */
#include <glob.h>
#include <stdlib.h>

#define LLVMFuzzerTestOneInput fuzz_session_one
#define LLVMFuzzerInitialize fuzz_session_init
#define log_cb session_log_cb
#define touch session_touch
#include "../fuzz/fuzz-session.c"
#undef LLVMFuzzerTestOneInput
#undef LLVMFuzzerInitialize
#undef log_cb
#undef touch

#define LLVMFuzzerTestOneInput fuzz_tp_one
#define LLVMFuzzerInitialize fuzz_tp_init
#define log_cb tp_log_cb
#define touch tp_touch
#define fields tp_fields_all
#include "../fuzz/fuzz-tp.c"
#undef LLVMFuzzerTestOneInput
#undef LLVMFuzzerInitialize
#undef log_cb
#undef touch
#undef fields

#define LLVMFuzzerTestOneInput fuzz_util_one
#define LLVMFuzzerInitialize fuzz_util_init
#define log_cb util_log_cb
#define touch util_touch
#define sink util_sink
#include "../fuzz/fuzz-util.c"
#undef LLVMFuzzerTestOneInput
#undef LLVMFuzzerInitialize
#undef log_cb
#undef touch
#undef sink

#define LLVMFuzzerTestOneInput fuzz_unwind_one
#define LLVMFuzzerInitialize fuzz_unwind_init
#define log_cb unwind_log_cb
#define sink unwind_sink
#define on_task unwind_on_task
#define on_sample unwind_on_sample
#define run unwind_run
#include "../fuzz/fuzz-unwind.c"
#undef LLVMFuzzerTestOneInput
#undef LLVMFuzzerInitialize
#undef log_cb
#undef sink
#undef on_task
#undef on_sample
#undef run

#include "fuzz-replay.h"

static void session_all_modes(const uint8_t *d, size_t size)
{
	for (forced_mode = 0; forced_mode < 8; forced_mode++)
		fuzz_session_one(d, size);
	forced_mode = -1;
}

static void util_one(const uint8_t *d, size_t size)
{
	fuzz_util_one(d, size);
}

static void tp_one(const uint8_t *d, size_t size)
{
	fuzz_tp_one(d, size);
}

static void test_session_inputs(void)
{
	int n;

	fuzz_session_init(NULL, NULL);
	n = fuzz_replay("data", session_all_modes);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.data");
}

static void test_util_inputs(void)
{
	int n;

	fuzz_util_init(NULL, NULL);
	n = fuzz_replay("data", util_one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.data");
}

static void test_tp_inputs(void)
{
	int n;

	fuzz_tp_init(NULL, NULL);
	n = fuzz_replay("tp", tp_one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.tp");
}

static void unwind_one(const uint8_t *d, size_t size)
{
	fuzz_unwind_one(d, size);
}

static void test_unwind_inputs(void)
{
	int n;

	setenv("PRISM_FUZZ_ELF_DIR", test_data_path("elf"), 1);
	fuzz_unwind_init(NULL, NULL);
	n = fuzz_replay("unwind", unwind_one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.unwind");
}

TEST_MAIN(TEST(session_inputs), TEST(util_inputs), TEST(tp_inputs), TEST(unwind_inputs));
