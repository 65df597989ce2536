// SPDX-License-Identifier: MIT
/*
 * The -e grammar, hand-written (perf uses flex/bison for the same):
 *
 *	list	:= item (',' item)*
 *	item	:= '{' event (',' event)* '}' [':' mods] | event
 *	event	:= name '/' terms '/' [[':'] mods]	PMU or symbolic event with terms
 *		 | sym [':' mods]			cpu-clock:u, L1-dcache-load-misses
 *		 | 'r' hex [':' mods]			raw
 *		 | sys ':' name [':' mods]		tracepoint, globs allowed
 *		 | 'mem:' addr ['/' len] [':' rwx] [':' mods]	breakpoint
 *
 * Events of one argument are kept aside and appended to the list only when
 * the whole argument parsed, so a failed parse leaves the list unchanged.
 */
#include <ctype.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>

#include <prism/pmu.h>
#include <prism/suggest.h>

#include "internal.h"
#include "record/evspec-internal.h"
#include "record/pmu-internal.h"
#include "record/tracefs-internal.h"

/* end of the event starting at @pos: a ',', '{' or '}' outside a /term list/ */
static int event_end(struct evparse *p, size_t pos, size_t *end)
{
	const char *s = p->str;
	size_t i, slash = 0;
	bool in_terms = false;

	for (i = pos; s[i]; i++) {
		if (s[i] == '/' && strncmp(s + pos, "mem:", 4)) { /* mem:addr/len has one */
			in_terms = !in_terms;
			slash = i;
		} else if (!in_terms && (s[i] == ',' || s[i] == '{' || s[i] == '}')) {
			break;
		}
	}
	if (in_terms)
		return evparse__error(p, -EINVAL, (int)slash + 1,
				      "unterminated term list: '/' at column %d has no closing '/'",
				      (int)slash + 1);
	*end = i;
	return 0;
}

