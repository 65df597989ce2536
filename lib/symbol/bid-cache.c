// SPDX-License-Identifier: MIT
/*
 * perf's build-id cache (~/.debug), as perf record fills it and perf
 * report and perf archive read it:
 *
 *	<dir>/[kernel.kallsyms]/<id>/kallsyms	a copy of /proc/kallsyms
 *	<dir>/<path>/<id>/elf			a copy of the binary at <path>
 *	<dir>/.build-id/<id[0:2]>/<id[2:]>	-> ../../<name>/<id>
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/symbol.h>

#include "symbol-internal.h"

static int mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	return mkdir(dir, 0755) && errno != EEXIST ? -errno : 0;
}

/* @src to @dst through a temporary file (a /proc file has no size: read to EOF) */
static int copy_file(const char *src, const char *dst)
{
	char tmp[PATH_MAX], buf[65536];
	int in, out, err = 0;
	ssize_t n;

	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", dst, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		ssize_t w = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		while (w < n) {
			ssize_t r = write(out, buf + w, (size_t)(n - w));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				err = r ? -errno : -EIO;
				break;
			}
			w += r;
		}
		if (err)
			break;
	}
	close(in);
	if (close(out) && !err)
		err = -errno;
	if (!err && rename(tmp, dst))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int prism_buildid_cache__add(const char *dir, const char *name, const char *hex, const char *src,
			     const char *leaf)
{
	char path[PATH_MAX], link[PATH_MAX], target[PATH_MAX];
	size_t hl = strlen(hex);
	struct stat st;
	int err;

	if (hl < 3 || !name[0] || strstr(name, "/../") || strstr(name, ".."))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/%s/%s", dir, name[0] == '/' ? name + 1 : name, hex) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	err = mkdirs(path);
	if (err)
		return err;
	if (snprintf(path, sizeof(path), "%s/%s/%s/%s", dir, name[0] == '/' ? name + 1 : name, hex,
		     leaf) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* a file of this build id is that binary: one copy is enough */
	if (stat(path, &st) || !st.st_size) {
		err = copy_file(src, path);
		if (err)
			return err;
	}
	snprintf(link, sizeof(link), "%s/.build-id/%.2s", dir, hex);
	err = mkdirs(link);
	if (err)
		return err;
	if (snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", dir, hex, hex + 2) >=
		    (int)sizeof(link) ||
	    snprintf(target, sizeof(target), "../../%s/%s", name[0] == '/' ? name + 1 : name,
		     hex) >= (int)sizeof(target))
		return -ENAMETOOLONG;
	if (symlink(target, link) && errno != EEXIST)
		return -errno;
	return 0;
}
