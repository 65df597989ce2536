// SPDX-License-Identifier: MIT
/*
 * sysloop: a syscall loop for the reader benchmark.
 *
 *   sysloop SECONDS [THREADS] [spin]
 *
 * Each thread calls getppid() (a cheap syscall that glibc never caches) in a
 * loop until SECONDS have passed, or, with "spin", burns CPU without system
 * calls (for cpu-clock profiles).  Prints the number of loop iterations.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int stop;
static int spin;

static __attribute__((noinline)) unsigned long leaf(unsigned long x)
{
	return x * 2654435761u + 1;
}

static __attribute__((noinline)) unsigned long middle(unsigned long x)
{
	int i;

	for (i = 0; i < 64; i++)
		x = leaf(x);
	return x;
}

static void *worker(void *arg)
{
	unsigned long n = 0, x = 1;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (spin)
			x = middle(x);
		else
			syscall(SYS_getppid);
		n++;
	}
	*(unsigned long *)arg = n + (x == 0);
	return NULL;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	int nthreads = argc > 2 ? atoi(argv[2]) : 1;
	unsigned long counts[64] = { 0 }, total = 0;
	pthread_t th[64];
	struct timespec ts;
	int i;

	spin = argc > 3 && argv[3][0] == 's';
	if (secs <= 0 || nthreads < 1 || nthreads > 64) {
		fprintf(stderr, "usage: sysloop SECONDS [THREADS (1-64)] [spin]\n");
		return 2;
	}
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, worker, &counts[i])) {
			perror("sysloop: pthread_create");
			return 1;
		}
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	nanosleep(&ts, NULL);
	atomic_store(&stop, 1);
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		total += counts[i];
	}
	printf("%lu\n", total);
	return 0;
}
