// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/pmu.h>
#include <prism/tracefs.h>

#include "record/pmu-internal.h"
#include "test.h"

#define TEST_CONTAINS(hay, needle)                                                      \
	do {                                                                            \
		const char *h_ = (hay), *n_ = (needle);                                 \
		if (!h_ || !strstr(h_, n_))                                             \
			TEST_FAIL("expected \"%s\" in \"%s\"", n_, h_ ? h_ : "(null)"); \
	} while (0)

static struct prism_evspecs *l;

/* parse @str into a fresh list; returns the error */
static int parse(const char *str)
{
	prism_evspecs__free(l);
	l = prism_evspecs__new();
	return prism_evspecs__parse(l, str);
}

static struct prism_evspec *ev(size_t i)
{
	return prism_evspecs__get(l, i);
}

static void test_software(void)
{
	static const struct {
		const char *name;
		uint64_t config;
	} sw[] = {
		{ "cpu-clock", 0 },	 { "task-clock", 1 },	    { "page-faults", 2 },
		{ "faults", 2 },	 { "context-switches", 3 }, { "cs", 3 },
		{ "cpu-migrations", 4 }, { "migrations", 4 },	    { "minor-faults", 5 },
		{ "major-faults", 6 },	 { "alignment-faults", 7 }, { "emulation-faults", 8 },
		{ "dummy", 9 },		 { "bpf-output", 10 },
	};
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(sw); i++) {
		if (parse(sw[i].name))
			TEST_FAIL("'%s': %s", sw[i].name, prism_evspecs__error(l));
		TEST_EQ(prism_evspecs__nr(l), 1);
		TEST_EQ(ev(0)->attr.type, PERF_TYPE_SOFTWARE);
		TEST_EQ_U64(ev(0)->attr.config, sw[i].config);
		TEST_STREQ(ev(0)->name, sw[i].name);
		TEST_EQ(ev(0)->attr.size, sizeof(struct perf_event_attr));
		TEST_EQ(ev(0)->leader, 0);
		TEST_EQ(ev(0)->nr_members, 1);
		TEST_TRUE(!ev(0)->tracepoint);
		/* perf's default without modifiers: host only */
		TEST_EQ(ev(0)->attr.exclude_guest, 1);
		TEST_EQ(ev(0)->attr.exclude_user + ev(0)->attr.exclude_kernel, 0);
		TEST_EQ(ev(0)->attr.sample_period, 0);
		TEST_TRUE(!ev(0)->user_period && !ev(0)->user_freq);
	}
}

