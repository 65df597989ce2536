// SPDX-License-Identifier: MIT
/*
 * The calls table from a branch trace, by perf 6.1's rules (its
 * thread-stack call/return processor, as export-to-sqlite.py's "calls"
 * gets it): each thread keeps a stack of the functions it is in, made from
 * the branches samples in order.
 *
 * - A call pushes its target (a call to the next instruction is none); a
 *   return pops the entry it returns to, and the entries above it as not
 *   returned (flags 2); a return that matches nothing is a return from a
 *   call not seen: the function is pushed as not called (flags 1) and
 *   popped, or, at the bottom of the stack, replaces the bottom.
 * - An empty stack starts with the function the branch is in (not called).
 * - A branch to the start of another symbol is a jump that stands for a
 *   call (flags 4, "jump"): a return pops it first.
 * - A call made as the trace ended is taken as returned when tracing
 *   begins again; a trace end pushes a "no symbol" entry.
 * - A return to user space pops the kernel entries; x86 retpolines
 *   (__x86_indirect_thunk_*) are taken out of the stack.
 * - At the end of the file every stack is emptied as not returned, the
 *   threads in perf's order (by tid modulo 256, then tid).
 *
 * Rows are written when a call returns; a row's id is taken then, or
 * earlier when a callee returns first (its parent_id); call paths get
 * their ids when a row first refers to them, parents first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/pt.h>

#include "internal.h"
#include "export/sql-internal.h"

#define KERNEL_START (1ULL << 63)
/* perf's call_return flags */
#define CR_NO_CALL 1
#define CR_NO_RETURN 2
#define CR_NON_CALL 4

/* a call path: the functions from the root, perf's (parent, symbol, ip) */
struct cpath {
	size_t parent; /* index; the root is 0, its own parent */
	int64_t sym; /* symbols row id, 0 = none */
	uint64_t ip; /* 0 when sym */
	int64_t db_id; /* 0 until written */
	bool in_kernel;
	const char *name; /* the symbol's name (retpolines), NULL */
};

struct entry {
	uint64_t ret_addr, time, branch_count;
	int64_t ref, db_id;
	size_t cp;
	bool no_call, trace_end, non_call;
};

struct tstack {
	int32_t pid, tid;
	uint32_t cpu;
	int64_t thread, comm;
	uint64_t branch_count, last_time;
	bool retpoline; /* a retpoline was seen at the last branch */
	struct entry *e;
	size_t cnt, alloc;
};

struct sql_pt_calls {
	struct cpath *cp;
	size_t nr_cp, alloc_cp;
	struct sql_ids *paths; /* (parent, sym, ip) -> cp index */
	struct sql_ids *index; /* (pid, tid, cpu) -> stacks index */
	struct tstack *st;
	size_t nr_st, alloc_st;
};

struct sql_pt_calls *sql_pt_calls__new(void)
{
	struct sql_pt_calls *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->paths = sql_ids__new();
	c->index = sql_ids__new();
	c->cp = calloc(1, sizeof(*c->cp)); /* the root */
	if (!c->paths || !c->index || !c->cp) {
		sql_pt_calls__free(c);
		return NULL;
	}
	c->nr_cp = c->alloc_cp = 1;
	return c;
}

void sql_pt_calls__free(struct sql_pt_calls *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_st; i++)
		free(c->st[i].e);
	free(c->st);
	free(c->cp);
	sql_ids__free(c->paths);
	sql_ids__free(c->index);
	free(c);
}

/* the child of @parent for (@sym, @ip); (size_t)-1 without memory */
static size_t findnew(struct sql_pt_calls *c, size_t parent, int64_t sym, const char *name,
		      uint64_t ip)
{
	bool in_kernel = ip >= KERNEL_START;
	uint64_t k[3] = { parent, (uint64_t)sym, sym ? 0 : ip };
	int64_t idx;
	struct cpath *p;

	if (sql_ids__find(c->paths, k, sizeof(k), &idx))
		return (size_t)idx;
	if (prism_ensure_mem((void **)&c->cp, &c->alloc_cp, sizeof(*c->cp), c->nr_cp + 1) ||
	    sql_ids__set(c->paths, k, sizeof(k), (int64_t)c->nr_cp))
		return (size_t)-1;
	p = &c->cp[c->nr_cp];
	memset(p, 0, sizeof(*p));
	p->parent = parent;
	p->sym = sym;
	p->ip = k[2];
	p->in_kernel = in_kernel;
	p->name = sym ? name : NULL;
	return c->nr_cp++;
}

