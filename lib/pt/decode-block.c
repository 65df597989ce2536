// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding a block at a time: libipt's block decoder (with its
 * block cache over the image's sections), or prism's own walk of the same
 * blocks where the trace fits it (walk.c), walks runs of instructions up
 * to a branch in one call, where the instruction decoder stops at each one.
 * What the samples need of single instructions comes from a second,
 * instruction decoder fed a trace of its own (PSB, PSBEND, MODE.Exec,
 * TIP.PGE to the address): the instructions of a run need no trace, so it
 * decodes the N-th one from the run's start; the instructions that end
 * blocks (their size, bytes and class) are remembered by address.
 *
 * The queue goes through the same steps as with the instruction decoder
 * (decode.c's queue_step): each instruction of a block is counted as one
 * (periods in instructions and ticks, the loop guard), the instructions
 * before a block's last see the time and trace position from before the
 * block's query, the last one those after it; so the samples are the same.
 * Used for every --itrace, also for short periods and the last branches
 * (l): after an error a walk goes on from the next IP, as perf's decoder
 * (walk-resync.c); with the call stacks (call chains, call traces) the
 * blocks end at calls, with branches, periods in ticks, events or the last
 * branches at every branch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

#define BR_CACHE 4096

/* an instruction that ended a block */
struct br_insn {
	uint64_t ip;
	int32_t pid;
	enum pt_exec_mode mode;
	enum pt_insn_class iclass;
	uint8_t size, raw[15];
};

int pt_dec_offset(struct queue *q, uint64_t *off)
{
	if (q->walk)
		return pt_walk_offset(q, off);
	return q->blk ? pt_blk_get_offset(q->blk, off) : pt_insn_get_offset(q->dec, off);
}

int pt_dec_sync_offset(struct queue *q, uint64_t *off)
{
	if (q->walk)
		return pt_walk_sync_offset(q, off);
	return q->blk ? pt_blk_get_sync_offset(q->blk, off) : pt_insn_get_sync_offset(q->dec, off);
}

/* the blocks from prism's walk (walk.c) or from libipt's block decoder */
static int blk_next(struct queue *q, struct pt_block *blk)
{
	return q->walk ? pt_walk_next(q, blk) : pt_blk_next(q->blk, blk, sizeof(*blk));
}

static int blk_event(struct queue *q, struct pt_event *ev)
{
	return q->walk ? pt_walk_event(q, ev) : pt_blk_event(q->blk, ev, sizeof(*ev));
}

int pt_block_start(struct queue *q, const struct pt_config *cfg)
{
	struct pt_config c = *cfg;

	/*
	 * a block to each branch where branches are sampled, walks in ticks
	 * end at them, events take their flags, a sampled branch its target
	 * (insn_to) or IPC its state; to each call where the call stacks see them; else
	 * on through direct calls and jumps
	 */
	if (q->d->o.itrace.callchain || q->d->o.itrace.thread_stack)
		c.flags.variant.block.end_on_call = 1;
	if (q->d->o.itrace.branches || q->d->period_ticks || pt_events_scan(q->d) ||
	    q->d->o.insn_to || q->d->o.ipc || q->d->o.itrace.last_branch) {
		c.flags.variant.block.end_on_call = 1;
		c.flags.variant.block.end_on_jump = 1;
	}
	/* (TSX where libipt has no erratum for it: BDM64) */
	if (pt_walk_fits(q->d, c.begin, (size_t)(c.end - c.begin), q->map != NULL,
			 !c.errata.bdm64)) {
		int err = pt_walk_start(q, &c);

		if (err)
			return err;
		q->d->st.walked++;
	} else {
		q->blk = pt_blk_alloc_decoder(&c);
		if (!q->blk)
			return -ENOMEM;
		pt_blk_set_image(q->blk, q->img);
	}
	pt_config_init(&c);
	c.begin = q->ild_trace;
	c.end = q->ild_trace + sizeof(q->ild_trace);
	q->ild = pt_insn_alloc_decoder(&c);
	if (!q->ild)
		return -ENOMEM;
	pt_insn_set_image(q->ild, q->img);
	if (!q->d->brc) {
		q->d->brc = calloc(BR_CACHE, sizeof(*q->d->brc));
		if (!q->d->brc)
			return -ENOMEM;
	}
	return 0;
}

void pt_block_free(struct queue *q)
{
	pt_blk_free_decoder(q->blk);
	pt_walk_free(q);
	pt_insn_free_decoder(q->ild);
}

/*
 * the helper decoder at @ip (in @mode): ready to return its instruction;
 * @taken: a taken TNT bit follows (a conditional branch's target next)
 */
int pt_ild_at(struct queue *q, uint64_t ip, enum pt_exec_mode mode, bool taken)
{
	uint8_t *p = q->ild_trace;
	struct pt_event ev;
	int st, i;

	memset(p, 0, sizeof(q->ild_trace));
	for (i = 0; i < 8; i++) { /* PSB */
		*p++ = 0x02;
		*p++ = 0x82;
	}
	*p++ = 0x02; /* PSBEND */
	*p++ = 0x23;
	*p++ = 0x99; /* MODE.Exec: CS.L for 64-bit, CS.D for 32-bit */
	*p++ = mode == ptem_64bit ? 0x01 : mode == ptem_32bit ? 0x02 : 0x00;
	*p++ = 0xd1; /* TIP.PGE, the whole IP */
	for (i = 0; i < 8; i++)
		*p++ = (uint8_t)(ip >> (8 * i));
	if (taken)
		*p++ = 0x06; /* TNT: one bit, taken */
	pt_image_follow_pid(q);
	st = pt_insn_sync_set(q->ild, 0);
	while (st >= 0 && (st & pts_event_pending))
		st = pt_insn_event(q->ild, &ev, sizeof(ev));
	return st < 0 && st != -pte_eos ? st : 0;
}

/* the @n-th instruction (0: the first) of the run from @ip */
int pt_ild_nth(struct queue *q, uint64_t ip, enum pt_exec_mode mode, uint32_t n,
	       struct pt_insn *insn)
{
	int st = pt_ild_at(q, ip, mode, false);
	uint32_t i;

	for (i = 0; st >= 0 && i <= n; i++) {
		memset(insn, 0, sizeof(*insn));
		st = pt_insn_next(q->ild, insn, sizeof(*insn));
		if (st < 0 && i == n && insn->size) /* it needs trace: it is decoded all the same */
			st = 0;
	}
	return st < 0 ? st : insn->size ? 0 : -pte_bad_insn;
}

/* the instruction at @ip that ended a block, remembered */
static const struct br_insn *br_insn(struct queue *q, uint64_t ip, enum pt_exec_mode mode)
{
	struct br_insn *b = &q->d->brc[(ip ^ (ip >> 13) ^ (uint64_t)q->pid * 31) % BR_CACHE];
	struct pt_insn insn;

	/* a kernel instruction changed while tracing is decoded each time (decode-poke.c) */
	if (b->size && b->ip == ip && b->pid == q->pid && b->mode == mode &&
	    !(q->d->nr_pokes && (ip >> 63) && pt_poked(q->d, ip, ip + sizeof(b->raw))))
		return b;
	if (pt_ild_nth(q, ip, mode, 0, &insn) < 0)
		return NULL;
	b->ip = ip;
	b->pid = q->pid;
	b->mode = mode;
	b->iclass = insn.iclass;
	b->size = insn.size;
	memcpy(b->raw, insn.raw, sizeof(b->raw));
	return b;
}

/* whether the instruction decoder could step on from @ip without trace */
static bool steps_without_trace(struct queue *q, uint64_t ip, enum pt_exec_mode mode)
{
	const struct br_insn *b = br_insn(q, ip, mode);

	if (!b)
		return false;
	switch (b->iclass) {
	case ptic_other:
	case ptic_ptwrite:
		return true;
	case ptic_call:
	case ptic_jump: /* direct: call/jmp rel */
		return b->raw[0] == 0xe8 || b->raw[0] == 0xe9 || b->raw[0] == 0xeb;
	default:
		return false;
	}
}

/*
 * the @i-th instruction of @blk by the helper decoder, which gives the
 * @*next-th next (the instructions of a run are decoded in turn)
 */
static int blk_insn(struct queue *q, const struct pt_block *blk, uint32_t i, uint32_t *next,
		    struct pt_insn *insn)
{
	int st;

	if (*next != i) {
		*next = i + 1;
		return pt_ild_nth(q, blk->ip, blk->mode, i, insn);
	}
	(*next)++;
	memset(insn, 0, sizeof(*insn));
	st = pt_insn_next(q->ild, insn, sizeof(*insn));
	return insn->size ? 0 : st < 0 ? st : -pte_bad_insn;
}

/*
 * The first @n instructions of @blk (none of them a branch that ends walks
 * or is sampled), as decode.c's on_insn takes them: the pending branch goes
 * to the first, the events waiting go to theirs (decode-events.c); each is
 * counted; only a sample's instruction is decoded.  Return: false when the
 * loop guard stopped the queue.
 */
static bool run(struct queue *q, const struct pt_block *blk, uint32_t n)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	uint32_t i, next = UINT32_MAX;
	struct pt_ipc_snap snap;
	struct pt_insn insn;
	bool have;

	/* no sample in this run, no event waiting: counted at once */
	if (n && !q->pend && !q->ev.n && q->stall_n + n <= MAX_LOOPS &&
	    (!o->instructions ||
	     (q->d->period_ticks ? pt_ticks_skip(q, n) : q->insn_count + n < o->period))) {
		q->last_insn = NULL;
		q->pend_flags = 0;
		q->stall_n += n;
		if (q->d->o.ipc)
			pt_ipc_count(&q->ipc, n);
		if (o->instructions)
			q->insn_count += n;
		if (!(o->instructions && q->d->period_ticks)) /* (else pt_ticks_skip did) */
			q->tsc_insns += n;
		return true;
	}
	for (i = 0; i < n; i++) {
		bool due = false;

		have = false;
		q->last_insn = NULL;
		if (q->pend) {
			if (blk->ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL))
				pt_pend_branch(q, blk->ip, q->pend_flags);
			else if (q->d->o.ipc)
				pt_ipc_resolve(&q->ipc, false);
			q->pend = false;
		}
		/* after the first, only an event at a FUP's address waits */
		if (q->ev.n && !i)
			pt_events_flush(q, blk->ip);
		else if (q->ev.n && (have = blk_insn(q, blk, i, &next, &insn) >= 0))
			pt_events_flush(q, insn.ip);
		if (q->d->o.ipc)
			pt_ipc_count(&q->ipc, 1);
		q->pend_flags = 0;
		if (!(o->instructions && q->d->period_ticks))
			q->tsc_insns++;
		if (o->instructions) {
			q->insn_count++;
			due = q->d->period_ticks ? pt_ticks_due(q, false) :
						   q->insn_count >= o->period;
		}
		if (due) {
			if (!have && blk_insn(q, blk, i, &next, &insn) < 0) {
				memset(&insn, 0, sizeof(insn));
				insn.ip = blk->ip;
			}
			insn.speculative = blk->speculative;
			pt_insn_sample(q, &insn, &snap);
			q->insn_count = 0;
		}
		if (++q->stall_n > MAX_LOOPS) {
			q->stall_n = 0;
			if (pt_ild_nth(q, blk->ip, blk->mode, i, &insn) < 0)
				insn.ip = 0;
			pt_stop(q, ERR_NELOOP, insn.ip);
			return false;
		}
	}
	return true;
}

