// SPDX-License-Identifier: MIT
/*
 * The utilization state machine: who runs on each CPU, in which mode, and
 * which call each task is in.  Events arrive in time order; each one first
 * establishes that the task whose context emitted it is running on its CPU
 * (switches that the trace lacks are inferred and counted), then acts.
 */
#include <stdio.h>

#include "util/state-fast.h"

static struct cpu *get_cpu(struct prism_util *u, uint32_t cpu)
{
	if (cpu >= UTIL_MAX_CPU)
		return NULL;
	if (cpu >= u->nr_cpus) {
		size_t n = u->nr_cpus ? u->nr_cpus : 4;
		struct cpu *nc;

		while (n <= cpu)
			n *= 2;
		nc = prism_reallocarray(u->cpus, n, sizeof(*nc));
		if (!nc)
			return NULL;
		memset(nc + u->nr_cpus, 0, (n - u->nr_cpus) * sizeof(*nc));
		u->cpus = nc;
		u->nr_cpus = n;
	}
	if (!u->cpus[cpu].seen) {
		u->cpus[cpu].seen = true;
		u->cpus[cpu].last = u->start;
		u->cpus[cpu].last_ev = u->start;
	}
	return &u->cpus[cpu];
}

static struct task *find_task(struct prism_util *u, uint32_t tid)
{
	int64_t i = umap_get(&u->tidmap, tid);

	return i < 0 ? NULL : u->tasks[i];
}

struct task *util_find_task(struct prism_util *u, uint32_t tid)
{
	return find_task(u, tid);
}

static void set_comm(struct task *t, const char *comm, size_t len)
{
	size_t n = 0;

	if (!comm)
		return;
	while (n < len && n < sizeof(t->comm) - 1 && comm[n])
		n++;
	if (!n)
		return;
	memcpy(t->comm, comm, n);
	t->comm[n] = '\0';
}

/* a new task (or task image) for @tid, current from now on */
static struct task *new_task(struct prism_util *u, uint32_t tid, uint64_t start)
{
	struct task *t;

	if (u->nr_tasks >= UINT32_MAX - 1 ||
	    prism_ensure_mem((void **)&u->tasks, &u->cap_tasks, sizeof(*u->tasks), u->nr_tasks + 1))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (umap_put(&u->tidmap, tid, (uint32_t)u->nr_tasks)) {
		free(t);
		return NULL;
	}
	t->tid = tid;
	t->pid = tid;
	t->image = -1;
	t->start = start;
	t->off_since = start;
	t->cpu = NO_CPU;
	t->sc_idx = -1;
	t->hc_idx = -1;
	u->tasks[u->nr_tasks++] = t;
	return t;
}

struct task_cpu *util_task_row_slow(struct task *t, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < t->nr_cpus; i++)
		if (t->cpus[i].cpu == cpu)
			goto found;
	if (prism_ensure_mem((void **)&t->cpus, &t->cap_cpus, sizeof(*t->cpus), t->nr_cpus + 1))
		return NULL;
	memset(&t->cpus[t->nr_cpus], 0, sizeof(t->cpus[0]));
	t->cpus[t->nr_cpus].cpu = cpu;
	i = t->nr_cpus++;
found:
	t->last_row = (uint32_t)i;
	return &t->cpus[i];
}

/* the current image of @tid; a task first seen now existed since the trace start */
static struct task *get_task(struct prism_util *u, uint32_t tid)
{
	struct task *t = find_task(u, tid);

	if (t && !t->dead)
		return t;
	if (t) {
		/* a dead task doing things: a reused tid, or a lost exit */
		u->an.events_after_death++;
		return new_task(u, tid, u->end);
	}
	return new_task(u, tid, u->start);
}

/*
 * A task an event names (woken, migrated).  With switch records only the
 * recorded tasks are known: another is left out (NULL), not invented.
 */
static struct task *other_task(struct prism_util *u, uint32_t tid)
{
	struct task *t;

	if (!u->sw_records)
		return get_task(u, tid);
	t = find_task(u, tid);
	return t && !t->dead ? t : NULL;
}

