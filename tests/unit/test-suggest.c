// SPDX-License-Identifier: MIT
#include <stdint.h>

#include <prism/suggest.h>

#include "test.h"

static void test_distance(void)
{
	TEST_EQ(prism_edit_distance("", ""), 0);
	TEST_EQ(prism_edit_distance("script", "script"), 0);
	TEST_EQ(prism_edit_distance("scirpt", "script"), 1); /* swap */
	TEST_EQ(prism_edit_distance("scrip", "script"), 1);
	TEST_EQ(prism_edit_distance("kitten", "sitting"), 3);
	TEST_EQ(prism_edit_distance("abc", ""), 3);
}

static void test_distance_too_long(void)
{
	char big[300];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	TEST_TRUE(prism_edit_distance(big, "a") == SIZE_MAX);
}

static void test_suggest(void)
{
	static const char *const cmds[] = { "header", "stats", "script", "record", "report" };

	TEST_STREQ(prism_suggest("scirpt", cmds, 5), "script");
	TEST_STREQ(prism_suggest("reprot", cmds, 5), "report");
	TEST_STREQ(prism_suggest("stat", cmds, 5), "stats");
	TEST_STREQ(prism_suggest("hea", cmds, 5), "header");
	TEST_TRUE(prism_suggest("bogus", cmds, 5) == NULL);
	TEST_TRUE(prism_suggest("x", cmds, 5) == NULL);
	TEST_TRUE(prism_suggest("script", cmds, 0) == NULL);
}

/* a name the word starts beats a closer edit: 'rep' is report, not help */
static void test_suggest_prefix(void)
{
	static const char *const cmds[] = { "help", "header", "script", "record", "report" };

	TEST_STREQ(prism_suggest("rep", cmds, 5), "report");
	TEST_STREQ(prism_suggest("scr", cmds, 5), "script");
	TEST_STREQ(prism_suggest("rec", cmds, 5), "record");
	TEST_STREQ(prism_suggest("re", cmds, 5), "record"); /* several: the first */
	TEST_STREQ(prism_suggest("hepl", cmds, 5), "help");
}

TEST_MAIN(TEST(distance), TEST(distance_too_long), TEST(suggest), TEST(suggest_prefix));