/* whether the next instruction counted in ticks may be sampled */
static bool ticks_may_be_due(const struct queue *q)
{
	return !q->in_walk || (q->walk_max && q->walk_n + 1 >= q->walk_max);
}

/*
 * classes whose bytes tell whether they take a packet (decode-time.c's
 * takes_packet: the timing counts the TNT bits and TIPs taken)
 */
static bool reads_packet_class(enum pt_insn_class c)
{
	return c == ptic_call || c == ptic_jump || c == ptic_error;
}

/*
 * a block's last instruction that the call stacks see (a call, a return, a
 * far branch: the stack takes a call's size), where they are kept
 */
static bool stack_insn(const struct queue *q, const struct pt_block *blk)
{
	const struct prism_itrace *o = &q->d->o.itrace;

	return (o->callchain || o->thread_stack) && blk->iclass != ptic_cond_jump &&
	       blk->iclass != ptic_other;
}

/* a block's last instruction that makes no sample and no tick: only counted */
static bool plain_insn(const struct queue *q, const struct pt_block *blk)
{
	const struct prism_itrace *o = &q->d->o.itrace;

	return !o->branches && !o->last_branch && !q->d->period_ticks && !q->pend &&
	       !blk->truncated && !stack_insn(q, blk) && !q->d->o.ipc &&
	       (!o->instructions || q->insn_count + 1 < o->period);
}

