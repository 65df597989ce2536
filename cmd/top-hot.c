// SPDX-License-Identifier: MIT
/*
 * prism top's hot view: the cpu-clock samples the util analysis reads past
 * (its observer) go to lib/symbol and a per-interval lib/profile, the same
 * way prism report takes them; at each interval the profile's dso,sym rows
 * (and with -g the callers of the top rows) are copied for the display.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/evspec.h>
#include <prism/profile.h>
#include <prism/symbol.h>
#include <prism/task.h>
#include <prism/util.h>

#include "cmd.h"
#include "top-hot.h"

/* callers shown under each of the top rows (-g) */
#define NR_CALLER_ROWS 5
#define NR_CALLER_LINES 3
#define CALLER_DEPTH 6

struct top_hot_src {
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_profile *p;
	struct prism_callchain cc;
	struct prism_evsel *evsel; /* the cpu-clock event, once seen */
	char filter[64];
	uint64_t samples, filtered;
	unsigned int freq;
	bool callchains;
	int err; /* first error of the observer, ends the read */
};

int top_hot_events(struct prism_evspecs *specs, unsigned int freq)
{
	size_t n = prism_evspecs__nr(specs);
	struct prism_evspec *s;

	if (prism_evspecs__parse(specs, "cpu-clock"))
		return error("cannot add the cpu-clock event: %s", prism_evspecs__error(specs));
	s = prism_evspecs__get(specs, n);
	s->attr.freq = 1;
	s->attr.sample_freq = freq;
	s->user_freq = true;
	/* the chain's first entry is the sampled address (the fast reader has no ip) */
	s->attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	return 0;
}

bool top_filter_match(const char *filter, uint32_t pid, uint32_t tid, const char *comm)
{
	char *end;
	unsigned long n;

	if (!*filter)
		return true;
	n = strtoul(filter, &end, 10);
	if (!*end)
		return pid == n || tid == n;
	return comm && strstr(comm, filter) != NULL;
}

static bool is_cpu_clock(struct prism_evsel *e)
{
	const struct perf_event_attr *a = prism_evsel__attr(e);

	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_CPU_CLOCK;
}

static int on_sample(void *ctx, const struct prism_sample_basic *b)
{
	struct top_hot_src *h = ctx;
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE,
					 .misc = PERF_RECORD_MISC_USER };
	struct prism_event ev = { .raw = &hdr, .type = PERF_RECORD_SAMPLE, .evsel = b->evsel };
	const char *comm;
	int err;

	if (b->evsel != h->evsel) {
		if (h->evsel || !is_cpu_clock(b->evsel))
			return 0;
		h->evsel = b->evsel;
	}
	h->samples++;
	comm = prism_tasks__comm(h->tasks, b->tid);
	if (!top_filter_match(h->filter, b->pid, b->tid, comm)) {
		h->filtered++;
		prism_profile__add_filtered(h->p, 1);
		return 0;
	}
	ev.sample.type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_TID | PERF_SAMPLE_CPU;
	ev.sample.pid = b->pid;
	ev.sample.tid = b->tid;
	ev.sample.cpu = b->cpu;
	ev.sample.callchain = b->callchain;
	ev.sample.callchain_nr = b->callchain_nr;
	/* without -g: the leaf alone (its context marker and address) */
	if (!h->callchains && ev.sample.callchain_nr > 2)
		ev.sample.callchain_nr = 2;
	err = prism_symbols__callchain(h->sy, &ev, &h->cc, PRISM_CALLCHAIN_INLINE_UNWOUND);
	if (!err)
		err = prism_profile__add(h->p, comm, b->pid, b->tid, b->cpu, 1, h->cc.frames,
					 h->cc.nr);
	if (err)
		h->err = err;
	return err;
}

static int on_record(void *ctx, const struct prism_event *e)
{
	struct top_hot_src *h = ctx;
	int err = prism_tasks__event(h->tasks, e);

	if (!err)
		err = prism_symbols__event(h->sy, e);
	if (err)
		h->err = err;
	return err;
}

static struct prism_profile *new_profile(struct top_hot_src *h)
{
	return prism_profile__new(h->sy, 1u << PRISM_SORT_DSO | 1u << PRISM_SORT_SYM);
}

struct top_hot_src *top_hot_src_new(struct prism_util *u, unsigned int freq, bool callchains,
				    const char *filter)
{
	struct top_hot_src *h = xcalloc(1, sizeof(*h));
	/* a live session: the running kernel is the recorded one */
	struct prism_symbols_opts so = { .kallsyms = "/proc/kallsyms" };
	struct prism_util_observer o = { .sample = on_sample, .record = on_record, .ctx = h };

	h->freq = freq;
	h->callchains = callchains;
	snprintf(h->filter, sizeof(h->filter), "%s", filter);
	h->sy = prism_symbols__new(&so);
	h->tasks = prism_tasks__new();
	h->p = h->sy ? new_profile(h) : NULL;
	if (!h->sy || !h->tasks || !h->p) {
		top_hot_src_free(h);
		return NULL;
	}
	prism_util__set_observer(u, &o);
	return h;
}

