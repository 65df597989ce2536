/* SPDX-License-Identifier: MIT */
/*
 * prism report's pieces shared between its files: the readperf CSV tables
 * (report-csv.c) and the text layout (report.c).
 */
#ifndef PRISM_CMD_REPORT_H
#define PRISM_CMD_REPORT_H

#include <prism/profile.h>
#include <prism/session.h>
#include <prism/strbuf.h>

#include "lists.h"
#include <prism/symbol.h>
#include <prism/task.h>

#include "options.h"
#include "sample-filter.h"

struct report_csv;

/* create DIR (if needed) and open overview.csv; prints the error and returns NULL on failure */
struct report_csv *report_csv__open(const char *dir);
/* one record: overview.csv line, processes.csv bookkeeping */
void report_csv__record(struct report_csv *c, const struct prism_event *ev, uint64_t period);
/*
 * write stat.csv, processes.csv and results.csv (rows of @profiles, one per
 * event, NULL entries skipped) and close everything; returns 0 or 1 after
 * printing the error
 */
int report_csv__finish(struct report_csv *c, struct prism_session *s,
		       struct prism_profile *const *profiles, const char *const *event_names,
		       size_t nr);

/*
 * report-graph.c: -g/--call-graph, perf's
 * print_type,threshold[,print_limit],order,sort_key,value
 */
enum cg_mode { CG_DEFAULT, CG_CALLER, CG_CALLEE, CG_NONE }; /* the order, or no graph */
enum cg_print { CG_GRAPH, CG_FLAT, CG_FOLDED, CG_FRACTAL };
enum cg_value { CG_PERCENT, CG_PERIOD, CG_COUNT };
struct report_cg {
	enum cg_mode mode;
	enum cg_print print;
	enum cg_value value;
	double threshold; /* percent of the total; < 0: --percent-limit's, else 0.5 */
	unsigned long print_limit; /* branches per node (0: all) */
	int max_stack; /* --max-stack: frames of a chain kept (INT_MAX: all) */
	void *ignore_callees; /* --ignore-callees: a regex_t, or NULL */
	void *parent_re; /* -p's (with a parent key): a regex_t, or NULL */
	bool set; /* -g given, not none */
};
int report_opt_ignore_callees(const struct option_def *opt, const char *arg);
/* the parent key's regex for the samples' walks (report_cg_add); -1 when it does not compile */
int report_cg_parent(struct report_cg *cg, const char *regex);
void report_cg_release(struct report_cg *cg);
/*
 * the graphs' order: callers first with -g caller or -G, or by default with
 * a Children column or for pipe input without --no-children (perf's)
 */
bool report_cg_caller(const struct report_cg *cg, bool children, bool pipe, bool no_children);
struct prism_frame;
/*
 * add a sample's chain to @p as perf cuts it at --max-stack (the outermost
 * frames for @caller) and --ignore-callees; @unwound: a chain whose frames
 * past its first @nrec (recorded) were unwound from the user stack (DWARF),
 * which perf cuts apart; @self: the sample's own row where the chain does
 * not start with it (inlined code), else NULL
 */
int report_cg_add(const struct report_cg *cg, bool caller, struct prism_profile *p,
		  const char *comm, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t period,
		  const struct prism_frame *frames, size_t nr, bool unwound, size_t nrec,
		  const struct prism_frame *self);
struct option_def;
int report_opt_callgraph(const struct option_def *opt, const char *arg);
/* -g takes the next word as its value, unless it is an option (perf's "-g caller") */
extern const char *const report_cg_words[];
/*
 * -g on a file (not a pipe) whose events have no call chains: perf's error;
 * 0, or 1 after printing it
 */
int report_cg_check(const struct report_cg *cg, struct prism_session *s, const char *input);

struct prism_strbuf;
/*
 * the call graph of row @idx of the last prism_profile__entries(), perf's
 * layout, its percentages of @total (the event's), branches below @cg's
 * threshold (percent of @min_total: perf's relative total with
 * --percentage relative) hidden; @skip_first: a single chain's first frame
 * not printed (perf's, when --sort starts with sym: it is the row's symbol)
 */
void report_print_graph(struct prism_profile *p, size_t idx, bool caller, uint64_t total,
			uint64_t min_total, const struct report_cg *cg, bool skip_first,
			struct prism_strbuf *out);

/*
 * report-options.c: prism report's options into @r (@it: --itrace's) and
 * their checks; a usage error exits; 0, or EXIT_USAGE after printing why
 */
extern const char *const report_usage[];
struct report;
struct prism_itrace;
int report_parse_options(struct report *r, int argc, const char **argv, struct prism_itrace *it);

