// SPDX-License-Identifier: MIT
/*
 * prism stat: count events (perf stat): the events as prism record parses
 * them, perf's default set without -e; a command, -a/-C, -p or -t; one
 * total, -I intervals or -r repeated runs; per CPU, core, die, socket or
 * thread; perf stat's columns, -x SEP or -j JSON (printed by stat-print.c).
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/strbuf.h>
#include <prism/tracefs.h>

#include "cmd.h"
#include "options.h"
#include "record-opts.h"
#include "stat.h"

static volatile sig_atomic_t stop_now;

static void on_signal(int sig)
{
	(void)sig;
	stop_now = 1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

struct stat_cmd {
	struct prism_stat_opts o;
	struct stat_print p;
	int repeat;
	int interval_ms;
	int interval_count;
	int timeout_ms;
	int delay_ms;
	bool no_aggr, per_core, per_die, per_socket, per_thread;
	const char *output;
	bool append;
	bool summary, no_csv_summary;
	const char *const *usage;
	const struct option_def *opts;
};

static int stat_opt_event(const struct option_def *opt, const char *arg)
{
	bool mounted = false;

	/*
	 * tracepoints need tracefs: mounted here as root, as record does; where
	 * it cannot be, the parser says what is missing for a tracepoint (a
	 * ':' may also be a modifier, which needs nothing)
	 */
	if (strchr(arg, ':') && !prism_tracefs_path() && !prism_tracefs_init(&mounted) && mounted)
		info("mounted tracefs on %s", prism_tracefs_path());
	return record_opt_event(opt, arg);
}

/* 'CMD ARGS', 'system wide', 'CPU(s) 0,1', process id '12', thread id '34' */
static void target_name(const struct stat_cmd *c, struct prism_strbuf *sb)
{
	const char *const *a;

	if (c->o.pid_list)
		prism_strbuf_addf(sb, "process id '%s'", c->o.pid_list);
	else if (c->o.tid_list)
		prism_strbuf_addf(sb, "thread id '%s'", c->o.tid_list);
	else if (c->o.cpu_list)
		prism_strbuf_addf(sb, "'CPU(s) %s'", c->o.cpu_list);
	else if (c->o.system_wide)
		prism_strbuf_addstr(sb, "'system wide'");
	else {
		prism_strbuf_addch(sb, '\'');
		for (a = c->o.argv; *a; a++)
			prism_strbuf_addf(sb, "%s%s", a == c->o.argv ? "" : " ", *a);
		prism_strbuf_addch(sb, '\'');
	}
}

/*
 * Wait until @deadline (CLOCK_MONOTONIC ns, 0 = none), the workload's exit
 * or a signal.  Return: 1 when the workload exited or a signal came, 0 at
 * the deadline.
 */
static int wait_until(struct prism_stat *s, double deadline)
{
	for (;;) {
		struct pollfd pfd = { .fd = prism_stat__workload_pidfd(s), .events = POLLIN };
		double left = deadline ? deadline - now_ns() : -1;
		int ms = left < 0 && deadline ? 0 : deadline ? (int)ceil(left / 1e6) : 250;

		if (stop_now)
			return 1;
		if (prism_stat__workload_wait(s, false, NULL) == 1)
			return 1;
		/* -p/-t alone: the count ends with the last of their threads */
		if (!prism_stat__workload_pid(s) && !prism_stat__targets_alive(s))
			return 1;
		if (deadline && left <= 0)
			return 0;
		/* without a pidfd (old kernels) the exit is polled */
		if (pfd.fd < 0 && prism_stat__workload_pid(s) > 0 && (ms < 0 || ms > 10))
			ms = 10;
		poll(pfd.fd >= 0 ? &pfd : NULL, pfd.fd >= 0 ? 1 : 0, ms);
	}
}

static void print_result(struct stat_cmd *c, struct prism_stat *s, bool delta)
{
	struct prism_stat_result *r = prism_stat__aggregate(s, c->p.mode, delta);

	if (!r) {
		error("cannot aggregate the counts: %s", strerror(errno));
		return;
	}
	stat_print_counts(&c->p, s, r);
	prism_stat_result__free(r);
}

