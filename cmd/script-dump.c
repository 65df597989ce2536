// SPDX-License-Identifier: MIT
/*
 * prism script -D: every record with its file offset, size, type name and
 * bytes (perf script -D's layout for the parts prism shows).
 */
#include <inttypes.h>

#include "script.h"

static void hexdump(struct prism_strbuf *sb, const uint8_t *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		prism_strbuf_addf(sb, ".  %04zx: ", i);
		for (j = i; j < i + 16; j++) {
			if (j < n)
				prism_strbuf_addf(sb, " %02x", p[j]);
			else
				prism_strbuf_addstr(sb, "   ");
		}
		prism_strbuf_addstr(sb, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			prism_strbuf_addch(sb, p[j] >= 0x20 && p[j] < 0x7f ? (char)p[j] : '.');
		prism_strbuf_addch(sb, '\n');
	}
}

static void dump_head(struct prism_strbuf *sb, const struct prism_event *ev)
{
	prism_strbuf_addf(sb,
			  "\n%#" PRIx64 "%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
			  ev->file_offset, ev->compressed ? " (in COMPRESSED)" : "", ev->raw->size,
			  ev->type, ev->raw->size);
	hexdump(sb, (const uint8_t *)ev->raw, ev->raw->size);
}

void script_dump_malformed(struct prism_strbuf *sb, const struct prism_event *ev)
{
	dump_head(sb, ev);
	prism_strbuf_addf(sb, "\n%#" PRIx64 " [%#x]: PERF_RECORD_%s: malformed, skipped\n",
			  ev->file_offset, ev->raw->size, prism_record_type_name(ev->type));
}

void script_dump_record(struct prism_strbuf *sb, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;

	dump_head(sb, ev);
	prism_strbuf_addf(sb, "\n%" PRIu64 " %#" PRIx64 " [%#x]: PERF_RECORD_%s", s->time,
			  ev->file_offset, ev->raw->size, prism_record_type_name(ev->type));
	if (ev->type == PERF_RECORD_SAMPLE)
		prism_strbuf_addf(sb,
				  "(IP, %#x): %u/%u: %#" PRIx64 " period: %" PRIu64
				  " addr: %#" PRIx64,
				  ev->raw->misc, s->pid, s->tid, s->ip, s->period, s->addr);
	prism_strbuf_addch(sb, '\n');
}
