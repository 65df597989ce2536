/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean ...?" helpers.
 */
#ifndef PRISM_SUGGEST_H
#define PRISM_SUGGEST_H

#include <prism/core.h>

/**
 * prism_edit_distance - Damerau-Levenshtein distance (adjacent swaps count 1)
 * @a: first string
 * @b: second string
 *
 * Return: the distance, or SIZE_MAX when the strings are too long (> 255).
 */
PRISM_API size_t prism_edit_distance(const char *a, const char *b);

/**
 * prism_suggest - the candidate closest to @word, if close enough
 * @word: what the user typed
 * @cands: candidate names
 * @n: number of candidates
 *
 * A candidate qualifies when its distance is at most max(2, strlen/3), or
 * when @word is a prefix of it.  Ties go to the earliest candidate.
 *
 * Return: a pointer into @cands, or NULL when nothing is close.
 */
PRISM_API const char *prism_suggest(const char *word, const char *const *cands, size_t n);

#endif /* PRISM_SUGGEST_H */
