/* SPDX-License-Identifier: MIT */
/*
 * Intel Processor Trace in perf.data files: the AUX-area records
 * (AUXTRACE_INFO, AUXTRACE and its trace bytes, AUX, ITRACE_START,
 * AUXTRACE_ERROR, TIME_CONV), TSC <-> perf time, and a dump of the trace
 * packets in perf report -D's layout (through libipt's packet decoder).
 *
 * The trace bytes of an AUXTRACE record follow it outside its header.size;
 * a session hands them to the tool's 'user' callback (ev->payload) when
 * the tool sets auxtrace_data.
 */
#ifndef PRISM_PT_H
#define PRISM_PT_H

#include <prism/core.h>
#include <prism/event.h>

struct prism_strbuf;

#define PRISM_AUXTRACE_INTEL_PT 1

/* AUXTRACE_INFO of Intel PT: perf's priv[] in order; has_* say how far the record goes */
struct prism_pt_info {
	uint32_t type; /* PRISM_AUXTRACE_INTEL_PT, or another tracer's (then only nr_priv) */
	uint32_t nr_priv; /* u64 words after the type */
	uint64_t pmu_type, time_shift, time_mult, time_zero, cap_user_time_zero;
	uint64_t tsc_bit, noretcomp_bit, have_sched_switch, snapshot_mode, per_cpu_mmaps;
	bool has_mtc; /* the words below (perf >= 4.3 files) */
	uint64_t mtc_bit, mtc_freq_bits, tsc_ctc_n, tsc_ctc_d, cyc_bit, max_nonturbo_ratio;
	bool has_filter;
	uint64_t filter_str_len;
	const char *filter; /* points into the record; NUL-terminated within it, or NULL */
};

/* AUXTRACE: where a piece of trace was in the AUX area, and the bytes (ev->payload) */
struct prism_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
	const uint8_t *data; /* the record's payload: NULL unless the tool asked for it */
};

/* AUX: the kernel's note of new data in the AUX area */
#define PRISM_AUX_FLAG_TRUNCATED 0x01
#define PRISM_AUX_FLAG_OVERWRITE 0x02
#define PRISM_AUX_FLAG_PARTIAL 0x04
#define PRISM_AUX_FLAG_COLLISION 0x08
struct prism_aux {
	uint64_t offset, size, flags;
};

/* AUXTRACE_ERROR (perf's decoder errors, as perf inject writes them) */
struct prism_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time; /* time: fmt >= 1 */
	char msg[65];
	uint32_t machine_pid, vcpu; /* fmt >= 2 */
};

/* TIME_CONV, or the time fields of AUXTRACE_INFO */
struct prism_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	uint64_t time_cycles, time_mask; /* has_ext */
	bool cap_user_time_zero, cap_user_time_short, has_ext;
};

/* Each fills *@out from @ev of its type; -PRISM_E_BAD_RECORD when the record is too short */
PRISM_API int prism_pt_info__parse(const struct prism_event *ev, struct prism_pt_info *out);
PRISM_API int prism_auxtrace__parse(const struct prism_event *ev, struct prism_auxtrace *out);
PRISM_API int prism_aux__parse(const struct prism_event *ev, struct prism_aux *out);
/* ITRACE_START: its pid and tid */
PRISM_API int prism_itrace_start__parse(const struct prism_event *ev, uint32_t *pid, uint32_t *tid);
PRISM_API int prism_auxtrace_error__parse(const struct prism_event *ev,
					  struct prism_auxtrace_error *out);
PRISM_API int prism_time_conv__parse(const struct prism_event *ev, struct prism_time_conv *out);
/*
 * An Intel PT AUXTRACE_INFO record as perf writes it (every field, the
 * filter string NUL-padded to 8) into @buf; its size, 0 when @size is short
 */
PRISM_API size_t prism_pt_info__write(const struct prism_pt_info *info, void *buf, size_t size);
/* the time fields of an Intel PT AUXTRACE_INFO */
PRISM_API void prism_pt_info__time_conv(const struct prism_pt_info *info,
					struct prism_time_conv *out);

/* TSC -> perf time (ns) and back, as the kernel's perf_event_mmap_page says */
PRISM_API uint64_t prism_tsc_to_perf_time(const struct prism_time_conv *tc, uint64_t tsc);
PRISM_API uint64_t prism_perf_time_to_tsc(const struct prism_time_conv *tc, uint64_t ns);
/* a duration: @ns -> TSC ticks (@ns without a multiplier) */
PRISM_API uint64_t prism_ns_to_tsc_ticks(const struct prism_time_conv *tc, uint64_t ns);

