// SPDX-License-Identifier: MIT
/* prism archive without libbz2: no output stream */
#include <prism/error.h>

#include "internal.h"
#include "symbol/archive-internal.h"

int tar_sink__open(const char *path, struct tar_sink **out)
{
	(void)path;
	*out = NULL;
	return -PRISM_E_NOFEATURE;
}

int tar_sink__write(struct tar_sink *s, const void *buf, size_t len)
{
	(void)s;
	(void)buf;
	(void)len;
	return -PRISM_E_NOFEATURE;
}

int tar_sink__close(struct tar_sink *s, bool ok)
{
	(void)s;
	(void)ok;
	return 0;
}
