// SPDX-License-Identifier: MIT
/*
 * tracefs: find (or mount) it, read tracepoint ids and format files, and
 * walk the tracepoints matching a glob.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/tracefs.h>

#include "internal.h"
#include "record/tracefs-internal.h"

static const char *const candidates[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static const char *tracefs_root;

/* 0 when @root/events is a directory, else -errno (-EACCES: exists, not ours to read) */
static int has_events(const char *root)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/events", root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* a path component that cannot leave its directory */
static bool safe_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

/* find a mounted tracefs; never mounts */
int tracefs__find(void)
{
	size_t i;
	int err, ret = -ENOENT;

	if (tracefs_root)
		return 0;
	for (i = 0; i < PRISM_ARRAY_SIZE(candidates); i++) {
		err = has_events(candidates[i]);
		if (!err) {
			tracefs_root = candidates[i];
			pr_debug("tracefs: using %s", tracefs_root);
			return 0;
		}
		if (err == -EACCES)
			ret = -EACCES;
	}
	return ret;
}

int prism_tracefs_init(bool *mounted_now)
{
	int err;

	if (mounted_now)
		*mounted_now = false;
	err = tracefs__find();
	if (err == 0 || err == -EACCES) {
		if (err)
			pr_debug("tracefs: %s: permission denied", candidates[0]);
		return err;
	}
	if (geteuid() != 0) {
		pr_debug("tracefs: not mounted, and mounting it needs root");
		return -EPERM;
	}
	if (mount("nodev", candidates[0], "tracefs", 0, NULL)) {
		err = errno;
		pr_debug("tracefs: mount -t tracefs nodev %s: %s", candidates[0], strerror(err));
		return err == EPERM || err == EACCES ? -EACCES : -ENOENT;
	}
	if (has_events(candidates[0])) {
		pr_debug("tracefs: mounted on %s but it has no events directory", candidates[0]);
		return -ENOENT;
	}
	tracefs_root = candidates[0];
	if (mounted_now)
		*mounted_now = true;
	return 0;
}

bool tracefs__has_system(const char *sys)
{
	char path[PATH_MAX];
	struct stat st;

	if (tracefs__find() || !safe_name(sys))
		return false;
	if (snprintf(path, sizeof(path), "%s/events/%s", tracefs_root, sys) >= (int)sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *prism_tracefs_path(void)
{
	return tracefs_root;
}

static int ensure_init(void)
{
	return tracefs__find();
}

int prism_tracefs_read(const char *relpath, char **buf, size_t *len)
{
	char path[PATH_MAX];
	char *data = NULL;
	size_t size = 0, cap = 0;
	int fd, err = ensure_init();

	*buf = NULL;
	if (len)
		*len = 0;
	if (err)
		return err;
	if (snprintf(path, sizeof(path), "%s/%s", tracefs_root, relpath) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* tracefs files report st_size 0: read until EOF */
	for (;;) {
		ssize_t n;

		if (prism_ensure_mem((void **)&data, &cap, 1, size + 4096 + 1)) {
			err = -ENOMEM;
			break;
		}
		n = read(fd, data + size, cap - size - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		size += (size_t)n;
	}
	close(fd);
	if (err) {
		free(data);
		return err;
	}
	data[size] = '\0';
	*buf = data;
	if (len)
		*len = size;
	return 0;
}

int prism_tracefs_tp_id(const char *sys, const char *name, uint64_t *id)
{
	char rel[PATH_MAX], *buf, *end;
	unsigned long long v;
	int err;

	if (!safe_name(sys) || !safe_name(name))
		return -EINVAL;
	if (snprintf(rel, sizeof(rel), "events/%s/%s/id", sys, name) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	err = prism_tracefs_read(rel, &buf, NULL);
	if (err)
		return err;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n')) {
		pr_debug("tracefs: %s/%s: malformed id '%.20s'", tracefs_root, rel, buf);
		free(buf);
		return -EINVAL;
	}
	free(buf);
	*id = v;
	return 0;
}

struct dir_filter {
	const char *pattern; /* fnmatch() pattern, or NULL */
	const char *must; /* a file the directory holds, or NULL */
};

/* a subdirectory matching the pattern that holds the wanted file */
static bool dir_wanted(void *ctx, const char *dir, const char *name)
{
	const struct dir_filter *f = ctx;
	char path[PATH_MAX];
	struct stat st;

	if (f->pattern && fnmatch(f->pattern, name, 0))
		return false;
	if (snprintf(path, sizeof(path), "%s/%s%s%s", dir, name, f->must ? "/" : "",
		     f->must ? f->must : "") >= (int)sizeof(path))
		return false;
	return !stat(path, &st) && (f->must || S_ISDIR(st.st_mode));
}

/*
 * Sorted names of the subdirectories of @dir matching @pattern (NULL = all)
 * that contain @must (NULL = anything), or -errno.
 */
static int list_dirs(const char *dir, const char *pattern, const char *must, char ***out,
		     size_t *nr)
{
	struct dir_filter f = { pattern, must };

	return prism_dir_names(dir, true, dir_wanted, &f, out, nr);
}

int prism_tracefs_for_each_tp(const char *glob,
			      int (*cb)(void *ctx, const char *sys, const char *name), void *ctx)
{
	char events[PATH_MAX], sysdir[PATH_MAX];
	char *sys_pat = NULL, **systems = NULL;
	const char *ev_pat = NULL;
	size_t i, nr_sys = 0;
	int err = ensure_init();

	if (err)
		return err;
	if (glob) {
		const char *colon = strchr(glob, ':');

		sys_pat = strndup(glob, colon ? (size_t)(colon - glob) : strlen(glob));
		if (!sys_pat)
			return -ENOMEM;
		ev_pat = colon ? colon + 1 : NULL;
	}
	snprintf(events, sizeof(events), "%s/events", tracefs_root);
	err = list_dirs(events, sys_pat, NULL, &systems, &nr_sys);
	for (i = 0; !err && i < nr_sys; i++) {
		char **evs;
		size_t j, nr_ev;

		if (snprintf(sysdir, sizeof(sysdir), "%s/%s", events, systems[i]) >=
		    (int)sizeof(sysdir))
			continue;
		err = list_dirs(sysdir, ev_pat, "id", &evs, &nr_ev);
		if (err == -ENOENT || err == -ENOTDIR || err == -EACCES) {
			/* a system that vanished or that we may not read */
			err = 0;
			continue;
		}
		for (j = 0; !err && j < nr_ev; j++)
			err = cb(ctx, systems[i], evs[j]);
		prism_names_free(evs, nr_ev);
	}
	prism_names_free(systems, nr_sys);
	free(sys_pat);
	return err;
}
