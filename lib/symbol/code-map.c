// SPDX-License-Identifier: MIT
/*
 * Where the code at an address of a process comes from: the mapping and
 * the file behind it (after --symfs, --map-path and the build-id cache,
 * as for symbols), for decoders that read instructions (Intel PT); kernel
 * addresses from the kernel code files (kernel-code.c).
 */
#include <prism/symbol.h>

#include "symbol-internal.h"

int prism_symbols__code_map(struct prism_symbols *sy, uint32_t pid, uint64_t addr,
			    struct prism_code_map *out)
{
	struct maps *maps;
	struct map *map;
	struct prism_dso *dso;

	if (addr >> 63) /* the kernel's half of the address space */
		return kcode__map(sy, addr, out);
	maps = symbols__maps(sy, pid);
	map = maps ? maps__find(maps, addr) : NULL;
	if (!map)
		return -ENOENT;
	dso = map->dso;
	if (!dso || (dso->kind != DSO_USER && dso->kind != DSO_VDSO))
		return -ENOENT;
	if (!dso->loaded)
		dso__load(sy, dso, pid);
	out->dso = dso;
	if (!dso->runtime)
		return -ENODATA;
	out->start = map->start;
	out->end = map->end;
	out->pgoff = map->pgoff;
	out->path = dso->runtime;
	out->dso = dso;
	out->kcore = false;
	return 0;
}
