// SPDX-License-Identifier: MIT
/*
 * Intervals of a live analysis (prism top): the state machine goes on as
 * for a whole trace; at each interval's end every CPU is charged up to
 * then, and the interval is the difference of the running sums (per CPU,
 * per task image, per syscall) from those kept at the previous one.
 */
#include <stdio.h>

#include "util/state-fast.h"

struct ivstate {
	bool started;
	uint64_t start, nr_events, lost_events, lost_samples;
	uint64_t (*cpu_base)[B__NR];
	size_t nr_cpu_base;
	/* per task image, in u->tasks order: its sums, moves, wakeups and their latency */
	uint64_t (*task_base)[B__NR + 3];
	size_t nr_task_base;
	struct calltab calls, prev; /* every task's syscalls merged, now and before */
	struct prism_util_interval res;
	struct prism_util_cpu_row *rows;
	struct prism_util_iv_task *tasks;
	size_t cap_tasks;
	struct prism_util_iv_call *sc;
	size_t cap_sc;
};

void util_interval_free(struct prism_util *u)
{
	struct ivstate *s = u->iv;

	if (!s)
		return;
	free(s->cpu_base);
	free(s->task_base);
	calltab_release(&s->calls);
	calltab_release(&s->prev);
	free(s->rows);
	free(s->tasks);
	free(s->sc);
	free(s);
	u->iv = NULL;
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *n;
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	n = prism_reallocarray(*p, c, size);
	if (!n)
		return -ENOMEM;
	memset((char *)n + *cap * size, 0, (c - *cap) * size);
	*p = n;
	*cap = c;
	return 0;
}

static uint64_t diff(uint64_t now, uint64_t *base)
{
	uint64_t d = now >= *base ? now - *base : 0;

	*base = now;
	return d;
}

static int cpus_interval(struct prism_util *u, struct ivstate *s, uint64_t now)
{
	struct prism_util_interval *r = &s->res;
	uint64_t all[B__NR] = { 0 };
	size_t i, cap = s->nr_cpu_base;
	int b;

	if (grow((void **)&s->cpu_base, &cap, u->nr_cpus, sizeof(*s->cpu_base)))
		return -ENOMEM;
	s->nr_cpu_base = cap;
	free(s->rows);
	s->rows = calloc(u->nr_cpus ? u->nr_cpus : 1, sizeof(*s->rows));
	if (!s->rows)
		return -ENOMEM;
	r->nr_cpus = 0;
	for (i = 0; i < u->nr_cpus; i++) {
		struct cpu *c = &u->cpus[i];
		uint64_t d[B__NR];

		if (!c->seen)
			continue;
		charge_inline(u, c, (uint32_t)i, now);
		for (b = 0; b < B__NR; b++) {
			d[b] = diff(c->t[b], &s->cpu_base[i][b]);
			all[b] += d[b];
		}
		s->rows[r->nr_cpus].cpu = (uint32_t)i;
		util_times_from(&s->rows[r->nr_cpus++].t, d);
	}
	r->cpus = s->rows;
	util_times_from(&r->all, all);
	return 0;
}

static int tasks_interval(struct prism_util *u, struct ivstate *s)
{
	struct prism_util_interval *r = &s->res;
	size_t i, j, cap = s->nr_task_base;
	int b;

	if (grow((void **)&s->task_base, &cap, u->nr_tasks, sizeof(*s->task_base)))
		return -ENOMEM;
	s->nr_task_base = cap;
	r->nr_tasks = 0;
	for (i = 0; i < u->nr_tasks; i++) {
		struct task *t = u->tasks[i];
		uint64_t sum[B__NR] = { 0 }, d[B__NR], on = 0;
		struct prism_util_iv_task *o;

		for (j = 0; j < t->nr_cpus; j++)
			for (b = 0; b < B__NR; b++)
				sum[b] += t->cpus[j].t[b];
		for (b = 0; b < B__NR; b++) {
			d[b] = diff(sum[b], &s->task_base[i][b]);
			if (b < B_IDLE)
				on += d[b];
		}
		if (t->dead && !on)
			continue;
		if (grow((void **)&s->tasks, &s->cap_tasks, r->nr_tasks + 1, sizeof(*s->tasks)))
			return -ENOMEM;
		o = &s->tasks[r->nr_tasks++];
		o->tid = t->tid;
		o->pid = t->pid_known ? t->pid : t->tid;
		memcpy(o->comm, t->comm, sizeof(o->comm));
		o->comm[sizeof(o->comm) - 1] = '\0';
		util_times_from(&o->t, d);
		o->moves = diff(t->moves, &s->task_base[i][B__NR]);
		o->wakeups = diff(t->wakeups, &s->task_base[i][B__NR + 1]);
		o->wakeup_total = diff(t->wakeup_total, &s->task_base[i][B__NR + 2]);
		o->running = t->running;
	}
	r->tasks = s->tasks;
	return 0;
}

