// SPDX-License-Identifier: MIT
/*
 * perf report's sample keys beyond the task and the stack: socket, cgroup,
 * cgroup_id, the weights and latencies; the values rows keep of them and
 * perf's order of them, and where a report finds them (the header's CPU
 * topology, the CGROUP and NAMESPACES records).
 */
#include <linux/perf_event.h>

#include <prism/event.h>
#include <prism/features.h>

#include "profile-internal.h"

uint64_t psk_hash(const struct psk *k)
{
	uint64_t h = hash_u64(((uint64_t)(uint32_t)k->socket << 32) ^ k->cg_name);

	h = hash_u64(h ^ k->cgroup ^ (k->cg_dev << 32));
	h = hash_u64(h ^ k->cg_ino) ^ hash_u64(k->weight);
	return hash_u64(h ^ ((uint64_t)k->ins_lat << 16) ^ k->p_stage_cyc ^
			((uint64_t)k->trace << 32));
}

void psk_select(const struct psk *from, const bool *use, struct psk *to)
{
	memset(to, 0, sizeof(*to));
	if (use[PRISM_SORT_SOCKET])
		to->socket = from->socket;
	if (use[PRISM_SORT_CGROUP]) {
		to->cgroup = from->cgroup;
		to->cg_name = from->cg_name;
	}
	if (use[PRISM_SORT_CGROUP_ID]) {
		to->cg_dev = from->cg_dev;
		to->cg_ino = from->cg_ino;
	}
	if (use[PRISM_SORT_LOCAL_WEIGHT] || use[PRISM_SORT_WEIGHT])
		to->weight = from->weight;
	if (use[PRISM_SORT_LOCAL_INS_LAT] || use[PRISM_SORT_INS_LAT])
		to->ins_lat = from->ins_lat;
	if (use[PRISM_SORT_LOCAL_P_STAGE_CYC] || use[PRISM_SORT_P_STAGE_CYC])
		to->p_stage_cyc = from->p_stage_cyc;
	if (use[PRISM_SORT_TRACE])
		to->trace = from->trace;
}

static int psk_intern(struct prism_profile *p, const struct psk *k, uint32_t *id);

int psk_rows(struct prism_profile *p, const bool *use, uint32_t **out)
{
	bool all = true;
	size_t i;
	int k;

	*out = NULL;
	for (k = PRISM_SORT_SOCKET; k <= PRISM_SORT_TRACE; k++)
		all &= !(p->mask & (1u << k)) || use[k];
	if (all || !p->nr_psks)
		return 0;
	*out = calloc(p->nr_recs + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < p->nr_recs; i++) {
		struct psk masked;

		psk_select(psk_of(p, p->recs[i].sk), use, &masked);
		if (psk_intern(p, &masked, &(*out)[i]))
			return -ENOMEM;
	}
	return 0;
}

void psk_to_entry(const struct prism_profile *p, const struct psk *k, struct prism_hist_entry *e)
{
	e->socket = k->socket;
	e->cgroup = k->cgroup;
	e->cgroup_name = k->cg_name ? strtab__str(&p->strs, k->cg_name) : NULL;
	e->cgroup_dev = k->cg_dev;
	e->cgroup_ino = k->cg_ino;
	e->weight = k->weight;
	e->trace = k->trace ? strtab__str(&p->strs, k->trace) : NULL;
}

void psk_add_self(const struct prism_profile *p, const struct precord *r,
		  struct prism_hist_entry *e)
{
	const struct psk *k = psk_of(p, r->sk);

	e->ins_lat += k->ins_lat * r->count;
	e->p_stage_cyc += k->p_stage_cyc * r->count;
}

const struct psk *psk_of(const struct prism_profile *p, uint32_t id)
{
	static const struct psk none;

	return id && id < p->nr_psks ? &p->psks[id] : &none;
}

static uint64_t psk_hash_of(const void *k)
{
	return psk_hash(k);
}

/* the index of @k in the profile's table (0 for all zero), added if new; -ENOMEM */
static int psk_intern(struct prism_profile *p, const struct psk *k, uint32_t *id)
{
	static const struct psk none;
	uint64_t h = psk_hash(k);
	size_t s;

	*id = 0;
	if (!memcmp(k, &none, sizeof(none)))
		return 0;
	for (s = h & (p->psk_map.cap - 1); p->psk_map.cap && p->psk_map.slots[s];
	     s = (s + 1) & (p->psk_map.cap - 1)) {
		if (!memcmp(&p->psks[p->psk_map.slots[s] - 1], k, sizeof(*k))) {
			*id = p->psk_map.slots[s] - 1;
			return 0;
		}
	}
	if (prism_ensure_mem((void **)&p->psks, &p->alloc_psks, sizeof(*p->psks), p->nr_psks + 2))
		return -ENOMEM;
	if (!p->nr_psks) { /* index 0: all zero */
		memset(&p->psks[0], 0, sizeof(p->psks[0]));
		p->nr_psks = 1;
	}
	if (u32map_grow(&p->psk_map, p->nr_psks, p->psks, sizeof(*p->psks), psk_hash_of))
		return -ENOMEM;
	p->psks[p->nr_psks] = *k;
	for (s = h & (p->psk_map.cap - 1); p->psk_map.slots[s]; s = (s + 1) & (p->psk_map.cap - 1))
		;
	p->psk_map.slots[s] = (uint32_t)++p->nr_psks;
	*id = (uint32_t)(p->nr_psks - 1);
	return 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a < b ? -1 : 1;
}

