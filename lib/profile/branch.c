// SPDX-License-Identifier: MIT
/*
 * Branch profiles, perf report -b: the taken branches of the samples'
 * branch stacks counted 1 each (perf's pseudo period), in rows that keep
 * only the fields of their sort keys, as perf's hist entries of branch
 * mode: a symbol is its DSO and name, an unresolved one its address.
 */
#include <stdio.h>
#include <string.h>

#include "profile-internal.h"

struct bend {
	uint32_t dso, sym; /* interned; 0 none */
	uint64_t addr; /* unresolved: the address shown */
	uint64_t start;
	char level;
};

struct brow {
	uint32_t comm, tid;
	struct bend from, to;
	uint16_t cycles;
	uint64_t count;
	uint64_t hash;
};

struct prism_branches {
	unsigned int mask;
	struct strtab strs;
	struct brow *rows;
	size_t nr, alloc;
	struct u32map map;
	uint64_t total;
	/* the last rows() result */
	struct prism_branch_row *out;
	const enum prism_branch_key *keys;
	size_t nr_keys;
};

static const char *const key_names[PRISM_BRANCH__MAX] = {
	[PRISM_BRANCH_COMM] = "comm",
	[PRISM_BRANCH_PID] = "pid",
	[PRISM_BRANCH_DSO_FROM] = "dso_from",
	[PRISM_BRANCH_DSO_TO] = "dso_to",
	[PRISM_BRANCH_SYM_FROM] = "symbol_from",
	[PRISM_BRANCH_SYM_TO] = "symbol_to",
	[PRISM_BRANCH_CYCLES] = "cycles",
	[PRISM_BRANCH_IPC] = "ipc_lbr",
};

int prism_branch_key__parse(const char *name)
{
	int i;

	for (i = 0; i < PRISM_BRANCH__MAX; i++)
		if (!strcmp(name, key_names[i]))
			return i;
	return -1;
}

struct prism_branches *prism_branches__new(unsigned int keys_mask)
{
	struct prism_branches *b = calloc(1, sizeof(*b));

	if (b)
		b->mask = keys_mask;
	return b;
}

void prism_branches__free(struct prism_branches *b)
{
	if (!b)
		return;
	strtab__release(&b->strs);
	free(b->rows);
	free(b->map.slots);
	free(b->out);
	free(b);
}

uint64_t prism_branches__total(const struct prism_branches *b)
{
	return b->total;
}

static bool has(const struct prism_branches *b, enum prism_branch_key k)
{
	return b->mask & (1u << k);
}

/* an end as a key: its DSO (@dso), its symbol (@sym: DSO, name or address) */
static int end_key(struct prism_branches *b, const struct prism_branch_end *e, bool dso, bool sym,
		   struct bend *out)
{
	memset(out, 0, sizeof(*out));
	if ((dso || sym) && e->dso) {
		out->dso = strtab__intern(&b->strs, e->dso);
		if (!out->dso)
			return -ENOMEM;
	}
	if (!sym)
		return 0;
	out->level = e->level;
	out->start = e->start;
	if (!e->sym) {
		out->addr = e->addr;
		return 0;
	}
	out->sym = strtab__intern(&b->strs, e->sym);
	return out->sym ? 0 : -ENOMEM;
}

static uint64_t row_hash(const struct brow *r)
{
	uint64_t h = hash_u64(((uint64_t)r->comm << 32) | r->tid);

	h = hash_u64(h ^ (((uint64_t)r->from.dso << 32) | r->from.sym) ^ r->from.start);
	h = hash_u64(h ^ (((uint64_t)r->to.dso << 32) | r->to.sym) ^ r->to.start);
	return hash_u64(h ^ r->cycles ^ ((uint64_t)r->from.level << 16) ^
			((uint64_t)r->to.level << 24));
}

static uint64_t row_hash_of(const void *p)
{
	return ((const struct brow *)p)->hash;
}

static bool same_end(const struct bend *a, const struct bend *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr && a->start == b->start &&
	       a->level == b->level;
}

