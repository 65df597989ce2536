// SPDX-License-Identifier: MIT
/*
 * The AUX ring reader (lib/record/aux-ring.c) on a plain memory buffer:
 * full mode (in order, wrap-around, a full area, the tail given back),
 * snapshot mode (before and after the area wrapped, a size limit), sizes
 * that are not powers of two, and AUXTRACE records written through the
 * writer and read back (file mode with the AUXTRACE index, pipe mode).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/features.h>
#include <prism/pt.h>
#include <prism/session.h>

#include "data/writer.h"
#include "record/aux-ring.h"
#include "test.h"

#define SZ 256

static struct perf_event_mmap_page pc;
static uint8_t area[SZ];
/* snapshot mode: perf's wrap test looks at the last 4 KiB, so a bigger area */
#define SNAP 16384
static uint8_t snap[SNAP];
static uint8_t *cur = area;
static uint64_t cur_sz = SZ;

static void fill(uint64_t from, uint64_t to) /* stream bytes [from, to): byte = pos */
{
	uint64_t i;

	for (i = from; i < to; i++)
		cur[i % cur_sz] = (uint8_t)(i * 7 + 1);
}

/* the chunk's bytes are stream bytes [from, from + n) */
static bool chunk_is(const struct aux_chunk *c, uint64_t from, uint64_t n)
{
	uint64_t i;

	if (c->alen + c->blen != n)
		return false;
	for (i = 0; i < n; i++) {
		uint8_t b = i < c->alen ? c->a[i] : c->b[i - c->alen];

		if (b != (uint8_t)((from + i) * 7 + 1))
			return false;
	}
	return true;
}

static void reset(void)
{
	memset(&pc, 0, sizeof(pc));
	memset(area, 0, sizeof(area));
	memset(snap, 0, sizeof(snap));
	cur = area;
	cur_sz = SZ;
}

static void test_sizes(void)
{
	struct aux_ring r;

	TEST_EQ(aux_ring__init(&r, &pc, area, 0, false), -EINVAL);
	TEST_EQ(aux_ring__init(&r, &pc, area, 3 * 4096, false), -EINVAL);
	TEST_EQ(aux_ring__init(&r, &pc, area, 4097, true), -EINVAL);
	TEST_EQ(aux_ring__init(&r, &pc, area, SZ, false), 0);
	TEST_EQ(r.idx, (uint32_t)-1);
	TEST_EQ(r.tid, (uint32_t)-1);
	TEST_EQ(r.cpu, (uint32_t)-1);
}

static void test_empty(void)
{
	struct aux_ring r;
	struct aux_chunk c;

	reset();
	TEST_EQ(aux_ring__init(&r, &pc, area, SZ, false), 0);
	TEST_EQ(aux_ring__next(&r, 0, 1, &c), 0);
	TEST_EQ(aux_ring__init(&r, &pc, area, SZ, true), 0);
	TEST_EQ(aux_ring__next(&r, 0, 1, &c), 0);
}

static void test_full_in_order(void)
{
	struct aux_ring r;
	struct aux_chunk c;

	reset();
	TEST_EQ(aux_ring__init(&r, &pc, area, SZ, false), 0);
	r.idx = 2;
	r.tid = 77;
	fill(0, 100);
	pc.aux_head = 100;
	TEST_EQ(aux_ring__next(&r, 0, 0xabc, &c), 1);
	TEST_TRUE(chunk_is(&c, 0, 100));
	TEST_EQ(c.blen, 0);
	TEST_EQ(c.pad, 4);
	TEST_EQ(c.rec.header.type, PRISM_RECORD_AUXTRACE);
	TEST_EQ(c.rec.header.size, 48);
	TEST_EQ_U64(c.rec.size, 104);
	TEST_EQ_U64(c.rec.offset, 0);
	TEST_EQ_U64(c.rec.reference, 0xabc);
	TEST_EQ(c.rec.idx, 2);
	TEST_EQ(c.rec.tid, 77);
	TEST_EQ(c.rec.cpu, (uint32_t)-1);
	/* not consumed until done(): the same again, the tail untouched */
	TEST_EQ_U64(pc.aux_tail, 0);
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_EQ_U64(c.rec.offset, 0);
	aux_ring__done(&r, &c);
	TEST_EQ_U64(pc.aux_tail, 100);
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 0);
	/* a partial second piece, 8-byte multiple: no padding */
	fill(100, 140);
	pc.aux_head = 140;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, 100, 40));
	TEST_EQ(c.pad, 0);
	TEST_EQ_U64(c.rec.size, 40);
	TEST_EQ_U64(c.rec.offset, 100);
	aux_ring__done(&r, &c);
	TEST_EQ_U64(pc.aux_tail, 140);
}

