// SPDX-License-Identifier: MIT
/*
 * The sample parser's fast path (fixed offsets worked out per event) must
 * decode exactly what the field-by-field parse decodes, and refuse the
 * same records, for every sample_type it takes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "session/evsel-internal.h"
#include "event/parse.h"
#include "event/sample-fast.h"

#include "test.h"

static const uint64_t fast_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP,	       PERF_SAMPLE_TID,	      PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR,	PERF_SAMPLE_ID,	       PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD,	PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW,
};

/* a sample of @st: fixed fields, a call chain of @nr entries, RAW of @raw bytes */
static size_t build(uint64_t st, uint8_t *buf, size_t nr, uint32_t raw)
{
	struct perf_event_header *h = (void *)buf;
	size_t pos = sizeof(*h), i, n;
	uint64_t v;

	for (i = 0; i < sizeof(fast_bits) / sizeof(fast_bits[0]); i++) {
		if (!(st & fast_bits[i]) || fast_bits[i] == PERF_SAMPLE_CALLCHAIN ||
		    fast_bits[i] == PERF_SAMPLE_RAW)
			continue;
		v = rnd();
		memcpy(buf + pos, &v, 8);
		pos += 8;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		v = nr;
		memcpy(buf + pos, &v, 8);
		pos += 8;
		for (i = 0; i < nr; i++, pos += 8) {
			v = rnd();
			memcpy(buf + pos, &v, 8);
		}
	}
	if (st & PERF_SAMPLE_RAW) {
		memcpy(buf + pos, &raw, 4);
		for (n = 0; n < raw; n++)
			buf[pos + 4 + n] = (uint8_t)rnd();
		pos += (4 + raw + 7) & ~(size_t)7;
	}
	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = (uint16_t)pos;
	return pos;
}

static void same_hot(const struct prism_sample *a, const struct prism_sample *b)
{
	TEST_EQ_U64(a->type, b->type);
	TEST_EQ_U64(a->id, b->id);
	TEST_EQ_U64(a->ip, b->ip);
	TEST_EQ(a->pid, b->pid);
	TEST_EQ(a->tid, b->tid);
	TEST_EQ_U64(a->time, b->time);
	TEST_EQ_U64(a->addr, b->addr);
	TEST_EQ_U64(a->stream_id, b->stream_id);
	TEST_EQ(a->cpu, b->cpu);
	TEST_EQ_U64(a->period, b->period);
	TEST_EQ_U64(a->callchain_nr, b->callchain_nr);
	TEST_TRUE(a->callchain == b->callchain);
	TEST_EQ(a->raw_size, b->raw_size);
	TEST_TRUE(a->raw_data == b->raw_data);
}

static void test_fast_equals_full_parse(void)
{
	static uint64_t buf[1024];
	struct prism_attr_ext a;
	int round, checked = 0, refused = 0;

	for (round = 0; round < 4000; round++) {
		struct prism_sample fast, full;
		struct prism_sample_basic basic, of;
		struct prism_evsel *e;
		uint64_t st = 0;
		size_t i, len, cut;
		int rf, rs, rb;

		for (i = 0; i < sizeof(fast_bits) / sizeof(fast_bits[0]); i++)
			if (rnd() & 1)
				st |= fast_bits[i];
		memset(&a, 0, sizeof(a));
		a.attr.sample_type = st;
		a.attr.freq = rnd() & 1;
		a.attr.sample_period = 4000 + (rnd() & 0xff);
		e = prism_evsel__new(&a, 0);
		TEST_TRUE(e && e->sample_fast);
		len = build(st, (uint8_t *)buf, rnd() % 8, (uint32_t)(rnd() % 40));
		/* sometimes a damaged record: shorter, or a call chain / RAW size too large */
		cut = len;
		if (round % 5 == 1)
			cut = 8 + rnd() % len;
		{
			uint16_t sz = (uint16_t)cut;

			memcpy((uint8_t *)buf + 6, &sz, 2); /* perf_event_header.size */
		}
		if (round % 7 == 3 && (st & PERF_SAMPLE_RAW))
			((uint8_t *)buf)[len - 8 - (rnd() % 4)] ^= 0x80;
		memset(&fast, 0xa5, sizeof(fast));
		memset(&full, 0x5a, sizeof(full));
		memset(&basic, 0x3c, sizeof(basic));
		rb = prism_sample__parse_basic(e, buf, &basic);
		rf = prism_sample__parse(e, buf, false, &fast);
		e->sample_fast = false;
		rs = prism_sample__parse(e, buf, false, &full);
		TEST_EQ(rf, rs);
		TEST_EQ(rb, rs);
		if (!rf) {
			same_hot(&fast, &full);
			/*
			 * the fields parse_basic promises, as a tool of basic
			 * samples gets them from a full parse
			 */
			memset(&of, 0x3c, sizeof(of));
			prism_sample__basic_of(&full, &of);
			TEST_EQ(basic.pid, of.pid);
			TEST_EQ(basic.tid, of.tid);
			TEST_EQ_U64(basic.time, of.time);
			TEST_EQ(basic.cpu, of.cpu);
			TEST_EQ_U64(basic.callchain_nr, of.callchain_nr);
			TEST_TRUE(basic.callchain == of.callchain);
			TEST_EQ(basic.raw_size, of.raw_size);
			TEST_TRUE(basic.raw_data == of.raw_data);
			/* and those are the full parse's */
			TEST_TRUE(of.pid == full.pid && of.tid == full.tid &&
				  of.time == full.time && of.cpu == full.cpu &&
				  of.raw_data == full.raw_data && of.callchain == full.callchain);
			checked++;
		} else {
			refused++;
		}
		prism_evsel__free(e);
	}
	TEST_TRUE(checked > 2000);
	TEST_TRUE(refused > 100);
}

static void test_other_bits_take_the_full_parse(void)
{
	struct prism_attr_ext a;
	struct prism_evsel *e;

	memset(&a, 0, sizeof(a));
	a.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ;
	e = prism_evsel__new(&a, 0);
	TEST_TRUE(e && !e->sample_fast);
	prism_evsel__free(e);
	a.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_WEIGHT;
	e = prism_evsel__new(&a, 0);
	TEST_TRUE(e && !e->sample_fast);
	prism_evsel__free(e);
}

TEST_MAIN(TEST(fast_equals_full_parse), TEST(other_bits_take_the_full_parse));
