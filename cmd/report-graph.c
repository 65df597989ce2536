// SPDX-License-Identifier: MIT
/*
 * prism report's call graphs under a row, in perf report --stdio's layout
 * ("---name", "|--12.34%--name", chains printed while they do not branch).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <prism/evsel.h>
#include <prism/session.h>
#include <prism/strbuf.h>

#include "cmd.h"
#include "options.h"
#include "report.h"

const char *const report_cg_words[] = { "*", NULL };

/* perf's: a word matches a keyword it is a prefix of, the first in perf's order */
static bool word_is(const char *w, const char *kw)
{
	return *w && !strncmp(w, kw, strlen(w));
}

enum cg_field { CGF_PRINT, CGF_ORDER, CGF_KEY, CGF_UNSUPPORTED, CGF_VALUE };

/* -g's words in perf's order of matching (a prefix matches the first) */
static const struct {
	const char *word;
	enum cg_field field;
	int value;
} cg_words[] = {
	{ "graph", CGF_PRINT, CG_GRAPH },     { "flat", CGF_PRINT, CG_FLAT },
	{ "fractal", CGF_PRINT, CG_FRACTAL }, { "folded", CGF_PRINT, CG_FOLDED },
	{ "caller", CGF_ORDER, CG_CALLER },   { "callee", CGF_ORDER, CG_CALLEE },
	{ "function", CGF_KEY, 0 },	      { "address", CGF_UNSUPPORTED, 0 },
	{ "srcline", CGF_UNSUPPORTED, 0 },    { "branch", CGF_UNSUPPORTED, 0 },
	{ "percent", CGF_VALUE, CG_PERCENT }, { "period", CGF_VALUE, CG_PERIOD },
	{ "count", CGF_VALUE, CG_COUNT },
};

/* 0: a keyword, taken; 1: not one; -1 after printing the error */
static int cg_word(struct report_cg *cg, const char *w)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(cg_words) && !word_is(w, cg_words[i].word); i++)
		;
	if (i == PRISM_ARRAY_SIZE(cg_words))
		return 1;
	switch (cg_words[i].field) {
	case CGF_PRINT:
		cg->print = (enum cg_print)cg_words[i].value;
		break;
	case CGF_ORDER:
		cg->mode = (enum cg_mode)cg_words[i].value;
		break;
	case CGF_VALUE:
		cg->value = (enum cg_value)cg_words[i].value;
		break;
	case CGF_UNSUPPORTED:
		error("-g/--call-graph: sort key '%s' is not supported", cg_words[i].word);
		hint("prism's graphs are by function");
		return -1;
	default:
		break;
	}
	return 0;
}

int report_opt_callgraph(const struct option_def *opt, const char *arg)
{
	struct report_cg *cg = opt->value;
	char *copy = strdup(arg), *w, *save = NULL, *end;
	bool threshold = false, limit = false;
	int ret = 0;

	if (!copy)
		return error("out of memory");
	cg->set = true;
	for (w = strtok_r(copy, ",", &save); w && !ret; w = strtok_r(NULL, ",", &save)) {
		if (word_is(w, "none")) {
			cg->mode = CG_NONE;
			cg->set = false;
			break;
		}
		ret = cg_word(cg, w);
		if (ret <= 0)
			continue;
		ret = 0;
		if (!threshold) {
			cg->threshold = strtod(w, &end);
			threshold = true;
			if (*end || end == w || cg->threshold < 0 || cg->threshold > 100)
				ret = -1;
		} else if (!limit) {
			cg->print_limit = strtoul(w, &end, 0);
			limit = true;
			if (*end || end == w || *w == '-')
				ret = -1;
		} else {
			ret = -1;
		}
		if (ret) {
			if (strcmp(w, arg))
				error("-g/--call-graph: '%s' in '%s' is none of its parameters", w,
				      arg);
			else
				error("-g/--call-graph: '%s' is none of its parameters", w);
			hint("print_type,threshold[,print_limit],order,sort_key,value: graph, flat "
			     "or folded; a percent; a count; caller or callee; function; percent, "
			     "period or count (e.g. -g graph,0.5,caller)");
		}
	}
	free(copy);
	return ret;
}

bool report_cg_caller(const struct report_cg *cg, bool children, bool pipe, bool no_children)
{
	if (cg->mode == CG_CALLER || cg->mode == CG_CALLEE)
		return cg->mode == CG_CALLER;
	return children || (pipe && !no_children);
}

