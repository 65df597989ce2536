// SPDX-License-Identifier: MIT
/*
 * speedscope JSON, written from per-thread spill buffers (see the header).
 * Field names from speedscope's file-format-spec.ts: $schema, shared.frames
 * [{name, file}], profiles [{type "sampled", name, unit, startValue,
 * endValue, samples [[frame index, root first]], weights}], name,
 * activeProfileIndex, exporter.
 */
#include <inttypes.h>
#include <stdio.h>

#include <prism/export-speedscope.h>
#include <prism/strbuf.h>

#include "internal.h"
#include "export/intern.h"

#define SPILL_AT 8192

struct chunk {
	uint64_t off;
	size_t len;
};

/* JSON text of one array (samples or weights) of a thread */
struct text {
	struct prism_strbuf buf;
	struct chunk *chunks;
	size_t nr_chunks, alloc_chunks;
};

struct thread {
	uint32_t pid, tid;
	char *comm;
	uint64_t nr_samples, total;
	struct text samples, weights;
};

struct prism_speedscope {
	FILE *fp, *spill;
	uint64_t spill_off;
	struct prism_speedscope_opts o;
	char *name, *unit;
	struct strtab frames; /* "name\001file" */
	struct pairmap by_tid;
	struct thread *threads;
	size_t nr_threads, alloc_threads;
	uint64_t *stack;
	size_t alloc_stack;
	struct prism_strbuf key;
	uint64_t nr_samples, bytes;
	int err;
};

struct prism_speedscope *prism_speedscope__new(FILE *fp, const struct prism_speedscope_opts *opts)
{
	struct prism_speedscope *ss = calloc(1, sizeof(*ss));

	if (!ss)
		return NULL;
	ss->fp = fp;
	prism_strbuf_init(&ss->key);
	ss->name = strdup(opts->name ? opts->name : "prism");
	ss->unit = strdup(opts->unit ? opts->unit : "none");
	ss->spill = tmpfile();
	if (!ss->name || !ss->unit || !ss->spill) {
		int e = errno ? errno : ENOMEM;

		prism_speedscope__free(ss);
		errno = e;
		return NULL;
	}
	return ss;
}

static int spill(struct prism_speedscope *ss, struct text *t)
{
	struct chunk *c;

	if (!t->buf.len)
		return 0;
	if (prism_ensure_mem((void **)&t->chunks, &t->alloc_chunks, sizeof(*t->chunks),
			     t->nr_chunks + 1))
		return -ENOMEM;
	if (fwrite(t->buf.buf, 1, t->buf.len, ss->spill) != t->buf.len)
		return -(errno ? errno : EIO);
	c = &t->chunks[t->nr_chunks++];
	c->off = ss->spill_off;
	c->len = t->buf.len;
	ss->spill_off += t->buf.len;
	prism_strbuf_reset(&t->buf);
	return 0;
}

static struct thread *thread_of(struct prism_speedscope *ss, const struct prism_export_sample *s)
{
	struct thread *t;
	uint64_t idx;
	int ret;

	ret = pairmap_get_or_add(&ss->by_tid, s->pid, s->tid, ss->nr_threads, &idx);
	if (ret < 0)
		return NULL;
	if (ret == 1) {
		if (prism_ensure_mem((void **)&ss->threads, &ss->alloc_threads,
				     sizeof(*ss->threads), ss->nr_threads + 1))
			return NULL;
		t = &ss->threads[ss->nr_threads++];
		memset(t, 0, sizeof(*t));
		t->pid = s->pid;
		t->tid = s->tid;
		prism_strbuf_init(&t->samples.buf);
		prism_strbuf_init(&t->weights.buf);
	}
	t = &ss->threads[idx];
	/* the thread's latest name (exec renames it) */
	if (s->comm && (!t->comm || strcmp(t->comm, s->comm))) {
		free(t->comm);
		t->comm = strdup(s->comm);
		if (!t->comm)
			return NULL;
	}
	return t;
}

