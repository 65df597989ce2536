/* SPDX-License-Identifier: MIT */
/*
 * A tiny unit-test harness.  Each tests/unit/test-<module>.c is one binary:
 *
 *	static void test_addf(void) { ...; TEST_EQ(sb.len, 3); }
 *	TEST_MAIN(TEST(addf), TEST(grow));
 *
 * Every case prints one line, "ok - <suite>: <case>", "FAIL - ..." (with the
 * failed check, its operands and location) or "skip - ...: <reason>".  A
 * failed check ends its case.  The binary exits 1 if any case failed.
 */
#ifndef PRISM_TEST_H
#define PRISM_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct test_case {
	const char *name;
	void (*fn)(void);
};

#define TEST(name)                 \
	{                          \
#name, test_##name \
	}

int test_run_all(const char *suite, const struct test_case *cases, size_t n);

#define TEST_MAIN(...)                                                                  \
	int main(void)                                                                  \
	{                                                                               \
		static const struct test_case cases[] = { __VA_ARGS__ };                \
		return test_run_all(__FILE__, cases, sizeof(cases) / sizeof(cases[0])); \
	}

/* state of the running case */
extern int test_failed;
extern const char *test_skip_reason;
void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* directory of test data (tests/data), from $PRISM_SRC or the cwd */
const char *test_data_path(const char *name);
/* ../shared/fixtures path, or NULL if not present */
const char *test_fixture_path(const char *name);

#define TEST_FAIL(...)                                      \
	do {                                                \
		test_fail(__FILE__, __LINE__, __VA_ARGS__); \
		return;                                     \
	} while (0)

#define TEST_TRUE(c)                                  \
	do {                                          \
		if (!(c))                             \
			TEST_FAIL("expected %s", #c); \
	} while (0)

#define TEST_EQ(a, b)                                                               \
	do {                                                                        \
		intmax_t a_ = (intmax_t)(a), b_ = (intmax_t)(b);                    \
		if (a_ != b_)                                                       \
			TEST_FAIL("expected %s == %s: %jd != %jd", #a, #b, a_, b_); \
	} while (0)

#define TEST_EQ_U64(a, b)                                                                          \
	do {                                                                                       \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                   \
		if (a_ != b_)                                                                      \
			TEST_FAIL("expected %s == %s: %#" PRIx64 " != %#" PRIx64, #a, #b, a_, b_); \
	} while (0)

#define TEST_STREQ(a, b)                                                         \
	do {                                                                     \
		const char *a_ = (a), *b_ = (b);                                 \
		if (!a_ || !b_ || strcmp(a_, b_))                                \
			TEST_FAIL("expected %s == %s: \"%s\" != \"%s\"", #a, #b, \
				  a_ ? a_ : "(null)", b_ ? b_ : "(null)");       \
	} while (0)

#define TEST_MEMEQ(a, b, n)                                                                \
	do {                                                                               \
		if (memcmp((a), (b), (n)))                                                 \
			TEST_FAIL("expected %s and %s to have the same %zu bytes", #a, #b, \
				  (size_t)(n));                                            \
	} while (0)

#define TEST_SKIP(reason)                    \
	do {                                 \
		test_skip_reason = (reason); \
		return;                      \
	} while (0)

/* xorshift64 from a fixed seed: every run of a test sees the same values */
static inline uint64_t rnd(void)
{
	static uint64_t x = 0x9e3779b97f4a7c15ull;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

#endif /* PRISM_TEST_H */
