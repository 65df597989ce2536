/* SPDX-License-Identifier: MIT */
/*
 * Shared by prism record and prism trace: the -e list being parsed, its
 * option callbacks and the run-and-summarize helper.
 */
#ifndef PRISM_CMD_RECORD_OPTS_H
#define PRISM_CMD_RECORD_OPTS_H

#include <stdbool.h>

struct option_def;
struct prism_evspecs;
struct prism_record_opts;

extern struct prism_evspecs *record_specs;
/* -e and --filter: parse into record_specs (option callbacks) */
int record_opt_event(const struct option_def *opt, const char *arg);
/* -e naming intel_pt on a machine without the PMU: the refusal (cmd/record-pt.c); the exit status */
int record_pt_refusal(const char *events);
int record_opt_filter(const struct option_def *opt, const char *arg);
/* run a recording to the end; prints errors and (if summary) perf's summary line */
int record_run(struct prism_record_opts *o, bool summary);
/*
 * the same with off-CPU time by the BPF method (o->offcpu set): prism
 * offcpu's one-step mode
 */
int record_run_offcpu(struct prism_record_opts *o, bool summary);
/* --min-block/--max-block: a time (µs by default) into the uint64_t ns at opt->value */
int offcpu_opt_block(const struct option_def *opt, const char *arg);
/* "500" (µs), or with a unit: 2ms, 1.5s, 300us, 100ns; -1 for anything else */
int parse_block_time(const char *arg, uint64_t *ns);

#endif /* PRISM_CMD_RECORD_OPTS_H */
