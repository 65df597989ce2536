/* SPDX-License-Identifier: MIT */
/*
 * Profiles: symbolized samples of one event aggregated by unique call
 * stack, then viewed as perf report's rows (self and children overhead per
 * comm/pid/tid/dso/sym/srcline/cpu), call graphs, folded stacks
 * (stackcollapse format) and flame graphs.
 *
 * Memory grows with the number of distinct (task, stack) pairs, not with
 * the number of samples.  Every string a profile hands out is owned by the
 * profile (or by the prism_symbols object it was given) and stays valid
 * until prism_profile__free().
 */
#ifndef PRISM_PROFILE_H
#define PRISM_PROFILE_H

#include <stdio.h>

#include <prism/core.h>
#include <prism/symbol.h>

struct prism_profile;

/* the fields a row can be keyed by (perf report --sort) */
enum prism_sort_key {
	PRISM_SORT_COMM,
	PRISM_SORT_PID, /* perf's "pid": the task (thread), shown as tid:comm */
	PRISM_SORT_TID, /* the same rows as PRISM_SORT_PID */
	PRISM_SORT_DSO,
	PRISM_SORT_SYM,
	PRISM_SORT_SRCLINE,
	PRISM_SORT_CPU,
	PRISM_SORT_SRCFILE, /* the file of srcline ("" when unknown) */
	/*
	 * perf's output fields as sort keys: they group nothing, they order the
	 * rows by their value, descending (overhead and period: self period,
	 * sample: self samples, overhead_sys/us: the self period of kernel /
	 * user leaves; prism keeps no guest mode: overhead_guest_* are 0)
	 */
	PRISM_SORT_OVERHEAD,
	PRISM_SORT_OVERHEAD_SYS,
	PRISM_SORT_OVERHEAD_US,
	PRISM_SORT_OVERHEAD_GUEST_SYS,
	PRISM_SORT_OVERHEAD_GUEST_US,
	PRISM_SORT_OVERHEAD_CHILDREN,
	PRISM_SORT_SAMPLE,
	PRISM_SORT_PERIOD,
	PRISM_SORT_PARENT, /* perf's parent: see prism_profile__set_parent() */
	PRISM_SORT_SYM_SIZE, /* perf's symbol_size: the symbol's size (0 unresolved), ascending */
	PRISM_SORT_TIME, /* perf's time: see prism_profile__set_time(), ascending */
	/* perf's keys of struct prism_sample_keys (prism_profile__set_sample_keys()) */
	PRISM_SORT_SOCKET,
	PRISM_SORT_DSO_SIZE, /* the size of the frame's map (perf's map__size; needs @sy) */
	PRISM_SORT_CGROUP,
	PRISM_SORT_CGROUP_ID,
	PRISM_SORT_LOCAL_WEIGHT,
	PRISM_SORT_WEIGHT,
	PRISM_SORT_LOCAL_INS_LAT,
	PRISM_SORT_INS_LAT,
	PRISM_SORT_LOCAL_P_STAGE_CYC,
	PRISM_SORT_P_STAGE_CYC,
	PRISM_SORT_TRACE, /* perf's trace: a tracepoint sample's formatted output */
	PRISM_SORT__MAX,
};

/* "comm" -> PRISM_SORT_COMM; -1 for an unknown name */
PRISM_API int prism_sort_key__parse(const char *name);
PRISM_API const char *prism_sort_key__name(enum prism_sort_key key);

/**
 * prism_profile__new - an empty profile
 * @sy: symbols used for source lines (only with PRISM_SORT_SRCLINE in @keys_mask)
 * @keys_mask: bit (1 << enum prism_sort_key) for every field rows may use;
 *      samples keep only these fields (comm is always kept)
 *
 * Return: the profile, or NULL with errno set.
 */
PRISM_API struct prism_profile *prism_profile__new(struct prism_symbols *sy,
						   unsigned int keys_mask);
PRISM_API void prism_profile__free(struct prism_profile *p); /* accepts NULL */

/**
 * prism_profile__add - add one sample
 * @comm: the thread's command name (NULL = ":TID")
 * @frames: the call chain, leaf first (from prism_symbols__callchain())
 * @nr: number of frames; 0 adds a sample with an "[unknown]" frame
 *
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_profile__add(struct prism_profile *p, const char *comm, uint32_t pid,
				 uint32_t tid, uint32_t cpu, uint64_t period,
				 const struct prism_frame *frames, size_t nr);

/*
 * A sample whose call chain came out empty in a profile of samples that have
 * chains (a DWARF sample of which nothing could be unwound): perf gives it
 * its own row (self, and children for itself) and nothing else, no row of
 * its address as a caller and no call graph.  @leaf is the sample address.
 */
