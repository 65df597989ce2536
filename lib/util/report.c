// SPDX-License-Identifier: MIT
/*
 * Building the utilization result from the finished state: filters, task
 * rows grouped into processes, merged call tables, sorting.  Everything the
 * result points to lives in one arena freed with the next report.
 */
#include <stdio.h>

#include "util/util-internal.h"

struct arena {
	void **blocks;
	size_t nr, cap;
};

struct rep {
	struct arena a;
	struct prism_util_result res;
};

/* the arena takes @p over (freed with it); on ENOMEM @p stays the caller's */
static int agive(struct arena *a, void *p)
{
	if (prism_ensure_mem((void **)&a->blocks, &a->cap, sizeof(void *), a->nr + 1))
		return -ENOMEM;
	a->blocks[a->nr++] = p;
	return 0;
}

static void *aalloc(struct arena *a, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (p && agive(a, p)) {
		free(p);
		return NULL;
	}
	return p;
}

static char *astrdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = aalloc(a, n, 1);

	if (p)
		memcpy(p, s, n);
	return p;
}

void util_report_free(struct prism_util *u)
{
	struct rep *r = u->rep;
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->a.nr; i++)
		free(r->a.blocks[i]);
	free(r->a.blocks);
	free(r);
	u->rep = NULL;
}

struct prism_util *prism_util__new(const struct prism_util_opts *opts)
{
	struct prism_util *u = calloc(1, sizeof(*u));

	if (!u) {
		errno = ENOMEM;
		return NULL;
	}
	if (opts)
		u->opts = *opts;
	u->opts.arch = NULL;
	if (opts && opts->arch)
		prism_util__set_arch(u, opts->arch);
	return u;
}

void prism_util__free(struct prism_util *u)
{
	size_t i;

	if (!u)
		return;
	util_report_free(u);
	util_interval_free(u);
	calltab_release(&u->pcalls);
	for (i = 0; i < u->nr_tasks; i++) {
		calltab_release(&u->tasks[i]->calls);
		free(u->tasks[i]->cpus);
		free(u->tasks[i]);
	}
	free(u->tasks);
	umap_release(&u->tidmap);
	calltab_release(&u->idle_calls);
	free(u->cpus);
	free(u->irqnames);
	free(u->missing);
	free(u);
}

void prism_util__set_end(struct prism_util *u, uint64_t end)
{
	u->end_at = end;
}

void prism_util__use_runtime(struct prism_util *u)
{
	u->runtime = true;
}

void prism_util__set_missing(struct prism_util *u, const char *missing)
{
	free(u->missing);
	u->missing = missing ? strdup(missing) : NULL;
}

void util_times_from(struct prism_util_times *o, const uint64_t *t)
{
	o->user = t[B_USER];
	o->sys = t[B_SYS];
	o->irq = t[B_IRQ];
	o->softirq = t[B_SOFTIRQ];
	o->hv = t[B_HV];
	o->busy = t[B_BUSY];
	o->idle = t[B_IDLE];
	o->wait = t[B_WAIT];
	o->sleep = t[B_SLEEP];
	o->steal = t[B_STEAL];
}

/* times from a file with absurd timestamps saturate instead of wrapping */
static void times_add(struct prism_util_times *o, const struct prism_util_times *t)
{
	o->user = sat_add(o->user, t->user);
	o->sys = sat_add(o->sys, t->sys);
	o->irq = sat_add(o->irq, t->irq);
	o->softirq = sat_add(o->softirq, t->softirq);
	o->hv = sat_add(o->hv, t->hv);
	o->busy = sat_add(o->busy, t->busy);
	o->idle = sat_add(o->idle, t->idle);
	o->wait = sat_add(o->wait, t->wait);
	o->sleep = sat_add(o->sleep, t->sleep);
	o->steal = sat_add(o->steal, t->steal);
}

static uint64_t run_of(const struct prism_util_times *t)
{
	return sat_add(sat_add(sat_add(t->user, t->sys), sat_add(t->irq, t->softirq)),
		       sat_add(t->hv, t->busy));
}

