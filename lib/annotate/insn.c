// SPDX-License-Identifier: MIT
/*
 * One instruction as objdump -d writes it in AT&T syntax (perf 6.1
 * annotates objdump's text), from libcapstone's AT&T text:
 *
 *	capstone 4:  "imulq %rsi, %rax"   "subl $1, %edx"   "jne 0x1195"
 *	objdump:     "imul   %rsi,%rax"   "sub    $0x1,%edx" "jne    1195 <leaf_a+0x1c>"
 *
 * The mnemonic is padded to 6 columns and a blank, operands are joined by
 * ',' alone, numbers are hex, an index register always has its scale, an
 * encoded zero displacement is written (0x0(%rax)), the size suffix goes
 * where a register operand gives the size (and always on call/ret/jmp/
 * push/pop/leave), branch targets are named "<sym+0xoff>" and a %rip
 * relative operand gets objdump's "# addr <sym+0xoff>" comment.
 * Note: what is left different (string instructions' implicit operands,
 * prefixes written as separate words by objdump, x87) is listed in
 * tests/e2e/t0620-annotate-vs-perf.sh.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

#include <prism/disasm.h>

#include "annotate-internal.h"

#define CPUMODE_KERNEL 1
#define CPUMODE_USER 2

/* mnemonics whose AT&T size suffix objdump drops when a register operand gives the size */
static const char *const sized[] = {
	"mov",	 "add",	   "sub",   "and",   "or",   "xor",  "cmp",  "test",	"lea",
	"imul",	 "shl",	   "shr",   "sar",   "sal",  "rol",  "ror",  "rcl",	"rcr",
	"inc",	 "dec",	   "neg",   "not",   "xchg", "adc",  "sbb",  "bsf",	"bsr",
	"bt",	 "bts",	   "btr",   "btc",   "idiv", "div",  "mul",  "cmpxchg", "xadd",
	"bswap", "popcnt", "lzcnt", "tzcnt", "shld", "shrd", "stos", "lods",	"scas",
};

/* always without a suffix in 64-bit code */
static const char *const bare64[] = { "call",  "ret",	 "jmp",	 "push", "pop",
				      "leave", "movabs", "iret", "lret" };

static bool in_list(const char *const *l, size_t n, const char *m, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(l[i]) == len && !strncmp(l[i], m, len))
			return true;
	return false;
}

static bool suffix(char c)
{
	return c == 'b' || c == 'w' || c == 'l' || c == 'q';
}

/* a general-purpose register operand ("%eax", not memory), and no vector or x87 one */
static bool gp_reg_operand(const char *ops)
{
	const char *p = ops;
	bool gp = false;
	int depth = 0;

	for (; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '%' && !depth &&
			 (p == ops || p[-1] == ',' || p[-1] == ' ' || p[-1] == '*')) {
			const char *e = p + 1;

			while (isalnum((unsigned char)*e))
				e++;
			if (*e == ':') /* a segment override: memory */
				continue;
			if (!strncmp(p + 1, "xmm", 3) || !strncmp(p + 1, "ymm", 3) ||
			    !strncmp(p + 1, "zmm", 3) || !strncmp(p + 1, "mm", 2) ||
			    !strncmp(p + 1, "st", 2) || !strncmp(p + 1, "k", 1))
				return false;
			gp = true;
		}
	}
	return gp;
}

/* @start: where the mnemonic's column starts (objdump pads prefix words and mnemonic together) */
static void put_mnemonic(const char *m, size_t len, const char *ops, bool is64, size_t start,
			 struct prism_strbuf *sb)
{
	const char *sp = memrchr(m, ' ', len);

	/* prefix words first ("lock cmpxchgl"): the suffix rules are the mnemonic's */
	if (sp) {
		prism_strbuf_add(sb, m, (size_t)(sp + 1 - m));
		len -= (size_t)(sp + 1 - m);
		m = sp + 1;
	}
	/* cvtsi2sd/ss from a register: its name gives the size */
	if (len == 9 && !strncmp(m, "cvtsi2s", 7) && suffix(m[8]) && ops[0] == '%')
		len--;
	else if (len > 1 && suffix(m[len - 1])) {
		if ((is64 && in_list(bare64, PRISM_ARRAY_SIZE(bare64), m, len - 1)) ||
		    ((in_list(sized, PRISM_ARRAY_SIZE(sized), m, len - 1) ||
		      (len > 5 && !strncmp(m, "cmov", 4))) &&
		     gp_reg_operand(ops)))
			len--;
	}
	prism_strbuf_add(sb, m, len);
	prism_strbuf_pad_to(sb, start + 6, ' ');
	prism_strbuf_addch(sb, ' ');
}

