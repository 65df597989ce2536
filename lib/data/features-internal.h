/* SPDX-License-Identifier: MIT */
/*
 * Shared inside lib/data/features*.c: the feature set's body, a bounds-checked
 * reader over one section, and a per-feature arena that owns the typed data.
 */
#ifndef PRISM_DATA_FEATURES_INTERNAL_H
#define PRISM_DATA_FEATURES_INTERNAL_H

#include <prism/features.h>

#include "internal.h"

/*
 * Everything decoded for one feature is allocated from its arena, so a
 * half-decoded feature (malformed section) is dropped by freeing the arena.
 */
struct feat_arena {
	struct feat_chunk *head;
};

void *feat_alloc(struct feat_arena *a, size_t size);
/* zeroed array; NULL on overflow or ENOMEM */
void *feat_alloc_array(struct feat_arena *a, size_t nmemb, size_t size);
void feat_arena_release(struct feat_arena *a);

struct feat_slot {
	bool present; /* decode was called for this feature */
	void *raw; /* copy of the section */
	size_t raw_size;
	void *data; /* typed struct, from arena; NULL if not decoded */
	struct feat_arena arena;
};

struct prism_features {
	struct feat_slot slot[PRISM_FEAT_BITS];
};

/*
 * A reader over one section.  Every read checks the bytes left; the first
 * failure is recorded in err and makes all later reads fail, so a decoder
 * can read a run of fields and check once.
 */
struct feat_cursor {
	const uint8_t *p;
	size_t left;
	size_t size; /* of the whole section */
	bool swap;
	bool failed;
	int err; /* -PRISM_E_BAD_FEATURE or -ENOMEM */
	char why[160]; /* what was wrong, for the warning */
	struct feat_arena *arena;
	const struct prism_features *f; /* for facts from earlier features */
};

/* records the first failure; returns false */
bool feat_fail(struct feat_cursor *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

bool feat_u32(struct feat_cursor *c, uint32_t *v);
bool feat_u64(struct feat_cursor *c, uint64_t *v);
/* copies @n bytes (no swapping) */
bool feat_bytes(struct feat_cursor *c, void *dst, size_t n);
/* @n bytes copied into the arena */
bool feat_dup(struct feat_cursor *c, size_t n, const uint8_t **out);
bool feat_skip(struct feat_cursor *c, size_t n);
/* a perf_header_string: u32 len, len bytes, cut at the first NUL */
bool feat_str(struct feat_cursor *c, const char **out);
/* a u32 count, checked against the bytes left with @min_elem bytes per element */
bool feat_count(struct feat_cursor *c, uint32_t *nr, size_t min_elem, const char *what);
/* @nr string pointers read as perf_header_strings */
bool feat_str_array(struct feat_cursor *c, uint32_t nr, const char *const **out);
/* zeroed array of @nr elements, checked against the bytes left first */
void *feat_array(struct feat_cursor *c, uint64_t nr, size_t elem, size_t min_elem,
		 const char *what);

/* allocate a decoder's typed struct from the arena; false (and the cursor failed) on ENOMEM */
#define FEAT_NEW(c, ptr)                                             \
	(((ptr) = feat_alloc((c)->arena, sizeof(*(ptr)))) != NULL || \
	 feat_fail((c), -ENOMEM, "out of memory"))

/* decoders: fill *out from the cursor; return false on failure (cursor says why) */
typedef bool (*feat_decode_fn)(struct feat_cursor *c, void **out);

/* features-topology.c */
bool feat_decode_cpu_topology(struct feat_cursor *c, void **out);
bool feat_decode_numa_topology(struct feat_cursor *c, void **out);
bool feat_decode_cache(struct feat_cursor *c, void **out);
bool feat_decode_mem_topology(struct feat_cursor *c, void **out);
bool feat_decode_hybrid_topology(struct feat_cursor *c, void **out);
bool feat_decode_cpu_domain_info(struct feat_cursor *c, void **out);
bool feat_decode_cpu_pmu_caps(struct feat_cursor *c, void **out);
bool feat_decode_pmu_caps(struct feat_cursor *c, void **out);

/* features-bpf.c */
bool feat_decode_bpf_prog_info(struct feat_cursor *c, void **out);
bool feat_decode_bpf_btf(struct feat_cursor *c, void **out);
/*
 * perf's name of sub-program @sub of @prog ("bpf_prog_<tag>_<name>"), using
 * the function name from BTF when @btf holds the program's BTF.
 */
void feat_bpf_prog_name(const struct prism_feat_bpf_prog *prog,
			const struct prism_feat_bpf_btf *btf, uint32_t sub, char *buf, size_t size);

/* the typed data of @feat, or NULL */
static inline const void *feat_data(const struct prism_features *f, unsigned int feat)
{
	return f && feat < PRISM_FEAT_BITS ? f->slot[feat].data : NULL;
}

#endif /* PRISM_DATA_FEATURES_INTERNAL_H */