PRISM_API int prism_profile__add_nochain(struct prism_profile *p, const char *comm, uint32_t pid,
					 uint32_t tid, uint32_t cpu, uint64_t period,
					 const struct prism_frame *leaf);

/*
 * A sample a filter (comm, pid, tid) left out: it gives no row but counts in
 * the totals, so percentages stay shares of every sample (perf's default
 * --percentage absolute) and the header counts it.
 */
PRISM_API void prism_profile__add_filtered(struct prism_profile *p, uint64_t period);

/**
 * prism_profile__rename_comm - give the samples added under @old the name @new
 *
 * perf's rule for a thread's first COMM record: it replaces the thread's
 * initial ":TID" name rather than adding a new one, so samples taken before
 * it show the name it gets later.  The caller passes ":TID" as @old.
 *
 * Return: 0 (also when no sample has @old) or -ENOMEM.
 */
PRISM_API int prism_profile__rename_comm(struct prism_profile *p, const char *old, const char *new);

PRISM_API uint64_t prism_profile__total_period(const struct prism_profile *p);
PRISM_API uint64_t prism_profile__nr_samples(const struct prism_profile *p);
/* distinct (task, stack) pairs held */
PRISM_API size_t prism_profile__nr_stacks(const struct prism_profile *p);

/* one row; strings owned by the profile */
struct prism_hist_entry {
	const char *comm; /* of the row's first sample */
	uint32_t pid, tid, cpu;
	uint32_t thread; /* tid of the row's first sample (whatever the keys) */
	const char *dso; /* short DSO name */
	const char *sym; /* NULL when unresolved: print the address */
	uint64_t ip; /* the address, for unresolved symbols */
	const char *srcline; /* "file.c:12", or NULL when unknown / not a key */
	bool kernel;
	bool inlined; /* an inlined function (perf prints "name (inlined)") */
	uint64_t self, children; /* periods */
	uint64_t nr_samples; /* samples whose leaf is this row */
	uint64_t nr_children_samples; /* samples that have this row anywhere in their stack */
	uint64_t period_sys, period_us; /* self period of samples in the kernel / user space */
	const char *srcfile; /* srcline's file, "" when unknown (with PRISM_SORT_SRCFILE) */
	const char *parent; /* PRISM_SORT_PARENT's symbol, NULL for none ("[other]") */
	uint64_t sym_size; /* PRISM_SORT_SYM_SIZE's: the symbol's size, 0 when unresolved */
	uint64_t time; /* PRISM_SORT_TIME's */
	/* the keys of struct prism_sample_keys, where they are among the row's keys */
	int32_t socket;
	uint64_t dso_size; /* the size of the row's map, 0 for none */
	uint64_t cgroup; /* the cgroup's id, 0 for none */
	const char *cgroup_name; /* NULL when the file has no CGROUP record for the id */
	uint64_t cgroup_dev, cgroup_ino; /* the task's cgroup namespace */
	uint64_t weight; /* the samples' weight (equal in a row keyed by it) */
	uint64_t ins_lat, p_stage_cyc; /* sums over the row's own samples */
	bool hidden; /* made by a sample added hidden: see prism_profile__set_hidden() */
	bool filtered; /* made by a sample added filtered: prism_profile__set_filtered() */
	/*
	 * the address of the row's first sample as perf keeps it (he->ip): in
	 * its map as the sample's own address, as it is in a call chain; with
	 * prism_profile__set_verbose() that sample's, else its symbol's first
	 */
	uint64_t addr;
	const struct prism_dso *dso_ref; /* the DSO of the row's frame, NULL for none */
	const char *dso_path; /* its long name: "/usr/lib/.../libc.so.6" (owned by the symbols) */
	const char *trace; /* PRISM_SORT_TRACE's text, NULL for a sample of no tracepoint */
};