static int frame_of(struct prism_speedscope *ss, const struct prism_frame *f, uint64_t *idx)
{
	prism_strbuf_reset(&ss->key);
	if (f->sym)
		prism_strbuf_addstr(&ss->key, f->sym);
	else
		prism_strbuf_addstr(&ss->key, "[unknown]");
	prism_strbuf_addch(&ss->key, '\001');
	prism_strbuf_addstr(&ss->key, f->dso_name ? f->dso_name : "[unknown]");
	if (prism_strbuf_failed(&ss->key))
		return -ENOMEM;
	return strtab_intern(&ss->frames, ss->key.buf, idx);
}

int prism_speedscope__add(struct prism_speedscope *ss, const struct prism_export_sample *s)
{
	struct thread *t;
	size_t i;
	int err;

	if (ss->err)
		return ss->err;
	t = thread_of(ss, s);
	if (!t || prism_ensure_mem((void **)&ss->stack, &ss->alloc_stack, sizeof(*ss->stack),
				   s->nr ? s->nr : 1))
		return ss->err = -ENOMEM;
	for (i = 0; i < s->nr; i++) {
		err = frame_of(ss, &s->frames[i], &ss->stack[i]);
		if (err)
			return ss->err = err;
	}
	prism_strbuf_addstr(&t->samples.buf, t->nr_samples ? ",[" : "[");
	for (i = s->nr; i-- > 0;) /* root first */
		prism_strbuf_addf(&t->samples.buf, i + 1 < s->nr ? ",%" PRIu64 : "%" PRIu64,
				  ss->stack[i]);
	prism_strbuf_addch(&t->samples.buf, ']');
	prism_strbuf_addf(&t->weights.buf, t->nr_samples ? ",%" PRIu64 : "%" PRIu64, s->period);
	if (prism_strbuf_failed(&t->samples.buf) || prism_strbuf_failed(&t->weights.buf))
		return ss->err = -ENOMEM;
	t->nr_samples++;
	t->total += s->period;
	ss->nr_samples++;
	if (t->samples.buf.len >= SPILL_AT)
		ss->err = spill(ss, &t->samples);
	if (!ss->err && t->weights.buf.len >= SPILL_AT)
		ss->err = spill(ss, &t->weights);
	return ss->err;
}

static void out(struct prism_speedscope *ss, const void *data, size_t len)
{
	if (!ss->err && len && fwrite(data, 1, len, ss->fp) != len)
		ss->err = -(errno ? errno : EIO);
	ss->bytes += len;
}

static void out_sb(struct prism_speedscope *ss, struct prism_strbuf *sb)
{
	if (prism_strbuf_failed(sb) && !ss->err)
		ss->err = -ENOMEM;
	out(ss, sb->buf, sb->len);
	prism_strbuf_reset(sb);
}

/* a thread's array: the spilled chunks in order, then what is still in memory */
static void out_text(struct prism_speedscope *ss, struct text *t)
{
	char buf[65536];
	size_t i;

	for (i = 0; i < t->nr_chunks && !ss->err; i++) {
		uint64_t left = t->chunks[i].len;

		if (fseeko(ss->spill, (off_t)t->chunks[i].off, SEEK_SET)) {
			ss->err = -errno;
			return;
		}
		while (left && !ss->err) {
			size_t n = left < sizeof(buf) ? left : sizeof(buf);

			if (fread(buf, 1, n, ss->spill) != n) {
				ss->err = -EIO;
				return;
			}
			out(ss, buf, n);
			left -= n;
		}
	}
	out(ss, t->buf.buf, t->buf.len);
}

