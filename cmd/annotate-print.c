// SPDX-License-Identifier: MIT
/*
 * prism annotate's output, perf annotate --stdio's (perf 6.1):
 *
 *	 Percent |	Source code & Disassembly of workload for cpu-clock (128 samples, percent: local period)
 *	-----------------------------------------------------------------------------------------------
 *	         : 5    0000000000001179 <leaf_a>:
 *	    0.00 :   1179:   mov    %rdi,%rax
 *	   78.12 :   1199:   add    %rcx,%rax
 *
 * a text line shows perf's line counter, an instruction its share, address
 * and objdump's text.  -l puts a summary of the hot source lines first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/annotate.h>
#include <prism/error.h>
#include <prism/evsel.h>
#include <prism/features.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "annotate.h"
#include "cmd.h"

#define MIN_GREEN 0.5 /* perf: lines above it get a file:line with -l */

struct src_sum {
	char *path;
	double *pct; /* one per event */
};

static size_t sum_nr; /* the events of the sums being sorted */

static int cmp_path_desc(const void *a, const void *b)
{
	return strcmp(((const struct src_sum *)b)->path, ((const struct src_sum *)a)->path);
}

/*
 * perf's order: by the first event's share, descending, then the next
 * one's...; equal shares keep the order of their paths, descending
 */
static int cmp_sum(const void *pa, const void *pb)
{
	const struct src_sum *a = pa, *b = pb;
	size_t j;

	for (j = 0; j < sum_nr; j++)
		if (a->pct[j] != b->pct[j])
			return a->pct[j] > b->pct[j] ? -1 : 1;
	return strcmp(b->path, a->path);
}

/* an instruction's largest share over the listing's events */
static double max_pct(const struct annotate_cmd *c, const struct prism_annotate_listing *l,
		      const struct prism_annotate_line *ln)
{
	double m = 0;
	size_t j;

	for (j = 0; j < l->nr_events; j++)
		if (ln->v[j].percent[c->percent_type] > m)
			m = ln->v[j].percent[c->percent_type];
	return m;
}

/*
 * -l: each hot line's file:line (lines above 0.5% in one of the events),
 * and the summary of them by file:line; @paths[i] for line i (NULL for none)
 */
static void print_summary(struct annotate_cmd *c, const struct prism_annotate_sym *s,
			  const struct prism_annotate_listing *l, char **paths)
{
	struct src_sum *sum = xcalloc(l->nr + 1, sizeof(*sum));
	double *pcts = xcalloc((l->nr + 1) * l->nr_events, sizeof(*pcts));
	size_t i, j, k, nr = 0;

	for (i = 0; i < l->nr; i++) {
		const struct prism_annotate_line *ln = &l->lines[i];
		struct prism_strbuf sb = STRBUF_INIT;

		if (ln->offset < 0 || max_pct(c, l, ln) <= MIN_GREEN)
			continue;
		prism_annotate__srcline(c->a, s, ln->addr, c->full_paths, &sb);
		paths[i] = prism_strbuf_detach(&sb, NULL);
		for (j = 0; j < nr && strcmp(sum[j].path, paths[i]); j++)
			;
		if (j == nr) {
			sum[nr].path = paths[i];
			sum[nr++].pct = &pcts[j * l->nr_events];
		}
		for (k = 0; k < l->nr_events; k++)
			sum[j].pct[k] += ln->v[k].percent[c->percent_type];
	}
	qsort(sum, nr, sizeof(*sum), cmp_path_desc);
	sum_nr = l->nr_events;
	qsort(sum, nr, sizeof(*sum), cmp_sum);
	printf("\nSorted summary for file %s\n", s->dso_path ? s->dso_path : s->dso_name);
	printf("----------------------------------------------\n\n");
	if (!nr)
		printf(" Nothing higher than %1.1f%%\n", MIN_GREEN);
	for (i = 0; i < nr; i++) {
		const char *col = "";
		double m = 0;

		for (k = 0; k < l->nr_events; k++) {
			col = percent_color(sum[i].pct[k]);
			printf("%s %7.2f%s", col, sum[i].pct[k], *col ? COLOR_RESET : "");
			if (sum[i].pct[k] > m)
				m = sum[i].pct[k];
		}
		col = percent_color(m);
		/* perf's color_fprintf() resets after the newline */
		printf("%s %s\n%s", col, sum[i].path, *col ? COLOR_RESET : "");
	}
	free(pcts);
	free(sum);
}

