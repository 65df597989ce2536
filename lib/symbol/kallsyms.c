// SPDX-License-Identifier: MIT
/*
 * Kernel symbols from kallsyms text (/proc/kallsyms, or a copy of it such
 * as perf's build-id cache keeps): the kernel's text symbols in one table,
 * each module's ("... [mod]") in its own; the running kernel's build id
 * (/sys/kernel/notes), its _text address and a key of its module list.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbol-internal.h"

#define KALLSYMS_MAX (512u << 20) /* a text larger than this is not kallsyms */

void ksyms__release(struct ksyms *k)
{
	size_t i;

	symtab__release(&k->kernel);
	for (i = 0; i < k->nr_mods; i++) {
		free(k->mods[i].name);
		symtab__release(&k->mods[i].syms);
	}
	free(k->mods);
	free(k->blob);
	if (k->map)
		munmap(k->map, k->map_len);
	memset(k, 0, sizeof(*k));
}

struct symtab *ksyms__module(struct ksyms *k, const char *name, bool add)
{
	struct kmod_syms *m;
	size_t i;

	for (i = 0; i < k->nr_mods; i++)
		if (!strcmp(k->mods[i].name, name))
			return &k->mods[i].syms;
	if (!add ||
	    prism_ensure_mem((void **)&k->mods, &k->alloc_mods, sizeof(*k->mods), k->nr_mods + 1))
		return NULL;
	m = &k->mods[k->nr_mods];
	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	if (!m->name)
		return NULL;
	k->nr_mods++;
	return &m->syms;
}

/* "ffffffff81000000 T _stext" or "ffffffffc0a01000 t foo\t[mod]" */
static int parse_line(struct ksyms *k, char *line, char *eol)
{
	unsigned long long addr;
	char type, *name, *end, *mod = NULL;
	struct symtab *t = &k->kernel;
	uint8_t bind;

	*eol = '\0';
	if (eol - line < 20 || line[0] == ' ')
		return 0;
	errno = 0;
	addr = strtoull(line, &end, 16);
	if (errno || end == line || end + 3 > eol || end[0] != ' ' || !end[1] || end[2] != ' ')
		return 0;
	type = end[1];
	name = end + 3;
	end = name + strcspn(name, "\t");
	if (*end == '\t') {
		*end = '\0';
		mod = end + 1;
		if (mod[0] == '[' && eol > mod + 2 && eol[-1] == ']') {
			mod++;
			eol[-1] = '\0';
		} else {
			mod = NULL;
		}
	}
	if (!*name || !addr)
		return 0; /* kptr_restrict hides addresses */
	if (!mod && !strcmp(name, "_text"))
		k->text = addr;
	if (!mod && strchr("tTwWdDbB", type) && addr >= k->kernel_end)
		k->kernel_end = addr == UINT64_MAX ? addr : addr + 1;
	if (type != 't' && type != 'T' && type != 'w' && type != 'W')
		return 0;
	if (mod) {
		if (!*mod)
			return 0; /* "[]": no module to file it under */
		if (!strcmp(mod, "bpf") || !strcmp(mod, "__builtin__ftrace") ||
		    !strcmp(mod, "__builtin__kprobes"))
			return 0; /* BPF programs come from the file's KSYMBOL records */
		t = ksyms__module(k, mod, true);
		if (!t)
			return -ENOMEM;
	}
	bind = type == 'w' || type == 'W' ? STB_WEAK : type == 'T' ? STB_GLOBAL : STB_LOCAL;
	return symtab__add(t, addr, 0, name, bind, false);
}

