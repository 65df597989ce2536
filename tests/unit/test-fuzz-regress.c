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

#include "test.h"

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* runs @fn on every fuzz-regress input named *.@ext: the count, or -1 on I/O error */
static int replay(const char *ext, void (*fn)(const uint8_t *, size_t))
{
	char pattern[4096];
	glob_t g;
	size_t i;
	int n = 0;

	snprintf(pattern, sizeof(pattern), "%s", test_data_path("fuzz-regress/*."));
	snprintf(pattern + strlen(pattern), sizeof(pattern) - strlen(pattern), "%s", ext);
	if (glob(pattern, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc; i++) {
		size_t size = 0;
		uint8_t *d = slurp(g.gl_pathv[i], &size);

		if (!d) {
			n = -1;
			break;
		}
		fn(d, size);
		free(d);
		n++;
	}
	globfree(&g);
	return n;
}

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
	n = replay("data", session_all_modes);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.data");
}

static void test_util_inputs(void)
{
	int n;

	fuzz_util_init(NULL, NULL);
	n = replay("data", util_one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.data");
}

static void test_tp_inputs(void)
{
	int n;

	fuzz_tp_init(NULL, NULL);
	n = replay("tp", tp_one);
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
	n = replay("unwind", unwind_one);
	prism_log_set(NULL, NULL, PRISM_LOG_WARN);
	TEST_TRUE(n >= 0);
	if (!n)
		TEST_SKIP("no tests/data/fuzz-regress/*.unwind");
}

TEST_MAIN(TEST(session_inputs), TEST(util_inputs), TEST(tp_inputs), TEST(unwind_inputs));
