/* SPDX-License-Identifier: MIT */
/*
 * struct prism_evsel and the id → evsel map, shared inside lib/.
 */
#ifndef PRISM_EVSEL_INTERNAL_H
#define PRISM_EVSEL_INTERNAL_H

#include <prism/event.h>
#include <prism/evsel.h>

#include "data/attr.h"

struct prism_evsel {
	struct prism_attr_ext a;
	int idx;
	char *name; /* from the file, or NULL */
	char *derived_name;
	uint64_t *ids;
	size_t nr_ids, cap_ids;
	char *unit;
	double scale;
	void *priv;
	uint64_t nr_samples, nr_lost_samples;
	uint64_t nr_records[PRISM_RECORD_TYPE_MAX];
	/* parsing aids, from the attr */
	unsigned int nr_regs_user, nr_regs_intr;
	size_t id_hdr_size; /* bytes of the sample_id trailer */
};

struct prism_evsel *prism_evsel__new(const struct prism_attr_ext *a, int idx);
void prism_evsel__free(struct prism_evsel *evsel);
int prism_evsel__add_id(struct prism_evsel *evsel, uint64_t id);
int prism_evsel__set_name(struct prism_evsel *evsel, const char *name);
int prism_evsel__set_unit(struct prism_evsel *evsel, const char *unit);
/* derive a name when the file gives none; @tp_name is "sys:event" for tracepoints or NULL */
int prism_evsel__derive_name(struct prism_evsel *evsel, const char *tp_name);

/* id → evsel hash map (open addressing) */
struct prism_idmap {
	uint64_t *keys;
	struct prism_evsel **vals;
	size_t cap, nr;
};

int prism_idmap__add(struct prism_idmap *m, uint64_t id, struct prism_evsel *evsel);
struct prism_evsel *prism_idmap__find(const struct prism_idmap *m, uint64_t id);
void prism_idmap__release(struct prism_idmap *m);

#endif /* PRISM_EVSEL_INTERNAL_H */
