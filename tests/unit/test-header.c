// SPDX-License-Identifier: MIT
/*
 * The file header reader on hand-made headers: version 2 ("PERFILE2") and
 * version 1 ("PERFFILE", perf 3.0-3.2, byte order told by attr_size) in
 * both byte orders, a version-1 pipe header, and the version-1 attr_size
 * that fits neither order.
 */
#include <errno.h>
#include <byteswap.h>
#include <sys/mman.h>
#include <unistd.h>

#include <prism/error.h>

#include "data/header.h"
#include "data/input.h"
#include "test.h"

#define ATTR_V1 PERF_ATTR_SIZE_VER1 /* 72: the perf_event_attr of Linux 3.0-3.3 */
#define IDS_AT 104
#define ATTR_AT (IDS_AT + 16)
#define DATA_AT (ATTR_AT + ATTR_V1 + 16)
#define FILE_SIZE (DATA_AT + 8)

static uint8_t file[FILE_SIZE];

static void put(size_t off, uint64_t v, int bytes, bool swap)
{
	if (bytes == 8) {
		v = swap ? bswap_64(v) : v;
		memcpy(file + off, &v, 8);
	} else {
		uint32_t w = swap ? bswap_32((uint32_t)v) : (uint32_t)v;

		memcpy(file + off, &w, 4);
	}
}

/*
 * header, two ids (7 and 9), one VER1 cpu-clock attr, and a data section
 * holding one FINISHED_ROUND record
 */
static void build(const char *magic, uint64_t attr_size, bool swap)
{
	memset(file, 0, sizeof(file));
	memcpy(file, magic, 8);
	put(8, 104, 8, swap);
	put(16, attr_size, 8, swap);
	put(24, ATTR_AT, 8, swap);
	put(32, ATTR_V1 + 16, 8, swap);
	put(40, DATA_AT, 8, swap);
	put(48, 8, 8, swap);
	put(IDS_AT, 7, 8, swap);
	put(IDS_AT + 8, 9, 8, swap);
	put(ATTR_AT, PERF_TYPE_SOFTWARE, 4, swap);
	put(ATTR_AT + 4, ATTR_V1, 4, swap);
	put(ATTR_AT + 8, PERF_COUNT_SW_CPU_CLOCK, 8, swap);
	put(ATTR_AT + 24, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID, 8, swap);
	put(ATTR_AT + ATTR_V1, IDS_AT, 8, swap);
	put(ATTR_AT + ATTR_V1 + 8, 16, 8, swap);
	put(DATA_AT, 68, 4, swap); /* FINISHED_ROUND */
	file[DATA_AT + (swap ? 7 : 6)] = 8; /* its u16 size */
}

static int read_built(struct prism_file_header *h, size_t len)
{
	int fd = memfd_create("header", 0), err;
	struct prism_input *in;

	if (fd < 0 || write(fd, file, len) != (ssize_t)len)
		return -errno;
	in = prism_input__open(NULL, fd);
	if (!in) {
		close(fd);
		return -errno;
	}
	err = prism_file_header__read(h, in);
	prism_input__free(in);
	close(fd);
	return err;
}

static void check_v1_attr(bool swap)
{
	struct prism_file_header h = { 0 };
	int err;

	build("PERFFILE", ATTR_V1 + 16, swap);
	err = read_built(&h, sizeof(file));
	if (err) {
		prism_file_header__release(&h);
		TEST_FAIL("read failed: %d %s", err, h.errmsg);
	}
	TEST_EQ(h.info.version, 0);
	TEST_EQ(h.info.needs_swap, swap);
	TEST_EQ(h.info.data_offset, DATA_AT);
	TEST_EQ(h.nr_attrs, 1);
	TEST_EQ(h.attrs[0].a.attr.size, ATTR_V1);
	TEST_EQ(h.attrs[0].a.attr.config, PERF_COUNT_SW_CPU_CLOCK);
	TEST_EQ_U64(h.attrs[0].a.attr.sample_type,
		    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID);
	TEST_EQ(h.attrs[0].nr_ids, 2);
	TEST_EQ(h.attrs[0].ids[0], 7);
	TEST_EQ(h.attrs[0].ids[1], 9);
	TEST_EQ(h.nr_feats, 0);
	prism_file_header__release(&h);
}

static void test_v1_native(void)
{
	check_v1_attr(false);
}

static void test_v1_swapped(void)
{
	check_v1_attr(true);
}

/* the same bytes with the version-2 magic read alike, as version 1 of perf's numbering */
static void test_v2(void)
{
	struct prism_file_header h = { 0 };

	build("PERFILE2", ATTR_V1 + 16, false);
	TEST_EQ(read_built(&h, sizeof(file)), 0);
	TEST_EQ(h.info.version, 1);
	TEST_EQ(h.nr_attrs, 1);
	TEST_EQ(h.attrs[0].nr_ids, 2);
	prism_file_header__release(&h);
}

/* 144 (perf 6.1's attr_size) is not a size of the version-1 era, in either order */
static void test_v1_unknown_attr_size(void)
{
	struct prism_file_header h = { 0 };

	build("PERFFILE", 144, false);
	TEST_EQ(read_built(&h, sizeof(file)), -PRISM_E_BAD_HEADER);
	TEST_TRUE(strstr(h.errmsg, "PERFFILE") != NULL);
	TEST_TRUE(strstr(h.errmsg, "0x90") != NULL);
	prism_file_header__release(&h);
}

static void test_v1_pipe(void)
{
	struct prism_file_header h = { 0 };

	memset(file, 0, sizeof(file));
	memcpy(file, "PERFFILE", 8);
	put(8, 16, 8, true);
	TEST_EQ(read_built(&h, 16), 0);
	TEST_TRUE(h.info.pipe);
	TEST_EQ(h.info.version, 0);
	TEST_TRUE(h.info.needs_swap);
	prism_file_header__release(&h);
}

TEST_MAIN(TEST(v1_native), TEST(v1_swapped), TEST(v2), TEST(v1_unknown_attr_size), TEST(v1_pipe));
