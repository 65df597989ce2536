// SPDX-License-Identifier: MIT
/*
 * perf's machine thread model, as perf sched sees it: a thread first met
 * without a COMM record is named ":TID"; its pid is filled in only while
 * unknown (-1); a FORK replaces the thread of that tid; an EXIT marks it
 * dead.  perf lists threads bucket by bucket (tid % 256), by tid within a
 * bucket, then the bucket's replaced threads still referenced.
 */
#include <stdio.h>

#include "sched/sched-internal.h"

#define NR_BUCKETS 256

static size_t hslot(int32_t tid, size_t cap)
{
	return ((uint32_t)tid * 2654435761u) & (cap - 1);
}

static struct sched_thread *alloc_thread(struct threads *t, int32_t pid, int32_t tid)
{
	struct sched_thread *th;
	char name[16];

	if (prism_ensure_mem((void **)&t->all, &t->cap_all, sizeof(*t->all), t->nr_all + 1))
		return NULL;
	th = calloc(1, sizeof(*th));
	if (!th)
		return NULL;
	th->pid = pid;
	th->tid = tid;
	th->ppid = -1;
	th->color = -1;
	th->rt.stats.min = UINT64_MAX;
	snprintf(name, sizeof(name), ":%d", tid);
	th->comm = strdup(name);
	if (!th->comm) {
		free(th);
		return NULL;
	}
	t->all[t->nr_all++] = th;
	return th;
}

int threads__init(struct threads *t)
{
	struct sched_thread *sw;

	memset(t, 0, sizeof(*t));
	t->cap = 1024;
	t->hash = calloc(t->cap, sizeof(*t->hash));
	if (!t->hash)
		return -ENOMEM;
	/* perf registers the idle task as "swapper" before reading */
	sw = threads__findnew(t, 0, 0);
	if (!sw || threads__set_comm(sw, "swapper", 7))
		return -ENOMEM;
	return 0;
}

void threads__release(struct threads *t)
{
	size_t i;

	for (i = 0; i < t->nr_all; i++) {
		free(t->all[i]->comm);
		free(t->all[i]->atoms);
		free(t->all[i]);
	}
	free(t->all);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

static struct sched_thread *lookup(struct threads *t, int32_t tid)
{
	struct sched_thread *th;

	for (th = t->hash[hslot(tid, t->cap)]; th; th = th->hnext)
		if (th->tid == tid)
			return th;
	return NULL;
}

static int grow(struct threads *t)
{
	size_t cap = t->cap * 2, i;
	struct sched_thread **h = calloc(cap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++) {
		struct sched_thread *th = t->hash[i], *next;

		for (; th; th = next) {
			size_t s = hslot(th->tid, cap);

			next = th->hnext;
			th->hnext = h[s];
			h[s] = th;
		}
	}
	free(t->hash);
	t->hash = h;
	t->cap = cap;
	return 0;
}

static void remove_thread(struct threads *t, struct sched_thread *th)
{
	struct sched_thread **pp = &t->hash[hslot(th->tid, t->cap)];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == th) {
			*pp = th->hnext;
			break;
		}
	}
	th->hnext = NULL;
	th->removed = true;
	th->removed_seq = ++t->removed_seq;
	t->nr--;
}

struct sched_thread *threads__find(struct threads *t, int32_t pid, int32_t tid)
{
	struct sched_thread *th = lookup(t, tid);

	/* perf fills in a pid only while it is unknown */
	if (th && pid != -1 && th->pid == -1)
		th->pid = pid;
	return th;
}

struct sched_thread *threads__findnew(struct threads *t, int32_t pid, int32_t tid)
{
	struct sched_thread *th = threads__find(t, pid, tid);
	size_t s;

	if (th)
		return th;
	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	th = alloc_thread(t, pid, tid);
	if (!th)
		return NULL;
	s = hslot(tid, t->cap);
	th->hnext = t->hash[s];
	t->hash[s] = th;
	t->nr++;
	return th;
}

struct sched_thread *threads__new_detached(struct threads *t, int32_t pid, int32_t tid,
					   const char *comm)
{
	struct sched_thread *th = alloc_thread(t, pid, tid);

	if (!th)
		return NULL;
	th->removed = true; /* in no table: never listed */
	th->removed_seq = UINT64_MAX;
	if (threads__set_comm(th, comm, strlen(comm)))
		return NULL;
	return th;
}

int threads__set_comm(struct sched_thread *th, const char *comm, size_t len)
{
	char *c = strndup(comm, len);

	if (!c)
		return -ENOMEM;
	free(th->comm);
	th->comm = c;
	th->comm_set = true;
	return 0;
}

static int fork_event(struct threads *t, const struct prism_ev_fork *f)
{
	struct sched_thread *child = threads__find(t, f->pid, f->tid);
	struct sched_thread *parent = threads__findnew(t, f->ppid, f->ptid);

	if (!parent)
		return -ENOMEM;
	/* a parent of another process: perf assumes a lost EXIT and starts anew */
	if (parent->pid != (int32_t)f->ppid) {
		remove_thread(t, parent);
		parent = threads__findnew(t, f->ppid, f->ptid);
		if (!parent)
			return -ENOMEM;
	}
	if (child)
		remove_thread(t, child);
	child = threads__findnew(t, f->pid, f->tid);
	if (!child)
		return -ENOMEM;
	child->ppid = parent->tid;
	if (parent->comm_set && threads__set_comm(child, parent->comm, strlen(parent->comm)))
		return -ENOMEM;
	return 0;
}

int threads__event(struct threads *t, const struct prism_event *ev)
{
	struct sched_thread *th;

	switch (ev->type) {
	case PERF_RECORD_COMM:
		th = threads__findnew(t, ev->comm.pid, ev->comm.tid);
		if (!th)
			return -ENOMEM;
		return threads__set_comm(th, ev->comm.comm, strlen(ev->comm.comm));
	case PERF_RECORD_FORK:
		return fork_event(t, &ev->fork);
	case PERF_RECORD_EXIT:
		th = threads__find(t, ev->fork.pid, ev->fork.tid);
		if (th)
			th->dead = true;
		return 0;
	default:
		return 0;
	}
}

static int cmp_order(const void *a, const void *b)
{
	const struct sched_thread *x = *(struct sched_thread *const *)a;
	const struct sched_thread *y = *(struct sched_thread *const *)b;
	uint32_t bx = (uint32_t)x->tid % NR_BUCKETS, by = (uint32_t)y->tid % NR_BUCKETS;

	if (bx != by)
		return bx < by ? -1 : 1;
	if (x->removed != y->removed)
		return x->removed ? 1 : -1;
	if (x->removed)
		return x->removed_seq < y->removed_seq ? -1 : x->removed_seq > y->removed_seq;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int threads__sorted(struct threads *t, struct sched_thread ***out, size_t *nr)
{
	struct sched_thread **v = calloc(t->nr_all ? t->nr_all : 1, sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < t->nr_all; i++) {
		struct sched_thread *th = t->all[i];

		/* a replaced thread nobody held was freed by perf */
		if (th->removed && (th->removed_seq == UINT64_MAX || !th->has_rt))
			continue;
		v[n++] = th;
	}
	qsort(v, n, sizeof(*v), cmp_order);
	*out = v;
	*nr = n;
	return 0;
}

void sched_task_of(const struct sched_thread *th, struct prism_sched_task *out)
{
	out->comm = th->comm;
	out->pid = th->pid;
	out->tid = th->tid;
	out->ppid = th->ppid;
}
