// SPDX-License-Identifier: MIT
/*
 * prism trace: live tracing without a file.  A recorder thread writes a
 * pipe-mode stream into a pipe; this thread reads it back with the session
 * API, which delivers records in time order per drain pass (FINISHED_ROUND),
 * and prints syscalls strace-like as perf trace does (lib/trace), each
 * sample in prism script's default layout with --raw, or with -s a
 * per-thread syscall summary like `perf trace -s`.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/record.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>
#include <prism/tp.h>
#include <prism/trace.h>
#include <prism/util.h>

#include "cmd.h"
#include "options.h"
#include "live.h"
#include "record-opts.h"

struct sc_stat { /* one (thread, syscall) */
	uint32_t tid;
	int64_t id;
	uint64_t calls, errors;
	double total, min, max, sumsq; /* msec */
};

struct sc_thread {
	uint32_t tid;
	uint64_t events;
	int64_t cur_id; /* syscall in progress, -1 none */
	uint64_t enter_time;
};

struct trace {
	struct prism_session *s;
	struct prism_tasks *tasks;
	struct prism_tp *tp;
	struct prism_strbuf line;
	int name_width;
	bool ready;
	bool summary;
	uint64_t nr_events;
	struct sc_thread *thr;
	size_t nr_thr, cap_thr;
	struct sc_stat *st;
	size_t nr_st, cap_st;
	const char *arch;
	/* the strace-like output (without --raw) */
	struct prism_strace *strace;
	struct prism_strcap *strcap; /* string arguments with BPF, or NULL */
	FILE *out;
	const struct prism_tp_event *enter_ev, *exit_ev;
	const struct prism_tp_field *enter_id, *enter_args, *exit_id, *exit_ret;
	bool syscalls; /* raw_syscalls are traced */
	struct prism_symbols *sy; /* -F: where faults happen and what they touch */
	/* the names of tasks that started before the trace, from /proc */
	struct {
		uint32_t tid;
		char comm[16];
	} comms[1024];
};

static void setup(struct trace *tr)
{
	size_t i;

	for (i = 0; i < prism_session__nr_evsels(tr->s); i++) {
		int n = (int)strlen(prism_evsel__name(prism_session__evsel(tr->s, i)));

		if (n > tr->name_width)
			tr->name_width = n;
	}
	tr->tp = prism_session__tp(tr->s);
	tr->ready = true;
}

/* prism script's default fields: comm tid [cpu] time: [period] event: trace|ip */
static void print_sample(struct trace *tr, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	const struct perf_event_attr *a = prism_evsel__attr(ev->evsel);
	struct prism_strbuf *sb = &tr->line;
	const char *comm = prism_tasks__comm(tr->tasks, s->tid);
	char buf[32];

	if (!comm) {
		snprintf(buf, sizeof(buf), ":%d", (int)s->tid);
		comm = buf;
	}
	prism_strbuf_addf(sb, "%16s %5d ", comm, (int)s->tid);
	if (s->type & PERF_SAMPLE_CPU)
		prism_strbuf_addf(sb, "[%03u] ", s->cpu);
	prism_strbuf_addf(sb, "%5" PRIu64 ".%06" PRIu64 ": ", s->time / 1000000000,
			  s->time % 1000000000 / 1000);
	if (a->type != PERF_TYPE_TRACEPOINT)
		prism_strbuf_addf(sb, "%10" PRIu64 " ", s->period);
	prism_strbuf_addf(sb, "%*s: ", tr->name_width, prism_evsel__name(ev->evsel));
	if (a->type == PERF_TYPE_TRACEPOINT) {
		if (tr->tp && s->raw_data)
			prism_tp__format(tr->tp, s->raw_data, s->raw_size, sb);
	} else {
		prism_strbuf_addf(sb, " %16" PRIx64, s->ip);
	}
	prism_strbuf_addch(sb, '\n');
	fwrite(sb->buf, 1, sb->len, stdout);
	prism_strbuf_reset(sb);
}

static struct sc_thread *thread_of(struct trace *tr, uint32_t tid)
{
	size_t i;