static void charge(struct prism_util *u, struct cpu *c, uint32_t cpu, uint64_t now)
{
	charge_inline(u, c, cpu, now);
}

static void close_call_pending(struct task *t, uint64_t now)
{
	if (t->in_sc && t->sc_idx >= 0) {
		struct prism_util_call *p = &t->calls.v[t->sc_idx].pub;

		p->pending += span(t->sc_start, now);
		p->nr_pending_end++;
	}
	t->in_sc = false;
	if (t->in_hc && t->hc_idx >= 0) {
		struct prism_util_call *p = &t->calls.v[t->hc_idx].pub;

		p->pending += span(t->hc_start, now);
		p->nr_pending_end++;
	}
	t->in_hc = false;
}

static void die(struct task *t, uint64_t now)
{
	close_call_pending(t, now);
	t->running = false;
	t->dead = true;
	t->end = now;
}

/* account the time @t spent off CPU up to @now */
static __wraps void accrue_off(struct task *t, uint64_t now, uint32_t cpu_hint)
{
	uint64_t dt, pre, post;
	struct task_cpu *row;
	uint32_t cpu = t->cpu != NO_CPU ? t->cpu : cpu_hint;

	if (now <= t->off_since)
		return;
	dt = now - t->off_since;
	row = cpu != NO_CPU ? task_row(t, cpu) : NULL;
	if (!row) {
		t->idle_nocpu += dt;
		t->off_since = now;
		return;
	}
	row->t[B_IDLE] += dt;
	if (t->wake && t->wake >= t->off_since && t->wake <= now) {
		pre = t->wake - t->off_since;
		post = now - t->wake;
		if (t->off == OFF_WAIT)
			row->t[B_WAIT] += dt;
		else {
			row->t[B_SLEEP] += pre;
			row->t[B_WAIT] += post;
		}
	} else if (t->off == OFF_WAIT)
		row->t[B_WAIT] += dt;
	else if (t->off == OFF_SLEEP)
		row->t[B_SLEEP] += dt;
	t->off_since = now;
}

static void switch_out(struct cpu *c, struct task *t, uint64_t now, enum off_state off, bool dead)
{
	if (!t)
		return;
	t->running = false;
	t->seen_off = true;
	t->off = off;
	t->off_since = now;
	t->wake = 0;
	if (c->cur == t)
		c->cur = NULL;
	if (dead || t->exiting)
		die(t, now);
}

static void switch_in(struct cpu *c, uint32_t cpu, struct task *t, uint64_t now)
{
	c->known = true;
	c->cur = t;
	if (!t)
		return;
	if (!t->running) {
		/* the wait before running: wakeup latency when it was woken */
		if (t->wake && t->wake <= now) {
			uint64_t lat = now - t->wake;

			t->wakeups++;
			t->wakeup_total += lat;
			if (lat > t->wakeup_max)
				t->wakeup_max = lat;
		}
		t->off_cpu = t->cpu != NO_CPU ? t->cpu : cpu;
		accrue_off(t, now, cpu);
	}
	t->start_open = false;
	if (t->cpu != NO_CPU && t->cpu != cpu && !t->migrated)
		t->moves++; /* implicit migration: seen on a new CPU */
	t->migrated = false;
	t->cpu = cpu;
	t->running = true;
	t->run_since = now;
	t->rt_mark = now;
	t->rt_irq = sat_add(c->t[B_IRQ], c->t[B_SOFTIRQ]);
	t->rt_counted = false;
	t->wake = 0;
	t->switch_ins++;
}

/*
 * @t runs on another CPU but shows up on @cpu at @now: its switch-out
 * there is missing.  It left that CPU after its last event there (no other
 * context showed up since), which is when it is taken to have left: that
 * CPU's state is unknown from then on.
 */
static __wraps void steal(struct prism_util *u, struct task *t, uint32_t cpu, uint64_t now)
{
	struct cpu *oc;
	uint64_t left;

	if (!t || !t->running || t->cpu == cpu || t->cpu >= u->nr_cpus)
		return;
	oc = &u->cpus[t->cpu];
	left = oc->last_ev > oc->last ? oc->last_ev : oc->last;
	if (left > now)
		left = now;
	charge(u, oc, t->cpu, left);
	switch_out(oc, t, left, OFF_UNKNOWN, false);
	oc->known = false;
	t->inferred += now - left;
	u->an.inferred_switch_ins++;
	u->an.inferred_ns += now - left;
}

