// SPDX-License-Identifier: MIT
/*
 * prism report's call graphs under a row, in perf report --stdio's layout
 * ("---name", "|--12.34%--name", chains printed while they do not branch).
 */
#include <inttypes.h>
#include <math.h>

#include <prism/strbuf.h>

#include "report.h"

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
	struct prism_strbuf *out;
};

static size_t visible_children(const struct graph_ctx *g, const struct prism_callgraph *n)
{
	size_t i;

	/* children are sorted by period: the visible ones come first */
	for (i = 0; i < n->nr_children && n->children[i]->period >= g->min; i++)
		;
	return i;
}

static void print_children(struct graph_ctx *g, const struct prism_callgraph *n,
			   const char *prefix);

/* the chain below @n (already printed), one name per line while it does not branch */
static void print_chain(struct graph_ctx *g, const struct prism_callgraph *n, const char *prefix)
{
	char name[1024];

	for (;;) {
		size_t vis = visible_children(g, n);

		if (!vis)
			return;
		if (vis == 1 && n->children[0]->period == n->period) {
			n = n->children[0];
			node_name(n, name, sizeof(name));
			prism_strbuf_addf(g->out, "%s%s\n", prefix, name);
			continue;
		}
		print_children(g, n, prefix);
		return;
	}
}

static void print_children(struct graph_ctx *g, const struct prism_callgraph *n, const char *prefix)
{
	size_t vis = visible_children(g, n), i;
	char name[1024];

	for (i = 0; i < vis; i++) {
		const struct prism_callgraph *c = n->children[i];
		bool last = i + 1 == vis;
		struct prism_strbuf sub = STRBUF_INIT;

		node_name(c, name, sizeof(name));
		prism_strbuf_addf(g->out, "%s|          \n", prefix);
		prism_strbuf_addf(g->out, "%s%c--%.2f%%--%s\n", prefix, last ? ' ' : '|',
				  100.0 * (double)c->period / (double)g->total, name);
		prism_strbuf_addf(&sub, "%s%c          ", prefix, last ? ' ' : '|');
		print_chain(g, c, sub.buf);
		prism_strbuf_release(&sub);
	}
}

/* @n's only child that continues its chain (the same period), if it has one */
static const struct prism_callgraph *chain_next(const struct graph_ctx *g,
						const struct prism_callgraph *n)
{
	return visible_children(g, n) == 1 && n->children[0]->period == n->period ? n->children[0] :
										    NULL;
}

void report_print_graph(struct prism_profile *p, size_t idx, bool caller, uint64_t total,
			double threshold, bool skip_first, struct prism_strbuf *out)
{
	struct prism_callgraph *root;
	struct graph_ctx g = { .total = total, .out = out };
	const struct prism_callgraph *n;
	char name[1024];

	if (prism_profile__callgraph(p, idx, caller, &root))
		return;
	g.min = (uint64_t)ceil((double)total * threshold / 100.0);
	if (!visible_children(&g, root))
		return;
	n = chain_next(&g, root);
	if (n && skip_first) { /* the chain's first frame is the row's: on from the next */
		const struct prism_callgraph *next = chain_next(&g, n);

		if (!next) {
			print_children(&g, n, "            ");
			prism_strbuf_addch(out, '\n');
			return;
		}
		n = next;
	}
	if (n) {
		prism_strbuf_addstr(out, "            |\n");
		node_name(n, name, sizeof(name));
		prism_strbuf_addf(out, "            ---%s\n", name);
		print_chain(&g, n, "               ");
	} else {
		print_children(&g, root, "            ");
	}
	prism_strbuf_addch(out, '\n');
}
