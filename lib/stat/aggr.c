// SPDX-License-Identifier: MIT
/*
 * Scaling and aggregation of the counts: raw (value, enabled, running)
 * sums per unit (the total, a CPU, a core, a die, a socket, a thread), a
 * multiplexed counter extrapolated from the part of the time it ran.  The
 * units come from the sysfs CPU topology.
 */
#include <math.h>
#include <stdio.h>

#include "stat/stat-internal.h"

struct prism_stat_result {
	size_t nr_units, nr_ev;
	struct prism_stat_unit *units;
	struct prism_stat_value *vals; /* [unit][event] */
};

double prism_stat_count__scale(const struct prism_stat_count *c, double *pct)
{
	if (!c->run || !c->ena) {
		if (pct)
			*pct = 100.0;
		return -1;
	}
	if (pct)
		*pct = c->run >= c->ena ? 100.0 : 100.0 * (double)c->run / (double)c->ena;
	if (c->run >= c->ena)
		return (double)c->val;
	return floor((double)c->val * (double)c->ena / (double)c->run);
}

static int read_id(int cpu, const char *file)
{
	char path[128], buf[32];
	FILE *f;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = atoi(buf);
	fclose(f);
	return v;
}

int prism_cpu_topology(int cpu, int *socket, int *die, int *core)
{
	*socket = read_id(cpu, "physical_package_id");
	*die = read_id(cpu, "die_id");
	*core = read_id(cpu, "core_id");
	if (*socket < 0 && *core < 0)
		return -ENOENT;
	/* kernels without die_id: one die per socket */
	if (*die < 0)
		*die = 0;
	return 0;
}

static bool same_unit(const struct prism_stat_unit *a, const struct prism_stat_unit *b,
		      enum prism_stat_aggr mode)
{
	switch (mode) {
	case PRISM_STAT_AGGR_CORE:
		return a->socket == b->socket && a->die == b->die && a->core == b->core;
	case PRISM_STAT_AGGR_DIE:
		return a->socket == b->socket && a->die == b->die;
	case PRISM_STAT_AGGR_SOCKET:
		return a->socket == b->socket;
	default:
		return false;
	}
}

static int unit_cmp(const struct prism_stat_unit *a, const struct prism_stat_unit *b)
{
	if (a->socket != b->socket)
		return a->socket < b->socket ? -1 : 1;
	if (a->die != b->die)
		return a->die < b->die ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return 0;
}

/* the unit of each CPU (or thread) index; *nr_units set */
static int map_units(const struct prism_stat *s, enum prism_stat_aggr mode,
		     struct prism_stat_result *r, size_t **map_out)
{
	size_t nsrc = mode == PRISM_STAT_AGGR_THREAD ? s->nr_threads : s->nr_cpus;
	size_t *map = calloc(nsrc ? nsrc : 1, sizeof(*map));
	size_t i, j;

	r->units = calloc(nsrc ? nsrc : 1, sizeof(*r->units));
	if (!map || !r->units) {
		free(map);
		return -ENOMEM;
	}
	if (mode == PRISM_STAT_AGGR_GLOBAL) {
		r->units[0] = (struct prism_stat_unit){
			.cpu = -1, .socket = -1, .die = -1, .core = -1, .nr = (int)nsrc, .tid = -1
		};
		r->nr_units = 1;
		*map_out = map; /* all zero */
		return 0;
	}
	for (i = 0; i < nsrc; i++) {
		struct prism_stat_unit u = {
			.cpu = -1, .socket = -1, .die = -1, .core = -1, .tid = -1
		};

		if (mode == PRISM_STAT_AGGR_THREAD) {
			u.tid = s->threads[i];
			memcpy(u.comm, s->comms[i], sizeof(u.comm));
		} else {
			u.cpu = s->cpus[i];
			prism_cpu_topology(u.cpu, &u.socket, &u.die, &u.core);
		}
		for (j = 0; j < r->nr_units && !same_unit(&r->units[j], &u, mode); j++)
			;
		if (j == r->nr_units) {
			/* sorted by topology ids, as perf orders its aggregation map */
			size_t k = r->nr_units;

			if (mode != PRISM_STAT_AGGR_NONE && mode != PRISM_STAT_AGGR_THREAD)
				while (k > 0 && unit_cmp(&r->units[k - 1], &u) > 0)
					k--;
			memmove(&r->units[k + 1], &r->units[k],
				(r->nr_units - k) * sizeof(*r->units));
			for (size_t m = 0; m < i; m++)
				if (map[m] >= k)
					map[m]++;
			r->units[k] = u;
			r->nr_units++;
			j = k;
		}
		r->units[j].nr++;
		map[i] = j;
	}
	*map_out = map;
	return 0;
}

