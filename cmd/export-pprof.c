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
	struct export_profile x;
	bool labels, no_srcline;
	struct prism_pprof *pp;
	struct prism_pprof_stats st;
};

static int pprof_begin(void *ctx, struct export_reader *r, const struct export_event_info *ev)
{
	struct pprof_cmd *c = ctx;
	struct prism_pprof_opts o = {
		.event = ev->name,
		.labels = c->labels,
		.no_srcline = c->no_srcline,
		.comment = c->x.ro.input ? c->x.ro.input : "perf.data",
	};

	o.value = ev->offcpu	 ? PRISM_PPROF_OFFCPU_NS :
		  ev->time_based ? PRISM_PPROF_CPU_NS :
				   PRISM_PPROF_EVENTS;
	o.period = ev->period;
	if (ev->time_based && ev->freq)
		o.period = 1000000000ull / ev->freq;
	c->pp = prism_pprof__new(c->x.out.fp, export_reader_symbols(r), &o);
	if (!c->pp && errno == PRISM_E_NOFEATURE)
		hint("pprof export needs zlib: install zlib1g-dev and rebuild prism");
	return c->pp ? 0 : -errno;
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
		return error_errno(err, "cannot write '%s'", c->x.output);
	return 0;
}

static void pprof_release(void *ctx)
{
	struct pprof_cmd *c = ctx;

	prism_pprof__free(c->pp);
	c->pp = NULL;
}

int export_pprof(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism export pprof [-i <file>] -o <out.pb.gz> [--labels] [<options>]",
		NULL,
	};
	struct pprof_cmd c = { 0 };
	const struct option_def opts[] = {
		OPT_INPUT(&c.x.ro.input),
		OPT_FORCE(&c.x.ro.force),
		OPT_STRING('o', "output", &c.x.output, "file",
			   "write the gzipped profile here ('-' = standard output); replaced only "
			   "once it is complete"),
		OPT_BOOL(0, "labels", &c.labels,
			 "label every sample with its pid, tid, comm and cpu (pprof -tags, "
			 "-tagfocus)"),
		OPT_BOOL(0, "no-srcline", &c.no_srcline,
			 "leave out source files and line numbers (no DWARF line lookups)"),
		OPT_EXPORT_READER(&c.x.ro),
		OPT_END(),
	};
	static const struct export_sink_ops ops = {
		.begin = pprof_begin,
		.sample = pprof_sample,
		.end = pprof_end,
		.release = pprof_release,
	};
	char size[32];

	if (export_profile_run(&c.x, argc, argv, usage, opts, &ops, &c))
		return 1;
	if (!quiet && strcmp(c.x.output, "-")) {
		export_format_bytes(c.st.proto_bytes, size, sizeof(size));
		info("wrote '%s': %" PRIu64 " samples of '%s', %" PRIu64 " locations, %" PRIu64
		     " functions, %" PRIu64 " mappings (%s of protobuf before gzip)",
		     c.x.output, c.st.samples, c.x.st.event, c.st.locations, c.st.functions,
		     c.st.mappings, size);
	}
	export_profile_note(&c.x);
	return 0;
}
