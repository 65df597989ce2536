/* SPDX-License-Identifier: MIT */
/*
 * perf.data header features (perf's HEADER_* sections), decoded into typed
 * data, and printed the way `perf report --header-only -I` (perf 6.1) does.
 *
 *	struct prism_features *f = prism_features__new();
 *	for each feature section, in ascending feature order:
 *		prism_features__decode(f, feat, bytes, size, needs_swap);
 *	const struct prism_feat_nrcpus *n = prism_features__nrcpus(f);
 *	prism_features__print(f, &sb);
 *	prism_features__free(f);
 *
 * Ownership: everything a getter returns belongs to the prism_features
 * object and stays valid until that feature is decoded again or the object
 * is freed.  Strings are NUL-terminated copies (stopped at the first NUL of
 * the stored, padded string).  A getter returns NULL when the feature was not
 * seen or could not be decoded; prism_features__has() tells the two apart
 * and prism_features__raw() gives the section's bytes in both cases.
 */
#ifndef PRISM_FEATURES_H
#define PRISM_FEATURES_H

#include <linux/perf_event.h>
#include <prism/core.h>

struct prism_strbuf;
struct prism_features;

/* feature bit numbers, as in perf's tools/perf/util/header.h */
enum prism_feat {
	PRISM_FEAT_RESERVED = 0,
	PRISM_FEAT_TRACING_DATA = 1,
	PRISM_FEAT_BUILD_ID = 2,
	PRISM_FEAT_HOSTNAME = 3,
	PRISM_FEAT_OSRELEASE = 4,
	PRISM_FEAT_VERSION = 5,
	PRISM_FEAT_ARCH = 6,
	PRISM_FEAT_NRCPUS = 7,
	PRISM_FEAT_CPUDESC = 8,
	PRISM_FEAT_CPUID = 9,
	PRISM_FEAT_TOTAL_MEM = 10,
	PRISM_FEAT_CMDLINE = 11,
	PRISM_FEAT_EVENT_DESC = 12,
	PRISM_FEAT_CPU_TOPOLOGY = 13,
	PRISM_FEAT_NUMA_TOPOLOGY = 14,
	PRISM_FEAT_BRANCH_STACK = 15,
	PRISM_FEAT_PMU_MAPPINGS = 16,
	PRISM_FEAT_GROUP_DESC = 17,
	PRISM_FEAT_AUXTRACE = 18,
	PRISM_FEAT_STAT = 19,
	PRISM_FEAT_CACHE = 20,
	PRISM_FEAT_SAMPLE_TIME = 21,
	PRISM_FEAT_MEM_TOPOLOGY = 22,
	PRISM_FEAT_CLOCKID = 23,
	PRISM_FEAT_DIR_FORMAT = 24,
	PRISM_FEAT_BPF_PROG_INFO = 25,
	PRISM_FEAT_BPF_BTF = 26,
	PRISM_FEAT_COMPRESSED = 27,
	PRISM_FEAT_CPU_PMU_CAPS = 28,
	PRISM_FEAT_CLOCK_DATA = 29,
	PRISM_FEAT_HYBRID_TOPOLOGY = 30,
	PRISM_FEAT_PMU_CAPS = 31,
	PRISM_FEAT_CPU_DOMAIN_INFO = 32,
	PRISM_FEAT_E_MACHINE = 33,
	PRISM_FEAT_CLN_SIZE = 34,
	PRISM_FEAT__NR, /* features prism knows: 0 .. PRISM_FEAT__NR - 1 */
	PRISM_FEAT_BITS = 256, /* bits in the file's feature bitmap */
	/*
	 * prism's own section, far above perf's (perf 6.1 passes over bits it
	 * does not know without a word): the kernel's accounting of a util
	 * recording (include/prism/util-check.h), written by prism util and
	 * prism record --util
	 */
	PRISM_FEAT_UTIL_CHECK = 255,
	PRISM_FEAT_LAST_PERF61 = 32, /* perf 6.1's HEADER_LAST_FEATURE */
};

