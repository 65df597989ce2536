/* SPDX-License-Identifier: MIT */
/*
 * Annotation (perf annotate): the samples of each symbol counted per
 * instruction address, and the symbol's listing as perf 6.1 shows it:
 * objdump's lines (the disassembly here comes from libcapstone, written as
 * objdump writes AT&T), source lines interleaved as objdump -S does, each
 * instruction with its share of the symbol's samples.
 *
 *	struct prism_annotate *a = prism_annotate__new(sy, nr_events);
 *	... for every sample, its leaf frame from prism_symbols__resolve():
 *	prism_annotate__add(a, event_idx, pid, &frame, period);
 *	prism_annotate__symbols(a, event_idx, &syms, &nr);   (perf's order)
 *	prism_annotate__listing(a, event_idx, &syms[i], &opts, &listing);
 *
 * Everything handed out is owned by the annotate object (or the
 * prism_symbols object it was given) and valid until prism_annotate__free(),
 * except listings, which the caller releases.
 */
#ifndef PRISM_ANNOTATE_H
#define PRISM_ANNOTATE_H

#include <prism/core.h>
#include <prism/symbol.h>

struct prism_annotate;
struct prism_strbuf;

/* perf's --percent-type: the share of the symbol's or of the event's samples or periods */
enum prism_percent_type {
	PRISM_PERCENT_LOCAL_HITS,
	PRISM_PERCENT_GLOBAL_HITS,
	PRISM_PERCENT_LOCAL_PERIOD,
	PRISM_PERCENT_GLOBAL_PERIOD,
	PRISM_PERCENT__MAX,
};

/* "local-period" (or "period-local"...) -> PRISM_PERCENT_LOCAL_PERIOD; -1 when none */
PRISM_API int prism_percent_type__parse(const char *s);
/* "local period", as perf's header line says it */
PRISM_API const char *prism_percent_type__str(enum prism_percent_type t);

/*
 * @sy resolves branch targets and source lines; @nr_events: the events known
 * (more are added as samples of them come).  NULL with errno set.
 */
PRISM_API struct prism_annotate *prism_annotate__new(struct prism_symbols *sy, size_t nr_events);
PRISM_API void prism_annotate__free(struct prism_annotate *a); /* accepts NULL */
/*
 * the symbols objdump's labels are named from ("<sym+0x1c>"): objdump -C
 * gives C++ names with their parameters, perf's symbols do not; a context
 * made with demangle_params, fed the same records.  Default: @sy's names.
 */
PRISM_API void prism_annotate__set_label_symbols(struct prism_annotate *a,
						 struct prism_symbols *sy);

/**
 * prism_annotate__add - count one sample of event @ev
 * @pid: the sample's process (its maps place the symbol's code)
 * @f: the sample's own address, resolved; an unresolved one only counts in
 *     the event's totals
 *
 * Return: 0, -EINVAL for an @ev of 65535 or more, -ENOMEM.
 */
PRISM_API int prism_annotate__add(struct prism_annotate *a, size_t ev, uint32_t pid,
				  const struct prism_frame *f, uint64_t period);

/* the samples and period of event @ev (perf's hists totals: global percentages) */
PRISM_API void prism_annotate__totals(const struct prism_annotate *a, size_t ev,
				      uint64_t *nr_samples, uint64_t *period);

/* the samples at one address of a symbol */
struct prism_annotate_hit {
	uint64_t offset; /* from the symbol's start */
	uint64_t nr_samples, period;
};

/* a symbol with samples of one event */
struct prism_annotate_sym {
	const char *name;
	const char *dso_name; /* short */
	const char *dso_path; /* as recorded */
	struct prism_dso *dso;
	uint64_t start, end; /* in the DSO's address space */
	bool kernel;
	uint32_t pid; /* a process that sampled it, and the address of one sample: */
	uint64_t ip, dso_addr; /* where the DSO is mapped */
	uint64_t nr_samples, period;
	size_t nr_hits;
	struct prism_annotate_hit *hits; /* by offset */
};

/**
 * prism_annotate__symbols - the symbols of event @ev in perf annotate's
 * order: by period, descending, ties by DSO short name, then symbol name
 * (perf's hists sorted by "dso,symbol"); valid until the next
 * prism_annotate__add()
 *
 * Return: 0, -EINVAL for a bad @ev, -ENOMEM.
 */
