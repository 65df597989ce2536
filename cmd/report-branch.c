// SPDX-License-Identifier: MIT
/*
 * prism report -b: perf report's branch mode.  Every taken branch of the
 * samples' branch stacks (PERF_SAMPLE_BRANCH_STACK, or an Intel PT trace
 * decoded with --itrace=...l) counts 1; rows by perf's branch sort keys
 * (default comm,dso_from,symbol_from,symbol_to,cycles; a --sort that
 * names a symbol key gets perf's IPC column), in perf's text layout:
 *
 *   # Overhead  Command  Source Shared Object  Source Symbol  Target Symbol  Basic Block Cycles
 *       36.15%  pt-loop  pt-loop               [.] pt_loop    [.] pt_loop    -
 *
 * each end resolved as perf does: a user map, else a kernel one, else
 * level H, the address alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/event.h>
#include <prism/features.h>
#include <prism/profile.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "cmd.h"
#include "report.h"

struct report_branch {
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	enum prism_branch_key keys[PRISM_BRANCH__MAX];
	size_t nr_keys;
	unsigned int mask;
	struct prism_branches **ev; /* by event index */
	size_t nr_ev;
	bool show_nr; /* -n: a Samples column */
	double percent_limit; /* rows below it hidden (their widths still count, as perf's) */
	bool any_cycles; /* a branch with basic block cycles */
};

static const char *const headers[PRISM_BRANCH__MAX] = {
	[PRISM_BRANCH_COMM] = "Command",
	[PRISM_BRANCH_PID] = "    Pid:Command",
	[PRISM_BRANCH_DSO_FROM] = "Source Shared Object",
	[PRISM_BRANCH_DSO_TO] = "Target Shared Object",
	[PRISM_BRANCH_SYM_FROM] = "Source Symbol",
	[PRISM_BRANCH_SYM_TO] = "Target Symbol",
	[PRISM_BRANCH_CYCLES] = "Basic Block Cycles",
	[PRISM_BRANCH_IPC] = "IPC   [IPC Coverage]",
};

int report_branch__mode(struct prism_session *s, const char *input, bool forced,
			const struct prism_itrace *itrace)
{
	const struct prism_file_info *fi = prism_session__file_info(s);
	bool has;

	/* perf: the file's BRANCH_STACK feature (a pipe has none: -b decides) */
	if (itrace)
		has = itrace->last_branch;
	else
		has = fi->pipe ? forced : !!(fi->features[0] & (1ull << PRISM_FEAT_BRANCH_STACK));
	if (forced && !has) {
		error("-b: the samples of '%s' have no branch stacks", input ? input : "perf.data");
		hint("perf record -b (or -j) records them; for Intel PT, --itrace with l");
		return -1;
	}
	return has;
}

struct report_branch *report_branch__new(const char *sort, struct prism_symbols *sy,
					 struct prism_tasks *tasks, bool show_nr,
					 double percent_limit)
{
	struct report_branch *rb = xcalloc(1, sizeof(*rb));
	struct strlist l = { 0 };
	size_t i;

	rb->sy = sy;
	rb->tasks = tasks;
	rb->show_nr = show_nr;
	rb->percent_limit = percent_limit;
	split_list(sort ? sort : "comm,dso_from,symbol_from,symbol_to,cycles", &l);
	for (i = 0; i < l.nr; i++) {
		int k = prism_branch_key__parse(l.v[i]);

		if (k < 0 || k == PRISM_BRANCH_IPC) {
			error("--sort: '%s' is no key of the branch report (-b)", l.v[i]);
			hint("keys: comm, pid, dso_from, dso_to, symbol_from, symbol_to, cycles; "
			     "--no-branch-stack for the keys of the usual report");
			strlist_release(&l);
			free(rb);
			return NULL;
		}
		if (!(rb->mask & (1u << k)))
			rb->keys[rb->nr_keys++] = (enum prism_branch_key)k;
		rb->mask |= 1u << k;
	}
	strlist_release(&l);
	/* perf adds its IPC column to a --sort that names a symbol key */
	if (sort && strstr(sort, "symbol")) {
		rb->keys[rb->nr_keys++] = PRISM_BRANCH_IPC;
		rb->mask |= 1u << PRISM_BRANCH_IPC;
	}
	return rb;
}

void report_branch__free(struct report_branch *rb)
{
	size_t i;

	if (!rb)
		return;
	for (i = 0; i < rb->nr_ev; i++)
		prism_branches__free(rb->ev[i]);
	free(rb->ev);
	free(rb);
}

static struct prism_branches *branches_of(struct report_branch *rb, size_t idx)
{
	if (idx >= rb->nr_ev) {
		rb->ev = xrealloc(rb->ev, (idx + 1) * sizeof(*rb->ev));
		memset(rb->ev + rb->nr_ev, 0, (idx + 1 - rb->nr_ev) * sizeof(*rb->ev));
		rb->nr_ev = idx + 1;
	}
	if (!rb->ev[idx]) {
		rb->ev[idx] = prism_branches__new(rb->mask);
		if (!rb->ev[idx]) {
			error("out of memory");
			exit(1);
		}
	}
	return rb->ev[idx];
}

