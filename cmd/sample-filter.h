/* SPDX-License-Identifier: MIT */
/*
 * perf script's sample filters (cmd/sample-filter.c): -C/--cpu, --pid,
 * --tid, -c/--comms, -S/--symbols, --dsos and --time with perf 6.1's
 * syntax and meaning; the --time parsing report and util use too.
 */
#ifndef PRISM_CMD_SAMPLE_FILTER_H
#define PRISM_CMD_SAMPLE_FILTER_H

#include <prism/time-filter.h>

#include "lists.h"

struct prism_session;
struct prism_tasks;
struct prism_symbols;
struct prism_event;
struct prism_pt_item;

struct sample_filter {
	/* the options' strings */
	const char *cpu_list, *pid_list, *tid_list, *comm_list, *sym_list, *dso_list, *time_str;
	/* parsed */
	bool *cpus; /* by CPU number, nr_cpus of them; NULL: every CPU */
	size_t nr_cpus;
	uint32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	struct strlist comms, syms, dsos;
	uint64_t *addrs; /* the -S entries that are hex numbers: sample addresses */
	size_t nr_addrs;
	int addr_range; /* --addr-range: each address starts a range this long */
	struct prism_time_filter time;
	bool on; /* any filter given */
	/* what a sample is matched against (set by the command) */
	struct prism_tasks *tasks;
	struct prism_symbols *sy;
};

#define OPT_SAMPLE_FILTERS(sf)                                                                  \
	OPT_STRING('C', "cpu", &(sf)->cpu_list, "cpus",                                         \
		   "only samples (and --show-*-events records) of these CPUs: 0-3,6"),          \
		OPT_STRING(0, "pid", &(sf)->pid_list, "pids",                                   \
			   "only samples of these process ids (comma-separated)"),              \
		OPT_STRING(0, "tid", &(sf)->tid_list, "tids",                                   \
			   "only samples of these thread ids (comma-separated)"),               \
		OPT_STRING('c', "comms", &(sf)->comm_list, "names",                             \
			   "only samples of tasks with these command names (comma-separated)"), \
		OPT_STRING('S', "symbols", &(sf)->sym_list, "names",                            \
			   "only samples whose address is in these functions (comma-separated " \
			   "names), or is one of these addresses (hex: 0x7f12a3c0)"),           \
		OPT_INT(0, "addr-range", &(sf)->addr_range, "n",                                \
			"with -S: an address stands for the N bytes from it"),                  \
		OPT_STRING(0, "dsos", &(sf)->dso_list, "names",                                 \
			   "only samples whose address is in these DSOs (short names as "       \
			   "libc.so.6 or [kernel.kallsyms], or paths)"),                        \
		OPT_STRING(0, "time", &(sf)->time_str, "start,end",                             \
			   "only samples in this window, in seconds as perf script prints "     \
			   "times (ns precision, either side may be empty); several windows "   \
			   "separated by blanks; or percents of the file's span: 10%/2 (the "   \
			   "2nd tenth), 0%-10%, several comma-separated")

/*
 * The lists' syntax; @refuse: the option that takes no filters, or NULL.
 * Return: 0, or -1 after printing which option and value are wrong.
 */
int sample_filter_parse(struct sample_filter *sf, const char *refuse);
/*
 * What needs the file: percents of its time span, CPUs it has.  Return:
 * 0, or the exit status after printing the error (EXIT_USAGE for a bad
 * percent, 1 for CPUs the file has not).
 */
int sample_filter_open(struct sample_filter *sf, struct prism_session *s, const char *input);
/* -S and --dsos resolve the samples' addresses */
bool sample_filter_needs_symbols(const struct sample_filter *sf);
void sample_filter_release(struct sample_filter *sf);

/* whether perf leaves out a sample (@cpu (uint32_t)-1: unknown) */
bool sample_filter_skip(const struct sample_filter *sf, uint32_t pid, uint32_t tid, uint32_t cpu,
			uint64_t time, uint8_t cpumode, uint64_t ip);
/* ... a sample record (its sample_type says what it has) */
bool sample_filter_skip_event(const struct sample_filter *sf, const struct prism_event *ev);
/* ... a shown record (--show-*-events) of @evsel: perf filters them by CPU only */
struct prism_evsel;
bool sample_filter_skip_record(const struct sample_filter *sf, const struct prism_evsel *evsel,
			       const struct prism_event *ev);
/* --itrace: the filter of the synthesized samples (NULL: none), asked by cmd/script-pt.c */
void sample_filter_for_pt(const struct sample_filter *sf);
/*
 * whether perf prints @it; then pf->it is what to print (@it, or with
 * perf's period after a --time gap) and pf->cbr, when not NULL, what to
 * print before it (perf's CBR event at a --time window's start)
 */
#include <prism/pt.h>
struct pt_filtered {
	const struct prism_pt_item *it, *cbr;
	struct prism_pt_item adj, cbr_item;
};
bool sample_filter_pt(const struct prism_pt_item *it, struct pt_filtered *pf);

/*
 * --time @str (@opt: the option's name) into @tf; @s gives the file's span
 * for the percent forms (NULL: not allowed).  Return: 0, or -1 after
 * printing the error.
 */
int opt_time_filter(const char *opt, const char *str, struct prism_session *s,
		    struct prism_time_filter *tf);

#endif /* PRISM_CMD_SAMPLE_FILTER_H */
