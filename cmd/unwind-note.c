// SPDX-License-Identifier: MIT
/*
 * The end-of-run warning of the commands that unwind --call-graph dwarf
 * samples (script, report, offcpu): how many unwinds stopped early, and why.
 */
#include <inttypes.h>

#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "cmd.h"

void warn_unwind_stops(const struct prism_symbols *sy)
{
	const struct prism_unwind_stats *st = sy ? prism_symbols__unwind_stats(sy) : NULL;
	struct prism_strbuf sb = STRBUF_INIT;
	const char *sep = "";
	int i;

	if (!st || !st->nr_stopped)
		return;
	for (i = 0; i < PRISM_UNWIND__NR; i++) {
		if (!st->stopped[i])
			continue;
		prism_strbuf_addf(&sb, "%s%" PRIu64 ": %s", sep, st->stopped[i],
				  prism_unwind_stop__str(i));
		sep = "; ";
	}
	warning("%" PRIu64 " of %" PRIu64 " DWARF unwinds stopped early, their user frames "
		"end there (%s)",
		st->nr_stopped, st->nr_unwinds, sb.buf);
	if (st->stopped[PRISM_UNWIND_TRUNCATED])
		hint("a larger stack copy goes further: perf record --call-graph dwarf,SIZE "
		     "(SIZE up to 65528)");
	if (st->stopped[PRISM_UNWIND_NO_BINARY])
		hint("point --symfs or --map-path OLD=NEW at the binaries the file names");
	prism_strbuf_release(&sb);
}
