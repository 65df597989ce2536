// SPDX-License-Identifier: MIT
/*
 * The RAW payload of prism's offcpu-time samples: round trip, the size
 * rule perf relies on (u32 size + payload is a multiple of 8), counters in
 * storage order, and rejection of foreign or truncated payloads.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <prism/offcpu-data.h>

#include "test.h"

static void test_roundtrip_without_stats(void)
{
	uint8_t buf[PRISM_OFFCPU_RAW_MAX];
	struct prism_offcpu_raw in = {
		.kind = PRISM_OFFCPU_KIND_BLOCK_OPEN,
		.state = 0x2,
		.count = 1,
		.ustack_err = -EEXIST,
		.kstack_err = 0,
		.start = 0x123456789abcull,
	};
	struct prism_offcpu_raw out;
	size_t n = prism_offcpu_raw__encode(buf, &in, NULL);

	TEST_EQ(n, PRISM_OFFCPU_RAW_MIN);
	TEST_EQ((4 + n) % 8, 0);
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), 0);
	TEST_EQ(out.kind, PRISM_OFFCPU_KIND_BLOCK_OPEN);
	TEST_EQ(out.state, 2);
	TEST_EQ_U64(out.count, 1);
	TEST_EQ(out.ustack_err, -EEXIST);
	TEST_EQ(out.kstack_err, 0);
	TEST_EQ_U64(out.start, 0x123456789abcull);
	TEST_TRUE(!out.has_stats);
}

static void test_roundtrip_with_stats(void)
{
	uint8_t buf[PRISM_OFFCPU_RAW_MAX];
	struct prism_offcpu_raw in = { .kind = PRISM_OFFCPU_KIND_ENTRY, .state = 1, .count = 42 };
	struct prism_offcpu_stats st;
	struct prism_offcpu_raw out;
	size_t n, i;

	memset(&st, 0, sizeof(st));
	st.switch_out = 100;
	st.ustack_collisions = 3;
	st.hash_full = 7;
	st.hash_full_ns = 123456789;
	st.unclosed = 2;
	st.stop_ns = ~0ull - 5;
	n = prism_offcpu_raw__encode(buf, &in, &st);
	TEST_EQ(n, PRISM_OFFCPU_RAW_MIN + 8 * prism_offcpu_stats__nr());
	TEST_TRUE(n <= PRISM_OFFCPU_RAW_MAX);
	TEST_EQ((4 + n) % 8, 0);
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), 0);
	TEST_TRUE(out.has_stats);
	TEST_EQ_U64(out.count, 42);
	TEST_EQ(memcmp(&out.stats, &st, sizeof(st)), 0);
	/* every counter has a name; the losses have hints */
	for (i = 0; i < prism_offcpu_stats__nr(); i++) {
		const struct prism_offcpu_stat_desc *d = prism_offcpu_stats__desc(i);

		TEST_TRUE(d && d->name && d->name[0]);
		TEST_TRUE(!d->loss || (d->hint && d->hint[0]));
	}
	TEST_TRUE(prism_offcpu_stats__desc(prism_offcpu_stats__nr()) == NULL);
	/* unknown trailing counters (a newer writer) are ignored */
	memset(buf + n, 0xee, 8);
	buf[PRISM_OFFCPU_RAW_MIN - 4] = (uint8_t)(prism_offcpu_stats__nr() + 1);
	TEST_EQ(prism_offcpu_raw__decode(buf, n + 8, &out), 0);
	TEST_EQ_U64(out.stats.hash_full, 7);
}

