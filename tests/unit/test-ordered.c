// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "ordered.h"
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
static unsigned char pattern(uint64_t file_offset, size_t i)
{
	return (unsigned char)(file_offset * 131 + i * 7 + 1);
}

static void fill(unsigned char *buf, size_t size, uint64_t file_offset)
{
	size_t i;

	for (i = 0; i < size; i++)
		buf[i] = pattern(file_offset, i);
}

static int collect(void *ctx, const void *rec, size_t size, uint64_t time, uint64_t file_offset)
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
static int count_only(void *ctx, const void *rec, size_t size, uint64_t time, uint64_t file_offset)
{
	uint64_t *last = ctx;

	if (time < last[0])
		last[2]++;
	last[0] = time;
	last[1]++;
	return 0;
}

/* queue a record of @size bytes whose payload is derived from @fo */
static int queue(struct prism_ordered *o, uint64_t time, uint64_t fo, size_t size)
{
	unsigned char buf[256];

	if (size > sizeof(buf))
		return -EINVAL;
	fill(buf, size, fo);
	return prism_ordered__queue(o, buf, size, time, fo);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static bool sorted_by_time(const struct sink *s)
{
	size_t i;

	for (i = 1; i < s->nr; i++)
		if (s->v[i - 1].time > s->v[i].time)
			return false;
	return true;
}

static void test_new_and_free(void)
{
	struct prism_ordered *o;
	struct sink s = { 0 };

	errno = 0;
	TEST_TRUE(prism_ordered__new(0, NULL, NULL) == NULL);
	TEST_EQ(errno, EINVAL);
	prism_ordered__free(NULL);

	/* undelivered records are dropped by free */
	o = prism_ordered__new(0, collect, &s);
	TEST_TRUE(o != NULL);
	TEST_EQ(queue(o, 5, 1, 16), 0);
	TEST_EQ(prism_ordered__queue(NULL, "", 0, 1, 0), -EINVAL);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
	TEST_EQ(prism_ordered__peak_bytes(o), 16 + PRISM_ORDERED_REC_OVERHEAD);
	prism_ordered__free(o);
	TEST_EQ(s.nr, 0);
}

/* two CPUs, each sorted, drained in turn: global order comes out */
static void test_interleaved_streams(void)
{
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	uint64_t t = 1000, fo = 0;
	size_t round, i, n = 0;

	TEST_TRUE(o != NULL);
	for (round = 0; round < 50; round++) {
		uint64_t cpu0[40], cpu1[40];
		size_t n0 = 0, n1 = 0;

		/* time advances; each tick belongs to one CPU */
		for (i = 0; i < 60; i++) {
			t += 1 + rnd() % 5;
			if (rnd() & 1)
				cpu0[n0++ % 40] = t;
			else
				cpu1[n1++ % 40] = t;
			if (n0 == 40 || n1 == 40)
				break;
		}
		for (i = 0; i < n0; i++, n++, fo++)
			TEST_EQ(queue(o, cpu0[i], fo, 24 + (fo % 5) * 8), 0);
		for (i = 0; i < n1; i++, n++, fo++)
			TEST_EQ(queue(o, cpu1[i], fo, 32), 0);
		TEST_EQ(prism_ordered__finished_round(o), 0);
		TEST_TRUE(sorted_by_time(&s));
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, n);
	TEST_TRUE(sorted_by_time(&s));
	TEST_EQ(s.misaligned, 0);
	TEST_EQ(s.corrupt, 0);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	prism_ordered__free(o);
	free(s.v);
}

/* round n delivers only what is at or below the max queued before round n - 1 */
static void test_two_round_rule(void)
{
	static const uint64_t want1[] = { 10, 15, 18, 20 };
	static const uint64_t want2[] = { 10, 15, 18, 20, 25, 28, 30 };
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	size_t i;

	TEST_TRUE(o != NULL);
	TEST_EQ(queue(o, 10, 1, 8), 0);
	TEST_EQ(queue(o, 20, 2, 8), 0);
	TEST_EQ(queue(o, 15, 3, 8), 0);
	/* the first round has no previous one: nothing goes out */
	TEST_EQ(prism_ordered__finished_round(o), 0);
	TEST_EQ(s.nr, 0);

	TEST_EQ(queue(o, 30, 4, 8), 0);
	TEST_EQ(queue(o, 18, 5, 8), 0);
	TEST_EQ(queue(o, 25, 6, 8), 0);
	TEST_EQ(prism_ordered__finished_round(o), 0);
	TEST_EQ(s.nr, PRISM_ARRAY_SIZE(want1));
	for (i = 0; i < s.nr; i++)
		TEST_EQ(s.v[i].time, want1[i]);

	/* 25 and 30 were held; 28 arrives in time */
	TEST_EQ(queue(o, 40, 7, 8), 0);
	TEST_EQ(queue(o, 28, 8, 8), 0);
	TEST_EQ(prism_ordered__finished_round(o), 0);
	TEST_EQ(s.nr, PRISM_ARRAY_SIZE(want2));
	for (i = 0; i < s.nr; i++)
		TEST_EQ(s.v[i].time, want2[i]);

	/* the limit is now 40: an empty round lets it out */
	TEST_EQ(prism_ordered__finished_round(o), 0);
	TEST_EQ(s.nr, PRISM_ARRAY_SIZE(want2) + 1);
	TEST_EQ(s.v[s.nr - 1].time, 40);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, PRISM_ARRAY_SIZE(want2) + 1);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	prism_ordered__free(o);
	free(s.v);
}

