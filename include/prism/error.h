/* SPDX-License-Identifier: MIT */
/*
 * prism error codes.
 *
 * Library functions that return int give 0 on success or a negative error:
 * either -errno (-EINVAL, -ENOMEM, ...) or -PRISM_E_* for failures that have
 * no errno equivalent.  Functions that return a pointer give NULL and set
 * errno to the positive value.  prism_strerror() describes both kinds.
 */
#ifndef PRISM_ERROR_H
#define PRISM_ERROR_H

#include <prism/core.h>

#define PRISM_ERRORS(_)                                                \
	_(BAD_MAGIC, "not a perf.data file (bad magic)")               \
	_(BAD_HEADER, "malformed perf.data header")                    \
	_(TRUNCATED, "file is truncated")                              \
	_(BAD_RECORD, "malformed record")                              \
	_(BAD_SAMPLE, "sample does not match its event's sample_type") \
	_(BAD_FEATURE, "malformed header feature section")             \
	_(UNKNOWN_EVENT, "record belongs to no known event")           \
	_(NOFEATURE, "feature not compiled into this build of prism")  \
	_(DECOMPRESS, "decompression failed")                          \
	_(TRACEPOINT, "tracepoint format could not be parsed")         \
	_(NO_FIELD, "tracepoint has no such field")                    \
	_(UNSUPPORTED, "unsupported file feature")

enum prism_errno {
	PRISM_E__START = 100000,
#define PRISM_ERROR_ENUM(id, msg) PRISM_E_##id,
	PRISM_ERRORS(PRISM_ERROR_ENUM)
#undef PRISM_ERROR_ENUM
		PRISM_E__END
};

/**
 * prism_strerror - describe an error code
 * @err: a negative or positive errno, or a (negative or positive) PRISM_E_*
 * @buf: buffer for the text
 * @len: size of @buf
 *
 * Return: @buf, always NUL-terminated.
 */
PRISM_API char *prism_strerror(int err, char *buf, size_t len);

#endif /* PRISM_ERROR_H */
