// SPDX-License-Identifier: MIT
/*
 * The paths of file descriptors, printed after fd arguments as perf trace
 * does ("fd: 3</etc/ld.so.cache>").  perf reads /proc/PID/fd/N when it
 * prints, which races with the traced process (the fd may be closed or
 * reused by then).  Here an fd gets its path from the open that returned
 * it, with the path the string capture read (relative ones joined to the
 * directory fd's path or the process's cwd), loses it at close and is
 * copied by dup/dup2/dup3/fcntl(F_DUPFD); only an fd the trace never saw
 * opened is looked up in /proc, for a live trace, as perf does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "trace/trace-internal.h"

#define MAX_FD 65536 /* fds above this get no path (a bogus value is not an array size) */

struct fd_proc {
	uint32_t pid;
	bool used;
	char **paths; /* by fd */
	size_t nr;
};

static __wraps size_t hash_pid(uint32_t pid, size_t cap)
{
	return (size_t)(pid * 2654435761u) & (cap - 1);
}

static struct fd_proc *proc_of(struct prism_strace *st, uint32_t pid, bool create)
{
	struct fd_proc *t = st->fds;
	size_t i, j, cap;

	if (st->cap_fds)
		for (i = hash_pid(pid, st->cap_fds); t[i].used; i = (i + 1) & (st->cap_fds - 1))
			if (t[i].pid == pid)
				return &t[i];
	if (!create)
		return NULL;
	if ((st->nr_fds + 1) * 2 > st->cap_fds) {
		cap = st->cap_fds ? st->cap_fds * 2 : 64;
		t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (j = 0; j < st->cap_fds; j++) {
			if (!st->fds[j].used)
				continue;
			for (i = hash_pid(st->fds[j].pid, cap); t[i].used; i = (i + 1) & (cap - 1))
				;
			t[i] = st->fds[j];
		}
		free(st->fds);
		st->fds = t;
		st->cap_fds = cap;
	}
	t = st->fds;
	for (i = hash_pid(pid, st->cap_fds); t[i].used; i = (i + 1) & (st->cap_fds - 1))
		;
	t[i] = (struct fd_proc){ .pid = pid, .used = true };
	st->nr_fds++;
	return &t[i];
}

void strace_fds_release(struct prism_strace *st)
{
	size_t i, j;

	for (i = 0; i < st->cap_fds; i++) {
		for (j = 0; j < st->fds[i].nr; j++)
			free(st->fds[i].paths[j]);
		free(st->fds[i].paths);
	}
	free(st->fds);
	st->fds = NULL;
	st->cap_fds = st->nr_fds = 0;
}

static const char *table_path(struct prism_strace *st, uint32_t pid, int fd)
{
	struct fd_proc *p = proc_of(st, pid, false);

	return p && fd >= 0 && (size_t)fd < p->nr ? p->paths[fd] : NULL;
}

const char *strace_fd_path(struct prism_strace *st, uint32_t pid, int fd)
{
	const char *path = table_path(st, pid, fd);
	char link[64];
	ssize_t n;

	if (path || !st->o.proc_fd_paths || fd < 0 || !pid)
		return path;
	snprintf(link, sizeof(link), "/proc/%u/fd/%d", pid, fd);
	n = readlink(link, st->proc_path, sizeof(st->proc_path) - 1);
	if (n <= 0)
		return NULL;
	st->proc_path[n] = '\0';
	return st->proc_path;
}

static void set_path(struct prism_strace *st, uint32_t pid, int fd, char *path)
{
	struct fd_proc *p;

	if (fd < 0 || fd >= MAX_FD || !(p = proc_of(st, pid, true))) {
		free(path);
		return;
	}
	if ((size_t)fd >= p->nr) {
		size_t nr = (size_t)fd + 1 > p->nr * 2 ? (size_t)fd + 1 : p->nr * 2;
		char **paths = prism_reallocarray(p->paths, nr, sizeof(*paths));

		if (!paths) {
			free(path);
			return;
		}
		memset(paths + p->nr, 0, (nr - p->nr) * sizeof(*paths));
		p->paths = paths;
		p->nr = nr;
	}
	free(p->paths[fd]);
	p->paths[fd] = path;
}

/* @name joined to the directory @dfd stands for; NULL if that is unknown */
static char *join(struct prism_strace *st, uint32_t pid, int dfd, const char *name)
{
	const char *dir = NULL;
	char link[64], cwd[4096], *path;
	ssize_t n;
	size_t len;

	if (name[0] == '/')
		return strdup(name);
	if (dfd == AT_FDCWD) {
		if (!st->o.proc_fd_paths)
			return NULL;
		snprintf(link, sizeof(link), "/proc/%u/cwd", pid);
		n = readlink(link, cwd, sizeof(cwd) - 1);
		if (n <= 0)
			return NULL;
		cwd[n] = '\0';
		dir = cwd;
	} else {
		dir = table_path(st, pid, dfd);
	}
	if (!dir)
		return NULL;
	len = strlen(dir) + strlen(name) + 2;
	path = malloc(len);
	if (path)
		snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return path;
}

/*
 * A call of thread state @t returned @ret: update the fd table.  The entry
 * kept the call's fd arguments and its captured path.
 */
void strace_fds_update(struct prism_strace *st, const struct strace_thread *t, const char *name,
		       int64_t ret)
{
	const char *old;

	if (ret < 0 || !t->pid)
		return;
	if (!strcmp(name, "openat") || !strcmp(name, "openat2") || !strcmp(name, "open") ||
	    !strcmp(name, "creat")) {
		int dfd = !strcmp(name, "open") || !strcmp(name, "creat") ? AT_FDCWD : (int)t->a0;

		set_path(st, t->pid, (int)ret, t->path ? join(st, t->pid, dfd, t->path) : NULL);
	} else if (!strcmp(name, "close")) {
		set_path(st, t->pid, (int)t->a0, NULL);
	} else if (!strcmp(name, "dup") || !strcmp(name, "dup2") || !strcmp(name, "dup3") ||
		   (!strcmp(name, "fcntl") && (t->a1 == F_DUPFD || t->a1 == F_DUPFD_CLOEXEC))) {
		old = table_path(st, t->pid, (int)t->a0);
		set_path(st, t->pid, (int)ret, old ? strdup(old) : NULL);
	}
}
