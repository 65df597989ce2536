// SPDX-License-Identifier: MIT
/*
 * prism archive: pack what a perf.data file needs to be symbolized on
 * another machine (like perf archive): the kallsyms, binaries and debug
 * files of its build ids, from the build-id cache (~/.debug) or, for this
 * machine's own kernel and binaries, from where they are.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/archive.h>
#include <prism/error.h>
#include <prism/session.h>

#include "cmd.h"
#include "input.h"
#include "options.h"

static int nothing(void *ctx, const struct prism_event *ev)
{
	(void)ctx;
	(void)ev;
	return 0;
}

static void missing(void *arg, const char *name, const char *id)
{
	size_t *n = arg;

	warning("no file of build id %s (%s) in the build-id cache or at its path: not packed", id,
		name);
	(*n)++;
}

int cmd_archive(int argc, const char **argv)
{
	static const char *const usage[] = { "prism archive [-i <file>] [-o <file.tar.bz2>]",
					     NULL };
	const char *input = NULL, *output = NULL, *bdir = NULL;
	bool force = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_STRING('o', "output", &output, "file",
			   "the archive to write (default: the input's name + .tar.bz2)"),
		OPT_STRING(0, "buildid-dir", &bdir, "dir",
			   "the build-id cache to take files from (default ~/.debug)"),
		OPT_END(),
	};
	struct prism_archive_opts ao = { 0 };
	char out[PATH_MAX], dir[PATH_MAX];
	struct prism_session *s;
	size_t nr = 0, nr_missing = 0;
	int err;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (input && !strcmp(input, "-") && !output)
		usage_error(usage, opts, "reading standard input needs -o FILE");
	s = open_input(input, force, true);
	if (!s)
		return 1;
	if (prism_session__file_info(s)->pipe) {
		/* a pipe's build ids are records: read them */
		const struct prism_tool tool = { .user = nothing };

		err = report_process_result(s, input, prism_session__process(s, &tool, NULL));
		if (err) {
			prism_session__free(s);
			return err;
		}
	}
	snprintf(out, sizeof(out), "%s.tar.bz2", input ? input : "perf.data");
	if (!bdir && getenv("HOME") && *getenv("HOME")) {
		snprintf(dir, sizeof(dir), "%s/.debug", getenv("HOME"));
		bdir = dir;
	}
	ao.buildid_dir = bdir;
	ao.missing = missing;
	ao.arg = &nr_missing;
	err = prism_archive__write(prism_session__features(s), output ? output : out, &ao, &nr);
	prism_session__free(s);
	if (err == -ENOENT) {
		error("'%s' records no build ids: nothing to archive", input ? input : "perf.data");
		return 1;
	}
	if (err) {
		error_errno(err, "cannot write '%s'", output ? output : out);
		if (err == -PRISM_E_NOFEATURE)
			hint("install libbz2-dev and rebuild prism");
		return 1;
	}
	if (!quiet)
		printf("%s: %zu files%s\nNow please run:\n\n$ tar xvf %s -C ~/.debug\n\n"
		       "wherever you need to run 'prism report' or 'perf report' on it.\n",
		       output ? output : out, nr,
		       nr_missing ? " (some build ids were not found, see above)" : "",
		       output ? output : out);
	return 0;
}
