// SPDX-License-Identifier: MIT
/*
 * prism report's columns: each sort key's header and text, their widths,
 * and a section's table in perf report --stdio's layout.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <prism/error.h>
#include <prism/evsel.h>
#include <prism/profile.h>
#include <prism/strbuf.h>
#include <prism/task.h>

#include "cmd.h"
#include "record-opts.h"
#include "report.h"

/*
 * @width: -w's (0: none); perf cuts the name to it ("[.] " included, none
 * below 4), then appends " (inlined)"
 */
static void sym_text(const struct prism_hist_entry *e, char *buf, size_t len, size_t width)
{
	int prec = width >= 4 && width - 4 < INT_MAX ? (int)width - 4 : INT_MAX;

	if (e->sym)
		snprintf(buf, len, "[%c] %.*s%s", e->kernel ? 'k' : '.', prec, e->sym,
			 e->inlined ? " (inlined)" : "");
	else if (!e->ip) /* printf's %#x prints no 0x for zero; perf shows that */
		snprintf(buf, len, "[%c] %016x", e->kernel ? 'k' : '.', 0);
	else
		snprintf(buf, len, "[%c] 0x%016" PRIx64, e->kernel ? 'k' : '.', e->ip);
}

/* a column beyond the sort keys: perf's "IPC   [IPC Coverage]" of --sort symbol */
#define COL_IPC_NULL PRISM_SORT__MAX

/* perf's sort keys and output fields, in the order its prefix match tries them */
static const struct {
	const char *name;
	int key; /* -1: perf's, prism has not the data (or the code) */
} perf_keys[] = {
	{ "pid", PRISM_SORT_PID },
	{ "comm", PRISM_SORT_COMM },
	{ "dso", PRISM_SORT_DSO },
	{ "symbol", PRISM_SORT_SYM },
	{ "parent", PRISM_SORT_PARENT },
	{ "cpu", PRISM_SORT_CPU },
	{ "socket", PRISM_SORT_SOCKET },
	{ "srcline", PRISM_SORT_SRCLINE },
	{ "srcfile", PRISM_SORT_SRCFILE },
	{ "local_weight", PRISM_SORT_LOCAL_WEIGHT },
	{ "weight", PRISM_SORT_WEIGHT },
	{ "transaction", -1 },
	{ "trace", PRISM_SORT_TRACE },
	{ "symbol_size", PRISM_SORT_SYM_SIZE },
	{ "dso_size", PRISM_SORT_DSO_SIZE },
	{ "cgroup", PRISM_SORT_CGROUP },
	{ "cgroup_id", PRISM_SORT_CGROUP_ID },
	{ "ipc_null", -1 },
	{ "time", PRISM_SORT_TIME },
	{ "code_page_size", -1 },
	{ "local_ins_lat", PRISM_SORT_LOCAL_INS_LAT },
	{ "ins_lat", PRISM_SORT_INS_LAT },
	{ "local_p_stage_cyc", PRISM_SORT_LOCAL_P_STAGE_CYC },
	{ "p_stage_cyc", PRISM_SORT_P_STAGE_CYC },
	{ "addr", -1 },
	{ "overhead", PRISM_SORT_OVERHEAD },
	{ "overhead_sys", PRISM_SORT_OVERHEAD_SYS },
	{ "overhead_us", PRISM_SORT_OVERHEAD_US },
	{ "overhead_guest_sys", PRISM_SORT_OVERHEAD_GUEST_SYS },
	{ "overhead_guest_us", PRISM_SORT_OVERHEAD_GUEST_US },
	{ "overhead_children", PRISM_SORT_OVERHEAD_CHILDREN },
	{ "sample", PRISM_SORT_SAMPLE },
	{ "period", PRISM_SORT_PERIOD },
};

/* perf's keys of its branch (-b) and memory (perf mem) modes */
static const char *const mode_keys[] = {
	"dso_from",	"dso_to",	"symbol_from",	  "symbol_to",
	"mispredict",	"abort",	"in_tx",	  "cycles",
	"srcline_from", "srcline_to",	"ipc_lbr",	  "addr_from",
	"addr_to",	"symbol_daddr", "dso_daddr",	  "locked",
	"tlb",		"mem",		"snoop",	  "dcacheline",
	"symbol_iaddr", "phys_daddr",	"data_page_size", "blocked",
	NULL,
};

#define KEYS_HINT                                                                                      \
	"keys: pid comm dso symbol parent cpu socket srcline srcfile local_weight weight symbol_size " \
	"dso_size cgroup cgroup_id time local_ins_lat ins_lat, and the output fields overhead "        \
	"overhead_sys overhead_us overhead_guest_sys overhead_guest_us overhead_children "             \
	"sample period (a key may be shortened: sym)"

