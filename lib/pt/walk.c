// SPDX-License-Identifier: MIT
/*
 * Intel PT blocks walked by prism over libipt's query decoder, where the
 * trace has the packets of execution (TNT, TIP, TIP.PGE/PGD, FUP,
 * MODE.Exec/TSX, PSB+, PIP, OVF, timing, PAD, the power events, PTWRITE:
 * not VMCS, MNT or TraceStop; pt_walk_fits).  The blocks, events
 * and status flags are those libipt's block decoder gives (decode-block.c
 * takes either), with the same queries of the trace in the same order, so
 * the packets read and the samples are the same; what is faster is the
 * code: each straight run of instructions up to a branch is decoded once
 * and kept by address (the run, its length, the branch and its target),
 * where libipt's block decoder looks its blocks up through the sections.
 *
 * A block here always ends at a branch (libipt's end_on_call and
 * end_on_jump), which decode-block.c takes the same way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "decode.h"
#include "walk.h"

/* ---- which traces: the packets of plain execution only ---- */

/*
 * the size of the packet at @p (@n bytes left), 0 where the walker does not
 * take it; @tsx: MODE.TSX is taken
 */
static size_t packet_size(const uint8_t *p, size_t n, bool tsx)
{
	static const uint8_t ip_bytes[8] = { 0, 2, 4, 6, 6, 0, 8, 0 };
	uint8_t b = p[0];
	size_t i;

	if (!b || !(b & 1)) /* PAD, short TNT (0x02 is an extended packet) */
		if (b != 0x02)
			return 1;
	switch (b & 0x1f) {
	case 0x01: /* TIP.PGD */
	case 0x0d: /* TIP */
	case 0x11: /* TIP.PGE */
	case 0x1d: /* FUP */
		if ((b >> 5) == 5 || (b >> 5) == 7)
			return 0;
		return 1u + ip_bytes[b >> 5];
	default:
		break;
	}
	if ((b & 3) == 3) { /* CYC: more bytes while the last has bit 0 */
		if (!(b & 4))
			return 1;
		for (i = 1; i < n && (p[i] & 1); i++)
			;
		return i + 1;
	}
	switch (b) {
	case 0x19: /* TSC */
		return 8;
	case 0x59: /* MTC */
		return 2;
	case 0x99: /* MODE: Exec, TSX */
		return n > 1 && (!(p[1] >> 5) || (tsx && (p[1] >> 5) == 1)) ? 2 : 0;
	case 0x02:
		break;
	default:
		return 0;
	}
	if (n < 2)
		return 0;
	switch (p[1]) {
	case 0xa3: /* long TNT */
		return 8;
	case 0x82: /* PSB */
		return 16;
	case 0x23: /* PSBEND */
		return 2;
	case 0x03: /* CBR */
		return 4;
	case 0x73: /* TMA */
		return 7;
	case 0xf3: /* OVF */
		return 2;
	case 0x43: /* PIP: in PSB+ a status update, else bound to a MOV CR3 */
		return 8;
	case 0x62: /* EXSTOP, with IP */
	case 0xe2:
		return 2;
	case 0xc2: /* MWAIT */
		return 10;
	case 0x22: /* PWRE */
		return 4;
	case 0xa2: /* PWRX */
		return 7;
	case 0xc3: /* MNT: an event of no IP that perf and prism leave out */
		return n > 2 && p[2] == 0x88 ? 11 : 0;
	case 0xc8: /* VMCS: perf keeps its value only, prism leaves the event out */
		return 7;
	case 0x83: /* TraceStop: after the TIP.PGD where tracing stopped */
		return 2;
	default: /* PTW: 4 or 8 bytes of payload */
		if ((p[1] & 0x1f) == 0x12 && ((p[1] >> 5) & 3) < 2)
			return 2u + (((p[1] >> 5) & 3) ? 8 : 4);
		return 0;
	}
}