/* report.c: a row's "  12.34%" (in its color on a terminal); the "# Samples:" lines */
void report_percent(struct prism_strbuf *out, uint64_t v, uint64_t total);
/* @events: perf's "of events" (a group, or a group's leader) */
void report_samples_header(uint64_t nr_samples, uint64_t total, const char *name, bool events);

/* report-branch.c: the branch report (-b); see there */
struct report_branch;
struct prism_tasks;
struct prism_pt_item;
/*
 * branch mode (1) or not (0) for @s, -b (@forced), --itrace (NULL without);
 * -1 after printing why -b cannot be
 */
struct prism_itrace;
int report_branch__mode(struct prism_session *s, const char *input, bool forced,
			const struct prism_itrace *itrace);
/* NULL after printing the error for a bad @sort (NULL: perf's default keys) */
struct report_branch *report_branch__new(const char *sort, struct prism_symbols *sy,
					 struct prism_tasks *tasks, bool show_nr,
					 double percent_limit);
void report_branch__free(struct report_branch *rb);
/* a sample's branch stack, or an Intel PT sample's, into event @idx */
int report_branch__sample(struct report_branch *rb, size_t idx, const char *comm,
			  const struct prism_sample *s);
int report_branch__pt(struct report_branch *rb, size_t idx, const char *comm,
		      const struct prism_pt_item *it);
bool report_branch__has(const struct report_branch *rb, size_t idx);
/* -1 after printing why the branches cannot be shown with these keys */
int report_branch__check(const struct report_branch *rb);
/* event @idx's section; -1 after printing an error */
int report_branch__print(struct report_branch *rb, size_t idx, const char *name);

/*
 * report-pt.c: the section of Intel PT sample @it (perf's order:
 * branches, instructions, transactions, ptwrite, cbr, psb, mwait, pwre,
 * exstop, pwrx; REPORT_PT_SECTIONS for errors); why prism report cannot do
 * these --itrace options, or NULL.  Without --itrace, perf report decodes
 * with REPORT_PT_DEFAULT and shows no Children column.
 */
#define REPORT_PT_SECTIONS 10
#define REPORT_PT_DEFAULT "i100usgxwp"
size_t report_pt_section(const struct prism_pt_item *it);
const char *report_itrace_unsupported(const struct prism_itrace *it);
/* after reading a pipe without --itrace: the warning that its Intel PT trace is not decoded */
void report_pt_pipe_hint(struct prism_session *s);

/* report-tpfields.c: the columns of a tracepoint's fields, from COL_TP_FIELD on */
#define REPORT_TP_FIELDS 32
#define COL_TP_FIELD (PRISM_SORT__MAX + 1)

/* prism report's options and state (report.c), shared with its columns (report-columns.c) */
struct report {
	/* options */
	const char *input, *sort, *event, *time_str, *flamegraph, *csv_dir, *symfs, *kallsyms;
	const char *kcore, *vmlinux; /* kernel code for --itrace */
	const char *title, *itrace;
	const char *comm_list, *pid_list, *tid_list, *dso_list, *sym_list;
	struct strlist map_path;
	bool force, stdio, folded, show_nr, no_demangle, srcline, inlines, children_set;
	bool children, no_children, no_inline;
	bool pt_g; /* --itrace with g */
	bool header, header_only, show_info, full_source_path;
	bool branch, no_branch; /* -b, --no-branch-stack */
	const char *fields, *percentage; /* -F, --percentage */
	const char *field_sep; /* -t */
	bool hide_unresolved; /* -U */
	const char *widths; /* -w */
	uint64_t time_quantum; /* --time-quantum, ns */
	unsigned int user_w[PRISM_SORT__MAX + 1]; /* -w's, by column (0: the column's own) */
	size_t nr_user_w;
	bool show_total_period, show_cpu_util, relative;
	const char *parent; /* -p */
	bool exclude_other, parent_key; /* -x; a parent column */
	double percent_limit, min_width;
	struct report_cg cg;
	bool inverted; /* -G */

	/* parsed */
	enum prism_sort_key keys[PRISM_SORT__MAX];
	size_t nr_keys;
	enum prism_sort_key fkeys[PRISM_SORT__MAX]; /* -F's */
	size_t nr_fkeys;
	bool fields_plus, ipc_null; /* -F +fields; --sort naming "symbol" */
	/* report-columns.c, per section: the columns, the rows' order (perf's) */
	int cols[PRISM_SORT__MAX + 1 + REPORT_TP_FIELDS];
	size_t nr_cols;
	enum prism_sort_key order[PRISM_SORT__MAX];
	size_t nr_order;
	struct strlist comms, dsos, syms;
	uint32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	struct prism_time_filter time;

