/* SPDX-License-Identifier: MIT */
/*
 * Shared declarations of the command layer: the command entry points,
 * message helpers (git style: "error: ..." then "hint: ..." lines) and
 * allocation wrappers that exit on OOM (CLI only; lib/ returns -ENOMEM).
 */
#ifndef PRISM_CMD_H
#define PRISM_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define EXIT_USAGE 129

/* global options */
extern int verbose;
extern bool quiet;
extern bool use_color_stdout;
extern bool use_color_stderr;

/*
 * Find tracefs (mounting it as root), or say why not: "@needs tracepoints,
 * and ..." with a hint.  Return: 0, or -1 (said).
 */
int tracefs_setup(const char *needs);
/* the same error for prism_tracefs_init()'s @err; returns -1 */
int tracefs_explain(int err, const char *needs);

/* message helpers: error() returns -1 so "return error(...)" reads well */
__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void hint(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void info(const char *fmt, ...);
/* error message for a library error code: "error: <what>: <strerror(err)>" */
__attribute__((format(printf, 2, 3))) int error_errno(int err, const char *fmt, ...);

/* unwind-note.c: the warning about DWARF unwinds that stopped early, if any */
struct prism_symbols;
void warn_unwind_stops(const struct prism_symbols *sy);

/* route lib/ log messages to stderr according to -v/-q */
void setup_library_log(void);

/* parse --color=auto|always|never; 0 or -1 */
int set_color_mode(const char *when);

/*
 * The color perf gives a percentage on stdout (red from 5%, green from
 * 0.5%), "" when stdout has no colors or the value is below that; after the
 * value, COLOR_RESET when the color was not "".
 */
#define PERCENT_RED "\033[31m"
#define PERCENT_GREEN "\033[32m"
#define COLOR_RESET "\033[m"
const char *percent_color(double pct);

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

extern const struct cmd_struct commands[];
extern const size_t nr_commands;
const struct cmd_struct *find_command(const char *name);
/* print the list of commands (prism --help) */
void list_commands(FILE *fp);

/* command entry points: argv[0] is the command name; return the exit code */
int cmd_help(int argc, const char **argv);
int cmd_version(int argc, const char **argv);
int cmd_stats(int argc, const char **argv);
struct prism_session;
/*
 * stats.c: perf's "Aggregated stats" block of a processed session; @lost:
 * with each event's lost samples, as perf report --stats (not perf report -D)
 */
void stats_print_perf(struct prism_session *s, bool lost);
int cmd_header(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
int cmd_util(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_offcpu(int argc, const char **argv);
int cmd_archive(int argc, const char **argv);
int cmd_annotate(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_export(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_sched(int argc, const char **argv);

#endif /* PRISM_CMD_H */