static void print_header(struct annotate_cmd *c, const struct prism_annotate_sym *s,
			 const char *evname, uint64_t nr_samples, size_t nr_events)
{
	const char *label = c->show_period ? "Period" : c->show_nr ? "Samples" : "Percent";
	const char *dso = s->dso_path ? s->dso_path : s->dso_name, *base = strrchr(dso, '/');
	int width = (c->show_period ? 12 : 8) * (int)nr_events, n;

	if (!c->full_paths && base)
		dso = base + 1;
	n = printf(" %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64
		   " samples, percent: %s)\n",
		   width, width, label, dso, evname, nr_samples,
		   prism_percent_type__str(c->percent_type));
	/* perf draws the rule as long as the line it printed, newline included, and 4 more */
	for (n += 4; n > 0; n--)
		putchar('-');
	putchar('\n');
}

/* @nr_samples: the samples of the symbol in the first event, the header's */
static void print_listing(struct annotate_cmd *c, const struct prism_annotate_sym *s,
			  const char *evname, uint64_t nr_samples,
			  const struct prism_annotate_listing *l)
{
	char **paths = xcalloc(l->nr + 1, sizeof(*paths));
	int width = (c->show_period ? 12 : 8) * (int)l->nr_events;
	size_t i, j;

	if (c->print_line)
		print_summary(c, s, l, paths);
	print_header(c, s, evname, nr_samples, l->nr_events);
	for (i = 0; i < l->nr; i++) {
		const struct prism_annotate_line *ln = &l->lines[i];
		const char *col = "";

		if (ln->offset < 0) {
			if (!*ln->text)
				printf(" %*s:\n", width, " ");
			else
				printf(" %*s: %-*d %s\n", width, " ", l->addr_width, ln->line_nr,
				       ln->text);
			continue;
		}
		for (j = 0; j < l->nr_events; j++) {
			const struct prism_annotate_value *v = &ln->v[j];

			col = percent_color(v->percent[c->percent_type]);
			if (c->show_period)
				printf("%s %11" PRIu64 "%s", col, v->period,
				       *col ? COLOR_RESET : "");
			else if (c->show_nr)
				printf("%s %7" PRIu64 "%s", col, v->nr_samples,
				       *col ? COLOR_RESET : "");
			else
				printf("%s %7.2f%s", col, v->percent[c->percent_type],
				       *col ? COLOR_RESET : "");
		}
		/* perf colors the address magenta, the instruction blue */
		if (use_color_stdout)
			printf(" : \033[35m  %*" PRIx64 ":" COLOR_RESET "\033[34m%s" COLOR_RESET,
			       l->addr_width, ln->addr, ln->text);
		else
			printf(" :   %*" PRIx64 ":%s", l->addr_width, ln->addr, ln->text);
		/* perf: a line's file:line when it differs from the last one shown, in any symbol */
		if (paths[i] && (!c->last_path || strcmp(c->last_path, paths[i]))) {
			printf("%s // %s%s", col, paths[i], *col ? COLOR_RESET : "");
			free(c->last_path);
			c->last_path = xstrdup(paths[i]);
		}
		putchar('\n');
	}
	for (i = 0; i < l->nr; i++)
		free(paths[i]);
	free(paths);
}

