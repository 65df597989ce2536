// SPDX-License-Identifier: MIT
/*
 * data_src and page sizes as perf 6.1's script prints them.  The expected
 * strings are perf 6.1.192's output for the same values (t0217 compares
 * whole files with it).
 */
#include <stdint.h>
#include <stdlib.h>

#include <prism/event.h>
#include <prism/strbuf.h>

#include "test.h"

static const char *src(uint64_t v)
{
	static struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_reset(&sb);
	prism_mem_src__format(v, &sb);
	return sb.buf;
}

static void test_data_src(void)
{
	/* the example: a load that hit L1 */
	TEST_STREQ(src(0x68100142),
		   "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A");
	TEST_STREQ(src(0), "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	TEST_STREQ(src(0x5080021), "|OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A");
	TEST_STREQ(src(0x12402044),
		   "|OP STORE|LVL Remote RAM (1 hop) hit|SNP Miss|TLB N/A miss|LCK Yes|BLK  N/A");
	TEST_STREQ(src(0x2000004082),
		   "|OP LOAD|LVL Remote Remote RAM (2 hops) miss|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	/* lvl_num: named, "L<n>" (8 has no name in 6.1), N/A */
	TEST_STREQ(src(0x1200000042), "|OP LOAD|LVL CXL hit|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	TEST_STREQ(src(0x1000000042), "|OP LOAD|LVL L8 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	TEST_STREQ(src(0x1e00000042), "|OP LOAD|LVL N/A hit|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	/* hops, and snoopx */
	TEST_STREQ(src(0x82600000042),
		   "|OP LOAD|LVL Remote core, same node L3 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	TEST_STREQ(src(0xc000300202),
		   "|OP LOAD|LVL LFB/MAB|SNP None or Hit or Fwd or Peer|TLB N/A|LCK No|BLK  N/A");
	TEST_STREQ(src(0x60000000002), "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  Data Addr");
	/* every bit: perf 6.1 reads past its hops table ("(null)") */
	TEST_STREQ(
		src(0x3fffffffffff),
		"|OP N/A|LVL Remote (null) N/A hit miss|SNP N/A or None or Hit or Miss or HitM or "
		"Fwd or Peer|TLB N/A or L1 or L2 or Walker or Fault hit miss|LCK N/A|BLK  N/A");
}

static void test_page_size(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_page_size__format(0, &sb);
	prism_strbuf_addch(&sb, ',');
	prism_page_size__format(4096, &sb);
	prism_strbuf_addch(&sb, ',');
	prism_page_size__format(1024, &sb);
	prism_strbuf_addch(&sb, ',');
	prism_page_size__format(2u << 20, &sb);
	TEST_STREQ(sb.buf, "N/A,4K,1024B,2M");
	prism_strbuf_release(&sb);
}

TEST_MAIN(TEST(data_src), TEST(page_size));