/* BUILD_ID (2): one entry per DSO, laid out as PERF_RECORD_HEADER_BUILD_ID */
struct prism_feat_build_id {
	uint16_t misc; /* cpumode (PERF_RECORD_MISC_*) and bit 15, the size bit */
	int32_t pid; /* machine: -1 for the host, else the guest's pid */
	uint8_t build_id[20]; /* zero-filled past size */
	uint8_t size; /* valid bytes: the size byte with bit 15, else 20 */
	bool has_size; /* misc bit 15 (PERF_RECORD_MISC_BUILD_ID_SIZE) was set */
	const char *filename;
};

struct prism_feat_build_ids {
	size_t nr;
	const struct prism_feat_build_id *entries;
};

/* NRCPUS (7); note the order in the file: available first */
struct prism_feat_nrcpus {
	uint32_t nr_cpus_avail; /* highest present CPU + 1 */
	uint32_t nr_cpus_online; /* sysconf(_SC_NPROCESSORS_ONLN) at record time */
};

/* TOTAL_MEM (10) */
struct prism_feat_total_mem {
	uint64_t kb; /* MemTotal in kB */
};

/* CMDLINE (11): argv[0] is the perf binary's resolved path */
struct prism_feat_cmdline {
	uint32_t argc;
	const char *const *argv;
};

/* one event of EVENT_DESC (12) */
struct prism_feat_event {
	struct perf_event_attr attr; /* host byte order; fields past the written size are 0 */
	uint32_t attr_size; /* attr.size as written (0 means the 64-byte VER0) */
	uint64_t config3, config4; /* beyond the 128 bytes of struct perf_event_attr */
	const char *name; /* perf's event name, e.g. "cpu-clock", "dummy:HG" */
	uint32_t nr_ids;
	const uint64_t *ids;
};

struct prism_feat_event_desc {
	uint32_t nr_events;
	uint32_t attr_size; /* stride of the stored attrs */
	const struct prism_feat_event *events;
};

/* CPU_TOPOLOGY (13); the optional parts are present when the section has them */
struct prism_feat_cpu_ids {
	uint32_t core_id, socket_id;
	uint32_t die_id; /* 0 unless has_dies */
};

struct prism_feat_cpu_topology {
	uint32_t nr_sockets; /* "sibling sockets": one cpu list per package */
	const char *const *sockets;
	uint32_t nr_threads; /* "sibling threads": one cpu list per core */
	const char *const *threads;
	bool has_cpus; /* per-CPU core/socket ids are present */
	bool has_dies; /* the die lists and per-CPU die ids are present */
	uint32_t nr_dies;
	const char *const *dies;
	uint32_t nr_cpus; /* entries in cpus: NRCPUS' nr_cpus_avail */
	const struct prism_feat_cpu_ids *cpus;
};

/* NUMA_TOPOLOGY (14) */
struct prism_feat_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free; /* kB */
	const char *cpus; /* cpu list as stored, e.g. "0-3,8" */
};

struct prism_feat_numa_topology {
	uint32_t nr;
	const struct prism_feat_numa_node *nodes;
};

/* PMU_MAPPINGS (16) */
struct prism_feat_pmu_mapping {
	uint32_t type; /* perf_event_attr.type of the PMU */
	const char *name;
};

struct prism_feat_pmu_mappings {
	uint32_t nr;
	const struct prism_feat_pmu_mapping *pmus;
};

/* GROUP_DESC (17): groups with more than one member */
struct prism_feat_group {
	const char *name; /* "{anon_group}" when the group is unnamed */
	uint32_t leader_idx; /* index of the leader in attr order */
	uint32_t nr_members;
};

struct prism_feat_group_desc {
	uint32_t nr;
	const struct prism_feat_group *groups;
};

/* AUXTRACE (18): where the PERF_RECORD_AUXTRACE records are */
struct prism_feat_auxtrace_entry {
	uint64_t file_offset, size;
};

