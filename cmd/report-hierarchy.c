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
#include "lists.h"
#include "report.h"

#define INDENT 3 /* perf's HIERARCHY_INDENT */

struct report_levels {
	size_t nr; /* the sort keys: the last level's rows are the caller's */
	struct prism_hist_entry *rows[PRISM_SORT__MAX]; /* levels 0 .. nr - 2 (copies) */
	size_t nr_rows[PRISM_SORT__MAX];
	char **prefix[PRISM_SORT__MAX]; /* per row, its keys' texts up to its level */
	struct report_group *grp[PRISM_SORT__MAX]; /* a group's view: each level's, its rows */
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
		if (lv->grp[l])
			report_group_free(lv->grp[l]);
		else
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
	bool *shown[PRISM_SORT__MAX]; /* per level and row: no filter leaves it out */
	struct prism_strbuf out;
};

static size_t last(const struct hctx *h)
{
	return h->lv->nr - 1;
}

/* row @j of level @m is under row @i of level @l (l <= m) */
static bool under(const struct hctx *h, size_t l, size_t i, size_t m, size_t j)
{
	const char *a = h->lv->prefix[l][i];

	return !strncmp(h->lv->prefix[m][j], a, strlen(a));
}

/* perf's order of its first entries (ascending keys): which one made a row of a level above */
static int leaf_cmp(const struct hctx *h, const struct prism_hist_entry *a,
		    const struct prism_hist_entry *b)
{
	char x[1024], y[1024];
	size_t k;
	int c;

	for (k = 0; k < h->lv->nr; k++) {
		int key = h->r->keys[k];

		if (key == PRISM_SORT_SYM && (!a->sym || !b->sym || a->dso == b->dso)) {
			if (!a->sym != !b->sym)
				return a->sym ? -1 : 1;
			if (a->ip != b->ip)
				return a->ip < b->ip ? -1 : 1;
			continue;
		}
		if ((key == PRISM_SORT_PID || key == PRISM_SORT_TID) && a->tid != b->tid)
			return (int32_t)a->tid < (int32_t)b->tid ? -1 : 1;
		if (key == PRISM_SORT_CPU && a->cpu != b->cpu)
			return a->cpu < b->cpu ? -1 : 1;
		report_col_text(h->r, key, a, x, sizeof(x));
		report_col_text(h->r, key, b, y, sizeof(y));
		c = strcmp(x, y);
		if (c)
			return c;
	}
	return 0;
}

/* the last level's row that made row @i of level @l (perf's copy of it) */
static const struct prism_hist_entry *first_leaf(const struct hctx *h, size_t l, size_t i)
{
	const struct prism_hist_entry *e = h->lv->rows[last(h)], *best = NULL;
	size_t j;

	if (l == last(h))
		return &e[i];
	for (j = 0; j < h->lv->nr_rows[last(h)]; j++)
		if (under(h, l, i, last(h), j) && (!best || leaf_cmp(h, &e[j], best) < 0))
			best = &e[j];
	return best ? best : &h->lv->rows[l][i];
}

/* perf's filters of samples, by the key they name: THREAD, DSO, SYMBOL */
static bool names(int key, int type)
{
	return type == 0 ?
		       key == PRISM_SORT_COMM || key == PRISM_SORT_PID || key == PRISM_SORT_TID :
	       type == 1 ? key == PRISM_SORT_DSO :
			   key == PRISM_SORT_SYM;
}

static bool active(const struct report *r, int type)
{
	return type == 0 ? r->comms.nr || r->nr_pids || r->nr_tids :
	       type == 1 ? r->dsos.nr :
			   r->syms.nr;
}

static bool passes(const struct report *r, const struct prism_hist_entry *e, int type)
{
	if (type == 1)
		return in_list(&r->dsos, e->dso ? e->dso : "[unknown]");
	if (type == 2)
		return e->sym && in_list(&r->syms, e->sym);
	if (r->nr_pids || r->nr_tids) /* (the first sample's) */
		return !e->hidden;
	return in_list(&r->comms, e->comm ? e->comm : "");
}

/*
 * perf's filters in its hierarchy: --comms, --dsos, --symbols judge a row
 * at the level of their key and below by its value, a row above by
 * whether one below passes (no level of their key: none passes);
 * --symbol-filter and --socket-filter judge each row by the entry that
 * made it
 */
