/* SPDX-License-Identifier: MIT */
/*
 * prism export: the formats' entry points (one cmd/export-<fmt>.c each) and
 * what they share: the output file written under a temporary name and
 * renamed at the end, and the symbolized sample reader of the profile
 * formats.
 */
#ifndef PRISM_CMD_EXPORT_H
#define PRISM_CMD_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <prism/export-sample.h>
#include <prism/session.h>

#include "input.h"

/* argv[0] is the format name; return the exit code */
int export_pprof(int argc, const char **argv);
int export_speedscope(int argc, const char **argv);
int export_perfetto(int argc, const char **argv);
int export_sqlite(int argc, const char **argv);
int export_postgresql(int argc, const char **argv);
/* the wall-clock time (ns since the epoch) of records' time @t, from CLOCK_DATA; 0 if unknown */
struct export_reader;
int64_t export_wall_time(struct export_reader *r, uint64_t t);

/*
 * The output: "-" is standard output; a path is written as a temporary file
 * in the same directory, renamed over @path by export_out_commit() and
 * removed by export_out_abort(), so a failed export leaves nothing behind.
 */
struct export_out {
	const char *path;
	char *tmp;
	FILE *fp;
};
/* 0, or -1 after saying why */
int export_out_open(struct export_out *o, const char *path);
/* close and rename; 0, or -1 after saying why (the temporary file is removed) */
int export_out_commit(struct export_out *o);
void export_out_abort(struct export_out *o); /* accepts a closed or unopened @o */
/* "12.3 MB" */
void export_format_bytes(uint64_t n, char *buf, size_t size);

/* the symbolized samples of a file, for the profile formats */
struct export_reader_opts {
	const char *input;
	bool force;
	const char *event; /* NULL: the first event that has samples */
	const char *symfs, *kallsyms;
	bool no_inline, inlines;
	/* decode the Intel PT trace (perf's --itrace options): its samples instead */
	const char *itrace;
	const char *kcore, *vmlinux; /* the kernel's code for it */
};

struct export_event_info {
	const char *name; /* the event's name */
	bool offcpu; /* offcpu-time: periods are off-CPU ns */
	bool time_based; /* cpu-clock / task-clock: periods are ns */
	uint64_t period, freq; /* attr.sample_period or sample_freq */
};

struct export_reader;
struct export_reader_stats;
/*
 * @begin is called once, before the first sample of the chosen event;
 * @sample for each sample of it.  Both return 0 or -errno (stops the read).
 * @end is called once the whole file was read without error.
 */
struct export_sink_ops {
	int (*begin)(void *ctx, struct export_reader *r, const struct export_event_info *ev);
	int (*sample)(void *ctx, const struct prism_export_sample *s);
	/* after the last sample, symbols still loaded; 0 or -1 (said) */
	int (*end)(void *ctx, struct export_reader *r, const struct export_reader_stats *st);
	/* free the format's writer (after success or failure, before the commit) */
	void (*release)(void *ctx);
};

struct export_reader_stats {
	uint64_t samples, other_samples;
	uint64_t first_time, last_time;
	char event[128]; /* the exported event's name */
};

/*
 * Read the file, symbolize every sample of the chosen event and hand it on.
 * Prints errors (with hints) itself.  Return: 0, 1 on failure.
 */
int export_read(const struct export_reader_opts *o, const struct export_sink_ops *ops, void *ctx,
		struct export_reader_stats *st);
struct prism_symbols *export_reader_symbols(struct export_reader *r);

/* what every profile format has: options, output and the read's counts */
struct export_profile {
	struct export_reader_opts ro;
	const char *output;
	struct export_out out;
	struct export_reader_stats st;
};
struct option_def;
/*
 * A profile format's run: parse @opts (which hold @x's options too), open
 * the output, read with @ops, then commit the output or remove it.
 * Return: 0 (the caller says what it wrote), or 1 after an error was said.
 */
int export_profile_run(struct export_profile *x, int argc, const char **argv,
		       const char *const *usage, const struct option_def *opts,
		       const struct export_sink_ops *ops, void *ctx);
/* the note on samples of other events left out, if any */
void export_profile_note(const struct export_profile *x);

#define OPT_EXPORT_READER(x)                                                                      \
	OPT_STRING('e', "event", &(x)->event, "name",                                             \
		   "export the samples of this event (default: the first event with samples)"),   \
		OPT_BOOL(0, "inline", &(x)->inlines,                                              \
			 "expand every frame into its inlined functions (default: frames from "   \
			 "DWARF unwinding, as perf report)"),                                     \
		OPT_BOOL(0, "no-inline", &(x)->no_inline, "never expand inlined functions"),      \
		OPT_STRING(0, "symfs", &(x)->symfs, "dir",                                        \
			   "look for binaries under this directory"),                             \
		OPT_STRING(0, "kallsyms", &(x)->kallsyms, "file",                                 \
			   "kernel symbols from this file instead of /proc/kallsyms"),            \
		OPT_STRING(0, "itrace", &(x)->itrace, "opts",                                     \
			   "export the samples synthesized from the Intel PT trace: i[PERIOD] "   \
			   "instructions, b branches, c calls, r returns, g call chains (perf's " \
			   "--itrace; -e branches:uH or instructions:uH picks one)"),             \
		OPT_KERNEL_CODE(&(x)->kcore, &(x)->vmlinux)

#endif /* PRISM_CMD_EXPORT_H */