/* @mapped: @t is a mapping of the trace, whose pages read are dropped behind */
bool pt_walk_fits(const struct prism_pt_decoder *d, const uint8_t *t, size_t len, bool mapped,
		  bool tsx)
{
	size_t off = 0, n, end, dropped = 0;

	if (getenv("PRISM_PT_LIBIPT_BLOCKS"))
		return false;
	while (off < len) {
		/* (the PADs and short TNTs most of a trace is, one byte each, up to the next release) */
		end = dropped + RELEASE < len ? dropped + RELEASE : len;
		while (off < end && (!t[off] || pt_short_tnt_bits(t[off])))
			off++;
		if (off < end) {
			n = packet_size(t + off, len - off, tsx);
			if (!n)
				break;
			off += n;
		}
		if (off - dropped >= RELEASE) { /* (@dropped: where the next release starts) */
			if (mapped)
				madvise((void *)(t + dropped), RELEASE, MADV_DONTNEED);
			dropped += RELEASE;
		}
	}
	if (mapped && dropped < len)
		madvise((void *)(t + dropped), len - dropped, MADV_DONTNEED);
	return off >= len;
}

/* ---- the runs ---- */

/* @insn's bytes after its legacy and REX prefixes, @n of them */
static const uint8_t *opcode(const struct pt_insn *insn, size_t *n)
{
	size_t i;

	for (i = 0; i < insn->size; i++) {
		uint8_t b = insn->raw[i];

		if (!(b == 0x26 || b == 0x2e || b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65 ||
		      b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 ||
		      (insn->mode == ptem_64bit && (b & 0xf0) == 0x40)))
			break;
	}
	*n = insn->size - i;
	return insn->raw + i;
}

/* a MOV to CR3 (0f 22 /3): it changes the CR3 (libipt's pt_insn_changes_cr3) */
static bool mov_cr3(const struct pt_insn *insn)
{
	size_t n;
	const uint8_t *op = opcode(insn, &n);

	return n >= 3 && op[0] == 0x0f && op[1] == 0x22 && ((op[2] >> 3) & 7) == 3;
}

/* VMLAUNCH, VMRESUME (0f 01 c2/c3) */
static bool vm_entry(const struct pt_insn *insn)
{
	size_t n;
	const uint8_t *op = opcode(insn, &n);

	return n >= 3 && op[0] == 0x0f && op[1] == 0x01 && (op[2] == 0xc2 || op[2] == 0xc3);
}

/* not a branch, and a PIP binds to it: MOV CR3, VMLAUNCH, VMRESUME */
static bool pip_insn(const struct pt_insn *insn)
{
	return mov_cr3(insn) || vm_entry(insn);
}

static bool is_ptwrite(const struct pt_insn *insn)
{
	return insn->iclass == ptic_ptwrite;
}

/* a PIP binds to it (libipt's pt_insn_binds_to_pip): those and far branches */
static bool binds_pip(const struct pt_insn *insn)
{
	return pip_insn(insn) || insn->iclass == ptic_far_call || insn->iclass == ptic_far_return ||
	       insn->iclass == ptic_far_jump;
}

static void run_fill(struct run *r, const struct pt_insn *insn, const struct pt_insn *next)
{
	r->end_ip = insn->ip;
	r->flags = pt_class_flags(insn);
	r->iclass = (uint8_t)insn->iclass;
	r->size = insn->size;
	r->mode = (uint8_t)insn->mode;
	switch (insn->iclass) {
	case ptic_cond_jump:
		r->kind = K_COND;
		break;
	case ptic_call:
		r->kind = next ? K_CALL : K_ICALL;
		break;
	case ptic_jump:
		r->kind = next ? K_JUMP : K_INDIRECT;
		break;
	case ptic_return:
		r->kind = K_RET;
		break;
	case ptic_far_call:
	case ptic_far_return:
	case ptic_far_jump:
		r->kind = K_INDIRECT;
		r->marks |= M_FAR;
		break;
	default:
		r->kind = K_OTHER;
		break;
	}
	r->target = next ? next->ip : 0;
}

/*
 * kernel code a TEXT_POKE record changes (decode-poke.c): the run is read
 * anew each time (its bytes depend on the queue's time), a pid no queue has
 * keeps lookups from taking it
 */
