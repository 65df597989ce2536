// SPDX-License-Identifier: MIT
/*
 * lib/pt/ipc.c: perf 6.1's IPC counts on made-up packet sequences: CYC
 * cycles counted while tracing, the states that take them (a unit taken,
 * more bits of the TNT packet, a not-taken branch that forgets them, an
 * instruction sample that is its branch's state), counts from the TSC by
 * CBR without CYC packets, a new CBR as a state.  t1026 compares whole
 * traces with perf.
 */
#include <stdint.h>

#include "pt/ipc.h"
#include "test.h"

static void test_cyc(void)
{
	struct pt_ipc c;
	struct pt_ipc_snap s;
	uint64_t insns, cyc;
	int i;

	pt_ipc_init(&c, 40);
	pt_ipc_packet(&c, PT_T_CYC, 7, 0); /* before tracing: not counted */
	pt_ipc_pge(&c, true, 1000);
	pt_ipc_packet(&c, PT_T_CYC, 10, 0);
	TEST_EQ_U64(c.tot_cyc, 10);
	/* a TNT packet of 2 bits; the 3rd instruction, a branch, takes the first */
	pt_ipc_tnt(&c, 0, 2);
	pt_ipc_count(&c, 1);
	pt_ipc_count(&c, 1);
	pt_ipc_took(&c, 0);
	pt_ipc_count(&c, 1);
	pt_ipc_pend(&c, NULL);
	pt_ipc_packet(&c, PT_T_CYC, 20, 0); /* after it: not its */
	pt_ipc_resolve(&c, true);
	TEST_TRUE(c.br.flag);
	pt_ipc_sample(&c, &c.br, true, &insns, &cyc);
	TEST_EQ_U64(insns, 3);
	TEST_EQ_U64(cyc, 10);
	/* the CYC after it waits for the next state: an instruction sample, more bits left */
	TEST_TRUE(c.sample_cyc);
	pt_ipc_count(&c, 1);
	pt_ipc_count(&c, 1);
	pt_ipc_state(&c, false, &s);
	TEST_TRUE(s.flag);
	pt_ipc_sample(&c, &s, false, &insns, &cyc);
	TEST_EQ_U64(insns, 5);
	TEST_EQ_U64(cyc, 30);
	/* a branch sample counts from the last branch sample */
	pt_ipc_packet(&c, PT_T_CYC, 5, 0);
	pt_ipc_took(&c, 1); /* the packet's last bit: no more after it */
	pt_ipc_count(&c, 1);
	TEST_TRUE(!c.tnt_more);
	pt_ipc_pend(&c, NULL);
	pt_ipc_resolve(&c, true);
	pt_ipc_sample(&c, &c.br, true, &insns, &cyc);
	TEST_EQ_U64(insns, 3);
	TEST_EQ_U64(cyc, 25);
	/* a direct call walked in the next TNT before any of its bits: no state time */
	pt_ipc_tnt(&c, 2, 8);
	pt_ipc_packet(&c, PT_T_CYC, 4, 0);
	pt_ipc_count(&c, 1);
	pt_ipc_pend(&c, NULL);
	pt_ipc_resolve(&c, true);
	TEST_TRUE(!c.br.flag);
	/* a not-taken branch forgets the CYC before it */
	pt_ipc_took(&c, 2);
	pt_ipc_count(&c, 1);
	pt_ipc_pend(&c, NULL);
	pt_ipc_resolve(&c, false);
	TEST_TRUE(!c.sample_cyc);
	/* unless it is an instruction sample: that state takes it, for its branch too */
	pt_ipc_packet(&c, PT_T_CYC, 6, 0);
	pt_ipc_took(&c, 3);
	pt_ipc_count(&c, 1);
	pt_ipc_state(&c, false, &s);
	TEST_TRUE(s.flag);
	pt_ipc_pend(&c, &s);
	pt_ipc_resolve(&c, true);
	TEST_TRUE(c.br.flag && c.br.cyc == 45 && c.br.insns == s.insns);
	/* many TNT packets read ahead: the oldest give way */
	for (i = 0; i < 2 * PT_IPC_TNT; i++)
		pt_ipc_tnt(&c, 8 + (uint64_t)i, 9 + (uint64_t)i);
	TEST_EQ(c.tnt_n, PT_IPC_TNT);
	/* off: CYC packets do not count */
	pt_ipc_pge(&c, false, 0);
	pt_ipc_packet(&c, PT_T_CYC, 100, 0);
	TEST_EQ_U64(c.tot_cyc, 45);
}

static void test_mtc(void)
{
	struct pt_ipc c;
	struct pt_ipc_snap s;
	uint64_t insns, cyc;

	pt_ipc_init(&c, 40);
	pt_ipc_packet(&c, PT_T_CBR, 20, 900); /* a cycle every 2 ticks */
	pt_ipc_pge(&c, true, 1000);
	pt_ipc_packet(&c, PT_T_MTC, 0, 1100);
	TEST_EQ_U64(c.tot_cyc, 50);
	pt_ipc_count(&c, 1);
	pt_ipc_state(&c, true, &s);
	pt_ipc_sample(&c, &s, false, &insns, &cyc);
	TEST_EQ_U64(insns, 1);
	TEST_EQ_U64(cyc, 50);
	/* without CYC every state has the flag; no new cycles, nothing to print */
	pt_ipc_count(&c, 1);
	pt_ipc_state(&c, false, &s);
	TEST_TRUE(s.flag);
	pt_ipc_sample(&c, &s, false, &insns, &cyc);
	TEST_EQ_U64(cyc, 0);
	/* a new CBR: the ticks count from it at its ratio */
	pt_ipc_packet(&c, PT_T_CBR, 40, 1200);
	pt_ipc_packet(&c, PT_T_MTC, 0, 1300);
	TEST_EQ_U64(c.tot_cyc, 150);
	/* a timestamp that goes back counts nothing */
	pt_ipc_packet(&c, PT_T_MTC, 0, 1250);
	TEST_EQ_U64(c.tot_cyc, 150);
}

static void test_cbr_state(void)
{
	struct pt_ipc c;
	struct pt_ipc_snap s;

	pt_ipc_init(&c, 40);
	pt_ipc_packet(&c, PT_T_CBR, 40, 0); /* the first: no state */
	pt_ipc_pge(&c, true, 0);
	pt_ipc_packet(&c, PT_T_CYC, 10, 0);
	TEST_TRUE(c.sample_cyc);
	pt_ipc_packet(&c, PT_T_CBR, 40, 0); /* the same ratio: nothing */
	TEST_TRUE(c.sample_cyc);
	pt_ipc_packet(&c, PT_T_CBR, 20, 0); /* a new one: a state that takes the CYC */
	TEST_TRUE(!c.sample_cyc);
	TEST_EQ_U64(c.sample_tot_cyc, 10);
	pt_ipc_count(&c, 1);
	pt_ipc_state(&c, true, &s);
	TEST_TRUE(!s.flag);
}

TEST_MAIN(TEST(cyc), TEST(mtc), TEST(cbr_state));
