// SPDX-License-Identifier: MIT
/*
 * prism sched timehist: perf sched timehist's layout, row by row.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <prism/sched.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/time-filter.h>

#include "cmd.h"
#include "input.h"
#include "options.h"
#include "linebuf.h"
#include "sched.h"

static const char dots[] = "----------------------------------------------------------------"
			   "----------------------------------------------------------------"
			   "----------------------------------------------------------------";

struct idle_chain {
	uint32_t cpu;
	char *folded;
	uint64_t hit, count;
};

struct th {
	bool state, next, wakeups, cpu_visual, callchain;
	unsigned int max_stack;
	struct prism_sched *s;
	struct prism_symbols *sy;
	struct prism_callchain cc;
	/* -I: per CPU the chain that left it idle, and the idle time per chain */
	char **saved;
	size_t nr_saved;
	struct idle_chain *chains;
	size_t nr_chains;
	int comm_width; /* perf widens it as longer names come */
	uint64_t listed; /* summary: tasks of the current list */
	char commstr[32];
};

/* perf's "comm[tid/pid]" (or "comm[tid]", or "comm" alone for pid 0) */
static const char *commstr(struct th *t, const struct prism_sched_task *k)
{
	int n;

	if (k->pid == 0)
		n = snprintf(t->commstr, sizeof(t->commstr), "%s", k->comm);
	else if (k->tid != k->pid)
		n = snprintf(t->commstr, sizeof(t->commstr), "%s[%d/%d]", k->comm, k->tid, k->pid);
	else
		n = snprintf(t->commstr, sizeof(t->commstr), "%s[%d]", k->comm, k->tid);
	if (n > (int)sizeof(t->commstr) - 1)
		n = (int)sizeof(t->commstr) - 1;
	if (n > t->comm_width)
		t->comm_width = n;
	return t->commstr;
}

/* perf's times, msec.usec: "%*lu.%03lu " at @p (DIGITS_MAX + 5 + @width bytes); the end */
static char *put_time(char *p, uint64_t ns, size_t width)
{
	uint64_t ms = ns / 1000000;

	p = put_udec(p, ms, width, ' ');
	*p++ = '.';
	put_digits(p + 3, (ns - ms * 1000000) / 1000, 3);
	p += 3;
	*p++ = ' ';
	return p;
}

/* put_time() on stdout, @width at most DIGITS_MAX */
static void sched_time(uint64_t ns, int width)
{
	char b[2 * DIGITS_MAX + 8], *end = put_time(b, ns, (size_t)width);

	fwrite(b, 1, (size_t)(end - b), stdout);
}

/* perf's columns of times, a blank between */
static void sched_times(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sched_time(v[i], 6);
		if (i + 1 < n)
			printf(" ");
	}
}

void sched_tstamp(uint64_t ns, char *buf, size_t len)
{
	char b[DIGITS_MAX + 8], *end = sched_put_tstamp(b, ns, 0);

	snprintf(buf, len, "%.*s", (int)(end - b), b);
}

char *sched_put_tstamp(char *p, uint64_t ns, size_t width)
{
	uint64_t sec = ns / 1000000000;
	size_t n = nr_digits(sec) + 7;

	if (n < width) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	p = put_udec(p, sec, 0, ' ');
	*p++ = '.';
	put_digits6(p, (uint32_t)(ns % 1000000000 / 1000));
	return p + 6;
}