/**
 * prism_profile__entries - the rows for a list of sort keys
 * @keys: the sort keys, in output order
 * @children: also sum periods over whole stacks (perf --children); rows
 *      that are only callers then appear with self 0
 * @out: set to the rows, sorted by children (or self) period, descending,
 *      then by @keys; when @keys has output fields (PRISM_SORT_OVERHEAD...)
 *      by @keys alone, in their order (perf's sort order);
 *      owned by the profile, valid until the next call or __free()
 * @nr: set to the number of rows
 *
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_profile__entries(struct prism_profile *p, const enum prism_sort_key *keys,
				     size_t nr_keys, bool children, struct prism_hist_entry **out,
				     size_t *nr);

/**
 * prism_profile__entry_srcline - source file and line of row @idx of the
 * last prism_profile__entries() call (the first address seen in the row)
 *
 * Return: 0, -EINVAL for a bad @idx, -ENOENT without line information.
 */
PRISM_API int prism_profile__entry_srcline(struct prism_profile *p, size_t idx, const char **file,
					   unsigned int *line);

/* a call graph node: a frame and the period of the stacks through it */
struct prism_callgraph {
	const char *name; /* symbol, or NULL when unresolved */
	const char *dso;
	uint64_t ip;
	bool kernel;
	enum prism_frame_kind kind;
	uint64_t period, samples;
	size_t nr_children;
	struct prism_callgraph **children; /* sorted by period, descending */
	struct prism_callgraph *parent; /* NULL for the root */
	/*
	 * the node's place in perf's order of chains of equal period (its flat
	 * and folded views): after its callees, theirs in its callee tree's order
	 */
	uint32_t seq;
};

/**
 * prism_profile__callgraph - the call graph of row @idx of the last
 * prism_profile__entries() call
 * @caller: root-first paths (callers above callees); false: leaf first
 * @out: the root (name NULL, period = the row's total); owned by the profile
 *
 * A sample whose leaf is the row contributes its whole stack; a sample that
 * only passes through the row contributes the part from the row to the leaf
 * (caller order), as perf report --children shows it.
 *
 * Return: 0, -EINVAL for a bad @idx, -ENOMEM.
 */
PRISM_API int prism_profile__callgraph(struct prism_profile *p, size_t idx, bool caller,
				       struct prism_callgraph **out);

/**
 * prism_profile__callgraphs - build the call graphs of every row whose
 * overhead (children, or self) is at least @min_period, in one pass
 *
 * Later prism_profile__callgraph() calls for those rows (same @caller)
 * return the prebuilt graphs; graphs of other rows are built on demand.
 * Rows below @min_period cannot show a branch above it.
 *
 * Return: 0, -EINVAL before prism_profile__entries(), -ENOMEM.
 */
PRISM_API int prism_profile__callgraphs(struct prism_profile *p, bool caller, uint64_t min_period);

/* folded output flags */
#define PRISM_FOLDED_KERNEL_SUFFIX 1u /* "_[k]" after kernel frames (stackcollapse --kernel) */
#define PRISM_FOLDED_PID 2u /* "comm-PID" as the first frame */
#define PRISM_FOLDED_TID 4u /* "comm-PID/TID" */
#define PRISM_FOLDED_PERIOD 8u /* count periods instead of samples */

/**
 * prism_profile__write_folded - one "comm;root;...;leaf count" line per
 * distinct stack, sorted, as stackcollapse.py / stackcollapse-perf.pl write
 * them: spaces in comm become '_', ';' in names ':', unresolved frames
 * "[unknown]".
 *
 * Return: 0, -ENOMEM, or -EIO when writing to @fp failed.
 */
PRISM_API int prism_profile__write_folded(struct prism_profile *p, FILE *fp, unsigned int flags);

struct prism_flamegraph_opts {
	const char *title; /* default "Flame Graph" */
	const char *subtitle; /* may be NULL */
	unsigned int width; /* pixels, default 1200 */
	double min_width; /* frames narrower than this many pixels are left out (default 0.1) */
	bool period; /* weight by period instead of samples */
	const char *count_name; /* "samples" */
	bool offcpu_palette; /* blues for off-CPU time (flamegraph.pl --colors=io) */
};

/**
 * prism_profile__write_flamegraph - a self-contained interactive SVG
 *
 * Click zooms into a frame, Ctrl-F or the Search button highlights frames
 * matching a regular expression and shows the share they cover, tooltips
 * give samples and percentages.  Colours: user code warm, kernel orange,
 * JIT green, inlined aqua.
 *
 * Return: 0, -ENOMEM or -EIO.
 */
PRISM_API int prism_profile__write_flamegraph(struct prism_profile *p, FILE *fp,
					      const struct prism_flamegraph_opts *opts);

/*
 * Branch profiles (perf report's branch mode, -b): every taken branch of
 * the samples' branch stacks counts 1, in rows keyed by its ends.
 */