	for (i = tr->nr_thr; i-- > 0;)
		if (tr->thr[i].tid == tid)
			return &tr->thr[i];
	if (tr->nr_thr == tr->cap_thr) {
		tr->cap_thr = tr->cap_thr ? tr->cap_thr * 2 : 64;
		tr->thr = xrealloc(tr->thr, tr->cap_thr * sizeof(*tr->thr));
	}
	tr->thr[tr->nr_thr] = (struct sc_thread){ .tid = tid, .cur_id = -1 };
	return &tr->thr[tr->nr_thr++];
}

static struct sc_stat *stat_of(struct trace *tr, uint32_t tid, int64_t id)
{
	size_t i;

	for (i = 0; i < tr->nr_st; i++)
		if (tr->st[i].tid == tid && tr->st[i].id == id)
			return &tr->st[i];
	if (tr->nr_st == tr->cap_st) {
		tr->cap_st = tr->cap_st ? tr->cap_st * 2 : 256;
		tr->st = xrealloc(tr->st, tr->cap_st * sizeof(*tr->st));
	}
	tr->st[tr->nr_st] = (struct sc_stat){ .tid = tid, .id = id, .min = INFINITY };
	return &tr->st[tr->nr_st++];
}

static bool field(struct trace *tr, const struct prism_sample *s, const char *name, int64_t *v)
{
	const struct prism_tp_event *e = prism_tp__event_of(tr->tp, s->raw_data, s->raw_size);
	const struct prism_tp_field *f = e ? prism_tp_event__field(e, name) : NULL;
	uint64_t u;

	if (!f || prism_tp_field__u64(f, s->raw_data, s->raw_size, &u))
		return false;
	*v = (int64_t)u;
	return true;
}

static void account(struct trace *tr, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	const char *name = prism_evsel__name(ev->evsel);
	struct sc_thread *t = thread_of(tr, s->tid);
	int64_t id, ret;

	t->events++;
	tr->nr_events++;
	if (!tr->tp || !s->raw_data)
		return;
	if (!strcmp(name, "raw_syscalls:sys_enter")) {
		if (field(tr, s, "id", &id)) {
			t->cur_id = id;
			t->enter_time = s->time;
		}
	} else if (!strcmp(name, "raw_syscalls:sys_exit")) {
		if (field(tr, s, "id", &id) && t->cur_id == id && s->time >= t->enter_time) {
			struct sc_stat *st = stat_of(tr, s->tid, id);
			double ms = (double)(s->time - t->enter_time) / 1e6;

			st->calls++;
			st->total += ms;
			st->sumsq += ms * ms;
			if (ms < st->min)
				st->min = ms;
			if (ms > st->max)
				st->max = ms;
			if (field(tr, s, "ret", &ret) && ret < 0 && ret > -4096)
				st->errors++;
		}
		t->cur_id = -1;
	}
}

static const char *comm_of(void *ctx, int tid)
{
	struct trace *tr = ctx;
	const char *comm;
	char path[64];
	size_t slot;
	FILE *f;

	if (tid <= 0)
		return NULL;
	comm = prism_tasks__comm(tr->tasks, (uint32_t)tid);
	if (comm)
		return comm;
	/* a task older than the trace (-a, -p): its name now, as perf synthesizes it */
	slot = (size_t)tid % PRISM_ARRAY_SIZE(tr->comms);
	if (tr->comms[slot].tid == (uint32_t)tid)
		return tr->comms[slot].comm[0] ? tr->comms[slot].comm : NULL;
	tr->comms[slot].tid = (uint32_t)tid;
	tr->comms[slot].comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(tr->comms[slot].comm, sizeof(tr->comms[slot].comm), f))
			tr->comms[slot].comm[strcspn(tr->comms[slot].comm, "\n")] = '\0';
		fclose(f);
	}
	return tr->comms[slot].comm[0] ? tr->comms[slot].comm : NULL;
}

/* one thread without children: -t TID, or -p PID of a single-threaded process */
static bool single_thread(const struct prism_record_opts *o)
{
	char path[64];
	struct stat st;
	const char *l = o->tid_list ? o->tid_list : o->pid_list;

	if (o->argv || o->system_wide || o->cpu_list || !l || strchr(l, ','))
		return false;
	if (o->tid_list)
		return !o->pid_list;
	snprintf(path, sizeof(path), "/proc/%s/task", l);
	return !stat(path, &st) && st.st_nlink == 3; /* ".", ".." and one thread */
}

