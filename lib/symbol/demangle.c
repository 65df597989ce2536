// SPDX-License-Identifier: MIT
/*
 * Demangling through libiberty: C++ (Itanium ABI) and Rust, both the legacy
 * scheme (_ZN...17h<hash>E) and v0 (_R...).  libiberty's automatic style
 * tries its Rust demangler before the C++ one.
 */
#include <libiberty/demangle.h>
#include <stdio.h>

#include "symbol-internal.h"

/*
 * Note: a version or PLT suffix ("_ZN3foo3barEv@plt", "...@@GLIBC_2.2.5")
 * is not part of the mangled name: demangle what precedes it and keep the
 * suffix, as perf shows "foo::bar@plt".
 */
char *demangle__name(const char *name, bool params)
{
	int flags = params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;
	const char *at;
	char *base, *d, *out;
	size_t n;

	if (!name || (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2) && strncmp(name, "__Z", 3)))
		return NULL;
	at = strchr(name, '@');
	if (!at)
		return cplus_demangle(name, flags);
	base = strndup(name, (size_t)(at - name));
	if (!base)
		return NULL;
	d = cplus_demangle(base, flags);
	free(base);
	if (!d)
		return NULL;
	n = strlen(d) + strlen(at) + 1;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s%s", d, at);
	free(d);
	return out;
}

char *prism_demangle(const char *name, bool params)
{
	return demangle__name(name, params);
}
