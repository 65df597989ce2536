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

/* the offset after the PADs and MTCs from @off (none beyond @end) */
static uint64_t skip_timing(const uint8_t *t, uint64_t off, uint64_t end)
{
	while (off < end && (!t[off] || (t[off] == PT_MTC_BYTE && off + 2 <= end)))
		off += t[off] ? 2 : 1;
	return off;
}

/*
 * the bits left in libipt's TNT cache after a query that read the trace
 * from @off to @next_off and took one: those of the one short TNT it read,
 * among PADs and MTCs (-1: not known)
 */
static int cache_left(const struct queue *q, const uint8_t *t, uint64_t off, uint64_t next_off)
{
	unsigned int n;

	if (next_off > q->len)
		return -1;
	off = skip_timing(t, off, next_off);
	if (off == next_off || !(n = pt_short_tnt_bits(t[off])))
		return -1;
	return skip_timing(t, off + 1, next_off) == next_off ? (int)n - 1 : -1;
}

/* what the walk keeps for the queue, handed to it at once (flush) */
struct batch {
	uint64_t off; /* the trace libipt has read */
	uint64_t ti, ic; /* q's tsc_insns, insn_count at the last flush */
	/* q's stall_n is sn + n - sbase: instructions since the trace moved, at stall_off */
	uint64_t sn, sbase, so;
	uint64_t lim; /* n where the next sample is due (0 with room 0: pt_ticks_room each block) */
	bool count; /* instructions counted (insn_count) */
};

/* the counts since the last flush, in the walk's registers (never by address) */
struct counts {
	uint64_t n; /* instructions walked */
	uint64_t walked; /* blocks */
	uint64_t units, unit_n; /* the units taken; n after the last block that took one */
};

/* the n at which a block ends the walk or asks for more: a sample due, a stall (MAX_LOOPS) */
static uint64_t bound(const struct batch *b)
{
	uint64_t stall = b->sn > MAX_LOOPS ? 0 : b->sbase + MAX_LOOPS - b->sn + 1;

	return b->lim < stall ? b->lim : stall;
}

/*
 * the counts @c handed to the queue (then zero); @last: the last block
 * walked (its branch's flags).  Return: the blocks walked.
 */
static uint64_t flush(struct queue *q, struct batch *b, struct counts c, const struct run *last)
{
	uint64_t ti = b->ti;

	b->ti += c.n;
	if (b->count)
		b->ic += c.n;
	b->sn += c.n - b->sbase;
	b->sbase = 0;
	b->lim -= b->lim ? c.n : 0;
	q->tsc_insns = b->ti;
	if (!c.walked)
		return 0;
	q->insn_count = b->ic;
	q->stall_n = b->sn;
	q->stall_off = b->so;
	q->last_insn = NULL;
	q->pend_flags = last->flags;
	q->flags_lazy = last->flags != 0; /* its bytes read if an event wants them */
	q->flags_ip = last->end_ip;
	q->flags_mode = q->walk->mode;
	q->d->st.blocks += c.walked;
	pt_time_units(q, b->off, c.units, ti + c.unit_n);
	pt_release(q, b->so);
	return c.walked;
}

/* the counts after the queue's time moved (n 0): the limit before the next sample */
static void reload(struct queue *q, struct batch *b, uint64_t *room, bool *ticks)
{
	b->ti = q->tsc_insns;
	*room = batch_room(q, ticks);
	b->lim = *room ? *room - (*ticks ? b->ti : b->ic) : 0;
}

/* whether the run @r fits before the next sample, the stall (a block at bound(), @n walked) */
static bool fits_slow(struct queue *q, const struct run *r, uint64_t room, const struct batch *b,
		      uint64_t n)
{
	if (b->sn + n + r->n - b->sbase > MAX_LOOPS)
		return false;
	if (n + r->n < b->lim)
		return true;
	if (room)
		return false;
	q->tsc_insns = b->ti + n;
	return r->n < pt_ticks_room(q);
}

/* the kinds of runs the batch leaves to the queue (K_INDIRECT: see pt_walk_batch) */
static unsigned int stop_kinds(const struct prism_itrace *o, bool stacks)
{
	unsigned int m = 1u << K_OTHER;

	if (o->branches)
		m |= ~((1u << K_COND) | (1u << K_JUMP));
	if (stacks)
		m |= 1u << K_INDIRECT;
	return m;
}