	/* state */
	struct prism_session *s;
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_profile **profiles; /* by evsel index; --itrace: branches, instructions */
	char *pt_names[REPORT_PT_SECTIONS]; /* --itrace: the synthesized events' names */
	bool *excluded; /* by evsel index: not the --event one */
	size_t nr_evsels;
	struct prism_callchain cc;
	bool use_callchain;
	bool has_callchain;
	struct report_csv *csv;
	struct report_branch *rb; /* branch mode (-b) */
	struct prism_key_source *ks; /* with a sample key among the columns */
	struct prism_strbuf trace; /* a sample's trace output */
	struct report_group *grp; /* while a group's section is printed */
	bool leader; /* the section's event leads a group (perf's "of events") */
	bool no_group; /* --no-group */
	struct prism_group_reads *reads; /* leader sampling: the last count of each event */
	struct sample_filter cpu_sf; /* -C/--cpu (its other filters unused) */
	bool stats_mode, tasks_mode, mmaps_mode; /* --stats, --tasks, --mmaps */
	const char *symbol_filter; /* --symbol-filter */
	bool ns; /* --ns */
	const char *percent_type; /* --percent-type (perf's annotation option: checked only) */
	bool threads; /* -T */
	const char *pretty; /* --pretty: -T's table, normal or raw */
	struct report_threads *thr; /* -T's counts */
	int socket_filter; /* --socket-filter, -1 none */
	bool raw_trace; /* --raw-trace */
	bool hierarchy; /* --hierarchy */
	bool tp_fields; /* --raw-trace, a file of tracepoints, perf's keys: their fields */
	struct { /* the section's event's fields (report-tpfields.c) */
		const char *names[REPORT_TP_FIELDS];
		size_t width[REPORT_TP_FIELDS], size[REPORT_TP_FIELDS];
		bool str[REPORT_TP_FIELDS];
		size_t nr;
	} tpf;
};

/*
 * report-threads.c: -T/--threads, perf's per-thread counts of the
 * PERF_RECORD_READ records (perf record -s); 0 or -ENOMEM
 */
int report_threads__read(struct report *r, const struct prism_event *ev);
/* the table after the report, perf's layout (--pretty raw: its raw one) */
void report_threads__print(struct report *r);
void report_threads__free(struct report *r);

/*
 * report-columns.c: the columns' pieces (report-hierarchy.c's too): a key
 * is an output field (overhead...); perf prints its text unpadded (symbol,
 * source line, time...); its text and header for a row; a row shows (its
 * filters, -x, --percent-limit when @limit); the widths of r->cols; a row
 * of r->cols into @out
 */
bool report_is_field(int key);
bool report_key_unpadded(int key);
void report_col_text(const struct report *r, int key, const struct prism_hist_entry *e, char *buf,
		     size_t len);
const char *report_col_header(const struct report *r, int key);
bool report_row_visible(struct report *r, const struct prism_hist_entry *e, uint64_t total,
			bool children, bool limit);
void report_col_widths(struct report *r, const struct prism_hist_entry *e, size_t n, uint64_t total,
		       bool children, size_t *w);
void report_print_row(struct report *r, const struct prism_hist_entry *e, const size_t *w,
		      uint64_t total, bool children, struct prism_strbuf *out);

/*
 * report-hierarchy.c: --hierarchy; the rows of the levels above the last
 * (report_entries() for fewer keys: before the last level's call), NULL
 * after printing an error; then event @name's section, with @e the last
 * level's rows (it frees @lv)
 */
struct report_levels;
struct report_levels *report_hierarchy_levels(struct report *r, struct prism_profile *p, bool graph,
					      bool caller);
/* the same for the group view of the group led by event @leader; 0 or -1 */
int report_print_group_hierarchy(struct report *r, size_t leader, size_t nr_members,
				 const char *group_name);
void report_print_hierarchy(struct report *r, struct prism_profile *p, struct report_levels *lv,
			    const struct prism_hist_entry *e, size_t n, uint64_t total,
			    uint64_t gtotal, uint64_t gmin, bool caller, const char *name,
			    uint64_t nr_samples);

/* report-columns.c: --sort, -F and --srcline into @r; -1 after printing the error */
int report_parse_columns(struct report *r);
/*
 * report-columns.c, perf's -U: true for a sample whose leaf has no symbol
 * (left out); otherwise @cc loses its frames without one
 */
bool report_hide_unresolved(struct prism_callchain *cc);
/* report-columns.c: the time key's value of sample @s: its time in --time-quantum steps */
uint64_t report_time_key(const struct report *r, const struct prism_sample *s);
int report_opt_quantum(const struct option_def *opt, const char *arg);
/* report-columns.c: "# dso: NAME" for each column a one-value filter hides, as perf */
void report_print_elided(const struct report *r);
/* report-columns.c: event @name's table of @p (rows, their call graphs when @graph) */
void report_print_section(struct report *r, const char *name, struct prism_profile *p,
			  bool children, bool graph, bool caller);