static bool filtered(const struct hctx *h, size_t l, size_t i)
{
	const struct report *r = h->r;
	const struct prism_hist_entry *e = &h->lv->rows[l][i], *f;
	size_t m, j;
	int t;

	for (t = 0; t < 3; t++) {
		bool ok = false;

		if (!active(r, t))
			continue;
		for (m = 0; m < h->lv->nr && !names(r->keys[m], t); m++)
			;
		if (m == h->lv->nr)
			return true;
		if (l >= m)
			ok = passes(r, e, t);
		for (j = 0; l < m && j < h->lv->nr_rows[m] && !ok; j++)
			ok = under(h, l, i, m, j) && passes(r, &h->lv->rows[m][j], t);
		if (!ok)
			return true;
	}
	if (!r->symbol_filter && r->socket_filter < 0)
		return false;
	f = first_leaf(h, l, i);
	return f->filtered || (r->symbol_filter && (!f->sym || !strstr(f->sym, r->symbol_filter)));
}

static bool visible(const struct hctx *h, size_t l, size_t i)
{
	const struct prism_hist_entry *e = &h->lv->rows[l][i];
	struct report *r = h->r;
	bool v;

	if (h->lv->grp[l]) { /* a group's row: any of its events', the leader's share */
		r->grp = h->lv->grp[l];
		v = h->shown[l][i] && report_group_period(r, e) > 0 &&
		    !(r->percent_limit > 0 && report_group_leader_pct(r, e) < r->percent_limit);
		r->grp = NULL;
		return v;
	}
	/* -x: the parent of the entry that made the row */
	if (!h->shown[l][i] || (r->exclude_other && !first_leaf(h, l, i)->parent) || !e->self)
		return false;
	return !(r->percent_limit > 0 && h->total &&
		 100.0 * (double)e->self / (double)h->total < r->percent_limit);
}

/* a row: the overhead columns indented by its depth, then its level's text */
static void print_hrow(struct hctx *h, size_t l, size_t idx)
{
	const struct prism_hist_entry *e = &h->lv->rows[l][idx];
	struct report *r = h->r;
	size_t nr_cols = r->nr_cols, key = r->keys[l], k, len, pad;
	char buf[1024];
	const char *t;

	prism_strbuf_reset(&h->out);
	prism_strbuf_addf(&h->out, "%*s", (int)(l * INDENT), "");
	r->nr_cols = h->nr_fields;
	r->grp = h->lv->grp[l];
	report_print_row(r, e, h->w, h->total, false, &h->out);
	r->grp = NULL;
	r->nr_cols = nr_cols;
	prism_strbuf_setlen(&h->out, h->out.len - 1); /* its '\n' */
	/* perf: room for the deepest level's indent, then the text, its blanks first trimmed */
	if (r->field_sep)
		prism_strbuf_addstr(&h->out, r->field_sep);
	else
		prism_strbuf_addf(&h->out, "%*s  ", (int)(last(h) * INDENT), "");
	report_col_text(r, (int)key, e, buf, sizeof(buf));
	for (k = 0; k < r->nr_cols && r->cols[k] != (int)key; k++)
		;
	len = strlen(buf);
	/* (a right-aligned text's blanks are on its left: trimmed) */
	pad = !report_key_unpadded((int)key) && !report_key_right((int)key) && k < r->nr_cols &&
			      len < h->w[k] ?
		      h->w[k] - len :
		      0;
	for (t = buf; *t == ' '; t++)
		;
	prism_strbuf_addf(&h->out, "%s%*s\n", t, (int)pad, "");
	if (l == last(h) && h->gmin != UINT64_MAX && e->self >= h->gmin)
		/* (perf's hierarchy: shares of the total --percentage relative gives) */
		report_print_graph(h->p, idx, h->caller, h->total, h->gtotal, &r->cg,
				   r->sort && !strncmp(r->sort, "sym", 3), &h->out);
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

/*
 * level @l's rows under row @pi of the level above (any at the top), and
 * theirs: perf goes through every row, those under a row it leaves out too
 */
static void print_level(struct hctx *h, size_t l, size_t pi)
{
	size_t i, j;
	bool any;

	for (i = 0; i < h->lv->nr_rows[l]; i++) {
		if (l && !under(h, l - 1, pi, l, i))
			continue;
		if (visible(h, l, i)) {
			print_hrow(h, l, i);
			for (j = 0, any = l == last(h); !any && j < h->lv->nr_rows[l + 1]; j++)
				any = under(h, l, i, l + 1, j) && visible(h, l + 1, j);
			/* perf's line for a row whose rows all fall below --percent-limit */
			if (!any)
				printf("%*s%*sno entry >= %.2f%%\n",
				       (int)((h->lv->nr + l) * INDENT), "",
				       (int)(fields_width(h) + 4), "", h->r->percent_limit);
		}
		if (l < last(h))
			print_level(h, l + 1, i);
	}
}

/*
 * perf sizes the columns by the entries it shows, each level's a copy of
 * the entry that made it: all their columns count
 */
static void widths(struct hctx *h, size_t *w)
{
	struct report *r = h->r;
	struct prism_hist_entry *v = xcalloc(h->lv->nr_rows[last(h)] * h->lv->nr + 1, sizeof(*v));
	const char *symbol_filter = r->symbol_filter;
	size_t l, i, n = 0;

	if (h->lv->grp[last(h)]) { /* a group's: its last level's rows */
		r->grp = h->lv->grp[last(h)];
		report_col_widths(r, h->lv->rows[last(h)], h->lv->nr_rows[last(h)], h->total, false,
				  w);
		r->grp = NULL;
		free(v);
		return;
	}
	for (l = 0; l < h->lv->nr; l++)
		for (i = 0; i < h->lv->nr_rows[l]; i++) {
			if (!h->shown[l][i])
				continue;
			v[n] = *first_leaf(h, l, i);
			v[n].hidden = v[n].filtered = false;
			n++;
		}
	r->symbol_filter = NULL;
	report_col_widths(r, v, n, h->total, false, w);
	r->symbol_filter = symbol_filter;
	free(v);
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
			    uint64_t gtotal, uint64_t gmin, bool caller, const char *name,
			    uint64_t nr_samples)
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

	lv->rows[l] = (struct prism_hist_entry *)e; /* (not freed: the profile's) */
	lv->nr_rows[l] = n;
	lv->prefix[l] = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		lv->prefix[l][i] = prefix_text(r, &e[i], l);
	for (l = 0; l < lv->nr; l++) {
		h.shown[l] = xcalloc(lv->nr_rows[l] + 1, sizeof(bool));
		for (i = 0; i < lv->nr_rows[l]; i++)
			h.shown[l][i] = !filtered(&h, l, i);
	}
	/* perf --percentage relative: of the top level's rows the filters leave */
	if (r->relative)
		for (i = 0, h.total = 0; i < lv->nr_rows[0]; i++)
			h.total += h.shown[0][i] ? lv->rows[0][i].self : 0;
	report_samples_header(nr_samples, h.total, name, r->leader);
	/* perf 6.1 sets -w's widths on columns its hierarchy copied before: none apply */
	r->nr_user_w = 0;
	widths(&h, w);
	h.w = w;
	while (h.nr_fields < r->nr_cols && report_is_field(r->cols[h.nr_fields]))
		h.nr_fields++;
	print_headers(&h);
	print_level(&h, 0, 0);
	printf("\n\n");
	for (l = 0; l < lv->nr; l++)
		free(h.shown[l]);
	lv->rows[lv->nr - 1] = NULL;
	free_levels(lv);
	free(w);
	prism_strbuf_release(&h.out);
	r->nr_user_w = nr_user_w;
}

