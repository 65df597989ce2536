// SPDX-License-Identifier: MIT
/*
 * perf annotate's histograms: per event, the symbols its samples hit, each
 * with its samples per address (perf's sym_hist), and the event's totals;
 * the symbols in perf's order.
 */
#include <prism/annotate.h>

#include "annotate-internal.h"

static const char *const pct_names[PRISM_PERCENT__MAX] = {
	[PRISM_PERCENT_LOCAL_HITS] = "local hits",
	[PRISM_PERCENT_GLOBAL_HITS] = "global hits",
	[PRISM_PERCENT_LOCAL_PERIOD] = "local period",
	[PRISM_PERCENT_GLOBAL_PERIOD] = "global period",
};

/* perf: "local" or "global" and "hits" or "period", either first, joined by '-' */
int prism_percent_type__parse(const char *s)
{
	const char *dash = s ? strchr(s, '-') : NULL;
	int scope = -1, what = -1, i;

	if (!dash)
		return -1;
	for (i = 0; i < 2; i++) {
		const char *w = i ? dash + 1 : s;
		size_t n = i ? strlen(dash + 1) : (size_t)(dash - s);

		if (n == 5 && !strncmp(w, "local", 5))
			scope = 0;
		else if (n == 6 && !strncmp(w, "global", 6))
			scope = 1;
		else if (n == 4 && !strncmp(w, "hits", 4))
			what = 0;
		else if (n == 6 && !strncmp(w, "period", 6))
			what = 2;
		else
			return -1;
	}
	if (scope < 0 || what < 0)
		return -1;
	return what + scope;
}

const char *prism_percent_type__str(enum prism_percent_type t)
{
	return t < PRISM_PERCENT__MAX ? pct_names[t] : "?";
}