static void unkept_if_poked(const struct queue *q, struct run *r)
{
	uint64_t end = (r->target > r->end_ip ? r->target : r->end_ip) + 16;

	if (q->d->nr_pokes && (r->ip >> 63) && pt_poked(q->d, r->ip, end))
		r->pid = INT32_MIN;
}

/*
 * the run from @ip: decoded by the helper decoder (a taken TNT bit after
 * its start gives a conditional branch's target, a direct branch's comes
 * without trace; the others need trace, which the helper has not).  An
 * instruction that cannot be decoded: its error, the instructions before
 * it in @r->n and the last of them in @r->end_ip (such runs are not kept:
 * the code known may grow).
 */
__attribute__((noinline)) int pt_walk_run_decode(struct queue *q, uint64_t ip,
						 enum pt_exec_mode mode, struct run *r)
{
	struct pt_insn insn, next;
	struct pt_event ev;
	int st;

	r->ip = ip;
	r->pid = q->pid;
	r->mode = (uint8_t)mode;
	r->n = 0;
	r->marks = 0;
	r->next[0] = r->next[1] = NULL; /* (links walked in one privilege: pt_walk_batch) */
	st = pt_ild_at(q, ip, mode, true);
	while (st >= 0) {
		memset(&insn, 0, sizeof(insn));
		st = pt_insn_next(q->ild, &insn, sizeof(insn));
		if (!insn.size)
			break;
		r->n++;
		r->marks |= (pip_insn(&insn) ? M_PIP : 0) | (mov_cr3(&insn) ? M_CR3 : 0) |
			    (is_ptwrite(&insn) ? M_PTW : 0);
		if (insn.iclass == ptic_other || insn.iclass == ptic_ptwrite) {
			if (r->n == MAX_RUN) {
				run_fill(r, &insn, NULL);
				unkept_if_poked(q, r);
				return 0;
			}
			r->end_ip = insn.ip;
			continue;
		}
		/* a branch that needed no trace, or a conditional's taken bit: its target next */
		memset(&next, 0, sizeof(next));
		while (st >= 0 && (st & pts_event_pending))
			st = pt_insn_event(q->ild, &ev, sizeof(ev));
		if (st >= 0) {
			pt_insn_next(q->ild, &next, sizeof(next));
			run_fill(r, &insn, &next);
		} else {
			run_fill(r, &insn, NULL);
		}
		unkept_if_poked(q, r);
		return 0;
	}
	r->ip = 0;
	if (r->n)
		r->iclass = ptic_other;
	return st < 0 && st != -pte_eos ? st : -pte_nomap;
}

/* ---- the walk ---- */

static int ret_pop(struct pt_walk *w, uint64_t *ip)
{
	if (!w->ret_n)
		return -pte_retstack_empty;
	*ip = w->ret[w->ret_top];
	w->ret_top = (w->ret_top + RETSTACK - 1) % RETSTACK;
	w->ret_n--;
	return 0;
}

/* libipt's block status: tracing disabled, the trace's end once no event waits */
static int status(const struct pt_walk *w, int flags)
{
	if (!w->enabled)
		flags |= pts_ip_suppressed;
	if ((w->status & pts_eos) && !w->process_event)
		flags |= pts_eos;
	return flags;
}

static int fetch_event(struct pt_walk *w)
{
	int st;

	if (w->process_event)
		return 1;
	if (!(w->status & pts_event_pending))
		return 0;
	st = pt_qry_event(w->qry, &w->ev, sizeof(w->ev));
	if (st < 0)
		return st;
	w->process_event = true;
	w->status = st;
	return 1;
}

/* @r (from the walk's ip) added to @blk: the block ends at its last instruction */
static void add_run(struct pt_walk *w, struct pt_block *blk, const struct run *r)
{
	blk->ninsn = (uint16_t)(blk->ninsn + r->n);
	blk->end_ip = r->end_ip;
	blk->iclass = (enum pt_insn_class)r->iclass;
	pt_walk_run_calls(w, r);
}

