// SPDX-License-Identifier: MIT
/*
 * The calls table from call chains: each thread's stack of the last
 * sample is kept, and the next sample of the thread is compared with it.
 * Functions (call paths) that are no longer on the stack have returned:
 * their row is written with call_time/call_id the sample that first showed
 * them and return_time/return_id the first that no longer does.  New ones
 * are called.  At the end of a file the calls still open are written with
 * flags 2 (perf's "no return") and the thread's last sample as the return.
 *
 * Note: call chains are samples, not branches: a function called and
 * returned between two samples is not seen, and two calls of the same
 * function with no sample between them are one.  perf fills this table from
 * branch traces (Intel PT); its columns and views are the same.
 */
#include "internal.h"
#include "export/sql-internal.h"

struct entry {
	int64_t path, parent_path; /* call_paths ids */
	int64_t id; /* the calls row's id, taken when called: children refer to it */
	int64_t call_sample;
	uint64_t call_time;
};

struct stack {
	int64_t thread, comm;
	int64_t last_sample;
	uint64_t last_time;
	struct entry *e;
	size_t nr, alloc;
};

struct sql_calls {
	struct sql_ids *index; /* tid -> stacks[] */
	struct stack *stacks;
	size_t nr, alloc;
};

struct sql_calls *sql_calls__new(void)
{
	struct sql_calls *c = calloc(1, sizeof(*c));

	if (c && !(c->index = sql_ids__new())) {
		free(c);
		return NULL;
	}
	return c;
}

void sql_calls__free(struct sql_calls *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr; i++)
		free(c->stacks[i].e);
	free(c->stacks);
	sql_ids__free(c->index);
	free(c);
}

/* write the row of the stack's top entry, returned at @time by @sample, and pop it */
static int ret(struct prism_sql *x, struct stack *s, uint64_t time, int64_t sample, int flags)
{
	const struct entry *e = &s->e[s->nr - 1];
	struct sql_val v[15] = {
		{ .i = e->id },
		{ .i = s->thread },
		{ .i = s->comm },
		{ .i = e->path },
		{ .i = (int64_t)e->call_time },
		{ .i = (int64_t)time },
		{ .i = 0 }, /* branch_count */
		{ .i = e->call_sample },
		{ .i = sample },
		{ .i = e->parent_path },
		{ .i = flags },
		{ .i = s->nr > 1 ? s->e[s->nr - 2].id : 0 },
	};

	s->nr--;
	return sql_put(x, SQL_T_CALLS, v);
}

int sql_calls__sample(struct prism_sql *x, struct sql_calls *c, uint32_t tid, int64_t thread,
		      int64_t comm, int64_t sample, uint64_t time, const int64_t *paths, size_t n)
{
	struct stack *s;
	int64_t idx;
	size_t k;
	int err = 0;

	if (!sql_ids__find(c->index, &tid, sizeof(tid), &idx)) {
		if (prism_ensure_mem((void **)&c->stacks, &c->alloc, sizeof(*c->stacks), c->nr + 1))
			return -ENOMEM;
		idx = (int64_t)c->nr;
		if (sql_ids__set(c->index, &tid, sizeof(tid), idx))
			return -ENOMEM;
		memset(&c->stacks[c->nr++], 0, sizeof(*c->stacks));
	}
	s = &c->stacks[idx];
	s->thread = thread;
	s->comm = comm;
	/* paths[0] is the root: entry k is paths[k + 1] */
	for (k = 0; k < s->nr && k + 1 < n && s->e[k].path == paths[k + 1]; k++)
		;
	while (!err && s->nr > k)
		err = ret(x, s, time, sample, 0);
	if (!err && n > 1 && prism_ensure_mem((void **)&s->e, &s->alloc, sizeof(*s->e), n - 1))
		err = -ENOMEM;
	for (; !err && k + 1 < n; k++) {
		struct entry *e = &s->e[s->nr++];

		e->path = paths[k + 1];
		e->parent_path = paths[k];
		e->id = sql_new_id(x, SQL_T_CALLS);
		e->call_sample = sample;
		e->call_time = time;
	}
	s->last_sample = sample;
	s->last_time = time;
	return err;
}

int sql_calls__flush(struct prism_sql *x, struct sql_calls *c)
{
	size_t i;
	int err = 0;

	for (i = 0; i < c->nr; i++) {
		struct stack *s = &c->stacks[i];

		while (!err && s->nr)
			err = ret(x, s, s->last_time, s->last_sample, 2);
		free(s->e);
	}
	c->nr = 0;
	sql_ids__clear(c->index);
	return err;
}
