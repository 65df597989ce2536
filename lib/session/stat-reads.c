// SPDX-License-Identifier: MIT
/*
 * Counter reads of `perf stat record` files (THREAD_MAP, CPU_MAP, STAT,
 * STAT_ROUND records; docs/perf-data-format.md, perf's own records).
 */
#include <prism/evsel.h>
#include <prism/session.h>
#include <prism/stat-reads.h>

#include "internal.h"

/* values kept at most: events x threads x CPUs (a hostile map must not take the memory) */
#define MAX_SLOTS (1u << 22)

struct slot {
	uint64_t val, ena, run;
	uint64_t prev_val, prev_ena, prev_run; /* the raw values of the last round */
};

/* STAT_CONFIG terms, and perf 6.1's aggregation modes (enum aggr_mode) */
#define TERM_AGGR_MODE 0
#define TERM_SCALE 2
#define AGGR_GLOBAL 1
#define AGGR_UNSET 6
#define AGGR_NODE 7

struct prism_stat_reads {
	struct prism_session *s;
	int *cpus, *pids;
	size_t nr_cpus, nr_pids;
	bool have_cpus, have_pids;
	struct slot *slots; /* [evsel][thread][cpu], allocated once both maps are known */
	size_t nr_evsels;
	uint64_t nr_reads;
	uint64_t aggr_mode; /* perf script's default is 0, AGGR_NONE */
	bool scale;
};

struct prism_stat_reads *prism_stat_reads__new(struct prism_session *s)
{
	struct prism_stat_reads *r = calloc(1, sizeof(*r));

	if (r)
		r->s = s;
	return r;
}

void prism_stat_reads__free(struct prism_stat_reads *r)
{
	if (!r)
		return;
	free(r->cpus);
	free(r->pids);
	free(r->slots);
	free(r);
}

uint64_t prism_stat_reads__nr_reads(const struct prism_stat_reads *r)
{
	return r->nr_reads;
}

static int add_cpu(int **cpus, size_t *nr, size_t *alloc, int cpu)
{
	if (prism_ensure_mem((void **)cpus, alloc, sizeof(**cpus), *nr + 1))
		return -ENOMEM;
	(*cpus)[(*nr)++] = cpu;
	return 0;
}

/*
 * The CPU map: a list of u16 CPUs ((u16)-1 is "any"), a bit mask of 4- or
 * 8-byte words, or a range (perf 6.1's encodings).  A body that does not
 * fit leaves the map unknown.
 */
static int read_cpu_map(struct prism_stat_reads *r, const uint8_t *b, size_t n)
{
	int *cpus = NULL;
	size_t nr = 0, alloc = 0, i, words, word;
	int err = 0;

	if (n < 4)
		return 0;
	switch (get_u16(b)) {
	case 0:
		words = get_u16(b + 2);
		if (4 + 2 * words > n)
			return 0;
		for (i = 0; i < words && !err; i++) {
			uint16_t c = get_u16(b + 4 + 2 * i);

			err = add_cpu(&cpus, &nr, &alloc, c == 0xffff ? -1 : c);
		}
		break;
	case 1:
		if (n < 6)
			return 0;
		words = get_u16(b + 2);
		word = get_u16(b + 4);
		if ((word != 4 && word != 8) || (word == 4 ? 6 : 10) + words * word > n)
			return 0;
		for (i = 0; i < words * word * 8 && !err; i++) {
			const uint8_t *w = b + (word == 4 ? 6 : 10) + i / (word * 8) * word;
			uint64_t bits = word == 4 ? get_u32(w) : get_u64(w);

			if (bits >> (i % (word * 8)) & 1)
				err = add_cpu(&cpus, &nr, &alloc, (int)i);
		}
		break;
	case 2:
		if (n < 8)
			return 0;
		if (b[2])
			err = add_cpu(&cpus, &nr, &alloc, -1);
		for (i = get_u16(b + 4); i <= get_u16(b + 6) && !err; i++)
			err = add_cpu(&cpus, &nr, &alloc, (int)i);
		break;
	default:
		return 0;
	}
	if (err) {
		free(cpus);
		return err;
	}
	free(r->cpus);
	r->cpus = cpus;
	r->nr_cpus = nr;
	r->have_cpus = true;
	zfree(&r->slots);
	return 0;
}

/* u64 nr, then nr x {u64 pid; char comm[16]} */
static int read_thread_map(struct prism_stat_reads *r, const uint8_t *b, size_t n)
{
	uint64_t nr;
	size_t i;
	int *pids;

	if (n < 8)
		return 0;
	nr = get_u64(b);
	if (nr > (n - 8) / 24)
		return 0;
	pids = prism_reallocarray(NULL, nr ? (size_t)nr : 1, sizeof(*pids));
	if (!pids)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		pids[i] = (int)get_u64(b + 8 + 24 * i);
	free(r->pids);
	r->pids = pids;
	r->nr_pids = (size_t)nr;
	r->have_pids = true;
	zfree(&r->slots);
	return 0;
}

/* the values, once both maps are known; NULL when they are not (or too many) */
static struct slot *slots(struct prism_stat_reads *r)
{
	size_t nr_evsels = prism_session__nr_evsels(r->s), n;

