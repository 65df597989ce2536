// SPDX-License-Identifier: MIT
/*
 * cmd/linebuf.h: the put_*() number writers of the big text outputs write
 * exactly what the printf format in their comment would.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/linebuf.h"
#include "test.h"

/* put_fixed1(@v, @width) against snprintf("%*.1f"); false (said) when they differ */
static bool fixed1_ok(double v, size_t width)
{
	char got[64], want[64];

	*put_fixed1(got, v, width) = '\0';
	snprintf(want, sizeof(want), "%*.1f", (int)width, v);
	if (!strcmp(got, want))
		return true;
	test_fail(__FILE__, __LINE__, "put_fixed1(%.17g, %zu) = '%s', printf '%s'", v, width, got,
		  want);
	return false;
}

static void test_fixed1(void)
{
	static const double odd[] = { 0,     0.05,     0.15,	  0.25,	       0.35, 0.45,
				      99.95, 100,      100.05,	  1e-300,      -0.0, -0.04,
				      -1.25, 12345.65, 999999.95, 1e11 + 0.05, 1e13, 2e19 };
	size_t i, k;

	/* utilization percentages: 100 * part / whole */
	for (i = 0; i < 300000; i++) {
		uint64_t whole = 1 + rnd() % (i % 3 == 0 ? 1000 :
					      i % 3 == 1 ? 3000000000ull :
							   1ull << 40);
		uint64_t part = rnd() % (whole + whole / 50 + 1);

		if (!fixed1_ok(100.0 * (double)part / (double)whole, 6))
			return;
	}
	/* every tie up to 110, and around them */
	for (k = 0; k <= 22000; k++) {
		double v = (double)k / 200;

		if (!fixed1_ok(v, 6) || !fixed1_ok(nextafter(v, 0), 6) ||
		    !fixed1_ok(nextafter(v, 1000), 0))
			return;
	}
	for (i = 0; i < PRISM_ARRAY_SIZE(odd); i++)
		if (!fixed1_ok(odd[i], 6) || !fixed1_ok(odd[i], 0) || !fixed1_ok(odd[i], 16))
			return;
	TEST_TRUE(fixed1_ok(NAN, 6));
	TEST_TRUE(fixed1_ok(INFINITY, 6));
	TEST_TRUE(fixed1_ok(12.34, 20)); /* wider than put_fixed1 pads itself */
}

static void test_integers(void)
{
	char got[64], want[64];
	size_t i;

	for (i = 0; i < 200000; i++) {
		uint64_t v = rnd() >> (rnd() % 64);
		size_t width = i % 13;

		*put_udec(got, v, width, ' ') = '\0';
		snprintf(want, sizeof(want), "%*" PRIu64, (int)width, v);
		if (strcmp(got, want))
			TEST_FAIL("put_udec(%" PRIu64 ", %zu) = '%s', printf '%s'", v, width, got,
				  want);
		*put_udec(got, v, width, '0') = '\0';
		snprintf(want, sizeof(want), "%0*" PRIu64, (int)width, v);
		if (strcmp(got, want))
			TEST_FAIL("put_udec(%" PRIu64 ", %zu, '0') = '%s', printf '%s'", v, width,
				  got, want);
		*put_hex(got, v, width) = '\0';
		snprintf(want, sizeof(want), "%*" PRIx64, (int)width, v);
		if (strcmp(got, want))
			TEST_FAIL("put_hex(%" PRIx64 ", %zu) = '%s', printf '%s'", v, width, got,
				  want);
		memset(got, 0, sizeof(got));
		put_digits6(got, (uint32_t)(v % 1000000));
		snprintf(want, sizeof(want), "%06" PRIu64, v % 1000000);
		if (strcmp(got, want))
			TEST_FAIL("put_digits6(%" PRIu64 ") = '%s'", v % 1000000, got);
	}
}

TEST_MAIN(TEST(fixed1), TEST(integers));
