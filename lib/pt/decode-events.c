// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: perf's samples besides branches and instructions.
 *
 * Transactions ('x'): libipt's TSX events (MODE.TSX with its FUP) make a
 * "transactions" sample at the FUP's address, with the time when its FUP
 * was read (flags: "x" in a transaction
 * after a begin, none after a commit, "tx abrt" for an abort, whose
 * branch to the abort handler is a "tx abrt" branch); the instructions
 * libipt marks speculative give their branches perf's "(x)".
 *
 * Power events ('p') and PTWRITE ('w') come from the packets, read by the
 * timing's packet decoder (decode-time.c) and taken where perf's decoder
 * takes them: when the TNT bits and TIPs before them are used.  A packet
 * that stands alone (CBR, PWRE, PWRX, EXSTOP and PTW without IP) is an
 * event at the next instruction; MWAIT, a PWRE after it, EXSTOP and PTW
 * with IP wait for their FUP and are events at its address; a PSB is an
 * event at its PSBEND, with a CBR that changed in its PSB+ (perf's psb and
 * cbr samples).  The events wait in a small queue until the decoder
 * reaches the instruction they are at (after the pending branch's sample),
 * then go to the queue's samples in perf's order.
 *
 * After an error, perf's decoder reads the packets up to the next IP
 * (walk-resync.c) without events but a PSB's and the CBR (the last one
 * read, if it changed: a sample of the trace start, IP 0, not of an error
 * such as an overflow in between); the events due at the next instruction when an error
 * comes are at the error's IP, those waiting for a FUP's are lost.
 */
#include <string.h>

#include "decode.h"

bool pt_events_scan(const struct prism_pt_decoder *d)
{
	return d->o.itrace.pwr_events || d->o.itrace.ptwrites || d->o.itrace.transactions;
}

/* whether events wait: for an instruction, a FUP, a PSBEND */
bool pt_events_wait(const struct queue *q)
{
	const struct pt_evstate *s = &q->ev;

	return s->n || s->in_psb || s->mwait || s->pwre || s->exstop || s->ptw;
}

/* the FUP / TIP address from the last one and the packet's compression */
uint64_t pt_last_ip(uint64_t last, const struct pt_packet_ip *p)
{
	switch (p->ipc) {
	case pt_ipc_update_16:
		return (last & ~0xffffull) | (p->ip & 0xffff);
	case pt_ipc_update_32:
		return (last & ~0xffffffffull) | (p->ip & 0xffffffff);
	case pt_ipc_sext_48:
		return (uint64_t)((int64_t)(p->ip << 16) >> 16);
	case pt_ipc_update_48:
		return (last & ~0xffffffffffffull) | (p->ip & 0xffffffffffffull);
	case pt_ipc_full:
		return p->ip;
	default:
		return last;
	}
}

/* whether perf walks code at @p: the packets before it are read ahead of libipt */
bool pt_events_stop(const struct pt_packet *p)
{
	switch (p->type) {
	case ppt_pad:
	case ppt_mode:
	case ppt_pip:
	case ppt_vmcs:
	case ppt_cbr:
	case ppt_tsc:
	case ppt_tma:
	case ppt_mtc:
	case ppt_cyc:
	case ppt_mnt:
	case ppt_exstop:
	case ppt_mwait:
	case ppt_pwre:
	case ppt_pwrx:
	case ppt_ptw:
		return false;
	default:
		return true;
	}
}

/* the queue's trace bytes */
static const uint8_t *trace(const struct queue *q)
{
	return q->map ? q->map : q->buf;
}

void pt_events_read(struct queue *q, const struct pt_packet *p, uint64_t pos, struct tpend *e)
{
	struct pt_evstate *s = &q->ev;
	bool ip = p->type == ppt_fup || p->type == ppt_tip || p->type == ppt_tip_pge ||
		  p->type == ppt_tip_pgd;

	if (ip && p->payload.ip.ipc != pt_ipc_suppressed)
		s->last_ip = pt_last_ip(s->last_ip, &p->payload.ip);
	if (p->type == ppt_fup) {
		e->ip = s->last_ip;
	} else if (p->type == ppt_psb) {
		s->last_ip = 0;
		e->ip = pos;
	} else if (p->type == ppt_pwre || p->type == ppt_pwrx) {
		/* perf's fields are the payload's bits: 16 (PWRE), 12 (PWRX) after the opcode */
		e->ip = (uint64_t)trace(q)[pos + 2] | (uint64_t)trace(q)[pos + 3] << 8;
	} else if (p->type != ppt_psbend && p->type != ppt_cbr && p->type != ppt_mwait &&
		   p->type != ppt_exstop && p->type != ppt_ptw) {
		return;
	}
	e->pkt = *p;
	e->event = true;
}

/* a sample that waits for the instruction at @ip (0: the next one) */
static struct prism_pt_item *stash(struct queue *q, enum prism_pt_item_kind kind, uint64_t ip,
				   uint32_t flags)
{
	struct pt_evstate *s = &q->ev;
	struct prism_pt_item *it;

	if (s->n == EVQ) /* never with packets as hardware makes them */
		return NULL;
	pt_time_now(q);
	it = &s->q[(s->head + s->n) % EVQ];
	s->due[(s->head + s->n++) % EVQ] = ip;
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	/* perf's sample time: an estimate after the kernel may be later (pt_sample_time) */
	it->time = q->time > q->stime ? q->time : q->stime;
	it->flags = flags;
	return it;
}

