/* SPDX-License-Identifier: MIT */
/*
 * The state of the utilization analysis, shared by the lib/util files.
 *
 * One struct task per task image (exec closes an image and opens a new one
 * under the same tid), one struct cpu per CPU seen.  Time is charged to a
 * CPU (and to the task running there) whenever the CPU's state changes:
 * every interval of every CPU lands in exactly one bucket, so the per-CPU
 * rows sum to the trace length.  A task's off-CPU time is charged when it
 * is switched in again, or when the trace (or the task) ends.
 */
#ifndef PRISM_UTIL_INTERNAL_H
#define PRISM_UTIL_INTERNAL_H

#include <prism/util.h>

#include "internal.h"

#define NO_CPU UINT32_MAX
/* events of CPUs from here on are left out; a file claiming more is wrong */
#define UTIL_MAX_CPU 65536

enum task_mode {
	MODE_BUSY, /* running, user or kernel not known yet */
	MODE_USER,
	MODE_SYS,
	MODE_HV,
};

enum off_state {
	OFF_UNKNOWN, /* not seen leaving a CPU (trace start, inferred switch) */
	OFF_WAIT, /* runnable: preempted, or woken */
	OFF_SLEEP, /* sleeping or blocked */
};

/* bucket indices, in struct prism_util_times order */
enum bucket {
	B_USER,
	B_SYS,
	B_IRQ,
	B_SOFTIRQ,
	B_HV,
	B_BUSY,
	B_IDLE,
	B_WAIT,
	B_SLEEP,
	B_STEAL,
	B__NR
};

struct ucall {
	struct prism_util_call pub; /* name filled at report time */
};

/* open-addressing map of 64-bit keys to uint32 indices */
struct umap {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap, nr; /* cap: power of two, or 0 */
};

/* a call table: entries + index */
struct calltab {
	struct ucall *v;
	size_t nr, cap;
	/* key (kind << 40 | (id & 0xffffffffff)) -> index, of big tables only (see tables.c) */
	struct umap map;
	uint64_t last_key; /* the key looked up last, when nr */
	uint32_t last_idx;
};

struct task_cpu {
	uint32_t cpu;
	uint64_t t[B__NR];
};

struct task {
	uint32_t tid, pid;
	bool pid_known;
	int image; /* -1 current, else the image number once replaced */
	char comm[16];
	uint64_t start, end;
	bool dead, exiting;
	bool seen_off; /* seen leaving a CPU: it runs again only once switched in */
	/*
	 * With runtime events: its first runtime event since it was switched
	 * in at run_since may move the start back, no earlier than start_lo,
	 * over time the CPU was idle: a switch-in the trace lacks (inferred),
	 * or a switch record (the kernel counts a task's run from when it was
	 * picked, before the context switch; on this VM kind 20 us before the
	 * record).  Its off-CPU time was charged to the row of off_cpu.
	 */
	bool start_open;
	bool start_inferred;
	uint64_t start_lo;
	uint64_t moved; /* run time runtime events moved to it, or from it to the next task */
	uint32_t off_cpu;
	bool running;
	uint32_t cpu; /* where it runs or last ran; NO_CPU before the first event */
	uint8_t mode; /* enum task_mode */
	bool mode_known;
	uint8_t off; /* enum off_state while not running */
	uint64_t off_since; /* off CPU since */
	uint64_t wake; /* waking time while waiting to run, 0 = none */
	bool migrated; /* a sched_migrate_task already counted the move to ->cpu */

	/* the open syscall / hcall */
	bool in_sc, sc_pending_start, sc_inherited;
	int64_t sc_id;
	uint64_t sc_start;
	int32_t sc_idx; /* index in calls of the open syscall, -1 none */
	bool in_hc;
	int64_t hc_id;
	uint64_t hc_start;
	int32_t hc_idx;
	uint8_t hc_prev_mode;
	bool seen_sc; /* any syscall event seen (a first exit is then not "pending start") */
	bool seen_hc;
	bool replaced; /* an exec replaced this image */
	uint64_t idle_nocpu; /* off-CPU time of a task that never ran */
	uint64_t run_since; /* switched in (seen or inferred) at */
	/*
	 * While it runs: when the kernel's count of its run time last started
	 * (a switch-in seen, its last runtime event), 0 for unknown; the next
	 * runtime event counts the run time since (steal_gap())
	 */
	uint64_t rt_mark;
	uint64_t rt_irq; /* its CPU's irq + softirq time at the mark */
	bool rt_counted; /* rt_mark is a runtime event since its switch-in */
	/*
	 * The steal time its last runtime event found (steal_gap()), at
	 * steal_at: when that event was its last before a switch-out, part
	 * of it may be the next task's (see run_from())
	 */
	uint64_t steal_last, steal_at;
	uint64_t tail; /* run time after its last switch-in, when running at the end */
	uint64_t head; /* run time on CPUs before their first sched_switch */
	uint64_t orphan; /* run time closed by a switch sample without a tid */

