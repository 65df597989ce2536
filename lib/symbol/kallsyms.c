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
	size_t n, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "re");

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz = get_u32(buf + off), descsz = get_u32(buf + off + 4);
		uint32_t type = get_u32(buf + off + 8);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3) & ~3u);

		if (desc_off + descsz > n)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + name_off, "GNU", 4)) {
			*size = descsz > BUILD_ID_MAX ? BUILD_ID_MAX : (uint8_t)descsz;
			memcpy(id, buf + desc_off, *size);
			return 0;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}
