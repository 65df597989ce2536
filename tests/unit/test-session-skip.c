// SPDX-License-Identifier: MIT
/*
 * Records whose body is malformed but whose size keeps the stream in step
 * are counted by type with the offset of the first, handed to
 * tool->malformed and skipped: the records after them are still
 * delivered, in time order and in file order, through the full sample
 * parse and the sample_basic fast path.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/session.h>

#include "data/writer.h"
#include "test.h"

#define ST_CHAIN (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN)
#define ST_FIXED (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

struct seen {
	unsigned int samples, comms, mmaps, malformed;
	uint64_t times[8];
	char mmap_name[32];
};

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct seen *c = ctx;

	if (c->samples < 8)
		c->times[c->samples] = ev->sample.time;
	c->samples++;
	return 0;
}

static int on_basic(void *ctx, const struct prism_sample_basic *b)
{
	struct seen *c = ctx;

	if (c->samples < 8)
		c->times[c->samples] = b->time;
	c->samples++;
	return 0;
}

static int on_comm(void *ctx, const struct prism_event *ev)
{
	((struct seen *)ctx)->comms++;
	return 0;
}

static int on_mmap(void *ctx, const struct prism_event *ev)
{
	struct seen *c = ctx;

	c->mmaps++;
	snprintf(c->mmap_name, sizeof(c->mmap_name), "%s", ev->mmap.filename);
	return 0;
}

static int on_malformed(void *ctx, const struct prism_event *ev)
{
	((struct seen *)ctx)->malformed++;
	return 0;
}

/* a sample of @st at @time; @bad: a call chain longer than the record, or a word short */
static size_t sample(uint64_t *r, uint64_t st, uint64_t time, bool bad)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	size_t n = 1;

	r[n++] = 0x1000;
	r[n++] = 7 | (7ull << 32);
	r[n++] = time;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		r[n++] = bad ? 0xffffffff : 1;
		r[n++] = 0x1000;
	}
	if (st & PERF_SAMPLE_PERIOD)
		r[n++] = 1;
	if (bad && !(st & PERF_SAMPLE_CALLCHAIN))
		n--; /* PERIOD cut off */
	h.size = (uint16_t)(8 * n);
	memcpy(r, &h, 8);
	return 8 * n;
}

/* COMM (@bad: its name without NUL) or a RHEL 7 MMAP2 of "[vdso]", trailer TID + TIME */
static size_t side(uint64_t *r, uint32_t type, uint64_t time, bool bad)
{
	struct perf_event_header h = { .type = type, .misc = PERF_RECORD_MISC_USER };
	uint8_t *b = (uint8_t *)r;
	size_t n;

	memset(r, 0, 128);
	memcpy(b + 8, &(uint64_t){ 7 | (7ull << 32) }, 8);
	if (type == PERF_RECORD_COMM) {
		memcpy(b + 16, bad ? "XXXXXXXX" : "good\0\0\0", 8);
		n = 24;
	} else {
		memcpy(b + 16, &(uint64_t){ 0x1000 }, 8); /* start */
		memcpy(b + 24, &(uint64_t){ 0x1000 }, 8); /* len */
		memcpy(b + 64, "[vdso]\0", 8); /* the name where RHEL 7 puts it */
		n = 72;
	}
	memcpy(b + n, &(uint64_t){ 7 | (7ull << 32) }, 8);
	memcpy(b + n + 8, &time, 8);
	h.size = (uint16_t)(n + 16);
	memcpy(r, &h, 8);
	return n + 16;
}

static const char *tmp_path(void)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/prism-test-skip-%d.data",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	return buf;
}

/*
 * good COMM 100, sample 200, bad sample 300, bad COMM 350, RHEL 7 MMAP2
 * 360, sample 400; *@bad_sample_at: the bad sample's offset in the data
 */
static int write_file(const char *path, uint64_t st, uint64_t *bad_sample_at)
{
	struct prism_writer_opts o = { .path = path, .fd = -1, .clockid = -1 };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK,
				     .sample_period = 1,
				     .sample_type = st,
				     .sample_id_all = 1,
				     .comm = 1,
				     .mmap = 1,
				     .mmap2 = 1 };
	struct prism_writer *w = prism_writer__new(&o);
	uint64_t id = 1, r[16], at = 0;
	size_t n;
	int err;

	if (!w)
		return -errno;
	err = prism_writer__add_event(w, &a, "cpu-clock", &id, 1, 0, 0);
	if (!err)
		err = prism_writer__start(w);
#define PUT(expr)                                                         \
	do {                                                              \
		n = (expr);                                               \
		if (!err)                                                 \
			err = prism_writer__write_data(w, r, n, NULL, 0); \
		at += n;                                                  \
	} while (0)
	PUT(side(r, PERF_RECORD_COMM, 100, false));
	PUT(sample(r, st, 200, false));
	*bad_sample_at = at;
	PUT(sample(r, st, 300, true));
	PUT(side(r, PERF_RECORD_COMM, 350, true));
	PUT(side(r, PERF_RECORD_MMAP2, 360, false));
	PUT(sample(r, st, 400, false));
#undef PUT
	if (!err)
		err = prism_writer__finished_round(w);
	if (!err)
		err = prism_writer__finish(w);
	prism_writer__free(w);
	return err;
}

static void check(uint64_t st, bool basic, bool no_order)
{
	const char *path = tmp_path();
	struct prism_session_opts o = { .path = path, .no_order = no_order };
	struct prism_tool tool = { .comm = on_comm, .mmap = on_mmap, .malformed = on_malformed };
	struct prism_session_stats stats;
	struct prism_session *s;
	struct seen c = { 0 };
	uint64_t bad_at = 0, data;
	int err;

	if (basic)
		tool.sample_basic = on_basic;
	else
		tool.sample = on_sample;
	TEST_EQ(write_file(path, st, &bad_at), 0);
	s = prism_session__open(&o);
	unlink(path);
	TEST_TRUE(s != NULL);
	if (!s)
		return;
	err = prism_session__process(s, &tool, &c);
	stats = *prism_session__stats(s);
	data = prism_session__file_info(s)->data_offset;
	prism_session__free(s);
	TEST_EQ(err, 0);
	TEST_EQ(c.samples, 2);
	TEST_EQ_U64(c.times[0], 200);
	TEST_EQ_U64(c.times[1], 400);
	TEST_EQ(c.comms, 1);
	TEST_EQ(c.mmaps, 1);
	TEST_STREQ(c.mmap_name, "[vdso]");
	TEST_EQ(c.malformed, 2);
	TEST_EQ_U64(stats.nr_malformed[PERF_RECORD_SAMPLE], 1);
	TEST_EQ_U64(stats.malformed_offset[PERF_RECORD_SAMPLE], data + bad_at);
	TEST_EQ_U64(stats.nr_malformed[PERF_RECORD_COMM], 1);
	TEST_EQ_U64(stats.nr_malformed[PERF_RECORD_MMAP2], 0);
	TEST_EQ_U64(stats.nr_records[PERF_RECORD_SAMPLE], 3);
}

static void test_full_parse(void)
{
	check(ST_CHAIN, false, false);
}

static void test_file_order(void)
{
	check(ST_CHAIN, false, true);
}

/* the fixed layout sample_basic tools take without the full parse */
static void test_fast_path(void)
{
	check(ST_FIXED, true, false);
}

TEST_MAIN(TEST(full_parse), TEST(file_order), TEST(fast_path));