	struct task_cpu *cpus;
	size_t nr_cpus, cap_cpus;
	uint32_t last_row; /* index in cpus of the row used last */
	uint64_t moves, wakeups, wakeup_total, wakeup_max, inferred, switch_ins;
	struct calltab calls;
};

/* an interrupt context open on a CPU */
struct ictx {
	uint8_t kind; /* PRISM_UTIL_IRQ or PRISM_UTIL_SOFTIRQ */
	int64_t id;
	uint64_t start;
	struct task *task; /* interrupted task, NULL for idle */
};

#define MAX_ICTX 8

/* last sample seen on a CPU, to spot duplicates */
struct lastsample {
	uint64_t time;
	uint32_t tid, type;
	int64_t a, b, c;
	bool valid;
};

struct cpu {
	bool seen;
	bool known; /* the occupant is known */
	struct task *cur; /* running task, NULL = idle */
	uint64_t last; /* time charged up to */
	uint64_t last_ev; /* time of the last event on this CPU */
	bool irq_seen; /* an irq/softirq event was seen here */
	bool switch_seen; /* a sched_switch was seen here */
	/* the occupant before the current one (NULL: idle), and its last bucket */
	struct task *pre;
	uint8_t pre_bucket;
	struct ictx ictx[MAX_ICTX];
	int nr_ictx;
	uint64_t t[B__NR];
	struct lastsample ls;
};

struct irqname {
	int64_t irq;
	char name[32];
};

struct prism_util {
	struct prism_util_opts opts;
	const char *arch; /* table name (static) or NULL */
	char arch_buf[32]; /* the file's arch string */
	bool started, finished;
	uint64_t start, end;
	uint64_t nr_events;

	struct cpu *cpus;
	size_t nr_cpus; /* allocated entries */
	uint32_t nr_cpus_file; /* from NRCPUS, 0 unknown */

	struct task **tasks; /* every image, in creation order */
	size_t nr_tasks, cap_tasks;
	struct umap tidmap; /* tid -> index of the current image */

	struct calltab idle_calls; /* interrupts taken while the CPU was idle */
	struct irqname *irqnames;
	size_t nr_irqnames, cap_irqnames;

	bool no_fast_path; /* every event through the general path: tests, and once finished */
	bool sw_records; /* switch records are the authority on who runs (see state.c) */
	bool runtime; /* sched_stat_runtime events come: inferred switch-ins wait for them */
	uint64_t end_at; /* prism_util__set_end() */
	struct prism_util_anomalies an;
	char *missing;
	struct prism_util_observer obs; /* prism_util__set_observer() */
	int obs_err; /* the first error an observer returned */

	/* report storage, rebuilt by prism_util__report() */
	void *rep;
	struct calltab pcalls; /* prism_util__process_calls()'s tables */
	void *iv; /* prism_util__interval()'s baselines and result */
};

/* umap */
int umap_put(struct umap *m, uint64_t key, uint32_t val);
/* index, or -1 */
int64_t umap_get(const struct umap *m, uint64_t key);
void umap_release(struct umap *m);
/* remove every key, keeping the memory */
void umap_clear(struct umap *m);

/* call tables */
static inline uint64_t call_key(enum prism_util_call_kind kind, int64_t id)
{
	return ((uint64_t)kind << 40) | ((uint64_t)id & 0xffffffffffULL);
}

struct ucall *calltab_get_slow(struct calltab *ct, enum prism_util_call_kind kind, int64_t id,
			       int32_t *idx);