struct prism_feat_auxtrace {
	uint64_t nr;
	const struct prism_feat_auxtrace_entry *entries;
};

/* CACHE (20) */
struct prism_feat_cache_level {
	uint32_t level, line_size, sets, ways;
	const char *type; /* "Data", "Instruction", "Unified" */
	const char *size; /* as sysfs gives it, e.g. "48K" */
	const char *map; /* shared_cpu_list */
};

struct prism_feat_cache {
	uint32_t version; /* 1 */
	uint32_t nr;
	const struct prism_feat_cache_level *caches;
};

/* SAMPLE_TIME (21): perf clock, ns */
struct prism_feat_sample_time {
	uint64_t first, last;
};

/* MEM_TOPOLOGY (22) */
struct prism_feat_mem_node {
	uint64_t node;
	uint64_t size; /* as stored */
	uint64_t nbits; /* memory blocks the bitmap covers */
	const uint64_t *bits; /* (nbits + 63) / 64 words; bit N = block N is online */
};

struct prism_feat_mem_topology {
	uint64_t version; /* 1 */
	uint64_t block_size; /* bytes */
	uint64_t nr;
	const struct prism_feat_mem_node *nodes;
};

/* CLOCKID (23) */
struct prism_feat_clockid {
	uint64_t res_ns; /* resolution of the sampling clock */
};

/* DIR_FORMAT (24) */
struct prism_feat_dir_format {
	uint64_t version;
};

/*
 * BPF_PROG_INFO (25).  The fields below are taken from the stored
 * struct bpf_prog_info (its first info_len bytes) and the arrays in its
 * data part; decoded is false when the arrays perf needs to name the
 * program (ksyms, function lengths, tags) are missing or out of bounds.
 */
struct prism_feat_bpf_prog {
	uint32_t info_len, data_len;
	uint64_t arrays; /* which perf_bpil arrays are in data */
	uint32_t type, id;
	uint8_t tag[8];
	char name[17]; /* BPF_OBJ_NAME_LEN + NUL */
	uint32_t btf_id;
	bool decoded;
	uint32_t nr_sub_progs; /* nr_jited_ksyms */
	const uint64_t *sub_prog_addrs; /* jited_ksyms */
	const uint32_t *sub_prog_lens; /* jited_func_lens */
	const uint8_t (*sub_prog_tags)[8];
	uint32_t nr_func_info, func_info_rec_size;
	const uint8_t *func_info; /* nr_func_info records of func_info_rec_size bytes */
};

struct prism_feat_bpf_prog_info {
	uint32_t nr;
	const struct prism_feat_bpf_prog *progs;
};

/* BPF_BTF (26) */
struct prism_feat_btf {
	uint32_t id;
	uint32_t size;
	const uint8_t *data; /* the raw BTF blob */
};

struct prism_feat_bpf_btf {
	uint32_t nr;
	const struct prism_feat_btf *btfs;
};

/* COMPRESSED (27) */
struct prism_feat_compressed {
	uint32_t version;
	uint32_t type; /* 1 = zstd */
	uint32_t level;
	uint32_t ratio;
	uint32_t mmap_len; /* bytes of one decompression buffer */
};

/* CPU_PMU_CAPS (28) and PMU_CAPS (31) */
struct prism_feat_pmu_cap {
	const char *name, *value;
};

struct prism_feat_pmu_caps_set {
	const char *pmu_name; /* "cpu" for CPU_PMU_CAPS */
	uint32_t nr_caps;
	const struct prism_feat_pmu_cap *caps;
};

struct prism_feat_pmu_caps {
	uint32_t nr_pmus;
	const struct prism_feat_pmu_caps_set *pmus;
};

/* CLOCK_DATA (29): the same instant on two clocks */
struct prism_feat_clock_data {
	uint32_t version; /* 1 */
	uint32_t clockid;
	uint64_t tod_ns; /* wall clock, ns since the epoch */
	uint64_t clockid_ns; /* the sampling clock */
};