/* @tok as perf reads it (case-insensitive, its first key that starts with it); -1 after the error */
static int parse_key(const char *opt, const char *tok)
{
	size_t i, len = strlen(tok);

	for (i = 0; len && i < PRISM_ARRAY_SIZE(perf_keys); i++) {
		if (strncasecmp(tok, perf_keys[i].name, len))
			continue;
		if (perf_keys[i].key >= 0)
			return perf_keys[i].key;
		error("%s: prism cannot sort by perf's key '%s'", opt, perf_keys[i].name);
		hint(KEYS_HINT);
		return -1;
	}
	for (i = 0; mode_keys[i]; i++) {
		if (strncasecmp(tok, mode_keys[i], len))
			continue;
		error("%s: '%s' is a key of perf's branch or memory report", opt, tok);
		hint("the branch report (-b) takes comm, pid, dso_from, dso_to, symbol_from, "
		     "symbol_to, cycles");
		return -1;
	}
	error("%s: unknown key '%s'", opt, tok);
	if (!strcasecmp(tok, "tid")) /* perf 6.1: "Unknown --sort key: `tid'" */
		hint("perf's pid key is the thread already: a row per tid, 'tid:comm'");
	else
		hint(KEYS_HINT);
	return -1;
}

static bool has_key(const int *keys, size_t nr, int key)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (keys[i] == key)
			return true;
	return false;
}

static bool has_sort_key(const enum prism_sort_key *keys, size_t nr, enum prism_sort_key key)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (keys[i] == key)
			return true;
	return false;
}

static int parse_keys(const char *opt, const char *list, enum prism_sort_key *keys, size_t *nr)
{
	struct strlist l = { 0 };
	size_t i;
	int k = 0;

	split_list(list, &l);
	for (i = 0; i < l.nr && k >= 0; i++) {
		k = parse_key(opt, l.v[i]);
		if (k >= 0 && report_key_dropped(k))
			continue;
		if (k >= 0 && !has_sort_key(keys, *nr, (enum prism_sort_key)k) &&
		    *nr < PRISM_SORT__MAX)
			keys[(*nr)++] = (enum prism_sort_key)k;
	}
	strlist_release(&l);
	return k < 0 ? -1 : 0;
}

/* perf's -p/--parent default */
#define DEFAULT_PARENT "^sys_|^do_page_fault"

static int check_parent(const char *regex)
{
	struct prism_profile *p = prism_profile__new(NULL, 0);
	int err = p ? prism_profile__set_parent(p, regex) : -ENOMEM;

	prism_profile__free(p);
	if (err == -EINVAL)
		return error("-p/--parent: '%s' is not a regular expression (POSIX extended)",
			     regex);
	return err ? error_errno(err, "-p/--parent") : 0;
}

static int parse_widths(struct report *r)
{
	struct strlist l = { 0 };
	unsigned long v;
	char *end;
	size_t i;
	int ret = 0;

	split_list(r->widths, &l);
	for (i = 0; i < l.nr && !ret && r->nr_user_w < PRISM_ARRAY_SIZE(r->user_w); i++) {
		errno = 0;
		v = strtoul(l.v[i], &end, 10);
		if (errno || *end || end == l.v[i] || v > 4096) {
			ret = error("-w/--column-widths: '%s' is not a width (0 to 4096)", l.v[i]);
			break;
		}
		r->user_w[r->nr_user_w++] = (unsigned int)v;
	}
	strlist_release(&l);
	return ret;
}

/* column @k's -w width, 0 for none */
static size_t user_width(const struct report *r, size_t k)
{
	return k < r->nr_user_w ? r->user_w[k] : 0;
}

/* perf's default keys: the trace output for a file of tracepoints only (not a pipe's) */
static const char *default_sort(const struct report *r)
{
	size_t i, n = r->s ? prism_session__nr_evsels(r->s) : 0;

	if (!n || prism_session__file_info(r->s)->pipe)
		return "comm,dso,sym";
	for (i = 0; i < n; i++)
		if (!prism_evsel__is_tracepoint(prism_session__evsel(r->s, i)))
			return "comm,dso,sym";
	return "trace";
}