/* the build id the file's header records for @name, "" when none */
static void header_build_id(struct annotate_cmd *c, const char *name, char *hex, size_t len)
{
	const struct prism_feat_build_ids *ids =
		prism_features__build_ids(prism_session__features(c->s));
	size_t i, k;

	*hex = '\0';
	for (i = 0; ids && name && i < ids->nr; i++) {
		const struct prism_feat_build_id *e = &ids->entries[i];

		if (!e->filename || strcmp(e->filename, name))
			continue;
		for (k = 0; k < e->size && 2 * k + 2 < len; k++)
			snprintf(hex + 2 * k, 3, "%02x", e->build_id[k]);
		return;
	}
}

/* why a symbol's code cannot be shown; the DSO is skipped after it, as perf does */
static void cannot_annotate(struct annotate_cmd *c, const struct prism_annotate_sym *s, int err)
{
	char bid[80];

	if (!prism_dso__build_id(s->dso, bid, sizeof(bid)) || !*bid)
		header_build_id(c, s->dso_name, bid, sizeof(bid));
	if (!*bid)
		snprintf(bid, sizeof(bid), "unknown");
	if (err == -PRISM_E_UNSUPPORTED) {
		error("cannot annotate '%s': prism was built without libcapstone", s->name);
		hint("install libcapstone-dev and rebuild prism");
	} else if (s->kernel) {
		error("cannot annotate '%s' in %s: no kernel code (a vmlinux with build id %s)",
		      s->name, s->dso_name, bid);
		hint("give it with -k/--vmlinux FILE; the DSO's other symbols are left out");
	} else if (err == -ENOENT || err == -EIO) {
		error("cannot annotate '%s': the binary of %s (build id %s) was not found or is "
		      "short",
		      s->name, s->dso_path ? s->dso_path : s->dso_name, bid);
		hint("--symfs DIR looks for it under DIR; 'prism archive' packs a file's binaries "
		     "where it was recorded, for ~/.debug here");
	} else {
		error_errno(err, "cannot annotate '%s'", s->name);
	}
}

static bool in_warned(struct prism_dso **warned, size_t nr, const struct prism_dso *dso)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (warned[i] == dso)
			return true;
	return false;
}

/* the samples in DSOs whose binary is missing: nothing of them could be resolved */
static void report_missing(struct annotate_cmd *c, bool none_shown)
{
	struct prism_dso *dso;
	uint64_t nr;
	size_t i;
	char bid[80];

	for (i = 0; (dso = prism_annotate__missing(c->a, i, &nr)); i++) {
		char what[160];

		if (!prism_dso__build_id(dso, bid, sizeof(bid)) || !*bid)
			header_build_id(c, prism_dso__path(dso), bid, sizeof(bid));
		if (*bid)
			snprintf(what, sizeof(what), "its binary (build id %s) was not found", bid);
		else
			snprintf(what, sizeof(what),
				 "its binary was not found (the file records no build id for it)");
		if (none_shown)
			error("%" PRIu64 " samples in %s cannot be annotated: %s", nr,
			      prism_dso__path(dso), what);
		else
			warning("%" PRIu64 " samples in %s cannot be annotated: %s", nr,
				prism_dso__path(dso), what);
	}
	if (i)
		hint("--symfs DIR looks for binaries under DIR; 'prism archive' packs a file's "
		     "binaries where it was recorded, for ~/.debug here");
}

/*
 * The sections perf prints, in the file's event order: a group of events
 * (GROUP_DESC: perf's default group view) as one, with a column per event,
 * other events alone; -e's event alone.  @name gets the section's name.
 * Return: the number of events in @evs (0: @ev is a member, in its leader's).
 */