/* perf: the first of user, kernel whose maps cover @addr; level H without one */
static void resolve(struct report_branch *rb, uint32_t pid, uint64_t addr,
		    struct prism_branch_end *e)
{
	static const uint8_t modes[] = { PERF_RECORD_MISC_USER, PERF_RECORD_MISC_KERNEL };
	struct prism_frame fr;
	struct prism_code_map cm;
	size_t i;

	for (i = 0; i < sizeof(modes); i++) {
		prism_symbols__resolve(rb->sy, pid, modes[i], addr, &fr);
		if (!fr.dso)
			continue;
		e->dso = fr.dso_name;
		e->sym = fr.sym;
		e->addr = fr.map_addr;
		e->start = fr.sym ? fr.sym_start : addr;
		e->level = modes[i] == PERF_RECORD_MISC_KERNEL ? 'k' : '.';
		/* perf's kernel symbols from a kcore count from its segment's offset */
		if (fr.sym && e->level == 'k' && !prism_symbols__code_map(rb->sy, pid, addr, &cm) &&
		    cm.kcore && fr.sym_start >= cm.start)
			e->start = fr.sym_start - cm.start + cm.pgoff;
		return;
	}
	e->dso = NULL;
	e->sym = NULL;
	e->addr = addr;
	e->start = addr;
	e->level = 'H';
}

static int add(struct report_branch *rb, size_t idx, const char *comm, uint32_t pid, uint32_t tid,
	       uint64_t from, uint64_t to, uint16_t cycles)
{
	struct prism_branch_end f, t;

	rb->any_cycles |= cycles != 0;
	resolve(rb, pid, from, &f);
	resolve(rb, pid, to, &t);
	return prism_branches__add(branches_of(rb, idx), comm, tid, &f, &t, cycles);
}

int report_branch__sample(struct report_branch *rb, size_t idx, const char *comm,
			  const struct prism_sample *s)
{
	const uint64_t *e = s->branch_entries;
	uint64_t i;
	int err = 0;

	branches_of(rb, idx);
	/* {from, to, flags}: the flags' cycles are bits 4-19 */
	for (i = 0; i < s->branch_nr && !err; i++)
		err = add(rb, idx, comm, s->pid, s->tid, e[3 * i], e[3 * i + 1],
			  (uint16_t)(e[3 * i + 2] >> 4));
	return err;
}

int report_branch__pt(struct report_branch *rb, size_t idx, const char *comm,
		      const struct prism_pt_item *it)
{
	uint32_t pid = it->pid < 0 ? 0 : (uint32_t)it->pid,
		 tid = it->tid < 0 ? 0 : (uint32_t)it->tid;
	uint32_t i;
	int err = 0;

	branches_of(rb, idx);
	/* perf: a branch sample's stack in branch mode is the branch itself */
	if (it->kind == PRISM_PT_BRANCH)
		return add(rb, idx, comm, pid, tid, it->ip, it->addr, 0);
	for (i = 0; i < it->nr_brstack && !err; i++)
		err = add(rb, idx, comm, pid, tid, it->brstack[i].from, it->brstack[i].to, 0);
	return err;
}

bool report_branch__has(const struct report_branch *rb, size_t idx)
{
	return idx < rb->nr_ev && rb->ev[idx];
}

/* the text of column @k of @row; @w: its width */
static void col_text(const struct report_branch *rb, enum prism_branch_key k,
		     const struct prism_branch_row *row, size_t w, struct prism_strbuf *sb)
{
	const struct prism_branch_end *e = &row->from;
	const char *comm;

	switch (k) {
	case PRISM_BRANCH_COMM:
		prism_strbuf_addf(sb, "%-*.*s", (int)w, (int)w, row->comm ? row->comm : "");
		return;
	case PRISM_BRANCH_PID:
		comm = prism_tasks__comm(rb->tasks, row->tid);
		prism_strbuf_addf(sb, "%7d:%-*.*s", (int)row->tid, (int)w - 8, (int)w - 8,
				  comm ? comm : "");
		return;
	case PRISM_BRANCH_DSO_TO:
		e = &row->to;
		/* fall through */
	case PRISM_BRANCH_DSO_FROM:
		prism_strbuf_addf(sb, "%-*.*s", (int)w, (int)w, e->dso ? e->dso : "[unknown]");
		return;
	case PRISM_BRANCH_SYM_TO:
		e = &row->to;
		/* fall through */
	case PRISM_BRANCH_SYM_FROM: {
		size_t start = sb->len;

		if (e->sym)
			prism_strbuf_addf(sb, "[%c] %s", e->level, e->sym);
		else if (!e->addr) /* printf's %#x prints no 0x for zero; perf shows that */
			prism_strbuf_addf(sb, "[%c] %016x", e->level, 0);
		else
			prism_strbuf_addf(sb, "[%c] 0x%016" PRIx64, e->level, e->addr);
		while (sb->len - start < w)
			prism_strbuf_addch(sb, ' ');
		return;
	}
	case PRISM_BRANCH_CYCLES:
		if (row->cycles)
			prism_strbuf_addf(sb, "%-*u", (int)w, (unsigned int)row->cycles);
		else
			prism_strbuf_addf(sb, "%-*s", (int)w, "-");
		return;
	case PRISM_BRANCH_IPC: /* without cycles: perf's IPC 0 of no coverage */
		prism_strbuf_addf(sb, "%-*s", (int)w, "0.00  [  0.0%]");
		return;
	default:
		return;
	}
}

