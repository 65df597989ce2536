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

static void charge(struct prism_util *u, struct cpu *c, uint32_t cpu, uint64_t now)
{
	charge_inline(u, c, cpu, now);
}

/* the first syscall event tells what the unknown ("busy") time was */
static void reclassify(struct prism_util *u, struct task *t, enum bucket to)
{
	size_t i;

	for (i = 0; i < t->nr_cpus; i++) {
		uint64_t v = t->cpus[i].t[B_BUSY];
		struct cpu *c = t->cpus[i].cpu < u->nr_cpus ? &u->cpus[t->cpus[i].cpu] : NULL;

		if (!v)
			continue;
		t->cpus[i].t[B_BUSY] = 0;
		t->cpus[i].t[to] += v;
		if (c && c->t[B_BUSY] >= v) {
			c->t[B_BUSY] -= v;
			c->t[to] += v;
		}
	}
	t->mode_known = true;
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
		accrue_off(t, now, cpu);
	}
	if (t->cpu != NO_CPU && t->cpu != cpu && !t->migrated)
		t->moves++; /* implicit migration: seen on a new CPU */
	t->migrated = false;
	t->cpu = cpu;
	t->running = true;
	t->run_since = now;
	t->wake = 0;
	t->switch_ins++;
}

/*
 * @t runs on another CPU but shows up on @cpu at @now: its switch-out
 * there is missing.  It left somewhere after that CPU's last event.
 */
static __wraps void steal(struct prism_util *u, struct task *t, uint32_t cpu, uint64_t now)
{
	struct cpu *oc;
	uint64_t gap;

	if (!t || !t->running || t->cpu == cpu || t->cpu >= u->nr_cpus)
		return;
	oc = &u->cpus[t->cpu];
	gap = now > oc->last_ev ? now - oc->last_ev : 0;
	charge(u, oc, t->cpu, now);
	switch_out(oc, t, now, OFF_UNKNOWN, false);
	oc->known = false;
	t->inferred += gap;
	u->an.inferred_switch_ins++;
	u->an.inferred_ns += gap;
}

/*
 * Make sure @tid (0: the idle task) is what runs on @c at @now.  Every
 * event is emitted in the context of the task running on its CPU, so a
 * different occupant means switches the trace does not have: close the
 * previous occupant's interval, start the new one, count the inference.
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
		uint64_t since = c->last;

		if (t && !t->running && t->off_since > since)
			since = t->off_since;
		if (t && t->running && t->cpu != cpu && t->cpu < u->nr_cpus) {
			steal(u, t, cpu, now);
			since = now;
		}
		c->cur = NULL;
		charge(u, c, cpu, since);
		switch_in(c, cpu, t, since);
		if (t && now > since) {
			t->inferred += now - since;
			u->an.assumed_running++;
			u->an.assumed_ns += now - since;
		}
		return t;
	}

	/* the CPU had another occupant: a switch is missing */
	charge(u, c, cpu, now);
	u->an.inferred_switch_ins++;
	u->an.inferred_ns += now - c->last_ev;
	if (c->cur) {
		c->cur->inferred += now - c->last_ev;
		switch_out(c, c->cur, now, OFF_UNKNOWN, false);
	}
	if (t) {
		steal(u, t, cpu, now);
		t->inferred += now - c->last_ev;
	}
	switch_in(c, cpu, t, now);
	return t;
}

static void remember_irq_name(struct prism_util *u, int64_t irq, const char *name, size_t len)
{
	size_t i, n = 0;
	struct irqname *e;

	if (!name || !len)
		return;
	for (i = 0; i < u->nr_irqnames; i++)
		if (u->irqnames[i].irq == irq)
			break;
	if (i == u->nr_irqnames) {
		if (prism_ensure_mem((void **)&u->irqnames, &u->cap_irqnames, sizeof(*u->irqnames),
				     u->nr_irqnames + 1))
			return;
		u->nr_irqnames++;
	}
	e = &u->irqnames[i];
	e->irq = irq;
	while (n < len && n < sizeof(e->name) - 1 && name[n])
		n++;
	memcpy(e->name, name, n);
	e->name[n] = '\0';
}

const char *util_irq_name(const struct prism_util *u, int64_t irq)
{
	size_t i;

	for (i = 0; i < u->nr_irqnames; i++)
		if (u->irqnames[i].irq == irq && u->irqnames[i].name[0])
			return u->irqnames[i].name;
	return NULL;
}

static struct calltab *ctx_calls(struct prism_util *u, struct task *t)
{
	return t ? &t->calls : &u->idle_calls;
}

