// SPDX-License-Identifier: MIT
/*
 * A workload of known profile for prism report's live test: main -> a -> b,
 * where b spins 70% of the CPU time and a itself the other 30% (the same
 * loop body, 7 and 3 units per round).  Runs for argv[1] milliseconds
 * (default 1000).  Built with frame pointers and without inlining.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

void __attribute__((noinline)) b(void);
void __attribute__((noinline)) a(void);
void __attribute__((noinline)) touch(void);

/* a call makes b a non-leaf: it then sets up its frame pointer like a */
void __attribute__((noinline)) touch(void)
{
	sink++;
}

void __attribute__((noinline)) b(void)
{
	unsigned long i;

	for (i = 0; i < 7 * 20000; i++)
		sink += i ^ (sink >> 3);
	touch();
}

void __attribute__((noinline)) a(void)
{
	unsigned long i;

	/* the same loop body as b's, 3 units against b's 7 */
	for (i = 0; i < 3 * 20000; i++)
		sink += i ^ (sink >> 3);
	b();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 1000, end = now_ms() + ms;

	while (now_ms() < end)
		a();
	return 0;
}
