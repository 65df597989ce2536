// SPDX-License-Identifier: MIT
/*
 * The kernel's own count of run time (sched:sched_stat_runtime): where a
 * task's run started when its switch-in is missing or the kernel counts
 * from elsewhere (run_from()), and the steal time a guest's run-time clock
 * leaves out (steal_gap()).
 */
#include "util/state-fast.h"

/* on-CPU buckets in the order run time is taken from them, after the one given */
static const uint8_t oncpu_buckets[] = { B_USER, B_SYS, B_BUSY, B_HV, B_SOFTIRQ, B_IRQ };

/*
 * Take @x from @v's bucket @first, the rest from its other on-CPU ones, and
 * the same amounts from @also's (NULL: none); false, and nothing taken,
 * when @v's do not hold @x (@first B_IDLE: that bucket only).
 */
static bool take(uint64_t *v, uint64_t *also, enum bucket first, uint64_t x)
{
	uint64_t have = v[first], y;
	size_t i;

	for (i = 0; first != B_IDLE && i < sizeof(oncpu_buckets) && have < x; i++)
		if (oncpu_buckets[i] != first)
			have += v[oncpu_buckets[i]];
	if (have < x)
		return false;
	for (i = 0; x && i <= sizeof(oncpu_buckets); i++) {
		enum bucket b = i ? (enum bucket)oncpu_buckets[i - 1] : first;

		if (i && b == first)
			continue;
		y = x < v[b] ? x : v[b];
		v[b] -= y;
		if (also)
			also[b] = also[b] > y ? also[b] - y : 0;
		x -= y;
	}
	return true;
}

/*
 * Of the time from @from to its switch-in that @t's first runtime event
 * moves from @pre (see run_from()), how much steal_gap() took for steal
 * time at @pre's last runtime event in the run that @t's switch-in ended:
 * the part of that event's gap after @from.
 */
static uint64_t skipped_steal(const struct task *pre, const struct task_cpu *prow,
			      const struct task *t, uint64_t from)
{
	uint64_t y = pre->steal_last;

	if (!y || pre->steal_at < pre->run_since || pre->steal_at > t->run_since ||
	    pre->steal_at <= from)
		return 0;
	if (y > pre->steal_at - from)
		y = pre->steal_at - from;
	return y < prow->t[B_STEAL] ? y : prow->t[B_STEAL];
}

/*
 * @t ran from @from on: its first runtime event since it was switched in
 * says so.  The part of [@from, run_since) that the CPU charged to its
 * previous occupant (or to idle) becomes @t's run time, taken off its
 * off-CPU time; the previous occupant's off-CPU time starts that much
 * earlier.  That part can be milliseconds: after a wakeup that preempts
 * the running task the scheduler skips its next clock update, and the
 * kernel counts the rest of the previous task's slice, up to the switch,
 * to the next task (in its schedstat and rusage too).  It is taken from
 * the previous task's bucket at the switch first, then from its other
 * on-CPU ones.
 */
static __wraps void run_from(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *t,
			     uint64_t from)
{
	struct task_cpu *row, *prow = NULL;
	struct task *pre = c->pre;
	enum bucket b = mode_bucket(t), pb = (enum bucket)c->pre_bucket;
	uint64_t x, y, w;

	t->start_open = false;
	if (from < t->start_lo)
		from = t->start_lo;
	if (from >= t->run_since)
		return;
	x = t->run_since - from;
	row = task_row(t, cpu);
	if (!row || (pre && !(prow = task_row(pre, cpu))))
		return;
	/*
	 * The previous task's last runtime event before the switch came
	 * with the skipped clock too: it counted up to the wakeup, and the
	 * wall clock's rest up to the event was taken for steal time (seen
	 * under load: 39 ms of a busy recorder's 524 ms, taken twice, as
	 * steal and by the next tasks).  That rest is this task's run.
	 */
	y = prow ? skipped_steal(pre, prow, t, from) : 0;
	if (y > c->t[B_STEAL])
		y = c->t[B_STEAL];
	/* the previous task's row and the CPU's alike, or the CPU's idle time */
	if (!take(prow ? prow->t : c->t, prow ? c->t : NULL, pb, x - y))
		return;
	if (y) {
		prow->t[B_STEAL] -= y;
		c->t[B_STEAL] -= y;
		u->an.steal_ns = u->an.steal_ns > y ? u->an.steal_ns - y : 0;
		pre->steal_last -= y;
		if (!pre->steal_last && u->an.steal_intervals)
			u->an.steal_intervals--;
	}
	c->t[b] += x;
	row->t[b] += x;
	if (pre) {
		pre->moved += x;
		if (!pre->running && !pre->dead && pre->off_since == t->run_since)
			pre->off_since = from;
	}
	if (!c->switch_seen) {
		t->head += x;
		u->an.before_first_switch_ns += x;
	}
	t->run_since = from;
	if (t->start_inferred) {
		t->inferred += x;
		if (t->seen_off)
			u->an.inferred_ns += x;
		else
			u->an.assumed_ns += x;
	} else {
		t->moved += x;
		u->an.runtime_moved_ns += x;
	}
	row = task_row(t, t->off_cpu);
	if (!row || row->t[B_IDLE] < x)
		return;
	row->t[B_IDLE] -= x;
	w = x < row->t[B_WAIT] ? x : row->t[B_WAIT];
	row->t[B_WAIT] -= w;
	row->t[B_SLEEP] -= x - w < row->t[B_SLEEP] ? x - w : row->t[B_SLEEP];
}

