// SPDX-License-Identifier: MIT
/*
 * prism header: every header feature of a perf.data file in readable form
 * (like perf report --header-only -I).
 */
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include <prism/features.h>
#include <prism/session.h>
#include <prism/strbuf.h>

#include "cmd.h"
#include "input.h"
#include "options.h"

static int nothing(void *ctx, const struct prism_event *ev)
{
	return 0;
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
	struct prism_strbuf sb = STRBUF_INIT;
	const struct prism_file_info *fi;
	struct prism_session *s;
	const char *path;
	struct stat st;
	int err = 0;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	s = open_input(input, force, true);
	if (!s)
		return 1;
	fi = prism_session__file_info(s);
	if (fi->pipe) {
		/* the features arrive as records: read the stream to collect them */
		const struct prism_tool tool = { .user = nothing };

		err = prism_session__process(s, &tool, NULL);
		err = report_process_result(s, input, err);
	}
	path = input ? input : "perf.data";
	prism_strbuf_addstr(&sb, "# ========\n");
	if (!fi->pipe && !stat(path, &st)) {
		char tbuf[64];
		struct tm tm;

		localtime_r(&st.st_mtime, &tm);
		strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
		prism_strbuf_addf(&sb, "# captured on    : %s\n", tbuf);
		prism_strbuf_addf(&sb, "# header version : %u\n", fi->version);
		prism_strbuf_addf(&sb, "# data offset    : %" PRIu64 "\n", fi->data_offset);
		prism_strbuf_addf(&sb, "# data size      : %" PRIu64 "\n", fi->data_size);
		prism_strbuf_addf(&sb, "# feat offset    : %" PRIu64 "\n", fi->feat_offset);
	}
	prism_features__print(prism_session__features(s), &sb);
	if (!no_missing)
		prism_features__print_missing(prism_session__features(s), &sb);
	prism_strbuf_addstr(&sb, "# ========\n");
	fwrite(sb.buf, 1, sb.len, stdout);
	prism_strbuf_release(&sb);
	prism_session__free(s);
	return err ? 1 : 0;
}