int report_parse_columns(struct report *r)
{
	const char *f = r->fields;
	size_t i;

	if (f && (!*f || !strcmp(f, "+"))) {
		error("-F/--fields: no field in '%s'", f);
		hint(KEYS_HINT);
		return -1;
	}
	if (parse_widths(r))
		return -1;
	r->fields_plus = f && *f == '+';
	if (f && parse_keys("-F/--fields", f + r->fields_plus, r->fkeys, &r->nr_fkeys))
		return -1;
	/* perf's default for tracepoints with --raw-trace: a column per field */
	r->tp_fields = r->raw_trace && !r->sort && (!f || r->fields_plus) &&
		       !strcmp(default_sort(r), "trace");
	/* perf: -F without --sort sorts by the fields alone */
	if (r->sort || !f || r->fields_plus)
		if (parse_keys("--sort", r->sort ? r->sort : default_sort(r), r->keys, &r->nr_keys))
			return -1;
	/* perf: -p adds the parent key */
	if (r->parent && r->nr_keys < PRISM_SORT__MAX &&
	    !has_sort_key(r->keys, r->nr_keys, PRISM_SORT_PARENT))
		r->keys[r->nr_keys++] = PRISM_SORT_PARENT;
	for (i = 0; i < r->nr_keys; i++)
		r->parent_key |= r->keys[i] == PRISM_SORT_PARENT;
	for (i = 0; i < r->nr_fkeys; i++)
		r->parent_key |= r->fkeys[i] == PRISM_SORT_PARENT;
	if (r->parent_key && check_parent(r->parent ? r->parent : DEFAULT_PARENT))
		return -1;
	if (r->parent_key && report_cg_parent(&r->cg, r->parent ? r->parent : DEFAULT_PARENT))
		return -1;
	/* perf: a --sort naming "symbol" gets the IPC columns of branch stacks, empty here */
	r->ipc_null = r->sort && strstr(r->sort, "symbol");
	if (r->srcline && r->nr_keys < PRISM_SORT__MAX) {
		for (i = 0; i < r->nr_keys && r->keys[i] != PRISM_SORT_SRCLINE; i++)
			;
		if (i == r->nr_keys)
			r->keys[r->nr_keys++] = PRISM_SORT_SRCLINE;
	}
	return 0;
}

static void add_col(struct report *r, int key)
{
	if (!has_key(r->cols, r->nr_cols, key) && r->nr_cols < PRISM_ARRAY_SIZE(r->cols))
		r->cols[r->nr_cols++] = key;
}

static void add_order(struct report *r, int key)
{
	if (key < PRISM_SORT__MAX &&
	    !has_sort_key(r->order, r->nr_order, (enum prism_sort_key)key) &&
	    r->nr_order < PRISM_ARRAY_SIZE(r->order))
		r->order[r->nr_order++] = (enum prism_sort_key)key;
}

/*
 * perf's columns and sort order: without -F (or with -F +fields), the
 * overhead columns (Children with --children), -n's Samples and
 * --show-total-period's Period, the +fields, then the sort keys, which
 * sort after the overheads; -F fields: these columns and the --sort keys,
 * sorted by the --sort keys then the fields
 */
static void setup_columns(struct report *r, bool children)
{
	bool strict = r->fields && !r->fields_plus;
	size_t i;

	r->nr_cols = r->nr_order = 0;
	if (!strict) {
		if (children && !has_sort_key(r->keys, r->nr_keys, PRISM_SORT_OVERHEAD_CHILDREN))
			add_order(r, PRISM_SORT_OVERHEAD_CHILDREN);
		if (!has_sort_key(r->keys, r->nr_keys, PRISM_SORT_OVERHEAD))
			add_order(r, PRISM_SORT_OVERHEAD);
		if (children)
			add_col(r, PRISM_SORT_OVERHEAD_CHILDREN);
		add_col(r, PRISM_SORT_OVERHEAD);
		if (r->show_cpu_util) {
			add_col(r, PRISM_SORT_OVERHEAD_SYS);
			add_col(r, PRISM_SORT_OVERHEAD_US);
		}
		if (r->show_nr)
			add_col(r, PRISM_SORT_SAMPLE);
		if (r->show_total_period)
			add_col(r, PRISM_SORT_PERIOD);
	}
	for (i = 0; i < r->nr_fkeys; i++)
		add_col(r, r->fkeys[i]);
	for (i = 0; i < r->nr_keys; i++) {
		size_t k;

		add_order(r, r->keys[i]);
		/* --raw-trace's default: the event's fields for the trace key */
		for (k = 0; r->tp_fields && r->keys[i] == PRISM_SORT_TRACE && k < r->tpf.nr; k++)
			add_col(r, COL_TP_FIELD + (int)k);
		if (!r->tp_fields || r->keys[i] != PRISM_SORT_TRACE)
			add_col(r, r->keys[i]);
	}
	/* perf's ipc_null key groups and sorts as symbol does */
	if (r->ipc_null) {
		add_order(r, PRISM_SORT_SYM);
		add_col(r, COL_IPC_NULL);
	}
	for (i = 0; i < r->nr_cols; i++)
		add_order(r, r->cols[i]);
}