/* equal times come out in arrival order, also across held-back rounds */
static void test_stable_ties(void)
{
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	uint64_t fo = 0;
	size_t i, r;

	TEST_TRUE(o != NULL);
	for (r = 0; r < 6; r++) {
		/*
		 * Round r: two CPU runs at 10r + 10 and 10r.  Round r + 1 repeats
		 * 10r + 10, so ties also meet across a held-back round.
		 */
		for (i = 0; i < 50; i++, fo++)
			TEST_EQ(queue(o, 10 * r + 10, fo, 8), 0);
		for (i = 0; i < 50; i++, fo++)
			TEST_EQ(queue(o, 10 * r, fo, 8), 0);
		TEST_EQ(prism_ordered__finished_round(o), 0);
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, fo);
	TEST_TRUE(sorted_by_time(&s));
	for (i = 1; i < s.nr; i++)
		if (s.v[i - 1].time == s.v[i].time)
			TEST_TRUE(s.v[i - 1].file_offset < s.v[i].file_offset);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	prism_ordered__free(o);
	free(s.v);
}

static void test_flush_all(void)
{
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	size_t i;

	TEST_TRUE(o != NULL);
	for (i = 0; i < 5000; i++)
		TEST_EQ(queue(o, 1 + rnd() % 1000, i, 8 + (i % 13) * 8), 0);
	TEST_EQ(s.nr, 0);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 5000);
	TEST_TRUE(sorted_by_time(&s));
	TEST_EQ(s.corrupt, 0);
	/* the queue stays usable */
	TEST_EQ(queue(o, 2000, 9999, 8), 0);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 5001);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 5001);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
	prism_ordered__free(o);
	free(s.v);
}

/* a tiny limit forces early flushes; a late old record still comes out */
static void test_early_flush_out_of_order(void)
{
	size_t cost = 64 + PRISM_ORDERED_REC_OVERHEAD;
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(10 * cost, collect, &s);
	size_t i, before;

	TEST_TRUE(o != NULL);
	for (i = 0; i < 10; i++)
		TEST_EQ(queue(o, 100 + i, i, 64), 0);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
	TEST_EQ(s.nr, 0);
	/* the 11th record does not fit: the older half goes */
	TEST_EQ(queue(o, 110, 10, 64), 0);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 1);
	TEST_EQ(s.nr, 5);
	TEST_EQ(s.v[4].time, 104);
	TEST_TRUE(prism_ordered__peak_bytes(o) <= 10 * cost);

	/* older than the last delivered time: delivered at once, counted */
	before = s.nr;
	TEST_EQ(queue(o, 50, 11, 64), 0);
	TEST_EQ(s.nr, before + 1);
	TEST_EQ(s.v[before].time, 50);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 1);
	/* equal to the last delivered time is not out of order */
	TEST_EQ(queue(o, 104, 12, 64), 0);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 1);

	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 13);
	TEST_EQ(s.v[6].time, 104);
	TEST_EQ(s.v[6].file_offset, 12);
	TEST_EQ(s.v[12].time, 110);
	TEST_EQ(s.corrupt, 0);
	TEST_EQ(s.misaligned, 0);
	prism_ordered__free(o);
	free(s.v);
}

/* a stream without rounds under a small limit: nothing lost, nothing twice */
static void test_no_rounds_bounded(void)
{
	size_t cost = 48 + PRISM_ORDERED_REC_OVERHEAD, n = 200000, i;
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(1000 * cost, collect, &s);
	uint64_t t0 = 0, t1 = 0, last = 0, ooo = 0;
	unsigned char *seen;

	TEST_TRUE(o != NULL);
	for (i = 0; i < n; i++) {
		/* two CPUs drained in bursts of up to 300, with some jitter */
		uint64_t *t = (i / 300) & 1 ? &t1 : &t0;

		*t += 1 + rnd() % 4;
		TEST_EQ(queue(o, *t, i, 48), 0);
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, n);
	TEST_TRUE(prism_ordered__nr_early_flushes(o) > 0);
	TEST_TRUE(prism_ordered__peak_bytes(o) <= 1000 * cost);
	seen = calloc(n, 1);
	TEST_TRUE(seen != NULL);
	for (i = 0; i < n; i++) {
		TEST_TRUE(s.v[i].file_offset < n && !seen[s.v[i].file_offset]);
		seen[s.v[i].file_offset] = 1;
		if (s.v[i].time < last)
			ooo++;
		else
			last = s.v[i].time;
	}
	free(seen);
	/* every record delivered behind a later one was counted */
	TEST_EQ(ooo, prism_ordered__nr_out_of_order(o));
	TEST_EQ(s.corrupt, 0);
	prism_ordered__free(o);
	free(s.v);
}