/* write the call path's row (its parents' first) when it has none */
static int export_path(struct prism_sql *x, struct sql_pt_calls *c, size_t i)
{
	struct cpath *p = &c->cp[i];
	int err;

	if (p->db_id)
		return 0;
	if (i) {
		err = export_path(x, c, p->parent);
		if (err)
			return err;
	}
	p->db_id = sql_new_id(x, SQL_T_CALL_PATHS);
	{
		struct sql_val v[5] = { SQL_I(p->db_id), SQL_I(i ? c->cp[p->parent].db_id : 0),
					SQL_I(p->sym), SQL_I(p->ip) };

		return sql_put(x, SQL_T_CALL_PATHS, v);
	}
}

size_t sql_pt_calls__child(struct sql_pt_calls *c, size_t parent, int64_t sym, const char *name,
			   uint64_t ip)
{
	return findnew(c, parent, sym, name, ip);
}

int sql_pt_calls__export(struct prism_sql *x, struct sql_pt_calls *c, size_t cp, int64_t *id)
{
	int err = export_path(x, c, cp);

	*id = err ? 0 : c->cp[cp].db_id;
	return err;
}

static int push(struct tstack *s, size_t cp, uint64_t ret_addr, const struct sql_pt_branch *b,
		bool no_call, bool trace_end)
{
	struct entry *e;

	if (cp == (size_t)-1 ||
	    prism_ensure_mem((void **)&s->e, &s->alloc, sizeof(*s->e), s->cnt + 1))
		return -ENOMEM;
	e = &s->e[s->cnt++];
	memset(e, 0, sizeof(*e));
	e->ret_addr = ret_addr;
	e->time = b->time;
	e->ref = b->ref;
	e->branch_count = s->branch_count;
	e->cp = cp;
	e->no_call = no_call;
	e->trace_end = trace_end;
	return 0;
}

/* the row of entry @idx (just popped), returned at @time by sample @ref */
static int call_return(struct prism_sql *x, struct sql_pt_calls *c, struct tstack *s, size_t idx,
		       uint64_t time, int64_t ref, bool no_return)
{
	struct entry *e = &s->e[idx];
	const struct cpath *p = &c->cp[e->cp];
	int64_t parent = 0;
	int err = export_path(x, c, e->cp);

	if (err)
		return err;
	if (!e->db_id)
		e->db_id = sql_new_id(x, SQL_T_CALLS);
	/* the caller's id, taken now: its row comes when it returns */
	if (idx) {
		if (!s->e[idx - 1].db_id)
			s->e[idx - 1].db_id = sql_new_id(x, SQL_T_CALLS);
		parent = s->e[idx - 1].db_id;
	}
	{
		struct sql_val v[15] = {
			SQL_I(e->db_id),
			SQL_I(s->thread),
			SQL_I(s->comm),
			SQL_I(p->db_id),
			SQL_I(e->time),
			SQL_I(time),
			SQL_I(s->branch_count - e->branch_count),
			SQL_I(e->ref),
			SQL_I(ref),
			SQL_I(c->cp[p->parent].db_id),
			SQL_I((e->no_call ? CR_NO_CALL : 0) | (no_return ? CR_NO_RETURN : 0) |
			      (e->non_call ? CR_NON_CALL : 0)),
			SQL_I(parent),
			SQL_I(0), /* insn_count */
			SQL_I(0), /* cyc_count */
		};

		return sql_put(x, SQL_T_CALLS, v);
	}
}

static int pop_one(struct prism_sql *x, struct sql_pt_calls *c, struct tstack *s,
		   const struct sql_pt_branch *b, bool no_return)
{
	s->cnt--;
	return call_return(x, c, s, s->cnt, b->time, b->ref, no_return);
}

static bool in_kernel(const struct sql_pt_calls *c, const struct tstack *s)
{
	return s->cnt && c->cp[s->e[s->cnt - 1].cp].in_kernel;
}

static size_t top_cp(const struct tstack *s)
{
	return s->cnt ? s->e[s->cnt - 1].cp : 0;
}

/* a return: pop the entry it returns to; 1 when none matches */
static int pop_return(struct prism_sql *x, struct sql_pt_calls *c, struct tstack *s,
		      const struct sql_pt_branch *b)
{
	size_t i;
	int err;

	if (!s->cnt)
		return 1;
	if (s->cnt == 1 && c->cp[s->e[0].cp].sym == b->from_sym)
		return pop_one(x, c, s, b, false);
	if (s->e[s->cnt - 1].ret_addr == b->addr && !s->e[s->cnt - 1].non_call)
		return pop_one(x, c, s, b, false);
	for (i = s->cnt - 1; i--;) {
		if (s->e[i].ret_addr != b->addr || s->e[i].non_call)
			continue;
		while (s->cnt > i + 1) {
			err = pop_one(x, c, s, b, true);
			if (err)
				return err;
		}
		return pop_one(x, c, s, b, false);
	}
	return 1;
}

