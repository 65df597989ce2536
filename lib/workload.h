/* SPDX-License-Identifier: MIT */
/*
 * A command run under measurement (record, stat): forked first, held on a
 * pipe before its exec while the events are opened on its pid, then
 * released.  A failed exec reports its errno through a close-on-exec pipe.
 * Not installed.
 */
#ifndef PRISM_WORKLOAD_H
#define PRISM_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

struct prism_workload {
	pid_t pid; /* 0 before fork */
	int go_fd; /* write end of the pipe the child waits on, or -1 */
	int exec_err_fd; /* read end: the child's exec errno, or EOF; -1 */
	int pidfd; /* pidfd_open() of the child, or -1 (old kernels) */
};

#define PRISM_WORKLOAD_INIT   \
	{                     \
		0, -1, -1, -1 \
	}

/*
 * Fork @argv[0] (looked up in $PATH here, so the child makes one execve)
 * and hold it before its exec.  @stdout_to_stderr: the child's standard
 * output goes to standard error (a data stream on prism's stdout).
 * Return: 0, or -errno of pipe/fork (nothing left behind).
 */
int prism_workload_fork(struct prism_workload *w, const char *const *argv, bool stdout_to_stderr);

/*
 * Let the child exec.  Return: 0 when the exec succeeded; -EIO when the
 * child could not be told (*@exec_err 0); a negative errno with *@exec_err
 * set to the exec's errno when the exec failed.
 */
int prism_workload_release(struct prism_workload *w, int *exec_err);

/*
 * Close the pipes and the pidfd; a child never released (or @term) gets
 * SIGTERM, then it is waited for unless @exited.  Return: the wait
 * status (0 when it was waited for earlier).
 */
int prism_workload_end(struct prism_workload *w, bool term, bool exited);

#endif /* PRISM_WORKLOAD_H */
