// SPDX-License-Identifier: MIT
/*
 * Lists of the names in a directory (sysfs PMUs and formats, tracefs
 * systems and events).
 */
#include <dirent.h>
#include <stdlib.h>

#include "internal.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void prism_names_free(char **names, size_t nr)
{
	while (nr)
		free(names[--nr]);
	free(names);
}

int prism_dir_names(const char *dir, bool sorted,
		    bool (*keep)(void *ctx, const char *dir, const char *name), void *ctx,
		    char ***out, size_t *nr)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (keep && !keep(ctx, dir, de->d_name)))
			continue;
		if (prism_ensure_mem((void **)&names, &cap, sizeof(*names), n + 1) ||
		    !(names[n] = strdup(de->d_name))) {
			err = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (err) {
		prism_names_free(names, n);
		return err;
	}
	if (sorted && n)
		qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	*nr = n;
	return 0;
}