static bool in_list(const int64_t *v, size_t n, int64_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static int merge_calls(struct calltab *dst, const struct calltab *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++) {
		const struct prism_util_call *s = &src->v[i].pub;
		struct ucall *d = calltab_get(dst, s->kind, s->id, NULL);

		if (!d)
			return -ENOMEM;
		call_merge(&d->pub, s);
	}
	return 0;
}

static int cmp_call(const void *a, const void *b)
{
	const struct prism_util_call *x = a, *y = b;
	uint64_t tx = sat_add(x->elapsed, x->pending), ty = sat_add(y->elapsed, y->pending);

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* report order: by kind, then as cmp_call() */
static int cmp_kind_call(const void *a, const void *b)
{
	const struct prism_util_call *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return cmp_call(a, b);
}

/* the entries of a call table are the public structs (see struct ucall) */
_Static_assert(sizeof(struct ucall) == sizeof(struct prism_util_call),
	       "struct ucall is a struct prism_util_call");

/*
 * Name the calls of @ct and sort them in place, by kind, and point the
 * report at them (a big trace has thousands of tables: no copies).  With
 * @give the arena takes the entries over (a table made for the report);
 * else the table stays usable, its index rebuilt for the new order.
 */
static int export_calls(struct prism_util *u, struct arena *a, struct calltab *ct, bool give,
			size_t *nr, const struct prism_util_call **out)
{
	struct prism_util_call *v;
	size_t i;
	int k;

	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++) {
		nr[k] = 0;
		out[k] = NULL;
	}
	/* what the report allocates next can use the room the table does not */
	umap_release(&ct->map);
	calltab_shrink(ct);
	v = ct->v ? &ct->v->pub : NULL;
	for (i = 0; i < ct->nr; i++) {
		char buf[32];
		const char *name;

		util_call_name(u, v[i].kind, v[i].id, buf, sizeof(buf), &name);
		v[i].name = name == buf ? astrdup(a, buf) : name;
		if (!v[i].name)
			return -ENOMEM;
	}
	if (ct->nr)
		qsort(v, ct->nr, sizeof(*v), cmp_kind_call);
	for (i = 0; i < ct->nr; i++) {
		k = v[i].kind;
		if (!nr[k]++)
			out[k] = &v[i];
	}
	if (give) {
		if (ct->v && agive(a, ct->v))
			return -ENOMEM;
		ct->v = NULL;
		ct->nr = ct->cap = 0;
		return 0;
	}
	/* the order changed: the next lookup indexes the table again (tables.c) */
	ct->last_key = UINT64_MAX; /* no key */
	return 0;
}

static int cmp_times(const struct prism_util_times *a, const struct prism_util_times *b,
		     enum prism_util_sort sort_key)
{
	uint64_t ra = run_of(a), rb = run_of(b);
	double ua, ub;

	if (sort_key == PRISM_UTIL_SORT_CPU) {
		if (ra != rb)
			return ra > rb ? -1 : 1;
		return 0;
	}
	ua = sat_add(ra, a->idle) ? (double)ra / (double)sat_add(ra, a->idle) : 0;
	ub = sat_add(rb, b->idle) ? (double)rb / (double)sat_add(rb, b->idle) : 0;
	if (ra != rb && sort_key == PRISM_UTIL_SORT_UTIL) {
		/* busiest first: by run time, the share only breaks ties */
		return ra > rb ? -1 : 1;
	}
	if (ua != ub)
		return ua > ub ? -1 : 1;
	return 0;
}

/* two rows (tasks or processes) by the sort key; 0 leaves it to their ids */
static int cmp_key(const char *comm_a, const struct prism_util_times *a, const char *comm_b,
		   const struct prism_util_times *b, enum prism_util_sort sort_key)
{
	if (sort_key == PRISM_UTIL_SORT_NAME)
		return strcmp(comm_a, comm_b);
	if (sort_key == PRISM_UTIL_SORT_TID)
		return 0;
	return cmp_times(a, b, sort_key);
}

