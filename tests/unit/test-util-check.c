// SPDX-License-Identifier: MIT
/*
 * The accounting check's file section (PRISM_FEAT_UTIL_CHECK): what
 * prism_util_check__save() writes, prism_util_check__load() reads back, in
 * either byte order; damaged sections are refused whole.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/strbuf.h>
#include <prism/util-check.h>

#include "test.h"

/* a check of this process's threads, the workload and end set */
static struct prism_util_check *sample_check(void)
{
	struct prism_util_check *k = prism_util_check__new();
	int64_t pid = getpid();
	volatile uint64_t spin = 0;
	int i;

	if (!k)
		return NULL;
	if (prism_util_check__read(k, false, &pid, 1)) {
		prism_util_check__free(k);
		return NULL;
	}
	for (i = 0; i < 1000000; i++)
		spin += (uint64_t)i;
	prism_util_check__read(k, true, &pid, 1);
	prism_util_check__set_workload(k, 123456789, 42);
	prism_util_check__set_end(k, 987654321012ULL);
	return k;
}

static void test_round_trip(void)
{
	struct prism_strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct prism_util_check *k = sample_check(), *l = prism_util_check__new();
	uint64_t ns = 0;

	if (!k && access("/proc/self/schedstat", R_OK)) {
		test_skip_reason = "no /proc/PID/schedstat";
		prism_util_check__free(l);
		return;
	}
	TEST_TRUE(k && l);
	TEST_EQ(prism_util_check__nr_tasks(k), 1);
	TEST_EQ(prism_util_check__save(k, &a), 0);
	TEST_EQ(a.len, 48 + 40);
	TEST_EQ(prism_util_check__load(l, a.buf, a.len), 0);
	TEST_EQ(prism_util_check__nr_tasks(l), 1);
	TEST_TRUE(prism_util_check__has_workload(l, &ns));
	TEST_EQ(ns, 123456789);
	TEST_EQ(prism_util_check__end(l), 987654321012ULL);
	TEST_EQ(prism_util_check__save(l, &b), 0);
	TEST_EQ(b.len, a.len);
	TEST_TRUE(!memcmp(a.buf, b.buf, a.len));
	prism_strbuf_release(&a);
	prism_strbuf_release(&b);
	prism_util_check__free(k);
	prism_util_check__free(l);
}

/* a field of @width bytes (4 or 8) at @p, byte-swapped in place */
static void swap_field(uint8_t *p, size_t width)
{
	uint32_t v32;
	uint64_t v64;

	if (width == 4) {
		memcpy(&v32, p, 4);
		v32 = bswap_32(v32);
		memcpy(p, &v32, 4);
	} else {
		memcpy(&v64, p, 8);
		v64 = bswap_64(v64);
		memcpy(p, &v64, 8);
	}
}

/* the section as a writer of the other byte order wrote it */
static void swap_section(uint8_t *p, size_t len)
{
	static const uint8_t head[] = { 4, 4, 4, 4, 8, 8, 4, 4 }; /* from offset 8 */
	static const uint8_t entry[] = { 4, 4, 8, 8 }; /* then comm[16] */
	size_t off = 8, i, e;

	for (i = 0; i < sizeof(head); off += head[i++])
		swap_field(p + off, head[i]);
	for (e = 48; e + 40 <= len; e += 40)
		for (i = 0, off = e; i < sizeof(entry); off += entry[i++])
			swap_field(p + off, entry[i]);
}

static void test_other_byte_order(void)
{
	struct prism_strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct prism_util_check *k = sample_check(), *l = prism_util_check__new();
	uint8_t *copy;

	if (!k) {
		test_skip_reason = "no /proc/PID/schedstat";
		prism_util_check__free(l);
		return;
	}
	TEST_TRUE(l);
	TEST_EQ(prism_util_check__save(k, &a), 0);
	copy = malloc(a.len);
	TEST_TRUE(copy);
	memcpy(copy, a.buf, a.len);
	swap_section(copy, a.len);
	TEST_TRUE(memcmp(copy, a.buf, a.len) != 0);
	TEST_EQ(prism_util_check__load(l, copy, a.len), 0);
	TEST_EQ(prism_util_check__save(l, &b), 0);
	TEST_EQ(b.len, a.len);
	TEST_TRUE(!memcmp(a.buf, b.buf, a.len));
	free(copy);
	prism_strbuf_release(&a);
	prism_strbuf_release(&b);
	prism_util_check__free(k);
	prism_util_check__free(l);
}

static void test_damaged_sections_are_refused(void)
{
	struct prism_strbuf a = STRBUF_INIT;
	struct prism_util_check *k = sample_check(), *l = prism_util_check__new();
	uint8_t *copy;
	uint32_t v;
	size_t n;

	if (!k) {
		test_skip_reason = "no /proc/PID/schedstat";
		prism_util_check__free(l);
		return;
	}
	TEST_TRUE(l);
	TEST_EQ(prism_util_check__save(k, &a), 0);
	/* every cut: refused, and the check left empty */
	for (n = 0; n < a.len; n++) {
		TEST_EQ(prism_util_check__load(l, a.buf, n), -EINVAL);
		TEST_EQ(prism_util_check__nr_tasks(l), 0);
		TEST_TRUE(!prism_util_check__has_workload(l, NULL));
	}
	TEST_EQ(prism_util_check__load(l, NULL, 0), -EINVAL);
	copy = malloc(a.len);
	TEST_TRUE(copy);
	/* another tag, another version, an order word that is neither */
	memcpy(copy, a.buf, a.len);
	copy[0] = 'X';
	TEST_EQ(prism_util_check__load(l, copy, a.len), -EINVAL);
	memcpy(copy, a.buf, a.len);
	v = 2;
	memcpy(copy + 12, &v, 4);
	TEST_EQ(prism_util_check__load(l, copy, a.len), -EINVAL);
	memcpy(copy, a.buf, a.len);
	v = 0x01020305;
	memcpy(copy + 8, &v, 4);
	TEST_EQ(prism_util_check__load(l, copy, a.len), -EINVAL);
	/* a task count far beyond the bytes (no allocation of it is attempted) */
	memcpy(copy, a.buf, a.len);
	v = UINT32_MAX;
	memcpy(copy + 16, &v, 4);
	TEST_EQ(prism_util_check__load(l, copy, a.len), -EINVAL);
	/* trailing bytes beyond the entries are tolerated (a later version's) */
	TEST_EQ(prism_util_check__load(l, a.buf, a.len), 0);
	free(copy);
	prism_strbuf_release(&a);
	prism_util_check__free(k);
	prism_util_check__free(l);
}

TEST_MAIN(TEST(round_trip), TEST(other_byte_order), TEST(damaged_sections_are_refused));
