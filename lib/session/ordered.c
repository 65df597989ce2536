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
 */
#include "session/ordered-internal.h"

#include <inttypes.h>

#define CHUNK_SIZE ((size_t)1 << 20)
/* copies larger than this get their own chunk, so chunk tails waste little */
#define BIG_COPY (CHUNK_SIZE / 4)
#define NO_CHUNK UINT32_MAX

static inline size_t copy_size(size_t size)
{
	return sizeof(struct ord_hdr) + ((size + 7) & ~(size_t)7);
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

void ord_put_chunk(struct prism_ordered *o, uint32_t idx)
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
			ord_put_chunk(o, old);
	}
	c = &o->chunks[*idx];
	c->used += need;
	c->live++;
	return c->mem + c->used - need;
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

/*
 * Deliver queued records in time order: those at or below the round limit
 * (FLUSH_ROUND), the older half (FLUSH_HALF) or all (FLUSH_ALL).
 * Note: on -ENOMEM nothing was delivered; on a callback error the records
 * after the failing one stay queued, in a consistent state.
 */
int ord_flush(struct prism_ordered *o, enum flush_how how)
{
	size_t nl = o->left.nr - o->left.head, np = o->pend.nr, total = nl + np + o->run_recs;
	size_t budget = total, li, ln, pi, pn;
	/* tmp is scratch for the copies only (runs are merged where they are) */
	size_t copies = nl + np;
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
	if (ensure_vec(&o->tmp, copies) ||
	    prism_ensure_mem((void **)&o->runs, &o->runs_cap, sizeof(*o->runs),
			     ORD_SORT_RUNS(np)) ||
	    prism_ensure_mem((void **)&o->heap, &o->heap_cap, sizeof(*o->heap), o->nr_runs + 1))
		return -ENOMEM;
	if (np > 1) {
		sort_pend(o);
		/* sort_pend may have swapped in a smaller tmp */
		if (ensure_vec(&o->tmp, copies))
			return -ENOMEM;
	}

	L = o->left.v;
	li = o->left.head;
	ln = o->left.nr;
	P = o->pend.v;
	pi = 0;
	pn = np;
	if (o->nr_runs) {
		ret = ord_merge_runs(o, limit, budget, &li, &pi);
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
		ord_compact_runs(o);
	return ret;
}

/* a record older than one already delivered: hand it over at once */
int ord_deliver_late(struct prism_ordered *o, const void *rec, size_t size, uint64_t time,
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
int ord_flush_early(struct prism_ordered *o, size_t cost)
{
	int ret;

	while (o->bytes && o->bytes + cost > o->mem_limit) {
		o->nr_early_flushes++;
		pr_debug("ordered: %zu queued bytes reach the limit of %zu, flushing half\n",
			 o->bytes, o->mem_limit);
		ret = ord_flush(o, FLUSH_HALF);
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
		ord_run_release(o, &o->rv[i]);
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
		return ord_deliver_late(o, rec, size, time, file_offset);
	if (unlikely(o->bytes + cost > o->mem_limit && o->bytes)) {
		ret = ord_flush_early(o, cost);
		if (ret)
			return ret;
		if (time < o->last_delivered)
			return ord_deliver_late(o, rec, size, time, file_offset);
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

	ord_queued(o, time, cost);
	return 0;
}

int prism_ordered__finished_round(struct prism_ordered *o)
{
	int ret;

	if (!o)
		return -EINVAL;
	if (o->delivering)
		return -EBUSY;
	ret = ord_flush(o, FLUSH_ROUND);
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
	return ord_flush(o, FLUSH_ALL);
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
