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
#include <prism/time-filter.h>

#include "cmd.h"
#include "input.h"
#include "options.h"
#include "sched.h"

static const char dots[] = "----------------------------------------------------------------"
			   "----------------------------------------------------------------"
			   "----------------------------------------------------------------";

struct th {
	bool state, next, wakeups, cpu_visual, callchain;
	int comm_width; /* perf widens it as longer names come */
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

/* times are printed as msec.usec */
static void sched_time(uint64_t ns, int width)
{
	uint64_t ms = ns / 1000000;

	printf("%*" PRIu64 ".%03" PRIu64 " ", width, ms, (ns - ms * 1000000) / 1000);
}

void sched_tstamp(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
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

static int on_row(void *ctx, const struct prism_sched_row *r)
{
	struct th *t = ctx;
	char ts[64], nstr[30];
	const char *name;
	uint32_t i;

	sched_tstamp(r->time, ts, sizeof(ts));
	printf("%15s [%04u] ", ts, r->cpu);
	if (t->cpu_visual) {
		printf(" ");
		for (i = 0; i < r->max_cpu + 1; i++)
			putchar(i == r->cpu ? (r->task.tid == 0 ? 'i' : 's') : ' ');
		printf(" ");
	}
	name = commstr(t, &r->task);
	printf(" %-*s ", t->comm_width, name);
	sched_time(r->wait, 6);
	sched_time(r->delay, 6);
	sched_time(r->run, 6);
	if (t->state)
		printf(" %5c ", state_char(r));
	if (t->next) {
		snprintf(nstr, sizeof(nstr), "next: %s[%u]", r->next_comm, r->next_pid);
		printf(" %-*s", t->comm_width, nstr);
	}
	if (t->wakeups && !t->next)
		printf("  %-*s", t->comm_width, "");
	if (r->task.tid != 0 && t->callchain)
		printf("  ");
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
	static uint64_t n;
	const char *name;

	if (!st) {
		if (!n)
			printf(dead ? "<no terminated tasks>\n" : "<no still running tasks>\n");
		if (!dead)
			printf("\nTerminated tasks:\n");
		n = 0;
		return 0;
	}
	n++;
	name = commstr(t, &st->task);
	printf("%*s   %5d  %9" PRIu64 " ", t->comm_width, name, st->task.ppid, st->count);
	sched_time(st->run, 8);
	if (t->state) {
		sched_time(st->sleep, 6);
		printf(" ");
		sched_time(st->iowait, 6);
		printf(" ");
		sched_time(st->preempt, 6);
		printf(" ");
		sched_time(st->delay, 6);
		printf("\n");
		return 0;
	}
	sched_time(st->min, 6);
	printf(" ");
	sched_time(st->mean, 6);
	printf(" ");
	sched_time(st->max, 6);
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
	printf("     (msec)     (msec)      (msec)      (msec)       %s\n", t->state ? "(msec)" : "%");
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
	unsigned int max_stack = 5;
	int max_stack_i = 5;
	struct th t = { .comm_width = 30 };
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_BOOL('g', "call-graph", &callchain,
			 "display call chains if present (default on; the chains themselves are "
			 "not printed yet)"),
		OPT_INT(0, "max-stack", &max_stack_i, "n",
			"maximum number of functions to display backtrace"),
		OPT_BOOL('s', "summary", &o.summary_only,
			 "show only the summary with statistics"),
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
	struct prism_sched_ops ops = { .row = on_row, .event = on_event, .lost = on_lost };
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
	max_stack = (unsigned int)max_stack_i;
	o.wakeups = t.wakeups;
	(void)max_stack;
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
	if (!o.summary_only)
		header(&t, o.nr_cpus_online ? o.nr_cpus_online : 4);
	err = prism_session__process(ss, prism_sched__tool(), s);
	if (report_process_result(ss, input, err))
		goto out_free;
	if ((o.summary_only || with_summary) && summary(s, &t, o.idle_hist))
		goto out_free;
	ret = 0;
out_free:
	prism_sched__free(s);
	prism_session__free(ss);
out:
	free(pv);
	free(tv);
	free(cv);
	return ret;
}
