// SPDX-License-Identifier: MIT
/*
 * Symbolic event names: software, generic hardware and hardware cache
 * events, with perf's names and aliases.
 */
#include <stdio.h>
#include <strings.h>

#include "internal.h"
#include "record/evspec-internal.h"

static const struct prism_evsym sw_syms[] = {
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "bpf-output", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, PERF_TYPE_SOFTWARE, 11 /* PERF_COUNT_SW_CGROUP_SWITCHES */ },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
};

static const struct prism_evsym hw_syms[] = {
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

/* perf's spellings; the first of each row is the canonical one */
static const char *const cache_types[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

/* the second spelling is the plural perf uses in names ("L1-dcache-loads") */
static const char *const cache_ops[][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[][5] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

/* which ops each cache supports (perf's table) */
static const unsigned int cache_valid_ops[] = {
	7, /* L1-dcache: load store prefetch */
	5, /* L1-icache: load prefetch */
	7, /* LLC */
	7, /* dTLB */
	1, /* iTLB: load */
	1, /* branch: load */
	7, /* node */
};

#define NR_CACHE_TYPES PRISM_ARRAY_SIZE(cache_types)
#define NR_CACHE_OPS PRISM_ARRAY_SIZE(cache_ops)
#define NR_CACHE_RESULTS PRISM_ARRAY_SIZE(cache_results)

static struct prism_evsym cache_syms[NR_CACHE_TYPES * NR_CACHE_OPS * NR_CACHE_RESULTS];
static char cache_names[PRISM_ARRAY_SIZE(cache_syms)][48];
static size_t nr_cache_syms;

static void init_cache_syms(void)
{
	size_t t, o, r;

	if (nr_cache_syms)
		return;
	for (t = 0; t < NR_CACHE_TYPES; t++) {
		for (o = 0; o < NR_CACHE_OPS; o++) {
			if (!(cache_valid_ops[t] & (1u << o)))
				continue;
			for (r = 0; r < NR_CACHE_RESULTS; r++) {
				char *name = cache_names[nr_cache_syms];

				if (r == 0)
					snprintf(name, sizeof(cache_names[0]), "%s-%s",
						 cache_types[t][0], cache_ops[o][1]);
				else
					snprintf(name, sizeof(cache_names[0]), "%s-%s-%s",
						 cache_types[t][0], cache_ops[o][0],
						 cache_results[r][0]);
				cache_syms[nr_cache_syms].name = name;
				cache_syms[nr_cache_syms].type = PERF_TYPE_HW_CACHE;
				cache_syms[nr_cache_syms].config = t | (o << 8) | (r << 16);
				nr_cache_syms++;
			}
		}
	}
}

const struct prism_evsym *prism_evsyms(enum prism_evsym_kind kind, size_t *nr)
{
	switch (kind) {
	case PRISM_EVSYM_SOFTWARE:
		*nr = PRISM_ARRAY_SIZE(sw_syms);
		return sw_syms;
	case PRISM_EVSYM_HARDWARE:
		*nr = PRISM_ARRAY_SIZE(hw_syms);
		return hw_syms;
	case PRISM_EVSYM_HW_CACHE:
		init_cache_syms();
		*nr = nr_cache_syms;
		return cache_syms;
	}
	*nr = 0;
	return NULL;
}

static bool same(const char *a, const char *name, size_t len)
{
	return a && strlen(a) == len && !memcmp(a, name, len);
}

static bool lookup_table(const struct prism_evsym *t, size_t n, const char *name, size_t len,
			 uint32_t *type, uint64_t *config)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (same(t[i].name, name, len) || same(t[i].alias, name, len)) {
			*type = t[i].type;
			*config = t[i].config;
			return true;
		}
	}
	return false;
}

/* longest spelling of @table matching the start of @s (case-insensitive), or 0 */
static size_t match_part(const char *const (*table)[5], size_t rows, const char *s, size_t len,
			 size_t *row)
{
	size_t r, k, best = 0;

	for (r = 0; r < rows; r++) {
		for (k = 0; k < 5 && table[r][k]; k++) {
			size_t n = strlen(table[r][k]);

			if (n <= len && n > best && !strncasecmp(s, table[r][k], n) &&
			    (n == len || s[n] == '-')) {
				best = n;
				*row = r;
			}
		}
	}
	return best;
}

/* "<cache>[-<op>][-<result>]" in any of perf's spellings */
static bool lookup_cache(const char *name, size_t len, uint32_t *type, uint64_t *config)
{
	size_t t = 0, o = 0, r = 0, n, row;
	bool have_op = false, have_res = false;

	n = match_part(cache_types, NR_CACHE_TYPES, name, len, &t);
	if (!n)
		return false;
	while (n < len) {
		const char *s = name + n + 1;
		size_t left = len - n - 1, m;

		if (!have_op && (m = match_part(cache_ops, NR_CACHE_OPS, s, left, &row))) {
			o = row;
			have_op = true;
		} else if (!have_res &&
			   (m = match_part(cache_results, NR_CACHE_RESULTS, s, left, &row))) {
			r = row;
			have_res = true;
		} else {
			return false;
		}
		n += 1 + m;
	}
	if (!(cache_valid_ops[t] & (1u << o)))
		return false;
	*type = PERF_TYPE_HW_CACHE;
	*config = t | (o << 8) | (r << 16);
	return true;
}

bool evsym_lookup(const char *name, size_t len, uint32_t *type, uint64_t *config)
{
	return lookup_table(sw_syms, PRISM_ARRAY_SIZE(sw_syms), name, len, type, config) ||
	       lookup_table(hw_syms, PRISM_ARRAY_SIZE(hw_syms), name, len, type, config) ||
	       lookup_cache(name, len, type, config);
}

const char *const *evsym_names(size_t *n)
{
	static const char *names[PRISM_ARRAY_SIZE(sw_syms) * 2 + PRISM_ARRAY_SIZE(hw_syms) * 2 +
				 PRISM_ARRAY_SIZE(cache_syms)];
	static size_t nr;
	size_t i;

	if (!nr) {
		for (i = 0; i < PRISM_ARRAY_SIZE(sw_syms); i++) {
			names[nr++] = sw_syms[i].name;
			if (sw_syms[i].alias)
				names[nr++] = sw_syms[i].alias;
		}
		for (i = 0; i < PRISM_ARRAY_SIZE(hw_syms); i++) {
			names[nr++] = hw_syms[i].name;
			if (hw_syms[i].alias)
				names[nr++] = hw_syms[i].alias;
		}
		init_cache_syms();
		for (i = 0; i < nr_cache_syms; i++)
			names[nr++] = cache_syms[i].name;
	}
	*n = nr;
	return names;
}