static int irq_entry(struct prism_util *u, struct cpu *c, uint64_t now, uint8_t kind, int64_t id)
{
	struct ictx *x;

	c->irq_seen = true;
	if (c->nr_ictx == MAX_ICTX) {
		/* exits were lost: forget the oldest context */
		memmove(&c->ictx[0], &c->ictx[1], (MAX_ICTX - 1) * sizeof(c->ictx[0]));
		c->nr_ictx--;
		u->an.unmatched_irq_exits++;
	}
	x = &c->ictx[c->nr_ictx++];
	x->kind = kind;
	x->id = id;
	x->start = now;
	x->task = c->cur;
	return 0;
}

static __wraps int irq_exit(struct prism_util *u, struct cpu *c, uint64_t now, uint8_t kind,
			    int64_t id)
{
	int i;
	bool first = !c->irq_seen;
	struct ucall *call;

	c->irq_seen = true;
	for (i = c->nr_ictx - 1; i >= 0; i--)
		if (c->ictx[i].kind == kind && c->ictx[i].id == id)
			break;
	if (i < 0) {
		if (!first) {
			u->an.unmatched_irq_exits++;
			return 0;
		}
		call = calltab_get(ctx_calls(u, c->cur), kind, id, NULL);
		if (!call)
			return -ENOMEM;
		call->pub.pending += now - u->start;
		call->pub.nr_pending_start++;
		return 0;
	}
	call = calltab_get(ctx_calls(u, c->ictx[i].task), kind, id, NULL);
	if (!call)
		return -ENOMEM;
	call_complete(call, now - c->ictx[i].start);
	call->pub.oncpu += now - c->ictx[i].start;
	if (i != c->nr_ictx - 1)
		u->an.unmatched_irq_exits += (uint64_t)(c->nr_ictx - 1 - i);
	c->nr_ictx = i;
	return 0;
}

static int sys_enter(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	if (!t->mode_known)
		reclassify(u, t, B_USER);
	return sys_enter_known(u, t, now, id);
}

/* an exit whose entry is missing mid-trace: left out, counted on its call */
static int unmatched_exit(struct prism_util *u, struct task *t, enum prism_util_call_kind kind,
			  int64_t id)
{
	struct ucall *call = calltab_get(&t->calls, kind, id, NULL);

	u->an.exit_without_enter++;
	if (!call)
		return -ENOMEM;
	call->pub.nr_unmatched_exits++;
	return 0;
}

static int sys_exit(struct prism_util *u, struct task *t, uint64_t now, int64_t id, bool cpu_first)
{
	struct ucall *call;
	int err = 0;

	if (!t->mode_known)
		reclassify(u, t, B_SYS);
	if (t->in_sc) {
		if (id == t->sc_id || id == -1) {
			/* id -1: x86 rt_sigreturn, seccomp: closes what was entered */
			sys_exit_matched(t, now);
		} else if (cpu_first) {
			/* the open call ended unseen before this CPU was traced */
			call = &t->calls.v[t->sc_idx];
			call->pub.nr_pending_end++;
			call = calltab_get(&t->calls, PRISM_UTIL_SYSCALL, id, NULL);
			if (!call)
				return -ENOMEM;
			call->pub.nr_pending_start++;
		} else {
			err = unmatched_exit(u, t, PRISM_UTIL_SYSCALL, id);
		}
	} else if (!t->seen_sc || cpu_first) {
		/*
		 * Running since before the trace, or since before this CPU's
		 * events were enabled (perf enables them one CPU at a time).
		 */
		call = calltab_get(&t->calls, PRISM_UTIL_SYSCALL, id, NULL);
		if (!call)
			return -ENOMEM;
		call->pub.pending += span(t->start > u->start ? t->start : u->start, now);
		call->pub.nr_pending_start++;
	} else {
		err = unmatched_exit(u, t, PRISM_UTIL_SYSCALL, id);
	}
	sys_exit_close(t);
	return err;
}

static int hcall_entry(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	if (!t->mode_known)
		reclassify(u, t, B_SYS);
	if (t->in_hc)
		u->an.enter_in_call++;
	else
		t->hc_prev_mode = t->mode;
	t->in_hc = true;
	t->seen_hc = true;
	t->hc_id = id;
	t->hc_start = now;
	if (!calltab_get(&t->calls, PRISM_UTIL_HCALL, id, &t->hc_idx))
		return -ENOMEM;
	t->mode = MODE_HV;
	return 0;
}

