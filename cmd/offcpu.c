// SPDX-License-Identifier: MIT
/*
 * prism offcpu: off-CPU time by function, task and stack, with the S/D
 * split, from a file of prism record --off-cpu (BPF: offcpu-time samples,
 * see include/prism/offcpu-data.h; perf --off-cpu files too) or of
 * prism record --off-cpu=sched (context-switches samples and switch records:
 * the intervals are computed here with the prism_offcpu_fallback engine).
 * Folded stacks, an off-CPU flame graph, a combined on+off-CPU view, and a
 * warning for binaries whose frame-pointer stacks look broken.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evsel.h>
#include <prism/offcpu-data.h>
#include <prism/offcpu.h>
#include <prism/profile.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include <unistd.h>

#include <prism/record.h>

#include "cmd.h"
#include "input.h"
#include "offcpu.h"
#include "options.h"
#include "record-opts.h"

const char marker_off[] = "[off-CPU]", marker_on[] = "[on-CPU]";
/* the stack of a block that began before the recording (the task was asleep then) */
static const char marker_asleep[] = "[asleep since before the recording]";

static int state_class(unsigned int state)
{
	switch (state & 0xff) {
	case 1:
		return ST_S;
	case 2:
		return ST_D;
	default:
		return ST_OTHER;
	}
}

/* ---- adding samples ---- */

static struct prism_profile *new_profile(void)
{
	struct prism_profile *p = prism_profile__new(
		NULL, 1u << PRISM_SORT_COMM | 1u << PRISM_SORT_PID | 1u << PRISM_SORT_TID |
			      1u << PRISM_SORT_DSO | 1u << PRISM_SORT_SYM);

	if (!p) {
		error_errno(errno, "cannot create a profile");
		exit(1);
	}
	return p;
}

/* the frames, without kernel ones with --user-only, plus a root marker for --with-cpu */
static const struct prism_frame *prepare(struct offcpu *o, const struct prism_frame *f, size_t nr,
					 const char *marker, size_t *out_nr)
{
	size_t i, n = 0;

	if (o->scratch_cap < nr + 1) {
		o->scratch_cap = nr + 16;
		o->scratch = xrealloc(o->scratch, o->scratch_cap * sizeof(*o->scratch));
	}
	for (i = 0; i < nr; i++)
		if (!o->user_only || !f[i].kernel)
			o->scratch[n++] = f[i];
	if (marker) {
		memset(&o->scratch[n], 0, sizeof(o->scratch[n]));
		o->scratch[n].sym = marker;
		o->scratch[n].sym_id = marker;
		o->scratch[n].dso_name = marker;
		o->scratch[n].dso_path = marker;
		o->scratch[n].kind = PRISM_FRAME_USER;
		n++;
	}
	*out_nr = n;
	return o->scratch;
}

static int add_off(struct offcpu *o, const char *comm, uint32_t pid, uint32_t tid, uint32_t cpu,
		   uint64_t ns, uint64_t count, int cls, const struct prism_frame *f, size_t nr)
{
	const struct prism_frame *pf;
	size_t pn;
	int err;

	if (!(o->state_mask & (1u << cls)))
		return 0;
	fp_check(o, f, nr, comm, count);
	o->off_ns += ns;
	o->state_ns[cls] += ns;
	pf = prepare(o, f, nr, NULL, &pn);
	err = prism_profile__add(o->all, comm, pid, tid, cpu, ns, pf, pn);
	if (!err)
		err = prism_profile__add(o->st[cls], comm, pid, tid, cpu, ns, pf, pn);
	if (!err && o->with_cpu) {
		pf = prepare(o, f, nr, marker_off, &pn);
		err = prism_profile__add(o->combined, comm, pid, tid, cpu, ns, pf, pn);
	}
	return err;
}

static int resolve(struct offcpu *o, const struct prism_event *ev)
{
	return prism_symbols__callchain(o->sy, ev, &o->cc, PRISM_CALLCHAIN_INLINE_UNWOUND);
}

