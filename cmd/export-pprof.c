// SPDX-License-Identifier: MIT
/*
 * prism export pprof: a perf.data file's samples as a gzipped profile.proto
 * (go tool pprof, Pyroscope, Parca, Grafana).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/error.h>
#include <prism/export-pprof.h>

#include "cmd.h"
#include "export.h"
#include "input.h"
#include "options.h"

struct pprof_cmd {
	struct export_reader_opts ro;
	const char *output;
	bool labels, no_srcline;
	struct export_out out;
	struct prism_pprof *pp;
	struct prism_pprof_stats st;
	char *event; /* the exported event's name */
};

static int pprof_begin(void *ctx, struct export_reader *r, const struct export_event_info *ev)
{
	struct pprof_cmd *c = ctx;
	struct prism_pprof_opts o = {
		.event = ev->name,
		.labels = c->labels,
		.no_srcline = c->no_srcline,
		.comment = c->ro.input ? c->ro.input : "perf.data",
	};

	o.value = ev->offcpu	 ? PRISM_PPROF_OFFCPU_NS :
		  ev->time_based ? PRISM_PPROF_CPU_NS :
				   PRISM_PPROF_EVENTS;
	o.period = ev->period;
	if (ev->time_based && ev->freq)
		o.period = 1000000000ull / ev->freq;
	free(c->event);
	c->event = xstrdup(ev->name);
	c->pp = prism_pprof__new(c->out.fp, export_reader_symbols(r), &o);
	if (!c->pp)
		return -errno;
	return 0;
}

static int pprof_sample(void *ctx, const struct prism_export_sample *s)
{
	struct pprof_cmd *c = ctx;

	return prism_pprof__add(c->pp, s);
}

static int pprof_end(void *ctx, struct export_reader *r, const struct export_reader_stats *st)
{
	struct pprof_cmd *c = ctx;
	int err;

	err = prism_pprof__finish(c->pp, export_wall_time(r, st->first_time),
				  st->last_time - st->first_time, &c->st);
	if (err)
		return error_errno(err, "cannot write '%s'", c->output);
	return 0;
}

int export_pprof(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism export pprof [-i <file>] -o <out.pb.gz> [--labels] [<options>]",
		NULL,
	};
	struct pprof_cmd c = { 0 };
	const struct option_def opts[] = {
		OPT_INPUT(&c.ro.input),
		OPT_FORCE(&c.ro.force),
		OPT_STRING('o', "output", &c.output, "file",
			   "write the profile here ('-' = standard output); replaced only once "
			   "it is complete"),
		OPT_BOOL(0, "labels", &c.labels,
			 "label every sample with its pid, tid, comm and cpu (pprof -tags, "
			 "-tagfocus; samples are then not merged by stack)"),
		OPT_BOOL(0, "no-srcline", &c.no_srcline,
			 "leave out source files and line numbers (no DWARF line lookups)"),
		OPT_EXPORT_READER(&c.ro),
		OPT_END(),
	};
	static const struct export_sink_ops ops = {
		.begin = pprof_begin,
		.sample = pprof_sample,
		.end = pprof_end,
	};
	struct export_reader_stats st;
	char size[32];
	int ret;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (!c.output)
		usage_error(usage, opts, "-o <file> is required (pprof writes gzipped protobuf)");
	if (c.ro.inlines && c.ro.no_inline)
		usage_error(usage, opts, "--inline and --no-inline cannot be combined");
	if (export_out_open(&c.out, c.output))
		return 1;
	ret = export_read(&c.ro, &ops, &c, &st);
	if (ret && !c.pp && errno == PRISM_E_NOFEATURE)
		hint("pprof export needs zlib: install zlib1g-dev and rebuild prism");
	prism_pprof__free(c.pp);
	if (ret) {
		free(c.event);
		export_out_abort(&c.out);
		return 1;
	}
	if (export_out_commit(&c.out))
		return 1;
	if (!quiet && strcmp(c.output, "-")) {
		export_format_bytes(c.st.proto_bytes, size, sizeof(size));
		info("wrote '%s': %" PRIu64 " samples of '%s', %" PRIu64 " locations, %" PRIu64
		     " functions, %" PRIu64 " mappings (%s of protobuf before gzip)",
		     c.output, c.st.samples, c.event, c.st.locations, c.st.functions, c.st.mappings,
		     size);
		if (st.other_samples)
			info("left out %" PRIu64 " samples of other events (choose with --event)",
			     st.other_samples);
	}
	free(c.event);
	return 0;
}
