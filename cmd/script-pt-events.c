// SPDX-License-Identifier: MIT
/*
 * prism script --itrace=x, p, w: the names of perf's transactions, PTWRITE
 * and power events, and the text perf script prints of their raw fields
 * (perf 6.1's layout), padded as perf pads it.
 */
#include <ctype.h>
#include <inttypes.h>

#include <prism/pt.h>
#include <prism/strbuf.h>

#include "script.h"

const char *script_pt_event_name(enum prism_pt_item_kind kind)
{
	switch (kind) {
	case PRISM_PT_TRANSACTION:
		return "transactions";
	case PRISM_PT_PTWRITE:
		return "ptwrite";
	case PRISM_PT_CBR:
		return "cbr";
	case PRISM_PT_MWAIT:
		return "mwait";
	case PRISM_PT_PWRE:
		return "pwre";
	case PRISM_PT_EXSTOP:
		return "exstop";
	case PRISM_PT_PWRX:
		return "pwrx";
	case PRISM_PT_PSB:
		return "psb";
	default:
		return NULL;
	}
}

bool script_pt_event_synth(enum prism_pt_item_kind kind)
{
	return kind >= PRISM_PT_PTWRITE;
}

/* the widest name of the events @it synthesizes (perf's event column) */
int script_pt_event_width(const struct prism_itrace *it, uint64_t config)
{
	if (it->transactions)
		return 12; /* "transactions" */
	if (it->ptwrites)
		return 7; /* "ptwrite" */
	if (it->pwr_events) /* "exstop" where the event has pwr_evt, else "psb", "cbr" */
		return config & PRISM_PT_CFG_PWR_EVT ? 6 : 3;
	return 0;
}

/* perf: a payload of printable ASCII characters (NUL-padded) is shown as text too */
static void put_text(uint64_t v, struct prism_strbuf *sb)
{
	char s[9];
	int i, n = 0;

	for (i = 0; i < 8; i++) {
		char c = (char)(v >> (8 * i));

		if (!c)
			break;
		if (!isascii(c) || !isprint(c))
			return;
		s[n++] = c;
	}
	if (i < 8 && (v >> (8 * i)))
		return;
	prism_strbuf_add(sb, s, (size_t)n);
}

void script_pt_event_put(const struct prism_pt_info *info, const struct prism_pt_item *it,
			 struct prism_strbuf *sb)
{
	size_t at = sb->len;
	unsigned int mhz, percent;

	switch (it->kind) {
	case PRISM_PT_PTWRITE:
		prism_strbuf_addf(sb, " IP: %u payload: %#" PRIx64 " ", it->fup_ip, it->payload);
		put_text(it->payload, sb);
		prism_strbuf_addch(sb, ' ');
		break;
	case PRISM_PT_CBR:
		prism_pt_cbr_freq(info, it->cbr, &mhz, &percent);
		prism_strbuf_addf(sb, " cbr: %2u freq: %4u MHz ", it->cbr, mhz);
		if (percent)
			prism_strbuf_addf(sb, "(%3u%%) ", percent);
		break;
	case PRISM_PT_MWAIT:
		prism_strbuf_addf(sb, " hints: %#x extensions: %#x ", (unsigned int)it->payload,
				  (unsigned int)(it->payload >> 32));
		break;
	case PRISM_PT_PWRE:
		prism_strbuf_addf(sb, " hw: %u cstate: %u sub-cstate: %u ", it->hw, it->cstate,
				  it->subcstate);
		break;
	case PRISM_PT_EXSTOP:
		prism_strbuf_addf(sb, " IP: %u ", it->fup_ip);
		break;
	case PRISM_PT_PWRX:
		prism_strbuf_addf(sb, " deepest cstate: %u last cstate: %u wake reason: %#x ",
				  it->cstate, it->last, it->wake);
		break;
	case PRISM_PT_PSB:
		prism_strbuf_addf(sb, " psb offs: %#" PRIx64, it->payload);
		break;
	default:
		return;
	}
	prism_strbuf_pad_to(sb, at + 34, ' '); /* perf's column after the raw fields */
}
