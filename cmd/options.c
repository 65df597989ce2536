// SPDX-License-Identifier: MIT
/*
 * Option parsing driven by struct option_def tables.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/suggest.h>

#include "cmd.h"
#include "options.h"

static int color_cb(const struct option_def *opt, const char *arg)
{
	return set_color_mode(arg);
}

const struct option_def common_options[] = {
	OPT_GROUP("Common options"),
	OPT_COUNT('v', "verbose", &verbose, "be more verbose (repeatable)"),
	OPT_BOOL('q', "quiet", &quiet, "print only errors"),
	OPT_CALLBACK_OPTARG(0, "color", NULL, "when", "colorize output: auto, always or never",
			    color_cb, "always"),
	OPT_END(),
};

static const char *const *cur_usage;
static const struct option_def *cur_opts;

static size_t optlen(const struct option_def *o)
{
	size_t n = 0;

	if (o->short_name)
		n += 2;
	if (o->short_name && o->long_name)
		n += 2;
	if (o->long_name)
		n += 2 + strlen(o->long_name);
	if (o->argh)
		n += strlen(o->argh) + (o->flags & OPTF_OPTARG ? 5 : 3);
	return n;
}

/* one option's line of --help */
static void print_opt(FILE *fp, const struct option_def *o)
{
	const size_t width = 26;
	size_t n;

	fputs("    ", fp);
	if (o->short_name)
		fprintf(fp, "-%c", o->short_name);
	if (o->short_name && o->long_name)
		fputs(", ", fp);
	if (o->long_name)
		fprintf(fp, "--%s", o->long_name);
	if (o->argh) {
		if (o->flags & OPTF_OPTARG)
			fprintf(fp, "[=<%s>]", o->argh);
		else
			fprintf(fp, " <%s>", o->argh);
	}
	n = optlen(o);
	if (n >= width)
		fprintf(fp, "\n%*s", (int)(width + 6), "");
	else
		fprintf(fp, "%*s", (int)(width + 2 - n), "");
	fprintf(fp, "%s\n", o->help);
}

static void print_opts(FILE *fp, const struct option_def *o)
{
	for (; o->type != OPT_END_; o++) {
		if (o->flags & OPTF_HIDDEN)
			continue;
		if (o->type == OPT_GROUP_)
			fprintf(fp, "\n%s\n", o->help);
		else
			print_opt(fp, o);
	}
}

static void print_usage_lines(FILE *fp, const char *const *usage)
{
	const char *const *u;

	for (u = usage; *u; u++)
		fprintf(fp, "%s%s\n", u == usage ? "usage: " : (**u ? "   or: " : ""), *u);
}

/*
 * After a usage error's message: the usage lines, the option it was about
 * (@o, or none), and where the rest is; not the whole table, as perf does.
 */
static void short_usage(const char *const *usage, const struct option_def *o)
{
	const char *cmd = usage[0] ? usage[0] : "prism";
	size_t len = strcspn(cmd, " ");

	/* "prism report [-i ...]" -> "prism report"; "prism export pprof [...]" keeps three */
	while (cmd[len] == ' ' && cmd[len + 1] != '[' && cmd[len + 1] != '-' && cmd[len + 1] != '<')
		len += 1 + strcspn(cmd + len + 1, " ");
	print_usage_lines(stderr, usage);
	if (o) {
		fputc('\n', stderr);
		print_opt(stderr, o);
	}
	fprintf(stderr, "\nsee '%.*s --help' for every option\n", (int)len, cmd);
}

void usage_with_options(const char *const *usage, const struct option_def *opts, bool err)
{
	FILE *fp = err ? stderr : stdout;

	print_usage_lines(fp, usage);
	if (opts && opts->type != OPT_END_) {
		if (opts->type != OPT_GROUP_)
			fputc('\n', fp);
		print_opts(fp, opts);
	}
	print_opts(fp, common_options);
}

void usage_error(const char *const *usage, const struct option_def *opts, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	short_usage(usage, NULL);
	exit(EXIT_USAGE);
}

