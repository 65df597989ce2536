// SPDX-License-Identifier: MIT
/*
 * lib/pt/decode-timing.c: Intel PT time from TSC, TMA, MTC, CYC and CBR
 * packets, against values worked out by hand from perf 6.1's rules.
 */
#include <stdint.h>

#include "pt/timing.h"
#include "test.h"

static struct pt_timing t;

static void start(unsigned int shift, uint32_t n, uint32_t d, unsigned int nonturbo)
{
	struct pt_timing_cfg c = {
		.mtc_shift = shift, .ctc_n = n, .ctc_d = d, .max_nonturbo = nonturbo
	};

	pt_timing_init(&t, &c);
}

static void test_multdiv(void)
{
	TEST_EQ_U64(pt_multdiv(1000, 141, 2), 70500);
	TEST_EQ_U64(pt_multdiv(7, 3, 4), 5);
	/* no overflow where t * n would */
	TEST_EQ_U64(pt_multdiv((1ull << 62) + 5, 3, 4), 3458764513820540931ull);
	TEST_EQ_U64(pt_multdiv(5, 3, 0), 0);
}

static void test_tsc(void)
{
	start(0, 0, 0, 0);
	TEST_TRUE(pt_timing_packet(&t, PT_T_TSC, 2000000, 0));
	TEST_EQ_U64(t.timestamp, 2000000);
	TEST_TRUE(pt_timing_packet(&t, PT_T_TSC, 2001000, 0));
	TEST_EQ_U64(t.timestamp, 2001000);
	/* behind: the time stays, the instructions count from 0 */
	TEST_TRUE(pt_timing_packet(&t, PT_T_TSC, 2000500, 0));
	TEST_EQ_U64(t.timestamp, 2001000);
	TEST_EQ_U64(t.tsc_timestamp, 2000500);
	/* without TSC_CTC_N/D, MTCs and TMAs do nothing */
	TEST_TRUE(!pt_timing_packet(&t, PT_T_TMA, 0x1234, 5));
	TEST_TRUE(!pt_timing_packet(&t, PT_T_MTC, 0x13, 0));
	TEST_EQ_U64(t.timestamp, 2001000);
}

static void test_mtc(void)
{
	/* TSC / CTC = 94, an MTC every CTC tick */
	start(0, 188, 2, 24);
	TEST_TRUE(!pt_timing_packet(&t, PT_T_MTC, 0x1d, 0)); /* no TMA yet: ignored */
	pt_timing_packet(&t, PT_T_TSC, 2000000, 0);
	/* the CTC at the TSC: 21276 = 0x531c, 56 TSC ticks after its tick */
	pt_timing_packet(&t, PT_T_TMA, 0x531c, 56);
	TEST_EQ_U64(t.ctc_timestamp, 1999944);
	TEST_EQ(t.last_mtc, 0x1c);
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x1d, 0));
	TEST_EQ_U64(t.timestamp, 1999944 + 94);
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x20, 0));
	TEST_EQ_U64(t.timestamp, 1999944 + 4 * 94);
	/* the same MTC again: 256 ticks on */
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x20, 0));
	TEST_EQ_U64(t.timestamp, 1999944 + 260 * 94);
	/* a TSC ends the TMA: MTCs wait for the next */
	pt_timing_packet(&t, PT_T_TSC, 2100000, 0);
	TEST_TRUE(!pt_timing_packet(&t, PT_T_MTC, 0x21, 0));
	TEST_EQ_U64(t.timestamp, 2100000);
}

