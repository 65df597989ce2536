// SPDX-License-Identifier: MIT
/*
 * prism archive's output: a bzip2 stream (libbz2), as perf archive's
 * tar.bz2.
 */
#include <bzlib.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"
#include "symbol/archive-internal.h"

struct tar_sink {
	FILE *f;
	BZFILE *bz;
	char *path;
	int err;
};

int tar_sink__open(const char *path, struct tar_sink **out)
{
	struct tar_sink *s = calloc(1, sizeof(*s));
	int bzerr;

	if (!s)
		return -ENOMEM;
	s->path = strdup(path);
	s->f = fopen(path, "wbe");
	if (!s->path || !s->f) {
		int err = s->path ? -errno : -ENOMEM;

		free(s->path);
		free(s);
		return err;
	}
	s->bz = BZ2_bzWriteOpen(&bzerr, s->f, 9, 0, 0);
	if (!s->bz) {
		fclose(s->f);
		unlink(path);
		free(s->path);
		free(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

int tar_sink__write(struct tar_sink *s, const void *buf, size_t len)
{
	int bzerr;

	while (len && !s->err) {
		int n = len > (1u << 30) ? 1 << 30 : (int)len;

		BZ2_bzWrite(&bzerr, s->bz, (void *)(uintptr_t)buf, n);
		if (bzerr != BZ_OK)
			s->err = bzerr == BZ_IO_ERROR ? -EIO : -ENOMEM;
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	return s->err;
}

int tar_sink__close(struct tar_sink *s, bool ok)
{
	int bzerr, err;

	BZ2_bzWriteClose(&bzerr, s->bz, !ok || s->err, NULL, NULL);
	if (bzerr != BZ_OK && !s->err)
		s->err = -EIO;
	if (fclose(s->f) && !s->err)
		s->err = -errno;
	err = s->err;
	if (!ok || err)
		unlink(s->path);
	free(s->path);
	free(s);
	return err;
}