int report_opt_ignore_callees(const struct option_def *opt, const char *arg)
{
	struct report_cg *cg = opt->value;
	regex_t *re = calloc(1, sizeof(*re));
	char msg[256];
	int err;

	if (!re)
		return error("out of memory");
	err = regcomp(re, arg, REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, re, msg, sizeof(msg));
		free(re);
		return error("--ignore-callees '%s': %s", arg, msg);
	}
	report_cg_release(cg);
	cg->ignore_callees = re;
	return 0;
}

void report_cg_release(struct report_cg *cg)
{
	if (cg->ignore_callees)
		regfree(cg->ignore_callees);
	free(cg->ignore_callees);
	cg->ignore_callees = NULL;
	if (cg->parent_re)
		regfree(cg->parent_re);
	free(cg->parent_re);
	cg->parent_re = NULL;
}

static bool ignores_callees(const struct report_cg *cg, const struct prism_frame *f)
{
	return cg->ignore_callees && f->sym && !regexec(cg->ignore_callees, f->sym, 0, NULL, 0);
}

static bool is_parent(const struct report_cg *cg, const struct prism_frame *f)
{
	return cg->parent_re && f->sym && f->kind != PRISM_FRAME_INLINED &&
	       !regexec(cg->parent_re, f->sym, 0, NULL, 0);
}

/*
 * perf's walk of a recorded frame: the first that matches -p is the
 * sample's parent, another that matches --ignore-callees restarts the chain
 * (true)
 */
static bool walk(const struct report_cg *cg, const struct prism_frame *f,
		 const struct prism_frame **parent, bool *found)
{
	if (!*found && is_parent(cg, f)) {
		*parent = f;
		*found = true;
		return false;
	}
	return ignores_callees(cg, f);
}

int report_cg_parent(struct report_cg *cg, const char *regex)
{
	regex_t *re = calloc(1, sizeof(*re));

	if (!re || regcomp(re, regex, REG_EXTENDED | REG_NOSUB)) {
		free(re);
		return -1;
	}
	cg->parent_re = re;
	return 0;
}

/* the frames of the first @max entries of an unwound chain (an entry's inlined frames share its ip) */
static size_t unwound_frames(const struct prism_frame *u, size_t nu, size_t max)
{
	size_t i = 0, entries = 0;

	while (i < nu && entries < max) {
		uint64_t ip = u[i].ip;

		while (i < nu && u[i].ip == ip && u[i].kind == PRISM_FRAME_INLINED)
			i++;
		if (i < nu && u[i].ip == ip &&
		    (!i || u[i - 1].ip != ip || u[i - 1].kind == PRISM_FRAME_INLINED))
			i++; /* (the entry's own frame, where it has one) */
		else if (i == 0 || u[i - 1].ip != ip)
			i++;
		entries++;
	}
	return i;
}

/*
 * --call-graph dwarf: perf resolves the recorded (kernel) chain and the
 * frames it unwinds from the stack copy apart, each cut at --max-stack
 * entries: in callee order the recorded chain's leaf side, then the
 * unwound frames from the leaf; in caller order the unwound frames (from
 * the leaf, reversed), then the recorded chain's root side.  A recorded
 * frame --ignore-callees matches restarts the chain there (all of it so
 * far, the unwound frames too in caller order) and becomes the sample's
 * row.  @self: the sample's row where it is not the chain's first frame
 * (an address in inlined code: its symbol's row, the chain's inlined frames).
 * The parent is the first recorded frame of the walk that matches -p, also
 * where a restart left it out of the chain.  (A chain of recorded frames
 * only, @nrec = @nr, is walked the same way.)
 */
