// SPDX-License-Identifier: MIT
/*
 * prism export FORMAT: the table of formats, each an entry in cmd/export-*.c.
 */
#include <string.h>

#include <prism/core.h>
#include <prism/suggest.h>

#include "cmd.h"
#include "export.h"
#include "options.h"

static const struct export_format {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *summary;
} formats[] = {
	{ "sqlite", export_sqlite,
	  "an SQLite file in perf's export-to-sqlite.py schema (hosts appended with --append)" },
	{ "postgresql", export_postgresql,
	  "a PostgreSQL database (libpq connection string) in perf's export-to-postgresql.py "
	  "schema" },
};

static const char *const usage[] = {
	"prism export <format> [-i <file>] -o <output> [<options>]",
	"prism export <format> --help",
	NULL,
};

static void list_formats(FILE *fp)
{
	size_t i;

	fputs("\nFormats:\n", fp);
	for (i = 0; i < PRISM_ARRAY_SIZE(formats); i++)
		fprintf(fp, "   %-12s %s\n", formats[i].name, formats[i].summary);
	fputs("\nSee 'prism export <format> --help' for a format's options.\n", fp);
}

int cmd_export(int argc, const char **argv)
{
	static const struct option_def opts[] = { OPT_END() };
	const char *names[PRISM_ARRAY_SIZE(formats)];
	const char *best;
	bool help = argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
	size_t i;

	if (help) {
		usage_with_options(usage, opts, false);
		list_formats(stdout);
		return 0;
	}
	argc = parse_options(argc, argv, opts, usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (!argc) {
		error("prism export needs a format");
		usage_with_options(usage, opts, true);
		list_formats(stderr);
		return EXIT_USAGE;
	}
	for (i = 0; i < PRISM_ARRAY_SIZE(formats); i++) {
		if (!strcmp(argv[0], formats[i].name))
			return formats[i].fn(argc, argv);
		names[i] = formats[i].name;
	}
	error("'%s' is not an export format", argv[0]);
	best = prism_suggest(argv[0], names, PRISM_ARRAY_SIZE(names));
	if (best)
		hint("did you mean '%s'?", best);
	else
		hint("'prism export --help' lists the formats");
	return EXIT_USAGE;
}
