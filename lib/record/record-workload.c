// SPDX-License-Identifier: MIT
/*
 * The workload: forked before the events are opened, held on a pipe, and
 * released once everything is enabled; the events start at its exec
 * (enable_on_exec).  A failed exec reports its errno through a close-on-exec
 * pipe.  Its exit is watched with a pidfd so the recorder stops at once.
 * The command is looked up in $PATH here, so the child makes one execve, its
 * own (a PATH search in the child is prism's work, not the workload's: it
 * showed as failed execve calls).  With pipe output (-o -) its standard
 * output goes to standard error, as perf does, to keep the data clean.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/record-internal.h"

/* @cmd's file as execvp() would pick it: in $PATH unless it names a path */
static void find_in_path(const char *cmd, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;

	snprintf(out, len, "%s", cmd);
	if (strchr(cmd, '/') || !*cmd)
		return;
	for (p = path ? path : "/bin:/usr/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			snprintf(out, len, "./%s", cmd); /* an empty entry is the cwd */
		else
			snprintf(out, len, "%.*s/%s", (int)(end - p), p, cmd);
		if (!stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK))
			return;
	}
	snprintf(out, len, "%s", cmd); /* not found: execvp() says why */
}

int rec_workload_prepare(struct prism_record *r)
{
	/* only a stream on stdout collides with the workload's output */
	bool to_stderr = !strcmp(r->output, "-") &&
			 (r->o.output_fd <= 0 || r->o.output_fd == STDOUT_FILENO);
	char file[PATH_MAX];
	int go[2], ex[2];
	pid_t pid;

	if (!r->o.argv || !r->o.argv[0])
		return 0;
	find_in_path(r->o.argv[0], file, sizeof(file));
	if (pipe2(go, O_CLOEXEC))
		return rec_error(r, "pipe: %s", strerror(errno)), -errno;
	if (pipe2(ex, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return rec_error(r, "pipe: %s", strerror(errno)), -errno;
	}
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(go[0]);
		close(go[1]);
		close(ex[0]);
		close(ex[1]);
		return rec_error(r, "cannot start '%s': fork: %s", r->o.argv[0], strerror(err)),
		       -err;
	}
	if (pid == 0) {
		char c;
		int err;

		close(go[1]);
		close(ex[0]);
		signal(SIGPIPE, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the recorder gave up */
		if (to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		if (strchr(file, '/'))
			execv(file, (char *const *)r->o.argv);
		else
			execvp(file, (char *const *)r->o.argv);
		err = errno;
		if (write(ex[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	r->child = pid;
	r->go_fd = go[1];
	r->exec_err_fd = ex[0];
	r->child_pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

int rec_workload_start(struct prism_record *r)
{
	char c = 1;
	int err = 0;
	ssize_t n;

	if (r->go_fd < 0)
		return 0;
	n = write(r->go_fd, &c, 1);
	close(r->go_fd);
	r->go_fd = -1;
	if (n != 1)
		return rec_error(r, "cannot release the workload: %s", strerror(errno)), -EIO;
	/* EOF = exec succeeded (close-on-exec); an int = exec's errno */
	n = read(r->exec_err_fd, &err, sizeof(err));
	close(r->exec_err_fd);
	r->exec_err_fd = -1;
	if (n == sizeof(err)) {
		rec_error(r, "cannot run '%s': %s", r->o.argv[0], strerror(err));
		if (err == ENOENT)
			rec_hint(r, "check the command's name and $PATH");
		return -err;
	}
	return 0;
}

void rec_workload_kill(struct prism_record *r)
{
	if (r->go_fd >= 0) {
		close(r->go_fd); /* the child exits on EOF */
		r->go_fd = -1;
	}
	if (r->exec_err_fd >= 0) {
		close(r->exec_err_fd);
		r->exec_err_fd = -1;
	}
	if (r->child > 0 && !r->st.workload_exited) {
		int status;

		if (waitpid(r->child, &status, WNOHANG) == 0) {
			if (!r->w || r->stop) {
				/* never released, or we stop early: do not leave it behind */
				kill(r->child, SIGTERM);
			}
			waitpid(r->child, &status, 0);
		}
		r->st.workload_exited = true;
		r->st.workload_status = status;
	}
	if (r->child_pidfd >= 0) {
		close(r->child_pidfd);
		r->child_pidfd = -1;
	}
}
