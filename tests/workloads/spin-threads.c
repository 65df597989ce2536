// SPDX-License-Identifier: MIT
/*
 * spin-threads T S: T threads call getppid() in a loop for S seconds (the
 * main thread sleeps), for prism stat's -p/-t/--per-thread tests.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double secs;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *spin(void *arg)
{
	double end = now() + secs;

	while (now() < end)
		syscall(SYS_getppid);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2, i;
	pthread_t t[64];

	secs = argc > 2 ? atof(argv[2]) : 2;
	if (n < 1 || n > 64)
		return 2;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, spin, NULL))
			return 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