/* the busiest thread first: speedscope opens activeProfileIndex 0 */
static int by_total(const void *a, const void *b, void *ctx)
{
	const struct prism_speedscope *ss = ctx;
	const struct thread *x = &ss->threads[*(const size_t *)a];
	const struct thread *y = &ss->threads[*(const size_t *)b];

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int prism_speedscope__finish(struct prism_speedscope *ss, struct prism_speedscope_stats *st)
{
	struct prism_strbuf sb = STRBUF_INIT;
	size_t i, *order = NULL;

	if (!ss->err && fflush(ss->spill))
		ss->err = -errno;
	if (!ss->err && ss->nr_threads) {
		order = calloc(ss->nr_threads, sizeof(*order));
		if (!order)
			ss->err = -ENOMEM;
	}
	prism_strbuf_addstr(&sb,
			    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""
			    ",\"exporter\":");
	prism_strbuf_add_json_str(&sb, "prism " PRISM_VERSION);
	prism_strbuf_addstr(&sb, ",\"name\":");
	prism_strbuf_add_json_str(&sb, ss->name);
	prism_strbuf_addstr(&sb, ",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
	for (i = 0; i < ss->frames.nr; i++) {
		char *name = ss->frames.str[i], *sep = strchr(name, '\001');

		*sep = '\0';
		prism_strbuf_addstr(&sb, i ? ",{\"name\":" : "{\"name\":");
		prism_strbuf_add_json_str(&sb, name);
		prism_strbuf_addstr(&sb, ",\"file\":");
		prism_strbuf_add_json_str(&sb, sep + 1);
		prism_strbuf_addch(&sb, '}');
		*sep = '\001';
		if (sb.len >= SPILL_AT)
			out_sb(ss, &sb);
	}
	prism_strbuf_addstr(&sb, "]},\"profiles\":[");
	for (i = 0; order && i < ss->nr_threads; i++)
		order[i] = i;
	if (order)
		qsort_r(order, ss->nr_threads, sizeof(*order), by_total, ss);
	for (i = 0; order && i < ss->nr_threads && !ss->err; i++) {
		struct thread *t = &ss->threads[order[i]];

		prism_strbuf_addstr(&sb, i ? ",{\"type\":\"sampled\",\"name\":" :
					     "{\"type\":\"sampled\",\"name\":");
		prism_strbuf_reset(&ss->key);
		prism_strbuf_addf(&ss->key, "%s (%u/%u)", t->comm ? t->comm : "[unknown]", t->pid,
				  t->tid);
		prism_strbuf_add_json_str(&sb, ss->key.buf);
		prism_strbuf_addstr(&sb, ",\"unit\":");
		prism_strbuf_add_json_str(&sb, ss->unit);
		prism_strbuf_addf(&sb, ",\"startValue\":0,\"endValue\":%" PRIu64 ",\"samples\":[",
				  t->total);
		out_sb(ss, &sb);
		out_text(ss, &t->samples);
		out(ss, "],\"weights\":[", 13);
		out_text(ss, &t->weights);
		out(ss, "]}", 2);
	}
	prism_strbuf_addstr(&sb, "]}\n");
	out_sb(ss, &sb);
	prism_strbuf_release(&sb);
	free(order);
	if (st) {
		st->samples = ss->nr_samples;
		st->frames = ss->frames.nr;
		st->profiles = ss->nr_threads;
		st->bytes = ss->bytes;
	}
	if (!ss->err && fflush(ss->fp))
		ss->err = -(errno ? errno : EIO);
	return ss->err;
}

void prism_speedscope__free(struct prism_speedscope *ss)
{
	size_t i;

	if (!ss)
		return;
	for (i = 0; i < ss->nr_threads; i++) {
		struct thread *t = &ss->threads[i];

		free(t->comm);
		prism_strbuf_release(&t->samples.buf);
		prism_strbuf_release(&t->weights.buf);
		free(t->samples.chunks);
		free(t->weights.chunks);
	}
	free(ss->threads);
	if (ss->spill)
		fclose(ss->spill);
	strtab_release(&ss->frames);
	pairmap_release(&ss->by_tid);
	prism_strbuf_release(&ss->key);
	free(ss->stack);
	free(ss->name);
	free(ss->unit);
	free(ss);
}