void top_hot_src_free(struct top_hot_src *h)
{
	if (!h)
		return;
	prism_profile__free(h->p);
	prism_callchain__release(&h->cc);
	prism_tasks__free(h->tasks);
	prism_symbols__free(h->sy);
	free(h);
}

static const char *node_name(const struct prism_callgraph *n, char *buf, size_t len)
{
	if (n->name)
		return n->name;
	snprintf(buf, len, "%#" PRIx64, n->ip);
	return buf;
}

/* "NN.NN% caller <- its caller ...": the heaviest path up from @n */
static char *caller_line(const struct prism_callgraph *n, uint64_t total)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char buf[32];
	int depth;

	prism_strbuf_addf(&sb, "%6.2f%% ", total ? 100.0 * (double)n->period / (double)total : 0);
	for (depth = 0; n && depth < CALLER_DEPTH; depth++) {
		prism_strbuf_addf(&sb, "%s%s", depth ? " <- " : "", node_name(n, buf, sizeof(buf)));
		n = n->nr_children ? n->children[0] : NULL;
	}
	if (n)
		prism_strbuf_addstr(&sb, " <- ...");
	return prism_strbuf_detach(&sb, NULL);
}

/* the callers of row @idx (its leaf-first graph: who called it, and so on) */
static int add_callers(struct top_hot_src *h, size_t idx, struct top_hot_row *r)
{
	struct prism_callgraph *g, *n;
	size_t i;
	int err = prism_profile__callgraph(h->p, idx, false, &g);

	if (err)
		return err;
	n = g;
	/* a leaf-first graph: the row's own frame, then its callers */
	if (n->nr_children == 1)
		n = n->children[0];
	r->callers = xcalloc(NR_CALLER_LINES, sizeof(*r->callers));
	for (i = 0; i < n->nr_children && i < NR_CALLER_LINES; i++)
		r->callers[r->nr_callers++] = caller_line(n->children[i], g->period);
	return 0;
}

struct top_hot *top_hot_take(struct top_hot_src *h, size_t max_rows, const char *filter)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_DSO, PRISM_SORT_SYM };
	struct top_hot *hot = xcalloc(1, sizeof(*hot));
	struct prism_hist_entry *e;
	struct prism_profile *next;
	size_t i, nr;

	hot->samples = h->samples;
	hot->filtered = h->filtered;
	hot->freq = h->freq;
	hot->callchains = h->callchains;
	if (prism_profile__entries(h->p, keys, PRISM_ARRAY_SIZE(keys), false, &e, &nr))
		goto fail;
	if (max_rows && nr > max_rows)
		nr = max_rows;
	hot->rows = xcalloc(nr ? nr : 1, sizeof(*hot->rows));
	for (i = 0; i < nr; i++) {
		struct top_hot_row *r = &hot->rows[hot->nr++];

		r->dso = xstrdup(e[i].dso ? e[i].dso : "[unknown]");
		r->sym = e[i].sym ? xstrdup(e[i].sym) : NULL;
		r->ip = e[i].ip;
		r->kernel = e[i].kernel;
		r->samples = e[i].nr_samples;
		if (h->callchains && i < NR_CALLER_ROWS && add_callers(h, i, r))
			goto fail;
	}
	next = new_profile(h);
	if (!next)
		goto fail;
	prism_profile__free(h->p);
	h->p = next;
	h->samples = h->filtered = 0;
	snprintf(h->filter, sizeof(h->filter), "%s", filter);
	return hot;
fail:
	top_hot_free(hot);
	return NULL;
}

void top_hot_free(struct top_hot *hot)
{
	size_t i, j;

	if (!hot)
		return;
	for (i = 0; i < hot->nr; i++) {
		for (j = 0; j < hot->rows[i].nr_callers; j++)
			free(hot->rows[i].callers[j]);
		free(hot->rows[i].callers);
		free(hot->rows[i].dso);
		free(hot->rows[i].sym);
	}
	free(hot->rows);
	free(hot);
}

void top_hot_render(struct prism_strbuf *out, const struct top_hot *hot, int rows)
{
	size_t i, j;
	int shown = 0;

	prism_strbuf_addf(out,
			  "hot functions: %" PRIu64 " cpu-clock samples at %u Hz (%" PRIu64
			  " filtered out)%s\n",
			  hot->samples, hot->freq, hot->filtered,
			  hot->callchains ? ", callers of the top rows" : "");
	prism_strbuf_addf(out, "\n%9s  %-24s  %s\n", "Overhead", "Shared Object", "Symbol");
	for (i = 0; i < hot->nr && (!rows || shown < rows); i++) {
		const struct top_hot_row *r = &hot->rows[i];

		prism_strbuf_addf(out, "%8.2f%%  %-24s  [%c] ",
				  hot->samples ? 100.0 * (double)r->samples / (double)hot->samples :
						 0,
				  r->dso, r->kernel ? 'k' : '.');
		if (r->sym)
			prism_strbuf_addf(out, "%s\n", r->sym);
		else
			prism_strbuf_addf(out, "%#" PRIx64 "\n", r->ip);
		shown++;
		for (j = 0; j < r->nr_callers && (!rows || shown < rows); j++, shown++)
			prism_strbuf_addf(out, "%12s|-- %s\n", "", r->callers[j]);
	}
}
