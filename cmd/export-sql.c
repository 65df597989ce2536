// SPDX-License-Identifier: MIT
/*
 * prism export sqlite / postgresql: perf.data files into perf's
 * export-to-sqlite.py / export-to-postgresql.py schema, one host per file,
 * in one transaction (lib/export/sql-*.c).
 */
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/export-sql.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/util.h>

#include "cmd.h"
#include "export.h"
#include "input.h"
#include "options.h"
#include "script.h"

/* a repeatable option's values, NULL-terminated */
struct strs {
	const char **v;
	size_t nr;
};

static int opt_strs(const struct option_def *opt, const char *arg)
{
	struct strs *in = opt->value;

	in->v = xrealloc(in->v, (in->nr + 2) * sizeof(*in->v));
	in->v[in->nr++] = arg;
	in->v[in->nr] = NULL;
	return 0;
}

/*
 * Killed (Ctrl-C) while a new SQLite file is written: remove it, so no
 * half-written database stays (PostgreSQL rolls back a dropped connection,
 * SQLite's journal an interrupted append).  Only async-signal-safe calls.
 */
static const char *volatile temp_path;

static void on_signal(int sig)
{
	static const char msg[] = "\nprism export: interrupted, nothing was written\n";
	ssize_t n;

	if (temp_path)
		unlink(temp_path);
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(128 + sig);
}

struct progress {
	const char *name;
	struct prism_session *s;
	const char *kcore, *vmlinux; /* --itrace: the kernel's code */
	int last; /* percent shown, -1 none yet */
	uint64_t last_done;
};

/* on a terminal only: "exporting FILE: 42%", or bytes read for a pipe */
static void show_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;

	if (total) {
		int pct = (int)(done * 100 / total);

		if (pct == p->last)
			return;
		p->last = pct;
		fprintf(stderr, "\rexporting %s: %3d%%", p->name, pct > 100 ? 100 : pct);
	} else if (done >= p->last_done + (8 << 20) || !p->last_done) {
		p->last_done = done;
		fprintf(stderr, "\rexporting %s: %" PRIu64 " MB read", p->name, done >> 20);
	}
}

static int add_kernel_code(void *ctx, struct prism_symbols *sy)
{
	struct progress *p = ctx;

	return input_kernel_code(sy, p->s, p->kcore, p->vmlinux);
}

static void explain_open_error(int err, const struct prism_sql_opts *o, const char *msg)
{
	char buf[128];

	if (err == -PRISM_E_NOFEATURE) {
		enum prism_feature f = o->kind == PRISM_SQL_SQLITE ? PRISM_FEATURE_LIBSQLITE3 :
								     PRISM_FEATURE_LIBPQ;

		error("cannot export to %s: %s",
		      o->kind == PRISM_SQL_SQLITE ? "SQLite" : "PostgreSQL",
		      prism_strerror(err, buf, sizeof(buf)));
		hint("%s", prism_feature_hint(f));
		return;
	}
	error("%s", *msg ? msg : prism_strerror(err, buf, sizeof(buf)));
	if (err == -EEXIST)
		hint("--append adds the files to a database prism wrote; remove the file to start "
		     "anew");
	else if (err == -ECONNREFUSED)
		hint("-o takes a libpq connection string ('host=/run/postgresql dbname=perf "
		     "user=me') or a URI ('postgresql://me@host/perf'); is the server running?");
	else if (err == -EPROTO)
		hint("export into a new database (without --append)");
	else if (o->kind == PRISM_SQL_POSTGRESQL && !o->append && strstr(msg, "already exists"))
		hint("the database has these tables already: --append adds to them");
}

/* prism util's pass over @path, into util_tasks/util_calls; 0 or -1 (said) */
static int add_util(struct prism_sql *x, const char *path, bool force)
{
	struct prism_session *s = open_input(path, force, false);
	struct prism_util *u = s ? prism_util__new(NULL) : NULL;
	int err = -1;

	if (!u)
		goto out;
	err = prism_util__process(u, s);
	if (report_process_result(s, path, err)) {
		err = -1;
		goto out;
	}
	err = prism_sql__add_util(x, u);
	if (err)
		error("%s", *prism_sql__error(x) ? prism_sql__error(x) : "cannot add util rows");
out:
	if (s && !u)
		error_errno(-ENOMEM, "prism util");
	prism_util__free(u);
	prism_session__free(s);
	return err ? -1 : 0;
}