static void note_block(struct offcpu *o, const struct prism_offcpu_raw *raw,
		       const struct prism_sample *s, int cls)
{
	struct long_block *b;
	size_t i;

	if (o->nr_lb == o->cap_lb) {
		o->cap_lb = o->cap_lb ? 2 * o->cap_lb : 64;
		o->lb = xrealloc(o->lb, o->cap_lb * sizeof(*o->lb));
	}
	b = &o->lb[o->nr_lb++];
	memset(b, 0, sizeof(*b));
	b->start = raw->start;
	b->ns = s->period;
	b->pid = s->pid;
	b->tid = s->tid;
	b->cls = cls;
	b->open = raw->kind == PRISM_OFFCPU_KIND_BLOCK_OPEN;
	b->comm = prism_tasks__comm(o->tasks, s->tid);
	for (i = 0; i < o->cc.nr && !b->where; i++)
		if (!o->cc.frames[i].kernel && o->cc.frames[i].sym)
			b->where = o->cc.frames[i].sym;
	if (!b->where && o->cc.nr)
		b->where = o->cc.frames[0].sym;
}

static int on_bpf_sample(struct offcpu *o, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_offcpu_raw raw;
	int cls = ST_OTHER, err;
	uint64_t count = 1;
	bool have_raw = false;

	if (o->method == M_BPF && (s->type & PERF_SAMPLE_RAW) &&
	    !prism_offcpu_raw__decode(s->raw_data, s->raw_size, &raw)) {
		have_raw = true;
		if (raw.has_stats) {
			o->stats = raw.stats;
			o->has_stats = true;
		}
		if (raw.kind == PRISM_OFFCPU_KIND_STATS)
			return 0;
		cls = state_class(raw.state);
		count = raw.count;
		o->blocks += raw.count;
		if (raw.kind == PRISM_OFFCPU_KIND_BLOCK_OPEN)
			o->in_progress++;
		if (raw.kind != PRISM_OFFCPU_KIND_ENTRY)
			o->long_blocks++;
		if (raw.ustack_err)
			o->no_ustack += raw.count;
	} else {
		o->unknown_state = true;
		o->blocks++;
	}
	err = resolve(o, ev);
	if (!err)
		err = recover_leaf(o, s, have_raw ? &raw : NULL);
	if (err)
		return err;
	if (o->method == M_BPF && raw.kind != PRISM_OFFCPU_KIND_ENTRY &&
	    (o->state_mask & (1u << cls)))
		note_block(o, &raw, s, cls);
	/* asleep since before the recording: no stack, a pseudo-frame says why */
	if (have_raw && raw.ustack_err == -ENODATA && raw.kstack_err == -ENODATA) {
		struct prism_frame mk = { .sym = marker_asleep,
					  .sym_id = marker_asleep,
					  .dso_name = marker_asleep,
					  .dso_path = marker_asleep,
					  .kind = PRISM_FRAME_USER };

		return add_off(o, prism_tasks__comm(o->tasks, s->tid), s->pid, s->tid, s->cpu,
			       s->period, count, cls, &mk, 1);
	}
	return add_off(o, prism_tasks__comm(o->tasks, s->tid), s->pid, s->tid, s->cpu, s->period,
		       count, cls, o->cc.frames, o->cc.nr);
}

static bool is_time_event(const struct prism_evsel *e)
{
	const struct perf_event_attr *a = prism_evsel__attr(e);

	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

static int on_cpu_sample(struct offcpu *o, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	const struct perf_event_attr *a = prism_evsel__attr(ev->evsel);
	const struct prism_frame *pf;
	size_t pn;
	int err;

	if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)
		return 0;
	if (!is_time_event(ev->evsel)) {
		o->on_other++;
		return 0;
	}
	if (!o->on_name)
		o->on_name = prism_evsel__name(ev->evsel);
	err = resolve(o, ev);
	if (err)
		return err;
	o->on_ns += s->period;
	pf = prepare(o, o->cc.frames, o->cc.nr, NULL, &pn);
	err = prism_profile__add(o->on, prism_tasks__comm(o->tasks, s->tid), s->pid, s->tid, s->cpu,
				 s->period, pf, pn);
	if (err)
		return err;
	pf = prepare(o, o->cc.frames, o->cc.nr, marker_on, &pn);
	return prism_profile__add(o->combined, prism_tasks__comm(o->tasks, s->tid), s->pid, s->tid,
				  s->cpu, s->period, pf, pn);
}

/* ---- the context-switch method ---- */

static struct tid_stack *tid_slot(struct offcpu *o, uint32_t tid, bool add)
{
	size_t i, mask;

