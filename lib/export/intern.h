/* SPDX-License-Identifier: MIT */
/*
 * Interning for the exporters: a string table (string -> dense index, in
 * insertion order) and a map from a pair of u64 keys to a u64 value.  Both
 * are open-addressing hashes that grow by doubling; memory grows with the
 * number of distinct keys, never with the number of lookups.
 */
#ifndef PRISM_EXPORT_INTERN_H
#define PRISM_EXPORT_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strtab {
	char **str; /* owned copies, by index */
	size_t nr, alloc;
	uint32_t *slots; /* index + 1; 0 = empty */
	size_t nslots;
};

/* the index of @s, added (copied) when new; 0 or -ENOMEM */
int strtab_intern(struct strtab *t, const char *s, uint64_t *idx);
void strtab_release(struct strtab *t);

struct pairmap {
	struct pairmap_slot {
		uint64_t a, b, val;
		bool used;
	} * slots;
	size_t nslots, nr;
};

/*
 * Find (@a, @b).  Found: *@val = its value, return 0.  Not found: insert it
 * with value @new_val, *@val = @new_val, return 1.  -ENOMEM.
 */
int pairmap_get_or_add(struct pairmap *m, uint64_t a, uint64_t b, uint64_t new_val, uint64_t *val);
/* the slot of (@a, @b) (its value may be changed), or NULL */
struct pairmap_slot *pairmap_find(struct pairmap *m, uint64_t a, uint64_t b);
void pairmap_release(struct pairmap *m);

uint64_t intern_hash(uint64_t a, uint64_t b);

#endif /* PRISM_EXPORT_INTERN_H */
