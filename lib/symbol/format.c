// SPDX-License-Identifier: MIT
/*
 * Text forms of resolved frames, as perf script prints them.
 */
#include <inttypes.h>

#include <prism/strbuf.h>

#include "symbol-internal.h"

uint64_t prism_frame__addr(const struct prism_frame *f)
{
	/* perf script: kernel and module frames at the sampled address */
	return f->dso && !f->kernel ? f->map_addr : f->ip;
}

void prism_frame__format_sym(const struct prism_frame *f, unsigned int flags,
			     struct prism_strbuf *sb)
{
	if (!f->sym) {
		prism_strbuf_addstr(sb, "[unknown]");
	} else {
		prism_strbuf_addstr(sb, f->sym);
		if (flags & PRISM_FRAME_FMT_SYMOFF)
			prism_strbuf_addf(sb, "+0x%" PRIx64, f->symoff);
		if (f->kind == PRISM_FRAME_INLINED) {
			/* perf script: "name+0xoff (inlined)" in place of the DSO */
			prism_strbuf_addstr(sb, " (inlined)");
			return;
		}
	}
	if (flags & PRISM_FRAME_FMT_DSO)
		prism_strbuf_addf(sb, " (%s)", f->dso_path ? f->dso_path : "[unknown]");
}

void prism_frame__format_script(const struct prism_frame *f, unsigned int flags,
				struct prism_strbuf *sb)
{
	prism_strbuf_addf(sb, "\t%16" PRIx64 " ", prism_frame__addr(f));
	prism_frame__format_sym(f, flags, sb);
	prism_strbuf_addch(sb, '\n');
}
