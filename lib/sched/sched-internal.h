/* SPDX-License-Identifier: MIT */
/*
 * perf sched's analyses: the state shared by the files of lib/sched.
 */
#ifndef PRISM_SCHED_INTERNAL_H
#define PRISM_SCHED_INTERNAL_H

#include <prism/sched.h>

#include "internal.h"

/* Welford running statistics, as perf's struct stats */
struct run_stats {
	double n, mean, M2;
	uint64_t min, max;
};

/* perf's per-thread run time data (timehist) */
struct thread_runtime {
	uint64_t last_time, dt_run, dt_sleep, dt_iowait, dt_preempt, dt_delay, ready_to_run;
	struct run_stats stats;
	uint64_t total_run, total_sleep, total_iowait, total_preempt, total_delay;
	int64_t last_state;
	uint64_t migrations;
};

/* latency: one scheduling atom */
enum atom_state { ATOM_SLEEPING, ATOM_WAIT_CPU, ATOM_SCHED_IN, ATOM_IGNORE };

struct work_atom {
	enum atom_state state;
	uint64_t sched_out_time, wake_up_time, sched_in_time, runtime;
};

struct work_atoms {
	struct sched_thread *thread;
	struct work_atom last; /* perf keeps a list; only its tail is ever read */
	bool has_atom;
	uint64_t max_lat, max_lat_start, max_lat_end, total_lat, nb_atoms, total_runtime;
	int num_merged;
	uint64_t seq; /* creation order */
};

/*
 * A thread of perf's machine model.  A thread replaced by a FORK of the same
 * tid leaves the table ('removed') but lives on while timehist holds it.
 */
struct sched_thread {
	int32_t pid, tid, ppid;
	char *comm;
	bool comm_set, dead, removed, idle, comm_changed;
	bool has_rt; /* timehist touched it (perf keeps a reference: it stays listed) */
	uint64_t removed_seq;
	struct thread_runtime rt;
	struct work_atoms *atoms; /* latency */
	char shortname[3]; /* map */
	int color; /* map: -1 unknown, 0, 1 */
	struct sched_thread *hnext; /* hash chain */
};

struct threads {
	struct sched_thread **hash; /* current thread per tid */
	size_t cap, nr;
	struct sched_thread **all; /* every thread created, to free and to list */
	size_t nr_all, cap_all;
	uint64_t removed_seq;
};

int threads__init(struct threads *t);
void threads__release(struct threads *t);
/* perf's machine__findnew_thread(pid, tid); NULL on ENOMEM */
struct sched_thread *threads__findnew(struct threads *t, int32_t pid, int32_t tid);
/* machine__find_thread: NULL when unknown */
struct sched_thread *threads__find(struct threads *t, int32_t pid, int32_t tid);
/* a thread of no table (timehist's per-CPU idle task) */
struct sched_thread *threads__new_detached(struct threads *t, int32_t pid, int32_t tid,
					   const char *comm);
int threads__set_comm(struct sched_thread *th, const char *comm, size_t len);
/* COMM, FORK, EXIT records; 0 or -ENOMEM */
int threads__event(struct threads *t, const struct prism_event *ev);
/* perf's machine__for_each_thread() order, into a malloc()ed array */
int threads__sorted(struct threads *t, struct sched_thread ***out, size_t *nr);
void sched_task_of(const struct sched_thread *th, struct prism_sched_task *out);

/* decoded tracepoint samples */
enum sched_kind {
	SK_UNRESOLVED,
	SK_OTHER,
	SK_SWITCH,
	SK_WAKEUP,
	SK_WAKING,
	SK_WAKEUP_NEW,
	SK_MIGRATE,
	SK_RUNTIME,
	SK__NR,
};

struct sched_ev {
	enum sched_kind kind;
	uint64_t time;
	uint32_t cpu, pid, tid;
	/* switch */
	uint32_t prev_pid, next_pid;
	int64_t prev_state;
	char next_comm[32];
	/* wakeup/migrate/runtime: the 'pid' field */
	uint32_t tpid, orig_cpu, dest_cpu;
	uint64_t runtime;
	const struct prism_event *ev; /* the sample (NULL in unit tests) */
};

/* the fields decode() reads, looked up once per event */
enum sched_field {
	SF_PREV_PID,
	SF_NEXT_PID,
	SF_PREV_STATE,
	SF_NEXT_COMM,
	SF_ORIG_CPU,
	SF_DEST_CPU,
	SF_PID,
	SF_RUNTIME,
	SF__NR,
};

struct sched_evsel {
	enum sched_kind kind;
	const struct prism_tp_field *f[SF__NR]; /* NULL: the format lacks it */
};

struct prism_sched {
	struct prism_sched_opts o;
	struct prism_sched_ops ops;
	void *ctx;
	struct prism_session *session;
	struct threads threads;
	struct sched_evsel *kinds; /* per evsel index: its kind and fields */
	size_t nr_kinds;
	bool has_waking; /* the file records sched_waking: timehist ignores sched_wakeup */
	int err;
	/* timehist */
	uint32_t max_cpu;
	struct sched_thread **idle;
	uint32_t idle_max_cpu;
	struct sched_thread **idle_last; /* -I: the task that ran last on the CPU */
	uint64_t *last_switch; /* per CPU: time of the previous sched_switch */
	uint32_t nr_last;
	uint64_t skipped, hist_start, hist_end;
	/* latency and map */
	uint64_t *cpu_last_switched;
	uint32_t *curr_pid;
	struct sched_thread **curr_thread;
	uint32_t nr_cpu_slots;
	uint64_t nr_timestamps, nr_unordered, nr_cs_bugs;
	struct work_atoms **atoms;
	size_t nr_atoms, cap_atoms;
	char next1, next2;
	uint8_t *comp_mask;
	int32_t *comp_cpus;
	uint32_t nr_comp;
	/* map row buffers */
	int32_t *col_cpu;
	const char **col_name;
	bool *col_color;
};

int sched__cpu_slots(struct prism_sched *s, uint32_t cpu);
int timehist__init(struct prism_sched *s);
int timehist__switch(struct prism_sched *s, const struct sched_ev *e);
int timehist__wakeup(struct prism_sched *s, const struct sched_ev *e);
int timehist__migrate(struct prism_sched *s, const struct sched_ev *e);
void timehist__free(struct prism_sched *s);
int latency__switch(struct prism_sched *s, const struct sched_ev *e);
int latency__runtime(struct prism_sched *s, const struct sched_ev *e);
int latency__wakeup(struct prism_sched *s, const struct sched_ev *e);
int latency__migrate(struct prism_sched *s, const struct sched_ev *e);
void latency__free(struct prism_sched *s);
int map__switch(struct prism_sched *s, const struct sched_ev *e);
void map__free(struct prism_sched *s);
void run_stats__update(struct run_stats *st, uint64_t val);
bool sched_in_list(const int64_t *v, size_t n, int64_t x);

#endif /* PRISM_SCHED_INTERNAL_H */
