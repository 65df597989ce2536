// SPDX-License-Identifier: MIT
/*
 * Intel PT blocks walked many at once by prism's walk (walk.c), where they
 * only count: no sample due, only short TNTs read, no event waiting.
 */
#include <string.h>

#include "decode.h"
#include "internal.h"
#include "walk.h"

/*
 * branches sampled through perf's call/return filter (c, r: the call
 * traces), which drops the conditional and direct jumps: those only count
 */
static bool jumps_dropped(const struct prism_itrace *o)
{
	return o->branches && (o->calls || o->returns);
}

/*
 * a branch pending (decode.c's on_insn) whose sample the filter drops and
 * the stacks do not see: a conditional or plain jump
 */
static bool pend_dropped(const struct queue *q)
{
	return jumps_dropped(&q->d->o.itrace) && !q->pend_insn &&
	       !(q->pend_flags & ~(PRISM_PT_FL_BRANCH | PRISM_PT_FL_CONDITIONAL));
}

/* whether the queue's blocks may be walked many at once: nothing but counting on them */
static bool batch_fits(const struct queue *q)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	const struct pt_walk *w = q->walk;

	return w && q->synced && !q->status && !q->n && !q->hold && (!q->pend || pend_dropped(q)) &&
	       !q->ev.n && !q->ev.after_fup && !w->speculative && !w->pend && !w->process_event &&
	       w->enabled && (!o->branches || jumps_dropped(o)) && !o->last_branch && !q->d->o.ipc;
}

/* the run's block, walked with trace, left for the queue to take (pt_walk_next) */
static void batch_pend(struct queue *q, const struct run *r, uint64_t ip, int st)
{
	struct pt_walk *w = q->walk;
	struct pt_block *b = &w->pend_blk;

	memset(b, 0, sizeof(*b));
	b->ip = ip;
	b->mode = w->mode;
	b->ninsn = r->n;
	b->end_ip = r->end_ip;
	b->iclass = (enum pt_insn_class)r->iclass;
	w->pend = true;
	w->pend_st = st < 0 ? st : pt_walk_trailing(w);
}

/*
 * Walk blocks while they only count: no sample due in them, the trace
 * they read only TNTs (pt_time_quiet), no event; the counts as
 * decode-block.c's would be.  A block whose trace reads more is left to
 * the queue (pt_walk_next gives it).  Return: whether any was walked.
 */
/*
 * how many instructions the walk may count before one is sampled: in
 * instructions (@ticks false), in ticks (@ticks) where the period's walks
 * are steady (perf's next period after the last sample, no walk under
 * way); 0: ask each block (pt_ticks_room)
 */
static __wraps uint64_t batch_room(struct queue *q, bool *ticks)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	uint64_t period = q->d->period_ticks;

	*ticks = false;
	if (!o->instructions)
		return UINT64_MAX;
	if (!period)
		return o->period;
	*ticks = true;
	if (q->in_walk || !q->continuous ||
	    ((q->tsc + q->tsc_insns) & ~(period - 1)) != q->last_masked)
		return 0;
	return q->last_masked + period - q->tsc;
}

/* the TNT bits of the short TNT @b (0: not one) */
static unsigned int tnt_bits(uint8_t b)
{
	return b && !(b & 1) && b != 0x02 ? (unsigned int)(30 - __builtin_clz(b)) : 0;
}

