// SPDX-License-Identifier: MIT
/*
 * The order of perf report's rows.  perf inserts its entries, in the order
 * of its collapse stage (the sort keys' identity order), into a red-black
 * tree keyed by its output sort (overhead, then the keys' display order);
 * an entry that compares equal goes right of the ones already there.  In
 * children mode the comparison is not transitive (rows of equal children
 * overhead of one thread go by the depth of their call graphs, rows of
 * different threads do not), so the order depends on the tree's shape: we
 * build the same tree to get the same order.
 */
#include "profile-internal.h"

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static bool no_dso(const struct prism_profile *p, uint32_t e)
{
	const struct pframe *f = &p->frames[p->eframe[e]];

	return !f->dso && (!f->dso_name || !strcmp(f->dso_name, "[unknown]"));
}

/* perf's DSO order: by short name, a row without a map last */
static int cmp_dso(const struct prism_profile *p, uint32_t ia, uint32_t ib)
{
	bool na = no_dso(p, ia), nb = no_dso(p, ib);

	if (na || nb)
		return na == nb ? 0 : na ? 1 : -1;
	if (p->addrs) /* perf -v compares the long names */
		return cmp_str(p->entries[ia].dso_path, p->entries[ib].dso_path);
	return cmp_str(p->entries[ia].dso, p->entries[ib].dso);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a < b ? -1 : 1;
}

static int cmp_depth(const struct prism_profile *p, uint32_t ia, uint32_t ib);

/* perf's output fields as keys (descending; they group nothing), and the keys of report -F */
static int cmp_field(const struct prism_profile *p, uint32_t ia, uint32_t ib,
		     enum prism_sort_key key)
{
	const struct prism_hist_entry *a = &p->entries[ia], *b = &p->entries[ib];

	switch (key) {
	case PRISM_SORT_OVERHEAD:
	case PRISM_SORT_PERIOD:
		return cmp_u64(b->self, a->self);
	case PRISM_SORT_OVERHEAD_CHILDREN:
		return a->children != b->children ? cmp_u64(b->children, a->children) :
						    cmp_depth(p, ia, ib);
	case PRISM_SORT_OVERHEAD_SYS:
		return cmp_u64(b->period_sys, a->period_sys);
	case PRISM_SORT_OVERHEAD_US:
		return cmp_u64(b->period_us, a->period_us);
	case PRISM_SORT_SAMPLE:
		return cmp_u64(b->nr_samples, a->nr_samples);
	case PRISM_SORT_SRCFILE:
		return cmp_str(a->srcfile, b->srcfile);
	case PRISM_SORT_TIME:
		return cmp_u64(a->time, b->time);
	case PRISM_SORT_SYM_SIZE:
		return cmp_u64(a->sym_size, b->sym_size);
	case PRISM_SORT_PARENT: /* perf: named ones by name, then none */
		if (!a->parent != !b->parent)
			return a->parent ? -1 : 1;
		return cmp_str(a->parent, b->parent);
	default:
		return psk_cmp(a, b, key);
	}
}

/*
 * One sort key: < 0 when row @ia comes first.  @collapse: the key's
 * identity order (perf's collapse stage: symbols by address, within their
 * DSO), else its display order (symbols by name, unresolved ones tie).
 */
