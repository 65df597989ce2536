// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: the code libipt reads, from the files the MMAP/MMAP2
 * records name (lib/symbol finds them as for symbols), each mapped once;
 * kernel addresses from the kernel code files given to lib/symbol (a kcore
 * copy, a vmlinux), whatever task runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/symbol.h>

#include "decode.h"

/* the file's code (NULL: not readable, its index + 1 in @nomap) */
static const struct file_map *file_get(struct prism_pt_decoder *d, const char *path, long *nomap)
{
	struct file_map *f;
	struct stat st;
	void *p;
	int fd;
	size_t i;

	for (i = 0; i < d->nr_files; i++)
		if (d->files[i].path && !strcmp(d->files[i].path, path)) {
			*nomap = (long)i + 1;
			return d->files[i].p ? &d->files[i] : NULL;
		}
	*nomap = (long)d->nr_files + 1;
	f = realloc(d->files, (d->nr_files + 1) * sizeof(*f));
	if (!f)
		return NULL;
	d->files = f;
	f = &d->files[d->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	d->nr_files++;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			f->p = p;
			f->len = (size_t)st.st_size;
		}
	}
	close(fd);
	return f->p ? f : NULL;
}

/* a DSO whose file is not here, as a file not read (its index + 1 in @nomap) */
static void file_gone(struct prism_pt_decoder *d, const struct prism_dso *dso, long *nomap)
{
	struct file_map *f;
	size_t i;

	for (i = 0; i < d->nr_files; i++)
		if (!d->files[i].path && d->files[i].dso == dso) {
			*nomap = (long)i + 1;
			return;
		}
	f = realloc(d->files, (d->nr_files + 1) * sizeof(*f));
	if (!f)
		return;
	d->files = f;
	memset(&f[d->nr_files], 0, sizeof(*f));
	f[d->nr_files].dso = dso;
	*nomap = (long)++d->nr_files;
}

/* [@lo, @hi) of the mapping just found as a section of the image */
static void add_piece(void *ctx, uint64_t lo, uint64_t hi)
{
	struct queue *q = ctx;
	int isid = pt_iscache_add_file(q->d->iscache, q->cf->path, q->cm.pgoff + (lo - q->cm.start),
				       hi - lo, lo);

	if (isid > 0)
		pt_image_add_cached(q->img, q->d->iscache, isid, NULL);
}

/*
 * The mapping just found, as a section of the image: libipt reads it
 * without calling back, and its block decoder caches the blocks in it.
 * The kernel's pages changed while tracing stay out (decode-poke.c).
 */
static void add_section(struct queue *q)
{
	uint64_t size = q->cm.end - q->cm.start;

	if (!q->img || !q->d->iscache || q->cm.pgoff >= q->cf->len)
		return;
	if (size > q->cf->len - q->cm.pgoff)
		size = q->cf->len - q->cm.pgoff;
	pt_poke_split(q->d, q->cm.start, q->cm.start + size, add_piece, q);
}

void pt_image_follow_pid(struct queue *q)
{
	if (q->img_pid == q->pid)
		return;
	if (q->img)
		pt_image_remove_by_asid(q->img, NULL);
	q->img_pid = q->pid;
	q->cf = NULL;
}

/* libipt's memory callback: the bytes of the running process's code */
int pt_read_code(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip, void *ctx)
{
	struct queue *q = ctx;
	bool kernel = ip >> 63;
	uint64_t off, n;
	long nomap = kernel ? -1 : 0;

	(void)asid;
	if (q->pid < 0 && !kernel)
		goto nomap;
	if (!q->cf || (q->cm_pid != q->pid && !kernel) || ip < q->cm.start || ip >= q->cm.end) {
		q->cf = NULL;
		int err = prism_symbols__code_map(q->d->o.sy, kernel ? 0 : (uint32_t)q->pid, ip,
						  &q->cm);

		if (err == -ENODATA && !kernel) /* a file not here: perf's DSO without data */
			file_gone(q->d, q->cm.dso, &nomap);
		if (err)
			goto nomap;
		q->cf = file_get(q->d, q->cm.path, &nomap);
		q->cm_pid = q->pid;
		if (!q->cf)
			goto nomap;
		if (q->img_pid == q->pid)
			add_section(q);
	}
	/* (a damaged file's mapping: an offset past the file, or past the address space) */
	if (ip < q->cm.start || __builtin_add_overflow(ip - q->cm.start, q->cm.pgoff, &off) ||
	    off >= q->cf->len) {
		nomap = (long)(q->cf - q->d->files) + 1;
		goto nomap;
	}
	n = q->cf->len - off;
	if (n > q->cm.end - ip)
		n = q->cm.end - ip;
	if (n > size)
		n = size;
	memcpy(buf, q->cf->p + off, (size_t)n);
	if (kernel)
		pt_poke_read(q, ip, buf, (size_t)n);
	return (int)n;
nomap:
	q->nomap = nomap; /* (the error's, if it stops decoding: pt_nomap_reported) */
	return -pte_nomap;
}

void pt_nomap_mark(struct queue *q)
{
	size_t last = (q->head + q->n - 1) % FIFO;

	if (q->d->o.itrace.errors && q->n && q->fifo[last].kind == PRISM_PT_ERROR)
		q->fifo_nomap[last] = q->nomap;
}

bool pt_nomap_reported(struct prism_pt_decoder *d, long nomap)
{
	unsigned int *n;

	if (!nomap || (nomap > 0 && (size_t)nomap > d->nr_files))
		return true;
	n = nomap < 0 ? &d->kernel_nomaps : &d->files[nomap - 1].nomaps;
	return ++*n <= 2;
}
