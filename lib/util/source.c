// SPDX-License-Identifier: MIT
/*
 * Feeding the utilization state machine from a perf.data session: each
 * tracepoint is recognised by system:name from the file's formats and its
 * fields are read by name (kernels add and drop fields), then turned into
 * a struct prism_util_event.
 */
#include <stdio.h>
#include <sys/utsname.h>

#include <prism/evsel.h>
#include <prism/features.h>
#include <prism/session.h>
#include <prism/task.h>
#include <prism/tp.h>

#include "session/evsel-internal.h"
#include "tp/field.h"
#include "util/state-fast.h"

enum kind {
	K_UNRESOLVED,
	K_OTHER,
	K_SYS_ENTER,
	K_SYS_EXIT,
	K_IRQ_ENTRY,
	K_IRQ_EXIT,
	K_SOFTIRQ_ENTRY,
	K_SOFTIRQ_EXIT,
	K_HCALL_ENTRY,
	K_HCALL_EXIT,
	K_SWITCH,
	K_WAKEUP,
	K_WAKING,
	K_WAKEUP_NEW,
	K_MIGRATE,
	K_FORK,
	K_EXEC,
	K_EXIT,
	K_FREE,
	K_RUNTIME,
	K__NR,
};

static const struct {
	const char *sys, *name;
	enum prism_util_ev_type type;
	const char *fields[5]; /* a, b, c, comm, comm2/name */
} kinds[K__NR] = {
	[K_SYS_ENTER] = { "raw_syscalls", "sys_enter", PRISM_UTIL_EV_SYS_ENTER, { "id" } },
	[K_SYS_EXIT] = { "raw_syscalls", "sys_exit", PRISM_UTIL_EV_SYS_EXIT, { "id" } },
	[K_IRQ_ENTRY] = { "irq",
			  "irq_handler_entry",
			  PRISM_UTIL_EV_IRQ_ENTRY,
			  { "irq", NULL, NULL, NULL, "name" } },
	[K_IRQ_EXIT] = { "irq", "irq_handler_exit", PRISM_UTIL_EV_IRQ_EXIT, { "irq" } },
	[K_SOFTIRQ_ENTRY] = { "irq", "softirq_entry", PRISM_UTIL_EV_SOFTIRQ_ENTRY, { "vec" } },
	[K_SOFTIRQ_EXIT] = { "irq", "softirq_exit", PRISM_UTIL_EV_SOFTIRQ_EXIT, { "vec" } },
	[K_HCALL_ENTRY] = { "powerpc", "hcall_entry", PRISM_UTIL_EV_HCALL_ENTRY, { "opcode" } },
	[K_HCALL_EXIT] = { "powerpc", "hcall_exit", PRISM_UTIL_EV_HCALL_EXIT, { "opcode" } },
	[K_SWITCH] = { "sched",
		       "sched_switch",
		       PRISM_UTIL_EV_SWITCH,
		       { "prev_pid", "prev_state", "next_pid", "prev_comm", "next_comm" } },
	[K_WAKEUP] = { "sched", "sched_wakeup", PRISM_UTIL_EV_WAKEUP, { "pid" } },
	[K_WAKING] = { "sched", "sched_waking", PRISM_UTIL_EV_WAKEUP, { "pid" } },
	[K_WAKEUP_NEW] = { "sched", "sched_wakeup_new", PRISM_UTIL_EV_WAKEUP_NEW, { "pid" } },
	[K_MIGRATE] = { "sched",
			"sched_migrate_task",
			PRISM_UTIL_EV_MIGRATE,
			{ "pid", "orig_cpu", "dest_cpu" } },
	[K_FORK] = { "sched",
		     "sched_process_fork",
		     PRISM_UTIL_EV_FORK,
		     { "parent_pid", NULL, "child_pid", NULL, "child_comm" } },
	[K_EXEC] = { "sched",
		     "sched_process_exec",
		     PRISM_UTIL_EV_EXEC,
		     { "pid", NULL, NULL, NULL, "filename" } },
	[K_EXIT] = { "sched", "sched_process_exit", PRISM_UTIL_EV_EXIT, { "pid" } },
	[K_FREE] = { "sched", "sched_process_free", PRISM_UTIL_EV_FREE, { "pid" } },
	[K_RUNTIME] = { "sched", "sched_stat_runtime", PRISM_UTIL_EV_RUNTIME, { "pid", "runtime" } },
};

