/* SPDX-License-Identifier: MIT */
/*
 * Decoding kernel records: samples, sample_id trailers, typed bodies.
 */
#ifndef PRISM_EVENT_PARSE_H
#define PRISM_EVENT_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include <prism/event.h>

struct prism_evsel;

/*
 * prism_sample__parse - decode a PERF_RECORD_SAMPLE by its event's attr
 * @rec: the whole record (header included), 8-byte aligned, writable
 * @swapped: the record came from an opposite-endian file and its body was
 *           swapped as u64 words; u32 pairs, RAW, STACK_USER and AUX data
 *           are put right here (in place)
 *
 * Return: 0, or -PRISM_E_BAD_SAMPLE when a field does not fit the record.
 */
int prism_sample__parse(const struct prism_evsel *evsel, void *rec, bool swapped,
			struct prism_sample *s);

/* decode the sample_id trailer of a non-sample record (0 when there is none) */
int prism_sample__parse_id(const struct prism_evsel *evsel, const void *rec, bool swapped,
			   struct prism_sample *s);

/*
 * prism_event__decode - fill ev's typed body for the kernel record types it
 * knows (MMAP, MMAP2, COMM, FORK, EXIT, LOST, LOST_SAMPLES, SWITCH*,
 * THROTTLE, READ, KSYMBOL, NAMESPACES, CGROUP).  @body_end is where the
 * trailer starts (record size minus the trailer).
 * Return: 0, or -PRISM_E_BAD_RECORD.
 */
int prism_event__decode(struct prism_event *ev, const struct prism_evsel *evsel, size_t body_end);

/* the id of a record, from the id positions of the file (see session.c) */
struct prism_id_pos {
	int id_pos; /* u64 index after the header in SAMPLE, -1 none */
	int is_pos; /* u64 index from the end in other records, -1 none */
};

#endif /* PRISM_EVENT_PARSE_H */
