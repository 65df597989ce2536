// SPDX-License-Identifier: MIT
/*
 * Events of a perf.data file: attr, ids, names, counters; and the id map.
 */
#include <stdio.h>

#include <prism/strbuf.h>

#include "internal.h"
#include "session/evsel-internal.h"

static size_t trailer_size(uint64_t st)
{
	size_t n = 0;

	n += !!(st & PERF_SAMPLE_TID);
	n += !!(st & PERF_SAMPLE_TIME);
	n += !!(st & PERF_SAMPLE_ID);
	n += !!(st & PERF_SAMPLE_STREAM_ID);
	n += !!(st & PERF_SAMPLE_CPU);
	n += !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

/* the offsets of the fixed-size sample fields, for the parser's fast path */
static void sample_layout(struct prism_evsel *e)
{
	/* in perf_output_sample() order; ID after IDENTIFIER: it wins, as in the full parse */
	static const struct {
		uint64_t bit;
		size_t at; /* offsetof the evsel's at_* byte */
	} fixed[] = {
		{ PERF_SAMPLE_IDENTIFIER, offsetof(struct prism_evsel, at_id) },
		{ PERF_SAMPLE_IP, offsetof(struct prism_evsel, at_ip) },
		{ PERF_SAMPLE_TID, offsetof(struct prism_evsel, at_tid) },
		{ PERF_SAMPLE_TIME, offsetof(struct prism_evsel, at_time) },
		{ PERF_SAMPLE_ADDR, offsetof(struct prism_evsel, at_addr) },
		{ PERF_SAMPLE_ID, offsetof(struct prism_evsel, at_id) },
		{ PERF_SAMPLE_STREAM_ID, offsetof(struct prism_evsel, at_stream_id) },
		{ PERF_SAMPLE_CPU, offsetof(struct prism_evsel, at_cpu) },
		{ PERF_SAMPLE_PERIOD, offsetof(struct prism_evsel, at_period) },
	};
	const uint64_t fast = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	uint64_t st = e->a.attr.sample_type;
	uint8_t at = 8; /* after the record header */
	size_t i;

	e->period = e->a.attr.freq ? 0 : e->a.attr.sample_period;
	e->sample_fast = !(st & ~fast);
	for (i = 0; i < PRISM_ARRAY_SIZE(fixed); i++) {
		if (st & fixed[i].bit) {
			*((uint8_t *)e + fixed[i].at) = at;
			at += 8;
		}
	}
	e->at_end = at;
	/* the sample_id trailer is read backwards: IDENTIFIER, CPU, STREAM_ID, ID, TIME */
	if ((st & PERF_SAMPLE_TIME) && e->id_hdr_size)
		e->trailer_time =
			(uint8_t)(8 *
				  (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_CPU) +
				   !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_ID) + 1));
}

struct prism_evsel *prism_evsel__new(const struct prism_attr_ext *a, int idx)
{
	struct prism_evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	evsel->a = *a;
	evsel->idx = idx;
	evsel->nr_regs_user = (unsigned int)__builtin_popcountll(a->attr.sample_regs_user);
	evsel->nr_regs_intr = (unsigned int)__builtin_popcountll(a->attr.sample_regs_intr);
	evsel->id_hdr_size = a->attr.sample_id_all ? trailer_size(a->attr.sample_type) : 0;
	sample_layout(evsel);
	return evsel;
}

void prism_evsel__free(struct prism_evsel *evsel)
{
	if (!evsel)
		return;
	free(evsel->name);
	free(evsel->derived_name);
	free(evsel->ids);
	free(evsel->unit);
	free(evsel);
}

int prism_evsel__add_id(struct prism_evsel *evsel, uint64_t id)
{
	int err = prism_ensure_mem((void **)&evsel->ids, &evsel->cap_ids, sizeof(uint64_t),
				   evsel->nr_ids + 1);

	if (err)
		return err;
	evsel->ids[evsel->nr_ids++] = id;
	return 0;
}