/*
 * The earliest time @t can have been switched in on @c, unseen: not before
 * @from, its last switch-out, its last wakeup (@by_wake), nor the CPU's
 * last event (made in another context); never after @now.
 *
 * Note: a wakeup bounds a start that nothing else places.  A start that
 * the task's first runtime event places (the kernel's own count) is not
 * bounded by it: on this VM kind the wakeup of a task by a timer of the
 * idle CPU goes unrecorded like the switch-in that follows it, and a later
 * sched_waking of the running task (set to sleep, woken before it got to
 * schedule()) would cut off what it ran before.
 */
static uint64_t infer_from(const struct cpu *c, const struct task *t, uint64_t from, uint64_t now,
			   bool by_wake)
{
	if (t && !t->running) {
		if (t->off_since > from)
			from = t->off_since;
		if (by_wake && t->wake > from)
			from = t->wake;
	}
	if (c->last_ev > from)
		from = c->last_ev;
	return from < now ? from : now;
}

/* run time of @t from @since to @now placed by inference */
static __wraps void count_inferred(struct prism_util *u, struct task *t, uint64_t since,
				   uint64_t now)
{
	uint64_t dt = span(since, now);

	if (!t)
		return;
	t->inferred += dt;
	if (t->seen_off) {
		/* seen switched out: it ran again, from a switch-in the trace lacks */
		u->an.inferred_switch_ins++;
		u->an.inferred_ns += dt;
	} else if (dt || t->start_open) {
		u->an.assumed_running++;
		u->an.assumed_ns += dt;
	}
}

/* open @t's start to its first runtime event (run_from()), back to @lo */
static void open_start(struct prism_util *u, struct cpu *c, struct task *t, struct task *pre,
		       uint8_t pre_bucket, uint64_t lo, bool inferred)
{
	if (!t || !u->runtime)
		return;
	t->start_open = true;
	t->start_inferred = inferred;
	t->start_lo = lo;
	c->pre = pre;
	c->pre_bucket = pre_bucket;
}

/*
 * Switch @t in on @c by inference: at @since, the earliest it can have
 * started; or, when runtime events come, at @now, and its first runtime
 * event moves the start back as far as the kernel says (no further than
 * @since, while the CPU was idle).
 */
static struct task *switch_in_inferred(struct prism_util *u, struct cpu *c, uint32_t cpu,
				       struct task *t, uint64_t from, uint64_t now)
{
	bool wait = u->runtime && t && !c->cur && !c->nr_ictx;
	uint64_t since = infer_from(c, t, from, now, !wait);

	charge(u, c, cpu, wait ? now : since);
	switch_in(c, cpu, t, wait ? now : since);
	if (t)
		t->rt_mark = 0; /* placed by inference: not a start the kernel counts from */
	if (wait)
		open_start(u, c, t, NULL, B_IDLE, since, true);
	count_inferred(u, t, wait ? now : since, now);
	return t;
}

/*
 * Make sure @tid (0: the idle task) is what runs on @c at @now.  Every
 * event is emitted in the context of the task running on its CPU, so a
 * different occupant means switches the trace does not have: close the
 * previous occupant's interval, start the new one, count the inference.
 *
 * Note: this VM kind often drops the switch-ins from the idle task; the
 * task's wakeup and the idle CPU's own events (interrupts) are there, and
 * bound when it can have started (infer_from()).
 */