static void test_mtc_period(void)
{
	/* TSC / CTC = 70.5 (no whole multiplier), an MTC every 8 CTC ticks */
	start(3, 141, 2, 24);
	TEST_EQ(t.mult, 0);
	pt_timing_packet(&t, PT_T_TSC, 1000000, 0);
	pt_timing_packet(&t, PT_T_TMA, 0x1235, 10); /* 5 ticks after an MTC's */
	TEST_EQ_U64(t.ctc_timestamp, 1000000 - 10 - 352);
	TEST_EQ(t.last_mtc, 0x46);
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x47, 0));
	TEST_EQ_U64(t.timestamp, 1000000 - 362 + 564);
	/* an MTC before the time: ignored, but the instructions count from 0 */
	start(3, 141, 2, 24);
	pt_timing_packet(&t, PT_T_TSC, 1000000, 0);
	pt_timing_packet(&t, PT_T_TMA, 0x1235, 10);
	pt_timing_packet(&t, PT_T_TSC, 1000900, 0);
	t.have_tma = true; /* as if a TMA had come with it */
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x47, 0));
	TEST_EQ_U64(t.timestamp, 1000900);
}

static void test_mtc_fixup(void)
{
	/* mtc_period 10: the TMA's 16 CTC bits lack the MTC's top 2 */
	start(10, 2, 1, 24);
	pt_timing_packet(&t, PT_T_TSC, 5000000, 0);
	pt_timing_packet(&t, PT_T_TMA, 0xabcd, 0);
	TEST_EQ_U64(t.ctc_timestamp, 5000000 - 2 * 0x3cd);
	TEST_EQ(t.last_mtc, 0x2a);
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x6b, 0));
	TEST_EQ_U64(t.timestamp, 5000000 - 2 * 0x3cd + 2 * 1024);
	/* a TMA whose top bits would put the MTC behind: one period back */
	pt_timing_packet(&t, PT_T_TSC, 6000000, 0);
	pt_timing_packet(&t, PT_T_TMA, 0xfc00, 0); /* last 0x3f */
	TEST_TRUE(pt_timing_packet(&t, PT_T_MTC, 0x3f, 0));
	/* 0x3f | 0 >= 0x3f: last becomes 0xff, the MTC a whole 16-bit CTC period on */
	TEST_EQ_U64(t.timestamp, 6000000 + 2 * 65536);
}

static void test_cyc_cbr(void)
{
	start(0, 188, 2, 24);
	pt_timing_packet(&t, PT_T_TSC, 1000, 0);
	TEST_TRUE(!pt_timing_packet(&t, PT_T_CYC, 40, 0)); /* no reference, no ratio */
	TEST_EQ_U64(t.timestamp, 1000);
	/* CBR 40 of 24: 0.6 TSC ticks a cycle, counted from here */
	TEST_TRUE(!pt_timing_packet(&t, PT_T_CBR, 40, 0));
	TEST_EQ_U64(t.cyc_ref_timestamp, 1000);
	TEST_TRUE(pt_timing_packet(&t, PT_T_CYC, 40, 0));
	TEST_EQ_U64(t.timestamp, 1024);
	TEST_TRUE(pt_timing_packet(&t, PT_T_CYC, 10, 0));
	TEST_EQ_U64(t.timestamp, 1030);
	/* the same CBR again changes nothing */
	pt_timing_packet(&t, PT_T_CBR, 40, 0);
	TEST_EQ_U64(t.cyc_ref_timestamp, 1000);
	/* a TSC right after a CYC is the new reference */
	pt_timing_packet(&t, PT_T_CYC, 5, 0);
	pt_timing_packet(&t, PT_T_TSC, 2000, 0);
	TEST_EQ_U64(t.cyc_ref_timestamp, 2000);
	TEST_EQ_U64(t.cycle_cnt, 0);
	pt_timing_packet(&t, PT_T_CYC, 100, 0);
	TEST_EQ_U64(t.timestamp, 2060);
	/* a TSC not after a CYC is not */
	pt_timing_packet(&t, PT_T_OTHER, 0, 0);
	pt_timing_packet(&t, PT_T_TSC, 3000, 0);
	TEST_EQ_U64(t.cyc_ref_timestamp, 2000);
	pt_timing_packet(&t, PT_T_CYC, 10, 0);
	TEST_EQ_U64(t.timestamp, 3000); /* 2066 is behind */
}

