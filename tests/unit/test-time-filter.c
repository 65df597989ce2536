// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdint.h>

#include <prism/time-filter.h>

#include "test.h"

#define S 1000000000ull

static int parse(struct prism_time_filter *tf, const char *s)
{
	const char *why;
	int err = prism_time_filter__parse(tf, s, 0, 0, &why);

	return err && !why ? -999 : err; /* an error always says why */
}

static void test_window(void)
{
	struct prism_time_filter tf = { 0 };

	TEST_EQ(parse(&tf, "603.131100,603.131100842"), 0);
	TEST_EQ(tf.nr, 1);
	TEST_EQ(tf.v[0].start, 603 * S + 131100000);
	TEST_EQ(tf.v[0].end, 603 * S + 131100842);
	/* perf: the end is inclusive to the ns, not to the precision given */
	TEST_TRUE(!prism_time_filter__skip(&tf, 603 * S + 131100842));
	TEST_TRUE(prism_time_filter__skip(&tf, 603 * S + 131100843));
	TEST_TRUE(prism_time_filter__skip(&tf, 603 * S + 131099999));
	TEST_TRUE(!prism_time_filter__skip(&tf, 0)); /* no time: kept */
	prism_time_filter__release(&tf);

	TEST_EQ(parse(&tf, ",1.5"), 0); /* open start */
	TEST_EQ(tf.v[0].start, 0);
	TEST_EQ(tf.v[0].end, 1500000000ull);
	TEST_TRUE(!prism_time_filter__skip(&tf, 1));
	TEST_TRUE(prism_time_filter__skip(&tf, 1500000001ull));
	prism_time_filter__release(&tf);

	TEST_EQ(parse(&tf, "2."), -EINVAL); /* no comma */
	TEST_EQ(parse(&tf, "2.,"), 0); /* open end */
	TEST_EQ(tf.v[0].start, 2 * S);
	TEST_EQ(tf.v[0].end, 0);
	TEST_TRUE(!prism_time_filter__skip(&tf, UINT64_MAX));
	TEST_TRUE(prism_time_filter__skip(&tf, 2 * S - 1));
	prism_time_filter__release(&tf);

	TEST_EQ(parse(&tf, ".000000001,3,"), -EINVAL); /* two commas in a window */
	TEST_EQ(parse(&tf, "3,3"), 0); /* one instant */
	prism_time_filter__release(&tf);
}

static void test_bad(void)
{
	struct prism_time_filter tf = { 0 };
	const char *why;

	TEST_EQ(prism_time_filter__parse(&tf, "5,3", 0, 0, &why), -EINVAL);
	TEST_STREQ(why, "the end is before the start");
	TEST_EQ(parse(&tf, ""), -EINVAL);
	TEST_EQ(parse(&tf, "x,1"), -EINVAL);
	TEST_EQ(parse(&tf, "1e3,"), -EINVAL);
	TEST_EQ(parse(&tf, "-1,"), -EINVAL);
	TEST_EQ(parse(&tf, "1.1234567891,"), -EINVAL); /* 10 decimals */
	TEST_EQ(parse(&tf, "1.123456789,"), 0);
	prism_time_filter__release(&tf);
	TEST_EQ(parse(&tf, ".,"), -EINVAL);
	TEST_EQ(parse(&tf, "99999999999999999999,"), -EINVAL); /* too big */
	TEST_TRUE(tf.v == NULL && tf.nr == 0);
}

/* several windows, separated by blanks, ascending */
static void test_windows(void)
{
	struct prism_time_filter tf = { 0 };

	TEST_EQ(parse(&tf, " 1,2  3,4\t5,"), 0);
	TEST_EQ(tf.nr, 3);
	TEST_TRUE(!prism_time_filter__skip(&tf, 1 * S));
	TEST_TRUE(!prism_time_filter__skip(&tf, 2 * S));
	TEST_TRUE(prism_time_filter__skip(&tf, 2 * S + 1));
	TEST_TRUE(prism_time_filter__skip(&tf, S - 1));
	TEST_TRUE(!prism_time_filter__skip(&tf, 3 * S + 7));
	TEST_TRUE(prism_time_filter__skip(&tf, 4 * S + 7));
	TEST_TRUE(!prism_time_filter__skip(&tf, 50 * S));
	prism_time_filter__release(&tf);

	TEST_EQ(parse(&tf, "1,3 2,4"), -EINVAL); /* overlap */
	TEST_EQ(parse(&tf, "3,4 1,2"), -EINVAL); /* descending */
	TEST_EQ(parse(&tf, "1,2 2,4"), -EINVAL); /* perf: an end equal to the next start */
}

static void test_percent(void)
{
	struct prism_time_filter tf = { 0 };
	const char *why;
	uint64_t first = 100 * S, last = 110 * S;

	TEST_TRUE(prism_time_filter__percent("10%/2"));
	TEST_TRUE(!prism_time_filter__percent("1,2"));
	TEST_EQ(prism_time_filter__parse(&tf, "10%/2", 0, 0, &why), -ENODATA);

	TEST_EQ(prism_time_filter__parse(&tf, "10%/2", first, last, &why), 0);
	TEST_EQ(tf.nr, 1);
	TEST_EQ(tf.v[0].start, 101 * S);
	TEST_EQ(tf.v[0].end, 102 * S - 1); /* perf: one ns short of the next slice */
	prism_time_filter__release(&tf);

	TEST_EQ(prism_time_filter__parse(&tf, "0%-10%,90%-100%", first, last, &why), 0);
	TEST_EQ(tf.nr, 2);
	TEST_EQ(tf.v[0].start, first);
	TEST_EQ(tf.v[0].end, 101 * S - 1);
	TEST_EQ(tf.v[1].start, 109 * S);
	TEST_EQ(tf.v[1].end, last); /* the last slice keeps the last sample */
	TEST_TRUE(!prism_time_filter__skip(&tf, first));
	TEST_TRUE(prism_time_filter__skip(&tf, 105 * S));
	TEST_TRUE(!prism_time_filter__skip(&tf, last));
	prism_time_filter__release(&tf);

	TEST_EQ(prism_time_filter__parse(&tf, "50%", first, last, &why), 0);
	TEST_EQ(tf.v[0].start, first);
	TEST_EQ(tf.v[0].end, 105 * S - 1);
	prism_time_filter__release(&tf);

	TEST_EQ(prism_time_filter__parse(&tf, "10%/11", first, last, &why), -EINVAL);
	TEST_EQ(prism_time_filter__parse(&tf, "0%/1", first, last, &why), -EINVAL);
	TEST_EQ(prism_time_filter__parse(&tf, "20%-120%", first, last, &why), -EINVAL);
	TEST_EQ(prism_time_filter__parse(&tf, "10%x", first, last, &why), -EINVAL);
	TEST_EQ(prism_time_filter__parse(&tf, "10%/x", first, last, &why), -EINVAL);
	TEST_EQ(prism_time_filter__parse(&tf, "nan%", first, last, &why), -EINVAL);
	TEST_EQ(prism_time_filter__parse(&tf, "10%-", first, last, &why), -EINVAL);
	TEST_TRUE(why != NULL);
}

TEST_MAIN(TEST(window), TEST(bad), TEST(windows), TEST(percent));
