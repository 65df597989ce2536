// SPDX-License-Identifier: MIT
/*
 * prism sched: perf sched's analyses of a scheduler trace (timehist,
 * latency, map) in perf's layouts, and the recording of perf sched's
 * event set (record).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/features.h>
#include <prism/sched.h>
#include <prism/session.h>
#include <prism/tracefs.h>

#include "cmd.h"
#include "input.h"
#include "options.h"
#include "linebuf.h"
#include "sched.h"

#define COLOR_BLUE "\033[34m"
#define COLOR_BG_RED "\033[41m"

uint32_t sched_nr_cpus_online(struct prism_session *s)
{
	const struct prism_features *f = prism_session__features(s);
	const struct prism_feat_nrcpus *n = f ? prism_features__nrcpus(f) : NULL;

	return n ? n->nr_cpus_online : 0;
}

/* the lines perf adds under the table when the trace had trouble */
static void bad_events(const struct prism_sched_lat_stats *st)
{
	if (st->nr_unordered && st->nr_timestamps)
		printf("  INFO: %.3f%% unordered timestamps (%" PRIu64 " out of %" PRIu64 ")\n",
		       (double)st->nr_unordered / (double)st->nr_timestamps * 100.0,
		       st->nr_unordered, st->nr_timestamps);
	if (st->nr_lost && st->nr_events)
		printf("  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64 ", in %" PRIu64
		       " chunks)\n",
		       (double)st->nr_lost / (double)st->nr_events * 100.0, st->nr_lost,
		       st->nr_events, st->nr_lost_chunks);
	if (st->nr_cs_bugs && st->nr_timestamps) {
		printf("  INFO: %.3f%% context switch bugs (%" PRIu64 " out of %" PRIu64 ")",
		       (double)st->nr_cs_bugs / (double)st->nr_timestamps * 100.0, st->nr_cs_bugs,
		       st->nr_timestamps);
		if (st->nr_lost)
			printf(" (due to lost events?)");
		printf("\n");
	}
}

/* a session and an analysis fed with it; prints its errors */
static struct prism_sched *run(const char *input, bool force, struct prism_sched_opts *o,
			       const struct prism_sched_ops *ops, void *ctx,
			       struct prism_session **out)
{
	struct prism_session *ss = open_input(input, force, false);
	struct prism_sched *s;
	int err;

	*out = NULL;
	if (!ss)
		return NULL;
	o->nr_cpus_online = sched_nr_cpus_online(ss);
	s = prism_sched__new(o, ops, ctx);
	if (!s) {
		error_errno(errno, "cannot set up the analysis");
		prism_session__free(ss);
		return NULL;
	}
	prism_sched__bind(s, ss);
	if (!prism_session__file_info(ss)->pipe && !prism_sched__has_event(ss, "sched_switch")) {
		warning("no sched_switch events in '%s'", input ? input : "perf.data");
		hint("record them with 'prism sched record' (or perf sched record)");
	}
	err = prism_session__process(ss, prism_sched__tool(), s);
	if (report_process_result(ss, input, err)) {
		prism_sched__free(s);
		prism_session__free(ss);
		return NULL;
	}
	*out = ss;
	return s;
}

static uint64_t all_runtime, all_count;

static int lat_row(void *ctx, const struct prism_sched_lat_row *r)
{
	char start[32], end[32];
	int i, ret;

	(void)ctx;
	all_runtime += r->runtime;
	all_count += r->switches;
	if (r->nr_merged > 1)
		ret = printf("  %s:(%d) ", r->comm, r->nr_merged);
	else
		ret = printf("  %s:%d ", r->comm, r->tid);
	for (i = 0; i < 24 - ret; i++)
		printf(" ");
	sched_tstamp(r->max_start, start, sizeof(start));
	sched_tstamp(r->max_end, end, sizeof(end));
	printf("|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | max "
	       "end: %12s s\n",
	       (double)r->runtime / 1e6, r->switches, (double)r->avg / 1e6, (double)r->max / 1e6,
	       start, end);
	return 0;
}

int sched_latency(int argc, const char **argv, const char *input, bool force)
{
	static const char *const usage[] = { "prism sched latency [<options>]", NULL };
	struct prism_sched_opts o = { .mode = PRISM_SCHED_LATENCY, .profile_cpu = -1 };
	const char *sort = "avg, max, switch, runtime", *bad = NULL;
	bool per_pid = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_STRING(
			's', "sort", &sort, "key[,key2...]",
			"sort by key(s): runtime, switch, avg, max (default avg,max,switch,runtime)"),
		OPT_INT('C', "CPU", &o.profile_cpu, "n",
			"CPU to profile on (wakeups and migrations read as on one CPU)"),
		OPT_BOOL('p', "pids", &per_pid, "latency stats per pid instead of per comm"),
		OPT_END(),
	};
	struct prism_sched_lat_stats st;
	struct prism_session *ss;
	struct prism_sched *s;
	int err;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (prism_sched__check_sort(sort, &bad))
		usage_error(usage, opts, "unknown --sort key: '%s'", bad);
	s = run(input, force, &o, NULL, NULL, &ss);
	if (!s)
		return 1;
	printf("\n ---------------------------------------------------------------------------------"
	       "----------------------------------------------------------\n");
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    "
	       "| Max delay start           | Max delay end          |\n");
	printf(" -----------------------------------------------------------------------------------"
	       "--------------------------------------------------------\n");
	err = prism_sched__latency(s, sort, per_pid, lat_row, NULL, &bad);
	printf(" -----------------------------------------------------------------------------------"
	       "------------------------------\n");
	printf("  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", (double)all_runtime / 1e6,
	       all_count);
	printf(" ---------------------------------------------------\n");
	prism_sched__lat_stats(s, &st);
	bad_events(&st);
	printf("\n");
	prism_sched__free(s);
	prism_session__free(ss);
	return err ? 1 : 0;
}

