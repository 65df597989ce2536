/* SPDX-License-Identifier: MIT */
/*
 * The Intel PT decoder's insides, shared by lib/pt/decode*.c: a queue per
 * CPU (or thread) with its libipt decoders, and the decoder that holds them.
 */
#ifndef PRISM_PT_DECODE_H
#define PRISM_PT_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <intel-pt.h>

#include <prism/pt.h>
#include <prism/symbol.h>

#include "thread-stack.h"
#include "pt/ipc.h"
#include "pt/timing.h"

#define FIFO 32
/* the mapped trace is released in steps of this (a multiple of the page size) */
#define RELEASE (1u << 20)

/* perf's error codes and words (intel-pt-decoder.h) */
enum {
	ERR_BADPKT = 3,
	ERR_NOINSN = 5,
	ERR_MISMAT = 6,
	ERR_OVR = 7,
	ERR_LOST = 8,
	ERR_UNK = 9,
	ERR_NELOOP = 10,
};
/* instructions decoded without a byte of trace before it is a loop without end (perf's) */
#define MAX_LOOPS 100000
/* an MTC packet's first byte (its CTC byte follows) */
#define PT_MTC_BYTE 0x59

/* the TNT bits of the short TNT packet @b (0: a PAD or no short TNT) */
static inline unsigned int pt_short_tnt_bits(uint8_t b)
{
	return b && !(b & 1) && b != 0x02 ? (unsigned int)(30 - __builtin_clz(b)) : 0;
}
extern const char *const pt_err_msg[];

/* a timing packet read ahead, taken once @at units (TNT bits, TIPs) are */
struct tpend {
	enum pt_tpkt type;
	uint32_t fc;
	uint64_t payload, at, next_off;
	bool ovf, after_ovf; /* an OVF; a packet between it and the FUP after it */
	bool event; /* a packet of decode-events.c: pkt, ip (FUP's, PSB's offset, payload) */
	struct pt_packet pkt;
	uint64_t ip;
};
#define TQ 256

/* decode-events.c: power events and PTWRITE on their way to the samples */
#define EVQ 16
struct pt_evstate {
	struct prism_pt_item q[EVQ]; /* waiting for the instruction at due (0: the next) */
	uint64_t due[EVQ];
	size_t head, n;
	uint64_t last_ip, psb_off, mwait_payload, ptw_payload, pwre_payload;
	uint64_t fup_time; /* perf's time at the last FUP */
	unsigned int cbr_seen;
	bool in_psb, mwait, pwre, exstop, ptw; /* packets waiting for their FUP */
	bool after_fup; /* perf: no branch flags on events after a FUP's */
	bool tx_abort; /* the next asynchronous branch is a TSX abort */
	bool in_tx; /* in a transaction (libipt's last TSX event) */
	bool resync; /* the packets walk-resync.c skips to an IP: only CBR and PSB events */
	bool psb_lost; /* a PSB+ right after an OVF: perf's walk from no IP to its FUP loses it */
};

struct switch_ev {
	uint64_t time;
	int32_t pid, tid;
};

struct file_map {
	char *path;
	uint8_t *p;
	size_t len;
	unsigned int nomaps; /* the code not read from it so far (pt_nomap_reported) */
	const struct prism_dso *dso; /* path NULL: a DSO whose file is not here */
};

/* a change of the kernel's code (TEXT_POKE) */
struct poke {
	uint64_t time, addr;
	uint16_t len;
	uint8_t bytes[];
};

