// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: time from the timing packets (TSC -> perf time), and
 * instruction periods in ticks counted as perf counts them.
 */
#include <errno.h>

#include "decode.h"
#include "internal.h"

/*
 * The queue's timing: perf's time from the packets (decode-timing.c), the
 * config as perf gives it to its decoder (mtc_period from the event's
 * config, TSC_CTC_N/D and MAX_NONTURBO_RATIO from AUXTRACE_INFO), and a
 * packet decoder that reads the trace as far as libipt did.
 */
int pt_time_start(struct queue *q, const struct pt_config *cfg)
{
	const struct prism_pt_info *i = &q->d->o.info;
	struct pt_timing_cfg tc = { 0 };

	pt_ipc_init(&q->ipc, (unsigned int)i->max_nonturbo_ratio);
	if (!q->d->has_tsc && !q->d->period_ticks && !pt_events_scan(q->d))
		return 0;
	if (i->has_mtc) {
		if (i->mtc_freq_bits)
			tc.mtc_shift = (unsigned int)((q->d->o.config & i->mtc_freq_bits) >>
						      __builtin_ctzll(i->mtc_freq_bits));
		tc.ctc_n = (uint32_t)i->tsc_ctc_n;
		tc.ctc_d = (uint32_t)i->tsc_ctc_d;
		tc.max_nonturbo = (unsigned int)i->max_nonturbo_ratio;
	}
	pt_timing_init(&q->tm, &tc);
	q->pkt = pt_pkt_alloc_decoder(cfg);
	return q->pkt ? 0 : -ENOMEM;
}

/*
 * the time of the samples from here: perf's time now (converted once per
 * timestamp), and the instructions counted since it (@cur: the one about
 * to be counted is one of them)
 */
static void sample_time_insn(struct queue *q, bool cur)
{
	uint64_t ts = q->tm.timestamp;

	q->sample_tsc = ts;
	q->sample_insns = q->tsc_insns + cur;

	if (q->d->has_tsc && (ts != q->time_tsc || !ts)) {
		q->time = prism_tsc_to_perf_time(&q->d->tc, ts);
		q->time_tsc = ts;
	}
}

static void sample_time(struct queue *q)
{
	sample_time_insn(q, false);
}

/* a sample's time now: the latest, or perf's estimate (pt_time_at) if later */
uint64_t pt_sample_time(struct queue *q)
{
	if (q->time > q->stime)
		q->stime = q->time;
	return q->stime;
}

/*
 * An instruction at @ip: into user space from the kernel (or from no code:
 * a trace start), the samples take perf's estimated time (its "switch to
 * user space"), the instruction sample of the branch too.  (perf's u64
 * arithmetic: a damaged file's MAX_NONTURBO_RATIO wraps it.)
 */
static __wraps uint64_t est_time(const struct queue *q)
{
	uint64_t est = q->sample_insns << 1;
	uint64_t cbr = q->tm.cbr, mnt = q->d->o.info.max_nonturbo_ratio;

	if (cbr && mnt)
		est = est * mnt / cbr;
	return prism_tsc_to_perf_time(&q->d->tc, q->sample_tsc + est);
}

/* an error's time: perf's estimate from the latest timestamp and the instructions since it */
uint64_t pt_time_error(struct queue *q)
{
	if (!q->d->has_tsc)
		return pt_sample_time(q);
	sample_time(q);
	return est_time(q);
}

void pt_time_at(struct queue *q, uint64_t ip)
{
	const struct prism_pt_decoder *d = q->d;
	bool kernel = ip >> 63;

	q->hold = false;
	if (d->has_tsc && q->in_kernel && ip && !kernel) {
		q->stime = est_time(q);
		if (q->last_insn)
			q->last_insn->time = q->stime;
	}
	q->in_kernel = kernel;
}