/*
 * The rest of a line of perf report -D (perf 6.1) for AUXTRACE_INFO,
 * AUXTRACE, AUX, ITRACE_START, AUXTRACE_ERROR and TIME_CONV, after
 * "... PERF_RECORD_NAME", with the lines under it (AUXTRACE_INFO's Intel
 * PT fields).  Return: false for other records (nothing appended).
 */
PRISM_API bool prism_pt__dump_detail(const struct prism_event *ev, struct prism_strbuf *sb);

/*
 * prism_pt__dump_packets - Intel PT trace bytes as perf report -D shows them
 *
 * ". ... Intel Processor Trace data: size N bytes", then a line per
 * packet: ".  OFFSET:  bytes  PACKET" (zero bytes after a packet shown
 * with it, up to 8 bytes, as perf does; "Bad packet!" a byte at a time
 * where no packet decodes).  The text goes into @sb; @flush (when not
 * NULL) is called with @ctx whenever @sb holds 64 KiB or more, to write
 * and reset it, so that a big trace does not become one big string; a
 * non-zero return from it stops the dump and is returned.
 *
 * Return: 0, what @flush returned, -ENOMEM, or -PRISM_E_UNSUPPORTED when
 * prism was built without libipt (then only the size line is appended).
 */
PRISM_API int prism_pt__dump_packets(const uint8_t *data, size_t len, struct prism_strbuf *sb,
				     int (*flush)(void *ctx, struct prism_strbuf *sb), void *ctx);

/* ---- recording ---- */

/* whether a -e list names the intel_pt PMU (intel_pt, intel_pt//u, {intel_pt/cyc/,...}) */
PRISM_API bool prism_pt__names_intel_pt(const char *events);
/* whether @sysfs (NULL: /sys) has the intel_pt PMU */
PRISM_API bool prism_pt__pmu_present(const char *sysfs);

/* ---- decoding (libipt) ---- */

/* perf's --itrace options */
enum prism_itrace_period { PRISM_ITRACE_INSNS, PRISM_ITRACE_TICKS, PRISM_ITRACE_NS };
struct prism_itrace {
	bool instructions, branches, calls, returns, errors, callchain;
	enum prism_itrace_period period_type;
	uint64_t period; /* instructions: every period-th (or ns, ticks) */
	unsigned int callchain_sz; /* 'g': the call chains' most entries (default 16) */
	uint64_t skip; /* 's': events skipped at the start */
	bool thread_stack; /* keep the threads' call stacks for item depth (perf's callindent) */
	bool transactions; /* 'x': TSX begin, commit, abort */
	bool pwr_events; /* 'p': PSB, CBR, MWAIT, PWRE, EXSTOP, PWRX */
	bool ptwrites; /* 'w': PTWRITE */
	bool log; /* 'd': the decoder's log (the command writes it) */
	bool last_branch; /* 'l': instruction samples carry the thread's last branches */
	unsigned int last_branch_sz; /* 'l[N]': how many at most (default 64) */
};
/*
 * prism_itrace__parse - perf's --itrace letters: i[PERIOD], b, c, r, e,
 * x, p, w, d, g[N], l[N], s[N] (PERIOD: N followed by i, t, ms, us or ns,
 * a bare N in ns; default i100us)
 *
 * Return: 0, or -EINVAL with @bad pointing at the letter not understood.
 */
PRISM_API int prism_itrace__parse(const char *s, struct prism_itrace *out, const char **bad);

/*
 * the name perf gives the samples it synthesizes from the trace of the
 * intel_pt event @pt: "branches" or "instructions" with the event's
 * modifiers ("branches:uH"), into @buf
 */
struct perf_event_attr;
PRISM_API void prism_pt__sample_name(const struct perf_event_attr *pt, bool branches, char *buf,
				     size_t size);