/* a tracepoint other than the syscalls, as perf trace prints it */
static int strace_other(struct trace *tr, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_strace_ev e = {
		.tid = s->tid,
		.time = s->time,
		.name = prism_evsel__name(ev->evsel),
		.tp_event = tr->tp && s->raw_data ?
				    prism_tp__event_of(tr->tp, s->raw_data, s->raw_size) :
				    NULL,
		.raw = s->raw_data,
		.raw_size = s->raw_size,
		.duration_column = tr->syscalls,
	};

	return prism_strace__event(tr->strace, &e, &tr->line);
}

static bool is_fault(const struct prism_event *ev)
{
	const struct perf_event_attr *a = prism_evsel__attr(ev->evsel);

	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ ||
						 a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN);
}

static int strace_fault(struct trace *tr, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	const struct perf_event_attr *a = prism_evsel__attr(ev->evsel);
	uint8_t mode = ev->raw->misc & PRISM_MISC_CPUMODE_MASK;
	struct prism_strace_fault f = {
		.tid = s->tid,
		.time = s->time,
		.major = a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ,
		.addr = s->addr,
		.level = mode == PERF_RECORD_MISC_KERNEL ? 'k' : '.',
	};
	struct prism_frame ip = { 0 }, addr = { 0 };
	int err;

	if (tr->sy) {
		prism_symbols__resolve(tr->sy, s->pid, mode, s->ip, &ip);
		prism_symbols__resolve(tr->sy, s->pid, mode, s->addr, &addr);
	}
	f.ip_sym = ip.sym;
	f.ip_symoff = ip.symoff;
	f.ip_mapped = ip.dso != NULL;
	f.ip_map_addr = ip.map_addr;
	f.addr_dso = addr.dso ? addr.dso_path : NULL;
	f.addr_map_addr = addr.map_addr;
	err = prism_strace__fault(tr->strace, &f, &tr->line);
	fwrite(tr->line.buf, 1, tr->line.len, tr->out);
	prism_strbuf_reset(&tr->line);
	return err;
}

static bool cache_fields(struct trace *tr, const struct prism_tp_event *e)
{
	const char *name = prism_tp_event__name(e);

	if (strcmp(prism_tp_event__system(e), "raw_syscalls"))
		return false;
	if (!strcmp(name, "sys_enter")) {
		tr->enter_ev = e;
		tr->enter_id = prism_tp_event__field(e, "id");
		tr->enter_args = prism_tp_event__field(e, "args");
		return true;
	}
	if (!strcmp(name, "sys_exit")) {
		tr->exit_ev = e;
		tr->exit_id = prism_tp_event__field(e, "id");
		tr->exit_ret = prism_tp_event__field(e, "ret");
		return true;
	}
	return false;
}

static int strace_sample(struct trace *tr, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	const struct prism_tp_event *e;
	uint64_t id, v;
	size_t i;
	int err = 0;

	if (is_fault(ev))
		return strace_fault(tr, ev);
	e = tr->tp && s->raw_data ? prism_tp__event_of(tr->tp, s->raw_data, s->raw_size) : NULL;
	if (e && e != tr->enter_ev && e != tr->exit_ev && !cache_fields(tr, e))
		e = NULL;
	if (!e) {
		err = strace_other(tr, ev);
	} else if (e == tr->enter_ev) {
		struct prism_strace_enter en = { .pid = s->pid, .tid = s->tid, .time = s->time };

		if (!tr->enter_id ||
		    prism_tp_field__u64(tr->enter_id, s->raw_data, s->raw_size, &id))
			return 0;
		en.id = (int64_t)id;
		for (i = 0; tr->enter_args && i < PRISM_STRACE_MAX_ARGS; i++)
			if (!prism_tp_field__u64_at(tr->enter_args, s->raw_data, s->raw_size, i,
						    &v))
				en.args[i] = v;
		if (tr->strcap && prism_strace__wants(tr->strace, en.id))
			prism_strcap__fill(tr->strcap, &en);
		err = prism_strace__enter(tr->strace, &en, &tr->line);
	} else {
		if (!tr->exit_id || !tr->exit_ret ||
		    prism_tp_field__u64(tr->exit_id, s->raw_data, s->raw_size, &id) ||
		    prism_tp_field__u64(tr->exit_ret, s->raw_data, s->raw_size, &v))
			return 0;
		err = prism_strace__exit(tr->strace, s->tid, s->time, (int64_t)id, (int64_t)v,
					 &tr->line);
	}
	if (tr->line.len) {
		fwrite(tr->line.buf, 1, tr->line.len, tr->out);
		prism_strbuf_reset(&tr->line);
	}
	return err;
}

