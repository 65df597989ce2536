// SPDX-License-Identifier: MIT
/*
 * Header features as text, line for line what perf 6.1 prints with
 * `perf report --header-only -I` (tools/perf/util/header.c print_*()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <prism/strbuf.h>

#include "data/attr-print.h"
#include "data/features-internal.h"

#define NSEC_PER_SEC UINT64_C(1000000000)
#define NSEC_PER_MSEC UINT64_C(1000000)
#define NSEC_PER_USEC UINT64_C(1000)

static void print_str(const struct prism_features *f, unsigned int feat, const char *label,
		      struct prism_strbuf *sb)
{
	prism_strbuf_addf(sb, "# %s : %s\n", label, (const char *)feat_data(f, feat));
}

static void print_nrcpus(const struct prism_feat_nrcpus *n, struct prism_strbuf *sb)
{
	prism_strbuf_addf(sb, "# nrcpus online : %u\n", n->nr_cpus_online);
	prism_strbuf_addf(sb, "# nrcpus avail : %u\n", n->nr_cpus_avail);
}

/* perf escapes single quotes as \' and ends every argument with a space */
static void print_cmdline(const struct prism_feat_cmdline *cl, struct prism_strbuf *sb)
{
	uint32_t i;

	prism_strbuf_addstr(sb, "# cmdline : ");
	for (i = 0; i < cl->argc; i++) {
		const char *s;

		for (s = cl->argv[i]; *s; s++) {
			if (*s == '\'')
				prism_strbuf_addstr(sb, "\\'");
			else
				prism_strbuf_addch(sb, *s);
		}
		prism_strbuf_addch(sb, ' ');
	}
	prism_strbuf_addch(sb, '\n');
}

/*
 * perf 6.1's perf_attr_check(): an attr with reserved bits or bits it does
 * not know makes read_event_desc() fail, and the whole EVENT_DESC prints as
 * not available.
 */
static bool perf61_attr_ok(const struct prism_feat_event *ev)
{
	const uint8_t *raw = (const uint8_t *)&ev->attr;
	uint64_t flags;
	uint32_t res3;
	uint16_t res2;

	memcpy(&flags, raw + 40, sizeof(flags));
	memcpy(&res2, raw + 110, sizeof(res2));
	memcpy(&res3, raw + 116, sizeof(res3));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	flags &= (1ull << 26) - 1;
#else
	flags >>= 38;
#endif
	if (flags || res2 || res3)
		return false;
	if (ev->attr.sample_type >> 25 || ev->attr.read_format >> 5)
		return false;
	return !((ev->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) &&
		 ev->attr.branch_sample_type >> 19);
}

static void print_event_desc(const struct prism_feat_event_desc *d, struct prism_strbuf *sb)
{
	uint32_t i;

	for (i = 0; d && i < d->nr_events; i++)
		if (!perf61_attr_ok(&d->events[i]))
			d = NULL;
	if (!d) {
		prism_strbuf_addstr(sb, "# event desc: not available or unable to read\n");
		return;
	}
	/* perf's list ends at the first attr whose size field is 0 */
	for (i = 0; i < d->nr_events && d->events[i].attr_size; i++) {
		const struct prism_feat_event *ev = &d->events[i];
		struct prism_attr_ext a = {
			.attr = ev->attr,
			.file_size = ev->attr_size,
			.config3 = ev->config3,
			.config4 = ev->config4,
		};

		prism_strbuf_addstr(sb, "# event : ");
		prism_attr__print(&a, ev->name, ev->ids, ev->nr_ids, sb);
		prism_strbuf_addch(sb, '\n');
	}
}