/*
 * capstone's operands in objdump's spelling: ", " -> ",", decimal numbers
 * in hex, the scale of an index, an encoded zero displacement
 */
static void put_operands(const char *ops, bool zero_disp, int imm_size, struct prism_strbuf *sb)
{
	const char *p = ops;
	int depth = 0, commas = 0;

	while (*p) {
		if (*p == ',' && p[1] == ' ') {
			prism_strbuf_addch(sb, ',');
			if (depth)
				commas++;
			p += 2;
			continue;
		}
		if (*p == '(') {
			bool at_start = sb->len == 0 || strchr(",:$", sb->buf[sb->len - 1]) ||
					sb->buf[sb->len - 1] == ' ';

			if (zero_disp && at_start)
				prism_strbuf_addstr(sb, "0x0");
			depth++;
			commas = 0;
			prism_strbuf_addch(sb, *p++);
			continue;
		}
		if (*p == ')') {
			if (depth && commas == 1)
				prism_strbuf_addstr(sb, ",1");
			depth--;
			prism_strbuf_addch(sb, *p++);
			continue;
		}
		/* a negative immediate: objdump writes its bits at the operand's size */
		if (p[0] == '$' && p[1] == '-' && imm_size > 0 && imm_size <= 8) {
			char *end;
			uint64_t v = strtoull(p + 2, &end, 0);

			v = (uint64_t)0 - v;
			if (imm_size < 8)
				v &= (1ull << (imm_size * 8)) - 1;
			prism_strbuf_addf(sb, "$0x%" PRIx64, v);
			p = end;
			continue;
		}
		/* a decimal number: an immediate ($5) or a displacement (8(%rbp)); not a scale */
		if (isdigit((unsigned char)*p) && !(depth && commas == 2) &&
		    (p == ops || strchr("$-, :*", p[-1]))) {
			char *end;
			unsigned long long v;

			if (p[0] == '0' && p[1] == 'x') {
				v = strtoull(p, &end, 16);
				prism_strbuf_add(sb, p, (size_t)(end - p));
			} else {
				v = strtoull(p, &end, 10);
				prism_strbuf_addf(sb, "0x%llx", v);
			}
			p = end;
			continue;
		}
		prism_strbuf_addch(sb, *p++);
	}
}

/*
 * " <sym+0xoff>" for an address of the symbol's DSO, as objdump -C names it
 * (C++ names with their parameters: the label symbols' names); nothing when
 * unresolved.  Return: the offset from the symbol, -1 when unresolved.
 */
int64_t ann_put_label(struct prism_annotate *a, const struct prism_annotate_sym *s, uint64_t target,
		      struct prism_strbuf *sb)
{
	struct prism_symbols *sy = a->label_sy ? a->label_sy : a->sy;
	struct prism_frame f;
	uint64_t rt = s->kernel ? target : s->ip - s->dso_addr + target;

	if (!sy ||
	    prism_symbols__resolve(sy, s->pid, s->kernel ? CPUMODE_KERNEL : CPUMODE_USER, rt, &f) ||
	    !f.sym)
		return -1;
	if (f.symoff)
		prism_strbuf_addf(sb, " <%s+0x%" PRIx64 ">", f.sym, f.symoff);
	else
		prism_strbuf_addf(sb, " <%s>", f.sym);
	return (int64_t)f.symoff;
}

/* the opcode byte after the legacy prefixes and REX; *rex_w: REX.W was set */
static uint8_t opcode(const uint8_t *code, int n, bool *rex_w)
{
	static const uint8_t legacy[] = { 0x66, 0x67, 0xf0, 0xf2, 0xf3, 0x2e,
					  0x36, 0x3e, 0x26, 0x64, 0x65 };
	int i = 0;

	*rex_w = false;
	while (i < n && memchr(legacy, code[i], sizeof(legacy)))
		i++;
	if (i < n && (code[i] & 0xf0) == 0x40) {
		*rex_w = code[i] & 8;
		i++;
	}
	return i < n ? code[i] : 0;
}

/*
 * x87 arithmetic with one register named: objdump names %st too, first
 * for the popping forms and DC xx (%st(i) is the destination), second
 * for D8 xx and the comparisons
 */
