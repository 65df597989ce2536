/* SPDX-License-Identifier: MIT */
/*
 * An event of a perf.data file (one perf_event_attr and its ids).
 * Owned by the session; valid until prism_session__free().
 */
#ifndef PRISM_EVSEL_H
#define PRISM_EVSEL_H

#include <linux/perf_event.h>
#include <prism/core.h>

struct prism_evsel;

/* the attr as written (first 128 bytes; see __config3 for newer fields) */
PRISM_API const struct perf_event_attr *prism_evsel__attr(const struct prism_evsel *evsel);
/* attr.size as written in the file (64 .. 144+) */
PRISM_API uint32_t prism_evsel__attr_size(const struct prism_evsel *evsel);
PRISM_API uint64_t prism_evsel__config3(const struct prism_evsel *evsel);
/* perf's name: from EVENT_DESC / EVENT_UPDATE, else derived ("cpu-clock", "sched:sched_switch") */
PRISM_API const char *prism_evsel__name(const struct prism_evsel *evsel);
/* position in the file's attr list, from 0 */
PRISM_API int prism_evsel__idx(const struct prism_evsel *evsel);
PRISM_API size_t prism_evsel__nr_ids(const struct prism_evsel *evsel);
PRISM_API const uint64_t *prism_evsel__ids(const struct prism_evsel *evsel);
PRISM_API bool prism_evsel__is_tracepoint(const struct prism_evsel *evsel);
/* the sample period for samples without PERF_SAMPLE_PERIOD (attr.sample_period, or 0 in freq mode) */
PRISM_API uint64_t prism_evsel__fixed_period(const struct prism_evsel *evsel);
/*
 * a sample's period as perf counts it: PERF_SAMPLE_PERIOD's, else its
 * event's fixed period, 1 for a sample of no known event
 */
struct prism_event;
PRISM_API uint64_t prism_sample__period(const struct prism_event *ev);
/* samples and lost samples delivered for this event so far */
PRISM_API uint64_t prism_evsel__nr_samples(const struct prism_evsel *evsel);
PRISM_API uint64_t prism_evsel__nr_lost_samples(const struct prism_evsel *evsel);
/* per-event record counts by type (index < PRISM_RECORD_TYPE_MAX) */
PRISM_API uint64_t prism_evsel__nr_records(const struct prism_evsel *evsel, uint32_t type);
/* unit and scale from EVENT_UPDATE ("msec", 1e-6), or NULL / 0 */
PRISM_API const char *prism_evsel__unit(const struct prism_evsel *evsel);
PRISM_API double prism_evsel__scale(const struct prism_evsel *evsel);

/*
 * Application data attached to an evsel (per-event state of an analysis).
 * The library never looks at it.
 */
PRISM_API void prism_evsel__set_priv(struct prism_evsel *evsel, void *priv);
PRISM_API void *prism_evsel__priv(const struct prism_evsel *evsel);

/* names of bits, '|'-separated, perf's spelling: "IP|TID|TIME|CALLCHAIN|PERIOD" */
struct prism_strbuf;
PRISM_API void prism_sample_type__str(uint64_t sample_type, struct prism_strbuf *sb);
PRISM_API void prism_read_format__str(uint64_t read_format, struct prism_strbuf *sb);

#endif /* PRISM_EVSEL_H */