/* the columns and the rows of @p; -1 after printing the error */
int report_entries(struct report *r, struct prism_profile *p, bool children, bool graph,
		   bool caller, struct prism_hist_entry **e, size_t *n);
/*
 * the table of rows @e (of @p: their graphs from @gmin, UINT64_MAX for none;
 * branches below the threshold's share of @gtotal hidden)
 */
void report_print_table(struct report *r, struct prism_profile *p, const struct prism_hist_entry *e,
			size_t n, uint64_t total, uint64_t gtotal, bool children, uint64_t gmin,
			bool caller);
/* two rows (of two events' profiles) have the same sort keys' values */
bool report_rows_equal(const struct report *r, const struct prism_hist_entry *a,
		       const struct prism_hist_entry *b);

/*
 * report-group.c: perf's group view (--group, its default for a file of
 * event groups): one table per group, a value per event in the overhead,
 * Samples and Period columns, rows matched by their keys
 */
struct report_group;
struct prism_strbuf;
/* the section of the group whose leader is event @leader; 0 or -1 */
int report_print_group(struct report *r, size_t leader, size_t nr_members, const char *group_name);
/*
 * the group's rows for r's keys (the columns set up for them), in perf's
 * order, their events' periods and samples summed; NULL after printing an
 * error.  Its rows, its name ("anon group { a, b }").
 */
struct report_group *report_group_build(struct report *r, size_t leader, size_t nr_members,
					uint64_t *nr_samples, uint64_t *total);
void report_group_free(struct report_group *g);
const struct prism_hist_entry *report_group_rows(const struct report_group *g, size_t *n);
void report_group_name(struct report *r, size_t leader, size_t nr_members, const char *group_name,
		       struct prism_strbuf *name);
size_t report_group_size(const struct report *r);
/* a group read's growth of the count of event @id since its last read */
/* the row's period in any event (whether perf shows it) */
uint64_t report_group_period(const struct report *r, const struct prism_hist_entry *e);
/* the row's share of the leader's period, in percent */
double report_group_leader_pct(const struct report *r, const struct prism_hist_entry *e);
void report_group_cells(const struct report *r, int key, const struct prism_hist_entry *e,
			struct prism_strbuf *out);

/*
 * report-verbose.c: -v's text before a row's symbol (its first address,
 * the origin of its DSO's symbols) into @buf; its length
 */
size_t report_verbose_sym(const struct report *r, const struct prism_hist_entry *e, char *buf,
			  size_t len);

/*
 * report-tpfields.c: --raw-trace's columns per field of event @evsel's
 * format (perf's trace_fields): set up for its section; a row's text of one
 * (already aligned and cut); the rows in perf's order (a copy, to free)
 */
struct prism_evsel;
void report_tpf_setup(struct report *r, struct prism_evsel *evsel);
void report_tpf_text(const struct report *r, int key, const struct prism_hist_entry *e, char *buf,
		     size_t len);
struct prism_hist_entry *report_tpf_sort(const struct report *r, const struct prism_hist_entry *e,
					 size_t n);

/* report-keys.c: the columns of perf's sample keys (socket, cgroup, weights...) */
bool report_is_sample_key(int key);
/* the sample keys of @ev (socket, cgroup, weights, trace output...) for @p: 0 or -ENOMEM */
int report_sample_keys(struct report *r, const struct prism_event *ev, struct prism_profile *p);
/* the socket of @ev's CPU (@r->ks's topology), -1 for none */
int32_t report_sample_socket(struct report *r, const struct prism_event *ev);
bool report_key_dropped(int key);
const char *report_key_header(int key);
size_t report_key_width(int key);
bool report_key_right(int key);
void report_key_text(int key, const struct prism_hist_entry *e, char *buf, size_t len);

/* report-info.c: --stats, --tasks, --mmaps instead of the report (0, or 1 after an error) */
int report_info(struct report *r);
struct report_tasks; /* the task tree of --tasks, --mmaps */
struct report_tasks *report_tasks__new(bool maps);
void report_tasks__free(struct report_tasks *rt);
/* COMM, FORK, MMAP(2) and SAMPLE records; 0 */
int report_tasks_event(struct report_tasks *rt, const struct prism_event *ev);
/* perf's tree: 0, or -1 after printing the error */
int report_tasks__print(struct report_tasks *rt);

#endif /* PRISM_CMD_REPORT_H */