static int cmp_key(const struct prism_profile *p, uint32_t ia, uint32_t ib, enum prism_sort_key key,
		   bool collapse)
{
	const struct prism_hist_entry *a = &p->entries[ia], *b = &p->entries[ib];
	int c;

	switch (key) {
	case PRISM_SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case PRISM_SORT_PID:
	case PRISM_SORT_TID: /* signed: tid -1 first */
		return a->tid != b->tid ? ((int32_t)a->tid < (int32_t)b->tid ? -1 : 1) : 0;
	case PRISM_SORT_CPU:
		return cmp_u64(a->cpu, b->cpu);
	case PRISM_SORT_DSO:
		return cmp_dso(p, ia, ib);
	case PRISM_SORT_SRCLINE:
		return cmp_str(a->srcline, b->srcline);
	case PRISM_SORT_SYM:
		if (!collapse) {
			if (!a->sym || !b->sym)
				return !a->sym == !b->sym ? 0 : a->sym ? -1 : 1;
			return strcmp(a->sym, b->sym);
		}
		if (!a->sym && !b->sym) /* addresses ascending, as signed */
			return a->ip == b->ip ? 0 : (int64_t)a->ip < (int64_t)b->ip ? -1 : 1;
		c = cmp_dso(p, ia, ib);
		if (c || !a->sym || !b->sym)
			return c ? c : !a->sym == !b->sym ? 0 : a->sym ? -1 : 1;
		c = cmp_u64(a->ip, b->ip);
		return c ? c : strcmp(a->sym, b->sym);
	default: /* the output fields group nothing */
		return collapse && key >= PRISM_SORT_OVERHEAD && key <= PRISM_SORT_PERIOD ?
			       0 :
			       cmp_field(p, ia, ib, key);
	}
}

/* perf's collapse order: the keys' identity (< 0: @ia first) */
static int cmp_collapse(const struct prism_profile *p, uint32_t ia, uint32_t ib)
{
	int c = 0;
	size_t i;

	for (i = 0; i < p->nr_keys && !c; i++)
		c = cmp_key(p, ia, ib, p->keys[i], true);
	return c;
}

/*
 * perf's rule for rows of equal children overhead of one thread, with call
 * graphs: the caller first, i.e. the row with the shorter longest chain in
 * callee order (chains run from the row to the root), the longer in caller
 * order (from the row to the leaf)
 */
static int cmp_depth(const struct prism_profile *p, uint32_t ia, uint32_t ib)
{
	uint32_t da, db;

	if (!p->children || !p->chain_order || p->entries[ia].thread != p->entries[ib].thread)
		return 0;
	da = p->edepth[2 * ia + (p->chain_order == 1)];
	db = p->edepth[2 * ib + (p->chain_order == 1)];
	if (da == db)
		return 0;
	return (p->chain_order == 1) == (da > db) ? -1 : 1;
}

/* perf's output sort: < 0 when row @ia goes left of (before) row @ib */
static int cmp_output(const struct prism_profile *p, uint32_t ia, uint32_t ib)
{
	const struct prism_hist_entry *a = &p->entries[ia], *b = &p->entries[ib];
	int c = 0;
	size_t i;

	if (p->by_keys) { /* the keys (with the overheads among them) alone, in their order */
		for (i = 0; i < p->nr_keys && !c; i++)
			c = cmp_key(p, ia, ib, p->keys[i], false);
		return c;
	}
	if (p->children && a->children != b->children)
		return a->children > b->children ? -1 : 1;
	c = cmp_depth(p, ia, ib);
	if (c)
		return c;
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	for (i = 0; i < p->nr_keys && !c; i++)
		c = cmp_key(p, ia, ib, p->keys[i], false);
	return c;
}

/* a red-black tree of row indexes, perf's (the kernel's) insertion and rebalancing */
struct rbt {
	uint32_t *l, *r, *up;
	bool *red;
	uint32_t root;
};

#define NIL UINT32_MAX

static void rotate(struct rbt *t, uint32_t x, bool left)
{
	uint32_t *a = left ? t->r : t->l, *b = left ? t->l : t->r;
	uint32_t y = a[x], g = t->up[x];

	a[x] = b[y];
	if (b[y] != NIL)
		t->up[b[y]] = x;
	t->up[y] = g;
	if (g == NIL)
		t->root = y;
	else if (t->l[g] == x)
		t->l[g] = y;
	else
		t->r[g] = y;
	b[y] = x;
	t->up[x] = y;
}

