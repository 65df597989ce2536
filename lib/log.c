// SPDX-License-Identifier: MIT
/*
 * Library logging through an application-supplied callback.
 */
#include "internal.h"

static prism_log_fn log_fn;
static void *log_ctx;
static enum prism_log_level log_max = PRISM_LOG_WARN;

void prism_log_set(prism_log_fn fn, void *ctx, enum prism_log_level max_level)
{
	log_fn = fn;
	log_ctx = ctx;
	log_max = max_level;
}

void prism__log(enum prism_log_level level, const char *fmt, ...)
{
	va_list ap;

	if (!log_fn || level > log_max)
		return;
	va_start(ap, fmt);
	log_fn(level, fmt, ap, log_ctx);
	va_end(ap);
}