struct queue {
	struct prism_pt_decoder *d;
	uint32_t key; /* cpu, or tid */
	uint8_t *buf; /* in memory: no temporary file could be made */
	size_t len, cap;
	int fd; /* the temporary file of the trace bytes, or -1 */
	uint8_t *map; /* its mapping while decoding */
	size_t dropped; /* bytes of the mapping before this are released */
	struct pt_insn_decoder *dec;
	struct pt_image *img; /* the code: sections of the process's files, added as read */
	int32_t img_pid; /* the process whose sections img holds */
	/* block walking (decode-block.c): the block decoder, and one for single instructions */
	struct pt_block_decoder *blk;
	struct pt_walk *walk; /* or prism's walk (walk.c), where the trace fits it */
	struct pt_insn_decoder *ild;
	uint8_t ild_trace[40];
	int status;
	bool synced, done;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time;
	uint64_t time_tsc; /* the TSC time was converted from (0: none) */
	size_t next_switch; /* index into the CPU's switches */
	/* a branch whose target is the next instruction, if taken */
	bool pend;
	uint64_t pend_from, pend_next;
	uint32_t pend_flags;
	uint8_t pend_raw[15], pend_size; /* the pending branch's bytes */
	/* blocks: the last branch's bytes not read, it is at flags_ip (pt_branch_bytes) */
	bool flags_lazy;
	enum pt_exec_mode flags_mode;
	uint64_t flags_ip;
	bool pend_32bit;
	/* the code last not read: a file (index + 1), the kernel's (-1), no mapping (0) */
	long nomap;
	/* the instruction decoder: the call stack of compressed returns (pt_ovf_calls) */
	uint64_t rets[16], ret_to; /* ret_to: the last return's target from it */
	uint8_t ret_top, ret_n;
	struct prism_pt_item *pend_insn; /* the pending branch's sample: its addr is the target */
	uint64_t insn_count;
	/*
	 * periods in ticks, as perf counts them: the TSC of the last timing
	 * packet plus the instructions since; a sample where that crosses a
	 * multiple of the period (a power of 2), checked once per run of
	 * instructions up to a branch (perf's walk)
	 */
	uint64_t tsc, tsc_insns, last_masked, walk_max, walk_n;
	/*
	 * the samples' time (perf's queue timestamp): the latest time, except
	 * that a branch from the kernel (or a trace start) into user space
	 * has perf's estimate: the time of the last sample time update plus
	 * the instructions counted then, 2 ticks each at max non-turbo
	 */
	uint64_t stime, sample_tsc, sample_insns;
	bool in_kernel;
	bool hold; /* the last sample is a kernel far branch's: its time waits for the target */
	bool hold_target; /* the last sample is a branch's: its addr waits for the target */
	bool continuous, in_walk;
	/*
	 * perf takes a timing packet as soon as the TNT bits and TIPs before
	 * it are used, libipt when the next branch needs a packet: the packets
	 * read so far (a packet decoder on the same trace) wait in tq until
	 * the instructions have taken the units (TNT bits, TIPs) before them
	 */
	struct pt_packet_decoder *pkt, *look; /* look: perf's look-ahead */
	uint64_t pkt_off, units_seen, units_taken, ovf_units;
	uint64_t quiet_end; /* pt_time_quiet's last answer */
	struct tpend tq[TQ];
	size_t tq_head, tq_n;
	bool wait_ovf, in_ovf; /* packets from an OVF on wait for its event */
	uint64_t tq_until; /* packets past this offset wait (a resync's; 0: none) */
	/*
	 * where the last TIP.PGE read ends: perf's trace start there comes
	 * before the packets after it (pt_time_event, pt_time_started)
	 */
	uint64_t pge_end;
	bool pge_until; /* tq_until is pge_end's */
	struct pt_timing tm; /* perf's time (decode-timing.c) */
	uint64_t pend_time; /* the sample time of the pending branch */
	uint64_t stall_off, stall_n; /* where the trace stood, instructions since */
	struct prism_pt_item *last_insn; /* the last instruction's sample, still in the fifo */
	/* the code mapping last read */
	struct prism_code_map cm;
	const struct file_map *cf;
	int32_t cm_pid;
	struct prism_pt_item fifo[FIFO];
	long fifo_nomap[FIFO]; /* an error's code not read (pt_nomap_mark; 0: another) */
	size_t head, n;
	uint64_t *chains; /* the call chains of the fifo's items (itrace.callchain) */
	struct prism_pt_branch *lbrs; /* the branch stacks of the fifo's items (last-branch.c) */
	uint64_t skipped_period; /* of instruction samples skipped ('s'): the next one's */
	struct pt_evstate ev;
	struct pt_ipc ipc; /* with o.ipc: perf's instruction and cycle counts (ipc.c) */
	uint64_t period_carry; /* instructions of a period perf ended without a sample: the next's */
};

struct prism_pt_decoder {
	struct prism_pt_decoder_opts o;
	struct prism_time_conv tc;
	bool per_cpu, has_tsc;
	uint64_t period_ticks; /* periods in ticks or ns: a power of 2 */
	struct queue *qs;
	size_t nr_qs;
	struct switch_ev **sw; /* per CPU, in time order */
	size_t *nr_sw, nr_cpus;
	struct prism_pt_item *errs; /* AUX records with lost data */
	size_t nr_errs, next_err;
	struct file_map *files;
	size_t nr_files;
	unsigned int kernel_nomaps; /* the kernel code not read so far (no kcore, no vmlinux) */
	struct pt_image_section_cache *iscache; /* the files' sections, shared by the queues */
	bool blocks; /* the queues walk blocks (decode-block.c) */
	struct br_insn *brc; /* the instructions that end blocks, by address */
	struct prism_pt_decoder_stats st;
	struct pt_stacks stacks; /* the threads' call stacks (itrace.callchain, thread_stack) */
	uint64_t skipped; /* samples skipped so far ('s') */
	struct poke **pokes; /* in time order */
	size_t nr_pokes;
};

