// SPDX-License-Identifier: MIT
/*
 * Stable sort of copied records by time, for the time-ordering queue.
 */
#include <string.h>

#include "internal.h"
#include "session/ordered-sort.h"

/* stable merge of the sorted runs [a, ae) and [b, be) into d */
__wraps void ord_merge(struct ord_ent *restrict d, const struct ord_ent *a,
		       const struct ord_ent *ae, const struct ord_ent *b, const struct ord_ent *be)
{
	if (a < ae && b < be && ae[-1].time > b->time) {
		while (a < ae && b < be) {
			/*
			 * Branch-free: which CPU comes next is unpredictable.
			 * The mask select keeps compilers from turning it back
			 * into a branch.
			 */
			uintptr_t take_b = b->time < a->time;
			uintptr_t sel = ((uintptr_t)a ^ (uintptr_t)b) & -take_b;

			*d++ = *(const struct ord_ent *)((uintptr_t)a ^ sel);
			a += 1 - take_b;
			b += take_b;
		}
	}
	memcpy(d, a, (size_t)(ae - a) * sizeof(*a));
	d += ae - a;
	memcpy(d, b, (size_t)(be - b) * sizeof(*b));
}

/* @v[0, @sorted) is sorted; insert @v[@sorted, @n) into it, stably */
static void insertion_sort(struct ord_ent *v, size_t sorted, size_t n)
{
	size_t i, j;

	for (i = sorted; i < n; i++) {
		struct ord_ent x = v[i];

		for (j = i; j > 0 && v[j - 1].time > x.time; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Split @v into ascending runs of at least MIN_RUN entries (but the last):
 * run i is [@runs[i], @runs[i + 1]).  Return the number of runs.
 * Note: @runs needs room for ORD_SORT_RUNS(@n) entries.
 */
static size_t find_runs(struct ord_ent *v, size_t n, size_t *runs)
{
	size_t k = 0, i = 0, j, end;

	runs[0] = 0;
	while (i < n) {
		for (j = i + 1; j < n && v[j - 1].time <= v[j].time; j++)
			;
		if (j - i < MIN_RUN && j < n) {
			end = n - i > MIN_RUN ? i + MIN_RUN : n;
			insertion_sort(v + i, j - i, end - i);
			for (j = end; j < n && v[j - 1].time <= v[j].time; j++)
				;
		}
		runs[++k] = j;
		i = j;
	}
	return k;
}

struct ord_ent *ord_sort(struct ord_ent *v, struct ord_ent *tmp, size_t n, size_t *runs)
{
	struct ord_ent *src = v, *dst = tmp, *t;
	size_t k, nk, r;

	k = find_runs(src, n, runs);
	while (k > 1) {
		for (r = 0, nk = 0; r + 1 < k; r += 2) {
			ord_merge(dst + runs[r], src + runs[r], src + runs[r + 1],
				  src + runs[r + 1], src + runs[r + 2]);
			runs[++nk] = runs[r + 2];
		}
		if (r < k) {
			memcpy(dst + runs[r], src + runs[r],
			       (runs[r + 1] - runs[r]) * sizeof(*src));
			runs[++nk] = runs[r + 1];
		}
		k = nk;
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}