struct prism_stat_result *prism_stat__aggregate(const struct prism_stat *s,
						enum prism_stat_aggr mode, bool delta)
{
	struct prism_stat_result *r;
	size_t *map = NULL, e, c, t;

	if ((mode == PRISM_STAT_AGGR_THREAD && s->per_cpu) ||
	    (mode != PRISM_STAT_AGGR_THREAD && mode != PRISM_STAT_AGGR_GLOBAL && !s->per_cpu)) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->nr_ev = s->nr_ev;
	if (map_units(s, mode, r, &map))
		goto nomem;
	r->vals = calloc(r->nr_units * (s->nr_ev ? s->nr_ev : 1), sizeof(*r->vals));
	if (!r->vals)
		goto nomem;
	for (e = 0; e < s->nr_ev; e++) {
		for (c = 0; c < s->nr_cpus; c++) {
			for (t = 0; t < s->nr_threads; t++) {
				size_t i = STAT_IDX(s, e, c, t);
				size_t u = map[mode == PRISM_STAT_AGGR_THREAD ? t : c];
				struct prism_stat_count *sum = &r->vals[u * s->nr_ev + e].sum;
				const struct prism_stat_count *cur = &s->cur[i],
							      *prev = &s->prev[i];

				if (s->fds[i] < 0)
					continue;
				if (delta) {
					/* counters only grow; the kernel's u64 arithmetic */
					sum->val += cur->val >= prev->val ? cur->val - prev->val :
									    0;
					sum->ena += cur->ena >= prev->ena ? cur->ena - prev->ena :
									    0;
					sum->run += cur->run >= prev->run ? cur->run - prev->run :
									    0;
				} else {
					sum->val += cur->val;
					sum->ena += cur->ena;
					sum->run += cur->run;
				}
			}
		}
		for (c = 0; c < r->nr_units; c++) {
			struct prism_stat_value *v = &r->vals[c * s->nr_ev + e];

			v->supported = s->ev[e].supported;
			v->scaled = prism_stat_count__scale(&v->sum, &v->pct);
		}
	}
	free(map);
	return r;
nomem:
	free(map);
	prism_stat_result__free(r);
	errno = ENOMEM;
	return NULL;
}

void prism_stat_result__free(struct prism_stat_result *r)
{
	if (!r)
		return;
	free(r->units);
	free(r->vals);
	free(r);
}

size_t prism_stat_result__nr_units(const struct prism_stat_result *r)
{
	return r->nr_units;
}

const struct prism_stat_unit *prism_stat_result__unit(const struct prism_stat_result *r, size_t u)
{
	return u < r->nr_units ? &r->units[u] : NULL;
}

const struct prism_stat_value *prism_stat_result__value(const struct prism_stat_result *r, size_t u,
							size_t e)
{
	return u < r->nr_units && e < r->nr_ev ? &r->vals[u * r->nr_ev + e] : NULL;
}

void prism_stat_result__context(const struct prism_stat *s, const struct prism_stat_result *r,
				size_t u, double elapsed_ns, struct prism_stat_context *ctx)
{
	size_t e;

	ctx->clock_ns = ctx->cycles = ctx->branches = -1;
	ctx->elapsed_ns = elapsed_ns;
	for (e = 0; e < s->nr_ev; e++) {
		const struct perf_event_attr *a = &s->ev[e].attr;
		const struct prism_stat_value *v = prism_stat_result__value(r, u, e);
		double *slot = NULL;

		if (a->type == PERF_TYPE_SOFTWARE &&
		    (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK))
			slot = &ctx->clock_ns;
		else if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES)
			slot = &ctx->cycles;
		else if (a->type == PERF_TYPE_HARDWARE &&
			 a->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
			slot = &ctx->branches;
		/* the first of its kind counts, as perf keeps one per unit */
		if (slot && *slot < 0 && v && v->scaled >= 0)
			*slot = v->scaled;
	}
}

