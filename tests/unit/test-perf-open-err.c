// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <prism/perf-open.h>
#include <prism/pmu.h>

#include "test.h"

#define TEST_CONTAINS(hay, needle)                                                      \
	do {                                                                            \
		const char *h_ = (hay), *n_ = (needle);                                 \
		if (!h_ || !strstr(h_, n_))                                             \
			TEST_FAIL("expected \"%s\" in \"%s\"", n_, h_ ? h_ : "(null)"); \
	} while (0)

static int open_event(struct perf_event_attr *a, int pid, int cpu)
{
	int fd = (int)syscall(SYS_perf_event_open, a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static void init_attr(struct perf_event_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->disabled = 1;
	a->exclude_kernel = 1;
}

/* this machine has no hardware PMU: cycles must really fail, and say why */
static void test_cycles_without_pmu(void)
{
	struct perf_event_attr a;
	char msg[2048];
	int fd;

	if (prism_pmu_have_hw())
		TEST_SKIP("this machine has a hardware PMU");
	init_attr(&a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	fd = open_event(&a, 0, -1);
	if (fd >= 0) {
		close(fd);
		TEST_FAIL("cycles opened although sysfs lists no hardware PMU");
	}
	TEST_TRUE(fd == -ENOENT || fd == -EOPNOTSUPP);
	TEST_EQ(prism_event_probe(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES), fd);
	prism_perf_open_strerror(fd, &a, "cycles", msg, sizeof(msg));
	TEST_CONTAINS(msg, "event 'cycles' is not supported on this machine: no hardware PMU (a "
			   "VM without PMU passthrough?); use cpu-clock or task-clock\nhint: ");
	/* cache events and raw events map to the same missing PMU */
	init_attr(&a, PERF_TYPE_HW_CACHE, 0x10000);
	fd = open_event(&a, 0, -1);
	TEST_TRUE(fd < 0);
	prism_perf_open_strerror(fd, &a, "L1-dcache-load-misses", msg, sizeof(msg));
	TEST_CONTAINS(msg, "event 'L1-dcache-load-misses' is not supported on this machine");
	/* software events work here */
	TEST_EQ(prism_event_probe(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK), 0);
}

static void test_emfile(void)
{
	struct perf_event_attr a;
	struct rlimit old, rl;
	char msg[2048], want[128];
	int fds[64], n = 0, err = 0;

	TEST_EQ(getrlimit(RLIMIT_NOFILE, &old), 0);
	rl = old;
	rl.rlim_cur = 32;
	TEST_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0);
	init_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	while (n < 64) {
		int fd = open_event(&a, 0, -1);

		if (fd < 0) {
			err = fd;
			break;
		}
		fds[n++] = fd;
	}
	while (n)
		close(fds[--n]);
	prism_perf_open_strerror(err, &a, "dummy", msg, sizeof(msg));
	setrlimit(RLIMIT_NOFILE, &old);
	TEST_EQ(err, -EMFILE);
	TEST_CONTAINS(msg, "cannot open event 'dummy': too many open files (EMFILE)");
	snprintf(want, sizeof(want), "hint: RLIMIT_NOFILE: soft limit 32, hard limit %llu",
		 (unsigned long long)old.rlim_max);
	TEST_CONTAINS(msg, want);
	if (old.rlim_max > 32) {
		snprintf(want, sizeof(want), "'ulimit -n %llu'", (unsigned long long)old.rlim_max);
		TEST_CONTAINS(msg, want);
	}
	TEST_CONTAINS(msg, "limits.conf");
}

/* an unprivileged child opens a system-wide event: the paranoid hints */
static void test_permission_unprivileged(void)
{
	struct perf_event_attr a;
	char msg[4096] = "", want[96];
	long paranoid = 0;
	int pipefd[2], status;
	FILE *f;
	pid_t pid;
	ssize_t n;

	if (geteuid() != 0)
		TEST_SKIP("needs root to switch to an unprivileged user");
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (!f || fscanf(f, "%ld", &paranoid) != 1) {
		if (f)
			fclose(f);
		TEST_SKIP("cannot read perf_event_paranoid");
	}
	fclose(f);
	if (paranoid < 1)
		TEST_SKIP("perf_event_paranoid < 1 allows system-wide events to everyone");
	TEST_EQ(pipe(pipefd), 0);
	pid = fork();
	if (pid == 0) {
		int fd;

		close(pipefd[0]);
		if (setgid(65534) || setuid(65534))
			_exit(2);
		init_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
		fd = open_event(&a, -1, 0);
		if (fd >= 0)
			_exit(3);
		prism_perf_open_strerror_at(fd, &a, "cpu-clock", -1, 0, msg, sizeof(msg));
		if (write(pipefd[1], msg, strlen(msg)) < 0)
			_exit(4);
		_exit(0);
	}
	close(pipefd[1]);
	n = read(pipefd[0], msg, sizeof(msg) - 1);
	close(pipefd[0]);
	TEST_EQ(waitpid(pid, &status, 0), pid);
	TEST_EQ(WEXITSTATUS(status), 0);
	TEST_TRUE(n > 0);
	msg[n] = '\0';
	TEST_CONTAINS(msg, "no permission to open event 'cpu-clock'");
	snprintf(want, sizeof(want), "/proc/sys/kernel/perf_event_paranoid is %ld", paranoid);
	TEST_CONTAINS(msg, want);
	if (paranoid < 3)
		TEST_CONTAINS(msg, "was opened system-wide (-a or -C)");
	TEST_CONTAINS(msg, "CAP_PERFMON");
	TEST_CONTAINS(msg, "sysctl kernel.perf_event_paranoid=-1");
}

static void test_einval(void)
{
	struct perf_event_attr a;
	char msg[2048];
	long max_rate = 0;
	int fd;
	FILE *f;

	/* a frequency above the kernel's maximum really fails with EINVAL */
	f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (f && fscanf(f, "%ld", &max_rate) == 1 && max_rate > 0) {
		init_attr(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
		a.freq = 1;
		a.sample_freq = (uint64_t)max_rate * 10;
		fd = open_event(&a, 0, -1);
		if (fd >= 0)
			close(fd);
		TEST_EQ(fd, -EINVAL);
		prism_perf_open_strerror(fd, &a, "cpu-clock", msg, sizeof(msg));
		TEST_CONTAINS(msg, "invalid attributes for event 'cpu-clock' (EINVAL)");
		TEST_CONTAINS(msg, "above kernel.perf_event_max_sample_rate");
	}
	if (f)
		fclose(f);
	init_attr(&a, PERF_TYPE_RAW, 0x1a8);
	a.precise_ip = 2;
	prism_perf_open_strerror(EINVAL, &a, "r1a8:pp", msg, sizeof(msg));
	TEST_CONTAINS(msg, "hint: precise_ip 2 (the :pp modifier) is not supported by 'r1a8:pp'");
}

static void test_other_errors(void)
{
	struct perf_event_attr a;
	char msg[2048], small[16];

	init_attr(&a, PERF_TYPE_SOFTWARE, 0);
	prism_perf_open_strerror(-EBUSY, &a, "x", msg, sizeof(msg));
	TEST_CONTAINS(msg, "event 'x' is busy (EBUSY)");
	TEST_CONTAINS(msg, "nmi_watchdog");
	prism_perf_open_strerror(E2BIG, &a, "x", msg, sizeof(msg));
	TEST_CONTAINS(msg, "perf_event_attr size 128");
	prism_perf_open_strerror_at(ESRCH, &a, "x", 4242, -1, msg, sizeof(msg));
	TEST_STREQ(msg, "cannot open event 'x' for pid 4242: no such process");
	init_attr(&a, PERF_TYPE_TRACEPOINT, 123456);
	prism_perf_open_strerror(ENOENT, &a, "foo:bar", msg, sizeof(msg));
	TEST_CONTAINS(msg, "tracepoint 'foo:bar' (id 123456) does not exist");
	prism_perf_open_strerror(EXDEV, &a, "foo:bar", msg, sizeof(msg));
	TEST_CONTAINS(msg, "cannot open event 'foo:bar': Invalid cross-device link (errno 18)");
	/* truncated, still terminated */
	prism_perf_open_strerror(EBUSY, &a, "x", small, sizeof(small));
	TEST_EQ(strlen(small), sizeof(small) - 1);
}

TEST_MAIN(TEST(cycles_without_pmu), TEST(emfile), TEST(permission_unprivileged), TEST(einval),
	  TEST(other_errors));