static void test_rejects_foreign(void)
{
	uint8_t buf[PRISM_OFFCPU_RAW_MAX];
	struct prism_offcpu_raw in = { .kind = PRISM_OFFCPU_KIND_ENTRY, .count = 1 };
	struct prism_offcpu_raw out;
	size_t n = prism_offcpu_raw__encode(buf, &in, NULL);

	TEST_EQ(prism_offcpu_raw__decode(buf, n - 1, &out), -EINVAL); /* truncated */
	TEST_EQ(prism_offcpu_raw__decode(NULL, 0, &out), -EINVAL);
	buf[0] ^= 1; /* not prism's magic: perf's own or another BPF output */
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), -EINVAL);
	buf[0] ^= 1;
	buf[4] = 9; /* unknown version */
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), -EINVAL);
	buf[4] = PRISM_OFFCPU_RAW_VERSION;
	/* a counter count larger than the payload */
	buf[PRISM_OFFCPU_RAW_MIN - 4] = 3;
	TEST_EQ(prism_offcpu_raw__decode(buf, n + 8, &out), -EINVAL);
}

/* the user state at switch-out: registers and the window at sp, after the counters */
static void test_roundtrip_ustate(void)
{
	uint8_t buf[PRISM_OFFCPU_RAW_MAX], win[40];
	struct prism_offcpu_raw in = { .kind = PRISM_OFFCPU_KIND_ENTRY, .count = 3 };
	struct prism_offcpu_stats st;
	struct prism_offcpu_raw out;
	size_t n, i;

	for (i = 0; i < sizeof(win); i++)
		win[i] = (uint8_t)(i * 7 + 1);
	memset(&st, 0, sizeof(st));
	st.copies = 9;
	in.has_ustate = true;
	in.ip = 0x7f0000001234ull;
	in.sp = 0x7ffd00000008ull;
	in.bp = 0x7ffd00000100ull;
	in.window = win;
	in.window_size = 36; /* padded to 40 */
	n = prism_offcpu_raw__encode(buf, &in, &st);
	TEST_EQ((4 + n) % 8, 0);
	TEST_TRUE(n <= PRISM_OFFCPU_RAW_MAX);
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), 0);
	TEST_TRUE(out.has_stats && out.has_ustate);
	TEST_EQ_U64(out.stats.copies, 9);
	TEST_EQ_U64(out.ip, in.ip);
	TEST_EQ_U64(out.sp, in.sp);
	TEST_EQ_U64(out.bp, in.bp);
	TEST_EQ(out.window_size, 36);
	TEST_EQ(memcmp(out.window, win, 36), 0);
	/* without counters */
	n = prism_offcpu_raw__encode(buf, &in, NULL);
	TEST_EQ((4 + n) % 8, 0);
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), 0);
	TEST_TRUE(!out.has_stats && out.has_ustate);
	TEST_EQ(out.window_size, 36);
	/* a window longer than the payload, or than the maximum, is refused */
	TEST_EQ(prism_offcpu_raw__decode(buf, n - 8, &out), -EINVAL);
	buf[PRISM_OFFCPU_RAW_MIN + 24] = PRISM_OFFCPU_WINDOW_MAX + 8;
	TEST_EQ(prism_offcpu_raw__decode(buf, sizeof(buf), &out), -EINVAL);
	/* no user state: the old layout */
	in.has_ustate = false;
	n = prism_offcpu_raw__encode(buf, &in, NULL);
	TEST_EQ(n, PRISM_OFFCPU_RAW_MIN);
	TEST_EQ(prism_offcpu_raw__decode(buf, n, &out), 0);
	TEST_TRUE(!out.has_ustate && !out.window);
}

static void test_state_names(void)
{
	TEST_STREQ(prism_offcpu_state_name(1), "S");
	TEST_STREQ(prism_offcpu_state_name(0x2001 & 0xff), "S");
	TEST_STREQ(prism_offcpu_state_name(2), "D");
	TEST_STREQ(prism_offcpu_state_name(0x102), "D"); /* TASK_KILLABLE */
	TEST_STREQ(prism_offcpu_state_name(0), "R");
	TEST_STREQ(prism_offcpu_state_name(4), "T");
	TEST_STREQ(prism_offcpu_state_name(0x40), "?");
}

TEST_MAIN(TEST(roundtrip_without_stats), TEST(roundtrip_with_stats), TEST(rejects_foreign),
	  TEST(roundtrip_ustate), TEST(state_names));
