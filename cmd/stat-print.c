// SPDX-License-Identifier: MIT
/*
 * prism stat's output in perf stat 6.1's layouts: aligned columns (value,
 * unit, event, "# metric", "( +- noise )", "(running %)"), -x SEP columns
 * (value, unit, event, noise, run time, percentage, metric value, metric
 * unit) and -j JSON lines; each with the interval time and the aggregation
 * unit (CPU, core, die, socket, thread) in front.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "stat.h"

/* perf's width of the "# metric" column */
#define METRIC_LEN 35

static void print_prefix(struct stat_print *p, const struct prism_stat_unit *u)
{
	const char *sep = p->sep ? p->sep : " ";
	long sec = (long)p->ts;
	long nsec = lround((p->ts - (double)sec) * 1e9);

	if (nsec >= 1000000000) {
		sec++;
		nsec -= 1000000000;
	}
	if (p->json) {
		fputc('{', p->out);
		if (p->interval)
			fprintf(p->out, "\"interval\" : %ld.%09ld, ", sec, nsec);
	} else if (p->interval) {
		fprintf(p->out, "%6ld.%09ld%s", sec, nsec, sep);
	} else if (p->csv_summary && p->sep) {
		fprintf(p->out, "%16s%s", "summary", sep);
	}
	switch (p->mode) {
	case PRISM_STAT_AGGR_NONE:
		if (p->json)
			fprintf(p->out, "\"cpu\" : \"%d\", ", u->cpu);
		else if (p->sep)
			fprintf(p->out, "CPU%d%s", u->cpu, sep);
		else
			fprintf(p->out, "CPU%-7d%s", u->cpu, sep);
		break;
	case PRISM_STAT_AGGR_CORE:
		if (p->json)
			fprintf(p->out, "\"core\" : \"S%d-D%d-C%d\", \"aggregate-number\" : %d, ",
				u->socket, u->die, u->core, u->nr);
		else if (p->sep)
			fprintf(p->out, "S%d-D%d-C%d%s%d%s", u->socket, u->die, u->core, sep, u->nr,
				sep);
		else
			fprintf(p->out, "S%d-D%d-C%-8d%s%4d%s", u->socket, u->die, u->core, sep,
				u->nr, sep);
		break;
	case PRISM_STAT_AGGR_DIE:
		if (p->json)
			fprintf(p->out, "\"die\" : \"S%d-D%d\", \"aggregate-number\" : %d, ",
				u->socket, u->die, u->nr);
		else if (p->sep)
			fprintf(p->out, "S%d-D%d%s%d%s", u->socket, u->die, sep, u->nr, sep);
		else
			fprintf(p->out, "S%d-D%-8d%s%4d%s", u->socket, u->die, sep, u->nr, sep);
		break;
	case PRISM_STAT_AGGR_SOCKET:
		if (p->json)
			fprintf(p->out, "\"socket\" : \"S%d\", \"aggregate-number\" : %d, ",
				u->socket, u->nr);
		else if (p->sep)
			fprintf(p->out, "S%d%s%d%s", u->socket, sep, u->nr, sep);
		else
			fprintf(p->out, "S%-5d%s%4d%s", u->socket, sep, u->nr, sep);
		break;
	case PRISM_STAT_AGGR_THREAD:
		if (p->json)
			fprintf(p->out, "\"thread\" : \"%s-%d\", ", u->comm, u->tid);
		else if (p->sep)
			fprintf(p->out, "%s-%d%s", u->comm, u->tid, sep);
		else
			fprintf(p->out, "%16s-%-8d%s", u->comm, u->tid, sep);
		break;
	case PRISM_STAT_AGGR_GLOBAL:
		break;
	}
}

