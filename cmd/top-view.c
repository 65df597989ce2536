// SPDX-License-Identifier: MIT
/*
 * prism top's frame: the interval's header, a line per CPU and their sum,
 * the tasks (or processes) sorted and filtered as the view says, the
 * busiest syscalls and the anomalies line.  The same text in batch mode
 * and on the terminal (where it is cut to the screen).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "top.h"

#define NR_SYSCALL_ROWS 8

static const char *const sort_names[] = { "util", "sys", "user", "latency" };

int top_sort_parse(const char *s)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(sort_names); i++)
		if (!strcmp(s, sort_names[i]))
			return (int)i;
	return -1;
}

const char *top_sort_name(enum top_sort s)
{
	return sort_names[s];
}

void top_snap_free(struct top_snap *s)
{
	if (!s)
		return;
	free(s->cpus);
	free(s->tasks);
	free(s->syscalls);
	top_hot_free(s->hot);
	free(s);
}

/* a task row, or a process's: its tasks summed */
struct row {
	uint32_t pid, tid, nr;
	const char *comm;
	struct prism_util_times t;
	uint64_t moves, wakeups, wakeup_total;
};

static uint64_t on_cpu(const struct prism_util_times *t)
{
	return t->user + t->sys + t->irq + t->softirq + t->hv + t->busy;
}

static double lat_us(const struct row *r)
{
	return r->wakeups ? (double)r->wakeup_total / (double)r->wakeups / 1e3 : 0;
}

static uint64_t sort_value(const struct row *r, enum top_sort s)
{
	switch (s) {
	case TOP_SORT_SYS:
		return r->t.sys;
	case TOP_SORT_USER:
		return r->t.user;
	case TOP_SORT_LAT:
		return r->wakeups ? r->wakeup_total / r->wakeups : 0;
	default:
		return on_cpu(&r->t);
	}
}

static enum top_sort cmp_sort;

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	uint64_t x = sort_value(a, cmp_sort), y = sort_value(b, cmp_sort);

	if (x != y)
		return x > y ? -1 : 1;
	if (on_cpu(&a->t) != on_cpu(&b->t))
		return on_cpu(&a->t) > on_cpu(&b->t) ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static void add_times(struct prism_util_times *d, const struct prism_util_times *s)
{
	d->user += s->user;
	d->sys += s->sys;
	d->irq += s->irq;
	d->softirq += s->softirq;
	d->hv += s->hv;
	d->busy += s->busy;
	d->idle += s->idle;
	d->wait += s->wait;
	d->sleep += s->sleep;
	d->steal += s->steal;
}

/* whether an earlier image of @tid is in the interval (a thread counts once) */
static bool seen_tid(const struct top_snap *s, size_t before, uint32_t tid)
{
	size_t i;

	for (i = 0; i < before; i++)
		if (s->iv.tasks[i].tid == tid)
			return true;
	return false;
}

/* the rows the view shows, sorted; *@nr rows in a malloc()ed array */
static struct row *make_rows(const struct top_snap *s, const struct top_view *v, size_t *nr)
{
	struct row *rows = xcalloc(s->iv.nr_tasks ? s->iv.nr_tasks : 1, sizeof(*rows));
	size_t i, j, n = 0;

	for (i = 0; i < s->iv.nr_tasks; i++) {
		const struct prism_util_iv_task *t = &s->iv.tasks[i];
		struct row *r = NULL;

		if (!top_filter_match(v->filter, t->pid, t->tid, t->comm))
			continue;
		/* a row per process, or per task (its exec images summed) */
		for (j = 0; j < n && !r; j++)
			if (v->procs ? rows[j].pid == t->pid : rows[j].tid == t->tid)
				r = &rows[j];
		if (!r) {
			r = &rows[n++];
			r->pid = t->pid;
			r->tid = t->tid;
			r->comm = t->comm;
		}
		/* named after its newest image; a process after its main thread */
		if (!v->procs || t->tid == t->pid)
			r->comm = t->comm;
		if (!r->nr || !seen_tid(s, i, t->tid))
			r->nr++;
		add_times(&r->t, &t->t);
		r->moves += t->moves;
		r->wakeups += t->wakeups;
		r->wakeup_total += t->wakeup_total;
	}
	cmp_sort = v->sort;
	qsort(rows, n, sizeof(*rows), cmp_row);
	*nr = n;
	return rows;
}

static double pct(uint64_t x, uint64_t len)
{
	return len ? 100.0 * (double)x / (double)len : 0;
}

static void cpu_line(struct prism_strbuf *o, const char *name, const struct prism_util_times *t,
		     uint64_t len)
{
	prism_strbuf_addf(
		o,
		"%-6s %6.1f util %6.1f usr %6.1f sys %6.1f irq %6.1f sirq %6.1f hv %6.1f busy %6.1f idle\n",
		name, pct(on_cpu(t), len), pct(t->user, len), pct(t->sys, len), pct(t->irq, len),
		pct(t->softirq, len), pct(t->hv, len), pct(t->busy, len), pct(t->idle, len));
}

