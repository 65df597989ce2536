/* SPDX-License-Identifier: MIT */
/*
 * Sequential input of perf.data bytes.  Regular files are read through a
 * sliding mmap window (address space and RSS stay bounded whatever the file
 * size); pipes and other non-seekable inputs through a read() buffer.
 */
#ifndef PRISM_DATA_INPUT_H
#define PRISM_DATA_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct prism_input;

/* path "-" = standard input; path NULL = @fd (not closed by __free) */
struct prism_input *prism_input__open(const char *path, int fd);
void prism_input__free(struct prism_input *in);

bool prism_input__is_pipe(const struct prism_input *in);
/* size of a regular file, 0 for a pipe */
uint64_t prism_input__size(const struct prism_input *in);

/* random access (regular files only): exactly @len bytes at @off, or -PRISM_E_TRUNCATED */
int prism_input__pread(struct prism_input *in, void *buf, size_t len, uint64_t off);

/*
 * a read-only mapping of *@len bytes of the file at @off (page aligned),
 * *@len cut at the end of the file; NULL for a pipe, @off at or past the
 * end, or a failed mmap.  munmap(p, *len) it.
 */
void *prism_input__map(struct prism_input *in, uint64_t off, size_t *len);

/* stream position, and where the stream ends (UINT64_MAX: end of input) */
uint64_t prism_input__pos(const struct prism_input *in);
void prism_input__set_end(struct prism_input *in, uint64_t end);
/* move the stream position; pipes can only move forward */
int prism_input__seek(struct prism_input *in, uint64_t pos);

/*
 * prism_input__peek - @len contiguous bytes at the stream position
 *
 * Does not advance.  The pointer stays valid until the next peek/skip/seek.
 * Return: the bytes; NULL with *err = 0 at a clean end (no byte left), or
 * NULL with *err = -PRISM_E_TRUNCATED (fewer than @len bytes left) or -errno.
 */
const void *prism_input__peek(struct prism_input *in, size_t len, int *err);
/*
 * prism_input__span - like peek(@min), and *@avail = the bytes readable
 * contiguously from the position without another peek (>= @min)
 */
const void *prism_input__span(struct prism_input *in, size_t min, size_t *avail, int *err);
/* advance by @len bytes (may cross a big payload without reading it) */
int prism_input__skip(struct prism_input *in, uint64_t len);
/* unmap the current window of a regular file (pread and later peeks still work) */
void prism_input__drop_window(struct prism_input *in);

#endif /* PRISM_DATA_INPUT_H */
