// SPDX-License-Identifier: MIT
/*
 * Tracepoints in event specs ("sys:name", globs), and the suggestions for
 * names that match nothing.
 */
#include <stdio.h>

#include <prism/pmu.h>
#include <prism/suggest.h>
#include <prism/tracefs.h>

#include "internal.h"
#include "record/evspec-internal.h"
#include "record/pmu-internal.h"
#include "record/tracefs-internal.h"

#define NR_CLOSEST 3

struct closest {
	const char *word;
	size_t max_dist;
	char name[NR_CLOSEST][160];
	size_t dist[NR_CLOSEST];
	size_t nr;
};

static void closest_offer(struct closest *c, const char *cand)
{
	size_t d = prism_edit_distance(c->word, cand), i, pos;

	/* a candidate the word is a prefix of counts as close */
	if (d > c->max_dist && !strncmp(cand, c->word, strlen(c->word)))
		d = c->max_dist;
	if (d > c->max_dist)
		return;
	for (pos = 0; pos < c->nr && c->dist[pos] <= d; pos++)
		;
	if (pos >= NR_CLOSEST)
		return;
	for (i = c->nr < NR_CLOSEST ? c->nr : NR_CLOSEST - 1; i > pos; i--) {
		memcpy(c->name[i], c->name[i - 1], sizeof(c->name[i]));
		c->dist[i] = c->dist[i - 1];
	}
	snprintf(c->name[pos], sizeof(c->name[pos]), "%s", cand);
	c->dist[pos] = d;
	if (c->nr < NR_CLOSEST)
		c->nr++;
}

static int offer_tp(void *ctx, const char *sys, const char *name)
{
	char full[160];

	snprintf(full, sizeof(full), "%s:%s", sys, name);
	closest_offer(ctx, full);
	return 0;
}

/* ", closest: a, b, c" or "" */
static void closest_str(const struct closest *c, char *buf, size_t size)
{
	size_t i, len;

	buf[0] = '\0';
	for (i = 0; i < c->nr; i++) {
		len = strlen(buf);
		snprintf(buf + len, size - len, "%s%s", i ? ", " : "; closest: ", c->name[i]);
	}
}

static int tracefs_error(struct evparse *p, int err, const char *what, int col)
{
	if (err == -EACCES)
		return evparse__error(
			p, -EACCES, col,
			"cannot use tracepoint '%s' at column %d: tracefs is mounted but this user "
			"may not read it; tracepoints need root, or CAP_PERFMON and a readable "
			"tracefs",
			what, col);
	return evparse__error(p, err, col,
			      "tracepoint '%s' at column %d needs tracefs, which is not mounted: "
			      "run prism as root (it mounts it) or 'mount -t tracefs nodev "
			      "/sys/kernel/tracing'",
			      what, col);
}

struct tp_add {
	struct evparse *p;
	int col;
	size_t count;
};

static int add_tp(void *ctx, const char *sys, const char *name)
{
	struct tp_add *t = ctx;
	struct evspec_node *n;
	char full[512];
	uint64_t id;
	int len, err = prism_tracefs_tp_id(sys, name, &id);

	if (err)
		return evparse__error(t->p, err, t->col,
				      "cannot read the id of tracepoint '%s:%s': %s", sys, name,
				      strerror(-err));
	len = snprintf(full, sizeof(full), "%s:%s", sys, name);
	if (len < 0 || (size_t)len >= sizeof(full))
		return evparse__error(t->p, -EINVAL, t->col, "tracepoint name '%s:%s' too long",
				      sys, name);
	n = evspec_node__new(PERF_TYPE_TRACEPOINT, id, full, (size_t)len);
	if (n) {
		n->pub.tp_sys = strdup(sys);
		n->pub.tp_name = strdup(name);
	}
	if (!n || !n->pub.tp_sys || !n->pub.tp_name) {
		evspec_node__free(n);
		return -ENOMEM;
	}
	/* perf samples every tracepoint hit by default */
	n->pub.attr.sample_period = 1;
	t->count++;
	return evparse__add(t->p, n);
}

static bool valid_tp_chars(const char *s, size_t len, bool *glob)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (c == '*' || c == '?' || c == '[' || c == ']') {
			*glob = true;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.' || c == '!'))
			return false;
	}
	return true;
}

