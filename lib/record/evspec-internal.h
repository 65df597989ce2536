/* SPDX-License-Identifier: MIT */
/*
 * Internals of the event parser, shared by lib/record/evspec*.c.
 */
#ifndef PRISM_RECORD_EVSPEC_INTERNAL_H
#define PRISM_RECORD_EVSPEC_INTERNAL_H

#include <prism/evspec.h>

struct evspec_node {
	struct prism_evspec pub;
	bool exclude_GH; /* a G or H modifier was given (perf's evsel->exclude_GH) */
};

struct prism_evspecs {
	struct evspec_node **v;
	size_t nr, cap;
	size_t last_start; /* first event added by the last successful parse */
	char *error;
	int error_col;
};

/* events being parsed from one -e argument, appended only when all of it parsed */
struct evparse {
	struct prism_evspecs *l;
	const char *str; /* the whole argument */
	struct evspec_node **v;
	size_t nr, cap;
};

/* a new node with perf's defaults (size, exclude_guest), name = @name[0..@len) */
struct evspec_node *evspec_node__new(uint32_t type, uint64_t config, const char *name, size_t len);
void evspec_node__free(struct evspec_node *n);
/* add @n to the pending list (takes ownership, frees it on failure) */
int evparse__add(struct evparse *p, struct evspec_node *n);

/*
 * record the error message (printf-style) at 1-based column @col (0 =
 * none); returns @err for "return evparse__error(...)"
 */
int evparse__error(struct evparse *p, int err, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* symbolic events: software, hardware and cache names and aliases */
bool evsym_lookup(const char *name, size_t len, uint32_t *type, uint64_t *config);
/* every symbolic name and alias (for "did you mean"); static, @n set */
const char *const *evsym_names(size_t *n);

/* modifiers ":ukp...": apply to node; @add = group modifier on top of the member's own */
int evparse__modifiers(struct evparse *p, struct evspec_node *n, const char *mods, size_t len,
		       int col, bool add);
/* "a=1,b,c=0x3" of PMU @pmu (NULL for a symbolic event) */
/* evspec-pt.c: intel_pt's default terms (perf's default config), before the event's own */
int evparse__pt_defaults(struct evparse *p, struct evspec_node *n, const char *pmu, int col);
/* after the terms: cyc_thresh, mtc_period, psb_period among the values caps/ lists */
int evparse__pt_check(struct evparse *p, struct evspec_node *n, const char *pmu, int col);
int evparse__terms(struct evparse *p, struct evspec_node *n, const char *pmu, const char *terms,
		   size_t len, int col);
/* sys:name with globs; adds one node per tracepoint */
int evparse__tracepoint(struct evparse *p, const char *sys, size_t sys_len, const char *name,
			size_t name_len, int col, size_t *first);
/* error for a word that is no known event, with suggestions */
int evparse__unknown(struct evparse *p, const char *word, size_t len, int col);

#endif /* PRISM_RECORD_EVSPEC_INTERNAL_H */