	if (add && (o->nr_tid + 1) * 2 > o->tid_cap) {
		struct tid_stack *old = o->tids;
		size_t oldcap = o->tid_cap;

		o->tid_cap = oldcap ? 2 * oldcap : 256;
		o->tids = xcalloc(o->tid_cap, sizeof(*o->tids));
		o->nr_tid = 0;
		for (i = 0; i < oldcap; i++) {
			if (old[i].used) {
				*tid_slot(o, old[i].tid, true) = old[i];
			}
		}
		free(old);
	}
	if (!o->tid_cap)
		return NULL;
	mask = o->tid_cap - 1;
	for (i = (tid * 2654435761u) & mask;; i = (i + 1) & mask) {
		if (!o->tids[i].used) {
			if (!add)
				return NULL;
			o->tids[i] = (struct tid_stack){ .tid = tid, .used = true };
			o->nr_tid++;
			return &o->tids[i];
		}
		if (o->tids[i].tid == tid)
			return &o->tids[i];
	}
}

static int on_interval(const struct prism_offcpu_interval *iv, void *arg)
{
	struct offcpu *o = arg;
	struct tid_stack *t = iv->callchain ? tid_slot(o, iv->tid, false) : NULL;

	if (o->method != M_SCHED) /* pipe mode, before the first context-switches sample */
		return 0;
	o->blocks++;
	if (iv->in_progress)
		o->in_progress++;
	return add_off(o, prism_tasks__comm(o->tasks, iv->tid), iv->pid, iv->tid, iv->cpu_out,
		       iv->end - iv->start, 1, ST_OTHER, t ? t->frames : NULL, t ? t->nr : 0);
}

static int on_cs_sample(struct offcpu *o, const struct prism_event *ev)
{
	struct tid_stack *t;
	int err = resolve(o, ev);

	if (err)
		return err;
	t = tid_slot(o, ev->sample.tid, true);
	t->frames = xrealloc(t->frames, (o->cc.nr + 1) * sizeof(*t->frames));
	if (o->cc.nr)
		memcpy(t->frames, o->cc.frames, o->cc.nr * sizeof(*t->frames));
	t->nr = o->cc.nr;
	return prism_offcpu_fallback__event(o->fb, ev, true);
}

/* ---- session callbacks ---- */

static bool classify(struct offcpu *o, struct prism_evsel *e);

static void note_time(struct offcpu *o, const struct prism_event *ev)
{
	if (!(ev->sample.type & PERF_SAMPLE_TIME) || ev->evsel == o->off_ev || !ev->sample.time)
		return;
	if (ev->sample.time > o->last_time)
		o->last_time = ev->sample.time;
	if (!o->first_time || ev->sample.time < o->first_time)
		o->first_time = ev->sample.time;
}

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct offcpu *o = ctx;

	if (!ev->evsel)
		return 0;
	note_time(o, ev);
	if (o->lazy && o->method == M_NONE && classify(o, ev->evsel) && o->method != M_BPF)
		o->state_mask = 7;
	if (ev->evsel == o->off_ev)
		return on_bpf_sample(o, ev);
	if (ev->evsel == o->cs_ev && o->method == M_SCHED)
		return on_cs_sample(o, ev);
	if (o->with_cpu)
		return on_cpu_sample(o, ev);
	return 0;
}

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct offcpu *o = ctx;
	int err = prism_tasks__event(o->tasks, ev);

	note_time(o, ev);
	if (!err)
		err = prism_symbols__event(o->sy, ev);
	return err;
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	struct offcpu *o = ctx;

	if (ev->type == PERF_RECORD_KSYMBOL || ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		return prism_symbols__event(o->sy, ev);
	return 0;
}

static int on_switch(void *ctx, const struct prism_event *ev)
{
	struct offcpu *o = ctx;

	note_time(o, ev);
	if (o->method != M_SCHED && !(o->lazy && o->method == M_NONE))
		return 0;
	return prism_offcpu_fallback__event(o->fb, ev, false);
}

static int on_lost(void *ctx, const struct prism_event *ev)
{
	struct offcpu *o = ctx;

	if (o->method != M_SCHED && !(o->lazy && o->method == M_NONE))
		return 0;
	return prism_offcpu_fallback__event(o->fb, ev, false);
}

/* ---- setup ---- */

