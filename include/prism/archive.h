/* SPDX-License-Identifier: MIT */
/*
 * prism archive: the files a perf.data file needs to be symbolized on
 * another machine, as perf archive packs them: a tar.bz2 of perf's build-id
 * cache layout (~/.debug), to unpack with 'tar xf FILE -C ~/.debug':
 *
 *	.build-id/<id[0:2]>/<id[2:]> -> ../../<name>/<id>	per build id
 *	[kernel.kallsyms]/<id>/kallsyms, <path>/<id>/elf, .../debug, [vdso]/<id>/vdso
 */
#ifndef PRISM_ARCHIVE_H
#define PRISM_ARCHIVE_H

#include <prism/core.h>

struct prism_features;

struct prism_archive_opts {
	const char *buildid_dir; /* perf's build-id cache to take files from; NULL = none */
	const char *kallsyms; /* the running kernel's kallsyms; default /proc/kallsyms */
	/* told once per build id of the file that no file was found for */
	void (*missing)(void *arg, const char *name, const char *build_id);
	void *arg;
};

/**
 * prism_archive__write - write the archive of a file's build ids
 * @f: the file's features (its BUILD_ID table)
 * @out: the tar.bz2 to create (replaced)
 * @o: options
 * @nr_files: set to the number of files packed
 *
 * Each build id is looked up in the build-id cache first, then at its
 * recorded path (the running kernel's kallsyms for the kernel, the binary
 * at its path), which is only taken when its build id is the recorded one.
 *
 * Return: 0, -ENOENT when the file records no build id, -PRISM_E_NOFEATURE
 * without libbz2, or -errno (then @out is removed).
 */
PRISM_API int prism_archive__write(const struct prism_features *f, const char *out,
				   const struct prism_archive_opts *o, size_t *nr_files);

#endif /* PRISM_ARCHIVE_H */
