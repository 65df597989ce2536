// SPDX-License-Identifier: MIT
/*
 * lib/annotate: samples per symbol and address on a synthetic sample set,
 * perf annotate's order of symbols, its percent types, and instructions
 * written as objdump writes them.
 */
#include <link.h>
#include <limits.h>
#include <stdlib.h>

#include <prism/annotate.h>
#include <prism/core.h>
#include <prism/disasm.h>
#include <prism/strbuf.h>

#include "annotate/annotate-internal.h"
#include "test.h"

static int sym_a, sym_b, sym_c; /* identities of three symbols */

static struct prism_frame frame(const void *id, const char *sym, const char *dso, uint64_t start,
				uint64_t end, uint64_t addr)
{
	struct prism_frame f = { 0 };

	f.ip = addr + 0x400000;
	f.dso_addr = addr;
	f.sym = sym;
	f.sym_id = id;
	f.sym_start = start;
	f.sym_end = end;
	f.symoff = addr - start;
	f.dso_name = dso;
	f.dso_path = dso;
	return f;
}

static void test_percent_type(void)
{
	TEST_EQ(prism_percent_type__parse("local-period"), PRISM_PERCENT_LOCAL_PERIOD);
	TEST_EQ(prism_percent_type__parse("period-local"), PRISM_PERCENT_LOCAL_PERIOD);
	TEST_EQ(prism_percent_type__parse("global-hits"), PRISM_PERCENT_GLOBAL_HITS);
	TEST_EQ(prism_percent_type__parse("hits-global"), PRISM_PERCENT_GLOBAL_HITS);
	TEST_EQ(prism_percent_type__parse("local-hits"), PRISM_PERCENT_LOCAL_HITS);
	TEST_EQ(prism_percent_type__parse("global-period"), PRISM_PERCENT_GLOBAL_PERIOD);
	TEST_EQ(prism_percent_type__parse("local"), -1);
	TEST_EQ(prism_percent_type__parse("local-local"), -1);
	TEST_EQ(prism_percent_type__parse("local-periods"), -1);
	TEST_EQ(prism_percent_type__parse(NULL), -1);
	TEST_STREQ(prism_percent_type__str(PRISM_PERCENT_LOCAL_PERIOD), "local period");
	TEST_STREQ(prism_percent_type__str(PRISM_PERCENT_GLOBAL_HITS), "global hits");
}

/*
 * event 0: a (0x1000..0x1040) 3 samples at +0x10 (period 10 each), 1 at +0x4
 * (period 5); b (0x2000..0x2010) 1 at +0 (period 20); c, of another DSO,
 * the same period as b; one unresolved sample and one past a's end, counted
 * in the totals only.  Event 1: one sample of b.
 */
