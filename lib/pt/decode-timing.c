// SPDX-License-Identifier: MIT
/*
 * Intel PT timestamps as perf 6.1's decoder computes them, packet by
 * packet: a TSC packet sets the time; a TMA ties the CTC (the crystal clock
 * MTC packets sample) to that TSC, and each MTC then moves the time to its
 * CTC tick (TSC = CTC * n / d); a CYC packet counts the cycles since the
 * last MTC or TSC that followed a CYC, turned into TSC ticks by the ratio
 * measured between that MTC and the next (the cycles of the CYC packets
 * between), else by the CBR packet's estimate (MAX_NONTURBO_RATIO / CBR).
 * The time never goes back: a smaller MTC, CYC or TSC time is ignored.
 * The arithmetic is perf's, in u64: a damaged trace's times wrap (__wraps).
 */
#include "internal.h"
#include "pt/timing.h"

/* a measured ratio above the CBR one by more than this is not believed */
#define CYC_RATIO_MAX 1.25

__wraps uint64_t pt_multdiv(uint64_t t, uint32_t n, uint32_t d)
{
	if (!d)
		return 0;
	return (t / d) * n + ((t % d) * n) / d;
}

void pt_timing_init(struct pt_timing *t, const struct pt_timing_cfg *c)
{
	*t = (struct pt_timing){ .c = *c, .last = PT_T_OTHER };
	/* mtc_period is a 4-bit field: a file's bits mask may say more */
	if (t->c.mtc_shift > 15)
		t->c.mtc_shift = 0;
	if (!t->c.ctc_n)
		t->c.ctc_d = 0;
	if (t->c.ctc_d && !(t->c.ctc_n % t->c.ctc_d))
		t->mult = t->c.ctc_n / t->c.ctc_d;
}

static __wraps uint64_t ctc_to_tsc(const struct pt_timing *t, uint64_t ctc)
{
	return t->mult ? ctc * t->mult : pt_multdiv(ctc, t->c.ctc_n, t->c.ctc_d);
}

/*
 * The TSC of an MTC: its 8 CTC bits after the last ones (a TMA gives only
 * 16 CTC bits: with mtc_shift > 8 the first MTC supplies those missing)
 */
static __wraps uint64_t mtc_time(const struct pt_timing *t, uint32_t mtc, uint32_t *last_mtc,
				 bool *fixup, uint64_t ctc_timestamp, uint64_t *ctc_delta)
{
	uint32_t delta;

	if (t->c.mtc_shift > 8 && *fixup) {
		uint32_t missing = 1u << (16 - t->c.mtc_shift);

		*fixup = false;
		*last_mtc |= mtc & ~(missing - 1);
		if (*last_mtc >= mtc)
			*last_mtc = (*last_mtc - missing) & 0xff;
	}
	delta = mtc > *last_mtc ? mtc - *last_mtc : mtc + 256 - *last_mtc;
	*ctc_delta += (uint64_t)delta << t->c.mtc_shift;
	*last_mtc = mtc;
	return ctc_timestamp + ctc_to_tsc(t, *ctc_delta);
}

static __wraps void tma(struct pt_timing *t, uint32_t ctc, uint32_t fc)
{
	uint32_t rem = ctc & ((1u << t->c.mtc_shift) - 1);

	t->last_mtc = (ctc >> t->c.mtc_shift) & 0xff;
	t->ctc_timestamp = t->tsc_timestamp - fc - ctc_to_tsc(t, rem);
	t->ctc_delta = 0;
	t->have_tma = true;
	t->fixup_last_mtc = true;
}

static bool tsc(struct pt_timing *t, uint64_t v)
{
	t->have_tma = false;
	if (!t->timestamp) {
		t->timestamp = t->tsc_timestamp = v;
		return true;
	}
	v |= t->timestamp & (0xffull << 56);
	t->tsc_timestamp = v;
	/*
	 * behind the time: slipped past MTCs, or bad (perf 6.1 takes it for a
	 * wrap only where the buffer has no reference TSC, which perf record
	 * always writes): the time stays
	 */
	if (v > t->timestamp)
		t->timestamp = v;
	return true;
}

/* cycles -> TSC ticks from the reference time; false: no ratio, or too big */
static bool cyc_time(const struct pt_timing *t, double ratio, uint64_t *out)
{
	double v = (double)t->cyc_ref_timestamp + (double)t->cycle_cnt * ratio;

	if (!(v >= 0 && v < 18446744073709551615.0))
		return false;
	*out = (uint64_t)v;
	return true;
}

