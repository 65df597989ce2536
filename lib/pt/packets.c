// SPDX-License-Identifier: MIT
/*
 * Intel PT packets in perf report -D's layout (perf 6.1), through libipt's
 * packet decoder: libipt finds each packet and its fields; the text is
 * perf's (its names, and the raw payloads it shows for CBR, PIP, VMCS and
 * the power packets).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <intel-pt.h>

#include <prism/error.h>
#include <prism/pt.h>
#include <prism/strbuf.h>

#include "internal.h"

#define FLUSH_AT 65536

/* @n little-endian bytes at @p */
static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (; n; n--)
		v = (v << 8) | p[n - 1];
	return v;
}

static const char *ip_name(enum pt_packet_type t)
{
	switch (t) {
	case ppt_tip:
		return "TIP";
	case ppt_tip_pge:
		return "TIP.PGE";
	case ppt_tip_pgd:
		return "TIP.PGD";
	default:
		return "FUP";
	}
}

/* (the packets' lines are most of -D: written without printf) */
static const char hexd[] = "0123456789abcdef";

static void tnt(struct prism_strbuf *sb, const struct pt_packet_tnt *t)
{
	char s[4 + 64 + 5];
	unsigned int i, k = 4, n = t->bit_size < 64 ? t->bit_size : 64;

	memcpy(s, "TNT ", 4);
	for (i = n; i; i--)
		s[k++] = t->payload >> (i - 1) & 1 ? 'T' : 'N';
	s[k++] = ' ';
	s[k++] = '(';
	if (n >= 10)
		s[k++] = (char)('0' + n / 10);
	s[k++] = (char)('0' + n % 10);
	s[k++] = ')';
	prism_strbuf_add(sb, s, k);
}

/* the packet's text; @b: its bytes */
static void describe(struct prism_strbuf *sb, const struct pt_packet *p, const uint8_t *b)
{
	uint64_t v;

	switch (p->type) {
	case ppt_pad:
		prism_strbuf_addstr(sb, "PAD");
		break;
	case ppt_psb:
		prism_strbuf_addstr(sb, "PSB");
		break;
	case ppt_psbend:
		prism_strbuf_addstr(sb, "PSBEND");
		break;
	case ppt_stop:
		prism_strbuf_addstr(sb, "TraceSTOP");
		break;
	case ppt_ovf:
		prism_strbuf_addstr(sb, "OVF");
		break;
	case ppt_tnt_8:
	case ppt_tnt_64:
		tnt(sb, &p->payload.tnt);
		break;
	case ppt_fup:
	case ppt_tip:
	case ppt_tip_pge:
	case ppt_tip_pgd:
		if (p->payload.ip.ipc == pt_ipc_suppressed)
			prism_strbuf_addf(sb, "%s no ip", ip_name(p->type));
		else
			prism_strbuf_addf(sb, "%s 0x%" PRIx64, ip_name(p->type), p->payload.ip.ip);
		break;
	case ppt_mode:
		if (p->payload.mode.leaf == pt_mol_exec)
			prism_strbuf_addf(sb, "MODE.Exec IF:%d %d", b[1] >> 2 & 1,
					  (b[1] & 3) == 1 ? 64 :
					  (b[1] & 3) == 2 ? 32 :
							    16);
		else
			prism_strbuf_addf(sb, "MODE.TSX TXAbort:%u InTX:%u",
					  p->payload.mode.bits.tsx.abrt,
					  p->payload.mode.bits.tsx.intx);
		break;
	case ppt_pip:
		v = le(b + 2, 6);
		prism_strbuf_addf(sb, "PIP 0x%" PRIx64 " (NR=%d)", (v & ~(uint64_t)1) >> 1,
				  (int)(v & 1));
		break;
	case ppt_vmcs:
		prism_strbuf_addf(sb, "VMCS 0x%" PRIx64, le(b + 2, 5));
		break;
	case ppt_cbr:
		prism_strbuf_addf(sb, "CBR 0x%" PRIx64, le(b + 2, 2));
		break;
	case ppt_tsc:
		prism_strbuf_addf(sb, "TSC 0x%" PRIx64, p->payload.tsc.tsc);
		break;
	case ppt_tma:
		prism_strbuf_addf(sb, "TMA CTC 0x%x FC 0x%x", p->payload.tma.ctc,
				  p->payload.tma.fc);
		break;
	case ppt_mtc:
		prism_strbuf_addf(sb, "MTC 0x%x", p->payload.mtc.ctc);
		break;
	case ppt_cyc:
		prism_strbuf_addf(sb, "CYC 0x%" PRIx64, p->payload.cyc.value);
		break;
	case ppt_mnt:
		prism_strbuf_addf(sb, "MNT 0x%" PRIx64, p->payload.mnt.payload);
		break;
	case ppt_exstop:
		prism_strbuf_addf(sb, "EXSTOP IP:%d", p->payload.exstop.ip);
		break;
	case ppt_mwait:
		v = le(b + 2, 8);
		prism_strbuf_addf(sb, "MWAIT 0x%" PRIx64 " Hints 0x%x Extensions 0x%x", v,
				  (unsigned int)(v & 0xff), (unsigned int)(v >> 32 & 3));
		break;
	case ppt_pwre:
		v = le(b + 2, 2);
		prism_strbuf_addf(sb, "PWRE 0x%" PRIx64 " HW:%u CState:%u Sub-CState:%u", v,
				  !!(v & 0x80), (unsigned int)(v >> 12 & 0xf),
				  (unsigned int)(v >> 8 & 0xf));
		break;
	case ppt_pwrx:
		v = le(b + 2, 5);
		prism_strbuf_addf(sb,
				  "PWRX 0x%" PRIx64
				  " Last CState:%u Deepest CState:%u Wake Reason 0x%x",
				  v, (unsigned int)(v >> 4 & 0xf), (unsigned int)(v & 0xf),
				  (unsigned int)(v >> 8 & 0xf));
		break;
	case ppt_ptw:
		prism_strbuf_addf(sb, "PTWRITE 0x%" PRIx64 " IP:%d", p->payload.ptw.payload,
				  p->payload.ptw.ip);
		break;
	default:
		prism_strbuf_addstr(sb, "Bad packet!");
		break;
	}
}