static int cmp_iv_call(const void *a, const void *b)
{
	const struct prism_util_iv_call *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->elapsed != y->elapsed)
		return x->elapsed > y->elapsed ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int calls_interval(struct prism_util *u, struct ivstate *s)
{
	struct prism_util_interval *r = &s->res;
	struct calltab tmp;
	size_t i, j;

	calltab_clear(&s->calls);
	for (i = 0; i < u->nr_tasks; i++) {
		const struct calltab *ct = &u->tasks[i]->calls;

		for (j = 0; j < ct->nr; j++) {
			const struct prism_util_call *c = &ct->v[j].pub;
			struct ucall *d;

			if (c->kind != PRISM_UTIL_SYSCALL || !c->count)
				continue;
			d = calltab_get(&s->calls, PRISM_UTIL_SYSCALL, c->id, NULL);
			if (!d)
				return -ENOMEM;
			d->pub.count += c->count;
			d->pub.elapsed = sat_add(d->pub.elapsed, c->elapsed);
		}
	}
	r->nr_syscalls = 0;
	for (j = 0; j < s->calls.nr; j++) {
		const struct prism_util_call *c = &s->calls.v[j].pub;
		struct ucall *p = calltab_get(&s->prev, PRISM_UTIL_SYSCALL, c->id, NULL);
		struct prism_util_iv_call *o;
		const char *name;
		uint64_t n, e;

		if (!p)
			return -ENOMEM;
		/* a task whose calls are gone (none are freed now) would make it go down */
		n = c->count > p->pub.count ? c->count - p->pub.count : 0;
		e = c->elapsed > p->pub.elapsed ? c->elapsed - p->pub.elapsed : 0;
		if (!n)
			continue;
		if (grow((void **)&s->sc, &s->cap_sc, r->nr_syscalls + 1, sizeof(*s->sc)))
			return -ENOMEM;
		o = &s->sc[r->nr_syscalls++];
		o->id = c->id;
		o->count = n;
		o->elapsed = e;
		util_call_name(u, PRISM_UTIL_SYSCALL, c->id, o->name, sizeof(o->name), &name);
		if (name != o->name)
			snprintf(o->name, sizeof(o->name), "%s", name);
	}
	if (r->nr_syscalls)
		qsort(s->sc, r->nr_syscalls, sizeof(*s->sc), cmp_iv_call);
	r->syscalls = s->sc;
	/* this interval's sums are the next one's base */
	tmp = s->prev;
	s->prev = s->calls;
	s->calls = tmp;
	return 0;
}

int prism_util__interval(struct prism_util *u, uint64_t now, const struct prism_util_interval **iv)
{
	struct ivstate *s = u->iv;
	struct prism_util_interval *r;
	int err;

	*iv = NULL;
	if (!s) {
		s = u->iv = calloc(1, sizeof(*s));
		if (!s)
			return -ENOMEM;
	}
	r = &s->res;
	if (!s->started) {
		s->started = true;
		s->start = u->started ? u->start : now;
	}
	if (now < s->start)
		now = s->start;
	if (u->started && now > u->end)
		u->end = now;
	err = cpus_interval(u, s, now);
	if (!err)
		err = tasks_interval(u, s);
	if (!err)
		err = calls_interval(u, s);
	if (err)
		return err;
	r->start = s->start;
	r->end = now;
	r->length = now - s->start;
	r->nr_events = diff(u->nr_events, &s->nr_events);
	r->lost_events = diff(u->an.lost_events, &s->lost_events);
	r->lost_samples = diff(u->an.lost_samples, &s->lost_samples);
	s->start = now;
	*iv = r;
	return 0;
}