/* a return from a call not seen */
static int no_call_return(struct prism_sql *x, struct sql_pt_calls *c, struct tstack *s,
			  const struct sql_pt_branch *b)
{
	size_t parent, cp;
	int err;

	if ((b->ip >= KERNEL_START && b->addr < KERNEL_START) ||
	    (in_kernel(c, s) && b->ip < KERNEL_START)) {
		/* back to user space: the kernel's entries are left */
		while (in_kernel(c, s)) {
			err = pop_one(x, c, s, b, true);
			if (err)
				return err;
		}
		if (b->ip >= KERNEL_START && !s->cnt)
			return push(s, findnew(c, 0, b->to_sym, b->to_name, b->addr), 0, b, true,
				    false);
	}
	parent = top_cp(s);
	if (c->cp[parent].sym == b->from_sym) {
		/* at the bottom: the call was before the trace began */
		if (s->cnt == 1) {
			err = pop_one(x, c, s, b, false);
			if (err)
				return err;
		}
		if (!s->cnt)
			return push(s, findnew(c, 0, b->to_sym, b->to_name, b->addr), b->addr, b,
				    true, false);
		/* a return used as a jump (a retpoline) */
		err = push(s, findnew(c, parent, b->to_sym, b->to_name, b->addr), 0, b, true,
			   false);
		if (!err)
			s->e[s->cnt - 1].non_call = true;
		return err;
	}
	/* the caller has not returned: push the target, push and pop the function */
	cp = findnew(c, parent, b->to_sym, b->to_name, b->addr);
	err = push(s, cp, b->addr, b, true, false);
	if (!err)
		err = push(s, findnew(c, cp, b->from_sym, b->from_name, b->ip), b->ip, b, true,
			   false);
	return err ? err : pop_one(x, c, s, b, false);
}

static bool is_retpoline(const char *name)
{
	return name && (!strncmp(name, "__x86_indirect_thunk_", 21) ||
			!strcmp(name, "__indirect_thunk_start"));
}

/* a return that does not match the stack after a retpoline's call: take the thunk out */
static int retpoline(struct sql_pt_calls *c, struct tstack *s, const struct sql_pt_branch *b)
{
	const struct cpath *top = &c->cp[s->e[s->cnt - 1].cp];
	size_t cp;

	if (top->sym && is_retpoline(top->name)) {
		int64_t sym;

		s->cnt--;
		sym = c->cp[s->e[s->cnt - 2].cp].sym;
		if (sym && sym == b->to_sym && !b->to_at_start) {
			/* back into the middle of the function: an indirect jump */
			s->cnt--;
			return 0;
		}
	} else if (top->sym && top->sym == b->to_sym) {
		s->cnt--;
		return 0;
	}
	cp = findnew(c, s->e[s->cnt - 2].cp, b->to_sym, b->to_name, b->addr);
	if (cp == (size_t)-1)
		return -ENOMEM;
	s->e[s->cnt - 1].cp = cp;
	return 0;
}

static struct tstack *thread_stack(struct sql_pt_calls *c, const struct sql_pt_branch *b)
{
	/* the idle task (pid = tid = 0) has a stack per CPU */
	uint32_t cpu = b->pid || b->tid ? 0 : b->cpu;
	uint64_t k[2] = { (uint64_t)(uint32_t)b->pid << 32 | (uint32_t)b->tid, cpu };
	struct tstack *s;
	int64_t idx;

	if (sql_ids__find(c->index, k, sizeof(k), &idx))
		return &c->st[idx];
	if (prism_ensure_mem((void **)&c->st, &c->alloc_st, sizeof(*c->st), c->nr_st + 1) ||
	    sql_ids__set(c->index, k, sizeof(k), (int64_t)c->nr_st))
		return NULL;
	s = &c->st[c->nr_st++];
	memset(s, 0, sizeof(*s));
	s->pid = b->pid;
	s->tid = b->tid;
	s->cpu = cpu;
	s->thread = b->thread;
	s->comm = b->comm;
	return s;
}