/* libipt's packets -> the timing's */
static enum pt_tpkt tpkt(const struct pt_packet *p, uint64_t *payload, uint32_t *fc)
{
	*fc = 0;
	*payload = 0;
	switch (p->type) {
	case ppt_tsc:
		*payload = p->payload.tsc.tsc;
		return PT_T_TSC;
	case ppt_tma:
		*payload = p->payload.tma.ctc;
		*fc = p->payload.tma.fc;
		return PT_T_TMA;
	case ppt_mtc:
		*payload = p->payload.mtc.ctc;
		return PT_T_MTC;
	case ppt_cyc:
		*payload = p->payload.cyc.value;
		return PT_T_CYC;
	case ppt_cbr:
		*payload = p->payload.cbr.ratio;
		return PT_T_CBR;
	case ppt_tip_pgd:
	case ppt_stop:
	case ppt_ovf:
	case ppt_exstop:
	case ppt_mwait:
	case ppt_pwre:
	case ppt_pwrx:
	case ppt_unknown:
	case ppt_invalid:
		return PT_T_STOP;
	default:
		return PT_T_OTHER;
	}
}

/* perf's look-ahead after an MTC that followed a CYC: the cycles to the next MTC */
static void calibrate(struct queue *q, uint64_t off)
{
	struct pt_calib k;
	struct pt_packet p;
	uint64_t payload;
	uint32_t fc;

	if (!q->look)
		q->look = pt_pkt_alloc_decoder(pt_pkt_get_config(q->pkt));
	if (!q->look || pt_pkt_sync_set(q->look, off) < 0)
		return;
	pt_calib_start(&q->tm, &k);
	while (pt_pkt_next(q->look, &p, sizeof(p)) >= 0) {
		enum pt_tpkt t = tpkt(&p, &payload, &fc);

		if (p.type != ppt_pad && pt_calib_step(&q->tm, &k, t, payload, fc))
			break;
	}
}

static void apply(struct queue *q, const struct tpend *e)
{
	unsigned int cbr = q->tm.cbr;

	if (pt_timing_packet(&q->tm, e->type, e->payload, e->fc)) {
		q->tsc = q->tm.timestamp;
		q->tsc_insns = 0;
	}
	if (q->d->o.ipc)
		pt_ipc_packet(&q->ipc, e->type, e->payload, q->tm.timestamp);
	if (q->tm.calibrate)
		calibrate(q, e->next_off);
	/* perf returns a CBR change as an event: the samples after it have its time */
	if (q->tm.cbr != cbr)
		sample_time(q);
	if (e->event)
		pt_events_packet(q, e);
}

/* an event of decode-events.c: the time now, as perf's decoder state has it */
void pt_time_now(struct queue *q)
{
	sample_time(q);
}

/* the packets read ahead whose units are taken */
static void apply_due(struct queue *q)
{
	while (q->tq_n) {
		struct tpend *e = &q->tq[q->tq_head];

		if (e->at > q->units_taken || (e->ovf && q->wait_ovf) ||
		    (q->tq_until && e->next_off > q->tq_until))
			break;
		apply(q, e);
		q->tq_head = (q->tq_head + 1) % TQ;
		q->tq_n--;
	}
}

/* a packet read ahead, taken once the units before it are */
static void tq_add(struct queue *q, const struct tpend *e)
{
	if (q->tq_n == TQ) { /* never with packets as hardware makes them */
		apply(q, &q->tq[q->tq_head]);
		q->tq_head = (q->tq_head + 1) % TQ;
		q->tq_n--;
	}
	q->tq[(q->tq_head + q->tq_n++) % TQ] = *e;
}

/*
 * a packet that is no timing packet (TNT, TIP, ...): it only ends a run of
 * timing packets (pt_timing_packet's last), so one where the packet before
 * it was one already stands for both
 */
static void tq_add_other(struct queue *q, uint64_t at)
{
	const struct tpend *t = q->tq_n ? &q->tq[(q->tq_head + q->tq_n - 1) % TQ] : NULL;
	struct tpend e = { .type = PT_T_OTHER, .at = at, .after_ovf = q->in_ovf };

	if (t ? t->type == PT_T_OTHER && !t->ovf && t->after_ovf == q->in_ovf :
		q->tm.last == PT_T_OTHER && !q->in_ovf)
		return;
	tq_add(q, &e);
}

