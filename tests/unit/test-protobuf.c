// SPDX-License-Identifier: MIT
/*
 * lib/export/protobuf.c and intern.c: the wire format against the
 * encodings protobuf's own documentation gives (varint 150 = 08 96 01,
 * "testing", a nested message, a packed field), the gzip sink round trip,
 * and the interning tables.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/core.h>

#if HAVE_ZLIB
#include <zlib.h>
#endif

#include "export/intern.h"
#include "export/protobuf.h"
#include "test.h"

static void test_varints(void)
{
	static const struct {
		uint64_t v;
		uint8_t bytes[10];
		size_t n;
	} cases[] = {
		{ 0, { 0x00 }, 1 },
		{ 1, { 0x01 }, 1 },
		{ 127, { 0x7f }, 1 },
		{ 128, { 0x80, 0x01 }, 2 },
		{ 300, { 0xac, 0x02 }, 2 },
		{ UINT64_MAX, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 }, 10 },
	};
	struct pb pb = PB_INIT;
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(cases); i++) {
		pb_reset(&pb);
		pb_raw_varint(&pb, cases[i].v);
		TEST_EQ(pb.len, cases[i].n);
		TEST_EQ(pb_varint_size(cases[i].v), cases[i].n);
		TEST_MEMEQ(pb.buf, cases[i].bytes, cases[i].n);
	}
	pb_release(&pb);
}

/* the examples of protobuf.dev's encoding guide */
static void test_documented_messages(void)
{
	static const uint8_t m150[] = { 0x08, 0x96, 0x01 };
	static const uint8_t testing[] = { 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g' };
	static const uint8_t nested[] = { 0x1a, 0x03, 0x08, 0x96, 0x01 };
	static const uint8_t packed[] = { 0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05 };
	static const uint64_t vals[] = { 3, 270, 86942 };
	struct pb pb = PB_INIT, sub = PB_INIT;

	pb_varint(&pb, 1, 150);
	TEST_EQ(pb.len, sizeof(m150));
	TEST_MEMEQ(pb.buf, m150, sizeof(m150));
	pb_reset(&pb);
	pb_string(&pb, 2, "testing");
	TEST_EQ(pb.len, sizeof(testing));
	TEST_MEMEQ(pb.buf, testing, sizeof(testing));
	pb_reset(&pb);
	pb_varint(&sub, 1, 150);
	pb_msg(&pb, 3, &sub);
	TEST_EQ(pb.len, sizeof(nested));
	TEST_MEMEQ(pb.buf, nested, sizeof(nested));
	pb_reset(&pb);
	pb_packed(&pb, 4, vals, 3);
	TEST_EQ(pb.len, sizeof(packed));
	TEST_MEMEQ(pb.buf, packed, sizeof(packed));
	pb_reset(&pb);
	pb_packed(&pb, 4, vals, 0);
	TEST_EQ(pb.len, 0);
	TEST_TRUE(!pb.failed);
	pb_release(&pb);
	pb_release(&sub);
}

static void test_zigzag_and_fixed(void)
{
	static const uint8_t fixed[] = { 0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	static const uint8_t one_d[] = { 0x11, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };
	struct pb pb = PB_INIT;

	pb_sint(&pb, 1, -1);
	TEST_EQ(pb.buf[1], 1);
	pb_reset(&pb);
	pb_sint(&pb, 1, 1);
	TEST_EQ(pb.buf[1], 2);
	pb_reset(&pb);
	pb_sint(&pb, 1, INT64_MIN);
	TEST_EQ(pb.len, 11); /* tag + 10 bytes of UINT64_MAX */
	pb_reset(&pb);
	pb_fixed64(&pb, 1, 0x0102030405060708ull);
	TEST_MEMEQ(pb.buf, fixed, sizeof(fixed));
	pb_reset(&pb);
	pb_double(&pb, 2, 1.0);
	TEST_MEMEQ(pb.buf, one_d, sizeof(one_d));
	pb_release(&pb);
}

static void test_large_field_numbers(void)
{
	struct pb pb = PB_INIT;

	/* TracePacket.perf_sample = 66: tag 66 << 3 | 2 = 530 = 0x92 0x04 */
	pb_bytes(&pb, 66, "", 0);
	TEST_EQ(pb.len, 3);
	TEST_EQ(pb.buf[0], 0x92);
	TEST_EQ(pb.buf[1], 0x04);
	TEST_EQ(pb.buf[2], 0);
	pb_release(&pb);
}

static void test_sink_plain(void)
{
	struct pb msg = PB_INIT;
	struct pb_sink *s;
	uint8_t buf[16];
	FILE *fp = tmpfile();

	TEST_TRUE(fp);
	s = pb_sink_new(fp, false);
	TEST_TRUE(s);
	pb_varint(&msg, 1, 150);
	TEST_EQ(pb_sink_msg(s, 1, &msg), 0);
	TEST_EQ(pb_sink_bytes(s), 5);
	TEST_EQ(pb_sink_finish(s), 0);
	rewind(fp);
	TEST_EQ(fread(buf, 1, sizeof(buf), fp), 5);
	TEST_MEMEQ(buf, "\x0a\x03\x08\x96\x01", 5);
	fclose(fp);
	pb_release(&msg);
}

static void test_sink_gzip(void)
{
#if HAVE_ZLIB
	struct pb_sink *s;
	uint8_t *data = malloc(1 << 20), *back = malloc(1 << 20), *comp = malloc(1 << 20);
	size_t i, n;
	z_stream z = { 0 };
	FILE *fp = tmpfile();

	TEST_TRUE(fp && data && back && comp);
	for (i = 0; i < (1 << 20); i++)
		data[i] = (uint8_t)(rnd() % 7); /* compressible, not trivially */
	s = pb_sink_new(fp, true);
	TEST_TRUE(s);
	TEST_EQ(pb_sink_write(s, data, 1000), 0);
	TEST_EQ(pb_sink_write(s, data + 1000, (1 << 20) - 1000), 0);
	TEST_EQ(pb_sink_finish(s), 0);
	rewind(fp);
	n = fread(comp, 1, 1 << 20, fp);
	TEST_TRUE(n > 18 && n < (1 << 20));
	TEST_EQ(comp[0], 0x1f); /* the gzip magic */
	TEST_EQ(comp[1], 0x8b);
	TEST_EQ(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = comp;
	z.avail_in = (uInt)n;
	z.next_out = back;
	z.avail_out = 1 << 20;
	TEST_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
	TEST_EQ(z.total_out, 1 << 20);
	inflateEnd(&z);
	TEST_MEMEQ(back, data, 1 << 20);
	fclose(fp);
	free(data);
	free(back);
	free(comp);
#else
	TEST_SKIP("built without zlib");
#endif
}

static void test_sink_write_error(void)
{
	FILE *fp = fopen("/dev/full", "w");
	struct pb_sink *s;
	static uint8_t big[1 << 16];

	if (!fp)
		TEST_SKIP("no /dev/full");
	s = pb_sink_new(fp, false);
	TEST_TRUE(s);
	pb_sink_write(s, big, sizeof(big));
	pb_sink_write(s, big, sizeof(big));
	TEST_EQ(pb_sink_finish(s), -ENOSPC);
	fclose(fp);
}

static void test_strtab(void)
{
	struct strtab t = { 0 };
	char name[32];
	uint64_t idx, first;
	int i;

	TEST_EQ(strtab_intern(&t, "", &first), 0);
	TEST_EQ(first, 0);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "sym%d", i);
		TEST_EQ(strtab_intern(&t, name, &idx), 0);
		TEST_EQ(idx, (uint64_t)i + 1);
	}
	for (i = 4999; i >= 0; i -= 7) {
		snprintf(name, sizeof(name), "sym%d", i);
		TEST_EQ(strtab_intern(&t, name, &idx), 0);
		TEST_EQ(idx, (uint64_t)i + 1);
	}
	TEST_EQ(t.nr, 5001);
	TEST_STREQ(t.str[4242], "sym4241");
	strtab_release(&t);
}

static void test_pairmap(void)
{
	struct pairmap m = { 0 };
	uint64_t v;
	int i;

	for (i = 0; i < 20000; i++)
		TEST_EQ(pairmap_get_or_add(&m, (uint64_t)i >> 3, (uint64_t)i & 7, (uint64_t)i * 3,
					   &v),
			1);
	TEST_EQ(m.nr, 20000);
	for (i = 0; i < 20000; i += 13) {
		TEST_EQ(pairmap_get_or_add(&m, (uint64_t)i >> 3, (uint64_t)i & 7, 0, &v), 0);
		TEST_EQ_U64(v, (uint64_t)i * 3);
	}
	TEST_TRUE(pairmap_find(&m, 2500, 0) == NULL);
	TEST_TRUE(pairmap_find(&m, 0, 7) != NULL);
	pairmap_release(&m);
	TEST_TRUE(pairmap_find(&m, 0, 7) == NULL);
}

TEST_MAIN(TEST(varints), TEST(documented_messages), TEST(zigzag_and_fixed),
	  TEST(large_field_numbers), TEST(sink_plain), TEST(sink_gzip), TEST(sink_write_error),
	  TEST(strtab), TEST(pairmap));