static uint64_t avg(uint64_t sum, uint64_t n)
{
	return n ? sum / n : 0;
}

/* < 0 when @a comes first: perf's ascending socket, dso_size and cgroup, the others descending */
int psk_cmp(const struct prism_hist_entry *a, const struct prism_hist_entry *b,
	    enum prism_sort_key key)
{
	int c;

	switch (key) {
	case PRISM_SORT_SOCKET:
		return a->socket == b->socket ? 0 : a->socket < b->socket ? -1 : 1;
	case PRISM_SORT_DSO_SIZE:
		return cmp_u64(a->dso_size, b->dso_size);
	case PRISM_SORT_CGROUP:
		return cmp_u64(a->cgroup, b->cgroup);
	case PRISM_SORT_CGROUP_ID:
		c = cmp_u64(a->cgroup_dev, b->cgroup_dev);
		return c ? c : cmp_u64(a->cgroup_ino, b->cgroup_ino);
	case PRISM_SORT_LOCAL_WEIGHT:
	case PRISM_SORT_WEIGHT:
		return cmp_u64(b->weight, a->weight);
	/* perf: by the samples' value (a row's sum shows in the global column only) */
	case PRISM_SORT_LOCAL_INS_LAT:
	case PRISM_SORT_INS_LAT:
		return cmp_u64(avg(b->ins_lat, b->nr_samples), avg(a->ins_lat, a->nr_samples));
	case PRISM_SORT_LOCAL_P_STAGE_CYC:
	case PRISM_SORT_P_STAGE_CYC:
		return cmp_u64(avg(b->p_stage_cyc, b->nr_samples),
			       avg(a->p_stage_cyc, a->nr_samples));
	case PRISM_SORT_TRACE: /* perf: by the text, the rows of no tracepoint first */
		if (!a->trace || !b->trace)
			return !a->trace == !b->trace ? 0 : a->trace ? 1 : -1;
		return strcmp(a->trace, b->trace);
	default:
		return 0;
	}
}

int prism_profile__set_sample_keys(struct prism_profile *p, const struct prism_sample_keys *k)
{
	struct psk sk = { 0 }, masked;
	bool use[PRISM_SORT__MAX];
	int i;

	for (i = 0; i < PRISM_SORT__MAX; i++)
		use[i] = p->mask & (1u << i);
	sk.socket = k->socket;
	sk.cgroup = k->cgroup;
	if (use[PRISM_SORT_CGROUP] && k->cgroup_name) {
		sk.cg_name = strtab__intern(&p->strs, k->cgroup_name);
		if (!sk.cg_name)
			return -ENOMEM;
	}
	sk.cg_dev = k->cgroup_dev;
	sk.cg_ino = k->cgroup_ino;
	sk.weight = k->weight;
	sk.ins_lat = k->ins_lat;
	sk.p_stage_cyc = k->p_stage_cyc;
	if (use[PRISM_SORT_TRACE] && k->trace) {
		sk.trace = strtab__intern(&p->strs, k->trace);
		if (!sk.trace)
			return -ENOMEM;
	}
	psk_select(&sk, use, &masked);
	return psk_intern(p, &masked, &p->sk);
}

/* ---- where the values come from ---- */

struct cgroup_name { /* (the first field of these is their order) */
	uint64_t id;
	char *path;
};

struct task_ns {
	uint64_t tid;
	uint64_t dev, ino;
};

struct prism_key_source {
	int32_t *sockets; /* by CPU */
	size_t nr_cpus;
	struct cgroup_name *cgroups; /* by id */
	size_t nr_cgroups, alloc_cgroups;
	struct task_ns *tasks; /* by tid */
	size_t nr_tasks, alloc_tasks;
};

struct prism_key_source *prism_key_source__new(const struct prism_features *f)
{
	const struct prism_feat_cpu_topology *t = f ? prism_features__cpu_topology(f) : NULL;
	struct prism_key_source *ks = calloc(1, sizeof(*ks));
	size_t i;