static void test_aggregate(void)
{
	struct prism_annotate *a = prism_annotate__new(NULL, 2);
	const struct prism_annotate_sym *const *syms;
	struct prism_frame f, u = { 0 };
	uint64_t n, p;
	size_t nr;
	int i;

	TEST_TRUE(a != NULL);
	f = frame(&sym_a, "a", "x.so", 0x1000, 0x1040, 0x1010);
	for (i = 0; i < 3; i++)
		TEST_EQ(prism_annotate__add(a, 0, 7, &f, 10), 0);
	f = frame(&sym_a, "a", "x.so", 0x1000, 0x1040, 0x1004);
	TEST_EQ(prism_annotate__add(a, 0, 7, &f, 5), 0);
	f = frame(&sym_a, "a", "x.so", 0x1000, 0x1040, 0x1040);
	TEST_EQ(prism_annotate__add(a, 0, 7, &f, 100), 0);
	f = frame(&sym_b, "b", "x.so", 0x2000, 0x2010, 0x2000);
	TEST_EQ(prism_annotate__add(a, 0, 7, &f, 20), 0);
	f = frame(&sym_c, "c", "a.so", 0x3000, 0x3010, 0x3008);
	TEST_EQ(prism_annotate__add(a, 0, 7, &f, 20), 0);
	TEST_EQ(prism_annotate__add(a, 0, 7, &u, 1), 0);
	f = frame(&sym_b, "b", "x.so", 0x2000, 0x2010, 0x2004);
	TEST_EQ(prism_annotate__add(a, 1, 7, &f, 2), 0);
	TEST_EQ(prism_annotate__add(a, 70000, 7, &f, 2), -EINVAL);

	prism_annotate__totals(a, 0, &n, &p);
	TEST_EQ_U64(n, 8);
	TEST_EQ_U64(p, 30 + 5 + 100 + 20 + 20 + 1);
	TEST_EQ(prism_annotate__symbols(a, 0, &syms, &nr), 0);
	TEST_EQ(nr, 3);
	/* a (35) first; b and c (20 each) by DSO name: a.so before x.so */
	TEST_STREQ(syms[0]->name, "a");
	TEST_STREQ(syms[1]->name, "c");
	TEST_STREQ(syms[2]->name, "b");
	TEST_EQ_U64(syms[0]->nr_samples, 4);
	TEST_EQ_U64(syms[0]->period, 35);
	TEST_EQ(syms[0]->nr_hits, 2);
	TEST_EQ_U64(syms[0]->hits[0].offset, 4);
	TEST_EQ_U64(syms[0]->hits[0].nr_samples, 1);
	TEST_EQ_U64(syms[0]->hits[0].period, 5);
	TEST_EQ_U64(syms[0]->hits[1].offset, 0x10);
	TEST_EQ_U64(syms[0]->hits[1].nr_samples, 3);
	TEST_EQ_U64(syms[0]->hits[1].period, 30);
	TEST_EQ_U64(syms[1]->hits[0].offset, 8);

	TEST_EQ(prism_annotate__symbols(a, 1, &syms, &nr), 0);
	TEST_EQ(nr, 1);
	TEST_STREQ(syms[0]->name, "b");
	TEST_EQ_U64(syms[0]->hits[0].offset, 4);
	prism_annotate__totals(a, 1, &n, &p);
	TEST_EQ_U64(n, 1);
	TEST_EQ_U64(p, 2);
	TEST_TRUE(prism_annotate__missing(a, 0, &n) == NULL);
	prism_annotate__free(a);
}

/*
 * a group of two events: symbols by the leader's period, then the member's;
 * one only the member has comes last, as perf's dummy leader entry
 */
static void test_group(void)
{
	struct prism_annotate *a = prism_annotate__new(NULL, 2);
	const struct prism_annotate_sym *const *syms;
	const size_t evs[] = { 0, 1 };
	struct prism_frame fa = frame(&sym_a, "a", "x.so", 0x1000, 0x1040, 0x1010);
	struct prism_frame fb = frame(&sym_b, "b", "x.so", 0x2000, 0x2010, 0x2000);
	struct prism_frame fc = frame(&sym_c, "c", "x.so", 0x3000, 0x3010, 0x3000);
	size_t nr;

	TEST_EQ(prism_annotate__add(a, 0, 7, &fa, 10), 0);
	TEST_EQ(prism_annotate__add(a, 0, 7, &fb, 10), 0);
	TEST_EQ(prism_annotate__add(a, 1, 7, &fb, 5), 0);
	TEST_EQ(prism_annotate__add(a, 1, 7, &fa, 3), 0);
	TEST_EQ(prism_annotate__add(a, 1, 7, &fc, 50), 0);
	TEST_EQ(prism_annotate__group_symbols(a, evs, 2, &syms, &nr), 0);
	TEST_EQ(nr, 3);
	TEST_STREQ(syms[0]->name, "b"); /* 10 = 10, then 5 > 3 */
	TEST_STREQ(syms[1]->name, "a");
	TEST_STREQ(syms[2]->name, "c");
	TEST_TRUE(prism_annotate__sym_of(a, 0, syms[2]) == NULL);
	TEST_EQ_U64(prism_annotate__sym_of(a, 1, syms[0])->period, 5);
	TEST_EQ_U64(prism_annotate__sym_of(a, 1, syms[1])->period, 3);
	prism_annotate__free(a);
}

