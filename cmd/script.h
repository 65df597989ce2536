/* SPDX-License-Identifier: MIT */
/*
 * Parts of prism script kept out of cmd/script.c.
 */
#ifndef PRISM_CMD_SCRIPT_H
#define PRISM_CMD_SCRIPT_H

#include <stdio.h>

#include <prism/disasm.h>
#include <prism/event.h>
#include <prism/pt.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

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
	F_BRSTACK = 1 << 21,
	F_BRSTACKSYM = 1 << 22,
	F_BRSTACKOFF = 1 << 23,
};
#define F_BRSTACKS (F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF)

#define FIELD_LIST                                                                                  \
	"comm,tid,pid,cpu,time,event,period,ip,sym,symoff,dso,srcline,addr,trace,phys_addr,weight," \
	"data_src,cgroup,ins_lat,data_page_size,code_page_size,brstack,brstacksym,brstackoff"

/*
 * -F LIST: the fields to print (@fields), or with a leading '+' / '-'
 * (perf's form) those added to / removed from the defaults (@add, @del).
 * Return: 0, or -1 after an error message.
 */
int script_parse_fields(const char *list, unsigned int *fields, unsigned int *add,
			unsigned int *del);
/* like perf: a requested field the samples cannot carry is an error (-1, printed) */
int script_check_fields(struct prism_session *s, unsigned int fields);

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
void script_put_tail(struct prism_strbuf *sb, struct prism_symbols *sy,
		     const struct prism_event *ev, unsigned int f);

/* --show-*-events: the records printed beside the samples */
enum script_show {
	SHOW_TASK = 1 << 0, /* COMM, FORK, EXIT */
	SHOW_MMAP = 1 << 1,
	SHOW_SWITCH = 1 << 2,
	SHOW_LOST = 1 << 3,
	SHOW_NAMESPACE = 1 << 4,
	SHOW_CGROUP = 1 << 5,
	SHOW_ROUND = 1 << 6, /* FINISHED_ROUND, in file order */
	SHOW_BPF = 1 << 7, /* KSYMBOL, BPF_EVENT */
	SHOW_TEXT_POKE = 1 << 8, /* TEXT_POKE, KSYMBOL */
};
/* the option that shows records of @type (0: none) */
unsigned int script_show_of(uint32_t type);
/*
 * the process and thread perf gives a shown record: its comm starts the
 * line, and they stand in for a missing sample_id (tid -1: none)
 */
void script_show_ids(const struct prism_event *ev, int64_t *pid, int64_t *tid);
/* "PERF_RECORD_NAME" and the record's fields, as perf script prints them (@sy: may be NULL) */
void script_put_record(struct prism_strbuf *sb, const struct prism_event *ev,
		       struct prism_symbols *sy);
/* a TEXT_POKE record's detail, with the kernel's symbol at its address when @sy finds it */
void script_put_text_poke(struct prism_strbuf *sb, const struct prism_event *ev,
			  struct prism_symbols *sy);

