// SPDX-License-Identifier: MIT
/*
 * gzip output without zlib: pprof export is not available.
 */
#include "internal.h"
#include "export/gzip.h"

int gz_writer_new(FILE *fp, struct gz_writer **out)
{
	*out = NULL;
	return -PRISM_E_NOFEATURE;
}

int gz_writer_write(struct gz_writer *gz, const void *data, size_t len)
{
	return -PRISM_E_NOFEATURE;
}

int gz_writer_finish(struct gz_writer *gz)
{
	return 0;
}