	if (!ks)
		return NULL;
	if (t && t->has_cpus && t->nr_cpus) {
		ks->sockets = prism_reallocarray(NULL, t->nr_cpus, sizeof(*ks->sockets));
		if (!ks->sockets) {
			free(ks);
			return NULL;
		}
		for (i = 0; i < t->nr_cpus; i++)
			ks->sockets[i] = (int32_t)t->cpus[i].socket_id;
		ks->nr_cpus = t->nr_cpus;
	}
	return ks;
}

void prism_key_source__free(struct prism_key_source *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->nr_cgroups; i++)
		free(ks->cgroups[i].path);
	free(ks->cgroups);
	free(ks->tasks);
	free(ks->sockets);
	free(ks);
}

/* the index of the first of @nr elements of @size bytes (sorted by their first u64) >= @key */
static size_t lower(const void *base, size_t nr, size_t size, uint64_t key)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t k;

		memcpy(&k, (const char *)base + mid * size, sizeof(k));
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t lower_cgroup(const struct prism_key_source *ks, uint64_t id)
{
	return lower(ks->cgroups, ks->nr_cgroups, sizeof(*ks->cgroups), id);
}

static size_t lower_task(const struct prism_key_source *ks, uint32_t tid)
{
	return lower(ks->tasks, ks->nr_tasks, sizeof(*ks->tasks), tid);
}

/* perf keeps the first name of an id */
static int add_cgroup(struct prism_key_source *ks, uint64_t id, const char *path)
{
	size_t i = lower_cgroup(ks, id);
	char *copy;

	if (i < ks->nr_cgroups && ks->cgroups[i].id == id)
		return 0;
	copy = strdup(path ? path : "");
	if (!copy || prism_ensure_mem((void **)&ks->cgroups, &ks->alloc_cgroups,
				      sizeof(*ks->cgroups), ks->nr_cgroups + 1)) {
		free(copy);
		return -ENOMEM;
	}
	memmove(&ks->cgroups[i + 1], &ks->cgroups[i], (ks->nr_cgroups - i) * sizeof(*ks->cgroups));
	ks->cgroups[i].id = id;
	ks->cgroups[i].path = copy;
	ks->nr_cgroups++;
	return 0;
}

/* the task's latest cgroup namespace */
static int add_ns(struct prism_key_source *ks, const struct prism_ev_namespaces *ns)
{
	size_t i = lower_task(ks, ns->tid);
	uint64_t dev = 0, ino = 0;

	if (ns->nr > CGROUP_NS_INDEX) {
		dev = ns->link_info[2 * CGROUP_NS_INDEX];
		ino = ns->link_info[2 * CGROUP_NS_INDEX + 1];
	}
	if (i == ks->nr_tasks || ks->tasks[i].tid != ns->tid) {
		if (prism_ensure_mem((void **)&ks->tasks, &ks->alloc_tasks, sizeof(*ks->tasks),
				     ks->nr_tasks + 1))
			return -ENOMEM;
		memmove(&ks->tasks[i + 1], &ks->tasks[i], (ks->nr_tasks - i) * sizeof(*ks->tasks));
		ks->nr_tasks++;
		ks->tasks[i].tid = ns->tid;
	}
	ks->tasks[i].dev = dev;
	ks->tasks[i].ino = ino;
	return 0;
}

int prism_key_source__event(struct prism_key_source *ks, const struct prism_event *ev)
{
	if (ev->type == PERF_RECORD_CGROUP)
		return add_cgroup(ks, ev->cgroup.id, ev->cgroup.path);
	if (ev->type == PERF_RECORD_NAMESPACES)
		return add_ns(ks, &ev->ns);
	return 0;
}

void prism_key_source__sample(const struct prism_key_source *ks, const struct prism_event *ev,
			      struct prism_sample_keys *out)
{
	const struct prism_sample *s = &ev->sample;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->socket = -1; /* perf: no CPU, or a file without per-CPU topology */
	if (s->cpu != (uint32_t)-1 && s->cpu < ks->nr_cpus)
		out->socket = ks->sockets[s->cpu];
	if (s->type & PERF_SAMPLE_CGROUP) {
		out->cgroup = s->cgroup;
		i = lower_cgroup(ks, s->cgroup);
		if (i < ks->nr_cgroups && ks->cgroups[i].id == s->cgroup)
			out->cgroup_name = ks->cgroups[i].path;
	}
	i = lower_task(ks, s->tid);
	if (i < ks->nr_tasks && ks->tasks[i].tid == s->tid) {
		out->cgroup_dev = ks->tasks[i].dev;
		out->cgroup_ino = ks->tasks[i].ino;
	}
	if (s->type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		out->weight = s->weight;
	if (s->type & PERF_SAMPLE_WEIGHT_STRUCT) {
		out->ins_lat = s->weight_var2;
		out->p_stage_cyc = s->weight_var3;
	}
}
