// SPDX-License-Identifier: MIT
/*
 * prism report's views of a file that are not a profile: --stats (perf's
 * "Aggregated stats"), --tasks (the task tree) and --mmaps (the tree with
 * each task's maps), in perf report's layout and order.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <prism/error.h>
#include <prism/event.h>
#include <prism/session.h>

#include "cmd.h"
#include "input.h"
#include "report.h"

struct rmap {
	uint64_t start, end, pgoff, ino;
	uint32_t prot, flags;
	char *name;
};

struct rproc { /* a process's maps, sorted by start, not overlapping */
	struct rmap *maps;
	size_t nr, alloc;
};

struct rtask {
	int32_t pid, tid, ppid;
	char *comm;
	size_t proc; /* its maps: index + 1 in procs */
	bool comm_set; /* named by a COMM record or its parent's */
	/* the tree (perf's task list): indexes + 1 */
	size_t first_child, last_child, next;
	bool listed;
};

struct rtasks {
	struct rtask *t;
	size_t nr, alloc;
	uint32_t *slots; /* tid -> index + 1, open addressing */
	size_t cap;
	struct rproc *procs;
	size_t nr_procs, alloc_procs;
	bool maps; /* --mmaps */
};

/* room for @need elements of @elem bytes in @*v (cmd's allocators exit on failure) */
static void *grow(void *v, size_t *alloc, size_t elem, size_t need)
{
	if (need <= *alloc)
		return v;
	*alloc = need < 16 ? 16 : need * 2;
	return xrealloc(v, *alloc * elem);
}

static size_t slot_of(uint32_t tid, size_t cap)
{
	return (size_t)(tid * 2654435761u) & (cap - 1);
}

static struct rtask *find_task(struct rtasks *ts, int32_t tid)
{
	size_t s;

	if (!ts->cap)
		return NULL;
	for (s = slot_of((uint32_t)tid, ts->cap); ts->slots[s]; s = (s + 1) & (ts->cap - 1))
		if (ts->t[ts->slots[s] - 1].tid == tid)
			return &ts->t[ts->slots[s] - 1];
	return NULL;
}

/* room in the tid index for one more task */
static void grow_slots(struct rtasks *ts)
{
	size_t i, s, cap;

	if (ts->nr * 2 + 2 <= ts->cap)
		return;
	cap = ts->cap ? ts->cap * 2 : 256;
	free(ts->slots);
	ts->slots = xcalloc(cap, sizeof(*ts->slots));
	ts->cap = cap;
	for (i = 0; i < ts->nr; i++) {
		for (s = slot_of((uint32_t)ts->t[i].tid, cap); ts->slots[s];
		     s = (s + 1) & (cap - 1))
			;
		ts->slots[s] = (uint32_t)i + 1;
	}
}

static size_t findnew(struct rtasks *ts, int32_t pid, int32_t tid);

static size_t new_proc(struct rtasks *ts)
{
	ts->procs = grow(ts->procs, &ts->alloc_procs, sizeof(*ts->procs), ts->nr_procs + 1);
	memset(&ts->procs[ts->nr_procs], 0, sizeof(*ts->procs));
	return ++ts->nr_procs;
}

/*
 * (Re)set task @i as perf creates a thread: named ":TID", no parent; a
 * process leader gets maps of its own, a thread its leader's
 */
static void init_task(struct rtasks *ts, size_t i, int32_t pid, int32_t tid)
{
	char name[24];
	size_t proc;

	if (pid != -1 && pid != tid) {
		size_t leader = findnew(ts, pid, pid);

		proc = ts->t[leader].proc;
	} else {
		proc = new_proc(ts);
	}
	snprintf(name, sizeof(name), ":%d", (int)tid);
	free(ts->t[i].comm);
	memset(&ts->t[i], 0, sizeof(ts->t[i]));
	ts->t[i].pid = pid;
	ts->t[i].tid = tid;
	ts->t[i].ppid = -1;
	ts->t[i].comm = xstrdup(name);
	ts->t[i].proc = proc;
}

/* perf's machine__findnew_thread: the index of thread @tid */
static size_t findnew(struct rtasks *ts, int32_t pid, int32_t tid)
{
	struct rtask *t = find_task(ts, tid);
	size_t s, i;

	if (t) {
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return (size_t)(t - ts->t);
	}
	ts->t = grow(ts->t, &ts->alloc, sizeof(*ts->t), ts->nr + 1);
	grow_slots(ts);
	for (s = slot_of((uint32_t)tid, ts->cap); ts->slots[s]; s = (s + 1) & (ts->cap - 1))
		;
	i = ts->nr++;
	ts->slots[s] = (uint32_t)i + 1;
	memset(&ts->t[i], 0, sizeof(ts->t[i]));
	ts->t[i].tid = tid;
	init_task(ts, i, pid, tid);
	return i;
}

