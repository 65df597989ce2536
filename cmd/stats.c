// SPDX-License-Identifier: MIT
/*
 * prism stats: records per type, samples per event, losses, time span and
 * sizes of a perf.data file (like perf report --stats, plus readperf's
 * stat.csv with --csv).
 */
#include <inttypes.h>
#include <stdio.h>

#include <prism/session.h>

#include "cmd.h"
#include "input.h"
#include "options.h"

void stats_print_perf(struct prism_session *s, bool lost)
{
	const struct prism_session_stats *st = prism_session__stats(s);
	uint32_t t;
	size_t i;

	printf("Aggregated stats:\n");
	printf("%16s events: %10" PRIu64 "\n", "TOTAL", st->nr_records_total);
	for (t = 1; t < PRISM_RECORD_TYPE_MAX; t++) {
		if (!st->nr_records[t])
			continue;
		printf("%16s events: %10" PRIu64 "  (%4.1f%%)\n", prism_record_type_name(t),
		       st->nr_records[t],
		       100.0 * (double)st->nr_records[t] / (double)st->nr_records_total);
	}
	if (st->nr_unknown)
		printf("%16s events: %10" PRIu64 "\n", "UNKNOWN", st->nr_unknown);
	for (i = 0; i < prism_session__nr_evsels(s); i++) {
		struct prism_evsel *evsel = prism_session__evsel(s, i);

		if (!prism_evsel__nr_samples(evsel) &&
		    !(lost && prism_evsel__nr_lost_samples(evsel)))
			continue;
		printf("%s stats:\n", prism_evsel__name(evsel));
		if (prism_evsel__nr_samples(evsel))
			printf("%16s events: %10" PRIu64 "\n", "SAMPLE",
			       prism_evsel__nr_samples(evsel));
		/* perf report --stats: the samples its LOST_SAMPLES records say were lost */
		if (lost && prism_evsel__nr_lost_samples(evsel))
			printf("%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
			       prism_evsel__nr_lost_samples(evsel));
	}
}

static void print_summary(struct prism_session *s)
{
	const struct prism_session_stats *st = prism_session__stats(s);
	const struct prism_file_info *fi = prism_session__file_info(s);
	uint64_t malformed = 0;
	uint32_t t;

	printf("\nSummary:\n");
	printf("  file format       : %s%s\n", fi->pipe ? "pipe" : "file",
	       fi->needs_swap ? ", opposite byte order" : "");
	if (fi->dir)
		printf("  data files        : %u (directory format, %" PRIu64 " bytes)\n",
		       fi->nr_data_files, fi->dir_data_size);
	printf("  data size         : %" PRIu64 " bytes\n", st->data_bytes);
	if (st->compressed_bytes)
		printf("  compressed        : %" PRIu64 " bytes -> %" PRIu64
		       " bytes (ratio %.1f)\n",
		       st->compressed_bytes, st->decompressed_bytes,
		       (double)st->decompressed_bytes / (double)st->compressed_bytes);
	if (st->last_time)
		printf("  time span         : %" PRIu64 ".%09" PRIu64 " .. %" PRIu64 ".%09" PRIu64
		       " (%.6f s)\n",
		       st->first_time / 1000000000, st->first_time % 1000000000,
		       st->last_time / 1000000000, st->last_time % 1000000000,
		       (double)(st->last_time - st->first_time) / 1e9);
	printf("  lost events       : %" PRIu64 " (in %" PRIu64 " LOST records)\n", st->total_lost,
	       st->nr_records[PERF_RECORD_LOST]);
	printf("  lost samples      : %" PRIu64 " (in %" PRIu64 " LOST_SAMPLES records)\n",
	       st->total_lost_samples, st->nr_records[PERF_RECORD_LOST_SAMPLES]);
	printf("  out of order      : %" PRIu64 "\n", st->nr_out_of_order);
	printf("  unknown types     : %" PRIu64 "\n", st->nr_unknown);
	for (t = 0; t < PRISM_RECORD_TYPE_MAX; t++)
		malformed += st->nr_malformed[t];
	if (malformed)
		printf("  malformed records : %" PRIu64 " (skipped)\n", malformed);
	if (st->nr_unknown_id)
		printf("  unknown event ids : %" PRIu64 " samples\n", st->nr_unknown_id);
}

/* readperf's stat.csv: one row per record type present */
static void print_csv(struct prism_session *s)
{
	const struct prism_session_stats *st = prism_session__stats(s);
	uint32_t t;

	printf("type,name,count\n");
	for (t = 1; t < PRISM_RECORD_TYPE_MAX; t++)
		if (st->nr_records[t])
			printf("%u,%s,%" PRIu64 "\n", t, prism_record_type_name(t),
			       st->nr_records[t]);
	if (st->nr_unknown)
		printf(",UNKNOWN,%" PRIu64 "\n", st->nr_unknown);
}

int cmd_stats(int argc, const char **argv)
{
	static const char *const usage[] = { "prism stats [-i <file>] [--csv]", NULL };
	const char *input = NULL;
	bool force = false, csv = false, no_summary = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_BOOL(0, "csv", &csv, "print records per type as CSV (readperf's stat.csv)"),
		OPT_BOOL(0, "no-summary", &no_summary,
			 "print only perf's 'Aggregated stats' block (as perf report --stats)"),
		OPT_END(),
	};
	/* no callbacks: the session counts, and need not decode what nobody reads */
	const struct prism_tool tool = { 0 };
	struct prism_session *s;
	int err;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	s = open_input(input, force, true);
	if (!s)
		return 1;
	err = prism_session__process(s, &tool, NULL);
	if (csv)
		print_csv(s);
	else {
		stats_print_perf(s, false);
		if (!no_summary)
			print_summary(s);
	}
	err = report_process_result(s, input, err);
	prism_session__free(s);
	return err ? 1 : 0;
}
