// SPDX-License-Identifier: MIT
/*
 * Opening a perf.data input for the reading commands (-i, -f).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/symbol.h>

#include "cmd.h"
#include "input.h"

bool input_streams_stdout;

/*
 * Progress of a long read on stderr: only on a terminal, not with -q, not
 * over the output of a command that prints as it reads to that terminal;
 * after the read has taken PRISM_PROGRESS_DELAY seconds (default 1).
 */
static struct {
	const char *path;
	uint64_t start, last, delay;
	bool shown;
} progress;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void progress_clear(void)
{
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = false;
}

static void show_progress(void *ctx, uint64_t done, uint64_t total, uint64_t records, bool end)
{
	uint64_t now = mono_ns(), dt = now - progress.start;
	double secs = (double)dt / 1e9;

	(void)ctx;
	if (end) {
		progress_clear();
		return;
	}
	if (dt < progress.delay || (progress.shown && now - progress.last < 100000000u))
		return;
	progress.last = now;
	progress.shown = true;
	if (total)
		fprintf(stderr,
			"\r%s: %3.0f%% of %.1f MiB, %" PRIu64 " records, %.0f records/s\033[K",
			progress.path, done >= total ? 100.0 : 100.0 * (double)done / (double)total,
			(double)total / (1 << 20), records, secs > 0 ? (double)records / secs : 0);
	else
		fprintf(stderr, "\r%s: %.1f MiB, %" PRIu64 " records, %.0f records/s\033[K",
			progress.path, (double)done / (1 << 20), records,
			secs > 0 ? (double)records / secs : 0);
}

static void progress_arm(struct prism_session_opts *o, const char *path)
{
	const char *env = getenv("PRISM_PROGRESS_DELAY");
	double delay = env && *env ? strtod(env, NULL) : 1.0;

	if (quiet || !isatty(STDERR_FILENO) || (input_streams_stdout && isatty(STDOUT_FILENO)))
		return;
	progress.path = path;
	progress.start = mono_ns();
	progress.delay = delay > 0 ? (uint64_t)(delay * 1e9) : 0;
	progress.shown = false;
	o->progress = show_progress;
}

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
	if (strcmp(opts.path, "-") && !opts.progress)
		progress_arm(&opts, opts.path);
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

	progress_clear();
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

const char *input_kallsyms(struct prism_session *s, const char *given, const char *kcore)
{
	static char path[4096];
	const char *dir = kcore ? kcore : s ? prism_session__kcore_dir(s) : NULL;

	if (given || !dir)
		return given;
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	return path;
}

static int add_code(struct prism_symbols *sy, const char *path, const char *opt)
{
	int err = prism_symbols__add_kernel_code(sy, path);

	if (!err || !opt)
		return 0;
	error_errno(err == -ENOEXEC ? ENOEXEC : -err, "%s: cannot read the kernel's code from '%s'",
		    opt, path);
	hint("%s", err == -ENOEXEC ?
			   "it must be an ELF file whose PT_LOAD segments hold the kernel "
			   "text (kcore, vmlinux)" :
			   "check the path");
	return -1;
}

int input_kernel_code(struct prism_symbols *sy, struct prism_session *s, const char *kcore,
		      const char *vmlinux)
{
	const char *dir = prism_session__kcore_dir(s);
	char path[4096];

	if (kcore) {
		snprintf(path, sizeof(path), "%s/kcore", kcore);
		if (add_code(sy, path, "--kcore"))
			return -1;
	}
	if (vmlinux && add_code(sy, vmlinux, "--vmlinux"))
		return -1;
	if (dir) {
		snprintf(path, sizeof(path), "%s/kcore", dir);
		add_code(sy, path, NULL);
	}
	return 0;
}
