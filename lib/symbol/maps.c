// SPDX-License-Identifier: MIT
/*
 * Address spaces: a sorted array of non-overlapping maps per process,
 * reference-counted so threads and the kernel space can share one.
 */
#include "symbol-internal.h"

struct maps *maps__new(void)
{
	struct maps *m = calloc(1, sizeof(*m));

	if (m)
		m->refs = 1;
	return m;
}

struct maps *maps__get(struct maps *m)
{
	if (m)
		m->refs++;
	return m;
}

void maps__put(struct maps *m)
{
	if (!m || --m->refs > 0)
		return;
	maps__put(m->prev);
	free(m->maps);
	free(m);
}

struct maps *maps__clone(const struct maps *m)
{
	struct maps *c = maps__new();

	if (!c)
		return NULL;
	c->prev = maps__get(m->prev);
	c->unwind_ready = m->unwind_ready;
	if (!m->nr)
		return c;
	c->maps = prism_reallocarray(NULL, m->nr, sizeof(*c->maps));
	if (!c->maps) {
		maps__put(c);
		return NULL;
	}
	memcpy(c->maps, m->maps, m->nr * sizeof(*c->maps));
	c->nr = c->alloc = m->nr;
	return c;
}

/* index of the first map whose end is above @addr */
static size_t first_after(const struct maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Remove [start, end) from the space: maps inside it go, maps that straddle
 * an edge are trimmed (their pgoff moves with their start), a map that
 * covers it on both sides is split in two.
 */
/* pgoff follows start in u64 arithmetic, wrapping as perf's for a hostile file */
static __wraps int punch(struct maps *m, uint64_t start, uint64_t end)
{
	size_t i = first_after(m, start), j;

	for (j = i; j < m->nr && m->maps[j].start < end; j++)
		;
	if (i == j)
		return 0;
	if (j - i == 1 && m->maps[i].start < start && m->maps[i].end > end) {
		struct map tail = m->maps[i];

		if (prism_ensure_mem((void **)&m->maps, &m->alloc, sizeof(*m->maps), m->nr + 1))
			return -ENOMEM;
		tail.pgoff += end - tail.start;
		tail.start = end;
		m->maps[i].end = start;
		memmove(&m->maps[i + 2], &m->maps[i + 1], (m->nr - i - 1) * sizeof(*m->maps));
		m->maps[i + 1] = tail;
		m->nr++;
		return 0;
	}
	if (m->maps[i].start < start) {
		m->maps[i].end = start;
		i++;
	}
	if (j > i && m->maps[j - 1].end > end) {
		struct map *last = &m->maps[j - 1];

		last->pgoff += end - last->start;
		last->start = end;
		j--;
	}
	if (j > i) {
		memmove(&m->maps[i], &m->maps[j], (m->nr - j) * sizeof(*m->maps));
		m->nr -= j - i;
	}
	return 0;
}

int maps__insert(struct maps *m, uint64_t start, uint64_t len, uint64_t pgoff,
		 struct prism_dso *dso)
{
	uint64_t end;
	size_t i;
	int err;

	/* a map that would wrap past the top of the address space is dropped */
	if (!len || !range_ok(start, len, UINT64_MAX))
		return 0;
	end = start + len;
	err = punch(m, start, end);
	if (err)
		return err;
	if (prism_ensure_mem((void **)&m->maps, &m->alloc, sizeof(*m->maps), m->nr + 1))
		return -ENOMEM;
	i = first_after(m, start);
	memmove(&m->maps[i + 1], &m->maps[i], (m->nr - i) * sizeof(*m->maps));
	m->maps[i].start = start;
	m->maps[i].end = end;
	m->maps[i].pgoff = pgoff;
	m->maps[i].dso = dso;
	m->nr++;
	m->last = i;
	m->gen++;
	return 0;
}

void maps__remove(struct maps *m, uint64_t start, uint64_t len)
{
	punch(m, start, len > UINT64_MAX - start ? UINT64_MAX : start + len);
	m->gen++;
}

struct map *maps__find(struct maps *m, uint64_t addr)
{
	size_t i;

	if (m->last < m->nr && addr >= m->maps[m->last].start && addr < m->maps[m->last].end)
		return &m->maps[m->last];
	i = first_after(m, addr);
	if (i < m->nr && m->maps[i].start <= addr) {
		m->last = i;
		return &m->maps[i];
	}
	return m->prev ? maps__find(m->prev, addr) : NULL;
}
