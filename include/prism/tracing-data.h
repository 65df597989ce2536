/* SPDX-License-Identifier: MIT */
/*
 * The TRACING_DATA blob of a perf.data file (feature 1, or the payload of a
 * PERF_RECORD_HEADER_TRACING_DATA record in pipe mode), built from tracefs.
 */
#ifndef PRISM_TRACING_DATA_H
#define PRISM_TRACING_DATA_H

#include <prism/core.h>

struct prism_strbuf;
struct prism_evspecs;

/**
 * prism_tracing_data_build - build the tracing-data blob for the tracepoints in @specs
 * @specs: parsed events; only the tracepoints among them are used (each
 *	   format once, systems and events in tracefs directory order, as perf
 *	   writes them: for the same events the blob is byte for byte perf's,
 *	   up to saved_cmdlines)
 * @buf: set to a malloc'd blob (caller frees)
 * @len: set to its size in bytes
 *
 * The layout is perf's, version "0.6": magic, version, endianness, long
 * size, page size, header_page, header_event, ftrace formats (of ftrace:*
 * events in @specs), per-system event formats, kallsyms (empty, as perf
 * 5.x+ writes it), printk_formats and saved_cmdlines.  Readable by
 * prism_tp__new() and perf 6.1.
 *
 * Return: 0; -ENOENT when tracefs or a format file is missing; -EACCES;
 * -ENOMEM; other -errno.  Nothing is allocated on error.
 */
PRISM_API int prism_tracing_data_build(struct prism_evspecs *specs, void **buf, size_t *len);

#endif /* PRISM_TRACING_DATA_H */
