/* SPDX-License-Identifier: MIT */
/*
 * pprof export: a gzipped profile.proto (github.com/google/pprof,
 * proto/profile.proto) written while samples arrive.
 *
 *	struct prism_pprof *pp = prism_pprof__new(fp, sy, &opts);
 *	prism_pprof__add(pp, &sample);   ... for every sample
 *	prism_pprof__finish(pp, &stats);
 *	prism_pprof__free(pp);
 *
 * Samples, locations and functions are written as they are first seen;
 * mappings (whose address range grows with the samples) and the string
 * table at the end.  Memory grows with the number of distinct locations,
 * functions, mappings and strings, never with the number of samples.
 * Locations carry the DSO's build id and file offset in their mapping and
 * one line per function at the address: inlined functions first, the
 * function they were inlined into last.
 */
#ifndef PRISM_EXPORT_PPROF_H
#define PRISM_EXPORT_PPROF_H

#include <stdio.h>

#include <prism/core.h>
#include <prism/export-sample.h>
#include <prism/symbol.h>

/* what a sample's period measures: its second sample type */
enum prism_pprof_value {
	PRISM_PPROF_CPU_NS, /* "cpu/nanoseconds": cpu-clock, task-clock */
	PRISM_PPROF_OFFCPU_NS, /* "off_cpu/nanoseconds": offcpu-time */
	PRISM_PPROF_EVENTS, /* "<event>/count": any other event's period */
};

struct prism_pprof_opts {
	enum prism_pprof_value value;
	const char *event; /* the event's name (type of PRISM_PPROF_EVENTS values) */
	bool labels; /* pid, tid, comm and cpu labels on every sample */
	bool no_srcline; /* leave out file names and line numbers (no DWARF lookups) */
	uint64_t period; /* the sampling period (ns for time events), 0 = unknown */
	const char *comment; /* a comment (e.g. the file name), may be NULL */
};

struct prism_pprof_stats {
	uint64_t samples, locations, functions, mappings, strings;
	uint64_t proto_bytes; /* before compression */
};

struct prism_pprof;

/**
 * prism_pprof__new - start a profile written to @fp
 * @sy: the symbols the frames came from (source lines, build ids)
 *
 * Return: the writer, or NULL with errno set (PRISM_E_NOFEATURE without zlib).
 */
PRISM_API struct prism_pprof *prism_pprof__new(FILE *fp, struct prism_symbols *sy,
					       const struct prism_pprof_opts *opts);
/* add a sample; 0, -ENOMEM or a write error (-errno) */
PRISM_API int prism_pprof__add(struct prism_pprof *p, const struct prism_export_sample *s);
/**
 * prism_pprof__finish - write the mappings, string table and profile fields
 * @time_nanos: wall-clock start, ns since the epoch (0 = unknown)
 * @duration_nanos: the profile's duration (0 = unknown)
 *
 * Return: 0 or -errno; @st (may be NULL) gets the counts either way.
 */
PRISM_API int prism_pprof__finish(struct prism_pprof *p, int64_t time_nanos,
				  uint64_t duration_nanos, struct prism_pprof_stats *st);
PRISM_API void prism_pprof__free(struct prism_pprof *p); /* accepts NULL */

#endif /* PRISM_EXPORT_PPROF_H */