/* below this, a runtime event short of the wall clock is the clocks' noise */
#define STEAL_MIN_NS 100000u

/*
 * The kernel counted @r ns of run time for @t, running on @c, since its
 * mark: what the wall clock has beyond that (at least STEAL_MIN_NS) the
 * hypervisor took (steal time: the kernel's run-time clock leaves it out,
 * so do schedstat and rusage).  It leaves @t's buckets (the current one
 * first) and the CPU's for their steal bucket.
 *
 * Note: a kernel with CONFIG_IRQ_TIME_ACCOUNTING leaves interrupt time out
 * of the count too: the interrupt time on @c since the mark is not steal.
 * A count made with the clock skipped after a wakeup ends at the wakeup:
 * the gap is the next task's run then, and run_from() gives it back.
 */
static __wraps void steal_gap(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *t,
			      uint64_t now, uint64_t r)
{
	struct task_cpu *row = task_row(t, cpu);
	uint64_t wall = now - t->rt_mark, irq = sat_add(c->t[B_IRQ], c->t[B_SOFTIRQ]), gap;

	if (wall <= r || !row)
		return;
	irq = irq > t->rt_irq ? irq - t->rt_irq : 0;
	gap = wall - r;
	gap = gap > irq ? gap - irq : 0;
	if (gap < STEAL_MIN_NS || !take(row->t, c->t, mode_bucket(t), gap))
		return;
	row->t[B_STEAL] += gap;
	c->t[B_STEAL] += gap;
	u->an.steal_ns += gap;
	u->an.steal_intervals++;
	t->steal_last = gap;
	t->steal_at = now;
}

/*
 * A runtime event: the kernel's count of a task's run time since it last
 * counted (its switch-in, its last runtime event on any CPU).  In the
 * task's own context it may place its start (run_from()); about a task
 * running elsewhere, it is that runqueue's update made from this CPU, and
 * places the start as well.
 */
void util_runtime_event(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *t,
			const struct prism_util_event *ev)
{
	uint64_t now = ev->time, r = (uint64_t)ev->b;
	struct task *p = t;

	if (!t || ev->a != (int64_t)t->tid) {
		p = ev->a > 0 ? util_find_task(u, (uint32_t)ev->a) : NULL;
		if (!p || !p->running || p->cpu >= u->nr_cpus || u->cpus[p->cpu].cur != p)
			return;
		cpu = p->cpu;
		c = &u->cpus[cpu];
		charge_inline(u, c, cpu, now);
	}
	if (p->start_open) {
		/*
		 * A start the kernel counts from earlier moves back; else the
		 * wall ran ahead.  A count made from another CPU (a wakeup
		 * enqueued on the task's runqueue) places it as well: the
		 * task's own next event counts only from there.
		 */
		run_from(u, c, cpu, p, now - (r < now ? r : now));
	}
	p->steal_last = 0;
	if (p->running && c->cur == p && p->rt_mark && p->rt_mark < now)
		steal_gap(u, c, cpu, p, now, r);
	p->rt_mark = now;
	p->rt_counted = true;
	p->rt_irq = sat_add(c->t[B_IRQ], c->t[B_SOFTIRQ]);
}

/* a runtime event this close to a switch-out is the kernel's last count of the run */
#define TRAIL_MAX_NS 100000u

/*
 * @t left @c for the idle task at @now: the kernel stopped counting its
 * run time at its last runtime event, right before (the scheduler's own
 * work of the switch that follows counts to no task).  With thousands of
 * short runs (a kworker) those microseconds add up to milliseconds: they
 * go to the CPU's idle time, as the kernel counts.  (A switch to another
 * task is settled by that task's first runtime event, run_from().)
 */
__wraps void util_trail_to_idle(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *t,
				enum bucket b, uint64_t now)
{
	struct task_cpu *row;
	uint64_t x;

	if (!t || !t->rt_counted || t->rt_mark >= now || now - t->rt_mark > TRAIL_MAX_NS)
		return;
	x = now - t->rt_mark;
	row = task_row(t, cpu);
	if (!row || !take(row->t, c->t, b, x))
		return;
	c->t[B_IDLE] += x;
	t->moved += x;
	u->an.runtime_moved_ns += x;
	if (!t->running && !t->dead && t->off_since == now)
		t->off_since = t->rt_mark;
}