/* @p's units (TNT bits, TIPs) and what an OVF or the FUP after it does to them */
static void count_units(struct queue *q, const struct pt_packet *p, struct tpend *e)
{
	if (p->type == ppt_ovf) { /* the units before it are dropped */
		q->wait_ovf = q->in_ovf = e->ovf = true;
		q->ovf_units = q->units_seen;
	} else if (p->type == ppt_fup || p->type == ppt_tip_pge) {
		q->in_ovf = false; /* tracing resumes */
	} else if (p->type == ppt_tnt_8 || p->type == ppt_tnt_64) {
		if (q->d->o.ipc)
			pt_ipc_tnt(&q->ipc, q->units_seen, q->units_seen + p->payload.tnt.bit_size);
		q->units_seen += p->payload.tnt.bit_size;
	} else if (p->type == ppt_tip || p->type == ppt_tip_pgd) {
		q->units_seen++;
	}
}

/*
 * read the packets libipt has read, up to @off: short TNTs and PADs (most of
 * a trace) from the bytes, the others with the packet decoder
 */
static void scan_to(struct queue *q, uint64_t off)
{
	const uint8_t *t = q->map ? q->map : q->buf;
	struct pt_packet p;
	uint64_t pos = q->pkt_off, at;
	bool placed = false; /* the packet decoder is at pos */

	if (!q->pkt || off == q->pkt_off)
		return;
	if (off > q->len)
		off = q->len;
	while (pos < off) {
		struct tpend e = { .after_ovf = q->in_ovf };
		uint8_t b = t[pos];

		if (!b) { /* PAD */
			pos++;
			placed = false;
			continue;
		}
		if (!(b & 1) && b != 0x02) { /* a short TNT: its bits below the stop bit */
			unsigned int n = (unsigned int)(30 - __builtin_clz(b));

			tq_add_other(q, q->units_seen);
			if (q->d->o.ipc)
				pt_ipc_tnt(&q->ipc, q->units_seen, q->units_seen + n);
			q->units_seen += n;
			pos++;
			placed = false;
			continue;
		}
		if (!placed && pt_pkt_sync_set(q->pkt, pos) < 0)
			break;
		if (pt_pkt_next(q->pkt, &p, sizeof(p)) < 0)
			break;
		placed = pt_pkt_get_offset(q->pkt, &pos) >= 0;
		if (!placed)
			pos = off;
		if (p.type == ppt_pad)
			continue;
		if (p.type == ppt_tip_pge)
			q->pge_end = pos;
		at = q->units_seen;
		e.type = tpkt(&p, &e.payload, &e.fc);
		count_units(q, &p, &e);
		if (e.type == PT_T_OTHER && !e.ovf) {
			tq_add_other(q, at);
			continue;
		}
		e.at = at;
		e.next_off = pos;
		tq_add(q, &e);
	}
	q->pkt_off = off;
}

/*
 * with events (decode-events.c): every packet up to @off through the packet
 * decoder, and on past libipt to the next packet perf walks code for
 */
static void scan_events(struct queue *q, uint64_t off)
{
	struct pt_packet p;
	uint64_t pos;

	if (off <= q->pkt_off)
		return;
	pos = off;
	/* with events, on past libipt to the next packet perf walks code for */
	if (pt_pkt_sync_set(q->pkt, q->pkt_off) >= 0)
		while (pt_pkt_get_offset(q->pkt, &pos) >= 0 &&
		       pt_pkt_next(q->pkt, &p, sizeof(p)) >= 0) {
			struct tpend e = { .at = q->units_seen, .after_ovf = q->in_ovf };

			if (pos >= off && pt_events_stop(&p))
				break;
			if (p.type == ppt_pad)
				continue;
			e.type = tpkt(&p, &e.payload, &e.fc);
			pt_events_read(q, &p, pos, &e);
			count_units(q, &p, &e);
			if (pt_pkt_get_offset(q->pkt, &e.next_off) < 0)
				e.next_off = off;
			if (p.type == ppt_tip_pge)
				q->pge_end = e.next_off;
			tq_add(q, &e);
		}
	q->pkt_off = pos > off ? pos : off;
}