static int on_record(void *ctx, const struct prism_event *ev)
{
	struct trace *tr = ctx;
	int err;

	if (ev->type == PERF_RECORD_COMM || ev->type == PERF_RECORD_FORK ||
	    ev->type == PERF_RECORD_EXIT) {
		err = prism_tasks__event(tr->tasks, ev);
		if (err)
			return err;
	}
	if (tr->sy && ev->type != PERF_RECORD_SAMPLE) {
		err = prism_symbols__event(tr->sy, ev);
		if (err)
			return err;
	}
	if (ev->type != PERF_RECORD_SAMPLE || !ev->evsel)
		return 0;
	if (!tr->ready)
		setup(tr);
	if (tr->summary)
		account(tr, ev);
	else if (tr->strace)
		return strace_sample(tr, ev);
	else
		print_sample(tr, ev);
	return 0;
}

static int cmp_stat(const void *a, const void *b)
{
	const struct sc_stat *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return 0;
}

static void print_summary(struct trace *tr)
{
	size_t i, j;

	qsort(tr->st, tr->nr_st, sizeof(*tr->st), cmp_stat);
	fprintf(stdout, "\n Summary of events:\n");
	for (i = 0; i < tr->nr_thr; i++) {
		const struct sc_thread *t = &tr->thr[i];
		const char *comm = prism_tasks__comm(tr->tasks, t->tid);
		bool head = false;

		fprintf(stdout, "\n %s (%u), %" PRIu64 " events, %.1f%%\n", comm ? comm : "?",
			t->tid, t->events,
			tr->nr_events ? 100.0 * (double)t->events / (double)tr->nr_events : 0.0);
		for (j = 0; j < tr->nr_st; j++) {
			const struct sc_stat *st = &tr->st[j];
			const char *name;
			char nbuf[32];
			double avg, sd = 0;

			if (st->tid != t->tid)
				continue;
			if (!head) {
				fprintf(stdout,
					"\n   syscall            calls  errors  total       min       avg       max       stddev\n"
					"                                     (msec)    (msec)    (msec)    (msec)        (%%)\n"
					"   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
				head = true;
			}
			name = prism_syscall_name(tr->arch, st->id);
			if (!name) {
				snprintf(nbuf, sizeof(nbuf), "%" PRId64, st->id);
				name = nbuf;
			}
			avg = st->total / (double)st->calls;
			if (st->calls > 1) {
				double var = (st->sumsq - st->calls * avg * avg) /
					     (double)(st->calls - 1);

				sd = var > 0 ? sqrt(var / (double)st->calls) : 0;
			}
			fprintf(stdout,
				"   %-15s %8" PRIu64 " %7" PRIu64
				" %8.3f %9.3f %9.3f %9.3f %9.2f%%\n",
				name, st->calls, st->errors, st->total, st->min, avg, st->max,
				avg > 0 ? 100.0 * sd / avg : 0.0);
		}
	}
	fputc('\n', stdout);
}

/* -e: syscall names and globs (perf trace's) for the strace output, the rest are events */
static struct prism_strace *probe;
static char **sc_patterns;
static size_t nr_sc_patterns;

static int opt_event(const struct option_def *opt, const char *arg)
{
	struct prism_strbuf events = STRBUF_INIT;
	const char *p = arg, *tok = arg;
	int depth = 0, ret = 0;
	bool slash = false;

	if (!probe) {
		struct prism_strace_opts so = { 0 };

		probe = prism_strace__new(&so);
	}
	for (;; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}')
			depth--;
		else if (*p == '/')
			slash = !slash;
		if (*p && (*p != ',' || depth > 0 || slash))
			continue;
		if (p > tok) {
			size_t n = (size_t)(p - tok);
			char *t = xrealloc(NULL, n + 1);

			memcpy(t, tok, n);
			t[n] = '\0';

			if (probe && !strpbrk(t, ":{}/") && !prism_strace__filter_add(probe, t)) {
				sc_patterns = xrealloc(sc_patterns,
						       (nr_sc_patterns + 1) * sizeof(*sc_patterns));
				sc_patterns[nr_sc_patterns++] = t;
			} else {
				if (events.len)
					prism_strbuf_addch(&events, ',');
				prism_strbuf_addstr(&events, t);
				free(t);
			}
		}
		if (!*p)
			break;
		tok = p + 1;
	}
	if (events.len)
		ret = record_opt_event(opt, events.buf);
	prism_strbuf_release(&events);
	return ret;
}