/* ".  %08zx: ", " %02x" a byte, padded to 16 bytes */
static void line(struct prism_strbuf *sb, size_t off, const uint8_t *b, size_t n)
{
	char s[3 + 16 + 2], x[3] = { ' ' };
	size_t i, k = sizeof(s), w;

	s[--k] = ' ';
	s[--k] = ':';
	for (w = 0; w < 8 || off; w++, off >>= 4)
		s[--k] = hexd[off & 15];
	s[--k] = ' ';
	s[--k] = ' ';
	s[--k] = '.';
	prism_strbuf_add(sb, s + k, sizeof(s) - k);
	for (i = 0; i < n; i++) {
		x[1] = hexd[b[i] >> 4];
		x[2] = hexd[b[i] & 15];
		prism_strbuf_add(sb, x, 3);
	}
	if (n < 16)
		prism_strbuf_pad_to(sb, sb->len + 3 * (16 - n), ' ');
	prism_strbuf_addch(sb, ' ');
}

int prism_pt__dump_packets(const uint8_t *data, size_t len, struct prism_strbuf *sb,
			   int (*flush)(void *ctx, struct prism_strbuf *sb), void *ctx)
{
	struct pt_packet_decoder *dec;
	struct pt_config cfg;
	size_t off = 0;
	int err = 0;

	prism_strbuf_addf(sb, ". ... Intel Processor Trace data: size %zu bytes\n", len);
	if (!len)
		return 0;
	pt_config_init(&cfg);
	cfg.begin = (uint8_t *)data; /* libipt only reads it */
	cfg.end = (uint8_t *)data + len;
	dec = pt_pkt_alloc_decoder(&cfg);
	if (!dec)
		return -ENOMEM;
	while (off < len && !err) {
		struct pt_packet p;
		size_t n = 1;

		if (pt_pkt_sync_set(dec, off) >= 0 && pt_pkt_next(dec, &p, sizeof(p)) >= 0 &&
		    p.size && p.type != ppt_unknown && p.type != ppt_invalid) {
			n = p.size;
			/* as perf: zeros after a packet are shown with it, up to 8 bytes */
			while (n < 8 && off + n < len && !data[off + n])
				n++;
			line(sb, off, data + off, n);
			describe(sb, &p, data + off);
		} else {
			line(sb, off, data + off, 1);
			prism_strbuf_addstr(sb, "Bad packet!");
		}
		prism_strbuf_addch(sb, '\n');
		off += n;
		if (flush && sb->len >= FLUSH_AT)
			err = flush(ctx, sb);
	}
	pt_pkt_free_decoder(dec);
	return err;
}
