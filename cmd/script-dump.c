// SPDX-License-Identifier: MIT
/*
 * prism script -D: every record in perf report -D's layout: its offset in
 * the input, size, type and bytes, then its decoded line
 * (lib/event/dump.c).
 */
#include <inttypes.h>

#include <prism/error.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/symbol.h>

#include "cmd.h"
#include "script.h"

/* where perf -D says a record is: pipe mode counts from after the 16-byte pipe header */
static uint64_t dump_offset(const struct prism_session *s, const struct prism_event *ev)
{
	bool pipe = prism_session__file_info(s)->pipe;

	return pipe && ev->file_offset >= 16 ? ev->file_offset - 16 : ev->file_offset;
}

void script_dump_malformed(const struct script_dump *d, const struct prism_session *s,
			   struct prism_strbuf *sb, const struct prism_event *ev)
{
	prism_event__dump_raw(ev, dump_offset(s, ev), d->where, sb);
	prism_strbuf_addf(sb, "\n%#" PRIx64 " [%#x]: PERF_RECORD_%s: malformed, skipped\n",
			  dump_offset(s, ev), ev->raw->size, prism_record_type_name(ev->type));
}

/* perf -D: an AUXTRACE record's Intel PT packets under its line */
static void dump_pt(struct script_dump *d, struct prism_strbuf *sb, const struct prism_event *ev,
		    int (*flush)(void *ctx, struct prism_strbuf *sb), void *ctx)
{
	int err;

	prism_strbuf_addstr(sb, ".\n");
	err = prism_pt__dump_packets(ev->payload, ev->payload_size, sb, flush, ctx);
	if (err == -PRISM_E_UNSUPPORTED && !d->no_libipt_warned) {
		d->no_libipt_warned = true;
		warning("this prism was built without libipt: Intel PT packets are not shown "
			"(install libipt-dev and rebuild)");
	}
}

bool script_dump_record(struct script_dump *d, const struct prism_session *s,
			struct prism_strbuf *sb, const struct prism_event *ev,
			int (*flush)(void *ctx, struct prism_strbuf *sb), void *ctx)
{
	struct prism_pt_info info;

	size_t n = prism_session__nr_evsels(s);

	/* as perf: the records a COMPRESSED one holds, not the container */
	if (ev->type == PRISM_RECORD_COMPRESSED || ev->type == PRISM_RECORD_COMPRESSED2)
		return false;
	/* events come and go only in pipe mode (HEADER_ATTR records): once per change */
	for (; d->nr_evsels < n; d->nr_evsels++) {
		const struct perf_event_attr *a =
			prism_evsel__attr(prism_session__evsel(s, d->nr_evsels));

		d->sample_type |= a->sample_type;
		d->id_all |= !d->nr_evsels && a->sample_id_all;
	}
	prism_event__dump_raw(ev, dump_offset(s, ev), d->where, sb);
	prism_strbuf_addch(sb, '\n');
	prism_event__dump_tstamp(ev, d->sample_type, d->id_all, sb);
	prism_strbuf_addf(sb, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", dump_offset(s, ev),
			  ev->raw->size, prism_record_type_name(ev->type));
	if (ev->type == PRISM_RECORD_AUXTRACE_INFO)
		d->intel_pt = !prism_pt_info__parse(ev, &info) &&
			      info.type == PRISM_AUXTRACE_INTEL_PT;
	/* the address spaces, for a TEXT_POKE's symbol */
	if (d->sy && ev->type != PERF_RECORD_SAMPLE)
		(void)prism_symbols__event(d->sy, ev);
	if (ev->type == PERF_RECORD_TEXT_POKE)
		script_put_text_poke(sb, ev, d->sy);
	else if (!prism_pt__dump_detail(ev, sb))
		prism_event__dump_detail(ev, sb);
	if (ev->type == PRISM_RECORD_AUXTRACE && d->intel_pt && ev->payload)
		dump_pt(d, sb, ev, flush, ctx);
	return true;
}
