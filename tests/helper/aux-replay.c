// SPDX-License-Identifier: MIT
/*
 * aux-replay: play the Intel PT trace of a perf.data file through prism's
 * AUX ring reader (lib/record/aux-ring.c), as if the hardware wrote it into
 * the AUX area of a recording, and write what the reader makes of it into a
 * new perf.data with prism's writer, every other record copied as it is.
 *
 *	aux-replay [--area BYTES] [--write BYTES] [--reads N] [--snapshot] [--pipe] IN OUT
 *
 * Each queue's trace (the AUXTRACE records of one idx, trailing padding
 * dropped) goes into its own AUX area of --area bytes (default 64, a power
 * of two): --write bytes at a time (default 24) as far as the space the
 * reader gave back allows, the reader called after every --reads writes
 * (default 2).  The AUXTRACE records the reader writes (pieces wrapped
 * around the end of the area, padding added to the last) take the place of
 * the input's, where its first AUXTRACE record of that queue was.
 * --snapshot: the area is written as the hardware does in snapshot mode
 * (aux_head an offset in it) and read once, at the end (use an area larger
 * than the trace, and 8 KiB or more: perf's wrap test reads the last 4 KiB).
 * AUXTRACE_INFO is parsed and written again with prism_pt_info__write()
 * (what prism record writes).  --pipe: OUT in pipe mode.  Tests compare perf script's output on IN and
 * OUT (t1019).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/pt.h>
#include <prism/session.h>

#include "data/writer.h"
#include "record/aux-ring.h"

#define MAX_Q 16

struct queue {
	uint32_t idx, tid, cpu;
	uint8_t *trace;
	size_t len;
	bool written;
};

struct replay {
	struct queue q[MAX_Q];
	size_t nr_q;
	/* pass 2 */
	struct prism_writer *w;
	uint64_t area, write, reads;
	bool snapshot;
	int err;
};

static struct queue *queue_of(struct replay *r, uint32_t idx)
{
	size_t i;

	for (i = 0; i < r->nr_q; i++)
		if (r->q[i].idx == idx)
			return &r->q[i];
	if (r->nr_q == MAX_Q)
		return NULL;
	r->q[r->nr_q].idx = idx;
	return &r->q[r->nr_q++];
}

/* pass 1: each queue's trace bytes */
static int collect(void *ctx, const struct prism_event *ev)
{
	struct replay *r = ctx;
	struct prism_auxtrace a;
	struct queue *q;
	uint8_t *p;

	if (ev->type != PRISM_RECORD_AUXTRACE)
		return 0;
	if (prism_auxtrace__parse(ev, &a) || !a.data || !(q = queue_of(r, a.idx)))
		return -EINVAL;
	p = realloc(q->trace, q->len + a.size);
	if (!p)
		return -ENOMEM;
	memcpy(p + q->len, a.data, a.size);
	q->trace = p;
	q->len += a.size;
	q->tid = a.tid;
	q->cpu = a.cpu;
	return 0;
}

/* the hardware writes @len bytes at stream position @pos of an area */
static void hw_write(uint8_t *area, uint64_t size, uint64_t pos, const uint8_t *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		area[(pos + i) & (size - 1)] = src[i];
}

static int play(struct replay *r, struct queue *q)
{
	struct perf_event_mmap_page pc;
	uint8_t *area = calloc(1, r->area);
	struct aux_ring ring;
	uint64_t pos = 0, n = 0;
	int err;

	if (!area)
		return -ENOMEM;
	memset(&pc, 0, sizeof(pc));
	err = aux_ring__init(&ring, &pc, area, r->area, r->snapshot);
	ring.idx = q->idx;
	ring.tid = q->tid;
	ring.cpu = q->cpu;
	while (!err && q->len && q->trace[q->len - 1] == 0)
		q->len--; /* the input's padding: the ring adds its own */
	while (!err && pos < q->len) {
		uint64_t room = r->snapshot ? r->write : r->area - (pos - pc.aux_tail);
		uint64_t len = q->len - pos;

		if (len > r->write)
			len = r->write;
		if (len > room)
			len = room;
		if (!len) { /* full: the reader must give space back */
			err = aux_ring__read(&ring, r->w, 0, aux_reference());
			continue;
		}
		hw_write(area, r->area, pos, q->trace + pos, len);
		pos += len;
		/* snapshot mode: aux_head is an offset in the area */
		pc.aux_head = r->snapshot ? pos & (r->area - 1) : pos;
		if (!r->snapshot && ++n % r->reads == 0)
			err = aux_ring__read(&ring, r->w, 0, aux_reference());
	}
	if (!err)
		err = aux_ring__read(&ring, r->w, 0, aux_reference());
	free(area);
	return err;
}

