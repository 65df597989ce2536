// SPDX-License-Identifier: MIT
/*
 * prism offcpu's output: the function, task, stack and long-block tables,
 * the combined on+off-CPU view, the loss counters, and the flame graph.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evsel.h>
#include <prism/offcpu-data.h>
#include <prism/offcpu.h>
#include <prism/profile.h>
#include <prism/session.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "cmd.h"
#include "offcpu.h"

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

static const char *row_name(const struct prism_hist_entry *e, char *buf, size_t len)
{
	if (e->sym)
		return e->sym;
	snprintf(buf, len, "%#" PRIx64, e->ip);
	return buf;
}

/* the children period of the row named like @e in @p's function rows */
static uint64_t lookup_children(struct prism_hist_entry *rows, size_t nr,
				const struct prism_hist_entry *e)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (e->sym ? (rows[i].sym && !strcmp(rows[i].sym, e->sym)) :
			     (!rows[i].sym && rows[i].ip == e->ip)) {
			if ((e->dso == NULL) == (rows[i].dso == NULL) &&
			    (!e->dso || !strcmp(e->dso, rows[i].dso)))
				return rows[i].children;
		}
	}
	return 0;
}

/*
 * Kernel frames every off-CPU kernel stack goes through (the scheduler, the
 * syscall entry): at 100% they would push the useful rows out
 */
static bool is_plumbing(const struct prism_hist_entry *e)
{
	static const char *const names[] = {
		"__schedule",
		"schedule",
		"schedule_idle",
		"preempt_schedule",
		"preempt_schedule_common",
		"preempt_schedule_irq",
		"do_syscall_64",
		"entry_SYSCALL_64",
		"entry_SYSCALL_64_after_hwframe",
		"__traceiter_sched_switch",
	};
	size_t i;

	if (!e->sym || !e->dso || e->dso[0] != '[' || strncmp(e->dso, "[kernel", 7))
		return false;
	for (i = 0; i < PRISM_ARRAY_SIZE(names); i++)
		if (!strcmp(e->sym, names[i]))
			return true;
	return false;
}

static int print_functions(struct offcpu *o)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM, PRISM_SORT_DSO };
	struct prism_hist_entry *rows, *sr[ST_NR] = { 0 };
	size_t nr, snr[ST_NR] = { 0 }, i, k, shown = 0, left_out = 0;
	bool split = !o->unknown_state && o->method == M_BPF;
	char buf[32];
	int err;

	for (k = 0; split && k < ST_NR; k++) {
		err = prism_profile__entries(o->st[k], keys, 2, true, &sr[k], &snr[k]);
		if (err)
			return err;
	}
	err = prism_profile__entries(o->all, keys, 2, true, &rows, &nr);
	if (err)
		return err;
	printf("\n# Off-CPU time by function (inclusive: blocked in it or in what it called)\n");
	if (split)
		printf("#  total ms       %%       S ms       D ms   other ms  function [dso]\n");
	else
		printf("#  total ms       %%  function [dso]\n");
	for (i = 0; i < nr && shown < o->limit; i++) {
		const struct prism_hist_entry *e = &rows[i];

		if (!o->all_functions && is_plumbing(e)) {
			left_out++;
			continue;
		}
		shown++;
		printf("%11.3f %6.2f%%", (double)e->children / 1e6, pct(e->children, o->off_ns));
		if (split)
			for (k = 0; k < ST_NR; k++)
				printf(" %10.3f", (double)lookup_children(sr[k], snr[k], e) / 1e6);
		printf("  %s [%s]\n", row_name(e, buf, sizeof(buf)), e->dso ? e->dso : "?");
	}
	for (; i < nr; i++)
		if (!o->all_functions && is_plumbing(&rows[i]))
			left_out++;
	if (nr - left_out > shown)
		printf("# ... %zu more (--limit)\n", nr - left_out - shown);
	if (left_out)
		printf("# %zu scheduler and syscall-entry functions left out (--all-functions)\n",
		       left_out);
	return 0;
}