/*
 * The run from the walk's ip without trace, up to @to if it is in it
 * (@to 0: none): 1 where @to is reached (the walk's ip), 0 after a direct
 * branch, -pte_bad_query at a branch that needs trace (the walk's ip at
 * it), another error where code cannot be decoded.
 */
static int proceed_run(struct queue *q, struct pt_block *blk, uint64_t to, struct run **out)
{
	struct pt_walk *w = q->walk;
	struct run *r;
	int st;

	if (to && w->ip == to)
		return 1;
	st = pt_walk_run_at(q, w->ip, w->mode, &r);
	*out = r;
	if (to && to > w->ip && to <= r->end_ip) {
		/* perhaps in the run: one instruction at a time to it */
		struct pt_insn insn;
		uint64_t prev = 0;
		uint32_t i;
		int s = pt_ild_at(q, w->ip, w->mode, false);

		for (i = 0; i < r->n && s >= 0; i++) {
			memset(&insn, 0, sizeof(insn));
			s = pt_insn_next(q->ild, &insn, sizeof(insn));
			if (!insn.size || insn.ip > to)
				break;
			if (insn.ip == to) {
				if (i) {
					blk->ninsn = (uint16_t)(blk->ninsn + i);
					blk->end_ip = prev;
					blk->iclass = ptic_other;
				}
				w->ip = to;
				return 1;
			}
			prev = insn.ip;
		}
	}
	if (st < 0) {
		if (r->n) {
			blk->ninsn = (uint16_t)(blk->ninsn + r->n);
			blk->end_ip = r->end_ip;
			blk->iclass = ptic_other;
			w->ip = r->end_ip; /* (libipt's stays at the instruction it failed on) */
		}
		return st;
	}
	add_run(w, blk, r);
	switch (r->kind) {
	case K_OTHER:
		w->ip = r->end_ip + r->size;
		return 0;
	case K_CALL:
	case K_JUMP:
		w->ip = r->target;
		return to && w->ip == to ? 1 : 0;
	default:
		w->ip = r->end_ip;
		return -pte_bad_query;
	}
}

/*
 * From the walk's ip to the first instruction @pred takes (libipt's
 * pt_blk_proceed_to_insn), looked for in the runs that may hold one (one
 * of @marks; 0: any run): 1 where one is reached, the block's last and the
 * walk's ip at it (in @insn, its run in @out); else as proceed_run.
 */
static int proceed_to_insn(struct queue *q, struct pt_block *blk,
			   bool (*pred)(const struct pt_insn *insn), unsigned int marks,
			   struct pt_insn *insn, struct run **out)
{
	struct pt_walk *w = q->walk;
	struct run *r;
	uint32_t i;
	/* (a run that cannot be decoded to its end: the instructions that can be) */
	int st = pt_walk_run_at(q, w->ip, w->mode, &r), s;

	*out = r;
	if (marks && !(r->marks & marks) && st >= 0)
		return proceed_run(q, blk, 0, out);
	s = pt_ild_at(q, w->ip, w->mode, false);
	for (i = 0; i < r->n && s >= 0; i++) {
		memset(insn, 0, sizeof(*insn));
		s = pt_insn_next(q->ild, insn, sizeof(*insn));
		if (!insn->size)
			break;
		if (pred(insn)) {
			blk->ninsn = (uint16_t)(blk->ninsn + i + 1);
			blk->end_ip = insn->ip;
			blk->iclass = insn->iclass;
			w->ip = insn->ip;
			return 1;
		}
	}
	return proceed_run(q, blk, 0, out);
}