/* -F/--pf: bit 0 major faults, bit 1 minor faults */
static unsigned int pf_mask;

static const char *const pf_choices[] = { "all", "maj", "min", NULL };

static int opt_pf(const struct option_def *opt, const char *arg)
{
	(void)opt;
	if (!strcmp(arg, "maj"))
		pf_mask = 1;
	else if (!strcmp(arg, "min"))
		pf_mask = 2;
	else if (!strcmp(arg, "all"))
		pf_mask = 3;
	else
		return error("--pf takes all, maj or min, not '%s'", arg);
	return 0;
}

static void free_patterns(void)
{
	size_t i;

	for (i = 0; i < nr_sc_patterns; i++)
		free(sc_patterns[i]);
	free(sc_patterns);
	sc_patterns = NULL;
	nr_sc_patterns = 0;
	prism_strace__free(probe);
	probe = NULL;
}

static bool has_event(struct prism_evspecs *l, const char *name)
{
	size_t i;

	for (i = 0; l && i < prism_evspecs__nr(l); i++)
		if (!strcmp(prism_evspecs__get(l, i)->name, name))
			return true;
	return false;
}

static int start_strace(struct trace *tr, const struct prism_record_opts *o, double min_ms,
			bool failure, const char *output)
{
	struct prism_strace_opts so = {
		.single_thread = single_thread(o),
		.min_duration_ms = min_ms,
		.failure_only = failure,
		.comm = comm_of,
		.comm_ctx = tr,
		.proc_fd_paths = true,
	};
	size_t i;

	tr->strace = prism_strace__new(&so);
	if (!tr->strace)
		return error("cannot set up the syscall formatter: %s", strerror(errno));
	for (i = 0; i < nr_sc_patterns; i++)
		prism_strace__filter_add(tr->strace, sc_patterns[i]);
	tr->out = stderr;
	if (output && strcmp(output, "-")) {
		tr->out = fopen(output, "w");
		if (!tr->out) {
			tr->out = stderr;
			return error("cannot open '%s': %s", output, strerror(errno));
		}
	} else if (output) {
		tr->out = stdout;
	}
	return 0;
}

/* the workload, held before its exec: its strings are captured from its start */
static void trace_edge(void *ctx, bool end, int workload)
{
	struct trace *tr = ctx;

	if (!end && workload > 0 && tr->strcap)
		prism_strcap__add_tgid(tr->strcap, workload);
}

/*
 * Capture string arguments with BPF where it loads; only the traced
 * processes for a command or -p, every task otherwise.
 */
static void start_strcap(struct trace *tr, struct prism_record_opts *o)
{
	bool filter = (o->argv || o->pid_list) && !o->system_wide && !o->cpu_list;
	const char *p = o->pid_list;
	char *end;

	tr->strcap = prism_strcap__new(tr->strace, filter);
	if (!tr->strcap) {
		if (verbose)
			info("no string arguments (BPF: %s): printing pointers as perf trace",
			     strerror(errno));
		return;
	}
	while (filter && p && *p) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		prism_strcap__add_tgid(tr->strcap, (int)pid);
		p = *end == ',' ? end + 1 : end;
	}
	if (filter && o->argv) {
		o->edge = trace_edge;
		o->edge_ctx = tr;
	}
}

