// SPDX-License-Identifier: MIT
/*
 * prism report -T/--threads: perf's table of the counts that
 * PERF_RECORD_READ records give per thread (perf record -s, inherit_stat),
 * printed after the report; --pretty raw: perf's raw layout of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evsel.h>
#include <prism/session.h>

#include "cmd.h"
#include "options.h"
#include "report.h"

struct report_threads {
	uint32_t *pid, *tid;
	uint64_t *value; /* nr_threads x nr_counters, a row per thread */
	size_t nr_threads, nr_counters;
	int *idx; /* per counter: the event's index */
	const char **name; /* per counter: the event's name (the session's) */
};

/* perf: the counters and threads in the order their first record came */
static size_t column_of(struct report_threads *t, int idx, const char *name)
{
	uint64_t *v;
	size_t i, j, n = t->nr_counters;

	for (i = 0; i < n; i++)
		if (t->idx[i] == idx)
			return i;
	v = xcalloc(t->nr_threads * (n + 1) + 1, sizeof(*v));
	for (i = 0; i < t->nr_threads; i++)
		for (j = 0; j < n; j++)
			v[i * (n + 1) + j] = t->value[i * n + j];
	free(t->value);
	t->value = v;
	t->idx = xrealloc(t->idx, (n + 1) * sizeof(*t->idx));
	t->name = xrealloc(t->name, (n + 1) * sizeof(*t->name));
	t->idx[n] = idx;
	t->name[n] = name;
	return t->nr_counters++;
}

static size_t row_of(struct report_threads *t, uint32_t pid, uint32_t tid)
{
	size_t i, n = t->nr_threads;

	for (i = 0; i < n; i++)
		if (t->pid[i] == pid && t->tid[i] == tid)
			return i;
	t->pid = xrealloc(t->pid, (n + 1) * sizeof(*t->pid));
	t->tid = xrealloc(t->tid, (n + 1) * sizeof(*t->tid));
	t->value = xrealloc(t->value, ((n + 1) * t->nr_counters + 1) * sizeof(*t->value));
	memset(t->value + n * t->nr_counters, 0, t->nr_counters * sizeof(*t->value));
	t->pid[n] = pid;
	t->tid[n] = tid;
	return t->nr_threads++;
}

int report_threads__read(struct report *r, const struct prism_event *ev)
{
	struct prism_evsel *evsel = ev->evsel;
	struct report_threads *t;
	size_t row, col;

	if (!evsel)
		evsel = prism_session__evsel_by_id(r->s, ev->read.read.one.id);
	if (!evsel || prism_evsel__idx(evsel) < 0)
		return 0;
	if (!r->thr)
		r->thr = xcalloc(1, sizeof(*r->thr));
	t = r->thr;
	row = row_of(t, ev->read.pid, ev->read.tid);
	col = column_of(t, prism_evsel__idx(evsel), prism_evsel__name(evsel));
	t->value[row * t->nr_counters + col] += ev->read.read.one.value; /* perf sums them */
	return 0;
}

static int width_of(uint64_t v)
{
	return snprintf(NULL, 0, "%" PRIu64, v);
}

static int id_width(const uint32_t *v, size_t nr)
{
	int w = 3; /* "PID", "TID" */
	size_t i;

	for (i = 0; i < nr; i++)
		if (snprintf(NULL, 0, "%d", (int)v[i]) > w)
			w = snprintf(NULL, 0, "%d", (int)v[i]);
	return w;
}

/* perf's raw layout: a header, then every value without a line break (perf 6.1's) */
static void print_raw(const struct report_threads *t, int pw, int tw)
{
	int nw = 4, rw = 3, cw = 5; /* "Name", "Raw", "Count" */
	size_t i, j;

	for (j = 0; j < t->nr_counters; j++) {
		if ((int)strlen(t->name[j]) > nw)
			nw = (int)strlen(t->name[j]);
		if (snprintf(NULL, 0, "%x", t->idx[j]) > rw)
			rw = snprintf(NULL, 0, "%x", t->idx[j]);
	}
	for (i = 0; i < t->nr_threads * t->nr_counters; i++)
		if (width_of(t->value[i]) > cw)
			cw = width_of(t->value[i]);
	printf("# %*s  %*s  %*s  %*s  %*s\n", pw, "PID", tw, "TID", nw, "Name", rw, "Raw", cw,
	       "Count");
	for (i = 0; i < t->nr_threads; i++)
		for (j = 0; j < t->nr_counters; j++)
			printf("  %*d  %*d  %*s  %*x  %*" PRIu64, pw, (int)t->pid[i], tw,
			       (int)t->tid[i], nw, t->name[j], rw, t->idx[j], cw,
			       t->value[i * t->nr_counters + j]);
}

void report_threads__print(struct report *r)
{
	static const struct report_threads none;
	const struct report_threads *t = r->thr ? r->thr : &none;
	int pw = id_width(t->pid, t->nr_threads), tw = id_width(t->tid, t->nr_threads);
	size_t i, j;
	int *cw;

	if (r->pretty && !strcmp(r->pretty, "raw")) {
		print_raw(t, pw, tw);
		return;
	}
	cw = xcalloc(t->nr_counters + 1, sizeof(*cw));
	for (j = 0; j < t->nr_counters; j++) {
		cw[j] = (int)strlen(t->name[j]);
		for (i = 0; i < t->nr_threads; i++)
			if (width_of(t->value[i * t->nr_counters + j]) > cw[j])
				cw[j] = width_of(t->value[i * t->nr_counters + j]);
	}
	printf("# %*s  %*s", pw, "PID", tw, "TID");
	for (j = 0; j < t->nr_counters; j++)
		printf("  %*s", cw[j], t->name[j]);
	printf("\n");
	for (i = 0; i < t->nr_threads; i++) {
		printf("  %*d  %*d", pw, (int)t->pid[i], tw, (int)t->tid[i]);
		for (j = 0; j < t->nr_counters; j++)
			printf("  %*" PRIu64, cw[j], t->value[i * t->nr_counters + j]);
		printf("\n");
	}
	free(cw);
}

void report_threads__free(struct report *r)
{
	struct report_threads *t = r->thr;

	if (!t)
		return;
	free(t->pid);
	free(t->tid);
	free(t->value);
	free(t->idx);
	free(t->name);
	free(t);
	r->thr = NULL;
}
