/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the time-ordering unit tests (test-ordered.c: copied records,
 * test-ordered-runs.c: records read back from their files).
 */
#ifndef PRISM_TEST_ORDERED_H
#define PRISM_TEST_ORDERED_H

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "session/ordered.h"
#include "test.h"

struct got {
	uint64_t time;
	uint64_t file_offset;
	size_t size;
};

struct sink {
	struct got *v;
	size_t nr, cap;
	size_t fail_at; /* return fail_ret when delivering this index (if set) */
	int fail_ret;
	bool fail_armed;
	unsigned misaligned;
	unsigned corrupt;
	struct prism_ordered *reenter; /* queue to call back into, if set */
	int reenter_ret;
};

/* the payload of a test record is a function of its file offset */
static inline unsigned char pattern(uint64_t file_offset, size_t i)
{
	return (unsigned char)(file_offset * 131 + i * 7 + 1);
}

static inline void fill(unsigned char *buf, size_t size, uint64_t file_offset)
{
	size_t i;

	for (i = 0; i < size; i++)
		buf[i] = pattern(file_offset, i);
}

static inline int collect(void *ctx, const void *rec, size_t size, uint64_t time,
			  uint64_t file_offset)
{
	struct sink *s = ctx;
	const unsigned char *p = rec;
	size_t i;

	if ((uintptr_t)rec & 7)
		s->misaligned++;
	for (i = 0; i < size; i++) {
		if (p[i] != pattern(file_offset, i)) {
			s->corrupt++;
			break;
		}
	}
	if (s->reenter)
		s->reenter_ret = prism_ordered__queue(s->reenter, rec, size, time, file_offset);
	if (s->fail_armed && s->nr == s->fail_at) {
		s->fail_armed = false;
		return s->fail_ret;
	}
	if (prism_ensure_mem((void **)&s->v, &s->cap, sizeof(*s->v), s->nr + 1))
		return -ENOMEM;
	s->v[s->nr].time = time;
	s->v[s->nr].file_offset = file_offset;
	s->v[s->nr].size = size;
	s->nr++;
	return 0;
}

/* counts records (ctx[1]) and backward steps in time (ctx[2]) */
static inline int count_only(void *ctx, const void *rec, size_t size, uint64_t time,
			     uint64_t file_offset)
{
	uint64_t *last = ctx;

	if (time < last[0])
		last[2]++;
	last[0] = time;
	last[1]++;
	return 0;
}

/* queue a record of @size bytes whose payload is derived from @fo */
static inline int queue(struct prism_ordered *o, uint64_t time, uint64_t fo, size_t size)
{
	unsigned char buf[256];

	if (size > sizeof(buf))
		return -EINVAL;
	fill(buf, size, fo);
	return prism_ordered__queue(o, buf, size, time, fo);
}

static inline bool sorted_by_time(const struct sink *s)
{
	size_t i;

	for (i = 1; i < s->nr; i++)
		if (s->v[i - 1].time > s->v[i].time)
			return false;
	return true;
}

struct ref {
	uint64_t time;
	uint64_t seq;
	size_t size;
	uint64_t tag;
};

static inline int ref_cmp(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Random rounds in which every record is later than the max of the round
 * two before (perf's guarantee) must come out exactly as a stable sort.
 */

#endif /* PRISM_TEST_ORDERED_H */
