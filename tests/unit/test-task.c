// SPDX-License-Identifier: MIT
/* The task model: comm names of any length, fork and exec, many threads. */
#include <stdio.h>

#include <prism/event.h>
#include <prism/task.h>

#include "test.h"

static int comm(struct prism_tasks *t, uint32_t pid, uint32_t tid, const char *name, bool exec)
{
	struct prism_event ev = { .type = PERF_RECORD_COMM };

	ev.comm.pid = pid;
	ev.comm.tid = tid;
	ev.comm.comm = name;
	ev.comm.exec = exec;
	return prism_tasks__event(t, &ev);
}

static int fork_ev(struct prism_tasks *t, uint32_t ptid, uint32_t pid, uint32_t tid)
{
	struct prism_event ev = { .type = PERF_RECORD_FORK };

	ev.fork.ptid = ptid;
	ev.fork.ppid = ptid;
	ev.fork.pid = pid;
	ev.fork.tid = tid;
	return prism_tasks__event(t, &ev);
}

/* kworkers' names from /proc are longer than the kernel's 16: kept whole, as perf */
static void test_long_comm(void)
{
	static const char name[] = "kworker/u8:4-events_unbound";
	struct prism_tasks *t = prism_tasks__new();

	TEST_TRUE(t != NULL);
	TEST_EQ(comm(t, 54, 54, name, false), 0);
	TEST_STREQ(prism_tasks__comm(t, 54), name);
	/* a child inherits it whole, then an exec gives a short one */
	TEST_EQ(fork_ev(t, 54, 60, 60), 0);
	TEST_STREQ(prism_tasks__comm(t, 60), name);
	TEST_EQ(comm(t, 60, 60, "sh", true), 0);
	TEST_STREQ(prism_tasks__comm(t, 60), "sh");
	TEST_EQ(prism_tasks__nr_execs(t, 60), 1);
	/* exactly 16 characters stay inline, 17 do not */
	TEST_EQ(comm(t, 61, 61, "0123456789abcdef", false), 0);
	TEST_STREQ(prism_tasks__comm(t, 61), "0123456789abcdef");
	TEST_EQ(comm(t, 61, 61, "0123456789abcdefg", false), 0);
	TEST_STREQ(prism_tasks__comm(t, 61), "0123456789abcdefg");
	TEST_STREQ(prism_tasks__comm(t, 0), "swapper");
	TEST_TRUE(prism_tasks__comm(t, 999) == NULL);
	prism_tasks__free(t);
}

/* names survive the table's growth (long ones are heap copies) */
static void test_many(void)
{
	struct prism_tasks *t = prism_tasks__new();
	char name[64], want[64];
	uint32_t i;

	for (i = 1; i <= 3000; i++) {
		snprintf(name, sizeof(name), "%s-%u", i % 2 ? "a-rather-long-thread-name" : "t", i);
		TEST_EQ(comm(t, i, i, name, false), 0);
	}
	for (i = 1; i <= 3000; i++) {
		snprintf(want, sizeof(want), "%s-%u", i % 2 ? "a-rather-long-thread-name" : "t", i);
		TEST_STREQ(prism_tasks__comm(t, i), want);
	}
	prism_tasks__free(t);
}

TEST_MAIN(TEST(long_comm), TEST(many));