/* decode-image.c: libipt's memory callback (ctx: the queue) */
int pt_read_code(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip, void *ctx);

/* decode-image.c: the image holds @q's process's sections (none of another's) */
void pt_image_follow_pid(struct queue *q);

/*
 * decode-poke.c: kernel code changed while tracing (TEXT_POKE): kept, laid
 * over the bytes @q reads at @ip (the changes up to @q's time), whether
 * one is in [@lo, @hi), the pieces of a range without the pages changed
 */
int pt_poke_add(struct prism_pt_decoder *d, const struct prism_event *ev);
void pt_poke_free(struct prism_pt_decoder *d);
void pt_poke_read(const struct queue *q, uint64_t ip, uint8_t *buf, size_t n);
bool pt_poked(const struct prism_pt_decoder *d, uint64_t lo, uint64_t hi);
void pt_poke_split(const struct prism_pt_decoder *d, uint64_t start, uint64_t end,
		   void (*fn)(void *ctx, uint64_t lo, uint64_t hi), void *ctx);

/* decode.c: what a decoded instruction or event makes of the queue (samples, state) */
struct prism_pt_item *pt_push(struct queue *q, enum prism_pt_item_kind kind);
void pt_on_insn(struct queue *q, const struct pt_insn *insn);
void pt_insn_flags(struct queue *q, const struct pt_insn *insn);
/*
 * an instruction sample of @insn (its period the instructions counted),
 * with its call chain and IPC (the state in @snap); NULL: the fifo is full
 */
struct prism_pt_item *pt_insn_sample(struct queue *q, const struct pt_insn *insn,
				     struct pt_ipc_snap *snap);
/* the last branch's bytes in pend_raw, pend_size (read where blocks left them out) */
void pt_branch_bytes(struct queue *q);
/* an instruction or event sample's call chain and last branches, where asked for */
void pt_insn_chain(struct queue *q, struct prism_pt_item *it);
void pt_on_event(struct queue *q, const struct pt_event *ev);
/* the pending branch to @to, with the time of its instruction */
void pt_pend_branch(struct queue *q, uint64_t to, uint32_t flags);
void pt_branch(struct queue *q, uint64_t from, uint64_t to, uint32_t flags);
void pt_synced(struct queue *q, int st);
void pt_stop(struct queue *q, int code, uint64_t ip);
bool pt_stepped(struct queue *q, uint64_t off, uint64_t ip);
int pt_lib_error_code(int err);
uint32_t pt_class_flags(const struct pt_insn *insn);

/*
 * decode-block.c: queues that walk libipt's blocks (branch-only and long
 * periods), the instruction decoder only where one instruction is needed
 */
int pt_block_start(struct queue *q, const struct pt_config *cfg);
void pt_block_step(struct queue *q, uint64_t limit);
void pt_block_free(struct queue *q);
/* the decoder in use synchronized at the next PSB (libipt's status, or an error) */
int pt_block_sync(struct queue *q);
/* the helper decoder at @ip, the @n-th instruction from there (decode-block.c) */
int pt_ild_at(struct queue *q, uint64_t ip, enum pt_exec_mode mode, bool taken);
int pt_ild_nth(struct queue *q, uint64_t ip, enum pt_exec_mode mode, uint32_t n,
	       struct pt_insn *insn);

/*
 * walk.c: blocks as libipt's block decoder gives them, walked over its
 * query decoder, for traces of plain execution (pt_walk_fits)
 */
struct pt_walk;
bool pt_walk_fits(const struct prism_pt_decoder *d, const uint8_t *t, size_t len, bool mapped,
		  bool tsx);
int pt_walk_start(struct queue *q, const struct pt_config *cfg);
void pt_walk_free(struct queue *q);
int pt_walk_sync(struct queue *q);
int pt_walk_next(struct queue *q, struct pt_block *blk);
int pt_walk_event(struct queue *q, struct pt_event *ev);
int pt_walk_offset(const struct queue *q, uint64_t *off);
int pt_walk_sync_offset(const struct queue *q, uint64_t *off);
/* where the walk stood at the last overflow: the last branch's target (0: tracing off) */
uint64_t pt_walk_ovf_ip(const struct queue *q);
/*
 * walk-resync.c: after code not read or trace that does not match it (the
 * errors pt_walk_resyncs takes), on from the next IP (false: from the next
 * PSB); pt_walk_ip: where the walk stood
 */
