// SPDX-License-Identifier: MIT
/*
 * Time ordering of copied records (prism_ordered__queue).
 */
#include "ordered-test.h"

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

TEST_MAIN(TEST(new_and_free), TEST(interleaved_streams), TEST(two_round_rule), TEST(stable_ties),
	  TEST(flush_all), TEST(early_flush_out_of_order), TEST(no_rounds_bounded),
	  TEST(callback_error), TEST(error_with_leftover), TEST(alignment), TEST(big_records),
	  TEST(peak_bounded), TEST(arena_recycled), TEST(random_vs_reference));