static int print_tasks(struct offcpu *o)
{
	/*
	 * a row per thread, as the state columns are summed: a thread seen
	 * under two comms (exec, prctl) is one task, shown with its last comm
	 */
	static const enum prism_sort_key keys[] = { PRISM_SORT_PID, PRISM_SORT_TID };
	struct prism_hist_entry *rows, *sr[ST_NR] = { 0 };
	size_t nr, snr[ST_NR] = { 0 }, i, j, k;
	bool split = !o->unknown_state && o->method == M_BPF;
	const char *comm;
	int err;

	for (k = 0; split && k < ST_NR; k++) {
		err = prism_profile__entries(o->st[k], keys, 2, false, &sr[k], &snr[k]);
		if (err)
			return err;
	}
	err = prism_profile__entries(o->all, keys, 2, false, &rows, &nr);
	if (err)
		return err;
	printf("\n# Off-CPU time by task\n");
	if (split)
		printf("#  total ms       %%       S ms       D ms   other ms  command pid/tid\n");
	else
		printf("#  total ms       %%  command pid/tid\n");
	for (i = 0; i < nr && i < o->limit; i++) {
		const struct prism_hist_entry *e = &rows[i];

		printf("%11.3f %6.2f%%", (double)e->self / 1e6, pct(e->self, o->off_ns));
		for (k = 0; split && k < ST_NR; k++) {
			uint64_t v = 0;

			for (j = 0; j < snr[k]; j++)
				if (sr[k][j].tid == e->tid && sr[k][j].pid == e->pid)
					v += sr[k][j].self;
			printf(" %10.3f", (double)v / 1e6);
		}
		comm = prism_tasks__comm(o->tasks, e->tid);
		if (!comm)
			comm = e->comm;
		printf("  %s %u/%u\n", comm ? comm : "?", e->pid, e->tid);
	}
	if (nr > o->limit)
		printf("# ... %zu more (--limit)\n", nr - o->limit);
	return 0;
}

struct stack_line {
	char *text; /* folded: "comm-pid/tid;root;...;leaf" */
	uint64_t ns;
	int cls;
};

static int cmp_stack(const void *a, const void *b)
{
	const struct stack_line *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : strcmp(x->text, y->text);
}

static void collect_stacks(struct prism_profile *p, int cls, struct stack_line **v, size_t *nr,
			   size_t *cap)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	prism_profile__write_folded(
		p, m, PRISM_FOLDED_PERIOD | PRISM_FOLDED_TID | PRISM_FOLDED_KERNEL_SUFFIX);
	fclose(m);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');

		if (!sp)
			continue;
		*sp = 0;
		if (*nr == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*v = xrealloc(*v, *cap * sizeof(**v));
		}
		(*v)[*nr].text = xstrdup(line);
		(*v)[*nr].ns = strtoull(sp + 1, NULL, 10);
		(*v)[*nr].cls = cls;
		(*nr)++;
	}
	free(buf);
}

static void print_stacks(struct offcpu *o)
{
	static const char *const names[ST_NR] = { "S", "D", "other" };
	bool split = !o->unknown_state && o->method == M_BPF;
	struct stack_line *v = NULL;
	size_t nr = 0, cap = 0, i, k;

	if (split)
		for (k = 0; k < ST_NR; k++)
			collect_stacks(o->st[k], (int)k, &v, &nr, &cap);
	else
		collect_stacks(o->all, -1, &v, &nr, &cap);
	if (nr)
		qsort(v, nr, sizeof(*v), cmp_stack);
	printf("\n# Off-CPU time by stack (leaf first)\n");
	for (i = 0; i < nr; i++) {
		char *semi, *task = v[i].text, *frames;

		if (i < o->limit) {
			frames = strchr(task, ';');
			if (frames)
				*frames++ = 0;
			if (v[i].cls >= 0)
				printf("%11.3f ms %6.2f%%  state %s  %s\n", (double)v[i].ns / 1e6,
				       pct(v[i].ns, o->off_ns), names[v[i].cls], task);
			else
				printf("%11.3f ms %6.2f%%  %s\n", (double)v[i].ns / 1e6,
				       pct(v[i].ns, o->off_ns), task);
			while (frames && *frames) {
				const char *fr;
				size_t fl;

				semi = strrchr(frames, ';');
				fr = semi ? semi + 1 : frames;
				fl = strlen(fr);
				/* the folded "_[k]" kernel suffix reads better as " [k]" */
				if (fl > 4 && !strcmp(fr + fl - 4, "_[k]"))
					printf("\t%.*s [k]\n", (int)(fl - 4), fr);
				else
					printf("\t%s\n", fr);
				if (!semi)
					break;
				*semi = 0;
			}
		}
		free(v[i].text);
	}
	if (nr > o->limit)
		printf("# ... %zu more (--limit)\n", nr - o->limit);
	free(v);
}

