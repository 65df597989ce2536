// SPDX-License-Identifier: MIT
/*
 * prism archive: a tar (ustar, GNU long names) of the build-id cache
 * entries a file needs, into the stream of archive-bz2.c.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/archive.h>
#include <prism/features.h>

#include "symbol-internal.h"
#include "symbol/archive-internal.h"

#define TAR_BLOCK 512

struct tar {
	struct tar_sink *sink;
	size_t nr_files;
	int err;
};

static void octal(char *field, size_t len, uint64_t v)
{
	/* len - 1 digits and a NUL, as ustar wants */
	snprintf(field, len, "%0*llo", (int)len - 1, (unsigned long long)v);
}

static int put(struct tar *t, const void *buf, size_t len)
{
	if (!t->err)
		t->err = tar_sink__write(t->sink, buf, len);
	return t->err;
}

static int pad(struct tar *t, uint64_t size)
{
	static const char zero[TAR_BLOCK];
	size_t rem = (size_t)(size % TAR_BLOCK);

	return rem ? put(t, zero, TAR_BLOCK - rem) : t->err;
}

static int header(struct tar *t, const char *name, char type, uint64_t size, const char *link);

/* GNU tar's ././@LongLink entry for a name or link target of 100 bytes or more */
static int long_name(struct tar *t, char type, const char *s)
{
	size_t n = strlen(s) + 1;

	if (header(t, "././@LongLink", type, n, NULL))
		return t->err;
	put(t, s, n);
	return pad(t, n);
}

static int header(struct tar *t, const char *name, char type, uint64_t size, const char *link)
{
	unsigned char h[TAR_BLOCK] = { 0 };
	unsigned int sum = 0;
	size_t i;

	if (strlen(name) >= 100 && long_name(t, 'L', name))
		return t->err;
	if (link && strlen(link) >= 100 && long_name(t, 'K', link))
		return t->err;
	memcpy(h, name, strnlen(name, 99));
	octal((char *)h + 100, 8, type == '5' ? 0755 : type == '2' ? 0777 : 0644);
	octal((char *)h + 108, 8, 0);
	octal((char *)h + 116, 8, 0);
	octal((char *)h + 124, 12, size);
	octal((char *)h + 136, 12, 0);
	memset(h + 148, ' ', 8);
	h[156] = (unsigned char)type;
	if (link)
		memcpy(h + 157, link, strnlen(link, 99));
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memcpy(h + 265, "root", 4);
	memcpy(h + 297, "root", 4);
	for (i = 0; i < TAR_BLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	return put(t, h, TAR_BLOCK);
}

/* a regular file: its bytes as they are now (a /proc file has no size: read it whole) */
static int add_file(struct tar *t, const char *name, const char *src)
{
	char buf[65536];
	size_t cap = 0, len = 0;
	char *all = NULL;
	int fd = open(src, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || prism_ensure_mem((void **)&all, &cap, 1, len + (size_t)n)) {
			int err = n < 0 ? -errno : -ENOMEM;

			free(all);
			close(fd);
			return err;
		}
		memcpy(all + len, buf, (size_t)n);
		len += (size_t)n;
	}
	close(fd);
	if (!header(t, name, '0', len, NULL) && len)
		put(t, all, len);
	free(all);
	pad(t, len);
	if (!t->err)
		t->nr_files++;
	return t->err;
}

static bool regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* "[kernel.kallsyms]", "usr/lib/libc.so.6": a name's directory in the cache */
static const char *cache_name(const char *name)
{
	return name[0] == '/' ? name + 1 : name;
}

/* the .build-id link and the entry's files as the build-id cache has them */
static int add_cached(struct tar *t, const char *bdir, const char *name, const char *hex,
		      bool *found)
{
	static const char *const leaves[] = { "elf", "debug", "kallsyms", "vdso" };
	char dir[PATH_MAX], member[PATH_MAX], link[PATH_MAX], src[PATH_MAX];
	size_t i;

	*found = false;
	if (!bdir)
		return 0;
	if (snprintf(dir, sizeof(dir) - 16, "%s/%s/%s", bdir, cache_name(name), hex) >=
	    (int)sizeof(dir) - 16)
		return 0;
	for (i = 0; i < PRISM_ARRAY_SIZE(leaves); i++) {
		if (snprintf(src, sizeof(src), "%s/%s", dir, leaves[i]) >= (int)sizeof(src) ||
		    !regular(src))
			continue;
		snprintf(member, sizeof(member), "%s/%s/%s", cache_name(name), hex, leaves[i]);
		if (add_file(t, member, src))
			return t->err;
		*found = true;
	}
	if (*found) {
		snprintf(member, sizeof(member), ".build-id/%.2s/%s", hex, hex + 2);
		snprintf(link, sizeof(link), "../../%s/%s", cache_name(name), hex);
		header(t, member, '2', 0, link);
	}
	return t->err;
}

