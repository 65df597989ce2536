// SPDX-License-Identifier: MIT
/*
 * prism built without libzstd: compressed perf.data records cannot be read.
 */
#include "internal.h"
#include "data/decomp.h"

struct prism_decomp *prism_decomp__new(void)
{
	errno = PRISM_E_NOFEATURE;
	return NULL;
}

void prism_decomp__free(struct prism_decomp *d)
{
}

int prism_decomp__feed(struct prism_decomp *d, const void *src, size_t len, uint8_t **out,
		       size_t *out_len, size_t *out_cap, size_t max_out)
{
	return -PRISM_E_NOFEATURE;
}