static void test_hardware(void)
{
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t config;
	} hw[] = {
		{ "cycles", PERF_TYPE_HARDWARE, 0 },
		{ "cpu-cycles", PERF_TYPE_HARDWARE, 0 },
		{ "instructions", PERF_TYPE_HARDWARE, 1 },
		{ "cache-references", PERF_TYPE_HARDWARE, 2 },
		{ "cache-misses", PERF_TYPE_HARDWARE, 3 },
		{ "branches", PERF_TYPE_HARDWARE, 4 },
		{ "branch-instructions", PERF_TYPE_HARDWARE, 4 },
		{ "branch-misses", PERF_TYPE_HARDWARE, 5 },
		{ "bus-cycles", PERF_TYPE_HARDWARE, 6 },
		{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, 7 },
		{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, 8 },
		{ "ref-cycles", PERF_TYPE_HARDWARE, 9 },
		{ "L1-dcache-loads", PERF_TYPE_HW_CACHE, 0 },
		{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000 },
		{ "l1d", PERF_TYPE_HW_CACHE, 0 },
		{ "LLC-loads", PERF_TYPE_HW_CACHE, 2 },
		{ "LLC-store-misses", PERF_TYPE_HW_CACHE, 2 | 1 << 8 | 1 << 16 },
		{ "dTLB-prefetches", PERF_TYPE_HW_CACHE, 3 | 2 << 8 },
		{ "iTLB-load-misses", PERF_TYPE_HW_CACHE, 4 | 1 << 16 },
		{ "branch-loads", PERF_TYPE_HW_CACHE, 5 },
		{ "L1-icache-speculative-read-miss", PERF_TYPE_HW_CACHE, 1 | 2 << 8 | 1 << 16 },
		{ "r1a8", PERF_TYPE_RAW, 0x1a8 },
	};
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(hw); i++) {
		if (parse(hw[i].name))
			TEST_FAIL("'%s': %s", hw[i].name, prism_evspecs__error(l));
		TEST_EQ(ev(0)->attr.type, hw[i].type);
		TEST_EQ_U64(ev(0)->attr.config, hw[i].config);
		TEST_STREQ(ev(0)->name, hw[i].name);
	}
	/* iTLB has no store op (perf's table) */
	TEST_EQ(parse("iTLB-stores"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unknown event 'iTLB-stores'");
}

static void test_modifiers(void)
{
	struct perf_event_attr *a;

	TEST_EQ(parse("cpu-clock:u"), 0);
	a = &ev(0)->attr;
	TEST_STREQ(ev(0)->name, "cpu-clock:u");
	TEST_EQ(a->exclude_user, 0);
	TEST_EQ(a->exclude_kernel, 1);
	TEST_EQ(a->exclude_hv, 1);
	TEST_EQ(a->exclude_guest, 1);

	TEST_EQ(parse("cpu-clock:k"), 0);
	a = &ev(0)->attr;
	TEST_EQ(a->exclude_user, 1);
	TEST_EQ(a->exclude_kernel, 0);
	TEST_EQ(a->exclude_hv, 1);
	TEST_EQ(a->exclude_guest, 0); /* perf: only u and p imply exclude_guest */

	TEST_EQ(parse("cs:uk"), 0);
	a = &ev(0)->attr;
	TEST_EQ(a->exclude_user + a->exclude_kernel, 0);
	TEST_EQ(a->exclude_hv, 1);

	TEST_EQ(parse("cpu-clock:h"), 0);
	TEST_EQ(ev(0)->attr.exclude_user, 1);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
	TEST_EQ(ev(0)->attr.exclude_hv, 0);

	TEST_EQ(parse("task-clock:ppp"), 0);
	TEST_EQ(ev(0)->attr.precise_ip, 3);
	TEST_EQ(ev(0)->attr.exclude_guest, 1);
	TEST_EQ(parse("cycles:pp"), 0);
	TEST_EQ(ev(0)->attr.precise_ip, 2);
	TEST_EQ(parse("cycles:up"), 0);
	TEST_EQ(ev(0)->attr.precise_ip, 1);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);

	TEST_EQ(parse("cpu-clock:S"), 0);
	TEST_TRUE(ev(0)->sample_read);
	TEST_EQ(ev(0)->attr.exclude_guest, 0);
	TEST_EQ(parse("cpu-clock:D"), 0);
	TEST_EQ(ev(0)->attr.pinned, 1);

	TEST_EQ(parse("cpu-clock:G"), 0);
	TEST_EQ(ev(0)->attr.exclude_host, 1);
	TEST_EQ(ev(0)->attr.exclude_guest, 0);
	TEST_EQ(parse("cpu-clock:Gu"), 0); /* G given: u no longer implies exclude_guest */
	TEST_EQ(ev(0)->attr.exclude_host, 1);
	TEST_EQ(ev(0)->attr.exclude_guest, 0);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
	TEST_EQ(parse("migrations:uH"), 0);
	TEST_EQ(ev(0)->attr.exclude_host, 0);
	TEST_EQ(ev(0)->attr.exclude_guest, 1);
	TEST_EQ(parse("cpu-clock:I"), 0);
	TEST_EQ(ev(0)->attr.exclude_idle, 1);
	TEST_EQ(parse("r1a8:u"), 0);
	TEST_EQ(ev(0)->attr.type, PERF_TYPE_RAW);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
}

