// SPDX-License-Identifier: MIT
/*
 * prism annotate: the hottest symbols of a perf.data file (or the one
 * named), each disassembled with its share of the symbol's samples per
 * instruction and its source lines interleaved, as perf annotate --stdio
 * (perf 6.1) prints them.  Reading and options here, printing in
 * annotate-print.c, the counting and the listings in lib/annotate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/annotate.h>
#include <prism/error.h>
#include <prism/evsel.h>
#include <prism/session.h>
#include <prism/symbol.h>

#include "annotate.h"
#include "cmd.h"
#include "input.h"
#include "lists.h"
#include "options.h"

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct annotate_cmd *c = ctx;
	int err = prism_symbols__event(c->sy, ev);

	return err ? err : prism_symbols__event(c->label_sy, ev);
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	if (ev->type == PERF_RECORD_KSYMBOL || ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		return on_task(ctx, ev);
	return 0;
}

/*
 * perf annotate: a sample outside --dsos, or (with a symbol named) of
 * another symbol, is not counted at all, not even in the event's totals
 */
static int sample_one(void *ctx, const struct prism_event *ev)
{
	struct annotate_cmd *c = ctx;
	const struct prism_sample *s = &ev->sample;
	struct prism_frame f;
	int idx;

	if (!ev->evsel || (idx = prism_evsel__idx(ev->evsel)) < 0)
		return 0;
	if (c->event && strcmp(prism_evsel__name(ev->evsel), c->event))
		return 0;
	prism_symbols__resolve(c->sy, s->pid, ev->raw->misc & PRISM_MISC_CPUMODE_MASK, s->ip, &f);
	if (c->dsos.nr && !in_list(&c->dsos, f.dso_name) &&
	    !(f.dso_path && in_list(&c->dsos, f.dso_path)))
		return 0;
	if (c->symbol && (!f.sym || strcmp(f.sym, c->symbol))) {
		/* the symbol may be in a binary that is missing: say so */
		if (!f.sym && f.dso && !f.kernel && !prism_dso__symsrc(f.dso))
			return prism_annotate__add_missing(c->a, f.dso);
		return 0;
	}
	return prism_annotate__add(c->a, (size_t)idx, s->pid, &f, prism_sample__period(ev));
}

/* leader sampling's group reads become a sample per event, as perf delivers them */
static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct annotate_cmd *c = ctx;

	return prism_group_reads__split(c->reads, c->s, ev, sample_one, c);
}

static int parse_percent_type(const struct option_def *opt, const char *arg)
{
	int t = prism_percent_type__parse(arg);

	if (t < 0)
		return error("--percent-type '%s': expected local-period, global-period, "
			     "local-hits or global-hits",
			     arg);
	*(int *)opt->value = t;
	return 0;
}

static int setup_symbols(struct annotate_cmd *c, const char *kallsyms)
{
	struct prism_symbols_opts so = { 0 };
	int err;

	so.symfs = c->symfs;
	so.kallsyms = input_kallsyms(c->s, kallsyms, NULL);
	c->sy = prism_symbols__new(&so);
	/* objdump -C's labels: C++ names with their parameters */
	so.demangle_params = true;
	c->label_sy = c->sy ? prism_symbols__new(&so) : NULL;
	if (!c->sy || !c->label_sy)
		return error_errno(errno, "cannot set up symbol resolution");
	err = prism_symbols__set_features(c->sy, prism_session__features(c->s));
	if (!err)
		err = prism_symbols__set_features(c->label_sy, prism_session__features(c->s));
	if (err)
		return error_errno(err, "cannot read the build ids of '%s'", c->input);
	if (c->vmlinux && input_kernel_code(c->sy, c->s, NULL, c->vmlinux))
		return -1;
	c->a = prism_annotate__new(c->sy, prism_session__nr_evsels(c->s));
	c->reads = prism_group_reads__new();
	if (!c->a || !c->reads)
		return error_errno(errno, "cannot set up the annotation");
	prism_annotate__set_label_symbols(c->a, c->label_sy);
	return 0;
}

