// SPDX-License-Identifier: MIT
/*
 * lib/stat: scaling of multiplexed counts, running statistics, derived
 * metrics, the sysfs topology, and a live count of this test's own
 * getppid() calls aggregated per thread and over repeated runs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/stat.h>

#include "test.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) < 1e-9 * (fabs((double)(b)) + 1))

static void test_scale(void)
{
	struct prism_stat_count full = { 1000, 50, 50 }, half = { 1000, 100, 50 },
				never = { 0, 100, 0 }, third = { 10, 3, 1 };
	double pct = 0;

	TEST_TRUE(prism_stat_count__scale(&full, &pct) == 1000);
	TEST_TRUE(pct == 100);
	/* ran half the time it was enabled: twice the count, 50% shown */
	TEST_TRUE(prism_stat_count__scale(&half, &pct) == 2000);
	TEST_TRUE(pct == 50);
	TEST_TRUE(prism_stat_count__scale(&never, &pct) == -1);
	TEST_TRUE(pct == 100);
	/* perf truncates the extrapolation to a whole count */
	TEST_TRUE(prism_stat_count__scale(&third, NULL) == 30);
	TEST_TRUE(prism_stat_count__scale(&(struct prism_stat_count){ 7, 0, 0 }, NULL) == -1);
}

static void test_running(void)
{
	struct prism_stat_running r = { 0 };
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	size_t i;

	TEST_TRUE(prism_stat_running__stddev(&r) == 0);
	prism_stat_running__add(&r, 3);
	TEST_TRUE(prism_stat_running__stddev(&r) == 0);
	r = (struct prism_stat_running){ 0 };
	for (i = 0; i < 8; i++)
		prism_stat_running__add(&r, v[i]);
	TEST_TRUE(NEAR(r.mean, 5));
	/* sample variance 32/7; stddev of the mean sqrt(32/7/8) */
	TEST_TRUE(NEAR(prism_stat_running__stddev(&r), sqrt(32.0 / 7 / 8)));
	TEST_TRUE(NEAR(prism_stat_running__rel_stddev(&r), 100 * sqrt(32.0 / 7 / 8) / 5));
}

static void metric(uint32_t type, uint64_t config, double count, struct prism_stat_context *ctx,
		   struct prism_stat_metric *m)
{
	struct perf_event_attr a = { .type = type, .config = config };

	prism_stat_metric(&a, count, ctx, m);
}

static void test_metrics(void)
{
	struct prism_stat_context ctx = {
		.clock_ns = 2e6, .cycles = -1, .branches = -1, .elapsed_ns = 4e6
	};
	struct prism_stat_metric m;

	metric(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 2e6, &ctx, &m);
	TEST_TRUE(m.has);
	TEST_STREQ(m.unit, "CPUs utilized");
	TEST_STREQ(m.text, "   0.500");
	/* 100 page faults in 2 ms: 50 K/sec */
	metric(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 100, &ctx, &m);
	TEST_STREQ(m.unit, "K/sec");
	TEST_STREQ(m.text, "  50.000");
	metric(PERF_TYPE_TRACEPOINT, 7, 100000, &ctx, &m);
	TEST_STREQ(m.unit, "M/sec");
	TEST_STREQ(m.text, "  50.000");
	metric(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0, &ctx, &m);
	TEST_STREQ(m.unit, "/sec");
	TEST_STREQ(m.text, "   0.000");
	metric(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 1e8, &ctx, &m);
	TEST_STREQ(m.unit, "G/sec");
	/* no clock counted: no rate */
	ctx.clock_ns = -1;
	metric(PERF_TYPE_TRACEPOINT, 7, 100000, &ctx, &m);
	TEST_TRUE(!m.has);
	/* not counted: no metric at all */
	metric(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1, &ctx, &m);
	TEST_TRUE(!m.has);
	/* hardware: GHz, IPC, branch misses */
	ctx = (struct prism_stat_context){
		.clock_ns = 1e9, .cycles = 2e9, .branches = 1000, .elapsed_ns = 1e9
	};
	metric(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 2e9, &ctx, &m);
	TEST_STREQ(m.unit, "GHz");
	TEST_STREQ(m.text, "   2.000");
	metric(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 3e9, &ctx, &m);
	TEST_STREQ(m.unit, "insn per cycle");
	TEST_STREQ(m.text, "   1.50 ");
	metric(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 25, &ctx, &m);
	TEST_STREQ(m.unit, "of all branches");
	TEST_STREQ(m.text, "   2.50%");
}