static int add_walked(const struct report_cg *cg, bool caller, struct prism_profile *p,
		      const char *comm, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t period,
		      const struct prism_frame *frames, size_t nr, size_t nrec,
		      const struct prism_frame *self)
{
	size_t max = (size_t)cg->max_stack, kk = nrec < max ? nrec : max;
	size_t ku = unwound_frames(frames + nrec, nr - nrec, max), n = 0, nk = 0, i;
	struct prism_frame *chain = malloc((kk + ku + 1) * sizeof(*chain));
	const struct prism_frame *root = NULL, *parent = NULL;
	bool found = false;
	int err;

	if (!chain)
		return -ENOMEM;
	if (!caller) {
		for (i = 0; i < kk; i++) {
			if (walk(cg, &frames[i], &parent, &found)) {
				n = nk = 0;
				root = &frames[i];
			}
			chain[n++] = frames[i];
			nk++;
		}
		for (i = 0; i < ku; i++)
			chain[n++] = frames[nrec + i];
	} else { /* built root first, then turned leaf first */
		for (i = ku; i-- > 0;)
			chain[n++] = frames[nrec + i];
		for (i = nrec; i-- > nrec - kk;) {
			if (walk(cg, &frames[i], &parent, &found)) {
				n = nk = 0;
				root = &frames[i];
			}
			chain[n++] = frames[i];
			nk++;
		}
		for (i = 0; i < n / 2; i++) {
			struct prism_frame t = chain[i];

			chain[i] = chain[n - 1 - i];
			chain[n - 1 - i] = t;
		}
	}
	prism_profile__set_parent_depth(p, nk); /* perf: the recorded frames it went through */
	err = cg->parent_re ? prism_profile__set_parent_frame(p, parent, true) : 0;
	/* the sample's row: a restart's frame, else its own (the chain's first if kept) */
	if (!err && !root && !self && n && (!caller || kk == nrec))
		err = prism_profile__add(p, comm, pid, tid, cpu, period, chain, n);
	else if (!err)
		err = prism_profile__add_cut(p, comm, pid, tid, cpu, period,
					     root ? root :
					     self ? self :
						    &frames[0],
					     chain, n);
	if (cg->parent_re)
		prism_profile__set_parent_frame(p, NULL, false);
	free(chain);
	return err;
}

/*
 * perf resolves a chain in its graphs' order and stops after --max-stack
 * frames: the leaf's side in callee order, the root's in caller order,
 * where the sample's own row stays its address.  A frame --ignore-callees
 * matches restarts the chain on the way and becomes the sample's row: the
 * outermost such frame in callee order, the innermost in caller order.
 */
int report_cg_add(const struct report_cg *cg, bool caller, struct prism_profile *p,
		  const char *comm, uint32_t pid, uint32_t tid, uint32_t cpu, uint64_t period,
		  const struct prism_frame *frames, size_t nr, bool unwound, size_t nrec,
		  const struct prism_frame *self)
{
	size_t keep = nr < (size_t)cg->max_stack ? nr : (size_t)cg->max_stack, i;
	size_t from, to; /* frames kept */

	if ((unwound || (cg->parent_re && cg->ignore_callees)) && keep)
		return add_walked(cg, caller, p, comm, pid, tid, cpu, period, frames, nr,
				  unwound ? nrec : nr, self);
	from = caller ? nr - keep : 0;
	to = caller ? nr : keep;
	if (!keep) /* --max-stack 0: no chain, the sample's row alone */
		return prism_profile__add_nochain(p, comm, pid, tid, cpu, period, frames);
	for (i = from; cg->ignore_callees && !unwound && i < to; i++) {
		if (!ignores_callees(cg, &frames[i]))
			continue;
		if (!caller) { /* the outermost: the chain from it to the root */
			from = i;
			continue;
		}
		to = i + 1; /* the innermost: the chain from the leaf to it, its row */
		return prism_profile__add_cut(p, comm, pid, tid, cpu, period, &frames[i],
					      frames + from, to - from);
	}
	if (from && !caller)
		return prism_profile__add(p, comm, pid, tid, cpu, period, frames + from, to - from);
	if (from)
		return prism_profile__add_cut(p, comm, pid, tid, cpu, period, frames, frames + from,
					      to - from);
	return prism_profile__add(p, comm, pid, tid, cpu, period, frames, to);
}

int report_cg_check(const struct report_cg *cg, struct prism_session *s, const char *input)
{
	size_t i, n = prism_session__nr_evsels(s);

	/* perf: a pipe's events are not known yet when it checks */
	if (!cg->set || cg->mode == CG_NONE || prism_session__file_info(s)->pipe)
		return 0;
	for (i = 0; i < n; i++)
		if (prism_evsel__attr(prism_session__evsel(s, i))->sample_type &
		    PERF_SAMPLE_CALLCHAIN)
			return 0;
	error("-g/--call-graph: the samples of '%s' have no call chains",
	      input ? input : "perf.data");
	hint("record with -g (perf record -g, prism record -g), or report without -g");
	return 1;
}

static void node_name(const struct prism_callgraph *n, char *buf, size_t len)
{
	if (n->name)
		snprintf(buf, len, "%s%s", n->name,
			 n->kind == PRISM_FRAME_INLINED ? " (inlined)" : "");
	else /* perf's %#lx: "0" for 0 */
		snprintf(buf, len, "%#" PRIx64, n->ip);
}

struct graph_ctx {
	uint64_t total, min;
	const struct report_cg *cg;
	struct prism_strbuf *out;
};

