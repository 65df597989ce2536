// SPDX-License-Identifier: MIT
/*
 * Closest-name suggestions for mistyped commands, options and events.
 */
#include <prism/suggest.h>

#include "internal.h"

#define MAX_LEN 255

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t prism_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	/* three rows: i-2, i-1, i (optimal string alignment distance) */
	size_t rows[3][MAX_LEN + 1];
	size_t i, j;

	if (la > MAX_LEN || lb > MAX_LEN)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3];
		size_t *prev = rows[(i + 2) % 3];
		size_t *pprev = rows[(i + 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    pprev[j - 2] + 1 < cur[j])
				cur[j] = pprev[j - 2] + 1;
		}
	}
	return rows[la % 3][lb];
}

const char *prism_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t best = SIZE_MAX, limit, wlen = strlen(word), i, nr_prefix = 0;
	const char *res = NULL, *prefixed = NULL;

	/* the one name that starts with the word wins: "rep" -> "report", not "help" */
	for (i = 0; wlen && i < n; i++)
		if (!strncmp(cands[i], word, wlen) && !nr_prefix++)
			prefixed = cands[i];
	if (nr_prefix == 1)
		return prefixed;
	limit = wlen / 3 > 2 ? wlen / 3 : 2;
	for (i = 0; i < n; i++) {
		size_t d = prism_edit_distance(word, cands[i]);

		if (d < best) {
			best = d;
			res = cands[i];
		}
	}
	if (res && best <= limit && best < wlen)
		return res;
	/* one of several names it starts: "re" -> "record" */
	return prefixed;
}
