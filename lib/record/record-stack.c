// SPDX-License-Identifier: MIT
/*
 * --call-graph dwarf samples written smaller: the kernel gives each sample
 * a user stack copy of the full size asked for (sample_stack_user, 8 KiB by
 * default), of which only the first dyn_size bytes hold stack; the rest is
 * padding.  The format keeps the copy's size in every sample (u64 size,
 * size bytes, u64 dyn_size), so the recorder writes the copy cut to
 * dyn_size rounded up to 8 bytes (and no copy at all when dyn_size is 0):
 * perf and prism read the same stack, and a context switch that blocks in
 * a shallow stack no longer costs 8 KiB of file.
 */
#include "record/record-internal.h"
#include "session/evsel-internal.h"
#include "event/parse.h"

/* the event of the sample at @rec (a record of the ring), or NULL */
static struct rec_event *event_of(struct prism_record *r, const uint8_t *rec)
{
	uint64_t id;
	size_t i, j;

	if (!r->ident)
		return r->nr_ev == 1 ? &r->ev[0] : NULL;
	memcpy(&id, rec + sizeof(struct perf_event_header), sizeof(id));
	for (i = 0; i < r->nr_ev; i++)
		for (j = 0; j < r->ev[i].nr_ids; j++)
			if (r->ev[i].ids[j] == id)
				return &r->ev[i];
	return NULL;
}

bool rec_stack_trimmable(const struct prism_record *r, const struct perf_event_header *h)
{
	size_t i;

	if (h->type != PERF_RECORD_SAMPLE)
		return false;
	for (i = 0; i < r->nr_ev; i++)
		if (r->ev[i].attr.sample_type & PERF_SAMPLE_STACK_USER)
			return true;
	return false;
}

size_t rec_stack_trim(struct prism_record *r, uint8_t *rec)
{
	struct perf_event_header *h = (struct perf_event_header *)rec;
	struct rec_event *ev = event_of(r, rec);
	struct prism_sample s;
	uint64_t keep;
	uint8_t *data, *after;
	size_t cut;

	if (!ev || !(ev->attr.sample_type & PERF_SAMPLE_STACK_USER))
		return h->size;
	if (!ev->evsel) {
		struct prism_attr_ext a = { .attr = ev->attr };

		ev->evsel = prism_evsel__new(&a, 0);
		if (!ev->evsel)
			return h->size;
	}
	memset(&s, 0, sizeof(s));
	if (prism_sample__parse(ev->evsel, rec, false, &s) || !s.user_stack_size ||
	    s.user_stack_dyn_size > s.user_stack_size)
		return h->size;
	keep = (s.user_stack_dyn_size + 7) & ~7ull;
	if (keep >= s.user_stack_size)
		return h->size;
	data = (uint8_t *)s.user_stack;
	after = data + s.user_stack_size + sizeof(uint64_t); /* past dyn_size */
	if (keep) {
		/* size, the kept data, dyn_size, then whatever followed */
		memcpy(data - sizeof(uint64_t), &keep, sizeof(keep));
		memcpy(data + keep, &s.user_stack_dyn_size, sizeof(uint64_t));
		cut = s.user_stack_size - keep;
		memmove(data + keep + sizeof(uint64_t), after, rec + h->size - after);
	} else {
		/* size 0: neither data nor dyn_size follow it */
		memset(data - sizeof(uint64_t), 0, sizeof(uint64_t));
		cut = s.user_stack_size + sizeof(uint64_t);
		memmove(data, after, rec + h->size - after);
	}
	h->size -= cut;
	return h->size;
}

void rec_stack_free(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_ev; i++) {
		prism_evsel__free(r->ev[i].evsel);
		r->ev[i].evsel = NULL;
	}
}
