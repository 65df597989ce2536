// SPDX-License-Identifier: MIT
/*
 * prism's walk after code it cannot read (an instruction not mapped: a
 * kernel without kcore, a binary not here, JIT code) or trace that does not
 * match the code: as perf's decoder ("walk to IP"), on from the next packet
 * that gives an IP, not from the next PSB (libipt's decoders can only sync
 * there).  The TNT bits and TIPs up to it go unused; tracing resumes at a
 * TIP's IP, a TIP.PGE's, an overflow's FUP or the FUP of an interrupt, a
 * PTWRITE, EXSTOP, MWAIT or TSX event, as a trace start ("tr strt", from
 * IP 0); a TIP.PGD's IP ends it ("tr strt tr end").  A TIP after such a
 * FUP (an interrupt's, a TSX abort's) is then a plain one for perf, taken
 * by the next branch that needs trace (the walk's tip_pend); where the
 * error came while the walk went to the FUP, perf had read it: on from the
 * TIP's IP.  An overflow there is perf's error without IP, then on from
 * its FUP (also a stray one before a TIP.PGE, APL12's).  The events in the
 * packets skipped are perf's too (only CBRs and PSBs: decode-events.c).
 * The call stack stays, as perf's.
 */
#include "walk.h"

/*
 * after a FUP that gave the walk's IP: an asynchronous branch from it
 * (a TSX abort's TIP) is a plain TIP for perf (its FUP taken); another
 * event waits as fetched
 */
static int tip_after(struct pt_walk *w)
{
	struct pt_event *e = &w->ev;
	int st;

	if (!(w->status & pts_event_pending))
		return 1;
	st = pt_qry_event(w->qry, e, sizeof(*e));
	if (st < 0)
		return st;
	w->status = st;
	w->process_event = true;
	w->tip_pend = e->type == ptev_async_branch && !e->ip_suppressed &&
		      e->variant.async_branch.from == w->ip;
	return 1;
}

/*
 * the query decoder's trace up to the next IP: 1 with tracing on again
 * there, 2 with tracing off there (a TIP.PGD's IP), 3 at an overflow (its
 * FUP's IP, or 0), else <= 0; @units: the TNT bits and TIPs used
 */
static int to_ip(struct pt_walk *w, uint64_t *units)
{
	struct pt_event *e = &w->ev;
	uint64_t ip;
	int st, taken;

	if (w->tip_pend) { /* perf's walk took its TIP before the error */
		w->tip_pend = w->process_event = false;
		++*units;
	}
	for (;;) {
		/* fetched before the error: perf read its FUP before it */
		bool event = w->process_event, before = event;

		w->process_event = false;
		if (!event && (w->status & pts_event_pending)) {
			st = pt_qry_event(w->qry, e, sizeof(*e));
			if (st < 0)
				return st;
			w->status = st;
			event = true;
		}
		if (event) {
			switch (e->type) {
			case ptev_enabled:
				w->ip = e->variant.enabled.ip;
				return 1;
			case ptev_async_branch:
				if (!before && !e->ip_suppressed) {
					/* perf's: on from its FUP, its TIP a plain one */
					w->ip = e->variant.async_branch.from;
					w->tip_pend = w->process_event = true;
					return 1;
				}
				++*units; /* its TIP */
				if (e->ip_suppressed)
					break;
				w->ip = e->variant.async_branch.to;
				return 1;
			case ptev_overflow: /* perf's error, then on from its FUP */
				w->ip = e->ip_suppressed ? 0 : e->variant.overflow.ip;
				w->speculative = false;
				return 3;
			case ptev_async_disabled:
				++*units; /* its TIP.PGD */
				w->q->continuous = false; /* (perf's period in ticks) */
				break;
			case ptev_disabled:
				++*units; /* its TIP.PGD */
				w->q->continuous = false;
				if (e->ip_suppressed)
					break;
				w->ip = e->variant.disabled.ip;
				return 2;
			case ptev_exec_mode:
				w->mode = e->variant.exec_mode.mode;
				break;
			case ptev_tsx: /* (its FUP gives the IP, as perf's) */
				w->speculative = e->variant.tsx.speculative;
				/* fallthrough */
			case ptev_ptwrite: /* the event is not reported (perf skips it here) */
			case ptev_exstop:
			case ptev_mwait:
				if (e->ip_suppressed)
					break;
				w->ip = pt_walk_event_ip(e);
				return before ? 1 : tip_after(w);
			default:
				break;
			}
			continue;
		}
		if (w->status & pts_eos)
			return -pte_eos;
		st = pt_qry_cond_branch(w->qry, &taken);
		if (st == -pte_bad_query)
			st = pt_qry_indirect_branch(w->qry, &ip);
		else
			ip = 0;
		if (st < 0)
			return st;
		w->status = st;
		++*units;
		if (ip && !(st & pts_ip_suppressed)) {
			w->ip = ip;
			return 1;
		}
	}
}