/* "did you mean" over the long names of both tables */
static void suggest_long(const char *name)
{
	const char *cands[256];
	const struct option_def *tabs[2] = { cur_opts, common_options };
	size_t n = 0;
	const char *best;
	int t;

	for (t = 0; t < 2; t++) {
		const struct option_def *o;

		for (o = tabs[t]; o->type != OPT_END_ && n < PRISM_ARRAY_SIZE(cands); o++)
			if (o->long_name && !(o->flags & OPTF_HIDDEN))
				cands[n++] = o->long_name;
	}
	best = prism_suggest(name, cands, n);
	if (best)
		hint("did you mean '--%s'?", best);
}

static int get_value(const struct option_def *o, const char *arg, const char *shown)
{
	char *end;

	switch (o->type) {
	case OPT_BOOL_:
		*(bool *)o->value = true;
		return 0;
	case OPT_COUNT_:
		(*(int *)o->value)++;
		return 0;
	case OPT_STRING_:
		*(const char **)o->value = arg;
		return 0;
	case OPT_INT_: {
		long v;

		errno = 0;
		v = strtol(arg, &end, 0);
		if (errno || !*arg || *end || v < -2147483647L - 1 || v > 2147483647L) {
			error("option '%s' expects an integer, not '%s'", shown, arg);
			return -1;
		}
		*(int *)o->value = (int)v;
		return 0;
	}
	case OPT_U64_: {
		unsigned long long v;

		errno = 0;
		v = strtoull(arg, &end, 0);
		if (errno || !*arg || *end || *arg == '-') {
			error("option '%s' expects a non-negative integer, not '%s'", shown, arg);
			return -1;
		}
		if (!v && (o->flags & OPTF_POSITIVE)) {
			error("option '%s' expects a number above 0, not '%s'", shown, arg);
			return -1;
		}
		*(uint64_t *)o->value = v;
		return 0;
	}
	case OPT_DOUBLE_: {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || !*arg || *end) {
			error("option '%s' expects a number, not '%s'", shown, arg);
			return -1;
		}
		if ((o->flags & OPTF_POSITIVE) && !(v > 0 && isfinite(v))) {
			error("option '%s' expects a number above 0, not '%s'", shown, arg);
			return -1;
		}
		*(double *)o->value = v;
		return 0;
	}
	case OPT_CALLBACK_:
		return o->cb(o, arg);
	default:
		return -1;
	}
}

static const struct option_def *find_short(int c)
{
	const struct option_def *tabs[2] = { cur_opts, common_options };
	int t;

	for (t = 0; t < 2; t++) {
		const struct option_def *o;

		for (o = tabs[t]; o->type != OPT_END_; o++)
			if (o->short_name == c && o->type != OPT_GROUP_)
				return o;
	}
	return NULL;
}

static const struct option_def *find_long(const char *name, size_t len, bool *negated)
{
	const struct option_def *tabs[2] = { cur_opts, common_options };
	int t;

	*negated = false;
	for (t = 0; t < 2; t++) {
		const struct option_def *o;

		for (o = tabs[t]; o->type != OPT_END_; o++) {
			if (!o->long_name)
				continue;
			if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
				return o;
		}
	}
	/* --no-NAME for booleans */
	if (len > 3 && !strncmp(name, "no-", 3)) {
		for (t = 0; t < 2; t++) {
			const struct option_def *o;

			for (o = tabs[t]; o->type != OPT_END_; o++) {
				if (!o->long_name || o->type != OPT_BOOL_)
					continue;
				if (strlen(o->long_name) == len - 3 &&
				    !strncmp(o->long_name, name + 3, len - 3)) {
					*negated = true;
					return o;
				}
			}
		}
	}
	return NULL;
}

/* a usage error about option @o (NULL: no known option) */
static void __attribute__((noreturn)) fail(const struct option_def *o)
{
	short_usage(cur_usage, o);
	exit(EXIT_USAGE);
}

/* the value of an OPTARG option given without one: the next word if it is a choice */
static const char *optarg_value(const struct option_def *o, const char ***argvp, const char **end)
{
	const char *const *c;
	const char *next;

	if (!o->choices || *argvp + 1 >= end)
		return o->def;
	next = (*argvp)[1];
	if (!strcmp(o->choices[0], "*")) /* perf's LASTARG_DEFAULT: any word but an option */
		return next[0] != '-' ? *++(*argvp) : o->def;
	for (c = o->choices; *c; c++)
		if (!strncmp(next, *c, strlen(*c)) &&
		    (next[strlen(*c)] == '\0' || next[strlen(*c)] == ','))
			return *++(*argvp);
	return o->def;
}