struct map_ctx {
	uint8_t *color_cpus; /* --color-cpus */
	size_t nr_color_cpus;
	struct prism_strbuf line; /* a row's columns */
};

static int map_row(void *ctx, const struct prism_sched_map_row *r)
{
	struct map_ctx *mc = ctx;
	struct prism_strbuf *sb = &mc->line;
	char *p;
	size_t i;

	/* a column: the CPU's mark, its task's "%2s " (colors: up to 20 bytes more) */
	p = room(sb, 2 + r->nr_cols * 32 + DIGITS_MAX + 32);
	if (!p)
		return -ENOMEM;
	p = put_str(p, "  ", 2);
	for (i = 0; i < r->nr_cols; i++) {
		bool color = use_color_stdout && r->col_color[i];
		uint32_t cpu = (uint32_t)r->col_cpu[i];
		const char *name = r->col_name[i];

		if (cpu != r->this_cpu)
			*p++ = ' ';
		else if (use_color_stdout && cpu < mc->nr_color_cpus && mc->color_cpus[cpu])
			p = put_str(p, COLOR_BG_RED "*" COLOR_RESET,
				    sizeof(COLOR_BG_RED "*" COLOR_RESET) - 1);
		else
			*p++ = '*';
		if (!name) {
			p = put_str(p, "   ", 3);
			continue;
		}
		if (color)
			p = put_str(p, COLOR_BLUE, strlen(COLOR_BLUE));
		p = put_field(p, name, strnlen(name, 2), 2, false, ' ');
		*p++ = ' ';
		if (color)
			p = put_str(p, COLOR_RESET, strlen(COLOR_RESET));
	}
	if (r->shown) {
		p = put_str(p, "  ", 2);
		p = sched_put_tstamp(p, r->time, 12);
		p = put_str(p, " secs ", 6);
	}
	fwrite(sb->buf, 1, (size_t)(p - sb->buf), stdout);
	if (r->shown) {
		if (r->announce) {
			bool color = use_color_stdout && r->task_color;

			printf("%s%s => %s:%d%s", color ? COLOR_BLUE : "", r->name, r->task.comm,
			       r->task.tid, color ? COLOR_RESET : "");
		}
		if (r->new_cpu)
			printf(" (CPU %u)", r->this_cpu);
	}
	printf("\n");
	return 0;
}

int sched_map(int argc, const char **argv, const char *input, bool force)
{
	static const char *const usage[] = { "prism sched map [<options>]", NULL };
	struct prism_sched_opts o = { .mode = PRISM_SCHED_MAP, .profile_cpu = -1 };
	const char *cpus = NULL, *color_pids = NULL, *color_cpus = NULL;
	struct map_ctx mc = { .line = STRBUF_INIT };
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_BOOL(0, "compact", &o.compact, "map output in compact mode"),
		OPT_STRING(
			0, "color-pids", &color_pids, "pids",
			"highlight given pids in map (blue, on a terminal or with --color=always)"),
		OPT_STRING(
			0, "color-cpus", &color_cpus, "cpus",
			"highlight given CPUs in map (red, on a terminal or with --color=always)"),
		OPT_STRING(0, "cpus", &cpus, "cpus", "display given CPUs in map"),
		OPT_END(),
	};
	struct prism_sched_ops ops = { .map = map_row };
	struct prism_sched_lat_stats st;
	struct prism_session *ss;
	struct prism_sched *s;
	int64_t *pv = NULL;
	uint8_t *cv = NULL;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (cpus && sched_parse_cpus(cpus, &cv, &o.nr_cpus))
		usage_error(usage, opts, "invalid --cpus list '%s' (CPU numbers below 4096)", cpus);
	o.cpus = cv;
	if (color_pids && parse_num_list(color_pids, &pv, &o.nr_color_pids))
		usage_error(usage, opts, "invalid --color-pids list '%s'", color_pids);
	o.color_pids = pv;
	if (color_cpus && sched_parse_cpus(color_cpus, &mc.color_cpus, &mc.nr_color_cpus))
		usage_error(usage, opts, "invalid --color-cpus list '%s' (CPU numbers below 4096)",
			    color_cpus);
	/* perf draws a column per CPU of the machine that reads the file */
	o.map_max_cpu = n > 0 ? (uint32_t)n : 1;
	s = run(input, force, &o, &ops, &mc, &ss);
	free(pv);
	free(cv);
	free(mc.color_cpus);
	prism_strbuf_release(&mc.line);
	if (!s)
		return 1;
	prism_sched__lat_stats(s, &st);
	bad_events(&st);
	prism_sched__free(s);
	prism_session__free(ss);
	return 0;
}

int cmd_sched(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism sched [-i <file>] timehist|latency|map [<options>]",
		"prism sched record [<record options>] [-- <command>]",
		NULL,
	};
	const char *input = NULL;
	bool force = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc)
		usage_error(usage, opts,
			    "a subcommand is needed: timehist, latency, map or record");
	if (!strncmp(argv[0], "rec", 3))
		return sched_record(argc, argv);
	if (!strncmp(argv[0], "lat", 3))
		return sched_latency(argc, argv, input, force);
	if (!strcmp(argv[0], "map"))
		return sched_map(argc, argv, input, force);
	if (!strcmp(argv[0], "timehist"))
		return sched_timehist(argc, argv, input, force);
	usage_error(usage, opts, "unknown subcommand '%s'", argv[0]);
}
