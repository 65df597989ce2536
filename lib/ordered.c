// SPDX-License-Identifier: MIT
/*
 * Time ordering of perf.data records (see ordered.h for the semantics).
 *
 * Layout.  A queued record is copied into an arena chunk behind a 16-byte
 * header (file offset, size, chunk number), so the copy is 8-byte aligned.
 * The index holds 16-byte entries {time, pointer to the copy}:
 *
 *  - pend: records queued since the last flush, in arrival order;
 *  - left: the records a flush kept back, sorted, stable;
 *  - tmp:  scratch for sorting.
 *
 * A flush sorts pend with a stable natural merge sort: each CPU's part of a
 * round is already sorted, so a round of two CPUs is two runs and one merge
 * pass.  It then delivers by merging left (which arrived first, so it wins
 * ties) with pend up to the time limit, and what is not delivered becomes
 * the new left, normally by swapping buffers.  Under perf's rule every
 * record queued before the previous round is at or below the limit, so a
 * record is sorted once and held for at most two rounds.
 *
 * Chunks (1 MiB) count their undelivered records and go back to a free
 * list when the count drops to zero, so memory follows the largest pair of
 * rounds, not the file.  Records too large for a chunk get a chunk of
 * their own, freed on delivery.
 *
 * Runs.  Records queued with prism_ordered__queue_ref() stay in their file:
 * the queue keeps runs, contiguous file ranges of records with
 * non-decreasing times (each CPU's part of a round is one), with only
 * offsets, a record count and the arrival number of the first record.  A
 * flush merges the run heads and the copied records with a binary heap on
 * (time, arrival number), so equal times still come out in arrival order.
 * A run is read back through a buffer of its own (RUN_BUF_MIN to
 * RUN_BUF_MAX bytes, RUN_BUF_BUDGET shared by all runs), and the time of
 * each record read back is derived again by the time callback.  Memory then
 * follows the number of runs, not the size of a round.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdbool.h>

#include <linux/perf_event.h>

#include "ordered.h"
#include "ordered-sort.h"

#define CHUNK_SIZE ((size_t)1 << 20)
/* copies larger than this get their own chunk, so chunk tails waste little */
#define BIG_COPY (CHUNK_SIZE / 4)
#define NO_CHUNK UINT32_MAX
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
	prism_ordered_time_fn time_of;
	size_t sample_time_at; /* 0: the time callback finds every time */
};

enum flush_how {
	FLUSH_ROUND,
	FLUSH_HALF,
	FLUSH_ALL,
};

static inline size_t copy_size(size_t size)
{
	return sizeof(struct ord_hdr) + ((size + 7) & ~(size_t)7);
}

static inline size_t rec_cost(size_t size)
{
	return ((size + 7) & ~(size_t)7) + PRISM_ORDERED_REC_OVERHEAD;
}

/*
 * The copy of a typical record (16 to 128 bytes) as two overlapping
 * fixed-size moves, which the compiler inlines: a memcpy() call of a
 * variable size costs more than the copy itself.
 */
static inline void copy_rec(void *dst, const void *src, size_t size)
{
	char *d = dst;
	const char *s = src;

	if (size >= 16 && size <= 32) {
		memcpy(d, s, 16);
		memcpy(d + size - 16, s + size - 16, 16);
	} else if (size > 32 && size <= 64) {
		memcpy(d, s, 32);
		memcpy(d + size - 32, s + size - 32, 32);
	} else if (size > 64 && size <= 128) {
		memcpy(d, s, 64);
		memcpy(d + size - 64, s + size - 64, 64);
	} else if (size) {
		memcpy(d, s, size);
	}
}