static int cmp_lat(const void *pa, const void *pb)
{
	const struct prism_util_iv_call *a = pa, *b = pb;
	double x = (double)a->elapsed / (double)a->count, y = (double)b->elapsed / (double)b->count;

	if (x != y)
		return x > y ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static void syscalls(struct prism_strbuf *o, const struct top_snap *s, const struct top_view *v)
{
	const struct prism_util_interval *iv = &s->iv;
	struct prism_util_iv_call *sc;
	double secs = (double)iv->length / 1e9;
	size_t i, n = iv->nr_syscalls;

	if (!n)
		return;
	sc = xmalloc(n * sizeof(*sc));
	memcpy(sc, iv->syscalls, n * sizeof(*sc));
	if (v->sort == TOP_SORT_LAT)
		qsort(sc, n, sizeof(*sc), cmp_lat);
	prism_strbuf_addf(o, "\n%-22s %12s %12s %12s\n", "SYSCALL", "CALLS/s", "AVG us",
			  "TOTAL ms");
	for (i = 0; i < n && i < NR_SYSCALL_ROWS; i++)
		prism_strbuf_addf(o, "%-22s %12.0f %12.2f %12.3f\n", sc[i].name,
				  secs > 0 ? (double)sc[i].count / secs : 0,
				  (double)sc[i].elapsed / (double)sc[i].count / 1e3,
				  (double)sc[i].elapsed / 1e6);
	free(sc);
}

/* cut every line of @o from @from on to @cols columns (the screen's width) */
static void cut_lines(struct prism_strbuf *o, size_t from, int cols)
{
	size_t r = from, w = from, col = 0;

	if (cols <= 0)
		return;
	for (; r < o->len; r++) {
		char c = o->buf[r];

		if (c == '\n')
			col = 0;
		else if (col++ >= (size_t)cols)
			continue;
		o->buf[w++] = c;
	}
	prism_strbuf_setlen(o, w);
}

void top_render(struct prism_strbuf *out, const struct top_snap *s, const struct top_view *v)
{
	const struct prism_util_interval *iv = &s->iv;
	size_t start = out->len, i, nr;
	struct row *rows;
	char name[16];

	prism_strbuf_addf(out,
			  "prism top - interval %u: %.2f s, %u CPUs, %" PRIu64
			  " events; %s view, sort %s%s%s%s\n",
			  s->seq, (double)iv->length / 1e9, iv->nr_cpus, iv->nr_events,
			  v->hot   ? "hot" :
			  v->procs ? "process" :
				     "task",
			  v->hot ? "overhead" : top_sort_name(v->sort),
			  *v->filter ? ", filter '" : "", v->filter, *v->filter ? "'" : "");
	if (v->hot) {
		top_hot_render(out, s->hot, v->rows);
		cut_lines(out, start, v->cols);
		return;
	}
	for (i = 0; i < iv->nr_cpus; i++) {
		snprintf(name, sizeof(name), "cpu%u", iv->cpus[i].cpu);
		cpu_line(out, name, &iv->cpus[i].t, iv->length);
	}
	cpu_line(out, "all", &iv->all, iv->length * (iv->nr_cpus ? iv->nr_cpus : 1));
	prism_strbuf_addf(out,
			  "anomalies: lost %" PRIu64 " events, %" PRIu64
			  " samples in the interval (%" PRIu64 " since the start)\n",
			  iv->lost_events, iv->lost_samples, s->lost_total);

	rows = make_rows(s, v, &nr);
	prism_strbuf_addf(out, "\n%7s %7s %-16s %6s %6s %6s %6s %6s %6s %6s %5s %9s\n", "PID",
			  v->procs ? "THREADS" : "TID", "COMM", "UTIL%", "USR%", "SYS%", "IRQ%",
			  "SIRQ%", "HV%", "BUSY%", "MIGR", "WAKE-us");
	for (i = 0; i < nr && (!v->rows || i < (size_t)v->rows); i++) {
		const struct row *r = &rows[i];
		uint64_t len = iv->length;

		prism_strbuf_addf(
			out,
			"%7u %7u %-16s %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %5" PRIu64
			" %9.1f\n",
			r->pid, v->procs ? r->nr : r->tid, r->comm[0] ? r->comm : "?",
			pct(on_cpu(&r->t), len), pct(r->t.user, len), pct(r->t.sys, len),
			pct(r->t.irq, len), pct(r->t.softirq, len), pct(r->t.hv, len),
			pct(r->t.busy, len), r->moves, lat_us(r));
	}
	free(rows);
	syscalls(out, s, v);
	cut_lines(out, start, v->cols);
}