/* -D: a record's offset, size, type and bytes, then its one-line summary */
struct script_dump {
	const char *where; /* the input's name as perf prints it ("pipe" for a pipe) */
	/* perf's combined sample_type and the first event's sample_id_all, of nr_evsels */
	size_t nr_evsels;
	uint64_t sample_type;
	bool id_all;
	bool intel_pt; /* an AUXTRACE_INFO of Intel PT was read: AUXTRACE data is its packets */
	struct prism_symbols *sy; /* fed the records, for a TEXT_POKE's symbol (as perf -D) */
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
 * and print them (cmd/script-pt.c) with the fields @f.  Return: exit status.
 */
struct prism_itrace;
struct prism_tasks;
struct prism_symbols;
struct pt_fields;
int script_itrace(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
		  const struct prism_itrace *itrace, const struct pt_fields *f, const char *input);
/*
 * --itrace / --call-trace / --call-ret-trace and -F into *@it and *@f.
 * Return: NULL, or why they are refused.
 */
/* whether the file records intel_pt (an event named so): perf decodes it by default */
bool script_is_pt_file(struct prism_session *s);
const char *script_itrace_setup(const char *itrace, const char *fields, bool call_trace,
				bool callret_trace, struct prism_itrace *it, struct pt_fields *f);
/* why prism cannot do these --itrace options (in prism report), or NULL */
const char *script_itrace_unsupported(const struct prism_itrace *it);
/* the same for prism export's --itrace */
const char *export_itrace_unsupported(const struct prism_itrace *it);
/*
 * The same decoding, each sample handed to @fn with its event's name
 * ("branches:uH", "cbr"), errors left out (prism report).  Return: exit status.
 */
struct prism_pt_item;
typedef int pt_sample_fn(void *ctx, const struct prism_pt_item *it, const char *name);
int pt_decode(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
	      const struct prism_itrace *itrace, const char *input, pt_sample_fn *fn, void *ctx);
/*
 * cmd/script-pt-events.c: the name of an event of --itrace=x, p or w
 * (NULL for branches, instructions, errors); whether it is one of perf's
 * synthesized kind (its raw fields printed, no period); the widest name of
 * those asked for (of an intel_pt event of @config); the text of its raw fields
 */
const char *script_pt_event_name(enum prism_pt_item_kind kind);
bool script_pt_event_synth(enum prism_pt_item_kind kind);
int script_pt_event_width(const struct prism_itrace *it, uint64_t config);
void script_pt_event_put(const struct prism_pt_info *info, const struct prism_pt_item *it,
			 struct prism_strbuf *sb);
/*
 * cmd/script-pt-cpu.c: the recording CPU (@cpu) from @s's CPUID feature, for
 * the decoder's errata; with -v a line on stderr naming it and the errata
 */
void script_pt_cpu(struct prism_session *s, struct prism_pt_cpu *cpu);
/* cmd/script-pt-log.c: --itrace=d's log (./intel_pt.log): the traces' packets, the errors */
struct pt_log {
	FILE *f; /* NULL: no log */
	struct prism_strbuf sb;
	bool failed; /* a write failed */
};
int script_pt_log_open(struct pt_log *l);
const char *script_pt_log_name(void);
void script_pt_log_trace(struct pt_log *l, const struct prism_auxtrace *at);
void script_pt_log_line(struct pt_log *l, const char *line, size_t len);
/* 0, or -EIO when a write failed */
int script_pt_log_close(struct pt_log *l);
/*
 * pt_item_frames - @it's call chain (@chain) or its ip alone, resolved
 * into @cc, leaf first.  Return: 0 or -ENOMEM.
 */
struct prism_callchain;
int pt_item_frames(struct prism_symbols *sy, const struct prism_pt_item *it, bool chain,
		   struct prism_callchain *cc);

/*
 * -F with --itrace (cmd/script-pt-opts.c): perf 6.1's fields of each type of
 * Intel PT sample: PT_HW (branches, instructions, transactions), PT_SYNTH
 * (ptwrite, power events), PT_OTHER (the intel_pt event, only checked)
 */
enum { PT_HW, PT_SYNTH, PT_OTHER, PT_NR };
struct pt_fields {
	bool init; /* the defaults are set */
	struct {
		unsigned int fields; /* enum field and F_CALLINDENT ... F_SYNTH */
		unsigned int asked; /* named in -F (perf's user_set_fields) */
		unsigned int unset; /* -F -field of every type (perf's user_unset_fields) */
		bool user_set; /* -F set or changed them: no " => target" unless addr */
		bool reset; /* a list set them (not only changed the defaults) */
	} type[PT_NR];
	bool flags; /* perf's print_flags, of every type */
	bool ns; /* times with 9 decimals (--ns, --insn-trace, --call-trace) */
	bool call_trace; /* --call-(ret-)trace */
	bool pad_dso; /* --call-trace: the DSO padded to 50 columns */
	enum prism_disasm_syntax syntax; /* disasm: AT&T (perf's) or Intel */
	/* --show-*-events (enum script_show): a shown record's line into @out, by script.c */
	unsigned int show;
	void (*show_line)(void *ctx, const struct prism_event *ev, struct prism_strbuf *out);
	void *show_ctx;
};
/* --show-*-events with --itrace: the shown records' lines, kept until the samples reach them */
struct pt_show {
	struct pt_shown *v;
	size_t n, cap, next;
};
/* keep the line @text (@len bytes) of a record at @time (an EXIT: of @exit_tid, else -1) */
int pt_show_add(struct pt_show *s, uint64_t time, int64_t exit_tid, const char *text, size_t len);
/* the kept lines up to @time onto @sb */
void pt_show_flush(struct pt_show *s, uint64_t time, struct prism_strbuf *sb);
/* without timestamps (perf decodes a thread's trace at its EXIT): the lines before @tid's EXIT */
void pt_show_flush_to_exit(struct pt_show *s, int64_t tid, struct prism_strbuf *sb);
void pt_show_release(struct pt_show *s);
struct option_def;
/* --insn-trace[=raw|disasm] (an option callback) */
int script_opt_insn_trace(const struct option_def *opt, const char *arg);
/*
 * --insn-trace (*@itrace set to its --itrace) and -M into @f.  Return:
 * NULL, or why they are refused.
 */
const char *script_pt_insn_opts(const char *insn_trace, const char *dis_style, struct pt_fields *f,
				const char **itrace);
/* the instruction fields at the end of a sample's line */
struct script_pt_insn {
	const struct pt_fields *f;
	unsigned int fields; /* the fields of the sample's type */
	struct prism_symbols *sy;
	struct prism_disasm *dis;
	struct prism_strbuf tmp;
	struct prism_frame fr;
};
/* 0, or -errno / -PRISM_E_UNSUPPORTED (disasm without libcapstone) */
int script_pt_insn_init(struct script_pt_insn *si, const struct pt_fields *f,
			struct prism_symbols *sy);
void script_pt_insn_release(struct script_pt_insn *si);
/* " ilen: N", " insn: bytes", "\t\tdisassembly" as the fields ask */
void script_pt_insn_put(struct script_pt_insn *si, const struct prism_pt_item *it,
			struct prism_strbuf *sb);

/*
 * cmd/script-pt-fields.c: -F +brstack / +brstacksym (the branch stack of
 * an instruction sample), +srcline ("\n  file.c:12" of @addr, nothing
 * where the DWARF has no line) and +ipc, as perf 6.1 prints them
 */
void script_pt_brstack_put(struct script_pt_insn *si, const struct prism_pt_item *it,
			   struct prism_strbuf *sb);
void script_pt_srcline_put(struct script_pt_insn *si, const struct prism_pt_item *it, uint64_t addr,
			   struct prism_strbuf *sb);
/* -F +ipc: " \t IPC: 0.35 (14/40) " where the sample has counts */
void script_pt_ipc_put(struct script_pt_insn *si, const struct prism_pt_item *it,
		       struct prism_strbuf *sb);

/*
 * cmd/script-brstack.c: one end of a branch of a branch stack, as perf
 * script prints it: "0xADDR" (brstack), "sym+0xoff" (brstacksym) or
 * "0xOFFSET" in its DSO (brstackoff), "(dso)" after it with @dso; resolved
 * in @cpumode, else in the mode of the address (perf's fallback)
 */
void script_branch_end(struct prism_symbols *sy, uint32_t pid, uint8_t cpumode, uint64_t addr,
		       unsigned int field, bool dso, struct prism_frame *fr,
		       struct prism_strbuf *sb);
/* brstackoff: perf has loaded @dso (it resolved a sample's address there) */
struct prism_dso;
void script_brstack_sample_dso(const struct prism_dso *dso);
/* -F brstack, brstacksym, brstackoff of a sample with PERF_SAMPLE_BRANCH_STACK */
void script_put_brstack(struct prism_strbuf *sb, struct prism_symbols *sy,
			const struct prism_event *ev, unsigned int f);

/* cmd/script-fields.c: the enum field bit of a -F name (0: none), and back */
unsigned int script_field_bit(const char *name);
const char *script_field_name(unsigned int bit);

/* the fields of Intel PT samples beside enum field's */
#define F_CALLINDENT (1u << 24)
#define F_INSN (1u << 25)
#define F_INSNLEN (1u << 26)
#define F_DISASM (1u << 27)
#define F_IPC (1u << 28)
#define F_SYNTH (1u << 29)
#define F_MISC (1u << 30) /* perf's misc flags of a record: none for these samples */
#define F_NOTHING (1u << 31) /* a field perf prints nothing of for these samples */
#define FIELD_LIST_PT                                                                    \
	"comm,tid,pid,cpu,time,event,period,flags,ip,sym,symoff,dso,addr,srcline,synth," \
	"callindent,insn,insnlen,disasm,ipc,brstack,brstacksym,brstackoff"

/*
 * cmd/script-pt-opts.c: perf's default fields of each type (once); the -F
 * list applied to them (NULL, or why it is refused)
 */
void script_pt_fields_init(struct pt_fields *f);
const char *script_pt_fields(const char *list, struct pt_fields *f);
/*
 * -F (the list also into *@opt->value), --call-trace and --call-ret-trace
 * (their bool set): option callbacks that keep the lists in command-line
 * order, as perf applies them; script_pt_fields_push adds one (--insn-trace's)
 */
int script_opt_fields(const struct option_def *opt, const char *arg);
int script_opt_call_trace(const struct option_def *opt, const char *arg);
void script_pt_fields_push(const char *list);
/* the lists kept (else @fields) applied to @f in order: NULL, or why one is refused */
const char *script_pt_fields_apply(const char *fields, struct pt_fields *f);
/*
 * the fields of the records --show-*-events prints among the samples (perf:
 * those of the other event types, which -F of every type changes) into
 * script.c's *@fields, or its changes of the defaults *@add and *@del
 */
void script_pt_show_fields(const struct pt_fields *f, unsigned int *fields, unsigned int *add,
			   unsigned int *del);
/*
 * the fields of branches and instructions (*@hw), of the events (*@synth),
 * for the samples @it asks for of the intel_pt event @pt (@pt_name, its
 * sample name's modifiers @mods): NULL, or why a field asked for cannot be
 * printed
 */
struct perf_event_attr;
const char *script_pt_fields_check(const struct pt_fields *f, struct prism_session *s,
				   const struct perf_event_attr *pt, const char *pt_name,
				   const struct prism_pt_info *info, const struct prism_itrace *it,
				   const char *mods, unsigned int *hw, unsigned int *synth);

#endif /* PRISM_CMD_SCRIPT_H */
