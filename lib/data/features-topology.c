// SPDX-License-Identifier: MIT
/*
 * Decoders of the machine-description features: CPU, NUMA, cache, memory
 * and hybrid topology, scheduler domains, PMU capabilities.
 */
#include "data/features-internal.h"

/* a string list: u32 nr, nr perf_header_strings */
static bool str_list(struct feat_cursor *c, uint32_t *nr, const char *const **v, const char *what)
{
	return feat_count(c, nr, sizeof(uint32_t), what) && feat_str_array(c, *nr, v);
}

/*
 * CPU_TOPOLOGY grew by appending: sibling lists (always), then per-CPU core
 * and socket ids, then die lists and per-CPU die ids.  Each optional part is
 * there when bytes remain; anything after the die ids (newer writers) is
 * ignored.  The per-CPU parts have NRCPUS' nr_cpus_avail entries.
 */
bool feat_decode_cpu_topology(struct feat_cursor *c, void **out)
{
	const struct prism_feat_nrcpus *n = feat_data(c->f, PRISM_FEAT_NRCPUS);
	struct prism_feat_cpu_topology *t;
	struct prism_feat_cpu_ids *cpus;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !str_list(c, &t->nr_sockets, &t->sockets, "socket lists") ||
	    !str_list(c, &t->nr_threads, &t->threads, "thread lists"))
		return false;
	*out = t;
	if (!c->left)
		return true;
	if (!n || !n->nr_cpus_avail) {
		pr_debug("features: CPU_TOPOLOGY: per-CPU ids skipped, NRCPUS is unknown");
		return true;
	}
	cpus = feat_array(c, n->nr_cpus_avail, sizeof(*cpus), 8, "CPU ids");
	if (!cpus)
		return false;
	for (i = 0; i < n->nr_cpus_avail; i++)
		if (!feat_u32(c, &cpus[i].core_id) || !feat_u32(c, &cpus[i].socket_id))
			return false;
	t->cpus = cpus;
	t->nr_cpus = n->nr_cpus_avail;
	t->has_cpus = true;
	if (!c->left)
		return true;
	if (!str_list(c, &t->nr_dies, &t->dies, "die lists"))
		return false;
	for (i = 0; i < t->nr_cpus; i++)
		if (!feat_u32(c, &cpus[i].die_id))
			return false;
	t->has_dies = true;
	return true;
}

bool feat_decode_numa_topology(struct feat_cursor *c, void **out)
{
	struct prism_feat_numa_topology *t;
	struct prism_feat_numa_node *nodes;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->nr))
		return false;
	nodes = feat_array(c, t->nr, sizeof(*nodes), 24, "NUMA nodes");
	if (!nodes)
		return false;
	for (i = 0; i < t->nr; i++)
		if (!feat_u32(c, &nodes[i].node) || !feat_u64(c, &nodes[i].mem_total) ||
		    !feat_u64(c, &nodes[i].mem_free) || !feat_str(c, &nodes[i].cpus))
			return false;
	t->nodes = nodes;
	*out = t;
	return true;
}

bool feat_decode_cache(struct feat_cursor *c, void **out)
{
	struct prism_feat_cache_level *l;
	struct prism_feat_cache *t;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->version))
		return false;
	if (t->version != 1)
		return feat_fail(c, -PRISM_E_BAD_FEATURE, "unknown version %u", t->version);
	if (!feat_u32(c, &t->nr))
		return false;
	l = feat_array(c, t->nr, sizeof(*l), 28, "cache levels");
	if (!l)
		return false;
	for (i = 0; i < t->nr; i++)
		if (!feat_u32(c, &l[i].level) || !feat_u32(c, &l[i].line_size) ||
		    !feat_u32(c, &l[i].sets) || !feat_u32(c, &l[i].ways) ||
		    !feat_str(c, &l[i].type) || !feat_str(c, &l[i].size) || !feat_str(c, &l[i].map))
			return false;
	t->caches = l;
	*out = t;
	return true;
}

bool feat_decode_mem_topology(struct feat_cursor *c, void **out)
{
	struct prism_feat_mem_topology *t;
	struct prism_feat_mem_node *nodes;
	uint64_t i, j;

	if (!FEAT_NEW(c, t) || !feat_u64(c, &t->version))
		return false;
	if (t->version != 1)
		return feat_fail(c, -PRISM_E_BAD_FEATURE, "unknown version %llu",
				 (unsigned long long)t->version);
	if (!feat_u64(c, &t->block_size) || !feat_u64(c, &t->nr))
		return false;
	nodes = feat_array(c, t->nr, sizeof(*nodes), 24, "memory nodes");
	if (!nodes)
		return false;
	for (i = 0; i < t->nr; i++) {
		struct prism_feat_mem_node *n = &nodes[i];
		uint64_t words, *bits;

		if (!feat_u64(c, &n->node) || !feat_u64(c, &n->size) || !feat_u64(c, &n->nbits))
			return false;
		/* do_write_bitmap: ceil(nbits / 64) u64 words */
		words = n->nbits / 64 + !!(n->nbits % 64);
		bits = feat_array(c, words, sizeof(*bits), sizeof(*bits), "bitmap words");
		if (!bits)
			return false;
		for (j = 0; j < words; j++)
			feat_u64(c, &bits[j]);
		n->bits = bits;
	}
	t->nodes = nodes;
	*out = t;
	return !c->failed;
}

