// SPDX-License-Identifier: MIT
/*
 * prism list: the events this machine offers, as perf list prints them:
 * hardware events (when the PMU exists), software events, hardware cache
 * events, PMU events from sysfs, raw event syntax and tracepoints.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/evspec.h>
#include <prism/pmu.h>
#include <prism/suggest.h>
#include <prism/tracefs.h>

#include "cmd.h"
#include "options.h"

enum {
	CAT_HW = 1,
	CAT_SW = 2,
	CAT_CACHE = 4,
	CAT_PMU = 8,
	CAT_RAW = 16,
	CAT_TP = 32,
	CAT_ALL = 63,
};

static const struct {
	const char *name;
	unsigned int cats;
} categories[] = {
	{ "hw", CAT_HW },	{ "hardware", CAT_HW },	  { "sw", CAT_SW },
	{ "software", CAT_SW }, { "cache", CAT_CACHE },	  { "hwcache", CAT_CACHE },
	{ "pmu", CAT_PMU },	{ "tracepoint", CAT_TP },
};

struct lister {
	const char **globs;
	int nr_globs;
	bool raw_dump;
	size_t printed;
};

static bool matches(const struct lister *ls, const char *name, const char *alias)
{
	int i;

	if (!ls->nr_globs)
		return true;
	for (i = 0; i < ls->nr_globs; i++) {
		if (!fnmatch(ls->globs[i], name, 0) || (alias && !fnmatch(ls->globs[i], alias, 0)))
			return true;
	}
	return false;
}

static void print_event(struct lister *ls, const char *name, const char *alias, const char *kind)
{
	char both[160];

	if (!matches(ls, name, alias))
		return;
	ls->printed++;
	if (ls->raw_dump) {
		printf("%s%s", ls->printed > 1 ? " " : "", name);
		if (alias)
			printf(" %s", alias);
		return;
	}
	if (alias) {
		snprintf(both, sizeof(both), "%s OR %s", name, alias);
		name = both;
	}
	printf("  %-50s [%s]\n", name, kind);
}

static void list_syms(struct lister *ls, enum prism_evsym_kind kind, const char *what, bool probe)
{
	const struct prism_evsym *s;
	size_t i, n;

	s = prism_evsyms(kind, &n);
	for (i = 0; i < n; i++) {
		/* like perf, list hardware events only when they can be opened */
		if (probe && prism_event_probe(s[i].type, s[i].config))
			continue;
		print_event(ls, s[i].name, s[i].alias, what);
	}
}

struct pmu_ctx {
	struct lister *ls;
	const char *pmu;
};

static int print_pmu_event(void *ctx, const char *event, const char *terms)
{
	struct pmu_ctx *pc = ctx;
	char name[256];

	snprintf(name, sizeof(name), "%s/%s/", pc->pmu, event);
	print_event(pc->ls, name, NULL, "Kernel PMU event");
	return 0;
}

static int print_pmu(void *ctx, const char *name, uint32_t type)
{
	struct pmu_ctx pc = { .ls = ctx, .pmu = name };

	prism_pmu_for_each_event(name, print_pmu_event, &pc);
	return 0;
}

struct tp_names {
	char **v;
	size_t nr, cap;
};

static int collect_tp(void *ctx, const char *sys, const char *name)
{
	struct tp_names *t = ctx;
	size_t len = strlen(sys) + strlen(name) + 2;

	if (t->nr == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->nr] = xmalloc(len);
	snprintf(t->v[t->nr++], len, "%s:%s", sys, name);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_tracepoints(struct lister *ls, bool asked)
{
	struct tp_names t = { 0 };
	bool mounted = false;
	int err = prism_tracefs_init(&mounted);
	size_t i;

	if (mounted)
		info("mounted tracefs on %s", prism_tracefs_path());
	if (err) {
		if (!asked && !ls->nr_globs)
			return 0;
		return tracefs_explain(err, "listing");
	}
	err = prism_tracefs_for_each_tp(NULL, collect_tp, &t);
	/* perf sorts by the whole "sys:name" ("fib6:x" before "fib:x") */
	qsort(t.v, t.nr, sizeof(*t.v), cmp_str);
	for (i = 0; i < t.nr; i++) {
		if (!err)
			print_event(ls, t.v[i], NULL, "Tracepoint event");
		free(t.v[i]);
	}
	free(t.v);
	if (err < 0)
		return error_errno(err, "cannot read %s/events", prism_tracefs_path());
	return 0;
}

/* "*word*" */
static char *substring_glob(const char *word)
{
	size_t len = strlen(word) + 3;
	char *s = xmalloc(len);

	snprintf(s, len, "*%s*", word);
	return s;
}

static unsigned int category_of(const char *arg)
{
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(categories); i++)
		if (!strcmp(arg, categories[i].name))
			return categories[i].cats;
	return 0;
}