static void test_callback_error(void)
{
	struct sink s = { .fail_at = 2, .fail_ret = -42, .fail_armed = true };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	size_t i;

	TEST_TRUE(o != NULL);
	for (i = 0; i < 6; i++)
		TEST_EQ(queue(o, 60 - i * 10, i, 8), 0);
	TEST_EQ(prism_ordered__flush_all(o), -42);
	/* 10 and 20 went out, 30 was handed over and failed */
	TEST_EQ(s.nr, 2);
	/* the rest stays queued and goes out next time, once */
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 5);
	TEST_EQ(s.v[1].time, 20);
	TEST_EQ(s.v[2].time, 40);
	TEST_EQ(s.v[4].time, 60);

	/* positive values come back as they are too, from finished_round */
	s.fail_at = s.nr + 1;
	s.fail_ret = 7;
	s.fail_armed = true;
	for (i = 0; i < 4; i++)
		TEST_EQ(queue(o, 100 + i, 10 + i, 8), 0);
	TEST_EQ(prism_ordered__finished_round(o), 0);
	TEST_EQ(prism_ordered__finished_round(o), 7);
	TEST_EQ(s.nr, 6);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 8);
	TEST_EQ(s.v[7].time, 103);

	/* calling back into the queue from the callback is refused */
	s.reenter = o;
	TEST_EQ(queue(o, 200, 20, 8), 0);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.reenter_ret, -EBUSY);
	TEST_EQ(s.nr, 9);
	prism_ordered__free(o);
	free(s.v);
}

/* copies are 8-byte aligned whatever the source alignment and size */
static void test_alignment(void)
{
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	unsigned char *buf = malloc(4096 + 8);
	size_t i;

	TEST_TRUE(o != NULL && buf != NULL);
	for (i = 0; i < 64; i++) {
		size_t size = (i * 37) % 200, off = 1 + i % 7;

		fill(buf + off, size, i);
		TEST_EQ(prism_ordered__queue(o, buf + off, size, 1000 - i, i), 0);
		if (i == 40) {
			/* out-of-order deliveries from an odd address too */
			TEST_EQ(prism_ordered__flush_all(o), 0);
		}
	}
	fill(buf + 3, 13, 77);
	TEST_EQ(prism_ordered__queue(o, buf + 3, 13, 1, 77), 0);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 65);
	TEST_TRUE(prism_ordered__nr_out_of_order(o) > 0);
	TEST_EQ(s.misaligned, 0);
	TEST_EQ(s.corrupt, 0);
	for (i = 0; i < s.nr; i++)
		if (s.v[i].file_offset != 77)
			TEST_EQ(s.v[i].size, (s.v[i].file_offset * 37) % 200);
	prism_ordered__free(o);
	free(buf);
	free(s.v);
}

/* records of 64 KiB and more, up to larger than an arena chunk */
static void test_big_records(void)
{
	static const size_t sizes[] = { 65536 + 8, 300000, 3 << 20, 65535, (1 << 20) - 5 };
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	unsigned char *buf = malloc((3 << 20) + 1);
	uint64_t fo = 0;
	size_t r, i;

	TEST_TRUE(o != NULL && buf != NULL);
	for (r = 0; r < 6; r++) {
		for (i = 0; i < PRISM_ARRAY_SIZE(sizes); i++) {
			size_t size = sizes[(i + r) % PRISM_ARRAY_SIZE(sizes)];

			fill(buf + 1, size, fo);
			TEST_EQ(prism_ordered__queue(o, buf + 1, size, 100 * r + 50 - i, fo), 0);
			fo++;
			TEST_EQ(queue(o, 100 * r + i, fo++, 40), 0);
		}
		TEST_EQ(prism_ordered__finished_round(o), 0);
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, fo);
	TEST_TRUE(sorted_by_time(&s));
	TEST_EQ(s.corrupt, 0);
	TEST_EQ(s.misaligned, 0);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	prism_ordered__free(o);
	free(buf);
	free(s.v);
}

/* a callback error while both held-back and new records remain */
static void test_error_with_leftover(void)
{
	size_t cost = 8 + PRISM_ORDERED_REC_OVERHEAD, i;
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(2000 * cost, collect, &s);

	TEST_TRUE(o != NULL);
	/* 2000 records fill the queue; the next one flushes half early */
	for (i = 0; i < 2000; i++)
		TEST_EQ(queue(o, 1000 + i, i, 8), 0);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
	/* two short CPU runs inside the range of the held-back half */
	for (i = 0; i < 32; i++)
		TEST_EQ(queue(o, 2500 + 2 * i, 3000 + i, 8), 0);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 1);
	TEST_EQ(s.nr, 1000);
	for (i = 0; i < 32; i++)
		TEST_EQ(queue(o, 2501 + 2 * i, 4000 + i, 8), 0);
	s.fail_at = 1000 + 4;
	s.fail_ret = -EIO;
	s.fail_armed = true;
	TEST_EQ(prism_ordered__flush_all(o), -EIO);
	TEST_EQ(s.nr, 1000 + 4);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(s.nr, 2000 + 64 - 1);
	TEST_TRUE(sorted_by_time(&s));
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	TEST_EQ(s.corrupt, 0);
	prism_ordered__free(o);
	free(s.v);
}

