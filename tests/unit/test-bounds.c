// SPDX-License-Identifier: MIT
/*
 * range_ok()/span_ok() (lib/internal.h) at the edges where 'off + len <= size'
 * wraps, and prism_note_build_id() (lib/elf-note.c) on notes whose sizes
 * would wrap a 32-bit padding.
 */
#include <stdint.h>

#include "internal.h"
#include "test.h"

static void test_range_ok_zero(void)
{
	TEST_TRUE(range_ok(0, 0, 0));
	TEST_TRUE(!range_ok(0, 1, 0));
	TEST_TRUE(!range_ok(1, 0, 0));
	TEST_TRUE(range_ok(8, 0, 8)); /* an empty range at the very end */
	TEST_TRUE(!range_ok(9, 0, 8));
	TEST_TRUE(range_ok(0, 8, 8));
	TEST_TRUE(range_ok(4, 4, 8));
	TEST_TRUE(!range_ok(4, 5, 8));
}

static void test_range_ok_max(void)
{
	TEST_TRUE(range_ok(0, UINT64_MAX, UINT64_MAX));
	TEST_TRUE(range_ok(UINT64_MAX, 0, UINT64_MAX));
	TEST_TRUE(!range_ok(UINT64_MAX, 1, UINT64_MAX));
	TEST_TRUE(range_ok(UINT64_MAX - 8, 8, UINT64_MAX));
	TEST_TRUE(!range_ok(UINT64_MAX - 8, 9, UINT64_MAX));
	/* the sums that wrap to small numbers and fooled 'off + len <= size' */
	TEST_TRUE(!range_ok(8, UINT64_MAX, 4096));
	TEST_TRUE(!range_ok(UINT64_MAX, 2, 4096));
	TEST_TRUE(!range_ok(UINT64_MAX - 7, 8, 4096));
	TEST_TRUE(!range_ok(1, UINT64_MAX, UINT64_MAX));
}

static void test_span_ok(void)
{
	const uint64_t sp = 0x7ffc0000ull, size = 8192;

	TEST_TRUE(span_ok(sp, 8, sp, size));
	TEST_TRUE(span_ok(sp + size - 8, 8, sp, size));
	TEST_TRUE(!span_ok(sp + size - 7, 8, sp, size));
	TEST_TRUE(!span_ok(sp - 1, 8, sp, size)); /* below the base */
	/* issue #20: libdw asked for the word at 0xfffffffffffffff8 */
	TEST_TRUE(!span_ok(0xfffffffffffffff8ull, 8, sp, size));
	TEST_TRUE(!span_ok(UINT64_MAX, 1, sp, size));
	TEST_TRUE(!span_ok(sp, UINT64_MAX, sp, size));
	/* a base near the top: lo + size itself would wrap */
	TEST_TRUE(span_ok(UINT64_MAX - 15, 8, UINT64_MAX - 15, 16));
	TEST_TRUE(span_ok(UINT64_MAX - 7, 8, UINT64_MAX - 15, 16));
	TEST_TRUE(!span_ok(UINT64_MAX - 7, 9, UINT64_MAX - 15, 16));
	TEST_TRUE(!span_ok(0, 8, UINT64_MAX - 15, 16));
	/* edges at 0 and the whole space */
	TEST_TRUE(span_ok(0, 0, 0, 0));
	TEST_TRUE(!span_ok(0, 1, 0, 0));
	TEST_TRUE(span_ok(0, UINT64_MAX, 0, UINT64_MAX));
	TEST_TRUE(span_ok(UINT64_MAX, 0, 0, UINT64_MAX));
}

/* one note: namesz, descsz, type, "GNU\0", descriptor */
static size_t put_note(uint8_t *p, uint32_t namesz, uint32_t descsz, uint32_t type)
{
	memcpy(p, &namesz, 4);
	memcpy(p + 4, &descsz, 4);
	memcpy(p + 8, &type, 4);
	memcpy(p + 12, "GNU", 4);
	return 16;
}

static void test_note_build_id(void)
{
	uint8_t buf[64] = { 0 }, id[20];
	size_t n, len = 0;

	n = put_note(buf, 4, 20, 3);
	memset(buf + n, 0xab, 20);
	TEST_EQ(prism_note_build_id(buf, n + 20, id, sizeof(id), &len), 0);
	TEST_EQ(len, 20);
	TEST_EQ(id[19], 0xab);
	/* descriptor one byte short of the block */
	TEST_EQ(prism_note_build_id(buf, n + 19, id, sizeof(id), &len), -ENOENT);
	/* a longer descriptor is cut to @max */
	TEST_EQ(prism_note_build_id(buf, n + 20, id, 8, &len), 0);
	TEST_EQ(len, 8);
	/* sizes whose 32-bit padding wraps to 0 must not be taken as empty */
	put_note(buf, UINT32_MAX, 20, 3);
	TEST_EQ(prism_note_build_id(buf, sizeof(buf), id, sizeof(id), &len), -ENOENT);
	put_note(buf, 4, UINT32_MAX - 1, 3);
	TEST_EQ(prism_note_build_id(buf, sizeof(buf), id, sizeof(id), &len), -ENOENT);
	TEST_EQ(prism_note_build_id(buf, 11, id, sizeof(id), &len), -ENOENT);
	TEST_EQ(prism_note_build_id(buf, 0, id, sizeof(id), &len), -ENOENT);
}

TEST_MAIN(TEST(range_ok_zero), TEST(range_ok_max), TEST(span_ok), TEST(note_build_id));
