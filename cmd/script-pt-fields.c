// SPDX-License-Identifier: MIT
/*
 * prism script --itrace: the -F fields of Intel PT samples that look
 * things up (cmd/script-insn.c has the instruction's own), as perf 6.1
 * prints them:
 *
 *   " 0xFROM(dso)/0xTO(dso)/-/-/-/0/ " a branch     brstack (--itrace=l)
 *   "sym+0xoff(dso)/sym+0xoff(dso)/-/-/-/0/ "       brstacksym
 *   "\n  file.c:12"                                 srcline (where DWARF has it)
 *   " \t IPC: 0.35 (14/40) "                         ipc (where the sample has counts)
 *
 * a branch stack the latest branch first (no prediction, transaction or
 * cycle information: perf's '-'s and 0; 'A' for an aborted transaction).
 */
#include <inttypes.h>
#include <string.h>

#include <prism/pt.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "script.h"

static void resolve(struct script_pt_insn *si, const struct prism_pt_item *it, uint64_t addr)
{
	if (!addr || it->pid < 0) {
		memset(&si->fr, 0, sizeof(si->fr));
		return;
	}
	prism_symbols__resolve(si->sy, (uint32_t)it->pid,
			       addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, addr,
			       &si->fr);
}

/* one end of a branch: "0xADDR(dso)" or "sym+0xoff(dso)" */
static void branch_end(struct script_pt_insn *si, const struct prism_pt_item *it, uint64_t addr,
		       struct prism_strbuf *sb)
{
	resolve(si, it, addr);
	if (si->f->brstack)
		prism_strbuf_addf(sb, "0x%" PRIx64, addr);
	else
		prism_frame__format_sym(&si->fr, PRISM_FRAME_FMT_SYMOFF, sb);
	prism_strbuf_addf(sb, "(%s)", si->fr.dso_path ? si->fr.dso_path : "[unknown]");
}

void script_pt_brstack_put(struct script_pt_insn *si, const struct prism_pt_item *it,
			   struct prism_strbuf *sb)
{
	uint32_t i;

	if (!si->f->brstack && !si->f->brstacksym)
		return;
	for (i = 0; i < it->nr_brstack; i++) {
		const struct prism_pt_branch *b = &it->brstack[i];

		if (si->f->brstack) /* perf: brstack before each entry, brstacksym not */
			prism_strbuf_addch(sb, ' ');
		branch_end(si, it, b->from, sb);
		prism_strbuf_addch(sb, '/');
		branch_end(si, it, b->to, sb);
		prism_strbuf_addf(sb, "/-/-/%c/0/ ", b->flags & PRISM_PT_FL_TX_ABORT ? 'A' : '-');
	}
}

void script_pt_srcline_put(struct script_pt_insn *si, const struct prism_pt_item *it, uint64_t addr,
			   struct prism_strbuf *sb)
{
	const char *file, *slash;
	unsigned int line;

	if (!si->f->srcline)
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

	if (!si->f->ipc || !it->ipc_cycles || !it->ipc_insns)
		return;
	ipc = (unsigned int)(it->ipc_insns * 100 / it->ipc_cycles); /* perf's unsigned int */
	prism_strbuf_addf(sb, " \t IPC: %u.%02u (%" PRIu64 "/%" PRIu64 ") ", ipc / 100, ipc % 100,
			  it->ipc_insns, it->ipc_cycles);
}
