// SPDX-License-Identifier: MIT
/*
 * Event modifiers (":ukhGHIpSD") and term lists ("/event=0x3c,period=1000/")
 * with perf 6.1's semantics.
 */
#include <stdio.h>

#include <prism/pmu.h>
#include <prism/strbuf.h>
#include <prism/suggest.h>

#include "internal.h"
#include "record/evspec-internal.h"
#include "record/pmu-internal.h"

#define VALID_MODIFIERS "u k h G H I p pp ppp P S D e W"

/*
 * perf's get_event_modifier(): the first of u/k/h switches to "count only
 * what is named" (all three excluded, then each named one included); the
 * first of G/H does the same for guest/host.  'u' and 'p' imply
 * exclude_guest unless G/H was given.  A group modifier (@add) starts from
 * the member's own settings, an event's own modifier from zero.
 */
int evparse__modifiers(struct evparse *p, struct evspec_node *n, const char *mods, size_t len,
		       int col, bool add)
{
	struct perf_event_attr *a = &n->pub.attr;
	int eu = 0, ek = 0, eh = 0, eH = 0, eG = 0, eI = 0, precise = 0;
	int pinned = 0, sample_read = 0, exclusive = 0, precise_max = 0, weak = 0, exclude;
	int exclude_GH = 0;
	unsigned int seen = 0;
	size_t i;

	if (!len)
		return evparse__error(p, -EINVAL, col,
				      "empty modifier after ':' at column %d; valid modifiers: %s",
				      col, VALID_MODIFIERS);
	for (i = 0; i < len; i++) {
		const char *valid = "ukhGHIpPSDeW";
		const char *c = memchr(valid, mods[i], strlen(valid));

		if (mods[i] == 'b')
			return evparse__error(
				p, -EINVAL, col + (int)i,
				"modifier 'b' in ':%.*s' at column %d counts with BPF in "
				"perf stat; prism record samples without it: leave it out",
				(int)len, mods, col + (int)i);

		if (!mods[i] || !c)
			return evparse__error(p, -EINVAL, col + (int)i,
					      "unknown modifier '%c' in ':%.*s' at column %d; "
					      "valid modifiers: %s",
					      mods[i], (int)len, mods, col + (int)i,
					      VALID_MODIFIERS);
		if (mods[i] == 'p') {
			if (++precise > 3)
				return evparse__error(
					p, -EINVAL, col + (int)i,
					"too many 'p' modifiers in ':%.*s' at column "
					"%d: at most 3 (ppp = precise_ip 3, zero skid)",
					(int)len, mods, col + (int)i);
			continue;
		}
		if (seen & (1u << (c - valid)))
			return evparse__error(p, -EINVAL, col + (int)i,
					      "duplicate modifier '%c' in ':%.*s' at column %d",
					      mods[i], (int)len, mods, col + (int)i);
		seen |= 1u << (c - valid);
	}
	precise = 0;
	if (add) {
		eu = a->exclude_user;
		ek = a->exclude_kernel;
		eh = a->exclude_hv;
		eH = a->exclude_host;
		eG = a->exclude_guest;
		eI = a->exclude_idle;
		precise = a->precise_ip;
		pinned = a->pinned;
		exclusive = a->exclusive;
		precise_max = n->pub.precise_max;
		weak = n->pub.weak_group;
		sample_read = n->pub.sample_read;
		exclude_GH = n->exclude_GH;
	}
	exclude = eu | ek | eh;
	for (i = 0; i < len; i++) {
		switch (mods[i]) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* precise sampling requires exclude_guest */
			if (!exclude_GH)
				eG = 1;
			break;
		case 'S':
			sample_read = 1;
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'P':
			precise_max = 1; /* from 3 down to what the PMU takes, at open */
			break;
		case 'W':
			weak = 1;
			break;
		}
	}
	if (precise > 3)
		return evparse__error(p, -EINVAL, col,
				      "precise_ip %d for '%s' (group and event modifiers "
				      "together): at most 3 'p' modifiers",
				      precise, n->pub.name);
	a->exclude_user = eu;
	a->exclude_kernel = ek;
	a->exclude_hv = eh;
	a->exclude_host = eH;
	a->exclude_guest = eG;
	a->exclude_idle = eI;
	a->precise_ip = precise_max ? 3 : precise;
	a->pinned = pinned;
	a->exclusive = exclusive;
	n->pub.precise_max = precise_max;
	n->pub.weak_group = weak;
	n->pub.sample_read = sample_read;
	n->exclude_GH = exclude_GH;
	return 0;
}

