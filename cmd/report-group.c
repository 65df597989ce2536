// SPDX-License-Identifier: MIT
/*
 * prism report's group view, perf report's --group (its default for a file
 * recorded with event groups, as its header's GROUP_DESC tells): one section
 * per group, "of events 'anon group { a, b }'", the overhead (and -n's
 * Samples, --show-total-period's Period) a value per event, the rows of
 * every event matched by their sort keys, in perf's order: by the leader's
 * period, then each member's, the leader's rows first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evsel.h>
#include <prism/profile.h>
#include <prism/strbuf.h>

#include "cmd.h"
#include "report.h"

struct report_group {
	size_t n; /* events */
	uint64_t *totals; /* each event's period */
	struct prism_hist_entry *rows; /* the rows, each its first event's entry */
	const struct prism_hist_entry **m; /* row i's entry of event j: m[i * n + j], or NULL */
	size_t nr_rows;
	struct prism_hist_entry **copies; /* each event's rows */
};

static size_t row_of(const struct report_group *g, const struct prism_hist_entry *e)
{
	return (size_t)(e - g->rows);
}

size_t report_group_size(const struct report *r)
{
	return r->grp->n;
}

uint64_t report_group_period(const struct report *r, const struct prism_hist_entry *e)
{
	const struct report_group *g = r->grp;
	size_t i = row_of(g, e), j;
	uint64_t v = 0;

	for (j = 0; j < g->n; j++)
		if (g->m[i * g->n + j])
			v += g->m[i * g->n + j]->self;
	return v;
}

double report_group_leader_pct(const struct report *r, const struct prism_hist_entry *e)
{
	const struct report_group *g = r->grp;
	const struct prism_hist_entry *x = g->m[row_of(g, e) * g->n];

	return x && g->totals[0] ? 100.0 * (double)x->self / (double)g->totals[0] : 0;
}

/* perf: " %6.2f%%" per event for a percentage, " %11" for Samples and Period */
void report_group_cells(const struct report *r, int key, const struct prism_hist_entry *e,
			struct prism_strbuf *out)
{
	const struct report_group *g = r->grp;
	size_t i = row_of(g, e), j;

	for (j = 0; j < g->n; j++) {
		const struct prism_hist_entry *x = g->m[i * g->n + j];
		uint64_t v = !x ? 0 : key == PRISM_SORT_SAMPLE ? x->nr_samples : x->self;

		if (key == PRISM_SORT_SAMPLE || key == PRISM_SORT_PERIOD)
			prism_strbuf_addf(out, " %11" PRIu64, v);
		else
			prism_strbuf_addf(out, " %6.2f%%",
					  g->totals[j] ? 100.0 * (double)v / (double)g->totals[j] :
							 0);
	}
}

/* perf's order: the leader's period, then each member's, descending; else as they came */
static const struct report_group *sort_group;

static int cmp_rows(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb, j;
	const struct report_group *g = sort_group;

	for (j = 0; j < g->n; j++) {
		const struct prism_hist_entry *x = g->m[a * g->n + j], *y = g->m[b * g->n + j];
		uint64_t u = x ? x->self : 0, v = y ? y->self : 0;

		if (u != v)
			return u > v ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

/* add event @j's rows: to the row with the same keys, or a new row */
static void merge(struct report *r, struct report_group *g, size_t j,
		  const struct prism_hist_entry *e, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < g->nr_rows; k++)
			if (!g->m[k * g->n + j] && report_rows_equal(r, &g->rows[k], &e[i]))
				break;
		if (k == g->nr_rows) {
			g->rows[k] = e[i];
			g->nr_rows++;
		}
		g->m[k * g->n + j] = &e[i];
	}
}

void report_group_free(struct report_group *g)
{
	size_t j;

	if (!g)
		return;
	for (j = 0; g->copies && j < g->n; j++)
		free(g->copies[j]);
	free(g->copies);
	free(g->rows);
	free(g->m);
	free(g->totals);
	free(g);
}