static __wraps struct task *occupy(struct prism_util *u, struct cpu *c, uint32_t cpu, uint32_t tid,
				   uint64_t now)
{
	struct task *t = NULL;

	if (tid) {
		if (c->known && c->cur && c->cur->tid == tid && !c->cur->dead)
			return c->cur;
		t = get_task(u, tid);
		if (!t)
			return NULL;
	} else if (c->known && !c->cur) {
		return NULL;
	}

	if (!c->known) {
		/* the CPU's state is unknown since c->last: the occupant ran since then */
		steal(u, t, cpu, now);
		c->cur = NULL;
		return switch_in_inferred(u, c, cpu, t, c->last, now);
	}

	/*
	 * The CPU had another occupant: a switch is missing.  With runtime
	 * events, a task that ran on would have had some: it left after its
	 * last event (this VM's PID 1 threads emit none, not even their
	 * switch-outs).
	 */
	if (c->cur && u->runtime) {
		charge(u, c, cpu, c->last_ev);
		switch_out(c, c->cur, c->last_ev, OFF_UNKNOWN, false);
		if (!t) {
			u->an.inferred_switch_ins++; /* to the idle task */
			return NULL;
		}
	}
	if (c->cur) {
		/* it may have run up to now: the new one is placed now */
		charge(u, c, cpu, now);
		u->an.inferred_switch_ins++;
		u->an.inferred_ns += now - c->last_ev;
		c->cur->inferred += now - c->last_ev;
		switch_out(c, c->cur, now, OFF_UNKNOWN, false);
		if (t) {
			steal(u, t, cpu, now);
			t->inferred += now - c->last_ev;
		}
		switch_in(c, cpu, t, now);
		if (t)
			t->rt_mark = 0;
		return t;
	}
	/* after the idle task: it started as soon as it could */
	steal(u, t, cpu, now);
	t->seen_off = true; /* a missing switch-in, not a task assumed running */
	return switch_in_inferred(u, c, cpu, t, c->last_ev, now);
}

static int do_switch(struct prism_util *u, struct cpu *c, uint32_t cpu,
		     const struct prism_util_event *ev)
{
	uint32_t next = (uint32_t)ev->c;
	uint64_t state = (uint64_t)ev->b;
	struct task *prev = c->cur, *nt = NULL;
	enum off_state off;
	uint64_t lo;
	uint8_t pb;
	bool dead;

	if (prev)
		set_comm(prev, ev->comm, ev->comm_len);
	charge(u, c, cpu, ev->time);
	c->switch_seen = true;
	/* TASK_REPORT bits: 0 = R (R+ when preempted sets a bit above them) */
	off = (state & 0xff) == 0 ? OFF_WAIT : OFF_SLEEP;
	dead = (state & 0x30) != 0; /* X (dead) or Z (zombie) */
	pb = (uint8_t)cpu_bucket(c);
	/*
	 * The kernel counts the next task's run from the scheduler's clock
	 * update, before the previous task's last runtime event is traced:
	 * no bound but the previous task's start.
	 */
	lo = prev ? prev->run_since : 0;
	switch_out(c, prev, ev->time, off, dead);
	if (next) {
		nt = get_task(u, next);
		if (!nt)
			return -ENOMEM;
		set_comm(nt, ev->comm2, ev->comm2_len);
		steal(u, nt, cpu, ev->time);
		if (nt->off_since > lo)
			lo = nt->off_since;
	} else {
		util_trail_to_idle(u, c, cpu, prev, (enum bucket)pb, ev->time);
	}
	switch_in(c, cpu, nt, ev->time);
	if (!c->nr_ictx)
		open_start(u, c, nt, prev, pb, lo, false);
	return 0;
}

/*
 * A switch record: the kernel's word that ev->tid starts (SWITCH_IN) or
 * stops (SWITCH_OUT, TASK_END) running on @cpu now.  Another occupant of
 * the CPU, whose own record is missing, leaves now; a task that stops
 * without a switch-in on record ran since what occupy() can infer.  After
 * a switch-out the CPU counts as idle: it runs a task that was not
 * recorded, or none.
 */
