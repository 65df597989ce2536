// SPDX-License-Identifier: MIT
/*
 * Source lines and inlined frames through libdw, from the DSO's debug file
 * (by build id or debuglink) or the binary itself.  Addresses are in the
 * DSO's ELF address space, which is the DWARF address space.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include "symbol-internal.h"

struct dwarf_state {
	int fd;
	Dwarf *dw;
};

static Dwarf *get_dwarf(struct prism_dso *dso)
{
	struct dwarf_state *st = dso->dwarf;
	const char *path = dso->debugsrc ? dso->debugsrc : dso->symsrc;

	if (st)
		return st->dw;
	if (dso->dwarf_failed || !path)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (st->fd >= 0)
		st->dw = dwarf_begin(st->fd, DWARF_C_READ);
	if (!st->dw) {
		pr_debug("symbol: no DWARF in '%s' for %s\n", path, dso->name);
		if (st->fd >= 0)
			close(st->fd);
		free(st);
		dso->dwarf_failed = true;
		return NULL;
	}
	dso->dwarf = st;
	return st->dw;
}

int srcline__find(struct prism_dso *dso, uint64_t dso_addr, const char **file, unsigned int *line)
{
	Dwarf *dw = get_dwarf(dso);
	Dwarf_Die cu;
	Dwarf_Line *l;
	int lineno;

	if (!dw || !dwarf_addrdie(dw, dso_addr, &cu))
		return -ENOENT;
	l = dwarf_getsrc_die(&cu, dso_addr);
	if (!l)
		return -ENOENT;
	*file = dwarf_linesrc(l, NULL, NULL);
	if (!*file || dwarf_lineno(l, &lineno))
		return -ENOENT;
	*line = (unsigned int)lineno;
	return 0;
}

int srcline__inlines(struct prism_dso *dso, uint64_t dso_addr, const char **names, size_t max)
{
	Dwarf *dw = get_dwarf(dso);
	Dwarf_Die cu, *scopes = NULL;
	int n, i;
	size_t out = 0;

	if (!dw || !dwarf_addrdie(dw, dso_addr, &cu))
		return 0;
	n = dwarf_getscopes(&cu, dso_addr, &scopes);
	for (i = 0; i < n && out < max; i++) {
		const char *name;

		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = dwarf_diename(&scopes[i]);
		if (name)
			names[out++] = name;
		if (tag == DW_TAG_subprogram)
			break; /* the containing function ends the chain */
	}
	free(scopes);
	return (int)out;
}

void srcline__release(struct prism_dso *dso)
{
	struct dwarf_state *st = dso->dwarf;

	if (!st)
		return;
	dwarf_end(st->dw);
	close(st->fd);
	free(st);
	dso->dwarf = NULL;
}
