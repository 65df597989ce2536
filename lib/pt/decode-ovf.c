// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: what libipt does not say about an overflow, read
 * from the packets between the decoder's last PSB and where it stands.
 *
 * - An overflow whose trace restarts at a PSB+ (no FUP right after the
 *   OVF): perf's decoder then walks from no IP to the PSB's FUP and
 *   reports a failed instruction at IP 0 after the overflow, with timing
 *   packets or without; libipt (its SKD010 recovery) reports the overflow
 *   at that FUP.
 * - An overflow that resolved with tracing off (OVF, then TIP.PGE):
 *   libipt reports it without an IP.  perf's decoder stands where the
 *   last branch before it went (a TNT bit, a TIP's IP), does that branch
 *   and reports the overflow there.
 * - An overflow that resolved with tracing off after a FUP all the same
 *   (Apollo Lake's erratum APL12, which libipt's workaround skips, on for
 *   every CPU: pt_cpu_config): perf's decoder starts the trace at the FUP,
 *   then again at the TIP.PGE, walking no code between them.
 * - Where the last packet with an IP ends (walk-resync.c: the timing
 *   packets after it wait for the instructions after it): the packet at
 *   the decoder's place where it holds the IP wanted and the last before
 *   it does not (libipt stands at the FUP of an event it gave: MWAIT,
 *   EXSTOP, PTWRITE).
 */
#include <stdbool.h>

#include "decode.h"
#include "internal.h"

struct ovf_scan {
	bool psb; /* the last OVF was followed by a PSB before its FUP */
	/* the last branch packet before the last OVF: a TNT bit or a TIP's IP */
	bool tnt, taken, tip;
	uint64_t tip_ip;
	/* the FUP right after the last OVF (its IP; 0: none), a stray one if tracing was off */
	uint64_t ovf_fup;
	uint64_t ip_end; /* the end of the last TIP, TIP.PGE, TIP.PGD or FUP with an IP */
	uint64_t want; /* the IP wanted at ip_end (0: any) */
};

static int scan(struct queue *q, struct ovf_scan *s)
{
	const uint8_t *t = q->map ? q->map : q->buf;
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	struct pt_packet p;
	uint64_t from, to, ip = 0;
	bool in_ovf = false, tnt = false, taken = false, tip = false;

	if (!t || pt_dec_offset(q, &to) < 0 || to > q->len)
		return -1;
	if (pt_dec_sync_offset(q, &from) < 0 || from > to)
		from = 0;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)t; /* libipt only reads it */
	cfg.end = (uint8_t *)t + (s->want ? q->len : to);
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec)
		return -1;
	if (pt_pkt_sync_set(dec, from) >= 0) {
		uint64_t at = from, end_ip = 0;

		while (pt_pkt_get_offset(dec, &at) >= 0 && pt_pkt_next(dec, &p, sizeof(p)) >= 0) {
			bool ip_pkt = p.type == ppt_tip || p.type == ppt_tip_pge ||
				      p.type == ppt_tip_pgd || p.type == ppt_fup,
			     has_ip = ip_pkt && p.payload.ip.ipc != pt_ipc_suppressed;

			if (p.type == ppt_psb)
				ip = 0;
			else if (ip_pkt)
				ip = pt_last_ip(ip, &p.payload.ip);
			if (at >= to) { /* the packet at the decoder's place */
				if (has_ip && ip == s->want && end_ip != s->want)
					pt_pkt_get_offset(dec, &s->ip_end);
				break;
			}
			if (has_ip) {
				pt_pkt_get_offset(dec, &s->ip_end);
				end_ip = ip;
			}
			switch (p.type) {
			case ppt_ovf:
				in_ovf = true;
				s->psb = false;
				s->ovf_fup = 0;
				s->tnt = tnt, s->taken = taken, s->tip = tip, s->tip_ip = ip;
				tnt = tip = false;
				break;
			case ppt_psb:
				s->psb |= in_ovf;
				break;
			case ppt_tnt_8:
			case ppt_tnt_64:
				if (p.payload.tnt.bit_size) {
					tnt = true, tip = false;
					taken = p.payload.tnt.payload & 1; /* the last bit */
				}
				break;
			case ppt_fup:
				if (in_ovf && has_ip && !s->psb)
					s->ovf_fup = ip;
				in_ovf = false; /* tracing resumes */
				break;
			case ppt_tip:
				tip = true, tnt = false;
				break;
			case ppt_tip_pge:
			case ppt_tip_pgd:
				tip = tnt = false; /* no branch pending from before it */
				break;
			default:
				break;
			}
		}
	}
	pt_pkt_free_decoder(dec);
	return 0;
}