/* HYBRID_TOPOLOGY (30) */
struct prism_feat_hybrid_node {
	const char *pmu_name;
	const char *cpus;
};

struct prism_feat_hybrid_topology {
	uint32_t nr;
	const struct prism_feat_hybrid_node *nodes;
};

/* CPU_DOMAIN_INFO (32, newer perf) */
struct prism_feat_sched_domain {
	uint32_t domain;
	const char *name; /* NULL before schedstat version 17 */
	const char *cpumask, *cpulist;
};

struct prism_feat_cpu_domains {
	uint32_t cpu;
	uint32_t nr_domains;
	const struct prism_feat_sched_domain *domains;
};

struct prism_feat_cpu_domain_info {
	uint32_t schedstat_version;
	uint32_t max_sched_domains;
	uint32_t nr_cpus; /* CPUs that have domains */
	const struct prism_feat_cpu_domains *cpus;
};

/* E_MACHINE (33, newer perf): the recorded system's ELF machine */
struct prism_feat_e_machine {
	uint32_t e_machine, e_flags;
};

/* CLN_SIZE (34, newer perf): cache line size; layout unverified, first u32 */
struct prism_feat_cln_size {
	uint32_t size;
};

/**
 * prism_features__new - an empty feature set
 *
 * Return: the object, or NULL with errno = ENOMEM.
 */
PRISM_API struct prism_features *prism_features__new(void);

/* frees @f and everything its getters returned; accepts NULL */
PRISM_API void prism_features__free(struct prism_features *f);

/**
 * prism_features__decode - decode one feature section
 * @f: the feature set
 * @feat: feature bit number (0 .. 255)
 * @data: the section's bytes (need not be aligned)
 * @size: bytes at @data
 * @needs_swap: the file was written in the other byte order
 *
 * Call it for each feature in ascending order (CPU_TOPOLOGY needs NRCPUS,
 * GROUP_DESC printing needs EVENT_DESC).  Every count and length is checked
 * against @size.  The bytes are always kept (prism_features__raw()).  An
 * unknown feature, TRACING_DATA (decoded elsewhere) and an empty section
 * are kept raw without typed data.  Decoding a feature again replaces it.
 *
 * Return: 0; -PRISM_E_BAD_FEATURE when the section is malformed (a warning
 * names the feature and the problem; the bytes are kept raw); -EINVAL for
 * @feat >= 256; -ENOMEM.
 */
PRISM_API int prism_features__decode(struct prism_features *f, unsigned int feat, const void *data,
				     size_t size, bool needs_swap);

/* whether a section for @feat was decoded (successfully or not) */
PRISM_API bool prism_features__has(const struct prism_features *f, unsigned int feat);

/* the section's bytes as passed to decode, or NULL; *@size gets their count */
PRISM_API const void *prism_features__raw(const struct prism_features *f, unsigned int feat,
					  size_t *size);

/* perf's name of a feature ("HOSTNAME", "CPU_TOPOLOGY"), or "UNKNOWN" */
PRISM_API const char *prism_features__name(unsigned int feat);

/*
 * Typed getters, one per feature; NULL when the feature is absent or could
 * not be decoded.  prism_features__str() serves the string features
 * HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC and CPUID.  BRANCH_STACK and
 * STAT carry no data: use prism_features__has().
 */
