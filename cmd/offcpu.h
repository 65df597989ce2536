/* SPDX-License-Identifier: MIT */
/*
 * State of prism offcpu, shared by its analysis (offcpu.c) and its output
 * (offcpu-print.c).
 */
#ifndef PRISM_CMD_OFFCPU_H
#define PRISM_CMD_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <prism/offcpu-data.h>
#include <prism/offcpu.h>
#include <prism/profile.h>
#include <prism/session.h>
#include <prism/symbol.h>
#include <prism/task.h>

enum method { M_NONE, M_BPF, M_BPF_PERF, M_SCHED };
enum { ST_S, ST_D, ST_OTHER, ST_NR };

/* the last context-switches sample's stack of a thread (sched method) */
struct tid_stack {
	uint32_t tid;
	bool used;
	size_t nr;
	struct prism_frame *frames;
};

/* frame-pointer check: per user DSO, samples whose stack ends in it early */
struct fp_dso {
	const char *name;
	uint64_t samples, broken; /* blocks */
	const char *comm; /* a command whose stack broke there */
};

/* frameless leaves: per DSO of a stack's leaf, stacks whose leaf's caller was skipped */
struct leaf_dso {
	const char *name;
	uint64_t stacks; /* samples whose user leaf is in it */
	uint64_t frameless, lost; /* ... whose leaf has no frame pointer; callers not recovered */
	const char *syms[4]; /* leaves that lost their caller */
	size_t nr_syms;
};

/* one long block (BPF method: at least --off-cpu-thresh) */
struct long_block {
	uint64_t start, ns;
	uint32_t pid, tid;
	int cls;
	bool open;
	const char *comm, *where; /* where: the innermost user function, or kernel one */
};

struct offcpu {
	const char *input;
	bool force;
	bool folded;
	const char *flamegraph;
	const char *title;
	bool with_cpu;
	const char *state;
	unsigned int limit;
	bool user_only;
	bool all_functions; /* the scheduler and syscall-entry kernel frames too */

	struct prism_session *s;
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_callchain cc;
	enum method method;
	struct prism_evsel *off_ev, *cs_ev;
	unsigned int state_mask; /* 1 << ST_*: states kept */
	bool lazy; /* pipe mode: the method is decided by the first off-CPU sample */

	struct prism_profile *all, *st[ST_NR], *on, *combined;
	uint64_t off_ns, on_ns, blocks, in_progress, long_blocks;
	uint64_t state_ns[ST_NR];
	uint64_t no_ustack;
	bool has_stats, unknown_state;
	struct prism_offcpu_stats stats;
	const char *on_name;
	uint64_t on_other; /* on-CPU samples of events whose period is not time */

	struct prism_offcpu_fallback *fb;
	struct tid_stack *tids;
	size_t tid_cap, nr_tid;
	uint64_t last_time;

	struct long_block *lb;
	size_t nr_lb, cap_lb;
	uint64_t first_time;

	struct fp_dso *fp;
	size_t nr_fp, cap_fp;
	struct leaf_dso *leaves;
	size_t nr_leaves, cap_leaves;
	struct prism_frame *scratch;
	size_t scratch_cap;
};

/* the pseudo-frames that root off-CPU and on-CPU stacks in the combined view */
extern const char marker_off[], marker_on[];

/* offcpu-fp.c: stacks cut short by missing frame pointers */
void fp_check(struct offcpu *o, const struct prism_frame *f, size_t nr, const char *comm,
	      uint64_t count);
void fp_report(struct offcpu *o);
/* a frameless leaf's missing callers into o->cc; 0 or -errno */
int recover_leaf(struct offcpu *o, const struct prism_sample *s,
		 const struct prism_offcpu_raw *raw);
void leaf_report(struct offcpu *o);

void offcpu_print_text(struct offcpu *o);
int offcpu_write_flamegraph(struct offcpu *o);

#endif /* PRISM_CMD_OFFCPU_H */