/*
 * an overflow that resolved with tracing off after a FUP all the same
 * (APL12's, which libipt took): perf's walk to an IP starts the trace at
 * the FUP, then on to the next IP
 */
static void stray_fup(struct queue *q)
{
	uint64_t ip = pt_ovf_fup(q);

	if (!ip)
		return;
	pt_time_now(q);
	pt_events_resync_cbr(q);
	pt_events_flush(q, 0);
	pt_branch(q, 0, ip, PRISM_PT_FL_TRACE_BEGIN);
	q->ev.after_fup = true; /* (perf's events after it: no flags) */
}

bool pt_walk_resyncs(int err)
{
	switch (-err) {
	case pte_nomap:
	case pte_bad_insn:
	case pte_bad_query:
	case pte_bad_context:
	case pte_bad_retcomp:
	case pte_retstack_empty:
	case pte_noip:
		return true;
	default: /* (a packet that cannot be decoded: on from the next PSB) */
		return false;
	}
}

uint64_t pt_walk_ip(const struct queue *q)
{
	return q->walk->ip;
}

/*
 * After pt_stop's error: on from the next IP as a trace start (perf's
 * estimated time, as into user space from the kernel).  Return: false to
 * sync at the next PSB.
 */
bool pt_walk_resync(struct queue *q)
{
	struct pt_walk *w = q->walk;
	struct pt_event ev = { .type = ptev_enabled };
	uint64_t units = w->unit_failed; /* (a failed return's bit: perf's walk took it) */
	int st;

	w->unit_failed = false;
	w->postponed = false; /* (the call stack stays, as perf's) */
	while ((st = to_ip(w, &units)) == 3) {
		/* an overflow: perf's error where its walk stood (no IP), on from its FUP */
		q->ev.resync = true;
		pt_time_skip(q, units, 0);
		pt_stop(q, ERR_OVR, 0);
		if (w->ip && pt_ovf_psb(q)) /* (perf: its walk from no IP to the PSB's FUP) */
			pt_stop(q, ERR_NOINSN, 0);
		pt_time_overflow(q);
		q->ev.resync = false;
		units = 0;
		if (w->ip) {
			st = 1;
			break;
		}
		stray_fup(q);
	}
	if (st <= 0)
		return false;
	w->enabled = st == 1;
	/* the packets after the IP's wait for the instructions after it */
	q->ev.resync = true;
	pt_time_skip(q, units, pt_ip_packet_end(q, w->ip));
	q->ev.resync = false;
	pt_events_resync_cbr(q);
	if (w->enabled) {
		ev.variant.enabled.ip = w->ip;
		pt_on_event(q, &ev);
	} else { /* (perf's: from no IP to where tracing stopped) */
		pt_time_now(q);
		pt_events_flush(q, 0);
		pt_branch(q, 0, w->ip, PRISM_PT_FL_TRACE_BEGIN | PRISM_PT_FL_TRACE_END);
	}
	pt_time_skip(q, 0, 0);
	st = pt_walk_trailing(w);
	if (st < 0)
		return false;
	q->synced = true;
	q->status = st;
	return true;
}