/* the branch ending @r, with trace: the next ip */
int pt_walk_with_trace(struct pt_walk *w, const struct run *r)
{
	int st, taken;

	switch (r->kind) {
	case K_COND:
		st = pt_qry_cond_branch(w->qry, &taken);
		if (st < 0)
			return st;
		w->ip = taken ? r->target : r->end_ip + r->size;
		w->status = st;
		return 0;
	case K_RET:
		st = pt_qry_cond_branch(w->qry, &taken);
		if (st >= 0) { /* a compressed return */
			w->status = st; /* (its bit is taken, also where it fails) */
			if (taken && ret_pop(w, &w->ip) >= 0)
				return 0;
			w->unit_failed = true;
			return taken ? -pte_retstack_empty : -pte_bad_retcomp;
		}
		if (st != -pte_bad_query)
			return st;
		break;
	case K_ICALL:
	case K_INDIRECT:
		break;
	default:
		return -pte_internal;
	}
	st = pt_qry_indirect_branch(w->qry, &w->ip);
	if (st < 0)
		return st;
	w->status = st;
	return st & pts_ip_suppressed ? -pte_noip : 0;
}

/*
 * the instruction a PIP or PTWRITE binds to, @insn of the run @r: done
 * once the event is (libipt's postponed instruction); a far branch ending
 * @r with trace
 */
static void postpone(struct pt_walk *w, const struct run *r, const struct pt_insn *insn)
{
	w->postponed = true;
	w->post_cr3 = mov_cr3(insn);
	w->post = *r;
	if (insn->ip != r->end_ip || r->kind != K_INDIRECT) {
		w->post.kind = K_OTHER;
		w->post.end_ip = insn->ip;
		w->post.size = insn->size;
	}
}

/* past the postponed instruction, once the event is done (libipt's) */
static int proceed_postponed(struct pt_walk *w)
{
	if (!w->postponed)
		return 0;
	w->postponed = false;
	if (!w->enabled)
		return 0;
	if (w->post.kind == K_OTHER) {
		w->ip = w->post.end_ip + w->post.size;
		return 0;
	}
	return pt_walk_with_trace(w, &w->post); /* a far branch */
}

/*
 * libipt's erratum SKD022 (where the CPU has it): an async disable at a
 * VMLAUNCH or VMRESUME is taken for a sync one (true: the event changed)
 */
static bool skd022(struct pt_walk *w)
{
	struct pt_event *e = &w->ev;
	struct pt_insn insn;
	uint64_t ip;

	if (!w->skd022 || pt_ild_at(w->q, e->variant.async_disabled.at, w->mode, false) < 0)
		return false;
	memset(&insn, 0, sizeof(insn));
	pt_insn_next(w->q->ild, &insn, sizeof(insn));
	if (!insn.size || !vm_entry(&insn))
		return false;
	ip = e->variant.async_disabled.ip;
	e->type = ptev_disabled;
	e->variant.disabled.ip = ip;
	return true;
}

uint64_t pt_walk_event_ip(const struct pt_event *ev)
{
	switch (ev->type) {
	case ptev_exec_mode:
		return ev->variant.exec_mode.ip;
	case ptev_tsx:
		return ev->variant.tsx.ip;
	case ptev_exstop:
		return ev->variant.exstop.ip;
	case ptev_mwait:
		return ev->variant.mwait.ip;
	case ptev_ptwrite:
		return ev->variant.ptwrite.ip;
	default:
		return ev->variant.async_paging.ip;
	}
}

/*
 * the TIP of the asynchronous branch pending (w->tip_pend) taken as a plain
 * one, as perf's: by the next branch that needs trace, a conditional one
 * an error (the trace does not match); a block up to a direct branch first
 */
static int proceed_tip(struct queue *q, struct pt_block *blk)
{
	struct pt_walk *w = q->walk;
	struct run *r;
	int st = proceed_run(q, blk, 0, &r);

	if (st != -pte_bad_query)
		return st < 0 ? st : status(w, 0);
	if (r->kind == K_COND || r->kind == K_OTHER)
		return -pte_bad_query;
	w->ip = w->ev.variant.async_branch.to;
	w->tip_pend = w->process_event = false;
	return pt_walk_trailing(w);
}

/*
 * without BranchEn, perf's: at the FUP's IP @ip, no instruction walked;
 * the events due at the next instruction are where the walk stood
 */
static void no_branch_to(struct queue *q, uint64_t ip)
{
	if (q->ev.n)
		pt_events_flush(q, q->walk->ip);
	q->walk->ip = ip;
}

