// SPDX-License-Identifier: MIT
/*
 * Small containers of the utilization analysis: a map of 64-bit keys to
 * indices (open addressing, linear probing) and per-task call tables.
 */
#include "util/util-internal.h"

#define EMPTY UINT64_MAX

static inline __wraps size_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

static int umap_grow(struct umap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 16, i;
	uint64_t *keys = prism_reallocarray(NULL, ncap, sizeof(*keys));
	uint32_t *vals = prism_reallocarray(NULL, ncap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (i = 0; i < ncap; i++)
		keys[i] = EMPTY;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (m->keys[i] == EMPTY)
			continue;
		j = hash64(m->keys[i]) & (ncap - 1);
		while (keys[j] != EMPTY)
			j = (j + 1) & (ncap - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = ncap;
	return 0;
}

int umap_put(struct umap *m, uint64_t key, uint32_t val)
{
	size_t j;

	if ((m->nr + 1) * 2 > m->cap && umap_grow(m))
		return -ENOMEM;
	j = hash64(key) & (m->cap - 1);
	while (m->keys[j] != EMPTY && m->keys[j] != key)
		j = (j + 1) & (m->cap - 1);
	if (m->keys[j] == EMPTY)
		m->nr++;
	m->keys[j] = key;
	m->vals[j] = val;
	return 0;
}

int64_t umap_get(const struct umap *m, uint64_t key)
{
	size_t j;

	if (!m->cap)
		return -1;
	j = hash64(key) & (m->cap - 1);
	while (m->keys[j] != EMPTY) {
		if (m->keys[j] == key)
			return m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	return -1;
}

void umap_clear(struct umap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		m->keys[i] = EMPTY;
	m->nr = 0;
}

void umap_release(struct umap *m)
{
	zfree(&m->keys);
	zfree(&m->vals);
	m->cap = m->nr = 0;
}

/*
 * Tables of up to this many calls are searched without an index: most
 * tasks make a few kinds of calls, and the index would cost more memory
 * than the calls.
 */
#define CALLTAB_SCAN 16

/* the index of all entries of @ct, made again */
static int calltab_index(struct calltab *ct)
{
	size_t i;

	umap_clear(&ct->map);
	for (i = 0; i < ct->nr; i++)
		if (umap_put(&ct->map, call_key(ct->v[i].pub.kind, ct->v[i].pub.id), (uint32_t)i))
			return -ENOMEM;
	return 0;
}

/* calltab_get() when the entry is not the one looked up last */
struct ucall *calltab_get_slow(struct calltab *ct, enum prism_util_call_kind kind, int64_t id,
			       int32_t *idx)
{
	uint64_t key = call_key(kind, id);
	int64_t i = -1;
	struct ucall *c;

	if (ct->nr <= CALLTAB_SCAN) {
		size_t j;

		for (j = 0; j < ct->nr; j++)
			if (call_key(ct->v[j].pub.kind, ct->v[j].pub.id) == key) {
				i = (int64_t)j;
				break;
			}
	} else {
		/* the index is dropped when the table is sorted for a report */
		if (ct->map.nr != ct->nr && calltab_index(ct))
			return NULL;
		i = umap_get(&ct->map, key);
	}
	if (i >= 0) {
		ct->last_key = key;
		ct->last_idx = (uint32_t)i;
		if (idx)
			*idx = (int32_t)i;
		return &ct->v[i];
	}
	if (ct->nr >= INT32_MAX ||
	    prism_ensure_mem((void **)&ct->v, &ct->cap, sizeof(*ct->v), ct->nr + 1))
		return NULL;
	c = &ct->v[ct->nr];
	memset(c, 0, sizeof(*c));
	c->pub.kind = kind;
	c->pub.id = id;
	ct->nr++;
	if (ct->nr > CALLTAB_SCAN &&
	    (ct->map.nr == ct->nr - 1 ? umap_put(&ct->map, key, (uint32_t)(ct->nr - 1)) :
					calltab_index(ct))) {
		ct->nr--;
		return NULL;
	}
	if (idx)
		*idx = (int32_t)(ct->nr - 1);
	ct->last_key = key;
	ct->last_idx = (uint32_t)(ct->nr - 1);
	return c;
}

void calltab_shrink(struct calltab *ct)
{
	struct ucall *v;

	if (!ct->nr || ct->nr == ct->cap)
		return;
	v = realloc(ct->v, ct->nr * sizeof(*ct->v));
	if (v) { /* else the table stays as it was */
		ct->v = v;
		ct->cap = ct->nr;
	}
}

void calltab_clear(struct calltab *ct)
{
	ct->nr = 0;
	umap_clear(&ct->map);
}

void calltab_release(struct calltab *ct)
{
	zfree(&ct->v);
	ct->nr = ct->cap = 0;
	umap_release(&ct->map);
}

void call_merge(struct prism_util_call *d, const struct prism_util_call *s)
{
	if (s->count) {
		if (!d->count || s->min < d->min)
			d->min = s->min;
		if (s->max > d->max)
			d->max = s->max;
	}
	/* merged over tasks and CPUs: absurd clocks saturate instead of wrapping */
	d->count += s->count;
	d->elapsed = sat_add(d->elapsed, s->elapsed);
	d->pending = sat_add(d->pending, s->pending);
	d->oncpu = sat_add(d->oncpu, s->oncpu);
	d->nr_pending_start += s->nr_pending_start;
	d->nr_pending_end += s->nr_pending_end;
	d->nr_inherited += s->nr_inherited;
	d->nr_unmatched_exits += s->nr_unmatched_exits;
	d->nr_duplicate_exits += s->nr_duplicate_exits;
}