bool report_key_unpadded(int key)
{
	return key == PRISM_SORT_SYM || key == PRISM_SORT_SRCLINE || key == PRISM_SORT_SRCFILE ||
	       key == PRISM_SORT_TIME || key == PRISM_SORT_CGROUP || key == PRISM_SORT_CGROUP_ID ||
	       key == PRISM_SORT_TRACE;
}

bool report_is_field(int key)
{
	return key >= PRISM_SORT_OVERHEAD && key <= PRISM_SORT_PERIOD;
}

/* the text of column @key for row @e */
void report_col_text(const struct report *r, int key, const struct prism_hist_entry *e, char *buf,
		     size_t len)
{
	const char *comm;

	if (key >= COL_TP_FIELD) {
		report_tpf_text(r, key, e, buf, len);
		return;
	}
	switch (key) {
	case PRISM_SORT_COMM:
		snprintf(buf, len, "%s", e->comm ? e->comm : "");
		break;
	case PRISM_SORT_PID: /* perf's pid key: the task, with its last comm in the file */
	case PRISM_SORT_TID:
		comm = prism_tasks__comm(r->tasks, e->tid);
		if (!comm)
			comm = e->comm ? e->comm : "";
		snprintf(buf, len, "%7d:%s", (int)e->tid, comm);
		break;
	case PRISM_SORT_DSO: /* -v: the long name */
		snprintf(buf, len, "%s",
			 verbose > 0 && e->dso_path ? e->dso_path :
			 e->dso			    ? e->dso :
						      "[unknown]");
		break;
	case PRISM_SORT_SYM: {
		size_t n = verbose > 0 ? report_verbose_sym(r, e, buf, len) : 0;

		sym_text(e, buf + n, len - n, 0);
		break;
	}
	case PRISM_SORT_SRCLINE:
		snprintf(buf, len, "%s", e->srcline ? e->srcline : "??:0");
		break;
	case PRISM_SORT_SRCFILE:
		snprintf(buf, len, "%s", e->srcfile ? e->srcfile : "");
		break;
	case PRISM_SORT_PARENT:
		snprintf(buf, len, "%s", e->parent ? e->parent : "[other]");
		break;
	case PRISM_SORT_TIME: /* perf: seconds to the microsecond (--ns: nanosecond) */
		if (r->ns)
			snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, e->time / 1000000000,
				 e->time % 1000000000);
		else
			snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
				 e->time % 1000000000 / 1000);
		break;
	case PRISM_SORT_SYM_SIZE:
		if (e->sym)
			snprintf(buf, len, "%11" PRIu64, e->sym_size);
		else
			snprintf(buf, len, "%11s", "unknown");
		break;
	case PRISM_SORT_CPU: /* perf: at least 3 digits, -001 for a sample without a CPU */
		snprintf(buf, len, "%.3d", (int)e->cpu);
		break;
	case PRISM_SORT_SAMPLE:
		snprintf(buf, len, "%" PRIu64, e->nr_samples);
		break;
	case PRISM_SORT_PERIOD:
		snprintf(buf, len, "%" PRIu64, e->self);
		break;
	case COL_IPC_NULL:
		snprintf(buf, len, "-      -");
		break;
	default:
		report_key_text(key, e, buf, len);
	}
}

/* a percentage column's period of @e */
static uint64_t col_period(int key, const struct prism_hist_entry *e)
{
	switch (key) {
	case PRISM_SORT_OVERHEAD:
		return e->self;
	case PRISM_SORT_OVERHEAD_CHILDREN:
		return e->children;
	case PRISM_SORT_OVERHEAD_SYS:
		return e->period_sys;
	case PRISM_SORT_OVERHEAD_US:
		return e->period_us;
	default:
		return 0;
	}
}

static bool is_percent(int key)
{
	return report_is_field(key) && key != PRISM_SORT_SAMPLE && key != PRISM_SORT_PERIOD;
}

