// SPDX-License-Identifier: MIT
/*
 * prism script --itrace / --insn-trace: the -F fields that go with Intel PT
 * samples (flags, insn, insnlen, disasm; -event, -period) and the
 * instruction fields at the end of a line, as perf prints them:
 *
 *   " ilen: 5"                     insnlen
 *   " insn: e8 f2 ff ff ff"        insn (perf 6.1)
 *   "\t\tcall pt_leaf+0x0"         disasm (newer perf, libcapstone): a lone
 *                                  immediate operand named by its symbol
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <prism/disasm.h>
#include <prism/pt.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "cmd.h"
#include "options.h"
#include "script.h"

int script_opt_insn_trace(const struct option_def *opt, const char *arg)
{
	if (strcmp(arg, "raw") && strcmp(arg, "disasm")) {
		error("--insn-trace=%s: expected raw or disasm", arg);
		return -1;
	}
	*(const char **)opt->value = arg;
	/* perf: its fields among -F's, in command-line order */
	script_pt_fields_push(strcmp(arg, "raw") ? "+disasm,-event,-period" :
						   "+insn,-event,-period");
	return 0;
}

const char *script_pt_insn_opts(const char *insn_trace, const char *dis_style, struct pt_fields *f,
				const char **itrace)
{
	static char why[128];

	if (insn_trace && *itrace)
		return "--insn-trace decodes every instruction: drop --itrace";
	if (insn_trace) { /* perf 6.1: --itrace=i0ns -F +insn,-event,-period --ns */
		*itrace = "i1ie"; /* perf 6.1 shows the errors too */
		f->ns = true;
	}
	if (dis_style && strcmp(dis_style, "att") && strcmp(dis_style, "intel")) {
		snprintf(why, sizeof(why), "--disassembler-style %.64s: expected att or intel",
			 dis_style);
		return why;
	}
	f->syntax = dis_style && !strcmp(dis_style, "intel") ? PRISM_DISASM_INTEL :
							       PRISM_DISASM_ATT;
	return NULL;
}

int script_pt_insn_init(struct script_pt_insn *si, const struct pt_fields *f,
			struct prism_symbols *sy)
{
	memset(si, 0, sizeof(*si));
	si->f = f;
	si->sy = sy;
	if (!((f->type[PT_HW].fields | f->type[PT_SYNTH].fields) & F_DISASM))
		return 0;
	si->dis = prism_disasm__new(f->syntax);
	return si->dis ? 0 : -errno;
}

void script_pt_insn_release(struct script_pt_insn *si)
{
	prism_disasm__free(si->dis);
	prism_strbuf_release(&si->tmp);
}

static void put_raw(const struct prism_pt_item *it, struct prism_strbuf *sb)
{
	static const char hex[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < it->insn_len && i < sizeof(it->insn); i++) {
		if (i)
			prism_strbuf_addch(sb, ' ');
		prism_strbuf_addch(sb, hex[it->insn[i] >> 4]);
		prism_strbuf_addch(sb, hex[it->insn[i] & 15]);
	}
}

/* "mnemonic operands", a lone immediate named by its symbol (newer perf's x86 printing) */
static void put_disasm(struct script_pt_insn *si, const struct prism_pt_item *it,
		       struct prism_strbuf *sb)
{
	struct prism_strbuf *t = &si->tmp;
	uint64_t imm = 0;
	size_t mnem = 0;
	bool has_imm;
	int n;

	prism_strbuf_reset(t);
	n = prism_disasm__insn(si->dis, it->insn, it->insn_len, it->ip, !it->insn_32bit, t,
			       &has_imm, &imm, &mnem);
	if (n < 0) { /* not an instruction capstone knows: its bytes, as perf */
		put_raw(it, sb);
		return;
	}
	if (has_imm && it->pid >= 0) {
		prism_symbols__resolve(si->sy, (uint32_t)it->pid,
				       imm >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
				       imm, &si->fr);
		if (si->fr.sym) {
			prism_strbuf_add(sb, t->buf, mnem);
			prism_strbuf_addf(sb, " %s+0x%" PRIx64, si->fr.sym, si->fr.symoff);
			return;
		}
	}
	prism_strbuf_add(sb, t->buf, t->len);
}

void script_pt_insn_put(struct script_pt_insn *si, const struct prism_pt_item *it,
			struct prism_strbuf *sb)
{
	unsigned int f = si->fields;

	if (f & F_INSNLEN)
		prism_strbuf_addf(sb, " ilen: %u", (unsigned int)it->insn_len);
	if ((f & F_INSN) && it->insn_len) {
		prism_strbuf_addstr(sb, " insn: ");
		put_raw(it, sb);
	}
	if ((f & F_DISASM) && it->insn_len) {
		prism_strbuf_addstr(sb, "\t\t");
		put_disasm(si, it, sb);
	}
}