/* perf's column widths: the header, and the values of each row */
static void widths(const struct report_branch *rb, const struct prism_branch_row *rows, size_t n,
		   size_t *w)
{
	size_t i, k, len;

	for (k = 0; k < rb->nr_keys; k++)
		w[k] = strlen(headers[rb->keys[k]]);
	for (i = 0; i < n; i++) {
		const struct prism_branch_row *r = &rows[i];

		for (k = 0; k < rb->nr_keys; k++) {
			const struct prism_branch_end *e = &r->from;
			const char *comm;

			switch (rb->keys[k]) {
			case PRISM_BRANCH_COMM:
				len = r->comm ? strlen(r->comm) : 0;
				break;
			case PRISM_BRANCH_PID:
				comm = prism_tasks__comm(rb->tasks, r->tid);
				len = 8 + (comm ? strlen(comm) : 0);
				break;
			case PRISM_BRANCH_DSO_TO:
				e = &r->to;
				/* fall through */
			case PRISM_BRANCH_DSO_FROM:
				/* perf: names of resolved ends; an unresolved one an address's width */
				len = e->sym ? strlen(e->dso ? e->dso : "[unknown]") : 16;
				break;
			case PRISM_BRANCH_SYM_TO:
				e = &r->to;
				/* fall through */
			case PRISM_BRANCH_SYM_FROM:
				len = e->sym ? strlen(e->sym) + 4 : 22;
				break;
			default:
				len = 0;
			}
			if (len > w[k])
				w[k] = len;
		}
	}
}

int report_branch__check(const struct report_branch *rb)
{
	if (!(rb->mask & (1u << PRISM_BRANCH_IPC)) || !rb->any_cycles)
		return 0;
	error("the IPC column perf adds to a --sort with symbol keys needs the instructions "
	      "of each basic block, which prism report does not count");
	hint("the branches have cycles: sort without symbol_from/symbol_to, or by default");
	return -1;
}

int report_branch__print(struct report_branch *rb, size_t idx, const char *name)
{
	struct prism_branches *b = rb->ev[idx];
	const struct prism_branch_row *rows;
	struct prism_strbuf out = STRBUF_INIT;
	size_t n, i, k, w[PRISM_BRANCH__MAX];
	uint64_t total = prism_branches__total(b);

	if (prism_branches__rows(b, rb->keys, rb->nr_keys, &rows, &n))
		return error("out of memory building the branch report");
	widths(rb, rows, n, w);
	report_samples_header(total, total, name, false);
	prism_strbuf_addstr(&out, rb->show_nr ? "# Overhead       Samples" : "# Overhead");
	for (k = 0; k < rb->nr_keys; k++)
		prism_strbuf_addf(&out, "  %-*s", (int)w[k], headers[rb->keys[k]]);
	prism_strbuf_addstr(&out, rb->show_nr ? "\n# ........  ............" : "\n# ........");
	for (k = 0; k < rb->nr_keys; k++) {
		prism_strbuf_addstr(&out, "  ");
		for (i = 0; i < w[k]; i++)
			prism_strbuf_addch(&out, '.');
	}
	prism_strbuf_addstr(&out, "\n#\n");
	for (i = 0; i < n; i++) {
		if (rb->percent_limit > 0 &&
		    100.0 * (double)rows[i].count / (double)total < rb->percent_limit)
			continue;
		report_percent(&out, rows[i].count, total);
		if (rb->show_nr)
			prism_strbuf_addf(&out, "  %12" PRIu64, rows[i].count);
		for (k = 0; k < rb->nr_keys; k++) {
			prism_strbuf_addstr(&out, "  ");
			col_text(rb, rb->keys[k], &rows[i], w[k], &out);
		}
		prism_strbuf_addch(&out, '\n');
	}
	prism_strbuf_addstr(&out, "\n\n");
	fwrite(out.buf, 1, out.len, stdout);
	prism_strbuf_release(&out);
	return 0;
}
