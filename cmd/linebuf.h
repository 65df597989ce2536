/* SPDX-License-Identifier: MIT */
/*
 * Line-buffer writers for the commands that print millions of lines.
 */
#ifndef PRISM_CMD_LINEBUF_H
#define PRISM_CMD_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <prism/strbuf.h>

/*
 * Fast text output.  perf script prints millions of lines, and printf()
 * cost more than everything else per line, so the text layout is written
 * straight into the line buffer: room() reserves the bytes a run of fields
 * can take, the put_*() helpers write what the printf format in their
 * comment would, and commit() ends the run.
 */

/* room for @n more bytes at the end of @sb, or NULL when out of memory */
static inline char *room(struct prism_strbuf *sb, size_t n)
{
	if (sb->failed || (sb->len + n + 1 > sb->alloc && prism_strbuf_grow(sb, n)))
		return NULL;
	return sb->buf + sb->len;
}

static inline void commit(struct prism_strbuf *sb, char *end)
{
	sb->len = (size_t)(end - sb->buf);
	sb->buf[sb->len] = '\0';
}

/* @len bytes at @str right-aligned in @width (left-aligned with @left), padded with @pad */
static inline char *put_field(char *p, const char *str, size_t len, size_t width, bool left,
			      char pad)
{
	size_t fill = len < width ? width - len : 0;

	if (!left) {
		memset(p, pad, fill);
		p += fill;
	}
	memcpy(p, str, len);
	p += len;
	if (left) {
		memset(p, ' ', fill);
		p += fill;
	}
	return p;
}

#define DIGITS_MAX 24 /* bytes of the longest number put_*() writes, sign included */

static inline size_t nr_digits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* "00" to "99" */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
				     "25262728293031323334353637383940414243444546474849"
				     "50515253545556575859606162636465666768697071727374"
				     "75767778798081828384858687888990919293949596979899";

/* the @n decimal digits of @v ending at @end, two at a time */
static inline void put_digits(char *end, uint64_t v, size_t n)
{
	while (n >= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
		n -= 2;
	}
	if (n)
		*--end = (char)('0' + v % 10);
}

/* the 6 decimal digits of @v (< 1000000) at @p */
static inline void put_digits6(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(p, digit_pairs + 2 * hi, 2);
	memcpy(p + 2, digit_pairs + 2 * (lo / 100), 2);
	memcpy(p + 4, digit_pairs + 2 * (lo % 100), 2);
}

/* "%*" PRIu64, or "%0*" PRIu64 with @pad '0'; takes DIGITS_MAX + @width bytes */
static inline char *put_udec(char *p, uint64_t v, size_t width, char pad)
{
	size_t n = nr_digits(v);

	if (n < width) {
		memset(p, pad, width - n);
		p += width - n;
	}
	put_digits(p + n, v, n);
	return p + n;
}

/*
 * "%*.1f" of @v, @width at most 16: written directly, unless @v is within a
 * hair of a rounding tie (there printf's exact rounding of the binary value
 * decides) or is negative or huge; takes 32 bytes
 */
static inline char *put_fixed1(char *p, double v, size_t width)
{
	double t = v * 10, f;
	uint64_t r;

	if (__builtin_signbit(v) || !(v < 1e12) || width > 16)
		return p + snprintf(p, 32, "%*.1f", (int)width, v);
	f = t - (double)(uint64_t)t;
	if (f > 0.5 - 1e-6 && f < 0.5 + 1e-6)
		return p + snprintf(p, 32, "%*.1f", (int)width, v);
	r = (uint64_t)t + (f > 0.5);
	p = put_udec(p, r / 10, width > 2 ? width - 2 : 0, ' ');
	*p++ = '.';
	*p++ = (char)('0' + r % 10);
	return p;
}

/* "%*" PRIx64 */
static inline char *put_hex(char *p, uint64_t v, size_t width)
{
	static const char xdigits[] = "0123456789abcdef";
	size_t n = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
	char *end;

	if (n < width) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	end = p + n;
	while (p < end) {
		*--end = xdigits[v & 15];
		v >>= 4;
	}
	return p + n;
}

/* "%*d", or "%-*d" with @left */
static inline char *put_int(char *p, int v, size_t width, bool left)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	size_t n = nr_digits(u), len = n + (v < 0);

	if (!left && len < width) {
		memset(p, ' ', width - len);
		p += width - len;
	}
	if (v < 0)
		*p++ = '-';
	put_digits(p + n, u, n);
	p += n;
	if (left && len < width) {
		memset(p, ' ', width - len);
		p += width - len;
	}
	return p;
}

static inline char *put_str(char *p, const char *str, size_t len)
{
	memcpy(p, str, len);
	return p + len;
}

#endif /* PRISM_CMD_LINEBUF_H */