bool pt_walk_resync(struct queue *q);
bool pt_walk_resyncs(int err);
uint64_t pt_walk_ip(const struct queue *q);

/* the decoder in use (instructions or blocks): its place in the trace, its last PSB's */
int pt_dec_offset(struct queue *q, uint64_t *off);
int pt_dec_sync_offset(struct queue *q, uint64_t *off);

/* decode-ovf.c: whether the overflow just read restarts at a PSB+ (perf's error at IP 0) */
bool pt_ovf_psb(struct queue *q);
/* an overflow just read that resolved with tracing off: where the pending branch went (0: unknown) */
uint64_t pt_ovf_disabled_ip(struct queue *q);
/* where the last packet with an IP (@ip: that one) that the decoder read ends (UINT64_MAX: not known) */
uint64_t pt_ip_packet_end(struct queue *q, uint64_t ip);
/* the IP of the FUP right after the last OVF (0: none) */
uint64_t pt_ovf_fup(struct queue *q);
/* the instruction decoder's calls and returns, as libipt's call stack takes them */
void pt_ovf_calls(struct queue *q, const struct pt_insn *insn);

/*
 * decode-image.c: code not read is an error sample the first two times for
 * a file (or the kernel), in time order, as perf's (it stops reading a file
 * that failed twice, and goes on silently); always where no mapping holds
 * the address.  pt_nomap_mark: the error just pushed is such a failure.
 */
void pt_nomap_mark(struct queue *q);
bool pt_nomap_reported(struct prism_pt_decoder *d, long nomap);

/* decode-sideband.c: the thread running on the queue's CPU at q->time (per-CPU queues) */
void pt_follow_switches(struct queue *q);

/* decode-events.c: transactions, power events, PTWRITE */
/* a FUP's or TIP's address from the last one and the packet's compression */
uint64_t pt_last_ip(uint64_t last, const struct pt_packet_ip *p);
bool pt_events_scan(const struct prism_pt_decoder *d);
bool pt_events_wait(const struct queue *q);
bool pt_events_stop(const struct pt_packet *p);
void pt_events_read(struct queue *q, const struct pt_packet *p, uint64_t pos, struct tpend *e);
void pt_events_packet(struct queue *q, const struct tpend *e);
void pt_events_flush(struct queue *q, uint64_t ip);
/* the same, @max events at most */
void pt_events_flush_n(struct queue *q, uint64_t ip, size_t max);
void pt_events_insn(struct queue *q, uint32_t flags);
void pt_events_tsx(struct queue *q, const struct pt_event *ev);
uint32_t pt_events_async_flags(struct queue *q, bool ip_suppressed);
/* a trace start after an error: the CBR read since the last CBR sample, if it changed */
void pt_events_resync_cbr(struct queue *q);
/* an error at @ip: the events due at the next instruction there, those at a FUP's address dropped */
void pt_events_error(struct queue *q, uint64_t ip);

/* decode-time.c: timing packets and periods in ticks */
int pt_time_start(struct queue *q, const struct pt_config *cfg);
void pt_time_sync(struct queue *q);
void pt_time_event(struct queue *q, const struct pt_event *ev);
/* after a trace start's branch: the packets after its TIP.PGE */
void pt_time_started(struct queue *q);
void pt_time_at(struct queue *q, uint64_t ip);
uint64_t pt_sample_time(struct queue *q);
void pt_time_overflow(struct queue *q);
uint64_t pt_time_error(struct queue *q);
/*
 * @n units (TNT bits, TIPs) that no instruction took (a resync's): only
 * the packets before @end are due until pt_time_skip(q, 0, 0)
 */
void pt_time_skip(struct queue *q, uint64_t n, uint64_t end);
void pt_time_now(struct queue *q);
void pt_scan_packets(struct queue *q, const struct pt_insn *insn);
/* the same where the decoder stands at @off in the trace */
void pt_scan_packets_at(struct queue *q, const struct pt_insn *insn, uint64_t off);
void pt_take_packet(struct queue *q);
bool pt_ticks_due(struct queue *q, bool branch);
bool pt_ticks_skip(struct queue *q, uint64_t n);
/* for blocks walked many at once (walk.c) */
uint64_t pt_time_quiet(struct queue *q);
uint64_t pt_time_pass(struct queue *q, uint64_t from, uint64_t off);
uint64_t pt_time_due(struct queue *q, bool apply);
void pt_time_units(struct queue *q, uint64_t off, uint64_t units, uint64_t insns);
uint64_t pt_ticks_room(struct queue *q);
void pt_release(struct queue *q, uint64_t off);
bool pt_walk_batch(struct queue *q);

#endif /* PRISM_PT_DECODE_H */