/* the off-CPU event of @e, if it is one: offcpu-time (by name, or BPF output) or context-switches */
static bool classify(struct offcpu *o, struct prism_evsel *e)
{
	const struct perf_event_attr *a = prism_evsel__attr(e);

	if (o->off_ev)
		return false;
	if (!strcmp(prism_evsel__name(e), PRISM_OFFCPU_EVENT_NAME) ||
	    (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_BPF_OUTPUT)) {
		o->off_ev = e;
		o->method = (a->sample_type & PERF_SAMPLE_RAW) ? M_BPF : M_BPF_PERF;
		return true;
	}
	if (a->type != PERF_TYPE_SOFTWARE || a->config != PERF_COUNT_SW_CONTEXT_SWITCHES ||
	    o->cs_ev)
		return false;
	o->cs_ev = e;
	o->method = M_SCHED;
	if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
		warning("the context-switches samples have no call chains: "
			"stacks are unknown (record with -g)");
	if (a->freq || a->sample_period != 1)
		warning("the context-switches event was not sampled with period 1: "
			"most blocks have no stack (record with --off-cpu=sched)");
	return true;
}

static int no_data(const struct offcpu *o)
{
	error("'%s' has no off-CPU data: no offcpu-time or context-switches event",
	      o->input ? o->input : "perf.data");
	hint("record with 'prism record --off-cpu' (BPF) or '--off-cpu=sched'");
	return -1;
}

static int find_events(struct offcpu *o)
{
	size_t i, n = prism_session__nr_evsels(o->s);
	bool has_cpu = false;

	/* a pipe-mode stream announces its events as it goes: decided at the first sample */
	o->lazy = prism_session__file_info(o->s)->pipe;
	for (i = 0; i < n; i++) {
		struct prism_evsel *e = prism_session__evsel(o->s, i);

		if (!classify(o, e) && is_time_event(e))
			has_cpu = true;
	}
	if (o->off_ev) /* BPF results win over a context-switches event recorded with them */
		o->cs_ev = NULL;
	if (o->method == M_NONE && !o->lazy)
		return no_data(o);
	if (o->with_cpu && !has_cpu && !o->lazy) {
		error("--with-cpu needs on-CPU samples of cpu-clock or task-clock in '%s'",
		      o->input ? o->input : "perf.data");
		hint("record both: prism record --off-cpu -e cpu-clock -g -- <command>");
		return -1;
	}
	return 0;
}

static int parse_state(struct offcpu *o)
{
	if (!o->state || !strcasecmp(o->state, "all")) {
		o->state_mask = 7;
		return 0;
	}
	if (!strcasecmp(o->state, "S"))
		o->state_mask = 1u << ST_S;
	else if (!strcasecmp(o->state, "D"))
		o->state_mask = 1u << ST_D;
	else
		return error("bad --state '%s': S, D or all", o->state), -1;
	return 0;
}

static void free_offcpu(struct offcpu *o)
{
	size_t i;

	for (i = 0; i < ST_NR; i++)
		prism_profile__free(o->st[i]);
	prism_profile__free(o->all);
	prism_profile__free(o->on);
	prism_profile__free(o->combined);
	for (i = 0; i < o->tid_cap; i++)
		free(o->tids[i].frames);
	free(o->tids);
	free(o->fp);
	free(o->leaves);
	free(o->lb);
	free(o->scratch);
	prism_offcpu_fallback__free(o->fb);
	prism_callchain__release(&o->cc);
	prism_symbols__free(o->sy);
	prism_tasks__free(o->tasks);
	prism_session__free(o->s);
}

/* the one-step mode's file, removed at exit whichever way prism offcpu ends */
static char one_step_path[64];

static void remove_one_step_file(void)
{
	if (one_step_path[0])
		unlink(one_step_path);
}

/* the one-step mode's recording settings (prism record --off-cpu's) */
struct one_step {
	bool all_cpus;
	const char *pids;
	double duration;
	const char *call_graph;
	bool uthreads, kthreads;
	struct prism_offcpu_opts oo;
	char *path; /* one_step_path */
};

static bool one_step_wanted(const struct one_step *os, int argc)
{
	return argc > 0 || os->all_cpus || os->pids;
}