static void print_cpu_topology(const struct prism_feat_cpu_topology *t, struct prism_strbuf *sb)
{
	bool dies = t->has_dies && t->nr_dies;
	uint32_t i;

	for (i = 0; i < t->nr_sockets; i++)
		prism_strbuf_addf(sb, "# sibling sockets : %s\n", t->sockets[i]);
	for (i = 0; dies && i < t->nr_dies; i++)
		prism_strbuf_addf(sb, "# sibling dies    : %s\n", t->dies[i]);
	for (i = 0; i < t->nr_threads; i++)
		prism_strbuf_addf(sb, "# sibling threads : %s\n", t->threads[i]);
	if (!t->has_cpus) {
		prism_strbuf_addstr(
			sb, dies ? "# Core ID, Die ID and Socket ID information is not "
				   "available\n" :
				   "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (i = 0; i < t->nr_cpus; i++) {
		const struct prism_feat_cpu_ids *c = &t->cpus[i];

		if (dies)
			prism_strbuf_addf(sb, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
					  (int)c->core_id, (int)c->die_id, (int)c->socket_id);
		else
			prism_strbuf_addf(sb, "# CPU %u: Core ID %d, Socket ID %d\n", i,
					  (int)c->core_id, (int)c->socket_id);
	}
}

struct cpu_range {
	unsigned long lo, hi;
};

static int cmp_range(const void *a, const void *b)
{
	const struct cpu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * perf re-prints a NUMA node's cpu list through a cpu map: sorted, ranges
 * merged, "-1" for an empty list, at most 1023 characters.  A list perf
 * cannot parse is printed as stored.
 */
static void print_cpu_list(const char *list, struct prism_strbuf *sb)
{
	struct prism_strbuf tmp = STRBUF_INIT;
	struct cpu_range *r;
	size_t nr = 0, i, max = 1;
	const char *p;
	char *end;

	if (!*list) {
		prism_strbuf_addstr(sb, "-1");
		return;
	}
	for (p = list; *p; p++)
		max += *p == ',';
	r = calloc(max, sizeof(*r));
	if (!r) {
		prism_strbuf_addstr(sb, list);
		return;
	}
	for (p = list; *p >= '0' && *p <= '9' && nr < max;) {
		r[nr].lo = r[nr].hi = strtoul(p, &end, 0);
		if (*end == '-') {
			r[nr].hi = strtoul(end + 1, &end, 0);
			if (r[nr].hi < r[nr].lo)
				goto raw;
		}
		if (r[nr].hi >= 0x7fffffff || (*end && *end != ','))
			goto raw; /* perf's perf_cpu_map__new() fails */
		nr++;
		p = *end ? end + 1 : end;
	}
	/* like perf, a list that stops at an unexpected character keeps what came before */
	if (!nr)
		goto raw;
	qsort(r, nr, sizeof(*r), cmp_range);
	for (i = 1; i < nr; i++)
		if (r[i].lo <= r[i - 1].hi)
			goto raw; /* perf rejects duplicate CPUs */
	for (i = 0; i < nr; i++) {
		unsigned long lo = r[i].lo;

		while (i + 1 < nr && r[i + 1].lo == r[i].hi + 1)
			i++;
		prism_strbuf_addf(&tmp, "%s%lu", tmp.len ? "," : "", lo);
		if (r[i].hi != lo)
			prism_strbuf_addf(&tmp, "-%lu", r[i].hi);
	}
	prism_strbuf_add(sb, tmp.buf, tmp.len < 1023 ? tmp.len : 1023);
	prism_strbuf_release(&tmp);
	free(r);
	return;
raw:
	free(r);
	prism_strbuf_addstr(sb, list);
}

static void print_numa(const struct prism_feat_numa_topology *t, struct prism_strbuf *sb)
{
	uint32_t i;

	for (i = 0; i < t->nr; i++) {
		const struct prism_feat_numa_node *n = &t->nodes[i];

		prism_strbuf_addf(sb,
				  "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
				  " kB\n",
				  n->node, n->mem_total, n->mem_free);
		prism_strbuf_addf(sb, "# node%u cpu list : ", n->node);
		print_cpu_list(n->cpus, sb);
		prism_strbuf_addch(sb, '\n');
	}
}

static void print_pmu_mappings(const struct prism_feat_pmu_mappings *m, struct prism_strbuf *sb)
{
	uint32_t i;

	if (!m->nr) {
		prism_strbuf_addstr(sb, "# pmu mappings: not available\n");
		return;
	}
	for (i = 0; i < m->nr; i++)
		prism_strbuf_addf(sb, "%s%s = %u", i ? ", " : "# pmu mappings: ", m->pmus[i].name,
				  m->pmus[i].type);
	prism_strbuf_addch(sb, '\n');
}

/* perf prints groups from the event list, with names from EVENT_DESC */
static void print_group_desc(const struct prism_features *f, const struct prism_feat_group_desc *g,
			     struct prism_strbuf *sb)
{
	const struct prism_feat_event_desc *d = prism_features__event_desc(f);
	uint32_t nr_events = d ? d->nr_events : 0, i, j, nr = 0;

	for (i = 0; i < nr_events; i++) {
		const struct prism_feat_group *leader = NULL;

		for (j = 0; j < g->nr && !leader; j++)
			if (g->groups[j].leader_idx == i)
				leader = &g->groups[j];
		if (leader && leader->nr_members > 1) {
			if (nr)
				prism_strbuf_addstr(sb, "}\n");
			prism_strbuf_addf(sb, "# group: %s{%s",
					  strcmp(leader->name, "{anon_group}") ? leader->name : "",
					  d->events[i].name);
			nr = leader->nr_members - 1;
		} else if (nr) {
			prism_strbuf_addf(sb, ",%s", d->events[i].name);
			if (--nr == 0)
				prism_strbuf_addstr(sb, "}\n");
		}
	}
	/* NEEDSWORK: perf leaves a group that runs past the last event open */
	if (nr)
		prism_strbuf_addstr(sb, "}\n");
}

static void print_cache(const struct prism_feat_cache *t, struct prism_strbuf *sb)
{
	uint32_t i;

	prism_strbuf_addstr(sb, "# CPU cache info:\n");
	for (i = 0; i < t->nr; i++)
		prism_strbuf_addf(sb, "#  L%d %-15s %8s [%s]\n", (int)t->caches[i].level,
				  t->caches[i].type, t->caches[i].size, t->caches[i].map);
}

/* last < first wraps, as perf prints it */
static __wraps void print_sample_time(const struct prism_feat_sample_time *t,
				      struct prism_strbuf *sb)
{
	prism_strbuf_addf(sb, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			  t->first / NSEC_PER_SEC, t->first % NSEC_PER_SEC / NSEC_PER_USEC);
	prism_strbuf_addf(sb, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
			  t->last / NSEC_PER_SEC, t->last % NSEC_PER_SEC / NSEC_PER_USEC);
	prism_strbuf_addf(sb, "# sample duration : %10.3f ms\n",
			  (double)(t->last - t->first) / NSEC_PER_MSEC);
}

/* a u64 product as perf prints it: wrapped for absurd values from a file */
static __wraps uint64_t mul_wrapped(uint64_t a, uint64_t b)
{
	return a * b;
}

/* perf's unit_number__scnprintf(): note "> 1", so 2048 stays "2K" */
static void print_unit(uint64_t n, struct prism_strbuf *sb)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	prism_strbuf_addf(sb, "%" PRIu64 "%c", n, unit[i]);
}

static bool test_bit64(const uint64_t *bits, uint64_t nr)
{
	return bits[nr / 64] >> (nr % 64) & 1;
}

/* perf's bitmap_scnprintf() into a 100-byte buffer: ranges, cut at 99 characters */
static void print_bitmap(const uint64_t *bits, uint64_t nbits, struct prism_strbuf *sb)
{
	struct prism_strbuf tmp = STRBUF_INIT;
	uint64_t i = 0, lo;

	while (i < nbits) {
		if (!test_bit64(bits, i)) {
			i++;
			continue;
		}
		lo = i;
		while (i + 1 < nbits && test_bit64(bits, i + 1))
			i++;
		prism_strbuf_addf(&tmp, "%s%" PRIu64, tmp.len ? "," : "", lo);
		if (i > lo)
			prism_strbuf_addf(&tmp, "-%" PRIu64, i);
		i++;
	}
	prism_strbuf_add(sb, tmp.buf, tmp.len < 99 ? tmp.len : 99);
	prism_strbuf_release(&tmp);
}

static void print_mem_topology(const struct prism_feat_mem_topology *t, struct prism_strbuf *sb)
{
	uint64_t i, j;

	prism_strbuf_addf(sb, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)t->nr,
			  t->block_size);
	for (i = 0; i < t->nr; i++) {
		const struct prism_feat_mem_node *n = &t->nodes[i];
		uint64_t weight = 0;

		for (j = 0; j < n->nbits; j++)
			weight += test_bit64(n->bits, j);
		prism_strbuf_addf(sb, "#  %3" PRIu64 " [", n->node);
		print_unit(mul_wrapped(t->block_size, weight), sb);
		prism_strbuf_addstr(sb, "]: ");
		print_bitmap(n->bits, n->nbits, sb);
		prism_strbuf_addch(sb, '\n');
	}
}