static int hcall_exit(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	struct ucall *call;
	int err = 0;

	if (!t->mode_known)
		reclassify(u, t, B_HV);
	if (t->in_hc && t->hc_id == id) {
		call_complete(&t->calls.v[t->hc_idx], span(t->hc_start, now));
		t->mode = t->hc_prev_mode;
	} else if (!t->in_hc && !t->seen_hc) {
		call = calltab_get(&t->calls, PRISM_UTIL_HCALL, id, NULL);
		if (!call)
			return -ENOMEM;
		call->pub.pending += span(t->start > u->start ? t->start : u->start, now);
		call->pub.nr_pending_start++;
		t->mode = MODE_SYS;
	} else {
		err = unmatched_exit(u, t, PRISM_UTIL_HCALL, id);
		t->mode = MODE_SYS;
	}
	t->in_hc = false;
	t->seen_hc = true;
	t->hc_idx = -1;
	return err;
}

static int do_switch(struct prism_util *u, struct cpu *c, uint32_t cpu,
		     const struct prism_util_event *ev)
{
	uint32_t next = (uint32_t)ev->c;
	uint64_t state = (uint64_t)ev->b;
	struct task *prev = c->cur, *nt = NULL;
	enum off_state off;
	bool dead;

	if (prev)
		set_comm(prev, ev->comm, ev->comm_len);
	charge(u, c, cpu, ev->time);
	c->switch_seen = true;
	/* TASK_REPORT bits: 0 = R (R+ when preempted sets a bit above them) */
	off = (state & 0xff) == 0 ? OFF_WAIT : OFF_SLEEP;
	dead = (state & 0x30) != 0; /* X (dead) or Z (zombie) */
	charge(u, c, cpu, ev->time);
	switch_out(c, prev, ev->time, off, dead);
	if (next) {
		nt = get_task(u, next);
		if (!nt)
			return -ENOMEM;
		set_comm(nt, ev->comm2, ev->comm2_len);
		steal(u, nt, cpu, ev->time);
	}
	switch_in(c, cpu, nt, ev->time);
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

int prism_util__event(struct prism_util *u, const struct prism_util_event *ev)
{
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

	if (u->finished)
		return 0;
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
			err = sys_enter(u, t, now, ev->a);
		break;
	case PRISM_UTIL_EV_SYS_EXIT:
		charge(u, c, cpu, now);
		if (t)
			err = sys_exit(u, t, now, ev->a, cpu_first);
		break;
	case PRISM_UTIL_EV_HCALL_ENTRY:
		charge(u, c, cpu, now);
		if (t)
			err = hcall_entry(u, t, now, ev->a);
		break;
	case PRISM_UTIL_EV_HCALL_EXIT:
		charge(u, c, cpu, now);
		if (t)
			err = hcall_exit(u, t, now, ev->a);
		break;
	case PRISM_UTIL_EV_IRQ_ENTRY:
		charge(u, c, cpu, now);
		remember_irq_name(u, ev->a, ev->name, ev->name_len);
		err = irq_entry(u, c, now, PRISM_UTIL_IRQ, ev->a);
		break;
	case PRISM_UTIL_EV_IRQ_EXIT:
		charge(u, c, cpu, now);
		err = irq_exit(u, c, now, PRISM_UTIL_IRQ, ev->a);
		break;
	case PRISM_UTIL_EV_SOFTIRQ_ENTRY:
		charge(u, c, cpu, now);
		err = irq_entry(u, c, now, PRISM_UTIL_SOFTIRQ, ev->a);
		break;
	case PRISM_UTIL_EV_SOFTIRQ_EXIT:
		charge(u, c, cpu, now);
		err = irq_exit(u, c, now, PRISM_UTIL_SOFTIRQ, ev->a);
		break;
	case PRISM_UTIL_EV_SWITCH:
		err = do_switch(u, c, cpu, ev);
		break;
	case PRISM_UTIL_EV_WAKEUP:
	case PRISM_UTIL_EV_WAKEUP_NEW: {
		/* about another task, maybe on another CPU: never a migration */
		struct task *w = ev->a ? get_task(u, (uint32_t)ev->a) : NULL;

		if (ev->a && !w)
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
		m = ev->a ? get_task(u, (uint32_t)ev->a) : NULL;
		if (ev->a && !m)
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

void prism_util__finish(struct prism_util *u)
{
	size_t i;
	uint64_t end = u->end;

	if (u->finished)
		return;
	u->finished = true;
	u->no_fast_path = true; /* the general path ignores what comes now */
	for (i = 0; i < u->nr_cpus; i++) {
		struct cpu *c = &u->cpus[i];
		int k;

		if (!c->seen)
			continue;
		charge(u, c, (uint32_t)i, end);
		for (k = 0; k < c->nr_ictx; k++) {
			struct ucall *call = calltab_get(ctx_calls(u, c->ictx[k].task),
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
