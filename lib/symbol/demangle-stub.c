// SPDX-License-Identifier: MIT
/*
 * Demangling without libiberty: names stay mangled.
 */
#include "symbol-internal.h"

char *demangle__name(const char *name, bool params)
{
	return NULL;
}

char *prism_demangle(const char *name, bool params)
{
	errno = PRISM_E_NOFEATURE;
	return NULL;
}
