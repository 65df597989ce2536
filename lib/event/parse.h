/* SPDX-License-Identifier: MIT */
/*
 * Decoding kernel records: samples, sample_id trailers, typed bodies.
 */
#ifndef PRISM_EVENT_PARSE_H
#define PRISM_EVENT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/*
 * The sample_type bits of the fields from 'read' to the end of struct
 * prism_sample.  prism_sample__parse_hot() is prism_sample__parse() for a
 * struct whose fields of these bits are clear already (a struct reused for
 * samples without them needs no clearing of its 200 bytes of rare fields);
 * prism_sample__clear_cold() clears them.
 */
#define PRISM_SAMPLE_COLD                                                          \
	(PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |     \
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |  \
	 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | \
	 PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)
int prism_sample__parse_hot(const struct prism_evsel *evsel, void *rec, bool swapped,
			    struct prism_sample *s);
void prism_sample__clear_cold(struct prism_sample *s);
/* the basic fields of a sample parsed in full (prism_sample__parse_basic(): sample-fast.h) */
void prism_sample__basic_of(const struct prism_sample *s, struct prism_sample_basic *b);

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

/*
 * prism_mmap2__without_prot - the MMAP2 body @body of @n bytes (sample_id
 * trailer excluded) has the layout of Linux 3.12-3.15 and RHEL 7: no prot
 * and flags, the filename at body offset 56.  Works on either byte order.
 */
bool prism_mmap2__without_prot(const uint8_t *body, size_t n);

/* the id of a record, from the id positions of the file (see session.c) */
struct prism_id_pos {
	int id_pos; /* u64 index after the header in SAMPLE, -1 none */
	int is_pos; /* u64 index from the end in other records, -1 none */
};

#endif /* PRISM_EVENT_PARSE_H */
