// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: the trace bytes of each queue, and the side-band (switch,
 * ITRACE_START and AUX records) that says which thread runs on a CPU when.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/error.h>

#include "decode.h"
#include "spill.h"

static struct queue *queue_get(struct prism_pt_decoder *d, uint32_t key)
{
	struct queue *q;
	size_t i;

	for (i = 0; i < d->nr_qs; i++)
		if (d->qs[i].key == key)
			return &d->qs[i];
	q = realloc(d->qs, (d->nr_qs + 1) * sizeof(*q));
	if (!q)
		return NULL;
	d->qs = q;
	q = &d->qs[d->nr_qs++];
	memset(q, 0, sizeof(*q));
	q->key = key;
	q->d = d;
	q->pid = q->tid = -1;
	q->cpu = (uint32_t)-1;
	q->fd = prism_spill__open();
	return q;
}

int prism_pt_decoder__add(struct prism_pt_decoder *d, const struct prism_auxtrace *at)
{
	struct queue *q;

	if (!at->data)
		return 0;
	q = queue_get(d, d->per_cpu ? at->cpu : at->tid);
	if (!q)
		return -ENOMEM;
	if (!d->per_cpu)
		q->tid = (int32_t)at->tid; /* its process: at the run, once the COMMs are read */
	q->cpu = at->cpu;
	if (at->size > SIZE_MAX - q->len)
		return -ENOMEM;
	d->st.trace_bytes += at->size;
	if (q->fd < 0)
		d->st.heap_bytes += at->size;
	if (q->fd >= 0) {
		int err = prism_spill__write(q->fd, q->len, at->data, (size_t)at->size);

		if (!err)
			q->len += (size_t)at->size;
		return err;
	}
	if (q->len + at->size > q->cap) {
		size_t cap = q->cap ? q->cap : 65536;
		uint8_t *b;

		while (cap < q->len + at->size)
			cap *= 2;
		b = realloc(q->buf, cap);
		if (!b)
			return -ENOMEM;
		q->buf = b;
		q->cap = cap;
	}
	memcpy(q->buf + q->len, at->data, (size_t)at->size);
	q->len += (size_t)at->size;
	return 0;
}

static int add_switch(struct prism_pt_decoder *d, uint32_t cpu, uint64_t time, int32_t pid,
		      int32_t tid)
{
	struct switch_ev *s;

	if (cpu >= 4096)
		return 0;
	if (cpu >= d->nr_cpus) {
		struct switch_ev **sw = realloc(d->sw, (cpu + 1) * sizeof(*sw));
		size_t *nr;

		if (!sw)
			return -ENOMEM;
		d->sw = sw;
		nr = realloc(d->nr_sw, (cpu + 1) * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		d->nr_sw = nr;
		memset(d->sw + d->nr_cpus, 0, (cpu + 1 - d->nr_cpus) * sizeof(*sw));
		memset(d->nr_sw + d->nr_cpus, 0, (cpu + 1 - d->nr_cpus) * sizeof(*nr));
		d->nr_cpus = cpu + 1;
	}
	s = realloc(d->sw[cpu], (d->nr_sw[cpu] + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	d->sw[cpu] = s;
	s[d->nr_sw[cpu]++] = (struct switch_ev){ time, pid, tid };
	return 0;
}

int prism_pt_decoder__side_band(struct prism_pt_decoder *d, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_aux aux;
	uint32_t pid, tid;

	switch (ev->type) {
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* the task that runs from now on: the next one at a switch out */
		if (ev->sw.out)
			return add_switch(d, s->cpu, s->time, (int32_t)ev->sw.next_prev_pid,
					  (int32_t)ev->sw.next_prev_tid);
		return add_switch(d, s->cpu, s->time, (int32_t)s->pid, (int32_t)s->tid);
	case PERF_RECORD_SWITCH:
		if (!ev->sw.out)
			return add_switch(d, s->cpu, s->time, (int32_t)s->pid, (int32_t)s->tid);
		return 0;
	case PERF_RECORD_TEXT_POKE:
		return pt_poke_add(d, ev);
	case PERF_RECORD_ITRACE_START:
		if (prism_itrace_start__parse(ev, &pid, &tid))
			return 0;
		return add_switch(d, s->cpu, s->time, (int32_t)pid, (int32_t)tid);
	case PERF_RECORD_AUX:
		if (prism_aux__parse(ev, &aux) || !(aux.flags & PRISM_AUX_FLAG_TRUNCATED))
			return 0;
		{
			struct prism_pt_item *e = realloc(d->errs, (d->nr_errs + 1) * sizeof(*e));

			if (!e)
				return -ENOMEM;
			d->errs = e;
			e += d->nr_errs++;
			memset(e, 0, sizeof(*e));
			e->kind = PRISM_PT_ERROR;
			e->time = s->time;
			e->cpu = s->cpu;
			e->pid = (int32_t)s->pid;
			e->tid = (int32_t)s->tid;
			e->code = ERR_LOST;
			e->msg = pt_err_msg[ERR_LOST];
		}
		return 0;
	default:
		return 0;
	}
}

void pt_follow_switches(struct queue *q)
{
	struct prism_pt_decoder *d = q->d;
	const struct switch_ev *s;
	size_t n;

	if (!d->per_cpu || q->cpu >= d->nr_cpus)
		return;
	s = d->sw[q->cpu];
	n = d->nr_sw[q->cpu];
	while (q->next_switch < n && (s[q->next_switch].time <= q->time || !d->has_tsc)) {
		q->pid = s[q->next_switch].pid;
		q->tid = s[q->next_switch].tid;
		q->next_switch++;
		if (!d->has_tsc)
			break;
	}
	if (q->tid == 0) /* the idle task: perf shows pid/tid 0 */
		q->pid = 0;
}
