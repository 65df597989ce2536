// SPDX-License-Identifier: MIT
/*
 * Rows (perf report's hist entries) and per-row call graphs, computed from
 * the unique stacks of a profile.
 */
#include "profile-internal.h"

struct ekey {
	uint32_t comm, pid, tid, cpu, dso, src;
	uint64_t sym; /* sym identity, or the address when unresolved */
	uint32_t leaf_form; /* unresolved sample address, DSO-relative */
	uint32_t file;
	uint32_t parent, sym_size;
	uint64_t time, dso_size;
	uint32_t sk, pad; /* the record's sample keys of the row's keys (an index) */
};

struct ebuild {
	struct ekey *keys;
	size_t alloc_keys;
	struct u32map map;
	uint32_t *last_rec; /* per entry: last record counted (children dedupe) */
	size_t alloc_last, alloc_eframe, alloc_edepth;
};

static uint64_t ekey_hash(const struct ekey *k)
{
	uint64_t h = hash_u64(((uint64_t)k->comm << 32) ^ k->pid);

	h = hash_u64(h ^ (((uint64_t)k->tid << 32) | k->cpu));
	h = hash_u64(h ^ (((uint64_t)k->dso << 32) | k->src) ^ ((uint64_t)k->file << 16) ^
		     ((uint64_t)k->parent << 40) ^ ((uint64_t)k->sym_size << 8));
	return hash_u64(h ^ k->sym ^ hash_u64(k->time) ^ hash_u64(k->sk) ^ k->dso_size);
}

/*
 * Note: perf keys an unresolved sample address by its value in the mapping
 * (map_ip: ip - start + pgoff for files, so a non-PIE binary's too), but
 * the same address met in a call chain by its raw value, so in --children
 * mode one unresolved address can give two rows.  We do the same
 * (leaf_form) so rows match perf's.  Only the symbol column shows it: keys
 * without it never split on it.
 */
static bool is_leaf_form(const struct pframe *f)
{
	return !f->sym_key && f->dso && f->map_addr != f->ip;
}

static void make_key(const struct prism_profile *p, const bool *use, const struct precord *r,
		     uint32_t sk, const struct pframe *f, bool leaf, struct ekey *k)
{
	memset(k, 0, sizeof(*k));
	if (leaf && use[PRISM_SORT_SYM] && is_leaf_form(f))
		k->leaf_form = 1;
	if (use[PRISM_SORT_COMM])
		k->comm = r->comm_id;
	/* perf's "pid" key is the task: a row per thread, labelled tid:comm */
	if (use[PRISM_SORT_PID] || use[PRISM_SORT_TID])
		k->tid = r->tid;
	if (use[PRISM_SORT_CPU])
		k->cpu = r->cpu;
	if (use[PRISM_SORT_DSO] || use[PRISM_SORT_SYM])
		k->dso = f->dso_id;
	if (use[PRISM_SORT_SYM])
		k->sym = f->sym_key   ? (uint64_t)(uintptr_t)f->sym_key :
			 k->leaf_form ? f->map_addr :
					f->ip;
	/* perf: a leaf without a line is its map-relative address, a caller its own */
	if (use[PRISM_SORT_SRCLINE])
		k->src = leaf && f->src_leaf_id ? f->src_leaf_id : f->src_id;
	if (use[PRISM_SORT_SRCFILE])
		k->file = leaf ? f->file_id : f->file_caller_id;
	if (use[PRISM_SORT_PARENT])
		k->parent = r->parent;
	if (use[PRISM_SORT_SYM_SIZE])
		k->sym_size = f->sym_size;
	if (use[PRISM_SORT_TIME])
		k->time = r->time;
	if (use[PRISM_SORT_DSO_SIZE])
		k->dso_size = f->dso_size;
	k->sk = sk;
}

