// SPDX-License-Identifier: MIT
/*
 * Call tables of the utilization analysis: small tables searched without
 * an index and big ones with it, tables still right after a report sorted
 * them, and process tables merged on demand in reused memory
 * (prism_util__process_calls()).
 */
#include <stdlib.h>
#include <string.h>

#include <prism/util.h>

#include "test.h"
#include "util-test.h"

#define US 1000ULL

static struct prism_util *u;
static uint64_t now;

static void start(void)
{
	prism_util__free(u);
	u = prism_util__new(NULL);
	prism_util__set_arch(u, "x86_64");
	now = 1000 * US;
}

/* syscall @id of @tid (thread of @pid) on CPU 0, lasting @dur ns */
static void call(uint32_t pid, uint32_t tid, int64_t id, uint64_t dur)
{
	struct prism_util_event e = {
		.type = PRISM_UTIL_EV_SYS_ENTER, .time = now, .pid = pid, .tid = tid, .a = id
	};

	TEST_EQ(prism_util__event(u, &e), 0);
	e.type = PRISM_UTIL_EV_SYS_EXIT;
	e.time = now += dur;
	TEST_EQ(prism_util__event(u, &e), 0);
	now += US;
}

static const struct prism_util_result *report(void)
{
	return util_report(u);
}

static const struct prism_util_process *process(const struct prism_util_result *r, uint32_t pid)
{
	size_t i;

	for (i = 0; r && i < r->nr_processes; i++)
		if (r->processes[i].pid == pid)
			return &r->processes[i];
	return NULL;
}

static const struct prism_util_task *task(const struct prism_util_result *r, uint32_t tid)
{
	size_t i, j;

	for (i = 0; r && i < r->nr_processes; i++)
		for (j = 0; j < r->processes[i].nr_tasks; j++)
			if (r->processes[i].tasks[j]->tid == tid)
				return r->processes[i].tasks[j];
	return NULL;
}

static const struct prism_util_call *find(size_t n, const struct prism_util_call *v, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/*
 * 40 syscalls, call i made i + 1 times lasting (i + 1) us, (i + 2) us, ...,
 * in an order that mixes them: past 16 calls the table needs its index.
 */
static void many_calls(uint32_t pid, uint32_t tid, int64_t base)
{
	int round, i;

	for (round = 0; round < 40; round++)
		for (i = 39; i >= round; i--)
			call(pid, tid, base + i, (uint64_t)(i + 1 + round) * US);
}

static void check_many(size_t n, const struct prism_util_call *v, int64_t base, uint64_t times)
{
	int i;

	TEST_EQ(n, 40);
	for (i = 0; i < 40; i++) {
		const struct prism_util_call *c = find(n, v, base + i);
		uint64_t k = (uint64_t)i + 1, sum = k * k + k * (k - 1) / 2;

		TEST_TRUE(c != NULL);
		TEST_EQ(c->count, times * k);
		TEST_EQ(c->elapsed, times * sum * US);
		TEST_EQ(c->min, k * US);
		TEST_EQ(c->max, 2 * k * US - US);
		TEST_TRUE(c->name && c->name[0]);
	}
}

static void test_small_table(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;
	int round, i;

	start();
	/* 10 calls in turn, 3 times: each found again by searching the table */
	for (round = 0; round < 3; round++)
		for (i = 0; i < 10; i++)
			call(100, 100, i, (uint64_t)(i + 1) * US);
	r = report();
	t = task(r, 100);
	TEST_TRUE(t != NULL);
	TEST_EQ(t->nr_calls[PRISM_UTIL_SYSCALL], 10);
	for (i = 0; i < 10; i++) {
		const struct prism_util_call *c =
			find(t->nr_calls[PRISM_UTIL_SYSCALL], t->calls[PRISM_UTIL_SYSCALL], i);

		TEST_TRUE(c != NULL);
		TEST_EQ(c->count, 3);
		TEST_EQ(c->elapsed, 3 * (uint64_t)(i + 1) * US);
	}
}

static void test_small_and_indexed_tables(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	many_calls(100, 100, 0);
	r = report();
	t = task(r, 100);
	TEST_TRUE(t != NULL);
	check_many(t->nr_calls[PRISM_UTIL_SYSCALL], t->calls[PRISM_UTIL_SYSCALL], 0, 1);
	/* sorted by count: the most made call first */
	TEST_EQ(t->calls[PRISM_UTIL_SYSCALL][0].id, 39);
}

static void test_tables_right_after_a_report(void)
{
	const struct prism_util_result *r;
	const struct prism_util_task *t;

	start();
	many_calls(100, 100, 0);
	prism_util__finish(u);
	TEST_EQ(prism_util__report(u, NULL, &r), 0);
	TEST_TRUE(r != NULL);
	/* the report sorted the table in place and dropped its index: a second one */
	r = report();
	t = task(r, 100);
	TEST_TRUE(t != NULL);
	check_many(t->nr_calls[PRISM_UTIL_SYSCALL], t->calls[PRISM_UTIL_SYSCALL], 0, 1);
}

static void test_process_tables_merged_on_demand(void)
{
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS];
	size_t nr[PRISM_UTIL_NR_KINDS];
	const struct prism_util_result *r;
	const struct prism_util_process *a, *b;
	const struct prism_util_call *c;

	start();
	/* process 100: two threads making the same 40 calls; process 200: others */
	many_calls(100, 100, 0);
	many_calls(100, 101, 0);
	many_calls(200, 200, 1000);
	call(200, 200, 7, 3 * US);
	r = report();
	a = process(r, 100);
	b = process(r, 200);
	TEST_TRUE(a && b);
	TEST_EQ(a->nr_tasks, 2);
	TEST_EQ(prism_util__process_calls(u, a, nr, calls), 0);
	check_many(nr[PRISM_UTIL_SYSCALL], calls[PRISM_UTIL_SYSCALL], 0, 2);
	TEST_EQ(nr[PRISM_UTIL_IRQ] + nr[PRISM_UTIL_SOFTIRQ] + nr[PRISM_UTIL_HCALL], 0);
	/* the next process reuses the memory: nothing of the first may remain */
	TEST_EQ(prism_util__process_calls(u, b, nr, calls), 0);
	TEST_EQ(nr[PRISM_UTIL_SYSCALL], 41);
	TEST_TRUE(find(nr[PRISM_UTIL_SYSCALL], calls[PRISM_UTIL_SYSCALL], 0) == NULL);
	c = find(nr[PRISM_UTIL_SYSCALL], calls[PRISM_UTIL_SYSCALL], 7);
	TEST_TRUE(c && c->count == 1 && c->elapsed == 3 * US);
	TEST_TRUE(c && !strcmp(c->name, "poll"));
	/* and back: the same numbers */
	TEST_EQ(prism_util__process_calls(u, a, nr, calls), 0);
	check_many(nr[PRISM_UTIL_SYSCALL], calls[PRISM_UTIL_SYSCALL], 0, 2);
}

static void test_zz_free(void)
{
	prism_util__free(u);
	u = NULL;
}

TEST_MAIN(TEST(small_table), TEST(small_and_indexed_tables), TEST(tables_right_after_a_report),
	  TEST(process_tables_merged_on_demand), TEST(zz_free))
