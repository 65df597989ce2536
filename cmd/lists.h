/* SPDX-License-Identifier: MIT */
/*
 * Lists from options (cmd/lists.c): comma-separated names and numbers
 * (--comms, --dsos, --symbols, --pid, --tid of report and script), and
 * repeated options (--map-path).
 */
#ifndef PRISM_CMD_LISTS_H
#define PRISM_CMD_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strlist {
	const char **v;
	size_t nr;
	char *buf; /* the split copy the entries point into */
};

void strlist_release(struct strlist *l);
struct option_def;
/* an option's callback: @arg appended to the strlist at opt->value */
int opt_append(const struct option_def *opt, const char *arg);
/* --map-path OLD=NEW (repeatable): opt_append after checking the '=' */
int opt_map_path(const struct option_def *opt, const char *arg);
/* @s split at commas into @out (which owns the copy) */
void split_list(const char *s, struct strlist *out);
/* @s as comma-separated numbers; -1 (said) when one is not */
int parse_ids(const char *s, const char *what, uint32_t **out, size_t *nr);
bool in_ids(const uint32_t *v, size_t nr, uint32_t x);
bool in_list(const struct strlist *l, const char *s);

#endif /* PRISM_CMD_LISTS_H */
