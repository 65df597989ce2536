// SPDX-License-Identifier: MIT
/*
 * Task model: an open-addressing hash of threads keyed by tid.
 */
#include <prism/task.h>

#include "internal.h"

/* the kernel's TASK_COMM_LEN - 1; longer names (kworkers' /proc comm) go to the heap */
#define COMM_LEN 16

struct task {
	uint32_t tid;
	int64_t pid;
	bool used, exited;
	unsigned int nr_execs;
	char comm[COMM_LEN + 1];
	char *long_comm; /* a name longer than COMM_LEN, as recorded (perf prints it whole) */
};

struct prism_tasks {
	struct task *slots;
	size_t cap, nr;
};

struct prism_tasks *prism_tasks__new(void)
{
	return calloc(1, sizeof(struct prism_tasks));
}

void prism_tasks__free(struct prism_tasks *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->cap; i++)
		free(t->slots[i].long_comm);
	free(t->slots);
	free(t);
}

static __wraps size_t slot_of(uint32_t tid, size_t cap)
{
	return (size_t)(tid * 2654435761u) & (cap - 1);
}

static struct task *lookup(const struct prism_tasks *t, uint32_t tid)
{
	size_t s;

	if (!t->cap)
		return NULL;
	for (s = slot_of(tid, t->cap); t->slots[s].used; s = (s + 1) & (t->cap - 1))
		if (t->slots[s].tid == tid)
			return &t->slots[s];
	return NULL;
}

static int grow(struct prism_tasks *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256, i;
	struct task *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++) {
		size_t s;

		if (!t->slots[i].used)
			continue;
		for (s = slot_of(t->slots[i].tid, cap); slots[s].used; s = (s + 1) & (cap - 1))
			;
		slots[s] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

static struct task *get(struct prism_tasks *t, uint32_t tid)
{
	struct task *k = lookup(t, tid);
	size_t s;

	if (k)
		return k;
	if ((t->nr + 1) * 2 > t->cap && grow(t))
		return NULL;
	for (s = slot_of(tid, t->cap); t->slots[s].used; s = (s + 1) & (t->cap - 1))
		;
	k = &t->slots[s];
	k->used = true;
	k->tid = tid;
	k->pid = -1;
	t->nr++;
	return k;
}

/* a name of any length; one that cannot be copied is kept cut to COMM_LEN */
static void set_comm(struct task *k, const char *comm)
{
	size_t n = strnlen(comm, COMM_LEN + 1);

	zfree(&k->long_comm);
	if (n > COMM_LEN) {
		k->long_comm = strdup(comm);
		n = COMM_LEN;
	}
	memcpy(k->comm, comm, n);
	k->comm[n] = '\0';
}

int prism_tasks__event(struct prism_tasks *t, const struct prism_event *ev)
{
	struct task *k, *parent;

	switch (ev->type) {
	case PERF_RECORD_COMM:
		k = get(t, ev->comm.tid);
		if (!k)
			return -ENOMEM;
		k->pid = ev->comm.pid;
		if (ev->comm.exec)
			k->nr_execs++;
		set_comm(k, ev->comm.comm);
		return 0;
	case PERF_RECORD_FORK:
		parent = lookup(t, ev->fork.ptid);
		k = get(t, ev->fork.tid);
		if (!k)
			return -ENOMEM;
		/* get() may have moved the table: look the parent up again */
		parent = parent ? lookup(t, ev->fork.ptid) : NULL;
		k->pid = ev->fork.pid;
		k->exited = false;
		if (parent && parent != k)
			set_comm(k, parent->long_comm ? parent->long_comm : parent->comm);
		else if (!parent && !ev->fork.ptid && ev->fork.tid && !k->comm[0])
			set_comm(k, "swapper"); /* a child of the idle task, as perf names it */
		return 0;
	case PERF_RECORD_EXIT:
		k = lookup(t, ev->fork.tid);
		if (k)
			k->exited = true;
		return 0;
	default:
		return 0;
	}
}

const char *prism_tasks__comm(const struct prism_tasks *t, uint32_t tid)
{
	const struct task *k = lookup(t, tid);

	if (k && k->long_comm)
		return k->long_comm;
	if (k && k->comm[0])
		return k->comm;
	/* the idle task never gets a COMM record; perf names it like this */
	return tid == 0 ? "swapper" : NULL;
}

int64_t prism_tasks__pid(const struct prism_tasks *t, uint32_t tid)
{
	const struct task *k = lookup(t, tid);

	return k ? k->pid : -1;
}

bool prism_tasks__exited(const struct prism_tasks *t, uint32_t tid)
{
	const struct task *k = lookup(t, tid);

	return k && k->exited;
}

unsigned int prism_tasks__nr_execs(const struct prism_tasks *t, uint32_t tid)
{
	const struct task *k = lookup(t, tid);

	return k ? k->nr_execs : 0;
}
