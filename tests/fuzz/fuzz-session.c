// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the input bytes as a perf.data file or pipe-mode stream.
 *
 * Everything `prism header`, `prism stats` and `prism script` touch is
 * exercised: the session is opened from an fd (a memfd, so regular-file mmap
 * windows, or a real pipe, so the read() buffer), every prism_tool callback
 * is set, tracepoint payloads are formatted and their fields read by name,
 * the task model is fed, and the header features are printed.
 *
 * Which way an input is read is chosen by a hash of its first 64 bytes (the
 * file header), so mutations deep in the data keep the mode of their seed:
 *   bit 0: real pipe instead of memfd (inputs up to the pipe's capacity)
 *   bit 1: no_order (file order) instead of time order
 *   bit 2: a tiny order_mem_limit (forces early flushes of the time sort)
 *   bit 3: samples to a sample_basic callback (prism util's way) instead of
 *          'sample'
 * Set PRISM_FUZZ_MODE=0..15 to force a mode when replaying an input.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/offcpu-data.h>
#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/features.h>
#include <prism/log.h>
#include <prism/session.h>
#include <prism/stat-reads.h>
#include <prism/strbuf.h>
#include <prism/task.h>
#include <prism/tp.h>

#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct fuzz_ctx {
	struct prism_session *s;
	struct prism_tasks *tasks;
	struct prism_stat_reads *stat; /* perf stat record's counter reads */
	struct prism_strbuf out;
	uint64_t sink; /* keeps reads from being optimised away */
};

static int forced_mode = -1;

/* format every message like a real log callback would */
static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("PRISM_FUZZ_MODE");

	if (m && *m)
		forced_mode = atoi(m) & 15;
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static void touch(struct fuzz_ctx *c, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	/* reading every byte makes ASan check the whole range */
	for (i = 0; i < len; i++)
		c->sink += b[i];
}

static void tp_fields(struct fuzz_ctx *c, struct prism_tp *tp, const struct prism_sample *s)
{
	const struct prism_tp_event *tev;
	size_t i, j, n;

	prism_tp__format(tp, s->raw_data, s->raw_size, &c->out);
	tev = prism_tp__event_of(tp, s->raw_data, s->raw_size);
	if (!tev)
		return;
	touch(c, prism_tp_event__name(tev), strlen(prism_tp_event__name(tev)));
	touch(c, prism_tp_event__system(tev), strlen(prism_tp_event__system(tev)));
	n = prism_tp_event__nr_fields(tev);
	for (i = 0; i < n; i++) {
		const struct prism_tp_field *f = prism_tp_event__field_at(tev, i);
		const struct prism_tp_field *byname;
		const char *str;
		size_t len, nelem;
		uint64_t v;

		if (!f)
			continue;
		byname = prism_tp_event__field(tev, prism_tp_field__name(f));
		if (!byname)
			abort(); /* a listed field must be found by its name */
		touch(c, prism_tp_field__type(f), strlen(prism_tp_field__type(f)));
		if (!prism_tp_field__u64(f, s->raw_data, s->raw_size, &v))
			c->sink += v;
		nelem = prism_tp_field__nr_elems(f);
		for (j = 0; j < nelem && j < 64; j++)
			if (!prism_tp_field__u64_at(f, s->raw_data, s->raw_size, j, &v))
				c->sink += v;
		if (prism_tp_field__is_string(f) &&
		    !prism_tp_field__str(f, s->raw_data, s->raw_size, &str, &len))
			touch(c, str, len);
	}
}

static void sample_body(struct fuzz_ctx *c, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	const struct perf_event_attr *attr;
	struct prism_tp *tp;
	uint64_t i;

	touch(c, ev->raw, ev->raw->size);
	if (s->callchain)
		touch(c, s->callchain, s->callchain_nr * sizeof(uint64_t));
	if (s->raw_data) {
		struct prism_offcpu_raw r;

		touch(c, s->raw_data, s->raw_size);
		/* prism's offcpu-time payload, with the window at sp */
		if (!prism_offcpu_raw__decode(s->raw_data, s->raw_size, &r) && r.window)
			touch(c, r.window, r.window_size);
	}
	if (s->branch_entries)
		touch(c, s->branch_entries, s->branch_nr * 24);
	if (s->user_stack)
		touch(c, s->user_stack, s->user_stack_size);
	if (s->aux_data)
		touch(c, s->aux_data, s->aux_size);
	if (s->read.values_raw && ev->evsel) {
		attr = prism_evsel__attr(ev->evsel);
		if ((attr->read_format & PERF_FORMAT_GROUP) &&
		    (attr->read_format & PERF_FORMAT_ID)) {
			size_t entry = 16 + (attr->read_format & PERF_FORMAT_LOST ? 8 : 0);
			const uint8_t *v = s->read.values_raw;

			for (i = 0; i < s->read.nr; i++, v += entry) {
				uint64_t id;

				memcpy(&id, v + 8, 8);
				c->sink += (uintptr_t)prism_session__evsel_by_id(c->s, id);
			}
		}
	}
	if (ev->evsel) {
		const char *name = prism_evsel__name(ev->evsel);

		touch(c, name, strlen(name));
		c->sink += prism_evsel__fixed_period(ev->evsel);
	}
	if (s->tid) {
		const char *comm = prism_tasks__comm(c->tasks, s->tid);

		if (comm)
			touch(c, comm, strlen(comm));
	}
	/* perf script's text of the memory fields, whatever bits the file holds */
	if (s->type & PERF_SAMPLE_DATA_SRC)
		prism_mem_src__format(s->data_src, &c->out);
	prism_page_size__format(s->data_page_size, &c->out);
	prism_page_size__format(s->code_page_size, &c->out);
	tp = prism_session__tp(c->s);
	if (tp && s->raw_data)
		tp_fields(c, tp, s);
	prism_strbuf_reset(&c->out);
}

static int on_sample(void *ctx, const struct prism_event *ev)
{
	sample_body(ctx, ev);
	return 0;
}

static int on_sample_basic(void *ctx, const struct prism_sample_basic *b)
{
	struct fuzz_ctx *c = ctx;

	c->sink += b->time + b->pid + b->tid + b->cpu + b->file_offset +
		   (uint64_t)prism_evsel__idx(b->evsel);
	touch(c, b->raw_data, b->raw_size);
	touch(c, b->callchain, b->callchain_nr * sizeof(uint64_t));
	return 0;
}

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct fuzz_ctx *c = ctx;

	touch(c, ev->raw, ev->raw->size);
	if (ev->type == PERF_RECORD_COMM)
		touch(c, ev->comm.comm, strlen(ev->comm.comm));
	return prism_tasks__event(c->tasks, ev) < 0 ? -ENOMEM : 0;
}