static uint32_t find_entry(struct prism_profile *p, struct ebuild *b, const struct ekey *k,
			   const struct pframe *f, const struct precord *r, const bool *use,
			   bool leaf)
{
	uint64_t h = ekey_hash(k);
	struct prism_hist_entry *e;
	size_t s, i;

	if (b->map.cap) {
		for (s = h & (b->map.cap - 1); b->map.slots[s]; s = (s + 1) & (b->map.cap - 1))
			if (!memcmp(&b->keys[b->map.slots[s] - 1], k, sizeof(*k)))
				return b->map.slots[s] - 1;
	}
	if (p->nr_entries * 2 + 2 > b->map.cap) {
		size_t cap = b->map.cap ? b->map.cap * 2 : 1024;
		uint32_t *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return UINT32_MAX;
		for (i = 0; i < p->nr_entries; i++) {
			for (s = ekey_hash(&b->keys[i]) & (cap - 1); slots[s];
			     s = (s + 1) & (cap - 1))
				;
			slots[s] = (uint32_t)i + 1;
		}
		free(b->map.slots);
		b->map.slots = slots;
		b->map.cap = cap;
	}
	if (prism_ensure_mem((void **)&p->entries, &p->alloc_entries, sizeof(*p->entries),
			     p->nr_entries + 1) ||
	    prism_ensure_mem((void **)&b->keys, &b->alloc_keys, sizeof(*b->keys),
			     p->nr_entries + 1) ||
	    prism_ensure_mem((void **)&b->last_rec, &b->alloc_last, sizeof(*b->last_rec),
			     p->nr_entries + 1) ||
	    prism_ensure_mem((void **)&p->eframe, &b->alloc_eframe, sizeof(*p->eframe),
			     p->nr_entries + 1) ||
	    prism_ensure_mem((void **)&p->edepth, &b->alloc_edepth, 2 * sizeof(*p->edepth),
			     p->nr_entries + 1))
		return UINT32_MAX;
	p->eframe[p->nr_entries] = (uint32_t)(f - p->frames);
	p->edepth[2 * p->nr_entries] = 0;
	p->edepth[2 * p->nr_entries + 1] = 0;
	e = &p->entries[p->nr_entries];
	memset(e, 0, sizeof(*e));
	e->comm = strtab__str(&p->strs, r->comm_id);
	e->pid = r->pid;
	e->tid = r->tid;
	e->thread = r->thread;
	e->cpu = r->cpu;
	e->dso = strtab__str(&p->strs, f->dso_id);
	e->sym = f->name;
	e->ip = k->leaf_form ? f->map_addr : f->ip;
	/* perf's he->ip: the first sample's address in its map as a leaf, as it is in a chain */
	e->addr = leaf ? f->map_addr : f->ip;
	e->dso_ref = f->dso;
	e->dso_path = f->dso_path ? f->dso_path : e->dso;
	e->kernel = f->kernel;
	e->inlined = f->kind == PRISM_FRAME_INLINED;
	e->srcline = use[PRISM_SORT_SRCLINE] ? strtab__str(&p->strs, k->src) : NULL;
	e->srcfile = !use[PRISM_SORT_SRCFILE] ? NULL :
		     k->file		      ? strtab__str(&p->strs, k->file) :
						"";
	e->parent = k->parent ? p->frames[k->parent - 1].name : NULL;
	e->sym_size = f->sym_size;
	e->time = k->time;
	/* perf: a row is filtered as the sample that made it */
	e->hidden = r->hidden & PREC_HIDDEN;
	e->filtered = r->hidden & PREC_FILTERED;
	psk_to_entry(p, psk_of(p, k->sk), e);
	e->dso_size = k->dso_size;
	b->keys[p->nr_entries] = *k;
	b->last_rec[p->nr_entries] = UINT32_MAX;
	for (s = h & (b->map.cap - 1); b->map.slots[s]; s = (s + 1) & (b->map.cap - 1))
		;
	b->map.slots[s] = (uint32_t)++p->nr_entries;
	return (uint32_t)(p->nr_entries - 1);
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* sort the rows and renumber the per-position entry indexes */
static int sort_entries(struct prism_profile *p)
{
	uint32_t *order = prism_reallocarray(NULL, p->nr_entries + 1, sizeof(*order));
	uint32_t *rank = prism_reallocarray(NULL, p->nr_entries + 1, sizeof(*rank));
	uint32_t *eframe = prism_reallocarray(NULL, p->nr_entries + 1, sizeof(*eframe));
	uint32_t *edepth = prism_reallocarray(NULL, p->nr_entries + 1, 2 * sizeof(*edepth));
	struct prism_hist_entry *sorted =
		prism_reallocarray(NULL, p->nr_entries + 1, sizeof(*sorted));
	size_t i;

	if (!order || !rank || !sorted || !eframe || !edepth || entries_order(p, order)) {
		free(edepth);
		free(eframe);
		free(order);
		free(rank);
		free(sorted);
		return -ENOMEM;
	}
	for (i = 0; i < p->nr_entries; i++) {
		rank[order[i]] = (uint32_t)i;
		sorted[i] = p->entries[order[i]];
		eframe[i] = p->eframe[order[i]];
		edepth[2 * i] = p->edepth[2 * order[i]];
		edepth[2 * i + 1] = p->edepth[2 * order[i] + 1];
	}
	free(p->eframe);
	p->eframe = eframe;
	free(p->edepth);
	p->edepth = edepth;
	for (i = 0; i < p->pool_len; i++)
		if (p->epool[i] != UINT32_MAX)
			p->epool[i] = rank[p->epool[i]];
	for (i = 0; i < p->nr_recs; i++) {
		p->eleaf[i] = rank[p->eleaf[i]];
		if (p->ecleaf[i] != UINT32_MAX)
			p->ecleaf[i] = rank[p->ecleaf[i]];
	}
	free(p->entries);
	p->entries = sorted;
	p->alloc_entries = p->nr_entries + 1;
	free(order);
	free(rank);
	return 0;
}

/* the chain perf appends to row @e for the frame at position @i (leaf 0) of a stack */
static void chain_depth(struct prism_profile *p, uint32_t e, uint32_t depth, size_t i, bool whole)
{
	uint32_t callee = whole ? depth : depth - (uint32_t)i;
	uint32_t caller = whole ? depth : (uint32_t)i + 1;

	if (p->edepth[2 * e] < callee)
		p->edepth[2 * e] = callee;
	if (p->edepth[2 * e + 1] < caller)
		p->edepth[2 * e + 1] = caller;
}

void prism_profile__set_chain_order(struct prism_profile *p, bool graphs, bool caller)
{
	p->chain_order = !graphs ? 0 : caller ? 1 : 2;
	p->chain_caller = caller;
}

int prism_profile__entries(struct prism_profile *p, const enum prism_sort_key *keys, size_t nr_keys,
			   bool children, struct prism_hist_entry **out, size_t *nr)
{
	bool use[PRISM_SORT__MAX] = { false };
	struct ebuild b = { 0 };
	uint32_t *rsk = NULL;
	size_t i, j, r;
	int err = -ENOMEM;

	for (i = 0; i < nr_keys; i++)
		if (keys[i] < PRISM_SORT__MAX)
			use[keys[i]] = true;
	p->nr_entries = 0;
	p->children = children;
	for (i = 0; i < nr_keys; i++)
		p->by_keys |= keys[i] >= PRISM_SORT_OVERHEAD && keys[i] <= PRISM_SORT_PERIOD;
	p->keys = keys;
	p->nr_keys = nr_keys;
	free(p->eframe);
	p->eframe = NULL;
	free(p->edepth);
	p->edepth = NULL;
	free(p->epool);
	free(p->eleaf);
	free(p->ecleaf);
	p->epool = prism_reallocarray(NULL, p->pool_len + 1, sizeof(*p->epool));
	p->eleaf = prism_reallocarray(NULL, p->nr_recs + 1, sizeof(*p->eleaf));
	p->ecleaf = prism_reallocarray(NULL, p->nr_recs + 1, sizeof(*p->ecleaf));
	if (!p->epool || !p->eleaf || !p->ecleaf)
		goto out;
	memset(p->epool, 0xff, (p->pool_len + 1) * sizeof(*p->epool));
	memset(p->ecleaf, 0xff, (p->nr_recs + 1) * sizeof(*p->ecleaf));
	if (use[PRISM_SORT_PARENT] && profile_parents(p))
		goto out;
	if (psk_rows(p, use, &rsk))
		goto out;
	for (r = 0; r < p->nr_recs; r++) {
		const struct precord *rec = &p->recs[r];
		const struct pframe *f = &p->frames[rec->self];
		struct ekey k;
		uint32_t e;

		/* the sample's own row: self, and children for itself */
		make_key(p, use, rec, rsk ? rsk[r] : rec->sk, f, true, &k);
		e = find_entry(p, &b, &k, f, rec, use, true);
		if (e == UINT32_MAX)
			goto out;
		p->entries[e].self += rec->period;
		if (f->kernel)
			p->entries[e].period_sys += rec->period;
		else
			p->entries[e].period_us += rec->period;
		p->entries[e].nr_samples += rec->count;
		psk_add_self(p, rec, &p->entries[e]);
		p->entries[e].children += rec->period;
		p->entries[e].nr_children_samples += rec->count;
		b.last_rec[e] = (uint32_t)r;
		if (!rec->nochain)
			chain_depth(p, e, rec->depth, 0, true);
		p->eleaf[r] = e;
		p->epool[rec->off] = e;
		if (!children || rec->nochain)
			continue;
		/* the chain's rows, created in perf's order: root first for caller graphs */
		for (j = 0; j < rec->depth; j++) {
			i = p->chain_caller ? rec->depth - 1 - j : j;
			f = &p->frames[p->pool[rec->off + i]];
			make_key(p, use, rec, rsk ? rsk[r] : rec->sk, f, false, &k);
			e = find_entry(p, &b, &k, f, rec, use, false);
			if (e == UINT32_MAX)
				goto out;
			chain_depth(p, e, rec->depth, i, false);
			if (i)
				p->epool[rec->off + i] = e;
			else if (e != p->eleaf[r])
				p->ecleaf[r] = e;
			if (b.last_rec[e] != r) {
				b.last_rec[e] = (uint32_t)r;
				p->entries[e].children += rec->period;
				p->entries[e].nr_children_samples += rec->count;
			}
		}
	}
	err = sort_entries(p);
	if (err)
		goto out;
	*out = p->entries;
	*nr = p->nr_entries;
out:
	p->keys = NULL;
	p->nr_keys = 0;
	p->by_keys = false;
	free(b.keys);
	free(b.map.slots);
	free(b.last_rec);
	free(rsk);
	return err;
}

int prism_profile__entries_by_keys(struct prism_profile *p, const enum prism_sort_key *keys,
				   size_t nr_keys, bool children, struct prism_hist_entry **out,
				   size_t *nr)
{
	p->by_keys = true;
	return prism_profile__entries(p, keys, nr_keys, children, out, nr);
}

/* ---- call graphs ---- */

struct tnode {
	uint32_t frame, parent;
	uint32_t first_child, next; /* indexes + 1 */
	uint64_t period, samples;
};

struct cgbuild {
	struct tnode *t;
	size_t nr, alloc;
	uint32_t *slots; /* (parent, frame) -> node + 1 */
	size_t cap;
};

struct cg_arena {
	struct prism_callgraph *nodes;
	struct prism_callgraph **ptrs;
	struct prism_callgraph **roots; /* per entry, NULL when not built */
	size_t nr_roots;
	bool caller;
};

void cg_arena__free(struct cg_arena *a)
{
	if (!a)
		return;
	free(a->nodes);
	free(a->ptrs);
	free(a->roots);
	free(a);
}

static uint64_t tn_hash(uint32_t parent, uint32_t frame)
{
	return hash_u64(((uint64_t)parent << 32) | frame);
}

static uint32_t tn_new(struct cgbuild *b, uint32_t parent, uint32_t frame)
{
	struct tnode *n;

	if (prism_ensure_mem((void **)&b->t, &b->alloc, sizeof(*b->t), b->nr + 1))
		return UINT32_MAX;
	n = &b->t[b->nr];
	memset(n, 0, sizeof(*n));
	n->frame = frame;
	n->parent = parent;
	if (parent != UINT32_MAX) {
		n->next = b->t[parent].first_child;
		b->t[parent].first_child = (uint32_t)b->nr + 1;
	}
	return (uint32_t)b->nr++;
}

/* the child of @parent for @frame, created when missing */
static uint32_t tn_child(struct cgbuild *b, uint32_t parent, uint32_t frame)
{
	size_t s, i;
	uint32_t c;

	if (b->cap) {
		for (s = tn_hash(parent, frame) & (b->cap - 1); b->slots[s];
		     s = (s + 1) & (b->cap - 1)) {
			const struct tnode *n = &b->t[b->slots[s] - 1];

			if (n->parent == parent && n->frame == frame)
				return b->slots[s] - 1;
		}
	}
	if ((b->nr + 1) * 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		uint32_t *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return UINT32_MAX;
		for (i = 0; i < b->nr; i++) {
			if (b->t[i].parent == UINT32_MAX)
				continue;
			for (s = tn_hash(b->t[i].parent, b->t[i].frame) & (cap - 1); slots[s];
			     s = (s + 1) & (cap - 1))
				;
			slots[s] = (uint32_t)i + 1;
		}
		free(b->slots);
		b->slots = slots;
		b->cap = cap;
	}
	c = tn_new(b, parent, frame);
	if (c == UINT32_MAX)
		return c;
	for (s = tn_hash(parent, frame) & (b->cap - 1); b->slots[s]; s = (s + 1) & (b->cap - 1))
		;
	b->slots[s] = c + 1;
	return c;
}

/* a graph node's identity as perf's callchain tree orders it */
struct cgkey {
	uint32_t dso; /* its DSO's creation order + 1, 0 without one */
	uint64_t addr; /* a symbol's address in its DSO, else the address */
};

struct cgsort {
	const struct prism_callgraph *base;
	const struct cgkey *keys;
};

/*
 * Branches by period; perf keeps the ones of equal period in the order of
 * its tree of a node's callees, descending by (DSO object address, symbol
 * start or address): its DSO objects are allocated in the order they are
 * met, a frame without one (no map) sorts last.
 */
static int cmp_cg_key(const void *pa, const void *pb, void *arg)
{
	const struct cgsort *cs = arg;
	const struct prism_callgraph *a = *(struct prism_callgraph *const *)pa;
	const struct prism_callgraph *b = *(struct prism_callgraph *const *)pb;
	const struct cgkey *ka = &cs->keys[a - cs->base], *kb = &cs->keys[b - cs->base];

	if (ka->dso != kb->dso)
		return ka->dso > kb->dso ? -1 : 1;
	if (ka->addr != kb->addr)
		return ka->addr > kb->addr ? -1 : 1;
	return cmp_str(a->name, b->name);
}

static int cmp_cg(const void *pa, const void *pb, void *arg)
{
	const struct prism_callgraph *a = *(struct prism_callgraph *const *)pa;
	const struct prism_callgraph *b = *(struct prism_callgraph *const *)pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	return cmp_cg_key(pa, pb, arg);
}

/* number the nodes under @root in post-order (children in their current order) */
static void number_nodes(struct prism_callgraph *root, struct prism_callgraph **stack, size_t *next)
{
	size_t top = 0;
	uint32_t seq = 0;

	stack[0] = root;
	next[0] = 0;
	for (;;) {
		struct prism_callgraph *n = stack[top];

		if (next[top] < n->nr_children) {
			stack[top + 1] = n->children[next[top]++];
			next[++top] = 0;
			continue;
		}
		n->seq = seq++;
		if (!top)
			break;
		top--;
	}
}

/* add the path of record @r for the tree rooted at @root: positions from..0 or 0..from */
static int add_path(struct prism_profile *p, struct cgbuild *b, uint32_t root,
		    const struct precord *rec, size_t from, bool caller, const uint32_t *fn)
{
	const uint32_t *fr = p->pool + rec->off;
	size_t j = from, to = caller ? 0 : rec->depth - 1;
	uint32_t cur = root;

	b->t[root].period += rec->period;
	b->t[root].samples += rec->count;
	for (;;) {
		cur = tn_child(b, cur, fn ? fn[fr[j]] : fr[j]);
		if (cur == UINT32_MAX)
			return -ENOMEM;
		b->t[cur].period += rec->period;
		b->t[cur].samples += rec->count;
		if (j == to)
			break;
		j = caller ? j - 1 : j + 1;
	}
	return 0;
}

/*
 * Build the graphs of the entries flagged in @want in one pass over the
 * stacks.  A sample whose leaf is the entry adds its whole stack; a sample
 * that passes through it (children mode) adds, as perf, the part from its
 * outermost occurrence to the leaf (caller order), or from its innermost
 * to the root (callee order).
 */
static int build_graphs(struct prism_profile *p, const bool *want, bool caller)
{
	struct cgbuild b = { 0 };
	uint32_t *root = NULL, *stamp = NULL, *from = NULL, *seen = NULL;
	struct cg_arena *a = NULL;
	struct cgkey *keys = NULL;
	struct prism_callgraph **stack = NULL;
	size_t *next = NULL;
	struct cgsort cs;
	uint32_t *fn = NULL;
	size_t r, i, e, nptr = 0, nseen = 0, seen_alloc = 0;
	int err = -ENOMEM;

	/* per-address frames (source keys): a node per function, as perf's */
	if ((p->addrs || p->mask & (1u << PRISM_SORT_SRCLINE | 1u << PRISM_SORT_SRCFILE)) &&
	    profile_fn_frames(p, &fn))
		goto out;
	root = malloc((p->nr_entries + 1) * sizeof(*root));
	stamp = malloc((p->nr_entries + 1) * sizeof(*stamp));
	from = malloc((p->nr_entries + 1) * sizeof(*from));
	if (!root || !stamp || !from)
		goto out;
	for (e = 0; e < p->nr_entries; e++) {
		root[e] = UINT32_MAX;
		stamp[e] = UINT32_MAX;
		if (want[e] && (root[e] = tn_new(&b, UINT32_MAX, UINT32_MAX)) == UINT32_MAX)
			goto out;
	}
	for (r = 0; r < p->nr_recs; r++) {
		const struct precord *rec = &p->recs[r];

		if (rec->nochain)
			continue; /* perf shows no graph for a sample without a chain */
		if (prism_ensure_mem((void **)&seen, &seen_alloc, sizeof(*seen), rec->depth + 1))
			goto out;
		nseen = 0;
		e = p->eleaf[r];
		if (want[e]) {
			stamp[e] = (uint32_t)r;
			from[e] = caller ? rec->depth - 1 : 0;
			seen[nseen++] = (uint32_t)e;
		}
		e = p->ecleaf[r]; /* the leaf's other row: from the leaf */
		if (p->children && e != UINT32_MAX && want[e] && e != p->eleaf[r]) {
			stamp[e] = (uint32_t)r;
			from[e] = 0;
			seen[nseen++] = (uint32_t)e;
		}
		for (i = 0; p->children && i < rec->depth; i++) {
			e = p->epool[rec->off + i];
			if (e == UINT32_MAX || !want[e] || e == p->eleaf[r])
				continue;
			if (stamp[e] != r) {
				stamp[e] = (uint32_t)r;
				seen[nseen++] = (uint32_t)e;
				from[e] = (uint32_t)i; /* callee order: the innermost occurrence */
			} else if (caller) {
				from[e] = (uint32_t)i; /* caller order: the outermost wins */
			}
		}
		for (i = 0; i < nseen; i++)
			if (add_path(p, &b, root[seen[i]], rec, from[seen[i]], caller, fn))
				goto out;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		goto out;
	a->caller = caller;
	a->nr_roots = p->nr_entries;
	a->nodes = calloc(b.nr + 1, sizeof(*a->nodes));
	a->ptrs = calloc(b.nr + 1, sizeof(*a->ptrs));
	a->roots = calloc(p->nr_entries + 1, sizeof(*a->roots));
	cs.keys = keys = calloc(b.nr + 1, sizeof(*keys));
	cs.base = a->nodes;
	if (!a->nodes || !a->ptrs || !a->roots || !keys)
		goto out;
	for (i = 0; i < b.nr; i++) {
		struct prism_callgraph *n = &a->nodes[i];

		if (b.t[i].frame != UINT32_MAX) {
			const struct pframe *f = &p->frames[b.t[i].frame];

			n->name = f->name;
			n->dso = f->dso_name;
			n->ip = f->ip;
			n->kernel = f->kernel;
			n->kind = (enum prism_frame_kind)f->kind;
			keys[i].dso = f->dso ? prism_dso__seq(f->dso) + 1 : 0;
			keys[i].addr = f->name ? f->dso_addr : f->ip;
		}
		n->period = b.t[i].period;
		n->samples = b.t[i].samples;
	}
	/* children after every node's period is known: they are sorted by it */
	for (i = 0; i < b.nr; i++) {
		struct prism_callgraph *n = &a->nodes[i];
		uint32_t c;

		n->children = &a->ptrs[nptr];
		for (c = b.t[i].first_child; c; c = b.t[c - 1].next)
			a->ptrs[nptr + n->nr_children++] = &a->nodes[c - 1];
		nptr += n->nr_children;
		for (c = 0; c < n->nr_children; c++)
			n->children[c]->parent = n;
		qsort_r(n->children, n->nr_children, sizeof(*n->children), cmp_cg_key, &cs);
	}
	/* perf's order of equal chains: post-order, callees in key order */
	stack = malloc((b.nr + 1) * sizeof(*stack));
	next = malloc((b.nr + 1) * sizeof(*next));
	if (!stack || !next)
		goto out;
	for (e = 0; e < p->nr_entries; e++)
		if (root[e] != UINT32_MAX)
			number_nodes(&a->nodes[root[e]], stack, next);
	for (i = 0; i < b.nr; i++)
		qsort_r(a->nodes[i].children, a->nodes[i].nr_children, sizeof(void *), cmp_cg, &cs);
	for (e = 0; e < p->nr_entries; e++)
		a->roots[e] = root[e] == UINT32_MAX ? NULL : &a->nodes[root[e]];
	cg_arena__free(p->arena);
	p->arena = a;
	a = NULL;
	err = 0;
out:
	cg_arena__free(a);
	free(b.t);
	free(b.slots);
	free(root);
	free(fn);
	free(stamp);
	free(from);
	free(seen);
	free(keys);
	free(stack);
	free(next);
	return err;
}

int prism_profile__callgraphs(struct prism_profile *p, bool caller, uint64_t min_period)
{
	bool *want;
	size_t e;
	int err;

	if (!p->epool)
		return -EINVAL;
	want = calloc(p->nr_entries + 1, sizeof(*want));
	if (!want)
		return -ENOMEM;
	for (e = 0; e < p->nr_entries; e++) {
		uint64_t v = p->children ? p->entries[e].children : p->entries[e].self;

		want[e] = v >= min_period && v > 0;
	}
	err = build_graphs(p, want, caller);
	free(want);
	return err;
}

int prism_profile__callgraph(struct prism_profile *p, size_t idx, bool caller,
			     struct prism_callgraph **out)
{
	bool *want;
	int err;

	if (idx >= p->nr_entries || !p->epool)
		return -EINVAL;
	if (p->arena && p->arena->caller == caller && p->arena->nr_roots == p->nr_entries &&
	    p->arena->roots[idx]) {
		*out = p->arena->roots[idx];
		return 0;
	}
	want = calloc(p->nr_entries + 1, sizeof(*want));
	if (!want)
		return -ENOMEM;
	want[idx] = true;
	err = build_graphs(p, want, caller);
	free(want);
	if (!err)
		*out = p->arena->roots[idx];
	return err;
}

int prism_profile__entry_srcline(struct prism_profile *p, size_t idx, const char **file,
				 unsigned int *line)
{
	const struct pframe *f;
	struct prism_frame fr = { 0 };

	if (idx >= p->nr_entries || !p->eframe)
		return -EINVAL;
	if (!p->sy)
		return -ENOENT;
	f = &p->frames[p->eframe[idx]];
	fr.ip = f->ip;
	fr.dso = f->dso;
	fr.dso_addr = f->dso_addr;
	fr.kernel = f->kernel;
	fr.sym = f->name;
	return prism_symbols__srcline(p->sy, &fr, file, line);
}
