// SPDX-License-Identifier: MIT
/*
 * Which kernel symbols fit a file: only a source whose build id is the
 * file's kernel's (perf 6.1's rules, dso__load_kernel_sym):
 *
 *   --kallsyms FILE		taken as it is, unchecked (as perf does)
 *   --symfs DIR		nothing outside DIR (perf reads no local file
 *				then); prism reads DIR/[kernel.kallsyms]/<id>/kallsyms,
 *				an unpacked archive (perf looks for a vmlinux there)
 *   the running kernel		when its build id is the file's, or the file
 *				records none (perf reads /proc/kallsyms then too)
 *   perf's build-id cache	<buildid_dir>/[kernel.kallsyms]/<id>/kallsyms
 *
 * The running kernel's symbols go through prism's index (ksym-cache.c),
 * keyed by the build id and trusted only for the same _text address and
 * module list; a copy of another kernel's kallsyms is relocated from its
 * _text to the one the file recorded (KASLR), as perf does.
 */
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol-internal.h"

#define PROC_KALLSYMS "/proc/kallsyms"
#define PROC_MODULES "/proc/modules"
/* the index key of a copy of kallsyms (its size and time) never equals the running one's */
#define KEY_FILE 0x46494c45ull

static bool readable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

enum ksrc ksrc__choose(const struct ksrc_in *in, char *path, size_t len)
{
	path[0] = '\0';
	if (in->given) {
		snprintf(path, len, "%s", in->given);
		return KSRC_GIVEN;
	}
	if (in->symfs) {
		if (!in->want)
			return KSRC_NONE;
		snprintf(path, len, "%s/[kernel.kallsyms]/%s/kallsyms", in->symfs, in->want);
		return readable(path) ? KSRC_SYMFS : KSRC_NONE;
	}
	if (!in->want)
		return KSRC_RUNNING_UNCHECKED;
	if (in->running && !strcmp(in->want, in->running))
		return KSRC_RUNNING;
	if (in->buildid_dir) {
		snprintf(path, len, "%s/[kernel.kallsyms]/%s/kallsyms", in->buildid_dir, in->want);
		if (readable(path))
			return KSRC_BUILDID_CACHE;
	}
	path[0] = '\0';
	return KSRC_NONE;
}

const struct bid_entry *kernel_bid(const struct prism_symbols *sy)
{
	char name[PATH_MAX];
	size_t i;

	for (i = 0; i < sy->nr_bids; i++) {
		const struct bid_entry *b = &sy->bids[i];

		if (!b->kernel || kmod__name(b->path, name, sizeof(name)) ||
		    !strncmp(b->path, "[vdso", 5) || !strncmp(b->path, "[guest.", 7))
			continue;
		return b;
	}
	return NULL;
}

static bool hex_id(const char *hex, uint8_t *id, uint8_t *size)
{
	size_t n = strlen(hex), i;

	if (!n || n % 2 || n > 2 * BUILD_ID_MAX)
		return false;
	for (i = 0; i < n / 2; i++) {
		unsigned int v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return false;
		id[i] = (uint8_t)v;
	}
	*size = (uint8_t)(n / 2);
	return true;
}

static char *index_path(const struct prism_symbols *sy, const char *hex)
{
	char path[PATH_MAX];

	if (!sy->cache_dir)
		return NULL;
	if (snprintf(path, sizeof(path), "%s/kallsyms/%s", sy->cache_dir, hex) >= (int)sizeof(path))
		return NULL;
	return strdup(path);
}

/*
 * kallsyms text through the index: used when its key matches, else read,
 * parsed and saved for the next run (an unwritable cache is not an error)
 */
static int load_indexed(struct prism_symbols *sy, const char *src, const char *hex, uint64_t text,
			uint64_t key)
{
	uint8_t id[BUILD_ID_MAX], size = 0;
	char *idx = hex_id(hex, id, &size) ? index_path(sy, hex) : NULL;
	int err;

	if (idx) {
		err = ksym_cache__load(idx, id, size, text, key, &sy->ksyms);
		pr_debug("symbol: kernel symbol index %s: %s\n", idx,
			 err ? strerror(-err) : "used");
		if (!err) {
			free(idx);
			return 0;
		}
	}
	err = kallsyms__load(src, &sy->ksyms);
	/* an index of the running kernel is only written when its _text was read */
	if (!err && idx && (text || key & KEY_FILE) && (!text || sy->ksyms.text == text)) {
		int e = ksym_cache__save(idx, id, size, key, &sy->ksyms);

		pr_debug("symbol: kernel symbol index %s: %s\n", idx, e ? strerror(-e) : "written");
	}
	free(idx);
	return err;
}

