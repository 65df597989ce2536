/* SPDX-License-Identifier: MIT */
/*
 * struct prism_evsel and the id → evsel map, shared inside lib/.
 */
#ifndef PRISM_EVSEL_INTERNAL_H
#define PRISM_EVSEL_INTERNAL_H

#include <prism/event.h>
#include <prism/evsel.h>

#include "internal.h"
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
	/*
	 * Where each fixed-size field of a sample is (bytes from the record
	 * start, 0 = absent: they come first, whatever follows them), and
	 * whether no field of a varying size precedes the call chain and RAW
	 * and none follows them (sample_fast: the parser's fast path).
	 */
	bool sample_fast;
	uint8_t at_id, at_ip, at_tid, at_time, at_addr, at_stream_id, at_cpu, at_period;
	uint8_t at_end; /* end of the fixed fields: the call chain or RAW starts here */
	uint8_t trailer_time; /* bytes from a record's end to the sample_id TIME, 0 = none */
	uint64_t period; /* the sample's period when it has no PERIOD field */
};

struct prism_evsel *prism_evsel__new(const struct prism_attr_ext *a, int idx);
void prism_evsel__free(struct prism_evsel *evsel);
int prism_evsel__add_id(struct prism_evsel *evsel, uint64_t id);
int prism_evsel__set_name(struct prism_evsel *evsel, const char *name);
int prism_evsel__set_unit(struct prism_evsel *evsel, const char *unit);
/* derive a name when the file gives none; @tp_name is "sys:event" for tracepoints or NULL */
int prism_evsel__derive_name(struct prism_evsel *evsel, const char *tp_name);

/*
 * id → evsel map: open addressing, plus a direct table when the ids span
 * a small range (the kernel hands them out in sequence, so they usually
 * do): the lookup of every record is then one bounds check and one load.
 */
struct prism_idmap {
	uint64_t *keys;
	struct prism_evsel **vals;
	size_t cap, nr;
	uint64_t min, max; /* of the ids, when nr */
	struct prism_evsel **dense; /* dense_cap ids from dense_base, or NULL */
	uint64_t dense_base;
	size_t dense_cap;
};

int prism_idmap__add(struct prism_idmap *m, uint64_t id, struct prism_evsel *evsel);
struct prism_evsel *prism_idmap__find_slow(const struct prism_idmap *m, uint64_t id);
void prism_idmap__release(struct prism_idmap *m);

static inline struct prism_evsel *prism_idmap__find(const struct prism_idmap *m, uint64_t id)
{
	if (m->dense)
		return span_ok(id, 1, m->dense_base, m->dense_cap) ? m->dense[id - m->dense_base] :
								     NULL;
	return prism_idmap__find_slow(m, id);
}

#endif /* PRISM_EVSEL_INTERNAL_H */
