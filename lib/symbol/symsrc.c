// SPDX-License-Identifier: MIT
/*
 * Where a user DSO's symbols come from, in perf 6.1's order (dso__load and
 * its binary_type_symtab list, without libbfd as Debian builds it):
 *
 *   debuglink		the .gnu_debuglink name of <symfs><path>, looked up as
 *			given (from the current directory), in <dir>, in
 *			<dir>/.debug and in <debug_dir><dir>
 *   cache		<cache>/.build-id/<id[0:2]>/<id[2:]>/elf (or that name
 *			itself when it is a file: the old cache layout)
 *   cache debug		the same with "debug"
 *   fedora		<symfs><debug_dir><path>.debug
 *   ubuntu		<symfs><debug_dir><path>
 *   build-id debug	<symfs><debug_dir>/.build-id/<id[0:2]>/<id[2:]>.debug
 *   file		<symfs><path>, then /proc/PID/root<path>
 *   openembedded	<symfs><dir>/.debug/<base>
 *   mixed-up ubuntu	<symfs><debug_dir><path without "/usr"> for /usr/lib/...
 *
 * A file counts when it is a regular ELF file with the expected build id
 * (any build id when none is known).  The symbols come from the first one
 * with a .symtab; PLT entries (and the symbols when no file has a .symtab)
 * from the first one with a real .dynsym, perf's "runtime" file (a debug
 * file's .dynsym is SHT_NOBITS).  perf stops looking once it has both.
 * perf's build-id cache is <symfs>/.debug with --symfs, as perf sets it.
 */
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>

#include "symbol-internal.h"

static const char *const type_names[SYMSRC_NR] = {
	[SYMSRC_DEBUGLINK] = "debuglink",
	[SYMSRC_CACHE] = "build-id cache",
	[SYMSRC_CACHE_DEBUG] = "build-id cache debug",
	[SYMSRC_FEDORA] = "debug dir <path>.debug",
	[SYMSRC_UBUNTU] = "debug dir <path>",
	[SYMSRC_BUILDID_DEBUG] = "debug dir .build-id",
	[SYMSRC_FILE] = "the file",
	[SYMSRC_OPENEMBEDDED] = "<dir>/.debug",
	[SYMSRC_MIXEDUP_UBUNTU] = "debug dir <path without /usr>",
};

const char *symsrc__type_name(enum symsrc_type type)
{
	return type < SYMSRC_NR ? type_names[type] : "?";
}

