// SPDX-License-Identifier: MIT
/*
 * perf.data writer: write files (plain, zstd-compressed, pipe mode) and read
 * them back with the session API: events, ids, records and features.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/features.h>
#include <prism/session.h>

#include "data/writer.h"
#include "test.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

struct counts {
	unsigned int samples, comms;
	uint64_t last_time;
	bool ordered;
};

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct counts *c = ctx;

	c->samples++;
	if (ev->sample.time < c->last_time)
		c->ordered = false;
	c->last_time = ev->sample.time;
	return 0;
}

static int on_comm(void *ctx, const struct prism_event *ev)
{
	struct counts *c = ctx;

	if (!strcmp(ev->comm.comm, "worker") && ev->comm.pid == 7)
		c->comms++;
	return 0;
}

/* a SAMPLE of SAMPLE_TYPE: ip, pid/tid, time, period */
static void make_sample(uint64_t *rec, uint64_t ip, uint64_t time)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE,
				       .misc = PERF_RECORD_MISC_USER,
				       .size = 40 };

	memcpy(rec, &h, 8);
	rec[1] = ip;
	rec[2] = 7 | (7ull << 32);
	rec[3] = time;
	rec[4] = 1000;
}

static const char *tmp_path(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/prism-test-writer-%d-%s",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid(), name);
	return buf;
}

/* write a small recording: COMM, 3 samples in two data chunks (one wrapped) */
static int write_file(const char *path, int fd, bool pipe, int level)
{
	static const char *const argv[] = { "prism", "record", "-e", "cpu-clock" };
	struct prism_writer_opts o = { .path = path,
				       .fd = fd,
				       .pipe = pipe,
				       .compress_level = level,
				       .argc = 4,
				       .argv = argv,
				       .clockid = -1 };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_CPU_CLOCK,
					.sample_period = 4000,
					.freq = 1,
					.sample_type = SAMPLE_TYPE,
					.sample_id_all = 0,
					.comm = 1 };
	uint64_t ids[2] = { 42, 43 }, s[3][5];
	uint8_t comm[24] = { 0 };
	struct perf_event_header ch = { .type = PERF_RECORD_COMM, .size = 24 };
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef };
	struct prism_writer *w = prism_writer__new(&o);
	uint32_t pt[2] = { 7, 7 };
	int err;

	if (!w)
		return -errno;
	memcpy(comm, &ch, 8);
	memcpy(comm + 8, pt, 8);
	memcpy(comm + 16, "worker", 7);
	make_sample(s[0], 0x1000, 100);
	make_sample(s[1], 0x2000, 200);
	make_sample(s[2], 0x3000, 300);
	err = prism_writer__add_event(w, &attr, "cpu-clock", ids, 2, -1, 0);
	if (!err)
		err = prism_writer__start(w);
	if (!err)
		err = prism_writer__write(w, comm, sizeof(comm));
	if (!err)
		err = prism_writer__write_data(w, s[0], 40, NULL, 0);
	if (!err)
		err = prism_writer__finished_round(w);
	/* a record split by the ring's wrap: 16 bytes at the end, the rest at the start */
	if (!err)
		err = prism_writer__write_data(w, s[1], 56, (uint8_t *)s[1] + 56, 24);
	if (!err)
		err = prism_writer__finished_round(w);
	prism_writer__set_sample_time(w, 100, 300);
	if (!err)
		err = prism_writer__add_build_id(w, PERF_RECORD_MISC_USER, bid, 20,
						 "/usr/bin/worker");
	if (!err)
		err = prism_writer__finish(w);
	prism_writer__free(w);
	return err;
}

