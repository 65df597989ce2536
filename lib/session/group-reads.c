// SPDX-License-Identifier: MIT
/*
 * perf's leader sampling (perf record -e '{a,b}:S'): a sample whose
 * PERF_SAMPLE_READ holds its group's counts stands for one sample of each
 * event of the group whose count grew since its last read, the growth as
 * its period (perf's deliver_sample_group()).
 */
#include <prism/session.h>

#include "internal.h"

struct prism_group_reads {
	struct {
		uint64_t id, value;
	} * last;
	size_t nr, alloc;
};

struct prism_group_reads *prism_group_reads__new(void)
{
	return calloc(1, sizeof(struct prism_group_reads));
}

void prism_group_reads__free(struct prism_group_reads *g)
{
	if (!g)
		return;
	free(g->last);
	free(g);
}

/* the growth of the count of sample id @id; -ENOMEM as a count that did not grow */
static int delta(struct prism_group_reads *g, uint64_t id, uint64_t value, uint64_t *d)
{
	size_t i;

	for (i = 0; i < g->nr && g->last[i].id != id; i++)
		;
	if (i == g->nr) {
		if (prism_ensure_mem((void **)&g->last, &g->alloc, sizeof(*g->last), g->nr + 1))
			return -ENOMEM;
		g->last[g->nr].id = id;
		g->last[g->nr++].value = 0;
	}
	*d = value - g->last[i].value;
	g->last[i].value = value;
	return 0;
}

int prism_group_reads__split(struct prism_group_reads *g, struct prism_session *s,
			     const struct prism_event *ev,
			     int (*fn)(void *ctx, const struct prism_event *ev), void *ctx)
{
	const struct perf_event_attr *attr = ev->evsel ? prism_evsel__attr(ev->evsel) : NULL;
	const struct prism_sample *smp = &ev->sample;
	size_t entry, i;
	int err = 0;

	if (!attr || !(smp->type & PERF_SAMPLE_READ) || !(attr->read_format & PERF_FORMAT_GROUP) ||
	    !(attr->read_format & PERF_FORMAT_ID) || !smp->read.values_raw)
		return fn(ctx, ev);
	entry = 16 + (attr->read_format & PERF_FORMAT_LOST ? 8 : 0);
	for (i = 0; i < smp->read.nr && !err; i++) {
		const uint8_t *v = (const uint8_t *)smp->read.values_raw + i * entry;
		struct prism_event one = *ev;
		uint64_t value, id;

		memcpy(&value, v, 8);
		memcpy(&id, v + 8, 8);
		one.evsel = prism_session__evsel_by_id(s, id);
		err = delta(g, id, value, &one.sample.period);
		one.sample.type |= PERF_SAMPLE_PERIOD;
		if (!err && one.evsel && one.sample.period)
			err = fn(ctx, &one);
	}
	return err;
}
