// SPDX-License-Identifier: MIT
/*
 * x86 instructions disassembled one at a time with libcapstone: a handle
 * per mode (64- and 32-bit), opened on first use, with operand details
 * (to see a lone immediate operand: a branch or call target).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <capstone/capstone.h>

#include <prism/disasm.h>
#include <prism/strbuf.h>

struct prism_disasm {
	enum prism_disasm_syntax syntax;
	csh h[2]; /* [0] 32-bit, [1] 64-bit */
	bool open[2], failed[2];
	cs_insn *insn;
};

struct prism_disasm *prism_disasm__new(enum prism_disasm_syntax syntax)
{
	struct prism_disasm *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->syntax = syntax;
	return d;
}

void prism_disasm__free(struct prism_disasm *d)
{
	int i;

	if (!d)
		return;
	if (d->insn)
		cs_free(d->insn, 1);
	for (i = 0; i < 2; i++)
		if (d->open[i])
			cs_close(&d->h[i]);
	free(d);
}

static csh *handle(struct prism_disasm *d, bool is64)
{
	int m = is64 ? 1 : 0;

	if (d->open[m])
		return &d->h[m];
	if (d->failed[m])
		return NULL;
	if (cs_open(CS_ARCH_X86, is64 ? CS_MODE_64 : CS_MODE_32, &d->h[m]) != CS_ERR_OK) {
		d->failed[m] = true;
		return NULL;
	}
	cs_option(d->h[m], CS_OPT_SYNTAX,
		  d->syntax == PRISM_DISASM_INTEL ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	cs_option(d->h[m], CS_OPT_DETAIL, CS_OPT_ON);
	d->open[m] = true;
	return &d->h[m];
}

int prism_disasm__insn(struct prism_disasm *d, const uint8_t *code, size_t len, uint64_t ip,
		       bool is64, struct prism_strbuf *sb, bool *has_imm, uint64_t *imm,
		       size_t *mnem_len)
{
	csh *h = handle(d, is64);
	const uint8_t *p = code;
	uint64_t addr = ip;
	const cs_x86 *x;

	*has_imm = false;
	if (!h)
		return -EINVAL;
	if (!d->insn) {
		d->insn = cs_malloc(*h);
		if (!d->insn)
			return -ENOMEM;
	}
	if (!cs_disasm_iter(*h, &p, &len, &addr, d->insn))
		return -EINVAL;
	*mnem_len = strlen(d->insn->mnemonic);
	prism_strbuf_addstr(sb, d->insn->mnemonic);
	prism_strbuf_addch(sb, ' ');
	prism_strbuf_addstr(sb, d->insn->op_str);
	x = d->insn->detail ? &d->insn->detail->x86 : NULL;
	if (x && x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
		*has_imm = true;
		*imm = (uint64_t)x->operands[0].imm;
	}
	return d->insn->size;
}

bool prism_disasm__zero_disp(const struct prism_disasm *d)
{
	const cs_x86 *x = d->insn && d->insn->detail ? &d->insn->detail->x86 : NULL;
	int i;

	if (!x || !x->encoding.disp_size)
		return false;
	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.disp == 0)
			return true;
	return false;
}

int prism_disasm__imm_size(const struct prism_disasm *d)
{
	const cs_x86 *x = d->insn && d->insn->detail ? &d->insn->detail->x86 : NULL;
	int i;

	for (i = 0; x && i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_IMM)
			return x->operands[i].size;
	return 0;
}
