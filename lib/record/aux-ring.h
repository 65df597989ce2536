/* SPDX-License-Identifier: MIT */
/*
 * The AUX area of a ring buffer (Intel PT's trace), read as perf record
 * reads it, into PERF_RECORD_AUXTRACE records.  Internal to lib/: the
 * recorder maps the area (aux_offset/aux_size in the user page) and hands
 * its control page and bytes here; the unit tests hand a plain buffer.
 *
 *	aux_ring__init(&a, pc, data, size, snapshot);   size: a power of two
 *	a.idx = ...; a.tid = ...; a.cpu = ...;          perf's mmap index, -1s
 *	aux_ring__read(&a, w, 0, ref);                  full mode: every poll
 *	aux_ring__read(&a, w, snap_size, ref);          snapshot: on SIGUSR2
 *
 * Full mode: aux_head is loaded with acquire semantics, the bytes between
 * the previous read and it are written (two pieces when they wrap around
 * the end of the area), then aux_tail is stored with release semantics,
 * giving the space back to the kernel.  Snapshot (overwrite) mode:
 * aux_head is an offset inside the area that the hardware keeps
 * overwriting; the data is taken backwards from it, the whole area once it
 * has wrapped (its last 4 KiB not all zero, perf's test), at most
 * @max_snapshot bytes; aux_tail is never written.
 */
#ifndef PRISM_RECORD_AUX_RING_H
#define PRISM_RECORD_AUX_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct prism_writer;

/* PERF_RECORD_AUXTRACE's fixed part: 48 bytes; header.size counts only these */
struct aux_record {
	struct perf_event_header header;
	uint64_t size; /* trace bytes that follow, padding to 8 included */
	uint64_t offset; /* where the first byte was in the AUX area's stream */
	uint64_t reference; /* a timestamp (TSC) of the read */
	uint32_t idx, tid, cpu, reserved;
};

struct aux_ring {
	struct perf_event_mmap_page *pc; /* aux_head / aux_tail */
	const uint8_t *data;
	uint64_t size; /* bytes, a power of two */
	uint64_t prev; /* aux_head at the previous read */
	bool snapshot;
	bool wrapped; /* snapshot: the area has been filled once */
	uint32_t idx, tid, cpu; /* written into each record; (uint32_t)-1 for none */
};

/* one piece of trace: the record and its bytes in up to two spans, then padding */
struct aux_chunk {
	struct aux_record rec;
	const uint8_t *a, *b;
	size_t alen, blen, pad;
	uint64_t head; /* aux_head the chunk ends at */
};

/* -EINVAL when @size is 0 or not a power of two */
int aux_ring__init(struct aux_ring *r, struct perf_event_mmap_page *pc, const void *data,
		   uint64_t size, bool snapshot);

/*
 * The data since the previous read (full mode), or the snapshot (at most
 * @max_snapshot bytes, 0: the whole area).  Return: 1 with *@c filled, 0
 * when there is nothing new.  Nothing is given back to the kernel yet.
 */
int aux_ring__next(struct aux_ring *r, uint64_t max_snapshot, uint64_t reference,
		   struct aux_chunk *c);
/* after @c was written: full mode gives the space back (aux_tail) */
void aux_ring__done(struct aux_ring *r, const struct aux_chunk *c);

/* next(), the record and its bytes to @w, done(); 0 also when there was nothing */
int aux_ring__read(struct aux_ring *r, struct prism_writer *w, uint64_t max_snapshot,
		   uint64_t reference);

/* a reference for AUXTRACE records: the TSC on x86 (perf's), else CLOCK_MONOTONIC ns */
uint64_t aux_reference(void);

#endif /* PRISM_RECORD_AUX_RING_H */
