// SPDX-License-Identifier: MIT
/*
 * prism report's columns: each sort key's header and text, their widths,
 * and a section's table in perf report --stdio's layout.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <prism/error.h>
#include <prism/profile.h>
#include <prism/strbuf.h>
#include <prism/task.h>

#include "cmd.h"
#include "report.h"

static void sym_text(const struct prism_hist_entry *e, char *buf, size_t len)
{
	if (e->sym)
		snprintf(buf, len, "[%c] %s%s", e->kernel ? 'k' : '.', e->sym,
			 e->inlined ? " (inlined)" : "");
	else if (!e->ip) /* printf's %#x prints no 0x for zero; perf shows that */
		snprintf(buf, len, "[%c] %016x", e->kernel ? 'k' : '.', 0);
	else
		snprintf(buf, len, "[%c] 0x%016" PRIx64, e->kernel ? 'k' : '.', e->ip);
}

/* the text of column @key for row @e */
static void col_text(const struct report *r, enum prism_sort_key key,
		     const struct prism_hist_entry *e, char *buf, size_t len)
{
	const char *comm;

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
	case PRISM_SORT_DSO:
		snprintf(buf, len, "%s", e->dso ? e->dso : "[unknown]");
		break;
	case PRISM_SORT_SYM:
		sym_text(e, buf, len);
		break;
	case PRISM_SORT_SRCLINE:
		snprintf(buf, len, "%s", e->srcline ? e->srcline : "??:0");
		break;
	case PRISM_SORT_CPU: /* perf: at least 3 digits, -001 for a sample without a CPU */
		snprintf(buf, len, "%.3d", (int)e->cpu);
		break;
	default:
		buf[0] = '\0';
	}
}

static const char *col_header(enum prism_sort_key key)
{
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
	case PRISM_SORT_CPU:
		return "CPU";
	default:
		return "";
	}
}

static bool row_visible(struct report *r, const struct prism_hist_entry *e, uint64_t total,
			bool children)
{
	uint64_t v = children ? e->children : e->self;

	if (r->dsos.nr && !in_list(&r->dsos, e->dso))
		return false;
	if (r->syms.nr && !in_list(&r->syms, e->sym))
		return false;
	if (r->percent_limit > 0 && total && 100.0 * (double)v / (double)total < r->percent_limit)
		return false;
	return v > 0;
}

/* perf hides a column whose filter allows one value only (sort__setup_elide) */
static bool elided(const struct report *r, enum prism_sort_key key)
{
	if (r->nr_keys < 2)
		return false;
	return (key == PRISM_SORT_COMM && r->comms.nr == 1) ||
	       (key == PRISM_SORT_DSO && r->dsos.nr == 1) ||
	       (key == PRISM_SORT_SYM && r->syms.nr == 1);
}
void report_print_section(struct report *r, const char *name, struct prism_profile *p,
			  bool children, bool graph, bool caller)
{
	struct prism_strbuf out = STRBUF_INIT;
	struct prism_hist_entry *e;
	size_t n, i, k, w[PRISM_SORT__MAX];
	uint64_t total = prism_profile__total_period(p);
	size_t samples_w = 12; /* perf's width */
	char buf[1024];

	if (prism_profile__entries(p, r->keys, r->nr_keys, children, &e, &n)) {
		error("out of memory building the report");
		return;
	}
	if (graph &&
	    prism_profile__callgraphs(p, caller,
				      (uint64_t)ceil((double)total * r->graph_threshold / 100.0))) {
		error("out of memory building the call graphs");
		return;
	}
	for (k = 0; k < r->nr_keys; k++)
		w[k] = strlen(col_header(r->keys[k]));
	for (i = 0; i < n; i++) {
		if (!row_visible(r, &e[i], total, children))
			continue;
		for (k = 0; k < r->nr_keys; k++) {
			col_text(r, r->keys[k], &e[i], buf, sizeof(buf));
			/* perf: the comm column fits the last name of each row's thread */
			if (r->keys[k] == PRISM_SORT_COMM &&
			    prism_tasks__comm(r->tasks, e[i].thread))
				snprintf(buf, sizeof(buf), "%s",
					 prism_tasks__comm(r->tasks, e[i].thread));
			if (strlen(buf) > w[k])
				w[k] = strlen(buf);
			/* perf: an unresolved row widens symbol and DSO to an address's width */
			if (!e[i].sym && r->keys[k] == PRISM_SORT_SYM && w[k] < 22)
				w[k] = 22;
			if (!e[i].sym && r->keys[k] == PRISM_SORT_DSO && w[k] < 16 && !r->dsos.nr)
				w[k] = 16;
		}
		snprintf(buf, sizeof(buf), "%" PRIu64, e[i].nr_samples);
		if (strlen(buf) > samples_w)
			samples_w = strlen(buf);
	}
	report_samples_header(prism_profile__nr_samples(p), total, name);

	/* column headers and the dotted line under them */
	printf("#");
	printf(children ? " Children      Self" : " Overhead");
	if (r->show_nr)
		printf("  %*s", (int)samples_w, "Samples");
	for (k = 0; k < r->nr_keys; k++)
		if (!elided(r, r->keys[k]))
			printf("  %-*s", (int)w[k], col_header(r->keys[k]));
	printf("\n#");
	printf(children ? " ........  ........" : " ........");
	if (r->show_nr) {
		printf("  ");
		for (i = 0; i < samples_w; i++)
			putchar('.');
	}
	for (k = 0; k < r->nr_keys; k++) {
		if (elided(r, r->keys[k]))
			continue;
		printf("  ");
		for (i = 0; i < w[k]; i++)
			putchar('.');
	}
	printf("\n#\n");

	for (i = 0; i < n; i++) {
		if (!row_visible(r, &e[i], total, children))
			continue;
		prism_strbuf_reset(&out);
		if (children)
			report_percent(&out, e[i].children, total);
		report_percent(&out, e[i].self, total);
		if (r->show_nr)
			prism_strbuf_addf(&out, "  %*" PRIu64, (int)samples_w, e[i].nr_samples);
		for (k = 0; k < r->nr_keys; k++) {
			if (elided(r, r->keys[k]))
				continue;
			col_text(r, r->keys[k], &e[i], buf, sizeof(buf));
			if (r->keys[k] == PRISM_SORT_COMM && strlen(buf) > w[k])
				buf[w[k]] = '\0'; /* a name longer than its thread's last one */
			/* perf pads every column to its width but a symbol or source line */
			if (k + 1 == r->nr_keys &&
			    (r->keys[k] == PRISM_SORT_SYM || r->keys[k] == PRISM_SORT_SRCLINE))
				prism_strbuf_addf(&out, "  %s", buf);
			else
				prism_strbuf_addf(&out, "  %-*s", (int)w[k], buf);
		}
		prism_strbuf_addch(&out, '\n');
		if (graph && (children ? e[i].children : e[i].self) >=
				     (uint64_t)ceil((double)total * r->graph_threshold / 100.0))
			report_print_graph(p, i, caller, total, r->graph_threshold,
					   /* perf: the row's own symbol first, not shown twice */
					   r->sort && !strncmp(r->sort, "sym", 3), &out);
		fwrite(out.buf, 1, out.len, stdout);
	}
	printf("\n\n");
	prism_strbuf_release(&out);
}