/*
 * a block's last instruction counted in ticks that cannot be sampled, no
 * branch sampled nor seen by the call stacks: counted, as on_insn does
 */
static bool plain_tick(const struct queue *q, const struct pt_block *blk)
{
	return q->d->period_ticks && !q->d->o.itrace.branches && !q->d->o.itrace.last_branch &&
	       !q->pend && !blk->truncated && !stack_insn(q, blk) && !q->d->o.ipc &&
	       !ticks_may_be_due(q);
}

/*
 * whether the flags of @blk's last instruction, which the events after it
 * take (decode-events.c), come from its bytes: int or syscall, a class not known
 */
static bool flags_of_bytes(const struct queue *q, const struct pt_block *blk)
{
	return pt_events_scan(q->d) &&
	       (blk->iclass == ptic_far_call || blk->iclass == ptic_far_return ||
		blk->iclass == ptic_error);
}

/*
 * The last instruction of @blk, as the instruction decoder gives it; its
 * bytes, size and class only where something uses them: branches, ticks,
 * a sample of it, the events' flags, or the timing where its class does
 * not tell whether it takes a packet.
 */
static void last_insn(struct queue *q, const struct pt_block *blk, bool plain, struct pt_insn *insn)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	const struct br_insn *b = NULL;

	insn->ip = blk->end_ip;
	insn->mode = blk->mode;
	insn->iclass = blk->iclass;
	insn->speculative = blk->speculative;
	insn->size = 0;
	insn->raw[0] = 0;
	if ((!q->pkt || !reads_packet_class(blk->iclass)) && !flags_of_bytes(q, blk) &&
	    !q->d->o.ipc &&
	    (plain || (!o->branches && !o->last_branch && !blk->truncated && q->d->period_ticks &&
		       !ticks_may_be_due(q) && !stack_insn(q, blk))))
		return;
	b = br_insn(q, blk->end_ip, blk->mode);
	if (blk->truncated) {
		insn->size = blk->size;
		memcpy(insn->raw, blk->raw, sizeof(insn->raw));
	} else if (b) {
		insn->size = b->size;
		memcpy(insn->raw, b->raw, sizeof(insn->raw));
	}
	if (insn->iclass == ptic_error && b)
		insn->iclass = b->iclass;
}

