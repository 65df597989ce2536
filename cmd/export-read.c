// SPDX-License-Identifier: MIT
/*
 * The symbolized samples of a perf.data file for the profile exporters:
 * the same reading as prism report (tasks, maps, call chains with inlined
 * frames), one event, handed to a format's callbacks one sample at a time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include <prism/evsel.h>
#include <prism/features.h>
#include <prism/offcpu-data.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "cmd.h"
#include "export.h"
#include "input.h"
#include "options.h"
#include "script.h"

#define PROGRESS_EVERY 65536

struct export_reader {
	const struct export_reader_opts *o;
	const struct export_sink_ops *ops;
	void *ctx;
	struct prism_session *s;
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_callchain cc;
	struct prism_evsel *evsel; /* the chosen event, once known */
	struct export_reader_stats st;
	const char *pt_name; /* --itrace: the synthesized event exported */
	bool progress;
	uint64_t data_size;
};

struct prism_symbols *export_reader_symbols(struct export_reader *r)
{
	return r->sy;
}

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct export_reader *r = ctx;
	int err = prism_tasks__event(r->tasks, ev);

	return err ? err : prism_symbols__event(r->sy, ev);
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	struct export_reader *r = ctx;

	if (ev->type == PERF_RECORD_KSYMBOL || ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		return prism_symbols__event(r->sy, ev);
	return 0;
}

static int choose(struct export_reader *r, struct prism_evsel *evsel)
{
	const struct perf_event_attr *a = prism_evsel__attr(evsel);
	struct export_event_info ev = { .name = prism_evsel__name(evsel) };

	if (r->o->event && strcmp(ev.name, r->o->event))
		return 0;
	r->evsel = evsel;
	snprintf(r->st.event, sizeof(r->st.event), "%s", ev.name);
	ev.offcpu = !strcmp(ev.name, PRISM_OFFCPU_EVENT_NAME);
	ev.time_based = a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CPU_CLOCK ||
							  a->config == PERF_COUNT_SW_TASK_CLOCK);
	if (a->freq)
		ev.freq = a->sample_freq;
	else
		ev.period = a->sample_period;
	return r->ops->begin(r->ctx, r, &ev);
}

static void show_progress(struct export_reader *r)
{
	uint64_t done = prism_session__stats(r->s)->data_bytes;

	if (r->data_size && done <= r->data_size)
		fprintf(stderr, "\rexport: %" PRIu64 " samples, %.0f%% of the data read",
			r->st.samples, 100.0 * done / r->data_size);
	else
		fprintf(stderr, "\rexport: %" PRIu64 " samples", r->st.samples);
}

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct export_reader *r = ctx;
	const struct prism_sample *s = &ev->sample;
	struct prism_export_sample x = { 0 };
	int err;

	if (!ev->evsel)
		return 0;
	if (!r->evsel) {
		err = choose(r, ev->evsel);
		if (err)
			return err;
	}
	if (ev->evsel != r->evsel) {
		r->st.other_samples++;
		return 0;
	}
	x.period = (s->type & PERF_SAMPLE_PERIOD) ? s->period :
						    prism_evsel__fixed_period(ev->evsel);
	/* an off-CPU file's counters-only sample is no time off CPU */
	if (!x.period && !strcmp(prism_evsel__name(ev->evsel), PRISM_OFFCPU_EVENT_NAME))
		return 0;
	if (s->type & PERF_SAMPLE_CALLCHAIN ||
	    (s->type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))) {
		err = prism_symbols__callchain(r->sy, ev, &r->cc,
					       r->o->no_inline ? 0 :
					       r->o->inlines   ? PRISM_CALLCHAIN_INLINE :
								 PRISM_CALLCHAIN_INLINE_UNWOUND);
		if (err)
			return err;
	} else {
		r->cc.nr = 0;
	}
	/* no chain, or nothing unwound: the sample address alone, as prism report */
	if (!r->cc.nr && prism_symbols__sample_ip(r->sy, ev, &r->cc))
		return -ENOMEM;
	x.comm = prism_tasks__comm(r->tasks, s->tid);
	x.pid = s->pid;
	x.tid = s->tid;
	x.cpu = s->cpu;
	x.has_cpu = s->type & PERF_SAMPLE_CPU;
	if (s->type & PERF_SAMPLE_TIME) {
		x.time = s->time;
		if (!r->st.first_time || s->time < r->st.first_time)
			r->st.first_time = s->time;
		if (s->time > r->st.last_time)
			r->st.last_time = s->time;
	}
	x.frames = r->cc.frames;
	x.nr = r->cc.nr;
	if (++r->st.samples % PROGRESS_EVERY == 0 && r->progress)
		show_progress(r);
	return r->ops->sample(r->ctx, &x);
}