static int new_slot(struct prism_ordered *o, uint32_t *idx)
{
	struct ord_chunk *c;
	int err;

	if (o->free_slots != NO_CHUNK) {
		*idx = o->free_slots;
		o->free_slots = o->chunks[*idx].next;
		return 0;
	}
	if (o->nr_chunks >= NO_CHUNK)
		return -ENOMEM;
	err = prism_ensure_mem((void **)&o->chunks, &o->chunks_cap, sizeof(*o->chunks),
			       o->nr_chunks + 1);
	if (err)
		return err;
	*idx = (uint32_t)o->nr_chunks++;
	c = &o->chunks[*idx];
	memset(c, 0, sizeof(*c));
	c->next = NO_CHUNK;
	return 0;
}

/* a slot with an empty chunk of at least @cap bytes */
static int get_chunk(struct prism_ordered *o, size_t cap, uint32_t *idx)
{
	struct ord_chunk *c;
	int err;

	if (cap <= CHUNK_SIZE && o->free_std != NO_CHUNK) {
		*idx = o->free_std;
		o->free_std = o->chunks[*idx].next;
		return 0;
	}
	if (cap < CHUNK_SIZE)
		cap = CHUNK_SIZE;
	err = new_slot(o, idx);
	if (err)
		return err;
	c = &o->chunks[*idx];
	c->mem = malloc(cap);
	if (!c->mem) {
		c->next = o->free_slots;
		o->free_slots = *idx;
		return -ENOMEM;
	}
	c->cap = cap;
	c->used = 0;
	c->live = 0;
	return 0;
}

static void put_chunk(struct prism_ordered *o, uint32_t idx)
{
	struct ord_chunk *c = &o->chunks[idx];

	c->used = 0;
	if (idx == o->cur)
		return;
	if (c->cap > CHUNK_SIZE) {
		zfree(&c->mem);
		c->cap = 0;
		c->next = o->free_slots;
		o->free_slots = idx;
	} else {
		c->next = o->free_std;
		o->free_std = idx;
	}
}

/*
 * Room for a copy of @need bytes when the current chunk is full: a new
 * current chunk, or a chunk of its own for a big copy.
 */
static char *alloc_slow(struct prism_ordered *o, size_t need, uint32_t *idx)
{
	struct ord_chunk *c;
	uint32_t old = o->cur;
	int err;

	if (need > BIG_COPY) {
		err = get_chunk(o, need, idx);
		if (err)
			return NULL;
	} else {
		err = get_chunk(o, need, idx);
		if (err)
			return NULL;
		o->cur = *idx;
		/* the old current chunk is recycled by its last delivery */
		if (old != NO_CHUNK && !o->chunks[old].live)
			put_chunk(o, old);
	}
	c = &o->chunks[*idx];
	c->used += need;
	c->live++;
	return c->mem + c->used - need;
}

static inline void release(struct prism_ordered *o, uint32_t idx)
{
	if (!--o->chunks[idx].live)
		put_chunk(o, idx);
}

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

/*
 * Sort pend stably.  The merge passes alternate between pend and tmp; if
 * the result ends in tmp, the two buffers trade places.
 * Note: tmp must hold pend.nr entries and runs ORD_SORT_RUNS(pend.nr).
 */
static void sort_pend(struct prism_ordered *o)
{
	if (ord_sort(o->pend.v, o->tmp.v, o->pend.nr, o->runs) != o->pend.v) {
		struct ord_vec v = o->pend;

		o->pend = o->tmp;
		o->pend.nr = v.nr;
		o->tmp = v;
		o->tmp.nr = 0;
	}
}

static int ensure_vec(struct ord_vec *v, size_t need)
{
	return prism_ensure_mem((void **)&v->v, &v->cap, sizeof(*v->v), need);
}

