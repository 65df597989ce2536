// SPDX-License-Identifier: MIT
/*
 * perf sched latency: per task, the run time sched_stat_runtime reports,
 * and per switch-in the delay since the task became runnable (its wakeup,
 * or its preemption).  A task switched out in a state other than running
 * waits for a sched_wakeup/sched_wakeup_new (perf 6.1 reads no
 * sched_waking here); a switch-in with no such start counts nothing.
 */
#include <stdio.h>

#include <prism/session.h>

#include "sched/sched-internal.h"

/* perf's TASK_STATE_TO_CHAR_STR indexed by prev_state */
static char out_state(int64_t prev_state)
{
	static const char str[] = "RSDTtZXxKWP";

	/* perf reads past its string for larger states: never 'R' */
	return prev_state >= 0 && prev_state < (int64_t)sizeof(str) ? str[prev_state] : '?';
}

static struct work_atoms *atoms_of(struct prism_sched *s, struct sched_thread *th, bool *created)
{
	struct work_atoms *a;

	*created = false;
	if (th->atoms)
		return th->atoms;
	if (prism_ensure_mem((void **)&s->atoms, &s->cap_atoms, sizeof(*s->atoms), s->nr_atoms + 1))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->thread = th;
	a->seq = s->nr_atoms;
	th->atoms = a;
	s->atoms[s->nr_atoms++] = a;
	*created = true;
	return a;
}

static void add_out(struct work_atoms *a, char run_state, uint64_t ts)
{
	memset(&a->last, 0, sizeof(a->last));
	a->has_atom = true;
	a->last.sched_out_time = ts;
	if (run_state == 'R') {
		a->last.state = ATOM_WAIT_CPU;
		a->last.wake_up_time = ts;
	}
}

static void add_in(struct work_atoms *a, uint64_t ts)
{
	struct work_atom *atom = &a->last;
	uint64_t delta;

	if (!a->has_atom || atom->state != ATOM_WAIT_CPU)
		return;
	if (ts < atom->wake_up_time) {
		atom->state = ATOM_IGNORE;
		return;
	}
	atom->state = ATOM_SCHED_IN;
	atom->sched_in_time = ts;
	delta = ts - atom->wake_up_time;
	a->total_lat += delta;
	if (delta > a->max_lat) {
		a->max_lat = delta;
		a->max_lat_start = atom->wake_up_time;
		a->max_lat_end = ts;
	}
	a->nb_atoms++;
}

int latency__switch(struct prism_sched *s, const struct sched_ev *e)
{
	struct sched_thread *out, *in;
	struct work_atoms *a;
	bool created;

	s->cpu_last_switched[e->cpu] = e->time;
	out = threads__findnew(&s->threads, -1, (int32_t)e->prev_pid);
	in = threads__findnew(&s->threads, -1, (int32_t)e->next_pid);
	if (!out || !in)
		return -ENOMEM;
	a = atoms_of(s, out, &created);
	if (!a)
		return -ENOMEM;
	add_out(a, out_state(e->prev_state), e->time);
	a = atoms_of(s, in, &created);
	if (!a)
		return -ENOMEM;
	/* a task first seen coming in starts runnable */
	if (created)
		add_out(a, 'R', e->time);
	add_in(a, e->time);
	return 0;
}

/* the atoms of the event's 'pid' task; a task first met starts in @state */
static struct work_atoms *atoms_of_pid(struct prism_sched *s, const struct sched_ev *e, char state)
{
	struct sched_thread *th = threads__findnew(&s->threads, -1, (int32_t)e->tpid);
	struct work_atoms *a;
	bool created;

	if (!th)
		return NULL;
	a = atoms_of(s, th, &created);
	if (a && created)
		add_out(a, state, e->time);
	return a;
}

int latency__runtime(struct prism_sched *s, const struct sched_ev *e)
{
	struct work_atoms *a = atoms_of_pid(s, e, 'R');

	if (!a)
		return -ENOMEM;
	a->last.runtime += e->runtime;
	a->total_runtime += e->runtime;
	return 0;
}

