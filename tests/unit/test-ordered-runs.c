// SPDX-License-Identifier: MIT
/*
 * Time ordering of records that stay in their files (prism_ordered__queue_ref),
 * read back in runs, alone and mixed with copies.
 */
#include "ordered-test.h"

#include <limits.h>

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
	bool use_extend; /* queue with prism_ordered__extend() where it takes the record */
	size_t extended;
	int read_err; /* returned by reads while set */
	unsigned view_every; /* rs_view refuses all views but every n-th (0: none) */
	unsigned views, view_calls, pins, bad_unviews;
	uint64_t pinned[64]; /* offsets of the views pinned */
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

/*
 * Views point into the fake file (its memory is reserved so that it does
 * not move), with only the record at @off whole in them half of the time.
 */
static const void *rs_view(void *ctx, uint32_t file, uint64_t off, size_t *avail)
{
	struct rsink *rs = ctx;
	size_t left;

	if (file >= NR_FFILES || off >= rs->len[file]) {
		rs->corrupt++; /* the queue asked for something wrong */
		return NULL;
	}
	rs->view_calls++;
	if ((rs->view_every && rs->view_calls % rs->view_every) || rs->pins == 64)
		return NULL;
	left = rs->len[file] - off;
	*avail = left;
	if (rs->view_calls % 2 && left >= 8 && get_u16(rs->b[file] + off + 6) <= left)
		*avail = get_u16(rs->b[file] + off + 6);
	rs->pinned[rs->pins++] = (uint64_t)file << 56 | off;
	rs->views++;
	return rs->b[file] + off;
}

static void rs_unview(void *ctx, uint32_t file, uint64_t off)
{
	struct rsink *rs = ctx;
	unsigned i;

	for (i = 0; i < rs->pins; i++)
		if (rs->pinned[i] == ((uint64_t)file << 56 | off)) {
			rs->pinned[i] = rs->pinned[--rs->pins];
			return;
		}
	rs->bad_unviews++;
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

	if (o) {
		prism_ordered__set_reader(o, rs_read, rs_time);
		/* samples (type 9) have their time at offset 8 */
		if (rs->use_extend)
			prism_ordered__set_sample_time(o, 8);
	}
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
	if (rs->use_extend) {
		size_t n, got = prism_ordered__extend(o, rs->b[f] + off, size, f, off, &n);

		if (got) {
			if (got != size || n != 1)
				rs->corrupt++;
			rs->extended++;
			return 0;
		}
	}
	return prism_ordered__queue_ref(o, rs->b[f] + off, size, time, f, off);
}

/* a record the caller does not queue (FINISHED_ROUND, a record without time) */
static void rs_gap(struct rsink *rs, unsigned f)
{
	put_rec(rs, f, 0, 8, 68);
}

/*
 * Deliver the rest and check that @rs got exactly the @n records of @ref
 * in stable time order (ref is sorted here), whole and aligned.
 */
