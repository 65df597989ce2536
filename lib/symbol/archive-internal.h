/* SPDX-License-Identifier: MIT */
/*
 * The compressed stream prism archive writes its tar into (archive-bz2.c,
 * or archive-bz2-stub.c without libbz2).  Not installed.
 */
#ifndef PRISM_ARCHIVE_INTERNAL_H
#define PRISM_ARCHIVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct tar_sink;

/* create @path (replacing it) as a bzip2 stream; -PRISM_E_NOFEATURE without libbz2 */
int tar_sink__open(const char *path, struct tar_sink **out);
int tar_sink__write(struct tar_sink *s, const void *buf, size_t len);
/* finish the stream; with @ok false (or on an error) the file is removed */
int tar_sink__close(struct tar_sink *s, bool ok);

#endif /* PRISM_ARCHIVE_INTERNAL_H */
