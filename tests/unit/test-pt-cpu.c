// SPDX-License-Identifier: MIT
/*
 * lib/pt/cpu.c: the CPUID feature's "vendor,family,model,stepping" and the
 * errata libipt applies for it (skd010 and apl12 always).
 */
#include <errno.h>
#include <string.h>

#include <prism/error.h>
#include <prism/pt.h>
#include <prism/strbuf.h>

#include "test.h"

static void test_intel(void)
{
	struct prism_pt_cpu c;

	TEST_EQ(prism_pt_cpu__parse("GenuineIntel,6,142,10", &c), 0);
	TEST_TRUE(c.known && c.intel && c.has_stepping);
	TEST_STREQ(c.vendor, "GenuineIntel");
	TEST_EQ(c.family, 6);
	TEST_EQ(c.model, 142);
	TEST_EQ(c.stepping, 10);
	/* family + extended family: more than 15 */
	TEST_EQ(prism_pt_cpu__parse("GenuineIntel,19,1,0", &c), 0);
	TEST_EQ(c.family, 19);
	TEST_EQ(c.model, 1);
}

static void test_odd(void)
{
	struct prism_pt_cpu c;

	TEST_EQ(prism_pt_cpu__parse("AuthenticAMD,25,33,0", &c), 0);
	TEST_TRUE(c.known && !c.intel);
	TEST_STREQ(c.vendor, "AuthenticAMD");
	TEST_EQ(c.family, 25);
	TEST_EQ(c.model, 33);
	/* no stepping, or an empty one (the prefix perf compares) */
	TEST_EQ(prism_pt_cpu__parse("GenuineIntel,6,92", &c), 0);
	TEST_TRUE(c.known && c.intel && !c.has_stepping);
	TEST_EQ(c.model, 92);
	TEST_EQ(prism_pt_cpu__parse("GenuineIntel,6,92,", &c), 0);
	TEST_TRUE(c.known && !c.has_stepping);
	TEST_EQ(c.model, 92);
	/* another vendor spelled like Intel's, but not it */
	TEST_EQ(prism_pt_cpu__parse("GenuineIntelX,6,92,9", &c), 0);
	TEST_TRUE(!c.intel);
}

static void test_bad(void)
{
	static const char *const bad[] = {
		"",
		"GenuineIntel",
		"GenuineIntel,",
		"GenuineIntel,6",
		"GenuineIntel,6,",
		",6,92,9",
		"GenuineIntel,6,92,9,1",
		"GenuineIntel,x,92,9",
		"GenuineIntel,6,0x5c,9",
		"GenuineIntel,6,-1,9",
		"GenuineIntel,6,256,9",
		"GenuineIntel,65536,1,1",
		"GenuineIntel,6,92,9 ",
		"Genuine Intel,6,92,9",
		"0x00000000410fd0c0", /* arm64's MIDR */
		"ThisVendorIsTooLong,6,92,9",
		"\x01\x02,6,1,1",
	};
	struct prism_pt_cpu c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0xff, sizeof(c));
		if (prism_pt_cpu__parse(bad[i], &c) != -EINVAL)
			TEST_FAIL("'%s' parsed", bad[i]);
		TEST_TRUE(!c.known && !c.intel && !c.family);
	}
	TEST_EQ(prism_pt_cpu__parse(NULL, &c), -EINVAL);
	TEST_EQ(prism_pt_cpu__from_features(NULL, &c), -ENOENT);
	TEST_TRUE(!c.known);
}

/* the errata names for @cpuid (NULL: no CPU) */
static int errata(const char *cpuid, struct prism_strbuf *sb)
{
	struct prism_pt_cpu c = { 0 };

	sb->len = 0;
	if (cpuid && prism_pt_cpu__parse(cpuid, &c))
		return -EINVAL;
	prism_strbuf_addstr(sb, "");
	return prism_pt_cpu__errata(cpuid ? &c : NULL, sb);
}

static void test_errata(void)
{
	struct prism_strbuf sb;

	prism_strbuf_init(&sb);
	if (errata(NULL, &sb) == -PRISM_E_UNSUPPORTED) {
		prism_strbuf_release(&sb);
		TEST_SKIP("built without libipt");
	}
	TEST_STREQ(sb.buf, "skd010 apl12");
	/* Apollo Lake: libipt's apl12 and apl11 */
	TEST_EQ(errata("GenuineIntel,6,92,9", &sb), 0);
	TEST_STREQ(sb.buf, "skd010 apl12 apl11");
	/* Skylake (Kaby Lake's model): its six */
	TEST_EQ(errata("GenuineIntel,6,142,10", &sb), 0);
	TEST_STREQ(sb.buf, "bdm70 skd007 skd022 skd010 skl014 apl12 skl168");
	/* Broadwell */
	TEST_EQ(errata("GenuineIntel,6,61,4", &sb), 0);
	TEST_STREQ(sb.buf, "bdm70 bdm64 skd010 apl12");
	/* a model libipt does not know, another vendor: none but skd010 and apl12 */
	TEST_EQ(errata("GenuineIntel,6,1,0", &sb), 0);
	TEST_STREQ(sb.buf, "skd010 apl12");
	TEST_EQ(errata("AuthenticAMD,6,92,9", &sb), 0);
	TEST_STREQ(sb.buf, "skd010 apl12");
	prism_strbuf_release(&sb);
}

TEST_MAIN(TEST(intel), TEST(odd), TEST(bad), TEST(errata));
