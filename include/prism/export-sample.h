/* SPDX-License-Identifier: MIT */
/*
 * One symbolized sample as the profile exporters (pprof, speedscope) take
 * it.  Pointers are borrowed for the call only.
 */
#ifndef PRISM_EXPORT_SAMPLE_H
#define PRISM_EXPORT_SAMPLE_H

#include <prism/core.h>
#include <prism/symbol.h>

struct prism_export_sample {
	const char *comm; /* NULL = unknown */
	uint32_t pid, tid, cpu;
	bool has_cpu;
	uint64_t time; /* the records' clock, ns; 0 = none */
	uint64_t period; /* value of the sample (ns for time-based events) */
	/* the call chain, leaf first (prism_symbols__callchain()); at least one frame */
	const struct prism_frame *frames;
	size_t nr;
};

#endif /* PRISM_EXPORT_SAMPLE_H */