/* the metric as -x prints it: the number without padding or a trailing '%' */
static void csv_metric(const struct stat_print *p, const struct prism_stat_metric *m)
{
	char buf[64], *v = buf, *end;

	if (!m->has) {
		fprintf(p->out, "%s%s", p->sep, p->sep);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", m->text);
	while (*v == ' ')
		v++;
	for (end = v; (*end >= '0' && *end <= '9') || *end == '.' || *end == '-'; end++)
		;
	*end = 0;
	fprintf(p->out, "%s%s%s%s", p->sep, v, p->sep, m->unit);
}

static void print_noise(const struct stat_print *p, size_t u, size_t e)
{
	double pct;

	if (p->runs <= 1 || !p->noise)
		return;
	pct = prism_stat_runs__noise(p->noise, u, e);
	if (p->json)
		fprintf(p->out, "\"variance\" : %.2f, ", pct);
	else if (p->sep)
		fprintf(p->out, "%s%.2f%%", p->sep, pct);
	else if (pct != 0)
		fprintf(p->out, "  ( +-%6.2f%% )", pct);
}

static void print_running(const struct stat_print *p, const struct prism_stat_value *v)
{
	if (p->json)
		fprintf(p->out, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)v->sum.run, v->pct);
	else if (p->sep)
		fprintf(p->out, "%s%llu%s%.2f", p->sep, (unsigned long long)v->sum.run, p->sep,
			v->pct);
	else if (v->sum.run != v->sum.ena && v->scaled >= 0)
		fprintf(p->out, "  (%.2f%%)", v->pct);
}

static void print_line(struct stat_print *p, const struct prism_stat *s,
		       const struct prism_stat_result *r, size_t u, size_t e)
{
	const struct prism_stat_value *v = prism_stat_result__value(r, u, e);
	const char *name = prism_stat__event_name(s, e), *unit = prism_stat__event_unit(s, e);
	double scale = prism_stat__event_scale(s, e);
	bool frac = floor(scale) != scale;
	struct prism_stat_context ctx;
	struct prism_stat_metric m;

	print_prefix(p, prism_stat_result__unit(r, u));
	if (v->scaled < 0) {
		const char *what = v->supported ? "<not counted>" : "<not supported>";

		if (p->json) {
			fprintf(p->out,
				"\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
				what, unit, name);
			print_noise(p, u, e);
			print_running(p, v);
			fputs("\"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n", p->out);
		} else if (p->sep) {
			fprintf(p->out, "%s%s%s%s%s", what, p->sep, unit, p->sep, name);
			print_noise(p, u, e);
			print_running(p, v);
			fprintf(p->out, "%s%s\n", p->sep, p->sep);
		} else {
			fprintf(p->out, "%18s %-4s %-25s%-*s", what, unit, name, METRIC_LEN, "");
			print_noise(p, u, e);
			print_running(p, v);
			fputc('\n', p->out);
		}
		return;
	}
	prism_stat_result__context(s, r, u, p->elapsed_ns, &ctx);
	prism_stat_metric(prism_stat__event_attr(s, e), v->scaled, &ctx, &m);
	if (p->json) {
		fprintf(p->out,
			"\"counter-value\" : \"%f\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
			v->scaled * scale, unit, name);
		print_noise(p, u, e);
		print_running(p, v);
		fprintf(p->out, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"}\n",
			m.has ? m.value : 0.0, m.has ? m.unit : "(null)");
		return;
	}
	if (p->sep) {
		fprintf(p->out, frac ? "%.2f%s%s%s%s" : "%.0f%s%s%s%s", v->scaled * scale, p->sep,
			unit, p->sep, name);
		print_noise(p, u, e);
		print_running(p, v);
		csv_metric(p, &m);
		fputc('\n', p->out);
		return;
	}
	if (p->big_num)
		fprintf(p->out, frac ? "%'18.2f " : "%'18.0f ", v->scaled * scale);
	else
		fprintf(p->out, frac ? "%18.2f " : "%18.0f ", v->scaled * scale);
	fprintf(p->out, "%-4s %-32s", unit, name);
	if (m.has) {
		int n = (int)strlen(m.text);

		fprintf(p->out, " # %s %-*s", m.text, METRIC_LEN - n - 4, m.unit);
	} else {
		fprintf(p->out, "%-*s", METRIC_LEN, "");
	}
	print_noise(p, u, e);
	print_running(p, v);
	fputc('\n', p->out);
}

