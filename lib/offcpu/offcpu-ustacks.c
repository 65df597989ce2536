// SPDX-License-Identifier: MIT
/*
 * The user stacks of the off-CPU BPF program: it walks them itself and
 * stores each once in its ustacks hash map under a 63-bit hash of the
 * frames (the stack id of its keys and blocks).  At stop they are read into
 * a table sorted by id.
 */
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "internal.h"
#include "offcpu/offcpu-internal.h"

struct offcpu_ustack_slot {
	uint64_t id;
	uint64_t *ips;
	uint32_t nr;
};

static int cmp_slot(const void *a, const void *b)
{
	const struct offcpu_ustack_slot *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int offcpu_ustacks__read(struct offcpu_ustacks *t, int fd, uint32_t depth)
{
	uint64_t key, next, *prev = NULL, *buf;
	size_t cap = 0;
	int err = 0;

	/* a value: the number of frames, then depth frames */
	buf = calloc(depth + 1, sizeof(uint64_t));
	if (!buf)
		return -ENOMEM;
	while (!err && !bpf_map_get_next_key(fd, prev, &next)) {
		struct offcpu_ustack_slot *u;
		uint64_t nr;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, buf))
			continue;
		nr = buf[0] < depth ? buf[0] : depth;
		err = prism_ensure_mem((void **)&t->v, &cap, sizeof(*t->v), t->nr + 1);
		if (err)
			break;
		u = &t->v[t->nr];
		u->ips = prism_reallocarray(NULL, nr ? nr : 1, sizeof(uint64_t));
		if (!u->ips) {
			err = -ENOMEM;
			break;
		}
		memcpy(u->ips, buf + 1, nr * sizeof(uint64_t));
		u->nr = nr;
		u->id = key;
		t->nr++;
	}
	free(buf);
	if (!err && t->nr)
		qsort(t->v, t->nr, sizeof(*t->v), cmp_slot);
	return err;
}

void offcpu_ustacks__find(const struct offcpu_ustacks *t, int64_t id,
			  struct prism_offcpu_stack *out)
{
	struct offcpu_ustack_slot k = { .id = (uint64_t)id };
	const struct offcpu_ustack_slot *u = NULL;

	if (t->nr)
		u = bsearch(&k, t->v, t->nr, sizeof(*t->v), cmp_slot);
	out->ips = u ? u->ips : NULL;
	out->nr = u ? u->nr : 0;
	out->err = u ? 0 : -ENOENT;
}

void offcpu_ustacks__release(struct offcpu_ustacks *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->v[i].ips);
	free(t->v);
	t->v = NULL;
	t->nr = 0;
}
