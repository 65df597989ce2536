// SPDX-License-Identifier: MIT
/*
 * perf sched timehist: per sched_switch, the time the outgoing task waited
 * off the CPU before it last ran, its scheduling delay (wakeup to switch-in)
 * and its run time (the CPU's previous switch to this one).  The task is the
 * sample's (the context that switched out), as perf takes it; a switch out
 * of pid 0 is the CPU's idle task.
 *
 * Note: a CPU whose switch-ins are missing from the trace credits the time
 * to whatever switches out next there: this is perf's result on such files.
 */
#include <math.h>

#include "sched/sched-internal.h"

/* room for CPU @cpu: perf grows its table to the next power of two past it */
static int idle_slots(struct prism_sched *s, uint32_t n)
{
	struct sched_thread **v, **l;
	uint32_t i;

	if (n <= s->idle_max_cpu)
		return 0;
	v = prism_reallocarray(s->idle, n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->idle = v;
	l = prism_reallocarray(s->idle_last, n, sizeof(*l));
	if (!l)
		return -ENOMEM;
	s->idle_last = l;
	for (i = s->idle_max_cpu; i < n; i++) {
		v[i] = NULL;
		l[i] = NULL;
	}
	s->idle_max_cpu = n;
	return 0;
}

static struct sched_thread *new_idle(struct prism_sched *s, uint32_t cpu)
{
	s->idle[cpu] = threads__new_detached(&s->threads, 0, 0, "<idle>");
	if (s->idle[cpu])
		s->idle[cpu]->idle = true;
	return s->idle[cpu];
}

/* perf makes an idle task per CPU online at record time before reading */
int timehist__init(struct prism_sched *s)
{
	uint32_t i;

	if (idle_slots(s, s->max_cpu ? s->max_cpu : 1))
		return -ENOMEM;
	for (i = 0; i < s->idle_max_cpu; i++)
		if (!new_idle(s, i))
			return -ENOMEM;
	return 0;
}

static struct sched_thread *idle_thread(struct prism_sched *s, uint32_t cpu)
{
	if (cpu >= s->idle_max_cpu) {
		uint32_t n = 1;

		while (n < cpu + 1)
			n <<= 1;
		if (idle_slots(s, n))
			return NULL;
	}
	if (!s->idle[cpu])
		return new_idle(s, cpu);
	return s->idle[cpu];
}

void timehist__free(struct prism_sched *s)
{
	zfree(&s->idle);
	zfree(&s->idle_last);
}

/* perf's thread__is_filtered() (-p, -t) */
static bool filtered(const struct prism_sched *s, const struct sched_thread *th)
{
	if (s->o.pids && !sched_in_list(s->o.pids, s->o.nr_pids, th->pid))
		return true;
	if (s->o.tids && !sched_in_list(s->o.tids, s->o.nr_tids, th->tid))
		return true;
	return false;
}

static bool skip_sample(struct prism_sched *s, const struct sched_thread *th,
			const struct sched_ev *e)
{
	bool rc = false;

	if (filtered(s, th)) {
		rc = true;
		s->skipped++;
	}
	if (s->o.idle_hist) {
		if (e->kind != SK_SWITCH)
			rc = true;
		else if (e->prev_pid != 0 && e->next_pid != 0)
			rc = true;
	}
	return rc;
}

static bool cpu_shown(const struct prism_sched *s, uint32_t cpu)
{
	return !s->o.cpus || (cpu < s->o.nr_cpus && s->o.cpus[cpu]);
}

static void update_runtime(struct thread_runtime *r, uint64_t t, uint64_t tprev)
{
	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = r->dt_run = 0;
	if (tprev) {
		r->dt_run = t - tprev;
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			uint64_t dt_wait = tprev - r->last_time;

			if (r->last_state == 0) /* TASK_RUNNING */
				r->dt_preempt = dt_wait;
			else if (r->last_state == 2) /* TASK_UNINTERRUPTIBLE */
				r->dt_iowait = dt_wait;
			else
				r->dt_sleep = dt_wait;
		}
	}
	run_stats__update(&r->stats, r->dt_run);
	r->total_run += r->dt_run;
	r->total_delay += r->dt_delay;
	r->total_sleep += r->dt_sleep;
	r->total_iowait += r->dt_iowait;
	r->total_preempt += r->dt_preempt;
}