static int switch_record(struct prism_util *u, struct cpu *c, uint32_t cpu,
			 const struct prism_util_event *ev, uint64_t before)
{
	enum bucket tb;
	uint64_t now = ev->time;
	struct task *t = NULL;

	u->sw_records = true;
	u->an.switch_records++;
	charge(u, c, cpu, now);
	c->switch_seen = true;
	if (ev->type == PRISM_UTIL_EV_SWITCH_IN) {
		bool idle = !c->cur && !c->nr_ictx;

		if (ev->tid && !(t = get_task(u, ev->tid)))
			return -ENOMEM;
		if (c->cur && c->cur != t)
			switch_out(c, c->cur, now, OFF_UNKNOWN, false);
		steal(u, t, cpu, now);
		if (t && t->off_since > before)
			before = t->off_since;
		switch_in(c, cpu, t, now);
		if (idle)
			open_start(u, c, t, NULL, B_IDLE, before, false);
		return 0;
	}
	if (!ev->tid)
		return 0; /* the idle task leaves: its successor's record follows */
	if (ev->type == PRISM_UTIL_EV_TASK_END) {
		t = find_task(u, ev->tid);
		if (!t || t->dead)
			return 0;
		if (!t->running) {
			accrue_off(t, now, NO_CPU);
			die(t, now);
			return 0;
		}
	}
	t = occupy(u, c, cpu, ev->tid, now);
	if (!t)
		return -ENOMEM;
	tb = cpu_bucket(c);
	switch_out(c, t, now, ev->a ? OFF_WAIT : OFF_SLEEP, ev->type == PRISM_UTIL_EV_TASK_END);
	util_trail_to_idle(u, c, cpu, t, tb, now);
	c->known = true;
	return 0;
}

static int do_fork(struct prism_util *u, struct task *parent, const struct prism_util_event *ev)
{
	struct task *child = find_task(u, (uint32_t)ev->c);

	if (child && !child->dead)
		u->an.events_after_death++;
	child = new_task(u, (uint32_t)ev->c, ev->time);
	if (!child)
		return -ENOMEM;
	set_comm(child, ev->comm2, ev->comm2_len);
	if (parent) {
		if (!child->comm[0])
			memcpy(child->comm, parent->comm, sizeof(child->comm));
		/* the child returns from the parent's clone: same mode, same call */
		child->mode = parent->mode == MODE_HV ? MODE_SYS : parent->mode;
		child->mode_known = parent->mode_known;
		child->seen_sc = true;
		if (parent->in_sc) {
			child->in_sc = true;
			child->sc_id = parent->sc_id;
			child->sc_start = parent->sc_start;
			child->sc_inherited = true;
			if (!calltab_get(&child->calls, PRISM_UTIL_SYSCALL, child->sc_id,
					 &child->sc_idx))
				return -ENOMEM;
		}
	}
	child->off = OFF_WAIT;
	return 0;
}

static int do_exec(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *old,
		   const struct prism_util_event *ev)
{
	struct task *t;

	charge(u, c, cpu, ev->time);
	t = new_task(u, old->tid, ev->time);
	if (!t)
		return -ENOMEM;
	t->pid = old->pid;
	t->pid_known = old->pid_known;
	memcpy(t->comm, old->comm, sizeof(t->comm));
	set_comm(t, ev->comm, ev->comm_len);
	t->mode = old->mode;
	t->mode_known = old->mode_known;
	t->seen_sc = true;
	if (old->in_sc) {
		/* execve goes on in the new image and completes there */
		t->in_sc = true;
		t->sc_id = old->sc_id;
		t->sc_start = old->sc_start;
		t->sc_pending_start = old->sc_pending_start;
		t->sc_inherited = old->sc_inherited;
		if (!calltab_get(&t->calls, PRISM_UTIL_SYSCALL, t->sc_id, &t->sc_idx))
			return -ENOMEM;
	}
	t->cpu = cpu;
	t->running = true;
	t->run_since = ev->time;
	t->switch_ins = 0;
	old->in_sc = false;
	old->in_hc = false;
	old->replaced = true;
	old->running = false;
	old->dead = true;
	old->end = ev->time;
	c->cur = t;
	return 0;
}

static bool duplicate(struct cpu *c, const struct prism_util_event *ev)
{
	bool dup = last_sample_is(&c->ls, ev->time, ev->tid, ev->type, ev->a, ev->b, ev->c);

	last_sample_set(&c->ls, ev->time, ev->tid, ev->type, ev->a, ev->b, ev->c);
	return dup;
}

/*
 * A duplicated exit sample is ignored, but counted on its call: perf
 * trace counts it as one more call.  (An exit with id -1 names no call.)
 */
