// SPDX-License-Identifier: MIT
/*
 * Text forms of memory-sample fields as perf 6.1's script prints them:
 * PERF_SAMPLE_DATA_SRC decoded ("|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2
 * hit|LCK No|BLK  N/A") and data/code page sizes ("4K").
 *
 * The data_src bit fields (include/uapi/linux/perf_event.h, union
 * perf_mem_data_src): op 0-4, lvl 5-18, snoop 19-23, lock 24-25, dtlb
 * 26-32, lvl_num 33-36, remote 37, snoopx 38-39, blk 40-42, hops 43-45.
 */
#include <inttypes.h>

#include <prism/event.h>
#include <prism/strbuf.h>

#include "internal.h"

#define BITS(v, shift, width) (((v) >> (shift)) & ((1ull << (width)) - 1))

/* names of the bits of one field, lowest first; NULL ends the list */
static const char *const lvl_names[] = { "N/A",
					 "HIT",
					 "MISS",
					 "L1",
					 "LFB/MAB",
					 "L2",
					 "L3",
					 "Local RAM",
					 "Remote RAM (1 hop)",
					 "Remote RAM (2 hops)",
					 "Remote Cache (1 hop)",
					 "Remote Cache (2 hops)",
					 "I/O",
					 "Uncached",
					 NULL };
static const char *const snoop_names[] = { "N/A", "None", "Hit", "Miss", "HitM", NULL };
static const char *const snoopx_names[] = { "Fwd", "Peer", NULL };
static const char *const tlb_names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault", NULL };

/* lvl_num values with a name in perf 6.1; the others print as "L<n>" (0x8 too) */
static const char *lvlnum_name(unsigned int n)
{
	switch (n) {
	case 0x9:
		return "CXL";
	case 0xa:
		return "I/O";
	case 0xb:
		return "Any cache";
	case 0xc:
		return "LFB/MAB";
	case 0xd:
		return "RAM";
	case 0xe:
		return "PMEM";
	case 0xf:
		return "N/A";
	default:
		return NULL;
	}
}

/* hops 1-4; perf 6.1 indexes past its table for 5-7 and glibc prints "(null)" */
static const char *hops_name(unsigned int n)
{
	static const char *const names[] = { "N/A", "core, same node", "node, same socket",
					     "socket, same board", "board" };

	return n < PRISM_ARRAY_SIZE(names) ? names[n] : "(null)";
}

/* the names of the set bits of @m joined by " or "; how many were written */
static int add_bits(struct prism_strbuf *sb, uint64_t m, const char *const *names, int printed)
{
	size_t i;

	for (i = 0; m && names[i]; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			prism_strbuf_addstr(sb, " or ");
		prism_strbuf_addstr(sb, names[i]);
	}
	return printed;
}

static void add_op(struct prism_strbuf *sb, uint64_t op)
{
	/* the first bit set wins, in this order */
	prism_strbuf_addstr(sb, op & 0x1  ? "N/A" :
				op & 0x2  ? "LOAD" :
				op & 0x4  ? "STORE" :
				op & 0x8  ? "PFETCH" :
				op & 0x10 ? "EXEC" :
					    "No");
}

/*
 * The level: "Remote " when the remote bit is set, then the hops when they
 * are set, else the names of the lvl bits; then the lvl_num name; "N/A"
 * when all that is empty; " hit" and " miss" from the lvl bits
 */
static void add_lvl(struct prism_strbuf *sb, uint64_t src)
{
	uint64_t lvl = BITS(src, 5, 14), hops = BITS(src, 43, 3);
	unsigned int num = (unsigned int)BITS(src, 33, 4);
	size_t start = sb->len;
	int printed = 0;

	if (BITS(src, 37, 1))
		prism_strbuf_addstr(sb, "Remote ");
	if (hops)
		prism_strbuf_addf(sb, "%s ", hops_name((unsigned int)hops));
	else
		printed = add_bits(sb, lvl & ~0x6ull, lvl_names, 0);
	if (num) {
		if (printed++)
			prism_strbuf_addstr(sb, " or ");
		if (lvlnum_name(num))
			prism_strbuf_addstr(sb, lvlnum_name(num));
		else
			prism_strbuf_addf(sb, "L%u", num);
	}
	if (sb->len == start)
		prism_strbuf_addstr(sb, "N/A");
	if (lvl & 0x2)
		prism_strbuf_addstr(sb, " hit");
	if (lvl & 0x4)
		prism_strbuf_addstr(sb, " miss");
}

static void add_snoop(struct prism_strbuf *sb, uint64_t src)
{
	int printed = add_bits(sb, BITS(src, 19, 5), snoop_names, 0);

	if (!add_bits(sb, BITS(src, 38, 2), snoopx_names, printed))
		prism_strbuf_addstr(sb, "N/A");
}

static void add_tlb(struct prism_strbuf *sb, uint64_t src)
{
	uint64_t tlb = BITS(src, 26, 7);

	if (!add_bits(sb, tlb & ~0x6ull, tlb_names, 0))
		prism_strbuf_addstr(sb, "N/A");
	if (tlb & 0x2)
		prism_strbuf_addstr(sb, " hit");
	if (tlb & 0x4)
		prism_strbuf_addstr(sb, " miss");
}

static void add_blk(struct prism_strbuf *sb, uint64_t blk)
{
	if (!blk || (blk & 0x1)) {
		prism_strbuf_addstr(sb, " N/A");
		return;
	}
	if (blk & 0x2)
		prism_strbuf_addstr(sb, " Data");
	if (blk & 0x4)
		prism_strbuf_addstr(sb, " Addr");
}

void prism_mem_src__format(uint64_t src, struct prism_strbuf *sb)
{
	uint64_t lock = BITS(src, 24, 2);

	prism_strbuf_addstr(sb, "|OP ");
	add_op(sb, BITS(src, 0, 5));
	prism_strbuf_addstr(sb, "|LVL ");
	add_lvl(sb, src);
	prism_strbuf_addstr(sb, "|SNP ");
	add_snoop(sb, src);
	prism_strbuf_addstr(sb, "|TLB ");
	add_tlb(sb, src);
	prism_strbuf_addstr(sb, "|LCK ");
	prism_strbuf_addstr(sb, lock & 0x1 ? "N/A" : lock & 0x2 ? "Yes" : "No");
	prism_strbuf_addstr(sb, "|BLK ");
	add_blk(sb, BITS(src, 40, 3));
}

void prism_page_size__format(uint64_t size, struct prism_strbuf *sb)
{
	static const char units[] = "BKMG";
	unsigned int i = 0;

	if (!size) {
		prism_strbuf_addstr(sb, "N/A");
		return;
	}
	/* perf divides while the quotient stays above 1: 1024 stays "1024B" */
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	prism_strbuf_addf(sb, "%" PRIu64 "%c", size, units[i]);
}