uint64_t pt_ip_packet_end(struct queue *q, uint64_t ip)
{
	struct ovf_scan s = { .want = ip };

	return scan(q, &s) ? UINT64_MAX : s.ip_end;
}

bool pt_ovf_psb(struct queue *q)
{
	struct ovf_scan s = { 0 };

	return !scan(q, &s) && s.psb;
}

uint64_t pt_ovf_fup(struct queue *q)
{
	struct ovf_scan s = { 0 };

	return scan(q, &s) ? 0 : s.ovf_fup;
}

/* a conditional jump's target from its bytes (pend_raw), @next the address after it */
static __wraps uint64_t cond_target(const struct queue *q, uint64_t next)
{
	const uint8_t *b = q->pend_raw;
	unsigned int i = 0, n = q->pend_size;
	uint64_t to;
	int64_t rel;

	while (i < n && (b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x66 || b[i] == 0x67 ||
			 b[i] == 0xf2 || b[i] == 0xf3 || (!q->pend_32bit && (b[i] & 0xf0) == 0x40)))
		i++;
	if (i + 2 > n)
		return 0;
	if (b[i] == 0x0f) { /* 0f 8x: rel32 (rel16 after 66 in 32-bit code) */
		bool r16 = q->pend_32bit && i && b[i - 1] == 0x66;

		if (n - i < (r16 ? 4u : 6u))
			return 0;
		rel = r16 ? (int16_t)(b[n - 2] | b[n - 1] << 8) :
			    (int32_t)((uint32_t)b[n - 4] | (uint32_t)b[n - 3] << 8 |
				      (uint32_t)b[n - 2] << 16 | (uint32_t)b[n - 1] << 24);
	} else { /* 7x, e0-e3: rel8 */
		rel = (int8_t)b[n - 1];
	}
	to = next + (uint64_t)rel;
	return q->pend_32bit ? (uint32_t)to : to;
}

/*
 * prism's walk knows where it stood; with libipt's decoders, the last
 * instruction was a branch (pend_flags, flags_ip): its target from the
 * TIP before the overflow, or from the TNT bit (a conditional jump; a
 * compressed return's target is libipt's call stack's, not known here)
 */
uint64_t pt_ovf_disabled_ip(struct queue *q)
{
	struct ovf_scan s = { 0 };
	bool cond = q->pend_flags & PRISM_PT_FL_CONDITIONAL;
	uint64_t next;

	if (q->walk)
		return q->pend_flags ? pt_walk_ovf_ip(q) : 0;
	if (!q->pend_flags || scan(q, &s))
		return 0;
	if (s.tip && !cond)
		return s.tip_ip;
	if (s.tnt && s.taken && (q->pend_flags & PRISM_PT_FL_RETURN))
		return q->ret_to; /* (the instruction decoder's) */
	if (!s.tnt || !cond)
		return 0;
	pt_branch_bytes(q);
	if (!q->pend_size)
		return 0;
	next = q->flags_ip + q->pend_size;
	return s.taken ? cond_target(q, next) : next;
}

void pt_ovf_calls(struct queue *q, const struct pt_insn *insn)
{
	const uint8_t *b = insn->raw + (insn->size >= 5 ? insn->size - 5 : 0);

	if (insn->iclass == ptic_return) {
		q->ret_to = 0;
		if (q->ret_n) {
			q->ret_to = q->rets[q->ret_top];
			q->ret_top = (uint8_t)((q->ret_top + 15) % 16);
			q->ret_n--;
		}
		return;
	}
	/* libipt pushes no call to the next instruction (e8 00000000) */
	if (insn->size >= 5 && b[0] == 0xe8 && !(b[1] | b[2] | b[3] | b[4]))
		return;
	q->ret_top = (uint8_t)((q->ret_top + 1) % 16);
	q->rets[q->ret_top] = insn->ip + insn->size;
	if (q->ret_n < 16)
		q->ret_n++;
}
