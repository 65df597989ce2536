/* SPDX-License-Identifier: MIT */
/*
 * prism top's hot view: cpu-clock samples of the same live recording,
 * symbolized (lib/symbol) and aggregated per interval (lib/profile) as
 * prism report does, shown as perf top's overhead / shared object / symbol
 * rows, with the callers of the top rows when call chains are shown (-g).
 */
#ifndef PRISM_CMD_TOP_HOT_H
#define PRISM_CMD_TOP_HOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <prism/strbuf.h>

struct prism_evspecs;
struct prism_util;
struct top_hot_src;

/* one row of an interval: a function (or an address without a symbol) */
struct top_hot_row {
	char *dso, *sym; /* sym NULL: unresolved, show ip */
	uint64_t ip, samples;
	bool kernel;
	char **callers; /* -g: "NN.NN% caller <- its caller ..." lines */
	size_t nr_callers;
};

/* the hot functions of an interval, copied out for the display */
struct top_hot {
	struct top_hot_row *rows;
	size_t nr;
	uint64_t samples, filtered; /* all cpu-clock samples; those the filter left out */
	unsigned int freq;
	bool callchains;
};

/* add the cpu-clock event at @freq Hz, with call chains (always: the
 * leaf's address comes from the chain); prints its errors, returns 0 or 1 */
int top_hot_events(struct prism_evspecs *specs, unsigned int freq);

/* the reader side: symbols and the interval's profile; NULL: no memory */
struct top_hot_src *top_hot_src_new(struct prism_util *u, unsigned int freq, bool callchains,
				    const char *filter);
void top_hot_src_free(struct top_hot_src *h);

/*
 * The interval's hot functions (the @max_rows first rows, 0: all) and a
 * fresh profile for the next one, whose samples are kept when they match
 * @filter (a pid/tid or part of a comm; "" keeps all).  NULL: no memory.
 */
struct top_hot *top_hot_take(struct top_hot_src *h, size_t max_rows, const char *filter);
void top_hot_free(struct top_hot *hot); /* accepts NULL */

/* the rows as text, at most @rows lines of rows and callers (0: all) */
void top_hot_render(struct prism_strbuf *out, const struct top_hot *hot, int rows);

/* whether a task matches a filter (a pid/tid, or part of its comm; "" matches) */
bool top_filter_match(const char *filter, uint32_t pid, uint32_t tid, const char *comm);

#endif /* PRISM_CMD_TOP_HOT_H */