/* record off-CPU time into a temporary file whose path goes to os->path; the exit status */
static int one_step_record(struct one_step *os, const char **argv)
{
	struct prism_record_opts ro = { 0 };
	int fd, ret;

	if (os->call_graph) {
		char *end = NULL;
		unsigned long v = 8192;

		if (strncmp(os->call_graph, "dwarf", 5) ||
		    (os->call_graph[5] &&
		     (os->call_graph[5] != ',' || (v = strtoul(os->call_graph + 6, &end, 0),
						   *end || !v || v > 65528 || v % 8)))) {
			error("bad --call-graph '%s'", os->call_graph);
			hint("dwarf or dwarf,SIZE (a multiple of 8 up to 65528); frame pointers "
			     "are the default");
			return EXIT_USAGE;
		}
		os->oo.dwarf_size = (uint32_t)v;
	}
	if (os->uthreads && os->kthreads) {
		error("--user-threads-only and --kernel-threads-only exclude each other");
		return EXIT_USAGE;
	}
	if (os->oo.max_ns && os->oo.max_ns < os->oo.min_ns) {
		error("--max-block is shorter than --min-block");
		return EXIT_USAGE;
	}
	os->oo.kernel_threads_only = os->kthreads;
	os->oo.no_kernel_stack = !os->kthreads;
	os->oo.thresh_ns = 500000000ull;
	os->path = one_step_path;
	snprintf(os->path, sizeof(one_step_path), "/var/tmp/prism-offcpu-XXXXXX");
	fd = mkstemp(os->path);
	if (fd < 0) {
		error("cannot create a temporary file in /var/tmp: %s", strerror(errno));
		os->path[0] = '\0';
		return 1;
	}
	close(fd);
	atexit(remove_one_step_file);
	ro.system_wide = os->all_cpus;
	ro.pid_list = os->pids;
	ro.argv = argv[0] ? argv : NULL;
	ro.duration = os->duration;
	ro.output = os->path;
	ro.offcpu = &os->oo;
	ret = record_run_offcpu(&ro, false);
	if (ret) {
		unlink(os->path);
		os->path[0] = '\0';
	}
	return ret;
}