static int print_row(struct prism_sched *s, const struct sched_ev *e, struct sched_thread *th,
		     uint64_t t)
{
	struct prism_sched_row r = { 0 };
	struct thread_runtime *tr = &th->rt;

	if (!cpu_shown(s, e->cpu) || !s->ops.row)
		return 0;
	r.time = t;
	r.cpu = e->cpu;
	r.max_cpu = s->max_cpu;
	sched_task_of(th, &r.task);
	r.idle = th->idle;
	r.wait = tr->dt_sleep + tr->dt_iowait + tr->dt_preempt;
	r.delay = tr->dt_delay;
	r.run = tr->dt_run;
	r.state = (int32_t)e->prev_state;
	r.next_comm = e->next_comm;
	r.next_pid = e->next_pid;
	r.ev = e->ev;
	return s->ops.row(s->ctx, &r);
}

int timehist__switch(struct prism_sched *s, const struct sched_ev *e)
{
	struct sched_thread *th;
	struct thread_runtime *tr = NULL;
	uint64_t tprev, t = e->time;
	uint64_t start = s->o.time_start, end = s->o.time_end;
	int rc = 0;

	if (e->prev_pid == 0) {
		th = idle_thread(s, e->cpu);
	} else {
		th = threads__findnew(&s->threads, (int32_t)e->pid,
				      (int32_t)(e->tid ? e->tid : e->pid));
		if (th && s->o.idle_hist) {
			if (!idle_thread(s, e->cpu))
				return -ENOMEM;
			s->idle_last[e->cpu] = th;
			/* the chain of the task that leaves the CPU idle */
			if (e->next_pid == 0 && s->ops.idle_chain) {
				rc = s->ops.idle_chain(s->ctx, e->cpu, false, e->ev, 0);
				if (rc)
					return rc;
			}
		}
	}
	if (!th)
		return -ENOMEM;
	th->has_rt = true;
	if (skip_sample(s, th, e))
		goto out;
	tr = &th->rt;
	tprev = s->last_switch[e->cpu];
	if (start && start > t)
		goto out;
	if (tprev && start > tprev)
		tprev = start;
	if (end) {
		/* without the CPU's previous switch, perf cannot tell it is in the window */
		if (!tprev || tprev > end)
			goto out;
		if (t > end)
			t = end;
	}
	if (!s->o.idle_hist || th->tid == 0) {
		if (cpu_shown(s, e->cpu))
			update_runtime(tr, t, tprev);
		if (s->o.idle_hist) {
			struct thread_runtime *last;

			/* no task ran here since the last idle period: perf shows no row */
			if (!s->idle_last[e->cpu])
				goto out;
			last = &s->idle_last[e->cpu]->rt;

			/* the idle time counts as the last task's (its totals only) */
			update_runtime(last, t, tprev);
			last->dt_run = last->dt_delay = last->dt_sleep = 0;
			last->dt_iowait = last->dt_preempt = 0;
			s->idle_last[e->cpu] = NULL;
			if (s->ops.idle_chain) {
				rc = s->ops.idle_chain(s->ctx, e->cpu, true, NULL, t - tprev);
				if (rc)
					return rc;
			}
		}
	}
	if (!s->o.summary_only)
		rc = print_row(s, e, th, t);
out:
	if (s->hist_start == 0 && t >= start)
		s->hist_start = t;
	if (end == 0 || t <= end)
		s->hist_end = t;
	if (tr) {
		tr->last_time = e->time;
		tr->last_state = (int32_t)e->prev_state;
		tr->ready_to_run = 0;
	}
	s->last_switch[e->cpu] = e->time;
	return rc;
}

static bool time_skip(const struct prism_sched *s, uint64_t t)
{
	return (s->o.time_start && t < s->o.time_start) || (s->o.time_end && t > s->o.time_end);
}

static int print_event(struct prism_sched *s, const struct sched_ev *e, struct sched_thread *target,
		       bool migration)
{
	struct prism_sched_event_row r = { 0 };
	struct sched_thread *th = threads__findnew(&s->threads, (int32_t)e->pid, (int32_t)e->tid);

	if (!th)
		return -ENOMEM;
	th->has_rt = true;
	/* shown unless both the waker and the woken are filtered out */
	if (skip_sample(s, th, e) && skip_sample(s, target, e))
		return 0;
	if (!s->ops.event)
		return 0;
	r.time = e->time;
	r.cpu = e->cpu;
	r.max_cpu = s->max_cpu;
	sched_task_of(th, &r.task);
	sched_task_of(target, &r.target);
	r.migration = migration;
	r.orig_cpu = e->orig_cpu;
	r.dest_cpu = e->dest_cpu;
	return s->ops.event(s->ctx, &r);
}

