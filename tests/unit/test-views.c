// SPDX-License-Identifier: MIT
/*
 * lib/data/views: views of regular files' bytes, the way the time sort
 * reads records back in place: the bytes are the file's, a record starting
 * anywhere in a 2 MiB block is whole in its view, a few views can be pinned
 * at once over all files, and unpinned ones are reused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "data/input.h"
#include "data/views.h"
#include "test.h"

#define MiB ((uint64_t)1 << 20)
#define FILE_SIZE (11 * MiB + 12345)

static unsigned char byte_at(uint64_t off)
{
	return (unsigned char)(off * 2654435761u >> 13);
}

/* a FILE_SIZE file of byte_at() bytes at @path (64 bytes), opened; NULL on failure */
static struct prism_input *make_file(char *path)
{
	static unsigned char buf[1 << 16];
	uint64_t off = 0;
	FILE *f;
	int fd;

	snprintf(path, 64, "/tmp/prism-test-views-XXXXXX");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		return NULL;
	while (off < FILE_SIZE) {
		size_t n = FILE_SIZE - off < sizeof(buf) ? (size_t)(FILE_SIZE - off) : sizeof(buf);
		size_t i;

		for (i = 0; i < n; i++)
			buf[i] = byte_at(off + i);
		if (fwrite(buf, 1, n, f) != n)
			break;
		off += n;
	}
	if (fclose(f) || off != FILE_SIZE)
		return NULL;
	return prism_input__open(path, -1);
}

/* the view at @off holds the file's bytes, *@avail of them */
static bool view_ok(const unsigned char *p, uint64_t off, size_t avail)
{
	size_t i;

	if (!p)
		return false;
	for (i = 0; i < avail; i += 4093)
		if (p[i] != byte_at(off + i))
			return false;
	return p[avail - 1] == byte_at(off + avail - 1);
}

static void test_view_bytes(void)
{
	char path[64];
	struct prism_input *in = make_file(path);
	struct prism_views *vs = prism_views__new();
	const unsigned char *p;
	size_t avail = 0;

	TEST_TRUE(in && vs);
	if (!in || !vs)
		goto out;
	p = prism_views__get(vs, in, 0, &avail);
	TEST_TRUE(view_ok(p, 0, avail));
	TEST_TRUE(avail >= 2 * MiB);
	prism_views__put(vs, in, 0);
	/* 8 bytes before a block's end: a whole record still fits */
	p = prism_views__get(vs, in, 4 * MiB - 8, &avail);
	TEST_TRUE(view_ok(p, 4 * MiB - 8, avail));
	TEST_TRUE(avail >= 65535);
	prism_views__put(vs, in, 4 * MiB - 8);
	/* near the end: up to the end */
	p = prism_views__get(vs, in, FILE_SIZE - 100, &avail);
	TEST_TRUE(view_ok(p, FILE_SIZE - 100, avail));
	TEST_EQ(avail, 100);
	prism_views__put(vs, in, FILE_SIZE - 100);
	TEST_TRUE(prism_views__get(vs, in, FILE_SIZE, &avail) == NULL);
	TEST_TRUE(prism_views__get(vs, in, UINT64_MAX, &avail) == NULL);
out:
	prism_views__free(vs);
	prism_input__free(in);
	unlink(path);
}

/* pinned views stay; a full set refuses a new block until one is unpinned */
static void test_view_pins(void)
{
	char path[64];
	struct prism_input *in = make_file(path);
	struct prism_views *vs = prism_views__new();
	const unsigned char *p[4], *q;
	size_t avail, i;

	TEST_TRUE(in && vs);
	if (!in || !vs)
		goto out;
	for (i = 0; i < 4; i++) {
		p[i] = prism_views__get(vs, in, i * 2 * MiB + 8 * i, &avail);
		TEST_TRUE(view_ok(p[i], i * 2 * MiB + 8 * i, avail));
	}
	/* a fifth block: every view is pinned */
	TEST_TRUE(prism_views__get(vs, in, 9 * MiB, &avail) == NULL);
	/* a pinned block is shared */
	q = prism_views__get(vs, in, 2 * MiB + 4096, &avail);
	TEST_TRUE(view_ok(q, 2 * MiB + 4096, avail));
	TEST_TRUE(q == p[1] + 4096 - 8);
	prism_views__put(vs, in, 2 * MiB + 4096);
	/* still pinned once: no room yet */
	TEST_TRUE(prism_views__get(vs, in, 9 * MiB, &avail) == NULL);
	prism_views__put(vs, in, 2 * MiB + 8);
	q = prism_views__get(vs, in, 9 * MiB, &avail);
	TEST_TRUE(view_ok(q, 9 * MiB, avail));
	/* the others were left alone */
	for (i = 0; i < 4; i++)
		if (i != 1)
			TEST_TRUE(view_ok(p[i], i * 2 * MiB + 8 * i, 4096));
	/* unpinned views are reused, the least recently used first */
	prism_views__put(vs, in, 9 * MiB);
	prism_views__put(vs, in, 0);
	q = prism_views__get(vs, in, 10 * MiB, &avail); /* takes block 0's slot */
	TEST_TRUE(view_ok(q, 10 * MiB, avail));
	q = prism_views__get(vs, in, 8 * MiB + 16, &avail); /* block 4 is still mapped */
	TEST_TRUE(view_ok(q, 8 * MiB + 16, avail));
	TEST_TRUE(prism_views__get(vs, in, 0, &avail) == NULL); /* all pinned again */
out:
	prism_views__free(vs); /* unmaps pinned views too */
	prism_input__free(in);
	unlink(path);
}

/*
 * The views are shared by all files (directory-format perf.data has one per
 * writer thread): the same block of two files is two views, and pinned
 * views of one file leave no room for another's.
 */
static void test_view_files(void)
{
	char path_a[64], path_b[64];
	struct prism_input *a = make_file(path_a), *b = make_file(path_b);
	struct prism_views *vs = prism_views__new();
	const unsigned char *pa, *pb;
	size_t avail, i;

	TEST_TRUE(a && b && vs);
	if (!a || !b || !vs)
		goto out;
	pa = prism_views__get(vs, a, 64, &avail);
	pb = prism_views__get(vs, b, 64, &avail);
	TEST_TRUE(view_ok(pa, 64, 4096) && view_ok(pb, 64, 4096));
	TEST_TRUE(pa != pb);
	for (i = 1; i < 3; i++)
		TEST_TRUE(prism_views__get(vs, a, i * 2 * MiB, &avail) != NULL);
	TEST_TRUE(prism_views__get(vs, b, 6 * MiB, &avail) == NULL);
	prism_views__put(vs, b, 64);
	TEST_TRUE(view_ok(prism_views__get(vs, b, 6 * MiB, &avail), 6 * MiB, avail));
out:
	prism_views__free(vs);
	prism_input__free(a);
	prism_input__free(b);
	unlink(path_a);
	unlink(path_b);
}

/* pipes have no views */
static void test_view_pipe(void)
{
	struct prism_views *vs = prism_views__new();
	int fds[2];
	struct prism_input *in;
	size_t avail;

	TEST_EQ(pipe(fds), 0);
	in = prism_input__open(NULL, fds[0]);
	TEST_TRUE(in != NULL && vs != NULL);
	if (in && vs)
		TEST_TRUE(prism_views__get(vs, in, 0, &avail) == NULL);
	prism_views__free(vs);
	prism_input__free(in);
	close(fds[0]);
	close(fds[1]);
}

TEST_MAIN(TEST(view_bytes), TEST(view_pins), TEST(view_files), TEST(view_pipe));