	if (r->slots && r->nr_evsels == nr_evsels)
		return r->slots;
	zfree(&r->slots);
	if (!r->have_cpus || !r->have_pids || !nr_evsels || !r->nr_cpus || !r->nr_pids)
		return NULL;
	if (r->nr_pids > MAX_SLOTS / r->nr_cpus || nr_evsels > MAX_SLOTS / r->nr_cpus / r->nr_pids)
		return NULL;
	n = nr_evsels * r->nr_pids * r->nr_cpus;
	r->slots = calloc(n, sizeof(*r->slots));
	r->nr_evsels = r->slots ? nr_evsels : 0;
	return r->slots;
}

/* STAT: u64 id, u32 cpu, u32 thread (an index in the thread map), u64 val, ena, run */
static void read_stat(struct prism_stat_reads *r, const uint8_t *b, size_t n)
{
	struct prism_evsel *evsel;
	struct slot *sl = slots(r), *v;
	int cpu, idx;
	uint32_t thread;
	size_t c;

	if (n < 40 || !sl)
		return;
	evsel = prism_session__evsel_by_id(r->s, get_u64(b));
	idx = evsel ? prism_evsel__idx(evsel) : -1;
	cpu = (int)get_u32(b + 8);
	thread = get_u32(b + 12);
	if (idx < 0 || (size_t)idx >= r->nr_evsels || thread >= r->nr_pids)
		return;
	for (c = 0; c < r->nr_cpus && r->cpus[c] != cpu; c++)
		;
	if (c == r->nr_cpus)
		return;
	v = &sl[((size_t)idx * r->nr_pids + thread) * r->nr_cpus + c];
	v->val = get_u64(b + 16);
	v->ena = get_u64(b + 24);
	v->run = get_u64(b + 32);
	r->nr_reads++;
}

/* u64 nr, then nr x {u64 tag, u64 value} */
static void read_config(struct prism_stat_reads *r, const uint8_t *b, size_t n)
{
	uint64_t nr, i;

	if (n < 8)
		return;
	nr = get_u64(b);
	for (i = 0; i < nr && i < (n - 8) / 16; i++) {
		uint64_t tag = get_u64(b + 8 + 16 * i), val = get_u64(b + 16 + 16 * i);

		if (tag == TERM_AGGR_MODE)
			r->aggr_mode = val;
		else if (tag == TERM_SCALE)
			r->scale = val != 0;
	}
}

/* val * ena / run in doubles, as perf scales; a result past u64 (a hostile file) saturates */
static uint64_t scaled(uint64_t val, uint64_t ena, uint64_t run)
{
	double d = (double)val * (double)ena / (double)run;

	return d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
}

/*
 * perf script processes the counters at a round as perf stat does: in every
 * aggregation mode but the global one (and an unset or unknown one) each
 * value becomes the difference from the last round's raw value, scaled by
 * enabled/running time when the file asks for scaling; the result replaces
 * the value (a counter without a new read in the next round is compared
 * with it)
 */
static __wraps void process_round(struct prism_stat_reads *r, struct slot *sl, size_t n)
{
	size_t i;

	if (r->aggr_mode == AGGR_GLOBAL || r->aggr_mode == AGGR_UNSET || r->aggr_mode > AGGR_NODE)
		return;
	for (i = 0; i < n; i++) {
		struct slot *v = &sl[i];
		uint64_t val = v->val, ena = v->ena, run = v->run;

		v->val = val - v->prev_val;
		v->ena = ena - v->prev_ena;
		v->run = run - v->prev_run;
		v->prev_val = val;
		v->prev_ena = ena;
		v->prev_run = run;
		if (!r->scale)
			continue;
		if (!v->run)
			v->val = 0;
		else if (v->run < v->ena)
			v->val = scaled(v->val, v->ena, v->run);
	}
}

static int round_end(struct prism_stat_reads *r, uint64_t time, prism_stat_read_cb cb, void *arg)
{
	struct slot *sl = slots(r);
	size_t e, t, c, i = 0;
	int ret;

	if (!sl)
		return 0;
	process_round(r, sl, r->nr_evsels * r->nr_pids * r->nr_cpus);
	for (e = 0; e < r->nr_evsels; e++) {
		for (t = 0; t < r->nr_pids; t++) {
			for (c = 0; c < r->nr_cpus; c++, i++) {
				struct prism_stat_read rd = {
					.evsel = prism_session__evsel(r->s, e),
					.cpu = r->cpus[c],
					.pid = r->pids[t],
					.val = sl[i].val,
					.ena = sl[i].ena,
					.run = sl[i].run,
					.time = time,
				};

				ret = cb(arg, &rd);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

int prism_stat_reads__event(struct prism_stat_reads *r, const struct prism_event *ev,
			    prism_stat_read_cb cb, void *arg)
{
	const uint8_t *b = (const uint8_t *)ev->raw + 8;
	size_t n = ev->raw->size > 8 ? ev->raw->size - 8u : 0;

	switch (ev->type) {
	case PRISM_RECORD_CPU_MAP:
		return read_cpu_map(r, b, n);
	case PRISM_RECORD_THREAD_MAP:
		return read_thread_map(r, b, n);
	case PRISM_RECORD_STAT:
		read_stat(r, b, n);
		return 0;
	case PRISM_RECORD_STAT_CONFIG:
		read_config(r, b, n);
		return 0;
	case PRISM_RECORD_STAT_ROUND:
		return n < 16 ? 0 : round_end(r, get_u64(b + 8), cb, arg);
	default:
		return 0;
	}
}
