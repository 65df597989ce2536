// SPDX-License-Identifier: MIT
/*
 * prism export perfetto: a perf.data file as a Perfetto trace.  The
 * utilization engine (lib/util, as prism util) reads the file and pairs
 * the calls; its observer hands the scheduler events, the completed calls
 * and the samples to the Perfetto writer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <prism/evsel.h>
#include <prism/export-perfetto.h>
#include <prism/session.h>
#include <prism/symbol.h>
#include <prism/util.h>

#include "cmd.h"
#include "export.h"
#include "input.h"
#include "options.h"

struct perfetto_cmd {
	const char *input, *output, *symfs, *kallsyms;
	bool force, no_samples;
	uint64_t window_us;
	struct export_out out;
	struct prism_perfetto *pf;
	struct prism_symbols *sy;
	struct prism_frame *frames;
	size_t alloc_frames;
	uint64_t end;
	uint64_t calls[PRISM_UTIL_NR_KINDS];
	bool progress;
	uint64_t nr_events;
};

/* a util event's string (not NUL-terminated) */
static const char *comm_str(char *buf, const char *s, size_t len)
{
	if (!s)
		return NULL;
	if (len > 15)
		len = 15;
	memcpy(buf, s, len);
	buf[len] = '\0';
	buf[strnlen(buf, len)] = '\0';
	return buf;
}

static int on_event(void *ctx, const struct prism_util_event *ev)
{
	struct perfetto_cmd *c = ctx;
	char a[16], b[16];
	const char *prev, *next;

	if (ev->time > c->end)
		c->end = ev->time;
	if (c->progress && ++c->nr_events % 65536 == 0)
		fprintf(stderr, "\rexport: %" PRIu64 " events", c->nr_events);
	switch (ev->type) {
	case PRISM_UTIL_EV_SWITCH:
		prev = comm_str(a, ev->comm, ev->comm_len);
		next = comm_str(b, ev->comm2, ev->comm2_len);
		if (ev->a)
			prism_perfetto__task(c->pf, 0, (uint32_t)ev->a, prev);
		if (ev->c)
			prism_perfetto__task(c->pf, 0, (uint32_t)ev->c, next);
		return prism_perfetto__switch(c->pf, ev->cpu, ev->time, (uint32_t)ev->a, prev,
					      ev->b, (uint32_t)ev->c, next);
	case PRISM_UTIL_EV_WAKEUP:
	case PRISM_UTIL_EV_WAKEUP_NEW:
		/* b = 1 tells sched_waking from sched_wakeup (lib/util/source.c) */
		return prism_perfetto__waking(c->pf, ev->cpu, ev->time, ev->tid, (uint32_t)ev->a,
					      NULL, ev->b != 1);
	case PRISM_UTIL_EV_EXEC:
		return prism_perfetto__task(c->pf, 0, (uint32_t)ev->a,
					    comm_str(a, ev->comm, ev->comm_len));
	default:
		return 0;
	}
}

static int on_call(void *ctx, const struct prism_util_call_span *k)
{
	static const char *const category[PRISM_UTIL_NR_KINDS] = {
		[PRISM_UTIL_SYSCALL] = "syscall",
		[PRISM_UTIL_IRQ] = "irq",
		[PRISM_UTIL_SOFTIRQ] = "softirq",
		[PRISM_UTIL_HCALL] = "hcall",
	};
	struct perfetto_cmd *c = ctx;
	struct prism_perfetto_slice s = {
		.category = category[k->kind],
		.name = k->name,
		.cpu = k->cpu,
		.pid = k->pid,
		.tid = k->tid,
		.start = k->start,
		.end = k->end,
	};

	s.track = k->kind == PRISM_UTIL_IRQ || k->kind == PRISM_UTIL_SOFTIRQ ?
			  PRISM_PERFETTO_CPU :
			  PRISM_PERFETTO_THREAD;
	c->calls[k->kind]++;
	return prism_perfetto__slice(c->pf, &s);
}

static int on_record(void *ctx, const struct prism_event *e)
{
	struct perfetto_cmd *c = ctx;
	int err = prism_symbols__event(c->sy, e);

	if (err)
		return err;
	if (e->type == PERF_RECORD_COMM)
		return prism_perfetto__task(c->pf, e->comm.pid, e->comm.tid, e->comm.comm);
	if (e->type == PERF_RECORD_FORK)
		return prism_perfetto__task(c->pf, e->fork.pid, e->fork.tid, NULL);
	return 0;
}