/*
 * perf's flags of an event at the decoder's place: the last branch's, none
 * after a FUP's; never "in a transaction" (perf's decoder says so only of
 * the states it walked code for: branches, instructions, events at a FUP)
 */
static uint32_t here_flags(const struct queue *q)
{
	if (q->ev.after_fup)
		return 0;
	return q->pend_flags & ~PRISM_PT_FL_IN_TX;
}

/*
 * an event at the decoder's place: the last branch's flags and (perf's
 * sample of the decoder's state) its bytes, none after a FUP's
 */
static struct prism_pt_item *stash_here(struct queue *q, enum prism_pt_item_kind kind)
{
	struct prism_pt_item *it = stash(q, kind, 0, here_flags(q));

	if (it && !q->ev.after_fup)
		pt_branch_bytes(q);
	if (it && !q->ev.after_fup && q->pend_size) {
		it->insn_len = q->pend_size;
		it->insn_32bit = q->pend_32bit;
		memcpy(it->insn, q->pend_raw, sizeof(it->insn));
	}
	return it;
}

/* a CBR event: at the PSB's end (@psb) or at the decoder's place */
static void cbr_event(struct queue *q, bool psb)
{
	struct prism_pt_item *it;

	if (!q->d->o.itrace.pwr_events || q->tm.cbr == q->ev.cbr_seen || !q->tm.cbr ||
	    q->ev.resync) /* (perf's: the last one, at the trace start: pt_events_resync_cbr) */
		return;
	q->ev.cbr_seen = q->tm.cbr;
	it = psb ? stash(q, PRISM_PT_CBR, 0, 0) : stash_here(q, PRISM_PT_CBR);
	if (it)
		it->cbr = (uint8_t)q->tm.cbr;
}

void pt_events_resync_cbr(struct queue *q)
{
	struct prism_pt_item *it;

	if (!q->d->o.itrace.pwr_events || q->tm.cbr == q->ev.cbr_seen || !q->tm.cbr)
		return;
	q->ev.cbr_seen = q->tm.cbr;
	it = stash(q, PRISM_PT_CBR, 0, 0);
	if (it) { /* a sample of the trace start, at its time */
		it->cbr = (uint8_t)q->tm.cbr;
		it->time = 0;
	}
}

/* PWRE's payload: h/w-initiated (bit 7), sub C-state (8-11), C-state (12-15) */
static void pwre_fields(struct prism_pt_item *it, uint64_t payload)
{
	it->hw = (payload >> 7) & 1;
	it->subcstate = (payload >> 8) & 0xf;
	it->cstate = (payload >> 12) & 0xf;
}

/* a FUP: the events that waited for it are at its address */
static void fup(struct queue *q, uint64_t ip)
{
	struct pt_evstate *s = &q->ev;
	struct prism_pt_item *it;
	uint32_t flags = s->in_tx ? PRISM_PT_FL_IN_TX : 0; /* perf's at a FUP */

	if (!s->mwait && !s->exstop && !s->ptw)
		return;
	if (s->mwait && (it = stash(q, PRISM_PT_MWAIT, ip, flags)))
		it->payload = s->mwait_payload;
	if (s->pwre && (it = stash(q, PRISM_PT_PWRE, ip, flags)))
		pwre_fields(it, s->pwre_payload);
	if (s->exstop && (it = stash(q, PRISM_PT_EXSTOP, ip, flags)))
		it->fup_ip = true;
	if (s->ptw && (it = stash(q, PRISM_PT_PTWRITE, ip, flags))) {
		it->payload = s->ptw_payload;
		it->fup_ip = true;
	}
	s->mwait = s->pwre = s->exstop = s->ptw = false;
	s->after_fup = true;
}