bool pt_timing_packet(struct pt_timing *t, enum pt_tpkt type, uint64_t payload, uint32_t fc)
{
	bool reset = false, after_cyc = t->last == PT_T_CYC;
	uint64_t v;

	t->calibrate = false;
	t->last = type;
	switch (type) {
	case PT_T_TSC:
		reset = tsc(t, payload);
		break;
	case PT_T_TMA:
		if (t->c.ctc_d)
			tma(t, (uint32_t)payload, fc);
		return false;
	case PT_T_MTC:
		if (!t->have_tma)
			return false;
		v = mtc_time(t, (uint32_t)payload & 0xff, &t->last_mtc, &t->fixup_last_mtc,
			     t->ctc_timestamp, &t->ctc_delta);
		if (v >= t->timestamp)
			t->timestamp = v;
		reset = true;
		t->calibrate = after_cyc;
		break;
	case PT_T_CYC:
		t->cycle_cnt += payload;
		if (!t->cyc_ref_timestamp)
			return false;
		if (t->have_calc_cyc_to_tsc) {
			if (!cyc_time(t, t->calc_cyc_to_tsc, &v))
				return false;
		} else if (t->cbr) {
			if (!cyc_time(t, t->cbr_cyc_to_tsc, &v))
				return false;
		} else {
			return false;
		}
		if (v >= t->timestamp)
			t->timestamp = v;
		return true;
	case PT_T_CBR:
		if (t->cbr != (unsigned int)(payload & 0xff)) {
			/* a new frequency: the cycles count from here */
			t->cbr = payload & 0xff;
			t->cbr_cyc_to_tsc = t->cbr ? (double)t->c.max_nonturbo / t->cbr : 0;
			t->cyc_ref_timestamp = t->timestamp;
			t->cycle_cnt = 0;
		}
		return false;
	default:
		return false;
	}
	/* a TSC or MTC right after a CYC: the cycles count from here */
	if (after_cyc) {
		t->cyc_ref_timestamp = t->timestamp;
		t->cycle_cnt = 0;
		t->have_calc_cyc_to_tsc = false;
	}
	return reset;
}

void pt_calib_start(const struct pt_timing *t, struct pt_calib *k)
{
	*k = (struct pt_calib){
		.ctc_timestamp = t->ctc_timestamp,
		.ctc_delta = t->ctc_delta,
		.tsc_timestamp = t->tsc_timestamp,
		.timestamp = t->timestamp,
		.start = t->timestamp,
		.last_mtc = t->last_mtc,
		.have_tma = t->have_tma,
		.fixup_last_mtc = t->fixup_last_mtc,
		/* perf's look-ahead starts from the packet before the MTC: a CYC */
		.last = PT_T_CYC,
	};
}

bool pt_calib_step(struct pt_timing *t, struct pt_calib *k, enum pt_tpkt type, uint64_t payload,
		   uint32_t fc)
{
	enum pt_tpkt last = k->last;
	uint64_t v;
	double ratio;

	k->last = type;
	switch (type) {
	case PT_T_OTHER:
		return false;
	case PT_T_CYC:
		k->cycle_cnt += payload;
		return false;
	case PT_T_CBR:
		if (k->cbr && k->cbr != (unsigned int)payload)
			return true;
		k->cbr = (unsigned int)payload;
		k->cbr_cyc_to_tsc = k->cbr ? (double)t->c.max_nonturbo / k->cbr : 0;
		return false;
	case PT_T_MTC:
		if (!k->have_tma)
			return false;
		v = mtc_time(t, (uint32_t)payload & 0xff, &k->last_mtc, &k->fixup_last_mtc,
			     k->ctc_timestamp, &k->ctc_delta);
		if (v < k->timestamp)
			return true;
		if (last != PT_T_CYC) {
			k->timestamp = v;
			return false;
		}
		break; /* the next MTC after a CYC: measure */
	default: /* TSC, TMA (not used for now, as perf), the trace stops */
		return true;
	}
	if (!k->cbr && t->cbr) {
		k->cbr = t->cbr;
		k->cbr_cyc_to_tsc = t->cbr_cyc_to_tsc;
	}
	if (!k->cycle_cnt)
		return true;
	ratio = (double)(v - k->start) / (double)k->cycle_cnt;
	if (k->cbr && ratio > k->cbr_cyc_to_tsc && ratio / k->cbr_cyc_to_tsc > CYC_RATIO_MAX)
		return true;
	t->calc_cyc_to_tsc = ratio;
	t->have_calc_cyc_to_tsc = true;
	return true;
}