struct prism_branches;

/* perf report -b's sort keys */
enum prism_branch_key {
	PRISM_BRANCH_COMM,
	PRISM_BRANCH_PID, /* the task: tid:comm */
	PRISM_BRANCH_DSO_FROM,
	PRISM_BRANCH_DSO_TO,
	PRISM_BRANCH_SYM_FROM,
	PRISM_BRANCH_SYM_TO,
	PRISM_BRANCH_CYCLES, /* the branch's basic block cycles */
	PRISM_BRANCH_IPC, /* perf's ipc_lbr: rows by target symbol */
	PRISM_BRANCH__MAX,
};

/* "symbol_from" -> PRISM_BRANCH_SYM_FROM; -1 for a name that is none */
PRISM_API int prism_branch_key__parse(const char *name);

/* one end of a branch, resolved */
struct prism_branch_end {
	const char *dso; /* short name; NULL when no map covers the address */
	const char *sym; /* NULL when unresolved */
	uint64_t addr; /* shown when unresolved: the address in its map */
	uint64_t start; /* the symbol's start, or the address when unresolved (order, identity) */
	char level; /* '.' user, 'k' kernel, 'H' no map (perf's levels) */
};

struct prism_branch_row {
	const char *comm;
	uint32_t tid;
	struct prism_branch_end from, to;
	uint16_t cycles;
	uint64_t count;
};

/* @keys_mask: bit (1 << enum prism_branch_key) of every key rows use */
PRISM_API struct prism_branches *prism_branches__new(unsigned int keys_mask);
PRISM_API void prism_branches__free(struct prism_branches *b); /* accepts NULL */
/* one branch; strings are copied.  Return: 0 or -ENOMEM. */
PRISM_API int prism_branches__add(struct prism_branches *b, const char *comm, uint32_t tid,
				  const struct prism_branch_end *from,
				  const struct prism_branch_end *to, uint16_t cycles);
PRISM_API uint64_t prism_branches__total(const struct prism_branches *b);
/*
 * The rows, by count (descending), ties by @keys in order; owned by @b,
 * valid until the next call or __free().  Return: 0 or -ENOMEM.
 */
PRISM_API int prism_branches__rows(struct prism_branches *b, const enum prism_branch_key *keys,
				   size_t nr_keys, const struct prism_branch_row **rows,
				   size_t *nr);

/*
 * prism_profile__entries() sorting the rows by @keys alone, in their
 * order (perf's order for -F fields): no overhead first when @keys has no
 * output field (PRISM_SORT_OVERHEAD...).
 */
PRISM_API int prism_profile__entries_by_keys(struct prism_profile *p,
					     const enum prism_sort_key *keys, size_t nr_keys,
					     bool children, struct prism_hist_entry **out,
					     size_t *nr);

/*
 * prism_profile__set_parent - the regular expression (POSIX extended, perf's
 * -p/--parent; NULL: none) of PRISM_SORT_PARENT: a sample's parent is the
 * first symbol of its call chain, leaf first, it matches.  Samples added
 * without a chain (prism_profile__add_nochain) have none.
 *
 * Return: 0, -EINVAL for a bad expression, -ENOMEM.
 */
PRISM_API int prism_profile__set_parent(struct prism_profile *p, const char *regex);

/*
 * prism_profile__set_time - the PRISM_SORT_TIME value of the samples added
 * from now on (perf: the sample's time rounded down to its --time-quantum);
 * ignored in a profile without that key.
 */
PRISM_API void prism_profile__set_time(struct prism_profile *p, uint64_t time);

/**
 * prism_profile__set_chain_order - the call graphs the next
 * prism_profile__entries() is for
 * @graphs: call graphs are shown (not -g none)
 * @caller: their order
 *
 * perf breaks ties of equal children overhead between rows of one thread by
 * the longest chain its graph holds (the caller first), so the row order
 * depends on the graph order.  Default: no graphs.
 */
PRISM_API void prism_profile__set_chain_order(struct prism_profile *p, bool graphs, bool caller);

/*
 * A sample whose call chain was cut (perf's --max-stack in caller order
 * keeps the outermost frames): its own row is @self (the sample address),
 * its chain @frames (leaf first), without it.
 */
PRISM_API int prism_profile__add_cut(struct prism_profile *p, const char *comm, uint32_t pid,
				     uint32_t tid, uint32_t cpu, uint64_t period,
				     const struct prism_frame *self,
				     const struct prism_frame *frames, size_t nr);