static void set_comm(struct rtask *t, const char *comm)
{
	free(t->comm);
	t->comm = xstrdup(comm);
	t->comm_set = true;
}

/* insert @m (its name owned by @p from now on), trimming what it overlaps, as perf */
static void insert_map(struct rproc *p, struct rmap m)
{
	size_t i = 0;

	p->maps = grow(p->maps, &p->alloc, sizeof(*p->maps), p->nr + 2);
	while (i < p->nr) {
		struct rmap *o = &p->maps[i];

		if (o->end <= m.start || o->start >= m.end) {
			i++;
			continue;
		}
		if (o->start < m.start && o->end > m.end) { /* split: the part after m */
			struct rmap after = *o;

			after.pgoff += m.end - o->start;
			after.start = m.end;
			after.name = xstrdup(o->name);
			o->end = m.start;
			memmove(&p->maps[i + 2], &p->maps[i + 1], (p->nr - i - 1) * sizeof(*o));
			p->maps[i + 1] = after;
			p->nr++;
			i += 2;
		} else if (o->start < m.start) {
			o->end = m.start;
			i++;
		} else if (o->end > m.end) {
			o->pgoff += m.end - o->start;
			o->start = m.end;
			i++;
		} else {
			free(o->name);
			memmove(o, o + 1, (p->nr - i - 1) * sizeof(*o));
			p->nr--;
		}
	}
	for (i = 0; i < p->nr && p->maps[i].start < m.start; i++)
		;
	memmove(&p->maps[i + 1], &p->maps[i], (p->nr - i) * sizeof(*p->maps));
	p->maps[i] = m;
	p->nr++;
}

static void on_mmap(struct rtasks *ts, const struct prism_event *ev)
{
	const struct prism_ev_mmap *mm = &ev->mmap;
	uint8_t cpumode = ev->raw->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct rmap m = { .start = mm->start, .end = mm->start + mm->len, .pgoff = mm->pgoff };
	size_t i;

	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	    mm->pid == (uint32_t)-1)
		return; /* the kernel's maps are no task's */
	i = findnew(ts, (int32_t)mm->pid, (int32_t)mm->tid);
	if (ev->type == PERF_RECORD_MMAP2 && !mm->no_prot) {
		m.prot = mm->prot;
		m.flags = mm->flags;
		m.ino = mm->ino;
		/* perf reads the ino where a build id is: its bytes 4 to 11 */
		if (mm->build_id_size && mm->build_id)
			memcpy(&m.ino, mm->build_id + 4, sizeof(m.ino));
	} else if (!(ev->raw->misc & PERF_RECORD_MISC_MMAP_DATA)) {
		m.prot = PROT_EXEC; /* perf's for an MMAP record of code */
	}
	m.name = xstrdup(mm->filename);
	insert_map(&ts->procs[ts->t[i].proc - 1], m);
}

/*
 * perf's machine__process_fork_event: a thread already there under the
 * child's tid is replaced; a new process gets a copy of its parent's maps
 * (not for a synthesized fork: the process's own maps follow)
 */
static void on_fork(struct rtasks *ts, const struct prism_event *ev)
{
	const struct prism_ev_fork *f = &ev->fork;
	size_t parent = findnew(ts, (int32_t)f->ppid, (int32_t)f->ptid), child, i, from, to;

	if (ts->t[parent].pid != (int32_t)f->ppid) /* perf: an erroneous parent, replaced */
		init_task(ts, parent, (int32_t)f->ppid, (int32_t)f->ptid);
	if (find_task(ts, (int32_t)f->tid)) {
		child = (size_t)(find_task(ts, (int32_t)f->tid) - ts->t);
		init_task(ts, child, (int32_t)f->pid, (int32_t)f->tid);
	} else {
		child = findnew(ts, (int32_t)f->pid, (int32_t)f->tid);
	}
	if (ts->t[parent].comm_set)
		set_comm(&ts->t[child], ts->t[parent].comm);
	ts->t[child].ppid = ts->t[parent].tid;
	from = ts->t[parent].proc;
	to = ts->t[child].proc;
	if (ts->t[child].pid == ts->t[parent].pid || from == to ||
	    ev->raw->misc & PERF_RECORD_MISC_FORK_EXEC)
		return;
	for (i = 0; i < ts->procs[from - 1].nr; i++) {
		struct rmap m = ts->procs[from - 1].maps[i];

		m.name = xstrdup(m.name);
		insert_map(&ts->procs[to - 1], m);
	}
}

int report_tasks_event(struct report_tasks *rt, const struct prism_event *ev)
{
	struct rtasks *ts = (struct rtasks *)rt;
	size_t i;

	switch (ev->type) {
	case PERF_RECORD_COMM:
		i = findnew(ts, (int32_t)ev->comm.pid, (int32_t)ev->comm.tid);
		set_comm(&ts->t[i], ev->comm.comm);
		break;
	case PERF_RECORD_FORK:
		on_fork(ts, ev);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		on_mmap(ts, ev);
		break;
	case PERF_RECORD_SAMPLE:
		if (ev->sample.type & PERF_SAMPLE_TID)
			findnew(ts, (int32_t)ev->sample.pid, (int32_t)ev->sample.tid);
		break;
	default:
		break;
	}
	return 0;
}