static bool regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static int put(char *out, size_t len, int n)
{
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* the .gnu_debuglink file of <symfs><path>, in perf's four places */
static int debuglink_path(const struct symsrc_in *in, char *out, size_t len)
{
	char file[PATH_MAX], dir[PATH_MAX];
	char *link, *slash;
	int i, n = 0, err = -ENOENT;

	if (put(file, sizeof(file), snprintf(file, sizeof(file), "%s%s", in->symfs, in->path)) ||
	    !regular(file))
		return -ENOENT;
	link = elf__debuglink(file);
	if (!link)
		return -ENOENT;
	memcpy(dir, file, sizeof(dir));
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
	for (i = 0; i < 4; i++) {
		switch (i) {
		case 0: /* as named: from the current directory */
			n = snprintf(out, len, "%s", link);
			break;
		case 1:
			n = snprintf(out, len, "%s/%s", dir, link);
			break;
		case 2:
			n = snprintf(out, len, "%s/.debug/%s", dir, link);
			break;
		default:
			n = snprintf(out, len, "%s%s/%s", in->debug_dir, dir, link);
			break;
		}
		if (!put(out, len, n) && regular(out)) {
			err = 0;
			break;
		}
	}
	free(link);
	return err;
}

int symsrc__path(const struct symsrc_in *in, enum symsrc_type type, char *out, size_t len)
{
	const char *hex = in->bid_hex, *slash;
	int n;

	switch (type) {
	case SYMSRC_DEBUGLINK:
		return debuglink_path(in, out, len);
	case SYMSRC_CACHE:
	case SYMSRC_CACHE_DEBUG:
		if (!hex[0] || !in->cache_dir)
			return -ENOENT;
		n = snprintf(out, len, "%s/.build-id/%.2s/%s", in->cache_dir, hex, hex + 2);
		if (put(out, len, n))
			return -ENAMETOOLONG;
		if (regular(out))
			return 0;
		n = snprintf(out, len, "%s/.build-id/%.2s/%s/%s", in->cache_dir, hex, hex + 2,
			     type == SYMSRC_CACHE ? "elf" : "debug");
		break;
	case SYMSRC_FEDORA:
		n = snprintf(out, len, "%s%s%s.debug", in->symfs, in->debug_dir, in->path);
		break;
	case SYMSRC_UBUNTU:
		n = snprintf(out, len, "%s%s%s", in->symfs, in->debug_dir, in->path);
		break;
	case SYMSRC_BUILDID_DEBUG:
		if (!hex[0])
			return -ENOENT;
		n = snprintf(out, len, "%s%s/.build-id/%.2s/%s.debug", in->symfs, in->debug_dir,
			     hex, hex + 2);
		break;
	case SYMSRC_FILE:
		n = snprintf(out, len, "%s%s", in->symfs, in->path);
		break;
	case SYMSRC_OPENEMBEDDED:
		slash = strrchr(in->path, '/');
		if (!slash)
			return -ENOENT;
		n = snprintf(out, len, "%s%.*s/.debug%s", in->symfs, (int)(slash - in->path),
			     in->path, slash);
		break;
	case SYMSRC_MIXEDUP_UBUNTU:
		if (strncmp(in->path, "/usr/lib/", 9))
			return -ENOENT;
		n = snprintf(out, len, "%s%s%s", in->symfs, in->debug_dir, in->path + 4);
		break;
	default:
		return -EINVAL;
	}
	return put(out, len, n);
}

/*
 * @type's file when it is there and fits (the file itself is also looked
 * for under /proc/PID/root); a file of another build id is noted in @pk
 */
static bool find(const struct symsrc_in *in, enum symsrc_type type, struct symsrc_pick *pk,
		 char *path, struct elf_info *info)
{
	int tries = type == SYMSRC_FILE && in->pid ? 2 : 1, i;

	if (symsrc__path(in, type, path, PATH_MAX))
		return false;
	for (i = 0; i < tries; i++) {
		if (i && snprintf(path, PATH_MAX, "/proc/%u/root%s", in->pid, in->path) >= PATH_MAX)
			break;
		if (!regular(path) || elf__probe(path, info))
			continue;
		if (!in->bid_size ||
		    (info->id_size == in->bid_size && !memcmp(info->id, in->bid, in->bid_size)))
			return true;
		if (!pk->bad[0] || type == SYMSRC_FILE) {
			snprintf(pk->bad, sizeof(pk->bad), "%s", path);
			pk->bad_has_id = info->id_size != 0;
		}
	}
	return false;
}

static void keep(char *dst, const char *src, int *dst_type, enum symsrc_type type)
{
	snprintf(dst, PATH_MAX, "%s", src);
	*dst_type = (int)type;
}

void symsrc__pick(const struct symsrc_in *in, struct symsrc_pick *pk)
{
	char path[PATH_MAX];
	struct elf_info info;
	int t;

	memset(pk, 0, sizeof(*pk));
	pk->syms_type = pk->runtime_type = pk->data_type = pk->dwarf_type = -1;
	for (t = 0; t < SYMSRC_NR; t++) {
		bool done = pk->syms[0] && pk->runtime[0];

		/* perf stops at both; DWARF (for source lines) may come later */
		if (done && pk->dwarf[0])
			break;
		if (!find(in, (enum symsrc_type)t, pk, path, &info))
			continue;
		if (!done && !pk->syms[0] && info.symtab)
			keep(pk->syms, path, &pk->syms_type, (enum symsrc_type)t);
		if (!done && !pk->runtime[0] && info.dynsym)
			keep(pk->runtime, path, &pk->runtime_type, (enum symsrc_type)t);
		if (!pk->dwarf[0] && info.dwarf)
			keep(pk->dwarf, path, &pk->dwarf_type, (enum symsrc_type)t);
	}
	/* the binary for code bytes and CFI, as perf's data files: the cache, then the file */
	if (find(in, SYMSRC_CACHE, pk, path, &info))
		keep(pk->data, path, &pk->data_type, SYMSRC_CACHE);
	else if (find(in, SYMSRC_FILE, pk, path, &info))
		keep(pk->data, path, &pk->data_type, SYMSRC_FILE);
}