int prism_branches__add(struct prism_branches *b, const char *comm, uint32_t tid,
			const struct prism_branch_end *from, const struct prism_branch_end *to,
			uint16_t cycles)
{
	struct brow r = { 0 };
	size_t i;

	if (has(b, PRISM_BRANCH_COMM)) {
		r.comm = strtab__intern(&b->strs, comm ? comm : "");
		if (!r.comm)
			return -ENOMEM;
	}
	if (has(b, PRISM_BRANCH_PID))
		r.tid = tid;
	if (end_key(b, from, has(b, PRISM_BRANCH_DSO_FROM), has(b, PRISM_BRANCH_SYM_FROM),
		    &r.from) ||
	    end_key(b, to, has(b, PRISM_BRANCH_DSO_TO),
		    has(b, PRISM_BRANCH_SYM_TO) || has(b, PRISM_BRANCH_IPC), &r.to))
		return -ENOMEM;
	if (has(b, PRISM_BRANCH_CYCLES))
		r.cycles = cycles;
	r.hash = row_hash(&r);
	b->total++;
	if (b->map.cap) {
		for (i = r.hash & (b->map.cap - 1); b->map.slots[i];
		     i = (i + 1) & (b->map.cap - 1)) {
			struct brow *o = &b->rows[b->map.slots[i] - 1];

			if (o->hash == r.hash && o->comm == r.comm && o->tid == r.tid &&
			    o->cycles == r.cycles && same_end(&o->from, &r.from) &&
			    same_end(&o->to, &r.to)) {
				o->count++;
				return 0;
			}
		}
	}
	if (u32map_grow(&b->map, b->nr, b->rows, sizeof(*b->rows), row_hash_of) ||
	    prism_ensure_mem((void **)&b->rows, &b->alloc, sizeof(*b->rows), b->nr + 1)) {
		b->total--;
		return -ENOMEM;
	}
	r.count = 1;
	b->rows[b->nr++] = r;
	for (i = r.hash & (b->map.cap - 1); b->map.slots[i]; i = (i + 1) & (b->map.cap - 1))
		;
	b->map.slots[i] = (uint32_t)b->nr;
	return 0;
}

static void out_end(const struct prism_branches *b, const struct bend *e,
		    struct prism_branch_end *out)
{
	out->dso = e->dso ? strtab__str(&b->strs, e->dso) : NULL;
	out->sym = e->sym ? strtab__str(&b->strs, e->sym) : NULL;
	out->addr = e->addr;
	out->start = e->start;
	out->level = e->level;
}

/* perf's order of rows of one count: names descending, no DSO first */
static int cmp_name(const char *a, const char *b)
{
	if (!a || !b)
		return a == b ? 0 : a ? 1 : -1;
	return -strcmp(a, b);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * resolved symbols first, by start address; unresolved by address; perf's
 * order: the sign of the wrapped difference (kernel addresses come first)
 */
static int cmp_sym(const struct prism_branch_end *a, const struct prism_branch_end *b)
{
	int64_t d = (int64_t)(b->start - a->start);

	if (!a->sym != !b->sym)
		return a->sym ? -1 : 1;
	return d > 0 ? -1 : d < 0;
}

static int cmp_key(enum prism_branch_key k, const struct prism_branch_row *a,
		   const struct prism_branch_row *b)
{
	switch (k) {
	case PRISM_BRANCH_COMM:
		return cmp_name(a->comm, b->comm);
	case PRISM_BRANCH_PID:
		return cmp_u64(a->tid, b->tid);
	case PRISM_BRANCH_DSO_FROM:
		return cmp_name(a->from.dso, b->from.dso);
	case PRISM_BRANCH_DSO_TO:
		return cmp_name(a->to.dso, b->to.dso);
	case PRISM_BRANCH_SYM_FROM:
		return cmp_sym(&a->from, &b->from);
	case PRISM_BRANCH_SYM_TO:
	case PRISM_BRANCH_IPC:
		return cmp_sym(&a->to, &b->to);
	case PRISM_BRANCH_CYCLES:
		return cmp_u64(b->cycles, a->cycles);
	default:
		return 0;
	}
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct prism_branch_row *a = pa, *b = pb;
	const struct prism_branches *sorting = ctx;
	size_t i;
	int c;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	for (i = 0; i < sorting->nr_keys; i++) {
		c = cmp_key(sorting->keys[i], a, b);
		if (c)
			return c;
	}
	return 0;
}

int prism_branches__rows(struct prism_branches *b, const enum prism_branch_key *keys,
			 size_t nr_keys, const struct prism_branch_row **rows, size_t *nr)
{
	size_t i;

	free(b->out);
	b->out = calloc(b->nr ? b->nr : 1, sizeof(*b->out));
	if (!b->out)
		return -ENOMEM;
	for (i = 0; i < b->nr; i++) {
		const struct brow *r = &b->rows[i];
		struct prism_branch_row *o = &b->out[i];

		o->comm = r->comm ? strtab__str(&b->strs, r->comm) : NULL;
		o->tid = r->tid;
		out_end(b, &r->from, &o->from);
		out_end(b, &r->to, &o->to);
		o->cycles = r->cycles;
		o->count = r->count;
	}
	b->keys = keys;
	b->nr_keys = nr_keys;
	qsort_r(b->out, b->nr, sizeof(*b->out), cmp_rows, b);
	*rows = b->out;
	*nr = b->nr;
	return 0;
}
