// SPDX-License-Identifier: MIT
/*
 * Target lists shared by the recorder and the counter (lib/targets.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/resource.h>

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

int prism_target_cpus(const char *list, int **cpus, size_t *nr, char *err, size_t len)
{
	int *sel = NULL, ret = prism_online_cpus(cpus, nr);
	size_t nsel, i, j;

	if (ret) {
		snprintf(err, len,
			 "cannot read the online CPUs from /sys/devices/system/cpu/online: %s",
			 strerror(-ret));
		return ret;
	}
	if (!list)
		return 0;
	ret = prism_parse_int_list(list, &sel, &nsel, 1 << 20);
	if (ret == -ENOMEM) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	if (ret) {
		snprintf(err, len, "bad CPU list '%s' (expected e.g. 0-3,6)", list);
		ret = -EINVAL;
		goto out;
	}
	for (j = 0; j < nsel; j++) {
		for (i = 0; i < *nr && (*cpus)[i] != sel[j]; i++)
			;
		if (i == *nr) {
			snprintf(err, len,
				 "CPU %d in -C %s is not online\n"
				 "hint: online CPUs are listed in /sys/devices/system/cpu/online",
				 sel[j], list);
			ret = -EINVAL;
			goto out;
		}
	}
	free(*cpus);
	*cpus = sel;
	*nr = nsel;
	return 0;
out:
	free(sel);
	return ret;
}

int prism_raise_nofile(size_t needed, char *err, size_t len)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= needed)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < needed) {
		snprintf(
			err, len,
			"%zu file descriptors are needed (events x CPUs x threads) but the hard limit RLIMIT_NOFILE is %llu\n"
			"hint: raise it: 'ulimit -Hn %zu' as root, or 'nofile' in /etc/security/limits.conf\n"
			"hint: or use fewer events, CPUs (-C) or threads",
			needed, (unsigned long long)rl.rlim_max, needed);
		return -EMFILE;
	}
	rl.rlim_cur = needed;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		int ret = -errno;

		snprintf(err, len, "cannot raise RLIMIT_NOFILE to %zu: %s", needed, strerror(-ret));
		return ret;
	}
	return 0;
}