/* the whole of @fd (a /proc file has no size: read until EOF) */
static int read_all(int fd, char **out, size_t *len)
{
	size_t cap = 1u << 20, n = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= KALLSYMS_MAX) {
				free(buf);
				return -EFBIG;
			}
			nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int kallsyms__parse(char *text, size_t len, struct ksyms *k)
{
	char *p = text, *end = text + len;
	size_t i;
	int err = 0;

	while (p < end && !err) {
		char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		err = parse_line(k, p, eol);
		p = eol + 1;
	}
	if (err)
		return err;
	if (!k->kernel.nr && !k->nr_mods)
		return -EPERM; /* every address hidden (kptr_restrict), or not kallsyms */
	symtab__fixup(&k->kernel);
	for (i = 0; i < k->nr_mods; i++)
		symtab__fixup(&k->mods[i].syms);
	if (k->kernel.nr && k->kernel.syms[k->kernel.nr - 1].end > k->kernel_end)
		k->kernel_end = k->kernel.syms[k->kernel.nr - 1].end;
	return 0;
}

int kallsyms__load(const char *path, struct ksyms *k)
{
	size_t len = 0;
	char *text = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = read_all(fd, &text, &len);
	close(fd);
	if (err)
		return err;
	k->blob = text; /* the names point into it */
	err = kallsyms__parse(text, len, k);
	if (err)
		ksyms__release(k);
	return err;
}

int kernel__read_build_id(uint8_t *id, uint8_t *size)
{
	uint8_t buf[4096];
	size_t n, len;
	FILE *f = fopen("/sys/kernel/notes", "re");
	int err;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	err = prism_note_build_id(buf, n, id, BUILD_ID_MAX, &len);
	if (!err)
		*size = (uint8_t)len;
	return err;
}

/*
 * The running kernel's _text: among the first lines of /proc/kallsyms (the
 * kernel lists its symbols in address order, _text within the first few
 * dozen), so reading one buffer costs little of what the whole file does.
 */
int kernel__read_text(const char *path, uint64_t *text)
{
	char buf[16384];
	FILE *f = fopen(path, "re");
	int lines = 0;

	if (!f)
		return -errno;
	while (lines++ < 256 && fgets(buf, sizeof(buf), f)) {
		unsigned long long addr;
		char *end;

		addr = strtoull(buf, &end, 16);
		if (end != buf && !strncmp(end, " T _text\n", 9) && addr) {
			fclose(f);
			*text = addr;
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

/* FNV-1a of /proc/modules (names, sizes, load addresses): 0 when there is none */
__wraps uint64_t kernel__modules_key(const char *path)
{
	char buf[4096];
	uint64_t h = PRISM_FNV_SEED;
	bool any = false;
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		size_t i;

		any = true;
		for (i = 0; i < n; i++)
			h = (h ^ (uint8_t)buf[i]) * 0x100000001b3ull;
	}
	fclose(f);
	return any ? h : 0;
}

static bool kernel_bracket(const char *base)
{
	static const char *const not_mod[] = {
		"[kernel.kallsyms]", "[guest.kernel.kallsyms", "[vdso]", "[vdso32]", "[vdsox32]",
		"[vsyscall]"
	};
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(not_mod); i++)
		if (!strncmp(base, not_mod[i], strlen(not_mod[i])))
			return true;
	return false;
}

bool kmod__name(const char *path, char *name, size_t len)
{
	static const char *const comp[] = { ".gz", ".xz", ".zst", ".bz2", ".lzma" };
	const char *base = strrchr(path, '/'), *ext;
	size_t i, n;
	bool kmod;
	char *p;

	base = base ? base + 1 : path;
	if (base[0] == '[') {
		snprintf(name, len, "%s", base);
		return !kernel_bracket(base);
	}
	ext = strrchr(path, '.');
	if (!ext || ext < base) {
		snprintf(name, len, "%s", base);
		return false;
	}
	for (i = 0; i < PRISM_ARRAY_SIZE(comp); i++) {
		if (!strcmp(ext, comp[i]) && ext - base >= 3) {
			ext -= 3; /* "x.ko.gz": the name ends before ".ko" */
			break;
		}
	}
	kmod = !strncmp(ext, ".ko", 3);
	n = (size_t)(ext - base);
	snprintf(name, len, "[%.*s]", (int)n, base);
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return kmod;
}