/* ---- repeated runs ---- */

struct run_acc {
	struct prism_stat_running val, ena, run;
	bool supported;
};

struct prism_stat_runs {
	struct prism_stat_result *shape; /* the first run's units */
	struct run_acc *acc; /* [unit][event] */
	int nr;
};

struct prism_stat_runs *prism_stat_runs__new(void)
{
	return calloc(1, sizeof(struct prism_stat_runs));
}

void prism_stat_runs__free(struct prism_stat_runs *rs)
{
	if (!rs)
		return;
	prism_stat_result__free(rs->shape);
	free(rs->acc);
	free(rs);
}

int prism_stat_runs__add(struct prism_stat_runs *rs, const struct prism_stat_result *r)
{
	size_t i, n = r->nr_units * r->nr_ev;

	if (!rs->shape) {
		rs->shape = calloc(1, sizeof(*rs->shape));
		rs->acc = calloc(n ? n : 1, sizeof(*rs->acc));
		if (rs->shape) {
			rs->shape->nr_units = r->nr_units;
			rs->shape->nr_ev = r->nr_ev;
			rs->shape->units = calloc(r->nr_units ? r->nr_units : 1, sizeof(*r->units));
			rs->shape->vals = calloc(n ? n : 1, sizeof(*r->vals));
		}
		if (!rs->shape || !rs->acc || !rs->shape->units || !rs->shape->vals) {
			prism_stat_result__free(rs->shape);
			free(rs->acc);
			rs->shape = NULL;
			rs->acc = NULL;
			return -ENOMEM;
		}
		memcpy(rs->shape->units, r->units, r->nr_units * sizeof(*r->units));
	} else if (rs->shape->nr_units != r->nr_units || rs->shape->nr_ev != r->nr_ev) {
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		const struct prism_stat_value *v = &r->vals[i];

		prism_stat_running__add(&rs->acc[i].val, v->scaled < 0 ? 0 : v->scaled);
		prism_stat_running__add(&rs->acc[i].ena, (double)v->sum.ena);
		prism_stat_running__add(&rs->acc[i].run, (double)v->sum.run);
		rs->acc[i].supported = v->supported;
	}
	rs->nr++;
	return 0;
}

int prism_stat_runs__nr(const struct prism_stat_runs *rs)
{
	return rs->nr;
}

struct prism_stat_result *prism_stat_runs__mean(const struct prism_stat_runs *rs)
{
	struct prism_stat_result *m;
	size_t i, n;

	if (!rs->shape) {
		errno = ENOENT;
		return NULL;
	}
	n = rs->shape->nr_units * rs->shape->nr_ev;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	*m = *rs->shape;
	m->units = malloc((m->nr_units ? m->nr_units : 1) * sizeof(*m->units));
	m->vals = calloc(n ? n : 1, sizeof(*m->vals));
	if (!m->units || !m->vals) {
		prism_stat_result__free(m);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(m->units, rs->shape->units, m->nr_units * sizeof(*m->units));
	for (i = 0; i < n; i++) {
		const struct run_acc *a = &rs->acc[i];
		struct prism_stat_value *v = &m->vals[i];

		v->supported = a->supported;
		v->sum.val = (uint64_t)llround(a->val.mean);
		v->sum.ena = (uint64_t)llround(a->ena.mean);
		v->sum.run = (uint64_t)llround(a->run.mean);
		if (!v->sum.run || !v->sum.ena) {
			v->scaled = -1;
			v->pct = 100;
		} else {
			v->scaled = a->val.mean;
			v->pct = v->sum.run >= v->sum.ena ? 100 : 100.0 * a->run.mean / a->ena.mean;
		}
	}
	return m;
}

double prism_stat_runs__noise(const struct prism_stat_runs *rs, size_t u, size_t e)
{
	if (!rs->shape || u >= rs->shape->nr_units || e >= rs->shape->nr_ev)
		return 0;
	return prism_stat_running__rel_stddev(&rs->acc[u * rs->shape->nr_ev + e].val);
}