bool pt_walk_batch(struct queue *q)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	const uint8_t *t = q->map ? q->map : q->buf;
	struct pt_walk *w = q->walk;
	uint64_t quiet, off = 0, next_off, units = 0, unit_insns = 0, walked = 0, room, left_n;
	uint64_t ti = q->tsc_insns, ic = q->insn_count, sn = q->stall_n, so = q->stall_off;
	uint64_t ip = w->ip;
	uint32_t flags = 0; /* the last block's branch's, at last_ip */
	uint64_t last_ip = 0;
	bool ticks, priv = q->pkt != NULL, kernel = q->in_kernel;
	bool stacks = o->callchain || o->thread_stack, count = o->instructions;
	struct pt_stack *stk = NULL;
	struct run *r, *prev;
	int32_t pid = q->pid;
	uint8_t mode = (uint8_t)w->mode;
	int st, taken = 0, left = -1; /* left: bits in libipt's TNT cache (-1: not known) */

	if (!batch_fits(q))
		return false;
	q->pend = false; /* (a jump the filter drops: nothing to resolve) */
	quiet = pt_time_quiet(q);
	room = batch_room(q, &ticks);
	/* the instructions before one is sampled (0: ask pt_ticks_room each block) */
	left_n = room ? room - (ticks ? ti : ic) : 0;
	pt_qry_get_offset(w->qry, &off);
	for (prev = NULL;; prev = r) {
		/* (the time's estimate on a way from the kernel: pt_time_at) */
		if (priv && (ip >> 63) != kernel)
			break;
		/* the run after the last, where it was the same before: no lookup */
		r = prev ? prev->next[taken] : NULL;
		if (!r || r->ip != ip || r->pid != pid || r->mode != mode) {
			if (pt_walk_run_at(q, ip, w->mode, &r) < 0)
				break;
			if (prev)
				prev->next[taken] = r;
		}
		if (r->kind == K_OTHER || sn + r->n > MAX_LOOPS ||
		    (stacks && r->kind == K_INDIRECT && r->iclass != ptic_jump) ||
		    (o->branches && r->kind != K_COND && r->kind != K_JUMP)) /* (sampled) */
			break;
		if (left_n) {
			if (r->n >= left_n)
				break;
		} else if (!room) {
			q->tsc_insns = ti;
			if (r->n >= pt_ticks_room(q))
				break;
		} else {
			break;
		}
		taken = 0;
		switch (r->kind) {
		case K_CALL:
			pt_walk_run_calls(w, r);
			/* fallthrough */
		case K_JUMP:
			ip = r->target;
			break;
		default:
			if (r->kind == K_COND) {
				st = pt_qry_cond_branch(w->qry, &taken);
				if (st >= 0) {
					ip = taken ? r->target : r->end_ip + r->size;
					w->status = st;
				}
			} else {
				w->ip = r->end_ip; /* as proceed_run leaves it */
				pt_walk_run_calls(w, r);
				st = pt_walk_with_trace(w, r);
				ip = w->ip;
			}
			if (st < 0) {
				w->ip = r->end_ip;
				batch_pend(q, r, r->ip, st);
				goto out;
			}
			/*
			 * libipt reads the trace when its TNT is used up: to the
			 * TNT after the one it takes (at the last offset)
			 */
			if (left > 0 && r->kind != K_INDIRECT && r->kind != K_ICALL) {
				left--;
				next_off = off;
			} else {
				pt_qry_get_offset(w->qry, &next_off);
				left = next_off != off && off < q->len ? (int)tnt_bits(t[off]) - 1 :
									 -1;
			}
			/* it read more than TNTs, an event follows: taken the usual way */
			if (next_off > quiet || w->status) {
				w->ip = ip;
				batch_pend(q, r, r->ip, 0);
				goto out;
			}
			off = next_off;
			units++;
			unit_insns = ti + r->n;
			break;
		}
		/* the call stacks: a call pushes, a return pops (decode.c's branch) */
		if (stacks && r->kind != K_COND) {
			if (!stk) { /* (a branch the stacks see: from this trace) */
				stk = pt_stacks_get(&q->d->stacks, q->pid, q->tid, q->cpu);
				if (stk)
					pt_stack_trace(stk, (size_t)(q - q->d->qs) + 1);
			}
			if (stk && r->kind == K_RET)
				pt_stack_return(stk, r->end_ip, ip);
			else if (stk && (r->kind == K_CALL || r->kind == K_ICALL))
				pt_stack_call(stk, r->end_ip, ip, r->size);
		}
		/* counted as decode-block.c's run and plain (or tick) last instruction */
		walked++;
		flags = r->flags;
		last_ip = r->end_ip;
		ti += r->n;
		if (count)
			ic += r->n;
		if (left_n) {
			left_n -= r->n;
		} else if (ticks) { /* the walk ends at the branch; perhaps steady now */
			q->in_walk = false;
			q->tsc_insns = ti;
			room = batch_room(q, &ticks);
			left_n = room ? room - ti : 0;
		}
		if (off != so) {
			so = off;
			sn = 0;
		} else {
			sn += r->n;
		}
	}
	w->ip = ip;
out:
	q->tsc_insns = ti;
	if (walked) {
		q->insn_count = ic;
		q->stall_n = sn;
		q->stall_off = so;
		q->last_insn = NULL;
		q->pend_flags = flags;
		q->flags_lazy = flags != 0; /* its bytes read if an event wants them */
		q->flags_ip = last_ip;
		q->flags_mode = w->mode;
		q->d->st.blocks += walked;
		pt_time_units(q, off, units, unit_insns);
		pt_release(q, so);
	}
	return walked;
}
