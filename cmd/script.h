/* SPDX-License-Identifier: MIT */
/*
 * Parts of prism script kept out of cmd/script.c.
 */
#ifndef PRISM_CMD_SCRIPT_H
#define PRISM_CMD_SCRIPT_H

#include <prism/event.h>
#include <prism/strbuf.h>

struct prism_session;
struct prism_evsel;

enum field {
	F_COMM = 1 << 0,
	F_TID = 1 << 1,
	F_PID = 1 << 2,
	F_CPU = 1 << 3,
	F_TIME = 1 << 4,
	F_EVENT = 1 << 5,
	F_PERIOD = 1 << 6,
	F_IP = 1 << 7,
	F_ADDR = 1 << 8,
	F_TRACE = 1 << 9,
	F_PHYS_ADDR = 1 << 10,
	F_WEIGHT = 1 << 11,
	F_DATA_SRC = 1 << 12,
	F_CGROUP = 1 << 13,
	F_SYM = 1 << 14,
	F_SYMOFF = 1 << 15,
	F_DSO = 1 << 16,
	F_SRCLINE = 1 << 17,
	F_INS_LAT = 1 << 18,
	F_DATA_PAGE_SIZE = 1 << 19,
	F_CODE_PAGE_SIZE = 1 << 20,
};

/*
 * perf 6.1's default fields for @evsel's type (raw events add addr,
 * data_src, weight, phys_addr, page sizes and ins_lat), less those the first
 * event of that type (dummy events aside) does not sample
 */
unsigned int script_default_fields(struct prism_session *s, const struct prism_evsel *evsel);
/*
 * data_src as perf prints it: "%16" PRIx64 " %s" with the decoded bits, cut
 * to 99 bytes (perf's buffer) and padded to @width, the longest so far
 */
void script_put_data_src(struct prism_strbuf *sb, int *width, uint64_t src);
/* what perf prints after the symbol (and after a call chain): phys_addr, page sizes */
void script_put_tail(struct prism_strbuf *sb, const struct prism_sample *s, unsigned int f);

/* -D: a record's offset, size, type and bytes, then its one-line summary */
struct script_dump {
	const char *where; /* the input's name as perf prints it ("pipe" for a pipe) */
	/* perf's combined sample_type and the first event's sample_id_all, of nr_evsels */
	size_t nr_evsels;
	uint64_t sample_type;
	bool id_all;
	bool intel_pt; /* an AUXTRACE_INFO of Intel PT was read: AUXTRACE data is its packets */
	bool no_libipt_warned;
};
/*
 * -D: a record; an AUXTRACE's Intel PT packets are appended in pieces,
 * @flush(@ctx, @sb) writing each.  Return: false for a record perf does
 * not show (nothing appended), else true.
 */
bool script_dump_record(struct script_dump *d, const struct prism_session *s,
			struct prism_strbuf *sb, const struct prism_event *ev,
			int (*flush)(void *ctx, struct prism_strbuf *sb), void *ctx);
/* -D: a record the session skipped: its bytes, and why it has no decoded line */
void script_dump_malformed(const struct script_dump *d, const struct prism_session *s,
			   struct prism_strbuf *sb, const struct prism_event *ev);

/* the counter reads of a perf stat record file */
struct script_stat {
	struct prism_stat_reads *reads; /* created at the first record it takes */
	bool header; /* perf's column header was printed */
};
/* feed a record; at a STAT_ROUND, append perf script's lines; 0 or -ENOMEM */
int script_stat_event(struct script_stat *st, struct prism_session *s, const struct prism_event *ev,
		      struct prism_strbuf *sb);

/*
 * --itrace: decode the file's Intel PT trace into perf's synthesized samples
 * and print them (cmd/script-pt.c); @pf: the PT_PRINT_* below.  Return:
 * exit status.
 */
#define PT_PRINT_FLAGS 1u /* -F +flags */
#define PT_PRINT_CALLINDENT 2u /* -F +callindent: the branch's function, indented by depth */
/* --call-trace, --call-ret-trace: no ip, addr, event, period; times in ns; the DSO */
#define PT_PRINT_CALL_TRACE 4u
#define PT_PRINT_PAD_DSO 8u /* --call-trace: the DSO padded to 50 columns */
#define PT_PRINT_NS 16u /* --ns: times in nanoseconds */
struct prism_itrace;
struct prism_tasks;
struct prism_symbols;
int script_itrace(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
		  const struct prism_itrace *itrace, unsigned int pf, const char *input);
/*
 * --itrace / --call-trace / --call-ret-trace and -F into *@it and *@pf
 * (PT_PRINT_*).  Return: NULL, or why they are refused.
 */
const char *script_itrace_setup(const char *itrace, const char *fields, bool call_trace,
				bool callret_trace, struct prism_itrace *it, unsigned int *pf);
/* why prism cannot do these --itrace options, or NULL */
const char *script_itrace_unsupported(const struct prism_itrace *it);
/*
 * The same decoding, each sample handed to @fn with its event's name
 * ("branches:uH"), errors left out (prism report).  Return: exit status.
 */
struct prism_pt_item;
typedef int pt_sample_fn(void *ctx, const struct prism_pt_item *it, const char *name);
int pt_decode(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
	      const struct prism_itrace *itrace, const char *input, pt_sample_fn *fn, void *ctx);
/*
 * pt_item_frames - @it's call chain (@chain) or its ip alone, resolved
 * into @cc, leaf first.  Return: 0 or -ENOMEM.
 */
struct prism_callchain;
int pt_item_frames(struct prism_symbols *sy, const struct prism_pt_item *it, bool chain,
		   struct prism_callchain *cc);

#endif /* PRISM_CMD_SCRIPT_H */