/* a plain integer field of a payload, read without a call (size 0: none) */
struct numfield {
	uint16_t off;
	uint8_t size;
	bool sign, swap;
};

struct evinfo {
	enum kind kind;
	const struct prism_tp_field *f[5];
	struct numfield num[3]; /* f[0..2], when they are plain integers */
	/* worked out once: what each sample of the event needs */
	enum prism_util_ev_type type;
	bool has_cpu; /* PERF_SAMPLE_CPU */
	bool strings; /* f[3] or f[4] */
	bool id32; /* a syscall id of 4 bytes: a 32-bit kernel's -1 reads as 0xffffffff */
	/* sys_enter/exit with a numeric id: util_sys_fast() may take a payload this long */
	uint64_t sys_need; /* UINT64_MAX: not such an event */
};

struct source {
	struct prism_util *u;
	uint64_t time_lo, time_hi; /* --time: samples outside are left out */
	struct prism_session *s;
	struct prism_tp *tp;
	struct prism_tasks *tasks;
	struct evinfo *ev;
	size_t nr_ev;
	int err;
	uint64_t next_interval; /* opts.on_interval: the end of the current interval, 0 = none yet */
};

static void resolve(struct source *src, struct prism_evsel *evsel, struct evinfo *ei)
{
	const struct perf_event_attr *attr = prism_evsel__attr(evsel);
	const struct prism_tp_event *te;
	const char *sys, *name;
	int k, i;

	if (!src->tp)
		src->tp = prism_session__tp(src->s);
	if (prism_evsel__is_tracepoint(evsel) && !src->tp)
		return; /* pipe mode: the formats come later */
	ei->kind = K_OTHER;
	ei->type = PRISM_UTIL_EV_OTHER;
	ei->sys_need = UINT64_MAX;
	/* without PERF_SAMPLE_CPU (per-task files) everything is on one CPU */
	ei->has_cpu = attr->sample_type & PERF_SAMPLE_CPU;
	if (!prism_evsel__is_tracepoint(evsel))
		return;
	te = prism_tp__event(src->tp, attr->config);
	if (!te)
		return;
	sys = prism_tp_event__system(te);
	name = prism_tp_event__name(te);
	for (k = K_SYS_ENTER; k < K__NR; k++) {
		if (strcmp(kinds[k].sys, sys) || strcmp(kinds[k].name, name))
			continue;
		for (i = 0; i < 5; i++) {
			const struct prism_tp_field *f;

			if (!kinds[k].fields[i])
				continue;
			f = ei->f[i] = prism_tp_event__field(te, kinds[k].fields[i]);
			if (!f && i == 0) {
				pr_warn("util: %s:%s has no field '%s'; its events are ignored",
					sys, name, kinds[k].fields[i]);
				return;
			}
			/* what prism_tp_field__u64() reads; anything else reads as 0 */
			if (i < 3 && f && !(f->flags & TP_FIELD_ARRAY) &&
			    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
				ei->num[i].off = (uint16_t)f->offset;
				ei->num[i].size = (uint8_t)f->size;
				ei->num[i].sign = f->flags & TP_FIELD_SIGNED;
				ei->num[i].swap = f->swap;
			}
		}
		ei->kind = (enum kind)k;
		ei->type = kinds[k].type;
		ei->strings = ei->f[3] || ei->f[4];
		ei->id32 = (k == K_SYS_ENTER || k == K_SYS_EXIT) && ei->num[0].size == 4;
		/* the id is their only field; >= 1 when it is a number */
		if ((k == K_SYS_ENTER || k == K_SYS_EXIT) && ei->num[0].size)
			ei->sys_need = ei->num[0].off + ei->num[0].size;
		return;
	}
}

