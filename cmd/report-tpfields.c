// SPDX-License-Identifier: MIT
/*
 * prism report --raw-trace on a file of tracepoints only: perf's default
 * keys are then each event's own fields (its trace_fields): a column per
 * field of the section's event, named after it, the value as --raw-trace
 * prints it, right-aligned and cut to perf's width (the name's, or a
 * string's size, or the hex digits of a number's: size * 2 + 2); rows of
 * equal overhead by the fields' bytes, largest first, as perf compares them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <prism/evsel.h>
#include <prism/session.h>
#include <prism/tp.h>

#include "cmd.h"
#include "report.h"

void report_tpf_setup(struct report *r, struct prism_evsel *evsel)
{
	const struct prism_tp *tp = prism_session__tp(r->s);
	const struct prism_tp_event *ev =
		tp && evsel ? prism_tp__event(tp, prism_evsel__attr(evsel)->config) : NULL;
	size_t i, n = ev ? prism_tp_event__nr_fields(ev) : 0;

	r->tpf.nr = 0;
	for (i = 0; i < n && r->tpf.nr < REPORT_TP_FIELDS; i++) {
		const struct prism_tp_field *f = prism_tp_event__field_at(ev, i);
		const char *name = prism_tp_field__name(f);
		size_t w = strlen(name), size = prism_tp_field__size(f);
		bool str = prism_tp_field__is_string(f);

		if (!strncmp(name, "common_", 7))
			continue;
		if ((str ? size : size * 2 + 2) > w) /* perf's hde_width() */
			w = str ? size : size * 2 + 2;
		r->tpf.names[r->tpf.nr] = name;
		r->tpf.width[r->tpf.nr] = w;
		r->tpf.size[r->tpf.nr] = size;
		r->tpf.str[r->tpf.nr++] = str;
	}
}

/* field @k's value in a row's --raw-trace text: after " name=", up to the next field */
static const char *value_of(const struct report *r, const char *text, size_t k, size_t *len)
{
	char pat[128];
	const char *v, *end;

	snprintf(pat, sizeof(pat), " %s=", r->tpf.names[k]);
	v = text ? strstr(text, pat) : NULL;
	if (!v) {
		*len = 0;
		return "";
	}
	v += strlen(pat);
	end = NULL;
	if (k + 1 < r->tpf.nr) {
		snprintf(pat, sizeof(pat), " %s=", r->tpf.names[k + 1]);
		end = strstr(v, pat);
	}
	*len = end ? (size_t)(end - v) : strlen(v);
	return v;
}

void report_tpf_text(const struct report *r, int key, const struct prism_hist_entry *e, char *buf,
		     size_t len)
{
	size_t k = (size_t)(key - COL_TP_FIELD), n, w = r->tpf.width[k];
	const char *v = value_of(r, e->trace, k, &n);

	snprintf(buf, len, "%*.*s", (int)w, (int)(n < w ? n : w), v);
}

/* the field's bytes as perf compares them, from its text (numbers little-endian) */
static size_t field_bytes(const struct report *r, size_t k, const char *v, size_t n, uint8_t *out,
			  size_t max)
{
	size_t size = r->tpf.size[k] < max ? r->tpf.size[k] : max, i = 0;
	char num[64];
	uint64_t x;

	memset(out, 0, max);
	if (n >= 6 && !strncmp(v, "ARRAY[", 6)) {
		const char *p = v + 6;

		while (i < max && p < v + n && *p != ']') {
			out[i++] = (uint8_t)strtoul(p, (char **)&p, 16);
			while (p < v + n && (*p == ',' || *p == ' '))
				p++;
		}
		return i > size ? i : size;
	}
	if (r->tpf.str[k]) {
		memcpy(out, v, n < max ? n : max);
		return n + 1 > size ? (n + 1 < max ? n + 1 : max) : size;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(n < 63 ? n : 63), v);
	x = num[0] == '-' ? (uint64_t)strtoll(num, NULL, 0) : strtoull(num, NULL, 0);
	for (i = 0; i < size && i < 8; i++)
		out[i] = (uint8_t)(x >> (8 * i));
	return size;
}

static const struct report *sort_r;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct prism_hist_entry *a = pa, *b = pb;
	uint8_t x[256], y[256];
	size_t k, na, nb, la, lb;
	int c;

	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	for (k = 0; k < sort_r->tpf.nr; k++) { /* perf: memcmp(), the larger first */
		const char *va = value_of(sort_r, a->trace, k, &na);
		const char *vb = value_of(sort_r, b->trace, k, &nb);

		la = field_bytes(sort_r, k, va, na, x, sizeof(x));
		lb = field_bytes(sort_r, k, vb, nb, y, sizeof(y));
		c = memcmp(x, y, la > lb ? la : lb);
		if (c)
			return c > 0 ? -1 : 1;
	}
	return 0;
}

struct prism_hist_entry *report_tpf_sort(const struct report *r, const struct prism_hist_entry *e,
					 size_t n)
{
	struct prism_hist_entry *s = xcalloc(n + 1, sizeof(*s));

	memcpy(s, e, n * sizeof(*e));
	sort_r = r;
	qsort(s, n, sizeof(*s), cmp_rows);
	return s;
}
