// SPDX-License-Identifier: MIT
/*
 * The util tables of the SQL exporter: prism util's result as the rows and
 * call records of prism util --csv (the same columns and numbers, times in
 * ms), so that a query over util_calls / util_tasks gives prism util's
 * tables.  cpu -1 stands for the CSV's "ALL" row; the CSV's empty fields
 * are NULL.
 */
#include <prism/util.h>

#include "internal.h"
#include "export/sql-internal.h"

#define MS(ns)                          \
	{                               \
		.d = (double)(ns) / 1e6 \
	}
#define I(v) SQL_I(v)
#define S(v) SQL_S(v)
#define NUL                  \
	{                    \
		.null = true \
	}

static const char *const kind_names[PRISM_UTIL_NR_KINDS] = { "syscall", "irq", "softirq", "hcall" };

static uint64_t run_of(const struct prism_util_times *t)
{
	return t->user + t->sys + t->irq + t->softirq + t->hv + t->busy;
}

/* one row record; @extra: the ALL row of a task, which has moves .. inferred */
static int task_row(struct prism_sql *x, const char *scope, const struct sql_val *who, int64_t cpu,
		    const struct prism_util_times *t, uint64_t whole,
		    const struct prism_util_task *extra, const uint64_t *moves)
{
	uint64_t run = run_of(t);
	struct sql_val v[24] = {
		I(sql_new_id(x, SQL_T_UTIL_TASKS)),
		S(scope),
		who[0],
		who[1],
		who[2],
		who[3],
		I(cpu),
		MS(t->user),
		MS(t->sys),
		MS(t->irq),
		MS(t->softirq),
		MS(t->hv),
		MS(t->busy),
		MS(t->idle),
		MS(t->wait),
		MS(t->sleep),
		{ .d = 0 },
		NUL,
		NUL,
		NUL,
		NUL,
		NUL,
		MS(t->steal),
	};

	whole = whole ? whole : run + t->idle;
	v[16].d = whole ? 100.0 * (double)run / (double)whole : 0.0;
	if (moves)
		v[17] = (struct sql_val)I(*moves);
	if (extra) {
		v[18] = (struct sql_val)I(extra->wakeups);
		v[19] = (struct sql_val){ .d = extra->wakeups ? (double)extra->wakeup_total / 1e6 /
									(double)extra->wakeups :
								0.0 };
		v[20] = (struct sql_val)MS(extra->wakeup_max);
		v[21] = (struct sql_val)MS(extra->inferred);
	}
	return sql_put(x, SQL_T_UTIL_TASKS, v);
}

static int call_rows(struct prism_sql *x, const char *scope, int64_t pid, int64_t tid, int image,
		     const size_t *nr, const struct prism_util_call *const *calls)
{
	size_t k, i;
	int err = 0;

	for (k = 0; !err && k < PRISM_UTIL_NR_KINDS; k++)
		for (i = 0; !err && i < nr[k]; i++) {
			const struct prism_util_call *c = &calls[k][i];
			struct sql_val v[21] = {
				I(sql_new_id(x, SQL_T_UTIL_CALLS)),
				S(scope),
				I(pid),
				I(tid),
				I(image),
				S(kind_names[k]),
				I(c->id),
				S(c->name),
				I(c->count),
				MS(c->elapsed),
				MS(c->pending),
				{ .d = c->count ? (double)c->elapsed / 1e6 / (double)c->count :
						  0.0 },
				MS(c->min),
				MS(c->max),
				MS(c->oncpu),
				I(c->nr_pending_start),
				I(c->nr_pending_end),
				I(c->nr_inherited),
				I(c->nr_unmatched_exits),
				I(c->nr_duplicate_exits),
			};

			err = sql_put(x, SQL_T_UTIL_CALLS, v);
		}
	return err;
}

static int process_rows(struct prism_sql *x, struct prism_util *u,
			const struct prism_util_process *p)
{
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS];
	size_t nr[PRISM_UTIL_NR_KINDS], j, k;
	int err = 0;

	for (j = 0; !err && j < p->nr_tasks; j++) {
		const struct prism_util_task *t = p->tasks[j];
		struct sql_val who[4] = { I(t->pid), I(t->tid), I(t->image), S(t->comm) };

		for (k = 0; !err && k < t->nr_cpus; k++)
			err = task_row(x, "task", who, t->cpus[k].cpu, &t->cpus[k].t, 0, NULL,
				       NULL);
		if (!err)
			err = task_row(x, "task", who, -1, &t->all, 0, t, &t->moves);
		if (!err)
			err = call_rows(x, "task", t->pid, t->tid, t->image, t->nr_calls, t->calls);
	}
	{
		struct sql_val who[4] = { I(p->pid), NUL, NUL, S(p->comm) };

		for (k = 0; !err && k < p->nr_cpus; k++)
			err = task_row(x, "process", who, p->cpus[k].cpu, &p->cpus[k].t, 0, NULL,
				       NULL);
		if (!err)
			err = task_row(x, "process", who, -1, &p->all, 0, NULL, &p->moves);
	}
	if (!err)
		err = prism_util__process_calls(u, p, nr, calls);
	if (!err)
		err = call_rows(x, "process", p->pid, -1, -1, nr, calls);
	return err;
}

int prism_sql__add_util(struct prism_sql *x, struct prism_util *u)
{
	const struct prism_util_result *r;
	struct sql_val who[4] = { NUL, NUL, NUL, NUL };
	size_t i;
	int err;

	if (sql_failed(x))
		return -EINVAL;
	err = prism_util__report(u, NULL, &r);
	for (i = 0; !err && i < r->nr_processes; i++)
		err = process_rows(x, u, &r->processes[i]);
	for (i = 0; !err && i < r->nr_cpus; i++)
		err = task_row(x, "system", who, r->cpus[i].cpu, &r->cpus[i].t, r->length, NULL,
			       NULL);
	if (!err)
		err = task_row(x, "system", who, -1, &r->all,
			       r->length * (r->nr_cpus ? r->nr_cpus : 1), NULL, NULL);
	if (!err)
		err = call_rows(x, "system", -1, -1, -1, r->nr_calls, r->calls);
	if (err)
		sql_fail(x);
	return err;
}