/* TSC, TMA, CBR 40, then CYC + MTC: the MTC asks for a calibration */
static void calib_start(struct pt_calib *k)
{
	start(0, 188, 2, 24);
	pt_timing_packet(&t, PT_T_TSC, 2000000, 0);
	pt_timing_packet(&t, PT_T_TMA, 0x531c, 56);
	pt_timing_packet(&t, PT_T_CBR, 40, 0);
	pt_timing_packet(&t, PT_T_CYC, 30, 0);
	pt_timing_packet(&t, PT_T_MTC, 0x1d, 0);
	pt_calib_start(&t, k);
}

static void test_calibrate(void)
{
	struct pt_calib k;

	calib_start(&k);
	TEST_TRUE(t.calibrate);
	TEST_EQ_U64(t.cyc_ref_timestamp, 2000038);
	TEST_EQ_U64(t.cycle_cnt, 0);
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_CYC, 80, 0));
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_OTHER, 0, 0));
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_CYC, 80, 0));
	/* the next MTC after a CYC: 94 ticks in 160 cycles */
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_MTC, 0x1e, 0));
	TEST_TRUE(t.have_calc_cyc_to_tsc);
	TEST_TRUE(t.calc_cyc_to_tsc > 0.5874 && t.calc_cyc_to_tsc < 0.5876);
	/* the CYCs in the trace then use it: 2000038 + 80 * 94 / 160 */
	TEST_TRUE(pt_timing_packet(&t, PT_T_CYC, 80, 0));
	TEST_EQ_U64(t.timestamp, 2000085);

	/* an MTC not after a CYC moves the look-ahead's time on */
	calib_start(&k);
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_OTHER, 0, 0));
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_MTC, 0x1e, 0));
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_CYC, 320, 0));
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_MTC, 0x1f, 0));
	TEST_TRUE(t.calc_cyc_to_tsc > 0.5874 && t.calc_cyc_to_tsc < 0.5876); /* 188 / 320 */

	/* 94 ticks in 100 cycles is above 1.25 * 0.6: not believed */
	calib_start(&k);
	pt_calib_step(&t, &k, PT_T_CYC, 100, 0);
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_MTC, 0x1e, 0));
	TEST_TRUE(!t.have_calc_cyc_to_tsc);

	/* a TSC, a CBR change, the trace's end stop it */
	calib_start(&k);
	pt_calib_step(&t, &k, PT_T_CYC, 160, 0);
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_TSC, 2001000, 0));
	TEST_TRUE(!t.have_calc_cyc_to_tsc);
	calib_start(&k);
	TEST_TRUE(!pt_calib_step(&t, &k, PT_T_CBR, 30, 0));
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_CBR, 20, 0));
	calib_start(&k);
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_STOP, 0, 0));
	TEST_TRUE(!t.have_calc_cyc_to_tsc);
	/* no cycles between the MTCs: nothing to measure */
	calib_start(&k);
	TEST_TRUE(pt_calib_step(&t, &k, PT_T_MTC, 0x1e, 0));
	TEST_TRUE(!t.have_calc_cyc_to_tsc);
}

/* a file whose MTC_FREQ_BITS mask is wider than the 4-bit field (fuzz-pt) */
static void test_mtc_shift_out_of_range(void)
{
	start(18, 2, 1, 0);
	TEST_EQ(t.c.mtc_shift, 0);
	pt_timing_packet(&t, PT_T_TSC, 1000000, 0);
	pt_timing_packet(&t, PT_T_TMA, 0x1235, 10);
	pt_timing_packet(&t, PT_T_MTC, 0x47, 0);
	start(40, 2, 1, 0);
	TEST_EQ(t.c.mtc_shift, 0);
}

TEST_MAIN(TEST(multdiv), TEST(mtc_shift_out_of_range), TEST(tsc), TEST(mtc), TEST(mtc_period),
	  TEST(mtc_fixup), TEST(cyc_cbr), TEST(calibrate));
