// SPDX-License-Identifier: MIT
/*
 * A function's frames: with a source line or file key the frames are per
 * address, but perf's call graphs merge a function's addresses (its
 * callchain key is the function): each frame's first frame of the same
 * (DSO, symbol), for the graph nodes.
 */
#include "profile-internal.h"

static __wraps uint64_t fn_hash(const struct pframe *f)
{
	return hash_u64((uint64_t)(uintptr_t)f->dso_key * 31 + (uint64_t)(uintptr_t)f->sym_key);
}

/* @out[i]: frame i's function frame (itself when unresolved); -ENOMEM */
int profile_fn_frames(const struct prism_profile *p, uint32_t **out)
{
	size_t cap = 16, i, s;
	uint32_t *slots, *fn;

	while (cap < 2 * p->nr_frames)
		cap *= 2;
	fn = malloc((p->nr_frames + 1) * sizeof(*fn));
	slots = calloc(cap, sizeof(*slots));
	if (!fn || !slots) {
		free(fn);
		free(slots);
		return -ENOMEM;
	}
	for (i = 0; i < p->nr_frames; i++) {
		const struct pframe *f = &p->frames[i];

		fn[i] = (uint32_t)i;
		if (!f->sym_key)
			continue;
		for (s = fn_hash(f) & (cap - 1); slots[s]; s = (s + 1) & (cap - 1)) {
			const struct pframe *o = &p->frames[slots[s] - 1];

			if (o->dso_key == f->dso_key && o->sym_key == f->sym_key)
				break;
		}
		if (slots[s])
			fn[i] = slots[s] - 1;
		else
			slots[s] = (uint32_t)i + 1;
	}
	free(slots);
	*out = fn;
	return 0;
}
