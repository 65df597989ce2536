/* SPDX-License-Identifier: MIT */
/*
 * The time sort's state, shared by ordered.c (copied records, flushes) and
 * ordered-runs.c (records that stay in their file).  Internal to lib/.
 */
#ifndef PRISM_ORDERED_INTERNAL_H
#define PRISM_ORDERED_INTERNAL_H

#include "internal.h"

#include <stdbool.h>

#include <linux/perf_event.h>

#include "session/ordered.h"
#include "session/ordered-sort.h"

/* read-back buffers of runs */
#define RUN_BUF_MIN ((size_t)4 << 10)
#define RUN_BUF_MAX ((size_t)128 << 10)
#define RUN_BUF_BUDGET ((size_t)8 << 20)
/* buffers of finished runs kept for the next (malloc would map and unmap each) */
#define RUN_BUF_SPARE 64
/* heap source number of the copied records */
#define COPY_SRC UINT32_MAX

struct ord_hdr {
	uint64_t file_offset;
	uint64_t seq; /* arrival number */
	uint32_t size;
	uint32_t chunk;
};

/* records [start, end) of one file, times non-decreasing, not yet delivered */
struct ord_run {
	uint64_t start, end;
	uint64_t nr; /* records in [start, end) */
	uint64_t seq; /* arrival number of the record at start */
	uint64_t head_time; /* its time, when have_head */
	const uint8_t *head_rec; /* the record read back for it, or NULL */
	size_t head_size;
	uint64_t last_time; /* time of the last record */
	uint8_t *buf; /* holds the file bytes [buf_off, buf_off + buf_len) */
	uint64_t buf_off;
	size_t buf_len, buf_cap;
	size_t cost; /* counted in bytes */
	uint64_t view_off; /* buf is the view pinned at this offset, when viewed */
	bool viewed;
	uint32_t file;
	bool have_head;
};

struct ord_heap_ent {
	uint64_t time;
	uint64_t seq;
	uint32_t src; /* a run, or COPY_SRC */
};

struct ord_vec {
	struct ord_ent *v;
	size_t head; /* entries before head are delivered (left only) */
	size_t nr;
	size_t cap;
};

struct ord_buf {
	uint8_t *mem;
	size_t cap;
};

struct ord_chunk {
	char *mem; /* NULL while the slot is on the empty-slot list */
	size_t cap;
	size_t used;
	size_t live; /* records not yet delivered */
	uint32_t next; /* free-list link */
};

struct prism_ordered {
	prism_ordered_deliver_fn fn;
	void *ctx;
	size_t mem_limit;

	struct ord_vec pend, left, tmp;
	size_t *runs;
	size_t runs_cap;

	struct ord_chunk *chunks;
	size_t nr_chunks, chunks_cap;
	uint32_t cur; /* chunk receiving small copies */
	uint32_t free_std; /* empty CHUNK_SIZE chunks */
	uint32_t free_slots; /* slots without memory */

	uint64_t max_time; /* largest time queued */
	uint64_t limit; /* max_time at the previous round */
	bool have_max, have_limit;
	bool delivering;
	uint64_t last_delivered; /* largest time delivered in order */

	size_t bytes, peak;
	uint64_t nr_out_of_order, nr_early_flushes;

	uint64_t *bounce; /* aligned copy of an out-of-order record */
	size_t bounce_cap;

	uint64_t seq; /* arrival number of the next queued record */
	struct ord_run *rv; /* runs, in arrival order */
	size_t nr_runs, rv_cap;
	uint64_t run_recs; /* records in runs */
	struct ord_heap_ent *heap;
	size_t heap_cap;
	struct ord_buf spare[RUN_BUF_SPARE];
	size_t nr_spare;
	prism_ordered_read_fn read;
	prism_ordered_view_fn view;
	prism_ordered_unview_fn unview;
	prism_ordered_time_fn time_of;
	size_t sample_time_at; /* 0: the time callback finds every time */
};

enum flush_how {
	FLUSH_ROUND,
	FLUSH_HALF,
	FLUSH_ALL,
};

/* ordered-runs.c: give back the buffer or view of a run */
void ord_run_release(struct prism_ordered *o, struct ord_run *r);

/* ordered.c: an emptied chunk goes back to a free list */
void ord_put_chunk(struct prism_ordered *o, uint32_t idx);

static inline size_t rec_cost(size_t size)
{
	return ((size + 7) & ~(size_t)7) + PRISM_ORDERED_REC_OVERHEAD;
}

static inline void release(struct prism_ordered *o, uint32_t idx)
{
	if (!--o->chunks[idx].live)
		ord_put_chunk(o, idx);
}

/* hand a copied record to the deliver callback and release its copy */
static inline int deliver(struct prism_ordered *o, const struct ord_ent *e)
{
	const struct ord_hdr *h = (const struct ord_hdr *)e->data - 1;
	uint32_t size = h->size, chunk = h->chunk;
	int ret;

	o->last_delivered = e->time;
	ret = o->fn(o->ctx, e->data, size, e->time, h->file_offset);
	o->bytes -= rec_cost(size);
	release(o, chunk);
	return ret;
}

/* a record of @time was queued, counted as @cost bytes */
static inline void ord_queued(struct prism_ordered *o, uint64_t time, size_t cost)
{
	if (time > o->max_time || !o->have_max) {
		o->max_time = time;
		o->have_max = true;
	}
	o->bytes += cost;
	if (o->bytes > o->peak)
		o->peak = o->bytes;
}

/* deliver queued records in time order (see ordered.c) */
int ord_flush(struct prism_ordered *o, enum flush_how how);
/* a record older than one already delivered: hand it over at once */
int ord_deliver_late(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
		     uint64_t file_offset);
/* the memory limit would be exceeded by @cost more bytes: deliver halves */
int ord_flush_early(struct prism_ordered *o, size_t cost);

/* ordered-runs.c: the delivery loop of a flush when there are runs, and its clean-up */
int ord_merge_runs(struct prism_ordered *o, uint64_t limit, size_t budget, size_t *li_,
		   size_t *pi_);
void ord_compact_runs(struct prism_ordered *o);

#endif /* PRISM_ORDERED_INTERNAL_H */