static void test_full_wrap(void)
{
	struct aux_ring r;
	struct aux_chunk c;

	reset();
	TEST_EQ(aux_ring__init(&r, &pc, area, SZ, false), 0);
	r.prev = pc.aux_tail = 200;
	fill(200, 300);
	pc.aux_head = 300;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_EQ(c.alen, 56); /* to the end of the area */
	TEST_TRUE(c.a == area + 200);
	TEST_EQ(c.blen, 44); /* the rest from its start */
	TEST_TRUE(c.b == area);
	TEST_TRUE(chunk_is(&c, 200, 100));
	TEST_EQ_U64(c.rec.offset, 200);
	TEST_EQ(c.pad, 4);
	aux_ring__done(&r, &c);
	TEST_EQ_U64(pc.aux_tail, 300);
	/* ending exactly at the end of the area */
	fill(300, 512);
	pc.aux_head = 512;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, 300, 212));
	TEST_EQ(c.blen, 0);
	TEST_EQ_U64(c.rec.offset, 300);
	aux_ring__done(&r, &c);
	/* the whole area at once, not wrapping */
	fill(512, 768);
	pc.aux_head = 768;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, 512, SZ));
	TEST_EQ_U64(c.rec.size, SZ);
	aux_ring__done(&r, &c);
	/* the whole area at once, wrapping */
	fill(768, 768 + 100);
	aux_ring__done(&r, &(struct aux_chunk){ .head = 868 });
	fill(868, 868 + SZ);
	pc.aux_head = 868 + SZ;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, 868, SZ));
	TEST_EQ(c.alen, SZ - 100);
	TEST_EQ_U64(c.rec.offset, 868);
}

static void test_snapshot(void)
{
	struct aux_ring r;
	struct aux_chunk c;

	reset();
	cur = snap;
	cur_sz = SNAP;
	TEST_EQ(aux_ring__init(&r, &pc, snap, SNAP, true), 0);
	/* not wrapped yet: what was written from the start */
	fill(0, 100);
	pc.aux_head = 100;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, 0, 100));
	TEST_EQ_U64(c.rec.offset, 0);
	aux_ring__done(&r, &c);
	TEST_EQ_U64(pc.aux_tail, 0); /* never written in snapshot mode */
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 0);
	/* the next snapshot: what came since */
	fill(100, 160);
	pc.aux_head = 160;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, 100, 60));
	aux_ring__done(&r, &c);
	/* the hardware went round: head is an offset in the area; the whole area, oldest first */
	fill(160, SNAP + 40);
	pc.aux_head = 40;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(r.wrapped);
	TEST_TRUE(chunk_is(&c, 40, SNAP));
	TEST_TRUE(c.a == snap + 40);
	TEST_EQ(c.alen, SNAP - 40);
	TEST_EQ(c.blen, 40);
	TEST_EQ_U64(c.rec.offset, 40);
	aux_ring__done(&r, &c);
	/* limited to 64 bytes: the newest 64, ending at head */
	TEST_EQ(aux_ring__next(&r, 64, 0, &c), 1);
	TEST_TRUE(chunk_is(&c, SNAP + 40 - 64, 64));
	TEST_EQ(c.alen, 24);
	TEST_EQ(c.blen, 40);
	TEST_EQ_U64(c.rec.offset, SNAP + 40 - 64);
	TEST_EQ_U64(pc.aux_tail, 0);
}

/* a snapshot whose only non-zero bytes are below head: not taken for wrapped */
static void test_snapshot_zero_tail(void)
{
	static uint8_t big[8192];
	struct aux_ring r;
	struct aux_chunk c;

	memset(&pc, 0, sizeof(pc));
	memset(big, 0xaa, 4096);
	TEST_EQ(aux_ring__init(&r, &pc, big, sizeof(big), true), 0);
	pc.aux_head = 4096;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(!r.wrapped);
	TEST_EQ(c.alen, 4096);
	big[sizeof(big) - 1] = 1; /* the last byte of the area written: wrapped */
	pc.aux_head = 8;
	TEST_EQ(aux_ring__next(&r, 0, 0, &c), 1);
	TEST_TRUE(r.wrapped);
	TEST_EQ(c.alen + c.blen, sizeof(big));
}

struct seen {
	unsigned int n;
	uint64_t bytes, offsets[4];
	bool data_ok;
};

