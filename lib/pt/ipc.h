/* SPDX-License-Identifier: MIT */
/*
 * Instructions per cycle of Intel PT samples (-F +ipc), counted as perf
 * 6.1's decoder counts them: the instructions decoded and the cycles of
 * the CYC packets while tracing is on (without CYC packets: the TSC ticks
 * between MTC packets times CBR / max non-turbo ratio); a decoder state
 * (a taken branch, a trace begin or end, an instruction sample) carries
 * the counts when its packet position is one where perf updates its
 * sample time (a TNT bit or TIP taken by the state, or more bits of the
 * TNT packet it walks in) and a CYC came since the last such state, or
 * always without CYC packets.  A sample prints the counts since the last
 * sample of its kind (branches, instructions) that had them.
 * No libipt here: lib/pt/decode*.c feed it, the unit tests by hand.
 */
#ifndef PRISM_PT_IPC_H
#define PRISM_PT_IPC_H

#include <stdbool.h>
#include <stdint.h>

#include "pt/timing.h"

#define PT_IPC_TNT 64 /* TNT packets read ahead whose bits are not all taken */

/* what a state carries */
struct pt_ipc_snap {
	bool flag; /* perf's INTEL_PT_SAMPLE_IPC */
	uint64_t insns, cyc; /* the totals at the state */
};

struct pt_ipc {
	bool have_cyc, sample_cyc, pge;
	uint64_t tot_insns, tot_cyc, sample_tot_cyc;
	uint64_t cyc_seq; /* packets that set sample_cyc so far (CYC; MTC without CYC) */
	/* cycles from the TSC without CYC packets (perf's mtc_cyc_cnt) */
	uint64_t cyc_cnt_timestamp, base_cyc_cnt;
	double tsc_to_cyc;
	unsigned int max_nonturbo, cbr;
	/* the TNT packets' units [start, end), for "more bits of the packet" */
	uint64_t tnt_start[PT_IPC_TNT], tnt_end[PT_IPC_TNT];
	unsigned int tnt_head, tnt_n;
	bool tnt_more; /* the last unit taken was a TNT bit with more after it */
	uint64_t took_at; /* the instruction (1 up) that took the last unit */
	/* the branch instruction waiting to be known taken */
	bool pend_done, pend_sample_cyc;
	struct pt_ipc_snap pend;
	uint64_t pend_tot_cyc, pend_seq;
	bool pend_time;
	struct pt_ipc_snap br; /* the state of the branch being sampled */
	bool from_pend;
	/* the last samples' totals: branches, instructions */
	uint64_t last_br_insns, last_br_cyc, last_in_insns, last_in_cyc;
};

void pt_ipc_init(struct pt_ipc *c, unsigned int max_nonturbo);
/* a TNT packet read ahead: its units */
void pt_ipc_tnt(struct pt_ipc *c, uint64_t start, uint64_t end);
/* unit @k (0 up) is taken by the instruction about to be counted */
void pt_ipc_took(struct pt_ipc *c, uint64_t k);
/* a timing packet applied (@timestamp: the time in TSC ticks after it) */
void pt_ipc_packet(struct pt_ipc *c, enum pt_tpkt type, uint64_t payload, uint64_t timestamp);
/* tracing on (TIP.PGE) or off (TIP.PGD) at @timestamp */
void pt_ipc_pge(struct pt_ipc *c, bool on, uint64_t timestamp);
/* an instruction decoded */
void pt_ipc_count(struct pt_ipc *c, uint64_t n);
/* a state now (@sample_time forced, or as the last instruction took units) */
void pt_ipc_state(struct pt_ipc *c, bool sample_time, struct pt_ipc_snap *s);
/* the instruction just counted is a branch: its state if taken; @state: it is one already */
void pt_ipc_pend(struct pt_ipc *c, const struct pt_ipc_snap *state);
/* the pending branch was (not) taken: its state into c->br, or none */
void pt_ipc_resolve(struct pt_ipc *c, bool taken);
/* a sample of state @s: the instructions and cycles since the last of its kind, or 0 */
void pt_ipc_sample(struct pt_ipc *c, const struct pt_ipc_snap *s, bool branch, uint64_t *insns,
		   uint64_t *cyc);

#endif /* PRISM_PT_IPC_H */
