// SPDX-License-Identifier: MIT
/*
 * The workload of record and stat: forked before the events are opened,
 * held on a pipe, released once everything is in place, so the events start
 * at its exec (enable_on_exec).  The command is looked up in $PATH here, so
 * the child makes one execve, its own (a PATH search in the child is
 * prism's work, not the workload's: it showed as failed execve calls).
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "workload.h"

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

int prism_workload_fork(struct prism_workload *w, const char *const *argv, bool stdout_to_stderr)
{
	char file[PATH_MAX];
	int go[2], ex[2], err;
	pid_t pid;

	find_in_path(argv[0], file, sizeof(file));
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(ex, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		close(ex[0]);
		close(ex[1]);
		return err;
	}
	if (pid == 0) {
		char c;

		close(go[1]);
		close(ex[0]);
		signal(SIGPIPE, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the measurement gave up */
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		if (strchr(file, '/'))
			execv(file, (char *const *)argv);
		else
			execvp(file, (char *const *)argv);
		err = errno;
		if (write(ex[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	w->pid = pid;
	w->go_fd = go[1];
	w->exec_err_fd = ex[0];
	w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

int prism_workload_release(struct prism_workload *w, int *exec_err)
{
	char c = 1;
	int err = 0;
	ssize_t n;

	*exec_err = 0;
	if (w->go_fd < 0)
		return 0;
	n = write(w->go_fd, &c, 1);
	close(w->go_fd);
	w->go_fd = -1;
	if (n != 1)
		return -EIO;
	/* EOF = exec succeeded (close-on-exec); an int = exec's errno */
	n = read(w->exec_err_fd, &err, sizeof(err));
	close(w->exec_err_fd);
	w->exec_err_fd = -1;
	if (n == sizeof(err)) {
		*exec_err = err;
		return -err;
	}
	return 0;
}

int prism_workload_end(struct prism_workload *w, bool term, bool exited)
{
	int status = 0;

	if (w->go_fd >= 0) {
		close(w->go_fd); /* the child exits on EOF */
		w->go_fd = -1;
		term = false;
	}
	if (w->exec_err_fd >= 0) {
		close(w->exec_err_fd);
		w->exec_err_fd = -1;
	}
	if (w->pid > 0 && !exited && waitpid(w->pid, &status, WNOHANG) == 0) {
		if (term)
			kill(w->pid, SIGTERM);
		waitpid(w->pid, &status, 0);
	}
	if (w->pidfd >= 0) {
		close(w->pidfd);
		w->pidfd = -1;
	}
	return status;
}
