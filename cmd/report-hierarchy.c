// SPDX-License-Identifier: MIT
/*
 * prism report --hierarchy: perf's hierarchy layout, a level per sort key
 * (Command, then its Shared Objects, then their Symbols...), each row
 * indented under the row of the level above it, with the call graphs of
 * the last level's rows.
 *
 * A level's rows are the rows of the keys up to it (the profile's rows for
 * fewer keys, in their order: overhead, then the keys), under the row of
 * the level above that has their values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/profile.h>
#include <prism/strbuf.h>

#include "cmd.h"
#include "report.h"

#define INDENT 3 /* perf's HIERARCHY_INDENT */

struct report_levels {
	size_t nr; /* the sort keys: the last level's rows are the caller's */
	struct prism_hist_entry *rows[PRISM_SORT__MAX]; /* levels 0 .. nr - 2 (copies) */
	size_t nr_rows[PRISM_SORT__MAX];
	char **prefix[PRISM_SORT__MAX]; /* per row, its keys' texts up to its level */
};

/* the texts of @e's first @depth + 1 keys, joined by \x1f */
static char *prefix_text(const struct report *r, const struct prism_hist_entry *e, size_t depth)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char buf[1024];
	size_t i;

	for (i = 0; i <= depth; i++) {
		report_col_text(r, r->keys[i], e, buf, sizeof(buf));
		prism_strbuf_addf(&sb, "%s%s\x1f", buf,
				  r->keys[i] == PRISM_SORT_SYM && e->kernel ? "k" : "");
	}
	if (prism_strbuf_failed(&sb)) {
		error("out of memory building the report");
		exit(1);
	}
	return prism_strbuf_detach(&sb, NULL);
}

static void free_levels(struct report_levels *lv)
{
	size_t l, i;

	for (l = 0; l < lv->nr; l++) {
		for (i = 0; lv->prefix[l] && i < lv->nr_rows[l]; i++)
			free(lv->prefix[l][i]);
		free(lv->prefix[l]);
		free(lv->rows[l]);
	}
	free(lv);
}

struct report_levels *report_hierarchy_levels(struct report *r, struct prism_profile *p, bool graph,
					      bool caller)
{
	struct report_levels *lv = xcalloc(1, sizeof(*lv));
	size_t nr_keys = r->nr_keys, l, i;
	struct prism_hist_entry *e;
	size_t n;

	lv->nr = nr_keys;
	for (l = 0; l + 1 < nr_keys; l++) {
		r->nr_keys = l + 1;
		if (report_entries(r, p, false, graph, caller, &e, &n)) {
			r->nr_keys = nr_keys;
			free_levels(lv);
			return NULL;
		}
		lv->rows[l] = xcalloc(n + 1, sizeof(*e));
		memcpy(lv->rows[l], e, n * sizeof(*e));
		lv->nr_rows[l] = n;
		lv->prefix[l] = xcalloc(n + 1, sizeof(char *));
		for (i = 0; i < n; i++)
			lv->prefix[l][i] = prefix_text(r, &e[i], l);
	}
	r->nr_keys = nr_keys;
	return lv;
}

struct hctx {
	struct report *r;
	struct report_levels *lv;
	struct prism_profile *p;
	const size_t *w; /* the columns' widths (r->cols) */
	size_t nr_fields; /* the overhead columns: r->cols' first */
	uint64_t total, gtotal, gmin;
	bool caller;
	char **leaf_prefix; /* the last level's rows' */
	struct prism_strbuf out;
};

static size_t rows_at(const struct hctx *h, size_t l, const struct prism_hist_entry **e)
{
	*e = h->lv->rows[l];
	return h->lv->nr_rows[l];
}

static const char *prefix_at(const struct hctx *h, size_t l, size_t i)
{
	return l + 1 == h->lv->nr ? h->leaf_prefix[i] : h->lv->prefix[l][i];
}

/* a row: the overhead columns indented by its depth, then its level's text */
static void print_hrow(struct hctx *h, const struct prism_hist_entry *e, size_t l, size_t idx)
{
	struct report *r = h->r;
	size_t nr_cols = r->nr_cols, key = r->keys[l], k, len, pad;
	char buf[1024];
	const char *t;

	prism_strbuf_reset(&h->out);
	prism_strbuf_addf(&h->out, "%*s", (int)(l * INDENT), "");
	r->nr_cols = h->nr_fields;
	report_print_row(r, e, h->w, h->total, false, &h->out);
	r->nr_cols = nr_cols;
	prism_strbuf_setlen(&h->out, h->out.len - 1); /* its '\n' */
	/* perf: room for the deepest level's indent, then the text, its blanks first trimmed */
	if (r->field_sep)
		prism_strbuf_addstr(&h->out, r->field_sep);
	else
		prism_strbuf_addf(&h->out, "%*s  ", (int)((h->lv->nr - 1) * INDENT), "");
	report_col_text(r, (int)key, e, buf, sizeof(buf));
	for (k = 0; k < r->nr_cols && r->cols[k] != (int)key; k++)
		;
	len = strlen(buf);
	pad = !report_key_unpadded((int)key) && k < r->nr_cols && len < h->w[k] ? h->w[k] - len : 0;
	for (t = buf; *t == ' '; t++)
		;
	prism_strbuf_addf(&h->out, "%s%*s\n", t, (int)pad, "");
	if (l + 1 == h->lv->nr && h->gmin != UINT64_MAX && e->self >= h->gmin)
		report_print_graph(h->p, idx, h->caller, prism_profile__total_period(h->p),
				   h->gtotal, &r->cg, r->sort && !strncmp(r->sort, "sym", 3),
				   &h->out);
	fwrite(h->out.buf, 1, h->out.len, stdout);
}