static int add_syscall_events(void)
{
	if (!record_specs)
		record_specs = prism_evspecs__new();
	if (!record_specs ||
	    prism_evspecs__parse(record_specs, "{raw_syscalls:sys_enter,raw_syscalls:sys_exit}")) {
		error("%s", record_specs ? prism_evspecs__error(record_specs) : "out of memory");
		return -1;
	}
	return 0;
}

/* -F: the fault events with their addresses, and data mmaps to place them */
static int add_fault_events(struct prism_record_opts *o)
{
	const char *spec = pf_mask == 1 ? "major-faults/period=1/" :
			   pf_mask == 2 ? "minor-faults/period=1/" :
					  "major-faults/period=1/,minor-faults/period=1/";

	if (!record_specs)
		record_specs = prism_evspecs__new();
	if (!record_specs || prism_evspecs__parse(record_specs, spec)) {
		error("%s", record_specs ? prism_evspecs__error(record_specs) : "out of memory");
		return -1;
	}
	o->data_addr = true;
	return 0;
}

/* -e syscalls: the kernel drops the others, as with perf trace's filter */
static int set_id_filter(void)
{
	struct prism_strbuf expr = STRBUF_INIT;
	int err = 0;

	if (probe && !prism_strace__id_filter(probe, &expr) &&
	    prism_evspecs__set_filter(record_specs, expr.buf)) {
		error("%s", prism_evspecs__error(record_specs));
		err = -1;
	}
	prism_strbuf_release(&expr);
	return err;
}

