/* SPDX-License-Identifier: MIT */
/*
 * Internals of lib/profile/: interned frames and unique stacks.  Not installed.
 */
#ifndef PRISM_PROFILE_INTERNAL_H
#define PRISM_PROFILE_INTERNAL_H

#include <prism/profile.h>

#include "internal.h"

/* an interned frame: one per (dso, symbol) or, unresolved, per (dso, address) */
struct pframe {
	const void *dso_key; /* struct prism_dso *, or the dso name when there is none */
	const void *sym_key; /* sym_id, or NULL */
	uint64_t addr_key; /* ip when unresolved or per-address (srcline) */
	const char *name; /* symbol or NULL */
	const char *dso_name;
	const char *dso_path; /* the long name (prism_frame.dso_path) */
	uint64_t ip;
	uint64_t dso_addr;
	uint64_t map_addr; /* perf's map_ip: how report shows an unresolved leaf */
	struct prism_dso *dso;
	uint32_t dso_id; /* interned short DSO name */
	/*
	 * interned "file:line", or perf's text without one: "sym+offset" or
	 * "dso[addr]" of the address as a caller; src_leaf_id: of the address
	 * as a sample's leaf (perf's map-relative form) when it differs, or 0
	 */
	uint32_t src_id, src_leaf_id;
	uint32_t file_id; /* interned file of src_id, 0 = unknown */
	uint32_t file_caller_id; /* perf's file of it as a caller: at ip itself, 0 = none */
	uint32_t sym_size; /* the symbol's size, 0 unresolved */
	uint64_t dso_size; /* its map's (PRISM_SORT_DSO_SIZE), 0 none */
	bool kernel;
	uint8_t kind;
};

/* struct prism_sample_keys as a record keeps it: no padding, so records compare by bytes */
struct psk {
	int32_t socket;
	uint32_t cg_name; /* interned cgroup name, 0 unknown */
	uint64_t cgroup, cg_dev, cg_ino, weight;
	uint16_t ins_lat, p_stage_cyc;
	uint32_t trace; /* interned trace output, 0 none */
};

#define PARENT_NONE UINT32_MAX
#define PREC_HIDDEN 1
#define PREC_FILTERED 2

/* a unique (task, stack); frames leaf first in the pool */
struct precord {
	uint32_t sk; /* its sample keys (of the profile's keys_mask): an index in psks */
	uint32_t comm_id, pid, tid, cpu;
	uint32_t thread; /* tid of the first sample (not a key) */
	uint64_t time; /* PRISM_SORT_TIME's value, 0 without the key */
	bool nochain; /* prism_profile__add_nochain(): its own row only */
	/* PREC_HIDDEN, PREC_FILTERED: prism_profile__set_hidden()'s, set_filtered()'s */
	uint8_t hidden;
	uint32_t parent; /* parent.c: the parent frame + 1 (0: none), set by entries() */
	/* prism_profile__set_parent_frame()'s: frame + 1, PARENT_NONE, or 0 (the chain's) */
	uint32_t parent_fixed;
	uint32_t parent_depth; /* the first frames where the parent is looked for */
	uint32_t off, depth;
	uint32_t self; /* frame of its own row: the chain's first but for a cut chain */
	uint64_t period, count;
	uint64_t hash;
};

/* string interning: id 0 is reserved for "none" */
struct strtab {
	char **strs;
	size_t nr, alloc;
	uint32_t *slots;
	size_t cap;
};

struct u32map { /* open addressing: index+1 per slot, 0 empty */
	uint32_t *slots;
	size_t cap;
};

struct prism_profile {
	struct prism_symbols *sy;
	unsigned int mask;
	struct strtab strs;

	struct pframe *frames;
	size_t nr_frames, alloc_frames;
	struct u32map frame_map;

	struct precord *recs;
	size_t nr_recs, alloc_recs;
	struct u32map rec_map;
	uint32_t *pool; /* frame ids */
	size_t pool_len, pool_alloc;
	uint32_t *scratch;
	size_t scratch_alloc;

