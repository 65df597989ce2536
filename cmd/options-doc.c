// SPDX-License-Identifier: MIT
/*
 * The option tables as documents: a roff man page (prism --help-man,
 * prism <command> --help-man) and a list of the options for shell
 * completion (--list-opts).  The build runs the binary to make
 * out/man/prism*.1 and the bash completion (scripts/gen-docs.sh), so a new
 * command or option is covered without more work.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <prism/core.h>

#include "cmd.h"
#include "options.h"

/* @s as roff text: backslashes and hyphens escaped, no line taken for a request */
static void roff(FILE *fp, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", fp);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '-')
			fputs("\\-", fp);
		else if (*s == ',' && s[1] && s[1] != ' ')
			fputs(",\\:", fp); /* a list may break after its commas */
		else if (*s == '\n') {
			fputc('\n', fp);
			if (s[1] == '.' || s[1] == '\'')
				fputs("\\&", fp);
		} else
			fputc(*s, fp);
	}
}

static void upper(FILE *fp, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' ? '-' : toupper((unsigned char)*s), fp);
}

static void man_opt(FILE *fp, const struct option_def *o)
{
	fputs(".TP\n", fp);
	if (o->short_name)
		fprintf(fp, "\\fB\\-%c\\fR", o->short_name);
	if (o->short_name && o->long_name)
		fputs(", ", fp);
	if (o->long_name) {
		fputs("\\fB\\-\\-", fp);
		roff(fp, o->long_name);
		fputs("\\fR", fp);
	}
	if (o->argh) {
		fputs(o->flags & OPTF_OPTARG ? "[=\\fI" : " \\fI", fp);
		roff(fp, o->argh);
		fputs(o->flags & OPTF_OPTARG ? "\\fR]" : "\\fR", fp);
	}
	fputc('\n', fp);
	roff(fp, o->help);
	fputc('\n', fp);
}

static void man_opts(FILE *fp, const struct option_def *o, const char *first)
{
	bool any = false;

	for (; o->type != OPT_END_; o++) {
		if (o->flags & OPTF_HIDDEN)
			continue;
		if (o->type == OPT_GROUP_) {
			fputs(".SS ", fp);
			roff(fp, o->help);
			fputc('\n', fp);
			any = true;
			continue;
		}
		if (!any && first) {
			fprintf(fp, ".SS %s\n", first);
			any = true;
		}
		man_opt(fp, o);
	}
}

void options_print_man(const char *const *usage, const struct option_def *opts)
{
	const char *u0 = usage[0] ? usage[0] : "prism";
	char name[64] = "prism";
	const struct cmd_struct *cmd = NULL;
	const char *const *u;
	size_t len;

	/* "prism top [-d ...]" -> "prism-top" */
	if (!strncmp(u0, "prism ", 6) && islower((unsigned char)u0[6])) {
		len = strcspn(u0 + 6, " ");
		snprintf(name, sizeof(name), "prism-%.*s", (int)len, u0 + 6);
		cmd = find_command(name + 6);
	}
	fputs(".TH ", stdout);
	upper(stdout, name);
	printf(" 1 \"\" \"prism %s\" \"prism manual\"\n", prism_version());
	fputs(".SH NAME\n", stdout);
	roff(stdout, name);
	fputs(" \\- ", stdout);
	roff(stdout,
	     cmd ? cmd->summary : "a Linux performance-analysis toolkit built on perf_events");
	fputs("\n.SH SYNOPSIS\n.nf\n", stdout);
	for (u = usage; *u; u++) {
		roff(stdout, *u);
		fputc('\n', stdout);
	}
	fputs(".fi\n", stdout);
	if (!cmd) {
		size_t i;

		fputs(".SH COMMANDS\n", stdout);
		for (i = 0; i < nr_commands; i++) {
			printf(".TP\n\\fBprism\\-");
			roff(stdout, commands[i].name);
			printf("\\fR(1)\n");
			roff(stdout, commands[i].summary);
			fputc('\n', stdout);
		}
	}
	fputs(".SH OPTIONS\n", stdout);
	man_opts(stdout, opts, "Options");
	man_opts(stdout, common_options, NULL);
	fputs(".SH EXIT STATUS\n0 success; 1 runtime failure; 129 usage error.\n"
	      ".SH SEE ALSO\n",
	      stdout);
	if (cmd)
		fputs("\\fBprism\\fR(1), \\fBperf\\fR(1)\n", stdout);
	else
		fputs("\\fBperf\\fR(1)\n", stdout);
}

static void list_opts(const struct option_def *o)
{
	for (; o->type != OPT_END_; o++) {
		if (o->type == OPT_GROUP_ || (o->flags & OPTF_HIDDEN))
			continue;
		if (o->short_name)
			printf("-%c", o->short_name);
		putchar('\t');
		if (o->long_name)
			printf("--%s", o->long_name);
		putchar('\t');
		/* an optional argument is only given with '=': no word to complete */
		if (o->argh && !(o->flags & OPTF_OPTARG))
			fputs(o->argh, stdout);
		putchar('\n');
	}
}

void options_print_list(const struct option_def *opts)
{
	list_opts(opts);
	list_opts(common_options);
}
