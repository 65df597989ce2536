// SPDX-License-Identifier: MIT
/*
 * Statistics over repeated runs (-r: Welford's running mean and variance,
 * the standard deviation of the mean) and the derived metrics perf shows
 * beside a count.
 */
#include <math.h>
#include <stdio.h>

#include "stat/stat-internal.h"

void prism_stat_running__add(struct prism_stat_running *r, double v)
{
	double delta;

	r->n += 1;
	delta = v - r->mean;
	r->mean += delta / r->n;
	r->m2 += delta * (v - r->mean);
}

double prism_stat_running__stddev(const struct prism_stat_running *r)
{
	double variance;

	if (r->n < 2)
		return 0;
	variance = r->m2 / (r->n - 1);
	return sqrt(variance / r->n);
}

double prism_stat_running__rel_stddev(const struct prism_stat_running *r)
{
	double sd = prism_stat_running__stddev(r);

	return r->mean ? 100.0 * sd / r->mean : 0;
}

enum metric_fmt { F83, F72, F72PCT };

static void set(struct prism_stat_metric *m, enum metric_fmt f, double v, const char *unit)
{
	m->has = true;
	m->value = v;
	if (f == F83)
		snprintf(m->text, sizeof(m->text), "%8.3f", v);
	else if (f == F72)
		snprintf(m->text, sizeof(m->text), "%7.2f ", v);
	else
		snprintf(m->text, sizeof(m->text), "%7.2f%%", v);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
}

/* a rate per second with perf's K/M/G prefix */
static void rate(struct prism_stat_metric *m, double count, double ns)
{
	double r = ns > 0 ? 1e9 * count / ns : 0;
	const char *u = "/sec";

	if (r > 1e9) {
		r /= 1e9;
		u = "G/sec";
	} else if (r > 1e6) {
		r /= 1e6;
		u = "M/sec";
	} else if (r > 1e3) {
		r /= 1e3;
		u = "K/sec";
	}
	set(m, F83, r, u);
}

void prism_stat_metric(const struct perf_event_attr *a, double count,
		       const struct prism_stat_context *ctx, struct prism_stat_metric *m)
{
	memset(m, 0, sizeof(*m));
	if (count < 0)
		return;
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK)) {
		if (ctx->elapsed_ns > 0)
			set(m, F83, count / ctx->elapsed_ns, "CPUs utilized");
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES) {
		if (ctx->clock_ns > 0)
			set(m, F83, count / ctx->clock_ns, "GHz");
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_INSTRUCTIONS &&
	    ctx->cycles >= 0) {
		set(m, F72, ctx->cycles > 0 ? count / ctx->cycles : 0, "insn per cycle");
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_BRANCH_MISSES &&
	    ctx->branches >= 0) {
		set(m, F72PCT, ctx->branches > 0 ? 100.0 * count / ctx->branches : 0,
		    "of all branches");
		return;
	}
	if (ctx->clock_ns >= 0)
		rate(m, count, ctx->clock_ns);
}