/*
 * The entry of (@kind, @id), created on first use; *@idx gets its index
 * (stable, unlike the pointer, which moves when the table grows).  A task
 * mostly makes the same call again (a loop of one syscall): that entry is
 * found without a lookup.
 * Return: the entry, or NULL on ENOMEM.
 */
static inline struct ucall *calltab_get(struct calltab *ct, enum prism_util_call_kind kind,
					int64_t id, int32_t *idx)
{
	if (ct->nr && ct->last_key == call_key(kind, id)) {
		if (idx)
			*idx = (int32_t)ct->last_idx;
		return &ct->v[ct->last_idx];
	}
	return calltab_get_slow(ct, kind, id, idx);
}

/* give the room of calls never made back (tables done growing, for a report) */
void calltab_shrink(struct calltab *ct);
void calltab_release(struct calltab *ct);
/* hand a completed call to the observer (state.c) */
void util_observe_call(struct prism_util *u, enum prism_util_call_kind kind, int64_t id,
		       const struct task *t, uint32_t cpu, uint64_t start, uint64_t end);
static inline void call_observe(struct prism_util *u, enum prism_util_call_kind kind, int64_t id,
				const struct task *t, uint32_t cpu, uint64_t start, uint64_t end)
{
	if (__builtin_expect(u->obs.call != NULL, 0))
		util_observe_call(u, kind, id, t, cpu, start, end);
}

/* a call of @dt ns completed */
static inline void call_complete(struct ucall *c, uint64_t dt)
{
	struct prism_util_call *p = &c->pub;

	if (!p->count || dt < p->min)
		p->min = dt;
	if (dt > p->max)
		p->max = dt;
	p->count++;
	p->elapsed = sat_add(p->elapsed, dt); /* absurd clocks in a file must not wrap it */
}
/* add the numbers of call @s to @d (the same call of another task) */
void call_merge(struct prism_util_call *d, const struct prism_util_call *s);
/* empty @ct, keeping its memory */
void calltab_clear(struct calltab *ct);

/* calls of a task (calls.c), in its context at @now; 0 or -ENOMEM */
int util_sys_enter(struct prism_util *u, struct task *t, uint64_t now, int64_t id);
/* @cpu_first: the first event of its CPU (the call may have begun untraced) */
int util_sys_exit(struct prism_util *u, struct task *t, uint64_t now, int64_t id, bool cpu_first);
int util_hcall_entry(struct prism_util *u, struct task *t, uint64_t now, int64_t id);
int util_hcall_exit(struct prism_util *u, struct task *t, uint64_t now, int64_t id);

/* interrupt contexts (irq.c) */
void util_irq_remember_name(struct prism_util *u, int64_t irq, const char *name, size_t len);
/* the call table of a context: the task's, or the idle CPU's (@t NULL) */
struct calltab *util_ctx_calls(struct prism_util *u, struct task *t);
/* an interrupt of @kind (PRISM_UTIL_IRQ or _SOFTIRQ) enters or leaves; 0 or -ENOMEM */
int util_irq_entry(struct prism_util *u, struct cpu *c, uint64_t now, uint8_t kind, int64_t id);
int util_irq_exit(struct prism_util *u, struct cpu *c, uint64_t now, uint8_t kind, int64_t id);

/* names used at report time */
const char *util_irq_name(const struct prism_util *u, int64_t irq);
int util_call_name(const struct prism_util *u, enum prism_util_call_kind kind, int64_t id,
		   char *buf, size_t len, const char **name);

void util_report_free(struct prism_util *u);
/* bucket times in struct prism_util_times order */
void util_times_from(struct prism_util_times *o, const uint64_t *t);
/* interval.c: the interval results' storage (prism_util__interval()) */
void util_interval_free(struct prism_util *u);

/* state.c */
struct task *util_find_task(struct prism_util *u, uint32_t tid);
/* runtime.c: a runtime event @ev, @t the task of its context (NULL: none) */
void util_runtime_event(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *t,
			const struct prism_util_event *ev);
/* runtime.c: @t, in bucket @b, just left @c for the idle task at @now */
void util_trail_to_idle(struct prism_util *u, struct cpu *c, uint32_t cpu, struct task *t,
			enum bucket b, uint64_t now);

#endif /* PRISM_UTIL_INTERNAL_H */
