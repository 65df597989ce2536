// SPDX-License-Identifier: MIT
/*
 * perf sched map: per sched_switch, the task on each CPU by a short name
 * ("A0", "B0", ... and "." for the idle task), the new name announced the
 * first time a task runs and after its comm changed.
 */
#include "sched/sched-internal.h"

static bool cpu_listed(const struct prism_sched *s, int64_t cpu)
{
	return !s->o.cpus || (cpu >= 0 && (size_t)cpu < s->o.nr_cpus && s->o.cpus[cpu]);
}

static bool has_color(const struct prism_sched *s, struct sched_thread *th)
{
	if (th->color < 0)
		th->color = s->o.color_pids &&
			    sched_in_list(s->o.color_pids, s->o.nr_color_pids, th->tid);
	return th->color > 0;
}

static int room(struct prism_sched *s, uint32_t n)
{
	void *p;

	p = prism_reallocarray(s->col_cpu, n, sizeof(*s->col_cpu));
	if (!p)
		return -ENOMEM;
	s->col_cpu = p;
	p = prism_reallocarray(s->col_name, n, sizeof(*s->col_name));
	if (!p)
		return -ENOMEM;
	s->col_name = p;
	p = prism_reallocarray(s->col_color, n, sizeof(*s->col_color));
	if (!p)
		return -ENOMEM;
	s->col_color = p;
	return 0;
}

int map__switch(struct prism_sched *s, const struct sched_ev *e)
{
	struct prism_sched_map_row r = { 0 };
	struct sched_thread *in;
	uint32_t cpus_nr, i, this_cpu = e->cpu;
	bool new_cpu = false, announce = false;
	size_t nc = 0;

	if (this_cpu > s->max_cpu)
		s->max_cpu = this_cpu;
	if (s->o.compact) {
		if (!s->comp_mask) {
			s->comp_mask = calloc(65536, 1);
			s->comp_cpus = calloc(65536, sizeof(*s->comp_cpus));
			if (!s->comp_mask || !s->comp_cpus)
				return -ENOMEM;
		}
		cpus_nr = s->nr_comp;
		if (!s->comp_mask[this_cpu]) {
			s->comp_mask[this_cpu] = 1;
			s->comp_cpus[cpus_nr++] = (int32_t)this_cpu;
			s->nr_comp = cpus_nr;
			new_cpu = true;
		}
	} else {
		/* perf's CPU count of the reading machine, not one more than the highest */
		cpus_nr = s->max_cpu;
	}
	if (sched__cpu_slots(s, cpus_nr) || room(s, cpus_nr + 1))
		return -ENOMEM;
	s->cpu_last_switched[this_cpu] = e->time;
	in = threads__findnew(&s->threads, -1, (int32_t)e->next_pid);
	if (!in)
		return -ENOMEM;
	has_color(s, in);
	s->curr_thread[this_cpu] = in;
	if (!in->shortname[0]) {
		if (!strcmp(in->comm, "swapper")) {
			in->shortname[0] = '.';
			in->shortname[1] = ' ';
		} else {
			in->shortname[0] = s->next1;
			in->shortname[1] = s->next2;
			if (s->next1 < 'Z') {
				s->next1++;
			} else {
				s->next1 = 'A';
				s->next2 = s->next2 < '9' ? (char)(s->next2 + 1) : '0';
			}
		}
		announce = true;
	}
	for (i = 0; i < cpus_nr; i++) {
		int32_t cpu = s->o.compact ? s->comp_cpus[i] : (int32_t)i;
		struct sched_thread *cur = s->curr_thread[cpu];

		if (!cpu_listed(s, cpu))
			continue;
		s->col_cpu[nc] = cpu;
		s->col_name[nc] = cur ? cur->shortname : NULL;
		s->col_color[nc] = cur && has_color(s, cur);
		nc++;
	}
	r.time = e->time;
	r.this_cpu = this_cpu;
	r.nr_cols = nc;
	r.col_cpu = s->col_cpu;
	r.col_name = s->col_name;
	r.col_color = s->col_color;
	r.shown = cpu_listed(s, this_cpu);
	if (r.shown) {
		r.announce = announce || in->comm_changed;
		in->comm_changed = false;
		r.new_cpu = s->o.compact && new_cpu;
	}
	r.name = in->shortname;
	sched_task_of(in, &r.task);
	r.task_color = has_color(s, in);
	return s->ops.map ? s->ops.map(s->ctx, &r) : 0;
}

void map__free(struct prism_sched *s)
{
	zfree(&s->comp_mask);
	zfree(&s->comp_cpus);
	zfree(&s->col_cpu);
	zfree(&s->col_name);
	zfree(&s->col_color);
}
