// SPDX-License-Identifier: MIT
/*
 * Without libdw: no source lines and no inlined frames.
 */
#include "symbol-internal.h"

int srcline__find(struct prism_dso *dso, uint64_t dso_addr, const char **file, unsigned int *line)
{
	return -PRISM_E_NOFEATURE;
}

int srcline__find_disc(struct prism_dso *dso, uint64_t dso_addr, const char **file,
		       unsigned int *line, unsigned int *disc, const char **comp_dir)
{
	return -PRISM_E_NOFEATURE;
}

int srcline__inlines(struct prism_dso *dso, uint64_t dso_addr, const char **names, size_t max)
{
	return 0;
}

void srcline__release(struct prism_dso *dso)
{
}