static int duplicate_exit(struct prism_util *u, const struct prism_util_event *ev)
{
	struct ucall *call;
	struct task *t;
	enum prism_util_call_kind kind;

	if (ev->type == PRISM_UTIL_EV_SYS_EXIT)
		kind = PRISM_UTIL_SYSCALL;
	else if (ev->type == PRISM_UTIL_EV_HCALL_EXIT)
		kind = PRISM_UTIL_HCALL;
	else
		return 0;
	t = ev->tid && ev->tid != UINT32_MAX ? find_task(u, ev->tid) : NULL;
	if (!t || ev->a == -1)
		return 0;
	call = calltab_get(&t->calls, kind, ev->a, NULL);
	if (!call)
		return -ENOMEM;
	call->pub.nr_duplicate_exits++;
	return 0;
}

static int event(struct prism_util *u, const struct prism_util_event *ev);

void prism_util__set_observer(struct prism_util *u, const struct prism_util_observer *o)
{
	u->obs = *o;
}

void util_observe_call(struct prism_util *u, enum prism_util_call_kind kind, int64_t id,
		       const struct task *t, uint32_t cpu, uint64_t start, uint64_t end)
{
	struct prism_util_call_span c = {
		.kind = kind,
		.id = id,
		.cpu = cpu,
		.pid = t ? t->pid : 0,
		.tid = t ? t->tid : 0,
		.start = start,
		.end = end,
	};
	char buf[32];
	int err;

	if (u->obs_err)
		return;
	util_call_name(u, kind, id, buf, sizeof(buf), &c.name);
	err = u->obs.call(u->obs.ctx, &c);
	if (err)
		u->obs_err = err;
}

int prism_util__event(struct prism_util *u, const struct prism_util_event *ev)
{
	if (unlikely(u->obs.event != NULL) && ev->type > PRISM_UTIL_EV_SYS_EXIT && !u->finished) {
		int err = u->obs.event(u->obs.ctx, ev);

		if (err)
			return err;
	}
	if (likely(ev->type <= PRISM_UTIL_EV_SYS_EXIT)) {
		int ret = util_sys_fast(u, ev->type, ev->time, ev->cpu, ev->pid, ev->tid, ev->a,
					ev->b, ev->c);

		if (likely(ret != UTIL_FAST_NO))
			return ret;
	}
	return event(u, ev);
}

