// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: time from the timing packets (TSC -> perf time), and
 * instruction periods in ticks counted as perf counts them.
 */
#include "decode.h"

/* ns -> TSC ticks by the time conversion's multiplier and shift (perf's) */
uint64_t pt_ns_to_ticks(const struct prism_time_conv *tc, uint64_t ns)
{
	uint64_t q, r;

	if (!tc->time_mult)
		return ns;
	q = ns / tc->time_mult;
	r = ns % tc->time_mult;
	return (q << tc->time_shift) + (r << tc->time_shift) / tc->time_mult;
}

void pt_set_time(struct queue *q, uint64_t tsc)
{
	if (q->d->has_tsc && (tsc != q->time_tsc || !tsc)) {
		q->time = prism_tsc_to_perf_time(&q->d->tc, tsc);
		q->time_tsc = tsc;
	}
}

/* a timing packet's TSC: the ticks count from there */
void pt_set_ticks(struct queue *q, uint64_t tsc)
{
	if (tsc != q->tsc) {
		q->tsc = tsc;
		q->tsc_insns = 0;
	}
}

void pt_update_time(struct queue *q)
{
	uint64_t tsc;
	uint32_t lm, lc;

	if (pt_dec_time(q, &tsc, &lm, &lc) < 0)
		return;
	if (!q->pkt || !q->synced_time) /* else the packets say when */
		pt_set_ticks(q, tsc);
	q->synced_time = true;
	if (q->d->has_tsc)
		pt_set_time(q, tsc);
}

/* the TSC read ahead, once what came before it is taken */
void pt_apply_tsc(struct queue *q)
{
	if (q->has_tsc_next && !q->tsc_after && !q->wait_ovf) {
		pt_set_ticks(q, q->tsc_next);
		q->has_tsc_next = false;
	}
}

/* whether @insn takes a TNT bit or a TIP: conditional, return, indirect */
static bool takes_packet(const struct pt_insn *insn)
{
	switch (insn->iclass) {
	case ptic_cond_jump:
	case ptic_return:
		return true;
	case ptic_call:
	case ptic_jump: /* not call/jmp rel */
		return insn->size && insn->raw[0] != 0xe8 && insn->raw[0] != 0xe9 &&
		       insn->raw[0] != 0xeb;
	default:
		return false;
	}
}

/*
 * Before an instruction is counted: the TSC packets read since the last
 * one (libipt reads ahead) count once the TNT bits and TIPs before them
 * are taken by the instructions, as perf counts them (a FUP goes with an
 * event, an OVF's TSC with the overflow's).
 */
void pt_scan_packets(struct queue *q)
{
	struct pt_packet p;
	uint64_t off, pos, units = 0, before = 0;
	bool tsc = false;

	if (!q->pkt || pt_dec_offset(q, &off) < 0)
		return;
	if (off != q->pkt_off) {
		if (pt_pkt_sync_set(q->pkt, q->pkt_off) >= 0)
			while (pt_pkt_get_offset(q->pkt, &pos) >= 0 && pos < off &&
			       pt_pkt_next(q->pkt, &p, sizeof(p)) >= 0) {
				if (p.type == ppt_psb)
					break; /* its TSC comes with the trace's start */
				if (p.type == ppt_ovf) { /* after the overflow's event */
					q->tnt_left = units = before = 0;
					q->wait_ovf = true;
				}
				if (p.type == ppt_tsc) {
					q->tsc_next = p.payload.tsc.tsc |
						      (q->tsc & ~((1ull << 56) - 1));
					tsc = true;
					before = units;
				} else if (p.type == ppt_tnt_8 || p.type == ppt_tnt_64) {
					units += p.payload.tnt.bit_size;
				} else if (p.type == ppt_tip || p.type == ppt_tip_pgd) {
					units++;
				}
			}
		q->pkt_off = off;
		if (tsc) {
			q->has_tsc_next = true;
			q->tsc_after = q->tnt_left + before;
		}
		q->tnt_left += units;
	}
	/* nothing before it: it counts from this instruction on */
	pt_apply_tsc(q);
}

/* after @insn: it took a TNT bit or TIP; a TSC after them counts from here */
void pt_take_packet(struct queue *q, const struct pt_insn *insn)
{
	if (takes_packet(insn) && q->tnt_left) {
		q->tnt_left--;
		if (q->tsc_after)
			q->tsc_after--;
	}
	/* what came before the TSC is taken: it counts from here */
	pt_apply_tsc(q);
}

/* instructions until the next sample in ticks, at the start of a walk (perf's) */
static uint64_t next_period(struct queue *q)
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

/* whether this instruction is sampled, in ticks; it is counted */
bool pt_ticks_due(struct queue *q, bool branch)
{
	uint64_t period = q->d->period_ticks;
	bool due = false;

	if (!q->in_walk) {
		q->walk_max = next_period(q);
		q->walk_n = 0;
		q->in_walk = true;
	}
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
	if (!q->in_walk) { /* the walk starts at the first, as pt_ticks_due starts it */
		q->walk_max = next_period(q);
		q->walk_n = 0;
		q->in_walk = true;
	}
	if (q->walk_max && q->walk_n + n >= q->walk_max)
		return false;
	q->walk_n += n;
	q->tsc_insns += n;
	return true;
}