/* perf's branch flags (PERF_IP_FLAG_*) */
#define PRISM_PT_FL_BRANCH 0x01u
#define PRISM_PT_FL_CALL 0x02u
#define PRISM_PT_FL_RETURN 0x04u
#define PRISM_PT_FL_CONDITIONAL 0x08u
#define PRISM_PT_FL_SYSCALLRET 0x10u
#define PRISM_PT_FL_ASYNC 0x20u
#define PRISM_PT_FL_INTERRUPT 0x40u
#define PRISM_PT_FL_TX_ABORT 0x80u
#define PRISM_PT_FL_TRACE_BEGIN 0x100u
#define PRISM_PT_FL_TRACE_END 0x200u
#define PRISM_PT_FL_IN_TX 0x400u /* in a TSX transaction: perf's "(x)" */
/* the intel_pt event's pwr_evt bit: MWAIT, PWRE, EXSTOP, PWRX events ('p' has PSB, CBR) */
#define PRISM_PT_CFG_PWR_EVT (1ull << 4)
/* perf script's text of @flags ("call", "tr strt", "tr end  return") */
PRISM_API void prism_pt_flags__str(uint32_t flags, struct prism_strbuf *sb);

/* a taken branch of a sample's branch stack (--itrace=l) */
struct prism_pt_branch {
	uint64_t from, to; /* 0: unknown (a trace begin's from, a trace end's to) */
	uint32_t flags; /* PRISM_PT_FL_* of the branch */
};

/* one synthesized sample, or a decoding error */
enum prism_pt_item_kind {
	PRISM_PT_BRANCH,
	PRISM_PT_INSN,
	PRISM_PT_ERROR,
	PRISM_PT_TRANSACTION, /* 'x': flags 0 commit, IN_TX begin, BRANCH|TX_ABORT abort */
	PRISM_PT_PTWRITE, /* 'w': payload; fup_ip */
	/* 'p': perf's power events */
	PRISM_PT_CBR, /* cbr (the core:bus ratio) */
	PRISM_PT_MWAIT, /* payload: hints | extensions << 32 */
	PRISM_PT_PWRE, /* hw, cstate, subcstate */
	PRISM_PT_EXSTOP, /* fup_ip */
	PRISM_PT_PWRX, /* cstate (deepest), last, wake */
	PRISM_PT_PSB, /* payload: the PSB's offset in the queue's trace */
};
struct prism_pt_item {
	enum prism_pt_item_kind kind;
	uint64_t time; /* perf time; 0 when the trace has no timing */
	uint64_t ip, addr; /* branch: from, to (0 = unknown); insn: ip; error: ip */
	uint32_t flags;
	uint32_t cpu; /* (uint32_t)-1 when unknown */
	int32_t pid, tid; /* -1 when unknown */
	uint64_t period; /* instructions: the count the sample stands for */
	int code; /* error: perf's code (7 overflow, 8 lost data, ...) */
	const char *msg; /* error: perf's message */
	/* the instruction at ip (branch: the branch; insn: it): its bytes; 0 = not known */
	uint8_t insn_len;
	bool insn_32bit; /* decoded as 32-bit code */
	uint8_t insn[15];
	/*
	 * insn, transaction and the events of 'p' and 'w' with
	 * itrace.callchain: the call chain, ip first, then the return
	 * addresses of the calls the trace saw, innermost first
	 */
	const uint64_t *callchain;
	uint32_t nr_callchain;
	/* branch with itrace.callchain or thread_stack: the thread's call depth after it */
	uint32_t depth;
	/* the events of 'p' and 'w' (perf's raw fields) */
	uint64_t payload;
	uint8_t cbr, hw, cstate, subcstate, last, wake;
	bool fup_ip; /* exstop, ptwrite: the packet gave the IP (a FUP) */
	/*
	 * insn with itrace.last_branch: the thread's last taken branches before
	 * it, the latest first (perf's branch stack of the sample)
	 */
	const struct prism_pt_branch *brstack;
	uint32_t nr_brstack;
	/*
	 * with opts.ipc: the instructions and cycles since the last sample of
	 * its kind that had them (perf's IPC: insn_cnt / cyc_cnt); 0 = none
	 */
	uint64_t ipc_insns, ipc_cycles;
};

/*
 * perf's frequency of a core:bus ratio: MHz (by the TSC frequency the time
 * conversion gives, over MAX_NONTURBO_RATIO) and the percentage of the
 * non-turbo maximum (0 when the file has no MAX_NONTURBO_RATIO)
 */
PRISM_API void prism_pt_cbr_freq(const struct prism_pt_info *info, unsigned int cbr,
				 unsigned int *mhz, unsigned int *percent);

