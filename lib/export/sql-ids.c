// SPDX-License-Identifier: MIT
/*
 * A map from short byte-string keys to database ids: open addressing with
 * linear probing, keys copied into one growing pool.  Used for the rows the
 * SQL exporter writes once per distinct thing.
 */
#include "internal.h"
#include "export/sql-internal.h"

struct slot {
	uint64_t hash; /* 0 = empty */
	size_t key_off;
	uint32_t key_len;
	int64_t val;
};

struct sql_ids {
	struct slot *slots;
	size_t nr_slots, nr; /* nr_slots: a power of two */
	char *pool;
	size_t pool_len, pool_alloc;
};

static __wraps uint64_t hash_key(const void *key, size_t len)
{
	const uint8_t *p = key;
	uint64_t h = PRISM_FNV_SEED;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	h ^= h >> 29;
	return h ? h : 1;
}

struct sql_ids *sql_ids__new(void)
{
	return calloc(1, sizeof(struct sql_ids));
}

void sql_ids__free(struct sql_ids *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m->pool);
	free(m);
}

void sql_ids__clear(struct sql_ids *m)
{
	if (m->slots)
		memset(m->slots, 0, m->nr_slots * sizeof(*m->slots));
	m->nr = 0;
	m->pool_len = 0;
}

static struct slot *lookup(const struct sql_ids *m, uint64_t h, const void *key, size_t len)
{
	size_t mask = m->nr_slots - 1, i = h & mask;

	for (;; i = (i + 1) & mask) {
		struct slot *s = &m->slots[i];

		if (!s->hash)
			return s;
		if (s->hash == h && s->key_len == len && !memcmp(m->pool + s->key_off, key, len))
			return s;
	}
}

int sql_ids__find(const struct sql_ids *m, const void *key, size_t len, int64_t *val)
{
	const struct slot *s;

	if (!m->nr)
		return 0;
	s = lookup(m, hash_key(key, len), key, len);
	if (!s->hash)
		return 0;
	*val = s->val;
	return 1;
}

static int grow(struct sql_ids *m)
{
	size_t n = m->nr_slots ? m->nr_slots * 2 : 1024, i;
	struct slot *old = m->slots, *slots = calloc(n, sizeof(*slots));
	size_t old_n = m->nr_slots;

	if (!slots)
		return -ENOMEM;
	m->slots = slots;
	m->nr_slots = n;
	for (i = 0; i < old_n; i++) {
		if (!old[i].hash)
			continue;
		*lookup(m, old[i].hash, m->pool + old[i].key_off, old[i].key_len) = old[i];
	}
	free(old);
	return 0;
}

int sql_ids__set(struct sql_ids *m, const void *key, size_t len, int64_t val)
{
	uint64_t h = hash_key(key, len);
	struct slot *s;

	if ((m->nr + 1) * 4 > m->nr_slots * 3 && grow(m))
		return -ENOMEM;
	s = lookup(m, h, key, len);
	if (s->hash) {
		s->val = val;
		return 0;
	}
	if (len > UINT32_MAX ||
	    prism_ensure_mem((void **)&m->pool, &m->pool_alloc, 1, m->pool_len + len))
		return -ENOMEM;
	memcpy(m->pool + m->pool_len, key, len);
	s->hash = h;
	s->key_off = m->pool_len;
	s->key_len = (uint32_t)len;
	s->val = val;
	m->pool_len += len;
	m->nr++;
	return 0;
}