static void print_summary(struct prism_sql *x, const char *target, size_t nr_files)
{
	size_t i;

	if (quiet)
		return;
	printf("wrote %zu file%s into '%s':\n", nr_files, nr_files == 1 ? "" : "s", target);
	for (i = 0; i < prism_sql__nr_tables(); i++) {
		uint64_t n = prism_sql__rows(x, i);

		if (n)
			printf("  %-18s %10" PRIu64 " rows\n", prism_sql__table_name(i), n);
	}
}

static int export_sql(int argc, const char **argv, enum prism_sql_kind kind)
{
	static const char *const sqlite_usage[] = {
		"prism export sqlite [-i <file>]... -o <file.db> [--append] [<options>]", NULL
	};
	static const char *const pg_usage[] = {
		"prism export postgresql [-i <file>]... -o <conninfo> [--append] [<options>]", NULL
	};
	const char *const *usage = kind == PRISM_SQL_SQLITE ? sqlite_usage : pg_usage;
	struct prism_sql_opts o = { .kind = kind };
	struct prism_symbols_opts so = { 0 };
	struct strs in = { 0 }, map_path = { 0 };
	const char *output = NULL, *itrace = NULL, *kcore = NULL, *vmlinux = NULL, *kallsyms;
	struct prism_itrace it;
	bool force = false, no_progress = false, util = false;
	const struct option_def opts[] = {
		OPT_CALLBACK('i', "input", &in, "file",
			     "input file (default: perf.data; '-' reads standard input); repeat it "
			     "for more files, each becomes a host of its own",
			     opt_strs),
		OPT_STRING(
			'o', "output", &output, kind == PRISM_SQL_SQLITE ? "file.db" : "conninfo",
			kind == PRISM_SQL_SQLITE ?
				"the SQLite file to create (it must not exist, unless --append)" :
				"libpq connection string or URI: 'host=/run/postgresql dbname=perf'"),
		OPT_BOOL('a', "append", &o.append,
			 "add to a database prism exported before: each file becomes a new host"),
		OPT_BOOL(0, "no-callchains", &o.no_callchains,
			 "no call_paths rows (samples' call_path_id 0): a faster export"),
		OPT_BOOL(0, "calls", &o.calls,
			 "calls rows (perf's calls table): with --itrace from the trace's calls and "
			 "returns (exact, as perf's export-to-sqlite.py ... calls); else from each "
			 "thread's consecutive call chains: called at the first sample with the "
			 "function on the stack, returned at the first without"),
		OPT_STRING(
			0, "itrace", &itrace, "opts",
			"decode the Intel PT trace into samples rows, perf's options: b branches, "
			"c calls, r returns, i[PERIOD] instructions (i100i), g call chains of the "
			"instructions (call_paths), s[N] skip (as perf script --itrace=b -s "
			"export-to-sqlite.py)"),
		OPT_BOOL(0, "util", &util,
			 "also prism util's rows and call records (util_tasks, util_calls): reads "
			 "each file a second time, so not from a pipe"),
		OPT_BOOL(0, "no-progress", &no_progress, "no progress line on the terminal"),
		OPT_FORCE(&force),
		OPT_STRING(0, "symfs", &so.symfs, "dir",
			   "look for every binary under this directory"),
		OPT_CALLBACK(0, "map-path", &map_path, "old=new",
			     "read binaries recorded under path prefix OLD from NEW (repeatable)",
			     opt_strs),
		OPT_STRING(0, "kallsyms", &so.kallsyms, "file",
			   "kernel symbols from this file instead of /proc/kallsyms"),
		OPT_BOOL(0, "no-demangle", &so.no_demangle, "keep C++/Rust symbols mangled"),
		OPT_KERNEL_CODE(&kcore, &vmlinux),
		OPT_END(),
	};
	static const char *const default_input[] = { "perf.data" };
	struct prism_sql *x = NULL;
	size_t i;
	int err, ret = 1;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (!output)
		usage_error(usage, opts, "-o is required: the %s",
			    kind == PRISM_SQL_SQLITE ? "SQLite file to write" :
						       "PostgreSQL database (a connection string)");
	if (o.calls && o.no_callchains && !itrace)
		usage_error(usage, opts, "--calls needs the call chains: not with --no-callchains");
	if (itrace) {
		const char *bad = NULL;

		if (prism_itrace__parse(itrace, &it, &bad))
			usage_error(usage, opts, "--itrace %s: '%c' is not an option prism knows",
				    itrace, *bad);
		if (export_itrace_unsupported(&it))
			usage_error(usage, opts, "--itrace %s: %s", itrace,
				    export_itrace_unsupported(&it));
		if (it.callchain && o.no_callchains)
			usage_error(usage, opts,
				    "--itrace %s: call chains (g) are call_paths rows: not with "
				    "--no-callchains",
				    itrace);
		o.itrace = &it;
	}
	if (!in.nr) {
		in.v = xmalloc(sizeof(*in.v));
		in.v[in.nr++] = default_input[0];
	}
	so.path_map = map_path.v;
	kallsyms = so.kallsyms;
	for (i = 0; util && i < in.nr; i++)
		if (!strcmp(in.v[i], "-"))
			usage_error(usage, opts, "--util reads a file twice: not standard input");
	o.target = output;
	err = prism_sql__open(&o, &x);
	if (err) {
		explain_open_error(err, &o, x ? prism_sql__error(x) : "");
		goto out;
	}
	if (prism_sql__temp_path(x))
		temp_path = xstrdup(prism_sql__temp_path(x));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	for (i = 0; i < in.nr; i++) {
		struct progress p = {
			.name = in.v[i], .last = -1, .kcore = kcore, .vmlinux = vmlinux
		};
		struct prism_sql_file f = { .name = in.v[i], .symbols = &so };
		struct prism_session *s = open_input(in.v[i], force, false);

		if (!s)
			goto out;
		f.session = s;
		p.s = s;
		f.ctx = &p;
		if (!no_progress && !quiet && isatty(STDERR_FILENO))
			f.progress = show_progress;
		/* a perf record --kcore directory's kallsyms, kcore with --itrace */
		so.kallsyms = input_kallsyms(s, kallsyms, kcore);
		if (itrace)
			f.symbols_ready = add_kernel_code;
		err = prism_sql__add_session(x, &f);
		if (f.progress)
			fputs("\r\033[K", stderr);
		if (err < 0 && *prism_sql__error(x))
			error("%s", prism_sql__error(x));
		/* -ECANCELED: add_kernel_code() said why */
		if (report_process_result(
			    s, in.v[i],
			    err < 0 && err != -ECANCELED && !*prism_sql__error(x) ? err : 0) ||
		    err < 0) {
			prism_session__free(s);
			goto out;
		}
		prism_session__free(s);
		if (util && add_util(x, in.v[i], force))
			goto out;
	}
	err = prism_sql__commit(x);
	if (err) {
		error("%s", prism_sql__error(x));
		goto out;
	}
	print_summary(x, output, in.nr);
	ret = 0;
out:
	if (temp_path) {
		const char *p = temp_path;

		temp_path = NULL;
		free((char *)p);
	}
	if (ret && x && err != -EEXIST)
		hint("nothing was written to '%s'", output);
	prism_sql__free(x);
	free(in.v);
	free(map_path.v);
	return ret;
}

int export_sqlite(int argc, const char **argv)
{
	return export_sql(argc, argv, PRISM_SQL_SQLITE);
}

int export_postgresql(int argc, const char **argv)
{
	return export_sql(argc, argv, PRISM_SQL_POSTGRESQL);
}
