// SPDX-License-Identifier: MIT
/*
 * Growable string; see include/prism/strbuf.h for the invariants.
 */
#include <stdio.h>

#include <prism/strbuf.h>

#include "internal.h"

char prism_strbuf_empty[1];

void prism_strbuf_init(struct prism_strbuf *sb)
{
	sb->buf = prism_strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	sb->failed = false;
}

void prism_strbuf_release(struct prism_strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	prism_strbuf_init(sb);
}

void prism_strbuf_reset(struct prism_strbuf *sb)
{
	sb->failed = false;
	prism_strbuf_setlen(sb, 0);
}

int prism_strbuf_grow(struct prism_strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *p;

	if (sb->failed)
		return -ENOMEM;
	if (__builtin_add_overflow(sb->len, extra, &need) || __builtin_add_overflow(need, 1, &need))
		goto fail;
	if (need <= sb->alloc)
		return 0;
	cap = sb->alloc < 64 ? 64 : sb->alloc;
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			goto fail;
		cap *= 2;
	}
	p = realloc(sb->alloc ? sb->buf : NULL, cap);
	if (!p)
		goto fail;
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = cap;
	return 0;
fail:
	sb->failed = true;
	return -ENOMEM;
}

void prism_strbuf_add(struct prism_strbuf *sb, const void *data, size_t len)
{
	if ((sb->failed || len >= sb->alloc - sb->len) && prism_strbuf_grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void prism_strbuf_addstr(struct prism_strbuf *sb, const char *s)
{
	prism_strbuf_add(sb, s, strlen(s));
}

void prism_strbuf_add_json_str(struct prism_strbuf *sb, const char *s)
{
	prism_strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			prism_strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20)
			prism_strbuf_addf(sb, "\\u%04x", c);
		else
			prism_strbuf_addch(sb, (char)c);
	}
	prism_strbuf_addch(sb, '"');
}

void prism_strbuf_addch(struct prism_strbuf *sb, char c)
{
	/* (room for it and the NUL: no growing, the common case) */
	if ((sb->failed || sb->len + 2 > sb->alloc) && prism_strbuf_grow(sb, 1))
		return;
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

void prism_strbuf_pad_to(struct prism_strbuf *sb, size_t len, char c)
{
	if (len <= sb->len ||
	    ((sb->failed || len >= sb->alloc) && prism_strbuf_grow(sb, len - sb->len)))
		return;
	memset(sb->buf + sb->len, c, len - sb->len);
	sb->len = len;
	sb->buf[len] = '\0';
}

void prism_strbuf_vaddf(struct prism_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (sb->failed)
		return;
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if (sb->len + (size_t)n + 1 > sb->alloc) {
		if (prism_strbuf_grow(sb, (size_t)n))
			return;
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void prism_strbuf_addf(struct prism_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	prism_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void prism_strbuf_setlen(struct prism_strbuf *sb, size_t len)
{
	if (len >= sb->len)
		return;
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

char *prism_strbuf_detach(struct prism_strbuf *sb, size_t *len)
{
	char *res;

	if (sb->failed) {
		prism_strbuf_release(sb);
		return NULL;
	}
	if (!sb->alloc) {
		res = calloc(1, 1);
	} else {
		res = sb->buf;
	}
	if (len)
		*len = sb->len;
	prism_strbuf_init(sb);
	return res;
}

void prism_strbuf_add_csv(struct prism_strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		prism_strbuf_addstr(sb, s);
		return;
	}
	prism_strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			prism_strbuf_addch(sb, '"');
		prism_strbuf_addch(sb, *s);
	}
	prism_strbuf_addch(sb, '"');
}
