// SPDX-License-Identifier: MIT
/*
 * The size of the mapping a resolved address is in (perf report's dso_size
 * key: its map__size()), the kernel's as its MMAP record gives it.
 */
#include <prism/symbol.h>

#include "symbol-internal.h"

uint64_t prism_symbols__map_size(struct prism_symbols *sy, uint32_t pid,
				 const struct prism_frame *f)
{
	struct maps *maps = f->kernel ? sy->kmaps : symbols__maps(sy, pid);
	struct map *map = maps ? maps__find(maps, f->ip) : NULL;

	/* the kernel's map wins over the module maps it covers, as in lookups */
	if (f->kernel && sy->kmap.dso && f->dso == sy->kmap.dso && f->ip >= sy->kmap.start)
		map = &sy->kmap;
	return map ? map->end - map->start : 0;
}
