// SPDX-License-Identifier: MIT
/*
 * Lists from options: --comms/--dsos/--symbols names, --pid/--tid
 * numbers (report and script), repeated options (--map-path).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "options.h"
#include "lists.h"

void strlist_release(struct strlist *l)
{
	free(l->v);
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

int opt_append(const struct option_def *opt, const char *arg)
{
	struct strlist *l = opt->value;

	l->v = xrealloc(l->v, (l->nr + 2) * sizeof(*l->v));
	l->v[l->nr++] = arg;
	l->v[l->nr] = NULL;
	return 0;
}

int opt_map_path(const struct option_def *opt, const char *arg)
{
	if (!strchr(arg, '=')) {
		error("--map-path '%s': expected OLD=NEW", arg);
		hint("e.g. --map-path /tmp/app=/home/me/build/app");
		return -1;
	}
	return opt_append(opt, arg);
}

void split_list(const char *s, struct strlist *out)
{
	char *copy, *p, *save = NULL;

	if (!s)
		return;
	copy = xstrdup(s);
	free(out->buf);
	out->buf = copy;
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		out->v = xrealloc(out->v, (out->nr + 1) * sizeof(*out->v));
		out->v[out->nr++] = p;
	}
}

int parse_ids(const char *s, const char *what, uint32_t **out, size_t *nr)
{
	struct strlist l = { 0 };
	size_t i;

	split_list(s, &l);
	*out = xcalloc(l.nr + 1, sizeof(**out));
	for (i = 0; i < l.nr; i++) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(l.v[i], &end, 10);
		if (errno || *end || end == l.v[i]) {
			error("--%s: '%s' is not a number", what, l.v[i]);
			hint("give numbers separated by commas, e.g. --%s 1234,5678", what);
			strlist_release(&l);
			return -1;
		}
		(*out)[i] = (uint32_t)v;
	}
	*nr = l.nr;
	strlist_release(&l);
	return 0;
}

bool in_ids(const uint32_t *v, size_t nr, uint32_t x)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

bool in_list(const struct strlist *l, const char *s)
{
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}