static void header(struct th *t, uint32_t max_cpu)
{
	uint32_t ncpus = max_cpu + 1, i, j;

	printf("%15s %6s ", "time", "cpu");
	if (t->cpu_visual) {
		printf(" ");
		for (i = 0, j = 0; i < ncpus; ++i) {
			printf("%x", j++);
			if (j > 15)
				j = 0;
		}
		printf(" ");
	}
	printf(" %-*s  %9s  %9s  %9s", t->comm_width, "task name", "wait time", "sch delay",
	       "run time");
	if (t->state)
		printf("  %s", "state");
	printf("\n");
	printf("%15s %-6s ", "", "");
	if (t->cpu_visual)
		printf(" %*s ", ncpus, "");
	printf(" %-*s  %9s  %9s  %9s", t->comm_width, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (t->state)
		printf("  %5s", "");
	printf("\n");
	printf("%.15s %.6s ", dots, dots);
	if (t->cpu_visual)
		printf(" %.*s ", ncpus, dots);
	printf(" %.*s  %.9s  %.9s  %.9s", t->comm_width, dots, dots, dots, dots);
	if (t->state)
		printf("  %.5s", dots);
	printf("\n");
}

static char state_char(const struct prism_sched_row *r)
{
	static const char str[] = "RSDTtZXxKWP";
	int state = (int)r->state;
	unsigned int bit = state ? (unsigned int)ffs(state) : 0;

	if (r->task.tid == 0)
		return 'I';
	return bit < sizeof(str) - 1 ? str[bit] : '?';
}

static bool ignored(const char *sym)
{
	return sym && (!strcmp(sym, "schedule") || !strcmp(sym, "__schedule") ||
		       !strcmp(sym, "preempt_schedule"));
}

/*
 * Whether perf 6.1 discards the chain as corrupted: a context value other
 * than kernel, user or hypervisor among the entries it reads (the first
 * @max real ones and the markers between them), e.g. a garbage user return
 * address of -1 from a frame-pointer walk through code built without them.
 */
static bool perf_discards(const struct prism_sample *smp, size_t max)
{
	size_t real = 0;
	uint64_t i;

	for (i = 0; i < smp->callchain_nr && real < max; i++) {
		uint64_t ip = smp->callchain[i];

		if (ip < PERF_CONTEXT_MAX)
			real++;
		else if (ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL &&
			 ip != PERF_CONTEXT_USER)
			return true;
	}
	return false;
}

/*
 * the first max-stack + 2 frames of a sample's chain in @t->cc (*@n 0: the
 * chain perf discards); false: no chain
 */
static bool resolve_chain(struct th *t, const struct prism_event *ev, size_t *n)
{
	size_t max = (size_t)t->max_stack + 2;

	*n = 0;
	if (!ev || !t->sy || !(ev->sample.type & PERF_SAMPLE_CALLCHAIN))
		return false;
	if (perf_discards(&ev->sample, max))
		return true;
	if (prism_symbols__callchain(t->sy, ev, &t->cc, 0))
		return false;
	*n = t->cc.nr < max ? t->cc.nr : max;
	return true;
}

static int on_idle_chain(void *ctx, uint32_t cpu, bool append, const struct prism_event *ev,
			 uint64_t idle_ns)
{
	struct th *t = ctx;
	struct prism_strbuf sb = STRBUF_INIT;
	size_t i, n;

	if (!t->callchain)
		return 0;
	if (cpu >= t->nr_saved) {
		size_t nn = (size_t)cpu + 1;

		t->saved = xrealloc(t->saved, nn * sizeof(*t->saved));
		memset(t->saved + t->nr_saved, 0, (nn - t->nr_saved) * sizeof(*t->saved));
		t->nr_saved = nn;
	}
	if (!append) {
		if (!resolve_chain(t, ev, &n))
			return 0;
		/* perf's folded form: unresolved frames as their address */
		for (i = 0; i < n; i++) {
			const struct prism_frame *f = &t->cc.frames[i];

			if (ignored(f->sym))
				continue;
			if (sb.len)
				prism_strbuf_addstr(&sb, " <- ");
			if (f->sym)
				prism_strbuf_addstr(&sb, f->sym);
			else
				prism_strbuf_addf(&sb, "%#" PRIx64, f->ip);
		}
		free(t->saved[cpu]);
		t->saved[cpu] = n ? prism_strbuf_detach(&sb, NULL) : NULL;
		prism_strbuf_release(&sb);
		return 0;
	}
	if (!t->saved[cpu])
		return 0;
	for (i = 0; i < t->nr_chains; i++) {
		if (t->chains[i].cpu == cpu && !strcmp(t->chains[i].folded, t->saved[cpu])) {
			t->chains[i].hit += idle_ns;
			t->chains[i].count++;
			return 0;
		}
	}
	t->chains = xrealloc(t->chains, (t->nr_chains + 1) * sizeof(*t->chains));
	t->chains[t->nr_chains].cpu = cpu;
	t->chains[t->nr_chains].folded = xstrdup(t->saved[cpu]);
	t->chains[t->nr_chains].hit = idle_ns;
	t->chains[t->nr_chains].count = 1;
	t->nr_chains++;
	return 0;
}

static int by_hit(const void *a, const void *b)
{
	const struct idle_chain *x = a, *y = b;

	if (x->hit != y->hit)
		return x->hit > y->hit ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void idle_chains(struct th *t)
{
	uint32_t cpu, n = prism_sched__nr_idle(t->s);
	uint64_t ns;
	size_t i;

	printf("\nIdle stats by callchain:\n");
	if (t->nr_chains)
		qsort(t->chains, t->nr_chains, sizeof(*t->chains), by_hit);
	for (cpu = 0; cpu < n; cpu++) {
		if (prism_sched__idle_time(t->s, cpu, &ns))
			continue;
		printf("  CPU %2u:", cpu);
		sched_time(ns, 6);
		printf(" msec\n");
		printf("  %16s  %8s  %s\n", "Idle time (msec)", "Count", "Callchains");
		printf("  %.16s  %.8s  %.50s\n", dots, dots, dots);
		for (i = 0; i < t->nr_chains; i++) {
			if (t->chains[i].cpu != cpu)
				continue;
			printf("  ");
			sched_time(t->chains[i].hit, 12);
			printf(" %8" PRIu64 "  %s\n", t->chains[i].count, t->chains[i].folded);
		}
		printf("\n");
	}
}

/*
 * perf's one-line chain: the first max-stack + 2 frames, leaf first, the
 * scheduler's own functions left out, "[unknown]" for what does not resolve
 */
static void print_chain(struct th *t, const struct prism_event *ev)
{
	bool first = true;
	size_t i, n;

	if (!resolve_chain(t, ev, &n))
		return;
	for (i = 0; i < n; i++) {
		const char *sym = t->cc.frames[i].sym;

		if (ignored(sym))
			continue;
		printf("%s %s", first ? "" : " <-", sym ? sym : "[unknown]");
		first = false;
	}
}

static int on_row(void *ctx, const struct prism_sched_row *r)
{
	struct th *t = ctx;
	char line[4 * DIGITS_MAX + 128 + sizeof(t->commstr)], nstr[30], *p = line;
	const char *name;
	uint32_t i;

	/* printf's "%15s [%04u] ", " %-*s " and three put_time()s, written directly */
	p = sched_put_tstamp(p, r->time, 15);
	p = put_str(p, " [", 2);
	p = put_udec(p, r->cpu, 4, '0');
	p = put_str(p, "] ", 2);
	if (t->cpu_visual) {
		fwrite(line, 1, (size_t)(p - line), stdout);
		p = line;
		printf(" ");
		for (i = 0; i < r->max_cpu + 1; i++)
			putchar(i == r->cpu ? (r->task.tid == 0 ? 'i' : 's') : ' ');
		printf(" ");
	}
	name = commstr(t, &r->task);
	*p++ = ' ';
	p = put_field(p, name, strlen(name), (size_t)t->comm_width, true, ' ');
	*p++ = ' ';
	p = put_time(p, r->wait, 6);
	p = put_time(p, r->delay, 6);
	p = put_time(p, r->run, 6);
	fwrite(line, 1, (size_t)(p - line), stdout);
	if (t->state)
		printf(" %5c ", state_char(r));
	if (t->next) {
		snprintf(nstr, sizeof(nstr), "next: %s[%u]", r->next_comm, r->next_pid);
		printf(" %-*s", t->comm_width, nstr);
	}
	if (t->wakeups && !t->next)
		printf("  %-*s", t->comm_width, "");
	if (r->task.tid != 0 && t->callchain) {
		printf("  ");
		print_chain(t, r->ev);
	}
	printf("\n");
	return 0;
}

static int on_event(void *ctx, const struct prism_sched_event_row *r)
{
	struct th *t = ctx;
	char ts[64];
	const char *name;
	uint32_t i;

	sched_tstamp(r->time, ts, sizeof(ts));
	printf("%15s [%04u] ", ts, r->cpu);
	if (t->cpu_visual && !r->migration) {
		printf(" %*s ", r->max_cpu + 1, "");
	} else if (t->cpu_visual) {
		printf("  ");
		for (i = 0; i < r->max_cpu + 1; i++)
			putchar(i == r->cpu ? 'm' : ' ');
		printf("  ");
	}
	name = commstr(t, &r->task);
	printf(" %-*s ", t->comm_width, name);
	printf("  %9s  %9s  %9s ", "", "", "");
	if (r->migration) {
		printf("migrated: %s", commstr(t, &r->target));
		printf(" cpu %u => %u", r->orig_cpu, r->dest_cpu);
	} else {
		printf("awakened: %s", commstr(t, &r->target));
	}
	printf("\n");
	return 0;
}

static int on_lost(void *ctx, uint64_t time, uint64_t lost, uint32_t cpu)
{
	char ts[64];

	(void)ctx;
	sched_tstamp(time, ts, sizeof(ts));
	printf("%15s ", ts);
	printf("lost %" PRIu64 " events on cpu %u\n", lost, cpu);
	return 0;
}

static int on_task(void *ctx, const struct prism_sched_task_stats *st, bool dead)
{
	struct th *t = ctx;
	const char *name;

	if (!st) {
		if (!t->listed)
			printf(dead ? "<no terminated tasks>\n" : "<no still running tasks>\n");
		if (!dead)
			printf("\nTerminated tasks:\n");
		t->listed = 0;
		return 0;
	}
	t->listed++;
	name = commstr(t, &st->task);
	printf("%*s   %5d  %9" PRIu64 " ", t->comm_width, name, st->task.ppid, st->count);
	sched_time(st->run, 8);
	if (t->state) {
		const uint64_t v[] = { st->sleep, st->iowait, st->preempt, st->delay };

		sched_times(v, 4);
		printf("\n");
		return 0;
	} else {
		const uint64_t v[] = { st->min, st->mean, st->max };

		sched_times(v, 3);
	}
	printf("  ");
	printf("%5.2f", (float)st->stddev_pct);
	printf("   %5" PRIu64, st->migrations);
	printf("\n");
	return 0;
}

struct idle_ctx {
	bool skipped;
	uint64_t hist_time;
};

static int on_idle(void *ctx, uint32_t cpu, const struct prism_sched_task_stats *st)
{
	struct idle_ctx *ic = ctx;

	if (!st) {
		printf("    CPU %2u idle entire time window\n", cpu);
		return 0;
	}
	printf("    CPU %2u idle for ", cpu);
	sched_time(st->run, 6);
	printf(" msec  (%6.2f%%)\n", 100.0 * (double)st->run / (double)ic->hist_time);
	return 0;
}

struct both {
	struct th *t;
	struct idle_ctx ic;
};

static int both_task(void *ctx, const struct prism_sched_task_stats *st, bool dead)
{
	struct both *b = ctx;
	int err = on_task(b->t, st, dead);

	/* perf prints no idle stats when -p/-t left samples out */
	if (!err && !st && dead && !b->ic.skipped)
		printf("\nIdle stats:\n");
	return err;
}

static int both_idle(void *ctx, uint32_t cpu, const struct prism_sched_task_stats *st)
{
	return on_idle(&((struct both *)ctx)->ic, cpu, st);
}

static int summary(struct prism_sched *s, struct th *t, bool idle_hist)
{
	struct prism_sched_summary sum;
	struct both b = { .t = t };
	int err;

	if (idle_hist) {
		printf("\nIdle-time summary\n");
		printf("%*s  parent  sched-out  ", t->comm_width, "comm");
		printf("  idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n");
	} else if (t->state) {
		printf("\nWait-time summary\n");
		printf("%*s  parent   sched-in  ", t->comm_width, "comm");
		printf("   run-time      sleep      iowait     preempt       delay\n");
	} else {
		printf("\nRuntime summary\n");
		printf("%*s  parent   sched-in  ", t->comm_width, "comm");
		printf("   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	}
	printf("%*s            (count)  ", t->comm_width, "");
	printf("     (msec)     (msec)      (msec)      (msec)       %s\n",
	       t->state ? "(msec)" : "%");
	printf("%.117s\n", dots);
	/* the idle lines need the window, known only at the end: a first pass gets it */
	err = prism_sched__timehist_summary(s, NULL, NULL, NULL, &sum);
	if (err)
		return err;
	b.ic.hist_time = sum.hist_time;
	b.ic.skipped = sum.skipped;
	err = prism_sched__timehist_summary(s, both_task, both_idle, &b, &sum);
	if (err || sum.skipped)
		return err;
	if (idle_hist && t->callchain)
		idle_chains(t);
	printf("\n"
	       "    Total number of unique tasks: %" PRIu64 "\n"
	       "Total number of context switches: %" PRIu64 "\n",
	       sum.nr_tasks, sum.nr_switches);
	printf("           Total run time (msec): ");
	sched_time(sum.total_run, 2);
	printf("\n");
	printf("    Total scheduling time (msec): ");
	sched_time(sum.hist_time, 2);
	printf(" (x %u)\n", sum.max_cpu);
	return 0;
}

/* the analysis, and the address spaces for the call chains */
static int on_record(void *ctx, const struct prism_event *ev)
{
	struct th *t = ctx;
	int err = t->sy ? prism_symbols__event(t->sy, ev) : 0;

	if (err)
		return err;
	return ev->type == PERF_RECORD_MMAP || ev->type == PERF_RECORD_MMAP2 ?
		       0 :
		       prism_sched__event(t->s, ev);
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	struct th *t = ctx;

	return t->sy ? prism_symbols__event(t->sy, ev) : 0;
}

static int parse_cpus(const char *str, uint8_t **out, size_t *nr)
{
	int64_t *v;
	size_t n, i, max = 0;

	if (parse_num_list(str, &v, &n))
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] >= 4096) {
			free(v);
			return -1;
		}
		if ((size_t)v[i] + 1 > max)
			max = (size_t)v[i] + 1;
	}
	*out = xcalloc(max ? max : 1, 1);
	for (i = 0; i < n; i++)
		(*out)[v[i]] = 1;
	*nr = max;
	free(v);
	return 0;
}

int sched_parse_cpus(const char *str, uint8_t **out, size_t *nr)
{
	return parse_cpus(str, out, nr);
}

int sched_timehist(int argc, const char **argv, const char *input, bool force)
{
	static const char *const usage[] = { "prism sched timehist [<options>]", NULL };
	struct prism_sched_opts o = { .mode = PRISM_SCHED_TIMEHIST, .profile_cpu = -1 };
	bool with_summary = false, callchain = true;
	const char *pids = NULL, *tids = NULL, *cpus = NULL, *time_str = NULL;
	int max_stack_i = 5;
	struct prism_symbols_opts so = { 0 };
	struct th t = { .comm_width = 30 };
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_BOOL('g', "call-graph", &callchain,
			 "display call chains if every event has them (default on), leaf first, "
			 "the scheduler's functions left out"),
		OPT_INT(0, "max-stack", &max_stack_i, "n",
			"maximum number of functions to display backtrace (default 5)"),
		OPT_STRING(0, "kallsyms", &so.kallsyms, "file", "kernel symbols from this file"),
		OPT_STRING(0, "symfs", &so.symfs, "directory",
			   "look for files with symbols relative to this directory"),
		OPT_BOOL('s', "summary", &o.summary_only, "show only the summary with statistics"),
		OPT_BOOL('S', "with-summary", &with_summary,
			 "show all events and the summary with statistics"),
		OPT_BOOL('w', "wakeups", &t.wakeups, "show wakeup events"),
		OPT_BOOL('n', "next", &t.next, "show next task"),
		OPT_BOOL('M', "migrations", &o.migrations, "show migration events"),
		OPT_BOOL('V', "cpu-visual", &t.cpu_visual, "add CPU visual"),
		OPT_BOOL('I', "idle-hist", &o.idle_hist, "show idle events only"),
		OPT_STRING(0, "time", &time_str, "start,stop",
			   "time span for analysis (seconds, as perf prints them)"),
		OPT_BOOL(0, "state", &t.state, "show task state when sched-out"),
		OPT_STRING('p', "pid", &pids, "pid[,pid...]",
			   "analyze events only for given process id(s)"),
		OPT_STRING('t', "tid", &tids, "tid[,tid...]",
			   "analyze events only for given thread id(s)"),
		OPT_STRING('C', "cpu", &cpus, "cpu", "list of cpus to profile"),
		OPT_END(),
	};
	struct prism_sched_ops ops = {
		.row = on_row, .event = on_event, .lost = on_lost, .idle_chain = on_idle_chain
	};
	size_t i;
	const struct prism_tool tool = {
		.sample = on_record,
		.mmap = on_record,
		.comm = on_record,
		.fork = on_record,
		.exit = on_record,
		.lost = on_record,
		.other = on_other,
		.user = on_other,
	};
	int64_t *pv = NULL, *tv = NULL;
	uint8_t *cv = NULL;
	struct prism_session *ss;
	struct prism_sched *s = NULL;
	int err, ret = 1;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if ((t.wakeups || t.next) && o.summary_only)
		usage_error(usage, opts, "-s and -[n|w] are mutually exclusive");
	if (max_stack_i < 0)
		usage_error(usage, opts, "--max-stack must be 0 or more");
	t.max_stack = (unsigned int)max_stack_i;
	o.wakeups = t.wakeups;
	if (pids && parse_num_list(pids, &pv, &o.nr_pids))
		usage_error(usage, opts, "invalid -p list '%s'", pids);
	if (tids && parse_num_list(tids, &tv, &o.nr_tids))
		usage_error(usage, opts, "invalid -t list '%s'", tids);
	o.pids = pv;
	o.tids = tv;
	if (cpus && parse_cpus(cpus, &cv, &o.nr_cpus))
		usage_error(usage, opts, "invalid -C list '%s' (CPU numbers below 4096)", cpus);
	o.cpus = cv;
	if (time_str) {
		struct prism_time_filter tf = { 0 };
		const char *why = NULL;

		if (prism_time_filter__percent(time_str) ||
		    prism_time_filter__parse(&tf, time_str, 0, 0, &why) || tf.nr > 1) {
			prism_time_filter__release(&tf);
			error("invalid time string '%s'%s%s", time_str, why ? ": " : "",
			      why ? why : "");
			hint("give START,STOP in seconds, as the time column shows them");
			goto out;
		}
		if (tf.nr) {
			o.time_start = tf.v[0].start;
			o.time_end = tf.v[0].end;
		}
		prism_time_filter__release(&tf);
	}
	ss = open_input(input, force, false);
	if (!ss)
		goto out;
	o.nr_cpus_online = sched_nr_cpus_online(ss);
	if (callchain && !prism_sched__all_callchains(ss)) {
		fprintf(stderr, "Samples do not have callchains.\n");
		callchain = false;
	}
	t.callchain = callchain;
	if (callchain) {
		so.kallsyms = input_kallsyms(ss, so.kallsyms, NULL);
		t.sy = prism_symbols__new(&so);
		if (!t.sy || prism_symbols__set_features(t.sy, prism_session__features(ss))) {
			error_errno(errno ? errno : ENOMEM, "cannot set up symbol resolution");
			prism_session__free(ss);
			goto out;
		}
	}
	if (!prism_sched__has_event(ss, "sched_switch") && !prism_session__file_info(ss)->pipe) {
		error("no sched_switch events in '%s'", input ? input : "perf.data");
		hint("record them with 'prism sched record' (or perf sched record)");
		prism_session__free(ss);
		goto out;
	}
	s = prism_sched__new(&o, &ops, &t);
	if (!s) {
		error_errno(errno, "cannot set up the analysis");
		prism_session__free(ss);
		goto out;
	}
	prism_sched__bind(s, ss);
	t.s = s;
	if (!o.summary_only)
		header(&t, o.nr_cpus_online ? o.nr_cpus_online : 4);
	err = prism_session__process(ss, &tool, &t);
	if (report_process_result(ss, input, err))
		goto out_free;
	if ((o.summary_only || with_summary) && summary(s, &t, o.idle_hist))
		goto out_free;
	ret = 0;
out_free:
	prism_sched__free(s);
	prism_session__free(ss);
out:
	prism_callchain__release(&t.cc);
	prism_symbols__free(t.sy);
	for (i = 0; i < t.nr_saved; i++)
		free(t.saved[i]);
	free(t.saved);
	for (i = 0; i < t.nr_chains; i++)
		free(t.chains[i].folded);
	free(t.chains);
	free(pv);
	free(tv);
	free(cv);
	return ret;
}
