// SPDX-License-Identifier: MIT
/*
 * util-mix: a workload for prism util's tests, with forks, execs, threads
 * and sleeps, making known numbers of syscalls:
 *
 *	main        2 threads, each 2000 getppid() and 5 x 2 ms nanosleep();
 *	            a fork() child doing 1000 getppid() then exec'ing itself as
 *	            "util-mix exec N": 500 getppid() and a 1 ms sleep;
 *	            a vfork() child exec'ing itself as "util-mix noop";
 *	            waits for everything, then sleeps 10 ms.
 *
 * usage: util-mix [loops]   (multiplies the getppid() counts; default 1)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long loops = 1;

static void spin_syscalls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static void *thread_main(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 5; i++) {
		spin_syscalls(400 * loops);
		sleep_ms(2);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	char nbuf[32];
	pid_t child, vchild;
	int i, status;

	if (argc > 1 && !strcmp(argv[1], "noop"))
		return 0;
	if (argc > 2 && !strcmp(argv[1], "exec")) {
		loops = atol(argv[2]);
		spin_syscalls(500 * loops);
		sleep_ms(1);
		return 0;
	}
	if (argc > 1)
		loops = atol(argv[1]);
	if (loops < 1)
		loops = 1;
	snprintf(nbuf, sizeof(nbuf), "%ld", loops);

	for (i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, thread_main, NULL)) {
			fprintf(stderr, "util-mix: pthread_create failed\n");
			return 1;
		}
	child = fork();
	if (child == 0) {
		spin_syscalls(1000 * loops);
		execl("/proc/self/exe", "util-mix", "exec", nbuf, (char *)NULL);
		_exit(127);
	}
	vchild = vfork();
	if (vchild == 0) {
		execl("/proc/self/exe", "util-mix", "noop", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (child < 0 || vchild < 0) {
		fprintf(stderr, "util-mix: fork failed\n");
		return 1;
	}
	waitpid(child, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	waitpid(vchild, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	sleep_ms(10);
	return 0;
}