/* a branch's value: perf's percent of @total, period or sample count */
static void value_text(const struct graph_ctx *g, uint64_t total, uint64_t period, uint64_t samples,
		       char *buf, size_t len)
{
	if (g->cg->value == CG_PERIOD)
		snprintf(buf, len, "%" PRIu64, period);
	else if (g->cg->value == CG_COUNT)
		snprintf(buf, len, "%" PRIu64, samples);
	else
		snprintf(buf, len, "%.2f%%", total ? 100.0 * (double)period / (double)total : 0);
}

/* the period (or samples) of @n's callees: fractal's 100% */
static uint64_t children_of(const struct prism_callgraph *n, bool samples)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n->nr_children; i++)
		v += samples ? n->children[i]->samples : n->children[i]->period;
	return v;
}

static size_t visible_children(const struct graph_ctx *g, const struct prism_callgraph *n)
{
	uint64_t min = g->min;
	size_t i;

	if (g->cg->print == CG_FRACTAL) /* the threshold is a share of the callees */
		min = (uint64_t)ceil((double)children_of(n, false) * g->cg->threshold / 100.0);
	/* children are sorted by period: the visible ones come first */
	for (i = 0; i < n->nr_children && n->children[i]->period >= min; i++)
		;
	return i;
}

/* perf prints the first print_limit branches of a node (and marks none last if it cuts) */
static size_t printed_children(const struct graph_ctx *g, size_t vis)
{
	return g->cg->print_limit && g->cg->print_limit < vis ? g->cg->print_limit : vis;
}

static void print_children(struct graph_ctx *g, const struct prism_callgraph *n, const char *prefix,
			   uint64_t total);

/*
 * the chain below @n (already printed), one name per line while it does not
 * branch; @lines: print only so many (perf's print_limit on the first chain:
 * the rest of it is left out, its branches are printed); @total: what the
 * branches after it are shares of (0: the event's total, or in fractal
 * mode the callees of the chain's end)
 */
static void print_chain(struct graph_ctx *g, const struct prism_callgraph *n, const char *prefix,
			unsigned long lines, uint64_t total)
{
	char name[1024];

	for (;;) {
		size_t vis = visible_children(g, n);

		if (!vis)
			return;
		if (vis == 1 && n->children[0]->period == n->period) {
			n = n->children[0];
			node_name(n, name, sizeof(name));
			if (lines != 1)
				prism_strbuf_addf(g->out, "%s%s\n", prefix, name);
			if (lines > 1)
				lines--;
			continue;
		}
		if (!total)
			total = g->cg->print == CG_FRACTAL ? children_of(n, false) : g->total;
		print_children(g, n, prefix, total);
		return;
	}
}

/*
 * @n's branches, their values shares of @total; in fractal mode the part
 * of @total they leave is a last "[...]" branch
 */
static void print_children(struct graph_ctx *g, const struct prism_callgraph *n, const char *prefix,
			   uint64_t total)
{
	size_t vis = visible_children(g, n), i;
	uint64_t rest = total, rest_samples = children_of(n, true);
	bool fractal = g->cg->print == CG_FRACTAL;
	char name[1024], value[32];

	for (i = 0; i < printed_children(g, vis); i++) {
		const struct prism_callgraph *c = n->children[i];
		struct prism_strbuf sub = STRBUF_INIT;
		bool last;

		rest -= c->period; /* what perf leaves for "[...]": beyond the printed ones */
		last = i + 1 == vis && !(fractal && rest);

		node_name(c, name, sizeof(name));
		prism_strbuf_addf(g->out, "%s|          \n", prefix);
		value_text(g, total, c->period, c->samples, value, sizeof(value));
		prism_strbuf_addf(g->out, "%s%c--%s--%s\n", prefix, last ? ' ' : '|', value, name);
		prism_strbuf_addf(&sub, "%s%c          ", prefix, last ? ' ' : '|');
		print_chain(g, c, sub.buf, 0, 0);
		prism_strbuf_release(&sub);
		rest_samples -= c->samples;
	}
	if (fractal && rest && rest != total &&
	    (g->cg->value != CG_COUNT || (int64_t)rest_samples > 0)) {
		value_text(g, total, rest, rest_samples, value, sizeof(value));
		prism_strbuf_addf(g->out, "%s --%s--[...]\n", prefix, value);
	}
}

/* @n's only child that continues its chain (the same period), if it has one */
static const struct prism_callgraph *chain_next(const struct graph_ctx *g,
						const struct prism_callgraph *n)
{
	return visible_children(g, n) == 1 && n->children[0]->period == n->period ? n->children[0] :
										    NULL;
}