int cmd_annotate(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism annotate [<options>] [<symbol>]",
		NULL,
	};
	struct annotate_cmd c = { .percent_type = PRISM_PERCENT_LOCAL_PERIOD, .source = true };
	const char *input = NULL, *dso_list = NULL, *kallsyms = NULL;
	bool force = false, stdio = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_STRING('s', "symbol", &c.symbol, "name",
			   "annotate only this symbol (as the argument <symbol>); samples of "
			   "other symbols are left out of the totals too, as perf does"),
		OPT_STRING('d', "dsos", &dso_list, "list",
			   "only samples in these DSOs (comma-separated short or long names: "
			   "libc.so.6, /usr/bin/bash, [kernel.kallsyms])"),
		OPT_STRING('e', "event", &c.event, "name",
			   "only this event (perf's name, e.g. cpu-clock) of a multi-event file; "
			   "by default every event's symbols, event by event, and an event group's "
			   "(GROUP_DESC) in one listing with a column per event, as perf"),
		OPT_BOOL('l', "print-line", &c.print_line,
			 "before each symbol, a summary of its source lines above 0.5% of its "
			 "samples, and those lines' file:line after their instructions"),
		OPT_BOOL('P', "full-paths", &c.full_paths,
			 "the DSO's and source files' whole paths, not their base names"),
		OPT_BOOL(0, "source", &c.source,
			 "interleave source lines with the instructions, as objdump -S (the "
			 "default; --no-source leaves them out)"),
		OPT_BOOL(0, "asm-raw", &c.asm_raw,
			 "the instructions' bytes before their text, 7 a line (objdump's layout)"),
		OPT_CALLBACK(0, "percent-type", &c.percent_type, "type",
			     "local-period (the default), global-period, local-hits or "
			     "global-hits: the share of the symbol's (local) or the event's "
			     "(global) period or samples",
			     parse_percent_type),
		OPT_BOOL('n', "show-nr-samples", &c.show_nr, "a Samples column instead of Percent"),
		OPT_BOOL(0, "show-total-period", &c.show_period,
			 "a Period column (the period of each instruction) instead of Percent"),
		OPT_DOUBLE(0, "percent-limit", &c.percent_limit, "P",
			   "leave out symbols with less than P percent of the event's period"),
		OPT_BOOL(0, "stdio", &stdio, "text output on standard output (the only one)"),
		OPT_GROUP("Symbols"),
		OPT_STRING(0, "symfs", &c.symfs, "dir",
			   "look for every binary under this directory (as perf --symfs)"),
		OPT_STRING(0, "kallsyms", &kallsyms, "file",
			   "kernel symbols from this file instead of /proc/kallsyms"),
		OPT_STRING('k', "vmlinux", &c.vmlinux, "file",
			   "the kernel's code from this vmlinux, to annotate kernel symbols"),
		OPT_END(),
	};
	struct prism_tool tool = { 0 };
	int err, ret = 1;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc > 1)
		usage_error(usage, opts, "unexpected argument '%s'", argv[1]);
	if (argc == 1) {
		if (c.symbol && strcmp(c.symbol, argv[0]))
			usage_error(usage, opts, "two symbols: '%s' and -s '%s'", argv[0],
				    c.symbol);
		c.symbol = argv[0];
	}
	if (c.show_nr && c.show_period)
		usage_error(usage, opts, "-n and --show-total-period cannot be combined");
	if (c.percent_limit < 0)
		usage_error(usage, opts, "--percent-limit %g: a percentage is 0 or more",
			    c.percent_limit);
	split_list(dso_list, &c.dsos);
	c.input = input ? input : "perf.data";
	c.s = open_input(input, force, false);
	if (!c.s)
		goto out;
	if (setup_symbols(&c, kallsyms))
		goto out;
	tool.sample = on_sample;
	tool.mmap = on_task;
	tool.comm = on_task;
	tool.fork = on_task;
	tool.exit = on_task;
	tool.other = on_other;
	tool.user = on_other;
	err = prism_session__process(c.s, &tool, &c);
	if (report_process_result(c.s, input, err))
		goto out;
	ret = annotate_print(&c);
out:
	prism_annotate__free(c.a);
	prism_symbols__free(c.sy);
	prism_symbols__free(c.label_sy);
	prism_session__free(c.s);
	strlist_release(&c.dsos);
	prism_group_reads__free(c.reads);
	return ret;
}
