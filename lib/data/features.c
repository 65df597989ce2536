// SPDX-License-Identifier: MIT
/*
 * perf.data header features: the feature set, the bounds-checked section
 * reader, and the decoders of the small features.  Topology-like features
 * are in features-topology.c, BPF ones in features-bpf.c, printing in
 * features-print.c.
 */
#include <byteswap.h>
#include <stdarg.h>
#include <stdio.h>

#include "data/attr.h"
#include "data/features-internal.h"

/* perf's HEADER_* names (tools/perf/util/header.c feat_ops[].name) */
static const char *const feat_names[PRISM_FEAT__NR] = {
	[PRISM_FEAT_RESERVED] = "RESERVED",
	[PRISM_FEAT_TRACING_DATA] = "TRACING_DATA",
	[PRISM_FEAT_BUILD_ID] = "BUILD_ID",
	[PRISM_FEAT_HOSTNAME] = "HOSTNAME",
	[PRISM_FEAT_OSRELEASE] = "OSRELEASE",
	[PRISM_FEAT_VERSION] = "VERSION",
	[PRISM_FEAT_ARCH] = "ARCH",
	[PRISM_FEAT_NRCPUS] = "NRCPUS",
	[PRISM_FEAT_CPUDESC] = "CPUDESC",
	[PRISM_FEAT_CPUID] = "CPUID",
	[PRISM_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PRISM_FEAT_CMDLINE] = "CMDLINE",
	[PRISM_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PRISM_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PRISM_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PRISM_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[PRISM_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PRISM_FEAT_GROUP_DESC] = "GROUP_DESC",
	[PRISM_FEAT_AUXTRACE] = "AUXTRACE",
	[PRISM_FEAT_STAT] = "STAT",
	[PRISM_FEAT_CACHE] = "CACHE",
	[PRISM_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PRISM_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PRISM_FEAT_CLOCKID] = "CLOCKID",
	[PRISM_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[PRISM_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PRISM_FEAT_BPF_BTF] = "BPF_BTF",
	[PRISM_FEAT_COMPRESSED] = "COMPRESSED",
	[PRISM_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[PRISM_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PRISM_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PRISM_FEAT_PMU_CAPS] = "PMU_CAPS",
	[PRISM_FEAT_CPU_DOMAIN_INFO] = "CPU_DOMAIN_INFO",
	[PRISM_FEAT_E_MACHINE] = "E_MACHINE",
	[PRISM_FEAT_CLN_SIZE] = "CLN_SIZE",
};

const char *prism_features__name(unsigned int feat)
{
	if (feat == PRISM_FEAT_UTIL_CHECK)
		return "PRISM_UTIL_CHECK";
	return feat < PRISM_FEAT__NR ? feat_names[feat] : "UNKNOWN";
}

/* ---- arena ---- */

struct feat_chunk {
	struct feat_chunk *next;
	max_align_t data[];
};

void *feat_alloc(struct feat_arena *a, size_t size)
{
	struct feat_chunk *ch;

	if (size > SIZE_MAX - sizeof(*ch))
		return NULL;
	ch = calloc(1, sizeof(*ch) + (size ? size : 1));
	if (!ch)
		return NULL;
	ch->next = a->head;
	a->head = ch;
	return ch->data;
}

void *feat_alloc_array(struct feat_arena *a, size_t nmemb, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(nmemb, size, &total))
		return NULL;
	return feat_alloc(a, total);
}

void feat_arena_release(struct feat_arena *a)
{
	while (a->head) {
		struct feat_chunk *next = a->head->next;

		free(a->head);
		a->head = next;
	}
}

/* ---- section reader ---- */

bool feat_fail(struct feat_cursor *c, int err, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return false;
	c->failed = true;
	c->err = err;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return false;
}

static bool need(struct feat_cursor *c, size_t n)
{
	if (c->failed)
		return false;
	if (n > c->left)
		return feat_fail(c, -PRISM_E_BAD_FEATURE,
				 "needs %zu bytes at offset %zu but the section has %zu left", n,
				 c->size - c->left, c->left);
	return true;
}

bool feat_skip(struct feat_cursor *c, size_t n)
{
	if (!need(c, n))
		return false;
	c->p += n;
	c->left -= n;
	return true;
}

bool feat_bytes(struct feat_cursor *c, void *dst, size_t n)
{
	if (!need(c, n))
		return false;
	memcpy(dst, c->p, n);
	return feat_skip(c, n);
}

bool feat_u32(struct feat_cursor *c, uint32_t *v)
{
	if (!feat_bytes(c, v, sizeof(*v)))
		return false;
	if (c->swap)
		*v = bswap_32(*v);
	return true;
}

bool feat_u64(struct feat_cursor *c, uint64_t *v)
{
	if (!feat_bytes(c, v, sizeof(*v)))
		return false;
	if (c->swap)
		*v = bswap_64(*v);
	return true;
}

bool feat_dup(struct feat_cursor *c, size_t n, const uint8_t **out)
{
	uint8_t *p;

	if (!need(c, n))
		return false;
	p = feat_alloc(c->arena, n);
	if (!p)
		return feat_fail(c, -ENOMEM, "out of memory");
	memcpy(p, c->p, n);
	*out = p;
	return feat_skip(c, n);
}

bool feat_str(struct feat_cursor *c, const char **out)
{
	uint32_t len;
	size_t n;
	char *s;

	if (!feat_u32(c, &len) || !need(c, len))
		return false;
	/* the writer pads with NULs to NAME_ALIGN and counts the padding in len */
	n = strnlen((const char *)c->p, len);
	s = feat_alloc(c->arena, n + 1);
	if (!s)
		return feat_fail(c, -ENOMEM, "out of memory");
	memcpy(s, c->p, n);
	*out = s;
	return feat_skip(c, len);
}

bool feat_count(struct feat_cursor *c, uint32_t *nr, size_t min_elem, const char *what)
{
	if (!feat_u32(c, nr))
		return false;
	if (min_elem && *nr > c->left / min_elem)
		return feat_fail(c, -PRISM_E_BAD_FEATURE,
				 "%u %s cannot fit in the %zu bytes left (at least %zu bytes each)",
				 *nr, what, c->left, min_elem);
	return true;
}

void *feat_array(struct feat_cursor *c, uint64_t nr, size_t elem, size_t min_elem, const char *what)
{
	void *p;

	if (c->failed)
		return NULL;
	if (min_elem && nr > c->left / min_elem) {
		feat_fail(c, -PRISM_E_BAD_FEATURE,
			  "%llu %s cannot fit in the %zu bytes left (at least %zu bytes each)",
			  (unsigned long long)nr, what, c->left, min_elem);
		return NULL;
	}
	p = feat_alloc_array(c->arena, nr, elem);
	if (!p)
		feat_fail(c, -ENOMEM, "out of memory");
	return p;
}

bool feat_str_array(struct feat_cursor *c, uint32_t nr, const char *const **out)
{
	const char **v = feat_array(c, nr, sizeof(*v), sizeof(uint32_t), "strings");
	uint32_t i;

	if (!v)
		return false;
	for (i = 0; i < nr; i++)
		if (!feat_str(c, &v[i]))
			return false;
	*out = v;
	return true;
}

/* ---- decoders of the small features ---- */

static bool decode_string(struct feat_cursor *c, void **out)
{
	const char *s;

	if (!feat_str(c, &s))
		return false;
	*out = (void *)s;
	return true;
}

static bool decode_nrcpus(struct feat_cursor *c, void **out)
{
	struct prism_feat_nrcpus *n;

	if (!FEAT_NEW(c, n) || !feat_u32(c, &n->nr_cpus_avail) || !feat_u32(c, &n->nr_cpus_online))
		return false;
	*out = n;
	return true;
}

static bool decode_total_mem(struct feat_cursor *c, void **out)
{
	struct prism_feat_total_mem *m;

	if (!FEAT_NEW(c, m) || !feat_u64(c, &m->kb))
		return false;
	*out = m;
	return true;
}

static bool decode_cmdline(struct feat_cursor *c, void **out)
{
	struct prism_feat_cmdline *cl;

	if (!FEAT_NEW(c, cl) || !feat_count(c, &cl->argc, sizeof(uint32_t), "arguments") ||
	    !feat_str_array(c, cl->argc, &cl->argv))
		return false;
	*out = cl;
	return true;
}

/* PERF_RECORD_MISC_BUILD_ID_SIZE */
#define BUILD_ID_SIZE_BIT (1u << 15)

/*
 * Build-id entries: perf_event_header, s32 pid, u8 build_id[20], u8 size,
 * 3 reserved bytes, NUL-padded file name; header.size covers the entry.
 * Files from before the pid field have a 32-byte fixed part (@old_abi).
 */
static bool decode_build_id_entries(struct feat_cursor *c, bool old_abi,
				    struct prism_feat_build_ids *b)
{
	const size_t fixed = old_abi ? 32 : 36;
	struct prism_feat_build_id *e;
	const uint8_t *p = c->p;
	size_t left = c->left, nr = 0, i;

	/* count first: every entry is at least 'fixed' bytes, so nr <= size / fixed */
	while (left) {
		uint16_t sz;

		if (left < fixed)
			return feat_fail(c, -PRISM_E_BAD_FEATURE,
					 "build-id entry at offset %zu is cut short (%zu bytes)",
					 c->size - left, left);
		sz = get_u16(p + 6);
		if (c->swap)
			sz = bswap_16(sz);
		if (sz < fixed || sz > left)
			return feat_fail(
				c, -PRISM_E_BAD_FEATURE,
				"build-id entry at offset %zu has size %u (%zu bytes left)",
				c->size - left, sz, left);
		p += sz;
		left -= sz;
		nr++;
	}
	e = feat_array(c, nr, sizeof(*e), 0, "build ids");
	if (!e)
		return false;
	for (i = 0, p = c->p; i < nr; i++) {
		uint16_t misc = get_u16(p + 4), sz = get_u16(p + 6);
		const uint8_t *id = p + (old_abi ? 8 : 12);
		int32_t pid = old_abi ? -1 : (int32_t)get_u32(p + 8);
		char *name;
		size_t n;

		if (c->swap) {
			misc = bswap_16(misc);
			sz = bswap_16(sz);
			pid = old_abi ? -1 : (int32_t)bswap_32((uint32_t)pid);
		}
		e[i].misc = misc;
		e[i].pid = pid;
		e[i].has_size = !old_abi && (misc & BUILD_ID_SIZE_BIT);
		e[i].size = e[i].has_size ? id[20] : 20;
		if (e[i].size > 20)
			e[i].size = 20;
		memcpy(e[i].build_id, id, e[i].size);
		n = strnlen((const char *)p + fixed, sz - fixed);
		name = feat_alloc(c->arena, n + 1);
		if (!name)
			return feat_fail(c, -ENOMEM, "out of memory");
		memcpy(name, p + fixed, n);
		e[i].filename = name;
		p += sz;
	}
	b->nr = nr;
	b->entries = e;
	return feat_skip(c, c->left);
}

static bool decode_build_id(struct feat_cursor *c, void **out)
{
	struct feat_cursor save = *c;
	struct prism_feat_build_ids *b;

	if (!FEAT_NEW(c, b) || !decode_build_id_entries(c, false, b))
		return false;
	/*
	 * Files from before the pid field: read in the new layout, the kernel
	 * entry's name loses its first four characters (perf's
	 * perf_header__read_build_ids_abi_quirk).
	 */
	if (b->nr && !strncmp(b->entries[0].filename, "nel.kallsyms]", 13)) {
		*c = save;
		if (!decode_build_id_entries(c, true, b))
			return false;
	}
	*out = b;
	return true;
}

static bool decode_event_desc(struct feat_cursor *c, void **out)
{
	struct prism_feat_event_desc *d;
	struct prism_feat_event *ev;
	uint32_t i, j;

	if (!FEAT_NEW(c, d) || !feat_u32(c, &d->nr_events) || !feat_u32(c, &d->attr_size))
		return false;
	if (d->attr_size < PERF_ATTR_SIZE_VER0)
		return feat_fail(c, -PRISM_E_BAD_FEATURE, "attr size %u is below the minimum 64",
				 d->attr_size);
	/* per event: attr, u32 nr_ids, a string (at least its u32 length) */
	ev = feat_array(c, d->nr_events, sizeof(*ev), (size_t)d->attr_size + 8, "events");
	if (!ev)
		return false;
	for (i = 0; i < d->nr_events; i++) {
		struct prism_attr_ext a;
		uint64_t *ids;

		if (!need(c, d->attr_size))
			return false;
		if (prism_attr__read(&a, c->p, d->attr_size, c->swap))
			return feat_fail(c, -PRISM_E_BAD_FEATURE,
					 "event %u: attr.size %u does not fit the stored %u bytes",
					 i, a.file_size, d->attr_size);
		ev[i].attr = a.attr;
		ev[i].attr_size = a.file_size;
		ev[i].config3 = a.config3;
		ev[i].config4 = a.config4;
		if (!feat_skip(c, d->attr_size) || !feat_count(c, &ev[i].nr_ids, 0, "ids") ||
		    !feat_str(c, &ev[i].name))
			return false;
		ids = feat_array(c, ev[i].nr_ids, sizeof(*ids), sizeof(*ids), "ids");
		if (!ids)
			return false;
		for (j = 0; j < ev[i].nr_ids; j++)
			feat_u64(c, &ids[j]);
		ev[i].ids = ids;
	}
	d->events = ev;
	*out = d;
	return !c->failed;
}

static bool decode_pmu_mappings(struct feat_cursor *c, void **out)
{
	struct prism_feat_pmu_mappings *m;
	struct prism_feat_pmu_mapping *pm;
	uint32_t i;

	if (!FEAT_NEW(c, m) || !feat_u32(c, &m->nr))
		return false;
	pm = feat_array(c, m->nr, sizeof(*pm), 8, "PMUs");
	if (!pm)
		return false;
	for (i = 0; i < m->nr; i++)
		if (!feat_u32(c, &pm[i].type) || !feat_str(c, &pm[i].name))
			return false;
	m->pmus = pm;
	*out = m;
	return true;
}

static bool decode_group_desc(struct feat_cursor *c, void **out)
{
	struct prism_feat_group_desc *d;
	struct prism_feat_group *g;
	uint32_t i;

	if (!FEAT_NEW(c, d) || !feat_u32(c, &d->nr))
		return false;
	g = feat_array(c, d->nr, sizeof(*g), 12, "groups");
	if (!g)
		return false;
	for (i = 0; i < d->nr; i++)
		if (!feat_str(c, &g[i].name) || !feat_u32(c, &g[i].leader_idx) ||
		    !feat_u32(c, &g[i].nr_members))
			return false;
	d->groups = g;
	*out = d;
	return true;
}

static bool decode_auxtrace(struct feat_cursor *c, void **out)
{
	struct prism_feat_auxtrace_entry *e;
	struct prism_feat_auxtrace *a;
	uint64_t i;

	if (!FEAT_NEW(c, a) || !feat_u64(c, &a->nr))
		return false;
	e = feat_array(c, a->nr, sizeof(*e), 16, "auxtrace index entries");
	if (!e)
		return false;
	for (i = 0; i < a->nr; i++)
		if (!feat_u64(c, &e[i].file_offset) || !feat_u64(c, &e[i].size))
			return false;
	a->entries = e;
	*out = a;
	return true;
}

static bool decode_sample_time(struct feat_cursor *c, void **out)
{
	struct prism_feat_sample_time *t;

	if (!FEAT_NEW(c, t) || !feat_u64(c, &t->first) || !feat_u64(c, &t->last))
		return false;
	*out = t;
	return true;
}

static bool decode_clockid(struct feat_cursor *c, void **out)
{
	struct prism_feat_clockid *k;

	if (!FEAT_NEW(c, k) || !feat_u64(c, &k->res_ns))
		return false;
	*out = k;
	return true;
}

static bool decode_dir_format(struct feat_cursor *c, void **out)
{
	struct prism_feat_dir_format *d;

	if (!FEAT_NEW(c, d) || !feat_u64(c, &d->version))
		return false;
	*out = d;
	return true;
}

static bool decode_compressed(struct feat_cursor *c, void **out)
{
	struct prism_feat_compressed *z;

	if (!FEAT_NEW(c, z) || !feat_u32(c, &z->version) || !feat_u32(c, &z->type) ||
	    !feat_u32(c, &z->level) || !feat_u32(c, &z->ratio) || !feat_u32(c, &z->mmap_len))
		return false;
	*out = z;
	return true;
}

static bool decode_clock_data(struct feat_cursor *c, void **out)
{
	struct prism_feat_clock_data *d;

	if (!FEAT_NEW(c, d) || !feat_u32(c, &d->version))
		return false;
	if (d->version != 1)
		return feat_fail(c, -PRISM_E_BAD_FEATURE, "unknown version %u", d->version);
	if (!feat_u32(c, &d->clockid) || !feat_u64(c, &d->tod_ns) || !feat_u64(c, &d->clockid_ns))
		return false;
	*out = d;
	return true;
}

static bool decode_e_machine(struct feat_cursor *c, void **out)
{
	struct prism_feat_e_machine *m;

	if (!FEAT_NEW(c, m) || !feat_u32(c, &m->e_machine) || !feat_u32(c, &m->e_flags))
		return false;
	*out = m;
	return true;
}

static bool decode_cln_size(struct feat_cursor *c, void **out)
{
	struct prism_feat_cln_size *s;

	if (!FEAT_NEW(c, s) || !feat_u32(c, &s->size))
		return false;
	*out = s;
	return true;
}

static const feat_decode_fn decoders[PRISM_FEAT__NR] = {
	[PRISM_FEAT_BUILD_ID] = decode_build_id,
	[PRISM_FEAT_HOSTNAME] = decode_string,
	[PRISM_FEAT_OSRELEASE] = decode_string,
	[PRISM_FEAT_VERSION] = decode_string,
	[PRISM_FEAT_ARCH] = decode_string,
	[PRISM_FEAT_NRCPUS] = decode_nrcpus,
	[PRISM_FEAT_CPUDESC] = decode_string,
	[PRISM_FEAT_CPUID] = decode_string,
	[PRISM_FEAT_TOTAL_MEM] = decode_total_mem,
	[PRISM_FEAT_CMDLINE] = decode_cmdline,
	[PRISM_FEAT_EVENT_DESC] = decode_event_desc,
	[PRISM_FEAT_CPU_TOPOLOGY] = feat_decode_cpu_topology,
	[PRISM_FEAT_NUMA_TOPOLOGY] = feat_decode_numa_topology,
	[PRISM_FEAT_PMU_MAPPINGS] = decode_pmu_mappings,
	[PRISM_FEAT_GROUP_DESC] = decode_group_desc,
	[PRISM_FEAT_AUXTRACE] = decode_auxtrace,
	[PRISM_FEAT_CACHE] = feat_decode_cache,
	[PRISM_FEAT_SAMPLE_TIME] = decode_sample_time,
	[PRISM_FEAT_MEM_TOPOLOGY] = feat_decode_mem_topology,
	[PRISM_FEAT_CLOCKID] = decode_clockid,
	[PRISM_FEAT_DIR_FORMAT] = decode_dir_format,
	[PRISM_FEAT_BPF_PROG_INFO] = feat_decode_bpf_prog_info,
	[PRISM_FEAT_BPF_BTF] = feat_decode_bpf_btf,
	[PRISM_FEAT_COMPRESSED] = decode_compressed,
	[PRISM_FEAT_CPU_PMU_CAPS] = feat_decode_cpu_pmu_caps,
	[PRISM_FEAT_CLOCK_DATA] = decode_clock_data,
	[PRISM_FEAT_HYBRID_TOPOLOGY] = feat_decode_hybrid_topology,
	[PRISM_FEAT_PMU_CAPS] = feat_decode_pmu_caps,
	[PRISM_FEAT_CPU_DOMAIN_INFO] = feat_decode_cpu_domain_info,
	[PRISM_FEAT_E_MACHINE] = decode_e_machine,
	[PRISM_FEAT_CLN_SIZE] = decode_cln_size,
};

/* ---- the feature set ---- */

struct prism_features *prism_features__new(void)
{
	struct prism_features *f = calloc(1, sizeof(*f));

	if (!f)
		errno = ENOMEM;
	return f;
}

static void slot_release(struct feat_slot *s)
{
	feat_arena_release(&s->arena);
	free(s->raw);
	memset(s, 0, sizeof(*s));
}

void prism_features__free(struct prism_features *f)
{
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < PRISM_FEAT_BITS; i++)
		slot_release(&f->slot[i]);
	free(f);
}

/*
 * Decoding happens into the slot's arena.  On failure the arena is freed,
 * so what the getters see is either the whole feature or nothing.
 * Note: the section bytes are copied first, so a caller may pass a window
 * of a mapped file that goes away afterwards.
 */
int prism_features__decode(struct prism_features *f, unsigned int feat, const void *data,
			   size_t size, bool needs_swap)
{
	struct feat_cursor c = { 0 };
	struct feat_slot *s;
	void *out = NULL;

	if (!f || feat >= PRISM_FEAT_BITS || (size && !data))
		return -EINVAL;
	s = &f->slot[feat];
	slot_release(s);
	s->raw = malloc(size ? size : 1);
	if (!s->raw)
		return -ENOMEM;
	if (size)
		memcpy(s->raw, data, size);
	s->raw_size = size;
	s->present = true;

	if (feat == PRISM_FEAT_UTIL_CHECK)
		return 0; /* prism's own; prism_util_check__load() reads it */
	if (feat >= PRISM_FEAT__NR || feat == PRISM_FEAT_RESERVED) {
		pr_warn("features: unknown feature %u (%zu bytes) kept raw", feat, size);
		return 0;
	}
	/* TRACING_DATA is parsed by lib/tp; BRANCH_STACK and STAT are flags */
	if (!decoders[feat])
		return 0;
	if (!size) {
		/* an empty payload (e.g. pipe mode's end marker) carries nothing */
		pr_debug("features: %s has an empty section", feat_names[feat]);
		return 0;
	}

	c.p = s->raw;
	c.left = c.size = size;
	c.swap = needs_swap;
	c.arena = &s->arena;
	c.f = f;
	if (decoders[feat](&c, &out) && !c.failed) {
		s->data = out;
		return 0;
	}
	feat_arena_release(&s->arena);
	if (c.err == -ENOMEM)
		return -ENOMEM;
	pr_warn("features: %s (%u, %zu bytes) is malformed: %s; kept raw", feat_names[feat], feat,
		size, c.why);
	return -PRISM_E_BAD_FEATURE;
}

bool prism_features__has(const struct prism_features *f, unsigned int feat)
{
	return f && feat < PRISM_FEAT_BITS && f->slot[feat].present;
}

const void *prism_features__raw(const struct prism_features *f, unsigned int feat, size_t *size)
{
	if (!prism_features__has(f, feat)) {
		if (size)
			*size = 0;
		return NULL;
	}
	if (size)
		*size = f->slot[feat].raw_size;
	return f->slot[feat].raw;
}

const char *prism_features__str(const struct prism_features *f, unsigned int feat)
{
	switch (feat) {
	case PRISM_FEAT_HOSTNAME:
	case PRISM_FEAT_OSRELEASE:
	case PRISM_FEAT_VERSION:
	case PRISM_FEAT_ARCH:
	case PRISM_FEAT_CPUDESC:
	case PRISM_FEAT_CPUID:
		return feat_data(f, feat);
	default:
		return NULL;
	}
}

#define GETTER(fn, FEAT, type)                                                  \
	const struct type *prism_features__##fn(const struct prism_features *f) \
	{                                                                       \
		return feat_data(f, PRISM_FEAT_##FEAT);                         \
	}

GETTER(build_ids, BUILD_ID, prism_feat_build_ids)
GETTER(nrcpus, NRCPUS, prism_feat_nrcpus)
GETTER(total_mem, TOTAL_MEM, prism_feat_total_mem)
GETTER(cmdline, CMDLINE, prism_feat_cmdline)
GETTER(event_desc, EVENT_DESC, prism_feat_event_desc)
GETTER(cpu_topology, CPU_TOPOLOGY, prism_feat_cpu_topology)
GETTER(numa_topology, NUMA_TOPOLOGY, prism_feat_numa_topology)
GETTER(pmu_mappings, PMU_MAPPINGS, prism_feat_pmu_mappings)
GETTER(group_desc, GROUP_DESC, prism_feat_group_desc)
GETTER(auxtrace, AUXTRACE, prism_feat_auxtrace)
GETTER(cache, CACHE, prism_feat_cache)
GETTER(sample_time, SAMPLE_TIME, prism_feat_sample_time)
GETTER(mem_topology, MEM_TOPOLOGY, prism_feat_mem_topology)
GETTER(clockid, CLOCKID, prism_feat_clockid)
GETTER(dir_format, DIR_FORMAT, prism_feat_dir_format)
GETTER(bpf_prog_info, BPF_PROG_INFO, prism_feat_bpf_prog_info)
GETTER(bpf_btf, BPF_BTF, prism_feat_bpf_btf)
GETTER(compressed, COMPRESSED, prism_feat_compressed)
GETTER(cpu_pmu_caps, CPU_PMU_CAPS, prism_feat_pmu_caps_set)
GETTER(clock_data, CLOCK_DATA, prism_feat_clock_data)
GETTER(hybrid_topology, HYBRID_TOPOLOGY, prism_feat_hybrid_topology)
GETTER(pmu_caps, PMU_CAPS, prism_feat_pmu_caps)
GETTER(cpu_domain_info, CPU_DOMAIN_INFO, prism_feat_cpu_domain_info)
GETTER(e_machine, E_MACHINE, prism_feat_e_machine)
GETTER(cln_size, CLN_SIZE, prism_feat_cln_size)

static bool shares_id(const struct prism_feat_event *ev, const uint64_t *ids, size_t nr_ids)
{
	uint32_t i;
	size_t j;

	for (i = 0; i < ev->nr_ids; i++)
		for (j = 0; j < nr_ids; j++)
			if (ev->ids[i] == ids[j])
				return true;
	return false;
}

const char *prism_features__event_name(const struct prism_features *f, uint32_t type,
				       uint64_t config, const uint64_t *ids, size_t nr_ids, int idx)
{
	const struct prism_feat_event_desc *d = prism_features__event_desc(f);
	uint32_t i;

	if (!d)
		return NULL;
	if (ids && nr_ids)
		for (i = 0; i < d->nr_events; i++)
			if (shares_id(&d->events[i], ids, nr_ids))
				return d->events[i].name;
	if (idx >= 0 && (uint32_t)idx < d->nr_events && d->events[idx].attr.type == type &&
	    d->events[idx].attr.config == config)
		return d->events[idx].name;
	return NULL;
}