/* the packets libipt has read, up to @off */
static void scan_at(struct queue *q, uint64_t off)
{
	if (pt_events_scan(q->d))
		scan_events(q, off);
	else
		scan_to(q, off);
}

static void scan(struct queue *q)
{
	uint64_t off;

	if (q->pkt && pt_dec_offset(q, &off) >= 0)
		scan_at(q, off);
}

/* synchronized at a PSB: its packets and those after it are read from there */
void pt_time_sync(struct queue *q)
{
	q->units_seen = q->units_taken = 0;
	q->quiet_end = 0;
	q->tq_n = 0;
	q->wait_ovf = q->in_ovf = false;
	q->pge_end = 0;
	if (q->pge_until)
		q->pge_until = false, q->tq_until = 0;
	if (pt_dec_sync_offset(q, &q->pkt_off) < 0)
		q->pkt_off = 0;
	scan(q);
	apply_due(q);
	sample_time(q);
}

/*
 * An event: the packets read for it; a trace start or end has the time now
 * (perf's sample time), the others (libipt's CBR, MODE ...) leave it
 */
void pt_time_event(struct queue *q, const struct pt_event *ev)
{
	scan(q);
	/* a TIP.PGE's trace start: not the packets after it yet (pt_time_started) */
	if (ev->type == ptev_enabled && !q->tq_until && q->pge_end) {
		q->tq_until = q->pge_end;
		q->pge_until = true;
	}
	/*
	 * an interrupt's or a TSX abort's TIP, an interrupt's TIP.PGD (after
	 * their FUP): units no instruction takes
	 */
	if (((ev->type == ptev_async_branch && !ev->ip_suppressed) ||
	     ev->type == ptev_async_disabled) &&
	    q->units_taken < q->units_seen)
		q->units_taken++;
	apply_due(q);
	switch (ev->type) {
	case ptev_enabled:
	case ptev_disabled:
	case ptev_async_disabled:
	case ptev_overflow:
		sample_time(q);
		break;
	default:
		break;
	}
}

void pt_time_started(struct queue *q)
{
	if (!q->pge_until)
		return;
	q->pge_until = false;
	q->tq_until = 0;
	apply_due(q);
}

/*
 * After the overflow's error: the packets between the OVF and the FUP
 * where tracing resumes count from here (perf reads them to find the FUP),
 * those after the FUP once its trace start is sampled.
 */
void pt_time_overflow(struct queue *q)
{
	scan(q);
	q->tsc_insns = 0;
	q->wait_ovf = false;
	if (q->units_taken < q->ovf_units)
		q->units_taken = q->ovf_units;
	while (q->tq_n && (q->tq[q->tq_head].ovf || q->tq[q->tq_head].after_ovf)) {
		apply(q, &q->tq[q->tq_head]);
		q->tq_head = (q->tq_head + 1) % TQ;
		q->tq_n--;
	}
	sample_time(q);
}

void pt_time_skip(struct queue *q, uint64_t n, uint64_t end)
{
	scan(q);
	q->units_taken = q->units_seen - q->units_taken > n ? q->units_taken + n : q->units_seen;
	q->tq_until = end;
	apply_due(q);
}

/* whether @insn takes a TNT bit or a TIP: conditional, return, indirect */
static bool takes_packet(const struct pt_insn *insn)
{
	switch (insn->iclass) {
	case ptic_cond_jump:
	case ptic_return:
	case ptic_far_call: /* syscall, iret, sysret...: a TIP */
	case ptic_far_return:
	case ptic_far_jump:
		return true;
	case ptic_call:
	case ptic_jump: /* not call/jmp rel */
		return insn->size && insn->raw[0] != 0xe8 && insn->raw[0] != 0xe9 &&
		       insn->raw[0] != 0xeb;
	default:
		return false;
	}
}

