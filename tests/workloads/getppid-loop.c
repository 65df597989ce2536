// SPDX-License-Identifier: MIT
/*
 * getppid-loop N [-t]: makes exactly N getppid() system calls (default
 * 100000), through syscall(2) so libc cannot cache or skip any of them.
 * With -t it prints "<loop ns> <end CLOCK_REALTIME ns>" on stderr at the end
 * (for bench/record.sh: loop time, and exit time to compare with the
 * recorder's).  No other syscall happens inside the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
	int timed = argc > 2 && !strcmp(argv[2], "-t");
	long long t0 = timed ? ns(CLOCK_MONOTONIC) : 0;
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (timed)
		fprintf(stderr, "%lld %lld\n", ns(CLOCK_MONOTONIC) - t0, ns(CLOCK_REALTIME));
	return 0;
}