static int on_user(void *ctx, const struct prism_event *ev)
{
	struct seen *s = ctx;
	struct prism_auxtrace a;
	uint64_t i;

	if (ev->type != PRISM_RECORD_AUXTRACE || prism_auxtrace__parse(ev, &a))
		return 0;
	if (s->n < 4)
		s->offsets[s->n] = a.offset;
	s->n++;
	s->bytes += a.size;
	if (!a.data || a.tid != 77 || a.idx != 0)
		s->data_ok = false;
	/* 200 bytes, then 100 and 4 of padding */
	for (i = 0; a.data && i < a.size; i++) {
		uint64_t real = a.offset == 200 ? 100 : 200;
		uint8_t want = i < real ? (uint8_t)((a.offset + i) * 7 + 1) : 0;

		if (a.data[i] != want)
			s->data_ok = false;
	}
	return 0;
}

/* two reads (one wrapped, padded) through the writer, read back by the session */
static void write_and_read(bool pipe)
{
	char path[256];
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_DUMMY,
					.sample_type = PERF_SAMPLE_TID };
	uint64_t id = 1;
	struct prism_writer_opts o = { .clockid = -1, .fd = -1 };
	struct prism_writer *w;
	struct aux_ring r;
	struct prism_session_opts so = { 0 };
	struct prism_tool tool = { .user = on_user, .auxtrace_data = true };
	struct seen s = { .data_ok = true };
	struct prism_session *ss;
	int fd = -1;

	snprintf(path, sizeof(path), "%s/prism-test-aux-%d.data",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	if (pipe) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		TEST_TRUE(fd >= 0);
		o.fd = fd;
		o.pipe = true;
	} else {
		o.path = path;
	}
	reset();
	w = prism_writer__new(&o);
	TEST_TRUE(w != NULL);
	TEST_EQ(prism_writer__add_event(w, &attr, "dummy", &id, 1, 0, 1), 0);
	TEST_EQ(prism_writer__start(w), 0);
	TEST_EQ(aux_ring__init(&r, &pc, area, SZ, false), 0);
	r.idx = 0;
	r.tid = 77;
	fill(0, 200);
	pc.aux_head = 200;
	TEST_EQ(aux_ring__read(&r, w, 0, 5), 0);
	fill(200, 300); /* wraps; 100 bytes: 4 of padding */
	pc.aux_head = 300;
	TEST_EQ(aux_ring__read(&r, w, 0, 6), 0);
	TEST_EQ(aux_ring__read(&r, w, 0, 7), 0); /* nothing new: no record */
	TEST_EQ_U64(pc.aux_tail, 300);
	TEST_EQ(prism_writer__finished_round(w), 0);
	TEST_EQ(prism_writer__finish(w), 0);
	prism_writer__free(w);
	if (fd >= 0)
		close(fd);
	so.path = path;
	ss = prism_session__open(&so);
	TEST_TRUE(ss != NULL);
	TEST_EQ(prism_session__process(ss, &tool, &s), 0);
	TEST_EQ(s.n, 2);
	TEST_EQ_U64(s.offsets[0], 0);
	TEST_EQ_U64(s.offsets[1], 200);
	TEST_EQ_U64(s.bytes, 200 + 104);
	TEST_TRUE(s.data_ok);
	if (!pipe) {
		const struct prism_feat_auxtrace *ix =
			prism_features__auxtrace(prism_session__features(ss));
		uint8_t hdr[8];
		int rfd = open(path, O_RDONLY | O_CLOEXEC);
		uint64_t i;

		TEST_TRUE(ix != NULL);
		TEST_EQ_U64(ix->nr, 2);
		TEST_EQ_U64(ix->entries[0].size, 48);
		TEST_EQ_U64(ix->entries[1].size, 48);
		for (i = 0; i < ix->nr; i++) { /* each entry points at an AUXTRACE record */
			TEST_EQ(pread(rfd, hdr, 8, (off_t)ix->entries[i].file_offset), 8);
			TEST_EQ(hdr[0], PRISM_RECORD_AUXTRACE);
			TEST_EQ(hdr[6], 48);
		}
		close(rfd);
	}
	prism_session__free(ss);
	unlink(path);
}

static void test_write_file(void)
{
	write_and_read(false);
}

static void test_write_pipe(void)
{
	write_and_read(true);
}

TEST_MAIN(TEST(sizes), TEST(empty), TEST(full_in_order), TEST(full_wrap), TEST(snapshot),
	  TEST(snapshot_zero_tail), TEST(write_file), TEST(write_pipe));
