// SPDX-License-Identifier: MIT
/*
 * IPC of Intel PT samples, by perf 6.1's decoder rules (see ipc.h).
 */
#include <string.h>

#include "internal.h"
#include "pt/ipc.h"

void pt_ipc_init(struct pt_ipc *c, unsigned int max_nonturbo)
{
	memset(c, 0, sizeof(*c));
	c->max_nonturbo = max_nonturbo;
}

void pt_ipc_tnt(struct pt_ipc *c, uint64_t start, uint64_t end)
{
	unsigned int i;

	if (c->tnt_n == PT_IPC_TNT) { /* never with packets as hardware makes them */
		c->tnt_head = (c->tnt_head + 1) % PT_IPC_TNT;
		c->tnt_n--;
	}
	i = (c->tnt_head + c->tnt_n++) % PT_IPC_TNT;
	c->tnt_start[i] = start;
	c->tnt_end[i] = end;
}

void pt_ipc_took(struct pt_ipc *c, uint64_t k)
{
	/* the packets before the unit are done */
	while (c->tnt_n && c->tnt_end[c->tnt_head] <= k) {
		c->tnt_head = (c->tnt_head + 1) % PT_IPC_TNT;
		c->tnt_n--;
	}
	c->tnt_more = c->tnt_n && c->tnt_start[c->tnt_head] <= k && k + 1 < c->tnt_end[c->tnt_head];
	c->took_at = c->tot_insns + 1;
}

/* perf's intel_pt_mtc_cyc_cnt_pge: the TSC from here counts cycles */
static void cyc_cnt_pge(struct pt_ipc *c, uint64_t timestamp)
{
	if (c->have_cyc)
		return;
	c->cyc_cnt_timestamp = timestamp;
	c->base_cyc_cnt = c->tot_cyc;
}

/* perf's intel_pt_mtc_cyc_cnt_upd: the cycles of the ticks since */
static __wraps void cyc_cnt_upd(struct pt_ipc *c, uint64_t timestamp)
{
	uint64_t n;
	double d;

	if (c->have_cyc)
		return;
	c->sample_cyc = true;
	c->cyc_seq++;
	if (!c->pge || timestamp <= c->cyc_cnt_timestamp)
		return;
	d = (double)(timestamp - c->cyc_cnt_timestamp) * c->tsc_to_cyc;
	if (!(d < 18446744073709551615.0)) /* a damaged trace's time: no count */
		return;
	n = (uint64_t)d + c->base_cyc_cnt;
	if (n > c->tot_cyc)
		c->tot_cyc = n;
}

void pt_ipc_packet(struct pt_ipc *c, enum pt_tpkt type, uint64_t payload, uint64_t timestamp)
{
	switch (type) {
	case PT_T_CYC:
		c->have_cyc = true;
		if (c->pge)
			c->tot_cyc += payload;
		c->sample_cyc = true;
		c->cyc_seq++;
		break;
	case PT_T_MTC:
		cyc_cnt_upd(c, timestamp);
		break;
	case PT_T_TMA:
		if (c->pge)
			cyc_cnt_pge(c, timestamp);
		else
			cyc_cnt_upd(c, timestamp);
		break;
	case PT_T_CBR:
		if (!(payload & 0xff) || (payload & 0xff) == c->cbr)
			break;
		/*
		 * perf: a new ratio while tracing is a state of its own (one
		 * where the sample time is updated)
		 */
		if (c->cbr && c->pge && c->sample_cyc) {
			c->sample_tot_cyc = c->tot_cyc;
			c->sample_cyc = false;
		}
		c->cbr = payload & 0xff;
		if (c->max_nonturbo)
			c->tsc_to_cyc = (double)c->cbr / (double)c->max_nonturbo;
		if (c->pge)
			cyc_cnt_pge(c, timestamp);
		break;
	default:
		break;
	}
}

void pt_ipc_pge(struct pt_ipc *c, bool on, uint64_t timestamp)
{
	c->pge = on;
	if (on)
		cyc_cnt_pge(c, timestamp);
}

void pt_ipc_count(struct pt_ipc *c, uint64_t n)
{
	c->tot_insns += n;
}

/* a state with the flag as perf sets it; sample_cyc left to the caller */
static void state(struct pt_ipc *c, bool sample_time, bool sample_cyc, uint64_t tot_cyc,
		  struct pt_ipc_snap *s)
{
	s->flag = false;
	if (sample_time && sample_cyc) {
		c->sample_tot_cyc = tot_cyc;
		s->flag = true;
	}
	if (!c->have_cyc)
		s->flag = true;
	s->insns = c->tot_insns;
	s->cyc = c->sample_tot_cyc;
}

void pt_ipc_state(struct pt_ipc *c, bool sample_time, struct pt_ipc_snap *s)
{
	sample_time = sample_time || c->took_at == c->tot_insns || c->tnt_more;
	state(c, sample_time, c->sample_cyc, c->tot_cyc, s);
	if (sample_time)
		c->sample_cyc = false;
}

void pt_ipc_pend(struct pt_ipc *c, const struct pt_ipc_snap *st)
{
	c->pend_done = st != NULL;
	if (st) {
		c->pend = *st;
		return;
	}
	c->pend_time = c->took_at == c->tot_insns || c->tnt_more;
	c->pend_sample_cyc = c->sample_cyc;
	c->pend_tot_cyc = c->tot_cyc;
	c->pend_seq = c->cyc_seq;
	c->pend.insns = c->tot_insns;
}

void pt_ipc_resolve(struct pt_ipc *c, bool taken)
{
	uint64_t insns = c->pend.insns;

	if (c->pend_done) { /* an instruction sample's state: the same */
		c->br = c->pend;
		return;
	}
	/*
	 * perf: the state was before the packets that followed the branch; a
	 * not-taken branch that is no state forgets the CYC before it
	 */
	if (taken) {
		state(c, c->pend_time, c->pend_sample_cyc, c->pend_tot_cyc, &c->br);
		c->br.insns = insns;
	}
	if ((!taken || c->pend_time) && c->pend_seq == c->cyc_seq)
		c->sample_cyc = false;
}

void pt_ipc_sample(struct pt_ipc *c, const struct pt_ipc_snap *s, bool branch, uint64_t *insns,
		   uint64_t *cyc)
{
	uint64_t *li = branch ? &c->last_br_insns : &c->last_in_insns;
	uint64_t *lc = branch ? &c->last_br_cyc : &c->last_in_cyc;

	*insns = *cyc = 0;
	if (!s->flag || s->cyc == *lc)
		return;
	*cyc = s->cyc - *lc;
	*insns = s->insns - *li;
	*li = s->insns;
	*lc = s->cyc;
}
