// SPDX-License-Identifier: MIT
/*
 * perf report's parent sort key: a sample's parent is the first frame of its
 * call chain, leaf first, whose symbol matches a regular expression (perf's
 * -p/--parent); samples without a match have none ("[other]").
 */
#include <regex.h>

#include "profile-internal.h"

void profile_parent_release(struct prism_profile *p)
{
	if (p->parent_re) {
		regfree(p->parent_re);
		free(p->parent_re);
		p->parent_re = NULL;
	}
}

int prism_profile__set_parent(struct prism_profile *p, const char *regex)
{
	regex_t *re;

	if (!regex) {
		profile_parent_release(p);
		return 0;
	}
	re = calloc(1, sizeof(*re));
	if (!re)
		return -ENOMEM;
	if (regcomp(re, regex, REG_EXTENDED | REG_NOSUB)) {
		free(re);
		return -EINVAL;
	}
	profile_parent_release(p);
	p->parent_re = re;
	return 0;
}

void prism_profile__set_parent_depth(struct prism_profile *p, size_t nr)
{
	p->parent_depth = nr;
}

/*
 * Every record's parent (frame index + 1, 0 for none).  perf looks at the
 * symbols of the chain the kernel recorded as it resolves it, before
 * expanding inlined functions, in its order: from the root for caller
 * graphs (its default with children), from the leaf for callee graphs.
 * Frames unwound from a stack copy (--call-graph dwarf) are never looked
 * at; a sample whose chain came out empty has none.
 */
int profile_parents(struct prism_profile *p)
{
	uint8_t *match; /* per frame: 0 not tried, 1 no, 2 yes */
	size_t r, i, j;

	match = calloc(p->nr_frames + 1, 1);
	if (!match)
		return -ENOMEM;
	for (r = 0; r < p->nr_recs; r++) {
		struct precord *rec = &p->recs[r];

		rec->parent = 0;
		if (rec->parent_fixed) { /* prism_profile__set_parent_frame()'s */
			rec->parent = p->parent_re && rec->parent_fixed != PARENT_NONE ?
					      rec->parent_fixed :
					      0;
			continue;
		}
		for (j = 0; p->parent_re && !rec->nochain && j < rec->parent_depth; j++) {
			uint32_t id;
			const struct pframe *f;

			i = p->chain_caller ? rec->parent_depth - 1 - j : j;
			id = p->pool[rec->off + i];
			f = &p->frames[id];

			if (!match[id])
				match[id] = f->name && f->kind != PRISM_FRAME_INLINED &&
							    !regexec(p->parent_re, f->name, 0, NULL,
								     0) ?
						    2 :
						    1;
			if (match[id] == 2) {
				rec->parent = id + 1;
				break;
			}
		}
	}
	free(match);
	return 0;
}