/* many addresses, added out of order: kept sorted, each counted once per sample */
static void test_many_addresses(void)
{
	struct prism_annotate *a = prism_annotate__new(NULL, 1);
	const struct prism_annotate_sym *const *syms;
	struct prism_frame f;
	size_t nr, i;

	for (i = 0; i < 1000; i++) {
		f = frame(&sym_a, "a", "x.so", 0x1000, 0x2000, 0x1000 + (i * 37) % 1000);
		TEST_EQ(prism_annotate__add(a, 0, 7, &f, 1), 0);
	}
	TEST_EQ(prism_annotate__symbols(a, 0, &syms, &nr), 0);
	TEST_EQ(nr, 1);
	TEST_EQ(syms[0]->nr_hits, 1000);
	for (i = 0; i < syms[0]->nr_hits; i++) {
		TEST_EQ_U64(syms[0]->hits[i].offset, i);
		TEST_EQ_U64(syms[0]->hits[i].nr_samples, 1);
	}
	prism_annotate__free(a);
}

static void check_insn(struct prism_disasm *d, const char *bytes, size_t len, uint64_t addr,
		       const char *want)
{
	struct prism_annotate_sym s = { .name = "f", .start = addr, .end = addr + len };
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_annotate a = { 0 };

	TEST_EQ(ann_insn_text(&a, d, &s, (const uint8_t *)bytes, len, addr, &sb), (int)len);
	while (sb.len && sb.buf[sb.len - 1] == ' ') /* perf trims objdump's lines */
		prism_strbuf_setlen(&sb, sb.len - 1);
	TEST_STREQ(sb.buf, want);
	prism_strbuf_release(&sb);
}