static void due_packets(struct queue *q, const struct pt_insn *insn)
{
	apply_due(q);
	pt_time_at(q, insn->ip);
	if (takes_packet(insn) && q->units_taken < q->units_seen) {
		pt_ipc_took(&q->ipc, q->units_taken);
		q->units_taken++;
		sample_time_insn(q, true);
	}
}

/*
 * Before an instruction is counted: the packets libipt read for it, those
 * before the units not yet taken are taken now (perf reads them before it
 * walks to it); an instruction that takes a unit has the time now, the
 * others the time of the last that did (perf's sample time).
 */
void pt_scan_packets(struct queue *q, const struct pt_insn *insn)
{
	if (!q->pkt)
		return;
	scan(q);
	due_packets(q, insn);
}

/* the same with the decoder at @off in the trace */
void pt_scan_packets_at(struct queue *q, const struct pt_insn *insn, uint64_t off)
{
	if (!q->pkt)
		return;
	scan_at(q, off);
	due_packets(q, insn);
}

/* after an instruction: the packets after the units it took count from here */
void pt_take_packet(struct queue *q)
{
	if (q->pkt)
		apply_due(q);
}

/*
 * instructions until the next sample in ticks, at the start of a walk
 * (perf's; its u64 arithmetic: a damaged trace's TSC wraps it)
 */
static __wraps uint64_t next_period(struct queue *q)
{
	uint64_t period = q->d->period_ticks, mask = ~(period - 1);
	uint64_t t = q->tsc + q->tsc_insns, m = t & mask;

	if (q->continuous) {
		if (m > q->last_masked)
			return 1;
	} else {
		t++;
		m = t & mask;
		if (m > q->last_masked) {
			q->last_masked = m;
			q->continuous = true;
		}
	}
	if (m < q->last_masked)
		return period;
	return period - (t - m);
}

/* a walk (a run of instructions up to a branch) starts at its first */
static void start_walk(struct queue *q)
{
	if (!q->in_walk) {
		q->walk_max = next_period(q);
		q->walk_n = 0;
		q->in_walk = true;
	}
}

/* whether this instruction is sampled, in ticks; it is counted */
__wraps bool pt_ticks_due(struct queue *q, bool branch)
{
	uint64_t period = q->d->period_ticks;
	bool due = false;

	start_walk(q);
	q->walk_n++;
	q->tsc_insns++;
	if (q->walk_max && q->walk_n >= q->walk_max) {
		uint64_t m = (q->tsc + q->tsc_insns) & ~(period - 1);

		if (m > q->last_masked)
			q->last_masked = m;
		else
			q->last_masked += period;
		due = true;
	}
	if (due || branch)
		q->in_walk = false;
	return due;
}

/*
 * @n instructions in a row, none a branch: counted at once when none of
 * them is sampled (true), else nothing counted (false: one at a time)
 */
bool pt_ticks_skip(struct queue *q, uint64_t n)
{
	start_walk(q);
	if (q->walk_max && q->walk_n + n >= q->walk_max)
		return false;
	q->walk_n += n;
	q->tsc_insns += n;
	return true;
}

/*
 * For walks of many blocks at once (walk.c): the offset up to which the
 * trace from where the packets were read holds only short TNTs and PADs
 * (then a block taking a unit only counts it; pt_time_due tells which
 * packets read wait for units); 0 where something waits (no block taking a
 * unit only counts); UINT64_MAX without timing.
 */
#define QUIET_AHEAD (64u << 10)

uint64_t pt_time_quiet(struct queue *q)
{
	const uint8_t *t = q->map ? q->map : q->buf;
	uint64_t pos, end;

	if (!q->pkt)
		return UINT64_MAX;
	if (q->in_ovf || q->wait_ovf || pt_events_wait(q) || q->d->o.ipc)
		return 0;
	if (q->quiet_end > q->pkt_off)
		return q->quiet_end;
	/* (a window ahead: the pages read are released behind the decoder) */
	end = q->pkt_off + QUIET_AHEAD < q->len ? q->pkt_off + QUIET_AHEAD : q->len;
	for (pos = q->pkt_off; pos < end && (!t[pos] || (!(t[pos] & 1) && t[pos] != 0x02));)
		pos++;
	q->quiet_end = pos;
	return pos;
}

