// SPDX-License-Identifier: MIT
/*
 * Opening a perf.data input for the reading commands (-i, -f).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/error.h>

#include "cmd.h"
#include "input.h"

struct prism_session *open_input(const char *path, bool force, bool no_order)
{
	struct prism_session_opts opts = { .path = path, .no_order = no_order };

	return open_session(&opts, force);
}

struct prism_session *open_session(struct prism_session_opts *o, bool force)
{
	struct prism_session_opts opts = *o;
	bool named = opts.path != NULL;
	struct prism_session *s;
	struct stat st;

	if (!opts.path)
		opts.path = "perf.data";
	if (strcmp(opts.path, "-")) {
		if (stat(opts.path, &st)) {
			int err = errno;

			error_errno(err, "cannot open '%s'", opts.path);
			if (err == ENOENT && !named)
				hint("record one with 'prism record', or name a file with -i FILE");
			return NULL;
		}
		if (!force && st.st_uid != geteuid() && st.st_uid != 0 && S_ISREG(st.st_mode)) {
			error("'%s' is not owned by the current user or root", opts.path);
			hint("use -f/--force to read it anyway");
			return NULL;
		}
	}
	s = prism_session__open(&opts);
	if (!s) {
		int err = errno;
		const char *detail = prism_session_open_error();

		if (detail && *detail)
			error("cannot read '%s': %s", opts.path, detail);
		else
			error_errno(err, "cannot read '%s'", opts.path);
		if (err == PRISM_E_BAD_MAGIC)
			hint("is it a perf.data file? 'file %s' may tell what it is", opts.path);
	}
	return s;
}

int report_process_error(struct prism_session *s, const char *path, int err)
{
	const char *detail = prism_session__error(s);
	char buf[128];

	if (detail && *detail)
		error("'%s': %s: %s", path ? path : "perf.data", detail,
		      prism_strerror(err, buf, sizeof(buf)));
	else
		error_errno(err, "'%s'", path ? path : "perf.data");
	hint("records before the damage were processed; the output above is incomplete");
	return 1;
}
