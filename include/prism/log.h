/* SPDX-License-Identifier: MIT */
/*
 * Library logging.  The library never writes to stdout or stderr itself: it
 * hands every message to a callback the application sets.  Without one,
 * messages are dropped.
 */
#ifndef PRISM_LOG_H
#define PRISM_LOG_H

#include <stdarg.h>
#include <prism/core.h>

enum prism_log_level {
	PRISM_LOG_ERROR,
	PRISM_LOG_WARN,
	PRISM_LOG_INFO,
	PRISM_LOG_DEBUG,
};

typedef void (*prism_log_fn)(enum prism_log_level level, const char *fmt, va_list ap, void *ctx);

/**
 * prism_log_set - install the log callback
 * @fn: callback, or NULL to drop all messages
 * @ctx: passed back to @fn
 * @max_level: messages above this level are not formatted nor passed on
 */
PRISM_API void prism_log_set(prism_log_fn fn, void *ctx, enum prism_log_level max_level);

#endif /* PRISM_LOG_H */