static void test_modifier_errors(void)
{
	TEST_EQ(parse("cpu-clock:pppp"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "too many 'p' modifiers");
	TEST_EQ(prism_evspecs__error_column(l), 14);
	TEST_EQ(parse("cpu-clock:uu"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "duplicate modifier 'u'");
	TEST_EQ(parse("cs:ux"), -EINVAL);
	TEST_STREQ(prism_evspecs__error(l), "unknown modifier 'x' in ':ux' at column 5; valid "
					    "modifiers: u k h G H I p pp ppp P S D e W");
	TEST_EQ(prism_evspecs__error_column(l), 5);
	TEST_EQ(parse("cpu-clock:"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "empty modifier");
	TEST_EQ(parse("{cpu-clock:pp,cs}:pp"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "precise_ip 4");
	TEST_EQ(parse("cpu-clock:ee"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "duplicate modifier 'e'");
	TEST_EQ(parse("cpu-clock:ub"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "modifier 'b' in ':ub' at column 12");
	TEST_EQ(parse("{cpu-clock,cs:D}"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "':D' (pinned) on 'cs:D'");
	/* :P asks for precise_ip 3 and lets the open lower it; :W marks the group weak */
	TEST_EQ(parse("{cpu-clock,cs}:PW"), 0);
	TEST_EQ(ev(0)->attr.precise_ip, 3);
	TEST_TRUE(ev(0)->precise_max && ev(1)->precise_max);
	TEST_TRUE(ev(0)->weak_group);
	TEST_EQ(parse("{cpu-clock,cs}:e"), 0);
	TEST_EQ(ev(0)->attr.exclusive, 1);
	TEST_EQ(ev(1)->attr.exclusive, 0);
}

static void test_groups(void)
{
	TEST_EQ(parse("{cpu-clock,cs}:u"), 0);
	TEST_EQ(prism_evspecs__nr(l), 2);
	TEST_STREQ(ev(0)->name, "cpu-clock");
	TEST_STREQ(ev(1)->name, "cs");
	TEST_EQ(ev(0)->leader, 0);
	TEST_EQ(ev(1)->leader, 0);
	TEST_EQ(ev(0)->nr_members, 2);
	TEST_EQ(ev(1)->nr_members, 0);
	TEST_EQ(ev(1)->idx, 1);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
	TEST_EQ(ev(1)->attr.exclude_kernel, 1);
	TEST_EQ(ev(1)->attr.exclude_user, 0);

	/* group modifiers start from the member's own (perf's "add" mode) */
	TEST_EQ(parse("{cpu-clock:k,cs}:u"), 0);
	TEST_EQ(ev(0)->attr.exclude_user, 0);
	TEST_EQ(ev(0)->attr.exclude_kernel, 0);
	TEST_EQ(ev(0)->attr.exclude_hv, 1);
	TEST_STREQ(ev(0)->name, "cpu-clock:k");
	TEST_EQ(ev(1)->attr.exclude_kernel, 1);

	TEST_EQ(parse("cs,{cpu-clock,task-clock,faults},dummy"), 0);
	TEST_EQ(prism_evspecs__nr(l), 5);
	TEST_EQ(ev(0)->leader, 0);
	TEST_EQ(ev(0)->nr_members, 1);
	TEST_EQ(ev(1)->leader, 1);
	TEST_EQ(ev(1)->nr_members, 3);
	TEST_EQ(ev(2)->leader, 1);
	TEST_EQ(ev(3)->leader, 1);
	TEST_EQ(ev(3)->nr_members, 0);
	TEST_EQ(ev(4)->leader, 4);
	TEST_EQ(ev(4)->nr_members, 1);

	/* :D pins the leader only */
	TEST_EQ(parse("{cpu-clock,cs}:D"), 0);
	TEST_EQ(ev(0)->attr.pinned, 1);
	TEST_EQ(ev(1)->attr.pinned, 0);
	TEST_EQ(parse("{cpu-clock,cs:D}"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "not the leader");

	/* a second argument continues the indexes and leaders */
	TEST_EQ(parse("cs"), 0);
	TEST_EQ(prism_evspecs__parse(l, "{cpu-clock,task-clock}"), 0);
	TEST_EQ(prism_evspecs__nr(l), 3);
	TEST_EQ(ev(1)->idx, 1);
	TEST_EQ(ev(2)->idx, 2);
	TEST_EQ(ev(2)->leader, 1);
	TEST_EQ(ev(1)->nr_members, 2);
}

static void test_group_errors(void)
{
	TEST_EQ(parse("{}"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "empty group at column 1");
	TEST_EQ(parse("cs,{cpu-clock,{cs}}"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "nested group at column 15");
	TEST_EQ(parse("{cpu-clock,cs"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "missing '}' for the group opened at column 1");
	TEST_EQ(parse("{cpu-clock,,cs}"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "empty event at column 12");
	TEST_EQ(parse("cs}"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unexpected '}' at column 3");
	TEST_EQ(parse("{cs}:q"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unknown modifier 'q'");
}

static void test_terms(void)
{
	TEST_EQ(parse("cpu-clock/period=1000/"), 0);
	TEST_STREQ(ev(0)->name, "cpu-clock/period=1000/");
	TEST_EQ(ev(0)->attr.sample_period, 1000);
	TEST_EQ(ev(0)->attr.freq, 0);
	TEST_TRUE(ev(0)->user_period && !ev(0)->user_freq);

	TEST_EQ(parse("task-clock/freq=99/u"), 0);
	TEST_EQ(ev(0)->attr.freq, 1);
	TEST_EQ(ev(0)->attr.sample_freq, 99);
	TEST_TRUE(ev(0)->user_freq && !ev(0)->user_period);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);

	TEST_EQ(parse("cpu-clock/name=foo,period=0x10/:k"), 0);
	TEST_STREQ(ev(0)->name, "foo");
	TEST_EQ(ev(0)->attr.sample_period, 16);
	TEST_EQ(ev(0)->attr.exclude_user, 1);

	TEST_EQ(parse("cpu-clock/bogus=1/"), -EINVAL);
	TEST_STREQ(prism_evspecs__error(l),
		   "unknown term 'bogus' for event 'cpu-clock/bogus=1/' at column 11; valid "
		   "terms: period, freq, name");
	TEST_EQ(parse("cpu-clock/perod=1/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "(did you mean 'period'?)");
	TEST_EQ(parse("cpu-clock/period=1000,freq=9/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "both period and freq");
	TEST_EQ(parse("cpu-clock/period=12x/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "bad value '12x' for term 'period' at column 18");
	TEST_EQ(parse("cpu-clock/period=0/"), -EINVAL);
	TEST_EQ(parse("cpu-clock/period=1"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unterminated term list: '/' at column 10");
	TEST_EQ(parse("cpu-clock/period=1,/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "empty term");
	TEST_EQ(parse("/config=1/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "missing PMU name");
}

static char fake_root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void mkd(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	mkdir(path, 0755);
}

static void make_fake_sysfs(void)
{
	snprintf(fake_root, sizeof(fake_root), "/tmp/prism-evspec.XXXXXX");
	if (!mkdtemp(fake_root))
		return;
	mkd("fakepmu");
	mkd("fakepmu/format");
	mkd("fakepmu/events");
	put("fakepmu/type", "42\n");
	put("fakepmu/format/event", "config:0-7\n");
	put("fakepmu/format/umask", "config:8-15\n");
	put("fakepmu/format/edge", "config:18\n");
	put("fakepmu/format/split", "config1:0-3,8-11\n");
	put("fakepmu/format/wide", "config2:0-63\n");
	put("fakepmu/events/foo", "event=0x3c,umask=0x1\n");
	put("fakepmu/events/foo.unit", "ns\n");
	mkd("cpu");
	put("cpu/type", "4\n");
	/* intel_pt as a Skylake's sysfs has it */
	mkd("intel_pt");
	mkd("intel_pt/format");
	mkd("intel_pt/caps");
	put("intel_pt/type", "8\n");
	put("intel_pt/format/pt", "config:0\n");
	put("intel_pt/format/cyc", "config:1\n");
	put("intel_pt/format/mtc", "config:9\n");
	put("intel_pt/format/tsc", "config:10\n");
	put("intel_pt/format/noretcomp", "config:11\n");
	put("intel_pt/format/branch", "config:13\n");
	put("intel_pt/format/mtc_period", "config:14-17\n");
	put("intel_pt/format/cyc_thresh", "config:19-22\n");
	put("intel_pt/format/psb_period", "config:24-27\n");
	put("intel_pt/caps/mtc", "1\n");
	put("intel_pt/caps/mtc_periods", "249\n");
	put("intel_pt/caps/psb_cyc", "1\n");
	put("intel_pt/caps/psb_periods", "3f\n");
	put("intel_pt/caps/cycle_thresholds", "3fff\n");
}

static void remove_fake_sysfs(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", fake_root);
	pmu_set_sysfs_root(NULL);
}

static void test_pmu_terms(void)
{
	make_fake_sysfs();
	pmu_set_sysfs_root(fake_root);

	if (parse("fakepmu/event=0x3c,umask=2/"))
		TEST_FAIL("%s", prism_evspecs__error(l));
	TEST_EQ(ev(0)->attr.type, 42);
	TEST_EQ_U64(ev(0)->attr.config, 0x23c);
	TEST_STREQ(ev(0)->name, "fakepmu/event=0x3c,umask=2/");

	TEST_EQ(parse("fakepmu/split=0xab/"), 0);
	TEST_EQ_U64(ev(0)->attr.config1, 0xa0b);
	TEST_EQ(parse("fakepmu/edge/"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 1 << 18);
	TEST_EQ(parse("fakepmu/wide=0xffffffffffffffff/"), 0);
	TEST_EQ_U64(ev(0)->attr.config2, UINT64_MAX);
	TEST_EQ(parse("fakepmu/foo/u"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 0x13c);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
	TEST_EQ(parse("fakepmu/config=0x1234,config1=5,period=7/"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 0x1234);
	TEST_EQ_U64(ev(0)->attr.config1, 5);
	TEST_EQ(ev(0)->attr.sample_period, 7);
	TEST_TRUE(ev(0)->user_period);

	TEST_EQ(parse("fakepmu/event=0x1ff/"), -EINVAL);
	TEST_STREQ(prism_evspecs__error(l), "value 0x1ff of term 'event' at column 9 does not "
					    "fit in its 8 bits (config:0-7)");
	TEST_EQ(parse("cs,fakepmu/evnt=1/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l),
		      "unknown term 'evnt' for PMU 'fakepmu' at column 12 (did you mean 'event'?); "
		      "valid terms: edge, event, split, umask, wide, config, config1, config2, "
		      "period, freq, name");
	TEST_EQ(prism_evspecs__error_column(l), 12);
	TEST_EQ(parse("fakepm/event=1/"), -ENOENT);
	TEST_CONTAINS(prism_evspecs__error(l),
		      "unknown PMU 'fakepm' at column 1 (did you mean "
		      "'fakepmu'?); PMUs of this machine: cpu, fakepmu, intel_pt");
	TEST_EQ(parse("fakepmu/event=1/x/y/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l),
		      "unexpected 'x/y/' after the term list at column 17");

	/* the fake tree has a type-4 PMU: it counts as a hardware PMU */
	TEST_TRUE(prism_pmu_have_hw());
	remove_fake_sysfs();
}

/* perf's default config first (tsc, mtc, mtc_period and psb_period from caps/, pt, branch) */
static void test_intel_pt_terms(void)
{
	char path[300];

	make_fake_sysfs();
	pmu_set_sysfs_root(fake_root);
	if (parse("intel_pt//u"))
		TEST_FAIL("%s", prism_evspecs__error(l));
	TEST_EQ(ev(0)->attr.type, 8);
	TEST_EQ_U64(ev(0)->attr.config, 0x300e601); /* perf 6.1's on this tree */
	TEST_TRUE(ev(0)->aux);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
	TEST_EQ(parse("intel_pt/cyc,mtc_period=3/u"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 0x300e603);
	TEST_EQ(parse("intel_pt/tsc=0,branch=0,noretcomp/"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 0x300ca01);
	TEST_EQ(parse("intel_pt/cyc,cyc_thresh=2,psb_period=0/"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 0x10e603);
	TEST_EQ(parse("cpu-clock"), 0);
	TEST_TRUE(!ev(0)->aux);
	TEST_EQ(parse("intel_pt/mtc_period=16/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "does not fit in its 4 bits (config:14-17)");
	/* values caps/ does not list, as perf checks them */
	TEST_EQ(parse("intel_pt/mtc_period=2/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "invalid mtc_period=2 for intel_pt "
					       "(caps/mtc_periods): valid values are 0,3,6,9");
	TEST_EQ(parse("intel_pt/cyc_thresh=15/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "valid values are 0-13");
	TEST_EQ(parse("intel_pt/cycc/"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "(did you mean 'cyc'?)");
	/* address filters follow intel_pt, joined with commas */
	TEST_EQ(parse("intel_pt//u"), 0);
	TEST_EQ(prism_evspecs__set_filter(l, "filter 0x1000/0x100@/bin/true"), 0);
	TEST_EQ(prism_evspecs__set_filter(l, "stop 0x2000@/bin/true"), 0);
	TEST_STREQ(ev(0)->filter, "filter 0x1000/0x100@/bin/true,stop 0x2000@/bin/true");
	/* without caps/: no mtc (perf needs mtc_periods), no psb_period */
	snprintf(path, sizeof(path), "%s/intel_pt/caps/mtc_periods", fake_root);
	unlink(path);
	TEST_EQ(parse("intel_pt//"), 0);
	TEST_EQ_U64(ev(0)->attr.config, 0x2401);
	remove_fake_sysfs();
}

static void test_real_pmus(void)
{
	uint32_t type;

	pmu_set_sysfs_root(NULL);
	if (prism_pmu_type("software", &type))
		TEST_SKIP("no software PMU in /sys/bus/event_source/devices");
	TEST_EQ(type, PERF_TYPE_SOFTWARE);
	TEST_EQ(parse("software/config=3/"), 0);
	TEST_EQ(ev(0)->attr.type, PERF_TYPE_SOFTWARE);
	TEST_EQ_U64(ev(0)->attr.config, 3);
	if (prism_pmu_type("msr", &type) == 0) {
		TEST_EQ(parse("msr/tsc/"), 0);
		TEST_EQ(ev(0)->attr.type, type);
		TEST_EQ_U64(ev(0)->attr.config, 0);
	}
}

static void test_unknown(void)
{
	TEST_EQ(parse("cpu-clok"), -EINVAL);
	TEST_STREQ(prism_evspecs__error(l),
		   "unknown event 'cpu-clok' at column 1 (did you mean 'cpu-clock'?)");
	TEST_EQ(prism_evspecs__error_column(l), 1);
	TEST_EQ(parse("cycles,task-clok:u"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unknown event 'task-clok' at column 8 (did you "
					       "mean 'task-clock'?)");
	TEST_EQ(prism_evspecs__error_column(l), 8);
	TEST_EQ(parse("zzzzzzzz"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "see 'prism list'");
	TEST_EQ(parse(""), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "empty event list");
	TEST_EQ(parse("cs,"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "trailing ','");
	TEST_EQ(parse("mem:0x1000:rwxr"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unknown modifier 'r'");
	TEST_EQ(parse("mem:0x1000/16"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "1, 2, 4 or 8");
	TEST_EQ(parse("r12345678901234567"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "more than 64 bits");

	/* a failed parse appends nothing and keeps the earlier events */
	TEST_EQ(parse("cs"), 0);
	TEST_EQ(prism_evspecs__parse(l, "cpu-clock,nonsense"), -EINVAL);
	TEST_EQ(prism_evspecs__nr(l), 1);
	TEST_STREQ(ev(0)->name, "cs");
	TEST_EQ(prism_evspecs__parse(l, "dummy"), 0);
	TEST_STREQ(prism_evspecs__error(l), "");
	TEST_EQ(prism_evspecs__nr(l), 2);
}

static bool have_tracefs(void)
{
	return prism_tracefs_init(NULL) == 0;
}

static void test_tracepoints(void)
{
	char *buf;
	uint64_t id;
	size_t i;

	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	TEST_EQ(prism_tracefs_tp_id("sched", "sched_switch", &id), 0);
	TEST_EQ(prism_tracefs_read("events/sched/sched_switch/id", &buf, NULL), 0);
	TEST_EQ_U64(strtoull(buf, NULL, 10), id);
	free(buf);

	TEST_EQ(parse("sched:sched_switch"), 0);
	TEST_EQ(ev(0)->attr.type, PERF_TYPE_TRACEPOINT);
	TEST_EQ_U64(ev(0)->attr.config, id);
	TEST_EQ(ev(0)->attr.sample_period, 1);
	TEST_TRUE(ev(0)->tracepoint);
	TEST_STREQ(ev(0)->tp_sys, "sched");
	TEST_STREQ(ev(0)->tp_name, "sched_switch");
	TEST_STREQ(ev(0)->name, "sched:sched_switch");
	TEST_TRUE(ev(0)->filter == NULL);

	/* perf names tracepoints without their modifiers */
	TEST_EQ(parse("sched:sched_switch:k"), 0);
	TEST_STREQ(ev(0)->name, "sched:sched_switch");
	TEST_EQ(ev(0)->attr.exclude_user, 1);

	TEST_EQ(parse("sched:sched_wak*"), 0);
	TEST_TRUE(prism_evspecs__nr(l) >= 2);
	for (i = 0; i < prism_evspecs__nr(l); i++) {
		TEST_TRUE(!strncmp(ev(i)->tp_name, "sched_wak", 9));
		TEST_EQ(ev(i)->leader, (int)i);
		if (i)
			TEST_TRUE(strcmp(ev(i - 1)->tp_name, ev(i)->tp_name) < 0);
	}

	TEST_EQ(parse("{raw_syscalls:sys_enter,raw_syscalls:sys_exit}:u"), 0);
	TEST_EQ(prism_evspecs__nr(l), 2);
	TEST_EQ(ev(1)->leader, 0);
	TEST_EQ(ev(0)->nr_members, 2);
	TEST_EQ(ev(1)->attr.exclude_kernel, 1);

	TEST_EQ(parse("{sched:sched_wak*}"), 0);
	TEST_EQ(ev(0)->nr_members, (int)prism_evspecs__nr(l));
}

static void test_tracepoint_errors(void)
{
	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	TEST_EQ(parse("sched:sched_swich"), -ENOENT);
	TEST_CONTAINS(prism_evspecs__error(l), "no tracepoint named 'sched:sched_swich' at "
					       "column 1; closest: sched:sched_switch");
	TEST_EQ(parse("cs,schd:sched_switch"), -ENOENT);
	TEST_CONTAINS(prism_evspecs__error(l), "at column 4; closest: sched:sched_switch");
	TEST_EQ(parse("sched:nothing_like_this*"), -ENOENT);
	TEST_CONTAINS(prism_evspecs__error(l),
		      "no tracepoint matches 'sched:nothing_like_this*' at column 1");
	TEST_EQ(parse("sched:"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "expected 'system:name'");
	TEST_EQ(parse("sched:sched$switch"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "bad character");
	TEST_EQ(parse("sched_switch"), -EINVAL);
	TEST_STREQ(prism_evspecs__error(l), "unknown event 'sched_switch' at column 1 (did you "
					    "mean 'sched:sched_switch'?)");
	TEST_TRUE(parse("sched:../../x") < 0);
	TEST_EQ(parse("sched:..:u"), -EINVAL);
}

static void test_filter(void)
{
	TEST_EQ(parse("cpu-clock"), 0);
	TEST_EQ(prism_evspecs__set_filter(l, "common_pid != 1"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l),
		      "follows -e 'cpu-clock', which is neither a tracepoint");
	prism_evspecs__free(l);
	l = prism_evspecs__new();
	TEST_EQ(prism_evspecs__set_filter(l, "common_pid != 1"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "must follow a -e option");

	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	TEST_EQ(parse("sched:sched_switch"), 0);
	TEST_EQ(prism_evspecs__parse(l, "sched:sched_wakeup,sched:sched_waking"), 0);
	TEST_EQ(prism_evspecs__set_filter(l, "pid != 0"), 0);
	TEST_TRUE(ev(0)->filter == NULL);
	TEST_STREQ(ev(1)->filter, "pid != 0");
	TEST_STREQ(ev(2)->filter, "pid != 0");
	TEST_EQ(prism_evspecs__set_filter(l, "prio < 100"), 0);
	TEST_STREQ(ev(2)->filter, "(pid != 0) && (prio < 100)");
	TEST_EQ(prism_evspecs__set_filter(l, ""), -EINVAL);
	/* a failed parse does not move the filter target */
	TEST_EQ(prism_evspecs__parse(l, "nonsense"), -EINVAL);
	TEST_EQ(prism_evspecs__set_filter(l, "x == 1"), 0);
	TEST_TRUE(ev(0)->filter == NULL);
	TEST_CONTAINS(ev(1)->filter, "x == 1");
}

static void test_evsyms(void)
{
	const struct prism_evsym *s;
	size_t n, i;

	s = prism_evsyms(PRISM_EVSYM_SOFTWARE, &n);
	TEST_EQ(n, 12);
	for (i = 1; i < n; i++)
		TEST_TRUE(strcmp(s[i - 1].name, s[i].name) < 0);
	s = prism_evsyms(PRISM_EVSYM_HARDWARE, &n);
	TEST_EQ(n, 10);
	TEST_STREQ(s[0].alias, "cycles");
	s = prism_evsyms(PRISM_EVSYM_HW_CACHE, &n);
	TEST_EQ(n, 32);
	TEST_STREQ(s[0].name, "L1-dcache-loads");
	TEST_STREQ(s[1].name, "L1-dcache-load-misses");
	TEST_EQ_U64(s[1].config, 0x10000);
	/* every listed name parses back to its config */
	for (i = 0; i < n; i++) {
		if (parse(s[i].name))
			TEST_FAIL("'%s': %s", s[i].name, prism_evspecs__error(l));
		TEST_EQ_U64(ev(0)->attr.config, s[i].config);
	}
}

static void test_format_parse(void)
{
	struct pmu_format f;
	struct perf_event_attr a;
	char buf[64];

	TEST_EQ(pmu_format__parse(&f, "config:0-7,32-35\n"), 0);
	TEST_EQ(f.field, 0);
	TEST_EQ(f.nr_ranges, 2);
	TEST_EQ(pmu_format__bits(&f), 12);
	pmu_format__str(&f, buf, sizeof(buf));
	TEST_STREQ(buf, "config:0-7,32-35");
	memset(&a, 0, sizeof(a));
	TEST_EQ(pmu_format__apply(&f, 0xabc, &a), 0);
	TEST_EQ_U64(a.config, 0xbc | (0xaULL << 32));
	TEST_EQ(pmu_format__apply(&f, 0x1000, &a), -ERANGE);
	TEST_EQ(pmu_format__parse(&f, "config3:1"), 0);
	TEST_EQ(pmu_format__parse(&f, "conf:1"), -EINVAL);
	TEST_EQ(pmu_format__parse(&f, "config:7-3"), -EINVAL);
	TEST_EQ(pmu_format__parse(&f, "config:64"), -EINVAL);
	TEST_EQ(pmu_format__parse(&f, "config:1-2x"), -EINVAL);
}

static void cleanup(void)
{
	prism_evspecs__free(l);
	l = NULL;
}

static void test_zz_cleanup(void)
{
	cleanup();
}

/* mem:addr[/len][:rwx][:mods]: perf's defaults (rw, 4 bytes, 8 for x) and names */
static void test_breakpoints(void)
{
	TEST_EQ(parse("mem:0x1000/8:w:u,mem:4096"), 0);
	TEST_EQ(ev(0)->attr.type, PERF_TYPE_BREAKPOINT);
	TEST_EQ_U64(ev(0)->attr.bp_addr, 0x1000);
	TEST_EQ_U64(ev(0)->attr.bp_len, 8);
	TEST_EQ(ev(0)->attr.bp_type, 2);
	TEST_EQ(ev(0)->attr.exclude_kernel, 1);
	TEST_EQ_U64(ev(0)->attr.sample_period, 1);
	TEST_STREQ(ev(0)->name, "mem:0x1000");
	TEST_EQ(ev(1)->attr.bp_type, 3);
	TEST_EQ_U64(ev(1)->attr.bp_addr, 4096);
	TEST_EQ_U64(ev(1)->attr.bp_len, 4);
	TEST_STREQ(ev(1)->name, "mem:4096");
	TEST_EQ(parse("{mem:0x1000:x,cs}:k"), 0);
	TEST_EQ_U64(ev(0)->attr.bp_len, 8);
	TEST_EQ(ev(0)->attr.bp_type, 4);
	TEST_EQ(ev(0)->leader, 0);
	TEST_EQ(ev(1)->leader, 0);
	TEST_EQ(parse("mem:0x1000:rw:k"), 0);
	TEST_STREQ(ev(0)->name, "mem:0x1000:rw:k");
	TEST_EQ(parse("mem:0x1000:w/4"), -EINVAL);
	TEST_CONTAINS(prism_evspecs__error(l), "unexpected '/4'");
}

TEST_MAIN(TEST(software), TEST(hardware), TEST(modifiers), TEST(modifier_errors), TEST(groups),
	  TEST(group_errors), TEST(terms), TEST(pmu_terms), TEST(intel_pt_terms), TEST(real_pmus),
	  TEST(unknown), TEST(breakpoints), TEST(tracepoints), TEST(tracepoint_errors),
	  TEST(filter), TEST(evsyms), TEST(format_parse), TEST(zz_cleanup));