/* any event */
static __attribute__((noinline)) int event(struct prism_util *u, const struct prism_util_event *ev)
{
	struct cpu *c;
	struct task *t;
	uint32_t cpu = ev->cpu;
	uint64_t now = ev->time;
	struct prism_util_event clamped;
	bool cpu_first;
	int err = 0;

	if (u->finished || (ev->type == PRISM_UTIL_EV_TASK_END && !u->sw_records))
		return 0; /* without switch records, a task's time ends at its last switch */
	if (unlikely(ev->type >= PRISM_UTIL_EV_COMM)) {
		/* records that are about no CPU */
		if (ev->type == PRISM_UTIL_EV_COMM) {
			t = find_task(u, (uint32_t)ev->a);
			if (t && !t->dead)
				set_comm(t, ev->comm, ev->comm_len);
		} else if (ev->type == PRISM_UTIL_EV_LOST) {
			u->an.lost_events = sat_add(u->an.lost_events, (uint64_t)ev->a);
			u->an.lost_records++;
		} else if (ev->type == PRISM_UTIL_EV_LOST_SAMPLES) {
			u->an.lost_samples = sat_add(u->an.lost_samples, (uint64_t)ev->a);
			u->an.lost_records++;
		}
		return 0;
	}
	if (likely(cpu < u->nr_cpus && u->cpus[cpu].seen)) {
		c = &u->cpus[cpu];
		cpu_first = false;
	} else {
		if (cpu >= UTIL_MAX_CPU)
			return 0;
		if (!u->started) {
			u->started = true;
			u->start = u->end = now;
		}
		cpu_first = true;
		c = get_cpu(u, cpu);
		if (!c)
			return -ENOMEM;
	}
	if (duplicate(c, ev)) {
		u->an.duplicate_samples++;
		return duplicate_exit(u, ev);
	}
	/*
	 * Each CPU's records are in time order (one ring buffer each), but a
	 * record can reach the file later than the time sort allowed for
	 * (counted as out of order): it keeps its own time, so that the
	 * calls and intervals of its task are measured right, and only a
	 * CPU's own clock never runs backwards.
	 */
	if (now < u->start)
		now = u->start;
	if (now < c->last_ev)
		now = c->last_ev;
	if (now > u->end)
		u->end = now;
	if (now != ev->time) {
		clamped = *ev;
		clamped.time = now;
		ev = &clamped;
	}
	u->nr_events++;

	if (ev->type >= PRISM_UTIL_EV_SWITCH_IN && ev->type <= PRISM_UTIL_EV_TASK_END) {
		uint64_t before = c->last_ev;

		c->last_ev = now;
		return ev->tid == UINT32_MAX ? 0 : switch_record(u, c, cpu, ev, before);
	}
	if (ev->tid == UINT32_MAX) {
		/*
		 * No task: an exiting task's last switch-out is sampled after
		 * it left its thread group.  The payload still names it.
		 */
		u->an.no_tid_samples++;
		if (ev->type != PRISM_UTIL_EV_SWITCH) {
			t = c->known ? c->cur : NULL;
			goto act;
		}
		t = occupy(u, c, cpu, (uint32_t)ev->a, now);
		if (t && t->running && now > t->run_since)
			t->orphan += span(t->run_since, now);
		goto act;
	}
	if (ev->tid && c->known && c->cur && c->cur->tid == ev->tid && !c->cur->dead)
		t = c->cur; /* occupy()'s common case */
	else
		t = occupy(u, c, cpu, ev->tid, now);
	if (ev->tid && !t)
		return -ENOMEM;
	if (t && ev->pid && !t->pid_known) {
		t->pid = ev->pid;
		t->pid_known = true;
	}
act:
	c->last_ev = now;

	switch (ev->type) {
	case PRISM_UTIL_EV_SYS_ENTER:
		charge(u, c, cpu, now);
		if (t)
			err = util_sys_enter(u, t, now, ev->a);
		break;
	case PRISM_UTIL_EV_SYS_EXIT:
		charge(u, c, cpu, now);
		if (t)
			err = util_sys_exit(u, t, now, ev->a, cpu_first);
		break;
	case PRISM_UTIL_EV_HCALL_ENTRY:
		charge(u, c, cpu, now);
		if (t)
			err = util_hcall_entry(u, t, now, ev->a);
		break;
	case PRISM_UTIL_EV_HCALL_EXIT:
		charge(u, c, cpu, now);
		if (t)
			err = util_hcall_exit(u, t, now, ev->a);
		break;
	case PRISM_UTIL_EV_IRQ_ENTRY:
		charge(u, c, cpu, now);
		util_irq_remember_name(u, ev->a, ev->name, ev->name_len);
		err = util_irq_entry(u, c, now, PRISM_UTIL_IRQ, ev->a);
		break;
	case PRISM_UTIL_EV_IRQ_EXIT:
		charge(u, c, cpu, now);
		err = util_irq_exit(u, c, now, PRISM_UTIL_IRQ, ev->a);
		break;
	case PRISM_UTIL_EV_SOFTIRQ_ENTRY:
		charge(u, c, cpu, now);
		err = util_irq_entry(u, c, now, PRISM_UTIL_SOFTIRQ, ev->a);
		break;
	case PRISM_UTIL_EV_SOFTIRQ_EXIT:
		charge(u, c, cpu, now);
		err = util_irq_exit(u, c, now, PRISM_UTIL_SOFTIRQ, ev->a);
		break;
	case PRISM_UTIL_EV_SWITCH:
		if (!u->sw_records) {
			err = do_switch(u, c, cpu, ev);
			break;
		}
		/* switch records say who runs; this one may name a task not recorded */
		if (t)
			set_comm(t, ev->comm, ev->comm_len);
		charge(u, c, cpu, now);
		break;
	case PRISM_UTIL_EV_RUNTIME:
		charge(u, c, cpu, now);
		util_runtime_event(u, c, cpu, t, ev);
		break;
	case PRISM_UTIL_EV_WAKEUP:
	case PRISM_UTIL_EV_WAKEUP_NEW: {
		/* about another task, maybe on another CPU: never a migration */
		struct task *w = ev->a ? other_task(u, (uint32_t)ev->a) : NULL;

		if (ev->a && !w && !u->sw_records)
			return -ENOMEM;
		if (w && !w->running && !w->wake)
			w->wake = now;
		break;
	}
	case PRISM_UTIL_EV_MIGRATE: {
		struct task *m;

		if (ev->b == ev->c) {
			u->an.spurious_migrations++;
			break;
		}
		m = ev->a ? other_task(u, (uint32_t)ev->a) : NULL;
		if (ev->a && !m && !u->sw_records)
			return -ENOMEM;
		if (!m || m->cpu == NO_CPU || ev->c < 0)
			break; /* a new task placed before it first runs: not a move */
		if (!m->running) {
			accrue_off(m, now, NO_CPU);
			m->moves++;
			m->migrated = true;
			m->cpu = (uint32_t)ev->c;
		}
		break;
	}
	case PRISM_UTIL_EV_FORK:
		err = do_fork(u, t, ev);
		break;
	case PRISM_UTIL_EV_EXEC:
		if (t)
			err = do_exec(u, c, cpu, t, ev);
		break;
	case PRISM_UTIL_EV_EXIT: {
		struct task *x = ev->a ? find_task(u, (uint32_t)ev->a) : t;

		if (x && !x->dead)
			x->exiting = true;
		break;
	}
	case PRISM_UTIL_EV_FREE: {
		struct task *x = ev->a ? find_task(u, (uint32_t)ev->a) : NULL;

		if (x && !x->dead && !x->running) {
			accrue_off(x, now, NO_CPU);
			die(x, now);
		}
		break;
	}
	default:
		charge(u, c, cpu, now);
		break;
	}
	return err;
}