static uint64_t self_of(const struct prism_callgraph *n, bool samples)
{
	uint64_t v = samples ? n->samples : n->period;
	size_t i;

	for (i = 0; i < n->nr_children; i++)
		v -= samples ? n->children[i]->samples : n->children[i]->period;
	return v;
}

static void collect_ends(const struct graph_ctx *g, const struct prism_callgraph *n,
			 const struct prism_callgraph ***ends, size_t *nr, size_t *alloc)
{
	uint64_t hit = self_of(n, false);
	size_t i;

	for (i = 0; i < n->nr_children; i++)
		collect_ends(g, n->children[i], ends, nr, alloc);
	if (!n->parent || !hit || hit < g->min)
		return;
	if (*nr == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		*ends = xrealloc(*ends, *alloc * sizeof(**ends));
	}
	(*ends)[(*nr)++] = n;
}

static int cmp_end(const void *pa, const void *pb)
{
	const struct prism_callgraph *a = *(const struct prism_callgraph *const *)pa;
	const struct prism_callgraph *b = *(const struct prism_callgraph *const *)pb;
	uint64_t ha = self_of(a, false), hb = self_of(b, false);

	if (ha != hb)
		return ha > hb ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* the frames from the root's first to @n, one per line (flat) or ';'-separated (folded) */
static void print_path(struct graph_ctx *g, const struct prism_callgraph *n, bool folded)
{
	char name[1024];

	if (!n->parent)
		return;
	print_path(g, n->parent, folded);
	node_name(n, name, sizeof(name));
	if (folded)
		prism_strbuf_addf(g->out, "%s%s", n->parent->parent ? ";" : "", name);
	else
		prism_strbuf_addf(g->out, "                %s\n", name);
}

/*
 * perf's flat and folded views: every chain that ends (has self period) at
 * or above the threshold, by that period, each from the root: flat with the
 * period through its end, folded with the period ending there
 */
static void print_chains(struct graph_ctx *g, const struct prism_callgraph *root)
{
	const struct prism_callgraph **ends = NULL;
	size_t nr = 0, alloc = 0, i;
	char value[32];

	collect_ends(g, root, &ends, &nr, &alloc);
	qsort(ends, nr, sizeof(*ends), cmp_end);
	if (g->cg->print_limit && nr > g->cg->print_limit)
		nr = g->cg->print_limit;
	for (i = 0; i < nr; i++) {
		if (g->cg->print == CG_FOLDED) {
			value_text(g, g->total, self_of(ends[i], false), self_of(ends[i], true),
				   value, sizeof(value));
			prism_strbuf_addf(g->out, "%s ", value);
			print_path(g, ends[i], true);
			prism_strbuf_addch(g->out, '\n');
		} else {
			value_text(g, g->total, ends[i]->period, ends[i]->samples, value,
				   sizeof(value));
			prism_strbuf_addf(g->out, "           %s\n", value);
			print_path(g, ends[i], false);
			prism_strbuf_addch(g->out, '\n');
		}
	}
	free(ends);
}

void report_print_graph(struct prism_profile *p, size_t idx, bool caller, uint64_t total,
			uint64_t min_total, const struct report_cg *cg, bool skip_first,
			struct prism_strbuf *out)
{
	struct prism_callgraph *root;
	struct graph_ctx g = { .total = total, .cg = cg, .out = out };
	const struct prism_callgraph *n;
	uint64_t top;
	char name[1024];

	if (prism_profile__callgraph(p, idx, caller, &root))
		return;
	g.min = (uint64_t)ceil((double)min_total * cg->threshold / 100.0);
	if (cg->print == CG_FLAT || cg->print == CG_FOLDED) {
		print_chains(&g, root);
		return;
	}
	/* fractal: the first level's shares are of the row's own total */
	top = cg->print == CG_FRACTAL ? root->period : total;
	if (!visible_children(&g, root))
		return;
	n = chain_next(&g, root);
	if (n && skip_first) { /* the chain's first frame is the row's: on from the next */
		const struct prism_callgraph *next = chain_next(&g, n);

		if (!next) {
			print_children(&g, n, "            ", top);
			prism_strbuf_addch(out, '\n');
			return;
		}
		n = next;
	}
	if (n) {
		prism_strbuf_addstr(out, "            |\n");
		node_name(n, name, sizeof(name));
		prism_strbuf_addf(out, "            ---%s\n", name);
		print_chain(&g, n, "               ", cg->print_limit, top);
	} else {
		print_children(&g, root, "            ", top);
	}
	prism_strbuf_addch(out, '\n');
}