static void no_match(const char *const *args, int argc)
{
	const char *names[PRISM_ARRAY_SIZE(categories)];
	const char *best;
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(categories); i++)
		names[i] = categories[i].name;
	error("no event matches '%s'%s", args[0], argc > 1 ? " (or the other patterns)" : "");
	best = argc == 1 && !strpbrk(args[0], "*?[:/") ?
		       prism_suggest(args[0], names, PRISM_ARRAY_SIZE(names)) :
		       NULL;
	if (best)
		hint("did you mean the category '%s'?", best);
	else
		hint("a word matches anywhere in a name; with a ':' it is a glob for whole "
		     "tracepoint names ('sched:*'); see 'prism list' for all events");
}

int cmd_list(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism list [--raw-dump] [hw|sw|cache|pmu|tracepoint] [<glob>...]",
		"prism list 'sched:sched_wak*'",
		NULL,
	};
	bool raw_dump = false;
	const struct option_def opts[] = {
		OPT_GROUP(
			"Arguments: a category (hw or hardware, sw or software, cache, pmu, "
			"tracepoint) limits the list to it; any other argument selects events: a "
			"word matches anywhere in a name ('fault'), an argument with ':' is a glob "
			"for whole tracepoint names ('sched:sched_wak*')"),
		OPT_GROUP("Options"),
		OPT_BOOL(0, "raw-dump", &raw_dump,
			 "print only the names, separated by spaces (for shell completion)"),
		OPT_END(),
	};
	const char *globs[64], *args[64];
	char *to_free[64];
	int nr_free = 0, nr_args = 0;
	struct lister ls = { .globs = globs };
	unsigned int cats = 0;
	bool have_hw;
	int i, ret = 0;

	argc = parse_options(argc, argv, opts, usage, 0);
	for (i = 0; i < argc; i++) {
		unsigned int c = category_of(argv[i]);

		if (c) {
			cats |= c;
		} else {
			if (ls.nr_globs == (int)PRISM_ARRAY_SIZE(globs))
				usage_error(usage, opts, "too many patterns (at most %zu)",
					    PRISM_ARRAY_SIZE(globs));
			/* as perf: a word without ':' matches anywhere in a name */
			if (strchr(argv[i], ':'))
				globs[ls.nr_globs++] = argv[i];
			else
				globs[ls.nr_globs++] = to_free[nr_free++] = substring_glob(argv[i]);
			args[nr_args++] = argv[i];
		}
	}
	ls.raw_dump = raw_dump;
	if (!cats)
		cats = CAT_ALL;

	have_hw = prism_pmu_have_hw();
	if (cats & CAT_HW) {
		if (have_hw)
			list_syms(&ls, PRISM_EVSYM_HARDWARE, "Hardware event", true);
		else if (!raw_dump && !ls.nr_globs)
			printf("  (no hardware PMU on this machine: hardware and cache events such as "
			       "cycles are unavailable; use cpu-clock or task-clock)\n");
	}
	if (cats & CAT_SW)
		list_syms(&ls, PRISM_EVSYM_SOFTWARE, "Software event", false);
	if ((cats & CAT_CACHE) && have_hw)
		list_syms(&ls, PRISM_EVSYM_HW_CACHE, "Hardware cache event", true);
	if (cats & CAT_PMU)
		prism_pmu_for_each(print_pmu, &ls);
	if ((cats & CAT_RAW) && !ls.nr_globs && !raw_dump) {
		print_event(&ls, "rNNN", NULL, "Raw hardware event descriptor");
		print_event(&ls, "<pmu>/t1=v1[,t2=v2,t3 ...]/modifier", NULL,
			    "Raw hardware event descriptor");
	}
	if (cats & CAT_TP)
		ret = list_tracepoints(&ls, cats == CAT_TP);
	if (raw_dump && ls.printed)
		putchar('\n');
	if (!ret && ls.nr_globs && !ls.printed) {
		no_match(args, nr_args);
		ret = 1;
	}
	while (nr_free)
		free(to_free[--nr_free]);
	return ret ? 1 : 0;
}