const char *report_col_header(const struct report *r, int key)
{
	if (key >= COL_TP_FIELD)
		return r->tpf.names[key - COL_TP_FIELD];
	switch (key) {
	case PRISM_SORT_COMM:
		return "Command";
	case PRISM_SORT_PID:
		return "    Pid:Command"; /* (perf's, 15 wide) */
	case PRISM_SORT_TID:
		return "    Tid:Command";
	case PRISM_SORT_DSO:
		return "Shared Object";
	case PRISM_SORT_SYM:
		return "Symbol";
	case PRISM_SORT_SRCLINE:
		return "Source:Line";
	case PRISM_SORT_SRCFILE:
		return "Source File";
	case PRISM_SORT_PARENT:
		return "Parent symbol";
	case PRISM_SORT_SYM_SIZE:
		return "Symbol size";
	case PRISM_SORT_TIME:
		return "Time";
	case PRISM_SORT_CPU:
		return "CPU";
	case PRISM_SORT_OVERHEAD: /* perf: "Self" beside Children, unless -F names them */
		return has_key(r->cols, r->nr_cols, PRISM_SORT_OVERHEAD_CHILDREN) &&
				       !(r->fields && !r->fields_plus) ?
			       "Self" :
			       "Overhead";
	case PRISM_SORT_OVERHEAD_CHILDREN:
		return "Children";
	case PRISM_SORT_OVERHEAD_SYS:
		return "sys";
	case PRISM_SORT_OVERHEAD_US:
		return "usr";
	case PRISM_SORT_OVERHEAD_GUEST_SYS:
		return "guest sys";
	case PRISM_SORT_OVERHEAD_GUEST_US:
		return "guest usr";
	case PRISM_SORT_SAMPLE:
		return "Samples";
	case PRISM_SORT_PERIOD:
		return "Period";
	case COL_IPC_NULL:
		return "IPC   [IPC Coverage]";
	default:
		return report_key_header(key);
	}
}

/* perf's --symbol-filter: rows whose symbol's name has not the text (or no symbol) */
/*
 * perf 6.1 filters the rows by socket as it merges them, which it does
 * only for --sort keys that merge by more than their compare (comm,
 * srcline): with other keys (and -F's) --socket-filter leaves every row
 */
static bool socket_filtered(const struct report *r, const struct prism_hist_entry *e)
{
	size_t i;

	if (!e->filtered)
		return false;
	for (i = 0; i < r->nr_keys; i++)
		if (r->keys[i] == PRISM_SORT_COMM || r->keys[i] == PRISM_SORT_SRCLINE)
			return true;
	return false;
}

/* rows perf filters once made: --symbol-filter's, --socket-filter's */
static bool sym_filtered(const struct report *r, const struct prism_hist_entry *e)
{
	return socket_filtered(r, e) ||
	       (r->symbol_filter && (!e->sym || !strstr(e->sym, r->symbol_filter)));
}

/* @limit: with --percent-limit (perf sizes the columns without it) */
bool report_row_visible(struct report *r, const struct prism_hist_entry *e, uint64_t total,
			bool children, bool limit)
{
	uint64_t v = children ? e->children : e->self;

	if (e->hidden || sym_filtered(r, e)) /* made by a sample the filters leave out */
		return false;
	if (r->grp) /* a group's row: any of its events', perf's limit on the leader's share */
		return report_group_period(r, e) > 0 &&
		       !(limit && r->percent_limit > 0 &&
			 report_group_leader_pct(r, e) < r->percent_limit);
	if (r->exclude_other && !e->parent) /* perf -x: rows with a parent only */
		return false;
	if (limit && r->percent_limit > 0 && total &&
	    100.0 * (double)v / (double)total < r->percent_limit)
		return false;
	return v > 0;
}

/* a sort key whose filter allows one value only: perf names the value above the table */
static bool one_value(const struct report *r, int key)
{
	if (!has_sort_key(r->keys, r->nr_keys, (enum prism_sort_key)key) &&
	    (r->nr_keys || !has_sort_key(r->fkeys, r->nr_fkeys, (enum prism_sort_key)key)))
		return false;
	return (key == PRISM_SORT_COMM && r->comms.nr == 1) ||
	       (key == PRISM_SORT_DSO && r->dsos.nr == 1) ||
	       (key == PRISM_SORT_SYM && r->syms.nr == 1);
}

/*
 * perf hides such a column (sort__setup_elide), unless every sort key's
 * column would be hidden
 */
static bool elided(const struct report *r, int key)
{
	size_t i;

	if (!one_value(r, key))
		return false;
	for (i = 0; i < r->nr_keys; i++)
		if (!one_value(r, r->keys[i]))
			return true;
	return false;
}

bool report_rows_equal(const struct report *r, const struct prism_hist_entry *a,
		       const struct prism_hist_entry *b)
{
	char x[1024], y[1024];
	size_t i;

	for (i = 0; i < r->nr_order; i++) {
		if (report_is_field(r->order[i]))
			continue;
		report_col_text(r, r->order[i], a, x, sizeof(x));
		report_col_text(r, r->order[i], b, y, sizeof(y));
		if (strcmp(x, y) || (r->order[i] == PRISM_SORT_SYM && a->kernel != b->kernel))
			return false;
	}
	return true;
}

uint64_t report_time_key(const struct report *r, const struct prism_sample *s)
{
	if (!(s->type & PERF_SAMPLE_TIME) || !r->time_quantum)
		return 0;
	return s->time / r->time_quantum * r->time_quantum;
}

