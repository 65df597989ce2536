// SPDX-License-Identifier: MIT
/*
 * annotate-mix MS: about MS milliseconds of CPU in two hot functions, for
 * prism annotate's tests: mix_mul() (two thirds, in main) and mix_xor() (a
 * third, half of it in a thread named "mix-helper"), so one symbol has
 * samples of two commands; mix_xor's last shift is an inlined function
 * (always_inline, whatever -fno-inline says): objdump -l's "func():" lines.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

__attribute__((noinline)) unsigned long mix_mul(unsigned long x)
{
	int i;

	for (i = 0; i < 20000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return x;
}

static inline __attribute__((always_inline)) unsigned long mix_last(unsigned long x)
{
	return x ^ (x << 17);
}

__attribute__((noinline)) unsigned long mix_xor(unsigned long x)
{
	int i;

	for (i = 0; i < 10000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x = mix_last(x);
	}
	return x;
}

static double ms;

static void *helper(void *arg)
{
	volatile unsigned long sink = 3;
	double end = now() + ms / 6;

	(void)arg;
	prctl(PR_SET_NAME, "mix-helper");
	while (now() < end)
		sink = mix_xor(sink);
	return NULL;
}

int main(int argc, char **argv)
{
	volatile unsigned long sink = 1;
	pthread_t t;
	double end;

	ms = argc > 1 ? atof(argv[1]) : 300;
	if (pthread_create(&t, NULL, helper, NULL))
		return 1;
	pthread_join(t, NULL);
	end = now() + ms * 5 / 6;
	while (now() < end) {
		sink = mix_mul(sink);
		sink = mix_mul(sink);
		sink = mix_mul(sink);
		sink = mix_mul(sink);
		sink = mix_xor(sink);
	}
	return (int)(sink & 0);
}