static void rs_check_all(struct prism_ordered *o, struct rsink *rs, struct ref *ref, size_t n)
{
	size_t i;

	TEST_EQ(prism_ordered__flush_all(o), 0);
	if (n)
		qsort(ref, n, sizeof(*ref), ref_cmp);
	TEST_EQ(rs->nr, n);
	for (i = 0; i < n && i < rs->nr; i++) {
		TEST_EQ_U64(rs->v[i].time, ref[i].time);
		TEST_EQ_U64(rs->v[i].file_offset, ref[i].tag);
		TEST_EQ(rs->v[i].size, ref[i].size);
	}
	TEST_EQ(rs->corrupt, 0);
	TEST_EQ(rs->misaligned, 0);
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
	rs_check_all(o, &rs, ref, n);
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
static void mixed_random(bool use_extend)
{
	size_t iter, extended = 0;

	for (iter = 0; iter < 40; iter++) {
		struct rsink rs = { .use_extend = use_extend };
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
				/* not all 8-aligned; all of them in half the bulk rounds */
				size_t size = use_extend && iter % 2 ? 24 + 8 * (rnd() % 20) :
								       24 + 4 * (rnd() % 40);
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
		rs_check_all(o, &rs, ref, n);
		TEST_EQ(prism_ordered__nr_out_of_order(o), 0);
		TEST_EQ(prism_ordered__nr_early_flushes(o), 0);
		prism_ordered__free(o);
		extended += rs.extended;
		free(ref);
		rs_free(&rs);
	}
	if (use_extend)
		TEST_TRUE(extended > 100);
}

static void test_runs_mixed_random(void)
{
	mixed_random(false);
}

/* the same with records queued in bulk where prism_ordered__extend() takes them */
static void test_runs_mixed_random_bulk(void)
{
	mixed_random(true);
}

/*
 * perf's layout: each round holds one block per CPU, each block sorted,
 * the CPUs' times interleaved; queued in bulk where prism_ordered__extend()
 * takes the records (most of them), else one by one.
 */
static void test_runs_bulk(void)
{
	struct rsink rs = { .use_extend = true };
	struct prism_ordered *o = rs_new(&rs, SIZE_MAX);
	size_t n = 0, cap = 0, bulk = 0, i, r, c;
	struct ref *ref = NULL;
	uint64_t t0 = 1000;

	TEST_TRUE(o != NULL);
	for (r = 0; r < 30; r++) {
		for (c = 0; c < 4; c++) {
			size_t m = 50 + rnd() % 300, first = n;
			uint64_t off0 = rs.len[0], t = t0 + c;

			for (i = 0; i < m; i++, n++) {
				TEST_EQ(prism_ensure_mem((void **)&ref, &cap, sizeof(*ref), n + 1),
					0);
				t += 1 + rnd() % 8;
				ref[n].seq = n;
				ref[n].time = t;
				ref[n].size = 24 + 8 * (rnd() % 12);
				ref[n].tag = put_rec(&rs, 0, t, ref[n].size, 9);
			}
			/* the block as it lies in the file, in as few calls as the queue allows */
			for (i = first; i < n;) {
				size_t k, got;
				uint64_t off = ref[i].tag;

				got = prism_ordered__extend(o, rs.b[0] + off, rs.len[0] - off, 0,
							    off, &k);
				if (got) {
					TEST_TRUE(k >= 1 && i + k <= n);
					bulk += k;
					i += k;
					continue;
				}
				TEST_EQ(prism_ordered__queue_ref(o, rs.b[0] + off, ref[i].size,
								 ref[i].time, 0, off),
					0);
				i++;
			}
			TEST_EQ_U64(rs.len[0] - off0, rs.len[0] - ref[first].tag);
		}
		rs_gap(&rs, 0);
		TEST_EQ(prism_ordered__finished_round(o), 0);
		t0 += 2000;
	}
	rs_check_all(o, &rs, ref, n);
	TEST_TRUE(bulk > n / 2);
	prism_ordered__free(o);
	free(ref);
	rs_free(&rs);
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

/*
 * Runs read back in place (views of their file): many runs, long and short,
 * with views refused now and then (those records come through buffers) or
 * always; the same records come out, and every view is given back.
 */
static void test_runs_view(void)
{
	static const unsigned every[] = { 1, 3, UINT_MAX };
	size_t k;

	for (k = 0; k < PRISM_ARRAY_SIZE(every); k++) {
		struct rsink rs = { .view_every = every[k] };
		struct prism_ordered *o = rs_new(&rs, SIZE_MAX);
		struct ref *ref = NULL;
		size_t n = 0, cap = 0, r, c;

		TEST_TRUE(o != NULL);
		prism_ordered__set_view(o, rs_view, rs_unview);
		/* views point into the file: it must not move */
		TEST_EQ(prism_ensure_mem((void **)&rs.b[0], &rs.cap[0], 1, (size_t)16 << 20), 0);
		for (r = 0; r < 3; r++) {
			for (c = 0; c < 6; c++) {
				/* CPU 5's part of a round is small */
				size_t bytes = 0,
				       want = c == 5 ? 9000 : ((size_t)3 << 18) - 4096 * c;
				uint64_t t = 10000000 * (r + 1) - 1000 * c;

				while (bytes < want) {
					size_t size = 24 + 8 * (rnd() % 60);

					t += 1 + rnd() % 3;
					TEST_EQ(prism_ensure_mem((void **)&ref, &cap, sizeof(*ref),
								 n + 1),
						0);
					ref[n].seq = n;
					TEST_EQ(rs_queue(o, &rs, 0, t, size, false, &ref[n]), 0);
					n++;
					bytes += size;
				}
			}
			rs_gap(&rs, 0);
			TEST_EQ(prism_ordered__finished_round(o), 0);
			TEST_TRUE(rs.pins <= 12); /* one per run at most */
		}
		rs_check_all(o, &rs, ref, n);
		TEST_EQ(rs.views > 0, every[k] != UINT_MAX);
		if (every[k] == 1)
			TEST_EQ(rs.reads, 0); /* nothing copied */
		else
			TEST_TRUE(rs.reads > 0);
		prism_ordered__free(o);
		TEST_EQ(rs.pins, 0);
		TEST_EQ(rs.bad_unviews, 0);
		free(ref);
		rs_free(&rs);
	}
}

TEST_MAIN(TEST(runs_api), TEST(runs_rounds), TEST(runs_mixed_random), TEST(runs_mixed_random_bulk),
	  TEST(runs_bulk), TEST(runs_equal_times), TEST(runs_early_flush), TEST(runs_errors),
	  TEST(runs_big_records), TEST(runs_view));
