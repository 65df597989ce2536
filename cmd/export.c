// SPDX-License-Identifier: MIT
/*
 * prism export FORMAT: the table of formats and the output file every
 * format writes (a temporary file renamed at the end).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/core.h>
#include <prism/suggest.h>

#include "cmd.h"
#include "export.h"
#include "options.h"

struct export_format {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
};

/* one row per format; a format = one cmd/export-<fmt>.c + a row here */
static const struct export_format formats[] = {
	{ "sqlite", export_sqlite,
	  "an SQLite file in perf's export-to-sqlite.py schema (hosts appended with --append)" },
	{ "postgresql", export_postgresql,
	  "a PostgreSQL database (libpq connection string) in perf's export-to-postgresql.py "
	  "schema" },
	{ "pprof", export_pprof,
	  "gzipped profile.proto for go tool pprof, Pyroscope, Parca, Grafana" },
	{ "perfetto", export_perfetto,
	  "Perfetto trace: CPU scheduling, syscall/irq slices, utilization, samples" },
	{ "speedscope", export_speedscope,
	  "speedscope JSON: one sampled profile per thread (www.speedscope.app)" },
};

static const char *const export_usage[] = {
	"prism export <format> [-i <file>] -o <out> [<options>]",
	"prism export <format> --help",
	NULL,
};

static void print_formats(FILE *fp)
{
	size_t i;

	fputs("\nFormats:\n", fp);
	for (i = 0; i < PRISM_ARRAY_SIZE(formats); i++)
		fprintf(fp, "   %-12s %s\n", formats[i].name, formats[i].summary);
	fputs("\nSee 'prism export <format> --help' for a format's options.\n", fp);
}

int cmd_export(int argc, const char **argv)
{
	const char *names[PRISM_ARRAY_SIZE(formats)];
	const char *best;
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		FILE *fp = argc < 2 ? stderr : stdout;
		const char *const *u;

		for (u = export_usage; *u; u++)
			fprintf(fp, "%s%s\n", u == export_usage ? "usage: " : "   or: ", *u);
		print_formats(fp);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--help-man") || !strcmp(argv[1], "--list-opts")) {
		/* the build's docs (cmd/options-doc.c): the usage and common options */
		static const struct option_def none[] = { OPT_END() };

		parse_options(argc, argv, none, export_usage, 0);
	}
	for (i = 0; i < PRISM_ARRAY_SIZE(formats); i++) {
		if (!strcmp(argv[1], formats[i].name))
			return formats[i].fn(argc - 1, argv + 1);
		names[i] = formats[i].name;
	}
	error("'%s' is not an export format; see 'prism export --help'", argv[1]);
	best = prism_suggest(argv[1], names, PRISM_ARRAY_SIZE(formats));
	if (best)
		hint("did you mean '%s'?", best);
	return EXIT_USAGE;
}

static mode_t current_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

int export_out_open(struct export_out *o, const char *path)
{
	const char *slash;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		o->fp = stdout;
		return 0;
	}
	slash = strrchr(path, '/');
	o->tmp = xmalloc(strlen(path) + 32);
	if (slash)
		snprintf(o->tmp, strlen(path) + 32, "%.*s/.prism-export-XXXXXX",
			 (int)(slash - path), path);
	else
		snprintf(o->tmp, strlen(path) + 32, ".prism-export-XXXXXX");
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		if (errno == ENOENT)
			hint("does the directory exist?");
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp's 0600: give the file the usual mode */
	fchmod(fd, 0666 & ~current_umask());
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		error("cannot open '%s': %s", o->tmp, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

int export_out_commit(struct export_out *o)
{
	int err = 0;

	if (!o->tmp) {
		if (fflush(o->fp))
			return error("cannot write to standard output: %s", strerror(errno));
		return 0;
	}
	if (fflush(o->fp) || fsync(fileno(o->fp)))
		err = errno ? errno : EIO;
	if (fclose(o->fp) && !err)
		err = errno ? errno : EIO;
	o->fp = NULL;
	if (!err && rename(o->tmp, o->path))
		err = errno;
	if (err) {
		unlink(o->tmp);
		error("cannot write '%s': %s", o->path, strerror(err));
	}
	free(o->tmp);
	o->tmp = NULL;
	return err ? -1 : 0;
}

void export_out_abort(struct export_out *o)
{
	if (!o->tmp)
		return;
	if (o->fp)
		fclose(o->fp);
	o->fp = NULL;
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

void export_format_bytes(uint64_t n, char *buf, size_t size)
{
	if (n < 10000)
		snprintf(buf, size, "%" PRIu64 " bytes", n);
	else if (n < 10000000)
		snprintf(buf, size, "%.1f kB", n / 1e3);
	else
		snprintf(buf, size, "%.1f MB", n / 1e6);
}
