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
	if (ev->type == PERF_RECORD_READ && r->threads)
		return report_threads__read(r, ev);
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

static int sample_one(void *ctx, const struct prism_event *ev)
{
	struct report *r = ctx;
	const struct prism_sample *s = &ev->sample;
	uint64_t period = prism_sample__period(ev);
	struct prism_profile *p;
	const char *comm;
	bool chain, nochain, pipe, hidden, unwound, self_inl;
	struct prism_frame self;
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
	if (r->socket_filter >= 0) /* perf filters the rows by their first sample's socket */
		prism_profile__set_filtered(p, report_sample_socket(r, ev) != r->socket_filter);
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
	/* perf: a sample address in inlined code has its symbol's row, its chain the inlined frames */
	self_inl = unwound && r->cc.frames[0].kind == PRISM_FRAME_INLINED &&
		   r->cc.frames[0].ip == s->ip;
	if (self_inl)
		prism_symbols__resolve(r->sy, s->pid, ev->raw->misc & PRISM_MISC_CPUMODE_MASK,
				       s->ip, &self);
	return report_cg_add(&r->cg,
			     report_cg_caller(&r->cg, r->children_set ? r->children : !pipe, pipe,
					      r->no_children),
			     p, comm, s->pid, s->tid, s->cpu, period, r->cc.frames, r->cc.nr,
			     unwound, r->cc.nr_recorded, self_inl ? &self : NULL);
}

/*
 * perf's leader sampling (PERF_SAMPLE_READ of a group): a sample of each
 * event of the group whose count grew, its period the growth
 */
static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct report *r = ctx;

	if (r->csv)
		report_csv__record(r->csv, ev, prism_sample__period(ev));
	if (!r->reads)
		r->reads = prism_group_reads__new();
	if (!r->reads)
		return -ENOMEM;
	return prism_group_reads__split(r->reads, r->s, ev, sample_one, r);
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

/* --time's text: perf names the time slices after the event; --socket-filter's */
static const char *time_slices;
static int socket_shown = -1;

void report_samples_header(uint64_t nr_samples, uint64_t total, const char *name, bool events)
{
	char unit;
	unsigned long ns = convert_unit((unsigned long)nr_samples, &unit);

	printf("# Samples: %lu%c of event%s '%s'", ns, unit, events ? "s" : "", name);
	if (time_slices)
		printf(" (time slices: %s)", time_slices);
	printf("\n");
	printf("# Event count (approx.): %" PRIu64 "\n", total);
	if (socket_shown >= 0)
		printf("# Processor Socket: %d\n", socket_shown);
	printf("#\n");
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
	if (r->hierarchy) /* perf: no Children column, the graphs' order as if there were */
		children = false;

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
		if (r->tp_fields) /* the columns of the section's (its leader's) event's fields */
			report_tpf_setup(r,
					 prism_session__evsel(r->s, g && !r->no_group && !children ?
									    g->leader_idx :
									    i));
		if (g && g->leader_idx != i && !r->no_group && !children)
			continue; /* a member: in its leader's section */
		if (g && !r->no_group && !children && r->tp_fields) {
			error("--raw-trace: the group view of '%s' with perf's columns per field "
			      "is not supported",
			      g->name ? g->name : "{anon_group}");
			hint("--no-group: a section per event; --sort trace: the fields as one "
			     "column");
			ret = 1;
			continue;
		}
		if (g && !r->no_group && !children && r->hierarchy) {
			if (report_print_group_hierarchy(r, i, g->nr_members, g->name))
				ret = 1;
			continue;
		}
		if (g && !r->no_group && !children) {
			if (report_print_group(r, i, g->nr_members, g->name))
				ret = 1;
			continue;
		}
		/*
		 * perf: an explicit --no-group on a file without groups makes the
		 * first event the leader of all (its "of events")
		 */
		r->leader = g ? g->leader_idx == i :
				r->no_group && !r->itrace && i == 0 && !group_of(r, 0) &&
					    prism_session__nr_evsels(r->s) > 1;
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
	prism_profile__set_verbose(p, verbose > 0); /* -v: rows' addresses, long DSO names */
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
static int setup_branch_mode(struct report *r, const struct prism_itrace *it)
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
		usage_error(report_usage, NULL,
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
	if (i == r->nr_keys + r->nr_fkeys && r->socket_filter < 0)
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
	prism_group_reads__free(r->reads);
	r->reads = NULL;
	report_threads__free(r);
	sample_filter_release(&r->cpu_sf);
	prism_time_filter__release(&r->time);
	strlist_release(&r->syms);
}

int cmd_report(int argc, const char **argv)
{
	struct report r = { .cg.threshold = -1,
			    .socket_filter = -1,
			    .cg.max_stack = INT_MAX,
			    .min_width = 0.1,
			    .time_quantum = 100000000 };
	struct prism_symbols_opts so = { 0 };
	struct prism_tool tool = { 0 };
	int err, ret = 0;
	struct prism_itrace it;
	const char *bad = NULL;

	ret = report_parse_options(&r, argc, argv, &it);
	if (ret) {
		free_report(&r);
		return ret;
	}

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
	socket_shown = r.socket_filter;
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
	so.demangle_params = verbose > 0; /* perf -v: C++ parameter lists */
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
	ret = setup_branch_mode(&r, &it);
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
		if (r.threads)
			report_threads__print(&r);
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