int latency__wakeup(struct prism_sched *s, const struct sched_ev *e)
{
	struct work_atoms *a = atoms_of_pid(s, e, 'S');

	if (!a)
		return -ENOMEM;
	/*
	 * A wakeup of a task still on a run queue only sets its state; unless
	 * one CPU is profiled (-C), where other CPUs' events are missing.
	 */
	if (s->o.profile_cpu == -1 && a->last.state != ATOM_SLEEPING)
		return 0;
	s->nr_timestamps++;
	if (a->last.sched_out_time > e->time) {
		s->nr_unordered++;
		return 0;
	}
	a->last.state = ATOM_WAIT_CPU;
	a->last.wake_up_time = e->time;
	return 0;
}

int latency__migrate(struct prism_sched *s, const struct sched_ev *e)
{
	struct work_atoms *a;

	/* only needed when profiling one CPU */
	if (s->o.profile_cpu == -1)
		return 0;
	a = atoms_of_pid(s, e, 'R');
	if (!a)
		return -ENOMEM;
	a->last.sched_in_time = a->last.sched_out_time = a->last.wake_up_time = e->time;
	s->nr_timestamps++;
	return 0;
}

void latency__free(struct prism_sched *s)
{
	zfree(&s->atoms);
	s->nr_atoms = s->cap_atoms = 0;
}

enum key { KEY_PID, KEY_AVG, KEY_MAX, KEY_SWITCH, KEY_RUNTIME };

static const char *const key_names[] = { "pid", "avg", "max", "switch", "runtime" };

struct keys {
	int n;
	enum key v[16];
};