static size_t rss_kib(void)
{
	unsigned long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &pages, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (size_t)(sysconf(_SC_PAGESIZE) / 1024);
}

/* the arena is recycled: resident memory does not follow the stream */
static void test_arena_recycled(void)
{
	uint64_t st[3] = { 0 }, t = 0;
	struct prism_ordered *o = prism_ordered__new(0, count_only, st);
	unsigned char rec[64] = { 0 };
	size_t r, i, before, after;

	TEST_TRUE(o != NULL);
	before = rss_kib();
	/* 2 M records, 128 MiB of copies, in rounds of 2000 */
	for (r = 0; r < 1000; r++) {
		for (i = 0; i < 2000; i++)
			TEST_EQ(prism_ordered__queue(o, rec, 64, t + (i & 1) * 1000 + i / 2, i), 0);
		t += 2000;
		TEST_EQ(prism_ordered__finished_round(o), 0);
	}
	after = rss_kib();
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(st[1], 2000000);
	TEST_EQ(st[2], 0);
	prism_ordered__free(o);
	if (!before || !after)
		TEST_SKIP("no /proc/self/statm");
	TEST_TRUE(after < before + 32 * 1024);
}

/* memory follows a couple of rounds, not the stream */
static void test_peak_bounded(void)
{
	uint64_t st[3] = { 0 }, t = 0, t0, t1;
	struct prism_ordered *o = prism_ordered__new(0, count_only, st);
	size_t round_bytes = 1000 * (64 + PRISM_ORDERED_REC_OVERHEAD), r, i;
	unsigned char rec[64] = { 0 };

	TEST_TRUE(o != NULL);
	for (r = 0; r < 1000; r++) {
		/* 500 records per CPU over the same time window */
		t0 = t1 = t;
		for (i = 0; i < 500; i++)
			TEST_EQ(prism_ordered__queue(o, rec, 64, t0 += 2, i), 0);
		for (i = 0; i < 500; i++)
			TEST_EQ(prism_ordered__queue(o, rec, 64, t1 += 1 + (i & 2), i), 0);
		t = t0 > t1 ? t0 : t1;
		TEST_EQ(prism_ordered__finished_round(o), 0);
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(st[1], 1000000);
	TEST_EQ(st[2], 0);
	TEST_TRUE(prism_ordered__peak_bytes(o) <= 2 * round_bytes);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
	prism_ordered__free(o);
}

struct ref {
	uint64_t time;
	uint64_t seq;
	size_t size;
	uint64_t tag;
};

static int ref_cmp(const void *a, const void *b)
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
static void test_random_vs_reference(void)
{
	size_t iter;

	for (iter = 0; iter < 40; iter++) {
		struct sink s = { 0 };
		struct prism_ordered *o = prism_ordered__new(SIZE_MAX, collect, &s);
		size_t nr_rounds = 1 + rnd() % 60, cap = 0, n = 0, r, i;
		uint64_t max_prev2 = 0, max_prev = 0, max_all = 0;
		uint64_t spread = 1 + rnd() % 1000;
		struct ref *ref = NULL;

		TEST_TRUE(o != NULL);
		for (r = 0; r < nr_rounds; r++) {
			size_t m = rnd() % 700, runs = 1 + rnd() % 5;
			uint64_t base = max_prev2 + 1;

			for (i = 0; i < m; i++) {
				uint64_t t;
				size_t size = 8 * (rnd() % 16);

				/* mostly sorted runs (CPUs), sometimes fully random */
				if (iter % 4 == 3)
					t = base + rnd() % (2 * spread);
				else
					t = base + (i * runs % m) * spread / (m ? m : 1) +
					    rnd() % 3;
				TEST_EQ(prism_ensure_mem((void **)&ref, &cap, sizeof(*ref), n + 1),
					0);
				ref[n].time = t;
				ref[n].seq = n;
				ref[n].size = size;
				TEST_EQ(queue(o, t, n, size), 0);
				n++;
				if (t > max_all)
					max_all = t;
			}
			if (rnd() % 8)
				TEST_EQ(prism_ordered__finished_round(o), 0);
			else
				continue; /* a missing round: the window stays */
			max_prev2 = max_prev;
			max_prev = max_all;
		}
		TEST_EQ(prism_ordered__flush_all(o), 0);
		if (n)
			qsort(ref, n, sizeof(*ref), ref_cmp);
		TEST_EQ(s.nr, n);
		for (i = 0; i < n; i++) {
			TEST_EQ_U64(s.v[i].time, ref[i].time);
			TEST_EQ_U64(s.v[i].file_offset, ref[i].seq);
			TEST_EQ(s.v[i].size, ref[i].size);
		}
		TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
		TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
		TEST_EQ(s.corrupt, 0);
		prism_ordered__free(o);
		free(ref);
		free(s.v);
	}
}

/*
 * Runs: records queued by reference stay in fake files (up to 3) and are
 * read back by the queue.  A record is: perf_event_header, time, tag
 * (file << 56 | offset), then a pattern derived from the tag.
 */
#define NR_FFILES 3
#define TAG_OFF_MASK ((1ull << 56) - 1)

struct rsink {
	uint8_t *b[NR_FFILES];
	size_t len[NR_FFILES], cap[NR_FFILES];
	struct got *v; /* file_offset = the record's tag */
	size_t nr, cap_v;
	unsigned corrupt, misaligned, reads;
	int read_err; /* returned by reads while set */
	size_t fail_at;
	int fail_ret;
	bool fail_armed;
};

static uint64_t put_rec(struct rsink *rs, unsigned f, uint64_t time, size_t size, uint32_t type)
{
	uint64_t off = rs->len[f], tag = (uint64_t)f << 56 | off;
	uint16_t sz = (uint16_t)size, misc = 0;
	uint8_t *p;
	size_t i;

	if (prism_ensure_mem((void **)&rs->b[f], &rs->cap[f], 1, rs->len[f] + size))
		abort();
	p = rs->b[f] + off;
	memcpy(p, &type, 4);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &sz, 2);
	if (size >= 16)
		memcpy(p + 8, &time, 8);
	if (size >= 24)
		memcpy(p + 16, &tag, 8);
	for (i = 24; i < size; i++)
		p[i] = pattern(tag, i);
	rs->len[f] += size;
	return off;
}