/* the event fetched: walked to where it binds (libipt's pt_blk_proceed_event) */
static int proceed_event(struct queue *q, struct pt_block *blk)
{
	struct pt_walk *w = q->walk;
	struct pt_event *ev = &w->ev;
	struct pt_insn insn;
	struct run *r = NULL;
	int st;

	if (w->tip_pend)
		return proceed_tip(q, blk);
	switch (ev->type) {
	case ptev_disabled:
		if (ev->ip_suppressed) /* binds to a MOV CR3 or the next branch that needs trace */
			st = proceed_to_insn(q, blk, mov_cr3, M_CR3, &insn, &r);
		else
			st = proceed_run(q, blk, ev->variant.disabled.ip, &r);
		if (st <= 0) {
			if (st != -pte_bad_query)
				return st;
			/* where tracing is expected to resume: after a call */
			if (r->kind == K_CALL || r->kind == K_ICALL || r->iclass == ptic_far_call)
				w->ip = r->end_ip + r->size;
			else
				w->ip = 0;
		}
		break;
	case ptev_async_disabled:
		st = proceed_run(q, blk, ev->variant.async_disabled.at, &r);
		if (st <= 0)
			return st;
		if (skd022(w))
			return proceed_event(q, blk);
		break;
	case ptev_paging: /* binds to a MOV CR3, VMLAUNCH/VMRESUME or far branch: done later */
		if (!w->enabled)
			break;
		st = proceed_to_insn(q, blk, binds_pip, M_PIP | M_FAR, &insn, &r);
		if (st <= 0)
			return st;
		postpone(w, r, &insn);
		break;
	case ptev_ptwrite: /* binds to its PTWRITE: done later */
		if (!w->enabled)
			break;
		if (ev->ip_suppressed) {
			st = proceed_to_insn(q, blk, is_ptwrite, M_PTW, &insn, &r);
			if (st <= 0)
				return st;
			ev->variant.ptwrite.ip = insn.ip;
			ev->ip_suppressed = 0;
		} else if (w->no_branch) {
			no_branch_to(q, ev->variant.ptwrite.ip);
			break;
		} else {
			/*
			 * perf's decoder stands at its FUP, the instruction
			 * there not done (another event's FUP may be there)
			 */
			st = proceed_run(q, blk, ev->variant.ptwrite.ip, &r);
			if (st <= 0)
				return st;
			break;
		}
		postpone(w, r, &insn);
		break;
	case ptev_async_branch:
		st = proceed_run(q, blk, ev->variant.async_branch.from, &r);
		/*
		 * Apollo Lake's FUP with the IP after an indirect branch (its
		 * TIP's): perf takes the branch as interrupted there, to the TIP
		 */
		if (st == -pte_bad_query && w->fup_nlip &&
		    (r->kind == K_ICALL || r->kind == K_INDIRECT) &&
		    ev->variant.async_branch.from == r->end_ip + r->size) {
			ev->variant.async_branch.from = r->end_ip;
			st = 1;
		}
		if (st <= 0)
			return st;
		break;
	case ptev_tsx:
	case ptev_exstop:
	case ptev_mwait:
		if (ev->ip_suppressed || (ev->type != ptev_tsx && !w->enabled))
			break;
		if (w->no_branch) {
			no_branch_to(q, pt_walk_event_ip(ev));
			break;
		}
		st = proceed_run(q, blk, pt_walk_event_ip(ev), &r);
		if (st <= 0)
			return st;
		break;
	case ptev_exec_mode:
	case ptev_async_paging:
		if (ev->ip_suppressed)
			break;
		st = proceed_run(q, blk, pt_walk_event_ip(ev), &r);
		if (st == -pte_bad_query) { /* on with trace: the block ends */
			st = pt_walk_with_trace(w, r);
			if (st < 0)
				return st;
			st = w->ip == pt_walk_event_ip(ev);
		}
		if (st <= 0)
			return st;
		break;
	default:
		break;
	}
	return status(w, pts_event_pending);
}