int report_opt_quantum(const struct option_def *opt, const char *arg)
{
	size_t len = strlen(arg);
	uint64_t ns;

	/* perf: a unit is needed */
	if (!len || !strchr("sn", arg[len - 1]) || parse_block_time(arg, &ns) || !ns) {
		error("--time-quantum: '%s' is not a time above 0 with its unit", arg);
		hint("100ms, 10us, 1s, 500ns");
		return -1;
	}
	*(uint64_t *)opt->value = ns;
	return 0;
}

bool report_hide_unresolved(struct prism_callchain *cc)
{
	size_t i, n = 0;

	if (!cc->nr || !cc->frames[0].sym)
		return true;
	for (i = 0; i < cc->nr; i++)
		if (cc->frames[i].sym)
			cc->frames[n++] = cc->frames[i];
	cc->nr = n;
	return false;
}

void report_print_elided(const struct report *r)
{
	if (one_value(r, PRISM_SORT_COMM))
		printf("# comm: %s\n", r->comms.v[0]);
	if (one_value(r, PRISM_SORT_DSO))
		printf("# dso: %s\n", r->dsos.v[0]);
	if (one_value(r, PRISM_SORT_SYM))
		printf("# symbol: %s\n", r->syms.v[0]);
}

/* "# " before the first column of the header lines, "  " between columns and in rows */
/* -t SEP: SEP between the columns (none before the first in rows), no dotted line */
static void col_sep(const struct report *r, struct prism_strbuf *out, bool *first, bool header)
{
	if (*first && header)
		prism_strbuf_addstr(out, "# ");
	else if (!r->field_sep)
		prism_strbuf_addstr(out, "  ");
	else if (!*first)
		prism_strbuf_addstr(out, r->field_sep);
	*first = false;
}

static void print_headers(struct report *r, const size_t *w)
{
	struct prism_strbuf out = STRBUF_INIT;
	bool first = true;
	size_t k, i;
	int key;

	for (k = 0; k < r->nr_cols; k++) {
		key = r->cols[k];
		if (elided(r, key))
			continue;
		col_sep(r, &out, &first, true);
		if (!report_is_field(key) && user_width(r, k)) /* perf: -w cuts the header too */
			prism_strbuf_addf(&out, "%-*.*s", (int)w[k], (int)w[k],
					  report_col_header(r, key));
		else
			prism_strbuf_addf(
				&out, report_is_field(key) || key >= COL_TP_FIELD ? "%*s" : "%-*s",
				(int)w[k], report_col_header(r, key));
	}
	prism_strbuf_addch(&out, '\n');
	first = true;
	for (k = 0; k < r->nr_cols && !r->field_sep; k++) {
		if (elided(r, r->cols[k]))
			continue;
		col_sep(r, &out, &first, true);
		for (i = 0; i < w[k]; i++)
			prism_strbuf_addch(&out, '.');
	}
	if (!r->field_sep)
		prism_strbuf_addstr(&out, "\n#\n");
	fwrite(out.buf, 1, out.len, stdout);
	prism_strbuf_release(&out);
}

/*
 * perf prints a row into a buffer of the columns' widths, 2 for each
 * separator, 4 more and, without -t, room for colours (8 of its
 * COLOR_MAXLEN 24 + "\033[m"): a longer row is cut to it
 */
static size_t row_limit(const struct report *r, const size_t *w)
{
	size_t k, lim = 3 + (r->field_sep ? 0 : 8 * (24 + 4));
	bool first = true;

	for (k = 0; k < r->nr_cols; k++) {
		if (elided(r, r->cols[k]))
			continue;
		lim += w[k] + (first ? 0 : 2);
		first = false;
	}
	return lim;
}