bool feat_decode_hybrid_topology(struct feat_cursor *c, void **out)
{
	struct prism_feat_hybrid_topology *t;
	struct prism_feat_hybrid_node *nodes;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->nr))
		return false;
	nodes = feat_array(c, t->nr, sizeof(*nodes), 8, "hybrid nodes");
	if (!nodes)
		return false;
	for (i = 0; i < t->nr; i++)
		if (!feat_str(c, &nodes[i].pmu_name) || !feat_str(c, &nodes[i].cpus))
			return false;
	t->nodes = nodes;
	*out = t;
	return true;
}

/*
 * One CPU of CPU_DOMAIN_INFO: u32 cpu, u32 nr_domains, per domain u32
 * domain, a name string (schedstat version >= 17), cpumask and cpulist
 * strings.  With @d NULL the entry is only checked and skipped.
 */
static bool cpu_domains(struct feat_cursor *c, uint32_t version, struct prism_feat_cpu_domains *d)
{
	const size_t min = version >= 17 ? 16 : 12;
	struct prism_feat_cpu_domains tmp = { 0 };
	struct prism_feat_sched_domain *dom = NULL;
	uint32_t i;

	if (!d)
		d = &tmp;
	if (!feat_u32(c, &d->cpu) || !feat_count(c, &d->nr_domains, min, "sched domains"))
		return false;
	if (d != &tmp) {
		dom = feat_array(c, d->nr_domains, sizeof(*dom), min, "sched domains");
		if (!dom)
			return false;
		d->domains = dom;
	}
	for (i = 0; i < d->nr_domains; i++) {
		struct prism_feat_sched_domain one = { 0 };
		struct feat_arena *keep = c->arena, scratch = { 0 };

		/* a checking pass allocates its strings from a scratch arena */
		if (!dom)
			c->arena = &scratch;
		if (feat_u32(c, &one.domain) && (version < 17 || feat_str(c, &one.name)) &&
		    feat_str(c, &one.cpumask))
			feat_str(c, &one.cpulist);
		c->arena = keep;
		feat_arena_release(&scratch);
		if (c->failed)
			return false;
		if (dom)
			dom[i] = one;
	}
	return true;
}

/* the number of CPU entries is not stored: they run to the end of the section */
bool feat_decode_cpu_domain_info(struct feat_cursor *c, void **out)
{
	struct prism_feat_cpu_domain_info *t;
	struct prism_feat_cpu_domains *cpus;
	struct feat_cursor probe;
	uint32_t nr = 0, i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->schedstat_version) ||
	    !feat_u32(c, &t->max_sched_domains))
		return false;
	probe = *c;
	while (probe.left) {
		if (!cpu_domains(&probe, t->schedstat_version, NULL)) {
			c->failed = true;
			c->err = probe.err;
			memcpy(c->why, probe.why, sizeof(c->why));
			return false;
		}
		nr++;
	}
	cpus = feat_array(c, nr, sizeof(*cpus), 8, "CPU entries");
	if (!cpus)
		return false;
	for (i = 0; i < nr; i++)
		if (!cpu_domains(c, t->schedstat_version, &cpus[i]))
			return false;
	t->nr_cpus = nr;
	t->cpus = cpus;
	*out = t;
	return true;
}

/* u32 nr, nr × (name, value) strings */
static bool caps_list(struct feat_cursor *c, struct prism_feat_pmu_caps_set *set)
{
	struct prism_feat_pmu_cap *caps;
	uint32_t i;

	if (!feat_u32(c, &set->nr_caps))
		return false;
	caps = feat_array(c, set->nr_caps, sizeof(*caps), 8, "capabilities");
	if (!caps)
		return false;
	for (i = 0; i < set->nr_caps; i++)
		if (!feat_str(c, &caps[i].name) || !feat_str(c, &caps[i].value))
			return false;
	set->caps = caps;
	return true;
}

bool feat_decode_cpu_pmu_caps(struct feat_cursor *c, void **out)
{
	struct prism_feat_pmu_caps_set *set;

	if (!FEAT_NEW(c, set) || !caps_list(c, set))
		return false;
	set->pmu_name = "cpu";
	*out = set;
	return true;
}

bool feat_decode_pmu_caps(struct feat_cursor *c, void **out)
{
	struct prism_feat_pmu_caps_set *pmus;
	struct prism_feat_pmu_caps *t;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->nr_pmus))
		return false;
	pmus = feat_array(c, t->nr_pmus, sizeof(*pmus), 8, "PMUs");
	if (!pmus)
		return false;
	for (i = 0; i < t->nr_pmus; i++)
		if (!caps_list(c, &pmus[i]) || !feat_str(c, &pmus[i].pmu_name))
			return false;
	t->pmus = pmus;
	*out = t;
	return true;
}
