// SPDX-License-Identifier: MIT
/*
 * JIT symbol maps: /tmp/perf-PID.map, written by JITs (V8, the JVM agent,
 * LuaJIT, ...).  One symbol per line: "START SIZE name", hex numbers with or
 * without the 0x prefix.
 */
#include <stdio.h>

#include "symbol-internal.h"

int jit__load(const char *path, struct symtab *t)
{
	char line[4096];
	FILE *f = fopen(path, "re");
	int err = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, size;
		char *p = line, *end;

		start = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		size = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		p[strcspn(p, "\n")] = '\0';
		if (!*p)
			continue;
		err = symtab__add(t, start, size, p, STB_GLOBAL, true);
		if (err)
			break;
	}
	fclose(f);
	return err;
}
