// SPDX-License-Identifier: MIT
/*
 * perf.data input: mmap windows for files, a read() buffer for pipes.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "data/input.h"

#define WINDOW_SIZE (2u << 20) /* bytes mapped at a time */
/*
 * Windows start on this file offset boundary: the page cache holds a file
 * in folios of up to 2 MiB, and a fault maps a whole folio only when the
 * mapping covers all of it (else one fault per 64 KiB).
 */
#define WINDOW_ALIGN ((uint64_t)2 << 20)
#define PIPE_BUF_MIN (256u << 10) /* read() chunk */

struct prism_input {
	int fd;
	bool own_fd;
	bool pipe;
	uint64_t size; /* regular file size */
	uint64_t page;
	uint64_t pos; /* stream position */
	uint64_t end; /* stream end */
	/* file: the mapped window [win_off, win_off + win_len) */
	uint8_t *win;
	uint64_t win_off;
	size_t win_len;
	/* pipe: buffered bytes [buf + head, buf + tail) start at stream pos */
	uint8_t *buf;
	size_t head, tail, cap;
	bool eof;
};

struct prism_input *prism_input__open(const char *path, int fd)
{
	struct prism_input *in = calloc(1, sizeof(*in));
	struct stat st;
	int err;

	if (!in)
		return NULL;
	in->end = UINT64_MAX;
	in->page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (path && strcmp(path, "-")) {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			err = errno;
			goto fail;
		}
		in->own_fd = true;
	} else {
		in->fd = path ? STDIN_FILENO : fd;
	}
	if (fstat(in->fd, &st)) {
		err = errno;
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = EISDIR;
		goto fail;
	}
	in->pipe = !S_ISREG(st.st_mode);
	in->size = in->pipe ? 0 : (uint64_t)st.st_size;
	return in;
fail:
	prism_input__free(in);
	errno = err;
	return NULL;
}

void prism_input__free(struct prism_input *in)
{
	if (!in)
		return;
	if (in->win)
		munmap(in->win, in->win_len);
	free(in->buf);
	if (in->own_fd)
		close(in->fd);
	free(in);
}

void prism_input__drop_window(struct prism_input *in)
{
	if (in->win)
		munmap(in->win, in->win_len);
	in->win = NULL;
	in->win_len = 0;
}

bool prism_input__is_pipe(const struct prism_input *in)
{
	return in->pipe;
}

uint64_t prism_input__size(const struct prism_input *in)
{
	return in->size;
}

int prism_input__pread(struct prism_input *in, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	if (in->pipe)
		return -ESPIPE;
	if (off > in->size || len > in->size - off)
		return -PRISM_E_TRUNCATED;
	while (done < len) {
		ssize_t n = pread(in->fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -PRISM_E_TRUNCATED;
		done += (size_t)n;
	}
	return 0;
}

void *prism_input__map(struct prism_input *in, uint64_t off, size_t *len)
{
	void *p;

	if (in->pipe || off >= in->size || !*len)
		return NULL;
	if (*len > in->size - off)
		*len = (size_t)(in->size - off);
	p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, in->fd, (off_t)off);
	return p == MAP_FAILED ? NULL : p;
}

uint64_t prism_input__pos(const struct prism_input *in)
{
	return in->pos;
}

void prism_input__set_end(struct prism_input *in, uint64_t end)
{
	in->end = end;
}

/* pipe: make sure @len bytes are buffered; 0, or -errno; stops early at EOF */
static int fill(struct prism_input *in, size_t len)
{
	if (in->tail - in->head >= len)
		return 0;
	if (in->head) {
		memmove(in->buf, in->buf + in->head, in->tail - in->head);
		in->tail -= in->head;
		in->head = 0;
	}
	if (len > in->cap || in->cap < PIPE_BUF_MIN) {
		size_t want = len > PIPE_BUF_MIN ? len : PIPE_BUF_MIN;
		uint8_t *p = realloc(in->buf, want);

		if (!p)
			return -ENOMEM;
		in->buf = p;
		in->cap = want;
	}
	while (in->tail < len && !in->eof) {
		ssize_t n = read(in->fd, in->buf + in->tail, in->cap - in->tail);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			in->eof = true;
		in->tail += (size_t)n;
	}
	return 0;
}

int prism_input__skip(struct prism_input *in, uint64_t len)
{
	if (!in->pipe) {
		in->pos += len;
		return 0;
	}
	while (len) {
		size_t have = in->tail - in->head, step;
		int err;

		if (!have) {
			err = fill(in, 1);
			if (err)
				return err;
			have = in->tail - in->head;
			if (!have)
				return -PRISM_E_TRUNCATED;
		}
		step = have < len ? have : (size_t)len;
		in->head += step;
		in->pos += step;
		len -= step;
	}
	return 0;
}

int prism_input__seek(struct prism_input *in, uint64_t pos)
{
	if (in->pipe) {
		if (pos < in->pos)
			return -ESPIPE;
		return prism_input__skip(in, pos - in->pos);
	}
	in->pos = pos;
	return 0;
}

static const void *peek_file(struct prism_input *in, size_t len, int *err)
{
	uint64_t limit = in->end < in->size ? in->end : in->size;
	uint64_t off;
	size_t maplen;
	void *p;

	if (in->pos >= limit) {
		*err = 0;
		return NULL;
	}
	if (len > limit - in->pos) {
		*err = -PRISM_E_TRUNCATED;
		return NULL;
	}
	if (in->win && span_ok(in->pos, len, in->win_off, in->win_len))
		return in->win + (in->pos - in->win_off);

	if (in->win)
		munmap(in->win, in->win_len);
	in->win = NULL;
	/* mmap needs page-aligned offsets too: pages are smaller everywhere we know */
	off = in->pos & ~((WINDOW_ALIGN > in->page ? WINDOW_ALIGN : in->page) - 1);
	maplen = WINDOW_SIZE;
	if (maplen < (in->pos - off) + len)
		maplen = (size_t)((in->pos - off) + len);
	p = prism_input__map(in, off, &maplen); /* cuts maplen at the end of the file */
	if (!p) {
		*err = -errno;
		return NULL;
	}
	madvise(p, maplen, MADV_SEQUENTIAL);
	in->win = p;
	in->win_off = off;
	in->win_len = maplen;
	return in->win + (in->pos - off);
}

const void *prism_input__peek(struct prism_input *in, size_t len, int *err)
{
	size_t have;

	*err = 0;
	if (!in->pipe)
		return peek_file(in, len, err);
	if (in->pos >= in->end)
		return NULL;
	if (len > in->end - in->pos) {
		*err = -PRISM_E_TRUNCATED;
		return NULL;
	}
	*err = fill(in, len);
	if (*err)
		return NULL;
	have = in->tail - in->head;
	if (have < len) {
		*err = have ? -PRISM_E_TRUNCATED : 0;
		return NULL;
	}
	return in->buf + in->head;
}

const void *prism_input__span(struct prism_input *in, size_t min, size_t *avail, int *err)
{
	const uint8_t *p = prism_input__peek(in, min, err);
	uint64_t lim;

	if (!p)
		return NULL;
	if (in->pipe) {
		*avail = in->tail - in->head;
		if (in->end - in->pos < *avail)
			*avail = (size_t)(in->end - in->pos);
		return p;
	}
	lim = in->end < in->size ? in->end : in->size;
	if (in->win_off + in->win_len < lim)
		lim = in->win_off + in->win_len;
	*avail = (size_t)(lim - in->pos);
	return p;
}
