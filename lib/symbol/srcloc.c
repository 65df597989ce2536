// SPDX-License-Identifier: MIT
/*
 * An address's line table row and innermost function, for listings that
 * interleave source with instructions (prism annotate, as objdump -l -S).
 */
#include <stdio.h>

#include <prism/symbol.h>

#include "symbol-internal.h"

int prism_dso__src_loc(struct prism_dso *dso, uint64_t dso_addr, struct prism_src_loc *out)
{
	const char *names[1], *comp_dir = NULL;
	int err, n;

	memset(out, 0, sizeof(*out));
	if (!dso || (dso->kind != DSO_USER && dso->kind != DSO_VDSO) || !dso->loaded ||
	    dso->load_failed)
		return -ENOENT;
	err = srcline__find_disc(dso, dso_addr, &out->file, &out->line, &out->discriminator,
				 &comp_dir);
	if (err)
		return err;
	/*
	 * libdw leaves a name relative to a relative directory as it is;
	 * binutils puts the unit's compilation directory first (glibc's
	 * "./elf" + "../sysdeps/x86/dl-get-cpu-features.c")
	 */
	if (out->file && out->file[0] != '/' && comp_dir && *comp_dir &&
	    (size_t)snprintf(out->path, sizeof(out->path), "%s/%s", comp_dir, out->file) <
		    sizeof(out->path))
		out->file = out->path;
	n = srcline__inlines(dso, dso_addr, names, 1);
	out->func = n > 0 ? names[0] : NULL;
	return 0;
}
