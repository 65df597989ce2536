/* SPDX-License-Identifier: MIT */
/*
 * The state machine's per-event core, inline: charging a CPU's time to its
 * state, and the fast path of the commonest events, a syscall entered or
 * left by the task that runs on its CPU.  state.c builds every event on
 * it; the session source (source.c) calls util_sys_fast() straight from a
 * decoded sample, without a struct prism_util_event in between.
 */
#ifndef PRISM_UTIL_STATE_FAST_H
#define PRISM_UTIL_STATE_FAST_H

#include "util/util-internal.h"

/*
 * @to - @from, 0 when @to is earlier: the two times may come from different
 * CPUs, and a record may arrive later than the time sort allowed
 */
static inline uint64_t span(uint64_t from, uint64_t to)
{
	return to > from ? to - from : 0;
}

struct task_cpu *util_task_row_slow(struct task *t, uint32_t cpu);

/* the task's row of @cpu, created on first use; mostly the row used last */
static inline struct task_cpu *task_row(struct task *t, uint32_t cpu)
{
	if (t->last_row < t->nr_cpus && t->cpus[t->last_row].cpu == cpu)
		return &t->cpus[t->last_row];
	return util_task_row_slow(t, cpu);
}

static inline __attribute__((always_inline)) enum bucket mode_bucket(const struct task *t)
{
	static const uint8_t bucket[] = {
		[MODE_BUSY] = B_SYS, /* with mode_known: a mode never set, as curt has it */
		[MODE_USER] = B_USER,
		[MODE_SYS] = B_SYS,
		[MODE_HV] = B_HV,
	};

	return t->mode_known ? (enum bucket)bucket[t->mode & 3] : B_BUSY;
}

static inline __attribute__((always_inline)) enum bucket cpu_bucket(const struct cpu *c)
{
	if (c->nr_ictx)
		return c->ictx[c->nr_ictx - 1].kind == PRISM_UTIL_IRQ ? B_IRQ : B_SOFTIRQ;
	return c->cur ? mode_bucket(c->cur) : B_IDLE;
}

/*
 * charge the CPU's time up to @now to its current state
 *
 * Note: times are summed over CPUs (a task's head, calls' on-CPU time): the
 * absurd clocks of a damaged file can wrap those sums, which only spoils
 * the numbers printed (__wraps, as in the other accounting functions).
 */
static inline __attribute__((always_inline)) __wraps void
charge_inline(struct prism_util *u, struct cpu *c, uint32_t cpu, uint64_t now)
{
	enum bucket b;
	uint64_t dt;
	struct task *t = c->cur;

	if (now <= c->last)
		return;
	dt = now - c->last;
	c->last = now;
	b = cpu_bucket(c);
	c->t[b] += dt;
	if (t) {
		struct task_cpu *row = task_row(t, cpu);

		if (row)
			row->t[b] += dt;
		if (!c->switch_seen) {
			t->head += dt;
			u->an.before_first_switch_ns += dt;
		}
		if (b == B_SYS && t->in_sc && t->sc_idx >= 0)
			t->calls.v[t->sc_idx].pub.oncpu += dt;
		else if (b == B_HV && t->in_hc && t->hc_idx >= 0)
			t->calls.v[t->hc_idx].pub.oncpu += dt;
	}
}

/* syscall @id entered by @t, whose mode is known */
static inline __attribute__((always_inline)) int
sys_enter_known(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	if (t->in_sc)
		u->an.enter_in_call++; /* the open call is damaged: keep it out */
	t->in_sc = true;
	t->seen_sc = true;
	t->sc_id = id;
	t->sc_start = now;
	t->sc_pending_start = false;
	t->sc_inherited = false;
	if (!calltab_get(&t->calls, PRISM_UTIL_SYSCALL, id, &t->sc_idx))
		return -ENOMEM;
	t->mode = MODE_SYS;
	return 0;
}

/* after a syscall exit: no call open, back in user mode */
static inline __attribute__((always_inline)) void sys_exit_close(struct task *t)
{
	t->in_sc = false;
	t->seen_sc = true;
	t->sc_idx = -1;
	t->mode = MODE_USER;
	t->mode_known = true;
}

/* the syscall @t entered completes (its exit, of the same id or -1) */
static inline __attribute__((always_inline)) void sys_exit_matched(struct prism_util *u,
								   struct task *t, uint64_t now)
{
	struct ucall *call = &t->calls.v[t->sc_idx];

	call_complete(call, span(t->sc_start, now));
	call_observe(u, PRISM_UTIL_SYSCALL, call->pub.id, t, t->cpu, t->sc_start, now);
	if (t->sc_inherited)
		call->pub.nr_inherited++;
}

/* the sample last seen on a CPU is the same as this one (a duplicate) */
static inline __attribute__((always_inline)) bool last_sample_is(const struct lastsample *l,
								 uint64_t time, uint32_t tid,
								 uint32_t type, int64_t a,
								 int64_t b, int64_t c)
{
	return l->valid && l->time == time && l->tid == tid && l->type == type && l->a == a &&
	       l->b == b && l->c == c;
}

static inline __attribute__((always_inline)) void last_sample_set(struct lastsample *l,
								  uint64_t time, uint32_t tid,
								  uint32_t type, int64_t a,
								  int64_t b, int64_t c)
{
	l->valid = true;
	l->time = time;
	l->tid = tid;
	l->type = type;
	l->a = a;
	l->b = b;
	l->c = c;
}

#define UTIL_FAST_NO 1

/*
 * util_sys_fast - a syscall event (@type PRISM_UTIL_EV_SYS_ENTER or _EXIT,
 * the other arguments as in struct prism_util_event) of the task that runs
 * on its CPU, in a state that needs no inference: what prism_util__event()
 * does with it, without its generality
 *
 * Return: UTIL_FAST_NO, before anything changed, when the event is not of
 * that kind (prism_util__event() then takes it); else 0 or -ENOMEM.
 */
static inline __attribute__((always_inline)) int
util_sys_fast(struct prism_util *u, enum prism_util_ev_type type, uint64_t now, uint32_t cpu,
	      uint32_t pid, uint32_t tid, int64_t a, int64_t b, int64_t cc)
{
	struct lastsample *l;
	struct cpu *c;
	struct task *t;

	if (unlikely(cpu >= u->nr_cpus || u->no_fast_path))
		return UTIL_FAST_NO;
	c = &u->cpus[cpu];
	t = c->cur;
	l = &c->ls;
	/* (known implies seen, and last_ev is never before u->start) */
	if (!c->known || !t || t->tid != tid || t->dead || tid - 1 >= UINT32_MAX - 1 /* 0, -1 */ ||
	    now < c->last_ev || !t->mode_known || (pid && !t->pid_known))
		return UTIL_FAST_NO;
	/* a repeated sample: prism_util__event() counts it */
	if (last_sample_is(l, now, tid, type, a, b, cc))
		return UTIL_FAST_NO;
	if (type == PRISM_UTIL_EV_SYS_EXIT && (!t->in_sc || (a != t->sc_id && a != -1)))
		return UTIL_FAST_NO;

	last_sample_set(l, now, tid, type, a, b, cc);
	if (now > u->end)
		u->end = now;
	u->nr_events++;
	c->last_ev = now;
	charge_inline(u, c, cpu, now);
	if (type == PRISM_UTIL_EV_SYS_ENTER)
		return sys_enter_known(u, t, now, a);
	sys_exit_matched(u, t, now);
	sys_exit_close(t);
	return 0;
}

#endif /* PRISM_UTIL_STATE_FAST_H */