static void parse_long(const char *a, const char ***argvp, const char **end)
{
	const char *name = a + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option_def *o;
	bool negated;
	char shown[128];
	const char *arg = NULL;

	if ((len == 4 && !strncmp(name, "help", 4))) {
		usage_with_options(cur_usage, cur_opts, false);
		exit(0);
	}
	/* the build's: the man page and the completion's list (cmd/options-doc.c) */
	if (!strcmp(name, "help-man")) {
		options_print_man(cur_usage, cur_opts);
		exit(0);
	}
	if (!strcmp(name, "list-opts")) {
		options_print_list(cur_opts);
		exit(0);
	}
	o = find_long(name, len, &negated);
	snprintf(shown, sizeof(shown), "--%.*s", (int)len, name);
	if (!o) {
		char word[128];

		snprintf(word, sizeof(word), "%.*s", (int)len, name);
		error("unknown option '%s'", shown);
		suggest_long(word);
		fail(NULL);
	}
	if (negated) {
		if (eq) {
			error("option '%s' takes no value", shown);
			fail(o);
		}
		*(bool *)o->value = false;
		return;
	}
	if (!o->argh) {
		if (eq) {
			error("option '%s' takes no value", shown);
			fail(o);
		}
		if (get_value(o, NULL, shown))
			fail(o);
		return;
	}
	if (eq) {
		arg = eq + 1;
	} else if (o->flags & OPTF_OPTARG) {
		arg = optarg_value(o, argvp, end);
	} else {
		if (*argvp + 1 >= end) {
			error("option '%s' requires a value", shown);
			fail(o);
		}
		arg = *++(*argvp);
	}
	if (get_value(o, arg, shown))
		fail(o);
}

static void parse_short(const char *a, const char ***argvp, const char **end)
{
	for (a++; *a; a++) {
		const struct option_def *o;
		char shown[4] = { '-', *a, 0, 0 };
		const char *arg;

		if (*a == 'h') {
			usage_with_options(cur_usage, cur_opts, false);
			exit(0);
		}
		o = find_short(*a);
		if (!o) {
			error("unknown switch '%c'", *a);
			fail(NULL);
		}
		if (!o->argh) {
			if (get_value(o, NULL, shown))
				fail(o);
			continue;
		}
		if (a[1])
			arg = a + 1;
		else if (o->flags & OPTF_OPTARG)
			arg = optarg_value(o, argvp, end);
		else if (*argvp + 1 < end)
			arg = *++(*argvp);
		else {
			error("option '%s' requires a value", shown);
			fail(o);
		}
		if (get_value(o, arg, shown))
			fail(o);
		return;
	}
}

int parse_options(int argc, const char **argv, const struct option_def *opts,
		  const char *const *usage, unsigned int flags)
{
	const char **p = argv + 1, **end = argv + argc;
	int out = 0;

	cur_usage = usage;
	cur_opts = opts;
	for (; p < end; p++) {
		const char *a = *p;

		if (a[0] != '-' || !a[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = a;
			p++;
			break;
		}
		if (a[1] == '-')
			parse_long(a, &p, end);
		else
			parse_short(a, &p, end);
	}
	while (p < end)
		argv[out++] = *p++;
	argv[out] = NULL;
	return out;
}

int parse_num_list(const char *s, int64_t **out, size_t *nr)
{
	const char *p = s;
	int64_t *v = NULL;
	size_t n = 0, cap = 0;

	while (*p) {
		char *end;
		long long a = strtoll(p, &end, 0), b;

		if (end == p || a < 0)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoll(p, &end, 0);
			if (end == p || b < a || b - a > 65536)
				goto bad;
		}
		for (; a <= b; a++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[n++] = a;
		}
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	*out = v;
	*nr = n;
	return 0;
bad:
	free(v);
	*out = NULL;
	*nr = 0;
	return -EINVAL;
}