static void test_topology(void)
{
	int socket, die, core;

	if (access("/sys/devices/system/cpu/cpu0/topology/core_id", R_OK)) {
		test_skip_reason = "no sysfs CPU topology";
		return;
	}
	TEST_EQ(prism_cpu_topology(0, &socket, &die, &core), 0);
	TEST_TRUE(socket >= 0 && die >= 0 && core >= 0);
	TEST_EQ(prism_cpu_topology(1 << 20, &socket, &die, &core), -ENOENT);
}

/* count this thread's getppid() calls: @n of them between start and read */
static struct prism_stat *count_self(struct prism_evspecs *l, char *tid, int n)
{
	struct prism_stat_opts o = { .events = l, .tid_list = tid };
	struct prism_stat *s = prism_stat__new(&o);
	int i;

	if (!s)
		return NULL;
	if (prism_stat__open(s) || prism_stat__start(s)) {
		fprintf(stderr, "%s\n", prism_stat__error(s));
		prism_stat__free(s);
		return NULL;
	}
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	prism_stat__stop(s);
	if (prism_stat__read(s)) {
		prism_stat__free(s);
		return NULL;
	}
	return s;
}

static void test_live_counts(void)
{
	struct prism_evspecs *l = prism_evspecs__new();
	struct prism_stat_runs *runs = prism_stat_runs__new();
	struct prism_stat_result *r = NULL, *mean = NULL;
	struct prism_stat *s = NULL;
	char tid[32];
	int run;

	snprintf(tid, sizeof(tid), "%d", (int)syscall(SYS_gettid));
	TEST_TRUE(l && runs);
	if (geteuid() != 0 || prism_evspecs__parse(l, "syscalls:sys_enter_getppid,task-clock")) {
		test_skip_reason = "needs root and tracefs (syscalls:sys_enter_getppid)";
		goto out;
	}
	for (run = 1; run <= 3; run++) {
		prism_stat__free(s);
		s = count_self(l, tid, 1000 * run);
		if (!s) {
			test_fail(__FILE__, __LINE__, "counting failed");
			goto out;
		}
		prism_stat_result__free(r);
		r = prism_stat__aggregate(s, PRISM_STAT_AGGR_THREAD, false);
		if (!r || prism_stat_result__nr_units(r) != 1) {
			test_fail(__FILE__, __LINE__, "no per-thread result");
			goto out;
		}
		if (prism_stat_result__value(r, 0, 0)->scaled != 1000 * run ||
		    prism_stat_result__unit(r, 0)->tid != (int)syscall(SYS_gettid) ||
		    prism_stat_runs__add(runs, r)) {
			test_fail(__FILE__, __LINE__, "run %d: %.0f getppid calls, want %d", run,
				  prism_stat_result__value(r, 0, 0)->scaled, 1000 * run);
			goto out;
		}
	}
	/* per-thread counters cannot be shown per CPU */
	TEST_TRUE(prism_stat__aggregate(s, PRISM_STAT_AGGR_NONE, false) == NULL);
	mean = prism_stat_runs__mean(runs);
	TEST_TRUE(mean != NULL);
	TEST_TRUE(NEAR(prism_stat_result__value(mean, 0, 0)->scaled, 2000));
	/* 1000, 2000, 3000: stddev of the mean 1000/sqrt(3), 28.87% of 2000 */
	TEST_TRUE(NEAR(prism_stat_runs__noise(runs, 0, 0), 100 * (1000 / sqrt(3)) / 2000));
	TEST_TRUE(prism_stat_result__value(mean, 0, 1)->scaled > 0);
out:
	prism_stat_result__free(mean);
	prism_stat_result__free(r);
	prism_stat__free(s);
	prism_stat_runs__free(runs);
	prism_evspecs__free(l);
}

static void test_bad_targets(void)
{
	struct prism_stat_opts both = { .system_wide = true, .pid_list = "1" };
	struct prism_stat_opts nothread = { .tid_list = "999999999" };
	struct prism_stat *s;

	TEST_TRUE(prism_stat__new(&both) == NULL);
	TEST_TRUE(strstr(prism_stat_new_error(), "cannot be mixed") != NULL);
	s = prism_stat__new(&nothread);
	TEST_TRUE(s != NULL);
	TEST_EQ(prism_stat__open(s), -ESRCH);
	TEST_TRUE(strstr(prism_stat__error(s), "no thread 999999999") != NULL);
	prism_stat__free(s);
}

TEST_MAIN(TEST(scale), TEST(running), TEST(metrics), TEST(topology), TEST(live_counts),
	  TEST(bad_targets));