struct report_tasks *report_tasks__new(bool maps)
{
	struct rtasks *ts = xcalloc(1, sizeof(*ts));
	size_t idle;

	ts->maps = maps;
	idle = findnew(ts, 0, 0); /* perf's idle thread */
	set_comm(&ts->t[idle], "swapper");
	return (struct report_tasks *)ts;
}

void report_tasks__free(struct report_tasks *rt)
{
	struct rtasks *ts = (struct rtasks *)rt;
	size_t i, j;

	if (!ts)
		return;
	for (i = 0; i < ts->nr; i++)
		free(ts->t[i].comm);
	for (i = 0; i < ts->nr_procs; i++) {
		for (j = 0; j < ts->procs[i].nr; j++)
			free(ts->procs[i].maps[j].name);
		free(ts->procs[i].maps);
	}
	free(ts->procs);
	free(ts->slots);
	free(ts->t);
	free(ts);
}

/* perf's order of its threads: by tid modulo 256 (its hash buckets), then by tid */
static int cmp_bucket(const void *a, const void *b)
{
	const struct rtask *x = *(struct rtask *const *)a, *y = *(struct rtask *const *)b;
	uint32_t bx = (uint32_t)x->tid % 256, by = (uint32_t)y->tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void append(struct rtasks *ts, size_t *first, size_t *last, size_t idx)
{
	if (*last)
		ts->t[*last - 1].next = idx + 1;
	else
		*first = idx + 1;
	*last = idx + 1;
}

static void print_level(struct rtasks *ts, size_t idx, int level)
{
	struct rtask *t = &ts->t[idx];
	size_t c, i;
	int indent;

	indent = printf("  %8d %8d %8d |%*s", (int)t->pid, (int)t->tid, (int)t->ppid, level, "");
	printf("%s\n", t->comm);
	if (ts->maps && t->proc) {
		const struct rproc *p = &ts->procs[t->proc - 1];

		for (i = 0; i < p->nr; i++) {
			const struct rmap *m = &p->maps[i];

			printf("%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64
			       " %s\n",
			       indent, "", m->start, m->end, m->prot & PROT_READ ? 'r' : '-',
			       m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
			       m->flags & MAP_SHARED ? 's' : 'p', m->pgoff, m->ino, m->name);
		}
	}
	for (c = t->first_child; c; c = ts->t[c - 1].next)
		print_level(ts, c - 1, level + 1);
}

int report_tasks__print(struct report_tasks *rt)
{
	struct rtasks *ts = (struct rtasks *)rt;
	struct rtask **order = xcalloc(ts->nr + 1, sizeof(*order));
	size_t i, first = 0, last = 0;

	for (i = 0; i < ts->nr; i++)
		order[i] = &ts->t[i];
	qsort(order, ts->nr, sizeof(*order), cmp_bucket);
	/* perf's tasks_list: each task down to the first listed ancestor, a root to the list */
	for (i = 0; i < ts->nr; i++) {
		struct rtask *t = order[i], *parent;

		while (!t->listed) {
			t->listed = true;
			if (t->ppid == -1) {
				append(ts, &first, &last, (size_t)(t - ts->t));
				break;
			}
			parent = find_task(ts, t->ppid);
			if (!parent) {
				free(order);
				error("--tasks: task %d's parent %d is not in the file",
				      (int)t->tid, (int)t->ppid);
				return -1;
			}
			append(ts, &parent->first_child, &parent->last_child, (size_t)(t - ts->t));
			t = parent;
		}
	}
	free(order);
	printf("# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	for (i = first; i; i = ts->t[i - 1].next)
		print_level(ts, i - 1, 0);
	return 0;
}

static int stats_event(void *ctx, const struct prism_event *ev)
{
	return ctx ? report_tasks_event(ctx, ev) : 0;
}

int report_info(struct report *r)
{
	struct prism_tool tool = { 0 };
	struct report_tasks *rt = NULL;
	int err, ret = 0;

	if (r->tasks_mode || r->mmaps_mode) {
		rt = report_tasks__new(r->mmaps_mode);
		tool.sample = tool.mmap = tool.comm = tool.fork = stats_event;
	}
	err = prism_session__process(r->s, &tool, rt);
	if (report_process_result(r->s, r->input, err))
		ret = 1;
	if (r->stats_mode) {
		printf("\n");
		stats_print_perf(r->s, true);
	} else if (rt && report_tasks__print(rt)) {
		ret = 1;
	}
	report_tasks__free(rt);
	return ret;
}