/* the samples of counting events (not the tracepoints the trace is made of) */
static int on_sample(void *ctx, const struct prism_sample_basic *b)
{
	struct perfetto_cmd *c = ctx;
	uint8_t mode = PERF_RECORD_MISC_USER;
	bool kernel = false, first = true;
	size_t i, n = 0;

	if (b->time > c->end)
		c->end = b->time;
	if (c->no_samples || prism_evsel__is_tracepoint(b->evsel))
		return 0;
	if (b->callchain_nr > c->alloc_frames) {
		c->frames = xrealloc(c->frames, b->callchain_nr * sizeof(*c->frames));
		c->alloc_frames = b->callchain_nr;
	}
	for (i = 0; i < b->callchain_nr; i++) {
		uint64_t ip = b->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			mode = ip == PERF_CONTEXT_KERNEL ? PERF_RECORD_MISC_KERNEL :
			       ip == PERF_CONTEXT_USER	 ? PERF_RECORD_MISC_USER :
							   mode;
			if (first)
				kernel = mode == PERF_RECORD_MISC_KERNEL;
			continue;
		}
		first = false;
		prism_symbols__resolve(c->sy, b->pid, mode, ip, &c->frames[n++]);
	}
	return prism_perfetto__sample(c->pf, b->cpu == (uint32_t)-1 ? 0 : b->cpu, b->pid, b->tid,
				      b->time, kernel, c->frames, n);
}

int export_perfetto(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism export perfetto [-i <file>] -o <out.perfetto-trace> [<options>]",
		NULL,
	};
	struct perfetto_cmd c = { .window_us = 10000 };
	const struct option_def opts[] = {
		OPT_INPUT(&c.input),
		OPT_FORCE(&c.force),
		OPT_STRING('o', "output", &c.output, "file",
			   "write the trace here ('-' = standard output); replaced only once it is "
			   "complete"),
		OPT_U64_POSITIVE(0, "util-window", &c.window_us, "us",
				 "width of a CPU utilization counter step (default 10000 us)"),
		OPT_BOOL(0, "no-samples", &c.no_samples,
			 "leave out the samples of counting events (cpu-clock, ...)"),
		OPT_STRING(0, "symfs", &c.symfs, "dir", "look for binaries under this directory"),
		OPT_STRING(0, "kallsyms", &c.kallsyms, "file",
			   "kernel symbols from this file instead of /proc/kallsyms"),
		OPT_END(),
	};
	struct prism_util_observer obs = {
		.call = on_call,
		.event = on_event,
		.sample = on_sample,
		.record = on_record,
		.ctx = &c,
	};
	struct prism_perfetto_opts po = { 0 };
	struct prism_symbols_opts so = { 0 };
	struct prism_perfetto_stats st = { 0 };
	struct prism_session *s = NULL;
	struct prism_util *u = NULL;
	const char *input;
	char size[32];
	int err, ret = 1;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (!c.output)
		usage_error(usage, opts, "-o <file> is required");
	input = c.input ? c.input : "perf.data";
	s = open_input(c.input, c.force, false);
	if (!s)
		return 1;
	if (export_out_open(&c.out, c.output)) {
		prism_session__free(s);
		return 1;
	}
	so.symfs = c.symfs;
	so.kallsyms = c.kallsyms;
	c.sy = prism_symbols__new(&so);
	u = prism_util__new(NULL);
	po.util_window = c.window_us * 1000;
	c.pf = prism_perfetto__new(c.out.fp, &po);
	if (!c.sy || !u || !c.pf) {
		error_errno(errno, "cannot set up the export");
		goto out;
	}
	err = prism_symbols__set_features(c.sy, prism_session__features(s));
	if (err) {
		error_errno(err, "cannot read the build ids of '%s'", input);
		goto out;
	}
	c.progress = !quiet && isatty(STDERR_FILENO);
	prism_util__set_observer(u, &obs);
	err = prism_util__process(u, s);
	if (c.progress && c.nr_events >= 65536)
		fputs("\r\033[K", stderr);
	if (report_process_result(s, c.input, err))
		goto out;
	err = prism_perfetto__finish(c.pf, c.end, &st);
	if (err) {
		error_errno(err, "cannot write '%s'", c.output);
		goto out;
	}
	warn_unwind_stops(c.sy);
	ret = 0;
out:
	prism_perfetto__free(c.pf);
	if (ret)
		export_out_abort(&c.out);
	else if (export_out_commit(&c.out))
		ret = 1;
	if (!ret && !quiet && strcmp(c.output, "-")) {
		export_format_bytes(st.bytes, size, sizeof(size));
		info("wrote '%s': %" PRIu64 " packets (%s): %" PRIu64 " tasks, %" PRIu64
		     " sched_switch, %" PRIu64 " wakeups, %" PRIu64 " syscall, %" PRIu64
		     " irq, %" PRIu64 " softirq slices, %" PRIu64 " samples, %" PRIu64
		     " utilization values",
		     c.output, st.packets, size, st.tasks, st.switches, st.wakings,
		     c.calls[PRISM_UTIL_SYSCALL] + c.calls[PRISM_UTIL_HCALL],
		     c.calls[PRISM_UTIL_IRQ], c.calls[PRISM_UTIL_SOFTIRQ], st.samples, st.counters);
	}
	prism_util__free(u);
	prism_symbols__free(c.sy);
	prism_session__free(s);
	free(c.frames);
	return ret;
}
