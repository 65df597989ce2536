// SPDX-License-Identifier: MIT
/*
 * Kernel symbols: /proc/kallsyms (kernel and module text) and the running
 * kernel's build id from /sys/kernel/notes.
 */
#include <elf.h>
#include <stdio.h>

#include "symbol-internal.h"

/*
 * Only text symbols (t, T, w, W) are kept; module symbols keep their
 * "[module]" suffix out of the name.  Lines look like
 * "ffffffff81000000 T _stext" or "ffffffffc0a01000 t foo\t[mod]".
 */
int kallsyms__load(const char *path, struct symtab *t)
{
	char line[1024];
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, *name, *end;
		uint8_t bind;

		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (!addr)
			continue; /* kptr_restrict hides addresses */
		name = end + 3;
		name[strcspn(name, "\t\n")] = '\0';
		if (!*name)
			continue;
		bind = type == 'w' || type == 'W' ? STB_WEAK : type == 'T' ? STB_GLOBAL : STB_LOCAL;
		err = symtab__add(t, addr, 0, name, bind, true);
		if (err)
			break;
	}
	fclose(f);
	if (!err && !t->nr)
		return -EPERM; /* every address hidden (kptr_restrict) */
	return err;
}

int kernel__read_build_id(uint8_t *id, uint8_t *size)
{
	uint8_t buf[4096];
	size_t n, len;
	FILE *f = fopen("/sys/kernel/notes", "re");
	int err;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	err = prism_note_build_id(buf, n, id, BUILD_ID_MAX, &len);
	if (!err)
		*size = (uint8_t)len;
	return err;
}
