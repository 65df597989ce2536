// SPDX-License-Identifier: MIT
/* lib/disasm: single x86 instructions through libcapstone (AT&T and Intel) */
#include <errno.h>

#include <prism/core.h>
#include <prism/disasm.h>
#include <prism/strbuf.h>

#include "test.h"

static struct prism_disasm *open_or_skip(enum prism_disasm_syntax syntax)
{
	return prism_feature_enabled(PRISM_FEATURE_LIBCAPSTONE) ? prism_disasm__new(syntax) : NULL;
}

/* pt-loop's call pt_leaf at 0x555555555142: e8 f2 ff ff ff -> 0x555555555139 */
static void test_call_target(void)
{
	static const uint8_t call[] = { 0xe8, 0xf2, 0xff, 0xff, 0xff, 0x90 };
	struct prism_disasm *d = open_or_skip(PRISM_DISASM_ATT);
	struct prism_strbuf sb = STRBUF_INIT;
	uint64_t imm = 0;
	size_t mnem = 0;
	bool has_imm;
	int n;

	if (!d)
		TEST_SKIP("built without libcapstone");
	n = prism_disasm__insn(d, call, sizeof(call), 0x555555555142ull, true, &sb, &has_imm, &imm,
			       &mnem);
	TEST_EQ(n, 5);
	TEST_TRUE(has_imm);
	TEST_EQ_U64(imm, 0x555555555139ull);
	TEST_TRUE(mnem == 4 || mnem == 5); /* call, callq (capstone 4) */
	TEST_TRUE(!strncmp(sb.buf, "call", 4));
	prism_strbuf_release(&sb);
	prism_disasm__free(d);
}

static void test_att_and_intel(void)
{
	static const uint8_t lea[] = { 0x8d, 0x47, 0x01 }; /* lea 0x1(%rdi),%eax */
	struct prism_disasm *att = open_or_skip(PRISM_DISASM_ATT);
	struct prism_disasm *intel = open_or_skip(PRISM_DISASM_INTEL);
	struct prism_strbuf sb = STRBUF_INIT;
	uint64_t imm;
	size_t mnem;
	bool has_imm;

	if (!att || !intel)
		TEST_SKIP("built without libcapstone");
	TEST_EQ(prism_disasm__insn(att, lea, 3, 0x1000, true, &sb, &has_imm, &imm, &mnem), 3);
	TEST_TRUE(!has_imm);
	TEST_TRUE(strstr(sb.buf, "1(%rdi), %eax") != NULL);
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_disasm__insn(intel, lea, 3, 0x1000, true, &sb, &has_imm, &imm, &mnem), 3);
	TEST_STREQ(sb.buf, "lea eax, [rdi + 1]");
	/* 32-bit code: 0x48 is dec eax, not a REX prefix */
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_disasm__insn(intel, (const uint8_t *)"\x48\x90", 2, 0x1000, false, &sb,
				   &has_imm, &imm, &mnem),
		1);
	TEST_STREQ(sb.buf, "dec eax");
	prism_strbuf_release(&sb);
	prism_disasm__free(att);
	prism_disasm__free(intel);
}

static void test_not_an_instruction(void)
{
	static const uint8_t bad[] = { 0x0f, 0xff }; /* ud0 without its ModRM, cut short */
	struct prism_disasm *d = open_or_skip(PRISM_DISASM_ATT);
	struct prism_strbuf sb = STRBUF_INIT;
	uint64_t imm;
	size_t mnem;
	bool has_imm;

	if (!d)
		TEST_SKIP("built without libcapstone");
	TEST_EQ(prism_disasm__insn(d, bad, 1, 0x1000, true, &sb, &has_imm, &imm, &mnem), -EINVAL);
	TEST_EQ(sb.len, 0);
	TEST_EQ(prism_disasm__insn(d, bad, 0, 0x1000, true, &sb, &has_imm, &imm, &mnem), -EINVAL);
	prism_strbuf_release(&sb);
	prism_disasm__free(d);
}

TEST_MAIN(TEST(call_target), TEST(att_and_intel), TEST(not_an_instruction));
