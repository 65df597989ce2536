// SPDX-License-Identifier: MIT
/*
 * Views of input files (see views.h).  A view maps one VIEW_BLOCK-aligned
 * block of a file and VIEW_SPILL bytes beyond it, so that every record that
 * starts in the block (at most 65535 bytes) is whole in it.  NR_VIEWS
 * blocks stay mapped at most: while pinned, and then until a new block
 * needs the slot (the one unpinned the longest goes first).  Mapped file
 * pages count in the process's RSS, so the number is small and shared by
 * all inputs.
 */
#include <sys/mman.h>

#include "internal.h"
#include "data/input.h"
#include "data/views.h"

#define VIEW_SHIFT 21
#define VIEW_BLOCK ((uint64_t)1 << VIEW_SHIFT)
#define VIEW_SPILL ((uint64_t)64 << 10)
#define NR_VIEWS 4

struct view {
	const struct prism_input *in; /* NULL: slot free */
	uint8_t *p;
	size_t len;
	uint64_t block;
	uint32_t pins;
	uint64_t used; /* when last taken, for eviction */
};

struct prism_views {
	struct view v[NR_VIEWS];
	uint64_t clock;
};

struct prism_views *prism_views__new(void)
{
	return calloc(1, sizeof(struct prism_views));
}

void prism_views__free(struct prism_views *vs)
{
	size_t i;

	if (!vs)
		return;
	for (i = 0; i < NR_VIEWS; i++)
		if (vs->v[i].in)
			munmap(vs->v[i].p, vs->v[i].len);
	free(vs);
}

const void *prism_views__get(struct prism_views *vs, struct prism_input *in, uint64_t off,
			     size_t *avail)
{
	uint64_t block = off >> VIEW_SHIFT, base = block << VIEW_SHIFT;
	struct view *v = NULL;
	size_t i, len = VIEW_BLOCK + VIEW_SPILL;
	void *p;

	if (off >= prism_input__size(in)) /* 0 for a pipe */
		return NULL;
	for (i = 0; i < NR_VIEWS; i++) {
		struct view *w = &vs->v[i];

		if (w->in == in && w->block == block) {
			v = w;
			goto found;
		}
		/* a free slot, else the one unpinned the longest */
		if (!w->pins && (!v || (v->in && (!w->in || w->used < v->used))))
			v = w;
	}
	if (!v)
		return NULL;
	if (v->in)
		munmap(v->p, v->len);
	v->in = NULL;
	p = prism_input__map(in, base, &len);
	if (!p)
		return NULL;
	v->in = in;
	v->p = p;
	v->len = len;
	v->block = block;
found:
	v->pins++;
	v->used = ++vs->clock;
	*avail = v->len - (size_t)(off - base);
	return v->p + (off - base);
}

void prism_views__put(struct prism_views *vs, const struct prism_input *in, uint64_t off)
{
	size_t i;

	for (i = 0; i < NR_VIEWS; i++) {
		struct view *v = &vs->v[i];

		if (v->in == in && v->block == off >> VIEW_SHIFT && v->pins) {
			v->pins--;
			return;
		}
	}
}