static bool x87_two_operands(const char *m, size_t len, uint8_t op, const char *ops,
			     struct prism_strbuf *sb)
{
	static const char *const arith[] = { "fadd", "fmul", "fsub", "fsubr", "fdiv", "fdivr" };
	static const char *const cmp[] = { "fucomi", "fcomi", "fucomip", "fcomip" };
	const size_t na = PRISM_ARRAY_SIZE(arith);

	if (in_list(cmp, PRISM_ARRAY_SIZE(cmp), m, len) ||
	    (in_list(arith, na, m, len) && op == 0xd8)) {
		prism_strbuf_addf(sb, "%s,%%st", ops);
		return true;
	}
	if ((len > 1 && m[len - 1] == 'p' && in_list(arith, na, m, len - 1)) ||
	    (in_list(arith, na, m, len) && op == 0xdc)) {
		prism_strbuf_addf(sb, "%%st,%s", ops);
		return true;
	}
	return false;
}

/* stos, lods, scas with a size suffix, movs, cmps (after prefix words) */
static bool string_insn(const char *m, size_t len)
{
	const char *sp = memrchr(m, ' ', len);
	static const char *const s[] = { "stos", "lods", "scas", "movs", "cmps" };

	if (sp) {
		len -= (size_t)(sp + 1 - m);
		m = sp + 1;
	}
	return len == 5 && suffix(m[4]) && in_list(s, PRISM_ARRAY_SIZE(s), m, 4);
}

/* objdump names the string instructions' segments: %ds:(%rsi), %es:(%rdi) */
static void put_string_operands(const char *ops, struct prism_strbuf *sb)
{
	const char *p = ops;

	while (*p) {
		if (*p == ',' && p[1] == ' ') {
			prism_strbuf_addch(sb, ',');
			p += 2;
			continue;
		}
		if (!strncmp(p, "(%rsi)", 6) || !strncmp(p, "(%esi)", 6))
			prism_strbuf_addstr(sb, "%ds:");
		else if (!strncmp(p, "(%rdi)", 6) || !strncmp(p, "(%edi)", 6))
			prism_strbuf_addstr(sb, "%es:");
		prism_strbuf_addch(sb, *p++);
	}
}

/*
 * The length of a VEX or EVEX instruction capstone 4 does not decode
 * (AVX-512 and its mask instructions): the prefix (C5 and a byte, C4 and
 * two, 62 and three), the opcode, ModRM, SIB and displacement as ModRM says,
 * an immediate byte in map 0F3A and for a few opcodes of map 0F.
 * Return: 0 when @code is none.
 */
