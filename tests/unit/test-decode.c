// SPDX-License-Identifier: MIT
/*
 * Typed record bodies: MMAP2 in the current layout and in the layout of
 * Linux 3.12-3.15 / RHEL 7 (no prot and flags, the name at record offset
 * 0x40), told apart in either byte order; bodies without their string's
 * NUL are refused.
 */
#include <sys/mman.h>

#include <prism/error.h>

#include "event/parse.h"
#include "test.h"

#define TRAILER 16 /* sample_id: TID + TIME */

static uint64_t rec[32];

/*
 * An MMAP2 record of pid 42 at 0x1000 naming @name at record offset
 * @name_at (0x48 current, 0x40 RHEL 7), padded to 8 as the kernel does,
 * then a 16-byte trailer.  Return: the size up to the trailer.
 */
static size_t mmap2(const char *name, size_t name_at)
{
	struct perf_event_header *h = (void *)rec;
	uint8_t *b = (uint8_t *)rec;
	size_t len = strlen(name), end = name_at + ((len + 8) & ~7ul);
	uint32_t prot = PROT_READ | PROT_EXEC, flags = MAP_PRIVATE;

	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_MMAP2;
	h->size = (uint16_t)(end + TRAILER);
	memcpy(b + 8, &(uint32_t){ 42 }, 4);
	memcpy(b + 16, &(uint64_t){ 0x1000 }, 8);
	if (name_at == 0x48) {
		memcpy(b + 0x40, &prot, 4);
		memcpy(b + 0x44, &flags, 4);
	}
	memcpy(b + name_at, name, len);
	memset(b + end, 0xee, TRAILER); /* a trailer without NUL bytes */
	return end;
}

static int decode(struct prism_event *ev, size_t body_end)
{
	memset(ev, 0, sizeof(*ev));
	ev->raw = (const void *)rec;
	ev->type = PERF_RECORD_MMAP2;
	return prism_event__decode(ev, NULL, body_end);
}

static void test_mmap2_current(void)
{
	struct prism_event ev;

	TEST_EQ(decode(&ev, mmap2("/usr/lib64/libc-2.17.so", 0x48)), 0);
	TEST_STREQ(ev.mmap.filename, "/usr/lib64/libc-2.17.so");
	TEST_EQ(ev.mmap.prot, PROT_READ | PROT_EXEC);
	TEST_EQ(ev.mmap.flags, MAP_PRIVATE);
	TEST_TRUE(!ev.mmap.no_prot);
	TEST_EQ(ev.mmap.pid, 42);
}

/* the 88-byte record of the issue: too short for a name in the current layout */
static void test_mmap2_rhel7_anon(void)
{
	struct prism_event ev;
	size_t end = mmap2("//anon", 0x40);

	TEST_EQ(end + TRAILER, 88);
	TEST_EQ(decode(&ev, end), 0);
	TEST_STREQ(ev.mmap.filename, "//anon");
	TEST_TRUE(ev.mmap.no_prot);
	TEST_EQ(ev.mmap.prot, 0);
	TEST_EQ_U64(ev.mmap.start, 0x1000);
}

/* a long name fits both layouts by size: its first byte tells */
static void test_mmap2_rhel7_long(void)
{
	struct prism_event ev;

	TEST_EQ(decode(&ev, mmap2("/usr/lib64/libc-2.17.so", 0x40)), 0);
	TEST_STREQ(ev.mmap.filename, "/usr/lib64/libc-2.17.so");
	TEST_TRUE(ev.mmap.no_prot);
}

/* raw bytes of a big-endian writer: prot 5 is 00 00 00 05 */
static void test_mmap2_layout_either_order(void)
{
	uint8_t body[72] = { 0 };

	body[59] = PROT_READ | PROT_EXEC;
	body[63] = MAP_PRIVATE;
	memcpy(body + 64, "[vdso]", 6);
	TEST_TRUE(!prism_mmap2__without_prot(body, sizeof(body)));
	body[56] = PROT_READ | PROT_EXEC; /* little endian */
	body[59] = 0;
	TEST_TRUE(!prism_mmap2__without_prot(body, sizeof(body)));
	memcpy(body + 56, "[vdso]\0\0", 8);
	TEST_TRUE(prism_mmap2__without_prot(body, 64));
}

static void test_mmap2_no_nul(void)
{
	struct prism_event ev;
	size_t end = mmap2("[vdso]", 0x48);

	memset((uint8_t *)rec + 0x48, 'X', end - 0x48);
	TEST_EQ(decode(&ev, end), -PRISM_E_BAD_RECORD);
	end = mmap2("[vdso]", 0x40);
	memset((uint8_t *)rec + 0x40, 'X', end - 0x40);
	TEST_EQ(decode(&ev, end), -PRISM_E_BAD_RECORD);
}

TEST_MAIN(TEST(mmap2_current), TEST(mmap2_rhel7_anon), TEST(mmap2_rhel7_long),
	  TEST(mmap2_layout_either_order), TEST(mmap2_no_nul));