struct prism_annotate *prism_annotate__new(struct prism_symbols *sy, size_t nr_events)
{
	struct prism_annotate *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->sy = sy;
	a->nr_events = nr_events;
	a->ev = calloc(nr_events ? nr_events : 1, sizeof(*a->ev));
	if (!a->ev) {
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	return a;
}

void prism_annotate__set_label_symbols(struct prism_annotate *a, struct prism_symbols *sy)
{
	a->label_sy = sy;
}

void prism_annotate__free(struct prism_annotate *a)
{
	size_t i, j;

	if (!a)
		return;
	for (i = 0; i < a->nr_events; i++) {
		struct ann_event *e = &a->ev[i];

		for (j = 0; j < e->nr_syms; j++)
			free(e->syms[j].pub.hits);
		free(e->syms);
		free(e->sorted);
		free(e->slots);
	}
	free(a->ev);
	free(a->missing);
	free(a->group);
	ann_labels_free(a);
	free(a);
}

static uint64_t hash_ptr(const void *p)
{
	uint64_t h = (uint64_t)(uintptr_t)p;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

/* the open-addressed index of symbols by identity (slots hold index + 1) */
static int grow_slots(struct ann_event *e)
{
	size_t n = e->nr_slots ? e->nr_slots * 2 : 64, i;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (i = 0; i < e->nr_syms; i++) {
		size_t k = hash_ptr(e->syms[i].id) & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(e->slots);
	e->slots = s;
	e->nr_slots = n;
	return 0;
}

static struct ann_sym *find_sym(struct ann_event *e, const struct prism_frame *f, uint32_t pid)
{
	struct ann_sym *s;
	size_t k;

	if ((e->nr_syms + 1) * 2 > e->nr_slots && grow_slots(e))
		return NULL;
	for (k = hash_ptr(f->sym_id) & (e->nr_slots - 1); e->slots[k];
	     k = (k + 1) & (e->nr_slots - 1))
		if (e->syms[e->slots[k] - 1].id == f->sym_id)
			return &e->syms[e->slots[k] - 1];
	if (prism_ensure_mem((void **)&e->syms, &e->alloc_syms, sizeof(*e->syms), e->nr_syms + 1))
		return NULL;
	s = &e->syms[e->nr_syms];
	memset(s, 0, sizeof(*s));
	s->id = f->sym_id;
	s->pub.name = f->sym;
	s->pub.dso_name = f->dso_name;
	s->pub.dso_path = f->dso_path;
	s->pub.dso = f->dso;
	s->pub.start = f->sym_start;
	s->pub.end = f->sym_end;
	s->pub.kernel = f->kernel;
	s->pub.pid = pid;
	s->pub.ip = f->ip;
	s->pub.dso_addr = f->dso_addr;
	e->slots[k] = (uint32_t)++e->nr_syms;
	return s;
}

/* the hit at @off: the last one found first (samples come in runs), else a search */
static struct prism_annotate_hit *find_hit(struct ann_sym *s, uint64_t off)
{
	struct prism_annotate_sym *p = &s->pub;
	size_t lo = 0, hi = p->nr_hits;

	if (s->last < p->nr_hits && p->hits[s->last].offset == off)
		return &p->hits[s->last];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->hits[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->nr_hits || p->hits[lo].offset != off) {
		if (prism_ensure_mem((void **)&p->hits, &s->alloc_hits, sizeof(*p->hits),
				     p->nr_hits + 1))
			return NULL;
		memmove(&p->hits[lo + 1], &p->hits[lo], (p->nr_hits - lo) * sizeof(*p->hits));
		memset(&p->hits[lo], 0, sizeof(*p->hits));
		p->hits[lo].offset = off;
		p->nr_hits++;
	}
	s->last = lo;
	return &p->hits[lo];
}

int prism_annotate__add_missing(struct prism_annotate *a, struct prism_dso *dso)
{
	size_t i;

	for (i = 0; i < a->nr_missing; i++)
		if (a->missing[i].dso == dso) {
			a->missing[i].nr++;
			return 0;
		}
	if (prism_ensure_mem((void **)&a->missing, &a->alloc_missing, sizeof(*a->missing),
			     a->nr_missing + 1))
		return -ENOMEM;
	a->missing[a->nr_missing].dso = dso;
	a->missing[a->nr_missing++].nr = 1;
	return 0;
}

int prism_annotate__add(struct prism_annotate *a, size_t ev, uint32_t pid,
			const struct prism_frame *f, uint64_t period)
{
	struct ann_event *e;
	struct ann_sym *s;
	struct prism_annotate_hit *h;

	/* a pipe's events are known as its records come */
	if (ev >= a->nr_events) {
		struct ann_event *n;

		if (ev >= UINT16_MAX)
			return -EINVAL;
		n = prism_reallocarray(a->ev, ev + 1, sizeof(*a->ev));
		if (!n)
			return -ENOMEM;
		memset(n + a->nr_events, 0, (ev + 1 - a->nr_events) * sizeof(*n));
		a->ev = n;
		a->nr_events = ev + 1;
	}
	e = &a->ev[ev];
	e->nr_samples++;
	e->period += period;
	e->sorted_ok = false;
	if (!f->sym || !f->sym_id) {
		/* a user DSO whose binary was not found: say so, with its build id */
		if (f->dso && !f->kernel && !prism_dso__symsrc(f->dso))
			return prism_annotate__add_missing(a, f->dso);
		return 0;
	}
	/* perf: an address past the symbol's end is not counted (ERANGE) */
	if (f->dso_addr < f->sym_start ||
	    (f->dso_addr >= f->sym_end &&
	     !(f->dso_addr == f->sym_end && f->sym_start == f->sym_end)))
		return 0;
	s = find_sym(e, f, pid);
	if (!s)
		return -ENOMEM;
	h = find_hit(s, f->dso_addr - f->sym_start);
	if (!h)
		return -ENOMEM;
	h->nr_samples++;
	h->period += period;
	s->pub.nr_samples++;
	s->pub.period += period;
	return 0;
}

void prism_annotate__totals(const struct prism_annotate *a, size_t ev, uint64_t *nr_samples,
			    uint64_t *period)
{
	*nr_samples = ev < a->nr_events ? a->ev[ev].nr_samples : 0;
	*period = ev < a->nr_events ? a->ev[ev].period : 0;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/*
 * perf's output order of hist entries sorted by "dso,symbol": period,
 * descending, then the DSO's short name and the symbol's name, ascending
 * (distinct symbols of one name: by address, the order they were merged in)
 */
static int cmp_sym(const void *pa, const void *pb)
{
	const struct prism_annotate_sym *a = *(const struct prism_annotate_sym *const *)pa;
	const struct prism_annotate_sym *b = *(const struct prism_annotate_sym *const *)pb;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	c = cmp_str(a->dso_name, b->dso_name);
	if (c)
		return c;
	c = cmp_str(a->name, b->name);
	if (c)
		return c;
	return a->start < b->start ? -1 : a->start > b->start;
}

int prism_annotate__symbols(struct prism_annotate *a, size_t ev,
			    const struct prism_annotate_sym *const **out, size_t *nr)
{
	struct ann_event *e;
	size_t i;

	if (ev >= a->nr_events)
		return -EINVAL;
	e = &a->ev[ev];
	if (!e->sorted_ok) {
		free(e->sorted);
		e->sorted =
			prism_reallocarray(NULL, e->nr_syms ? e->nr_syms : 1, sizeof(*e->sorted));
		if (!e->sorted)
			return -ENOMEM;
		for (i = 0; i < e->nr_syms; i++)
			e->sorted[i] = &e->syms[i].pub;
		qsort(e->sorted, e->nr_syms, sizeof(*e->sorted), cmp_sym);
		e->sorted_ok = true;
	}
	*out = (const struct prism_annotate_sym *const *)e->sorted;
	*nr = e->nr_syms;
	return 0;
}

static struct ann_sym *lookup(const struct ann_event *e, const void *id)
{
	size_t k;

	if (!e->nr_slots)
		return NULL;
	for (k = hash_ptr(id) & (e->nr_slots - 1); e->slots[k]; k = (k + 1) & (e->nr_slots - 1))
		if (e->syms[e->slots[k] - 1].id == id)
			return &e->syms[e->slots[k] - 1];
	return NULL;
}

const struct prism_annotate_sym *prism_annotate__sym_of(const struct prism_annotate *a, size_t ev,
							const struct prism_annotate_sym *s)
{
	const struct ann_sym *as = (const struct ann_sym *)s; /* pub is its first member */
	const struct ann_sym *f;

	if (ev >= a->nr_events)
		return NULL;
	f = lookup(&a->ev[ev], as->id);
	return f ? &f->pub : NULL;
}

/* a group's symbol: its periods in the group's events (0 where none), then perf's keys */
struct group_row {
	struct prism_annotate_sym *s;
	uint64_t *periods;
};

static size_t group_nr; /* the events of the rows being sorted */

static int cmp_group(const void *pa, const void *pb)
{
	const struct group_row *a = pa, *b = pb;
	size_t j;

	for (j = 0; j < group_nr; j++)
		if (a->periods[j] != b->periods[j])
			return a->periods[j] > b->periods[j] ? -1 : 1;
	return cmp_sym(&a->s, &b->s);
}

int prism_annotate__group_symbols(struct prism_annotate *a, const size_t *evs, size_t nr_evs,
				  const struct prism_annotate_sym *const **out, size_t *nr)
{
	struct group_row *rows = NULL;
	uint64_t *periods = NULL;
	size_t n = 0, cap = 0, i, j, k;
	int err = -ENOMEM;

	for (j = 0; j < nr_evs; j++)
		cap += evs[j] < a->nr_events ? a->ev[evs[j]].nr_syms : 0;
	rows = calloc(cap + 1, sizeof(*rows));
	periods = calloc((cap + 1) * (nr_evs ? nr_evs : 1), sizeof(*periods));
	if (!rows || !periods)
		goto out;
	/* each symbol once, from the first event that has it */
	for (j = 0; j < nr_evs; j++) {
		const struct ann_event *e = evs[j] < a->nr_events ? &a->ev[evs[j]] : NULL;

		for (i = 0; e && i < e->nr_syms; i++) {
			bool seen = false;

			for (k = 0; k < j && !seen; k++)
				seen = evs[k] < a->nr_events &&
				       lookup(&a->ev[evs[k]], e->syms[i].id);
			if (seen)
				continue;
			rows[n].s = &e->syms[i].pub;
			rows[n].periods = &periods[n * nr_evs];
			for (k = 0; k < nr_evs; k++) {
				const struct prism_annotate_sym *o =
					prism_annotate__sym_of(a, evs[k], &e->syms[i].pub);

				rows[n].periods[k] = o ? o->period : 0;
			}
			n++;
		}
	}
	group_nr = nr_evs;
	qsort(rows, n, sizeof(*rows), cmp_group);
	free(a->group);
	a->group = calloc(n + 1, sizeof(*a->group));
	if (!a->group)
		goto out;
	for (i = 0; i < n; i++)
		a->group[i] = rows[i].s;
	*out = (const struct prism_annotate_sym *const *)a->group;
	*nr = n;
	err = 0;
out:
	free(rows);
	free(periods);
	return err;
}

struct prism_dso *prism_annotate__missing(const struct prism_annotate *a, size_t i, uint64_t *nr)
{
	if (i >= a->nr_missing)
		return NULL;
	*nr = a->missing[i].nr;
	return a->missing[i].dso;
}