/* field @f of a payload that holds it (util_sys_fast()'s id) */
static inline int64_t num_at(const struct numfield *f, const uint8_t *raw)
{
	return (int64_t)tp_read_num(raw + f->off, f->size, f->sign, f->swap);
}

/* as prism_tp_field__u64() reads it: 0 when absent or outside the payload */
static inline int64_t num(const struct numfield *f, const uint8_t *raw, size_t raw_size)
{
	if (!f->size || f->off + f->size > raw_size)
		return 0;
	return num_at(f, raw);
}

static void str(const struct prism_tp_field *f, const struct prism_sample_basic *s, const char **p,
		size_t *len)
{
	*p = NULL;
	*len = 0;
	if (f && prism_tp_field__str(f, s->raw_data, s->raw_size, p, len)) {
		*p = NULL;
		*len = 0;
	}
}

/* the string fields of a payload, and what each kind makes of them */
static void decode_strings(const struct evinfo *ei, const struct prism_sample_basic *s,
			   struct prism_util_event *ev)
{
	str(ei->f[3], s, &ev->comm, &ev->comm_len);
	str(ei->f[4], s, &ev->comm2, &ev->comm2_len);
	if (ei->kind == K_IRQ_ENTRY) {
		ev->name = ev->comm2;
		ev->name_len = ev->comm2_len;
		ev->comm2 = NULL;
		ev->comm2_len = 0;
	} else if (ei->kind == K_EXEC) {
		/* the new comm is the file's basename, as the kernel sets it */
		const char *p = ev->comm2, *slash = NULL;
		size_t i;

		for (i = 0; p && i < ev->comm2_len; i++)
			if (p[i] == '/')
				slash = p + i;
		if (slash) {
			ev->comm = slash + 1;
			ev->comm_len = ev->comm2_len - (size_t)(slash + 1 - p);
		} else {
			ev->comm = p;
			ev->comm_len = ev->comm2_len;
		}
		ev->comm2 = NULL;
		ev->comm2_len = 0;
	}
}

/* room for the event of index @idx (pipe mode: events are announced along the data) */
static int grow_ev(struct source *src, int idx)
{
	size_t n = (size_t)idx + 1;
	struct evinfo *nev = prism_reallocarray(src->ev, n, sizeof(*nev));

	if (!nev)
		return -ENOMEM;
	memset(nev + src->nr_ev, 0, (n - src->nr_ev) * sizeof(*nev));
	src->ev = nev;
	src->nr_ev = n;
	return 0;
}

/* any sample of a resolved event, as a struct prism_util_event */
static __attribute__((noinline)) int on_sample_event(struct source *src, const struct evinfo *ei,
						     const struct prism_sample_basic *b,
						     uint32_t cpu)
{
	struct prism_util_event ev;
	int err;

	ev.time = b->time;
	ev.cpu = cpu;
	ev.pid = b->pid;
	ev.tid = b->tid;
	ev.comm = ev.comm2 = ev.name = NULL;
	ev.comm_len = ev.comm2_len = ev.name_len = 0;
	if (likely(b->raw_data)) {
		ev.type = ei->type;
		ev.a = num(&ei->num[0], b->raw_data, b->raw_size);
		ev.b = num(&ei->num[1], b->raw_data, b->raw_size);
		ev.c = num(&ei->num[2], b->raw_data, b->raw_size);
		if (unlikely(ei->strings))
			decode_strings(ei, b, &ev);
		if (ei->id32)
			ev.a = (int32_t)ev.a;
		else if (unlikely(ei->kind == K_WAKING))
			ev.b = 1; /* tells sched_waking from sched_wakeup for duplicates */
	} else {
		ev.type = PRISM_UTIL_EV_OTHER;
		ev.a = ev.b = ev.c = 0;
	}
	err = prism_util__event(src->u, &ev);
	return err < 0 ? err : 0;
}