/* pass 2: every record again, the AUXTRACE ones through the ring */
static int copy(void *ctx, const struct prism_event *ev)
{
	struct replay *r = ctx;
	struct prism_auxtrace a;
	struct queue *q;

	switch (ev->type) {
	case PRISM_RECORD_HEADER_ATTR:
	case PRISM_RECORD_HEADER_EVENT_TYPE:
	case PRISM_RECORD_HEADER_FEATURE:
		return 0; /* the writer writes its own */
	case PRISM_RECORD_AUXTRACE_INFO: {
		/* written again by prism's writer of it (the recorder's) */
		struct prism_pt_info info;
		uint64_t buf[1024];
		size_t n;

		if (prism_pt_info__parse(ev, &info) || info.type != PRISM_AUXTRACE_INTEL_PT)
			return -EINVAL;
		n = prism_pt_info__write(&info, buf, sizeof(buf));
		return n ? prism_writer__write(r->w, buf, n) : -E2BIG;
	}
	case PRISM_RECORD_AUXTRACE:
		if (prism_auxtrace__parse(ev, &a) || !(q = queue_of(r, a.idx)))
			return -EINVAL;
		if (q->written)
			return 0;
		q->written = true;
		return play(r, q);
	default:
		return prism_writer__write(r->w, ev->raw, ev->raw->size);
	}
}

static int open_in(const char *path, struct prism_session **s)
{
	struct prism_session_opts so = { .path = path, .no_order = true };

	*s = prism_session__open(&so);
	if (!*s)
		fprintf(stderr, "aux-replay: %s: %s\n", path, prism_session_open_error());
	return *s ? 0 : -1;
}

static int usage(void)
{
	fprintf(stderr, "usage: aux-replay [--area BYTES] [--write BYTES] [--reads N] "
			"[--snapshot] [--pipe] IN OUT\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct replay r = { .area = 64, .write = 24, .reads = 2 };
	struct prism_tool t1 = { .user = collect, .auxtrace_data = true };
	struct prism_tool t2 = { .other = copy, .user = copy, .other_all = true };
	struct prism_writer_opts wo = { .fd = -1, .clockid = -1 };
	struct prism_session *s;
	size_t i;
	int a, err = 0;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--snapshot"))
			r.snapshot = true;
		else if (!strcmp(argv[a], "--pipe"))
			wo.pipe = true;
		else if (a + 1 < argc && !strcmp(argv[a], "--area"))
			r.area = strtoull(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(argv[a], "--write"))
			r.write = strtoull(argv[++a], NULL, 0);
		else if (a + 1 < argc && !strcmp(argv[a], "--reads"))
			r.reads = strtoull(argv[++a], NULL, 0);
		else
			return usage();
	}
	if (argc - a != 2 || !r.write || !r.reads)
		return usage();
	if (open_in(argv[a], &s))
		return 1;
	err = prism_session__process(s, &t1, &r);
	prism_session__free(s);
	if (err) {
		fprintf(stderr, "aux-replay: reading the trace of %s: %s\n", argv[a],
			strerror(-err));
		return 1;
	}
	if (wo.pipe) {
		wo.fd = open(argv[a + 1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (wo.fd < 0)
			return perror(argv[a + 1]), 1;
	} else {
		wo.path = argv[a + 1];
	}
	if (open_in(argv[a], &s))
		return 1;
	r.w = prism_writer__new(&wo);
	if (!r.w)
		return perror("aux-replay: writer"), 1;
	for (i = 0; !err && i < prism_session__nr_evsels(s); i++) {
		struct prism_evsel *e = prism_session__evsel(s, i);

		err = prism_writer__add_event(r.w, prism_evsel__attr(e), prism_evsel__name(e),
					      prism_evsel__ids(e), prism_evsel__nr_ids(e), (int)i,
					      1);
	}
	if (!err)
		err = prism_writer__start(r.w);
	if (!err)
		err = prism_session__process(s, &t2, &r);
	if (!err)
		err = prism_writer__finish(r.w);
	prism_writer__free(r.w);
	prism_session__free(s);
	if (wo.pipe)
		close(wo.fd);
	for (i = 0; i < r.nr_q; i++)
		free(r.q[i].trace);
	if (err) {
		fprintf(stderr, "aux-replay: %s: %s\n", argv[a + 1],
			err == -EINVAL ? "bad area size (a power of two) or record" :
					 strerror(-err));
		return 1;
	}
	return 0;
}
