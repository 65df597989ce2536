// SPDX-License-Identifier: MIT
/*
 * prism script on a `perf stat record` file: the counter reads, one line
 * per (event, thread, CPU) at every round, in perf script's layout.
 */
#include <errno.h>
#include <inttypes.h>

#include <prism/evsel.h>
#include <prism/stat-reads.h>

#include "script.h"

struct stat_out {
	struct prism_strbuf *sb;
	bool *header;
};

static int print_read(void *arg, const struct prism_stat_read *rd)
{
	struct stat_out *o = arg;

	if (!*o->header) {
		prism_strbuf_addf(o->sb, "%3s %8s %15s %15s %15s %15s %s\n", "CPU", "THREAD", "VAL",
				  "ENA", "RUN", "TIME", "EVENT");
		*o->header = true;
	}
	prism_strbuf_addf(o->sb,
			  "%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %s\n",
			  rd->cpu, rd->pid, rd->val, rd->ena, rd->run, rd->time,
			  prism_evsel__name(rd->evsel));
	return 0;
}

int script_stat_event(struct script_stat *st, struct prism_session *s, const struct prism_event *ev,
		      struct prism_strbuf *sb)
{
	struct stat_out o = { .sb = sb, .header = &st->header };

	switch (ev->type) {
	case PRISM_RECORD_CPU_MAP:
	case PRISM_RECORD_THREAD_MAP:
	case PRISM_RECORD_STAT:
	case PRISM_RECORD_STAT_CONFIG:
	case PRISM_RECORD_STAT_ROUND:
		break;
	default:
		return 0;
	}
	if (!st->reads) {
		st->reads = prism_stat_reads__new(s);
		if (!st->reads)
			return -ENOMEM;
	}
	return prism_stat_reads__event(st->reads, ev, print_read, &o);
}