static size_t section_of(struct annotate_cmd *c, size_t ev, size_t *evs, struct prism_strbuf *name)
{
	const struct prism_feat_group_desc *gd =
		prism_features__group_desc(prism_session__features(c->s));
	size_t nr_ev = prism_session__nr_evsels(c->s), g, j;

	prism_strbuf_reset(name);
	for (g = 0; gd && !c->event && g < gd->nr; g++) {
		const struct prism_feat_group *grp = &gd->groups[g];

		if (grp->nr_members < 2 || ev < grp->leader_idx ||
		    ev >= (size_t)grp->leader_idx + grp->nr_members ||
		    (size_t)grp->leader_idx + grp->nr_members > nr_ev)
			continue;
		if (ev != grp->leader_idx)
			return 0;
		prism_strbuf_addstr(name, !grp->name || !strcmp(grp->name, "{anon_group}") ?
						  "anon group" :
						  grp->name);
		for (j = 0; j < grp->nr_members; j++) {
			evs[j] = ev + j;
			prism_strbuf_addf(name, "%s%s", j ? ", " : " { ",
					  prism_evsel__name(prism_session__evsel(c->s, ev + j)));
		}
		prism_strbuf_addstr(name, " }");
		return grp->nr_members;
	}
	evs[0] = ev;
	prism_strbuf_addstr(name, prism_evsel__name(prism_session__evsel(c->s, ev)));
	return 1;
}

int annotate_print(struct annotate_cmd *c)
{
	struct prism_annotate_opts o = { .source = c->source, .asm_raw = c->asm_raw };
	size_t nr_ev = prism_session__nr_evsels(c->s), ev, i, j, nr_warned = 0, shown = 0;
	size_t *evs = xcalloc(nr_ev + 1, sizeof(*evs));
	struct prism_strbuf name = STRBUF_INIT;
	struct prism_dso **warned = NULL;
	uint64_t total_n = 0;
	int ret = 0;

	for (ev = 0; ev < nr_ev; ev++) {
		const struct prism_annotate_sym *const *syms;
		uint64_t nr_samples, period, n = 0;
		size_t nr, nr_evs = section_of(c, ev, evs, &name);

		prism_annotate__totals(c->a, ev, &nr_samples, &period);
		total_n += nr_samples;
		for (j = 0; j < nr_evs; j++) {
			uint64_t sn, sp;

			prism_annotate__totals(c->a, evs[j], &sn, &sp);
			n += sn;
		}
		if (!n ||
		    (nr_evs == 1 ? prism_annotate__symbols(c->a, ev, &syms, &nr) :
				   prism_annotate__group_symbols(c->a, evs, nr_evs, &syms, &nr)))
			continue;
		for (i = 0; i < nr; i++) {
			const struct prism_annotate_sym *s = syms[i];
			const struct prism_annotate_sym *first =
				prism_annotate__sym_of(c->a, ev, s);
			struct prism_annotate_listing l;
			int err;

			if (in_warned(warned, nr_warned, s->dso))
				continue;
			/* perf: the share of the first event's period */
			if (c->percent_limit > 0 &&
			    (!period || !first ||
			     100.0 * first->period / period < c->percent_limit))
				continue;
			err = prism_annotate__listing(c->a, evs, nr_evs, s, &o, &l);
			if (err) {
				cannot_annotate(c, s, err);
				warned = xrealloc(warned, (nr_warned + 1) * sizeof(*warned));
				warned[nr_warned++] = s->dso;
				ret = 1;
				continue;
			}
			print_listing(c, s, name.buf, first ? first->nr_samples : 0, &l);
			prism_annotate_listing__release(&l);
			shown++;
		}
	}
	free(evs);
	prism_strbuf_release(&name);
	free(warned);
	free(c->last_path);
	c->last_path = NULL;
	report_missing(c, !shown);
	if (!total_n) {
		if (c->symbol) {
			error("no samples of symbol '%s' in '%s'", c->symbol, c->input);
			hint("'prism report -i %s --sort dso,sym' lists the symbols with samples",
			     c->input);
		} else
			error("'%s' has no samples%s", c->input, c->event ? " of that event" : "");
		return 1;
	}
	if (!shown) {
		if (c->symbol || !ret)
			error("nothing to annotate in '%s'%s%s%s", c->input,
			      c->symbol ? " for symbol '" : "", c->symbol ? c->symbol : "",
			      c->symbol ? "'" : "");
		return 1;
	}
	/* perf goes on after symbols it cannot annotate and exits 0 */
	return 0;
}
