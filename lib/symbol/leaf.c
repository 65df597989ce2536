// SPDX-License-Identifier: MIT
/*
 * The caller a frame-pointer walk skips above a frameless leaf: the leaf's
 * CFI says where its return address is (CFA - 8, the CFA being sp + n in a
 * function without a frame pointer); the window of stack taken at sp holds
 * it.  The window is unwound with the same libdw code as --call-graph dwarf
 * samples (unwind.c), as far as it reaches; the frames found are joined to
 * the frame-pointer chain where they meet its second frame, or where the
 * last one found keeps a frame pointer (its frame record gave the chain's
 * second frame).
 */
#include "symbol-internal.h"

#define MAX_WINDOW_FRAMES 16
#define DW_RBP 6
#define DW_RSP 7

static int insert(struct prism_callchain *cc, size_t at, const struct prism_frame *f)
{
	if (prism_ensure_mem((void **)&cc->frames, &cc->alloc, sizeof(*cc->frames), cc->nr + 1))
		return -ENOMEM;
	memmove(cc->frames + at + 1, cc->frames + at, (cc->nr - at) * sizeof(*cc->frames));
	cc->frames[at] = *f;
	cc->nr++;
	return 0;
}

int prism_symbols__recover_leaf(struct prism_symbols *sy, struct prism_callchain *cc,
				const struct prism_leaf_window *w, size_t *leaf)
{
	struct unwind_window uw = { 0 };
	uint64_t pcs[MAX_WINDOW_FRAMES], next = 0;
	size_t i0, nr, k, join = 0;
	int reg, err;

	for (i0 = 0; i0 < cc->nr && cc->frames[i0].kernel; i0++)
		;
	if (leaf)
		*leaf = i0;
	if (i0 == cc->nr || !w || !w->ip || cc->frames[i0].ip != w->ip)
		return PRISM_LEAF_UNKNOWN;
	if (i0 + 1 < cc->nr)
		next = cc->frames[i0 + 1].ip;
	uw.pid = w->pid;
	uw.tid = w->tid;
	uw.ip = w->ip;
	uw.sp = w->sp;
	uw.bp = w->bp;
	uw.window = w->window;
	uw.size = w->window ? w->size : 0;
	err = unwind__window(sy, &uw, pcs, PRISM_ARRAY_SIZE(pcs), &nr, &reg);
	if (err)
		return err;
	if (!nr)
		return PRISM_LEAF_UNKNOWN;
	/* callers come as pc - 1 (the call instruction): the chain holds return addresses */
	for (k = 1; k < nr; k++) {
		pcs[k]++;
		if (next && pcs[k] == next) {
			join = k;
			break;
		}
	}
	if (!join) {
		/* the window ran out: the last frame found must keep a frame pointer */
		if (reg != DW_RBP)
			return reg < 0 && nr == 1 ? PRISM_LEAF_UNKNOWN : PRISM_LEAF_LOST;
		join = nr;
	}
	if (join == 1)
		return PRISM_LEAF_FP;
	for (k = 1; k < join; k++) {
		struct prism_frame f;

		prism_symbols__resolve(sy, w->pid, PERF_RECORD_MISC_USER, pcs[k], &f);
		err = insert(cc, i0 + k, &f);
		if (err)
			return err;
	}
	return PRISM_LEAF_RECOVERED;
}
