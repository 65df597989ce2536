/* SPDX-License-Identifier: MIT */
/*
 * prism stat: what the printer (cmd/stat-print.c) needs from the command.
 */
#ifndef PRISM_CMD_STAT_H
#define PRISM_CMD_STAT_H

#include <stdbool.h>
#include <stdio.h>

#include <prism/stat.h>

struct stat_print {
	FILE *out;
	const char *sep; /* -x; NULL for perf's columns */
	bool json; /* -j */
	bool big_num; /* thousands' separators of the locale (not with -x) */
	enum prism_stat_aggr mode;
	int runs; /* -r: runs taken in (noise shown when > 1) */
	const struct prism_stat_runs *noise; /* -r, or NULL */
	double elapsed_ns; /* wall time (interval length with -I) for "CPUs utilized" */
	bool interval; /* -I: lines start with the time */
	double ts; /* seconds since the start, with -I */
	bool null_run; /* -n: no counters, only the times */
	bool csv_summary; /* -x lines of --summary start with a "summary" column */
	int nr_printed; /* interval headers are repeated every 25 intervals */
};

/* the counts of @r, one line per (unit, event), perf stat's layout */
void stat_print_counts(struct stat_print *p, const struct prism_stat *s,
		       const struct prism_stat_result *r);
/* "\n Performance counter stats for '...':\n\n" (perf's columns only) */
void stat_print_header(const struct stat_print *p, const char *target, int runs);
/* the elapsed time (± stddev), user and sys */
void stat_print_footer(const struct stat_print *p, const struct prism_stat_running *elapsed,
		       bool rusage, double user_s, double sys_s);

#endif /* PRISM_CMD_STAT_H */
