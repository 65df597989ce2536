// SPDX-License-Identifier: MIT
/*
 * prism export speedscope: a perf.data file's samples as speedscope JSON,
 * one sampled profile per thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/export-speedscope.h>

#include "cmd.h"
#include "export.h"
#include "input.h"
#include "options.h"

struct speedscope_cmd {
	struct export_reader_opts ro;
	const char *output;
	struct export_out out;
	struct prism_speedscope *ss;
	struct prism_speedscope_stats st;
	char *event;
};

static int ss_begin(void *ctx, struct export_reader *r, const struct export_event_info *ev)
{
	struct speedscope_cmd *c = ctx;
	struct prism_speedscope_opts o = { 0 };
	char name[512];

	snprintf(name, sizeof(name), "%s: %s", c->ro.input ? c->ro.input : "perf.data", ev->name);
	o.name = name;
	o.unit = ev->time_based || ev->offcpu ? "nanoseconds" : "none";
	c->event = xstrdup(ev->name);
	c->ss = prism_speedscope__new(c->out.fp, &o);
	return c->ss ? 0 : -errno;
}

static int ss_sample(void *ctx, const struct prism_export_sample *s)
{
	struct speedscope_cmd *c = ctx;

	return prism_speedscope__add(c->ss, s);
}

static int ss_end(void *ctx, struct export_reader *r, const struct export_reader_stats *st)
{
	struct speedscope_cmd *c = ctx;
	int err = prism_speedscope__finish(c->ss, &c->st);

	if (err)
		return error_errno(err, "cannot write '%s'", c->output);
	return 0;
}

int export_speedscope(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism export speedscope [-i <file>] -o <out.json> [<options>]",
		NULL,
	};
	struct speedscope_cmd c = { 0 };
	const struct option_def opts[] = {
		OPT_INPUT(&c.ro.input),
		OPT_FORCE(&c.ro.force),
		OPT_STRING('o', "output", &c.output, "file",
			   "write the JSON here ('-' = standard output); replaced only once it is "
			   "complete"),
		OPT_EXPORT_READER(&c.ro),
		OPT_END(),
	};
	static const struct export_sink_ops ops = {
		.begin = ss_begin,
		.sample = ss_sample,
		.end = ss_end,
	};
	struct export_reader_stats st;
	char size[32];
	int ret;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (!c.output)
		usage_error(usage, opts, "-o <file> is required");
	if (c.ro.inlines && c.ro.no_inline)
		usage_error(usage, opts, "--inline and --no-inline cannot be combined");
	if (export_out_open(&c.out, c.output))
		return 1;
	ret = export_read(&c.ro, &ops, &c, &st);
	prism_speedscope__free(c.ss);
	if (ret) {
		export_out_abort(&c.out);
		free(c.event);
		return 1;
	}
	if (export_out_commit(&c.out)) {
		free(c.event);
		return 1;
	}
	if (!quiet && strcmp(c.output, "-")) {
		export_format_bytes(c.st.bytes, size, sizeof(size));
		info("wrote '%s': %" PRIu64 " samples of '%s' in %" PRIu64
		     " thread profiles, %" PRIu64 " frames (%s)",
		     c.output, c.st.samples, c.event, c.st.profiles, c.st.frames, size);
		if (st.other_samples)
			info("left out %" PRIu64 " samples of other events (choose with --event)",
			     st.other_samples);
	}
	free(c.event);
	return 0;
}
