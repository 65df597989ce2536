// SPDX-License-Identifier: MIT
/*
 * lib/event/dump.c: the fields of a record as perf 6.1 prints them after
 * "PERF_RECORD_NAME" (perf -D, perf script --show-*-events), for the
 * records whose lines are built here by hand: NAMESPACES (four a line),
 * CGROUP, KSYMBOL, BPF_EVENT and TEXT_POKE (its bytes 16 a line).  t0220
 * and t0221 compare whole files with perf.
 */
#include <stdint.h>
#include <string.h>

#include <prism/event.h>
#include <prism/strbuf.h>

#include "test.h"

static struct perf_event_header hdr(uint32_t type, uint16_t size)
{
	return (struct perf_event_header){ .type = type, .size = size };
}

static void test_namespaces(void)
{
	uint64_t links[10] = { 4, 0xeffffff9, 4, 0xeffffffe, 0, 0, 4, 0xeffffffc, 1, 2 };
	struct perf_event_header h = hdr(PERF_RECORD_NAMESPACES, 8 + 16 + sizeof(links));
	struct prism_event ev = { .raw = &h, .type = PERF_RECORD_NAMESPACES };
	struct prism_strbuf sb = STRBUF_INIT;

	ev.ns.pid = 2;
	ev.ns.tid = 3;
	ev.ns.nr = 5;
	ev.ns.link_info = links;
	prism_event__dump_detail(&ev, &sb);
	TEST_STREQ(sb.buf,
		   " 2/3 - nr_namespaces: 5\n\t\t[0/net: 4/0xeffffff9, 1/uts: 4/0xeffffffe, "
		   "2/ipc: 0/0, 3/pid: 4/0xeffffffc, \n\t\t 4/user: 1/0x2]\n");
	prism_strbuf_release(&sb);
}

static void test_cgroup_ksymbol_bpf(void)
{
	uint8_t bpf[8 + 8 + 8] = { 0 };
	struct perf_event_header h = hdr(PERF_RECORD_CGROUP, 16);
	struct prism_event ev = { .raw = &h, .type = PERF_RECORD_CGROUP };
	struct prism_strbuf sb = STRBUF_INIT;

	ev.cgroup.id = 1;
	ev.cgroup.path = "/";
	prism_event__dump_detail(&ev, &sb);
	TEST_STREQ(sb.buf, " cgroup: 1 /\n");
	prism_strbuf_reset(&sb);
	h = hdr(PERF_RECORD_KSYMBOL, 40);
	ev.type = PERF_RECORD_KSYMBOL;
	ev.ksymbol.addr = 0xffffffffc0022064ull;
	ev.ksymbol.len = 23;
	ev.ksymbol.ksym_type = 1;
	ev.ksymbol.flags = 0;
	ev.ksymbol.name = "bpf_prog_62efe59b7d4f5ea1";
	prism_event__dump_detail(&ev, &sb);
	TEST_STREQ(sb.buf, " addr ffffffffc0022064 len 23 type 1 flags 0x0 name "
			   "bpf_prog_62efe59b7d4f5ea1\n");
	prism_strbuf_reset(&sb);
	/* BPF_EVENT: u16 type, u16 flags, u32 id, tag[8] */
	h = hdr(PERF_RECORD_BPF_EVENT, sizeof(bpf));
	memcpy(bpf, &h, sizeof(h));
	bpf[8] = 1;
	bpf[10] = 0;
	bpf[12] = 0x29;
	bpf[13] = 0x45;
	ev.raw = (const struct perf_event_header *)(const void *)bpf;
	ev.type = PERF_RECORD_BPF_EVENT;
	prism_event__dump_detail(&ev, &sb);
	TEST_STREQ(sb.buf, " type 1, flags 0, id 17705\n");
	prism_strbuf_release(&sb);
}

static void test_text_poke(void)
{
	uint8_t bytes[5 + 18];
	struct perf_event_header h = hdr(PERF_RECORD_TEXT_POKE, 64);
	struct prism_event ev = { .raw = &h, .type = PERF_RECORD_TEXT_POKE };
	struct prism_strbuf sb = STRBUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)i;
	ev.poke.addr = 0xffffffff81000300ull;
	ev.poke.old_len = 5;
	ev.poke.new_len = 18;
	ev.poke.old_bytes = bytes;
	ev.poke.new_bytes = bytes + 5;
	prism_event__dump_text_poke(&ev, "prism_kpoke", 0, &sb);
	TEST_STREQ(sb.buf,
		   " ffffffff81000300 prism_kpoke+0x0 old len 5 new len 18\n"
		   "            Old bytes: 00 01 02 03 04\n"
		   "            New bytes: 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14\n"
		   "            New bytes: 15 16\n");
	prism_strbuf_reset(&sb);
	/* no symbol, no bytes (a poke that removes code) */
	ev.poke.new_len = 0;
	prism_event__dump_detail(&ev, &sb);
	TEST_STREQ(sb.buf, " ffffffff81000300  old len 5 new len 0\n"
			   "            Old bytes: 00 01 02 03 04\n");
	prism_strbuf_release(&sb);
}

TEST_MAIN(TEST(namespaces), TEST(cgroup_ksymbol_bpf), TEST(text_poke));