int timehist__wakeup(struct prism_sched *s, const struct sched_ev *e)
{
	struct sched_thread *th = threads__findnew(&s->threads, 0, (int32_t)e->tpid);

	if (!th)
		return -ENOMEM;
	th->has_rt = true;
	if (th->rt.ready_to_run == 0)
		th->rt.ready_to_run = e->time;
	if (s->o.wakeups && !time_skip(s, e->time))
		return print_event(s, e, th, false);
	return 0;
}

int timehist__migrate(struct prism_sched *s, const struct sched_ev *e)
{
	struct sched_thread *th = threads__findnew(&s->threads, 0, (int32_t)e->tpid);

	if (!th)
		return -ENOMEM;
	th->has_rt = true;
	th->rt.migrations++;
	if (s->o.summary_only)
		return 0;
	return print_event(s, e, th, true);
}

uint32_t prism_sched__nr_idle(const struct prism_sched *s)
{
	return s->idle_max_cpu;
}

int prism_sched__idle_time(const struct prism_sched *s, uint32_t cpu, uint64_t *ns)
{
	if (cpu >= s->idle_max_cpu || !s->idle[cpu])
		return -ENOENT;
	*ns = s->idle[cpu]->rt.total_run;
	return 0;
}

static void stats_of(const struct sched_thread *th, struct prism_sched_task_stats *st)
{
	const struct thread_runtime *r = &th->rt;
	double sd = 0;

	memset(st, 0, sizeof(*st));
	sched_task_of(th, &st->task);
	st->count = (uint64_t)r->stats.n;
	st->run = r->total_run;
	st->min = r->stats.min;
	st->max = r->stats.max;
	st->mean = (uint64_t)r->stats.mean;
	if (r->stats.n >= 2)
		sd = sqrt(r->stats.M2 / (r->stats.n - 1) / r->stats.n);
	st->stddev_pct = r->stats.mean ? 100.0 * sd / r->stats.mean : 0;
	st->migrations = r->migrations;
	st->sleep = r->total_sleep;
	st->iowait = r->total_iowait;
	st->preempt = r->total_preempt;
	st->delay = r->total_delay;
}

int prism_sched__timehist_summary(struct prism_sched *s,
				  int (*task)(void *ctx, const struct prism_sched_task_stats *st,
					      bool dead),
				  int (*idle)(void *ctx, uint32_t cpu,
					      const struct prism_sched_task_stats *st),
				  void *ctx, struct prism_sched_summary *sum)
{
	struct prism_sched_task_stats st;
	struct sched_thread **v;
	size_t nr, i;
	int pass, err;
	uint32_t cpu;

	memset(sum, 0, sizeof(*sum));
	sum->hist_time = s->hist_end - s->hist_start;
	sum->max_cpu = s->max_cpu;
	err = threads__sorted(&s->threads, &v, &nr);
	if (err)
		return err;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nr; i++) {
			if (v[i]->dead != (pass == 1) || filtered(s, v[i]) || !v[i]->rt.stats.n)
				continue;
			sum->nr_tasks++;
			sum->nr_switches += (uint64_t)v[i]->rt.stats.n;
			sum->total_run += v[i]->rt.total_run;
			stats_of(v[i], &st);
			err = task ? task(ctx, &st, pass == 1) : 0;
			if (err)
				goto out;
		}
		/* a NULL entry tells the caller a list ended */
		err = task ? task(ctx, NULL, pass == 1) : 0;
		if (err)
			goto out;
	}
	/* perf tracks no idle time when samples were filtered out */
	sum->skipped = s->skipped && !s->o.idle_hist;
	if (sum->skipped)
		goto out;
	for (cpu = 0; cpu < s->idle_max_cpu; cpu++) {
		const struct sched_thread *th = s->idle[cpu];

		if (!cpu_shown(s, cpu) || !th)
			continue;
		if (th->rt.stats.n) {
			sum->nr_switches += (uint64_t)th->rt.stats.n;
			stats_of(th, &st);
		}
		err = idle ? idle(ctx, cpu, th->rt.stats.n ? &st : NULL) : 0;
		if (err)
			goto out;
	}
out:
	free(v);
	return err;
}
