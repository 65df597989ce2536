/* SPDX-License-Identifier: MIT */
/*
 * The stable sort of the time-ordering queue's copied records (ordered.c):
 * natural runs (each CPU's records of a round are already in order),
 * extended to MIN_RUN by insertion, then branch-free pairwise merges.
 */
#ifndef PRISM_ORDERED_SORT_H
#define PRISM_ORDERED_SORT_H

#include <stddef.h>
#include <stdint.h>

struct ord_ent {
	uint64_t time;
	char *data; /* the copy; its struct ord_hdr is just before it */
};

/* runs shorter than this are extended with an insertion sort */
#define MIN_RUN 32
/* entries the @runs scratch of ord_sort() needs for @n records */
#define ORD_SORT_RUNS(n) ((n) / MIN_RUN + 2)

/* stable merge of the sorted runs [a, ae) and [b, be) into d (ties: a first) */
void ord_merge(struct ord_ent *restrict d, const struct ord_ent *a, const struct ord_ent *ae,
	       const struct ord_ent *b, const struct ord_ent *be);

/*
 * Sort @v[0, @n) by time, stably, using @tmp (room for @n entries) and
 * @runs (ORD_SORT_RUNS(@n) entries) as scratch.  Returns the buffer that
 * holds the result: @v or @tmp.
 */
struct ord_ent *ord_sort(struct ord_ent *v, struct ord_ent *tmp, size_t n, size_t *runs);

#endif /* PRISM_ORDERED_SORT_H */