/* by id, then by position, so the first entry of an id comes first */
static int cmp_id_ptr(const void *a, const void *b)
{
	const uint32_t *x = *(const uint32_t *const *)a, *y = *(const uint32_t *const *)b;

	if (*x != *y)
		return *x < *y ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * perf keeps one entry per id (the first) and walks them in id order.
 * Sorts pointers to the u32 ids at @base + i * @stride and drops later
 * duplicates.  Return: the number kept in *@out (caller frees *@out).
 */
static size_t ids_sorted(const void *base, size_t nr, size_t stride, const uint32_t ***out)
{
	const uint32_t **v = calloc(nr ? nr : 1, sizeof(*v));
	size_t i, kept = 0;

	*out = v;
	if (!v)
		return 0;
	for (i = 0; i < nr; i++)
		v[i] = (const uint32_t *)((const uint8_t *)base + i * stride);
	qsort(v, nr, sizeof(*v), cmp_id_ptr);
	for (i = 0; i < nr; i++)
		if (!kept || *v[kept - 1] != *v[i])
			v[kept++] = v[i];
	return kept;
}

static void print_bpf_prog_info(const struct prism_features *f,
				const struct prism_feat_bpf_prog_info *t, struct prism_strbuf *sb)
{
	const struct prism_feat_bpf_btf *btf = prism_features__bpf_btf(f);
	const uint32_t **ids;
	size_t n, i;
	uint32_t s;
	char name[512];

	if (!t->nr)
		return;
	n = ids_sorted(&t->progs[0].id, t->nr, sizeof(t->progs[0]), &ids);
	for (i = 0; i < n; i++) {
		const struct prism_feat_bpf_prog *p =
			(const void *)((const uint8_t *)ids[i] -
				       offsetof(struct prism_feat_bpf_prog, id));

		if (!p->decoded)
			continue;
		if (p->nr_sub_progs == 1) {
			feat_bpf_prog_name(p, btf, 0, name, sizeof(name));
			prism_strbuf_addf(sb, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n",
					  p->id, name, p->sub_prog_addrs[0], p->sub_prog_lens[0]);
			continue;
		}
		prism_strbuf_addf(sb, "# bpf_prog_info %u:\n", p->id);
		for (s = 0; s < p->nr_sub_progs; s++) {
			feat_bpf_prog_name(p, btf, s, name, sizeof(name));
			prism_strbuf_addf(sb, "# \tsub_prog %u: %s addr 0x%" PRIx64 " size %u\n", s,
					  name, p->sub_prog_addrs[s], p->sub_prog_lens[s]);
		}
	}
	free(ids);
}

static void print_bpf_btf(const struct prism_feat_bpf_btf *t, struct prism_strbuf *sb)
{
	const uint32_t **ids;
	size_t n, i;

	if (!t->nr)
		return;
	n = ids_sorted(&t->btfs[0].id, t->nr, sizeof(t->btfs[0]), &ids);
	for (i = 0; i < n; i++)
		prism_strbuf_addf(sb, "# btf info of id %u\n", *ids[i]);
	free(ids);
}

static void print_caps(const struct prism_feat_pmu_caps_set *set, struct prism_strbuf *sb)
{
	uint32_t i;

	if (!set->nr_caps) {
		prism_strbuf_addf(sb, "# %s pmu capabilities: not available\n", set->pmu_name);
		return;
	}
	prism_strbuf_addf(sb, "# %s pmu capabilities: ", set->pmu_name);
	for (i = 0; i < set->nr_caps; i++)
		prism_strbuf_addf(sb, "%s%s=%s", i ? ", " : "", set->caps[i].name,
				  set->caps[i].value);
	prism_strbuf_addch(sb, '\n');
}

/* perf's clockid_name() */
static const char *clockid_name(uint32_t clockid)
{
	switch (clockid) {
	case CLOCK_MONOTONIC:
		return "monotonic";
	case CLOCK_MONOTONIC_RAW:
		return "monotonic_raw";
	case CLOCK_REALTIME:
		return "realtime";
	case CLOCK_BOOTTIME:
		return "boottime";
	case CLOCK_TAI:
		return "tai";
	default:
		return "(not found)";
	}
}

static void print_clock_data(const struct prism_feat_clock_data *d, struct prism_strbuf *sb)
{
	time_t sec = (time_t)(d->tod_ns / NSEC_PER_SEC);
	unsigned int usec = (unsigned int)(d->tod_ns % NSEC_PER_SEC / NSEC_PER_USEC);
	char date[64] = "<error>";
	struct tm tm;

	if (localtime_r(&sec, &tm)) {
		char day[48];

		strftime(day, sizeof(day), "%F %T", &tm);
		snprintf(date, sizeof(date), "%s.%06u", day, usec);
	}
	prism_strbuf_addf(sb, "# clockid: %s (%u)\n", clockid_name(d->clockid), d->clockid);
	prism_strbuf_addf(sb, "# reference time: %s = %ld.%06u (TOD) = %ld.%09ld (%s)\n", date,
			  (long)sec, usec, (long)(d->clockid_ns / NSEC_PER_SEC),
			  (long)(d->clockid_ns % NSEC_PER_SEC), clockid_name(d->clockid));
}

static void print_one(const struct prism_features *f, unsigned int feat, const void *data,
		      struct prism_strbuf *sb)
{
	switch (feat) {
	case PRISM_FEAT_HOSTNAME:
		print_str(f, feat, "hostname", sb);
		break;
	case PRISM_FEAT_OSRELEASE:
		print_str(f, feat, "os release", sb);
		break;
	case PRISM_FEAT_VERSION:
		print_str(f, feat, "perf version", sb);
		break;
	case PRISM_FEAT_ARCH:
		print_str(f, feat, "arch", sb);
		break;
	case PRISM_FEAT_NRCPUS:
		print_nrcpus(data, sb);
		break;
	case PRISM_FEAT_CPUDESC:
		print_str(f, feat, "cpudesc", sb);
		break;
	case PRISM_FEAT_CPUID:
		print_str(f, feat, "cpuid", sb);
		break;
	case PRISM_FEAT_TOTAL_MEM:
		prism_strbuf_addf(sb, "# total memory : %" PRIu64 " kB\n",
				  ((const struct prism_feat_total_mem *)data)->kb);
		break;
	case PRISM_FEAT_CMDLINE:
		print_cmdline(data, sb);
		break;
	case PRISM_FEAT_EVENT_DESC:
		print_event_desc(data, sb);
		break;
	case PRISM_FEAT_CPU_TOPOLOGY:
		print_cpu_topology(data, sb);
		break;
	case PRISM_FEAT_NUMA_TOPOLOGY:
		print_numa(data, sb);
		break;
	case PRISM_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(data, sb);
		break;
	case PRISM_FEAT_GROUP_DESC:
		print_group_desc(f, data, sb);
		break;
	case PRISM_FEAT_CACHE:
		print_cache(data, sb);
		break;
	case PRISM_FEAT_SAMPLE_TIME:
		print_sample_time(data, sb);
		break;
	case PRISM_FEAT_MEM_TOPOLOGY:
		print_mem_topology(data, sb);
		break;
	case PRISM_FEAT_CLOCKID:
		prism_strbuf_addf(sb, "# clockid frequency: %" PRIu64 " MHz\n",
				  mul_wrapped(((const struct prism_feat_clockid *)data)->res_ns,
					      1000));
		break;
	case PRISM_FEAT_DIR_FORMAT:
		prism_strbuf_addf(sb, "# directory data version : %" PRIu64 "\n",
				  ((const struct prism_feat_dir_format *)data)->version);
		break;
	case PRISM_FEAT_BPF_PROG_INFO:
		print_bpf_prog_info(f, data, sb);
		break;
	case PRISM_FEAT_BPF_BTF:
		print_bpf_btf(data, sb);
		break;
	case PRISM_FEAT_COMPRESSED: {
		const struct prism_feat_compressed *z = data;

		prism_strbuf_addf(sb, "# compressed : %s, level = %d, ratio = %d\n",
				  z->type == 1 ? "Zstd" : "Unknown", (int)z->level, (int)z->ratio);
		break;
	}
	case PRISM_FEAT_CPU_PMU_CAPS:
		print_caps(data, sb);
		break;
	case PRISM_FEAT_CLOCK_DATA:
		print_clock_data(data, sb);
		break;
	case PRISM_FEAT_HYBRID_TOPOLOGY: {
		const struct prism_feat_hybrid_topology *h = data;
		uint32_t i;

		prism_strbuf_addstr(sb, "# hybrid cpu system:\n");
		for (i = 0; i < h->nr; i++)
			prism_strbuf_addf(sb, "# %s cpu list : %s\n", h->nodes[i].pmu_name,
					  h->nodes[i].cpus);
		break;
	}
	case PRISM_FEAT_PMU_CAPS: {
		const struct prism_feat_pmu_caps *p = data;
		uint32_t i;

		for (i = 0; i < p->nr_pmus; i++)
			print_caps(&p->pmus[i], sb);
		break;
	}
	default:
		break;
	}
}

void prism_features__print(const struct prism_features *f, struct prism_strbuf *out)
{
	unsigned int feat;

	for (feat = 1; f && feat < PRISM_FEAT_LAST_PERF61; feat++) {
		const void *data = feat_data(f, feat);

		if (!prism_features__has(f, feat))
			continue;
		/* these print from the bit alone */
		if (feat == PRISM_FEAT_BRANCH_STACK)
			prism_strbuf_addstr(out, "# contains samples with branch stack\n");
		else if (feat == PRISM_FEAT_AUXTRACE)
			prism_strbuf_addstr(out,
					    "# contains AUX area data (e.g. instruction trace)\n");
		else if (feat == PRISM_FEAT_STAT)
			prism_strbuf_addstr(out, "# contains stat data\n");
		else if (data)
			print_one(f, feat, data, out);
		else if (feat == PRISM_FEAT_EVENT_DESC)
			print_event_desc(NULL, out);
	}
}

void prism_features__print_missing(const struct prism_features *f, struct prism_strbuf *out)
{
	unsigned int feat;

	prism_strbuf_addstr(out, "# missing features: ");
	for (feat = 1; feat < PRISM_FEAT_LAST_PERF61; feat++)
		if (!prism_features__has(f, feat))
			prism_strbuf_addf(out, "%s ", prism_features__name(feat));
	prism_strbuf_addch(out, '\n');
}
