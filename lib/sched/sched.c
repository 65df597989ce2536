// SPDX-License-Identifier: MIT
/*
 * perf sched's analyses: the public entry points, and the decoding of the
 * scheduler tracepoints (recognised by system:name from the file's formats,
 * fields read by name) into struct sched_ev for timehist.c, latency.c and
 * map.c.
 */
#include <prism/evsel.h>
#include <prism/session.h>
#include <prism/tp.h>

#include "sched/sched-internal.h"

static const struct {
	const char *name;
	enum sched_kind kind;
} names[] = {
	{ "sched_switch", SK_SWITCH },	      { "sched_wakeup", SK_WAKEUP },
	{ "sched_waking", SK_WAKING },	      { "sched_wakeup_new", SK_WAKEUP_NEW },
	{ "sched_migrate_task", SK_MIGRATE }, { "sched_stat_runtime", SK_RUNTIME },
};

struct prism_sched *prism_sched__new(const struct prism_sched_opts *opts,
				     const struct prism_sched_ops *ops, void *ctx)
{
	struct prism_sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->o = *opts;
	if (ops)
		s->ops = *ops;
	s->ctx = ctx;
	s->next1 = 'A';
	s->next2 = '0';
	if (threads__init(&s->threads)) {
		prism_sched__free(s);
		errno = ENOMEM;
		return NULL;
	}
	/* perf: the CPUs online at record time, 4 when the file does not say */
	s->max_cpu = opts->nr_cpus_online ? opts->nr_cpus_online : 4;
	if (opts->mode == PRISM_SCHED_MAP)
		s->max_cpu = opts->map_max_cpu;
	if (sched__cpu_slots(s, s->max_cpu) ||
	    (opts->mode == PRISM_SCHED_TIMEHIST && timehist__init(s))) {
		prism_sched__free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void prism_sched__free(struct prism_sched *s)
{
	if (!s)
		return;
	timehist__free(s);
	latency__free(s);
	map__free(s);
	threads__release(&s->threads);
	free(s->kinds);
	free(s->last_switch);
	free(s->cpu_last_switched);
	free(s->curr_pid);
	free(s->curr_thread);
	free(s);
}

/* per-CPU arrays with room for CPU @cpu */
int sched__cpu_slots(struct prism_sched *s, uint32_t cpu)
{
	uint32_t n = s->nr_cpu_slots, i;

	if (cpu < n)
		return 0;
	if (cpu >= 65536)
		return -EINVAL;
	while (n <= cpu)
		n = n ? n * 2 : 8;
#define GROW(p)                                                     \
	do {                                                        \
		void *q = prism_reallocarray((p), n, sizeof(*(p))); \
		if (!q)                                             \
			return -ENOMEM;                             \
		(p) = q;                                            \
	} while (0)
	GROW(s->last_switch);
	GROW(s->cpu_last_switched);
	GROW(s->curr_pid);
	GROW(s->curr_thread);
#undef GROW
	for (i = s->nr_cpu_slots; i < n; i++) {
		s->last_switch[i] = 0;
		s->cpu_last_switched[i] = 0;
		s->curr_pid[i] = UINT32_MAX;
		s->curr_thread[i] = NULL;
	}
	s->nr_cpu_slots = n;
	return 0;
}

void prism_sched__bind(struct prism_sched *s, struct prism_session *session)
{
	s->session = session;
	s->has_waking = prism_sched__has_event(session, "sched_waking");
}

static const struct prism_tp_event *tp_event_of(struct prism_session *session,
						struct prism_evsel *evsel)
{
	const struct perf_event_attr *attr = prism_evsel__attr(evsel);
	struct prism_tp *tp = prism_session__tp(session);

	if (!tp || !prism_evsel__is_tracepoint(evsel))
		return NULL;
	return prism_tp__event(tp, attr->config);
}

bool prism_sched__has_event(struct prism_session *session, const char *name)
{
	size_t i, n = prism_session__nr_evsels(session);

	for (i = 0; i < n; i++) {
		const struct prism_tp_event *te =
			tp_event_of(session, prism_session__evsel(session, i));

		if (te && !strcmp(prism_tp_event__system(te), "sched") &&
		    !strcmp(prism_tp_event__name(te), name))
			return true;
	}
	return false;
}

bool prism_sched__all_callchains(struct prism_session *session)
{
	size_t i, n = prism_session__nr_evsels(session);

	for (i = 0; i < n; i++) {
		const struct perf_event_attr *a =
			prism_evsel__attr(prism_session__evsel(session, i));

		if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
			return false;
	}
	return n > 0;
}

static const char *const field_names[SF__NR] = {
	[SF_PREV_PID] = "prev_pid",
	[SF_NEXT_PID] = "next_pid",
	[SF_PREV_STATE] = "prev_state",
	[SF_NEXT_COMM] = "next_comm",
	[SF_ORIG_CPU] = "orig_cpu",
	[SF_DEST_CPU] = "dest_cpu",
	[SF_PID] = "pid",
	[SF_RUNTIME] = "runtime",
};

/* the evsel's kind and fields, resolved at its first sample */
static const struct sched_evsel *evsel_of(struct prism_sched *s, struct prism_evsel *evsel)
{
	static const struct sched_evsel other = { .kind = SK_OTHER };
	int idx = prism_evsel__idx(evsel);
	const struct prism_tp_event *te;
	struct sched_evsel *se;
	size_t i;

	if (idx < 0)
		return &other;
	if ((size_t)idx >= s->nr_kinds) {
		size_t n = (size_t)idx + 8;
		struct sched_evsel *k = prism_reallocarray(s->kinds, n, sizeof(*k));

		if (!k)
			return &other;
		memset(k + s->nr_kinds, 0, (n - s->nr_kinds) * sizeof(*k)); /* SK_UNRESOLVED */
		s->kinds = k;
		s->nr_kinds = n;
	}
	se = &s->kinds[idx];
	if (se->kind != SK_UNRESOLVED)
		return se;
	te = tp_event_of(s->session, evsel);
	if (!te && prism_evsel__is_tracepoint(evsel) && !prism_session__tp(s->session))
		return &other; /* pipe mode before its formats: ask again later */
	se->kind = SK_OTHER;
	if (!te || strcmp(prism_tp_event__system(te), "sched"))
		return se;
	for (i = 0; i < PRISM_ARRAY_SIZE(names); i++)
		if (!strcmp(prism_tp_event__name(te), names[i].name))
			se->kind = names[i].kind;
	for (i = 0; i < SF__NR; i++)
		se->f[i] = prism_tp_event__field(te, field_names[i]);
	/* pipe input: the events are known once their formats are */
	if (!s->has_waking)
		s->has_waking = prism_sched__has_event(s->session, "sched_waking");
	return se;
}

static uint64_t intval(const struct sched_evsel *se, const struct prism_sample *smp,
		       enum sched_field which)
{
	const struct prism_tp_field *f = se->f[which];
	uint64_t v = 0;

	if (!f || prism_tp_field__u64(f, smp->raw_data, smp->raw_size, &v))
		return 0;
	return v;
}

static void strval(const struct sched_evsel *se, const struct prism_sample *smp,
		   enum sched_field which, char *out, size_t size)
{
	const struct prism_tp_field *f = se->f[which];
	const char *p;
	size_t len;

	out[0] = '\0';
	if (!f || prism_tp_field__str(f, smp->raw_data, smp->raw_size, &p, &len))
		return;
	if (len >= size)
		len = size - 1;
	memcpy(out, p, len);
	out[len] = '\0';
}

static int decode(struct prism_sched *s, const struct prism_event *ev, struct sched_ev *e)
{
	const struct prism_sample *smp = &ev->sample;
	const struct sched_evsel *se;

	memset(e, 0, sizeof(*e));
	e->ev = ev;
	se = ev->evsel ? evsel_of(s, ev->evsel) : NULL;
	e->kind = se ? se->kind : SK_OTHER;
	e->time = smp->time;
	e->cpu = smp->cpu;
	e->pid = smp->pid;
	e->tid = smp->tid;
	if (e->kind == SK_OTHER || !smp->raw_data)
		return e->kind == SK_OTHER ? 0 : -EINVAL;
	switch (e->kind) {
	case SK_SWITCH:
		e->prev_pid = (uint32_t)intval(se, smp, SF_PREV_PID);
		e->next_pid = (uint32_t)intval(se, smp, SF_NEXT_PID);
		e->prev_state = (int64_t)intval(se, smp, SF_PREV_STATE);
		strval(se, smp, SF_NEXT_COMM, e->next_comm, sizeof(e->next_comm));
		break;
	case SK_MIGRATE:
		e->orig_cpu = (uint32_t)intval(se, smp, SF_ORIG_CPU);
		e->dest_cpu = (uint32_t)intval(se, smp, SF_DEST_CPU);
		/* fall through */
	case SK_WAKEUP:
	case SK_WAKING:
	case SK_WAKEUP_NEW:
	case SK_RUNTIME:
		e->tpid = (uint32_t)intval(se, smp, SF_PID);
		e->runtime = intval(se, smp, SF_RUNTIME);
		break;
	default:
		break;
	}
	return 0;
}

static int sample(struct prism_sched *s, const struct prism_event *ev)
{
	struct sched_ev e;
	int err = decode(s, ev, &e);

	if (err || e.kind == SK_OTHER)
		return 0;
	if (sched__cpu_slots(s, e.cpu))
		return -ENOMEM;
	switch (s->o.mode) {
	case PRISM_SCHED_TIMEHIST:
		if (e.cpu > s->max_cpu)
			s->max_cpu = e.cpu;
		if (e.kind == SK_SWITCH)
			return timehist__switch(s, &e);
		if (e.kind == SK_WAKEUP && s->has_waking)
			return 0; /* perf prefers sched_waking when the file has it */
		if (e.kind == SK_WAKEUP || e.kind == SK_WAKING || e.kind == SK_WAKEUP_NEW)
			return timehist__wakeup(s, &e);
		if (e.kind == SK_MIGRATE && s->o.migrations)
			return timehist__migrate(s, &e);
		return 0;
	case PRISM_SCHED_LATENCY:
	case PRISM_SCHED_MAP:
		if (e.kind == SK_SWITCH) {
			/* perf counts a switch away from a task that is not current */
			if (s->curr_pid[e.cpu] != UINT32_MAX && s->curr_pid[e.cpu] != e.prev_pid)
				s->nr_cs_bugs++;
			err = s->o.mode == PRISM_SCHED_MAP ? map__switch(s, &e) :
							     latency__switch(s, &e);
			s->curr_pid[e.cpu] = e.next_pid;
			return err;
		}
		if (s->o.mode == PRISM_SCHED_MAP)
			return 0;
		/* perf sched latency has no sched_waking handler */
		if (e.kind == SK_WAKEUP || e.kind == SK_WAKEUP_NEW)
			return latency__wakeup(s, &e);
		if (e.kind == SK_RUNTIME)
			return latency__runtime(s, &e);
		if (e.kind == SK_MIGRATE)
			return latency__migrate(s, &e);
		return 0;
	}
	return 0;
}

int prism_sched__event(struct prism_sched *s, const struct prism_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		return sample(s, ev);
	case PERF_RECORD_COMM: {
		struct sched_thread *th;
		int err = threads__event(&s->threads, ev);

		if (err || !(ev->sample.type & PERF_SAMPLE_TID))
			return err;
		/* perf sched map announces the new name of the thread of the record's trailer */
		th = threads__find(&s->threads, (int32_t)ev->sample.pid, (int32_t)ev->sample.tid);
		if (th)
			th->comm_changed = true;
		return 0;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return threads__event(&s->threads, ev);
	case PERF_RECORD_LOST:
		if (s->o.mode == PRISM_SCHED_TIMEHIST && s->ops.lost)
			return s->ops.lost(s->ctx, ev->sample.time, ev->lost.lost, ev->sample.cpu);
		return 0;
	default:
		return 0;
	}
}

static int on_record(void *ctx, const struct prism_event *ev)
{
	return prism_sched__event(ctx, ev);
}

static const struct prism_tool sched_tool = {
	.sample = on_record,
	.comm = on_record,
	.fork = on_record,
	.exit = on_record,
	.lost = on_record,
};

const struct prism_tool *prism_sched__tool(void)
{
	return &sched_tool;
}

bool sched_in_list(const int64_t *v, size_t n, int64_t x)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

void run_stats__update(struct run_stats *st, uint64_t val)
{
	double delta;

	st->n++;
	delta = (double)val - st->mean;
	st->mean += delta / st->n;
	st->M2 += delta * ((double)val - st->mean);
	if (val > st->max)
		st->max = val;
	if (val < st->min)
		st->min = val;
}
