/* SPDX-License-Identifier: MIT */
/*
 * prism's walk of Intel PT blocks (walk.c), its runs and state, shared
 * with the walk of many blocks at once (walk-batch.c)
 */
#ifndef PRISM_PT_WALK_H
#define PRISM_PT_WALK_H

#include "decode.h"

#define RUNS 8192
#define RETSTACK 64
#define MAX_RUN 0xffff

/* how a run's last instruction goes on */
enum run_kind {
	K_OTHER, /* no branch: the run was cut at MAX_RUN instructions */
	K_COND, /* conditional: a TNT bit */
	K_CALL, /* direct call: pushes its return address */
	K_JUMP, /* direct jump */
	K_RET, /* near return: compressed (a TNT bit) or a TIP */
	K_ICALL, /* indirect call: pushes, then a TIP */
	K_INDIRECT, /* indirect jump, far branch: a TIP */
};

/* a run's instructions that events bind to: a PIP's, a MOV CR3, a PTWRITE, a far branch */
enum { M_PIP = 1, M_CR3 = 2, M_PTW = 4, M_FAR = 8 };

/* a straight run of instructions from ip, the last of them a branch */
struct run {
	uint64_t ip, end_ip, target; /* target: of a direct branch */
	int32_t pid;
	uint32_t flags; /* perf's of the branch (pt_class_flags) */
	uint16_t n; /* instructions, the branch included */
	uint8_t mode, iclass, size, kind;
	uint8_t marks; /* what its instructions hold (M_*: events bind to them) */
	struct run *next[2]; /* the runs seen after it (not taken, taken), if still kept */
};

struct pt_walk {
	struct pt_query_decoder *qry;
	uint64_t ip;
	enum pt_exec_mode mode;
	int status; /* the last query's */
	bool enabled, process_event;
	struct pt_event ev;
	uint64_t ret[RETSTACK];
	unsigned int ret_top, ret_n;
	struct run *runs;
	/* a block walked by pt_walk_batch that the queue takes the usual way */
	bool pend;
	int pend_st;
	struct pt_block pend_blk;
	/*
	 * the instruction a PIP or PTWRITE bound to, the walk's ip at it: done
	 * once the event is (libipt's postponed instruction); its run's last if
	 * a far branch
	 */
	bool postponed, post_cr3; /* post_cr3: it is a MOV CR3 */
	struct run post;
	bool skd022; /* libipt's erratum: an async disable at VMLAUNCH/VMRESUME is a sync one */
	bool fup_nlip; /* Apollo Lake (CPUID 6,92): a FUP may hold the IP after an indirect branch */
	bool no_branch; /* the event without branch (BranchEn off): a FUP sets the IP, no walk to it */
	bool speculative; /* in a transaction (TSX) */
	uint64_t ovf_ip; /* at the last overflow, where the walk stood (0: tracing off) */
	struct queue *q;
	/*
	 * a resync landed at a FUP whose TIP follows (an interrupt's, a TSX
	 * abort's: libipt's asynchronous branch, pending in ev): perf takes
	 * the TIP as a plain one, for the next branch that needs trace
	 */
	bool tip_pend;
	bool unit_failed; /* the last query took a TNT bit for a branch that failed (a return) */
};

/* the run from @ip, decoded by the helper decoder (not kept where it cannot be decoded) */
int pt_walk_run_decode(struct queue *q, uint64_t ip, enum pt_exec_mode mode, struct run *r);

/* where the run from @ip is kept */
static inline struct run *pt_walk_run_slot(struct queue *q, uint64_t ip)
{
	return &q->walk->runs[(ip ^ (ip >> 11) ^ ((uint64_t)(uint32_t)q->pid << 5)) % RUNS];
}

/* the run from @ip, kept by address */
static inline int pt_walk_run_at(struct queue *q, uint64_t ip, enum pt_exec_mode mode,
				 struct run **out)
{
	struct run *r = pt_walk_run_slot(q, ip);

	*out = r;
	if (r->ip == ip && r->n && r->pid == q->pid && r->mode == (uint8_t)mode)
		return 0;
	return pt_walk_run_decode(q, ip, mode, r);
}

static inline void pt_walk_ret_push(struct pt_walk *w, uint64_t ip)
{
	w->ret_top = (w->ret_top + 1) % RETSTACK;
	w->ret[w->ret_top] = ip;
	if (w->ret_n < RETSTACK)
		w->ret_n++;
}

/* a call ending @r: its return address for compressed returns (not a call to the next) */
static inline void pt_walk_run_calls(struct pt_walk *w, const struct run *r)
{
	if (r->kind == K_ICALL || (r->kind == K_CALL && r->target != r->end_ip + r->size))
		pt_walk_ret_push(w, r->end_ip + r->size);
}

/* where an event with an IP binds: a MODE.Exec, a PIP of PSB+, a MODE.TSX, EXSTOP, MWAIT, PTWRITE */
uint64_t pt_walk_event_ip(const struct pt_event *ev);
/* the branch ending @r, with trace: the next ip */
int pt_walk_with_trace(struct pt_walk *w, const struct run *r);
/* after a block or an event: whether the next event is due now (libipt's trailing event) */
int pt_walk_trailing(struct pt_walk *w);

#endif /* PRISM_PT_WALK_H */