static int vex_length(const uint8_t *code, size_t len)
{
	static const uint8_t imm_0f[] = { 0x70, 0x71, 0x72, 0x73, 0xc2, 0xc4, 0xc5, 0xc6 };
	unsigned int map, mod, rm;
	size_t n, p;

	if (len < 3)
		return 0;
	switch (code[0]) {
	case 0xc5:
		p = 2, map = 1;
		break;
	case 0xc4:
		p = 3, map = code[1] & 0x1f;
		break;
	case 0x62:
		p = 4, map = code[1] & 7;
		break;
	default:
		return 0;
	}
	if (len < p + 2)
		return 0;
	n = p + 2; /* the opcode and ModRM */
	mod = code[p + 1] >> 6;
	rm = code[p + 1] & 7;
	if (mod != 3 && rm == 4) {
		if (len < n + 1)
			return 0;
		if (mod == 0 && (code[n] & 7) == 5)
			n += 4;
		n++;
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		n += 4;
	if (map == 3 || (map == 1 && memchr(imm_0f, code[p], sizeof(imm_0f))))
		n++;
	return n <= len ? (int)n : 0;
}

static bool is_branch(const char *m)
{
	return m[0] == 'j' || !strncmp(m, "call", 4) || !strncmp(m, "loop", 4) ||
	       !strncmp(m, "xbegin", 6);
}

int ann_insn_text(struct prism_annotate *a, struct prism_disasm *d,
		  const struct prism_annotate_sym *s, const uint8_t *code, size_t len,
		  uint64_t addr, struct prism_strbuf *sb)
{
	struct prism_strbuf cs = STRBUF_INIT, swapped = STRBUF_INIT;
	const char *ops, *rip;
	uint64_t imm = 0;
	size_t mnem_len = 0, start;
	bool has_imm, rex_w;
	uint8_t op;
	int n;

	n = prism_disasm__insn(d, code, len, addr, true, &cs, &has_imm, &imm, &mnem_len);
	if (n <= 0) {
		prism_strbuf_release(&cs);
		/* AVX-512: its place and size, so the next instructions stay in step */
		n = n == -EINVAL ? vex_length(code, len) : 0;
		if (n > 0) {
			prism_strbuf_addstr(sb, "(AVX-512, not decoded)");
			return n;
		}
		return -EINVAL;
	}
	start = sb->len;
	/* 66 90: objdump's "xchg %ax,%ax", capstone's "nop" */
	if (n == 2 && code[0] == 0x66 && code[1] == 0x90) {
		prism_strbuf_addstr(sb, "xchg   %ax,%ax");
		prism_strbuf_release(&cs);
		return n;
	}
	ops = cs.buf + mnem_len;
	while (*ops == ' ')
		ops++;
	op = opcode(code, n, &rex_w);
	/* D0/D1, shifts and rotations by one: objdump writes no count, capstone "$1" */
	if ((op == 0xd0 || op == 0xd1) && !strncmp(ops, "$1, ", 4))
		ops += 4;
	/* 91-97, xchg with the accumulator: objdump names the accumulator first */
	if (op >= 0x91 && op <= 0x97 && strchr(ops, ',')) {
		const char *comma = strchr(ops, ',');
		const char *second = comma[1] == ' ' ? comma + 2 : comma + 1;

		prism_strbuf_reset(&swapped);
		prism_strbuf_addstr(&swapped, second);
		prism_strbuf_addstr(&swapped, ", ");
		prism_strbuf_add(&swapped, ops, (size_t)(comma - ops));
		ops = swapped.buf;
	}
	/* capstone 4 calls 66 REX.W 0F 6E/7E movd; it is movq */
	if (rex_w && mnem_len == 4 && !strncmp(cs.buf, "movd", 4)) {
		cs.buf[3] = 'q';
	}
	/*
	 * objdump writes a code segment override of a nop as a prefix word,
	 * and each operand size prefix but one: "data16 cs nopw"
	 */
	if (!strncmp(cs.buf, "nop", 3) && !strncmp(ops, "%cs:", 4)) {
		int i;

		for (i = 1; i < n && code[i] == 0x66 && code[0] == 0x66; i++)
			prism_strbuf_addstr(sb, "data16 ");
		prism_strbuf_addstr(sb, "cs ");
		ops += 4;
	}
	put_mnemonic(cs.buf, mnem_len, ops, true, start, sb);
	if (cs.buf[0] == 'f' && !strncmp(ops, "%st(", 4) && !strchr(ops, ',') &&
	    x87_two_operands(cs.buf, mnem_len, op, ops, sb)) {
		/* written */
	} else if (string_insn(cs.buf, mnem_len)) {
		put_string_operands(ops, sb);
	} else if (has_imm && is_branch(cs.buf)) {
		prism_strbuf_addf(sb, "%s%" PRIx64, *ops == '*' ? "*" : "", imm);
		if (ann_file_label(a, s, imm, true, sb) < 0)
			ann_put_label(a, s, imm, sb);
	} else {
		/* xabort's immediate is a byte, whatever capstone says */
		put_operands(ops, prism_disasm__zero_disp(d),
			     strncmp(cs.buf, "xabort", 6) ? prism_disasm__imm_size(d) : 1, sb);
	}
	rip = strstr(ops, "(%rip)");
	if (rip) {
		const char *q = rip;
		int64_t disp;

		while (q > ops && (isxdigit((unsigned char)q[-1]) || q[-1] == 'x' || q[-1] == '-'))
			q--;
		disp = (int64_t)strtoll(q, NULL, 0);
		prism_strbuf_addf(sb, "        # %" PRIx64, addr + (uint64_t)n + (uint64_t)disp);
		if (ann_file_label(a, s, addr + (uint64_t)n + (uint64_t)disp, false, sb) < 0)
			ann_put_label(a, s, addr + (uint64_t)n + (uint64_t)disp, sb);
	}
	prism_strbuf_release(&cs);
	prism_strbuf_release(&swapped);
	return n;
}

int prism_annotate__objdump_insn(struct prism_disasm *d, const uint8_t *code, size_t len,
				 uint64_t addr, struct prism_strbuf *sb)
{
	struct prism_annotate_sym s = { .start = addr, .end = addr + len };
	struct prism_annotate a = { 0 };

	return ann_insn_text(&a, d, &s, code, len, addr, sb);
}
