// SPDX-License-Identifier: MIT
/*
 * prism report: symbolized profiles in perf report's text layout, call
 * graphs, folded stacks, flame graphs and readperf's CSV tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/error.h>
#include <prism/features.h>
#include <prism/profile.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "cmd.h"
#include "input.h"
#include "options.h"
#include "report.h"
#include "sample-filter.h"
#include "script.h"

/* ---- record callbacks ---- */

static struct prism_profile *profile_of(struct report *r, struct prism_evsel *evsel);

static uint64_t period_of(const struct prism_event *ev)
{
	if (ev->sample.type & PERF_SAMPLE_PERIOD)
		return ev->sample.period;
	return ev->evsel ? prism_evsel__fixed_period(ev->evsel) : 1;
}

/* perf: a thread's first COMM replaces its ":TID" name, in the rows it has already too */
static int on_task(void *ctx, const struct prism_event *ev)
{
	struct report *r = ctx;
	bool unnamed = ev->type == PERF_RECORD_COMM && !prism_tasks__comm(r->tasks, ev->comm.tid);
	char old[16];
	size_t i;
	int err;

	if (r->csv)
		report_csv__record(r->csv, ev, 0);
	err = prism_tasks__event(r->tasks, ev);
	snprintf(old, sizeof(old), ":%d", (int)ev->comm.tid);
	for (i = 0; unnamed && !err && i < r->nr_evsels; i++)
		if (r->profiles[i])
			err = prism_profile__rename_comm(r->profiles[i], old,
							 prism_tasks__comm(r->tasks, ev->comm.tid));
	if (!err)
		err = prism_symbols__event(r->sy, ev);
	return err;
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	struct report *r = ctx;

	if (r->csv)
		report_csv__record(r->csv, ev, 0);
	if (ev->type == PERF_RECORD_KSYMBOL || ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		return prism_symbols__event(r->sy, ev);
	if (r->ks)
		return prism_key_source__event(r->ks, ev);
	return 0;
}

static bool leaf_matches(struct report *r, const struct prism_frame *f)
{
	if (r->dsos.nr && !in_list(&r->dsos, f->dso_name))
		return false;
	if (r->syms.nr && !in_list(&r->syms, f->sym))
		return false;
	return true;
}

static int sample_one(struct report *r, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	uint64_t period = period_of(ev);
	struct prism_profile *p;
	const char *comm;
	bool chain, nochain, pipe, hidden, unwound;
	int err;

	if (!ev->evsel || prism_evsel__idx(ev->evsel) < 0)
		return 0;
	p = r->rb ? NULL : profile_of(r, ev->evsel);
	if (!p && !r->rb)
		return 0;
	if (prism_time_filter__skip(&r->time, s->time) ||
	    sample_filter_skip(&r->cpu_sf, s->pid, s->tid, s->cpu, s->time, 0, s->ip))
		return 0;
	comm = prism_tasks__comm(r->tasks, s->tid);
	if (r->rb)
		return (s->type & PERF_SAMPLE_BRANCH_STACK) ?
			       report_branch__sample(r->rb, (size_t)prism_evsel__idx(ev->evsel),
						     comm, s) :
			       0;
	/* perf's Children column comes with the event's call chains, whatever the filters keep */
	if (s->type & PERF_SAMPLE_CALLCHAIN)
		r->has_callchain = true;
	hidden = (r->comms.nr && !in_list(&r->comms, comm)) ||
		 (r->nr_pids && !in_ids(r->pids, r->nr_pids, s->pid)) ||
		 (r->nr_tids && !in_ids(r->tids, r->nr_tids, s->tid));
	if (hidden && (r->folded || r->flamegraph)) {
		prism_profile__add_filtered(p, period);
		return 0;
	}
	/* the Children column, graphs, folded stacks and flame graphs need whole stacks */
	chain = (s->type & PERF_SAMPLE_CALLCHAIN) && (!r->no_children || r->cg.mode != CG_NONE ||
						      r->folded || r->flamegraph || r->parent_key);
	if (chain) {
		r->use_callchain = true;
		err = prism_symbols__callchain(r->sy, ev, &r->cc,
					       r->no_inline ? 0 :
					       r->inlines   ? PRISM_CALLCHAIN_INLINE :
							      PRISM_CALLCHAIN_INLINE_UNWOUND);
		if (err)
			return err;
	}
	/*
	 * no chain, or an empty one (a DWARF sample of which nothing could be
	 * unwound): the sample address alone, as perf's self entry (for an
	 * empty chain its only row: no caller row and no graph, as in perf)
	 */
	nochain = chain && !r->cc.nr;
	if ((!chain || !r->cc.nr) && prism_symbols__sample_ip(r->sy, ev, &r->cc))
		return -ENOMEM;
	if (r->hide_unresolved && report_hide_unresolved(&r->cc))
		return 0;
	/*
	 * perf's --dsos and --symbols keep or drop a sample by its own address;
	 * a sample a filter drops still counts in the rows a kept one made
	 * (prism_profile__set_hidden())
	 */
	if ((r->dsos.nr || r->syms.nr) && !leaf_matches(r, &r->cc.frames[0])) {
		if (r->folded || r->flamegraph)
			return 0;
		hidden = true;
	}
	prism_profile__set_hidden(p, hidden);
	/* --call-graph dwarf: perf's graphs keep the unwound frames apart (report_cg_add) */
	unwound = (s->type & PERF_SAMPLE_STACK_USER) && !r->pt_g;
	prism_profile__set_time(p, report_time_key(r, s));
	if (r->ks && report_sample_keys(r, ev, p))
		return -ENOMEM;
	prism_profile__set_parent_depth(p, r->cc.nr_recorded); /* perf: not in unwound frames */
	if (nochain)
		return prism_profile__add_nochain(p, comm, s->pid, s->tid, s->cpu, period,
						  r->cc.frames);
	pipe = prism_session__file_info(r->s)->pipe;
	return report_cg_add(&r->cg,
			     report_cg_caller(&r->cg, r->children_set ? r->children : !pipe, pipe,
					      r->no_children),
			     p, comm, s->pid, s->tid, s->cpu, period, r->cc.frames, r->cc.nr,
			     unwound);
}

/*
 * perf's leader sampling (PERF_SAMPLE_READ of a group): a sample of each
 * event of the group whose count grew, its period the growth
 */
static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct report *r = ctx;
	const struct perf_event_attr *attr = ev->evsel ? prism_evsel__attr(ev->evsel) : NULL;
	const struct prism_sample *s = &ev->sample;
	size_t entry, i;
	int err = 0;

	if (r->csv)
		report_csv__record(r->csv, ev, period_of(ev));
	if (!attr || !(s->type & PERF_SAMPLE_READ) || !(attr->read_format & PERF_FORMAT_GROUP) ||
	    !(attr->read_format & PERF_FORMAT_ID) || !s->read.values_raw)
		return sample_one(r, ev);
	entry = 16 + (attr->read_format & PERF_FORMAT_LOST ? 8 : 0);
	for (i = 0; i < s->read.nr && !err; i++) {
		const uint8_t *v = (const uint8_t *)s->read.values_raw + i * entry;
		struct prism_event one = *ev;
		uint64_t value, id;

		memcpy(&value, v, 8);
		memcpy(&id, v + 8, 8);
		one.evsel = prism_session__evsel_by_id(r->s, id);
		one.sample.period = report_read_delta(r, id, value);
		one.sample.type |= PERF_SAMPLE_PERIOD;
		if (one.evsel && one.sample.period)
			err = sample_one(r, &one);
	}
	return err;
}

