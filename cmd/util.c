// SPDX-License-Identifier: MIT
/*
 * Messages, colors, log routing and OOM-fatal allocation for the CLI.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/log.h>

#include "cmd.h"

int verbose;
bool quiet;
bool use_color_stdout;
bool use_color_stderr;

#define RED "\033[1;31m"
#define YELLOW "\033[1;33m"
#define CYAN "\033[36m"
#define RESET "\033[m"

int set_color_mode(const char *when)
{
	if (!strcmp(when, "always")) {
		use_color_stdout = use_color_stderr = true;
	} else if (!strcmp(when, "never")) {
		use_color_stdout = use_color_stderr = false;
	} else if (!strcmp(when, "auto")) {
		use_color_stdout = isatty(1);
		use_color_stderr = isatty(2);
	} else {
		error("invalid --color value '%s'", when);
		hint("use one of: auto, always, never");
		return -1;
	}
	return 0;
}

const char *percent_color(double pct)
{
	if (!use_color_stdout)
		return "";
	if (pct >= 5.0)
		return PERCENT_RED;
	if (pct >= 0.5)
		return PERCENT_GREEN;
	return "";
}

static void vreport(const char *prefix, const char *color, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (use_color_stderr && color)
		fprintf(stderr, "%s%s" RESET, color, prefix);
	else
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", RED, fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(int err, const char *fmt, ...)
{
	char msg[256], buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return error("%s: %s", buf, prism_strerror(err, msg, sizeof(msg)));
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vreport("warning: ", YELLOW, fmt, ap);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("hint: ", CYAN, fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vreport("", NULL, fmt, ap);
	va_end(ap);
}

static void log_to_stderr(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	static const char *const prefix[] = { "error: ", "warning: ", "", "debug: " };
	static const char *const color[] = { RED, YELLOW, NULL, NULL };

	vreport(prefix[level], color[level], fmt, ap);
}

void setup_library_log(void)
{
	enum prism_log_level max = PRISM_LOG_WARN;

	if (quiet)
		max = PRISM_LOG_ERROR;
	else if (verbose >= 2)
		max = PRISM_LOG_DEBUG;
	else if (verbose == 1)
		max = PRISM_LOG_INFO;
	prism_log_set(log_to_stderr, NULL, max);
}

static void oom(size_t size)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", size);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s) + 1);
	return p;
}
