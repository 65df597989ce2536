// SPDX-License-Identifier: MIT
/*
 * Off-CPU workload with known block totals, in distinct functions:
 *
 *   sleeper_loop: N x nanosleep(MS)                      (state S)
 *   reader_loop:  N x read() on a pipe that a forked child (writer_loop)
 *                 feeds every MS ms                       (state S, pipe wait)
 *   join_wait:    pthread_join() of a thread that sleeps 5 x MS ms (futex wait)
 *
 * usage: offcpu-sleep [N [MS]]   (default 20 x 10 ms)
 *
 * Prints "sym NAME 0xADDR" for each of its functions (a return address
 * belongs to the nearest function starting at or below it), "child PID",
 * and "time FUNC NS": the wall-clock time spent in the blocking calls of
 * each function, measured around each call.  Off-CPU time can only be
 * lower (by the on-CPU part of the calls and any run-queue wait after
 * preemption), whatever the load of the machine.  Each wrapper call sits in a
 * helper (sleep_once, read_once) because frame-pointer unwinding skips the
 * direct caller of a glibc syscall wrapper (glibc has no frame pointers).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int nr = 20, ms = 10;
static uint64_t t_sleeper, t_writer, t_reader, t_thread, t_join;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_once(int msec, uint64_t *acc)
{
	struct timespec ts = { msec / 1000, (msec % 1000) * 1000000L };
	uint64_t t0 = now_ns();

	nanosleep(&ts, NULL);
	*acc += now_ns() - t0;
}

static void sleeper_loop(void)
{
	int i;

	for (i = 0; i < nr; i++)
		sleep_once(ms, &t_sleeper);
}

static void writer_loop(int fd)
{
	int i;

	for (i = 0; i < nr; i++) {
		sleep_once(ms, &t_writer);
		if (write(fd, "x", 1) != 1)
			_exit(1);
	}
}

static int read_once(int fd)
{
	uint64_t t0 = now_ns();
	char c;
	int ret = read(fd, &c, 1) == 1 ? 0 : -1;

	t_reader += now_ns() - t0;
	return ret;
}

static void reader_loop(int fd)
{
	int i;

	for (i = 0; i < nr; i++) {
		if (read_once(fd))
			exit(1);
	}
}

static void *thread_fn(void *arg)
{
	int i;

	for (i = 0; i < 5; i++)
		sleep_once(ms, &t_thread);
	return arg;
}

static void join_wait(void)
{
	pthread_t t;
	uint64_t t0;

	if (pthread_create(&t, NULL, thread_fn, NULL))
		exit(1);
	t0 = now_ns();
	if (pthread_join(t, NULL))
		exit(1);
	t_join += now_ns() - t0;
}

int main(int argc, char **argv)
{
	int fds[2], status;
	pid_t child;

	if (argc > 1)
		nr = atoi(argv[1]);
	if (argc > 2)
		ms = atoi(argv[2]);
	printf("sym sleep_once %p\nsym sleeper_loop %p\nsym writer_loop %p\n", (void *)sleep_once,
	       (void *)sleeper_loop, (void *)writer_loop);
	printf("sym read_once %p\nsym reader_loop %p\nsym thread_fn %p\n", (void *)read_once,
	       (void *)reader_loop, (void *)thread_fn);
	printf("sym join_wait %p\nsym main %p\n", (void *)join_wait, (void *)main);
	fflush(stdout);

	sleeper_loop();

	if (pipe(fds))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		close(fds[0]);
		writer_loop(fds[1]);
		printf("time writer_loop %llu\n", (unsigned long long)t_writer);
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	printf("child %d\n", (int)child);
	fflush(stdout);
	reader_loop(fds[0]);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;

	join_wait();
	printf("time sleeper_loop %llu\ntime reader_loop %llu\n", (unsigned long long)t_sleeper,
	       (unsigned long long)t_reader);
	printf("time thread_fn %llu\ntime join_wait %llu\n", (unsigned long long)t_thread,
	       (unsigned long long)t_join);
	return 0;
}