static const char *interval_header(enum prism_stat_aggr mode)
{
	switch (mode) {
	case PRISM_STAT_AGGR_NONE:
		return "#           time CPU                    counts unit events";
	case PRISM_STAT_AGGR_CORE:
		return "#           time core            cpus             counts unit events";
	case PRISM_STAT_AGGR_DIE:
		return "#           time die          cpus             counts unit events";
	case PRISM_STAT_AGGR_SOCKET:
		return "#           time socket cpus             counts unit events";
	case PRISM_STAT_AGGR_THREAD:
		return "#           time             comm-pid                  counts unit events";
	default:
		return "#           time             counts unit events";
	}
}

/* a not-counted thread sorts as 0, as perf's values */
static double sort_val(const struct prism_stat_result *r, size_t u, size_t e)
{
	double v = prism_stat_result__value(r, u, e)->scaled;

	return v < 0 ? 0 : v;
}

/* per-thread lines: the busiest thread first, as perf sorts them (ties keep their order) */
static void sort_threads(const struct prism_stat_result *r, size_t e, size_t *order, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++) {
		size_t k = order[i];
		double vk = sort_val(r, k, e);

		for (j = i; j > 0 && sort_val(r, order[j - 1], e) < vk; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
}

void stat_print_counts(struct stat_print *p, const struct prism_stat *s,
		       const struct prism_stat_result *r)
{
	size_t nu = prism_stat_result__nr_units(r), ne = prism_stat__nr_events(s), u, e;
	size_t *order = xcalloc(nu ? nu : 1, sizeof(*order));

	if (p->interval && !p->sep && !p->json && p->nr_printed == 0)
		fprintf(p->out, "%s\n", interval_header(p->mode));
	if (p->interval && ++p->nr_printed == 25)
		p->nr_printed = 0;
	/* one event at a time over the units, as perf prints them */
	for (e = 0; e < ne; e++) {
		if (p->mode == PRISM_STAT_AGGR_THREAD)
			sort_threads(r, e, order, nu);
		for (u = 0; u < nu; u++)
			print_line(p, s, r, p->mode == PRISM_STAT_AGGR_THREAD ? order[u] : u, e);
	}
	free(order);
}

void stat_print_header(const struct stat_print *p, const char *target, int runs)
{
	if (p->sep || p->json)
		return;
	fprintf(p->out, "\n Performance counter stats for %s", target);
	if (runs > 1)
		fprintf(p->out, " (%d runs)", runs);
	fputs(":\n\n", p->out);
}

/* digits to show of a time whose stddev is @sd: two more than its first significant one */
static int precision(double sd)
{
	if (sd > 1)
		return 2;
	if (sd <= 0)
		return 9;
	return (int)lround(ceil(-log10(sd))) + 2;
}

void stat_print_footer(const struct stat_print *p, const struct prism_stat_running *elapsed,
		       bool rusage, double user_s, double sys_s)
{
	if (p->sep || p->json)
		return;
	if (!p->null_run)
		fputc('\n', p->out);
	if (elapsed->n <= 1) {
		fprintf(p->out, " %17.9f seconds time elapsed", elapsed->mean / 1e9);
		if (rusage) {
			fputs("\n\n", p->out);
			fprintf(p->out, " %17.9f seconds user\n", user_s);
			fprintf(p->out, " %17.9f seconds sys\n", sys_s);
		}
	} else {
		double sd = prism_stat_running__stddev(elapsed) / 1e9, avg = elapsed->mean / 1e9;
		int prec = precision(sd);

		fprintf(p->out, " %17.*f +- %.*f seconds time elapsed", prec, avg, prec, sd);
		if (avg)
			fprintf(p->out, "  ( +-%6.2f%% )", 100.0 * sd / avg);
	}
	fputs("\n\n", p->out);
}