	uint64_t total_period, nr_samples;
	uint64_t time; /* prism_profile__set_time()'s */
	uint32_t sk; /* prism_profile__set_sample_keys()'s, masked: an index in psks */
	struct psk *psks; /* the distinct sample keys; 0: all zero */
	size_t nr_psks, alloc_psks;
	struct u32map psk_map;
	uint8_t hidden; /* prism_profile__set_hidden()'s and set_filtered()'s */
	uint32_t parent_fixed; /* prism_profile__set_parent_frame()'s, as in records */
	bool full_src; /* prism_profile__set_full_source_path()'s */
	bool addrs; /* prism_profile__set_verbose()'s: frames per address, long DSO names */
	uint32_t add_pid; /* of the sample being added (PRISM_SORT_DSO_SIZE's maps) */

	/* last entries() result */
	struct prism_hist_entry *entries;
	size_t nr_entries, alloc_entries;
	uint32_t *epool; /* entry index per pool position (children) */
	uint32_t *eleaf; /* entry index of each record's leaf */
	/*
	 * children mode: the leaf frame's children row where it is not its self
	 * row (an unresolved address: perf's map-relative and absolute forms);
	 * UINT32_MAX: none
	 */
	uint32_t *ecleaf;
	uint32_t *eframe; /* a frame of each entry (for its source line) */
	/*
	 * per entry: the longest chain perf appends to its graph, callee order
	 * (2e) and caller order (2e+1): perf's tie rule for equal children
	 */
	uint32_t *edepth;
	int chain_order; /* prism_profile__set_chain_order(): 0 none, 1 caller, 2 callee */
	bool chain_caller; /* its order, also without graphs: how perf creates rows */
	bool children;
	bool by_keys; /* the keys have output fields: the order is theirs alone */
	void *parent_re; /* regex_t of prism_profile__set_parent(), or NULL */
	size_t parent_depth; /* prism_profile__set_parent_depth()'s */
	const enum prism_sort_key *keys; /* while sorting: ties go by these, in order */
	size_t nr_keys;

	/* call graph nodes of the last callgraph() call */
	struct cg_arena *arena;
};

/* room for one more of @nr elements of @base (@elem bytes each, hashed by @hash_of) */
int u32map_grow(struct u32map *m, size_t nr, const void *base, size_t elem,
		uint64_t (*hash_of)(const void *));

uint32_t strtab__intern(struct strtab *t, const char *s);
/* the id of @s, 0 when it was never interned */
uint32_t strtab__find(const struct strtab *t, const char *s); /* 0 on -ENOMEM */
const char *strtab__str(const struct strtab *t, uint32_t id);
void strtab__release(struct strtab *t);

static inline __wraps uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

void cg_arena__free(struct cg_arena *a);

/* parent.c: every record's parent frame (PRISM_SORT_PARENT); -ENOMEM */
int profile_parents(struct prism_profile *p);
void profile_parent_release(struct prism_profile *p);

/* @order: the rows of the last entries() call in perf's output order (order.c) */
int entries_order(const struct prism_profile *p, uint32_t *order);

/* sample-keys.c: struct prism_sample_keys in records and rows */
uint64_t psk_hash(const struct psk *k);
/* the sample keys of index @id */
const struct psk *psk_of(const struct prism_profile *p, uint32_t id);
/*
 * @out: NULL when the rows' keys @use have every sample key the records
 * keep (a record's index is its rows'), else per record the index of its
 * sample keys of @use; -ENOMEM
 */
int psk_rows(struct prism_profile *p, const bool *use, uint32_t **out);
/* the parts of @from the keys @use have into @to (zero the others) */
void psk_select(const struct psk *from, const bool *use, struct psk *to);
/* the row's values of a record's keys: @e's sample key fields from @k */
void psk_to_entry(const struct prism_profile *p, const struct psk *k, struct prism_hist_entry *e);
/* a record's self samples into row @e (sums of ins_lat, p_stage_cyc) */
void psk_add_self(const struct prism_profile *p, const struct precord *r,
		  struct prism_hist_entry *e);
/* perf's order of rows by a sample key (0 for other keys) */
int psk_cmp(const struct prism_hist_entry *a, const struct prism_hist_entry *b,
	    enum prism_sort_key key);

/* the display name of a frame for folded/flame output ("[unknown]" when unresolved) */
const char *pframe__label(const struct pframe *f);

/* fnframe.c: each frame's first frame of its function, for call graphs; -ENOMEM */
int profile_fn_frames(const struct prism_profile *p, uint32_t **out);

#endif /* PRISM_PROFILE_INTERNAL_H */