void pt_events_packet(struct queue *q, const struct tpend *e)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	/* perf: MWAIT, PWRE, EXSTOP, PWRX events where the event has pwr_evt */
	bool pwr = o->pwr_events && (q->d->o.config & PRISM_PT_CFG_PWR_EVT);
	struct pt_evstate *s = &q->ev;
	const struct pt_packet *p = &e->pkt;
	struct prism_pt_item *it;

	if (s->resync && p->type != ppt_psb && p->type != ppt_psbend && p->type != ppt_cbr &&
	    p->type != ppt_fup)
		return;
	switch (p->type) {
	case ppt_psb:
		s->in_psb = true;
		s->psb_lost = e->after_ovf;
		s->psb_off = e->ip;
		s->mwait = s->pwre = s->exstop = s->ptw = false;
		break;
	case ppt_psbend:
		if (!s->in_psb)
			break;
		s->in_psb = false;
		if (o->pwr_events && !s->psb_lost && (it = stash(q, PRISM_PT_PSB, 0, 0)))
			it->payload = s->psb_off;
		cbr_event(q, true);
		break;
	case ppt_cbr:
		if (!s->in_psb)
			cbr_event(q, false);
		break;
	case ppt_fup:
		/* perf's time of the events at it (libipt's TSX event comes later) */
		s->fup_time = q->d->has_tsc ? prism_tsc_to_perf_time(&q->d->tc, q->tm.timestamp) :
					      q->time;
		if (!s->in_psb)
			fup(q, e->ip);
		break;
	case ppt_mwait:
		s->mwait = pwr;
		s->mwait_payload = p->payload.mwait.hints | (uint64_t)p->payload.mwait.ext << 32;
		break;
	case ppt_pwre:
		if (s->mwait) { /* perf: with the MWAIT, at its FUP */
			s->pwre = true;
			s->pwre_payload = e->ip;
		} else if (pwr && (it = stash_here(q, PRISM_PT_PWRE))) {
			pwre_fields(it, e->ip);
		}
		break;
	case ppt_pwrx: /* deepest C-state, last, the wake reason: 4 bits each */
		if (pwr && (it = stash_here(q, PRISM_PT_PWRX))) {
			it->cstate = e->ip & 0xf;
			it->last = (e->ip >> 4) & 0xf;
			it->wake = (e->ip >> 8) & 0xf;
		}
		break;
	case ppt_exstop:
		if (p->payload.exstop.ip)
			s->exstop = pwr;
		else if (pwr)
			stash_here(q, PRISM_PT_EXSTOP);
		break;
	case ppt_ptw:
		if (p->payload.ptw.ip) {
			s->ptw = o->ptwrites;
			s->ptw_payload = p->payload.ptw.payload;
		} else if (o->ptwrites && (it = stash_here(q, PRISM_PT_PTWRITE))) {
			it->payload = p->payload.ptw.payload;
		}
		break;
	default:
		break;
	}
}

void pt_events_flush(struct queue *q, uint64_t ip)
{
	pt_events_flush_n(q, ip, EVQ);
}

void pt_events_flush_n(struct queue *q, uint64_t ip, size_t max)
{
	struct pt_evstate *s = &q->ev;

	for (; s->n && q->n < FIFO && max; max--) {
		uint64_t due = s->due[s->head];
		struct prism_pt_item *it;

		if (due && due != ip)
			break;
		it = pt_push(q, s->q[s->head].kind);
		if (it) {
			uint64_t time = s->q[s->head].time ? s->q[s->head].time : it->time;

			*it = s->q[s->head];
			it->time = time;
			it->ip = ip;
			it->cpu = q->cpu;
			it->pid = q->pid;
			it->tid = q->tid;
			it->period = 1;
			if (!ip)
				it->flags = 0;
			pt_insn_chain(q, it);
		}
		s->head = (s->head + 1) % EVQ;
		s->n--;
	}
}

/* a branch instruction: events after it have its flags */
void pt_events_insn(struct queue *q, uint32_t flags)
{
	if (flags)
		q->ev.after_fup = false;
}

/* libipt's TSX event, at the FUP's address: the branch pending goes there first */
void pt_events_tsx(struct queue *q, const struct pt_event *ev)
{
	uint64_t ip = ev->ip_suppressed ? 0 : ev->variant.tsx.ip;
	struct prism_pt_item *it;

	q->ev.tx_abort = ev->variant.tsx.aborted;
	q->ev.in_tx = ev->variant.tsx.speculative;
	q->ev.after_fup = true;
	if (!q->d->o.itrace.transactions)
		return;
	if (q->pend && ip && (ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL)))
		pt_pend_branch(q, ip, q->pend_flags);
	q->pend = false;
	if (ip && q->ev.n) /* the events of FUPs there before its own (a PTWRITE's), as perf's */
		pt_events_flush(q, ip);
	if (q->pkt) /* perf: the time of its FUP */
		q->time = q->ev.fup_time;
	it = pt_push(q, PRISM_PT_TRANSACTION);
	if (!it)
		return;
	it->ip = ip;
	it->period = 1;
	pt_insn_chain(q, it);
	if (ev->variant.tsx.aborted)
		it->flags = PRISM_PT_FL_BRANCH | PRISM_PT_FL_TX_ABORT;
	else if (ev->variant.tsx.speculative)
		it->flags = PRISM_PT_FL_IN_TX;
}

/* the flags of an asynchronous branch: a TSX abort's, or an interrupt's */
uint32_t pt_events_async_flags(struct queue *q, bool ip_suppressed)
{
	if (q->ev.tx_abort) {
		q->ev.tx_abort = false;
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_TX_ABORT;
	}
	return PRISM_PT_FL_BRANCH | PRISM_PT_FL_ASYNC |
	       (ip_suppressed ? 0 : PRISM_PT_FL_CALL | PRISM_PT_FL_INTERRUPT);
}

void pt_events_error(struct queue *q, uint64_t ip)
{
	struct pt_evstate *s = &q->ev;

	pt_events_flush(q, ip);
	s->head = (s->head + s->n) % EVQ;
	s->n = 0;
	s->mwait = s->pwre = s->exstop = s->ptw = false;
}