/* a sync disable after a postponed instruction (libipt's trailing event) */
static int disabled_after_postponed(struct pt_walk *w)
{
	const struct pt_event *e = &w->ev;

	if (e->ip_suppressed && w->post_cr3) /* it binds to the MOV CR3 */
		return status(w, pts_event_pending);
	w->postponed = false;
	if (w->post.kind != K_OTHER) { /* a far branch needs trace: it binds there */
		w->ip = w->post.iclass == ptic_far_call ? w->post.end_ip + w->post.size : 0;
		return status(w, pts_event_pending);
	}
	w->ip = w->post.end_ip + w->post.size;
	if (!e->ip_suppressed && w->ip == e->variant.disabled.ip)
		return status(w, pts_event_pending);
	return status(w, 0);
}

/* after a block or an event: whether the next event is due now (libipt's trailing event) */
int pt_walk_trailing(struct pt_walk *w)
{
	int st;

	if (w->tip_pend) /* (the next block walks to the branch that takes it) */
		return status(w, 0);
	st = fetch_event(w);

	if (st <= 0) {
		if (!st)
			st = proceed_postponed(w);
		return st < 0 ? st : status(w, 0);
	}
	if (w->ev.type == ptev_disabled && w->postponed)
		return disabled_after_postponed(w);
	if ((w->ev.type == ptev_paging || w->ev.type == ptev_ptwrite) && !w->enabled)
		return status(w, pts_event_pending); /* applied at once */
	st = proceed_postponed(w);
	if (st < 0)
		return st;
	switch (w->ev.type) {
	case ptev_disabled: /* it binds to an instruction: the next block walks to it */
	case ptev_paging:
	case ptev_ptwrite:
		return status(w, 0);
	case ptev_tsx:
		if (!w->ev.ip_suppressed && w->ip != pt_walk_event_ip(&w->ev))
			return status(w, 0);
		break;
	case ptev_exstop:
	case ptev_mwait:
		if (!w->ev.ip_suppressed && w->enabled && w->ip != pt_walk_event_ip(&w->ev))
			return status(w, 0);
		break;
	case ptev_async_disabled:
		if (w->ip != w->ev.variant.async_disabled.at || skd022(w))
			return status(w, 0);
		break;
	case ptev_async_branch:
		if (w->ip != w->ev.variant.async_branch.from)
			return status(w, 0);
		break;
	case ptev_exec_mode:
	case ptev_async_paging:
		if (!w->ev.ip_suppressed && w->ip != pt_walk_event_ip(&w->ev))
			return status(w, 0);
		break;
	default:
		break;
	}
	return status(w, pts_event_pending);
}

int pt_walk_next(struct queue *q, struct pt_block *blk)
{
	struct pt_walk *w = q->walk;
	struct run *r;
	int st;

	if (w->pend) {
		w->pend = false;
		*blk = w->pend_blk;
		return w->pend_st;
	}
	memset(blk, 0, sizeof(*blk));
	blk->ip = w->ip;
	blk->mode = w->mode;
	blk->speculative = w->speculative;
	st = fetch_event(w);
	if (st)
		return st < 0 ? st : proceed_event(q, blk);
	if (!w->enabled)
		return w->status & pts_eos ? -pte_eos : -pte_no_enable;
	st = proceed_run(q, blk, 0, &r);
	if (st == -pte_bad_query)
		st = pt_walk_with_trace(w, r);
	if (st < 0)
		return st;
	return pt_walk_trailing(w);
}