/*
 * For walks of many blocks at once: the packets read ahead wait for units
 * not taken yet, or are due (@apply: applied now, as before a block's first
 * instruction, due_packets).  Return: the unit at which the next one is
 * due (UINT64_MAX: none); 0 where one is more than an MTC or the end of a
 * run of timing packets (a TNT's), or is due and waits (the walk stops).
 */
uint64_t pt_time_due(struct queue *q, bool apply)
{
	const struct tpend *e;
	unsigned int i;

	if (apply)
		apply_due(q);
	for (i = 0; i < q->tq_n; i++) {
		e = &q->tq[(q->tq_head + i) % TQ];
		if ((e->type != PT_T_MTC && e->type != PT_T_OTHER) || e->ovf || e->after_ovf ||
		    e->event)
			return 0;
	}
	if (!q->tq_n) /* (an MTC's run ends at the TNT after it: pt_time_units) */
		return q->tm.last == PT_T_OTHER || q->tm.last == PT_T_MTC ? UINT64_MAX : 0;
	e = &q->tq[q->tq_head];
	return e->at > q->units_taken ? e->at : 0;
}

/*
 * For walks of many blocks at once: a block whose query read the trace from
 * @from to @off, past pt_time_quiet's end, where it holds only MTCs besides
 * TNTs and PADs (perf record's default mtc_period puts one every few TNTs),
 * each after a TNT not yet taken (an MTC due at once applies before the
 * block's last instruction, as pt_scan_packets_at does: the block goes the
 * usual way): its packets are read, pt_time_due applies them when due.
 * Return: the new quiet end; 0: the block goes the usual way.
 */
uint64_t pt_time_pass(struct queue *q, uint64_t from, uint64_t off)
{
	const uint8_t *t = q->map ? q->map : q->buf;
	uint64_t pos = from < q->pkt_off ? from : q->pkt_off, seen = q->units_seen;

	if (!q->pkt || off > q->len)
		return 0;
	while (pos < off) {
		uint8_t b = t[pos];

		if (!b || pt_short_tnt_bits(b)) {
			if (pos >= q->pkt_off)
				seen += pt_short_tnt_bits(b);
			pos++;
		} else if (b == PT_MTC_BYTE && pos + 2 <= off) {
			if (pos >= q->pkt_off && seen <= q->units_taken)
				return 0;
			pos += 2;
		} else {
			return 0;
		}
	}
	scan_at(q, off);
	q->quiet_end = 0;
	return pt_time_quiet(q);
}

/*
 * @units taken by the blocks walked at once, the trace read up to @off
 * (within pt_time_quiet's); @insns: the instructions counted at the last
 * that took one, itself included (its sample time)
 */
void pt_time_units(struct queue *q, uint64_t off, uint64_t units, uint64_t insns)
{
	const uint8_t *t = q->map ? q->map : q->buf;
	uint64_t pos;

	if (!q->pkt)
		return;
	for (pos = q->pkt_off; pos < off; pos++)
		if (t[pos]) { /* (a TNT: it ends a run of timing packets, as tq_add_other's) */
			q->units_seen += (unsigned int)(30 - __builtin_clz(t[pos]));
			q->tm.last = PT_T_OTHER;
		}
	if (off > q->pkt_off)
		q->pkt_off = off;
	if (!units)
		return;
	q->units_taken += units;
	sample_time_insn(q, false);
	q->sample_insns = insns;
}

/* instructions to the next sample in ticks, a walk started (UINT64_MAX: none) */
uint64_t pt_ticks_room(struct queue *q)
{
	start_walk(q);
	return q->walk_max ? q->walk_max - q->walk_n : UINT64_MAX;
}