static int on_mmap(void *ctx, const struct prism_event *ev)
{
	struct fuzz_ctx *c = ctx;

	touch(c, ev->raw, ev->raw->size);
	if (ev->mmap.filename)
		touch(c, ev->mmap.filename, strlen(ev->mmap.filename));
	if (ev->mmap.build_id)
		touch(c, ev->mmap.build_id, ev->mmap.build_id_size);
	return 0;
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	struct fuzz_ctx *c = ctx;

	touch(c, ev->raw, ev->raw->size);
	switch (ev->type) {
	case PERF_RECORD_KSYMBOL:
		if (ev->ksymbol.name)
			touch(c, ev->ksymbol.name, strlen(ev->ksymbol.name));
		break;
	case PERF_RECORD_CGROUP:
		if (ev->cgroup.path)
			touch(c, ev->cgroup.path, strlen(ev->cgroup.path));
		break;
	case PERF_RECORD_NAMESPACES:
		if (ev->ns.link_info)
			touch(c, ev->ns.link_info, ev->ns.nr * 16);
		break;
	case PERF_RECORD_READ:
		c->sink += ev->read.read.nr;
		break;
	default:
		break;
	}
	c->sink += (uintptr_t)prism_record_type_name(ev->type);
	return 0;
}

static int on_simple(void *ctx, const struct prism_event *ev)
{
	struct fuzz_ctx *c = ctx;

	touch(c, ev->raw, ev->raw->size);
	return 0;
}

static int on_stat_read(void *ctx, const struct prism_stat_read *rd)
{
	struct fuzz_ctx *c = ctx;

	c->sink += rd->val + rd->ena + rd->run + rd->time + (uint64_t)rd->cpu + (uint64_t)rd->pid +
		   (uintptr_t)prism_evsel__name(rd->evsel);
	return 0;
}