bool pt_walk_batch(struct queue *q)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	const uint8_t *t = q->map ? q->map : q->buf;
	struct pt_walk *w = q->walk;
	struct batch b = { .ti = q->tsc_insns,
			   .ic = q->insn_count,
			   .sn = q->stall_n,
			   .so = q->stall_off,
			   .count = o->instructions };
	struct counts c = { 0 };
	uint64_t quiet, due, next_off, room, end, ip = w->ip, any = 0;
	bool ticks, priv = q->pkt != NULL, slow, restall;
	bool stacks = o->callchain || o->thread_stack;
	unsigned int stop = stop_kinds(o, stacks);
	struct pt_stack *stk = NULL;
	struct run *r, *prev, copy;
	int32_t pid = q->pid;
	uint8_t mode = (uint8_t)w->mode;
	int st, tk = 0, taken = 0, left = -1; /* left: bits in libipt's TNT cache (-1: not known) */

	if (!batch_fits(q))
		return false;
	q->pend = false; /* (a jump the filter drops: nothing to resolve) */
	/* (the time's estimate on a way from the kernel: pt_time_at) */
	if (priv && (ip >> 63) != q->in_kernel)
		return false;
	due = priv ? pt_time_due(q, false) : UINT64_MAX;
	if (!due)
		return false;
	due -= due == UINT64_MAX ? 0 : q->units_taken; /* (units of this batch) */
	quiet = pt_time_quiet(q);
	reload(q, &b, &room, &ticks);
	end = bound(&b);
	pt_qry_get_offset(w->qry, &b.off);
	/* the trace moved since the stall was counted: counted again after the first block */
	restall = b.off != b.so;
	/* (something to do after a block: restall, due units, ticks asked each block) */
	slow = restall || (!b.lim && ticks);
	for (prev = NULL;; prev = r) {
		/*
		 * the run after the last, where it was the same before: no
		 * lookup (runs linked were walked in one privilege: only a
		 * lookup checks it)
		 */
		r = prev ? prev->next[taken] : NULL;
		if (!r || r->ip != ip || r->pid != pid || r->mode != mode) {
			if (priv && (ip >> 63) != q->in_kernel)
				break;
			/* (the last block's run, about to be replaced: its flags are the queue's) */
			if (prev && pt_walk_run_slot(q, ip) == prev) {
				copy = *prev;
				prev = &copy;
			}
			if (pt_walk_run_at(q, ip, w->mode, &r) < 0)
				break;
			if (prev)
				prev->next[taken] = r;
		}
		/* (an indirect jump only counts where the stacks see it) */
		if ((stop & (1u << r->kind)) &&
		    (r->kind != K_INDIRECT || o->branches || r->iclass != ptic_jump))
			break;
		if (c.n + r->n >= end && !fits_slow(q, r, room, &b, c.n))
			break;
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
				st = pt_qry_cond_branch(w->qry, &tk);
				taken = tk; /* (a register for the next lookup) */
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
				if (w->status) {
					w->ip = ip;
					any |= flush(q, &b, c, prev);
					c = (struct counts){ 0 };
					batch_pend(q, r, r->ip, 0);
					goto out;
				}
			} else {
				pt_qry_get_offset(w->qry, &next_off);
				left = next_off != b.off ? cache_left(q, t, b.off, next_off) : -1;
				if (next_off > quiet || w->status) {
					/*
					 * it read more than TNTs: past MTCs (applied
					 * as the block's first instruction would),
					 * else an event follows: the block is taken
					 * the usual way
					 */
					any |= flush(q, &b, c, prev);
					c = (struct counts){ 0 };
					quiet = w->status ? 0 : pt_time_pass(q, b.off, next_off);
					due = quiet ? pt_time_due(q, true) : 0;
					b.ti = q->tsc_insns; /* (a packet applied may start it again) */
					if (due) {
						due -= due == UINT64_MAX ? 0 : q->units_taken;
						reload(q, &b, &room, &ticks);
						end = bound(&b);
						slow = restall || (!b.lim && ticks);
					}
					if (!due ||
					    (r->n >= end && !fits_slow(q, r, room, &b, 0))) {
						w->ip = ip;
						batch_pend(q, r, r->ip, 0);
						goto out;
					}
				}
				b.off = next_off;
				if (next_off !=
				    b.so) { /* (the trace moved: the stall starts again) */
					b.so = next_off;
					b.sn = 0;
					b.sbase = c.n + r->n;
					end = bound(&b);
				}
			}
			c.unit_n = c.n + r->n;
			if (++c.units >= due)
				slow = true;
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
		c.walked++;
		c.n += r->n;
		if (!slow)
			continue;
		if (restall && b.off != b.so) {
			b.so = b.off;
			b.sn = 0;
			b.sbase = c.n;
		}
		if (!b.lim && ticks) { /* the walk ends at the branch; perhaps steady now */
			q->in_walk = false;
			q->tsc_insns = b.ti + c.n;
			room = batch_room(q, &ticks);
			b.lim = room ? room - b.ti : 0;
		}
		/* packets read ahead due after this unit: applied before the next run, as the queue would */
		if (c.units >= due) {
			any |= flush(q, &b, c, r);
			c = (struct counts){ 0 };
			due = pt_time_due(q, true);
			b.ti = q->tsc_insns;
			if (!due) {
				w->ip = ip;
				goto out;
			}
			due -= due == UINT64_MAX ? 0 : q->units_taken;
			reload(q, &b, &room, &ticks);
		}
		restall = false;
		end = bound(&b);
		slow = !b.lim && ticks;
	}
	w->ip = ip;
out:
	return any | flush(q, &b, c, prev);
}
