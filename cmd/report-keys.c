// SPDX-License-Identifier: MIT
/*
 * prism report's columns of perf's sample keys beyond the task and the
 * stack (socket, cgroup, cgroup_id, the weights and latencies): their
 * headers, texts and widths as perf report --stdio prints them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <prism/evsel.h>
#include <prism/profile.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/tp.h>

#include "report.h"

bool report_is_sample_key(int key)
{
	return key >= PRISM_SORT_SOCKET && key <= PRISM_SORT_TRACE;
}

int report_sample_keys(struct report *r, const struct prism_event *ev, struct prism_profile *p)
{
	const struct prism_tp *tp = prism_session__tp(r->s);
	struct prism_sample_keys k;
	int err;

	prism_key_source__sample(r->ks, ev, &k);
	prism_strbuf_reset(&r->trace);
	/* perf: the event's print fmt rendered; no text, no row of its own */
	if (tp && ev->evsel && prism_evsel__is_tracepoint(ev->evsel) &&
	    (ev->sample.type & PERF_SAMPLE_RAW) && ev->sample.raw_data &&
	    !(r->raw_trace ? prism_tp__format_fields : prism_tp__format)(
		    tp, ev->sample.raw_data, ev->sample.raw_size, &r->trace))
		k.trace = r->trace.buf ? r->trace.buf : "";
	err = prism_profile__set_sample_keys(p, &k);
	return err;
}

int32_t report_sample_socket(struct report *r, const struct prism_event *ev)
{
	struct prism_sample_keys k;

	prism_key_source__sample(r->ks, ev, &k);
	return k.socket;
}

/* perf 6.1 has the pipeline stage keys on powerpc only: elsewhere it drops them */
bool report_key_dropped(int key)
{
#if defined(__powerpc__) || defined(__powerpc64__)
	(void)key;
	return false;
#else
	return key == PRISM_SORT_LOCAL_P_STAGE_CYC || key == PRISM_SORT_P_STAGE_CYC;
#endif
}

const char *report_key_header(int key)
{
	switch (key) {
	case PRISM_SORT_SOCKET:
		return "Socket";
	case PRISM_SORT_DSO_SIZE:
		return "DSO size";
	case PRISM_SORT_CGROUP:
		return "Cgroup";
	case PRISM_SORT_CGROUP_ID:
		return "cgroup id (dev/inode)";
	case PRISM_SORT_LOCAL_WEIGHT:
		return "Local Weight";
	case PRISM_SORT_WEIGHT:
		return "Weight";
	case PRISM_SORT_LOCAL_INS_LAT:
		return "Local INSTR Latency";
	case PRISM_SORT_INS_LAT:
		return "INSTR Latency";
	case PRISM_SORT_LOCAL_P_STAGE_CYC:
		return "Local Pipeline Stage Cycle";
	case PRISM_SORT_P_STAGE_CYC:
		return "Pipeline Stage Cycle";
	case PRISM_SORT_TRACE:
		return "Trace output";
	default:
		return "";
	}
}

/* perf's width of the column before the rows widen it (its hists__calc_col_len) */
size_t report_key_width(int key)
{
	switch (key) {
	case PRISM_SORT_LOCAL_WEIGHT:
	case PRISM_SORT_WEIGHT:
		return 12;
	default:
		return strlen(report_key_header(key));
	}
}

/* numbers perf right-aligns */
bool report_key_right(int key)
{
	return key == PRISM_SORT_SOCKET || key == PRISM_SORT_DSO_SIZE;
}

static uint64_t avg(uint64_t sum, uint64_t n)
{
	return n ? sum / n : 0;
}

void report_key_text(int key, const struct prism_hist_entry *e, char *buf, size_t len)
{
	switch (key) {
	case PRISM_SORT_SOCKET: /* perf: "%*.*d" in the width, three digits */
		snprintf(buf, len, "%.3d", (int)e->socket);
		break;
	case PRISM_SORT_DSO_SIZE: /* perf prints the size as an int */
		if (e->dso_size)
			snprintf(buf, len, "%d", (int)e->dso_size);
		else
			snprintf(buf, len, "unknown");
		break;
	case PRISM_SORT_CGROUP:
		snprintf(buf, len, "%s",
			 !e->cgroup	? "N/A" :
			 e->cgroup_name ? e->cgroup_name :
					  "unknown");
		break;
	case PRISM_SORT_CGROUP_ID:
		snprintf(buf, len, "%" PRIu64 "/0x%" PRIx64, e->cgroup_dev, e->cgroup_ino);
		break;
	case PRISM_SORT_LOCAL_WEIGHT:
		snprintf(buf, len, "%" PRIu64, e->weight);
		break;
	case PRISM_SORT_WEIGHT: /* perf: the weight times the row's samples */
		snprintf(buf, len, "%" PRIu64, e->weight * e->nr_samples);
		break;
	case PRISM_SORT_LOCAL_INS_LAT:
		snprintf(buf, len, "%" PRIu64, avg(e->ins_lat, e->nr_samples));
		break;
	case PRISM_SORT_INS_LAT:
		snprintf(buf, len, "%" PRIu64, e->ins_lat);
		break;
	case PRISM_SORT_LOCAL_P_STAGE_CYC:
		snprintf(buf, len, "%" PRIu64, avg(e->p_stage_cyc, e->nr_samples));
		break;
	case PRISM_SORT_P_STAGE_CYC:
		snprintf(buf, len, "%" PRIu64, e->p_stage_cyc);
		break;
	case PRISM_SORT_TRACE:
		snprintf(buf, len, "%s", e->trace ? e->trace : "N/A");
		break;
	default:
		buf[0] = '\0';
	}
}