/* the width of the overhead columns (perf's hists__overhead_width()) */
static size_t fields_width(const struct hctx *h)
{
	size_t k, w = 0;

	for (k = 0; k < h->nr_fields; k++)
		w += h->w[k] + (k ? 2 : 0);
	return w;
}

/* level @l's rows under @parent (the prefix of the level above; NULL at the top) */
static void print_level(struct hctx *h, size_t l, const char *parent)
{
	const struct prism_hist_entry *e;
	size_t n = rows_at(h, l, &e), plen = parent ? strlen(parent) : 0, i;
	struct report *r = h->r;
	bool any;

	for (i = 0; i < n; i++) {
		const char *pre = prefix_at(h, l, i);

		if (parent && strncmp(pre, parent, plen))
			continue;
		if (!report_row_visible(r, &e[i], h->total, false, true))
			continue;
		print_hrow(h, &e[i], l, i);
		if (l + 1 == h->lv->nr)
			continue;
		any = false;
		{
			const struct prism_hist_entry *c;
			size_t m = rows_at(h, l + 1, &c), j;

			for (j = 0; j < m && !any; j++)
				any = !strncmp(prefix_at(h, l + 1, j), pre, strlen(pre)) &&
				      report_row_visible(r, &c[j], h->total, false, true);
		}
		if (!any) { /* perf's line for a row whose rows all fall below --percent-limit */
			printf("%*s%*sno entry >= %.2f%%\n", (int)((h->lv->nr + l) * INDENT), "",
			       (int)(fields_width(h) + 4), "", r->percent_limit);
			continue;
		}
		print_level(h, l + 1, pre);
	}
}

/* perf: a level's header without its blanks (its pid's "    Pid:Command") */
static int print_trimmed(const char *s)
{
	size_t n;

	while (*s == ' ')
		s++;
	for (n = strlen(s); n && s[n - 1] == ' '; n--)
		;
	return printf("%.*s", (int)n, s);
}

/* -t SEP: none of the indents, SEP after the overhead columns */
static void print_headers(const struct hctx *h)
{
	struct report *r = h->r;
	const char *sep = r->field_sep;
	size_t k, l, hw, len = 0, indent = sep ? 0 : (h->lv->nr - 1) * INDENT;

	printf("# %*s", (int)indent, "");
	for (k = 0; k < h->nr_fields; k++)
		printf("%*s%s", (int)h->w[k], report_col_header(r, r->cols[k]), sep ? sep : "  ");
	for (l = 0; l < h->lv->nr; l++)
		len += (size_t)printf("%s", l ? " / " : "") +
		       (size_t)print_trimmed(report_col_header(r, r->keys[l]));
	printf("\n# ");
	for (k = 0; k < indent; k++)
		putchar('.');
	for (k = 0; k < h->nr_fields; k++) {
		printf("%s", k ? sep ? sep : ".." : "");
		for (l = 0; l < h->w[k]; l++)
			putchar('.');
	}
	hw = len;
	for (l = 0; l < h->lv->nr; l++) {
		for (k = 0; k < r->nr_cols && r->cols[k] != (int)r->keys[l]; k++)
			;
		if (k < r->nr_cols && l * INDENT + h->w[k] > hw)
			hw = l * INDENT + h->w[k];
	}
	printf("%s", sep ? sep : "  ");
	for (k = 0; k < hw; k++)
		putchar('.');
	printf("\n#\n");
}

void report_print_hierarchy(struct report *r, struct prism_profile *p, struct report_levels *lv,
			    const struct prism_hist_entry *e, size_t n, uint64_t total,
			    uint64_t gtotal, uint64_t gmin, bool caller)
{
	struct hctx h = { .r = r,
			  .lv = lv,
			  .p = p,
			  .total = total,
			  .gtotal = gtotal,
			  .gmin = gmin,
			  .caller = caller,
			  .out = STRBUF_INIT };
	size_t *w = xcalloc(r->nr_cols + 1, sizeof(*w)), i, l = lv->nr - 1;
	size_t nr_user_w = r->nr_user_w;

	/* perf 6.1 sets -w's widths on columns its hierarchy copied before: none apply */
	r->nr_user_w = 0;
	report_col_widths(r, e, n, total, false, w);
	h.w = w;
	while (h.nr_fields < r->nr_cols && report_is_field(r->cols[h.nr_fields]))
		h.nr_fields++;
	lv->rows[l] = (struct prism_hist_entry *)e; /* (not freed: the profile's) */
	lv->nr_rows[l] = n;
	h.leaf_prefix = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		h.leaf_prefix[i] = prefix_text(r, &e[i], l);
	print_headers(&h);
	print_level(&h, 0, NULL);
	printf("\n\n");
	for (i = 0; i < n; i++)
		free(h.leaf_prefix[i]);
	free(h.leaf_prefix);
	lv->rows[l] = NULL;
	lv->nr_rows[l] = 0;
	free_levels(lv);
	free(w);
	prism_strbuf_release(&h.out);
	r->nr_user_w = nr_user_w;
}