void report_print_row(struct report *r, const struct prism_hist_entry *e, const size_t *w,
		      uint64_t total, bool children, struct prism_strbuf *out)
{
	size_t k, start = out->len;
	bool first = true;
	char buf[1024];
	int key;

	for (k = 0; k < r->nr_cols; k++) {
		key = r->cols[k];
		if (elided(r, key))
			continue;
		col_sep(r, out, &first, false);
		if (r->grp &&
		    (is_percent(key) || key == PRISM_SORT_SAMPLE || key == PRISM_SORT_PERIOD)) {
			report_group_cells(r, key, e, out);
			continue;
		}
		if (key == PRISM_SORT_OVERHEAD_CHILDREN && !children) {
			snprintf(buf, sizeof(buf), "N/A");
		} else if (is_percent(key)) {
			uint64_t v = col_period(key, e);
			double pct = total ? 100.0 * (double)v / (double)total : 0;
			const char *c = percent_color(pct);

			if (r->field_sep) {
				snprintf(buf, sizeof(buf), "%.2f%%", pct);
			} else { /* perf: " %*.2f%%" in its -w or own width, padded to the column's */
				size_t len = out->len,
				       uw = user_width(r, k) ? user_width(r, k) : w[k];

				prism_strbuf_addf(out, "%s %*.2f%%%s", c, uw > 2 ? (int)uw - 2 : 0,
						  pct, *c ? COLOR_RESET : "");
				len = out->len - len - (*c ? strlen(c) + strlen(COLOR_RESET) : 0);
				if (len < w[k] && k + 1 < r->nr_cols)
					prism_strbuf_addf(out, "%*s", (int)(w[k] - len), "");
				continue;
			}
		} else {
			report_col_text(r, key, e, buf, sizeof(buf));
		}
		/* perf's -t: a number a blank, then left-aligned */
		if (r->field_sep && report_is_field(key)) {
			prism_strbuf_addf(out, " %-*s", (int)w[k] - 1, buf);
			continue;
		}
		if (report_is_field(key) && user_width(r, k)) { /* perf: " %*d" in -w's width */
			size_t len = out->len;

			prism_strbuf_addf(out, " %*s", (int)user_width(r, k) - 1, buf);
			len = out->len - len;
			if (len < w[k] && k + 1 < r->nr_cols)
				prism_strbuf_addf(out, "%*s", (int)(w[k] - len), "");
			continue;
		}
		/* perf: -w cuts the text, a symbol's name before " (inlined)" */
		if (key == PRISM_SORT_SYM && user_width(r, k))
			sym_text(e, buf, sizeof(buf), user_width(r, k));
		else if (user_width(r, k) && strlen(buf) > w[k])
			buf[w[k]] = '\0';
		if (key == PRISM_SORT_COMM && strlen(buf) > w[k])
			buf[w[k]] = '\0'; /* a name longer than its thread's last one */
		/* perf pads every column to its width but a last symbol, source line, time, cgroup */
		if (k + 1 == r->nr_cols && report_key_unpadded(key))
			prism_strbuf_addstr(out, buf);
		else
			prism_strbuf_addf(
				out, report_is_field(key) || report_key_right(key) ? "%*s" : "%-*s",
				(int)w[k], buf);
	}
	if (out->len - start > row_limit(r, w))
		prism_strbuf_setlen(out, start + row_limit(r, w));
	prism_strbuf_addch(out, '\n');
}

/* the widths of the columns: their headers', perf's minimum, the rows' texts */
void report_col_widths(struct report *r, const struct prism_hist_entry *e, size_t n, uint64_t total,
		       bool children, size_t *w)
{
	char buf[1024];
	size_t i, k;
	int key;

	for (k = 0; k < r->nr_cols; k++) {
		key = r->cols[k];
		w[k] = report_is_sample_key(key) ? report_key_width(key) :
						   strlen(report_col_header(r, key));
		if (is_percent(key) && w[k] < 8)
			w[k] = 8;
		if (key == PRISM_SORT_SAMPLE || key == PRISM_SORT_PERIOD || key == PRISM_SORT_TIME)
			w[k] = key == PRISM_SORT_TIME && r->ns ? 16 : 12; /* perf's */
		/* a group: a value per event */
		if (r->grp &&
		    (is_percent(key) || key == PRISM_SORT_SAMPLE || key == PRISM_SORT_PERIOD))
			w[k] *= report_group_size(r);
		/* perf's -w: a text column that wide, a number one at least its header's */
		if (user_width(r, k)) {
			w[k] = user_width(r, k);
			if (report_is_field(key) && strlen(report_col_header(r, key)) > w[k])
				w[k] = strlen(report_col_header(r, key));
		}
	}
	for (i = 0; i < n; i++) {
		if (!report_row_visible(r, &e[i], total, children, false))
			continue;
		for (k = 0; k < r->nr_cols; k++) {
			key = r->cols[k];
			if (is_percent(key) || key == PRISM_SORT_CPU || /* perf: CPU stays 3 wide */
			    key == PRISM_SORT_SOCKET || user_width(r, k))
				continue;
			report_col_text(r, key, &e[i], buf, sizeof(buf));
			/* perf: the comm column fits the last name of each row's thread */
			if (key == PRISM_SORT_COMM && prism_tasks__comm(r->tasks, e[i].thread))
				snprintf(buf, sizeof(buf), "%s",
					 prism_tasks__comm(r->tasks, e[i].thread));
			/* perf: a symbol's width is its name's, " (inlined)" left out */
			if (key == PRISM_SORT_SYM && e[i].sym && e[i].inlined)
				buf[strlen(buf) - strlen(" (inlined)")] = '\0';
			/* perf -v: an address's width (22), whatever it prints */
			if (key == PRISM_SORT_SYM && !e[i].sym && verbose > 0)
				buf[0] = '\0';
			if (strlen(buf) > w[k])
				w[k] = strlen(buf);
			/* perf: an unresolved row widens symbol and DSO to an address's width */
			if (!e[i].sym && key == PRISM_SORT_SYM && w[k] < 22)
				w[k] = 22;
			if (!e[i].sym && key == PRISM_SORT_DSO && w[k] < 16 && !r->dsos.nr)
				w[k] = 16;
		}
	}
}

