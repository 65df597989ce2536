// SPDX-License-Identifier: MIT
/*
 * String and pair interning for the exporters (see intern.h).  Tables stay
 * at most half full; a hash of 64-bit mixing (splitmix64's finaliser) keeps
 * addresses, which differ in their low bits, spread.
 */
#include "internal.h"
#include "export/intern.h"

uint64_t intern_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6));

	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return intern_hash(h, 0);
}

static int strtab_grow(struct strtab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 256, i;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->nr; i++) {
		size_t j = str_hash(t->str[i]) & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)(i + 1);
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

int strtab_intern(struct strtab *t, const char *s, uint64_t *idx)
{
	size_t j;
	char *copy;

	if ((t->nr + 1) * 2 > t->nslots) {
		if (t->nr >= UINT32_MAX - 1 || strtab_grow(t))
			return -ENOMEM;
	}
	for (j = str_hash(s) & (t->nslots - 1); t->slots[j]; j = (j + 1) & (t->nslots - 1)) {
		if (!strcmp(t->str[t->slots[j] - 1], s)) {
			*idx = t->slots[j] - 1;
			return 0;
		}
	}
	if (prism_ensure_mem((void **)&t->str, &t->alloc, sizeof(*t->str), t->nr + 1))
		return -ENOMEM;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	t->str[t->nr] = copy;
	t->slots[j] = (uint32_t)(t->nr + 1);
	*idx = t->nr++;
	return 0;
}

void strtab_release(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->str[i]);
	free(t->str);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static struct pairmap_slot *lookup(struct pairmap_slot *slots, size_t n, uint64_t a, uint64_t b)
{
	size_t j;

	for (j = intern_hash(a, b) & (n - 1); slots[j].used; j = (j + 1) & (n - 1))
		if (slots[j].a == a && slots[j].b == b)
			break;
	return &slots[j];
}

static int pairmap_grow(struct pairmap *m)
{
	size_t n = m->nslots ? m->nslots * 2 : 256, i;
	struct pairmap_slot *slots;

	if (n > SIZE_MAX / sizeof(*slots))
		return -ENOMEM;
	slots = calloc(n, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < m->nslots; i++)
		if (m->slots[i].used)
			*lookup(slots, n, m->slots[i].a, m->slots[i].b) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->nslots = n;
	return 0;
}

struct pairmap_slot *pairmap_find(struct pairmap *m, uint64_t a, uint64_t b)
{
	struct pairmap_slot *s;

	if (!m->nslots)
		return NULL;
	s = lookup(m->slots, m->nslots, a, b);
	return s->used ? s : NULL;
}

int pairmap_get_or_add(struct pairmap *m, uint64_t a, uint64_t b, uint64_t new_val, uint64_t *val)
{
	struct pairmap_slot *s;

	if ((m->nr + 1) * 2 > m->nslots && pairmap_grow(m))
		return -ENOMEM;
	s = lookup(m->slots, m->nslots, a, b);
	if (s->used) {
		*val = s->val;
		return 0;
	}
	s->used = true;
	s->a = a;
	s->b = b;
	s->val = new_val;
	m->nr++;
	*val = new_val;
	return 1;
}

void pairmap_release(struct pairmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