static int cmp_block(const void *a, const void *b)
{
	const struct long_block *x = a, *y = b;

	return x->ns < y->ns ? 1 :
	       x->ns > y->ns ? -1 :
			       (x->start > y->start) - (x->start < y->start);
}

static void print_blocks(struct offcpu *o)
{
	static const char *const names[ST_NR] = { "S", "D", "other" };
	size_t i;

	if (!o->nr_lb)
		return;
	qsort(o->lb, o->nr_lb, sizeof(*o->lb), cmp_block);
	printf("\n# Longest individual blocks (start: seconds after the first record)\n");
	printf("#     start s   duration ms  state  command pid/tid  innermost function\n");
	for (i = 0; i < o->nr_lb && i < o->limit; i++) {
		const struct long_block *b = &o->lb[i];
		double rel = b->start >= o->first_time ? (double)(b->start - o->first_time) / 1e9 :
							 -(double)(o->first_time - b->start) / 1e9;

		printf("%13.6f %13.3f  %-5s  %s %u/%u  %s%s\n", rel, (double)b->ns / 1e6,
		       names[b->cls], b->comm ? b->comm : "?", b->pid, b->tid,
		       b->where ? b->where : "[unknown]",
		       b->open ? "  (still off CPU at the end)" : "");
	}
	if (o->nr_lb > o->limit)
		printf("# ... %zu more (--limit)\n", o->nr_lb - o->limit);
}

static void print_with_cpu(struct offcpu *o)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_SYM, PRISM_SORT_DSO };
	struct prism_hist_entry *rows, *on, *off;
	size_t nr, non, noff, i, shown;
	uint64_t total = o->on_ns + o->off_ns;
	char buf[32];

	if (prism_profile__entries(o->on, keys, 2, true, &on, &non) ||
	    prism_profile__entries(o->all, keys, 2, true, &off, &noff) ||
	    prism_profile__entries(o->combined, keys, 2, true, &rows, &nr))
		return;
	printf("\n# On- and off-CPU time by function (on: %s samples, 1 sample = its period in "
	       "ns)\n",
	       o->on_name ? o->on_name : "cpu-clock");
	printf("#  total ms       %%      on ms     off ms  function [dso]\n");
	printf("%11.3f %6.2f%% %10.3f %10.3f  (all)\n", (double)total / 1e6, total ? 100.0 : 0.0,
	       (double)o->on_ns / 1e6, (double)o->off_ns / 1e6);
	for (i = 0, shown = 0; i < nr && shown < o->limit; i++) {
		const struct prism_hist_entry *e = &rows[i];

		if (e->sym && (!strcmp(e->sym, marker_on) || !strcmp(e->sym, marker_off)))
			continue;
		shown++;
		printf("%11.3f %6.2f%% %10.3f %10.3f  %s [%s]\n", (double)e->children / 1e6,
		       pct(e->children, total), (double)lookup_children(on, non, e) / 1e6,
		       (double)lookup_children(off, noff, e) / 1e6, row_name(e, buf, sizeof(buf)),
		       e->dso ? e->dso : "?");
	}
}