/*
 * The CPU that recorded a trace, from the file's CPUID feature as perf's
 * x86 writes it: "vendor,family,model,stepping" in decimal
 * ("GenuineIntel,6,142,10").  libipt applies its errata workarounds for an
 * Intel family/model it knows; perf, for Apollo Lake (6,92), takes a FUP
 * that holds the next instruction's address after an indirect branch.
 */
struct prism_pt_cpu {
	bool known; /* parsed: a vendor and at least family and model */
	bool intel; /* GenuineIntel: the only vendor libipt has errata for */
	bool has_stepping;
	char vendor[16];
	uint16_t family;
	uint8_t model, stepping;
};
/* 0, or -EINVAL for a string that is not "vendor,family,model[,stepping]" (@out zeroed) */
PRISM_API int prism_pt_cpu__parse(const char *cpuid, struct prism_pt_cpu *out);
/* the CPUID feature of @f parsed: 0, -ENOENT when there is none, -EINVAL (@out zeroed) */
struct prism_features;
PRISM_API int prism_pt_cpu__from_features(const struct prism_features *f, struct prism_pt_cpu *out);
/*
 * The errata workarounds the decoder applies for @cpu (NULL or unknown: none
 * but skd010, which it always applies), libipt's names space-separated
 * ("bdm70 skd007 ..."), into @sb; -PRISM_E_UNSUPPORTED without libipt
 */
PRISM_API int prism_pt_cpu__errata(const struct prism_pt_cpu *cpu, struct prism_strbuf *sb);

struct prism_symbols;
struct prism_tasks;
struct prism_pt_decoder;
struct prism_pt_decoder_opts {
	struct prism_pt_info info; /* the file's AUXTRACE_INFO */
	uint64_t config; /* the intel_pt event's attr.config (tsc, mtc_period ...) */
	struct prism_pt_cpu cpu; /* the file's CPUID feature (zero: none): libipt's errata */
	struct prism_itrace itrace;
	struct prism_symbols *sy; /* code: the files the maps name (fed the side-band) */
	struct prism_tasks *tasks; /* thread -> process */
	bool ipc; /* count instructions and cycles for the samples' IPC */
	/*
	 * an instruction sample of a taken branch has its target in addr
	 * (perf's to_ip); decodes instruction by instruction
	 */
	bool insn_to;
};
/*
 * NULL + errno: PRISM_E_UNSUPPORTED without libipt, EINVAL for an
 * instruction period not counted in instructions (time and ticks are not
 * done)
 */
PRISM_API struct prism_pt_decoder *prism_pt_decoder__new(const struct prism_pt_decoder_opts *o);
PRISM_API void prism_pt_decoder__free(struct prism_pt_decoder *d);
/* an AUXTRACE record and its bytes (copied: to the queue's temporary file, see stats) */
PRISM_API int prism_pt_decoder__add(struct prism_pt_decoder *d, const struct prism_auxtrace *at);
/* side-band: a SWITCH_CPU_WIDE / SWITCH / ITRACE_START / AUX record (others ignored) */
PRISM_API int prism_pt_decoder__side_band(struct prism_pt_decoder *d, const struct prism_event *ev);
/*
 * What the decoder held: the trace bytes added, how many of them are in
 * memory (the rest are in temporary files, mapped while decoding, when one
 * could be made), and how many of the mapped bytes were released as
 * decoding passed them
 */
struct prism_pt_decoder_stats {
	uint64_t trace_bytes, heap_bytes, released_bytes;
	uint64_t blocks; /* blocks of instructions walked at once (0: one at a time) */
	size_t queues;
	size_t walked; /* of the queues, those whose blocks prism walks (not libipt's block decoder) */
	uint64_t errors; /* decoding errors, also those 'e' did not ask to show */
};
PRISM_API void prism_pt_decoder__stats(const struct prism_pt_decoder *d,
				       struct prism_pt_decoder_stats *st);
/*
 * prism_pt_decoder__run - decode every queue, handing @fn the samples and
 * errors in time order (one queue's in trace order); @fn's non-zero return
 * stops it and is returned
 */
PRISM_API int prism_pt_decoder__run(struct prism_pt_decoder *d,
				    int (*fn)(void *ctx, const struct prism_pt_item *it),
				    void *ctx);

#endif /* PRISM_PT_H */