/* not cached: the running kernel's kallsyms, or the binary at its path, when its build id matches */
static int add_local(struct tar *t, const struct prism_archive_opts *o, const char *name,
		     const char *hex, bool kernel, bool *found)
{
	char member[PATH_MAX], link[PATH_MAX], have[2 * BUILD_ID_MAX + 1];
	uint8_t id[BUILD_ID_MAX], size = 0;
	const char *src = name;

	*found = false;
	if (kernel) {
		if (kernel__read_build_id(id, &size))
			return 0;
		src = o->kallsyms ? o->kallsyms : "/proc/kallsyms";
		snprintf(member, sizeof(member), "[kernel.kallsyms]/%s/kallsyms", hex);
		snprintf(link, sizeof(link), "../../[kernel.kallsyms]/%s", hex);
	} else {
		if (name[0] != '/' || !regular(name) || elf__read_build_id(name, id, &size))
			return 0;
		snprintf(member, sizeof(member), "%s/%s/elf", cache_name(name), hex);
		snprintf(link, sizeof(link), "../../%s/%s", cache_name(name), hex);
	}
	build_id__hex(id, size, have);
	if (strcmp(have, hex))
		return 0; /* another build: not what the file recorded */
	if (add_file(t, member, src))
		return t->err;
	snprintf(member, sizeof(member), ".build-id/%.2s/%s", hex, hex + 2);
	header(t, member, '2', 0, link);
	*found = !t->err;
	return t->err;
}

int prism_archive__write(const struct prism_features *f, const char *out,
			 const struct prism_archive_opts *o, size_t *nr_files)
{
	const struct prism_feat_build_ids *b = f ? prism_features__build_ids(f) : NULL;
	static const char zero[2 * TAR_BLOCK];
	struct tar t = { 0 };
	size_t i, j;
	int err;

	*nr_files = 0;
	if (!b || !b->nr)
		return -ENOENT;
	err = tar_sink__open(out, &t.sink);
	if (err)
		return err;
	for (i = 0; i < b->nr && !t.err; i++) {
		const struct prism_feat_build_id *e = &b->entries[i];
		unsigned int mode = e->misc & PRISM_MISC_CPUMODE_MASK;
		char hex[2 * BUILD_ID_MAX + 1], mod[PATH_MAX];
		bool kernel, found = false, dup = false;
		const char *name = e->filename;

		if (!name || !*name || e->size < 2 || strstr(name, ".."))
			continue;
		for (j = 0; j < i; j++)
			dup |= b->entries[j].size == e->size &&
			       !memcmp(b->entries[j].build_id, e->build_id, e->size);
		if (dup)
			continue; /* one build id, one entry */
		build_id__hex(e->build_id, e->size, hex);
		kernel = (mode == PERF_RECORD_MISC_KERNEL ||
			  mode == PERF_RECORD_MISC_GUEST_KERNEL) &&
			 !kmod__name(name, mod, sizeof(mod)) && strncmp(name, "[vdso", 5);
		/* the kernel is cached as [kernel.kallsyms] whatever path the table gives */
		if (kernel)
			name = "[kernel.kallsyms]";
		add_cached(&t, o->buildid_dir, name, hex, &found);
		if (!found && !t.err)
			add_local(&t, o, name, hex, kernel, &found);
		if (!found && !t.err && o->missing)
			o->missing(o->arg, e->filename, hex);
	}
	put(&t, zero, sizeof(zero)); /* end of archive */
	*nr_files = t.nr_files;
	err = tar_sink__close(t.sink, !t.err);
	return t.err ? t.err : err;
}