/*
 * perf report's sample keys beyond the task and the stack: the values of
 * the samples added from now on (prism_profile__set_sample_keys()), kept
 * where the profile's keys_mask has their key
 */
struct prism_sample_keys {
	int32_t socket; /* the sample CPU's socket (the header's topology), -1 unknown */
	uint64_t cgroup; /* PERF_SAMPLE_CGROUP's id, 0 none */
	const char *cgroup_name; /* its path from the CGROUP records, NULL unknown (copied) */
	uint64_t cgroup_dev, cgroup_ino; /* the task's cgroup namespace (NAMESPACES records) */
	uint64_t weight; /* WEIGHT or WEIGHT_STRUCT's var1 */
	uint16_t ins_lat, p_stage_cyc; /* WEIGHT_STRUCT's var2 and var3 */
	const char *trace; /* a tracepoint sample's output (copied), NULL none (the caller's) */
};

/* Return: 0 or -ENOMEM (the cgroup's name could not be copied) */
PRISM_API int prism_profile__set_sample_keys(struct prism_profile *p,
					     const struct prism_sample_keys *k);

/*
 * Where a report finds those values: the header's CPU topology, the CGROUP
 * and NAMESPACES records (pass every record to prism_key_source__event()).
 */
struct prism_key_source;
struct prism_features;
struct prism_event;
/* @f may be NULL (no topology); NULL with errno set */
PRISM_API struct prism_key_source *prism_key_source__new(const struct prism_features *f);
PRISM_API void prism_key_source__free(struct prism_key_source *ks); /* accepts NULL */
/* CGROUP and NAMESPACES records (others are ignored): 0 or -ENOMEM */
PRISM_API int prism_key_source__event(struct prism_key_source *ks, const struct prism_event *ev);
/* the values of sample @ev; names owned by @ks */
PRISM_API void prism_key_source__sample(const struct prism_key_source *ks,
					const struct prism_event *ev,
					struct prism_sample_keys *out);

/*
 * prism_profile__set_hidden - the samples added from now on are ones a
 * filter (comm, pid, dso, symbol) leaves out, perf's "filtered" samples:
 * they count in the rows and graphs they pass through as any other, but a
 * row first made by such a sample is hidden (prism_hist_entry.hidden), and
 * one a kept sample made first is shown, with the filtered samples' periods
 * too (perf report's --comms, --dsos, --symbols)
 */
PRISM_API void prism_profile__set_hidden(struct prism_profile *p, bool hidden);
/*
 * prism_profile__set_filtered - the samples added from now on are ones a
 * filter of rows leaves out (perf's --socket-filter, applied to the rows
 * once made): as for prism_profile__set_hidden(), a row first made by such
 * a sample is marked (prism_hist_entry.filtered), but the samples count
 * in every total
 */
PRISM_API void prism_profile__set_filtered(struct prism_profile *p, bool filtered);
/*
 * prism_profile__set_verbose - perf report -v's rows: the frames added from
 * now on are kept per address (not per symbol), so that a row's addr is its
 * first sample's, and rows order DSOs by their long names
 */
PRISM_API void prism_profile__set_verbose(struct prism_profile *p, bool on);
/*
 * prism_profile__set_parent_frame - the PRISM_SORT_PARENT value of the
 * samples added from now on, when @fixed: @f (NULL: none), found by the
 * caller in frames its chains lost (perf's walk before an
 * --ignore-callees restart); !@fixed: looked for in their chains
 * (prism_profile__set_parent()).  Return: 0 or -ENOMEM.
 */
PRISM_API int prism_profile__set_parent_frame(struct prism_profile *p, const struct prism_frame *f,
					      bool fixed);

/*
 * prism_profile__set_full_source_path - PRISM_SORT_SRCLINE and
 * PRISM_SORT_SRCFILE name a file by its whole path (perf's
 * --full-source-path), not its base name; for the frames added from now on
 */
PRISM_API void prism_profile__set_full_source_path(struct prism_profile *p, bool full);

/*
 * prism_profile__set_parent_depth - the samples added from now on have their
 * parent (prism_profile__set_parent) looked for in the first @nr frames of
 * their chain only: perf looks in the chain the kernel recorded, not in the
 * frames it unwinds from a stack copy (struct prism_callchain's
 * nr_recorded).  Default: SIZE_MAX, every frame.
 */
PRISM_API void prism_profile__set_parent_depth(struct prism_profile *p, size_t nr);

#endif /* PRISM_PROFILE_H */