PRISM_API const char *prism_features__str(const struct prism_features *f, unsigned int feat);
PRISM_API const struct prism_feat_build_ids *
prism_features__build_ids(const struct prism_features *f);
PRISM_API const struct prism_feat_nrcpus *prism_features__nrcpus(const struct prism_features *f);
PRISM_API const struct prism_feat_total_mem *
prism_features__total_mem(const struct prism_features *f);
PRISM_API const struct prism_feat_cmdline *prism_features__cmdline(const struct prism_features *f);
PRISM_API const struct prism_feat_event_desc *
prism_features__event_desc(const struct prism_features *f);
PRISM_API const struct prism_feat_cpu_topology *
prism_features__cpu_topology(const struct prism_features *f);
PRISM_API const struct prism_feat_numa_topology *
prism_features__numa_topology(const struct prism_features *f);
PRISM_API const struct prism_feat_pmu_mappings *
prism_features__pmu_mappings(const struct prism_features *f);
PRISM_API const struct prism_feat_group_desc *
prism_features__group_desc(const struct prism_features *f);
PRISM_API const struct prism_feat_auxtrace *
prism_features__auxtrace(const struct prism_features *f);
PRISM_API const struct prism_feat_cache *prism_features__cache(const struct prism_features *f);
PRISM_API const struct prism_feat_sample_time *
prism_features__sample_time(const struct prism_features *f);
PRISM_API const struct prism_feat_mem_topology *
prism_features__mem_topology(const struct prism_features *f);
PRISM_API const struct prism_feat_clockid *prism_features__clockid(const struct prism_features *f);
PRISM_API const struct prism_feat_dir_format *
prism_features__dir_format(const struct prism_features *f);
PRISM_API const struct prism_feat_bpf_prog_info *
prism_features__bpf_prog_info(const struct prism_features *f);
PRISM_API const struct prism_feat_bpf_btf *prism_features__bpf_btf(const struct prism_features *f);
PRISM_API const struct prism_feat_compressed *
prism_features__compressed(const struct prism_features *f);
PRISM_API const struct prism_feat_pmu_caps_set *
prism_features__cpu_pmu_caps(const struct prism_features *f);
PRISM_API const struct prism_feat_clock_data *
prism_features__clock_data(const struct prism_features *f);
PRISM_API const struct prism_feat_hybrid_topology *
prism_features__hybrid_topology(const struct prism_features *f);
PRISM_API const struct prism_feat_pmu_caps *
prism_features__pmu_caps(const struct prism_features *f);
PRISM_API const struct prism_feat_cpu_domain_info *
prism_features__cpu_domain_info(const struct prism_features *f);
PRISM_API const struct prism_feat_e_machine *
prism_features__e_machine(const struct prism_features *f);
PRISM_API const struct prism_feat_cln_size *
prism_features__cln_size(const struct prism_features *f);

/**
 * prism_features__event_name - the EVENT_DESC name of an event
 * @f: the feature set
 * @type: the event's attr.type
 * @config: the event's attr.config
 * @ids: the event's ids (from the attrs section or HEADER_ATTR)
 * @nr_ids: entries in @ids
 * @idx: the event's position in attr order
 *
 * Matches the EVENT_DESC entry that shares an id with @ids, else the entry
 * at @idx when its type and config agree (perf matches by index only).
 *
 * Return: the name, or NULL.
 */
PRISM_API const char *prism_features__event_name(const struct prism_features *f, uint32_t type,
						 uint64_t config, const uint64_t *ids,
						 size_t nr_ids, int idx);

/**
 * prism_features__print - append the header lines perf 6.1 prints
 * @f: the feature set
 * @out: where to append
 *
 * Appends what `perf report --header-only -I` prints for the features, in
 * feature order, every line starting with "# ".  The lines that depend on
 * the file (captured on, header version, data offset/size, feat offset) and
 * the missing-features line are left to the caller.  Like perf 6.1, features
 * from PRISM_FEAT_LAST_PERF61 on and features with no printer (TRACING_DATA,
 * BUILD_ID) print nothing; a feature that could not be decoded prints
 * nothing, except EVENT_DESC, which prints perf's "not available" line.
 * CLOCK_DATA's reference time is printed in the local time zone, as perf
 * does.
 */
PRISM_API void prism_features__print(const struct prism_features *f, struct prism_strbuf *out);

/*
 * Appends perf 6.1's "# missing features: " line: the names of the
 * features 1 .. 31 for which no section was decoded (prism_features__has()
 * is false), each followed by a space.
 */
PRISM_API void prism_features__print_missing(const struct prism_features *f,
					     struct prism_strbuf *out);

#endif /* PRISM_FEATURES_H */