static void read_back(const char *path, bool pipe, bool compressed)
{
	struct prism_session_opts so = { .path = path };
	struct prism_tool tool = { .sample = on_sample, .comm = on_comm };
	struct counts c = { .ordered = true };
	const struct prism_session_stats *st;
	const struct prism_features *f;
	struct prism_session *s = prism_session__open(&so);
	struct prism_evsel *ev;

	if (!s)
		TEST_FAIL("cannot open %s: %s", path, prism_session_open_error());
	TEST_EQ(prism_session__process(s, &tool, &c), 0);
	TEST_EQ(prism_session__file_info(s)->pipe, pipe);
	TEST_EQ(prism_session__nr_evsels(s), 1);
	ev = prism_session__evsel(s, 0);
	TEST_STREQ(prism_evsel__name(ev), "cpu-clock");
	TEST_EQ(prism_evsel__attr_size(ev), 128);
	TEST_EQ(prism_evsel__nr_ids(ev), 2);
	TEST_EQ_U64(prism_evsel__ids(ev)[1], 43);
	TEST_EQ_U64(prism_evsel__attr(ev)->sample_type, SAMPLE_TYPE);
	TEST_EQ(c.samples, 3);
	TEST_EQ(c.comms, 1);
	TEST_TRUE(c.ordered);
	st = prism_session__stats(s);
	TEST_EQ(st->nr_records[PRISM_RECORD_FINISHED_ROUND], 2);
	TEST_EQ(st->nr_unknown_id, 0);
	if (compressed)
		TEST_TRUE(st->compressed_bytes > 0);
	f = prism_session__features(s);
	TEST_TRUE(f != NULL);
	TEST_TRUE(prism_features__has(f, PRISM_FEAT_HOSTNAME));
	TEST_TRUE(prism_features__str(f, PRISM_FEAT_ARCH) != NULL);
	TEST_TRUE(prism_features__nrcpus(f) != NULL);
	TEST_TRUE(prism_features__nrcpus(f)->nr_cpus_online > 0);
	TEST_TRUE(prism_features__cmdline(f) != NULL);
	TEST_EQ(prism_features__cmdline(f)->argc, 4);
	TEST_STREQ(prism_features__cmdline(f)->argv[3], "cpu-clock");
	TEST_TRUE(prism_features__event_desc(f) != NULL);
	TEST_EQ(prism_features__event_desc(f)->nr_events, 1);
	TEST_STREQ(prism_features__event_desc(f)->events[0].name, "cpu-clock");
	TEST_TRUE(prism_features__cpu_topology(f) != NULL);
	TEST_EQ(prism_features__has(f, PRISM_FEAT_COMPRESSED), compressed);
	if (!pipe) {
		const struct prism_feat_build_ids *b = prism_features__build_ids(f);

		TEST_TRUE(prism_features__sample_time(f) != NULL);
		TEST_EQ_U64(prism_features__sample_time(f)->first, 100);
		TEST_EQ_U64(prism_features__sample_time(f)->last, 300);
		TEST_TRUE(b != NULL);
		TEST_EQ(b->nr, 1);
		TEST_STREQ(b->entries[0].filename, "/usr/bin/worker");
		TEST_EQ(b->entries[0].size, 20);
		TEST_EQ(b->entries[0].build_id[1], 0xad);
	}
	prism_session__free(s);
}

static void test_file(void)
{
	const char *p = tmp_path("plain.data");

	TEST_EQ(write_file(p, -1, false, 0), 0);
	read_back(p, false, false);
	unlink(p);
}

static void test_compressed(void)
{
	const char *p = tmp_path("zstd.data");
	int err = write_file(p, -1, false, 3);

	if (err == -PRISM_E_NOFEATURE || errno == PRISM_E_NOFEATURE) {
		unlink(p);
		TEST_SKIP("built without libzstd");
	}
	TEST_EQ(err, 0);
	read_back(p, false, true);
	unlink(p);
}

static void test_pipe(void)
{
	const char *p = tmp_path("pipe.data");
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	TEST_TRUE(fd >= 0);
	TEST_EQ(write_file(NULL, fd, true, 0), 0);
	close(fd);
	read_back(p, true, false);
	unlink(p);
}

static void test_keep_old(void)
{
	const char *p = tmp_path("old.data");
	char old[300];
	struct prism_writer_opts o = { .path = p, .keep_old = true, .clockid = -1 };
	struct prism_writer *w;
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	TEST_TRUE(fd >= 0);
	TEST_EQ(write(fd, "x", 1), 1);
	close(fd);
	w = prism_writer__new(&o);
	TEST_TRUE(w != NULL);
	prism_writer__free(w);
	snprintf(old, sizeof(old), "%s.old", p);
	TEST_EQ(access(old, F_OK), 0);
	unlink(old);
	unlink(p);
}

static void test_not_seekable(void)
{
	struct prism_writer_opts o = { .fd = -1, .clockid = -1 };
	int fds[2];

	TEST_EQ(pipe(fds), 0);
	o.fd = fds[1];
	/* file mode needs a seekable output to finish the header */
	TEST_TRUE(prism_writer__new(&o) == NULL);
	TEST_EQ(errno, ESPIPE);
	close(fds[0]);
	close(fds[1]);
}

TEST_MAIN(TEST(file), TEST(compressed), TEST(pipe), TEST(keep_old), TEST(not_seekable));
