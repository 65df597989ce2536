// SPDX-License-Identifier: MIT
/*
 * perf's --time windows (perf 6.1's forms and meaning): "START,END" in
 * seconds with up to 9 decimals, an empty side open, several windows
 * separated by blanks; or percents of the span between the file's first
 * and last sample: "A%/N", "A%-B%", "A%", several separated by commas.
 * A window's end is inclusive to the nanosecond.
 */
#include <math.h>

#include <prism/time-filter.h>

#include "../internal.h"

#define NSEC_PER_SEC 1000000000ull

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* "SEC[.FRAC]" (FRAC at most 9 digits) of @len bytes at @s into *@ns */
static int parse_seconds(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0, nfrac = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (sec > (UINT64_MAX / NSEC_PER_SEC - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
			if (++nfrac > 9)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
	}
	if (i != len || !digits)
		return -EINVAL;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*ns = sec * NSEC_PER_SEC + frac;
	return 0;
}

/* "START,END" (one comma) of @len bytes at @s */
static int parse_window(const char *s, size_t len, struct prism_time_range *r, const char **why)
{
	const char *comma = memchr(s, ',', len);
	size_t a = comma ? (size_t)(comma - s) : len;

	r->start = r->end = 0;
	if (!comma) {
		*why = "expected START,END in seconds";
		return -EINVAL;
	}
	if (memchr(comma + 1, ',', len - a - 1)) {
		*why = "windows are separated by blanks: 'START,END START,END'";
		return -EINVAL;
	}
	if ((a && parse_seconds(s, a, &r->start)) ||
	    (len > a + 1 && parse_seconds(comma + 1, len - a - 1, &r->end))) {
		*why = "a time is seconds with at most 9 decimals, as perf script prints it";
		return -EINVAL;
	}
	if (r->end && r->end < r->start) {
		*why = "the end is before the start";
		return -EINVAL;
	}
	return 0;
}

static int add(struct prism_time_filter *tf, size_t *cap)
{
	if (prism_ensure_mem((void **)&tf->v, cap, sizeof(*tf->v), tf->nr + 1))
		return -ENOMEM;
	tf->nr++;
	return 0;
}

/* windows separated by blanks, each with one comma, ascending without overlaps */
static int parse_windows(struct prism_time_filter *tf, const char *s, const char **why)
{
	size_t cap = 0, i;
	int err;

	while (*s) {
		const char *end;

		while (is_blank(*s))
			s++;
		if (!*s)
			break;
		for (end = s; *end && !is_blank(*end); end++)
			;
		err = add(tf, &cap);
		if (err)
			return err;
		err = parse_window(s, (size_t)(end - s), &tf->v[tf->nr - 1], why);
		if (err)
			return err;
		s = end;
	}
	if (!tf->nr) {
		*why = "expected START,END in seconds";
		return -EINVAL;
	}
	for (i = 0; i + 1 < tf->nr; i++) {
		if (tf->v[i].end >= tf->v[i + 1].start) {
			*why = "windows must be in ascending order without overlaps";
			return -EINVAL;
		}
	}
	return 0;
}

/* "A%" of @len bytes at @s as a fraction */
static int parse_percent(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || s[len - 1] != '%')
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*v = strtod(buf, &end);
	if (end == buf || *end || !isfinite(*v))
		return -EINVAL;
	*v /= 100.0;
	return 0;
}

/* perf's window of the fractions @a..@b of [@first, @last] */
static int percent_window(struct prism_time_range *r, double a, double b, uint64_t first,
			  uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -EINVAL;
	r->start = first + (uint64_t)llround(a * (double)total);
	r->end = first + (uint64_t)llround(b * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* one of "A%/N" (@kind '/'), "A%-B%" ('-'), "A%" (0) */
static int parse_percent_one(const char *s, size_t len, char kind, struct prism_time_range *r,
			     uint64_t first, uint64_t last)
{
	const char *sep = kind ? memchr(s, kind, len) : NULL;
	double a, b;

	if (kind && !sep)
		return -EINVAL;
	if (!kind)
		return parse_percent(s, len, &a) ? -EINVAL : percent_window(r, 0, a, first, last);
	if (parse_percent(s, (size_t)(sep - s), &a))
		return -EINVAL;
	if (kind == '-') {
		if (parse_percent(sep + 1, len - (size_t)(sep - s) - 1, &b))
			return -EINVAL;
		return percent_window(r, a, b, first, last);
	} else {
		char buf[24], *end;
		long n;
		size_t nl = len - (size_t)(sep - s) - 1;

		if (!nl || nl >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, sep + 1, nl);
		buf[nl] = '\0';
		n = strtol(buf, &end, 10);
		if (*end || a <= 0.0)
			return -EINVAL;
		return percent_window(r, a * (double)(n - 1), a * (double)n, first, last);
	}
}

static int parse_percents(struct prism_time_filter *tf, const char *s, uint64_t first,
			  uint64_t last, const char **why)
{
	char kind = strchr(s, '/') ? '/' : strchr(s, '-') ? '-' : 0;
	size_t cap = 0;
	int err;

	if (!first && !last) {
		*why = "percents need the file's first and last sample times (its SAMPLE_TIME "
		       "header, which perf record writes)";
		return -ENODATA;
	}
	for (;;) {
		const char *comma = kind ? strchr(s, ',') : NULL;
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		err = add(tf, &cap);
		if (err)
			return err;
		if (parse_percent_one(s, len, kind, &tf->v[tf->nr - 1], first, last)) {
			*why = "percents of the file's time are A%/N (the Nth slice of A%), A%-B% "
			       "or A%, each from 0% to 100%";
			return -EINVAL;
		}
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

bool prism_time_filter__percent(const char *s)
{
	return s && strchr(s, '%');
}

int prism_time_filter__parse(struct prism_time_filter *tf, const char *s, uint64_t first,
			     uint64_t last, const char **why)
{
	int err;

	*why = NULL;
	tf->v = NULL;
	tf->nr = 0;
	err = prism_time_filter__percent(s) ? parse_percents(tf, s, first, last, why) :
					      parse_windows(tf, s, why);
	if (err) {
		if (err == -ENOMEM)
			*why = "out of memory";
		prism_time_filter__release(tf);
	}
	return err;
}

bool prism_time_filter__skip(const struct prism_time_filter *tf, uint64_t time)
{
	size_t i;

	if (!tf->nr || !time)
		return false;
	if (tf->nr == 1)
		return (tf->v[0].start && time < tf->v[0].start) ||
		       (tf->v[0].end && time > tf->v[0].end);
	for (i = 0; i < tf->nr; i++)
		if (time >= tf->v[i].start && (time <= tf->v[i].end || !tf->v[i].end))
			return false;
	return true;
}

void prism_time_filter__release(struct prism_time_filter *tf)
{
	free(tf->v);
	tf->v = NULL;
	tf->nr = 0;
}