static inline bool heap_less(const struct ord_heap_ent *a, const struct ord_heap_ent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_down(struct ord_heap_ent *h, size_t n, size_t i)
{
	struct ord_heap_ent x = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && heap_less(&h[c + 1], &h[c]))
			c++;
		if (!heap_less(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/*
 * Make the first @need bytes of run @r's unread part available in its
 * buffer, at the buffer's start (so 8-byte aligned), keeping what is
 * buffered already and reading ahead as far as the buffer goes.
 */
static int run_fill(struct prism_ordered *o, struct ord_run *r, size_t need)
{
	uint64_t left = r->end - r->start;
	size_t keep = 0, len;
	int err;

	if (r->buf && r->start >= r->buf_off && r->start < r->buf_off + r->buf_len) {
		keep = (size_t)(r->buf_off + r->buf_len - r->start);
		memmove(r->buf, r->buf + (r->start - r->buf_off), keep);
	}
	r->buf_off = r->start;
	r->buf_len = keep;
	if (need > r->buf_cap || !r->buf) {
		/* the runs of a flush share RUN_BUF_BUDGET */
		size_t cap = RUN_BUF_BUDGET / (o->nr_runs ? o->nr_runs : 1);
		uint8_t *b;

		if (cap < RUN_BUF_MIN)
			cap = RUN_BUF_MIN;
		if (cap > RUN_BUF_MAX)
			cap = RUN_BUF_MAX;
		if (cap > left)
			cap = (size_t)left;
		if (cap < need)
			cap = need;
		cap = (cap + 7) & ~(size_t)7;
		if (!r->buf && o->nr_spare && o->spare[o->nr_spare - 1].cap >= cap) {
			o->nr_spare--;
			b = o->spare[o->nr_spare].mem;
			cap = o->spare[o->nr_spare].cap;
		} else {
			b = realloc(r->buf, cap);
		}
		if (!b)
			return -ENOMEM;
		r->buf = b;
		r->buf_cap = cap;
	}
	len = r->buf_cap < left ? r->buf_cap : (size_t)left;
	if (len > keep) {
		err = o->read(o->ctx, r->file, r->buf + keep, len - keep, r->start + keep);
		if (err)
			return err;
	}
	r->buf_len = len;
	return 0;
}

/* the record at the start of run @r, read back: 8-byte aligned, in its buffer */
static int run_rec(struct prism_ordered *o, struct ord_run *r, const uint8_t **rec, size_t *size)
{
	uint64_t left = r->end - r->start;
	const uint8_t *p = NULL;
	size_t sz;
	int err;

	if (r->buf && r->start >= r->buf_off && r->start + 8 <= r->buf_off + r->buf_len) {
		p = r->buf + (r->start - r->buf_off);
		if ((uintptr_t)p & 7)
			p = NULL;
	}
	if (!p) {
		if (left < 8)
			goto bad;
		err = run_fill(o, r, 8);
		if (err)
			return err;
		p = r->buf;
	}
	sz = get_u16(p + 6); /* perf_event_header.size */
	if (sz < 8 || sz > left)
		goto bad;
	if (r->start + sz > r->buf_off + r->buf_len) {
		err = run_fill(o, r, sz);
		if (err)
			return err;
		p = r->buf;
	}
	*rec = p;
	*size = sz;
	return 0;
bad:
	pr_err("ordered: the record read back at offset %#" PRIx64
	       " of input %u does not fit its run [%#" PRIx64 ", %#" PRIx64
	       "): the file changed while it was read\n",
	       r->start, r->file, r->start, r->end);
	return -PRISM_E_BAD_RECORD;
}

/* the record at the start of run @r when it is whole and aligned in its buffer, else NULL */
static inline const uint8_t *run_peek(const struct ord_run *r, size_t *size)
{
	const uint8_t *p;
	uint64_t at;
	size_t sz;

	if (!r->buf || r->start < r->buf_off)
		return NULL;
	at = r->start - r->buf_off;
	if (at + 8 > r->buf_len)
		return NULL;
	p = r->buf + at;
	sz = get_u16(p + 6); /* perf_event_header.size */
	if (((uintptr_t)p & 7) || sz < 8 || sz > r->end - r->start || at + sz > r->buf_len)
		return NULL;
	*size = sz;
	return p;
}

/* the time of a record read back */
static inline uint64_t rec_time(struct prism_ordered *o, const uint8_t *rec, size_t size)
{
	if (o->sample_time_at && size >= o->sample_time_at + 8 &&
	    get_u32(rec) == PERF_RECORD_SAMPLE)
		return get_u64(rec + o->sample_time_at);
	return o->time_of(o->ctx, rec, size);
}

/* the record at the start of @r, read back (valid until the run's buffer is filled again) */
static inline int run_next(struct prism_ordered *o, struct ord_run *r, const uint8_t **rec,
			   size_t *size)
{
	*rec = run_peek(r, size);
	return likely(*rec) ? 0 : run_rec(o, r, rec, size);
}

/* read the record at the start of @r back and find its time (*@time) again */
static int run_head(struct prism_ordered *o, struct ord_run *r, uint64_t *time)
{
	const uint8_t *rec;
	size_t size;
	int err = run_next(o, r, &rec, &size);

	if (err)
		return err;
	*time = r->head_time = rec_time(o, rec, size);
	r->have_head = true;
	r->head_rec = rec;
	r->head_size = size;
	return 0;
}

/* the head of the copied records, left before pend on equal times */
static inline const struct ord_ent *copy_head(const struct ord_ent *L, size_t li, size_t ln,
					      const struct ord_ent *P, size_t pi, size_t pn)
{
	if (li < ln && (pi == pn || L[li].time <= P[pi].time))
		return &L[li];
	return pi < pn ? &P[pi] : NULL;
}

static inline void copy_key(struct ord_heap_ent *h, const struct ord_ent *e)
{
	h->time = e->time;
	h->seq = ((const struct ord_hdr *)e->data - 1)->seq;
	h->src = COPY_SRC;
}

/*
 * The delivery loop of flush() when there are runs: a heap merge of every
 * run and of the copied records (left + sorted pend), by (time, arrival).
 * On return *@li and *@pi say how much of left and pend was delivered.
 */
static int merge_runs(struct prism_ordered *o, uint64_t limit, size_t budget, size_t *li_,
		      size_t *pi_)
{
	const struct ord_ent *L = o->left.v, *P = o->pend.v, *e;
	size_t li = *li_, ln = o->left.nr, pi = 0, pn = o->pend.nr, n = 0, i;
	struct ord_heap_ent *h = o->heap;
	int ret = 0;

	for (i = 0; i < o->nr_runs; i++) {
		struct ord_run *r = &o->rv[i];

		if (!r->nr)
			continue;
		if (!r->have_head) {
			ret = run_head(o, r, &r->head_time);
			if (ret)
				return ret;
		}
		h[n].time = r->head_time;
		h[n].seq = r->seq;
		h[n].src = (uint32_t)i;
		n++;
	}
	e = copy_head(L, li, ln, P, pi, pn);
	if (e)
		copy_key(&h[n++], e);
	for (i = n / 2; i-- > 0;)
		heap_down(h, n, i);

	o->delivering = true;
	while (budget && n && h[0].time <= limit) {
		budget--;
		if (h[0].src == COPY_SRC) {
			e = copy_head(L, li, ln, P, pi, pn);
			if (li < ln && e == &L[li]) /* L is NULL when empty */
				li++;
			else
				pi++;
			ret = deliver(o, e);
			if (unlikely(ret))
				break;
			e = copy_head(L, li, ln, P, pi, pn);
			if (e)
				copy_key(&h[0], e);
			else
				h[0] = h[--n];
		} else {
			struct ord_run *r = &o->rv[h[0].src];
			/* the smallest other head: this run goes on while it stays below */
			const struct ord_heap_ent *b = n < 2				? NULL :
						       n > 2 && heap_less(&h[2], &h[1]) ? &h[2] :
											  &h[1];
			uint64_t t = h[0].time;

			const uint8_t *rec = r->head_rec;
			size_t size = r->head_size;

			if (!rec && (ret = run_next(o, r, &rec, &size)))
				break;
			r->head_rec = NULL;
			r->have_head = false;
			/*
			 * Deliver the run's records while they stay below the other
			 * heads; the head it stops at is kept in the run.  (The time
			 * comes back in a register: loading it and seq from the run
			 * as one 16-byte word right after they were stored apart
			 * stalls on store forwarding.)
			 */
			for (;;) {
				uint64_t off = r->start;

				r->start += size;
				r->nr--;
				r->seq++;
				o->run_recs--;
				o->last_delivered = t;
				ret = o->fn(o->ctx, rec, size, t, off);
				if (unlikely(ret) || !r->nr)
					break;
				ret = run_next(o, r, &rec, &size);
				if (unlikely(ret))
					break;
				t = rec_time(o, rec, size);
				if (!budget || t > limit ||
				    (b && (t > b->time || (t == b->time && r->seq > b->seq)))) {
					r->head_time = t;
					r->have_head = true;
					r->head_rec = rec;
					r->head_size = size;
					break;
				}
				budget--;
			}
			if (unlikely(ret))
				break;
			if (r->nr) {
				h[0].time = t;
				h[0].seq = r->seq;
			} else {
				h[0] = h[--n];
			}
		}
		/* mostly the same run goes on: the top stays the smallest */
		if ((n > 1 && heap_less(&h[1], &h[0])) || (n > 2 && heap_less(&h[2], &h[0])))
			heap_down(h, n, 0);
	}
	o->delivering = false;
	*li_ = li;
	*pi_ = pi;
	return ret;
}

/* drop the runs that were delivered completely, keeping the others' order */
static void compact_runs(struct prism_ordered *o)
{
	size_t i, k = 0;

	for (i = 0; i < o->nr_runs; i++) {
		struct ord_run *r = &o->rv[i];

		if (r->nr) {
			if (k != i)
				o->rv[k] = *r;
			k++;
			continue;
		}
		if (r->buf && o->nr_spare < RUN_BUF_SPARE) {
			o->spare[o->nr_spare].mem = r->buf;
			o->spare[o->nr_spare++].cap = r->buf_cap;
		} else {
			free(r->buf);
		}
		o->bytes -= r->cost;
	}
	o->nr_runs = k;
}

/*
 * Deliver queued records in time order: those at or below the round limit
 * (FLUSH_ROUND), the older half (FLUSH_HALF) or all (FLUSH_ALL).
 * Note: on -ENOMEM nothing was delivered; on a callback error the records
 * after the failing one stay queued, in a consistent state.
 */
static int flush(struct prism_ordered *o, enum flush_how how)
{
	size_t nl = o->left.nr - o->left.head, np = o->pend.nr, total = nl + np + o->run_recs;
	size_t budget = total, li, ln, pi, pn;
	uint64_t limit = UINT64_MAX;
	struct ord_ent *L, *P;
	int ret = 0;

	if (how == FLUSH_ROUND) {
		if (!o->have_limit)
			return 0;
		limit = o->limit;
	} else if (how == FLUSH_HALF) {
		budget = (total + 1) / 2;
	}
	if (!total)
		return 0;

	/* all allocations first: past this point the flush cannot fail */
	if (ensure_vec(&o->tmp, total) ||
	    prism_ensure_mem((void **)&o->runs, &o->runs_cap, sizeof(*o->runs),
			     ORD_SORT_RUNS(np)) ||
	    prism_ensure_mem((void **)&o->heap, &o->heap_cap, sizeof(*o->heap), o->nr_runs + 1))
		return -ENOMEM;
	if (np > 1) {
		sort_pend(o);
		/* sort_pend may have swapped in a smaller tmp */
		if (ensure_vec(&o->tmp, total))
			return -ENOMEM;
	}

	L = o->left.v;
	li = o->left.head;
	ln = o->left.nr;
	P = o->pend.v;
	pi = 0;
	pn = np;
	if (o->nr_runs) {
		ret = merge_runs(o, limit, budget, &li, &pi);
		goto keep;
	}
	o->delivering = true;
	while (budget) {
		const struct ord_ent *e;

		/* left arrived before pend: it wins ties */
		if (li < ln && (pi == pn || L[li].time <= P[pi].time)) {
			if (L[li].time > limit)
				break;
			e = &L[li++];
		} else {
			if (P[pi].time > limit)
				break;
			e = &P[pi++];
		}
		budget--;
		ret = deliver(o, e);
		if (unlikely(ret))
			break;
	}
	o->delivering = false;

keep:
	/* what is left of both becomes the new left */
	if (pi == pn) {
		o->left.head = li;
	} else if (li == ln) {
		struct ord_vec v = o->left;

		o->left = o->pend;
		o->left.head = pi;
		o->pend = v;
	} else {
		struct ord_vec v = o->left;

		ord_merge(o->tmp.v, L + li, L + ln, P + pi, P + pn);
		o->left = o->tmp;
		o->left.head = 0;
		o->left.nr = (ln - li) + (pn - pi);
		o->tmp = v;
	}
	if (o->left.head == o->left.nr)
		o->left.head = o->left.nr = 0;
	o->pend.nr = 0;
	o->tmp.nr = 0;
	if (o->nr_runs)
		compact_runs(o);
	return ret;
}

/* a record older than one already delivered: hand it over at once */
static int deliver_late(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
			uint64_t file_offset)
{
	size_t words = size / 8 + 1;
	int ret;

	if (words > o->bounce_cap) {
		uint64_t *b = prism_reallocarray(o->bounce, words, sizeof(*b));

		if (!b)
			return -ENOMEM;
		o->bounce = b;
		o->bounce_cap = words;
	}
	if (!o->nr_out_of_order++)
		pr_debug("ordered: record at file offset %#" PRIx64 " with time %" PRIu64
			 " is older than the last delivered time %" PRIu64 "\n",
			 file_offset, time, o->last_delivered);
	if (size)
		memcpy(o->bounce, rec, size);
	o->delivering = true;
	ret = o->fn(o->ctx, o->bounce, size, time, file_offset);
	o->delivering = false;
	return ret;
}

/* the memory limit would be exceeded by @cost more bytes: deliver halves */
static int flush_early(struct prism_ordered *o, size_t cost)
{
	int ret;

	while (o->bytes && o->bytes + cost > o->mem_limit) {
		o->nr_early_flushes++;
		pr_debug("ordered: %zu queued bytes reach the limit of %zu, flushing half\n",
			 o->bytes, o->mem_limit);
		ret = flush(o, FLUSH_HALF);
		if (ret)
			return ret;
	}
	return 0;
}

struct prism_ordered *prism_ordered__new(size_t mem_limit, prism_ordered_deliver_fn fn, void *ctx)
{
	struct prism_ordered *o;
	int err;

	if (!fn) {
		errno = EINVAL;
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (!o) {
		errno = ENOMEM;
		return NULL;
	}
	o->fn = fn;
	o->ctx = ctx;
	o->mem_limit = mem_limit ? mem_limit : PRISM_ORDERED_DEFAULT_MEM_LIMIT;
	o->cur = o->free_std = o->free_slots = NO_CHUNK;
	err = get_chunk(o, CHUNK_SIZE, &o->cur);
	if (err)
		goto err_out;
	return o;

err_out:
	prism_ordered__free(o);
	errno = -err;
	return NULL;
}

void prism_ordered__free(struct prism_ordered *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nr_chunks; i++)
		free(o->chunks[i].mem);
	free(o->chunks);
	free(o->pend.v);
	free(o->left.v);
	free(o->tmp.v);
	free(o->runs);
	free(o->bounce);
	for (i = 0; i < o->nr_runs; i++)
		free(o->rv[i].buf);
	for (i = 0; i < o->nr_spare; i++)
		free(o->spare[i].mem);
	free(o->rv);
	free(o->heap);
	free(o);
}

int prism_ordered__queue(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
			 uint64_t file_offset)
{
	size_t need = copy_size(size), cost = rec_cost(size);
	struct ord_chunk *c;
	struct ord_hdr *h;
	uint32_t idx;
	int ret;

	if (unlikely(!o || size > UINT32_MAX))
		return -EINVAL;
	if (unlikely(o->delivering))
		return -EBUSY;
	if (unlikely(time < o->last_delivered))
		return deliver_late(o, rec, size, time, file_offset);
	if (unlikely(o->bytes + cost > o->mem_limit && o->bytes)) {
		ret = flush_early(o, cost);
		if (ret)
			return ret;
		if (time < o->last_delivered)
			return deliver_late(o, rec, size, time, file_offset);
	}
	if (unlikely(o->pend.nr == o->pend.cap) && ensure_vec(&o->pend, o->pend.nr + 1))
		return -ENOMEM;

	c = &o->chunks[o->cur];
	if (likely(c->cap - c->used >= need && need <= BIG_COPY)) {
		h = (struct ord_hdr *)(c->mem + c->used);
		c->used += need;
		c->live++;
		idx = o->cur;
	} else {
		h = (struct ord_hdr *)alloc_slow(o, need, &idx);
		if (!h)
			return -ENOMEM;
	}
	h->file_offset = file_offset;
	h->seq = o->seq++;
	h->size = (uint32_t)size;
	h->chunk = idx;
	copy_rec(h + 1, rec, size);

	o->pend.v[o->pend.nr].time = time;
	o->pend.v[o->pend.nr].data = (char *)(h + 1);
	o->pend.nr++;

	if (time > o->max_time || !o->have_max) {
		o->max_time = time;
		o->have_max = true;
	}
	o->bytes += cost;
	if (o->bytes > o->peak)
		o->peak = o->bytes;
	return 0;
}

void prism_ordered__set_sample_time(struct prism_ordered *o, size_t time_at)
{
	o->sample_time_at = time_at;
}

void prism_ordered__set_reader(struct prism_ordered *o, prism_ordered_read_fn read,
			       prism_ordered_time_fn time_of)
{
	o->read = read;
	o->time_of = time_of;
}

/*
 * What queueing a record by reference adds to the counted bytes, and the
 * run it extends (*@r), or NULL when it starts a new one.
 */
static inline size_t ref_cost(struct prism_ordered *o, size_t size, uint64_t time, uint32_t file,
			      uint64_t file_offset, struct ord_run **r)
{
	struct ord_run *last = o->nr_runs ? &o->rv[o->nr_runs - 1] : NULL;
	size_t now;

	if (last && last->file == file && last->end == file_offset && time >= last->last_time &&
	    last->seq + last->nr == o->seq) {
		*r = last;
		now = sizeof(*last) + sizeof(struct ord_heap_ent);
		now += last->end + size - last->start < RUN_BUF_MIN ?
			       (size_t)(last->end + size - last->start) :
			       RUN_BUF_MIN;
		return now > last->cost ? now - last->cost : 0;
	}
	*r = NULL;
	return sizeof(*last) + sizeof(struct ord_heap_ent) +
	       (size < RUN_BUF_MIN ? size : RUN_BUF_MIN);
}

int prism_ordered__queue_ref(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
			     uint32_t file, uint64_t file_offset)
{
	struct ord_run *r;
	size_t cost;
	int ret;

	if (unlikely(!o || !o->read || !o->time_of || size < 8 || size > UINT16_MAX ||
		     file_offset > UINT64_MAX - size))
		return -EINVAL;
	if (unlikely(o->delivering))
		return -EBUSY;
	if (unlikely(time < o->last_delivered))
		return deliver_late(o, rec, size, time, file_offset);
	cost = ref_cost(o, size, time, file, file_offset, &r);
	if (unlikely(o->bytes + cost > o->mem_limit && o->bytes)) {
		ret = flush_early(o, cost);
		if (ret)
			return ret;
		if (time < o->last_delivered)
			return deliver_late(o, rec, size, time, file_offset);
		cost = ref_cost(o, size, time, file, file_offset, &r);
	}
	if (!r) {
		if (prism_ensure_mem((void **)&o->rv, &o->rv_cap, sizeof(*o->rv), o->nr_runs + 1))
			return -ENOMEM;
		r = &o->rv[o->nr_runs++];
		memset(r, 0, sizeof(*r));
		r->start = r->end = file_offset;
		r->seq = o->seq;
		r->file = file;
		r->head_time = time;
		r->have_head = true;
	}
	r->end += size;
	r->nr++;
	r->last_time = time;
	r->cost += cost;
	o->run_recs++;
	o->seq++;
	if (time > o->max_time || !o->have_max) {
		o->max_time = time;
		o->have_max = true;
	}
	o->bytes += cost;
	if (o->bytes > o->peak)
		o->peak = o->bytes;
	return 0;
}

size_t prism_ordered__extend(struct prism_ordered *o, const void *p, size_t avail, uint32_t file,
			     uint64_t file_offset, size_t *nr)
{
	size_t time_at = o->sample_time_at;
	const uint8_t *b = p;
	uint64_t last, floor;
	struct ord_run *r;
	size_t pos = 0, n = 0;

	*nr = 0;
	if (unlikely(!time_at || !o->nr_runs || o->delivering || ((uintptr_t)p & 7) ||
		     o->bytes > o->mem_limit))
		return 0;
	r = &o->rv[o->nr_runs - 1];
	/* the conditions of ref_cost() finding the run, and a cost that stays */
	if (r->end != file_offset || r->file != file || r->seq + r->nr != o->seq ||
	    r->end - r->start < RUN_BUF_MIN)
		return 0;
	last = r->last_time;
	floor = o->last_delivered;
	while (avail - pos >= 8) {
		const uint8_t *rec = b + pos;
		size_t size = get_u16(rec + 6);
		uint64_t t;

		if (get_u32(rec) != PERF_RECORD_SAMPLE || size > avail - pos || (size & 7) ||
		    size < time_at + 8)
			break;
		t = get_u64(rec + time_at);
		if (t < last || t < floor || !t || t == ~0ull)
			break;
		last = t;
		pos += size;
		n++;
	}
	if (!n)
		return 0;
	r->end += pos;
	r->nr += n;
	r->last_time = last;
	o->run_recs += n;
	o->seq += n;
	if (last > o->max_time)
		o->max_time = last; /* have_max: set by the run's first record */
	*nr = n;
	return pos;
}

int prism_ordered__finished_round(struct prism_ordered *o)
{
	int ret;

	if (!o)
		return -EINVAL;
	if (o->delivering)
		return -EBUSY;
	ret = flush(o, FLUSH_ROUND);
	if (ret)
		return ret;
	/* everything still missing from this round arrives in the next one */
	o->limit = o->max_time;
	o->have_limit = o->have_max;
	return 0;
}

int prism_ordered__flush_all(struct prism_ordered *o)
{
	if (!o)
		return -EINVAL;
	if (o->delivering)
		return -EBUSY;
	return flush(o, FLUSH_ALL);
}

uint64_t prism_ordered__nr_out_of_order(const struct prism_ordered *o)
{
	return o->nr_out_of_order;
}

uint64_t prism_ordered__nr_early_flushes(const struct prism_ordered *o)
{
	return o->nr_early_flushes;
}

size_t prism_ordered__peak_bytes(const struct prism_ordered *o)
{
	return o->peak;
}
