// SPDX-License-Identifier: MIT
/*
 * perf.data writer: output buffering, the file header and attrs, pipe-mode
 * records, compression of ring-buffer data and the final header.  Feature
 * payloads are built in writer-features.c.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <prism/features.h>
#include <prism/strbuf.h>

#include "data/writer-internal.h"
#include "internal.h"

#define WR_BUF_SIZE (1u << 20)
#define WR_HEADER_SIZE 104
#define WR_PIPE_HEADER_SIZE 16
#define WR_MAGIC 0x32454c4946524550ULL /* "PERFILE2" */
/* largest COMPRESSED payload: well below the 64 KiB record size limit */
#define WR_COMP_PAYLOAD (65536 - 512)

struct wr_section {
	uint64_t offset, size;
};

struct wr_file_header {
	uint64_t magic, size, attr_size;
	struct wr_section attrs, data, event_types;
	uint64_t features[4];
};

static char *dupstr(const char *s)
{
	return s ? strdup(s) : NULL;
}

struct prism_writer *prism_writer__new(const struct prism_writer_opts *opts)
{
	struct prism_writer *w = calloc(1, sizeof(*w));
	struct stat st;
	int i, err = 0;

	if (!w)
		return NULL;
	w->fd = -1;
	w->pipe = opts->pipe;
	w->compress_level = opts->compress_level;
	w->comp_mmap_len = opts->comp_mmap_len ? opts->comp_mmap_len : 512 * 1024;
	w->clockid = opts->clockid;
	w->version = dupstr(opts->version ? opts->version : prism_version());
	w->buf = malloc(WR_BUF_SIZE);
	w->buf_cap = WR_BUF_SIZE;
	if (!w->version || !w->buf)
		goto nomem;
	if (opts->argc > 0) {
		w->argv = calloc(opts->argc, sizeof(*w->argv));
		if (!w->argv)
			goto nomem;
		w->argc = opts->argc;
		for (i = 0; i < opts->argc; i++)
			if (!(w->argv[i] = dupstr(opts->argv[i] ? opts->argv[i] : "")))
				goto nomem;
	}
	if (w->compress_level) {
		w->z = wr_zstd__new(w->compress_level);
		if (!w->z) {
			err = errno;
			pr_err("cannot set up zstd compression at level %d", w->compress_level);
			goto fail;
		}
	}
	if (opts->path) {
		w->path = strdup(opts->path);
		if (!w->path)
			goto nomem;
		if (opts->keep_old && !lstat(opts->path, &st) && S_ISREG(st.st_mode)) {
			char old[4096];

			snprintf(old, sizeof(old), "%s.old", opts->path);
			if (rename(opts->path, old)) {
				err = errno;
				pr_err("cannot rename %s to %s: %s", opts->path, old,
				       strerror(err));
				goto fail;
			}
		}
		w->fd = open(opts->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (w->fd < 0) {
			err = errno;
			pr_err("cannot create %s: %s", opts->path, strerror(err));
			goto fail;
		}
		w->own_fd = true;
	} else {
		w->fd = opts->fd;
		w->path = strdup(w->pipe ? "<stdout>" : "<fd>");
		if (!w->path)
			goto nomem;
	}
	w->seekable = !fstat(w->fd, &st) && S_ISREG(st.st_mode);
	if (!w->pipe && !w->seekable) {
		err = ESPIPE;
		pr_err("%s is not a regular file: use pipe mode for pipes and terminals", w->path);
		goto fail;
	}
	return w;
nomem:
	err = ENOMEM;
fail:
	prism_writer__free(w);
	errno = err;
	return NULL;
}

void prism_writer__free(struct prism_writer *w)
{
	size_t i;
	int j;

	if (!w)
		return;
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	for (i = 0; i < w->nr_ev; i++) {
		free(w->ev[i].name);
		free(w->ev[i].ids);
	}
	free(w->ev);
	for (i = 0; i < w->nr_bids; i++)
		free(w->bids[i].name);
	free(w->bids);
	for (j = 0; j < w->argc; j++)
		free(w->argv[j]);
	free(w->argv);
	free(w->version);
	free(w->tdata);
	free(w->util_check);
	free(w->aux_index);
	free(w->buf);
	free(w->path);
	wr_zstd__free(w->z);
	free(w);
}

int prism_writer__add_event(struct prism_writer *w, const struct perf_event_attr *attr,
			    const char *name, const uint64_t *ids, size_t nr_ids, int leader,
			    int nr_members)
{
	struct wr_event *e;

	if (w->started)
		return -EBUSY;
	if (prism_ensure_mem((void **)&w->ev, &w->cap_ev, sizeof(*w->ev), w->nr_ev + 1))
		return -ENOMEM;
	e = &w->ev[w->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->attr.size = PRISM_WRITER_ATTR_SIZE;
	e->name = strdup(name ? name : "unknown");
	e->ids = nr_ids ? malloc(nr_ids * sizeof(*ids)) : NULL;
	if (!e->name || (nr_ids && !e->ids)) {
		free(e->name);
		free(e->ids);
		return -ENOMEM;
	}
	if (nr_ids)
		memcpy(e->ids, ids, nr_ids * sizeof(*ids));
	e->nr_ids = nr_ids;
	e->leader = leader < 0 ? (int)w->nr_ev : leader;
	e->nr_members = nr_members;
	w->nr_ev++;
	return 0;
}

int prism_writer__set_tracing_data(struct prism_writer *w, const void *buf, size_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, buf, len);
	free(w->tdata);
	w->tdata = p;
	w->tdata_len = len;
	return 0;
}

int prism_writer__set_util_check(struct prism_writer *w, const void *buf, size_t len)
{
	void *p = len ? malloc(len) : NULL;

	if (len && !p)
		return -ENOMEM;
	if (len)
		memcpy(p, buf, len);
	free(w->util_check);
	free(w->aux_index);
	w->util_check = p;
	w->util_check_len = len;
	return 0;
}

void prism_writer__set_sample_time(struct prism_writer *w, uint64_t first, uint64_t last)
{
	w->first_time = first;
	w->last_time = last;
}

int prism_writer__add_build_id(struct prism_writer *w, uint16_t cpumode, const uint8_t *id,
			       size_t id_size, const char *filename)
{
	struct wr_build_id *b;

	if (id_size > 20 || !filename)
		return -EINVAL;
	if (prism_ensure_mem((void **)&w->bids, &w->cap_bids, sizeof(*w->bids), w->nr_bids + 1))
		return -ENOMEM;
	b = &w->bids[w->nr_bids];
	memset(b, 0, sizeof(*b));
	b->name = strdup(filename);
	if (!b->name)
		return -ENOMEM;
	b->cpumode = cpumode;
	memcpy(b->id, id, id_size);
	b->size = (uint8_t)id_size;
	w->nr_bids++;
	return 0;
}

/* ---- output ---- */

/* cut a regular file back to what was written in full, after a failed write */
static void rollback(struct prism_writer *w)
{
	if (!w->seekable)
		return;
	if (ftruncate(w->fd, (off_t)w->off) || lseek(w->fd, (off_t)w->off, SEEK_SET) < 0)
		pr_debug("writer: cannot cut %s back to %llu bytes: %s", w->path,
			 (unsigned long long)w->off, strerror(errno));
}

static int fail_write(struct prism_writer *w, int err)
{
	if (!w->err) {
		w->err = err;
		pr_debug("writing %s failed at offset %llu: %s", w->path,
			 (unsigned long long)w->off, strerror(-err));
	}
	rollback(w);
	return err;
}

static int write_iov(struct prism_writer *w, struct iovec *iov, int cnt)
{
	uint64_t done = 0;

	while (cnt > 0) {
		ssize_t n = writev(w->fd, iov, cnt);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return fail_write(w, -errno);
		}
		if (n == 0)
			return fail_write(w, -EIO);
		done += (uint64_t)n;
		while (cnt > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	w->off += done;
	return 0;
}

int prism_writer__flush(struct prism_writer *w)
{
	struct iovec iov;
	int err;

	if (w->err)
		return w->err;
	if (!w->buf_len)
		return 0;
	iov.iov_base = w->buf;
	iov.iov_len = w->buf_len;
	err = write_iov(w, &iov, 1);
	w->buf_len = 0;
	return err;
}

/* append whole records (one or two pieces) to the output */
static int out2(struct prism_writer *w, const void *a, size_t alen, const void *b, size_t blen)
{
	int err;

	if (w->err)
		return w->err;
	if (w->buf_len + alen + blen > w->buf_cap) {
		err = prism_writer__flush(w);
		if (err)
			return err;
	}
	if (alen + blen > w->buf_cap / 2) {
		struct iovec iov[2] = { { (void *)a, alen }, { (void *)b, blen } };

		return write_iov(w, iov, blen ? 2 : 1);
	}
	memcpy(w->buf + w->buf_len, a, alen);
	if (blen)
		memcpy(w->buf + w->buf_len + alen, b, blen);
	w->buf_len += alen + blen;
	return 0;
}

int prism_writer__write(struct prism_writer *w, const void *rec, size_t len)
{
	return out2(w, rec, len, NULL, 0);
}

static int emit_compressed(void *ctx, const void *rec, size_t len)
{
	struct prism_writer *w = ctx;

	w->comp_bytes += len - sizeof(struct perf_event_header);
	return out2(w, rec, len, NULL, 0);
}

static int compress_piece(struct prism_writer *w, const uint8_t *p, size_t len)
{
	while (len) {
		size_t n = len < w->comp_mmap_len ? len : w->comp_mmap_len;
		int err = wr_zstd__compress(w->z, p, n, WR_COMP_PAYLOAD, emit_compressed, w);

		if (err)
			return w->err ? w->err : err;
		p += n;
		len -= n;
	}
	return 0;
}

int prism_writer__write_data(struct prism_writer *w, const void *a, size_t alen, const void *b,
			     size_t blen)
{
	int err;

	if (w->err)
		return w->err;
	w->raw_bytes += alen + blen;
	if (!w->z)
		return out2(w, a, alen, b, blen);
	err = compress_piece(w, a, alen);
	if (!err && blen)
		err = compress_piece(w, b, blen);
	return err;
}

int prism_writer__write_auxtrace(struct prism_writer *w, const void *rec, size_t rlen,
				 const void *a, size_t alen, const void *b, size_t blen)
{
	static const uint8_t zeros[8];
	size_t pad = -(alen + blen) & 7;
	struct iovec iov[4] = { { (void *)rec, rlen },
				{ (void *)a, alen },
				{ (void *)b, blen },
				{ (void *)zeros, pad } };
	uint64_t at;
	int err;

	err = prism_writer__flush(w);
	if (err)
		return err;
	if (!w->pipe) {
		if (prism_ensure_mem((void **)&w->aux_index, &w->cap_aux_index, 16,
				     w->nr_aux_index + 1))
			return -ENOMEM;
	}
	at = w->off;
	err = write_iov(w, iov, 4);
	if (err)
		return err;
	if (!w->pipe) {
		w->aux_index[2 * w->nr_aux_index] = at;
		w->aux_index[2 * w->nr_aux_index + 1] = rlen; /* perf: header.size */
		w->nr_aux_index++;
	}
	return 0;
}

int prism_writer__finished_round(struct prism_writer *w)
{
	struct perf_event_header h = { .type = PRISM_RECORD_FINISHED_ROUND, .size = sizeof(h) };
	int err = prism_writer__write(w, &h, sizeof(h));

	return err ? err : prism_writer__flush(w);
}

/* ---- start ---- */

static int write_at(struct prism_writer *w, const void *p, size_t len, uint64_t off)
{
	const uint8_t *c = p;

	while (len) {
		ssize_t n = pwrite(w->fd, c, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		c += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static void fill_header(struct prism_writer *w, struct wr_file_header *h, uint64_t data_size)
{
	memset(h, 0, sizeof(*h));
	h->magic = WR_MAGIC;
	h->size = WR_HEADER_SIZE;
	h->attr_size = PRISM_WRITER_ATTR_SIZE + 16;
	h->attrs.offset = w->attrs_offset;
	h->attrs.size = w->nr_ev * h->attr_size;
	h->data.offset = w->data_offset;
	h->data.size = data_size;
}

static int start_file(struct prism_writer *w)
{
	struct wr_file_header h;
	uint64_t id_off = WR_HEADER_SIZE;
	size_t i;
	int err;

	/* header placeholder (data.size 0 = unfinished), then ids, then attrs */
	w->attrs_offset = WR_HEADER_SIZE;
	for (i = 0; i < w->nr_ev; i++)
		w->attrs_offset += w->ev[i].nr_ids * sizeof(uint64_t);
	w->data_offset = w->attrs_offset + w->nr_ev * (PRISM_WRITER_ATTR_SIZE + 16);
	fill_header(w, &h, 0);
	err = prism_writer__write(w, &h, sizeof(h));
	for (i = 0; !err && i < w->nr_ev; i++)
		if (w->ev[i].nr_ids)
			err = prism_writer__write(w, w->ev[i].ids,
						  w->ev[i].nr_ids * sizeof(uint64_t));
	for (i = 0; !err && i < w->nr_ev; i++) {
		struct wr_section ids = { id_off, w->ev[i].nr_ids * sizeof(uint64_t) };
		uint8_t attr[PRISM_WRITER_ATTR_SIZE] = { 0 };

		memcpy(attr, &w->ev[i].attr,
		       sizeof(w->ev[i].attr) < sizeof(attr) ? sizeof(w->ev[i].attr) : sizeof(attr));
		err = prism_writer__write(w, attr, sizeof(attr));
		if (!err)
			err = prism_writer__write(w, &ids, sizeof(ids));
		id_off += ids.size;
	}
	if (!err)
		err = prism_writer__flush(w);
	return err;
}

/* a user record: header + body (body may be larger than one u16 size: caller's problem) */
static int write_user(struct prism_writer *w, uint32_t type, const void *a, size_t alen,
		      const void *b, size_t blen)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(8 + alen + blen) };
	uint8_t *rec;
	int err;

	if (8 + alen + blen > 65535)
		return -E2BIG;
	rec = malloc(8 + alen + blen);
	if (!rec)
		return -ENOMEM;
	memcpy(rec, &h, 8);
	memcpy(rec + 8, a, alen);
	if (blen)
		memcpy(rec + 8 + alen, b, blen);
	err = prism_writer__write(w, rec, 8 + alen + blen);
	free(rec);
	return err;
}

static int start_pipe(struct prism_writer *w)
{
	uint64_t hdr[2] = { WR_MAGIC, WR_PIPE_HEADER_SIZE };
	struct prism_strbuf sb = STRBUF_INIT;
	unsigned int f;
	size_t i;
	int err;

	err = prism_writer__write(w, hdr, sizeof(hdr));
	for (i = 0; !err && i < w->nr_ev; i++) {
		uint8_t attr[PRISM_WRITER_ATTR_SIZE] = { 0 };

		memcpy(attr, &w->ev[i].attr, sizeof(attr));
		err = write_user(w, PRISM_RECORD_HEADER_ATTR, attr, sizeof(attr), w->ev[i].ids,
				 w->ev[i].nr_ids * sizeof(uint64_t));
	}
	for (f = 1; !err && f < PRISM_FEAT_LAST_PERF61; f++) {
		uint64_t id = f;

		if (!wr_feature_wanted(w, f, true))
			continue;
		prism_strbuf_reset(&sb);
		err = wr_feature(w, f, &sb);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (!err)
			err = write_user(w, PRISM_RECORD_HEADER_FEATURE, &id, 8, sb.buf, sb.len);
	}
	if (!err) {
		uint64_t id = PRISM_FEAT_LAST_PERF61;

		err = write_user(w, PRISM_RECORD_HEADER_FEATURE, &id, 8, NULL, 0);
	}
	if (!err && w->tdata) {
		uint32_t body[2] = { (uint32_t)((w->tdata_len + 7) & ~(size_t)7), 0 };
		static const uint8_t zeros[8];

		err = write_user(w, PRISM_RECORD_HEADER_TRACING_DATA, body, sizeof(body), NULL, 0);
		if (!err)
			err = prism_writer__write(w, w->tdata, w->tdata_len);
		if (!err && body[0] > w->tdata_len)
			err = prism_writer__write(w, zeros, body[0] - w->tdata_len);
	}
	prism_strbuf_release(&sb);
	if (!err)
		err = prism_writer__flush(w);
	return err;
}

int prism_writer__start(struct prism_writer *w)
{
	if (w->started)
		return -EBUSY;
	w->started = true;
	return w->pipe ? start_pipe(w) : start_file(w);
}

/* ---- finish ---- */

bool prism_writer__has_feature(const struct prism_writer *w, unsigned int feat)
{
	return wr_feature_wanted(w, feat, w->pipe);
}

int prism_writer__feature(struct prism_writer *w, unsigned int feat, struct prism_strbuf *sb)
{
	return wr_feature(w, feat, sb);
}

/* the feature table and payloads after the data; returns the bitmap written */
static int write_features(struct prism_writer *w, uint64_t bitmap[4])
{
	struct prism_strbuf all = STRBUF_INIT, one = STRBUF_INIT;
	struct wr_section sec[PRISM_FEAT_BITS];
	unsigned int f, n = 0;
	uint64_t off;
	int err = 0;

	memset(bitmap, 0, 4 * sizeof(uint64_t));
	for (f = 1; f < PRISM_FEAT_BITS; f++) {
		if (!wr_feature_wanted(w, f, false))
			continue;
		prism_strbuf_reset(&one);
		err = wr_feature(w, f, &one);
		if (err == -ENOENT) {
			err = 0;
			continue;
		}
		if (err) {
			pr_warn("header feature %s could not be built (%s): left out",
				prism_features__name(f), strerror(-err));
			err = 0;
			continue;
		}
		if (prism_strbuf_failed(&one)) {
			err = -ENOMEM;
			goto out;
		}
		bitmap[f / 64] |= 1ULL << (f % 64);
		sec[n].offset = all.len; /* relative for now */
		sec[n].size = one.len;
		n++;
		prism_strbuf_add(&all, one.buf, one.len);
	}
	if (prism_strbuf_failed(&all)) {
		err = -ENOMEM;
		goto out;
	}
	off = w->off + n * sizeof(struct wr_section);
	for (f = 0; f < n; f++)
		sec[f].offset += off;
	err = prism_writer__write(w, sec, n * sizeof(*sec));
	if (!err)
		err = prism_writer__write(w, all.buf, all.len);
	if (!err)
		err = prism_writer__flush(w);
out:
	prism_strbuf_release(&all);
	prism_strbuf_release(&one);
	return err;
}

int prism_writer__finish(struct prism_writer *w)
{
	struct wr_file_header h;
	uint64_t data_end, bitmap[4] = { 0 };
	int err, first;

	if (w->finished)
		return w->err;
	w->finished = true;
	err = prism_writer__flush(w);
	if (w->pipe || !w->started)
		return err ? err : w->err;
	first = w->err;
	data_end = w->off;
	if (!first) {
		err = write_features(w, bitmap);
	} else {
		/* space may have come back with the cut: try the features anyway */
		int saved = w->err;

		w->err = 0;
		err = write_features(w, bitmap);
		if (err)
			w->err = saved;
		else
			w->err = saved;
	}
	if (err) {
		/* no features: cut them off so the header describes only what is there */
		memset(bitmap, 0, sizeof(bitmap));
		w->off = data_end;
		rollback(w);
	}
	fill_header(w, &h, data_end - w->data_offset);
	memcpy(h.features, bitmap, sizeof(bitmap));
	err = write_at(w, &h, sizeof(h), 0);
	if (err) {
		pr_err("cannot write the final header of %s: %s", w->path, strerror(-err));
		return w->err ? w->err : err;
	}
	return w->err;
}

uint64_t prism_writer__bytes(const struct prism_writer *w)
{
	return w->off + w->buf_len;
}

uint64_t prism_writer__data_comp_bytes(const struct prism_writer *w)
{
	return w->comp_bytes;
}

uint64_t prism_writer__data_raw_bytes(const struct prism_writer *w)
{
	return w->raw_bytes;
}

int prism_writer__error(const struct prism_writer *w)
{
	return w->err;
}

const char *prism_writer__path(const struct prism_writer *w)
{
	return w->path;
}
