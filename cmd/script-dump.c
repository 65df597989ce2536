// SPDX-License-Identifier: MIT
/*
 * prism script -D: every record in perf report -D's layout: its offset in
 * the input, size, type and bytes, then its decoded line
 * (lib/event/dump.c).
 */
#include <inttypes.h>

#include <prism/session.h>

#include "script.h"

/* where perf -D says a record is: pipe mode counts from after the 16-byte pipe header */
static uint64_t dump_offset(const struct prism_session *s, const struct prism_event *ev)
{
	bool pipe = prism_session__file_info(s)->pipe;

	return pipe && ev->file_offset >= 16 ? ev->file_offset - 16 : ev->file_offset;
}

void script_dump_malformed(const struct prism_session *s, const char *where,
			   struct prism_strbuf *sb, const struct prism_event *ev)
{
	prism_event__dump_raw(ev, dump_offset(s, ev), where, sb);
	prism_strbuf_addf(sb, "\n%#" PRIx64 " [%#x]: PERF_RECORD_%s: malformed, skipped\n",
			  dump_offset(s, ev), ev->raw->size, prism_record_type_name(ev->type));
}

bool script_dump_record(const struct prism_session *s, const char *where, struct prism_strbuf *sb,
			const struct prism_event *ev)
{
	uint64_t type = 0;
	bool id_all = false;
	size_t i, n = prism_session__nr_evsels(s);

	/* as perf: the records a COMPRESSED one holds, not the container */
	if (ev->type == PRISM_RECORD_COMPRESSED || ev->type == PRISM_RECORD_COMPRESSED2)
		return false;
	/* perf's combined sample_type and the first event's sample_id_all */
	for (i = 0; i < n; i++) {
		const struct perf_event_attr *a = prism_evsel__attr(prism_session__evsel(s, i));

		type |= a->sample_type;
		id_all |= !i && a->sample_id_all;
	}
	prism_event__dump_raw(ev, dump_offset(s, ev), where, sb);
	prism_strbuf_addch(sb, '\n');
	prism_event__dump_tstamp(ev, type, id_all, sb);
	prism_strbuf_addf(sb, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", dump_offset(s, ev),
			  ev->raw->size, prism_record_type_name(ev->type));
	prism_event__dump_detail(ev, sb);
	return true;
}