static __wraps uint64_t file_key(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	return KEY_FILE | (((uint64_t)st.st_size << 32) ^ ((uint64_t)st.st_mtim.tv_sec << 8) ^
			   (uint64_t)st.st_mtim.tv_nsec ^ ((uint64_t)st.st_ino << 20));
}

/*
 * perf relocates a kallsyms copy by the difference of its _text and the
 * address the file's kernel map recorded for it (the map's pgoff)
 */
static __wraps void relocate(struct prism_symbols *sy)
{
	struct symtab *t = &sy->ksyms.kernel;
	uint64_t delta;
	size_t i;

	if (!sy->kmap.dso || !sy->kmap.pgoff || !sy->ksyms.text || sy->kmap.pgoff == sy->ksyms.text)
		return;
	delta = sy->kmap.pgoff - sy->ksyms.text;
	for (i = 0; i < t->nr; i++) {
		t->syms[i].start += delta;
		t->syms[i].end += delta;
	}
	sy->ksyms.kernel_end += delta;
	sy->ksyms.text += delta;
}

static void note(struct prism_symbols *sy, const char *msg)
{
	sy->kernel_note = strdup(msg);
	pr_warn("symbol: %s\n", msg);
}

void ksyms__load_for(struct prism_symbols *sy)
{
	const struct bid_entry *kb = kernel_bid(sy);
	char want[2 * BUILD_ID_MAX + 1], path[PATH_MAX], msg[2 * PATH_MAX];
	struct ksrc_in in = { 0 };
	uint64_t text = 0;
	enum ksrc src;
	int err;

	sy->ksyms_loaded = true;
	if (sy->opts.no_kernel)
		return;
	if (kb)
		build_id__hex(kb->id, kb->size, want);
	in.want = kb ? want : NULL;
	in.given = sy->kallsyms_given ? sy->kallsyms_path : NULL;
	in.symfs = sy->symfs;
	in.buildid_dir = sy->buildid_dir;
	/* the running kernel's build id is only read when it can decide */
	if (kb && !in.given && !in.symfs)
		in.running = prism_symbols__kernel_build_id(sy);
	src = ksrc__choose(&in, path, sizeof(path));
	switch (src) {
	case KSRC_NONE:
		if (kb)
			snprintf(msg, sizeof(msg),
				 "no kernel symbols for build id %s (the file's kernel%s%s%s): "
				 "kernel addresses are not resolved; supply them with 'prism "
				 "archive' on the recording machine (unpacked into ~/.debug, or "
				 "--symfs DIR), perf's build-id cache or --kallsyms FILE",
				 want, in.running ? "; running " : "", in.running ? in.running : "",
				 in.symfs ? "; none under --symfs" : "");
		else
			snprintf(msg, sizeof(msg),
				 "no kernel symbols: the file records no kernel build id and "
				 "--symfs is confined to its directory (as perf is); name them "
				 "with --kallsyms FILE");
		note(sy, msg);
		return;
	case KSRC_RUNNING:
	case KSRC_RUNNING_UNCHECKED:
		if (src == KSRC_RUNNING_UNCHECKED)
			pr_warn("symbol: the file has no build id for the kernel: kernel symbols "
				"come from the running kernel's %s and are wrong if the file was "
				"recorded on another kernel\n",
				sy->kallsyms_path);
		snprintf(path, sizeof(path), "%s", sy->kallsyms_path);
		if (src == KSRC_RUNNING && !kernel__read_text(path, &text))
			err = load_indexed(sy, path, want, text, kernel__modules_key(PROC_MODULES));
		else
			err = kallsyms__load(path, &sy->ksyms);
		break;
	case KSRC_BUILDID_CACHE:
		err = load_indexed(sy, path, want, 0, file_key(path));
		break;
	default:
		err = kallsyms__load(path, &sy->ksyms);
		break;
	}
	if (err) {
		/* the hint fits the cause: hidden addresses, or a path that is wrong */
		snprintf(msg, sizeof(msg), "cannot read kernel symbols from '%s': %s%s", path,
			 err == -EPERM ? "addresses are hidden" : strerror(-err),
			 err == -EPERM ? " (run as root or lower /proc/sys/kernel/kptr_restrict)" :
			 err == -ENOENT && src == KSRC_GIVEN ? " (check the --kallsyms path)" :
							       "");
		note(sy, msg);
		ksyms__release(&sy->ksyms);
		return;
	}
	pr_debug("symbol: kernel symbols from %s (%zu, %zu modules)\n", path, sy->ksyms.kernel.nr,
		 sy->ksyms.nr_mods);
	relocate(sy);
	sy->ksyms_usable = true;
}
