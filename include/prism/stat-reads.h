/* SPDX-License-Identifier: MIT */
/*
 * The counter reads of a `perf stat record` file: its THREAD_MAP and
 * CPU_MAP records say which threads and CPUs were counted, STAT records
 * carry one (value, enabled, running) each, and a STAT_ROUND closes a round
 * (an interval with -I, or the end).  At each round every counter's last
 * values are handed out, as perf script prints them: event by event, thread
 * by thread, CPU by CPU.
 *
 *	struct prism_stat_reads *r = prism_stat_reads__new(session);
 *	... for every record (tool->user):
 *	prism_stat_reads__event(r, ev, on_read, ctx);
 *	prism_stat_reads__free(r);
 */
#ifndef PRISM_STAT_READS_H
#define PRISM_STAT_READS_H

#include <prism/core.h>
#include <prism/event.h>

struct prism_session;
struct prism_evsel;
struct prism_stat_reads;

/* one counter's values at a round; -1 for "any CPU" and for "every thread" */
struct prism_stat_read {
	const struct prism_evsel *evsel;
	int cpu; /* the CPU number, -1 when counted on any CPU */
	int pid; /* the thread map's pid, -1 when counted system-wide */
	uint64_t val, ena, run;
	uint64_t time; /* the round's time (ns since the count started) */
};

typedef int (*prism_stat_read_cb)(void *arg, const struct prism_stat_read *rd);

/* NULL with errno set */
PRISM_API struct prism_stat_reads *prism_stat_reads__new(struct prism_session *s);
/* accepts NULL */
PRISM_API void prism_stat_reads__free(struct prism_stat_reads *r);

/**
 * prism_stat_reads__event - feed one record
 *
 * THREAD_MAP, CPU_MAP and STAT records are taken in; at a STAT_ROUND @cb is
 * called for every (event, thread, CPU) of the maps, with the last values a
 * STAT record gave (0 for one that none did).  A STAT record of an unknown
 * event id, CPU or thread is ignored, and so are rounds before both maps
 * are known.  Other records are ignored.
 *
 * Return: 0, -ENOMEM, or the first non-zero value @cb returned.
 */
PRISM_API int prism_stat_reads__event(struct prism_stat_reads *r, const struct prism_event *ev,
				      prism_stat_read_cb cb, void *arg);

/* STAT records taken in so far (a file with none is not a stat file) */
PRISM_API uint64_t prism_stat_reads__nr_reads(const struct prism_stat_reads *r);

#endif /* PRISM_STAT_READS_H */
