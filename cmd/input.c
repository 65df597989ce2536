// SPDX-License-Identifier: MIT
/*
 * Opening a perf.data input for the reading commands (-i, -f).
 */
#include <errno.h>
#include <inttypes.h>
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

/*
 * The records the session skipped, one warning per kind with the offset of
 * the first: the output lacks them, the rest of the file was read.
 */
static void warn_skipped(struct prism_session *s, const char *path)
{
	const struct prism_session_stats *st = prism_session__stats(s);
	bool any = false;
	uint32_t t;

	for (t = 0; t < PRISM_RECORD_TYPE_MAX; t++) {
		uint64_t n = st->nr_malformed[t];

		if (!n)
			continue;
		any = true;
		warning("skipped %" PRIu64 " %s record%s whose %s, %s file offset %#" PRIx64, n,
			t ? prism_record_type_name(t) : "unknown", n == 1 ? "" : "s",
			t == PERF_RECORD_SAMPLE ?
				"size does not match the sample_type of the event" :
				"body is malformed",
			n == 1 ? "at" : "the first at", st->malformed_offset[t]);
	}
	if (any && !quiet)
		hint("the rest of '%s' was read; -v tells each one, 'prism script -D' dumps the records",
		     path ? path : "perf.data");
	if (st->nr_unknown_id)
		warning("%" PRIu64 " samples belong to no event of the file and were skipped",
			st->nr_unknown_id);
}

int report_process_result(struct prism_session *s, const char *path, int err)
{
	const char *detail = prism_session__error(s);
	char buf[128];

	warn_skipped(s, path);
	if (err >= 0)
		return 0;
	if (detail && *detail)
		error("'%s': %s: %s", path ? path : "perf.data", detail,
		      prism_strerror(err, buf, sizeof(buf)));
	else
		error_errno(err, "'%s'", path ? path : "perf.data");
	hint("records before the damage were processed; the output above is incomplete");
	return 1;
}