/* names and pids of tasks the tracepoints did not tell */
static void fill_names(struct source *src)
{
	struct prism_util *u = src->u;
	size_t i;

	for (i = 0; i < u->nr_tasks; i++) {
		struct task *t = u->tasks[i];
		const char *comm;
		int64_t pid;

		if (!t->pid_known) {
			pid = prism_tasks__pid(src->tasks, t->tid);
			if (pid >= 0) {
				t->pid = (uint32_t)pid;
				t->pid_known = true;
			}
		}
		if (!t->comm[0]) {
			comm = prism_tasks__comm(src->tasks, t->tid);
			if (!comm && src->tp)
				comm = prism_tp__comm(src->tp, (int)t->tid);
			if (comm) {
				size_t n = strnlen(comm, sizeof(t->comm) - 1);

				memcpy(t->comm, comm, n);
				t->comm[n] = '\0';
			}
		}
	}
}

/* opts.on_interval when the event at @time ends the current interval */
static int interval_edge(struct source *src, uint64_t time)
{
	struct prism_util *u = src->u;
	uint64_t len = u->opts.interval_ns ? u->opts.interval_ns : 1000000000u;
	int ret;

	if (!src->next_interval) {
		src->next_interval = time + len;
		return 0;
	}
	if (time < src->next_interval)
		return 0;
	while (src->next_interval <= time)
		src->next_interval += len;
	fill_names(src);
	ret = u->opts.on_interval(u->opts.interval_ctx, u, time);
	return ret;
}

static int on_sample(void *ctx, const struct prism_sample_basic *b)
{
	struct source *src = ctx;
	struct evinfo *ei;
	uint32_t cpu;
	int idx, err;

	if (unlikely(b->time < src->time_lo || b->time > src->time_hi))
		return 0;
	if (unlikely(src->u->obs.sample || src->u->obs_err)) {
		err = src->u->obs_err;
		if (!err && src->u->obs.sample)
			err = src->u->obs.sample(src->u->obs.ctx, b);
		if (err)
			return err;
	}
	if (unlikely(src->u->opts.on_interval)) {
		err = interval_edge(src, b->time);
		if (err)
			return err;
	}
	idx = b->evsel->idx;
	if (idx < 0)
		return 0;
	if (unlikely((size_t)idx >= src->nr_ev) && grow_ev(src, idx))
		return -ENOMEM;
	ei = &src->ev[idx];
	if (unlikely(ei->kind == K_UNRESOLVED)) {
		resolve(src, b->evsel, ei);
		if (ei->kind == K_UNRESOLVED)
			return 0;
	}
	cpu = ei->has_cpu ? b->cpu : 0;
	/* the commonest samples, syscalls of the running task: no event to build */
	if (likely(b->raw_size >= ei->sys_need)) {
		int64_t a = num_at(&ei->num[0], b->raw_data);

		if (ei->id32)
			a = (int32_t)a;
		err = util_sys_fast(src->u, ei->type, b->time, cpu, b->pid, b->tid, a, 0, 0);
		if (likely(err != UTIL_FAST_NO))
			return err < 0 ? err : 0;
	}
	return on_sample_event(src, ei, b, cpu);
}

static int on_lost(void *ctx, const struct prism_event *e)
{
	struct source *src = ctx;
	struct prism_util_event ev = { .type = e->type == PERF_RECORD_LOST ?
						       PRISM_UTIL_EV_LOST :
						       PRISM_UTIL_EV_LOST_SAMPLES,
				       .a = (int64_t)e->lost.lost };

	return prism_util__event(src->u, &ev);
}

