// SPDX-License-Identifier: MIT
/*
 * Target lists shared by the recorder and the counter (lib/targets.h).
 */
#include <dirent.h>
#include <stdio.h>

#include "internal.h"
#include "targets.h"

int prism_parse_int_list(const char *s, int **out, size_t *nr, int max)
{
	size_t cap = 0;
	const char *p = s;

	*out = NULL;
	*nr = 0;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p || a < 0)
			return -EINVAL;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -EINVAL;
			p = end;
		}
		if (max >= 0 && b >= max)
			return -ERANGE;
		for (; a <= b; a++) {
			if (prism_ensure_mem((void **)out, &cap, sizeof(int), *nr + 1))
				return -ENOMEM;
			(*out)[(*nr)++] = (int)a;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return *nr ? 0 : -EINVAL;
}

int prism_online_cpus(int **out, size_t *nr)
{
	char buf[1024];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");

	*out = NULL;
	*nr = 0;
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return prism_parse_int_list(buf, out, nr, -1);
}

int prism_proc_tids(pid_t pid, pid_t **tids, size_t *nr, size_t *cap)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return -ESRCH;
	while (!err && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (prism_ensure_mem((void **)tids, cap, sizeof(pid_t), *nr + 1))
			err = -ENOMEM;
		else
			(*tids)[(*nr)++] = atoi(d->d_name);
	}
	closedir(dir);
	return err;
}
