// SPDX-License-Identifier: MIT
/*
 * Without libdw: no DWARF unwinding; --call-graph dwarf samples keep their
 * kernel chain only.
 */
#include "symbol-internal.h"

int unwind__user(struct prism_symbols *sy, const struct prism_event *ev, unw_frame_cb cb, void *arg)
{
	return 0;
}

void unwind__release(struct prism_symbols *sy)
{
}

int unwind__window(struct prism_symbols *sy, const struct unwind_window *w, uint64_t *pcs,
		   size_t max, size_t *nr, int *last_cfa_reg)
{
	*nr = 0;
	*last_cfa_reg = -1;
	return 0;
}