PRISM_API int prism_annotate__symbols(struct prism_annotate *a, size_t ev,
				      const struct prism_annotate_sym *const **out, size_t *nr);

/**
 * prism_annotate__group_symbols - the symbols of a group of events @evs
 * (the leader first), in perf's order for a group: by the leader's period,
 * then each member's, then DSO and name; each symbol as the first event
 * that has it holds it (prism_annotate__sym_of() gives the others)
 * @out: owned by @a, valid until the next call or prism_annotate__add()
 *
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_annotate__group_symbols(struct prism_annotate *a, const size_t *evs,
					    size_t nr_evs,
					    const struct prism_annotate_sym *const **out,
					    size_t *nr);
/* the entry of @s's symbol in event @ev, NULL when @ev has no sample of it */
PRISM_API const struct prism_annotate_sym *
prism_annotate__sym_of(const struct prism_annotate *a, size_t ev,
		       const struct prism_annotate_sym *s);

/*
 * Samples in DSOs whose binary was not found (none of their addresses
 * resolved): @i-th such DSO, NULL past the last; its sample count in @nr.
 */
PRISM_API struct prism_dso *prism_annotate__missing(const struct prism_annotate *a, size_t i,
						    uint64_t *nr);
/*
 * count a sample in @dso among those (prism_annotate__add() does it for the
 * unresolved samples it is given).  Return: 0 or -ENOMEM.
 */
PRISM_API int prism_annotate__add_missing(struct prism_annotate *a, struct prism_dso *dso);

struct prism_annotate_opts {
	bool source; /* interleave source lines (objdump -S; perf's default) */
	bool asm_raw; /* instruction bytes before the text (objdump without --no-show-raw-insn) */
};

/* the samples an instruction has of one event: from it up to the next instruction */
struct prism_annotate_value {
	uint64_t nr_samples, period;
	double percent[PRISM_PERCENT__MAX];
};

/* one line of a listing */
struct prism_annotate_line {
	int64_t offset; /* of the instruction from the symbol's start; -1: a text line */
	uint64_t addr; /* the instruction's address (DSO address space) */
	/*
	 * text lines: objdump's line after perf's trimming (leading and trailing
	 * blanks removed, tabs expanded); instructions: what follows "addr:"
	 * (the expanded tab's blanks, bytes with asm_raw, the instruction)
	 */
	char *text;
	int line_nr; /* perf's line counter, shown on text lines */
	struct prism_annotate_value *v; /* instructions: one per event of the listing */
};

struct prism_annotate_listing {
	struct prism_annotate_line *lines;
	size_t nr, alloc;
	size_t nr_events;
	int addr_width; /* hex digits of the last instruction's address */
};

/**
 * prism_annotate__listing - disassemble @s and spread the samples of events
 * @evs (one, or a group's: the leader first) over its instructions
 * @out: filled; release with prism_annotate_listing__release()
 *
 * Return: 0, -ENOENT when the code is not here (the binary or, for the
 * kernel, a vmlinux or kcore), -PRISM_E_UNSUPPORTED without libcapstone,
 * -ENOMEM, -EIO for a short read.
 */
PRISM_API int prism_annotate__listing(struct prism_annotate *a, const size_t *evs, size_t nr_evs,
				      const struct prism_annotate_sym *s,
				      const struct prism_annotate_opts *opts,
				      struct prism_annotate_listing *out);
PRISM_API void prism_annotate_listing__release(struct prism_annotate_listing *l);

/**
 * prism_annotate__srcline - perf's source line of an address of @s, for
 * --print-line: "file.c:12" (the whole path with @full), or "dso[addr]"
 * when the binary has no line for it; appended to @sb
 */
PRISM_API void prism_annotate__srcline(struct prism_annotate *a, const struct prism_annotate_sym *s,
				       uint64_t addr, bool full, struct prism_strbuf *sb);

/**
 * prism_annotate__objdump_insn - the instruction at @code (at address
 * @addr, 64-bit code) as objdump -d --no-show-raw-insn writes it in AT&T
 * syntax, branch targets without their names; appended to @sb
 * @d: an AT&T disassembler (prism_disasm__new())
 *
 * Return: its size, or -EINVAL when @code is no instruction.
 */
struct prism_disasm;
PRISM_API int prism_annotate__objdump_insn(struct prism_disasm *d, const uint8_t *code, size_t len,
					   uint64_t addr, struct prism_strbuf *sb);

#endif /* PRISM_ANNOTATE_H */
