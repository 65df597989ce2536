/* SPDX-License-Identifier: MIT */
/*
 * Samples of the fast layout (evsel->sample_fast: fixed fields at offsets
 * worked out when the event was read, then the call chain and RAW), in
 * this machine's byte order.  Inline: they are decoded per sample.
 */
#ifndef PRISM_EVENT_SAMPLE_FAST_H
#define PRISM_EVENT_SAMPLE_FAST_H

#include "internal.h"
#include "session/evsel-internal.h"

/* the u64 at offset @at of a record, or 0 when the field is absent (@at 0) */
static inline uint64_t sample_at_u64(const uint8_t *rec, uint8_t at)
{
	return at ? get_u64(rec + at) : 0;
}

/* the call chain and RAW of a sample of the fast layout, from @pos on */
static inline int sample_fast_tail(uint64_t st, const uint8_t *rec, size_t size, size_t pos,
				   uint64_t *callchain_nr, const uint64_t **callchain,
				   uint32_t *raw_size, const void **raw_data)
{
	uint64_t v;

	*callchain_nr = 0;
	*callchain = NULL;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (size - pos < 8)
			return -PRISM_E_BAD_SAMPLE;
		v = get_u64(rec + pos);
		pos += 8;
		if (v > (size - pos) / 8)
			return -PRISM_E_BAD_SAMPLE;
		*callchain_nr = v;
		*callchain = (const uint64_t *)(const void *)(rec + pos);
		pos += v * 8;
	}
	*raw_size = 0;
	*raw_data = NULL;
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n;

		if (size - pos < 4)
			return -PRISM_E_BAD_SAMPLE;
		n = get_u32(rec + pos);
		if (n > size - pos - 4)
			return -PRISM_E_BAD_SAMPLE;
		*raw_size = n;
		*raw_data = rec + pos + 4;
	}
	return 0;
}

/*
 * prism_sample__parse_basic - the basic fields of a sample of the fast
 * layout (b->evsel and b->file_offset are the caller's)
 *
 * Return: 0, or -PRISM_E_BAD_SAMPLE.
 */
static inline int prism_sample__parse_basic(const struct prism_evsel *evsel, const void *rec,
					    struct prism_sample_basic *b)
{
	const uint8_t *p = rec;
	size_t size = ((const struct perf_event_header *)rec)->size;
	uint64_t v;

	if (size < evsel->at_end)
		return -PRISM_E_BAD_SAMPLE;
	v = sample_at_u64(p, evsel->at_tid);
	b->pid = (uint32_t)v;
	b->tid = (uint32_t)(v >> 32);
	b->time = sample_at_u64(p, evsel->at_time);
	b->cpu = evsel->at_cpu ? get_u32(p + evsel->at_cpu) : (uint32_t)-1;
	return sample_fast_tail(evsel->a.attr.sample_type, p, size, evsel->at_end, &b->callchain_nr,
				&b->callchain, &b->raw_size, &b->raw_data);
}

#endif /* PRISM_EVENT_SAMPLE_FAST_H */
