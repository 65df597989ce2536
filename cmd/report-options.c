// SPDX-License-Identifier: MIT
/*
 * prism report's options: the table (its --help, man page and completion)
 * and the checks between them before the file is opened.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/annotate.h>
#include <prism/pt.h>

#include "cmd.h"
#include "input.h"
#include "options.h"
#include "report.h"
#include "sample-filter.h"

/* perf: two words, local or global and period or hits, either first */
static int opt_percent_type(const struct option_def *opt, const char *arg)
{
	if (prism_percent_type__parse(arg) >= 0) {
		*(const char **)opt->value = arg;
		return 0;
	}
	error("--percent-type: '%s' is not a percent type", arg);
	hint("global-period (the default), local-period, global-hits, local-hits");
	return -1;
}

const char *const report_usage[] = {
	"prism report [-i <file>] [--sort <keys>] [-g <graph|flat|folded,caller|callee,...>] "
	"[<filters>]",
	"prism report --folded | --flamegraph <file.svg> | --csv-dir <dir>",
	NULL,
};

int report_parse_options(struct report *r, int argc, const char **argv, struct prism_itrace *it)
{
	const struct option_def opts[] = {
		OPT_INPUT(&r->input),
		OPT_FORCE(&r->force),
		OPT_GROUP("Rows"),
		OPT_STRING(
			's', "sort", &r->sort, "keys",
			"group rows by these comma-separated keys, as perf: comm, pid (a row "
			"per thread, 'tid:comm'), dso, symbol (sym), parent (see -p), srcline (perf's "
			"'dso[addr]' or 'sym+offset' without debug info, its addr2line's "
			"'??:0' and file names with it), srcfile, cpu, "
			"symbol_size, time (see --time-quantum), socket, dso_size (the map's "
			"size), cgroup, cgroup_id (dev/inode of the cgroup namespace), "
			"local_weight, weight (local x samples), local_ins_lat, ins_lat (sum), "
			"local_p_stage_cyc and p_stage_cyc (powerpc only, dropped elsewhere, as "
			"perf), trace (a tracepoint's output) (default comm,dso,symbol; trace "
			"for a file of tracepoints only); with Children a sample's period counts "
			"once in rows keyed by time, socket, cgroup or weight, where perf 6.1 "
			"counts it per frame of its chain; rows sort by overhead, then by the "
			"keys; the output fields (see -F) sort and add their column; a key may "
			"be shortened (sym), as perf; perf's other keys (transaction, addr...) "
			"are refused by name"),
		OPT_STRING('F', "fields", &r->fields, "fields",
			   "the columns, as perf: overhead, overhead_children, overhead_sys, "
			   "overhead_us, overhead_guest_sys, overhead_guest_us (0: prism keeps no "
			   "guest mode), sample, period and any --sort key; rows sort by --sort, "
			   "then by these fields in their order (not by overhead first); "
			   "+fields adds to the default columns"),
		OPT_STRING('p', "parent", &r->parent, "regex",
			   "the parent sort key's expression (POSIX extended, default perf's "
			   "'^sys_|^do_page_fault'; -p adds the key): a sample's parent is the "
			   "first symbol of its recorded call chain that matches it (as perf: "
			   "from the root in caller order, the leaf in callee order; not in "
			   "frames unwound from --call-graph dwarf's stack copies), "
			   "'[other]' without"),
		OPT_BOOL('x', "exclude-other", &r->exclude_other,
			 "only the rows that have a parent (see -p)"),
		OPT_STRING('t', "field-separator", &r->field_sep, "sep",
			   "separate the columns by SEP, without padding numbers or the "
			   "dotted line, as perf's -t (for scripts)"),
		OPT_BOOL('U', "hide-unresolved", &r->hide_unresolved,
			 "leave out the samples whose address has no symbol (they do not count "
			 "in the totals) and the frames without one from the call chains, as "
			 "perf"),
		OPT_STRING('w', "column-widths", &r->widths, "w1,w2,...",
			   "the widths of the columns in their order, as perf's (0: the "
			   "column's own): text is cut to its width, a number or percentage "
			   "column is never narrower than its header"),
		OPT_BOOL(0, "ns", &r->ns, "the time key to the nanosecond"),
		OPT_CALLBACK(0, "time-quantum", &r->time_quantum, "time",
			     "the time key's buckets, as perf: 100ms (default), 10us, 1s, 500ns",
			     report_opt_quantum),
		OPT_BOOL(0, "show-total-period", &r->show_total_period, "add a Period column"),
		OPT_BOOL(0, "show-cpu-utilization", &r->show_cpu_util,
			 "add the sys and usr columns: the overhead of kernel and user space "
			 "samples"),
		OPT_STRING(0, "percentage", &r->percentage, "relative|absolute",
			   "with -d/-S/--comms/--pid/--tid: percentages of all samples (absolute, "
			   "the default) or of the samples the filters keep (relative)"),
		OPT_BOOL('b', "branch-stack", &r->branch,
			 "perf's branch mode (the default for files whose samples have branch "
			 "stacks and for --itrace with l): every branch of the stacks counts 1, "
			 "--sort keys comm, pid, dso_from, dso_to, symbol_from, symbol_to, cycles "
			 "(default comm,dso_from,symbol_from,symbol_to,cycles)"),
		OPT_BOOL(0, "no-branch-stack", &r->no_branch,
			 "the usual report of a file whose samples have branch stacks"),
		OPT_BOOL('n', "show-nr-samples", &r->show_nr, "add a Samples column"),
		OPT_BOOL(0, "hierarchy", &r->hierarchy,
			 "perf's hierarchy layout: a level per --sort key, each row under the "
			 "row of the level above it, the call graphs under the last level's "
			 "(no Children column; not with -F, as perf)"),
		OPT_BOOL(0, "raw-trace", &r->raw_trace,
			 "the trace key's text is the tracepoint's fields (' name=value' each), "
			 "not its print format, as perf's --raw-trace; for a file of tracepoints "
			 "only without --sort, perf's keys: a column per field of each event"),
		OPT_BOOL('T', "threads", &r->threads,
			 "after the report, perf's table of the counts per thread and event of "
			 "the file's PERF_RECORD_READ records (perf record -s)"),
		OPT_STRING(0, "pretty", &r->pretty, "normal|raw",
			   "-T's table: perf's normal layout, or its raw one (a PID, TID, Name, "
			   "Raw, Count header, the values on one line, as perf 6.1)"),
		OPT_CALLBACK(0, "percent-type", &r->percent_type, "type",
			     "perf's annotation percentages, global-period (default), local-period, "
			     "global-hits or local-hits: checked, and no change to the report, as "
			     "in perf report --stdio",
			     opt_percent_type),
		OPT_DOUBLE(0, "percent-limit", &r->percent_limit, "P",
			   "hide rows whose overhead is below P percent"),
		OPT_BOOL(0, "children", &r->children,
			 "add a Children column: the period of every stack a row appears in "
			 "(default with call chains, except for pipe input, as perf 6.1, whose "
			 "set-up runs before a pipe's events are known; it drops even this option "
			 "there, prism keeps it)"),
		OPT_BOOL(0, "no-children", &r->no_children,
			 "only self overhead, even with call chains"),
		OPT_BOOL(0, "stdio", &r->stdio, "text output on standard output (the default)"),
		OPT_STRING(0, "itrace", &r->itrace, "opts",
			   "report the Intel PT trace's synthesized samples, as perf: i[PERIOD] "
			   "instructions (Ni, Nt ticks, Nns/Nus/Nms; i alone: i100us), "
			   "b branches, c calls, r returns, g[N] call chains (of N entries, default "
			   "16) on instruction samples for -g, --children, --folded, --flamegraph, "
			   "x transactions, p power events (cbr, psb, mwait, pwre, exstop, pwrx), "
			   "w ptwrite, l[N] last branches (the branch report), d the decoder's "
			   "log (./intel_pt.log), s[N] skip the first N samples; without it an "
			   "Intel PT file "
			   "is decoded with perf report's default i100usgxwp"),
		OPT_BOOL(0, "header", &r->header,
			 "print the file's header (every feature, as perf's --header -I) before "
			 "the report"),
		OPT_BOOL(0, "header-only", &r->header_only,
			 "print only the file's header, as 'prism header' does"),
		OPT_BOOL('I', "show-info", &r->show_info,
			 "perf's extended header information (CPU and NUMA topology...): prism's "
			 "--header and --header-only always show it"),
		OPT_BOOL(0, "no-group", &r->no_group,
			 "a section per event, also for a file of event groups (where perf "
			 "shows a section per group, a value per event, as --group)"),
		OPT_BOOL(0, "stats", &r->stats_mode,
			 "print perf's 'Aggregated stats' (records per type, samples per event) "
			 "instead of the report"),
		OPT_BOOL(0, "tasks", &r->tasks_mode,
			 "print the file's tasks as perf's tree (pid, tid, ppid, comm) instead of "
			 "the report"),
		OPT_BOOL(0, "mmaps", &r->mmaps_mode, "--tasks with each task's memory maps"),
		OPT_BOOL(0, "full-source-path", &r->full_source_path,
			 "srcline and srcfile name a source file by its whole path: the debug "
			 "info's, its unit's compilation directory before a relative one, as "
			 "perf's addr2line"),
		OPT_BOOL(0, "srcline", &r->srcline,
			 "add a Source:Line column (sort key srcline; needs debug info)"),
		OPT_GROUP("Filters"),
		OPT_STRING('c', "comms", &r->comm_list, "list",
			   "only samples of these comma-separated command names (percentages stay "
			   "shares of all samples; as perf, a row shows when a kept sample made it "
			   "first, with the periods of the others too)"),
		OPT_STRING(0, "pid", &r->pid_list, "list", "only samples of these process ids"),
		OPT_STRING(0, "tid", &r->tid_list, "list", "only samples of these thread ids"),
		OPT_STRING('d', "dsos", &r->dso_list, "list",
			   "only samples whose address is in these DSOs (short names: libc.so.6, "
			   "[kernel.kallsyms]), rows as for --comms"),
		OPT_STRING('S', "symbols", &r->sym_list, "list",
			   "only samples in these symbols, rows as for --comms"),
		OPT_STRING(0, "symbol-filter", &r->symbol_filter, "text",
			   "only rows whose symbol's name contains the text (a row without a "
			   "symbol is left out), in every event's section (perf 6.1 filters "
			   "only the first event's)"),
		OPT_INT(0, "socket-filter", &r->socket_filter, "N",
			"only rows made by samples on processor socket N (the header's CPU "
			"topology; a sample without a CPU has none), as perf 6.1 where a "
			"--sort key merges rows by comm (or with --hierarchy), else every row; "
			"percentages stay shares of all samples but with --percentage "
			"relative, a '# Processor Socket' line (-1: no filter)"),
		OPT_STRING('C', "cpu", &r->cpu_sf.cpu_list, "cpus",
			   "only samples of these CPUs (0-3,6); the others do not count in the "
			   "total, as perf"),
		OPT_STRING(0, "time", &r->time_str, "start,end",
			   "only samples in this time window, in seconds as perf script prints "
			   "them (to the ns; either side may be empty); several separated by "
			   "blanks; or percents of the file's span: 10%/2, 0%-10%"),
		OPT_STRING('e', "event", &r->event, "name",
			   "only this event (perf's name, e.g. cpu-clock) of a multi-event file"),
		OPT_GROUP("Call graphs"),
		OPT_CALLBACK_CHOICE(
			'g', "call-graph", &r->cg, "params",
			"perf's print_type,threshold[,print_limit],order,sort_key,value, each "
			"optional, in any order: graph (a tree), fractal (a tree of shares of "
			"each parent), flat (each chain in full), "
			"folded (one line per chain); the threshold in percent (default 0.5, "
			"or --percent-limit's); branches per node (default all); caller "
			"(callers first) or callee (leaf first), default caller with "
			"--children or for pipe input, else callee (-g alone: caller); "
			"function (address and srcline are not supported); percent, "
			"period or count; none: no graph.  A file without call chains is an "
			"error, as in perf",
			report_opt_callgraph, "caller", report_cg_words),
		OPT_BOOL('G', "inverted", &r->inverted, "caller order, whatever -g says (perf's)"),
		OPT_INT(0, "max-stack", &r->cg.max_stack, "N",
			"keep N frames of each call chain, as perf: the leaf's side in callee "
			"order, the root's in caller order (the sample's own row stays); 0: "
			"no chains"),
		OPT_CALLBACK(0, "ignore-callees", &r->cg, "regex",
			     "leave out the callees of functions matching REGEX (extended): the "
			     "outermost match in callee order, the innermost in caller order "
			     "becomes the sample's row, as in perf",
			     report_opt_ignore_callees),
		OPT_DOUBLE(0, "graph-threshold", &r->cg.threshold, "P",
			   "hide call graph branches below P percent of the event's total "
			   "(as -g's threshold)"),
		OPT_BOOL(0, "inline", &r->inlines,
			 "expand every call chain frame into its inlined functions (DWARF); by "
			 "default only frames from DWARF unwinding are, as perf does"),
		OPT_BOOL(0, "no-inline", &r->no_inline, "never expand inlined functions"),
		OPT_GROUP("Other outputs"),
		OPT_BOOL(0, "folded", &r->folded,
			 "print folded stacks for flamegraph.pl: 'comm;root;...;leaf count' per "
			 "line, kernel frames suffixed _[k]"),
		OPT_STRING(0, "flamegraph", &r->flamegraph, "file.svg",
			   "write an interactive flame graph (self-contained SVG)"),
		OPT_STRING(0, "title", &r->title, "text", "flame graph title"),
		OPT_DOUBLE(0, "min-width", &r->min_width, "px",
			   "leave out flame graph frames narrower than this (default 0.1)"),
		OPT_STRING(0, "csv-dir", &r->csv_dir, "dir",
			   "write readperf's tables stat.csv, overview.csv, processes.csv and "
			   "results.csv into this directory"),
		OPT_GROUP("Symbols"),
		OPT_STRING(
			0, "symfs", &r->symfs, "dir",
			"look for every binary under this directory (as perf --symfs); the kernel's "
			"symbols only in DIR/[kernel.kallsyms]/<build id>/kallsyms"),
		OPT_CALLBACK(0, "map-path", &r->map_path, "old=new",
			     "read binaries recorded under path prefix OLD from NEW (repeatable)",
			     opt_map_path),
		OPT_STRING(0, "kallsyms", &r->kallsyms, "file",
			   "kernel symbols from this file instead of /proc/kallsyms (used as it is, "
			   "without the kernel build-id check)"),
		OPT_BOOL(0, "no-demangle", &r->no_demangle, "show C++/Rust symbols mangled"),
		OPT_KERNEL_CODE(&r->kcore, &r->vmlinux),
		OPT_END(),
	};
	const char *bad = NULL;

	argc = parse_options(argc, argv, opts, report_usage, 0);
	if (argc)
		usage_error(report_usage, opts, "unexpected argument '%s'", argv[0]);
	if (r->children && r->no_children)
		usage_error(report_usage, opts, "--children and --no-children cannot be combined");
	if (r->folded + !!r->flamegraph > 1)
		usage_error(report_usage, opts, "--folded and --flamegraph cannot be combined");
	if (r->itrace &&
	    (prism_itrace__parse(r->itrace, it, &bad) || report_itrace_unsupported(it)))
		usage_error(report_usage, opts, "--itrace %s: %s", r->itrace,
			    bad ? "a letter prism does not know" : report_itrace_unsupported(it));
	if (r->hierarchy && r->fields)
		usage_error(report_usage, opts, "--hierarchy and -F/--fields cannot be combined");
	if (r->branch && r->no_branch)
		usage_error(report_usage, opts, "-b and --no-branch-stack cannot be combined");
	if (r->itrace &&
	    (r->csv_dir || r->comm_list || r->pid_list || r->tid_list || r->event || r->time_str))
		usage_error(report_usage, opts,
			    "--itrace goes with the text report, --folded and --flamegraph only, "
			    "without filters");
	if (r->percentage && strcmp(r->percentage, "relative") && strcmp(r->percentage, "absolute"))
		usage_error(report_usage, opts, "--percentage: '%s' is not relative or absolute",
			    r->percentage);
	r->relative = r->percentage && !strcmp(r->percentage, "relative");
	r->children_set = r->children || r->no_children;
	if (r->cg.max_stack < 0)
		usage_error(report_usage, opts, "--max-stack %d: the number of frames is 0 or more",
			    r->cg.max_stack);
	if (r->inverted && r->cg.mode != CG_NONE)
		r->cg.mode = CG_CALLER;
	if (r->cg.threshold < 0)
		r->cg.threshold = r->percent_limit > 0 ? r->percent_limit : 0.5;
	if ((r->time_str && !prism_time_filter__percent(r->time_str) &&
	     opt_time_filter("--time", r->time_str, NULL, &r->time)) ||
	    parse_ids(r->pid_list, "pid", &r->pids, &r->nr_pids) ||
	    parse_ids(r->tid_list, "tid", &r->tids, &r->nr_tids) ||
	    sample_filter_parse(&r->cpu_sf, NULL)) {
		return EXIT_USAGE;
	}
	split_list(r->comm_list, &r->comms);
	split_list(r->dso_list, &r->dsos);
	split_list(r->sym_list, &r->syms);
	return 0;
}