static int set_str(char **dst, const char *s)
{
	char *p = strdup(s);

	if (!p)
		return -ENOMEM;
	free(*dst);
	*dst = p;
	return 0;
}

int prism_evsel__set_name(struct prism_evsel *evsel, const char *name)
{
	return set_str(&evsel->name, name);
}

int prism_evsel__set_unit(struct prism_evsel *evsel, const char *unit)
{
	return set_str(&evsel->unit, unit);
}

static const char *const sw_names[] = {
	"cpu-clock",	    "task-clock",   "page-faults",  "context-switches",
	"cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy",	    "bpf-output",   "cgroup-switches",
};

static const char *const hw_names[] = {
	"cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branches",
	"branch-misses",
	"bus-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"ref-cycles",
};

int prism_evsel__derive_name(struct prism_evsel *evsel, const char *tp_name)
{
	const struct perf_event_attr *attr = &evsel->a.attr;
	struct prism_strbuf sb = STRBUF_INIT;
	char *s;

	if (attr->type == PERF_TYPE_TRACEPOINT && tp_name)
		prism_strbuf_addstr(&sb, tp_name);
	else if (attr->type == PERF_TYPE_SOFTWARE && attr->config < PRISM_ARRAY_SIZE(sw_names))
		prism_strbuf_addstr(&sb, sw_names[attr->config]);
	else if (attr->type == PERF_TYPE_HARDWARE && attr->config < PRISM_ARRAY_SIZE(hw_names))
		prism_strbuf_addstr(&sb, hw_names[attr->config]);
	else if (attr->type == PERF_TYPE_TRACEPOINT)
		prism_strbuf_addf(&sb, "unknown tracepoint %llu", (unsigned long long)attr->config);
	else
		prism_strbuf_addf(&sb, "raw %u:%#llx", attr->type,
				  (unsigned long long)attr->config);
	s = prism_strbuf_detach(&sb, NULL);
	if (!s)
		return -ENOMEM;
	free(evsel->derived_name);
	evsel->derived_name = s;
	return 0;
}

const struct perf_event_attr *prism_evsel__attr(const struct prism_evsel *evsel)
{
	return &evsel->a.attr;
}

uint32_t prism_evsel__attr_size(const struct prism_evsel *evsel)
{
	return evsel->a.file_size;
}

uint64_t prism_evsel__config3(const struct prism_evsel *evsel)
{
	return evsel->a.config3;
}

const char *prism_evsel__name(const struct prism_evsel *evsel)
{
	if (evsel->name)
		return evsel->name;
	return evsel->derived_name ? evsel->derived_name : "unknown";
}

int prism_evsel__idx(const struct prism_evsel *evsel)
{
	return evsel->idx;
}

size_t prism_evsel__nr_ids(const struct prism_evsel *evsel)
{
	return evsel->nr_ids;
}

const uint64_t *prism_evsel__ids(const struct prism_evsel *evsel)
{
	return evsel->ids;
}

bool prism_evsel__is_tracepoint(const struct prism_evsel *evsel)
{
	return evsel->a.attr.type == PERF_TYPE_TRACEPOINT;
}

uint64_t prism_evsel__fixed_period(const struct prism_evsel *evsel)
{
	return evsel->a.attr.freq ? 0 : evsel->a.attr.sample_period;
}

uint64_t prism_sample__period(const struct prism_event *ev)
{
	if (ev->sample.type & PERF_SAMPLE_PERIOD)
		return ev->sample.period;
	return ev->evsel ? prism_evsel__fixed_period(ev->evsel) : 1;
}

uint64_t prism_evsel__nr_samples(const struct prism_evsel *evsel)
{
	return evsel->nr_samples;
}

uint64_t prism_evsel__nr_lost_samples(const struct prism_evsel *evsel)
{
	return evsel->nr_lost_samples;
}