static int rs_read(void *ctx, uint32_t file, void *buf, size_t len, uint64_t off)
{
	struct rsink *rs = ctx;

	if (rs->read_err)
		return rs->read_err;
	if (file >= NR_FFILES || off > rs->len[file] || len > rs->len[file] - off)
		return -PRISM_E_TRUNCATED;
	memcpy(buf, rs->b[file] + off, len);
	rs->reads++;
	return 0;
}

static uint64_t rs_time(void *ctx, const void *rec, size_t size)
{
	(void)ctx;
	return size >= 16 ? get_u64((const uint8_t *)rec + 8) : 0;
}

static int rs_collect(void *ctx, const void *rec, size_t size, uint64_t time, uint64_t file_offset)
{
	struct rsink *rs = ctx;
	const uint8_t *p = rec;
	uint64_t tag;
	size_t i;

	if ((uintptr_t)rec & 7)
		rs->misaligned++;
	tag = get_u64(p + 16);
	if (size < 24 || get_u16(p + 6) != size || get_u64(p + 8) != time ||
	    (tag & TAG_OFF_MASK) != file_offset) {
		rs->corrupt++;
	} else {
		for (i = 24; i < size; i++) {
			if (p[i] != pattern(tag, i)) {
				rs->corrupt++;
				break;
			}
		}
	}
	if (rs->fail_armed && rs->nr == rs->fail_at) {
		rs->fail_armed = false;
		return rs->fail_ret;
	}
	if (prism_ensure_mem((void **)&rs->v, &rs->cap_v, sizeof(*rs->v), rs->nr + 1))
		return -ENOMEM;
	rs->v[rs->nr].time = time;
	rs->v[rs->nr].file_offset = tag;
	rs->v[rs->nr].size = size;
	rs->nr++;
	return 0;
}

static struct prism_ordered *rs_new(struct rsink *rs, size_t limit)
{
	struct prism_ordered *o = prism_ordered__new(limit, rs_collect, rs);

	if (o)
		prism_ordered__set_reader(o, rs_read, rs_time);
	return o;
}

static void rs_free(struct rsink *rs)
{
	unsigned f;

	for (f = 0; f < NR_FFILES; f++)
		free(rs->b[f]);
	free(rs->v);
}

/* write a record to file @f and queue it, by reference or as a copy */
static int rs_queue(struct prism_ordered *o, struct rsink *rs, unsigned f, uint64_t time,
		    size_t size, bool copy, struct ref *ref)
{
	uint64_t off = put_rec(rs, f, time, size, 9);

	if (ref) {
		ref->time = time;
		ref->size = size;
		ref->tag = (uint64_t)f << 56 | off;
	}
	if (copy)
		return prism_ordered__queue(o, rs->b[f] + off, size, time, off);
	return prism_ordered__queue_ref(o, rs->b[f] + off, size, time, f, off);
}

/* a record the caller does not queue (FINISHED_ROUND, a record without time) */
static void rs_gap(struct rsink *rs, unsigned f)
{
	put_rec(rs, f, 0, 8, 68);
}

