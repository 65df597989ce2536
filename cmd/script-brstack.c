// SPDX-License-Identifier: MIT
/*
 * prism script -F brstack, brstacksym, brstackoff: a sample's branch stack
 * (PERF_SAMPLE_BRANCH_STACK, or an Intel PT sample's with --itrace=l) as
 * perf 6.1 prints it, the latest branch first, one of the three (brstack
 * before brstacksym before brstackoff):
 *
 *   " 0xFROM(dso)/0xTO(dso)/P/-/-/12/ "      brstack
 *   "sym+0xoff(dso)/sym+0xoff(dso)/M/-/-/0/ " brstacksym
 *   " 0xOFF(dso)/0xOFF(dso)/-/X/A/0/ "       brstackoff: offsets in the DSOs
 *
 * "(dso)" with the dso field; the flags mispredicted (M) or predicted (P),
 * in a transaction (X), aborted (A), the basic block's cycles.
 *
 * brstackoff shows perf's state: an address in a DSO whose symbols perf
 * has loaded (the DSO of a sample printed before, or of this one) is shown
 * as it is (perf adjusts the symbols of user DSOs), in another one as its
 * offset in the mapping (perf's map_ip).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <prism/event.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "cmd.h"
#include "script.h"

/* the DSOs perf would have loaded by now: those of the samples' addresses */
static struct {
	const struct prism_dso **v;
	size_t nr;
} loaded;

static bool dso_loaded(const struct prism_dso *dso)
{
	size_t i;

	for (i = 0; i < loaded.nr; i++)
		if (loaded.v[i] == dso)
			return true;
	return false;
}

void script_brstack_sample_dso(const struct prism_dso *dso)
{
	if (!dso || dso_loaded(dso))
		return;
	loaded.v = xrealloc(loaded.v, (loaded.nr + 1) * sizeof(*loaded.v));
	loaded.v[loaded.nr++] = dso;
}

static char pred(uint64_t flags)
{
	if (!(flags & 3))
		return '-';
	return flags & 2 ? 'P' : 'M';
}

void script_branch_end(struct prism_symbols *sy, uint32_t pid, uint8_t cpumode, uint64_t addr,
		       unsigned int field, bool dso, struct prism_frame *fr,
		       struct prism_strbuf *sb)
{
	uint8_t fallback = addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	prism_symbols__resolve(sy, pid, cpumode, addr, fr);
	if (!fr->dso && fallback != cpumode)
		prism_symbols__resolve(sy, pid, fallback, addr, fr);
	if (field == F_BRSTACKSYM)
		prism_frame__format_sym(fr, PRISM_FRAME_FMT_SYMOFF, sb);
	else if (field == F_BRSTACKOFF && fr->dso && !dso_loaded(fr->dso))
		prism_strbuf_addf(sb, "0x%" PRIx64, fr->map_addr); /* perf's map_ip */
	else
		prism_strbuf_addf(sb, "0x%" PRIx64, addr);
	if (dso)
		prism_strbuf_addf(sb, "(%s)", fr->dso_path ? fr->dso_path : "[unknown]");
}

void script_put_brstack(struct prism_strbuf *sb, struct prism_symbols *sy,
			const struct prism_event *ev, unsigned int f)
{
	const struct prism_sample *s = &ev->sample;
	uint8_t cpumode = ev->raw->misc & PRISM_MISC_CPUMODE_MASK;
	unsigned int field = (f & F_BRSTACK)	? F_BRSTACK :
			     (f & F_BRSTACKSYM) ? F_BRSTACKSYM :
						  F_BRSTACKOFF;
	const uint64_t *e = s->branch_entries;
	struct prism_frame fr;
	uint64_t i;

	if (field == F_BRSTACKOFF) { /* perf resolves the sample's address first */
		prism_symbols__resolve(sy, s->pid, cpumode, s->ip, &fr);
		script_brstack_sample_dso(fr.dso);
	}
	for (i = 0; i < s->branch_nr; i++) {
		uint64_t flags = e[3 * i + 2];

		if (field != F_BRSTACKSYM)
			prism_strbuf_addch(sb, ' ');
		script_branch_end(sy, s->pid, cpumode, e[3 * i], field, f & F_DSO, &fr, sb);
		prism_strbuf_addch(sb, '/');
		script_branch_end(sy, s->pid, cpumode, e[3 * i + 1], field, f & F_DSO, &fr, sb);
		/* flags: mispred, predicted, in_tx, abort, cycles:16 */
		prism_strbuf_addf(sb, "/%c/%c/%c/%u/ ", pred(flags), flags & 4 ? 'X' : '-',
				  flags & 8 ? 'A' : '-', (unsigned int)((flags >> 4) & 0xffff));
	}
}