static int cmp_task(const void *pa, const void *pb, void *ctx)
{
	enum prism_util_sort sort_key = *(const enum prism_util_sort *)ctx;
	const struct prism_util_task *a = *(const struct prism_util_task *const *)pa;
	const struct prism_util_task *b = *(const struct prism_util_task *const *)pb;
	int r = cmp_key(a->comm, &a->all, b->comm, &b->all, sort_key);

	if (r)
		return r;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	/* images: old ones in exec order, the current one last */
	if (a->image != b->image)
		return (a->image < 0 ? INT32_MAX : a->image) <
				       (b->image < 0 ? INT32_MAX : b->image) ?
			       -1 :
			       1;
	return 0;
}

static int cmp_proc(const void *pa, const void *pb, void *ctx)
{
	enum prism_util_sort sort_key = *(const enum prism_util_sort *)ctx;
	const struct prism_util_process *a = pa, *b = pb;
	int r = cmp_key(a->comm, &a->all, b->comm, &b->all, sort_key);

	if (r)
		return r;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static int cmp_task_pid(const void *pa, const void *pb, void *ctx)
{
	const struct prism_util_task *a = *(const struct prism_util_task *const *)pa;
	const struct prism_util_task *b = *(const struct prism_util_task *const *)pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return cmp_task(pa, pb, ctx);
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct prism_util_cpu_row *a = pa, *b = pb;

	return a->cpu < b->cpu ? -1 : a->cpu > b->cpu;
}

/* number the images an exec replaced: 0, 1, ... per tid in creation order */
static int number_images(struct prism_util *u, int *images)
{
	struct umap seen = { 0 };
	size_t i;

	for (i = 0; i < u->nr_tasks; i++) {
		struct task *t = u->tasks[i];
		int64_t n;

		images[i] = -1;
		if (!t->replaced)
			continue;
		n = umap_get(&seen, t->tid);
		n = n < 0 ? 0 : n;
		images[i] = (int)n;
		if (umap_put(&seen, t->tid, (uint32_t)n + 1)) {
			umap_release(&seen);
			return -ENOMEM;
		}
	}
	umap_release(&seen);
	return 0;
}

static bool task_selected(const struct task *t, const struct prism_util_report_opts *o)
{
	size_t i;
	bool ok;

	if (o->nr_pids && !in_list(o->pids, o->nr_pids, t->pid))
		return false;
	if (o->nr_tids && !in_list(o->tids, o->nr_tids, t->tid))
		return false;
	if (o->nr_comms) {
		ok = false;
		for (i = 0; i < o->nr_comms; i++)
			if (!strcmp(o->comms[i], t->comm))
				ok = true;
		if (!ok)
			return false;
	}
	return true;
}

static int build_task(struct prism_util *u, struct arena *a, struct task *t, int image,
		      const struct prism_util_report_opts *o, struct prism_util_task *out)
{
	struct prism_util_cpu_row *rows;
	size_t i, n = 0;

	rows = aalloc(a, t->nr_cpus, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->nr_cpus; i++) {
		if (o->nr_cpus && !in_list(o->cpus, o->nr_cpus, t->cpus[i].cpu))
			continue;
		rows[n].cpu = t->cpus[i].cpu;
		util_times_from(&rows[n].t, t->cpus[i].t);
		times_add(&out->all, &rows[n].t);
		n++;
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	if (!o->nr_cpus)
		out->all.idle = sat_add(out->all.idle, t->idle_nocpu);
	out->tid = t->tid;
	out->pid = t->pid;
	out->image = image;
	out->comm = astrdup(a, t->comm[0] ? t->comm : "?");
	out->start = t->start;
	out->end = t->end;
	out->exited = t->dead && !t->replaced;
	out->nr_cpus = n;
	out->cpus = rows;
	out->moves = t->moves;
	out->wakeups = t->wakeups;
	out->wakeup_total = t->wakeup_total;
	out->wakeup_max = t->wakeup_max;
	out->inferred = t->inferred;
	out->tail = t->tail;
	out->head = t->head;
	out->orphan = t->orphan;
	out->switch_ins = t->switch_ins;
	out->moved = t->moved;
	if (!out->comm)
		return -ENOMEM;
	return export_calls(u, a, &t->calls, false, out->nr_calls, out->calls);
}

int prism_util__report(struct prism_util *u, const struct prism_util_report_opts *opts,
		       const struct prism_util_result **res)
{
	static const struct prism_util_report_opts none;
	const struct prism_util_report_opts *o = opts ? opts : &none;
	struct prism_util_task *tasks = NULL, **order = NULL;
	struct prism_util_process *procs = NULL;
	struct calltab sys = { 0 };
	enum prism_util_sort sort_key = o->sort;
	struct prism_util_result *r;
	struct rep *rep;
	struct arena *a;
	int *images = NULL;
	size_t i, j, nt = 0, np = 0, ncpu;
	int err = -ENOMEM;

	prism_util__finish(u);
	util_report_free(u);
	rep = calloc(1, sizeof(*rep));
	if (!rep)
		return -ENOMEM;
	u->rep = rep;
	a = &rep->a;
	r = &rep->res;

	r->start = u->start;
	r->end = u->end;
	r->length = u->end - u->start;
	r->arch = astrdup(a, u->arch_buf[0] ? u->arch_buf : "unknown");
	r->nr_events = u->nr_events;
	r->anomalies = u->an;
	r->anomalies.missing = astrdup(a, u->missing ? u->missing : "");
	if (!r->arch || !r->anomalies.missing)
		goto out;

	/* the system per-CPU summary: every CPU of the file */
	ncpu = u->nr_cpus_file;
	for (i = 0; i < u->nr_cpus; i++)
		if (u->cpus[i].seen && i + 1 > ncpu)
			ncpu = i + 1;
	{
		struct prism_util_cpu_row *rows = aalloc(a, ncpu, sizeof(*rows));
		size_t n = 0;

		if (!rows)
			goto out;
		for (i = 0; i < ncpu; i++) {
			if (o->nr_cpus && !in_list(o->cpus, o->nr_cpus, (int64_t)i))
				continue;
			rows[n].cpu = (uint32_t)i;
			if (i < u->nr_cpus && u->cpus[i].seen) {
				util_times_from(&rows[n].t, u->cpus[i].t);
			} else {
				rows[n].t.idle = r->length;
				r->anomalies.cpus_without_events++;
			}
			rows[n].t.wait = rows[n].t.sleep = 0;
			times_add(&r->all, &rows[n].t);
			n++;
		}
		r->cpus = rows;
		r->nr_cpus = (uint32_t)n;
		if (n && r->length)
			r->util_pct =
				100.0 * (double)run_of(&r->all) / ((double)r->length * (double)n);
	}

	/* tasks */
	images = calloc(u->nr_tasks ? u->nr_tasks : 1, sizeof(*images));
	tasks = aalloc(a, u->nr_tasks, sizeof(*tasks));
	order = calloc(u->nr_tasks ? u->nr_tasks : 1, sizeof(*order));
	if (!images || !tasks || !order || number_images(u, images))
		goto out;
	for (i = 0; i < u->nr_tasks; i++) {
		struct task *t = u->tasks[i];
		struct prism_util_task *pt = &tasks[nt];
		size_t k, ncalls = t->calls.nr;

		if (merge_calls(&sys, &t->calls))
			goto out;
		if (!task_selected(t, o))
			continue;
		if (build_task(u, a, t, images[i], o, pt))
			goto out;
		/* a task that never ran and made no call is no row */
		for (k = 0; k < PRISM_UTIL_NR_KINDS; k++)
			ncalls += pt->nr_calls[k];
		if (!run_of(&pt->all) && !ncalls)
			continue;
		if (o->nr_cpus && !pt->nr_cpus)
			continue;
		order[nt++] = pt;
	}
	if (merge_calls(&sys, &u->idle_calls))
		goto out;
	if (export_calls(u, a, &sys, true, r->nr_calls, r->calls))
		goto out;

	/* processes: group by pid */
	qsort_r(order, nt, sizeof(*order), cmp_task_pid, &sort_key);
	procs = aalloc(a, nt, sizeof(*procs));
	if (!procs)
		goto out;
	for (i = 0; i < nt; i = j) {
		struct prism_util_process *p = &procs[np++];
		struct prism_util_cpu_row *rows;
		const struct prism_util_task **pt;
		size_t k, m, nrows = 0;

		for (j = i; j < nt && order[j]->pid == order[i]->pid; j++)
			;
		p->pid = order[i]->pid;
		p->nr_tasks = j - i;
		pt = aalloc(a, j - i, sizeof(*pt));
		if (!pt)
			goto out;
		p->comm = order[i]->comm;
		for (k = i; k < j; k++) {
			pt[k - i] = order[k];
			if (order[k]->tid == p->pid && order[k]->image < 0)
				p->comm = order[k]->comm;
			times_add(&p->all, &order[k]->all);
			p->moves += order[k]->moves;
			nrows += order[k]->nr_cpus;
		}
		qsort_r(pt, j - i, sizeof(*pt), cmp_task, &sort_key);
		p->tasks = pt;
		rows = aalloc(a, nrows, sizeof(*rows));
		if (!rows)
			goto out;
		nrows = 0;
		for (k = i; k < j; k++) {
			for (m = 0; m < order[k]->nr_cpus; m++) {
				const struct prism_util_cpu_row *src = &order[k]->cpus[m];
				size_t q;

				for (q = 0; q < nrows && rows[q].cpu != src->cpu; q++)
					;
				if (q == nrows)
					rows[nrows++].cpu = src->cpu;
				times_add(&rows[q].t, &src->t);
			}
		}
		qsort(rows, nrows, sizeof(*rows), cmp_row);
		p->cpus = rows;
		p->nr_cpus = nrows;
	}
	if (o->top && np > o->top) {
		/* the N busiest, then in the asked order */
		enum prism_util_sort busiest = PRISM_UTIL_SORT_UTIL;

		qsort_r(procs, np, sizeof(*procs), cmp_proc, &busiest);
		np = o->top;
	}
	qsort_r(procs, np, sizeof(*procs), cmp_proc, &sort_key);
	r->processes = procs;
	r->nr_processes = np;
	*res = r;
	err = 0;
out:
	calltab_release(&sys);
	free(images);
	free(order);
	return err;
}

int prism_util__process_calls(struct prism_util *u, const struct prism_util_process *p,
			      size_t nr[PRISM_UTIL_NR_KINDS],
			      const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS])
{
	struct calltab *ct = &u->pcalls;
	struct prism_util_call *v;
	size_t i, j, c;
	int k;

	calltab_clear(ct);
	ct->last_key = UINT64_MAX; /* no key */
	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++) {
		nr[k] = 0;
		calls[k] = NULL;
	}
	for (i = 0; i < p->nr_tasks; i++) {
		const struct prism_util_task *t = p->tasks[i];

		for (k = 0; k < PRISM_UTIL_NR_KINDS; k++) {
			for (c = 0; c < t->nr_calls[k]; c++) {
				const struct prism_util_call *s = &t->calls[k][c];
				struct ucall *d = calltab_get(ct, s->kind, s->id, NULL);

				if (!d)
					return -ENOMEM;
				d->pub.name = s->name; /* named by the report */
				call_merge(&d->pub, s);
			}
		}
	}
	v = ct->v ? &ct->v->pub : NULL;
	if (ct->nr)
		qsort(v, ct->nr, sizeof(*v), cmp_kind_call);
	/* the order changed: the index is made again when needed (tables.c) */
	umap_clear(&ct->map);
	for (j = 0; j < ct->nr; j++) {
		k = v[j].kind;
		if (!nr[k]++)
			calls[k] = &v[j];
	}
	return 0;
}
