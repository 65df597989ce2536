// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include <prism/strbuf.h>

#include "test.h"

static void test_init_is_empty(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	TEST_EQ(sb.len, 0);
	TEST_EQ(sb.alloc, 0);
	TEST_STREQ(sb.buf, "");
	prism_strbuf_release(&sb);
}

static void test_add_and_addf(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_addstr(&sb, "pid=");
	prism_strbuf_addf(&sb, "%d", 4242);
	prism_strbuf_addch(&sb, ' ');
	prism_strbuf_add(&sb, "comm=xyz", 7);
	TEST_STREQ(sb.buf, "pid=4242 comm=xy");
	TEST_EQ(sb.len, 16);
	TEST_TRUE(!prism_strbuf_failed(&sb));
	prism_strbuf_release(&sb);
}

static void test_addf_grows_past_first_alloc(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char big[1000];
	int i;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < 10; i++)
		prism_strbuf_addf(&sb, "%s", big);
	TEST_EQ(sb.len, 9990);
	TEST_EQ(strlen(sb.buf), 9990);
	TEST_TRUE(sb.alloc > sb.len);
	prism_strbuf_release(&sb);
}

static void test_setlen_and_reset(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_addstr(&sb, "abcdef");
	prism_strbuf_setlen(&sb, 3);
	TEST_STREQ(sb.buf, "abc");
	prism_strbuf_setlen(&sb, 10);
	TEST_EQ(sb.len, 3);
	prism_strbuf_reset(&sb);
	TEST_STREQ(sb.buf, "");
	TEST_TRUE(sb.alloc > 0);
	prism_strbuf_release(&sb);
}

static void test_detach(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	s = prism_strbuf_detach(&sb, &len);
	TEST_STREQ(s, "");
	TEST_EQ(len, 0);
	free(s);
	prism_strbuf_addstr(&sb, "hello");
	s = prism_strbuf_detach(&sb, &len);
	TEST_STREQ(s, "hello");
	TEST_EQ(len, 5);
	TEST_EQ(sb.len, 0);
	TEST_STREQ(sb.buf, "");
	free(s);
}

static void test_grow_overflow_fails_cleanly(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_addstr(&sb, "ab");
	TEST_EQ(prism_strbuf_grow(&sb, SIZE_MAX - 1), -ENOMEM);
	TEST_TRUE(prism_strbuf_failed(&sb));
	prism_strbuf_addstr(&sb, "ignored");
	TEST_STREQ(sb.buf, "ab");
	TEST_TRUE(prism_strbuf_detach(&sb, NULL) == NULL);
}

static void test_add_csv_quotes_when_needed(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_add_csv(&sb, "/usr/lib/libc.so.6");
	prism_strbuf_addch(&sb, '|');
	prism_strbuf_add_csv(&sb, "a,b");
	prism_strbuf_addch(&sb, '|');
	prism_strbuf_add_csv(&sb, "say \"hi\"");
	prism_strbuf_addch(&sb, '|');
	prism_strbuf_add_csv(&sb, "two\nlines");
	prism_strbuf_addch(&sb, '|');
	prism_strbuf_add_csv(&sb, "");
	TEST_STREQ(sb.buf, "/usr/lib/libc.so.6|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"|");
	prism_strbuf_release(&sb);
}

static void test_pad_to(void)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_pad_to(&sb, 3, '.'); /* from the empty buffer */
	TEST_STREQ(sb.buf, "...");
	prism_strbuf_addstr(&sb, "abc");
	prism_strbuf_pad_to(&sb, 4, ' '); /* already longer: nothing */
	TEST_STREQ(sb.buf, "...abc");
	prism_strbuf_pad_to(&sb, 300, ' '); /* past the allocation */
	TEST_EQ(sb.len, 300);
	TEST_EQ(strlen(sb.buf), 300);
	TEST_TRUE(sb.buf[299] == ' ' && sb.buf[6] == ' ' && sb.buf[5] == 'c');
	prism_strbuf_release(&sb);
}

TEST_MAIN(TEST(init_is_empty), TEST(add_and_addf), TEST(addf_grows_past_first_alloc),
	  TEST(setlen_and_reset), TEST(detach), TEST(grow_overflow_fails_cleanly),
	  TEST(add_csv_quotes_when_needed), TEST(pad_to));
