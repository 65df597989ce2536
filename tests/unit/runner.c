// SPDX-License-Identifier: MIT
/*
 * The unit-test runner linked into every tests/unit/test-*.c binary.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

int test_failed;
const char *test_skip_reason;
static const char *cur_suite, *cur_case;

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL - %s: %s\n    %s:%d: ", cur_suite, cur_case, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	test_failed = 1;
}

const char *test_data_path(const char *name)
{
	static char buf[PATH_MAX];
	const char *src = getenv("PRISM_SRC");

	snprintf(buf, sizeof(buf), "%s/tests/data/%s", src ? src : ".", name);
	return buf;
}

const char *test_fixture_path(const char *name)
{
	static char buf[PATH_MAX];
	const char *src = getenv("PRISM_SRC");

	snprintf(buf, sizeof(buf), "%s/../shared/fixtures/%s", src ? src : ".", name);
	return access(buf, R_OK) ? NULL : buf;
}

static const char *basename_noext(const char *path)
{
	static char buf[256];
	const char *b = strrchr(path, '/');
	char *dot;

	snprintf(buf, sizeof(buf), "%s", b ? b + 1 : path);
	dot = strrchr(buf, '.');
	if (dot)
		*dot = '\0';
	return buf;
}

int test_run_all(const char *suite, const struct test_case *cases, size_t n)
{
	int failed = 0;
	size_t i;

	cur_suite = basename_noext(suite);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		cur_case = cases[i].name;
		test_failed = 0;
		test_skip_reason = NULL;
		cases[i].fn();
		if (test_failed)
			failed++;
		else if (test_skip_reason)
			printf("skip - %s: %s: %s\n", cur_suite, cur_case, test_skip_reason);
		else
			printf("ok - %s: %s\n", cur_suite, cur_case);
	}
	return failed ? 1 : 0;
}
