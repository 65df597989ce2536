// SPDX-License-Identifier: MIT
/*
 * Profile building: samples are reduced to interned frames and counted per
 * unique (task, stack), so memory follows the number of distinct stacks.
 */
#include <inttypes.h>
#include <stdio.h>

#include "profile-internal.h"

static uint64_t hash_str(const char *s)
{
	return prism_fnv1a(PRISM_FNV_SEED, s);
}

int u32map_grow(struct u32map *m, size_t nr, const void *base, size_t elem,
		uint64_t (*hash_of)(const void *))
{
	size_t cap = m->cap ? m->cap * 2 : 1024, i;
	uint32_t *slots;

	if ((nr + 1) * 2 < m->cap)
		return 0; /* room for one more */
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		size_t s = hash_of((const char *)base + i * elem) & (cap - 1);

		while (slots[s])
			s = (s + 1) & (cap - 1);
		slots[s] = (uint32_t)i + 1;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

/* ---- strings ---- */

static uint64_t str_hash_of(const void *p)
{
	return hash_str(*(char *const *)p);
}

uint32_t strtab__intern(struct strtab *t, const char *s)
{
	struct u32map m = { t->slots, t->cap };
	uint64_t h = hash_str(s);
	size_t i;
	char *copy;

	if (t->cap) {
		for (i = h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
			if (!strcmp(t->strs[t->slots[i] - 1], s))
				return t->slots[i];
	}
	if (u32map_grow(&m, t->nr, t->strs, sizeof(*t->strs), str_hash_of))
		return 0;
	t->slots = m.slots;
	t->cap = m.cap;
	if (prism_ensure_mem((void **)&t->strs, &t->alloc, sizeof(*t->strs), t->nr + 1))
		return 0;
	copy = strdup(s);
	if (!copy)
		return 0;
	t->strs[t->nr++] = copy;
	for (i = h & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
		;
	t->slots[i] = (uint32_t)t->nr;
	return (uint32_t)t->nr;
}

uint32_t strtab__find(const struct strtab *t, const char *s)
{
	size_t i;

	if (!t->cap)
		return 0;
	for (i = hash_str(s) & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->strs[t->slots[i] - 1], s))
			return t->slots[i];
	return 0;
}

const char *strtab__str(const struct strtab *t, uint32_t id)
{
	return id && id <= t->nr ? t->strs[id - 1] : NULL;
}

void strtab__release(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* ---- frames ---- */

static __wraps uint64_t frame_hash(const void *dso_key, const void *sym_key, uint64_t addr)
{
	return hash_u64((uint64_t)(uintptr_t)dso_key * 31 + (uint64_t)(uintptr_t)sym_key * 7 +
			addr);
}

static uint64_t frame_hash_of(const void *p)
{
	const struct pframe *f = p;

	return frame_hash(f->dso_key, f->sym_key, f->addr_key);
}

/* perf's source line text of an address without line information, as a caller */
static uint32_t srcline_text(struct prism_profile *p, const struct prism_frame *fr, uint64_t addr)
{
	char buf[512];

	if (fr->sym) /* (perf subtracts the symbol's start from the address as it is) */
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, fr->sym, addr - fr->sym_start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]",
			 fr->dso_name ? fr->dso_name : "[unknown]", addr);
	return strtab__intern(&p->strs, buf);
}

/*
 * perf's source file of a frame as a caller: of its address as it is, not
 * in the DSO (so none for a shared object's), UINT32_MAX for -ENOMEM
 */
static uint32_t caller_file(struct prism_profile *p, const struct prism_frame *fr, uint32_t file)
{
	struct prism_frame at = *fr;
	const char *name, *base, *dir;
	unsigned int line;
	char path[512];

	if (fr->ip == fr->dso_addr)
		return file;
	at.dso_addr = fr->ip;
	if (!p->sy || prism_symbols__srcline(p->sy, &at, &name, &line))
		return 0;
	base = p->full_src ? NULL : strrchr(name, '/');
	dir = p->full_src && *name != '/' ? prism_symbols__comp_dir(p->sy, &at) : NULL;
	if (dir) { /* (perf's addr2line, as for a leaf) */
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		name = path;
	}
	file = strtab__intern(&p->strs, base ? base + 1 : name);
	return file ? file : UINT32_MAX;
}

/* a frame without a source line: perf's texts of it as a caller and as a leaf; -ENOMEM */
static int srcline_unknown(struct prism_profile *p, struct pframe *f, const struct prism_frame *fr)
{
	f->src_id = srcline_text(p, fr, fr->ip);
	if (fr->map_addr != fr->ip)
		f->src_leaf_id = srcline_text(p, fr, fr->map_addr);
	return !f->src_id || (fr->map_addr != fr->ip && !f->src_leaf_id) ? -ENOMEM : 0;
}

static uint32_t intern_frame(struct prism_profile *p, const struct prism_frame *fr)
{
	bool per_addr = p->mask & (1u << PRISM_SORT_SRCLINE | 1u << PRISM_SORT_SRCFILE);
	const void *dso_key = fr->dso ? (const void *)fr->dso : (const void *)fr->dso_name;
	const void *sym_key = fr->sym_id;
	uint64_t addr = (!sym_key || per_addr || p->addrs) ? fr->ip : 0;
	uint64_t h = frame_hash(dso_key, sym_key, addr);
	struct pframe *f;
	size_t s;

	if (p->frame_map.cap) {
		for (s = h & (p->frame_map.cap - 1); p->frame_map.slots[s];
		     s = (s + 1) & (p->frame_map.cap - 1)) {
			f = &p->frames[p->frame_map.slots[s] - 1];
			if (f->dso_key == dso_key && f->sym_key == sym_key && f->addr_key == addr)
				return p->frame_map.slots[s] - 1;
		}
	}
	if (u32map_grow(&p->frame_map, p->nr_frames, p->frames, sizeof(*p->frames),
			frame_hash_of) ||
	    prism_ensure_mem((void **)&p->frames, &p->alloc_frames, sizeof(*p->frames),
			     p->nr_frames + 1))
		return UINT32_MAX;
	f = &p->frames[p->nr_frames];
	memset(f, 0, sizeof(*f));
	f->dso_key = dso_key;
	f->sym_key = sym_key;
	f->addr_key = addr;
	f->name = fr->sym;
	f->dso_name = fr->dso_name;
	f->dso_path = fr->dso_path;
	f->ip = fr->ip;
	f->dso_addr = fr->dso_addr;
	f->map_addr = fr->map_addr;
	f->dso = fr->dso;
	f->kernel = fr->kernel;
	f->kind = (uint8_t)fr->kind;
	if (p->sy && p->mask & (1u << PRISM_SORT_DSO_SIZE))
		f->dso_size = prism_symbols__map_size(p->sy, p->add_pid, fr);
	f->sym_size = fr->sym && fr->sym_end > fr->sym_start ?
			      (uint32_t)(fr->sym_end - fr->sym_start) :
			      0;
	f->dso_id = strtab__intern(&p->strs, fr->dso_name ? fr->dso_name : "[unknown]");
	if (!f->dso_id)
		return UINT32_MAX;
	if (per_addr) {
		const char *file;
		unsigned int line;

		int err = p->sy ? prism_symbols__srcline(p->sy, fr, &file, &line) : -ENOENT;

		/*
		 * perf: addr2line's "??:0" for a leaf and a symbol's caller, its
		 * "dso[addr]" for a caller without a symbol
		 */
		if (err == -ENODATA) {
			uint32_t unk = strtab__intern(&p->strs, "??:0");

			f->src_id = fr->sym ? unk : srcline_text(p, fr, fr->ip);
			f->src_leaf_id = f->src_id == unk ? 0 : unk;
			if (!unk || !f->src_id)
				return UINT32_MAX;
		} else if (!err) {
			const char *base = p->full_src ? NULL : strrchr(file, '/');
			const char *dir = p->full_src && *file != '/' && p->sy ?
						  prism_symbols__comp_dir(p->sy, fr) :
						  NULL;
			char buf[1024], path[512];

			/* perf's addr2line: the unit's directory before a relative name */
			if (dir) {
				snprintf(path, sizeof(path), "%s/%s", dir, file);
				file = path;
			}
			snprintf(buf, sizeof(buf), "%s:%u", base ? base + 1 : file, line);
			f->src_id = strtab__intern(&p->strs, buf);
			f->file_id = strtab__intern(&p->strs, base ? base + 1 : file);
			if (!f->src_id || !f->file_id)
				return UINT32_MAX;
			f->file_caller_id = caller_file(p, fr, f->file_id);
			if (f->file_caller_id == UINT32_MAX)
				return UINT32_MAX;
		} else if (srcline_unknown(p, f, fr)) {
			return UINT32_MAX;
		}
	}
	for (s = h & (p->frame_map.cap - 1); p->frame_map.slots[s];
	     s = (s + 1) & (p->frame_map.cap - 1))
		;
	p->frame_map.slots[s] = (uint32_t)++p->nr_frames;
	return (uint32_t)(p->nr_frames - 1);
}

const char *pframe__label(const struct pframe *f)
{
	return f->name ? f->name : "[unknown]";
}

/* ---- records ---- */

static uint64_t rec_hash(const struct precord *r, const uint32_t *frames)
{
	uint64_t h = hash_u64(((uint64_t)r->comm_id << 32) ^ r->pid) ^
		     hash_u64(((uint64_t)r->tid << 32) ^ r->cpu) ^ hash_u64(r->time) ^
		     hash_u64(r->sk);
	uint32_t i;

	for (i = 0; i < r->depth; i++)
		h = hash_u64(h ^ frames[i]) + i;
	return h ^ hash_u64(r->self);
}

static uint64_t rec_hash_of(const void *p)
{
	return ((const struct precord *)p)->hash;
}

struct prism_profile *prism_profile__new(struct prism_symbols *sy, unsigned int keys_mask)
{
	struct prism_profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->sy = sy;
	p->mask = keys_mask | (1u << PRISM_SORT_COMM);
	p->parent_depth = SIZE_MAX;
	return p;
}

void prism_profile__free(struct prism_profile *p)
{
	if (!p)
		return;
	strtab__release(&p->strs);
	free(p->frames);
	free(p->frame_map.slots);
	free(p->recs);
	free(p->rec_map.slots);
	free(p->pool);
	free(p->scratch);
	free(p->entries);
	free(p->epool);
	free(p->eleaf);
	free(p->ecleaf);
	free(p->eframe);
	free(p->edepth);
	free(p->psks);
	free(p->psk_map.slots);
	cg_arena__free(p->arena);
	profile_parent_release(p);
	free(p);
}

static int add(struct prism_profile *p, const char *comm, uint32_t pid, uint32_t tid, uint32_t cpu,
	       uint64_t period, const struct prism_frame *self, const struct prism_frame *frames,
	       size_t nr, bool nochain)
{
	struct prism_frame unknown = { .dso_name = "[unknown]" };
	struct precord r = { 0 };
	char buf[32];
	size_t i, s;

	if (!nr) {
		frames = &unknown;
		nr = 1;
	}
	if (!comm) {
		snprintf(buf, sizeof(buf), ":%d", (int)tid); /* perf prints tid -1 as ":-1" */
		comm = buf;
	}
	if (prism_ensure_mem((void **)&p->scratch, &p->scratch_alloc, sizeof(*p->scratch), nr))
		return -ENOMEM;
	p->add_pid = pid;
	for (i = 0; i < nr; i++) {
		p->scratch[i] = intern_frame(p, &frames[i]);
		if (p->scratch[i] == UINT32_MAX)
			return -ENOMEM;
	}
	r.self = self ? intern_frame(p, self) : p->scratch[0];
	r.comm_id = strtab__intern(&p->strs, comm);
	if (!r.comm_id || r.self == UINT32_MAX)
		return -ENOMEM;
	if (p->mask & (1u << PRISM_SORT_PID) || p->mask & (1u << PRISM_SORT_TID)) {
		r.pid = pid;
		r.tid = tid;
	}
	r.cpu = p->mask & (1u << PRISM_SORT_CPU) ? cpu : 0;
	r.thread = tid;
	r.nochain = nochain;
	r.depth = (uint32_t)nr;
	r.time = p->mask & (1u << PRISM_SORT_TIME) ? p->time : 0;
	r.sk = p->sk;
	r.hidden = p->hidden;
	r.parent_depth = p->parent_depth < nr ? (uint32_t)p->parent_depth : (uint32_t)nr;
	r.parent_fixed = p->parent_fixed;
	r.hash = rec_hash(&r, p->scratch) + nochain + 2 * r.hidden;
	/*
	 * Every sum of periods made from here on (rows, graphs, folded
	 * stacks) is part of the total: a total that cannot wrap keeps them
	 * all from wrapping, whatever periods a file holds.
	 */
	if (period > UINT64_MAX - p->total_period)
		period = UINT64_MAX - p->total_period;
	p->total_period += period;
	p->nr_samples++;
	if (p->rec_map.cap) {
		for (s = r.hash & (p->rec_map.cap - 1); p->rec_map.slots[s];
		     s = (s + 1) & (p->rec_map.cap - 1)) {
			struct precord *o = &p->recs[p->rec_map.slots[s] - 1];

			if (o->hash == r.hash && o->nochain == r.nochain && o->hidden == r.hidden &&
			    o->comm_id == r.comm_id && o->pid == r.pid && o->tid == r.tid &&
			    o->cpu == r.cpu && o->time == r.time && o->depth == r.depth &&
			    o->sk == r.sk && o->self == r.self &&
			    o->parent_depth == r.parent_depth &&
			    o->parent_fixed == r.parent_fixed &&
			    !memcmp(p->pool + o->off, p->scratch, nr * sizeof(uint32_t))) {
				o->period += period;
				o->count++;
				return 0;
			}
		}
	}
	if (u32map_grow(&p->rec_map, p->nr_recs, p->recs, sizeof(*p->recs), rec_hash_of) ||
	    prism_ensure_mem((void **)&p->recs, &p->alloc_recs, sizeof(*p->recs), p->nr_recs + 1) ||
	    prism_ensure_mem((void **)&p->pool, &p->pool_alloc, sizeof(*p->pool), p->pool_len + nr))
		return -ENOMEM;
	r.off = (uint32_t)p->pool_len;
	memcpy(p->pool + p->pool_len, p->scratch, nr * sizeof(uint32_t));
	p->pool_len += nr;
	r.period = period;
	r.count = 1;
	p->recs[p->nr_recs] = r;
	for (s = r.hash & (p->rec_map.cap - 1); p->rec_map.slots[s];
	     s = (s + 1) & (p->rec_map.cap - 1))
		;
	p->rec_map.slots[s] = (uint32_t)++p->nr_recs;
	return 0;
}

/*
 * The records keep their stacks; only their name and so their hash change.
 * Two records may end up with equal keys: rows sum them, and the lookup in
 * prism_profile__add() finds one of them.
 */
int prism_profile__rename_comm(struct prism_profile *p, const char *old, const char *new)
{
	uint32_t from = strtab__find(&p->strs, old), to;
	size_t i, s;
	bool hit = false;

	if (!from)
		return 0;
	to = strtab__intern(&p->strs, new);
	if (!to)
		return -ENOMEM;
	for (i = 0; i < p->nr_recs; i++) {
		struct precord *r = &p->recs[i];

		if (r->comm_id != from)
			continue;
		r->comm_id = to;
		r->hash = rec_hash(r, p->pool + r->off) + r->nochain + 2 * r->hidden;
		hit = true;
	}
	if (!hit || !p->rec_map.cap)
		return 0;
	memset(p->rec_map.slots, 0, p->rec_map.cap * sizeof(*p->rec_map.slots));
	for (i = 0; i < p->nr_recs; i++) {
		for (s = p->recs[i].hash & (p->rec_map.cap - 1); p->rec_map.slots[s];
		     s = (s + 1) & (p->rec_map.cap - 1))
			;
		p->rec_map.slots[s] = (uint32_t)i + 1;
	}
	return 0;
}

int prism_profile__add(struct prism_profile *p, const char *comm, uint32_t pid, uint32_t tid,
		       uint32_t cpu, uint64_t period, const struct prism_frame *frames, size_t nr)
{
	return add(p, comm, pid, tid, cpu, period, NULL, frames, nr, false);
}

int prism_profile__add_cut(struct prism_profile *p, const char *comm, uint32_t pid, uint32_t tid,
			   uint32_t cpu, uint64_t period, const struct prism_frame *self,
			   const struct prism_frame *frames, size_t nr)
{
	return add(p, comm, pid, tid, cpu, period, self, frames, nr, false);
}

int prism_profile__add_nochain(struct prism_profile *p, const char *comm, uint32_t pid,
			       uint32_t tid, uint32_t cpu, uint64_t period,
			       const struct prism_frame *leaf)
{
	return add(p, comm, pid, tid, cpu, period, NULL, leaf, 1, true);
}

void prism_profile__set_hidden(struct prism_profile *p, bool hidden)
{
	p->hidden = (uint8_t)((p->hidden & ~PREC_HIDDEN) | (hidden ? PREC_HIDDEN : 0));
}

int prism_profile__set_parent_frame(struct prism_profile *p, const struct prism_frame *f,
				    bool fixed)
{
	uint32_t id;

	if (!fixed || !f) {
		p->parent_fixed = fixed ? PARENT_NONE : 0;
		return 0;
	}
	id = intern_frame(p, f);
	if (id == UINT32_MAX)
		return -ENOMEM;
	p->parent_fixed = id + 1;
	return 0;
}

void prism_profile__set_verbose(struct prism_profile *p, bool on)
{
	p->addrs = on;
}

void prism_profile__set_filtered(struct prism_profile *p, bool filtered)
{
	p->hidden = (uint8_t)((p->hidden & ~PREC_FILTERED) | (filtered ? PREC_FILTERED : 0));
}

void prism_profile__set_full_source_path(struct prism_profile *p, bool full)
{
	p->full_src = full;
}

void prism_profile__set_time(struct prism_profile *p, uint64_t time)
{
	p->time = time;
}

void prism_profile__add_filtered(struct prism_profile *p, uint64_t period)
{
	p->total_period += period;
	p->nr_samples++;
}

uint64_t prism_profile__total_period(const struct prism_profile *p)
{
	return p->total_period;
}

uint64_t prism_profile__nr_samples(const struct prism_profile *p)
{
	return p->nr_samples;
}

size_t prism_profile__nr_stacks(const struct prism_profile *p)
{
	return p->nr_recs;
}

static const char *const key_names[PRISM_SORT__MAX] = {
	[PRISM_SORT_COMM] = "comm",
	[PRISM_SORT_PID] = "pid",
	[PRISM_SORT_TID] = "tid",
	[PRISM_SORT_DSO] = "dso",
	[PRISM_SORT_SYM] = "sym",
	[PRISM_SORT_SRCLINE] = "srcline",
	[PRISM_SORT_CPU] = "cpu",
	[PRISM_SORT_SRCFILE] = "srcfile",
	[PRISM_SORT_OVERHEAD] = "overhead",
	[PRISM_SORT_OVERHEAD_SYS] = "overhead_sys",
	[PRISM_SORT_OVERHEAD_US] = "overhead_us",
	[PRISM_SORT_OVERHEAD_GUEST_SYS] = "overhead_guest_sys",
	[PRISM_SORT_OVERHEAD_GUEST_US] = "overhead_guest_us",
	[PRISM_SORT_OVERHEAD_CHILDREN] = "overhead_children",
	[PRISM_SORT_SAMPLE] = "sample",
	[PRISM_SORT_PERIOD] = "period",
	[PRISM_SORT_PARENT] = "parent",
	[PRISM_SORT_SYM_SIZE] = "symbol_size",
	[PRISM_SORT_TIME] = "time",
	[PRISM_SORT_SOCKET] = "socket",
	[PRISM_SORT_DSO_SIZE] = "dso_size",
	[PRISM_SORT_CGROUP] = "cgroup",
	[PRISM_SORT_CGROUP_ID] = "cgroup_id",
	[PRISM_SORT_LOCAL_WEIGHT] = "local_weight",
	[PRISM_SORT_WEIGHT] = "weight",
	[PRISM_SORT_LOCAL_INS_LAT] = "local_ins_lat",
	[PRISM_SORT_INS_LAT] = "ins_lat",
	[PRISM_SORT_LOCAL_P_STAGE_CYC] = "local_p_stage_cyc",
	[PRISM_SORT_P_STAGE_CYC] = "p_stage_cyc",
	[PRISM_SORT_TRACE] = "trace",
};

int prism_sort_key__parse(const char *name)
{
	int i;

	for (i = 0; i < PRISM_SORT__MAX; i++)
		if (!strcmp(name, key_names[i]))
			return i;
	if (!strcmp(name, "symbol"))
		return PRISM_SORT_SYM;
	return -1;
}

const char *prism_sort_key__name(enum prism_sort_key key)
{
	return key < PRISM_SORT__MAX ? key_names[key] : NULL;
}