const struct prism_hist_entry *report_group_rows(const struct report_group *g, size_t *n)
{
	*n = g->nr_rows;
	return g->rows;
}

struct report_group *report_group_build(struct report *r, size_t leader, size_t nr_members,
					uint64_t *nr_samples, uint64_t *total)
{
	struct report_group *g = xcalloc(1, sizeof(*g));
	size_t *ns = xcalloc(nr_members, sizeof(*ns)), *order, total_rows = 0, i, j;
	struct prism_hist_entry *rows;
	const struct prism_hist_entry **m;

	g->n = nr_members;
	g->totals = xcalloc(nr_members, sizeof(*g->totals));
	/* (copies: each profile keeps its rows until its next prism_profile__entries()) */
	g->copies = xcalloc(nr_members, sizeof(*g->copies));
	*nr_samples = *total = 0;
	for (j = 0; j < nr_members; j++) {
		struct prism_profile *p = leader + j < r->nr_evsels ? r->profiles[leader + j] :
								      NULL;
		struct prism_hist_entry *e;

		if (!p)
			continue;
		if (report_entries(r, p, false, false, false, &e, &ns[j])) {
			free(ns);
			report_group_free(g);
			return NULL;
		}
		g->copies[j] = xcalloc(ns[j] + 1, sizeof(*e));
		memcpy(g->copies[j], e, ns[j] * sizeof(*e));
		g->totals[j] = prism_profile__total_period(p);
		*total += g->totals[j];
		*nr_samples += prism_profile__nr_samples(p);
		total_rows += ns[j];
	}
	g->rows = xcalloc(total_rows + 1, sizeof(*g->rows));
	g->m = xcalloc((total_rows + 1) * nr_members, sizeof(*g->m));
	for (j = 0; j < nr_members; j++)
		merge(r, g, j, g->copies[j], ns[j]);
	free(ns);
	/* the rows in perf's order */
	order = xcalloc(g->nr_rows + 1, sizeof(*order));
	for (i = 0; i < g->nr_rows; i++)
		order[i] = i;
	sort_group = g;
	qsort(order, g->nr_rows, sizeof(*order), cmp_rows);
	rows = xcalloc(g->nr_rows + 1, sizeof(*rows));
	m = xcalloc((g->nr_rows + 1) * nr_members, sizeof(*m));
	for (i = 0; i < g->nr_rows; i++) {
		rows[i] = g->rows[order[i]];
		memcpy(&m[i * nr_members], &g->m[order[i] * nr_members], nr_members * sizeof(*m));
	}
	free(order);
	free(g->rows);
	free(g->m);
	g->rows = rows;
	g->m = m;
	return g;
}

void report_group_name(struct report *r, size_t leader, size_t nr_members, const char *group_name,
		       struct prism_strbuf *name)
{
	size_t j;

	prism_strbuf_addstr(name, !group_name || !strcmp(group_name, "{anon_group}") ?
					  "anon group" :
					  group_name);
	for (j = 0; j < nr_members; j++)
		prism_strbuf_addf(name, "%s%s", j ? ", " : " { ",
				  prism_evsel__name(prism_session__evsel(r->s, leader + j)));
	prism_strbuf_addstr(name, " }");
}

int report_print_group(struct report *r, size_t leader, size_t nr_members, const char *group_name)
{
	struct prism_strbuf name = STRBUF_INIT;
	uint64_t nr_samples, total;
	struct report_group *g = report_group_build(r, leader, nr_members, &nr_samples, &total);

	if (!g)
		return -1;
	report_group_name(r, leader, nr_members, group_name, &name);
	report_samples_header(nr_samples, total, name.buf, true);
	r->grp = g;
	report_print_table(r, NULL, g->rows, g->nr_rows, total, total, false, UINT64_MAX, false);
	r->grp = NULL;
	prism_strbuf_release(&name);
	report_group_free(g);
	return 0;
}