static int on_task(void *ctx, const struct prism_event *e)
{
	struct source *src = ctx;

	if (e->type == PERF_RECORD_COMM && e->comm.exec) {
		struct prism_util_event ev = { .type = PRISM_UTIL_EV_COMM,
					       .a = e->comm.tid,
					       .comm = e->comm.comm,
					       .comm_len = strlen(e->comm.comm) };

		prism_util__event(src->u, &ev);
	}
	if (src->u->obs.record) {
		int err = src->u->obs.record(src->u->obs.ctx, e);

		if (err)
			return err;
	}
	return prism_tasks__event(src->tasks, e) < 0 ? -ENOMEM : 0;
}

/* records only an observer wants (maps, BPF symbols) */
static int on_observed(void *ctx, const struct prism_event *e)
{
	struct source *src = ctx;

	if (e->type != PERF_RECORD_MMAP && e->type != PERF_RECORD_MMAP2 &&
	    e->type != PERF_RECORD_KSYMBOL)
		return 0;
	return src->u->obs.record(src->u->obs.ctx, e);
}

/* a switch or exit record about the task of its sample_id (prism_util_event's SWITCH_IN ...) */
static int record_event(struct source *src, const struct prism_event *e,
			enum prism_util_ev_type type, int64_t a)
{
	const struct prism_sample *sm = &e->sample;
	struct prism_util_event ev = { .type = type, .a = a };

	if (!(sm->type & PERF_SAMPLE_TIME) || !(sm->type & PERF_SAMPLE_TID))
		return 0; /* no time or task to place it */
	if (sm->time < src->time_lo || sm->time > src->time_hi)
		return 0;
	ev.time = sm->time;
	ev.cpu = sm->type & PERF_SAMPLE_CPU ? sm->cpu : 0;
	ev.pid = sm->pid;
	ev.tid = sm->tid;
	return prism_util__event(src->u, &ev);
}

static int on_switch(void *ctx, const struct prism_event *e)
{
	if (!e->sw.out)
		return record_event(ctx, e, PRISM_UTIL_EV_SWITCH_IN, 0);
	return record_event(ctx, e, PRISM_UTIL_EV_SWITCH_OUT, e->sw.preempt);
}

static int on_exit_record(void *ctx, const struct prism_event *e)
{
	int err = on_task(ctx, e);

	/* the exiting task's own record, where its counters stop */
	if (!err && e->fork.tid == e->sample.tid)
		err = record_event(ctx, e, PRISM_UTIL_EV_TASK_END, 0);
	return err;
}

/* the tracepoints a complete report needs, by what they give */
static void note_missing(struct source *src)
{
	static const struct {
		int k1, k2;
		const char *what;
	} need[] = {
		{ K_SWITCH, K_SWITCH, "sched:sched_switch" },
		{ K_SYS_ENTER, K_SYS_ENTER, "raw_syscalls:sys_enter" },
		{ K_SYS_EXIT, K_SYS_EXIT, "raw_syscalls:sys_exit" },
		{ K_IRQ_ENTRY, K_IRQ_EXIT, "irq:irq_handler_entry/exit" },
		{ K_SOFTIRQ_ENTRY, K_SOFTIRQ_EXIT, "irq:softirq_entry/exit" },
		{ K_WAKEUP, K_WAKING, "sched:sched_waking" },
		{ K_MIGRATE, K_MIGRATE, "sched:sched_migrate_task" },
		{ K_FORK, K_FORK, "sched:sched_process_fork" },
		{ K_EXEC, K_EXEC, "sched:sched_process_exec" },
		{ K_EXIT, K_EXIT, "sched:sched_process_exit" },
	};
	char buf[512];
	size_t i, j, n = 0;

	buf[0] = '\0';
	for (i = 0; i < PRISM_ARRAY_SIZE(need); i++) {
		bool have = false;

		for (j = 0; j < src->nr_ev; j++)
			if (src->ev[j].kind == need[i].k1 || src->ev[j].kind == need[i].k2)
				have = true;
		if (!have && n < sizeof(buf))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? " " : "",
					      need[i].what);
	}
	prism_util__set_missing(src->u, buf);
}