size_t sql_pt_calls__rets(struct sql_pt_calls *c, int32_t pid, int32_t tid, uint32_t cpu,
			  uint64_t *rets, size_t max)
{
	uint64_t k[2] = { (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid, pid || tid ? 0 : cpu };
	const struct tstack *s;
	int64_t idx;
	size_t n;

	if (!sql_ids__find(c->index, k, sizeof(k), &idx))
		return 0;
	s = &c->st[idx];
	for (n = 0; n < s->cnt && n < max; n++)
		rets[n] = s->e[s->cnt - 1 - n].ret_addr;
	return n;
}

int sql_pt_calls__branch(struct prism_sql *x, struct sql_pt_calls *c, const struct sql_pt_branch *b)
{
	struct tstack *s = thread_stack(c, b);
	bool retpoline_seen;
	int err = 0;

	if (!s)
		return -ENOMEM;
	retpoline_seen = s->retpoline;
	s->retpoline = false;
	/* an empty stack starts with the function the branch is in (or goes to) */
	if (!s->cnt && (b->ip || b->addr)) {
		err = b->ip ? push(s, findnew(c, 0, b->from_sym, b->from_name, b->ip), b->ip, b,
				   true, false) :
			      push(s, findnew(c, 0, b->to_sym, b->to_name, b->addr), b->addr, b,
				   true, false);
		if (err)
			return err;
	}
	s->branch_count++;
	s->last_time = b->time;
	if (b->flags & PRISM_PT_FL_CALL) {
		uint64_t ret = b->ip + b->insn_len;

		if (!b->ip || !b->addr || ret == b->addr)
			return 0;
		err = push(s, findnew(c, top_cp(s), b->to_sym, b->to_name, b->addr), ret, b, false,
			   b->flags & PRISM_PT_FL_TRACE_END);
		/* a call into the middle of its own function may be a retpoline's */
		if (!err && !retpoline_seen && b->to_sym && b->from_sym == b->to_sym &&
		    !b->to_at_start)
			s->retpoline = true;
	} else if (b->flags & PRISM_PT_FL_RETURN) {
		if (!b->ip || !b->addr)
			return 0;
		if (retpoline_seen && s->cnt > 2 && s->e[s->cnt - 1].ret_addr != b->addr)
			return retpoline(c, s, b);
		err = pop_return(x, c, s, b);
		if (err > 0)
			err = no_call_return(x, c, s, b);
	} else if (b->flags & PRISM_PT_FL_TRACE_BEGIN) {
		/* the call made as the trace ended has returned */
		if (s->cnt && s->e[s->cnt - 1].trace_end)
			err = pop_one(x, c, s, b, false);
	} else if (b->flags & PRISM_PT_FL_TRACE_END) {
		/* an entry without symbol, not at the bottom */
		if (!s->cnt || (s->cnt == 1 && s->e[0].ref == b->ref))
			return 0;
		err = push(s, findnew(c, top_cp(s), 0, NULL, 0), b->ip + b->insn_len, b, false,
			   true);
	} else if ((b->flags & PRISM_PT_FL_BRANCH) && b->from_sym != b->to_sym && b->to_sym &&
		   b->to_at_start) {
		/* a jump to another function's start: a call made a jump (tail call) */
		err = push(s, findnew(c, top_cp(s), b->to_sym, b->to_name, b->addr), 0, b, false,
			   false);
		if (!err)
			s->e[s->cnt - 1].non_call = true;
	}
	return err;
}

/* perf's order of threads: its table of 256 trees by tid, each in tid order */
static int stack_order(const void *a, const void *b)
{
	const struct tstack *p = a, *q = b;
	uint32_t ta = (uint32_t)p->tid, tb = (uint32_t)q->tid;

	if (ta % 256 != tb % 256)
		return ta % 256 < tb % 256 ? -1 : 1;
	if (p->tid != q->tid)
		return p->tid < q->tid ? -1 : 1;
	return p->cpu < q->cpu ? -1 : p->cpu > q->cpu;
}

int sql_pt_calls__flush(struct prism_sql *x, struct sql_pt_calls *c)
{
	size_t i;
	int err = 0;

	if (c->nr_st)
		qsort(c->st, c->nr_st, sizeof(*c->st), stack_order);
	for (i = 0; i < c->nr_st; i++) {
		struct tstack *s = &c->st[i];

		while (!err && s->cnt) {
			s->cnt--;
			err = call_return(x, c, s, s->cnt, s->last_time, 0, true);
		}
		free(s->e);
	}
	c->nr_st = 0;
	sql_ids__clear(c->index);
	return err;
}
