// SPDX-License-Identifier: MIT
/*
 * prism record: record events with perf_event_open into a perf.data file
 * (or a pipe-mode stream) that perf reads.  The work is in lib/record/.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/evspec.h>
#include <prism/offcpu-data.h>
#include <prism/pmu.h>
#include <prism/pt.h>
#include <prism/record.h>
#include <prism/session.h>

#include "cmd.h"
#include "options.h"
#include "record-opts.h"
#include "util-record.h"

static struct prism_record *active;

static void on_signal(int sig)
{
	(void)sig;
	if (active)
		prism_record__stop(active);
}

static void on_usr2(int sig)
{
	(void)sig;
	if (active)
		prism_record__snapshot(active);
}

static void print_error(const char *msg)
{
	const char *p = msg, *nl;
	bool first = true;

	/* first line = the error, "hint: " lines after it */
	while (*p) {
		nl = strchr(p, '\n');
		if (first)
			error("%.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
		else if (!strncmp(p, "hint: ", 6))
			hint("%.*s", nl ? (int)(nl - p - 6) : (int)strlen(p + 6), p + 6);
		else
			fprintf(stderr, "%.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
		first = false;
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* --off-cpu: set by prism record only (prism trace shares record_run) */
enum offcpu_method { OFFCPU_NONE, OFFCPU_BPF, OFFCPU_SCHED };
static enum offcpu_method offcpu_method;
static bool sched_kstack; /* --off-cpu=sched --off-cpu-kernel-stack */

static void print_offcpu_stats(const struct prism_record_stats *st)
{
	const struct prism_offcpu_stats *os = &st->offcpu_stats;
	size_t i;
	bool lost = false;

	fprintf(stderr,
		"[ prism record: off-CPU (BPF): %" PRIu64 " offcpu-time samples, %.3f s off CPU, "
		"%" PRIu64 " blocks (%" PRIu64 " still off CPU at the end, %" PRIu64
		" kept individually) ]\n",
		st->offcpu_samples, (double)st->offcpu_ns / 1e9, st->offcpu_blocks, os->in_progress,
		os->emitted);
	for (i = 0; i < prism_offcpu_stats__nr(); i++) {
		const struct prism_offcpu_stat_desc *d = prism_offcpu_stats__desc(i);
		uint64_t v = prism_offcpu_stats__get(os, i);

		if (!d->loss || !v)
			continue;
		fprintf(stderr, "[ prism record: off-CPU loss: %s = %" PRIu64 ": %s ]\n", d->name,
			v, d->hint);
		lost = true;
	}
	if (!lost)
		fprintf(stderr, "[ prism record: off-CPU: no stacks or blocks lost ]\n");
}

/* the context-switch method: every switch-out sampled with its stack, plus switch records */
static int add_sched_fallback(struct prism_record *r)
{
	struct prism_record_event ev = {
		.name = "context-switches",
		.leader = -1,
		.user_period = true,
	};

	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	ev.attr.sample_period = 1;
	/* as the BPF method: the kernel stack, which costs most, only when asked */
	ev.attr.exclude_callchain_kernel = !sched_kstack;
	return prism_record__add_event(r, &ev);
}

/*
 * The samples a file holds, read back (-1 when it cannot be read): after a
 * write error it holds fewer than were captured.
 */
static int64_t samples_in(const char *path)
{
	struct prism_session_opts so = { .path = path, .no_order = true };
	struct prism_session *s = prism_session__open(&so);
	const struct prism_tool tool = { 0 };
	int64_t n = 0;
	size_t i;

	if (!s)
		return -1;
	if (prism_session__process(s, &tool, NULL) < 0)
		n = -1;
	for (i = 0; n >= 0 && i < prism_session__nr_evsels(s); i++)
		n += (int64_t)prism_evsel__nr_samples(prism_session__evsel(s, i));
	prism_session__free(s);
	return n;
}

/*
 * record_run_status - record_run(), and in *@workload the exit status the
 * workload's end calls for, as perf record's: its exit code, 128 + the
 * signal that killed it, 0 without a workload
 */
static int record_run_status(struct prism_record_opts *o, bool summary, int *workload)
{
	struct prism_record *r = prism_record__new(o);
	const struct prism_record_stats *st;
	struct sigaction sa = { .sa_handler = on_signal };
	int err;

	if (!r) {
		error("%s",
		      prism_record_new_error()[0] ? prism_record_new_error() : strerror(errno));
		return EXIT_USAGE;
	}
	if (offcpu_method == OFFCPU_SCHED && add_sched_fallback(r)) {
		error("out of memory");
		prism_record__free(r);
		return 1;
	}
	if (offcpu_method == OFFCPU_BPF && !o->events) {
		/* off-CPU only: a dummy event tracks tasks and mmaps for the symbols */
		struct prism_record_event ev = { .name = "dummy", .leader = -1 };

		ev.attr.type = PERF_TYPE_SOFTWARE;
		ev.attr.config = PERF_COUNT_SW_DUMMY;
		if (prism_record__add_event(r, &ev)) {
			error("out of memory");
			prism_record__free(r);
			return 1;
		}
	}
	/* signals stop the recording from the start: open() can take a while (-a) */
	active = r;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (o->aux_snapshot) { /* perf's: SIGUSR2 writes a snapshot of the AUX areas */
		struct sigaction su = { .sa_handler = on_usr2 };

		sigemptyset(&su.sa_mask);
		sigaction(SIGUSR2, &su, NULL);
	}
	err = prism_record__open(r);
	if (prism_record__mounted_tracefs(r))
		info("mounted tracefs on /sys/kernel/tracing");
	if (err) {
		print_error(prism_record__error(r));
		active = NULL;
		prism_record__free(r);
		return 1;
	}
	/* no command and no --duration: say how it ends (perf leaves users guessing) */
	if (summary && !quiet && !o->argv && !o->pid_list && !o->tid_list && !o->duration &&
	    isatty(STDERR_FILENO))
		info("recording until Ctrl-C (or use --duration SEC)");
	err = prism_record__run(r);
	st = prism_record__stats(r);
	if (err)
		print_error(prism_record__error(r));
	if (summary && !quiet) {
		const char *out = prism_record__output(r);
		int64_t kept = st->write_error && strcmp(out, "-") ? samples_in(out) : -1;

		/* the offcpu-time samples are samples of the file too */
		if (!st->write_error && st->offcpu_samples)
			fprintf(stderr,
				"[ prism record: Captured and wrote %.3f MB %s (%" PRIu64
				" samples, %" PRIu64 " of them offcpu-time) ]\n",
				(double)st->bytes / (1024.0 * 1024.0), out,
				st->samples + st->offcpu_samples, st->offcpu_samples);
		else if (!st->write_error)
			fprintf(stderr,
				"[ prism record: Captured and wrote %.3f MB %s (%" PRIu64
				" samples) ]\n",
				(double)st->bytes / (1024.0 * 1024.0), out, st->samples);
		else if (kept >= 0)
			fprintf(stderr,
				"[ prism record: Captured %" PRIu64
				" samples, wrote %.3f MB %s (%" PRId64
				" samples) before the write error ]\n",
				st->samples, (double)st->bytes / (1024.0 * 1024.0), out, kept);
		else
			fprintf(stderr,
				"[ prism record: Captured %" PRIu64
				" samples, wrote %.3f MB %s before the write error ]\n",
				st->samples, (double)st->bytes / (1024.0 * 1024.0), out);
		if (st->lost || st->lost_samples)
			fprintf(stderr,
				"[ prism record: lost %" PRIu64 " events in %" PRIu64
				" LOST records, %" PRIu64 " samples: use a bigger buffer (-m) ]\n",
				st->lost, st->lost_records, st->lost_samples);
		if (st->offcpu_stats_valid)
			print_offcpu_stats(st);
		if (offcpu_method == OFFCPU_SCHED)
			fprintf(stderr,
				"[ prism record: off-CPU by context switches: intervals are computed by "
				"'prism offcpu' ]\n");
		/* perf's ratio, the one the header's COMPRESSED feature and stats give */
		if (o->compress_level && st->comp_bytes)
			fprintf(stderr,
				"[ prism record: Compressed %.3f MB to %.3f MB, ratio is %.3f ]\n",
				(double)st->raw_bytes / (1024.0 * 1024.0),
				(double)st->comp_bytes / (1024.0 * 1024.0),
				(double)st->raw_bytes / (double)st->comp_bytes);
	}
	*workload = 0;
	if (st->workload_exited && WIFEXITED(st->workload_status))
		*workload = WEXITSTATUS(st->workload_status);
	else if (st->workload_exited && WIFSIGNALED(st->workload_status))
		*workload = 128 + WTERMSIG(st->workload_status);
	active = NULL;
	prism_record__free(r);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (o->aux_snapshot)
		signal(SIGUSR2, SIG_DFL);
	return err ? 1 : 0;
}

int record_run(struct prism_record_opts *o, bool summary)
{
	int workload;

	return record_run_status(o, summary, &workload);
}

int record_run_offcpu(struct prism_record_opts *o, bool summary)
{
	int workload, ret;

	offcpu_method = OFFCPU_BPF;
	ret = record_run_status(o, summary, &workload);
	offcpu_method = OFFCPU_NONE;
	return ret;
}

/* "500" (µs, as bcc's -m/-M), or with a unit: 2ms, 1.5s, 300us, 100ns */
int parse_block_time(const char *arg, uint64_t *ns)
{
	char *end;
	double v = strtod(arg, &end), mul = 1e3;

	if (end == arg || !(v >= 0))
		return -1;
	if (!strcmp(end, "ns"))
		mul = 1;
	else if (!strcmp(end, "us") || !*end)
		mul = 1e3;
	else if (!strcmp(end, "ms"))
		mul = 1e6;
	else if (!strcmp(end, "s"))
		mul = 1e9;
	else
		return -1;
	if (v * mul > 1e18)
		return -1;
	*ns = (uint64_t)(v * mul);
	return 0;
}

int offcpu_opt_block(const struct option_def *opt, const char *arg)
{
	uint64_t ns;

	if (parse_block_time(arg, &ns)) {
		error("bad --%s '%s'", opt->long_name, arg);
		hint("microseconds (as bcc's offcputime -m/-M), or with a unit: 500us, 2ms, 1s");
		return -1;
	}
	*(uint64_t *)opt->value = ns;
	return 0;
}

/* ---- options shared with prism trace (record-opts.h) ---- */

struct prism_evspecs *record_specs;

int record_opt_event(const struct option_def *opt, const char *arg)
{
	(void)opt;
	/* PRISM_SYSFS: another sysfs root (tests give a fake intel_pt) */
	if (prism_pt__names_intel_pt(arg) && !prism_pt__pmu_present(getenv("PRISM_SYSFS")))
		exit(record_pt_refusal(arg));
	if (!record_specs) {
		record_specs = prism_evspecs__new();
		if (!record_specs)
			return error("out of memory");
	}
	if (prism_evspecs__parse(record_specs, arg)) {
		error("%s", prism_evspecs__error(record_specs));
		hint("'prism list' shows the available events");
		return -1;
	}
	return 0;
}

int record_opt_filter(const struct option_def *opt, const char *arg)
{
	(void)opt;
	if (!record_specs || prism_evspecs__nr(record_specs) == 0)
		return error("--filter must follow the -e it applies to");
	if (prism_evspecs__set_filter(record_specs, arg)) {
		error("%s", prism_evspecs__error(record_specs));
		return -1;
	}
	return 0;
}

static struct prism_record_opts *cur_opts;
static bool no_bid_cache; /* -N */

static int opt_callgraph(const struct option_def *opt, const char *arg)
{
	struct prism_record_opts *o = cur_opts;
	char *end;

	(void)opt;
	if (!strcmp(arg, "fp")) {
		o->callgraph = PRISM_CALLGRAPH_FP;
		return 0;
	}
	if (!strncmp(arg, "dwarf", 5) && (arg[5] == 0 || arg[5] == ',')) {
		o->callgraph = PRISM_CALLGRAPH_DWARF;
		if (arg[5] == ',') {
			unsigned long v = strtoul(arg + 6, &end, 0);

			if (*end || !v || v > 65528 || v % 8) {
				error("bad dwarf stack size '%s'", arg + 6);
				hint("a multiple of 8 up to 65528, e.g. --call-graph dwarf,8192");
				return -1;
			}
			o->dwarf_stack_size = (uint32_t)v;
		}
		return 0;
	}
	error("unknown call-graph mode '%s'", arg);
	hint("use fp (frame pointers) or dwarf[,size]");
	return -1;
}

/* one size of -m: pages (a power of two) or a size with a unit; 0 on a bad one */
static size_t mmap_size(const char *arg, size_t len)
{
	char buf[32], *end;
	unsigned long long v;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!len || len >= sizeof(buf))
		return 0;
	memcpy(buf, arg, len);
	buf[len] = 0;
	v = strtoull(buf, &end, 0);
	if (end == buf || (*end && end[1]) || !v)
		return 0;
	switch (*end) {
	case 0: /* pages */
		return v & (v - 1) ? 0 : (size_t)(v * page);
	case 'k':
	case 'K':
		return (size_t)(v << 10);
	case 'm':
	case 'M':
		return (size_t)(v << 20);
	case 'g':
	case 'G':
		return (size_t)(v << 30);
	case 'b':
	case 'B':
		return (size_t)v;
	default:
		return 0;
	}
}

/* -m PAGES[,AUXPAGES], either part may be empty, as perf's */
static int opt_mmap(const struct option_def *opt, const char *arg)
{
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	(void)opt;
	if (n && !(cur_opts->mmap_bytes = mmap_size(arg, n)))
		goto bad;
	if (comma) {
		size_t aux = mmap_size(comma + 1, strlen(comma + 1));

		/* the kernel maps AUX areas of a power of two of pages only */
		if (!aux || aux % page || ((aux / page) & (aux / page - 1))) {
			error("bad AUX area size '%s' in -m %s", comma + 1, arg);
			hint("a power-of-two number of pages (-m ,1024) or such a size (-m ,4M)");
			return -1;
		}
		cur_opts->aux_bytes = aux;
	}
	if (!n && !comma)
		goto bad;
	return 0;
bad:
	error("bad -m value '%s'", arg);
	hint("a power-of-two number of pages (-m 128) or a size (-m 64M, -m 512K); "
	     "AUX area after a comma: -m 128,1024");
	return -1;
}

static bool has_aux(struct prism_evspecs *l)
{
	size_t i;

	for (i = 0; l && i < prism_evspecs__nr(l); i++)
		if (prism_evspecs__get(l, i)->aux)
			return true;
	return false;
}

/* --snapshot[=[e]SIZE]: intel_pt's AUX area in snapshot mode, as perf's -S */
static int opt_snapshot(const struct option_def *opt, const char *arg)
{
	(void)opt;
	cur_opts->aux_snapshot = true;
	if (arg && *arg == 'e') {
		cur_opts->snapshot_on_exit = true;
		arg++;
	}
	if (arg && *arg && !(cur_opts->snapshot_size = mmap_size(arg, strlen(arg)))) {
		error("bad --snapshot size '%s'", arg);
		hint("bytes with a unit (--snapshot=1M), or pages; 'e' first also writes one at "
		     "the end (--snapshot=e1M)");
		return -1;
	}
	return 0;
}

static int opt_clockid(const struct option_def *opt, const char *arg)
{
	static const struct {
		const char *name;
		int id;
	} ids[] = {
		{ "monotonic", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
		{ "mono", CLOCK_MONOTONIC },
		{ "raw", CLOCK_MONOTONIC_RAW },
		{ "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },
	};
	const char *a = arg;
	char *end;
	size_t i;
	long v;

	(void)opt;
	if (!strncasecmp(a, "CLOCK_", 6))
		a += 6;
	for (i = 0; i < PRISM_ARRAY_SIZE(ids); i++) {
		if (!strcasecmp(a, ids[i].name)) {
			cur_opts->use_clockid = true;
			cur_opts->clockid = ids[i].id;
			return 0;
		}
	}
	v = strtol(arg, &end, 0);
	if (end != arg && !*end && v >= 0) {
		cur_opts->use_clockid = true;
		cur_opts->clockid = (int)v;
		return 0;
	}
	error("unknown clock '%s'", arg);
	hint("monotonic, monotonic_raw, realtime, boottime, tai, or a clockid number");
	return -1;
}

static int opt_compress(const struct option_def *opt, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	(void)opt;
	if (end == arg || *end || v < 1 || v > 22) {
		error("bad compression level '%s' (1..22)", arg);
		return -1;
	}
	cur_opts->compress_level = (int)v;
	return 0;
}

static struct prism_offcpu_opts offcpu_opts;
static const char *offcpu_tuned; /* an --off-cpu-* option given (needs --off-cpu=bpf) */
static bool offcpu_kstack, offcpu_uthreads, offcpu_kthreads;

static int opt_offcpu(const struct option_def *opt, const char *arg)
{
	(void)opt;
	if (!strcmp(arg, "bpf")) {
		offcpu_method = OFFCPU_BPF;
		return 0;
	}
	if (!strcmp(arg, "sched")) {
		offcpu_method = OFFCPU_SCHED;
		return 0;
	}
	error("unknown off-CPU method '%s'", arg);
	hint("--off-cpu=bpf (BPF program, the default) or --off-cpu=sched (context switches)");
	return -1;
}

static int opt_offcpu_thresh(const struct option_def *opt, const char *arg)
{
	char *end;
	double ms = strtod(arg, &end);

	(void)opt;
	if (end == arg || *end || !(ms >= 0) || ms > 1e9) {
		error("bad --off-cpu-thresh '%s'", arg);
		hint("milliseconds, e.g. --off-cpu-thresh 500 (0: keep every block one by one)");
		return -1;
	}
	/* 0: every block is at least that long, so every block is kept one by one */
	offcpu_opts.thresh_ns = ms > 0 && ms * 1e6 >= 1 ? (uint64_t)(ms * 1e6) : 1;
	offcpu_tuned = "--off-cpu-thresh";
	return 0;
}

static int opt_offcpu_state(const struct option_def *opt, const char *arg)
{
	(void)opt;
	if (!strcasecmp(arg, "S"))
		offcpu_opts.states = PRISM_OFFCPU_STATE_S;
	else if (!strcasecmp(arg, "D"))
		offcpu_opts.states = PRISM_OFFCPU_STATE_D;
	else if (!strcasecmp(arg, "SD") || !strcasecmp(arg, "S,D"))
		offcpu_opts.states = PRISM_OFFCPU_STATE_S | PRISM_OFFCPU_STATE_D;
	else if (!strcasecmp(arg, "all"))
		offcpu_opts.states = PRISM_OFFCPU_STATE_ALL | PRISM_OFFCPU_STATE_RUNNABLE;
	else {
		error("bad --off-cpu-state '%s'", arg);
		hint("S (interruptible sleep), D (uninterruptible), SD (both, the default) or all "
		     "(also preemption and stopped tasks)");
		return -1;
	}
	offcpu_tuned = "--off-cpu-state";
	return 0;
}

/* the cgroup v2 mount point: /sys/fs/cgroup, or /sys/fs/cgroup/unified on hybrid systems */
static void cgroup2_root(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[256], dir[1024], type[64];

	snprintf(buf, len, "/sys/fs/cgroup");
	while (f && fscanf(f, "%255s %1023s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(buf, len, "%s", dir);
			break;
		}
	}
	if (f)
		fclose(f);
}

static int opt_offcpu_cgroup(const struct option_def *opt, const char *arg)
{
	static char path[4096]; /* offcpu_opts.cgroup */
	char root[1024];
	uint64_t id;
	int err;

	(void)opt;
	cgroup2_root(root, sizeof(root));
	if (arg[0] == '/' && !strncmp(arg, root, strlen(root)))
		snprintf(path, sizeof(path), "%s", arg);
	else
		snprintf(path, sizeof(path), "%s/%s", root, arg[0] == '/' ? arg + 1 : arg);
	/* a cgroup v2 directory has an id */
	err = prism_offcpu_cgroup_id(path, &id);
	if (err) {
		error("cannot use cgroup '%s' (%s): %s", arg, path, strerror(-err));
		hint("give a cgroup v2 directory below %s, e.g. --off-cpu-cgroup system.slice",
		     root);
		return -1;
	}
	offcpu_opts.cgroup = path;
	offcpu_tuned = "--off-cpu-cgroup";
	return 0;
}

static int opt_offcpu_window(const struct option_def *opt, const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 0);

	(void)opt;
	if (end == arg || *end || v > PRISM_OFFCPU_WINDOW_MAX || v % 8) {
		error("bad --off-cpu-window '%s'", arg);
		hint("bytes, a multiple of 8 up to %d; 0 keeps none", PRISM_OFFCPU_WINDOW_MAX);
		return -1;
	}
	offcpu_opts.window_size = (uint32_t)v;
	offcpu_opts.no_window = v == 0;
	offcpu_tuned = "--off-cpu-window";
	return 0;
}

int cmd_record(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism record [<options>] [-- <command> [<args>]]",
		"prism record -e <events> -a [--duration <sec>]",
		NULL,
	};
	struct prism_record_opts o = { .keep_old = true };
	const char *output = NULL;
	bool callchain = false, timestamps = false, util = false;
	struct util_check_rec check;
	const struct option_def opts[] = {
		OPT_GROUP("Events"),
		OPT_BOOL(
			0, "util", &util,
			"record the util preset only (the events 'prism util' analyses, in one "
			"group, with prism util's 64M buffers unless -m is given); no -e or --off-cpu"),
		OPT_CALLBACK(
			'e', "event", NULL, "events",
			"events to record (repeatable, comma lists): cpu-clock, sched:sched_switch, 'sched:*', '{a,b}' groups, pmu/config=../, mem:ADDR[/LEN][:rwx] breakpoints; modifiers as perf's: :u :k :h :G :H :I :p :pp :ppp :P :S :D :e, :W (weak group); default cpu-clock",
			record_opt_event),
		OPT_CALLBACK(
			0, "filter", NULL, "expr",
			"kernel filter for the tracepoints of the preceding -e, e.g. 'prev_pid == 1'; "
			"for intel_pt an address filter, e.g. 'filter 0x401000/0x200@/bin/prog'",
			record_opt_filter),
		OPT_GROUP("Targets"),
		OPT_BOOL('a', "all-cpus", &o.system_wide, "record on every CPU (system-wide)"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpus",
			   "record on these CPUs only, e.g. 0-3,6"),
		OPT_STRING('p', "pid", &o.pid_list, "pids",
			   "record these processes (all their threads)"),
		OPT_STRING('t', "tid", &o.tid_list, "tids", "record these threads"),
		OPT_DOUBLE_POSITIVE(
			0, "duration", &o.duration, "sec",
			"stop after this many seconds (also stops on the command's end, SIGINT, SIGTERM)"),
		OPT_GROUP("Output"),
		OPT_STRING(
			'o', "output", &output, "file",
			"output file (default perf.data; the old one is kept as FILE.old); '-' writes pipe mode to stdout"),
		OPT_CALLBACK_OPTARG('z', "compression-level", NULL, "level",
				    "compress the data with zstd (level 1..22, default 1)",
				    opt_compress, "1"),
		OPT_CALLBACK(
			'm', "mmap-pages", NULL, "pages|size",
			"ring buffer per CPU: pages (power of two) or a size like 64M (default 128M shared by the CPUs, 2M..32M each; 512K unprivileged); ',AUXPAGES' sizes intel_pt's AUX area (default 4M as root, 128K otherwise)",
			opt_mmap),
		OPT_BOOL(0, "kcore", &o.kcore,
			 "write a directory: OUTPUT/data the perf.data and OUTPUT/kcore_dir a copy "
			 "of the kernel's code from /proc/kcore with kallsyms and modules, as perf "
			 "record --kcore (for decoding kernel code later; root)"),
		OPT_CALLBACK_OPTARG(
			'S', "snapshot", NULL, "[e]size",
			"intel_pt in snapshot mode: the trace overwrites its AUX area and SIGUSR2 "
			"writes what it holds (at most size bytes); 'e': also at the end",
			opt_snapshot, ""),
		OPT_BOOL(0, "no-buildid", &o.no_buildid,
			 "do not collect build ids of the sampled DSOs"),
		OPT_BOOL('N', "no-buildid-cache", &no_bid_cache,
			 "do not copy kallsyms and the sampled binaries into ~/.debug (perf's "
			 "build-id cache, which report and archive read)"),
		OPT_GROUP("Sampling"),
		OPT_U64_POSITIVE('F', "freq", &o.freq, "hz",
				 "sample at this frequency (default 4000)"),
		OPT_U64_POSITIVE('c', "count", &o.period, "n",
				 "sample every n events (fixed period)"),
		OPT_BOOL('g', NULL, &callchain, "record call chains (frame pointers)"),
		OPT_CALLBACK(
			0, "call-graph", NULL, "fp|dwarf[,size]",
			"call chains by frame pointers, or by copying the user stack (default 8192 bytes) with the registers for DWARF unwinding (implies -d, as perf)",
			opt_callgraph),
		OPT_BOOL(0, "sample-cpu", &o.sample_cpu, "record the CPU of each sample"),
		OPT_BOOL('T', "timestamp", &timestamps,
			 "record sample timestamps (always on: prism orders by time)"),
		OPT_BOOL('d', "data", &o.data_addr, "record data addresses and data mmaps"),
		OPT_BOOL(0, "switch-events", &o.switch_events, "record context switch records"),
		OPT_CALLBACK(
			'k', "clockid", NULL, "clock",
			"timestamps from this clock: monotonic, monotonic_raw, realtime, boottime, tai",
			opt_clockid),
		OPT_BOOL(0, "namespaces", &o.namespaces, "record namespace records of new tasks"),
		OPT_BOOL(0, "all-cgroups", &o.all_cgroups,
			 "record the cgroup of each sample and CGROUP records"),
		OPT_GROUP("Off-CPU time"),
		OPT_CALLBACK_OPTARG(
			0, "off-cpu", NULL, "bpf|sched",
			"record where tasks block and for how long, as 'offcpu-time' samples "
			"(period = ns; read with 'prism offcpu' or perf report). bpf (default): a BPF "
			"program on sched_switch (root, kernel BTF, prism built with libbpf); sched: "
			"the context-switches event with call chains plus switch records, intervals "
			"computed by 'prism offcpu'. Without -e only off-CPU time is recorded",
			opt_offcpu, "bpf"),
		OPT_CALLBACK(
			0, "off-cpu-thresh", NULL, "ms",
			"bpf: blocks at least this long are written one by one, with their start "
			"time, instead of summed per stack (default 500; 0: every block)",
			opt_offcpu_thresh),
		OPT_CALLBACK(0, "off-cpu-state", NULL, "S|D|SD|all",
			     "bpf: which blocks to count: S interruptible sleep, D "
			     "uninterruptible, SD both (default), all (also preemptions)",
			     opt_offcpu_state),
		OPT_CALLBACK(0, "off-cpu-cgroup", NULL, "cgroup",
			     "bpf: only tasks in this cgroup v2 (or below it), a path below the "
			     "cgroup2 mount, e.g. system.slice",
			     opt_offcpu_cgroup),
		OPT_CALLBACK(0, "min-block", &offcpu_opts.min_ns, "time",
			     "bpf: leave out blocks shorter than this (µs, or 2ms, 1s...; counted)",
			     offcpu_opt_block),
		OPT_CALLBACK(0, "max-block", &offcpu_opts.max_ns, "time",
			     "bpf: leave out blocks longer than this (µs, or 2ms, 1s...; counted)",
			     offcpu_opt_block),
		OPT_BOOL(0, "user-threads-only", &offcpu_uthreads,
			 "bpf: only user threads (the default)"),
		OPT_BOOL(0, "kernel-threads-only", &offcpu_kthreads,
			 "bpf: only kernel threads (with their kernel stacks)"),
		OPT_CALLBACK(
			0, "off-cpu-window", NULL, "bytes",
			"bpf: user stack kept at sp with each block (default 64, up to 128; 0: "
			"none), where prism offcpu finds the caller that a frame-pointer stack "
			"skips above a function without frame pointers (libc's)",
			opt_offcpu_window),
		OPT_BOOL(0, "off-cpu-kernel-stack", &offcpu_kstack,
			 "also collect the kernel stack of each block (where in the kernel it "
			 "waited); off by default (perf's --off-cpu has none): it costs more per "
			 "context switch than the user stack"),
		OPT_BOOL(
			0, "include-self", &o.include_self,
			"also trace prism itself (excluded by default, so it never records its own writes)"),
		OPT_END(),
	};
	const char **cmdline;
	int ret, i, workload;
	char bid_dir[PATH_MAX];

	/* CMDLINE feature: "prism record ..." as typed (argv[0] becomes prism's path) */
	cmdline = xcalloc((size_t)argc + 2, sizeof(*cmdline));
	cmdline[0] = "prism";
	for (i = 0; i < argc; i++)
		cmdline[i + 1] = argv[i];
	o.cmdline_argc = argc + 1;
	o.cmdline_argv = cmdline;
	cur_opts = &o;
	/* PRISM_SYSFS: read the PMUs from another sysfs root (tests give a fake intel_pt) */
	if (getenv("PRISM_SYSFS") && prism_pmu_set_sysfs(getenv("PRISM_SYSFS"))) {
		free(cmdline);
		return error("PRISM_SYSFS is too long"), 1;
	}
	no_bid_cache = false;
	offcpu_method = OFFCPU_NONE;
	offcpu_tuned = NULL;
	offcpu_kstack = offcpu_uthreads = offcpu_kthreads = false;
	memset(&offcpu_opts, 0, sizeof(offcpu_opts));
	offcpu_opts.thresh_ns = 500000000ull;
	argc = parse_options(argc, argv, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc)
		o.argv = argv;
	if ((o.aux_snapshot || o.aux_bytes) && !has_aux(record_specs))
		usage_error(usage, opts, "%s applies to intel_pt events only (-e intel_pt//)",
			    o.aux_snapshot ? "--snapshot" : "-m ,AUXPAGES");
	if (!o.argv && !o.system_wide && !o.cpu_list && !o.pid_list && !o.tid_list)
		usage_error(usage, opts,
			    "nothing to record: give a command (after --), -a, -C, -p or -t");
	if (callchain && o.callgraph == PRISM_CALLGRAPH_NONE)
		o.callgraph = PRISM_CALLGRAPH_FP;
	/*
	 * DWARF call chains imply -d, as in perf record: perf's unwinder needs
	 * the MMAP records of the data mappings ([stack] among them) to unwind
	 */
	if (o.callgraph == PRISM_CALLGRAPH_DWARF)
		o.data_addr = true;
	if (offcpu_kstack && offcpu_method == OFFCPU_NONE)
		usage_error(usage, opts, "--off-cpu-kernel-stack applies to --off-cpu only");
	sched_kstack = offcpu_method == OFFCPU_SCHED && offcpu_kstack;
	if (offcpu_opts.min_ns)
		offcpu_tuned = "--min-block";
	if (offcpu_opts.max_ns)
		offcpu_tuned = "--max-block";
	if (offcpu_opts.max_ns && offcpu_opts.max_ns < offcpu_opts.min_ns)
		usage_error(usage, opts, "--max-block is shorter than --min-block");
	if (offcpu_uthreads && offcpu_kthreads)
		usage_error(usage, opts,
			    "--user-threads-only and --kernel-threads-only exclude each other");
	if (offcpu_uthreads)
		offcpu_tuned = "--user-threads-only";
	if (offcpu_kthreads) {
		offcpu_tuned = "--kernel-threads-only";
		offcpu_opts.kernel_threads_only = true;
		offcpu_kstack = true; /* a kernel thread's stack is its kernel one */
	}
	offcpu_opts.no_kernel_stack = !offcpu_kstack;
	if (offcpu_tuned && offcpu_method != OFFCPU_BPF)
		usage_error(usage, opts, "%s applies to --off-cpu=bpf only", offcpu_tuned);
	if (offcpu_method == OFFCPU_BPF) {
		o.offcpu = &offcpu_opts;
		/* the BPF program copies the stacks itself: the dummy event needs no copy */
		if (o.callgraph == PRISM_CALLGRAPH_DWARF) {
			offcpu_opts.dwarf_size = o.dwarf_stack_size ? o.dwarf_stack_size : 8192;
			if (!o.events)
				o.callgraph = PRISM_CALLGRAPH_NONE;
		}
	} else if (offcpu_method == OFFCPU_SCHED) {
		/* the interval of each switch-out is charged to its stack */
		o.switch_events = true;
		if (o.callgraph == PRISM_CALLGRAPH_NONE)
			o.callgraph = PRISM_CALLGRAPH_FP;
	}
	if (util) {
		if (record_specs || offcpu_method != OFFCPU_NONE)
			usage_error(usage, opts,
				    "--util records the util preset only: drop -e/--off-cpu");
		ret = util_preset_events(&record_specs);
		if (ret) {
			free(cmdline);
			return ret;
		}
		util_preset_opts(&o);
	}
	o.events = record_specs;
	o.output = output;
	/* --kcore from a stand-in for /proc (a machine without /proc/kcore: tests) */
	o.kcore_proc = getenv("PRISM_KCORE_PROC");
	/* the kernel's accounting, for prism util -i to check its report against */
	if (util)
		util_check_arm(&check, &o);
	if (!no_bid_cache && !o.no_buildid && getenv("HOME") && *getenv("HOME")) {
		snprintf(bid_dir, sizeof(bid_dir), "%s/.debug", getenv("HOME"));
		o.buildid_cache = bid_dir;
	}
	ret = record_run_status(&o, true, &workload);
	if (util)
		util_check_release(&check);
	if (!ret && workload) /* the file is good: exit as the workload did, as perf does */
		ret = workload;
	offcpu_method = OFFCPU_NONE;
	free(cmdline);
	prism_evspecs__free(record_specs);
	record_specs = NULL;
	return ret;
}
