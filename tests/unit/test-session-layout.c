// SPDX-License-Identifier: MIT
/*
 * The session's per-record shortcuts, on files written by the writer: the
 * time sort finds times where every event puts them alike (and looks the
 * event up where they differ); per-event counts and unknown ids are counted
 * at delivery; the reused sample keeps no rare field of an earlier sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/session.h>

#include "data/writer.h"
#include "test.h"

#define ST_A                                                                            \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_PERIOD)
/* TIME one word earlier than in A; READ is one of the rare fields */
#define ST_B (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ)
/* TIME where A has it; RAW after PERIOD */
#define ST_C (ST_A | PERF_SAMPLE_RAW)

#define ID_A 10
#define ID_B 20
#define ID_UNKNOWN 99

struct seen {
	uint64_t times[16];
	uint64_t ids[16];
	unsigned int n;
	unsigned int stale; /* samples showing a field their event does not have */
};

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct seen *c = ctx;
	const struct prism_sample *s = &ev->sample;

	if (c->n < 16) {
		c->times[c->n] = s->time;
		c->ids[c->n] = s->id;
	}
	c->n++;
	if (s->branch_hw_idx != ~0ull)
		c->stale++;
	if (!(s->type & PERF_SAMPLE_READ) && (s->read.nr || s->read.one.value))
		c->stale++;
	if (!(s->type & PERF_SAMPLE_IP) && s->ip)
		c->stale++;
	if (!(s->type & PERF_SAMPLE_RAW) && (s->raw_data || s->raw_size))
		c->stale++;
	return 0;
}

/* a sample of @st for @id at @time (pid/tid 7, ip 0x1000, period 1, read value 5, 4 raw bytes) */
static size_t make(uint64_t *rec, uint64_t st, uint64_t id, uint64_t time)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	size_t n = 1;

	rec[n++] = id;
	if (st & PERF_SAMPLE_IP)
		rec[n++] = 0x1000;
	rec[n++] = 7 | (7ull << 32);
	rec[n++] = time;
	if (st & PERF_SAMPLE_PERIOD)
		rec[n++] = 1;
	if (st & PERF_SAMPLE_READ)
		rec[n++] = 5;
	if (st & PERF_SAMPLE_RAW)
		rec[n++] = 4 | (0xabcdull << 32);
	h.size = (uint16_t)(8 * n);
	memcpy(rec, &h, 8);
	return 8 * n;
}

static const char *tmp_path(void)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/prism-test-layout-%d.data",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	return buf;
}

/*
 * Two events (sample types @sta, @stb), two rounds written as two CPUs'
 * runs each, and one sample of an id no event has.
 */
static int write_file(const char *path, uint64_t sta, uint64_t stb)
{
	struct prism_writer_opts o = { .path = path, .fd = -1, .clockid = -1 };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK,
				     .sample_period = 1,
				     .sample_type = sta,
				     .sample_id_all = 1 };
	struct perf_event_attr b = a;
	static const struct {
		int ev;
		uint64_t time;
	} recs[] = {
		{ 0, 300 }, { 0, 500 }, { 1, 200 }, { 1, 400 }, { 2, 450 },
		{ -1, 0 },  { 0, 600 }, { 1, 550 }, { -1, 0 },
	};
	uint64_t ida = ID_A, idb = ID_B, rec[16];
	struct prism_writer *w = prism_writer__new(&o);
	size_t i;
	int err;

	if (!w)
		return -errno;
	b.config = PERF_COUNT_SW_TASK_CLOCK;
	b.sample_type = stb;
	err = prism_writer__add_event(w, &a, "cpu-clock", &ida, 1, 0, 0);
	if (!err)
		err = prism_writer__add_event(w, &b, "task-clock", &idb, 1, 1, 0);
	if (!err)
		err = prism_writer__start(w);
	for (i = 0; !err && i < PRISM_ARRAY_SIZE(recs); i++) {
		size_t n;

		if (recs[i].ev < 0) {
			err = prism_writer__finished_round(w);
			continue;
		}
		n = make(rec, recs[i].ev == 1 ? stb : sta,
			 recs[i].ev == 0 ? ID_A :
			 recs[i].ev == 1 ? ID_B :
					   ID_UNKNOWN,
			 recs[i].time);
		err = prism_writer__write_data(w, rec, n, NULL, 0);
	}
	if (!err)
		err = prism_writer__finish(w);
	prism_writer__free(w);
	return err;
}

static void check(uint64_t sta, uint64_t stb)
{
	static const uint64_t times[] = { 200, 300, 400, 500, 550, 600 };
	static const uint64_t ids[] = { ID_B, ID_A, ID_B, ID_A, ID_B, ID_A };
	const char *path = tmp_path();
	struct prism_session_opts o = { .path = path };
	struct prism_tool tool = { .sample = on_sample };
	struct seen c = { 0 };
	struct prism_session *s;
	size_t i;

	TEST_EQ(write_file(path, sta, stb), 0);
	s = prism_session__open(&o);
	TEST_TRUE(s != NULL);
	if (!s) {
		unlink(path);
		return;
	}
	TEST_EQ(prism_session__process(s, &tool, &c), 0);
	TEST_EQ(c.n, 6);
	for (i = 0; i < 6 && i < c.n; i++) {
		TEST_EQ_U64(c.times[i], times[i]);
		TEST_EQ_U64(c.ids[i], ids[i]);
	}
	TEST_EQ(c.stale, 0);
	TEST_EQ_U64(prism_session__stats(s)->nr_unknown_id, 1);
	TEST_EQ_U64(prism_evsel__nr_samples(prism_session__evsel(s, 0)), 3);
	TEST_EQ_U64(prism_evsel__nr_samples(prism_session__evsel(s, 1)), 3);
	TEST_EQ_U64(prism_session__stats(s)->nr_out_of_order, 0);
	prism_session__free(s);
	unlink(path);
}

/* TIME at different places: each record's event is looked up */
static void test_time_positions_differ(void)
{
	check(ST_A, ST_B);
}

/* TIME at the same place (RAW only in one): found without the lookup */
static void test_time_position_shared(void)
{
	check(ST_A, ST_C);
}

/* a sample with a rare field between samples without: nothing carries over */
static void test_rare_fields_cleared(void)
{
	check(ST_B, ST_A);
}

TEST_MAIN(TEST(time_positions_differ), TEST(time_position_shared), TEST(rare_fields_cleared));