/* perf's own records: the counter reads of a stat file, as prism script prints them */
static int on_user(void *ctx, const struct prism_event *ev)
{
	struct fuzz_ctx *c = ctx;

	on_simple(ctx, ev);
	return c->stat ? prism_stat_reads__event(c->stat, ev, on_stat_read, c) : 0;
}

static void walk_evsels(struct fuzz_ctx *c)
{
	size_t i, n = prism_session__nr_evsels(c->s);

	for (i = 0; i < n; i++) {
		struct prism_evsel *e = prism_session__evsel(c->s, i);
		const struct perf_event_attr *attr = prism_evsel__attr(e);
		const char *unit = prism_evsel__unit(e);

		touch(c, prism_evsel__name(e), strlen(prism_evsel__name(e)));
		touch(c, prism_evsel__ids(e), prism_evsel__nr_ids(e) * sizeof(uint64_t));
		if (unit)
			touch(c, unit, strlen(unit));
		prism_sample_type__str(attr->sample_type, &c->out);
		prism_read_format__str(attr->read_format, &c->out);
		c->sink += prism_evsel__nr_samples(e) + prism_evsel__nr_records(e, 1) +
			   prism_evsel__nr_lost_samples(e);
	}
}

static void run(const uint8_t *data, size_t size, int fd, int mode)
{
	struct prism_session_opts opts = { .fd = fd };
	struct fuzz_ctx c = { .out = STRBUF_INIT };
	struct prism_tool tool = {
		.sample = on_sample,
		.mmap = on_mmap,
		.comm = on_task,
		.fork = on_task,
		.exit = on_task,
		.lost = on_simple,
		.switch_ = on_simple,
		.other = on_other,
		.user = on_user,
		.other_all = true,
	};
	const struct prism_session_stats *st;
	char errbuf[128];
	int err;

	if (mode & 8)
		tool.sample_basic = on_sample_basic;
	opts.no_order = mode & 2;
	if (mode & 4)
		opts.order_mem_limit = 4096;
	c.s = prism_session__open(&opts);
	if (!c.s) {
		const char *msg = prism_session_open_error();

		touch(&c, msg, strlen(msg));
		prism_strerror(errno, errbuf, sizeof(errbuf));
		return;
	}
	c.tasks = prism_tasks__new();
	if (!c.tasks) {
		prism_session__free(c.s);
		return;
	}
	walk_evsels(&c);
	c.stat = prism_stat_reads__new(c.s);
	err = prism_session__process(c.s, &tool, &c);
	if (err < 0) {
		const char *msg = prism_session__error(c.s);

		touch(&c, msg, strlen(msg));
		prism_strerror(err, errbuf, sizeof(errbuf));
	}
	st = prism_session__stats(c.s);
	c.sink += st->nr_records_total + st->data_bytes;
	walk_evsels(&c);
	c.sink += prism_session__file_info(c.s)->data_size;
	prism_strbuf_reset(&c.out);
	prism_features__print(prism_session__features(c.s), &c.out);
	prism_features__print_missing(prism_session__features(c.s), &c.out);
	touch(&c, c.out.buf, c.out.len);
	prism_strbuf_release(&c.out);
	if (c.stat)
		c.sink += prism_stat_reads__nr_reads(c.stat);
	prism_stat_reads__free(c.stat);
	prism_tasks__free(c.tasks);
	prism_session__free(c.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int mode = forced_mode >= 0 ? forced_mode : (int)(fuzz_header_hash(data, size) & 15);
	int fds[2];

	if (mode & 1) {
		/* a real pipe: the whole input must fit its buffer (no writer thread) */
		if (!pipe2(fds, O_CLOEXEC)) {
			int cap = fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);

			if (cap < 0)
				cap = fcntl(fds[1], F_GETPIPE_SZ);
			if (cap >= 0 && size <= (size_t)cap &&
			    !fuzz_write_all(fds[1], data, size)) {
				close(fds[1]);
				run(data, size, fds[0], mode);
				close(fds[0]);
				return 0;
			}
			close(fds[0]);
			close(fds[1]);
		}
	}
	fds[0] = fuzz_memfd(data, size);
	run(data, size, fds[0], mode);
	close(fds[0]);
	return 0;
}
