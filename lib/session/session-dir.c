// SPDX-License-Identifier: MIT
/*
 * Directory-format perf.data (perf record --threads): PATH/data is a normal
 * perf.data file and PATH/data.0 … data.N-1 hold raw record streams without a
 * header, one per writer thread.  The record loop reads them after the main
 * file's data section, through the same time sort.  PATH/kcore_dir (perf
 * record --kcore) holds the kernel's code with its kallsyms and modules.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "internal.h"
#include "session/session-internal.h"

#define MAX_DATA_FILES 4096

int prism_session__open_dir(struct prism_session *s, const char *dir)
{
	struct stat st;
	unsigned int n;

	s->info.dir = true;
	if (asprintf(&s->kcore_dir, "%s/kcore_dir/kallsyms", dir) < 0)
		return -ENOMEM;
	if (stat(s->kcore_dir, &st)) {
		free(s->kcore_dir);
		s->kcore_dir = NULL;
	} else {
		*strrchr(s->kcore_dir, '/') = '\0';
	}
	for (n = 0; n < MAX_DATA_FILES; n++) {
		char *path;
		int err;

		if (asprintf(&path, "%s/data.%u", dir, n) < 0)
			return -ENOMEM;
		if (stat(path, &st)) {
			free(path);
			break;
		}
		if (!S_ISREG(st.st_mode)) {
			prism_session__set_error(s, "'%s' is not a regular file", path);
			free(path);
			return -EINVAL;
		}
		err = prism_ensure_mem((void **)&s->dir_files, &s->cap_dir_files,
				       sizeof(*s->dir_files), s->nr_dir_files + 1);
		if (err) {
			free(path);
			return err;
		}
		s->dir_files[s->nr_dir_files++] = path;
		s->info.dir_data_size += (uint64_t)st.st_size;
	}
	s->info.nr_data_files = (uint32_t)s->nr_dir_files;
	return 0;
}

void prism_session__free_dir(struct prism_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_dir_files; i++)
		free(s->dir_files[i]);
	free(s->dir_files);
	s->dir_files = NULL;
	free(s->kcore_dir);
	s->kcore_dir = NULL;
	s->nr_dir_files = 0;
}

const char *prism_session__kcore_dir(const struct prism_session *s)
{
	return s->kcore_dir;
}