/*
 * the branch where the trace did not match: perf has counted it, not
 * sampled it; a period that ends there starts anew all the same (its
 * count goes to the next sample)
 */
static void mismatch_counted(struct queue *q)
{
	const struct prism_itrace *o = &q->d->o.itrace;

	if (!o->instructions) {
		q->tsc_insns++;
		return;
	}
	q->insn_count++;
	if (q->d->period_ticks) {
		pt_ticks_due(q, true);
		return;
	}
	q->tsc_insns++;
	if (q->insn_count >= o->period) {
		q->period_carry += q->insn_count;
		q->insn_count = 0;
	}
}

int pt_block_sync(struct queue *q)
{
	return q->walk ? pt_walk_sync(q) : pt_blk_sync_forward(q->blk);
}

/* at a (re)start: decode.c's queue_step does the same */
static bool sync(struct queue *q)
{
	int st = pt_block_sync(q);

	if (st < 0) {
		q->done = true;
		return false;
	}
	pt_synced(q, st);
	return true;
}

/* decode until the queue has an item or is done, or has no item and is past @limit */
void pt_block_step(struct queue *q, uint64_t limit)
{
	struct pt_block blk;
	struct pt_insn insn;
	struct pt_event ev;
	bool complete;
	int st;

	memset(&insn, 0, sizeof(insn));
	while (!q->done && (!q->n || (q->hold && !(q->hold_target && q->n > 1)) ||
			    (q->synced && q->status >= 0 && (q->status & pts_event_pending)))) {
		if (!q->n && q->synced && q->time > limit)
			break;
		if (!q->synced && !sync(q))
			break;
		if (q->walk && pt_walk_batch(q)) /* blocks that only count, many at once */
			continue;
		st = q->status;
		while (st >= 0 && (st & pts_event_pending)) {
			st = blk_event(q, &ev);
			if (st >= 0)
				pt_on_event(q, &ev);
		}
		if (st >= 0 && (st & pts_eos)) {
			/* as the instruction decoder: where a pending branch went, if it can tell */
			memset(&blk, 0, sizeof(blk));
			pt_image_follow_pid(q);
			blk_next(q, &blk);
			if (q->pend && blk.ip && steps_without_trace(q, blk.ip, blk.mode) &&
			    (blk.ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL)))
				pt_pend_branch(q, blk.ip, q->pend_flags);
			q->pend = false;
			q->done = true;
			break;
		}
		if (st >= 0) {
			if (q->img_pid != q->pid)
				pt_image_follow_pid(q);
			st = blk_next(q, &blk); /* it zeroes blk first */
			q->d->st.blocks++;
			/*
			 * a failed query: the block's last instruction is not
			 * done (the instruction decoder gives no instruction)
			 */
			complete = st >= 0 || st == -pte_nomap || st == -pte_bad_insn;
			/*
			 * the packets due before the run's first instruction (after
			 * an overflow, those after its FUP), as before each one
			 */
			pt_take_packet(q);
			if (blk.ninsn && q->pkt)
				pt_time_at(q, blk.ip);
			/* a sampled branch's target comes with the next instruction (on_insn) */
			if (blk.ninsn && q->hold_target)
				q->hold = q->hold_target = false;
			if (!run(q, &blk, blk.ninsn ? blk.ninsn - 1u : 0))
				continue;
			if (blk.ninsn && complete) {
				uint64_t off = 0;

				/* the packets taken below leave what they depend on */
				bool plain = plain_insn(q, &blk),
				     tick = !plain && plain_tick(q, &blk);

				last_insn(q, &blk, plain, &insn);
				/* the packets read for the block; the unit it takes gives the time */
				pt_dec_offset(q, &off);
				pt_scan_packets_at(q, &insn, off);
				/* (events the packets gave wait for it: on_insn) */
				if ((!plain && !tick) || q->ev.n) {
					pt_on_insn(q, &insn);
				} else { /* what on_insn does with it */
					q->last_insn = NULL;
					if (plain) {
						q->tsc_insns++;
						if (q->d->o.itrace.instructions)
							q->insn_count++;
					} else {
						q->insn_count++;
						pt_ticks_due(q, insn.iclass != ptic_other);
					}
					pt_insn_flags(q, &insn);
				}
				pt_take_packet(q);
				if (!pt_stepped(q, off, insn.ip))
					continue;
			}
		}
		if (st == -pte_eos) {
			q->done = true;
		} else if (st < 0) {
			bool resync = q->walk && pt_walk_resyncs(st);
			uint64_t ip = 0;

			if (st == -pte_nomap) {
				ip = blk.ip;
				if (blk.ninsn) /* the instruction after the last decoded */
					ip = blk.end_ip + insn.size;
			} else if (resync) {
				ip = pt_walk_ip(q); /* where the trace did not match */
				if (blk.ninsn)
					mismatch_counted(q);
			}
			pt_stop(q, pt_lib_error_code(st), ip);
			if (st == -pte_nomap)
				pt_nomap_mark(q);
			if (resync)
				pt_walk_resync(q);
			continue;
		}
		q->status = st;
	}
}
