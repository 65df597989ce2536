/* SPDX-License-Identifier: MIT */
/*
 * Walker for the perf "tracing data" blob (feature 1 / record 66; layout in
 * docs/perf-data-format.md section 12).  Internal to lib/.
 *
 * The walk only locates the pieces and checks every length against the
 * blob; it needs no libtraceevent, so it is compiled in every build.  The
 * pieces point into the caller's blob: a struct tp_blob is valid only while
 * that memory is.
 */
#ifndef PRISM_TP_BLOB_H
#define PRISM_TP_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp_blob_piece {
	const char *data; /* not NUL-terminated */
	size_t size;
};

struct tp_blob_format {
	const char *system; /* NUL-terminated, inside the blob; "ftrace" for ftrace formats */
	struct tp_blob_piece text;
};

struct tp_blob {
	const char *version; /* NUL-terminated, inside the blob, e.g. "0.6" */
	bool big_endian;
	uint8_t long_size;
	uint32_t page_size;
	struct tp_blob_piece header_page;
	struct tp_blob_piece header_event;
	/* ftrace formats first, then every system's event formats */
	struct tp_blob_format *formats;
	size_t nr_formats;
	size_t nr_ftrace;
	struct tp_blob_piece kallsyms;
	struct tp_blob_piece printk;
	struct tp_blob_piece cmdlines; /* size 0 before version 0.6 */
};

/*
 * tp_blob__parse - locate the pieces of a tracing-data blob
 *
 * Bytes after the last section (pipe mode pads the record to 8 bytes) are
 * ignored.  On error @b is left released.
 * Return: 0, -PRISM_E_TRUNCATED (a section runs past @size),
 * -PRISM_E_TRACEPOINT (bad magic, section name or long size), -ENOMEM.
 */
int tp_blob__parse(struct tp_blob *b, const void *data, size_t size);

/* frees the format array; the pieces pointed into the caller's blob */
void tp_blob__release(struct tp_blob *b);

/*
 * tp_format__lint - refuse a format text known to crash libtraceevent's parser
 *
 * @ftrace is true for the ftrace system's formats, whose field names may
 * hold a '.'.  See lib/tp/lint.c for the traps it looks for.
 * Return: 0, -PRISM_E_TRACEPOINT, -ENOMEM.
 */
int tp_format__lint(const char *text, size_t size, bool ftrace);

#endif /* PRISM_TP_BLOB_H */
