// SPDX-License-Identifier: MIT
/*
 * readperf's overview.csv row: nr,type,pid,tid,time,info for one record.
 * Shared by `prism script --csv` and `prism report --csv-dir`.
 */
#include <inttypes.h>
#include <string.h>

#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/strbuf.h>

#include "internal.h"

void prism_event__overview_csv(struct prism_strbuf *sb, uint64_t nr, const struct prism_event *ev,
			       uint64_t period)
{
	const struct prism_sample *s = &ev->sample;

	prism_strbuf_addf(sb, "%" PRIu64 ",%s,", nr, prism_record_type_name(ev->type));
	if (ev->type < PRISM_RECORD_HEADER_ATTR && (s->type & PERF_SAMPLE_TID))
		prism_strbuf_addf(sb, "%d,%d,", (int)s->pid, (int)s->tid);
	else
		prism_strbuf_addstr(sb, ",,");
	if (s->time)
		prism_strbuf_addf(sb, "%" PRIu64, s->time);
	prism_strbuf_addch(sb, ',');
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		prism_strbuf_addf(sb, "%s ip=0x%" PRIx64 " period=%" PRIu64,
				  prism_evsel__name(ev->evsel), s->ip, period);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		prism_strbuf_addf(sb, "%u/%u 0x%" PRIx64 "+0x%" PRIx64 " ", ev->mmap.pid,
				  ev->mmap.tid, ev->mmap.start, ev->mmap.len);
		prism_strbuf_add_csv(sb, ev->mmap.filename);
		break;
	case PERF_RECORD_COMM:
		prism_strbuf_addf(sb, "%u/%u ", ev->comm.pid, ev->comm.tid);
		prism_strbuf_add_csv(sb, ev->comm.comm);
		if (ev->comm.exec)
			prism_strbuf_addstr(sb, " (exec)");
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		prism_strbuf_addf(sb, "%u/%u parent %u/%u", ev->fork.pid, ev->fork.tid,
				  ev->fork.ppid, ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		prism_strbuf_addf(sb, "lost %" PRIu64, ev->lost.lost);
		break;
	default:
		break;
	}
	prism_strbuf_addch(sb, '\n');
}
