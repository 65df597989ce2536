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
	struct export_profile x;
	struct prism_speedscope *ss;
	struct prism_speedscope_stats st;
};

static int ss_begin(void *ctx, struct export_reader *r, const struct export_event_info *ev)
{
	struct speedscope_cmd *c = ctx;
	struct prism_speedscope_opts o = { 0 };
	char name[512];

	snprintf(name, sizeof(name), "%s: %s", c->x.ro.input ? c->x.ro.input : "perf.data",
		 ev->name);
	o.name = name;
	o.unit = ev->time_based || ev->offcpu ? "nanoseconds" : "none";
	c->ss = prism_speedscope__new(c->x.out.fp, &o);
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
		return error_errno(err, "cannot write '%s'", c->x.output);
	return 0;
}

static void ss_release(void *ctx)
{
	struct speedscope_cmd *c = ctx;

	prism_speedscope__free(c->ss);
	c->ss = NULL;
}

int export_speedscope(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism export speedscope [-i <file>] -o <out.json> [<options>]",
		NULL,
	};
	struct speedscope_cmd c = { 0 };
	const struct option_def opts[] = {
		OPT_INPUT(&c.x.ro.input),
		OPT_FORCE(&c.x.ro.force),
		OPT_STRING('o', "output", &c.x.output, "file",
			   "write the JSON here ('-' = standard output); replaced only once it is "
			   "complete"),
		OPT_EXPORT_READER(&c.x.ro),
		OPT_END(),
	};
	static const struct export_sink_ops ops = {
		.begin = ss_begin,
		.sample = ss_sample,
		.end = ss_end,
		.release = ss_release,
	};
	char size[32];

	if (export_profile_run(&c.x, argc, argv, usage, opts, &ops, &c))
		return 1;
	if (!quiet && strcmp(c.x.output, "-")) {
		export_format_bytes(c.st.bytes, size, sizeof(size));
		info("wrote '%s': %" PRIu64 " samples of '%s' in %" PRIu64
		     " thread profiles, %" PRIu64 " frames (%s)",
		     c.x.output, c.st.samples, c.x.st.event, c.st.profiles, c.st.frames, size);
	}
	export_profile_note(&c.x);
	return 0;
}