static void rb_fix(struct rbt *t, uint32_t x)
{
	while (t->up[x] != NIL && t->red[t->up[x]]) {
		uint32_t par = t->up[x], g = t->up[par];
		bool left = t->l[g] == par;
		uint32_t uncle = left ? t->r[g] : t->l[g];

		if (uncle != NIL && t->red[uncle]) {
			t->red[par] = t->red[uncle] = false;
			t->red[g] = true;
			x = g;
			continue;
		}
		if (x == (left ? t->r[par] : t->l[par])) {
			rotate(t, par, left);
			x = par;
			par = t->up[x];
		}
		t->red[par] = false;
		t->red[g] = true;
		rotate(t, g, !left);
	}
	t->red[t->root] = false;
}

typedef int (*cmp_fn)(const struct prism_profile *p, uint32_t ia, uint32_t ib);

/* @x goes left of the rows it sorts before, right of the others (ties too) */
static void rb_insert(struct rbt *t, const struct prism_profile *p, cmp_fn cmp, uint32_t x)
{
	uint32_t *link = &t->root, parent = NIL;

	while (*link != NIL) {
		parent = *link;
		link = cmp(p, x, parent) < 0 ? &t->l[parent] : &t->r[parent];
	}
	*link = x;
	t->up[x] = parent;
	t->l[x] = t->r[x] = NIL;
	t->red[x] = true;
	rb_fix(t, x);
}

/* @out: the rows in the order of a tree they are inserted into in the order of @in */
static void tree_order(struct rbt *t, const struct prism_profile *p, cmp_fn cmp, const uint32_t *in,
		       uint32_t *out)
{
	size_t i, k = 0;
	uint32_t x;

	t->root = NIL;
	for (i = 0; i < p->nr_entries; i++)
		rb_insert(t, p, cmp, in[i]);
	for (x = t->root; x != NIL && t->l[x] != NIL; x = t->l[x])
		;
	while (x != NIL) {
		out[k++] = x;
		if (t->r[x] != NIL) {
			for (x = t->r[x]; t->l[x] != NIL; x = t->l[x])
				;
		} else {
			while (t->up[x] != NIL && t->r[t->up[x]] == x)
				x = t->up[x];
			x = t->up[x];
		}
	}
}

/*
 * perf's three trees: rows as they are created (the rows' index order),
 * its collapse stage (with a comm key), its output.  The keys' order is not
 * transitive either (two unresolved symbols go by address whatever their
 * DSO, one resolved by its DSO first).
 */
int entries_order(const struct prism_profile *p, uint32_t *order)
{
	size_t n = p->nr_entries, i;
	struct rbt t = { .root = NIL };
	uint32_t *a = prism_reallocarray(NULL, n + 1, sizeof(*a));
	uint32_t *b = prism_reallocarray(NULL, n + 1, sizeof(*b));
	bool collapse = false;
	int err = -ENOMEM;

	t.l = prism_reallocarray(NULL, n + 1, sizeof(*t.l));
	t.r = prism_reallocarray(NULL, n + 1, sizeof(*t.r));
	t.up = prism_reallocarray(NULL, n + 1, sizeof(*t.up));
	t.red = prism_reallocarray(NULL, n + 1, sizeof(*t.red));
	if (!a || !b || !t.l || !t.r || !t.up || !t.red)
		goto out;
	for (i = 0; i < n; i++)
		a[i] = (uint32_t)i;
	for (i = 0; i < p->nr_keys; i++)
		collapse |= p->keys[i] == PRISM_SORT_COMM;
	tree_order(&t, p, cmp_collapse, a, b);
	if (collapse) {
		tree_order(&t, p, cmp_collapse, b, a);
		memcpy(b, a, n * sizeof(*a));
	}
	tree_order(&t, p, cmp_output, b, order);
	err = 0;
out:
	free(a);
	free(b);
	free(t.l);
	free(t.r);
	free(t.up);
	free(t.red);
	return err;
}