static bool is_raw(const char *s, size_t len)
{
	size_t i;

	if (len < 2 || s[0] != 'r')
		return false;
	for (i = 1; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int apply_mods(struct evparse *p, size_t first, const char *mods, size_t len, int col)
{
	size_t i;
	int err = 0;

	for (i = first; !err && i < p->nr; i++)
		err = evparse__modifiers(p, p->v[i], mods, len, col, false);
	return err;
}

struct pmu_find {
	const char *word;
	const char *cands[64];
	char names[64][64];
	size_t nr;
};

static int collect_pmu(void *ctx, const char *name, uint32_t type)
{
	struct pmu_find *f = ctx;

	if (f->nr < PRISM_ARRAY_SIZE(f->names)) {
		snprintf(f->names[f->nr], sizeof(f->names[0]), "%s", name);
		f->cands[f->nr] = f->names[f->nr];
		f->nr++;
	}
	return 0;
}

static int unknown_pmu(struct evparse *p, const char *name, size_t len, int col)
{
	struct pmu_find *f = calloc(1, sizeof(*f));
	char w[64], list[1024] = "";
	const char *best;
	size_t i, l;
	int err;

	if (!f)
		return -ENOMEM;
	snprintf(w, sizeof(w), "%.*s", (int)len, name);
	prism_pmu_for_each(collect_pmu, f);
	for (i = 0; i < f->nr; i++) {
		l = strlen(list);
		snprintf(list + l, sizeof(list) - l, "%s%s", i ? ", " : "", f->names[i]);
	}
	best = prism_suggest(w, f->cands, f->nr);
	if (!best) {
		size_t n;
		const char *const *syms = evsym_names(&n);

		best = prism_suggest(w, syms, n);
	}
	err = evparse__error(
		p, -ENOENT, col, "unknown PMU '%s' at column %d%s%s%s; PMUs of this machine: %s%s",
		w, col, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "", list,
		!strcmp(w, "cpu") ? " (no 'cpu' PMU: a VM without PMU passthrough?)" : "");
	free(f);
	return err;
}

/* name/terms/[:]mods */
static int parse_with_terms(struct evparse *p, const char *tok, size_t len, int col)
{
	const char *slash = memchr(tok, '/', len);
	size_t base_len = (size_t)(slash - tok);
	const char *terms = slash + 1;
	const char *close = memchr(terms, '/', len - base_len - 1);
	size_t terms_len = (size_t)(close - terms);
	const char *mods = close + 1;
	size_t mods_len = len - (size_t)(mods - tok);
	int mods_col = col + (int)(mods - tok);
	struct evspec_node *n;
	char pmu[64];
	uint32_t type;
	uint64_t config;
	size_t first = p->nr;
	bool sym;
	int err;

	if (!base_len)
		return evparse__error(p, -EINVAL, col,
				      "missing PMU name before '/' at column %d (e.g. msr/tsc/)",
				      col);
	if (mods_len && mods[0] == ':') {
		mods++;
		mods_len--;
		mods_col++;
	} else if (mods_len && memchr(mods, '/', mods_len)) {
		return evparse__error(p, -EINVAL, mods_col,
				      "unexpected '%.*s' after the term list at column %d",
				      (int)mods_len, mods, mods_col);
	}
	sym = evsym_lookup(tok, base_len, &type, &config);
	if (!sym) {
		if (base_len >= sizeof(pmu))
			return unknown_pmu(p, tok, base_len, col);
		snprintf(pmu, sizeof(pmu), "%.*s", (int)base_len, tok);
		err = prism_pmu_type(pmu, &type);
		if (err)
			return unknown_pmu(p, tok, base_len, col);
		config = 0;
	}
	n = evspec_node__new(type, config, tok, len);
	if (!n)
		return -ENOMEM;
	err = evparse__add(p, n);
	if (!err && !sym && !strcmp(pmu, "intel_pt")) {
		n->pub.aux = true; /* its trace goes to the AUX area */
		err = evparse__pt_defaults(p, n, pmu, col);
	}
	if (!err)
		err = evparse__terms(p, n, sym ? NULL : pmu, terms, terms_len,
				     col + (int)base_len + 1);
	if (!err && n->pub.aux)
		err = evparse__pt_check(p, n, pmu, col + (int)base_len + 1);
	if (!err && mods_len)
		err = apply_mods(p, first, mods, mods_len, mods_col);
	return err;
}

/* a number as strtoull() reads it with base 0, the whole of [s, s + len) */
static bool number(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return !errno && !*end;
}

/*
 * mem:addr[/len][:access][:mods], a hardware breakpoint as perf reads it:
 * access r, w and/or x (default rw), len 1, 2, 4 or 8 (default 4, 8 for x);
 * named as written up to a '/'.
 */
static int parse_mem(struct evparse *p, const char *tok, size_t len, int col)
{
	const char *s = tok + 4, *end = tok + len, *slash, *c;
	uint64_t addr, bp_len = 0;
	size_t first = p->nr, n;
	unsigned int type = 0;
	struct evspec_node *node;
	int err;

	n = strcspn(s, "/:");
	if (n > (size_t)(end - s))
		n = (size_t)(end - s);
	if (!number(s, n, &addr))
		return evparse__error(p, -EINVAL, col + 4,
				      "breakpoint address '%.*s' at column %d is not a number "
				      "(mem:0x7ffd1234[/len][:rwx])",
				      (int)n, s, col + 4);
	slash = s[n] == '/' && s + n < end ? s + n : NULL;
	c = s + n;
	if (slash) {
		n = strcspn(slash + 1, ":");
		if (n > (size_t)(end - slash - 1))
			n = (size_t)(end - slash - 1);
		if (!number(slash + 1, n, &bp_len) ||
		    (bp_len != 1 && bp_len != 2 && bp_len != 4 && bp_len != 8))
			return evparse__error(p, -EINVAL, col + (int)(slash + 1 - tok),
					      "breakpoint length '%.*s' at column %d: 1, 2, 4 or 8",
					      (int)n, slash + 1, col + (int)(slash + 1 - tok));
		c = slash + 1 + n;
	}
	if (c < end && *c == ':') {
		n = strcspn(c + 1, ":/");
		if (n > (size_t)(end - c - 1))
			n = (size_t)(end - c - 1);
		/* r, w, x at most once each: the access; anything else: modifiers */
		if (n && n <= 3 && strspn(c + 1, "rwx") >= n) {
			size_t i;

			for (i = 0; i < n; i++) {
				unsigned int bit = c[1 + i] == 'r' ? HW_BREAKPOINT_R :
						   c[1 + i] == 'w' ? HW_BREAKPOINT_W :
								     HW_BREAKPOINT_X;

				if (type & bit)
					return evparse__error(
						p, -EINVAL, col + (int)(c + 1 + i - tok),
						"breakpoint access '%.*s' at column %d "
						"repeats '%c'",
						(int)n, c + 1, col + (int)(c + 1 + i - tok),
						c[1 + i]);
				type |= bit;
			}
			c += 1 + n;
		}
	}
	if (c < end && *c != ':')
		return evparse__error(p, -EINVAL, col + (int)(c - tok),
				      "unexpected '%.*s' at column %d after the breakpoint "
				      "(mem:addr[/len][:rwx][:modifiers])",
				      (int)(end - c), c, col + (int)(c - tok));
	node = evspec_node__new(PERF_TYPE_BREAKPOINT, 0, tok, slash ? (size_t)(slash - tok) : len);
	if (!node)
		return -ENOMEM;
	node->pub.attr.bp_type = type ? type : HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	node->pub.attr.bp_addr = addr;
	node->pub.attr.bp_len = bp_len					  ? bp_len :
				node->pub.attr.bp_type == HW_BREAKPOINT_X ? sizeof(long) :
									    4;
	node->pub.attr.sample_period = 1; /* perf's weak default, as for tracepoints */
	err = evparse__add(p, node);
	if (!err && c < end)
		err = apply_mods(p, first, c + 1, (size_t)(end - c - 1), col + (int)(c + 1 - tok));
	return err;
}

static int parse_event(struct evparse *p, const char *tok, size_t len, int col)
{
	const char *colon = memchr(tok, ':', len);
	size_t head = colon ? (size_t)(colon - tok) : len;
	const char *mods = NULL;
	size_t mods_len = 0, first = p->nr;
	int mods_col = 0, err;
	uint32_t type;
	uint64_t config;
	struct evspec_node *n = NULL;

	if (!len)
		return evparse__error(p, -EINVAL, col, "empty event at column %d", col);
	if (len > 4 && !memcmp(tok, "mem:", 4))
		return parse_mem(p, tok, len, col);
	if (memchr(tok, '/', len))
		return parse_with_terms(p, tok, len, col);
	if (colon) {
		mods = colon + 1;
		mods_len = len - head - 1;
		mods_col = col + (int)head + 1;
	}
	if (evsym_lookup(tok, head, &type, &config)) {
		n = evspec_node__new(type, config, tok, len);
	} else if (is_raw(tok, head)) {
		char hex[32];

		if (head - 1 > 16)
			return evparse__error(p, -EINVAL, col,
					      "raw event '%.*s' at column %d: more than 64 bits",
					      (int)head, tok, col);
		snprintf(hex, sizeof(hex), "%.*s", (int)head - 1, tok + 1);
		n = evspec_node__new(PERF_TYPE_RAW, strtoull(hex, NULL, 16), tok, len);
	} else if (colon) {
		/* sys:name[:mods] */
		const char *name = colon + 1;
		const char *c2 = memchr(name, ':', len - head - 1);
		size_t name_len = c2 ? (size_t)(c2 - name) : len - head - 1;

		char sys[128];

		/* "task-clok:u" is a misspelt event with modifiers, not a tracepoint */
		snprintf(sys, sizeof(sys), "%.*s", (int)head, tok);
		if (!c2 && name_len && strspn(name, "ukhGHIpPSDeW") >= name_len &&
		    !tracefs__has_system(sys))
			return evparse__unknown(p, tok, head, col);
		err = evparse__tracepoint(p, tok, head, name, name_len, col, &first);
		if (err)
			return err;
		if (!c2)
			return 0;
		return apply_mods(p, first, c2 + 1, len - head - 1 - name_len - 1,
				  col + (int)(c2 + 1 - tok));
	} else {
		return evparse__unknown(p, tok, len, col);
	}
	if (!n)
		return -ENOMEM;
	err = evparse__add(p, n);
	if (!err && colon)
		err = apply_mods(p, first, mods, mods_len, mods_col);
	return err;
}

static int parse_one(struct evparse *p, size_t *pos)
{
	size_t end;
	int err = event_end(p, *pos, &end);

	if (err)
		return err;
	err = parse_event(p, p->str + *pos, end - *pos, (int)*pos + 1);
	*pos = end;
	return err;
}

static int parse_group(struct evparse *p, size_t *pos)
{
	const char *s = p->str;
	size_t open = *pos, first = p->nr, i, end;
	int err;

	(*pos)++;
	for (;;) {
		if (s[*pos] == '{')
			return evparse__error(p, -EINVAL, (int)*pos + 1,
					      "nested group at column %d: groups cannot contain "
					      "groups",
					      (int)*pos + 1);
		if (s[*pos] == '}' && p->nr == first)
			return evparse__error(p, -EINVAL, (int)open + 1, "empty group at column %d",
					      (int)open + 1);
		err = parse_one(p, pos);
		if (err)
			return err;
		if (s[*pos] == ',') {
			(*pos)++;
			continue;
		}
		if (s[*pos] == '}') {
			(*pos)++;
			break;
		}
		return evparse__error(p, -EINVAL, (int)open + 1,
				      "missing '}' for the group opened at column %d",
				      (int)open + 1);
	}
	for (i = first; i < p->nr; i++) {
		p->v[i]->pub.leader = (int)first; /* relative to this argument for now */
		p->v[i]->pub.nr_members = 0;
		if (i != first && (p->v[i]->pub.attr.pinned || p->v[i]->pub.attr.exclusive))
			return evparse__error(
				p, -EINVAL, (int)open + 1,
				"':%c' (%s) on '%s', which is not the leader of the "
				"group at column %d: apply it to the whole group instead: "
				"{...}:%c",
				p->v[i]->pub.attr.pinned ? 'D' : 'e',
				p->v[i]->pub.attr.pinned ? "pinned" : "exclusive",
				p->v[i]->pub.name, (int)open + 1,
				p->v[i]->pub.attr.pinned ? 'D' : 'e');
	}
	p->v[first]->pub.nr_members = (int)(p->nr - first);
	if (s[*pos] != ':')
		return 0;
	(*pos)++;
	err = event_end(p, *pos, &end);
	if (err)
		return err;
	for (i = first; !err && i < p->nr; i++) {
		err = evparse__modifiers(p, p->v[i], s + *pos, end - *pos, (int)*pos + 1, true);
		/* perf pins and makes exclusive only the leader */
		if (i != first) {
			p->v[i]->pub.attr.pinned = 0;
			p->v[i]->pub.attr.exclusive = 0;
		}
	}
	*pos = end;
	return err;
}

int prism_evspecs__parse(struct prism_evspecs *l, const char *str)
{
	struct evparse p = { .l = l, .str = str };
	size_t pos = 0, i, base = l->nr;
	int err = 0;

	zfree(&l->error);
	l->error_col = 0;
	if (!str || !*str)
		return evparse__error(&p, -EINVAL, 0, "empty event list");
	while (!err) {
		size_t start = p.nr;

		if (str[pos] == '{') {
			err = parse_group(&p, &pos);
		} else {
			err = parse_one(&p, &pos);
			for (i = start; !err && i < p.nr; i++) {
				p.v[i]->pub.leader = (int)i;
				p.v[i]->pub.nr_members = 1;
			}
		}
		if (err)
			break;
		if (str[pos] == '\0')
			break;
		if (str[pos] == ',') {
			pos++;
			if (str[pos] == '\0')
				err = evparse__error(&p, -EINVAL, (int)pos,
						     "trailing ',' at column %d", (int)pos);
			continue;
		}
		err = evparse__error(&p, -EINVAL, (int)pos + 1, "unexpected '%c' at column %d",
				     str[pos], (int)pos + 1);
	}
	if (!err)
		err = prism_ensure_mem((void **)&l->v, &l->cap, sizeof(*l->v), l->nr + p.nr);
	if (err) {
		for (i = 0; i < p.nr; i++)
			evspec_node__free(p.v[i]);
		free(p.v);
		return err;
	}
	for (i = 0; i < p.nr; i++) {
		struct evspec_node *n = p.v[i];

		n->pub.idx = (int)(base + i);
		n->pub.leader += (int)base;
		l->v[l->nr++] = n;
	}
	free(p.v);
	l->last_start = base;
	return 0;
}
