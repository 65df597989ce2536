// SPDX-License-Identifier: MIT
/*
 * prism header: every header feature of a perf.data file in readable form
 * (like perf report --header-only -I).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <prism/session.h>
#include <prism/util-check.h>
#include <prism/strbuf.h>

#include "cmd.h"
#include "input.h"
#include "options.h"

static int nothing(void *ctx, const struct prism_event *ev)
{
	return 0;
}

int print_header(struct prism_session *s, const char *input, bool missing)
{
	struct prism_strbuf sb = STRBUF_INIT;
	int err = 0;

	if (prism_session__file_info(s)->pipe && !prism_session__stats(s)->nr_records_total) {
		/* the features arrive as records: read the stream to collect them */
		const struct prism_tool tool = { .user = nothing };

		err = report_process_result(s, input, prism_session__process(s, &tool, NULL));
	}
	prism_session__header_text(s, input ? input : "perf.data", missing, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	prism_strbuf_release(&sb);
	return err;
}

/* prism's own section, which perf does not print: after perf's block */
static void print_util_check(struct prism_session *s)
{
	struct prism_util_check *k;
	size_t len;
	uint64_t ns;
	int err = prism_util_check__from_session(s, &k, &len);

	if (err == -EINVAL) {
		printf("# prism util check: a section of %zu bytes this prism does not read\n",
		       len);
	} else if (!err) {
		printf("# prism util check: schedstat of %zu tasks at the recording's edges",
		       prism_util_check__nr_tasks(k));
		if (prism_util_check__has_workload(k, &ns))
			printf(", the workload's rusage %.3f ms", (double)ns / 1e6);
		ns = prism_util_check__end(k);
		if (ns)
			printf(", events disabled at %" PRIu64 ".%06" PRIu64, ns / 1000000000u,
			       ns % 1000000000u / 1000u);
		printf("\n");
	}
	prism_util_check__free(k);
}

int cmd_header(int argc, const char **argv)
{
	static const char *const usage[] = { "prism header [-i <file>]", NULL };
	const char *input = NULL;
	bool force = false, no_missing = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_BOOL(
			0, "no-missing", &no_missing,
			"leave out the 'missing features' line (it depends on the reader's version)"),
		OPT_END(),
	};
	struct prism_session *s;
	int err;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	s = open_input(input, force, true);
	if (!s)
		return 1;
	err = print_header(s, input, !no_missing);
	print_util_check(s);
	prism_session__free(s);
	return err ? 1 : 0;
}