uint64_t prism_evsel__nr_records(const struct prism_evsel *evsel, uint32_t type)
{
	return type < PRISM_RECORD_TYPE_MAX ? evsel->nr_records[type] : 0;
}

const char *prism_evsel__unit(const struct prism_evsel *evsel)
{
	return evsel->unit;
}

double prism_evsel__scale(const struct prism_evsel *evsel)
{
	return evsel->scale;
}

void prism_evsel__set_priv(struct prism_evsel *evsel, void *priv)
{
	evsel->priv = priv;
}

void *prism_evsel__priv(const struct prism_evsel *evsel)
{
	return evsel->priv;
}

/* --- id map ------------------------------------------------------------- */

static __wraps size_t slot_of(uint64_t id, size_t cap)
{
	/* splitmix64 finalizer: ids are small, dense integers */
	id ^= id >> 30;
	id *= 0xbf58476d1ce4e5b9ull;
	id ^= id >> 27;
	id *= 0x94d049bb133111ebull;
	id ^= id >> 31;
	return (size_t)id & (cap - 1);
}

static int idmap_grow(struct prism_idmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	struct prism_evsel **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	for (i = 0; i < m->cap; i++) {
		size_t s;

		if (!m->vals[i])
			continue;
		s = slot_of(m->keys[i], cap);
		while (vals[s])
			s = (s + 1) & (cap - 1);
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

/* ids spanning at most this many values (and 8 per id) get a direct table */
#define IDMAP_DENSE_MAX 65536

/*
 * Keep the direct table up to date after adding @id → @evsel.  The kernel
 * hands ids out in increasing order, so the table grows at its end, with
 * room to spare; anything else rebuilds it (adds are rare: one per id).
 */
static void idmap_densify(struct prism_idmap *m, uint64_t id, struct prism_evsel *evsel)
{
	uint64_t span = m->max - m->min;
	struct prism_evsel **d;
	size_t i, cap;

	if (m->dense && id >= m->dense_base && id - m->dense_base < m->dense_cap) {
		m->dense[id - m->dense_base] = evsel;
		return;
	}
	zfree(&m->dense);
	m->dense_cap = 0;
	if (span >= IDMAP_DENSE_MAX || span / 8 > m->nr)
		return;
	cap = (size_t)span + 1 < 64 ? 64 : 2 * ((size_t)span + 1);
	d = calloc(cap, sizeof(*d));
	if (!d)
		return; /* the hash lookup still works */
	for (i = 0; i < m->cap; i++)
		if (m->vals[i])
			d[m->keys[i] - m->min] = m->vals[i];
	m->dense = d;
	m->dense_base = m->min;
	m->dense_cap = cap;
}

int prism_idmap__add(struct prism_idmap *m, uint64_t id, struct prism_evsel *evsel)
{
	size_t s;
	int err;

	if ((m->nr + 1) * 2 > m->cap) {
		err = idmap_grow(m);
		if (err)
			return err;
	}
	s = slot_of(id, m->cap);
	while (m->vals[s]) {
		if (m->keys[s] == id) {
			m->vals[s] = evsel; /* a later attr claiming the id wins, as in perf */
			idmap_densify(m, id, evsel);
			return 0;
		}
		s = (s + 1) & (m->cap - 1);
	}
	m->keys[s] = id;
	m->vals[s] = evsel;
	if (!m->nr || id < m->min)
		m->min = id;
	if (!m->nr || id > m->max)
		m->max = id;
	m->nr++;
	idmap_densify(m, id, evsel);
	return 0;
}

struct prism_evsel *prism_idmap__find_slow(const struct prism_idmap *m, uint64_t id)
{
	size_t s;

	if (!m->cap)
		return NULL;
	s = slot_of(id, m->cap);
	while (m->vals[s]) {
		if (m->keys[s] == id)
			return m->vals[s];
		s = (s + 1) & (m->cap - 1);
	}
	return NULL;
}

void prism_idmap__release(struct prism_idmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->dense);
	memset(m, 0, sizeof(*m));
}