static void print_losses(struct offcpu *o)
{
	size_t i;
	bool any = false;

	if (!o->has_stats)
		return;
	printf("# BPF side: %" PRIu64 " blocks seen, %" PRIu64 " still off CPU at the end "
	       "(counted up to it), %" PRIu64 " kept individually\n",
	       o->stats.switch_out, o->stats.in_progress, o->stats.emitted);
	if (o->stats.asleep_at_start)
		printf("# %" PRIu64 " tasks were asleep when the recording began: their blocks "
		       "count from its start, without stacks ([asleep since before the "
		       "recording])\n",
		       o->stats.asleep_at_start);
	if (o->stats.unclosed)
		printf("# %" PRIu64 " blocks ended without a traced switch-in (the kernel skipped "
		       "the sched_switch tracepoint): their end is estimated from the task's CPU "
		       "time since\n",
		       o->stats.unclosed);
	for (i = 0; i < prism_offcpu_stats__nr(); i++) {
		const struct prism_offcpu_stat_desc *d = prism_offcpu_stats__desc(i);
		uint64_t v = prism_offcpu_stats__get(&o->stats, i);

		if (d->loss && v) {
			printf("# loss: %s = %" PRIu64 " (%s)\n", d->name, v, d->hint);
			any = true;
		}
	}
	if (!any)
		printf("# losses: none (no stack-map collisions, unreadable stacks or full maps)\n");
}

void offcpu_print_text(struct offcpu *o)
{
	static const char *const mname[] = {
		[M_BPF] = "BPF (prism record --off-cpu)",
		[M_BPF_PERF] = "BPF (perf record --off-cpu: no task state)",
		[M_SCHED] = "context switches (prism record --off-cpu=sched): intervals from "
			    "switch records, S and D not told apart, preemptions left out",
	};

	printf("# Off-CPU time from %s\n", o->input ? o->input : "perf.data");
	printf("# method: %s\n", mname[o->method]);
	printf("# total: %.3f ms in %" PRIu64 " blocks", (double)o->off_ns / 1e6, o->blocks);
	if (o->in_progress)
		printf(" (%" PRIu64 " still off CPU at the end, counted up to it)", o->in_progress);
	printf("\n");
	if (o->method == M_BPF && !o->unknown_state)
		printf("# by state: S %.3f ms (%.1f%%), D %.3f ms (%.1f%%), other %.3f ms\n",
		       (double)o->state_ns[ST_S] / 1e6, pct(o->state_ns[ST_S], o->off_ns),
		       (double)o->state_ns[ST_D] / 1e6, pct(o->state_ns[ST_D], o->off_ns),
		       (double)o->state_ns[ST_OTHER] / 1e6);
	if (o->no_ustack)
		printf("# %" PRIu64 " blocks have no user stack (kernel threads, collisions, "
		       "exiting tasks)\n",
		       o->no_ustack);
	print_losses(o);
	if (o->method == M_SCHED) {
		const struct prism_offcpu_fallback_stats *fs = prism_offcpu_fallback__stats(o->fb);

		printf("# switch pairing: %" PRIu64 " intervals, %" PRIu64 " preemptions left "
		       "out, %" PRIu64 " without a stack, %" PRIu64 " dropped after lost records\n",
		       fs->intervals, fs->preempted, fs->no_callchain, fs->dropped);
	}
	if (print_functions(o) || print_tasks(o))
		return;
	print_stacks(o);
	print_blocks(o);
	if (o->with_cpu)
		print_with_cpu(o);
}

int offcpu_write_flamegraph(struct offcpu *o)
{
	struct prism_flamegraph_opts fo = { 0 };
	struct prism_profile *p = o->with_cpu ? o->combined : o->all;
	char sub[512];
	FILE *fp = fopen(o->flamegraph, "w");
	int err;

	if (!fp)
		return error("cannot create '%s': %s", o->flamegraph, strerror(errno));
	fo.title = o->title    ? o->title :
		   o->with_cpu ? "On- and Off-CPU Time Flame Graph" :
				 "Off-CPU Time Flame Graph";
	snprintf(sub, sizeof(sub), "%.3f ms off CPU%s from %s (%s method); width = time in ns",
		 (double)o->off_ns / 1e6, o->with_cpu ? " and on CPU" : "",
		 o->input ? o->input : "perf.data",
		 o->method == M_SCHED ? "context-switch" : "BPF");
	fo.subtitle = sub;
	fo.period = true;
	fo.count_name = "ns";
	fo.offcpu_palette = !o->with_cpu;
	err = prism_profile__write_flamegraph(p, fp, &fo);
	if (fclose(fp) || err)
		return error_errno(err ? err : errno, "cannot write '%s'", o->flamegraph);
	if (!quiet)
		info("flame graph written to '%s'", o->flamegraph);
	return 0;
}