int cmd_trace(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism trace [-e <syscalls,events>] [--failure] [--duration <ms>] [-F all|maj|min] [-o <file>] [-a | -C <cpus> | -p <pids> | -t <tids> | -- <command>] [-s] [--raw]",
		NULL,
	};
	struct prism_record_opts o = { .output = "-" };
	struct live_rec rt;
	struct prism_session_opts so = { 0 };
	struct trace tr = { .line = STRBUF_INIT };
	struct prism_tool tool = { .sample = on_record, .other = on_record, .other_all = true };
	struct utsname u;
	double min_ms = 0;
	bool raw = false, failure = false, no_strings = false;
	const char *output = NULL;
	int err, ret = 0;
	const struct option_def opts[] = {
		OPT_CALLBACK(
			'e', "event", NULL, "events",
			"syscalls to show (names or globs, e.g. 'openat,read', 'open*'; a leading ! shows all but these) and events to trace (as prism record -e); default: every syscall",
			opt_event),
		OPT_CALLBACK(0, "filter", NULL, "expr",
			     "kernel filter for the tracepoints of the preceding -e",
			     record_opt_filter),
		OPT_BOOL('a', "all-cpus", &o.system_wide, "trace every CPU (system-wide)"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpus", "trace these CPUs only, e.g. 0-3,6"),
		OPT_STRING('p', "pid", &o.pid_list, "pids",
			   "trace these processes (all their threads)"),
		OPT_STRING('t', "tid", &o.tid_list, "tids", "trace these threads"),
		OPT_DOUBLE_POSITIVE(
			0, "stop-after", &o.duration, "sec",
			"stop after this many seconds (also on Ctrl-C or the command's end)"),
		OPT_DOUBLE_POSITIVE(0, "duration", &min_ms, "ms",
				    "show only syscalls that took at least this many milliseconds"),
		OPT_BOOL(0, "failure", &failure, "show only syscalls that failed"),
		OPT_CALLBACK_CHOICE(
			'F', "pf", NULL, "all|maj|min",
			"also trace page faults (-F alone: major ones), as perf trace -F", opt_pf,
			"maj", pf_choices),
		OPT_STRING('o', "output", &output, "file",
			   "write the syscall lines to this file (default: stderr, as perf trace)"),
		OPT_BOOL(
			0, "no-strings", &no_strings,
			"print string arguments as pointers, as perf trace 6.1 does (default: read them with BPF where it loads, not with -C)"),
		OPT_BOOL(
			0, "raw", &raw,
			"print the raw tracepoint events in prism script's layout (syscall numbers and raw arguments) instead of strace-like lines"),
		OPT_BOOL(
			's', "summary", &tr.summary,
			"print only a per-thread syscall summary at the end (count, errors, total/min/avg/max ms), like perf trace -s"),
		OPT_BOOL(0, "include-self", &o.include_self, "also trace prism itself"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		o.argv = argv;
	if (!o.argv && !o.system_wide && !o.cpu_list && !o.pid_list && !o.tid_list)
		usage_error(usage, opts,
			    "nothing to trace: give a command (after --), -a, -C, -p or -t");
	if (raw && nr_sc_patterns)
		usage_error(
			usage, opts,
			"syscall names in -e ('%s') select strace-like lines: drop --raw or name raw_syscalls events",
			sc_patterns[0]);
	/* syscalls are traced by default, or when -e names some, or for -s */
	if (!record_specs || nr_sc_patterns ||
	    (tr.summary && !has_event(record_specs, "raw_syscalls:sys_enter"))) {
		if (add_syscall_events() || (nr_sc_patterns && set_id_filter())) {
			prism_evspecs__free(record_specs);
			record_specs = NULL;
			free_patterns();
			return 1;
		}
	}
	if (pf_mask && add_fault_events(&o)) {
		prism_evspecs__free(record_specs);
		record_specs = NULL;
		free_patterns();
		return 1;
	}
	o.events = record_specs;
	tr.syscalls = has_event(record_specs, "raw_syscalls:sys_enter");
	tr.arch = uname(&u) ? "x86_64" : u.machine;
	if (!raw && !tr.summary && start_strace(&tr, &o, min_ms, failure, output)) {
		prism_evspecs__free(record_specs);
		record_specs = NULL;
		free_patterns();
		prism_strace__free(tr.strace);
		return 1;
	}
	free_patterns();
	if (tr.strace && pf_mask) {
		/* live: this kernel's symbols; data mappings to place fault addresses */
		struct prism_symbols_opts syo = { .kallsyms = "/proc/kallsyms", .data_maps = true };

		tr.sy = prism_symbols__new(&syo);
	}
	/*
	 * strings for the syscalls traced; not with -C, whose CPUs the capture
	 * program does not know (the records of other CPUs would pile up)
	 */
	if (tr.strace && tr.syscalls && !no_strings && !o.cpu_list)
		start_strcap(&tr, &o);
	if (live_start(&rt, &o)) {
		prism_evspecs__free(record_specs);
		record_specs = NULL;
		return 1;
	}
	so.fd = rt.rfd;
	tr.tasks = prism_tasks__new();
	tr.s = prism_session__open(&so);
	if (tr.s && tr.tasks) {
		err = prism_session__process(tr.s, &tool, &tr);
		if (err < 0 && !rt.err) {
			error("reading the event stream: %s", prism_session__error(tr.s));
			ret = 1;
		}
	}
	if (live_finish(&rt))
		ret = 1;
	if (!ret && tr.summary)
		print_summary(&tr);
	if (!quiet && (rt.stats.lost || rt.stats.lost_samples))
		warning("lost %" PRIu64 " events (ring buffer full)", rt.stats.lost);
	prism_session__free(tr.s);
	prism_tasks__free(tr.tasks);
	prism_strbuf_release(&tr.line);
	if (tr.strcap && !quiet && prism_strcap__lost(tr.strcap))
		warning("%" PRIu64
			" string arguments lost (BPF ring buffer full): printed as pointers",
			prism_strcap__lost(tr.strcap));
	prism_strcap__free(tr.strcap);
	prism_symbols__free(tr.sy);
	prism_strace__free(tr.strace);
	pf_mask = 0;
	if (tr.out && tr.out != stderr && tr.out != stdout && fclose(tr.out) && !ret) {
		error("writing '%s': %s", output, strerror(errno));
		ret = 1;
	}
	free(tr.thr);
	free(tr.st);
	prism_evspecs__free(record_specs);
	record_specs = NULL;
	return ret;
}