static int cmp3(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int key_cmp(enum key k, const struct work_atoms *l, const struct work_atoms *r)
{
	switch (k) {
	case KEY_PID:
		return l->thread->tid < r->thread->tid ? -1 : l->thread->tid > r->thread->tid;
	case KEY_AVG:
		return cmp3(l->total_lat / l->nb_atoms, r->total_lat / r->nb_atoms);
	case KEY_MAX:
		return cmp3(l->max_lat, r->max_lat);
	case KEY_SWITCH:
		return cmp3(l->nb_atoms, r->nb_atoms);
	case KEY_RUNTIME:
		return cmp3(l->total_runtime, r->total_runtime);
	}
	return 0;
}

/* perf's tree puts the greater first and equal ones in insertion order */
static int sort_cmp(const void *a, const void *b, void *arg)
{
	const struct work_atoms *l = *(struct work_atoms *const *)a;
	const struct work_atoms *r = *(struct work_atoms *const *)b;
	const struct keys *k = arg;
	int i, c;

	for (i = 0; i < k->n; i++) {
		c = key_cmp(k->v[i], l, r);
		if (c)
			return -c;
	}
	return l->seq < r->seq ? -1 : l->seq > r->seq;
}

/* insertion order into perf's tree: tid, then (merged) comm, both descending */
static int tid_desc(const void *a, const void *b)
{
	const struct work_atoms *l = *(struct work_atoms *const *)a;
	const struct work_atoms *r = *(struct work_atoms *const *)b;

	if (l->thread->tid != r->thread->tid)
		return l->thread->tid > r->thread->tid ? -1 : 1;
	return l->seq < r->seq ? -1 : l->seq > r->seq;
}

static int comm_desc(const void *a, const void *b)
{
	const struct work_atoms *l = *(struct work_atoms *const *)a;
	const struct work_atoms *r = *(struct work_atoms *const *)b;
	int c = strcmp(l->thread->comm, r->thread->comm);

	if (c)
		return -c;
	return l->seq < r->seq ? -1 : l->seq > r->seq;
}

static int parse_keys(const char *keys, struct keys *k, const char **bad_key)
{
	static __thread char bad[64];
	const char *p = keys;

	k->n = 0;
	while (*p) {
		size_t n, i;

		p += strspn(p, ", ");
		n = strcspn(p, ", ");
		if (!n)
			break;
		for (i = 0; i < PRISM_ARRAY_SIZE(key_names); i++)
			if (strlen(key_names[i]) == n && !strncmp(p, key_names[i], n))
				break;
		if (i == PRISM_ARRAY_SIZE(key_names)) {
			snprintf(bad, sizeof(bad), "%.*s", (int)(n < 63 ? n : 63), p);
			*bad_key = bad;
			return -EINVAL;
		}
		if (k->n < (int)PRISM_ARRAY_SIZE(k->v))
			k->v[k->n++] = (enum key)i;
		p += n;
	}
	return 0;
}

int prism_sched__check_sort(const char *keys, const char **bad_key)
{
	struct keys k;

	return parse_keys(keys, &k, bad_key);
}

int prism_sched__latency(struct prism_sched *s, const char *keys, bool per_pid,
			 int (*row)(void *ctx, const struct prism_sched_lat_row *r), void *ctx,
			 const char **bad_key)
{
	struct work_atoms **v;
	size_t i, n = 0, seq = 0;
	struct keys k;
	int err = parse_keys(keys ? keys : "avg, max, switch, runtime", &k, bad_key);

	if (err)
		return err;
	v = calloc(s->nr_atoms ? s->nr_atoms : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (s->nr_atoms)
		memcpy(v, s->atoms, s->nr_atoms * sizeof(*v));
	qsort(v, s->nr_atoms, sizeof(*v), tid_desc);
	for (i = 0; i < s->nr_atoms; i++)
		v[i]->seq = i;
	if (!per_pid) {
		/* merge by comm: the first of a name (highest tid) takes the others in */
		qsort(v, s->nr_atoms, sizeof(*v), comm_desc);
		for (i = 0; i < s->nr_atoms; i++) {
			struct work_atoms *d = v[i], *t = n ? v[n - 1] : NULL;

			if (t && !strcmp(t->thread->comm, d->thread->comm)) {
				t->num_merged++;
				t->total_runtime += d->total_runtime;
				t->nb_atoms += d->nb_atoms;
				t->total_lat += d->total_lat;
				if (t->max_lat < d->max_lat) {
					t->max_lat = d->max_lat;
					t->max_lat_start = d->max_lat_start;
					t->max_lat_end = d->max_lat_end;
				}
				continue;
			}
			d->num_merged = 1;
			v[n++] = d;
		}
	} else {
		n = s->nr_atoms;
	}
	/* tasks that never waited are not printed; the sort keys need atoms */
	for (i = 0, seq = 0; i < n; i++)
		if (v[i]->nb_atoms)
			v[seq++] = v[i];
	n = seq;
	for (i = 0; i < n; i++)
		v[i]->seq = i;
	qsort_r(v, n, sizeof(*v), sort_cmp, &k);
	for (i = 0; i < n && !err; i++) {
		struct prism_sched_lat_row r;

		if (!strcmp(v[i]->thread->comm, "swapper"))
			continue;
		r.comm = v[i]->thread->comm;
		r.tid = v[i]->thread->tid;
		r.nr_merged = v[i]->num_merged;
		r.runtime = v[i]->total_runtime;
		r.switches = v[i]->nb_atoms;
		r.avg = v[i]->total_lat / v[i]->nb_atoms;
		r.max = v[i]->max_lat;
		r.max_start = v[i]->max_lat_start;
		r.max_end = v[i]->max_lat_end;
		err = row(ctx, &r);
	}
	free(v);
	return err;
}

void prism_sched__lat_stats(const struct prism_sched *s, struct prism_sched_lat_stats *st)
{
	const struct prism_session_stats *ss = s->session ? prism_session__stats(s->session) : NULL;

	memset(st, 0, sizeof(*st));
	st->nr_unordered = s->nr_unordered;
	st->nr_timestamps = s->nr_timestamps;
	st->nr_cs_bugs = s->nr_cs_bugs;
	if (ss) {
		st->nr_events = ss->nr_records_total;
		st->nr_lost = ss->total_lost;
		st->nr_lost_chunks = ss->nr_records[PERF_RECORD_LOST];
	}
}