int report_print_group_hierarchy(struct report *r, size_t leader, size_t nr_members,
				 const char *group_name)
{
	struct report_levels *lv = xcalloc(1, sizeof(*lv));
	struct prism_strbuf name = STRBUF_INIT;
	size_t nr_keys = r->nr_keys, l, i, n = 0;
	const struct prism_hist_entry *e = NULL;
	uint64_t nr_samples = 0, total = 0;
	bool leader_set = r->leader;

	lv->nr = nr_keys;
	for (l = 0; l < nr_keys; l++) { /* the last level's last: the columns for every key */
		r->nr_keys = l + 1;
		lv->grp[l] = report_group_build(r, leader, nr_members, &nr_samples, &total);
		if (!lv->grp[l]) {
			r->nr_keys = nr_keys;
			free_levels(lv);
			return -1;
		}
		e = report_group_rows(lv->grp[l], &n);
		lv->rows[l] = (struct prism_hist_entry *)e;
		lv->nr_rows[l] = n;
		if (l + 1 == nr_keys)
			break;
		lv->prefix[l] = xcalloc(n + 1, sizeof(char *));
		for (i = 0; i < n; i++)
			lv->prefix[l][i] = prefix_text(r, &e[i], l);
	}
	r->nr_keys = nr_keys;
	report_group_name(r, leader, nr_members, group_name, &name);
	r->leader = true; /* "of events" */
	report_print_hierarchy(r, NULL, lv, e, n, total, total, UINT64_MAX, false, name.buf,
			       nr_samples);
	r->leader = leader_set;
	prism_strbuf_release(&name);
	return 0;
}