static void test_runs_api(void)
{
	struct rsink rs = { 0 };
	struct sink s = { 0 };
	struct prism_ordered *o = prism_ordered__new(0, collect, &s);
	uint64_t off;

	TEST_TRUE(o != NULL);
	off = put_rec(&rs, 0, 5, 32, 9);
	/* no reader set */
	TEST_EQ(prism_ordered__queue_ref(o, rs.b[0] + off, 32, 5, 0, off), -EINVAL);
	prism_ordered__free(o);

	o = rs_new(&rs, 0);
	TEST_TRUE(o != NULL);
	TEST_EQ(prism_ordered__queue_ref(NULL, rs.b[0] + off, 32, 5, 0, off), -EINVAL);
	TEST_EQ(prism_ordered__queue_ref(o, rs.b[0] + off, 4, 5, 0, off), -EINVAL);
	TEST_EQ(prism_ordered__queue_ref(o, rs.b[0] + off, 65536, 5, 0, off), -EINVAL);
	TEST_EQ(prism_ordered__queue_ref(o, rs.b[0] + off, 32, 5, 0, off), 0);
	/* nothing is read before delivery; free drops it */
	TEST_EQ(rs.reads, 0);
	prism_ordered__free(o);
	TEST_EQ(rs.nr, 0);
	rs_free(&rs);
}

/*
 * Two CPUs drained in turn per round, FINISHED_ROUND between rounds, CPU 1
 * lagging half a round: perf's rule holds, every flush delivers exactly the
 * records up to the previous round's max, tails carry over, the result is
 * a stable sort, and the queue's memory does not follow the round size.
 */