/* ---- text output ---- */

static unsigned long convert_unit(unsigned long v, char *unit)
{
	*unit = ' ';
	if (v > 1000) {
		v /= 1000;
		*unit = 'K';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'M';
	}
	if (v > 1000) {
		v /= 1000;
		*unit = 'G';
	}
	return v;
}

/* --time's text: perf names the time slices after the event */
static const char *time_slices;

void report_samples_header(uint64_t nr_samples, uint64_t total, const char *name, bool events)
{
	char unit;
	unsigned long ns = convert_unit((unsigned long)nr_samples, &unit);

	printf("# Samples: %lu%c of event%s '%s'", ns, unit, events ? "s" : "", name);
	if (time_slices)
		printf(" (time slices: %s)", time_slices);
	printf("\n");
	printf("# Event count (approx.): %" PRIu64 "\n#\n", total);
}

void report_percent(struct prism_strbuf *out, uint64_t v, uint64_t total)
{
	double pct = total ? 100.0 * (double)v / (double)total : 0;
	const char *c = percent_color(pct);

	prism_strbuf_addf(out, "  %s%7.2f%%%s", c, pct, *c ? COLOR_RESET : "");
}

/* the group (perf's GROUP_DESC) event @idx is in, NULL for none */
static const struct prism_feat_group *group_of(const struct report *r, size_t idx)
{
	const struct prism_feat_group_desc *gd =
		prism_features__group_desc(prism_session__features(r->s));
	uint32_t i;

	for (i = 0; gd && i < gd->nr; i++)
		if (idx >= gd->groups[i].leader_idx &&
		    idx < (size_t)gd->groups[i].leader_idx + gd->groups[i].nr_members)
			return &gd->groups[i];
	return NULL;
}

static bool any_samples(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr_evsels; i++)
		if (r->profiles[i] && prism_profile__nr_samples(r->profiles[i]))
			return true;
	return false;
}

