/* SPDX-License-Identifier: MIT */
/*
 * speedscope export: the speedscope JSON file format
 * (https://www.speedscope.app/file-format-schema.json): one frame table
 * shared by every profile, one "sampled" profile per thread, stacks root
 * first, a weight per sample.
 *
 * Memory stays bounded: a thread's samples and weights are kept as JSON
 * text in small buffers that spill into an unlinked temporary file, and
 * are copied out per thread at the end.  Frames (function and DSO) and
 * threads are held in memory.
 */
#ifndef PRISM_EXPORT_SPEEDSCOPE_H
#define PRISM_EXPORT_SPEEDSCOPE_H

#include <stdio.h>

#include <prism/core.h>
#include <prism/export-sample.h>

struct prism_speedscope_opts {
	const char *name; /* the profile group's name (e.g. the input file) */
	/* the weights' unit: "nanoseconds" for time events, else "none" */
	const char *unit;
};

struct prism_speedscope_stats {
	uint64_t samples, frames, profiles, bytes;
};

struct prism_speedscope;

/* NULL with errno set */
PRISM_API struct prism_speedscope *prism_speedscope__new(FILE *fp,
							 const struct prism_speedscope_opts *opts);
/* 0, -ENOMEM or -errno of the temporary file */
PRISM_API int prism_speedscope__add(struct prism_speedscope *ss,
				    const struct prism_export_sample *s);
/* write the document to the stream; 0 or -errno; @st may be NULL */
PRISM_API int prism_speedscope__finish(struct prism_speedscope *ss,
				       struct prism_speedscope_stats *st);
PRISM_API void prism_speedscope__free(struct prism_speedscope *ss); /* accepts NULL */

#endif /* PRISM_EXPORT_SPEEDSCOPE_H */
