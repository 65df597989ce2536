/* SPDX-License-Identifier: MIT */
/*
 * Intel PT timestamps between TSC packets, as perf 6.1 computes them: the
 * TSC, TMA, MTC, CYC and CBR packets of a trace in stream order make the
 * time of the instructions that follow (lib/pt/decode-timing.c; no libipt
 * here: the unit tests feed packets by hand).
 */
#ifndef PRISM_PT_TIMING_H
#define PRISM_PT_TIMING_H

#include <stdbool.h>
#include <stdint.h>

/* the packets that matter to the time; the calibration stops at PT_T_STOP */
enum pt_tpkt {
	PT_T_OTHER, /* TNT, TIP, FUP, PSB, PSBEND, MODE, PIP, PAD ... */
	PT_T_STOP, /* TIP.PGD, TraceSTOP, OVF, EXSTOP, MWAIT, PWRE, PWRX, bad */
	PT_T_TSC,
	PT_T_TMA,
	PT_T_MTC,
	PT_T_CYC,
	PT_T_CBR,
};

struct pt_timing_cfg {
	unsigned int mtc_shift; /* the mtc_period of the event's config */
	uint32_t ctc_n, ctc_d; /* TSC / CTC = n / d (AUXTRACE_INFO's TSC_CTC_N, _D) */
	unsigned int max_nonturbo; /* MAX_NONTURBO_RATIO */
};

struct pt_timing {
	struct pt_timing_cfg c;
	uint32_t mult; /* n / d when a whole number, else 0 */
	uint64_t timestamp; /* the time now, in TSC ticks (0: none yet) */
	uint64_t tsc_timestamp; /* the last TSC packet's */
	uint64_t ctc_timestamp, ctc_delta; /* the TSC of the TMA's MTC tick, CTC since */
	uint32_t last_mtc;
	bool have_tma, fixup_last_mtc;
	uint64_t cycle_cnt, cyc_ref_timestamp; /* cycles since the reference time */
	unsigned int cbr;
	double cbr_cyc_to_tsc, calc_cyc_to_tsc; /* TSC ticks a cycle: by CBR, measured */
	bool have_calc_cyc_to_tsc;
	enum pt_tpkt last; /* the packet before this one */
	bool calibrate; /* an MTC after a CYC: measure cycles to the next MTC */
};

/* the state of a calibration: the packets after the MTC, read ahead */
struct pt_calib {
	uint64_t cycle_cnt, ctc_timestamp, ctc_delta, tsc_timestamp, timestamp, start;
	uint32_t last_mtc;
	unsigned int cbr;
	double cbr_cyc_to_tsc;
	bool have_tma, fixup_last_mtc;
	enum pt_tpkt last;
};

void pt_timing_init(struct pt_timing *t, const struct pt_timing_cfg *c);
/*
 * The next packet of the trace (@payload: the TSC, CTC, MTC, cycles or
 * ratio; @fc: a TMA's fast counter).  Return: whether the instructions
 * count from 0 again (perf's timestamp_insn_cnt).  After it, t->calibrate
 * says that pt_calib_* should read the packets that follow.
 */
bool pt_timing_packet(struct pt_timing *t, enum pt_tpkt type, uint64_t payload, uint32_t fc);
void pt_calib_start(const struct pt_timing *t, struct pt_calib *k);
/* a packet after the MTC; Return: true when the calibration is over */
bool pt_calib_step(struct pt_timing *t, struct pt_calib *k, enum pt_tpkt type, uint64_t payload,
		   uint32_t fc);
/* @t * @n / @d without overflow (perf's) */
uint64_t pt_multdiv(uint64_t t, uint32_t n, uint32_t d);

#endif /* PRISM_PT_TIMING_H */
