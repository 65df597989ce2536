// SPDX-License-Identifier: MIT
/*
 * prism script --itrace: the -F fields of Intel PT samples that look
 * things up (cmd/script-insn.c has the instruction's own), as perf 6.1
 * prints them:
 *
 *   " 0xFROM(dso)/0xTO(dso)/-/-/-/0/ " a branch     brstack (--itrace=l)
 *   "sym+0xoff(dso)/sym+0xoff(dso)/-/-/-/0/ "       brstacksym
 *   " 0xOFF(dso)/0xOFF(dso)/-/-/-/0/ "                brstackoff (cmd/script-brstack.c)
 *   "\n  file.c:12"                                 srcline (where DWARF has it)
 *   " \t IPC: 0.35 (14/40) "                         ipc (where the sample has counts)
 *
 * a branch stack the latest branch first (no prediction, transaction or
 * cycle information: perf's '-'s and 0; 'X' in a transaction, 'A' for an
 * aborted one).
 */
#include <inttypes.h>
#include <string.h>

#include <prism/pt.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "script.h"

static uint8_t cpumode_of(uint64_t addr)
{
	return addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
}

static void resolve(struct script_pt_insn *si, const struct prism_pt_item *it, uint64_t addr)
{
	if (!addr || it->pid < 0) {
		memset(&si->fr, 0, sizeof(si->fr));
		return;
	}
	prism_symbols__resolve(si->sy, (uint32_t)it->pid, cpumode_of(addr), addr, &si->fr);
}

void script_pt_brstack_put(struct script_pt_insn *si, const struct prism_pt_item *it,
			   struct prism_strbuf *sb)
{
	unsigned int f = si->fields;
	unsigned int field = f & F_BRSTACK    ? F_BRSTACK :
			     f & F_BRSTACKSYM ? F_BRSTACKSYM :
						F_BRSTACKOFF;
	uint32_t pid = it->pid < 0 ? 0 : (uint32_t)it->pid, i;

	if (!(f & F_BRSTACKS))
		return;
	if (field == F_BRSTACKOFF) { /* perf has resolved the sample's address first */
		resolve(si, it, it->ip);
		script_brstack_sample_dso(si->fr.dso);
	}
	for (i = 0; i < it->nr_brstack; i++) {
		const struct prism_pt_branch *b = &it->brstack[i];

		if (field !=
		    F_BRSTACKSYM) /* perf: brstack(off) before each entry, brstacksym not */
			prism_strbuf_addch(sb, ' ');
		script_branch_end(si->sy, pid, cpumode_of(b->from), b->from, field, f & F_DSO,
				  &si->fr, sb);
		prism_strbuf_addch(sb, '/');
		script_branch_end(si->sy, pid, cpumode_of(b->to), b->to, field, f & F_DSO, &si->fr,
				  sb);
		prism_strbuf_addf(sb, "/-/%c/%c/0/ ", b->flags & PRISM_PT_FL_IN_TX ? 'X' : '-',
				  b->flags & PRISM_PT_FL_TX_ABORT ? 'A' : '-');
	}
}

void script_pt_srcline_put(struct script_pt_insn *si, const struct prism_pt_item *it, uint64_t addr,
			   struct prism_strbuf *sb)
{
	const char *file, *slash;
	unsigned int line;

	if (!(si->fields & F_SRCLINE))
		return;
	resolve(si, it, addr);
	/* perf: the file's base name; nothing where the DWARF has no line */
	if (!si->fr.dso || prism_symbols__srcline(si->sy, &si->fr, &file, &line))
		return;
	slash = strrchr(file, '/');
	prism_strbuf_addf(sb, "\n  %s:%u", slash ? slash + 1 : file, line);
}

void script_pt_ipc_put(struct script_pt_insn *si, const struct prism_pt_item *it,
		       struct prism_strbuf *sb)
{
	unsigned int ipc;

	if (!(si->fields & F_IPC) || !it->ipc_cycles || !it->ipc_insns)
		return;
	ipc = (unsigned int)(it->ipc_insns * 100 / it->ipc_cycles); /* perf's unsigned int */
	prism_strbuf_addf(sb, " \t IPC: %u.%02u (%" PRIu64 "/%" PRIu64 ") ", ipc / 100, ipc % 100,
			  it->ipc_insns, it->ipc_cycles);
}