/* value of a term: decimal, 0x hex or 0 octal, the whole rest of the term */
static int parse_value(const char *s, size_t len, uint64_t *v)
{
	char buf[32], *end;

	if (!len || len >= sizeof(buf) || s[0] == '-' || s[0] == '+')
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static void add_names(struct prism_strbuf *sb, char **names, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		prism_strbuf_addf(sb, "%s%s", sb->len ? ", " : "", names[i]);
}

/* "unknown term" with the closest valid term and the list of all of them */
static int unknown_term(struct evparse *p, struct evspec_node *n, const char *pmu, const char *key,
			size_t klen, int col)
{
	static const char *const generic[] = { "config", "config1", "config2",
					       "period", "freq",    "name" };
	const char *cands[128];
	struct prism_strbuf sb = STRBUF_INIT;
	char **fmt = NULL, word[64];
	size_t nfmt = 0, nc = 0, i;
	const char *best;
	int err;

	snprintf(word, sizeof(word), "%.*s", (int)klen, key);
	if (pmu && pmu_format_names(pmu, &fmt, &nfmt) == 0)
		add_names(&sb, fmt, nfmt);
	for (i = pmu ? 0 : 3; i < PRISM_ARRAY_SIZE(generic); i++)
		prism_strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", generic[i]);
	for (i = 0; i < nfmt && nc < PRISM_ARRAY_SIZE(cands) - PRISM_ARRAY_SIZE(generic); i++)
		cands[nc++] = fmt[i];
	for (i = pmu ? 0 : 3; i < PRISM_ARRAY_SIZE(generic); i++)
		cands[nc++] = generic[i];
	best = prism_suggest(word, cands, nc);
	if (pmu)
		err = evparse__error(p, -EINVAL, col,
				     "unknown term '%s' for PMU '%s' at column %d%s%s%s; valid "
				     "terms: %s (and the events of 'prism list %s')",
				     word, pmu, col, best ? " (did you mean '" : "",
				     best ? best : "", best ? "'?)" : "", sb.buf, pmu);
	else
		err = evparse__error(p, -EINVAL, col,
				     "unknown term '%s' for event '%s' at column %d%s%s%s; valid "
				     "terms: %s",
				     word, n->pub.name, col, best ? " (did you mean '" : "",
				     best ? best : "", best ? "'?)" : "", sb.buf);
	prism_strbuf_release(&sb);
	prism_names_free(fmt, nfmt);
	return err;
}

static int set_name(struct evspec_node *n, const char *v, size_t len)
{
	char *name = strndup(v, len);

	if (!name)
		return -ENOMEM;
	free((char *)n->pub.name);
	n->pub.name = name;
	return 0;
}

static int apply_term(struct evparse *p, struct evspec_node *n, const char *pmu, const char *term,
		      size_t len, int col, int depth);

/* a sysfs event alias (msr/tsc/ = "event=0x00"): its own term list */
static int apply_alias(struct evparse *p, struct evspec_node *n, const char *pmu, const char *alias,
		       int col, int depth)
{
	const char *t;
	char *terms;
	int err = pmu_read_alias(pmu, alias, &terms);

	if (err)
		return err;
	if (depth > 1) {
		free(terms);
		return evparse__error(p, -EINVAL, col,
				      "alias '%s' of PMU '%s' refers to another alias", alias, pmu);
	}
	for (t = terms; !err && *t;) {
		size_t tl = strcspn(t, ",");

		if (tl)
			err = apply_term(p, n, pmu, t, tl, col, depth + 1);
		t += tl;
		if (*t == ',')
			t++;
	}
	free(terms);
	return err;
}

static int apply_term(struct evparse *p, struct evspec_node *n, const char *pmu, const char *term,
		      size_t len, int col, int depth)
{
	struct perf_event_attr *a = &n->pub.attr;
	const char *eq = memchr(term, '=', len);
	size_t klen = eq ? (size_t)(eq - term) : len;
	const char *val = eq ? eq + 1 : NULL;
	size_t vlen = eq ? len - klen - 1 : 0;
	uint64_t v = 1;
	char key[64];
	struct pmu_format f;
	int err;

	if (!klen)
		return evparse__error(p, -EINVAL, col, "term without a name at column %d", col);
	snprintf(key, sizeof(key), "%.*s", (int)klen, term);
	if (!strcmp(key, "name")) {
		if (!val || !vlen)
			return evparse__error(p, -EINVAL, col,
					      "term 'name' at column %d needs a value: name=NAME",
					      col);
		return set_name(n, val, vlen);
	}
	if (val && parse_value(val, vlen, &v))
		return evparse__error(p, -EINVAL, col + (int)klen + 1,
				      "bad value '%.*s' for term '%s' at column %d: expected a "
				      "number (decimal or 0x hex)",
				      (int)vlen, val, key, col + (int)klen + 1);
	if (!strcmp(key, "period") || !strcmp(key, "freq")) {
		bool freq = key[0] == 'f';

		if (!val || !v)
			return evparse__error(p, -EINVAL, col,
					      "term '%s' at column %d needs a non-zero value: %s=N",
					      key, col, key);
		if (freq ? n->pub.user_period : n->pub.user_freq)
			return evparse__error(p, -EINVAL, col,
					      "both period and freq given for '%s' at column %d: "
					      "use one",
					      n->pub.name, col);
		a->freq = freq;
		a->sample_period = v; /* the union with sample_freq */
		n->pub.user_period = !freq;
		n->pub.user_freq = freq;
		return 0;
	}
	if (pmu && (!strcmp(key, "config") || !strcmp(key, "config1") || !strcmp(key, "config2"))) {
		if (key[6] == '1')
			a->config1 = v;
		else if (key[6] == '2')
			a->config2 = v;
		else
			a->config = v;
		return 0;
	}
	if (!pmu)
		return unknown_term(p, n, pmu, term, klen, col);
	err = pmu_read_format(pmu, key, &f);
	if (err == 0) {
		char fs[128];

		err = pmu_format__apply(&f, v, a);
		if (!err)
			return 0;
		pmu_format__str(&f, fs, sizeof(fs));
		if (err == -ERANGE)
			return evparse__error(
				p, -EINVAL, col,
				"value %#llx of term '%s' at column %d does not fit in "
				"its %u bits (%s)",
				(unsigned long long)v, key, col, pmu_format__bits(&f), fs);
		return evparse__error(p, -EINVAL, col,
				      "term '%s' at column %d uses %s, which "
				      "prism cannot encode in perf_event_attr",
				      key, col, fs);
	}
	if (err != -ENOENT)
		return evparse__error(p, err, col,
				      "cannot read the format of term '%s' of PMU '%s' at column "
				      "%d: %s",
				      key, pmu, col, strerror(-err));
	if (!val) {
		err = apply_alias(p, n, pmu, key, col, depth);
		if (err != -ENOENT)
			return err;
	}
	return unknown_term(p, n, pmu, term, klen, col);
}

int evparse__terms(struct evparse *p, struct evspec_node *n, const char *pmu, const char *terms,
		   size_t len, int col)
{
	size_t off = 0;
	int err = 0;

	while (!err && off < len) {
		size_t tl = 0;

		while (off + tl < len && terms[off + tl] != ',')
			tl++;
		if (!tl)
			return evparse__error(p, -EINVAL, col + (int)off, "empty term at column %d",
					      col + (int)off);
		err = apply_term(p, n, pmu, terms + off, tl, col + (int)off, 0);
		off += tl + 1;
		if (off == len && terms[len - 1] == ',')
			return evparse__error(p, -EINVAL, col + (int)len - 1,
					      "empty term after ',' at column %d",
					      col + (int)len - 1);
	}
	return err;
}
