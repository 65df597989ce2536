// SPDX-License-Identifier: MIT
/*
 * lib/pt/decode-poke.c: TEXT_POKE records kept in time order (kernel ones
 * with bytes only), their new bytes laid over the code a queue reads from
 * their time on (a later change over an earlier one), and the pieces of a
 * mapping without the pages changed (libipt's cached sections).  t1028
 * decodes a trace over a changed kernel function against perf.
 */
#include <stdlib.h>
#include <string.h>

#include <prism/event.h>

#include "pt/decode.h"
#include "test.h"

#define K 0xffffffff81000000ull

static int add(struct prism_pt_decoder *d, uint16_t misc, uint64_t time, uint64_t addr,
	       const char *bytes)
{
	struct perf_event_header h = { .type = PERF_RECORD_TEXT_POKE, .misc = misc };
	struct prism_event ev = { .raw = &h, .type = PERF_RECORD_TEXT_POKE };

	ev.sample.time = time;
	ev.poke.addr = addr;
	ev.poke.new_len = (uint16_t)strlen(bytes);
	ev.poke.new_bytes = (const uint8_t *)bytes;
	return pt_poke_add(d, &ev);
}

static void test_order(void)
{
	struct prism_pt_decoder d;

	memset(&d, 0, sizeof(d));
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 300, K + 0x10, "ccc"), 0);
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 100, K + 0x10, "aaaa"), 0);
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 200, K + 0x12, "bb"), 0);
	/* a user-space poke and one without bytes change nothing */
	TEST_EQ(add(&d, PERF_RECORD_MISC_USER, 150, 0x1000, "x"), 0);
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 150, K, ""), 0);
	TEST_EQ(d.nr_pokes, 3);
	TEST_EQ_U64(d.pokes[0]->time, 100);
	TEST_EQ_U64(d.pokes[1]->time, 200);
	TEST_EQ_U64(d.pokes[2]->time, 300);
	TEST_TRUE(pt_poked(&d, K + 0x13, K + 0x14));
	TEST_TRUE(!pt_poked(&d, K + 0x14, K + 0x20));
	TEST_TRUE(!pt_poked(&d, K, K + 0x10));
	pt_poke_free(&d);
	TEST_EQ(d.nr_pokes, 0);
}

static void test_read(void)
{
	struct prism_pt_decoder d;
	struct queue q;
	uint8_t buf[8];

	memset(&d, 0, sizeof(d));
	memset(&q, 0, sizeof(q));
	q.d = &d;
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 100, K + 2, "aaaa"), 0);
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 200, K + 4, "bbbb"), 0);
	/* before the first change: the file's bytes */
	q.time = 99;
	memcpy(buf, "........", 8);
	pt_poke_read(&q, K, buf, 8);
	TEST_TRUE(!memcmp(buf, "........", 8));
	/* from its time on */
	q.time = 100;
	pt_poke_read(&q, K, buf, 8);
	TEST_TRUE(!memcmp(buf, "..aaaa..", 8));
	/* the later change over the earlier */
	memcpy(buf, "........", 8);
	q.time = 500;
	pt_poke_read(&q, K, buf, 8);
	TEST_TRUE(!memcmp(buf, "..aabbbb", 8));
	/* a read that starts inside a change, and one that ends inside it */
	memcpy(buf, "....", 4);
	pt_poke_read(&q, K + 5, buf, 4);
	TEST_TRUE(!memcmp(buf, "bbb.", 4));
	memcpy(buf, "....", 4);
	pt_poke_read(&q, K, buf, 3);
	TEST_TRUE(!memcmp(buf, "..a.", 4));
	pt_poke_free(&d);
}

struct pieces {
	uint64_t lo[8], hi[8];
	size_t n;
};

static void piece(void *ctx, uint64_t lo, uint64_t hi)
{
	struct pieces *p = ctx;

	if (p->n < 8) {
		p->lo[p->n] = lo;
		p->hi[p->n] = hi;
	}
	p->n++;
}

static void test_split(void)
{
	struct prism_pt_decoder d;
	struct pieces p = { .n = 0 };

	memset(&d, 0, sizeof(d));
	/* no change: the whole range */
	pt_poke_split(&d, K, K + 0x5000, piece, &p);
	TEST_EQ(p.n, 1);
	TEST_EQ_U64(p.lo[0], K);
	TEST_EQ_U64(p.hi[0], K + 0x5000);
	/* changes in page 1, across pages 3-4, and in the last page of the range */
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 1, K + 0x3ffe, "abcd"), 0);
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 2, K + 0x1010, "ab"), 0);
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 3, K + 0x5ff0, "ab"), 0);
	p.n = 0;
	pt_poke_split(&d, K, K + 0x6000, piece, &p);
	TEST_EQ(p.n, 2);
	TEST_EQ_U64(p.lo[0], K);
	TEST_EQ_U64(p.hi[0], K + 0x1000);
	TEST_EQ_U64(p.lo[1], K + 0x2000);
	TEST_EQ_U64(p.hi[1], K + 0x3000);
	/* a range inside a changed page: nothing */
	p.n = 0;
	pt_poke_split(&d, K + 0x1100, K + 0x1200, piece, &p);
	TEST_EQ(p.n, 0);
	/* a change in the last page of the address space */
	TEST_EQ(add(&d, PERF_RECORD_MISC_KERNEL, 4, 0xfffffffffffffff0ull, "ab"), 0);
	p.n = 0;
	pt_poke_split(&d, 0xffffffffffffe000ull, 0xfffffffffffff800ull, piece, &p);
	TEST_EQ(p.n, 1);
	TEST_EQ_U64(p.hi[0], 0xfffffffffffff000ull);
	pt_poke_free(&d);
}

TEST_MAIN(TEST(order), TEST(read), TEST(split));