int report_entries(struct report *r, struct prism_profile *p, bool children, bool graph,
		   bool caller, struct prism_hist_entry **e, size_t *n)
{
	setup_columns(r, children);
	/* perf finds parents in the call chains it resolves: none without */
	if (prism_profile__set_parent(p, !r->parent_key || !r->has_callchain ? NULL :
					 r->parent			     ? r->parent :
									       DEFAULT_PARENT))
		return error("out of memory building the report");
	prism_profile__set_chain_order(p, graph, caller);
	if ((r->fields && !r->fields_plus ?
		     prism_profile__entries_by_keys :
		     prism_profile__entries)(p, r->order, r->nr_order, children, e, n))
		return error("out of memory building the report");
	return 0;
}

void report_print_section(struct report *r, const char *name, struct prism_profile *p,
			  bool children, bool graph, bool caller)
{
	struct prism_hist_entry *e;
	size_t n, i;
	uint64_t total = prism_profile__total_period(p);
	uint64_t nr_samples = prism_profile__nr_samples(p), gmin, gtotal = total;
	struct report_levels *lv = NULL;

	struct prism_hist_entry *sorted = NULL;

	if (r->hierarchy && !(lv = report_hierarchy_levels(r, p, graph, caller)))
		return;
	if (report_entries(r, p, children, graph, caller, &e, &n))
		return;
	if (r->tp_fields && !lv) { /* perf's order of the fields' rows (no graph then) */
		e = sorted = report_tpf_sort(r, e, n);
		graph = false;
	}
	/*
	 * perf --percentage relative: shares of the rows the filters keep; its
	 * sample count and the graphs' threshold (perf's non-filtered
	 * callchain period) leave out the rows filtered as they were made,
	 * not the ones --symbol-filter leaves out later
	 */
	if (r->relative) {
		total = nr_samples = gtotal = 0;
		for (i = 0; i < n; i++) {
			if (e[i].hidden || (r->exclude_other && !e[i].parent))
				continue;
			nr_samples += e[i].nr_samples;
			gtotal += e[i].self;
			if (!sym_filtered(r, &e[i]))
				total += e[i].self;
		}
	}
	/* rows below the graph threshold show no branch (fractal's is relative) */
	gmin = r->cg.print == CG_FRACTAL ? 0 :
					   (uint64_t)ceil((double)gtotal * r->cg.threshold / 100.0);
	if (graph && prism_profile__callgraphs(p, caller, gmin)) {
		error("out of memory building the call graphs");
		return;
	}
	if (lv) {
		report_print_hierarchy(r, p, lv, e, n, total, gtotal, graph ? gmin : UINT64_MAX,
				       caller, name, nr_samples);
		return;
	}
	report_samples_header(nr_samples, total, name, r->leader);
	report_print_table(r, p, e, n, total, gtotal, children, graph ? gmin : UINT64_MAX, caller);
	free(sorted);
}

void report_print_table(struct report *r, struct prism_profile *p, const struct prism_hist_entry *e,
			size_t n, uint64_t total, uint64_t gtotal, bool children, uint64_t gmin,
			bool caller)
{
	struct prism_strbuf out = STRBUF_INIT;
	size_t i, w[PRISM_ARRAY_SIZE(r->cols)];

	report_col_widths(r, e, n, total, children, w);
	print_headers(r, w);
	for (i = 0; i < n; i++) {
		if (!report_row_visible(r, &e[i], total, children, true))
			continue;
		prism_strbuf_reset(&out);
		report_print_row(r, &e[i], w, total, children, &out);
		if (gmin != UINT64_MAX && (children ? e[i].children : e[i].self) >= gmin)
			report_print_graph(p, i, caller, prism_profile__total_period(p), gtotal,
					   &r->cg,
					   /* perf: the row's own symbol first, not shown twice */
					   r->sort && !strncmp(r->sort, "sym", 3), &out);
		fwrite(out.buf, 1, out.len, stdout);
	}
	printf("\n\n");
	prism_strbuf_release(&out);
}
