// SPDX-License-Identifier: MIT
/*
 * rss: run a command and report its wall time and peak resident set size.
 *
 *   rss [-o FILE] COMMAND [ARG...]
 *
 * Writes "WALL_SECONDS PEAK_RSS_KB EXIT_STATUS CPU_SECONDS" (one line; CPU =
 * user + system time of the command) to FILE, or to standard error.  The command's own output is left alone.  Exits with the
 * command's status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct timespec t0, t1;
	struct rusage ru;
	int status, code, i = 1;
	FILE *f = stderr;
	pid_t pid;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: rss [-o FILE] COMMAND [ARG...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("rss: fork");
		return 1;
	}
	if (!pid) {
		execvp(argv[i], argv + i);
		fprintf(stderr, "rss: cannot run %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("rss: wait4");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (out && !(f = fopen(out, "w"))) {
		fprintf(stderr, "rss: cannot write %s: %s\n", out, strerror(errno));
		return 1;
	}
	fprintf(f, "%.4f %ld %d %.4f\n",
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		ru.ru_maxrss, code,
		(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	if (out)
		fclose(f);
	return code;
}