/* one run: counts to *last (the caller frees), intervals printed on the way */
static int run_once(struct stat_cmd *c, struct prism_stat **last, double *elapsed, int *status)
{
	struct prism_stat *s = prism_stat__new(&c->o);
	double t0, next = 0, end = 0;
	int ticks = 0, err;

	*status = 0;
	if (!s) {
		error("%s", *prism_stat_new_error() ? prism_stat_new_error() : strerror(errno));
		return -1;
	}
	*last = s;
	err = prism_stat__open(s);
	if (err) {
		const char *msg = prism_stat__error(s), *nl = strchr(msg, '\n');

		error("%.*s", nl ? (int)(nl - msg) : (int)strlen(msg), msg);
		for (; nl; nl = strchr(nl + 1, '\n')) {
			const char *h = nl + 1, *e = strchr(h, '\n');

			if (!strncmp(h, "hint: ", 6))
				h += 6;
			hint("%.*s", e ? (int)(e - h) : (int)strlen(h), h);
		}
		return -1;
	}
	t0 = now_ns();
	if (prism_stat__start(s)) {
		error("%s", prism_stat__error(s));
		return -1;
	}
	if (c->delay_ms) {
		/* -D: the command runs uncounted for a while (perf's messages) */
		fputs("Events disabled\n", c->p.out);
		if (wait_until(s, t0 + c->delay_ms * 1e6) == 0) {
			if (prism_stat__enable(s))
				return error("%s", prism_stat__error(s));
			fputs("Events enabled\n", c->p.out);
		}
		t0 = now_ns();
	}
	if (c->timeout_ms)
		end = t0 + c->timeout_ms * 1e6;
	if (c->interval_ms)
		next = t0 + c->interval_ms * 1e6;
	for (;;) {
		double deadline = next && (!end || next < end) ? next : end;
		int done = wait_until(s, deadline);

		if (!done && next && deadline == next) {
			if (prism_stat__read(s))
				return error("%s", prism_stat__error(s));
			c->p.ts = (now_ns() - t0) / 1e9;
			print_result(c, s, true);
			next += c->interval_ms * 1e6;
			if (c->interval_count && ++ticks >= c->interval_count)
				break;
			continue;
		}
		break;
	}
	if (!stop_now && end && now_ns() >= end)
		prism_stat__workload_kill(s, SIGTERM);
	prism_stat__workload_wait(s, true, status);
	*elapsed = now_ns() - t0;
	prism_stat__stop(s);
	if (prism_stat__read(s))
		return error("%s", prism_stat__error(s));
	/* the partial interval at the end: the intervals add up to the total */
	if (c->interval_ms && !(c->interval_count && ticks >= c->interval_count)) {
		c->p.ts = (now_ns() - t0) / 1e9;
		print_result(c, s, true);
	}
	return 0;
}