int evparse__tracepoint(struct evparse *p, const char *sys, size_t sys_len, const char *name,
			size_t name_len, int col, size_t *first)
{
	struct tp_add t = { .p = p, .col = col };
	struct closest c = { 0 };
	char full[320], near[600];
	bool glob = false;
	int err;

	*first = p->nr;
	if (!sys_len || !name_len)
		return evparse__error(p, -EINVAL, col,
				      "tracepoint '%.*s:%.*s' at column %d: expected 'system:name' "
				      "(e.g. sched:sched_switch)",
				      (int)sys_len, sys, (int)name_len, name, col);
	if (sys_len + name_len + 2 > 300)
		return evparse__error(p, -EINVAL, col, "tracepoint name at column %d is too long",
				      col);
	snprintf(full, sizeof(full), "%.*s:%.*s", (int)sys_len, sys, (int)name_len, name);
	if (!valid_tp_chars(sys, sys_len, &glob) || !valid_tp_chars(name, name_len, &glob))
		return evparse__error(p, -EINVAL, col,
				      "bad character in tracepoint '%s' at column %d; names use "
				      "letters, digits and '_', globs '*', '?' and '[...]'",
				      full, col);
	err = tracefs__find();
	if (err)
		return tracefs_error(p, err, full, col);
	if (glob) {
		err = prism_tracefs_for_each_tp(full, add_tp, &t);
		if (err)
			return err == -ENOMEM ? err :
						evparse__error(p, err, col, "%s", strerror(-err));
		if (t.count)
			return 0;
	} else {
		char s[160], n[160];

		snprintf(s, sizeof(s), "%.*s", (int)sys_len, sys);
		snprintf(n, sizeof(n), "%.*s", (int)name_len, name);
		err = add_tp(&t, s, n);
		if (err != -ENOENT)
			return err;
		/* add_tp recorded a generic message: replace it */
		zfree(&p->l->error);
	}
	c.word = full;
	c.max_dist = strlen(full) / 3 > 2 ? strlen(full) / 3 : 2;
	prism_tracefs_for_each_tp(NULL, offer_tp, &c);
	closest_str(&c, near, sizeof(near));
	return evparse__error(p, -ENOENT, col, "no tracepoint %s '%s' at column %d%s%s",
			      glob ? "matches" : "named", full, col, near,
			      c.nr ? "" : "; see 'prism list tracepoint'");
}

struct bare_tp {
	const char *word;
	char found[160];
};

static int find_bare(void *ctx, const char *sys, const char *name)
{
	struct bare_tp *b = ctx;

	if (strcmp(name, b->word))
		return 0;
	snprintf(b->found, sizeof(b->found), "%s:%s", sys, name);
	return 1;
}

struct alias_find {
	const char *word;
	char found[160];
};

static int find_alias_ev(void *ctx, const char *event, const char *terms)
{
	struct alias_find *a = ctx;

	return !strcmp(event, a->word);
}

static int find_alias_pmu(void *ctx, const char *pmu, uint32_t type)
{
	struct alias_find *a = ctx;

	if (prism_pmu_for_each_event(pmu, find_alias_ev, a) == 1) {
		snprintf(a->found, sizeof(a->found), "%s/%s/", pmu, a->word);
		return 1;
	}
	return 0;
}

int evparse__unknown(struct evparse *p, const char *word, size_t len, int col)
{
	char w[160];
	const char *const *names;
	const char *best = NULL;
	struct bare_tp bare = { .word = w };
	struct alias_find alias = { .word = w };
	size_t n;

	snprintf(w, sizeof(w), "%.*s", (int)len, word);
	names = evsym_names(&n);
	if (!strpbrk(w, "*?[/:")) {
		/* an exact PMU event alias or tracepoint name beats a near miss */
		if (prism_pmu_for_each(find_alias_pmu, &alias) == 1)
			best = alias.found;
		else if (tracefs__find() == 0 &&
			 prism_tracefs_for_each_tp(NULL, find_bare, &bare) == 1)
			best = bare.found;
	}
	if (!best)
		best = prism_suggest(w, names, n);
	if (best)
		return evparse__error(p, -EINVAL, col,
				      "unknown event '%s' at column %d (did you mean '%s'?)", w,
				      col, best);
	return evparse__error(p, -EINVAL, col,
			      "unknown event '%s' at column %d; see 'prism list' for the "
			      "available events",
			      w, col);
}