static int print_report(struct report *r)
{
	const struct prism_session_stats *st = prism_session__stats(r->s);
	bool graph = r->use_callchain && r->cg.mode != CG_NONE;
	bool children = r->has_callchain; /* perf: -g none hides graphs, not Children */
	bool pipe = prism_session__file_info(r->s)->pipe;
	bool caller;
	size_t i, nr = r->nr_evsels;
	const struct prism_feat_group *g;
	const char *name;
	int ret = 0;

	/*
	 * perf sets its Children column up before a pipe's attrs arrive, sees
	 * no call chains and drops it (even an explicit --children: we keep
	 * that one); its graphs stay in caller order unless --no-children.
	 */
	if (pipe)
		children = false;
	if (r->children_set)
		children = r->children && r->use_callchain;
	caller = report_cg_caller(&r->cg, children, pipe, r->no_children);

	if (r->rb && report_branch__check(r->rb))
		return 1;
	for (i = 0; r->hide_unresolved && i < nr &&
		    (!r->profiles[i] || !prism_profile__nr_samples(r->profiles[i]));
	     i++)
		;
	if (r->hide_unresolved && i == nr) { /* perf: "... data has no samples!" */
		error("'%s' has no samples with a symbol (-U leaves out the others)",
		      r->input ? r->input : "perf.data");
		return 1;
	}
	if (r->parent_key && !r->has_callchain) { /* (perf's words) */
		error("--sort parent, but '%s' has no call chains",
		      r->input ? r->input : "perf.data");
		hint("record with -g (perf record -g, prism record -g)");
		return 1;
	}
	if (r->header)
		print_header(r->s, r->input, true);
	else
		printf("# To display the perf.data header info, please use --header/--header-only "
		       "options.\n");
	printf("#\n");
	if (!r->rb && !any_samples(r)) { /* perf's, exit status 0: -C or --time kept none */
		error("'%s' has no samples%s", r->input ? r->input : "perf.data",
		      r->time_str || r->cpu_sf.cpu_list ?
			      " in the --time window or on the -C CPUs" :
			      "");
		return 0;
	}
	report_print_elided(r);
	/* perf: the LOST_SAMPLES records' count (a LOST record's lost events are not samples) */
	printf("#\n# Total Lost Samples: %" PRIu64 "\n#\n", st->total_lost_samples);
	if (r->rb)
		nr = r->itrace ? REPORT_PT_SECTIONS : prism_session__nr_evsels(r->s);
	for (i = 0; i < nr; i++) {
		name = r->itrace ? r->pt_names[i] :
				   prism_evsel__name(prism_session__evsel(r->s, i));
		if (r->rb && report_branch__has(r->rb, i) && report_branch__print(r->rb, i, name))
			ret = 1;
		if (r->rb || !r->profiles[i] || !prism_profile__nr_samples(r->profiles[i]))
			continue;
		g = r->itrace ? NULL : group_of(r, i);
		if (g && g->leader_idx != i && !r->no_group && !children)
			continue; /* a member: in its leader's section */
		if (g && !r->no_group && !children) {
			if (report_print_group(r, i, g->nr_members, g->name))
				ret = 1;
			continue;
		}
		r->leader = g && g->leader_idx == i;
		report_print_section(r, name, r->profiles[i], children, graph, caller);
	}
	return ret;
}

/* ---- set-up ---- */

/*
 * The profile of a sample's event, created on its first sample: pipe-mode
 * files announce their events only while they are read.  NULL when --event
 * excludes the event.
 */
static struct prism_profile *new_profile(struct report *r)
{
	unsigned int mask = 0;
	struct prism_profile *p;
	size_t i;

	for (i = 0; i < r->nr_keys; i++)
		mask |= 1u << r->keys[i];
	for (i = 0; i < r->nr_fkeys; i++)
		mask |= 1u << r->fkeys[i];
	p = prism_profile__new(r->sy, mask);
	if (!p) {
		error("out of memory");
		exit(1);
	}
	prism_profile__set_full_source_path(p, r->full_source_path);
	return p;
}

static struct prism_profile *profile_of(struct report *r, struct prism_evsel *evsel)
{
	int idx = prism_evsel__idx(evsel);
	size_t i;

	if (idx < 0)
		return NULL;
	if ((size_t)idx >= r->nr_evsels) {
		r->profiles = xrealloc(r->profiles, (idx + 1) * sizeof(*r->profiles));
		r->excluded = xrealloc(r->excluded, (idx + 1) * sizeof(*r->excluded));
		for (i = r->nr_evsels; i <= (size_t)idx; i++) {
			r->profiles[i] = NULL;
			r->excluded[i] = false;
		}
		r->nr_evsels = (size_t)idx + 1;
	}
	if (r->profiles[idx] || r->excluded[idx])
		return r->profiles[idx];
	if (r->event && strcmp(prism_evsel__name(evsel), r->event)) {
		r->excluded[idx] = true;
		return NULL;
	}
	return r->profiles[idx] = new_profile(r);
}

/* --itrace: a synthesized sample into its event's profile (in perf's order) */
static int pt_sample(void *ctx, const struct prism_pt_item *it, const char *name)
{
	struct report *r = ctx;
	size_t idx = report_pt_section(it);
	bool ev = it->kind != PRISM_PT_BRANCH && it->kind != PRISM_PT_INSN;
	const char *comm;
	bool chain;

	if (!r->profiles) {
		r->profiles = xcalloc(REPORT_PT_SECTIONS, sizeof(*r->profiles));
		r->nr_evsels = REPORT_PT_SECTIONS;
	}
	/* perf: a sample without branches, no row (a psb at the start: no section) */
	if (r->rb && it->kind != PRISM_PT_BRANCH && !it->nr_brstack)
		return 0;
	if (!r->pt_names[idx])
		r->pt_names[idx] = xstrdup(name);
	comm = it->tid >= 0 ? prism_tasks__comm(r->tasks, (uint32_t)it->tid) : NULL;
	if (r->rb)
		return report_branch__pt(r->rb, (size_t)idx, comm, it);
	if (!r->profiles[idx])
		r->profiles[idx] = new_profile(r);
	/*
	 * --itrace=g: the instruction samples' chains, as a sampled file's
	 * (perf: no children with -g none); branch samples have none, a row alone
	 */
	r->has_callchain |= it->callchain != NULL || r->pt_g; /* perf: Children with g */
	chain = it->callchain && (r->cg.mode != CG_NONE || r->folded || r->flamegraph);
	r->use_callchain |= chain;
	if (pt_item_frames(r->sy, it, chain, &r->cc))
		return -ENOMEM;
	/* with g, perf's x, p and w samples have a chain of their ip alone */
	if (ev && r->pt_g && r->cg.mode != CG_NONE)
		r->use_callchain = chain = true;
	if (r->use_callchain && !chain)
		return prism_profile__add_nochain(r->profiles[idx], comm, (uint32_t)it->pid,
						  (uint32_t)it->tid, it->cpu, ev ? 1 : it->period,
						  r->cc.frames);
	return prism_profile__add(r->profiles[idx], comm, (uint32_t)it->pid, (uint32_t)it->tid,
				  it->cpu, ev ? 1 : it->period, r->cc.frames, r->cc.nr);
}

