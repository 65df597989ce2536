/* SPDX-License-Identifier: MIT */
/*
 * A gzip stream writer (zlib's deflate with the gzip wrapper) into a stdio
 * stream.  Without zlib, gz_writer_new() fails with -PRISM_E_NOFEATURE.
 */
#ifndef PRISM_EXPORT_GZIP_H
#define PRISM_EXPORT_GZIP_H

#include <stddef.h>
#include <stdio.h>

struct gz_writer;

/* 0, -ENOMEM or -PRISM_E_NOFEATURE */
int gz_writer_new(FILE *fp, struct gz_writer **out);
/* 0 or -errno (a write error of @fp) */
int gz_writer_write(struct gz_writer *gz, const void *data, size_t len);
/* ends the member and frees @gz; 0 or -errno */
int gz_writer_finish(struct gz_writer *gz);

#endif /* PRISM_EXPORT_GZIP_H */
