// SPDX-License-Identifier: MIT
/*
 * Time ordering of records that stay in their file (see ordered.h).
 *
 * Runs.  Records queued with prism_ordered__queue_ref() stay in their file:
 * the queue keeps runs, contiguous file ranges of records with
 * non-decreasing times (each CPU's part of a round is one), with only
 * offsets, a record count and the arrival number of the first record.  A
 * flush merges the run heads and the copied records with a binary heap on
 * (time, arrival number), so equal times still come out in arrival order.
 * A run is read back in place where its input offers views of its bytes
 * (prism_ordered__set_view(): a mapped file), else through a buffer of its
 * own (RUN_BUF_MIN to RUN_BUF_MAX bytes, RUN_BUF_BUDGET shared by all
 * runs).  The time of each record read back is derived again (at the
 * offset given by prism_ordered__set_sample_time() for samples, else by the
 * time callback).  Memory then follows the number of runs, not the size of
 * a round.
 */
#include "session/ordered-internal.h"

#include <inttypes.h>

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

/* give back the buffer or view of a run */
void ord_run_release(struct prism_ordered *o, struct ord_run *r)
{
	if (r->viewed) {
		o->unview(o->ctx, r->file, r->view_off);
		r->viewed = false;
	} else if (r->buf && o->nr_spare < RUN_BUF_SPARE) {
		o->spare[o->nr_spare].mem = r->buf;
		o->spare[o->nr_spare++].cap = r->buf_cap;
	} else {
		free(r->buf);
	}
	r->buf = NULL;
	r->buf_cap = r->buf_len = 0;
}

/*
 * Point run @r's buffer at its file's bytes in place, holding at least
 * the first @need bytes of its unread part.  0 when done, 1 when they are
 * to be read into a buffer instead.
 */
static int run_view(struct prism_ordered *o, struct ord_run *r, size_t need)
{
	const uint8_t *p;
	size_t avail;

	ord_run_release(o, r);
	if (r->start & 7)
		return 1;
	p = o->view(o->ctx, r->file, r->start, &avail);
	if (!p)
		return 1;
	if (avail < need) {
		o->unview(o->ctx, r->file, r->start);
		return 1;
	}
	r->viewed = true;
	r->view_off = r->start;
	r->buf = (uint8_t *)p; /* only read */
	r->buf_off = r->start;
	r->buf_len = avail < r->end - r->start ? avail : (size_t)(r->end - r->start);
	return 0;
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

	if (o->view && run_view(o, r, need) == 0)
		return 0;
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

/* the end of run @r's bytes in its buffer, as an offset in it */
static inline size_t run_lim(const struct ord_run *r)
{
	return r->end - r->buf_off < r->buf_len ? (size_t)(r->end - r->buf_off) : r->buf_len;
}

/*
 * Deliver the records of run @r from @rec (@size bytes, time *@t) on while
 * they stay below @b (the smallest other head, or NULL), @limit and the
 * budget; the record it stops at is kept as the run's head, *@t its time.
 * The run's place and counts live in registers over the loop (the
 * delivery callback cannot see them) and are stored when it ends.  The
 * next record is found in the buffer without run_peek()'s checks of where
 * the buffer is: @rec is always at buf + (start - buf_off).
 */
static inline int run_go(struct prism_ordered *o, struct ord_run *r, const uint8_t *rec,
			 size_t size, uint64_t *t_, uint64_t limit, const struct ord_heap_ent *b,
			 size_t *budget_)
{
	uint64_t t = *t_, start = r->start, nr = r->nr, seq = r->seq, done = 0;
	uint64_t bt = b ? b->time : UINT64_MAX, bseq = b ? b->seq : UINT64_MAX;
	/* below both bounds, a record goes on without the finer test */
	uint64_t below = limit < bt ? limit : bt;
	size_t budget = *budget_, at = (size_t)(r->start - r->buf_off), lim = run_lim(r);
	int ret;

	for (;;) {
		uint64_t off = start;
		const uint8_t *p;
		size_t sz;

		start += size;
		nr--;
		seq++;
		done++;
		o->last_delivered = t;
		ret = o->fn(o->ctx, rec, size, t, off);
		if (unlikely(ret) || !nr)
			break;
		at += size;
		p = r->buf + at;
		if (likely(lim - at >= 8 && !((uintptr_t)p & 7) && (sz = get_u16(p + 6)) >= 8 &&
			   sz <= lim - at)) {
			rec = p;
			size = sz;
		} else {
			r->start = start;
			ret = run_rec(o, r, &rec, &size);
			if (unlikely(ret))
				break;
			at = (size_t)(r->start - r->buf_off);
			lim = run_lim(r);
		}
		t = rec_time(o, rec, size);
		if (unlikely(t >= below || !budget) &&
		    (!budget || t > limit || t > bt || (t == bt && seq > bseq))) {
			r->head_time = t;
			r->have_head = true;
			r->head_rec = rec;
			r->head_size = size;
			break;
		}
		budget--;
	}
	r->start = start;
	r->nr = nr;
	r->seq = seq;
	o->run_recs -= done;
	*budget_ = budget;
	*t_ = t;
	return ret;
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
int ord_merge_runs(struct prism_ordered *o, uint64_t limit, size_t budget, size_t *li_, size_t *pi_)
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
	for (i = n / 2; i > 0; i--)
		heap_down(h, n, i - 1);

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
			ret = run_go(o, r, rec, size, &t, limit, b, &budget);
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
void ord_compact_runs(struct prism_ordered *o)
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
		ord_run_release(o, r);
		o->bytes -= r->cost;
	}
	o->nr_runs = k;
}

void prism_ordered__set_sample_time(struct prism_ordered *o, size_t time_at)
{
	o->sample_time_at = time_at;
}

void prism_ordered__set_view(struct prism_ordered *o, prism_ordered_view_fn view,
			     prism_ordered_unview_fn unview)
{
	o->view = view;
	o->unview = unview;
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
		return ord_deliver_late(o, rec, size, time, file_offset);
	cost = ref_cost(o, size, time, file, file_offset, &r);
	if (unlikely(o->bytes + cost > o->mem_limit && o->bytes)) {
		ret = ord_flush_early(o, cost);
		if (ret)
			return ret;
		if (time < o->last_delivered)
			return ord_deliver_late(o, rec, size, time, file_offset);
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
	ord_queued(o, time, cost);
	return 0;
}

__wraps size_t prism_ordered__extend(struct prism_ordered *o, const void *p, size_t avail,
				     uint32_t file, uint64_t file_offset, size_t *nr)
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
	/* times that may follow: at least last, floor and 1 (0 is no time) */
	last = r->last_time;
	floor = o->last_delivered;
	if (last < floor)
		last = floor;
	if (!last)
		last = 1;
	while (avail - pos >= 8) {
		const uint8_t *rec = b + pos;
		size_t size = get_u16(rec + 6);
		uint64_t t;

		if (get_u32(rec) != PERF_RECORD_SAMPLE || size > avail - pos || (size & 7) ||
		    size < time_at + 8)
			break;
		t = get_u64(rec + time_at);
		/* last <= t < ~0 (no time either), in one unsigned comparison */
		if (t - last >= ~0ull - last)
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