static bool any_profile(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr_evsels; i++)
		if (r->profiles[i])
			return true;
	return false;
}

static int write_flamegraph(struct report *r)
{
	struct prism_flamegraph_opts o = { 0 };
	char sub[256];
	size_t i;
	FILE *fp;
	int err = 0;

	fp = fopen(r->flamegraph, "w");
	if (!fp)
		return error("cannot create '%s': %s", r->flamegraph, strerror(errno));
	o.title = r->title ? r->title : "Flame Graph";
	o.min_width = r->min_width;
	for (i = 0; i < r->nr_evsels && !err; i++) {
		struct prism_profile *p = r->profiles[i];

		if (!p || !prism_profile__nr_samples(p))
			continue;
		snprintf(sub, sizeof(sub), "%s: %" PRIu64 " samples from %s",
			 r->itrace ? r->pt_names[i] :
				     prism_evsel__name(prism_session__evsel(r->s, i)),
			 prism_profile__nr_samples(p), r->input ? r->input : "perf.data");
		o.subtitle = sub;
		err = prism_profile__write_flamegraph(p, fp, &o);
		break; /* one SVG document: the first event with samples (use --event for others) */
	}
	if (fclose(fp) || err)
		return error_errno(err ? err : errno, "cannot write '%s'", r->flamegraph);
	if (!quiet)
		info("flame graph written to '%s'", r->flamegraph);
	return 0;
}

static int write_folded(struct report *r)
{
	size_t i;
	int err;

	for (i = 0; i < r->nr_evsels; i++) {
		if (!r->profiles[i])
			continue;
		err = prism_profile__write_folded(r->profiles[i], stdout,
						  PRISM_FOLDED_KERNEL_SUFFIX);
		if (err)
			return error_errno(err, "cannot write the folded stacks");
	}
	return 0;
}

/* perf's branch mode: -b, or the default when the samples have branch stacks */
static int setup_branch_mode(struct report *r, const struct prism_itrace *it,
			     const char *const *usage, const struct option_def *opts)
{
	int mode = report_branch__mode(r->s, r->input, r->branch, r->itrace ? it : NULL);

	if (mode < 0)
		return EXIT_USAGE;
	if (r->no_branch || !mode)
		return report_parse_columns(r) ? EXIT_USAGE : 0;
	if (r->csv_dir || r->folded || r->flamegraph || r->comm_list || r->pid_list ||
	    r->tid_list || r->dso_list || r->sym_list || r->event || r->srcline ||
	    r->children_set || r->cg.set || r->cg.mode != CG_DEFAULT || r->fields ||
	    r->show_total_period || r->show_cpu_util || r->percentage)
		usage_error(usage, opts,
			    "the branch report (-b, the default for samples with branch stacks) "
			    "takes --sort, -n, --percent-limit, --time and --header; "
			    "--no-branch-stack: the usual report");
	r->rb = report_branch__new(r->sort, r->sy, r->tasks, r->show_nr, r->percent_limit);
	return r->rb ? 0 : EXIT_USAGE;
}

/* the values of perf's sample keys (socket, cgroup, weights...) where a column has one */
static int setup_key_source(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr_keys + r->nr_fkeys; i++)
		if (report_is_sample_key(i < r->nr_keys ? r->keys[i] : r->fkeys[i - r->nr_keys]))
			break;
	if (i == r->nr_keys + r->nr_fkeys)
		return 0;
	r->ks = prism_key_source__new(prism_session__features(r->s));
	return r->ks ? 0 : error_errno(errno, "out of memory");
}

static void free_report(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr_evsels; i++)
		prism_profile__free(r->profiles ? r->profiles[i] : NULL);
	report_cg_release(&r->cg);
	free(r->profiles);
	free(r->excluded);
	prism_callchain__release(&r->cc);
	report_branch__free(r->rb);
	for (i = 0; i < REPORT_PT_SECTIONS; i++)
		free(r->pt_names[i]);
	prism_symbols__free(r->sy);
	prism_tasks__free(r->tasks);
	prism_session__free(r->s);
	free(r->map_path.v);
	free(r->pids);
	free(r->tids);
	strlist_release(&r->comms);
	strlist_release(&r->dsos);
	prism_key_source__free(r->ks);
	prism_strbuf_release(&r->trace);
	report_read_free(r);
	sample_filter_release(&r->cpu_sf);
	prism_time_filter__release(&r->time);
	strlist_release(&r->syms);
}

