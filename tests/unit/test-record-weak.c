// SPDX-License-Identifier: MIT
/*
 * Opening fallbacks of the recorder, live (cpu-clock of a short workload):
 * a weak group (:W) the kernel refuses as a group is opened as single
 * events; without :W the same group is an error that names the event.
 * Skips when perf_event_open is not allowed.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <prism/features.h>
#include <prism/record.h>
#include <prism/session.h>

#include "test.h"

static const char *tmp_path(void)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/prism-test-weak-%d.data",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	return buf;
}

/* false (the case skips, saying why) when perf_event_open is not allowed here */
static bool can_open(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .size = sizeof(a),
				     .config = PERF_COUNT_SW_CPU_CLOCK,
				     .disabled = 1 };
	int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0) {
		test_skip_reason = "perf_event_open is not allowed here";
		return false;
	}
	close(fd);
	return true;
}

/*
 * {cpu-clock, cpu-clock with exclusive} as a group: the kernel refuses an
 * exclusive member (EINVAL) but takes it alone.  Returns prism_record__open()'s
 * result; *@groups gets the number of groups the file describes.
 */
static int record_pair(bool weak, int *groups, char *err, size_t len)
{
	static const char *const argv[] = { "true", NULL };
	struct prism_record_opts o = { .argv = argv, .output = tmp_path() };
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK,
				     .sample_period = 100000 };
	struct prism_record_event lead = {
		.attr = a, .name = "cpu-clock", .leader = 0, .nr_members = 2, .weak_group = weak
	};
	struct prism_record_event member = { .attr = a, .name = "cpu-clock:e", .leader = 0 };
	struct prism_record *r = prism_record__new(&o);
	int ret;

	*groups = -1;
	if (!r)
		return -errno;
	member.attr.exclusive = 1;
	ret = prism_record__add_event(r, &lead);
	if (!ret)
		ret = prism_record__add_event(r, &member);
	if (!ret)
		ret = prism_record__open(r);
	if (!ret)
		ret = prism_record__run(r);
	snprintf(err, len, "%s", ret ? prism_record__error(r) : "");
	prism_record__free(r);
	if (!ret) {
		struct prism_session_opts so = { .path = tmp_path() };
		struct prism_session *s = prism_session__open(&so);
		const struct prism_feat_group_desc *gd;

		if (!s)
			return -EIO;
		gd = prism_features__group_desc(prism_session__features(s));
		*groups = gd ? (int)gd->nr : 0;
		prism_session__free(s);
	}
	unlink(tmp_path());
	return ret;
}

static void test_weak_group_opened_apart(void)
{
	char err[512];
	int groups;

	if (can_open()) {
		TEST_EQ(record_pair(true, &groups, err, sizeof(err)), 0);
		TEST_EQ(groups, 0);
	}
}

static void test_strong_group_fails(void)
{
	char err[512];
	int groups;

	if (can_open()) {
		TEST_TRUE(record_pair(false, &groups, err, sizeof(err)) < 0);
		TEST_TRUE(strstr(err, "cpu-clock:e") != NULL);
	}
}

TEST_MAIN(TEST(weak_group_opened_apart), TEST(strong_group_fails));