/* --itrace: a synthesized sample (the first event's, or -e's) */
static int on_pt_sample(void *ctx, const struct prism_pt_item *it, const char *name)
{
	struct export_reader *r = ctx;
	struct prism_export_sample x = { 0 };
	int err;

	if (!r->pt_name) {
		/* the decoder's name is its own buffer's: a copy lasts */
		struct export_event_info ev = { .name = r->st.event };

		if (r->o->event && strcmp(name, r->o->event))
			return 0;
		snprintf(r->st.event, sizeof(r->st.event), "%s", name);
		r->pt_name = r->st.event;
		err = r->ops->begin(r->ctx, r, &ev);
		if (err)
			return err;
	}
	if (strcmp(name, r->pt_name)) {
		r->st.other_samples++;
		return 0;
	}
	if (pt_item_frames(r->sy, it, true, &r->cc))
		return -ENOMEM;
	x.comm = it->tid >= 0 ? prism_tasks__comm(r->tasks, (uint32_t)it->tid) : NULL;
	x.pid = (uint32_t)it->pid;
	x.tid = (uint32_t)it->tid;
	x.cpu = it->cpu;
	x.has_cpu = it->cpu != (uint32_t)-1;
	x.time = it->time;
	x.period = it->period;
	if (it->time && (!r->st.first_time || it->time < r->st.first_time))
		r->st.first_time = it->time;
	if (it->time > r->st.last_time)
		r->st.last_time = it->time;
	x.frames = r->cc.frames;
	x.nr = r->cc.nr;
	r->st.samples++;
	return r->ops->sample(r->ctx, &x);
}

/* --itrace: decode the trace (the session read by pt_decode); 0 or 1 (said) */
static int read_pt(struct export_reader *r)
{
	struct prism_itrace it;
	const char *bad = NULL;

	if (prism_itrace__parse(r->o->itrace, &it, &bad)) {
		error("--itrace %s: '%c' is not an option prism knows", r->o->itrace, *bad);
		return 1;
	}
	if (export_itrace_unsupported(&it)) {
		error("--itrace %s: %s", r->o->itrace, export_itrace_unsupported(&it));
		return 1;
	}
	if (input_kernel_code(r->sy, r->s, r->o->kcore, r->o->vmlinux))
		return 1;
	return pt_decode(r->s, r->sy, r->tasks, &it, r->o->input, on_pt_sample, r);
}

int export_read(const struct export_reader_opts *o, const struct export_sink_ops *ops, void *ctx,
		struct export_reader_stats *st)
{
	const char *input = o->input ? o->input : "perf.data";
	struct export_reader r = { .o = o, .ops = ops, .ctx = ctx };
	struct prism_symbols_opts so = { 0 };
	struct prism_tool tool = { 0 };
	int err, ret = 1;
	size_t i;

	r.s = open_input(o->input, o->force, false);
	if (!r.s)
		goto out;
	so.symfs = o->symfs;
	so.kallsyms = o->itrace ? input_kallsyms(r.s, o->kallsyms, o->kcore) : o->kallsyms;
	r.sy = prism_symbols__new(&so);
	r.tasks = prism_tasks__new();
	if (!r.sy || !r.tasks) {
		error_errno(errno, "cannot set up symbol resolution");
		goto out;
	}
	err = prism_symbols__set_features(r.sy, prism_session__features(r.s));
	if (err) {
		error_errno(err, "cannot read the build ids of '%s'", input);
		goto out;
	}
	r.progress = !quiet && isatty(STDERR_FILENO);
	r.data_size = prism_session__file_info(r.s)->data_size;
	tool.sample = on_sample;
	tool.mmap = on_task;
	tool.comm = on_task;
	tool.fork = on_task;
	tool.exit = on_task;
	tool.other = on_other;
	tool.user = on_other;
	if (o->itrace) {
		if (read_pt(&r))
			goto out;
	} else {
		err = prism_session__process(r.s, &tool, &r);
		if (r.progress && r.st.samples >= PROGRESS_EVERY)
			fputs("\r\033[K", stderr);
		if (report_process_result(r.s, o->input, err))
			goto out;
	}
	if (!r.evsel && !r.pt_name) {
		if (o->event) {
			error("no samples of an event named '%s' in '%s'", o->event, input);
			for (i = 0; i < prism_session__nr_evsels(r.s); i++)
				hint("the file has event '%s'",
				     prism_evsel__name(prism_session__evsel(r.s, i)));
		} else {
			error("'%s' has no samples to export", input);
		}
		goto out;
	}
	warn_unwind_stops(r.sy);
	ret = 0;
out:
	if (st)
		*st = r.st;
	if (!ret && ops->end)
		ret = ops->end(ctx, &r, &r.st) ? 1 : 0;
	prism_callchain__release(&r.cc);
	prism_symbols__free(r.sy);
	prism_tasks__free(r.tasks);
	prism_session__free(r.s);
	return ret;
}

int64_t export_wall_time(struct export_reader *r, uint64_t t)
{
	const struct prism_feat_clock_data *cd =
		prism_features__clock_data(prism_session__features(r->s));

	if (!cd || !cd->tod_ns || !t)
		return 0;
	return (int64_t)(cd->tod_ns + (t - cd->clockid_ns));
}

int export_profile_run(struct export_profile *x, int argc, const char **argv,
		       const char *const *usage, const struct option_def *opts,
		       const struct export_sink_ops *ops, void *ctx)
{
	int ret;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (!x->output)
		usage_error(usage, opts, "-o <file> is required");
	if (x->ro.inlines && x->ro.no_inline)
		usage_error(usage, opts, "--inline and --no-inline cannot be combined");
	if (export_out_open(&x->out, x->output))
		return 1;
	ret = export_read(&x->ro, ops, ctx, &x->st);
	ops->release(ctx);
	if (ret) {
		export_out_abort(&x->out);
		return 1;
	}
	return export_out_commit(&x->out) ? 1 : 0;
}

void export_profile_note(const struct export_profile *x)
{
	if (x->st.other_samples && !quiet)
		info("left out %" PRIu64 " samples of other events (choose with --event)",
		     x->st.other_samples);
}
