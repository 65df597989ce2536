// SPDX-License-Identifier: MIT
/*
 * hot-spin S: spin in user space for S seconds (0: until killed), nearly
 * all the time in hot_spin(), called by main(): the known hot function and
 * caller of prism top's hot view tests.
 */
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* a few million iterations between clock reads */
__attribute__((noinline)) unsigned long hot_spin(unsigned long x)
{
	unsigned long i;

	for (i = 0; i < 20000000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0, end = now() + secs;
	volatile unsigned long sink = 1;

	while (!secs || now() < end)
		sink = hot_spin(sink);
	return (int)(sink & 0);
}
