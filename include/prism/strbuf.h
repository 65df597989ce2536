/* SPDX-License-Identifier: MIT */
/*
 * A growable string.
 *
 * Invariants: buf is never NULL and always NUL-terminated; len is the string
 * length; alloc is 0 when buf points at the shared empty string.  Initialise
 * with STRBUF_INIT or prism_strbuf_init().  On allocation failure a strbuf
 * becomes "failed": further appends are ignored and prism_strbuf_failed()
 * returns true, so a formatter can append freely and check once at the end.
 */
#ifndef PRISM_STRBUF_H
#define PRISM_STRBUF_H

#include <stdarg.h>
#include <prism/core.h>

struct prism_strbuf {
	char *buf;
	size_t len;
	size_t alloc;
	bool failed;
};

PRISM_API extern char prism_strbuf_empty[];
#define STRBUF_INIT                       \
	{                                 \
		.buf = prism_strbuf_empty \
	}

PRISM_API void prism_strbuf_init(struct prism_strbuf *sb);
/* frees the buffer and re-initialises @sb */
PRISM_API void prism_strbuf_release(struct prism_strbuf *sb);
/* keeps the allocation, empties the string and clears the failed state */
PRISM_API void prism_strbuf_reset(struct prism_strbuf *sb);
/* ensure room for @extra more bytes (plus NUL); 0 or -ENOMEM */
PRISM_API int prism_strbuf_grow(struct prism_strbuf *sb, size_t extra);
PRISM_API void prism_strbuf_add(struct prism_strbuf *sb, const void *data, size_t len);
PRISM_API void prism_strbuf_addstr(struct prism_strbuf *sb, const char *s);
/* @s as a JSON string: quoted, '"' and '\\' escaped, control bytes as \u00XX */
PRISM_API void prism_strbuf_add_json_str(struct prism_strbuf *sb, const char *s);
PRISM_API void prism_strbuf_addch(struct prism_strbuf *sb, char c);
/* @c appended until the string is @len long (a column's padding) */
PRISM_API void prism_strbuf_pad_to(struct prism_strbuf *sb, size_t len, char c);
/* a CSV text field: quoted (RFC 4180) when it holds a comma, quote or line break */
PRISM_API void prism_strbuf_add_csv(struct prism_strbuf *sb, const char *s);
PRISM_API void prism_strbuf_addf(struct prism_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
PRISM_API void prism_strbuf_vaddf(struct prism_strbuf *sb, const char *fmt, va_list ap);
/* shorten to @len bytes (no-op if already shorter) */
PRISM_API void prism_strbuf_setlen(struct prism_strbuf *sb, size_t len);
/* detach the buffer (caller frees it) and re-initialise @sb; NULL if failed */
PRISM_API char *prism_strbuf_detach(struct prism_strbuf *sb, size_t *len);

static inline bool prism_strbuf_failed(const struct prism_strbuf *sb)
{
	return sb->failed;
}

#endif /* PRISM_STRBUF_H */