static void set_file_arch(struct prism_util *u, struct prism_session *s)
{
	const struct prism_features *f = prism_session__features(s);
	const char *arch = f ? prism_features__str(f, PRISM_FEAT_ARCH) : NULL;
	const struct prism_feat_nrcpus *n = f ? prism_features__nrcpus(f) : NULL;
	struct utsname un;

	if (n && n->nr_cpus_online <= UTIL_MAX_CPU)
		u->nr_cpus_file = n->nr_cpus_online;
	else if (n)
		pr_warn("util: the file says %u CPUs were online; the per-CPU summary has the CPUs seen in its events",
			n->nr_cpus_online);
	if (u->arch)
		return; /* chosen by the options (--arch) */
	if (!arch || !*arch) {
		/* no HEADER_ARCH: the file was most likely recorded here */
		if (uname(&un))
			return;
		arch = un.machine;
	}
	if (prism_util__set_arch(u, arch))
		pr_warn("util: no syscall table for architecture '%s'; syscalls are shown by number",
			arch);
}

int prism_util__process(struct prism_util *u, struct prism_session *s)
{
	struct source src = {
		.u = u,
		.s = s,
		.time_lo = u->opts.time_start,
		.time_hi = u->opts.time_end ? u->opts.time_end : UINT64_MAX,
	};
	struct prism_tool tool = {
		.sample_basic = on_sample,
		.lost = on_lost,
		.comm = on_task,
		.fork = on_task,
		.exit = on_exit_record,
		.switch_ = on_switch,
	};
	size_t i;
	int err;

	if (u->obs.record) {
		tool.mmap = on_observed;
		tool.other = on_observed;
	}
	src.nr_ev = prism_session__nr_evsels(s);
	src.ev = calloc(src.nr_ev ? src.nr_ev : 1, sizeof(*src.ev));
	src.tasks = prism_tasks__new();
	if (!src.ev || !src.tasks) {
		free(src.ev);
		prism_tasks__free(src.tasks);
		return -ENOMEM;
	}
	set_file_arch(u, s);
	src.tp = prism_session__tp(s);
	for (i = 0; i < src.nr_ev; i++) {
		struct prism_evsel *evsel = prism_session__evsel(s, i);

		resolve(&src, evsel, &src.ev[i]);
		/* switch records from the start: the tracepoints then never move tasks */
		if (prism_evsel__attr(evsel)->context_switch)
			u->sw_records = true;
		if (src.ev[i].kind == K_RUNTIME)
			prism_util__use_runtime(u);
	}
	note_missing(&src);
	err = prism_session__process(s, &tool, &src);
	/* pipe mode: the formats and events arrived with the data */
	if (src.nr_ev < prism_session__nr_evsels(s)) {
		size_t n = prism_session__nr_evsels(s);
		struct evinfo *nev = prism_reallocarray(src.ev, n, sizeof(*nev));

		if (nev) {
			memset(nev + src.nr_ev, 0, (n - src.nr_ev) * sizeof(*nev));
			src.ev = nev;
			src.nr_ev = n;
		}
	}
	for (i = 0; i < src.nr_ev; i++)
		if (src.ev[i].kind == K_UNRESOLVED)
			resolve(&src, prism_session__evsel(s, i), &src.ev[i]);
	note_missing(&src);
	if (!err && u->obs_err)
		err = u->obs_err;
	u->an.out_of_order = prism_session__stats(s)->nr_out_of_order;
	prism_util__finish(u);
	fill_names(&src);
	free(src.ev);
	prism_tasks__free(src.tasks);
	return err < 0 ? err : 0;
}