static int run(struct stat_cmd *c)
{
	struct prism_stat_running elapsed = { 0 };
	struct prism_stat_runs *runs = prism_stat_runs__new();
	struct prism_stat *s = NULL;
	struct rusage ru = { 0 };
	int i, status = 0, ret = 0;
	double el = 0;

	if (!runs)
		return error("out of memory");
	for (i = 0; i < c->repeat && !stop_now; i++) {
		struct prism_stat_result *r;

		prism_stat__free(s);
		s = NULL;
		if (run_once(c, &s, &el, &status)) {
			ret = 1;
			goto out;
		}
		prism_stat_running__add(&elapsed, el);
		r = prism_stat__aggregate(s, c->p.mode, false);
		if (!r || prism_stat_runs__add(runs, r)) {
			prism_stat_result__free(r);
			error("cannot aggregate the counts: %s", strerror(errno ? errno : ENOMEM));
			ret = 1;
			goto out;
		}
		prism_stat_result__free(r);
	}
	if (!c->interval_ms || c->summary) {
		struct prism_strbuf sb = STRBUF_INIT;
		struct prism_stat_result *mean = prism_stat_runs__mean(runs);
		bool ru_show = c->o.argv && !c->o.system_wide && !c->o.cpu_list && !c->o.pid_list &&
			       !c->o.tid_list && c->repeat == 1;

		if (!mean) {
			error("cannot average the counts: %s", strerror(errno));
			ret = 1;
			goto out;
		}
		getrusage(RUSAGE_CHILDREN, &ru);
		target_name(c, &sb);
		c->p.runs = prism_stat_runs__nr(runs);
		c->p.noise = runs;
		c->p.elapsed_ns = elapsed.mean;
		c->p.csv_summary = c->p.interval && !c->no_csv_summary;
		c->p.interval = false;
		stat_print_header(&c->p, sb.buf, c->repeat);
		stat_print_counts(&c->p, s, mean);
		stat_print_footer(&c->p, &elapsed, ru_show,
				  (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
				  (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		prism_stat_result__free(mean);
		prism_strbuf_release(&sb);
	}
	/* the workload's exit status, as perf stat returns it */
	if (WIFEXITED(status))
		ret = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		ret = 128 + WTERMSIG(status);
out:
	prism_stat__free(s);
	prism_stat_runs__free(runs);
	return ret;
}

static int check_modes(struct stat_cmd *c, int argc)
{
	int modes = c->no_aggr + c->per_core + c->per_die + c->per_socket + c->per_thread;
	bool per_cpu = c->o.system_wide || c->o.cpu_list;

	if (!argc && !per_cpu && !c->o.pid_list && !c->o.tid_list)
		usage_error(c->usage, c->opts,
			    "nothing to count: give a command (after --), -a, -C, -p or -t");
	if (per_cpu + !!c->o.pid_list + !!c->o.tid_list > 1)
		usage_error(c->usage, c->opts, "-a/-C, -p and -t exclude each other");
	if (modes > 1)
		usage_error(
			c->usage, c->opts,
			"-A, --per-core, --per-die, --per-socket and --per-thread exclude each other");
	if ((c->no_aggr || c->per_core || c->per_die || c->per_socket) && !per_cpu)
		usage_error(
			c->usage, c->opts,
			"-A/--per-cpu, --per-core, --per-die and --per-socket need per-CPU counts: add -a or -C");
	if (c->per_thread && !c->o.pid_list && !c->o.tid_list)
		usage_error(c->usage, c->opts, "--per-thread needs -p or -t");
	if (c->o.argv && (c->o.pid_list || c->o.tid_list) && c->o.no_inherit)
		usage_error(c->usage, c->opts, "--no-inherit applies to a command's children");
	if (c->repeat > 1 && (c->interval_ms || !argc))
		usage_error(c->usage, c->opts, "-r repeats a command, without -I");
	if (c->interval_count && !c->interval_ms)
		usage_error(c->usage, c->opts, "--interval-count needs -I");
	if (c->interval_ms && c->interval_ms < 10)
		usage_error(c->usage, c->opts, "-I %d: the interval is at least 10 ms",
			    c->interval_ms);
	if ((c->summary || c->no_csv_summary) && !c->interval_ms)
		usage_error(c->usage, c->opts, "--summary and --no-csv-summary go with -I");
	if (c->append && !c->output)
		usage_error(c->usage, c->opts, "--append needs -o");
	if (c->p.sep && c->p.json)
		usage_error(c->usage, c->opts, "-x and -j exclude each other");
	if (c->repeat < 1 || c->interval_count < 0 || c->timeout_ms < 0 || c->delay_ms < 0)
		usage_error(c->usage, c->opts,
			    "-r, --interval-count, --timeout and -D take positive numbers");
	if (c->delay_ms && !argc)
		usage_error(c->usage, c->opts, "-D delays the counting of a command");
	c->o.delay_enable = c->delay_ms > 0;
	c->p.mode = c->no_aggr	  ? PRISM_STAT_AGGR_NONE :
		    c->per_core	  ? PRISM_STAT_AGGR_CORE :
		    c->per_die	  ? PRISM_STAT_AGGR_DIE :
		    c->per_socket ? PRISM_STAT_AGGR_SOCKET :
		    c->per_thread ? PRISM_STAT_AGGR_THREAD :
				    PRISM_STAT_AGGR_GLOBAL;
	return 0;
}

int cmd_stat(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism stat [<options>] [--] <command> [<args>]",
		"prism stat [<options>] -a | -C <cpus> | -p <pids> | -t <tids>",
		NULL,
	};
	struct stat_cmd c = { .repeat = 1, .p = { .big_num = true } };
	bool no_inherit = false;
	const struct option_def opts[] = {
		OPT_GROUP("Events"),
		OPT_CALLBACK('e', "event", NULL, "event",
			     "events as prism record takes them: task-clock, {a,b}:u, "
			     "sched:sched_switch, pmu/config=1/ (default: perf's set)",
			     stat_opt_event),
		OPT_BOOL('n', "null", &c.p.null_run,
			 "count nothing: only the elapsed (and user, sys) time of the command"),
		OPT_CALLBACK(0, "filter", NULL, "expr",
			     "kernel filter for the tracepoints of the preceding -e",
			     record_opt_filter),
		OPT_GROUP("Targets"),
		OPT_BOOL('a', "all-cpus", &c.o.system_wide, "count on every CPU (system-wide)"),
		OPT_STRING('C', "cpu", &c.o.cpu_list, "cpus",
			   "count on these CPUs only, e.g. 0-3,6"),
		OPT_STRING('p', "pid", &c.o.pid_list, "pids",
			   "count every thread of these processes"),
		OPT_STRING('t', "tid", &c.o.tid_list, "tids", "count these threads"),
		OPT_BOOL('i', "no-inherit", &no_inherit,
			 "do not count the children the command (or the threads) create"),
		OPT_INT(0, "timeout", &c.timeout_ms, "ms",
			"stop after this many milliseconds (the command gets SIGTERM)"),
		OPT_INT('D', "delay", &c.delay_ms, "ms",
			"start counting this many milliseconds after the command starts"),
		OPT_GROUP("Runs and intervals"),
		OPT_INT('r', "repeat", &c.repeat, "n",
			"run the command n times: mean counts and their ( +- stddev )"),
		OPT_INT('I', "interval-print", &c.interval_ms, "ms",
			"print the counts of every interval of ms milliseconds (at least 10)"),
		OPT_INT(0, "interval-count", &c.interval_count, "n", "stop after n intervals"),
		OPT_BOOL(0, "summary", &c.summary, "after the intervals, the total as without -I"),
		OPT_BOOL(0, "no-csv-summary", &c.no_csv_summary,
			 "no 'summary' column in front of the total's -x lines"),
		OPT_GROUP("Aggregation"),
		OPT_BOOL('A', "no-aggr", &c.no_aggr, "a line per CPU (with -a or -C)"),
		OPT_BOOL(0, "per-cpu", &c.no_aggr, "the same as -A"),
		OPT_BOOL(0, "per-core", &c.per_core,
			 "a line per physical core (sysfs topology, with -a or -C)"),
		OPT_BOOL(0, "per-die", &c.per_die, "a line per die (with -a or -C)"),
		OPT_BOOL(0, "per-socket", &c.per_socket, "a line per socket (with -a or -C)"),
		OPT_BOOL(0, "per-thread", &c.per_thread, "a line per thread (with -p or -t)"),
		OPT_GROUP("Output"),
		OPT_STRING('x', "field-separator", &c.p.sep, "sep",
			   "separated columns: value, unit, event, noise (-r), run time, "
			   "% running, metric value, metric unit"),
		OPT_BOOL('j', "json-output", &c.p.json, "a JSON object per line, as perf 6.1"),
		OPT_STRING('o', "output", &c.output, "file",
			   "write the counts to file instead of standard error"),
		OPT_BOOL(0, "append", &c.append, "append to the -o file"),
		OPT_BOOL('B', "big-num", &c.p.big_num,
			 "thousands' separators of the locale (default; --no-big-num)"),
		OPT_END(),
	};
	struct sigaction sa = { .sa_handler = on_signal };
	int ret;

	c.usage = usage;
	c.opts = opts;
	argc = parse_options(argc, argv, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		c.o.argv = argv;
	c.o.no_inherit = no_inherit;
	if (c.p.null_run && record_specs)
		usage_error(usage, opts, "-n counts nothing: leave out -e");
	if (c.p.null_run)
		record_specs = prism_evspecs__new(); /* an empty list, not perf's default set */
	if (!record_specs && c.p.null_run)
		return error("out of memory"), 1;
	c.o.events = record_specs;
	check_modes(&c, argc);
	setlocale(LC_NUMERIC, "");
	c.p.out = stderr;
	if (c.output) {
		time_t t = time(NULL);

		c.p.out = fopen(c.output, c.append ? "ae" : "we");
		if (!c.p.out)
			return error("cannot open '%s': %s", c.output, strerror(errno)), 1;
		fprintf(c.p.out, "# started on %s\n", ctime(&t));
	}
	if (c.p.sep)
		c.p.big_num = false;
	c.p.elapsed_ns = c.interval_ms * 1e6;
	c.p.interval = c.interval_ms > 0;
	stop_now = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = run(&c);
	if (c.output && fclose(c.p.out))
		ret = 1, error("cannot write '%s': %s", c.output, strerror(errno));
	prism_evspecs__free(record_specs);
	record_specs = NULL;
	return ret;
}
