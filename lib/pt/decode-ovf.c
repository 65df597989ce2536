// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: an overflow whose trace restarts at a PSB+ (no FUP
 * right after the OVF).  perf's decoder then walks from no IP to the
 * PSB's FUP and reports a failed instruction at IP 0 after the overflow,
 * with timing packets or without; libipt (its SKD010 recovery) reports the
 * overflow at that FUP.  The packets from the decoder's last PSB to where
 * it stands tell which of the two it was.
 */
#include <stdbool.h>

#include "decode.h"

bool pt_ovf_psb(struct queue *q)
{
	const uint8_t *t = q->map ? q->map : q->buf;
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	struct pt_packet p;
	uint64_t from, to;
	bool in_ovf = false, psb = false;

	if (!t || pt_dec_offset(q, &to) < 0 || to > q->len)
		return false;
	if (pt_dec_sync_offset(q, &from) < 0 || from > to)
		from = 0;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)t; /* libipt only reads it */
	cfg.end = (uint8_t *)t + to;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec)
		return false;
	if (pt_pkt_sync_set(dec, from) >= 0) {
		while (pt_pkt_next(dec, &p, sizeof(p)) >= 0) {
			if (p.type == ppt_ovf)
				in_ovf = true, psb = false;
			else if (p.type == ppt_psb)
				psb |= in_ovf;
			else if (p.type == ppt_fup)
				in_ovf = false; /* tracing resumes */
		}
	}
	pt_pkt_free_decoder(dec);
	return psb;
}