static void test_runs_rounds(void)
{
	struct rsink rs = { 0 };
	struct prism_ordered *o = rs_new(&rs, 0);
	struct ref *ref = NULL;
	size_t n = 0, cap = 0, r, c, i, nr_rounds = 40, round_bytes = 0;
	uint64_t max_all = 0, limit = 0;
	bool have_limit = false;

	TEST_TRUE(o != NULL);
	for (r = 0; r < nr_rounds; r++) {
		size_t bytes = 0;

		for (c = 0; c < 2; c++) {
			size_t m = 1 + rnd() % 400;
			uint64_t t = 1000 * (r + 1) - 500 * c;

			for (i = 0; i < m; i++) {
				size_t size = 24 + 8 * (rnd() % 60);

				t += rnd() % 3; /* equal times within and across CPUs */
				TEST_EQ(prism_ensure_mem((void **)&ref, &cap, sizeof(*ref), n + 1),
					0);
				ref[n].seq = n;
				TEST_EQ(rs_queue(o, &rs, 0, t, size, false, &ref[n]), 0);
				n++;
				bytes += size;
				if (t > max_all)
					max_all = t;
			}
		}
		rs_gap(&rs, 0);
		if (bytes > round_bytes)
			round_bytes = bytes;
		TEST_EQ(prism_ordered__finished_round(o), 0);
		if (have_limit) {
			size_t want = 0;

			for (i = 0; i < n; i++)
				want += ref[i].time <= limit;
			TEST_EQ(rs.nr, want);
		} else {
			TEST_EQ(rs.nr, 0);
		}
		limit = max_all;
		have_limit = true;
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	qsort(ref, n, sizeof(*ref), ref_cmp);
	TEST_EQ(rs.nr, n);
	for (i = 0; i < n && i < rs.nr; i++) {
		TEST_EQ_U64(rs.v[i].time, ref[i].time);
		TEST_EQ_U64(rs.v[i].file_offset, ref[i].tag);
	}
	TEST_EQ(rs.corrupt, 0);
	TEST_EQ(rs.misaligned, 0);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
	TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
	/* a few runs of bookkeeping, not the rounds' bytes */
	TEST_TRUE(round_bytes > 50000);
	TEST_TRUE(prism_ordered__peak_bytes(o) < 6 * (4096 + 256));
	prism_ordered__free(o);
	free(ref);
	rs_free(&rs);
}

/*
 * Random rounds (perf's guarantee held), records queued by reference in
 * three files (a directory's streams) or copied (compressed data), runs
 * broken by unqueued records: the result is exactly a stable sort.
 */
static void test_runs_mixed_random(void)
{
	size_t iter;

	for (iter = 0; iter < 40; iter++) {
		struct rsink rs = { 0 };
		struct prism_ordered *o = rs_new(&rs, SIZE_MAX);
		size_t nr_rounds = 1 + rnd() % 40, cap = 0, n = 0, r, i;
		uint64_t max_prev2 = 0, max_prev = 0, max_all = 0;
		uint64_t spread = 1 + rnd() % 1000;
		unsigned f = 0;
		struct ref *ref = NULL;

		TEST_TRUE(o != NULL);
		for (r = 0; r < nr_rounds; r++) {
			size_t m = rnd() % 500, runs = 1 + rnd() % 5;
			uint64_t base = max_prev2 + 1;

			for (i = 0; i < m; i++) {
				size_t size = 24 + 4 * (rnd() % 40); /* not all 8-aligned */
				bool copy = iter % 5 == 4 ? rnd() % 2 : !(rnd() % 16);
				uint64_t t;

				if (iter % 4 == 3)
					t = base + rnd() % (2 * spread);
				else
					t = base + (i * runs % m) * spread / m + rnd() % 3;
				if (!(rnd() % 64))
					f = (unsigned)(rnd() % NR_FFILES);
				if (!(rnd() % 32))
					rs_gap(&rs, f);
				TEST_EQ(prism_ensure_mem((void **)&ref, &cap, sizeof(*ref), n + 1),
					0);
				ref[n].seq = n;
				TEST_EQ(rs_queue(o, &rs, f, t, size, copy, &ref[n]), 0);
				n++;
				if (t > max_all)
					max_all = t;
			}
			rs_gap(&rs, f);
			if (!(rnd() % 8))
				continue; /* a missing round */
			TEST_EQ(prism_ordered__finished_round(o), 0);
			max_prev2 = max_prev;
			max_prev = max_all;
		}
		TEST_EQ(prism_ordered__flush_all(o), 0);
		if (n)
			qsort(ref, n, sizeof(*ref), ref_cmp);
		TEST_EQ(rs.nr, n);
		for (i = 0; i < n && i < rs.nr; i++) {
			TEST_EQ_U64(rs.v[i].time, ref[i].time);
			TEST_EQ_U64(rs.v[i].file_offset, ref[i].tag);
			TEST_EQ(rs.v[i].size, ref[i].size);
		}
		TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
		TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
		TEST_EQ(rs.corrupt, 0);
		TEST_EQ(rs.misaligned, 0);
		prism_ordered__free(o);
		free(ref);
		rs_free(&rs);
	}
}

/* equal times: arrival order across runs, copies and held-back tails */
static void test_runs_equal_times(void)
{
	struct rsink rs = { 0 };
	struct prism_ordered *o = rs_new(&rs, 0);
	struct ref ref[8];
	size_t i;

	TEST_TRUE(o != NULL);
	TEST_EQ(rs_queue(o, &rs, 0, 5, 32, false, &ref[0]), 0); /* run 1 */
	TEST_EQ(rs_queue(o, &rs, 0, 7, 32, false, &ref[1]), 0);
	TEST_EQ(rs_queue(o, &rs, 1, 5, 40, true, &ref[2]), 0); /* copy */
	TEST_EQ(rs_queue(o, &rs, 1, 5, 48, false, &ref[3]), 0); /* run 2, other file */
	TEST_EQ(rs_queue(o, &rs, 1, 3, 24, true, &ref[4]), 0);
	rs_gap(&rs, 0);
	TEST_EQ(rs_queue(o, &rs, 0, 5, 56, false, &ref[5]), 0); /* run 3 */
	TEST_EQ(rs_queue(o, &rs, 0, 7, 64, false, &ref[6]), 0);
	TEST_EQ(prism_ordered__finished_round(o), 0);
	TEST_EQ(rs.nr, 0);
	TEST_EQ(rs_queue(o, &rs, 0, 7, 72, true, &ref[7]), 0);
	TEST_EQ(prism_ordered__finished_round(o), 0); /* limit 7: everything */
	TEST_EQ(rs.nr, 8);
	{
		static const size_t want[] = { 4, 0, 2, 3, 5, 1, 6, 7 };

		for (i = 0; i < rs.nr && i < 8; i++)
			TEST_EQ_U64(rs.v[i].file_offset, ref[want[i]].tag);
	}
	TEST_EQ(rs.corrupt, 0);
	prism_ordered__free(o);
	rs_free(&rs);
}

/*
 * A tiny memory limit: every new run forces an early flush; a record older
 * than the last delivered one is delivered at once and counted; nothing is
 * lost or duplicated.
 */
static void test_runs_early_flush(void)
{
	struct rsink rs = { 0 };
	struct prism_ordered *o = rs_new(&rs, 1);
	struct ref ref[4];
	size_t i, n = 0;

	TEST_TRUE(o != NULL);
	TEST_EQ(rs_queue(o, &rs, 0, 10, 32, false, &ref[0]), 0);
	rs_gap(&rs, 0);
	TEST_EQ(rs_queue(o, &rs, 0, 20, 32, false, &ref[1]), 0); /* flushes 10 */
	TEST_EQ(rs.nr, 1);
	rs_gap(&rs, 0);
	TEST_EQ(rs_queue(o, &rs, 0, 15, 32, false, &ref[2]), 0); /* flushes 20; 15 is late */
	TEST_EQ(rs.nr, 3);
	TEST_EQ(prism_ordered__nr_out_of_order(o), 1);
	TEST_EQ(rs_queue(o, &rs, 0, 30, 32, false, &ref[3]), 0);
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(rs.nr, 4);
	for (i = 0; i < rs.nr && i < 4; i++)
		TEST_EQ_U64(rs.v[i].file_offset, ref[i].tag);
	TEST_TRUE(prism_ordered__nr_early_flushes(o) >= 2);
	TEST_EQ(rs.corrupt, 0);
	prism_ordered__free(o);
	rs_free(&rs);

	/* many interleaved CPUs without rounds under a small limit */
	memset(&rs, 0, sizeof(rs));
	o = rs_new(&rs, 8192);
	TEST_TRUE(o != NULL);
	{
		uint64_t t[4] = { 0 }, backward = 0, maxt = 0;
		struct ref *all = NULL;
		size_t cap = 0;

		for (i = 0; i < 3000; i++) {
			unsigned cpu = (unsigned)(i / 7 % 4);

			t[cpu] += 1 + rnd() % 10;
			TEST_EQ(prism_ensure_mem((void **)&all, &cap, sizeof(*all), n + 1), 0);
			all[n].seq = n;
			TEST_EQ(rs_queue(o, &rs, 0, t[cpu], 24 + 8 * (rnd() % 4), i % 5 == 0,
					 &all[n]),
				0);
			n++;
		}
		TEST_EQ(prism_ordered__flush_all(o), 0);
		TEST_EQ(rs.nr, n);
		TEST_TRUE(prism_ordered__nr_early_flushes(o) > 0);
		for (i = 0; i < rs.nr; i++) {
			if (rs.v[i].time < maxt)
				backward++;
			if (rs.v[i].time > maxt)
				maxt = rs.v[i].time;
		}
		TEST_TRUE(backward <= prism_ordered__nr_out_of_order(o));
		/* every record exactly once */
		for (i = 0; i < n; i++)
			all[i].time = all[i].tag, all[i].seq = 0;
		qsort(all, n, sizeof(*all), ref_cmp);
		{
			struct ref *got = calloc(n, sizeof(*got));

			TEST_TRUE(got != NULL);
			for (i = 0; i < rs.nr && got; i++)
				got[i].time = rs.v[i].file_offset;
			if (got)
				qsort(got, n, sizeof(*got), ref_cmp);
			for (i = 0; i < n && got; i++)
				TEST_EQ_U64(got[i].time, all[i].time);
			free(got);
		}
		TEST_TRUE(prism_ordered__peak_bytes(o) <= 8192 + 4096 + 512);
		free(all);
	}
	TEST_EQ(rs.corrupt, 0);
	TEST_EQ(rs.misaligned, 0);
	prism_ordered__free(o);
	rs_free(&rs);
}

/*
 * A failing read or callback stops the delivery with its error; the
 * records not delivered stay queued and come out, once, on the next flush.
 */
static void test_runs_errors(void)
{
	struct rsink rs = { 0 };
	struct prism_ordered *o = rs_new(&rs, 0);
	size_t i, n = 0;

	TEST_TRUE(o != NULL);
	for (i = 0; i < 300; i++, n++) {
		if (i % 100 == 0)
			rs_gap(&rs, i / 100 % 2);
		TEST_EQ(rs_queue(o, &rs, i / 100 % 2, 1000 + (i % 100) * 3 + i / 100,
				 32 + 8 * (i % 7), false, NULL),
			0);
	}
	rs.read_err = -EIO;
	TEST_EQ(prism_ordered__flush_all(o), -EIO);
	TEST_EQ(rs.nr, 0);
	rs.read_err = 0;
	rs.fail_armed = true;
	rs.fail_at = 100;
	rs.fail_ret = 7;
	TEST_EQ(prism_ordered__flush_all(o), 7);
	TEST_EQ(rs.nr, 100); /* the failing record counts as delivered */
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(rs.nr, n - 1);
	TEST_TRUE(sorted_by_time(&(struct sink){ .v = rs.v, .nr = rs.nr }));
	for (i = 1; i < rs.nr; i++)
		TEST_TRUE(rs.v[i - 1].file_offset != rs.v[i].file_offset);
	TEST_EQ(rs.corrupt, 0);
	prism_ordered__free(o);
	rs_free(&rs);
}

/* records too big for a run's share of the buffers, many runs at once */
static void test_runs_big_records(void)
{
	struct rsink rs = { 0 };
	struct prism_ordered *o = rs_new(&rs, SIZE_MAX);
	size_t i, n = 0;

	TEST_TRUE(o != NULL);
	for (i = 0; i < 4000; i++, n++) {
		size_t size = i % 97 == 0 ? 65000 + (i % 5) * 100 : 24 + 4 * (i % 9);

		rs_gap(&rs, 0); /* every record a run of its own */
		TEST_EQ(rs_queue(o, &rs, 0, 5000 - i + (i % 3) * 7000, size, false, NULL), 0);
	}
	TEST_EQ(prism_ordered__flush_all(o), 0);
	TEST_EQ(rs.nr, n);
	TEST_TRUE(sorted_by_time(&(struct sink){ .v = rs.v, .nr = rs.nr }));
	TEST_EQ(rs.corrupt, 0);
	TEST_EQ(rs.misaligned, 0);
	prism_ordered__free(o);
	rs_free(&rs);
}

TEST_MAIN(TEST(new_and_free), TEST(interleaved_streams), TEST(two_round_rule), TEST(stable_ties),
	  TEST(flush_all), TEST(early_flush_out_of_order), TEST(no_rounds_bounded),
	  TEST(callback_error), TEST(error_with_leftover), TEST(alignment), TEST(big_records),
	  TEST(peak_bounded), TEST(arena_recycled), TEST(random_vs_reference), TEST(runs_api),
	  TEST(runs_rounds), TEST(runs_mixed_random), TEST(runs_equal_times),
	  TEST(runs_early_flush), TEST(runs_errors), TEST(runs_big_records));