int cmd_offcpu(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism offcpu [-i <file>] [--state S|D] [--limit N]",
		"prism offcpu --folded | --flamegraph <file.svg> [--with-cpu]",
		"prism offcpu [-a | -p <pids>] [--duration <sec>] [-- <command>]  (record, then report)",
		NULL,
	};
	struct offcpu o = { .limit = 20 };
	struct one_step os = { 0 };
	int limit = 0;
	const struct option_def opts[] = {
		OPT_INPUT(&o.input),
		OPT_FORCE(&o.force),
		OPT_GROUP("Selection"),
		OPT_STRING(0, "state", &o.state, "S|D|all",
			   "only blocks in this task state (BPF method): S interruptible sleep, "
			   "D uninterruptible (disk, locks)"),
		OPT_BOOL(0, "user-only", &o.user_only, "leave the kernel frames out of the stacks"),
		OPT_BOOL(0, "all-functions", &o.all_functions,
			 "keep the scheduler and syscall-entry kernel functions (__schedule, "
			 "do_syscall_64, ...) in the function table"),
		OPT_BOOL(0, "with-cpu", &o.with_cpu,
			 "combined view: also the on-CPU time of cpu-clock/task-clock samples "
			 "(record them with -e cpu-clock -g); stacks are rooted in [on-CPU] or "
			 "[off-CPU]"),
		OPT_GROUP("Output"),
		OPT_INT(0, "limit", &limit, "n",
			"rows per table (functions, tasks, stacks; default 20)"),
		OPT_BOOL(0, "folded", &o.folded,
			 "print folded stacks 'comm;root;...;leaf NS' (off-CPU ns) for flamegraph.pl "
			 "and speedscope"),
		OPT_STRING(0, "flamegraph", &o.flamegraph, "file.svg",
			   "write an interactive flame graph (off-CPU palette, width = ns)"),
		OPT_STRING(0, "title", &o.title, "text", "flame graph title"),
		OPT_GROUP("Record first (one step: BPF, as prism record --off-cpu, to a temporary "
			  "file)"),
		OPT_BOOL('a', "all-cpus", &os.all_cpus, "every task (system-wide)"),
		OPT_STRING('p', "pid", &os.pids, "pids", "these processes (and their children)"),
		OPT_DOUBLE_POSITIVE(0, "duration", &os.duration, "sec",
				    "stop after this long (default: the command's end, or Ctrl-C)"),
		OPT_STRING(0, "call-graph", &os.call_graph, "dwarf[,size]",
			   "copy the user stack for DWARF unwinding (default: frame pointers)"),
		OPT_CALLBACK(0, "min-block", &os.oo.min_ns, "time",
			     "leave out blocks shorter than this (µs, or 2ms, 1s...)",
			     offcpu_opt_block),
		OPT_CALLBACK(0, "max-block", &os.oo.max_ns, "time",
			     "leave out blocks longer than this (µs, or 2ms, 1s...)",
			     offcpu_opt_block),
		OPT_BOOL(0, "user-threads-only", &os.uthreads, "only user threads (the default)"),
		OPT_BOOL(0, "kernel-threads-only", &os.kthreads,
			 "only kernel threads (with their kernel stacks)"),
		OPT_END(),
	};
	struct prism_symbols_opts so = { 0 };
	struct prism_offcpu_fallback_opts fo = { 0 };
	struct prism_tool tool = { 0 };
	int err, ret = 0;
	size_t i;

	argc = parse_options(argc, argv, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (one_step_wanted(&os, argc)) {
		if (o.input)
			usage_error(usage, opts, "-i reads a file: drop it to record first");
		ret = one_step_record(&os, argv);
		if (ret)
			return ret;
		o.input = os.path;
	} else if (os.duration || os.call_graph || os.oo.min_ns || os.oo.max_ns || os.uthreads ||
		   os.kthreads) {
		usage_error(usage, opts,
			    "the recording options need something to record: -a, -p or a command");
	}
	if (o.folded && o.flamegraph)
		usage_error(usage, opts, "--folded and --flamegraph cannot be combined");
	if (limit < 0)
		usage_error(usage, opts, "--limit must be positive");
	if (limit)
		o.limit = (unsigned int)limit;
	if (parse_state(&o))
		return EXIT_USAGE;
	o.s = open_input(o.input, o.force, false);
	if (!o.s)
		return 1;
	if (find_events(&o)) {
		free_offcpu(&o);
		return 1;
	}
	if (o.state && o.method != M_BPF)
		warning("--state: this file has no task states (%s method); showing every block",
			o.method == M_SCHED ? "context-switch" : "perf's BPF");
	if (o.method != M_BPF)
		o.state_mask = 7;
	o.sy = prism_symbols__new(&so);
	o.tasks = prism_tasks__new();
	if (!o.sy || !o.tasks) {
		error_errno(errno, "cannot set up symbol resolution");
		free_offcpu(&o);
		return 1;
	}
	err = prism_symbols__set_features(o.sy, prism_session__features(o.s));
	if (err) {
		error_errno(err, "cannot read the build ids of '%s'",
			    o.input ? o.input : "perf.data");
		free_offcpu(&o);
		return 1;
	}
	o.all = new_profile();
	for (i = 0; i < ST_NR; i++)
		o.st[i] = new_profile();
	if (o.with_cpu) {
		o.on = new_profile();
		o.combined = new_profile();
	}
	if (o.method == M_SCHED || o.lazy) {
		fo.fn = on_interval;
		fo.arg = &o;
		o.fb = prism_offcpu_fallback__new(&fo);
		if (!o.fb) {
			error_errno(errno, "cannot set up the context-switch pairing");
			free_offcpu(&o);
			return 1;
		}
	}
	tool.sample = on_sample;
	tool.mmap = on_task;
	tool.comm = on_task;
	tool.fork = on_task;
	tool.exit = on_task;
	tool.switch_ = on_switch;
	tool.lost = on_lost;
	tool.other = on_other;
	tool.user = on_other;
	err = prism_session__process(o.s, &tool, &o);
	if (!err && o.method == M_SCHED)
		err = prism_offcpu_fallback__finish(o.fb, o.last_time);
	if (!err && o.method == M_NONE) {
		no_data(&o);
		free_offcpu(&o);
		return 1;
	}
	if (report_process_result(o.s, o.input, err)) {
		free_offcpu(&o);
		return 1;
	}
	fp_report(&o);
	leaf_report(&o);
	if (o.on_other && !quiet)
		info("%" PRIu64 " samples of events that do not count time were left out of "
		     "--with-cpu (use cpu-clock or task-clock)",
		     o.on_other);
	if (!o.off_ns && !quiet)
		warning("no off-CPU time in '%s'%s", o.input ? o.input : "perf.data",
			o.state ? " in that state" : " (did the filter match the workload?)");
	if (o.folded) {
		err = prism_profile__write_folded(o.with_cpu ? o.combined : o.all, stdout,
						  PRISM_FOLDED_PERIOD | PRISM_FOLDED_KERNEL_SUFFIX);
		if (err) {
			error_errno(err, "cannot write the folded stacks");
			ret = 1;
		}
	} else if (o.flamegraph) {
		if (offcpu_write_flamegraph(&o))
			ret = 1;
	} else {
		offcpu_print_text(&o);
	}
	warn_unwind_stops(o.sy);
	free_offcpu(&o);
	return ret;
}