/* capstone 4's AT&T text as objdump 2.40 writes it (bytes from the fixtures' binaries) */
static void test_objdump_text(void)
{
	struct prism_disasm *d = prism_feature_enabled(PRISM_FEATURE_LIBCAPSTONE) ?
					 prism_disasm__new(PRISM_DISASM_ATT) :
					 NULL;

	if (!d)
		TEST_SKIP("built without libcapstone");
	check_insn(d, "\x48\x89\xf8", 3, 0x1179, "mov    %rdi,%rax");
	check_insn(d, "\xba\x20\x4e\x00\x00", 5, 0x117c, "mov    $0x4e20,%edx");
	check_insn(d, "\x48\xbe\x2d\x7f\x95\x4c\x2d\xf4\x51\x58", 10, 0x1181,
		   "movabs $0x5851f42d4c957f2d,%rsi");
	check_insn(d, "\x48\x0f\xaf\xc6", 4, 0x1195, "imul   %rsi,%rax");
	check_insn(d, "\x83\xea\x01", 3, 0x119c, "sub    $0x1,%edx");
	check_insn(d, "\x48\xc1\xe2\x0d", 4, 0x11ad, "shl    $0xd,%rdx");
	check_insn(d, "\x75\xf4", 2, 0x119f, "jne    1195");
	check_insn(d, "\xc3", 1, 0x11a1, "ret");
	check_insn(d, "\x53", 1, 0x14620, "push   %rbx");
	check_insn(d, "\x48\x0f\x44\xf9", 4, 0x1467d, "cmove  %rcx,%rdi");
	check_insn(d, "\x66\x90", 2, 0x146de, "xchg   %ax,%ax");
	check_insn(d, "\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00", 10, 0x14686,
		   "cs nopw 0x0(%rax,%rax,1)");
	check_insn(d, "\x48\x63\x04\xb7", 4, 0x1465b, "movslq (%rdi,%rsi,4),%rax");
	check_insn(d, "\x48\x8d\x3d\xa5\x2c\x01\x00", 7, 0x14654,
		   "lea    0x12ca5(%rip),%rdi        # 27300");
	check_insn(d, "\x48\x8b\x45\xf8", 4, 0x1000, "mov    -0x8(%rbp),%rax");
	check_insn(d, "\xc7\x45\xfc\x00\x00\x00\x00", 7, 0x1000, "movl   $0x0,-0x4(%rbp)");
	check_insn(d, "\x48\xd1\xe8", 3, 0x1000, "shr    %rax");
	check_insn(d, "\x66\x48\x0f\x6e\xc0", 5, 0x1000, "movq   %rax,%xmm0");
	check_insn(d, "\xf0\x0f\xb1\x17", 4, 0x1000, "lock cmpxchg %edx,(%rdi)");
	check_insn(d, "\xf3\xab", 2, 0x1000, "rep stos %eax,%es:(%rdi)");
	check_insn(d, "\xf3\x48\xa5", 3, 0x1000, "rep movsq %ds:(%rsi),%es:(%rdi)");
	check_insn(d, "\xde\xc9", 2, 0x1000, "fmulp  %st,%st(1)");
	check_insn(d, "\xdb\xe9", 2, 0x1000, "fucomi %st(1),%st");
	check_insn(d, "\x64\x48\x03\x04\x25\x00\x00\x00\x00", 9, 0x1000, "add    %fs:0x0,%rax");
	check_insn(d, "\x66\x66\x2e\x0f\x1f\x84\x00\x00\x00\x00\x00", 11, 0x1000,
		   "data16 cs nopw 0x0(%rax,%rax,1)");
	check_insn(d, "\x48\xc7\xc0\xff\xff\xff\xff", 7, 0x1000, "mov    $0xffffffffffffffff,%rax");
	check_insn(d, "\xff\x60\x08", 3, 0x1000, "jmp    *0x8(%rax)");
	check_insn(d, "\x91", 1, 0x1000, "xchg   %eax,%ecx");
	/* AVX-512, which capstone 4 does not decode: its size, so the next ones stay in step */
	check_insn(d, "\x62\xf3\x75\x22\x3f\x0e\x00", 7, 0x1000, "(AVX-512, not decoded)");
	check_insn(d, "\x62\xe1\xfe\x28\x6f\x0f", 6, 0x1000, "vmovdqu64 (%rdi),%ymm17");
	check_insn(d, "\xc5\xfb\x93\xc9", 4, 0x1000, "(AVX-512, not decoded)");
	check_insn(d, "\x48\x87\xf7", 3, 0x1000, "xchg   %rsi,%rdi");
	prism_disasm__free(d);
}

static int first_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uintptr_t *)data = info->dlpi_addr; /* the executable comes first */
	return 1;
}

/* objdump's labels from this test's own .symtab: functions, objects, offsets */
static void test_file_labels(void)
{
	struct prism_annotate_sym s = { .name = "x" };
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_annotate a = { 0 };
	char self[PATH_MAX];
	uintptr_t bias = 0;
	uint64_t fn, obj;

	if (!realpath("/proc/self/exe", self))
		TEST_SKIP("no /proc/self/exe");
	dl_iterate_phdr(first_bias, &bias);
	fn = (uint64_t)((uintptr_t)&test_group - bias);
	obj = (uint64_t)((uintptr_t)&sym_b - bias);
	s.start = fn;
	a.label_path = self;
	TEST_EQ(ann_file_label(&a, &s, fn, true, &sb), 0);
	TEST_STREQ(sb.buf, " <test_group>");
	prism_strbuf_reset(&sb);
	TEST_EQ(ann_file_label(&a, &s, fn + 3, true, &sb), 3);
	TEST_STREQ(sb.buf, " <test_group+0x3>");
	prism_strbuf_reset(&sb);
	TEST_EQ(ann_file_label(&a, &s, obj, false, &sb), 0);
	TEST_STREQ(sb.buf, " <sym_b>");
	a.label_path = "relative";
	TEST_EQ(ann_file_label(&a, &s, obj, false, &sb), -1);
	ann_labels_free(&a);
	prism_strbuf_release(&sb);
}

TEST_MAIN(TEST(percent_type), TEST(aggregate), TEST(group), TEST(many_addresses),
	  TEST(objdump_text), TEST(file_labels));