int pt_walk_event(struct queue *q, struct pt_event *ev)
{
	struct pt_walk *w = q->walk;
	struct pt_event *e = &w->ev;

	if (!w->process_event)
		return -pte_bad_query;
	switch (e->type) {
	case ptev_enabled:
		if (e->variant.enabled.ip == w->ip)
			e->variant.enabled.resumed = 1;
		if (e->status_update || e->ip_suppressed || w->enabled)
			return -pte_bad_context;
		w->ip = e->variant.enabled.ip;
		w->enabled = true;
		break;
	case ptev_async_disabled:
		if (w->ip != e->variant.async_disabled.at)
			return -pte_bad_query;
		/* fallthrough */
	case ptev_disabled:
		if (e->status_update || !w->enabled)
			return -pte_bad_context;
		w->enabled = false;
		break;
	case ptev_async_branch:
		if (w->ip != e->variant.async_branch.from)
			return -pte_bad_query;
		if (e->status_update || !w->enabled)
			return -pte_bad_context;
		w->ip = e->variant.async_branch.to;
		break;
	case ptev_exec_mode:
		if (!e->ip_suppressed && w->ip != e->variant.exec_mode.ip)
			return -pte_bad_query;
		if (e->status_update && w->enabled && w->mode != ptem_unknown &&
		    w->mode != e->variant.exec_mode.mode)
			return -pte_bad_status_update;
		w->mode = e->variant.exec_mode.mode;
		break;
	case ptev_async_paging: /* (the code is read by process, not by CR3) */
		if (!e->ip_suppressed && w->ip != e->variant.async_paging.ip)
			return -pte_bad_query;
		break;
	case ptev_overflow:
		w->ovf_ip = w->enabled ? w->ip : 0; /* where the last branch went */
		w->enabled = !e->ip_suppressed;
		w->ip = e->ip_suppressed ? 0 : e->variant.overflow.ip;
		w->speculative = false;
		break;
	case ptev_tsx:
		if (!e->ip_suppressed && w->ip != e->variant.tsx.ip)
			return -pte_bad_query;
		w->speculative = e->variant.tsx.speculative;
		break;
	case ptev_exstop:
	case ptev_mwait:
		if (!e->ip_suppressed && w->enabled && w->ip != pt_walk_event_ip(e))
			return -pte_bad_query;
		break;
	default:
		break;
	}
	w->process_event = false;
	*ev = *e;
	return pt_walk_trailing(w);
}

int pt_walk_sync(struct queue *q)
{
	struct pt_walk *w = q->walk;
	int st;

	w->mode = ptem_unknown;
	w->ip = 0;
	w->status = 0;
	w->enabled = w->process_event = w->postponed = w->speculative = w->tip_pend = false;
	w->unit_failed = false;
	w->ret_n = 0;
	memset(&w->ev, 0, sizeof(w->ev));
	st = pt_qry_sync_forward(w->qry, &w->ip);
	if (st < 0)
		return st;
	w->status = st;
	w->enabled = !(st & pts_ip_suppressed);
	return pt_walk_trailing(w);
}

int pt_walk_offset(const struct queue *q, uint64_t *off)
{
	return pt_qry_get_offset(q->walk->qry, off);
}

uint64_t pt_walk_ovf_ip(const struct queue *q)
{
	return q->walk->ovf_ip;
}

int pt_walk_sync_offset(const struct queue *q, uint64_t *off)
{
	return pt_qry_get_sync_offset(q->walk->qry, off);
}

int pt_walk_start(struct queue *q, const struct pt_config *cfg)
{
	q->walk = calloc(1, sizeof(*q->walk));
	if (!q->walk)
		return -ENOMEM;
	q->walk->q = q;
	q->walk->skd022 = cfg->errata.skd022;
	/* (perf's test: the CPUID "GenuineIntel,6,92,", any stepping) */
	q->walk->fup_nlip = cfg->cpu.vendor == pcv_intel && cfg->cpu.family == 6 &&
			    cfg->cpu.model == 92;
	/* (perf's: the pt bit without the branch bit, 13, in the event's config) */
	q->walk->no_branch = (q->d->o.config & 1) && !(q->d->o.config & (1ull << 13));
	q->walk->runs = calloc(RUNS, sizeof(*q->walk->runs));
	q->walk->qry = pt_qry_alloc_decoder(cfg);
	return q->walk->runs && q->walk->qry ? 0 : -ENOMEM;
}

void pt_walk_free(struct queue *q)
{
	if (!q->walk)
		return;
	pt_qry_free_decoder(q->walk->qry);
	free(q->walk->runs);
	free(q->walk);
	q->walk = NULL;
}
