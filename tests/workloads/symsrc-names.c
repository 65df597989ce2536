// SPDX-License-Identifier: MIT
/*
 * A workload whose function names say which build they come from: built
 * with -DSRC=<tag>, its two hot functions are <tag>_alpha and <tag>_beta.
 * Builds that differ only in the tag and share a build id (-Wl,--build-id=0x..)
 * have the same code at the same addresses, so a profile of one names its
 * samples after whichever build's symbols the reader loads (t0606).  Runs
 * for argv[1] milliseconds (default 300).
 */
#include <stdlib.h>
#include <time.h>

#ifndef SRC
#define SRC plain
#endif
#define JOIN2(a, b) a##_##b
#define JOIN(a, b) JOIN2(a, b)

static volatile unsigned long sink;

void __attribute__((noinline)) JOIN(SRC, alpha)(void);
void __attribute__((noinline)) JOIN(SRC, beta)(void);

void __attribute__((noinline)) JOIN(SRC, alpha)(void)
{
	unsigned long i;

	for (i = 0; i < 40000; i++)
		sink += i ^ (sink >> 3);
}

void __attribute__((noinline)) JOIN(SRC, beta)(void)
{
	unsigned long i;

	for (i = 0; i < 40000; i++)
		sink ^= i + (sink << 1);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300, end = now_ms() + ms;

	while (now_ms() < end) {
		JOIN(SRC, alpha)();
		JOIN(SRC, beta)();
	}
	return 0;
}
