// SPDX-License-Identifier: MIT
/*
 * prism: the command table, global options and the exit-time checks.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/core.h>
#include <prism/suggest.h>

#include "cmd.h"
#include "options.h"

/* One row per command; adding a command = one file in cmd/ + one row here. */
const struct cmd_struct commands[] = {
	{ "help", cmd_help, "show help for prism or one of its commands" },
	{ "header", cmd_header, "print the header features of a perf.data file" },
	{ "script", cmd_script,
	  "print the samples of a perf.data file, one line each (like perf script)" },
	{ "stats", cmd_stats, "count the records of a perf.data file by type and event" },
	{ "version", cmd_version, "print the version and the optional features built in" },
	{ "record", cmd_record, "record events into a perf.data file (perf reads it)" },
	{ "trace", cmd_trace, "print events live, or a per-thread syscall summary (-s)" },
	{ "util", cmd_util,
	  "CPU utilization per process, task and CPU with syscall/irq tables (curt)" },
	{ "list", cmd_list, "list the available events: software, hardware, PMUs, tracepoints" },
	{ "report", cmd_report,
	  "symbolized profile: hot functions, call graphs, flame graphs (like perf report)" },
	{ "offcpu", cmd_offcpu, "off-CPU time by function, task and stack (record --off-cpu)" },
	{ "annotate", cmd_annotate,
	  "disassembly of the hottest symbols with each instruction's share of samples (like perf "
	  "annotate)" },
	{ "archive", cmd_archive,
	  "pack the kallsyms and binaries a perf.data file needs (like perf archive)" },
	{ "export", cmd_export,
	  "write a profile or trace for other tools: sqlite, postgresql, pprof, perfetto, speedscope" },
	{ "stat", cmd_stat, "count events of a command, CPUs or threads (like perf stat)" },
	{ "top", cmd_top, "live CPU utilization per task, CPU and syscall, refreshed (like top)" },
	{ "sched", cmd_sched,
	  "scheduler analyses in perf sched's layouts: timehist, latency, map; record" },
};
const size_t nr_commands = PRISM_ARRAY_SIZE(commands);

static const char *const main_usage[] = {
	"prism [-v | -q] [--color[=<when>]] <command> [<args>]",
	"prism --version",
	"prism help <command>",
	NULL,
};

const struct cmd_struct *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < nr_commands; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void list_commands(FILE *fp)
{
	size_t i;

	fputs("\nprism is a Linux performance-analysis toolkit built on perf_events.\n"
	      "\nCommands:\n",
	      fp);
	for (i = 0; i < nr_commands; i++)
		fprintf(fp, "   %-12s %s\n", commands[i].name, commands[i].summary);
	fputs("\nSee 'prism help <command>' or 'prism <command> --help' for a command's options.\n"
	      "\nExit status: 0 success, also when a command skipped records of a perf.data file\n"
	      "whose body is malformed (a warning names each kind, its count and the first file\n"
	      "offset); 1 runtime failure, e.g. a record size that breaks the stream, where the\n"
	      "read stops and the output is incomplete; 129 usage error.\n",
	      fp);
}

static bool show_version;

static const struct option_def main_options[] = {
	OPT_BOOL(0, "version", &show_version, "print the version and exit"),
	OPT_END(),
};

static void print_main_help(FILE *fp)
{
	const char *const *u;

	for (u = main_usage; *u; u++)
		fprintf(fp, "%s%s\n", u == main_usage ? "usage: " : "   or: ", *u);
	list_commands(fp);
}

/*
 * Report write errors on stdout (ENOSPC, EIO) at exit.  A closed pipe is the
 * reader's choice, not an error: stay quiet then.
 */
static int check_stdout(int status)
{
	struct stat st;

	if (fstat(fileno(stdout), &st))
		return status; /* stdout was closed by our caller */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout) && fclose(stdout) == 0)
		return status;
	if (errno == EPIPE)
		return status;
	error("write failure on standard output: %s", strerror(errno ? errno : EIO));
	return status ? status : 1;
}

/*
 * prism reads perf.data files through mappings: a file cut shorter while it
 * is read (or a failing disk) raises SIGBUS on the next access.  Say so
 * instead of dying of "Bus error".  Only async-signal-safe calls here.
 */
static void on_sigbus(int sig)
{
	static const char msg[] =
		"error: a file prism had mapped could not be read any more (SIGBUS): "
		"was it truncated or rewritten while prism read it?\n"
		"hint: read a finished recording, or a copy of the file\n";
	ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)n;
	(void)sig;
	_exit(1);
}

static int run_command(const struct cmd_struct *cmd, int argc, const char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigbus };

	sigaction(SIGBUS, &sa, NULL);
	setup_library_log();
	return check_stdout(cmd->fn(argc, argv));
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	const char *names[64];
	const char *best;
	size_t i;

	set_color_mode("auto");
	for (i = 1; i < (size_t)argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_main_help(stdout);
			return check_stdout(0);
		}
		if (!strcmp(argv[i], "--list-cmds")) { /* for the build's docs */
			for (i = 0; i < nr_commands; i++)
				printf("%s\n", commands[i].name);
			return check_stdout(0);
		}
	}
	argc = parse_options(argc, argv, main_options, main_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (show_version) {
		printf("prism version %s\n", prism_version());
		return check_stdout(0);
	}
	if (argc == 0) { /* a usage error, as the README says: help on stderr */
		print_main_help(stderr);
		return EXIT_USAGE;
	}
	cmd = find_command(argv[0]);
	if (cmd)
		return run_command(cmd, argc, argv);

	error("'%s' is not a prism command; see 'prism --help'", argv[0]);
	for (i = 0; i < nr_commands && i < PRISM_ARRAY_SIZE(names); i++)
		names[i] = commands[i].name;
	best = prism_suggest(argv[0], names, i);
	if (best)
		hint("did you mean '%s'?", best);
	return EXIT_USAGE;
}

int cmd_help(int argc, const char **argv)
{
	static const char *const usage[] = { "prism help [<command>]", NULL };
	static const struct option_def opts[] = { OPT_END() };
	const struct cmd_struct *cmd;
	const char *sub[3];

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc == 0) {
		print_main_help(stdout);
		return 0;
	}
	cmd = find_command(argv[0]);
	if (!cmd) {
		const char *names[64];
		const char *best;
		size_t i;

		error("no such command '%s'", argv[0]);
		for (i = 0; i < nr_commands && i < PRISM_ARRAY_SIZE(names); i++)
			names[i] = commands[i].name;
		best = prism_suggest(argv[0], names, i);
		if (best)
			hint("did you mean '%s'?", best);
		return EXIT_USAGE;
	}
	sub[0] = cmd->name;
	sub[1] = "--help";
	sub[2] = NULL;
	return cmd->fn(2, sub);
}