int cmd_report(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism report [-i <file>] [--sort <keys>] [-g <graph|flat|folded,caller|callee,...>] "
		"[<filters>]",
		"prism report --folded | --flamegraph <file.svg> | --csv-dir <dir>",
		NULL,
	};
	struct report r = { .cg.threshold = -1,
			    .cg.max_stack = INT_MAX,
			    .min_width = 0.1,
			    .time_quantum = 100000000 };
	const struct option_def opts[] = {
		OPT_INPUT(&r.input),
		OPT_FORCE(&r.force),
		OPT_GROUP("Rows"),
		OPT_STRING(
			's', "sort", &r.sort, "keys",
			"group rows by these comma-separated keys, as perf: comm, pid (a row "
			"per thread, 'tid:comm'), dso, symbol (sym), parent (see -p), srcline (perf's "
			"'dso[addr]' or 'sym+offset' without debug info, its addr2line's "
			"'??:0' and file names with it), srcfile, cpu, "
			"symbol_size, time (see --time-quantum), socket, dso_size (the map's "
			"size), cgroup, cgroup_id (dev/inode of the cgroup namespace), "
			"local_weight, weight (local x samples), local_ins_lat, ins_lat (sum), "
			"local_p_stage_cyc and p_stage_cyc (powerpc only, dropped elsewhere, as "
			"perf), trace (a tracepoint's output) (default comm,dso,symbol; trace "
			"for a file of tracepoints only); with Children a sample's period counts "
			"once in rows keyed by time, socket, cgroup or weight, where perf 6.1 "
			"counts it per frame of its chain; rows sort by overhead, then by the "
			"keys; the output fields (see -F) sort and add their column; a key may "
			"be shortened (sym), as perf; perf's other keys (transaction, addr...) "
			"are refused by name"),
		OPT_STRING('F', "fields", &r.fields, "fields",
			   "the columns, as perf: overhead, overhead_children, overhead_sys, "
			   "overhead_us, overhead_guest_sys, overhead_guest_us (0: prism keeps no "
			   "guest mode), sample, period and any --sort key; rows sort by --sort, "
			   "then by these fields in their order (not by overhead first); "
			   "+fields adds to the default columns"),
		OPT_STRING('p', "parent", &r.parent, "regex",
			   "the parent sort key's expression (POSIX extended, default perf's "
			   "'^sys_|^do_page_fault'; -p adds the key): a sample's parent is the "
			   "first symbol of its recorded call chain that matches it (as perf: "
			   "from the root in caller order, the leaf in callee order; not in "
			   "frames unwound from --call-graph dwarf's stack copies), "
			   "'[other]' without"),
		OPT_BOOL('x', "exclude-other", &r.exclude_other,
			 "only the rows that have a parent (see -p)"),
		OPT_STRING('t', "field-separator", &r.field_sep, "sep",
			   "separate the columns by SEP, without padding numbers or the "
			   "dotted line, as perf's -t (for scripts)"),
		OPT_BOOL('U', "hide-unresolved", &r.hide_unresolved,
			 "leave out the samples whose address has no symbol (they do not count "
			 "in the totals) and the frames without one from the call chains, as "
			 "perf"),
		OPT_STRING('w', "column-widths", &r.widths, "w1,w2,...",
			   "the widths of the columns in their order, as perf's (0: the "
			   "column's own): text is cut to its width, a number or percentage "
			   "column is never narrower than its header"),
		OPT_BOOL(0, "ns", &r.ns, "the time key to the nanosecond"),
		OPT_CALLBACK(0, "time-quantum", &r.time_quantum, "time",
			     "the time key's buckets, as perf: 100ms (default), 10us, 1s, 500ns",
			     report_opt_quantum),
		OPT_BOOL(0, "show-total-period", &r.show_total_period, "add a Period column"),
		OPT_BOOL(0, "show-cpu-utilization", &r.show_cpu_util,
			 "add the sys and usr columns: the overhead of kernel and user space "
			 "samples"),
		OPT_STRING(0, "percentage", &r.percentage, "relative|absolute",
			   "with -d/-S/--comms/--pid/--tid: percentages of all samples (absolute, "
			   "the default) or of the samples the filters keep (relative)"),
		OPT_BOOL('b', "branch-stack", &r.branch,
			 "perf's branch mode (the default for files whose samples have branch "
			 "stacks and for --itrace with l): every branch of the stacks counts 1, "
			 "--sort keys comm, pid, dso_from, dso_to, symbol_from, symbol_to, cycles "
			 "(default comm,dso_from,symbol_from,symbol_to,cycles)"),
		OPT_BOOL(0, "no-branch-stack", &r.no_branch,
			 "the usual report of a file whose samples have branch stacks"),
		OPT_BOOL('n', "show-nr-samples", &r.show_nr, "add a Samples column"),
		OPT_DOUBLE(0, "percent-limit", &r.percent_limit, "P",
			   "hide rows whose overhead is below P percent"),
		OPT_BOOL(0, "children", &r.children,
			 "add a Children column: the period of every stack a row appears in "
			 "(default with call chains, except for pipe input, as perf 6.1, whose "
			 "set-up runs before a pipe's events are known; it drops even this option "
			 "there, prism keeps it)"),
		OPT_BOOL(0, "no-children", &r.no_children,
			 "only self overhead, even with call chains"),
		OPT_BOOL(0, "stdio", &r.stdio, "text output on standard output (the default)"),
		OPT_STRING(0, "itrace", &r.itrace, "opts",
			   "report the Intel PT trace's synthesized samples, as perf: i[PERIOD] "
			   "instructions (Ni, Nt ticks, Nns/Nus/Nms; i alone: i100us), "
			   "b branches, c calls, r returns, g[N] call chains (of N entries, default "
			   "16) on instruction samples for -g, --children, --folded, --flamegraph, "
			   "x transactions, p power events (cbr, psb, mwait, pwre, exstop, pwrx), "
			   "w ptwrite, l[N] last branches (the branch report), d the decoder's "
			   "log (./intel_pt.log), s[N] skip the first N samples; without it an "
			   "Intel PT file "
			   "is decoded with perf report's default i100usgxwp"),
		OPT_BOOL(0, "header", &r.header,
			 "print the file's header (every feature, as perf's --header -I) before "
			 "the report"),
		OPT_BOOL(0, "header-only", &r.header_only,
			 "print only the file's header, as 'prism header' does"),
		OPT_BOOL('I', "show-info", &r.show_info,
			 "perf's extended header information (CPU and NUMA topology...): prism's "
			 "--header and --header-only always show it"),
		OPT_BOOL(0, "no-group", &r.no_group,
			 "a section per event, also for a file of event groups (where perf "
			 "shows a section per group, a value per event, as --group)"),
		OPT_BOOL(0, "stats", &r.stats_mode,
			 "print perf's 'Aggregated stats' (records per type, samples per event) "
			 "instead of the report"),
		OPT_BOOL(0, "tasks", &r.tasks_mode,
			 "print the file's tasks as perf's tree (pid, tid, ppid, comm) instead of "
			 "the report"),
		OPT_BOOL(0, "mmaps", &r.mmaps_mode, "--tasks with each task's memory maps"),
		OPT_BOOL(0, "full-source-path", &r.full_source_path,
			 "srcline and srcfile name a source file by its path as the debug info "
			 "has it (perf puts the compilation directory before a relative one)"),
		OPT_BOOL(0, "srcline", &r.srcline,
			 "add a Source:Line column (sort key srcline; needs debug info)"),
		OPT_GROUP("Filters"),
		OPT_STRING('c', "comms", &r.comm_list, "list",
			   "only samples of these comma-separated command names (percentages stay "
			   "shares of all samples; as perf, a row shows when a kept sample made it "
			   "first, with the periods of the others too)"),
		OPT_STRING(0, "pid", &r.pid_list, "list", "only samples of these process ids"),
		OPT_STRING(0, "tid", &r.tid_list, "list", "only samples of these thread ids"),
		OPT_STRING('d', "dsos", &r.dso_list, "list",
			   "only samples whose address is in these DSOs (short names: libc.so.6, "
			   "[kernel.kallsyms]), rows as for --comms"),
		OPT_STRING('S', "symbols", &r.sym_list, "list",
			   "only samples in these symbols, rows as for --comms"),
		OPT_STRING(0, "symbol-filter", &r.symbol_filter, "text",
			   "only rows whose symbol's name contains the text (a row without a "
			   "symbol is left out), in every event's section (perf 6.1 filters "
			   "only the first event's)"),
		OPT_STRING('C', "cpu", &r.cpu_sf.cpu_list, "cpus",
			   "only samples of these CPUs (0-3,6); the others do not count in the "
			   "total, as perf"),
		OPT_STRING(0, "time", &r.time_str, "start,end",
			   "only samples in this time window, in seconds as perf script prints "
			   "them (to the ns; either side may be empty); several separated by "
			   "blanks; or percents of the file's span: 10%/2, 0%-10%"),
		OPT_STRING('e', "event", &r.event, "name",
			   "only this event (perf's name, e.g. cpu-clock) of a multi-event file"),
		OPT_GROUP("Call graphs"),
		OPT_CALLBACK_CHOICE(
			'g', "call-graph", &r.cg, "params",
			"perf's print_type,threshold[,print_limit],order,sort_key,value, each "
			"optional, in any order: graph (a tree), fractal (a tree of shares of "
			"each parent), flat (each chain in full), "
			"folded (one line per chain); the threshold in percent (default 0.5, "
			"or --percent-limit's); branches per node (default all); caller "
			"(callers first) or callee (leaf first), default caller with "
			"--children or for pipe input, else callee (-g alone: caller); "
			"function (address and srcline are not supported); percent, "
			"period or count; none: no graph.  A file without call chains is an "
			"error, as in perf",
			report_opt_callgraph, "caller", report_cg_words),
		OPT_BOOL('G', "inverted", &r.inverted, "caller order, whatever -g says (perf's)"),
		OPT_INT(0, "max-stack", &r.cg.max_stack, "N",
			"keep N frames of each call chain, as perf: the leaf's side in callee "
			"order, the root's in caller order (the sample's own row stays); 0: "
			"no chains"),
		OPT_CALLBACK(0, "ignore-callees", &r.cg, "regex",
			     "leave out the callees of functions matching REGEX (extended): the "
			     "outermost match in callee order, the innermost in caller order "
			     "becomes the sample's row, as in perf",
			     report_opt_ignore_callees),
		OPT_DOUBLE(0, "graph-threshold", &r.cg.threshold, "P",
			   "hide call graph branches below P percent of the event's total "
			   "(as -g's threshold)"),
		OPT_BOOL(0, "inline", &r.inlines,
			 "expand every call chain frame into its inlined functions (DWARF); by "
			 "default only frames from DWARF unwinding are, as perf does"),
		OPT_BOOL(0, "no-inline", &r.no_inline, "never expand inlined functions"),
		OPT_GROUP("Other outputs"),
		OPT_BOOL(0, "folded", &r.folded,
			 "print folded stacks for flamegraph.pl: 'comm;root;...;leaf count' per "
			 "line, kernel frames suffixed _[k]"),
		OPT_STRING(0, "flamegraph", &r.flamegraph, "file.svg",
			   "write an interactive flame graph (self-contained SVG)"),
		OPT_STRING(0, "title", &r.title, "text", "flame graph title"),
		OPT_DOUBLE(0, "min-width", &r.min_width, "px",
			   "leave out flame graph frames narrower than this (default 0.1)"),
		OPT_STRING(0, "csv-dir", &r.csv_dir, "dir",
			   "write readperf's tables stat.csv, overview.csv, processes.csv and "
			   "results.csv into this directory"),
		OPT_GROUP("Symbols"),
		OPT_STRING(
			0, "symfs", &r.symfs, "dir",
			"look for every binary under this directory (as perf --symfs); the kernel's "
			"symbols only in DIR/[kernel.kallsyms]/<build id>/kallsyms"),
		OPT_CALLBACK(0, "map-path", &r.map_path, "old=new",
			     "read binaries recorded under path prefix OLD from NEW (repeatable)",
			     opt_map_path),
		OPT_STRING(0, "kallsyms", &r.kallsyms, "file",
			   "kernel symbols from this file instead of /proc/kallsyms (used as it is, "
			   "without the kernel build-id check)"),
		OPT_BOOL(0, "no-demangle", &r.no_demangle, "show C++/Rust symbols mangled"),
		OPT_KERNEL_CODE(&r.kcore, &r.vmlinux),
		OPT_END(),
	};
	struct prism_symbols_opts so = { 0 };
	struct prism_tool tool = { 0 };
	int err, ret = 0;
	struct prism_itrace it;
	const char *bad = NULL;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (r.children && r.no_children)
		usage_error(usage, opts, "--children and --no-children cannot be combined");
	if (r.folded + !!r.flamegraph > 1)
		usage_error(usage, opts, "--folded and --flamegraph cannot be combined");
	if (r.itrace &&
	    (prism_itrace__parse(r.itrace, &it, &bad) || report_itrace_unsupported(&it)))
		usage_error(usage, opts, "--itrace %s: %s", r.itrace,
			    bad ? "a letter prism does not know" : report_itrace_unsupported(&it));
	if (r.branch && r.no_branch)
		usage_error(usage, opts, "-b and --no-branch-stack cannot be combined");
	if (r.itrace &&
	    (r.csv_dir || r.comm_list || r.pid_list || r.tid_list || r.event || r.time_str))
		usage_error(usage, opts,
			    "--itrace goes with the text report, --folded and --flamegraph only, "
			    "without filters");
	if (r.percentage && strcmp(r.percentage, "relative") && strcmp(r.percentage, "absolute"))
		usage_error(usage, opts, "--percentage: '%s' is not relative or absolute",
			    r.percentage);
	r.relative = r.percentage && !strcmp(r.percentage, "relative");
	r.children_set = r.children || r.no_children;
	if (r.cg.max_stack < 0)
		usage_error(usage, opts, "--max-stack %d: the number of frames is 0 or more",
			    r.cg.max_stack);
	if (r.inverted && r.cg.mode != CG_NONE)
		r.cg.mode = CG_CALLER;
	if (r.cg.threshold < 0)
		r.cg.threshold = r.percent_limit > 0 ? r.percent_limit : 0.5;
	if ((r.time_str && !prism_time_filter__percent(r.time_str) &&
	     opt_time_filter("--time", r.time_str, NULL, &r.time)) ||
	    parse_ids(r.pid_list, "pid", &r.pids, &r.nr_pids) ||
	    parse_ids(r.tid_list, "tid", &r.tids, &r.nr_tids) ||
	    sample_filter_parse(&r.cpu_sf, NULL)) {
		free_report(&r);
		return EXIT_USAGE;
	}
	split_list(r.comm_list, &r.comms);
	split_list(r.dso_list, &r.dsos);
	split_list(r.sym_list, &r.syms);

	r.s = open_input(r.input, r.force, false);
	if (!r.s) {
		free_report(&r);
		return 1;
	}
	if (prism_time_filter__percent(r.time_str) &&
	    opt_time_filter("--time", r.time_str, r.s, &r.time)) {
		free_report(&r);
		return EXIT_USAGE;
	}
	time_slices = r.time_str;
	ret = sample_filter_open(&r.cpu_sf, r.s, r.input);
	if (ret) {
		free_report(&r);
		return ret;
	}
	if (r.header_only) { /* perf's, then a "#" line */
		ret = print_header(r.s, r.input, true) ? 1 : 0;
		printf("#\n");
		free_report(&r);
		return ret;
	}
	if (r.stats_mode || r.tasks_mode || r.mmaps_mode) {
		ret = report_info(&r);
		free_report(&r);
		return ret;
	}
	/* an Intel PT file without --itrace: perf report's default, without a Children column */
	if (!r.itrace && !r.csv_dir && script_is_pt_file(r.s)) {
		r.itrace = REPORT_PT_DEFAULT;
		prism_itrace__parse(r.itrace, &it, &bad);
		/* perf: callers first, unless --no-children was given */
		if (!r.no_children && r.cg.mode == CG_DEFAULT)
			r.cg.mode = CG_CALLER;
		r.children_set = true;
		r.children = false;
		info("decoding the Intel PT trace with --itrace=" REPORT_PT_DEFAULT
		     " (perf report's default)");
	}
	if (!r.itrace && report_cg_check(&r.cg, r.s, r.input)) {
		free_report(&r);
		return 1;
	}
	r.pt_g = r.itrace && it.callchain;
	so.symfs = r.symfs;
	so.path_map = r.map_path.v;
	so.no_demangle = r.no_demangle;
	so.kallsyms = input_kallsyms(r.s, r.kallsyms, r.kcore);
	r.sy = prism_symbols__new(&so);
	r.tasks = prism_tasks__new();
	if (!r.sy || !r.tasks) {
		ret = error_errno(errno, "cannot set up symbol resolution");
		if (errno == EINVAL)
			hint("--map-path takes OLD=NEW");
		ret = 1;
		goto out;
	}
	err = prism_symbols__set_features(r.sy, prism_session__features(r.s));
	if (err) {
		ret = error_errno(err, "cannot read the build ids of '%s'",
				  r.input ? r.input : "perf.data");
		ret = 1;
		goto out;
	}
	if (r.itrace && input_kernel_code(r.sy, r.s, r.kcore, r.vmlinux)) {
		ret = 1;
		goto out;
	}
	ret = setup_branch_mode(&r, &it, usage, opts);
	if (ret)
		goto out;
	if (setup_key_source(&r)) {
		ret = 1;
		goto out;
	}
	if (r.csv_dir) {
		r.csv = report_csv__open(r.csv_dir);
		if (!r.csv) {
			ret = 1;
			goto out;
		}
	}
	tool.sample = on_sample;
	tool.mmap = on_task;
	tool.comm = on_task;
	tool.fork = on_task;
	tool.exit = on_task;
	tool.other = on_other;
	tool.user = on_other;
	tool.other_all = r.csv != NULL;
	if (r.itrace) {
		if (!pt_decode(r.s, r.sy, r.tasks, &it, r.input, pt_sample, &r))
			goto output;
		ret = 1;
		goto out;
	}
	err = prism_session__process(r.s, &tool, &r);
	if (report_process_result(r.s, r.input, err))
		ret = 1;
	report_pt_pipe_hint(r.s);
	/* perf report says "has no samples!"; the reads are perf script's (and prism script's) */
	if ((prism_session__file_info(r.s)->features[0] & (1ull << PRISM_FEAT_STAT) ||
	     prism_session__stats(r.s)->nr_records[PRISM_RECORD_STAT]) &&
	    !prism_session__stats(r.s)->nr_records[PERF_RECORD_SAMPLE]) {
		error("'%s' holds the counter reads of 'perf stat record', no samples to report",
		      r.input ? r.input : "perf.data");
		hint("prism script -i %s prints the reads (CPU THREAD VAL ENA RUN TIME EVENT)",
		     r.input ? r.input : "perf.data");
		ret = 1;
		goto out;
	}
	if (r.event && !any_profile(&r)) {
		size_t i;

		error("no samples of an event named '%s' in '%s'", r.event,
		      r.input ? r.input : "perf.data");
		for (i = 0; i < prism_session__nr_evsels(r.s); i++)
			hint("the file has event '%s'",
			     prism_evsel__name(prism_session__evsel(r.s, i)));
		ret = 1;
		goto out;
	}
output:
	if (r.folded) {
		if (write_folded(&r))
			ret = 1;
	} else if (r.flamegraph) {
		if (write_flamegraph(&r))
			ret = 1;
	} else if (!r.csv_dir || r.stdio) {
		ret |= print_report(&r);
	}
	warn_unwind_stops(r.sy);
	if (r.csv) {
		const char **names = xcalloc(r.nr_evsels + 1, sizeof(*names));
		size_t i;

		for (i = 0; i < r.nr_evsels; i++)
			names[i] = prism_evsel__name(prism_session__evsel(r.s, i));
		if (report_csv__finish(r.csv, r.s, r.profiles, names, r.nr_evsels))
			ret = 1;
		free(names);
	}
out:
	free_report(&r);
	return ret;
}
