// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>

#include <prism/evspec.h>
#include <prism/tp.h>
#include <prism/tracefs.h>
#include <prism/tracing-data.h>

#include "tp/blob.h"
#include "test.h"

static bool have_tracefs(void)
{
	return prism_tracefs_init(NULL) == 0;
}

/* the blob's sections as lib/tp/blob.c sees them */
static void test_layout(void)
{
	struct prism_evspecs *l;
	struct tp_blob b;
	void *buf;
	size_t len, blob_len, i, nr_sched = 0, found = 0;
	char *fmt;

	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	l = prism_evspecs__new();
	TEST_EQ(prism_evspecs__parse(l, "sched:sched_switch,raw_syscalls:sys_enter,"
					"sched:sched_switch:u,sched:sched_wakeup"),
		0);
	TEST_EQ(prism_tracing_data_build(l, &buf, &blob_len), 0);
	TEST_TRUE(blob_len > 100);
	TEST_MEMEQ(buf, "\027\010Dtracing0.6", 14);
	TEST_EQ(tp_blob__parse(&b, buf, blob_len), 0);
	TEST_STREQ(b.version, "0.6");
	TEST_EQ(b.long_size, sizeof(long));
	TEST_EQ(b.nr_ftrace, 0);
	/* sched_switch once (asked twice), sched_wakeup, sys_enter, in tracefs order */
	TEST_EQ(b.nr_formats, 3);
	for (i = 0; i < b.nr_formats; i++) {
		if (!strcmp(b.formats[i].system, "sched"))
			nr_sched++;
		else
			TEST_STREQ(b.formats[i].system, "raw_syscalls");
	}
	TEST_EQ(nr_sched, 2);
	/* one system's formats are contiguous */
	TEST_TRUE(!strcmp(b.formats[0].system, b.formats[1].system) ||
		  !strcmp(b.formats[1].system, b.formats[2].system));
	TEST_EQ(prism_tracefs_read("events/sched/sched_switch/format", &fmt, &len), 0);
	for (i = 0; i < b.nr_formats; i++)
		if (b.formats[i].text.size == len && !memcmp(b.formats[i].text.data, fmt, len))
			found++;
	free(fmt);
	TEST_EQ(found, 1);
	TEST_TRUE(b.header_page.size > 0);
	TEST_TRUE(b.header_event.size > 0);
	TEST_EQ(b.kallsyms.size, 0);
	/* saved_cmdlines is the last section and ends the blob */
	TEST_TRUE(b.cmdlines.data + b.cmdlines.size == (const char *)buf + blob_len);
	for (i = 0; i < b.nr_formats; i++)
		TEST_TRUE(b.formats[i].text.size > 0);
	tp_blob__release(&b);
	free(buf);
	prism_evspecs__free(l);
}

static void test_roundtrip(void)
{
	struct prism_evspecs *l;
	const struct prism_tp_event *sw, *se;
	struct prism_tp *tp;
	uint64_t sw_id, se_id;
	void *buf;
	size_t len;

	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	if (!prism_feature_enabled(PRISM_FEATURE_LIBTRACEEVENT))
		TEST_SKIP("built without libtraceevent");
	l = prism_evspecs__new();
	TEST_EQ(prism_evspecs__parse(l, "sched:sched_switch,raw_syscalls:sys_enter"), 0);
	TEST_EQ(prism_tracefs_tp_id("sched", "sched_switch", &sw_id), 0);
	TEST_EQ(prism_tracefs_tp_id("raw_syscalls", "sys_enter", &se_id), 0);
	TEST_EQ(prism_tracing_data_build(l, &buf, &len), 0);
	tp = prism_tp__new(buf, len);
	free(buf);
	prism_evspecs__free(l);
	if (!tp)
		TEST_FAIL("prism_tp__new: errno %d", errno);
	TEST_EQ(prism_tp__nr_events(tp), 2);
	sw = prism_tp__event(tp, sw_id);
	se = prism_tp__event(tp, se_id);
	TEST_TRUE(sw && se);
	TEST_STREQ(prism_tp_event__name(sw), "sched_switch");
	TEST_STREQ(prism_tp_event__system(sw), "sched");
	TEST_STREQ(prism_tp_event__name(se), "sys_enter");
	TEST_STREQ(prism_tp_event__system(se), "raw_syscalls");
	TEST_TRUE(prism_tp_event__field(sw, "prev_pid") != NULL);
	TEST_TRUE(prism_tp_event__field(sw, "next_comm") != NULL);
	TEST_TRUE(prism_tp_field__is_string(prism_tp_event__field(sw, "next_comm")));
	TEST_TRUE(prism_tp_event__field(sw, "common_pid") != NULL);
	TEST_TRUE(prism_tp_event__field(se, "id") != NULL);
	TEST_EQ(prism_tp_field__nr_elems(prism_tp_event__field(se, "args")), 6);
	prism_tp__free(tp);
}

static void test_no_tracepoints(void)
{
	struct prism_evspecs *l;
	struct tp_blob b;
	void *buf;
	size_t len;

	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	l = prism_evspecs__new();
	TEST_EQ(prism_evspecs__parse(l, "cpu-clock"), 0);
	TEST_EQ(prism_tracing_data_build(l, &buf, &len), 0);
	TEST_EQ(tp_blob__parse(&b, buf, len), 0);
	TEST_EQ(b.nr_formats, 0);
	tp_blob__release(&b);
	free(buf);
	prism_evspecs__free(l);
}

static void test_ftrace_section(void)
{
	struct prism_evspecs *l;
	struct tp_blob b;
	void *buf;
	size_t len;

	if (!have_tracefs())
		TEST_SKIP("tracefs is not usable here (not mounted, or not readable without root)");
	l = prism_evspecs__new();
	if (prism_evspecs__parse(l, "ftrace:print,sched:sched_switch")) {
		prism_evspecs__free(l);
		TEST_SKIP("no ftrace:print tracepoint");
	}
	TEST_EQ(prism_tracing_data_build(l, &buf, &len), 0);
	TEST_EQ(tp_blob__parse(&b, buf, len), 0);
	TEST_EQ(b.nr_ftrace, 1);
	TEST_STREQ(b.formats[0].system, "ftrace");
	TEST_EQ(b.nr_formats, 2);
	TEST_STREQ(b.formats[1].system, "sched");
	tp_blob__release(&b);
	free(buf);
	prism_evspecs__free(l);
}

TEST_MAIN(TEST(layout), TEST(roundtrip), TEST(no_tracepoints), TEST(ftrace_section));