/*
 * With runtime events a running task shows one at least every tick.  The
 * recording's end (prism_util__set_end()) is taken once its events are
 * disabled, one by one: a CPU without an event for DARK_END_NS before it
 * saw no more, and its occupant is not taken to run on unseen (under load,
 * 37 ms more for a recorder and a fuzzer than the kernel counted).
 */
#define DARK_END_NS 20000000u

void prism_util__finish(struct prism_util *u)
{
	size_t i;
	uint64_t end = u->end;

	if (u->finished)
		return;
	if (u->started && u->end_at > end)
		end = u->end = u->end_at;
	u->finished = true;
	u->no_fast_path = true; /* the general path ignores what comes now */
	for (i = 0; i < u->nr_cpus; i++) {
		struct cpu *c = &u->cpus[i];
		int k;

		if (!c->seen)
			continue;
		if (u->runtime && end == u->end_at && c->known && c->cur && !c->nr_ictx &&
		    end - c->last_ev > DARK_END_NS) {
			charge(u, c, (uint32_t)i, c->last_ev);
			switch_out(c, c->cur, c->last_ev, OFF_UNKNOWN, false);
		}
		charge(u, c, (uint32_t)i, end);
		for (k = 0; k < c->nr_ictx; k++) {
			struct ucall *call = calltab_get(util_ctx_calls(u, c->ictx[k].task),
							 c->ictx[k].kind, c->ictx[k].id, NULL);

			if (call) {
				call->pub.pending += end - c->ictx[k].start;
				call->pub.oncpu += end - c->ictx[k].start;
				call->pub.nr_pending_end++;
			}
		}
		c->nr_ictx = 0;
		u->an.busy_unknown_ns = sat_add(u->an.busy_unknown_ns, c->t[B_BUSY]);
	}
	for (i = 0; i < u->nr_tasks; i++) {
		struct task *t = u->tasks[i];

		if (t->dead)
			continue;
		if (!t->running)
			accrue_off(t, end, NO_CPU);
		else if (end > t->run_since) {
			t->tail = end - t->run_since;
			u->an.running_at_end++;
			u->an.running_at_end_ns = sat_add(u->an.running_at_end_ns, t->tail);
		}
		close_call_pending(t, end);
		t->end = end;
	}
}
