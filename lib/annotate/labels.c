// SPDX-License-Identifier: MIT
/*
 * objdump's labels ("<leaf_a+0x1c>", "# 2010 <_IO_stdin_used+0x10>" after
 * a %rip-relative operand): the nearest symbol at or below the address of
 * the ELF file objdump reads symbols from (its .symtab, objects included),
 * among symbols of one value the first in binutils' order (compare_symbols:
 * by section, file-name-like symbols last, functions, then objects first,
 * locals last, globals first, larger first, names starting with '.' last,
 * then by name), for code the first in the code's own section.  objdump's
 * PLT entries ("printf@plt") are synthetic: those are prism's names.
 */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>

#include "annotate-internal.h"

struct lsym {
	uint64_t value, size;
	uint16_t shndx;
	uint8_t type, bind;
	const char *name;
};

struct lsect {
	uint64_t addr, size;
	bool plt; /* .plt, .plt.sec, .plt.got */
};

struct ann_label_file {
	char *path;
	char *strtab;
	struct lsym *syms; /* sorted as objdump sorts them; NULL: no .symtab */
	size_t nr;
	struct lsect *sects; /* by section index */
	size_t nr_sects;
};

static bool file_like(const char *n)
{
	size_t l = strlen(n);

	return l > 2 && n[l - 2] == '.' && (n[l - 1] == 'o' || n[l - 1] == 'a');
}

static int cmp_lsym(const void *pa, const void *pb)
{
	const struct lsym *a = pa, *b = pb;
	bool x, y;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	x = file_like(a->name), y = file_like(b->name);
	if (x != y)
		return x ? 1 : -1;
	x = a->type == STT_FUNC, y = b->type == STT_FUNC;
	if (x != y)
		return x ? -1 : 1;
	x = a->type == STT_OBJECT, y = b->type == STT_OBJECT;
	if (x != y)
		return x ? -1 : 1;
	x = a->bind == STB_LOCAL, y = b->bind == STB_LOCAL;
	if (x != y)
		return x ? 1 : -1;
	x = a->bind == STB_GLOBAL || a->bind == STB_GNU_UNIQUE;
	y = b->bind == STB_GLOBAL || b->bind == STB_GNU_UNIQUE;
	if (x != y)
		return x ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	x = a->name[0] == '.', y = b->name[0] == '.';
	if (x != y)
		return x ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void *read_at(int fd, uint64_t off, uint64_t len)
{
	char *p = len < (1ull << 30) ? malloc(len + 1) : NULL;

	if (p && pread(fd, p, len, (off_t)off) != (ssize_t)len) {
		free(p);
		return NULL;
	}
	if (p)
		p[len] = '\0';
	return p;
}

static void load(struct ann_label_file *lf)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	Elf64_Sym *es = NULL;
	size_t i, n, strsz;
	int fd = open(lf->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, 4) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(*sh) || !eh.e_shnum)
		goto out;
	sh = read_at(fd, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sh));
	lf->sects = sh ? calloc(eh.e_shnum, sizeof(*lf->sects)) : NULL;
	if (lf->sects && eh.e_shstrndx < eh.e_shnum) {
		char *names = read_at(fd, sh[eh.e_shstrndx].sh_offset, sh[eh.e_shstrndx].sh_size);

		for (i = 0; names && i < eh.e_shnum; i++) {
			if (!(sh[i].sh_flags & SHF_ALLOC))
				continue;
			lf->sects[i].addr = sh[i].sh_addr;
			lf->sects[i].size = sh[i].sh_size;
			lf->sects[i].plt = sh[i].sh_name < sh[eh.e_shstrndx].sh_size &&
					   !strncmp(names + sh[i].sh_name, ".plt", 4);
		}
		lf->nr_sects = eh.e_shnum;
		free(names);
	}
	for (i = 0; sh && i < eh.e_shnum; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh.e_shnum)
			break;
	if (!sh || i == eh.e_shnum || sh[i].sh_entsize != sizeof(*es))
		goto out;
	n = sh[i].sh_size / sizeof(*es);
	strsz = sh[sh[i].sh_link].sh_size;
	es = read_at(fd, sh[i].sh_offset, n * sizeof(*es));
	lf->strtab = read_at(fd, sh[sh[i].sh_link].sh_offset, strsz);
	lf->syms = calloc(n + 1, sizeof(*lf->syms));
	if (!es || !lf->strtab || !lf->syms)
		goto out;
	/* binutils' remove_useless_symbols(): no section, file, undefined or common symbols */
	for (i = 0; i < n; i++) {
		const Elf64_Sym *s = &es[i];
		uint8_t type = ELF64_ST_TYPE(s->st_info);

		if (!s->st_name || s->st_name >= strsz || type == STT_SECTION || type == STT_FILE ||
		    s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE ||
		    !lf->strtab[s->st_name])
			continue;
		lf->syms[lf->nr++] = (struct lsym){ .value = s->st_value,
						    .size = s->st_size,
						    .shndx = s->st_shndx,
						    .type = type,
						    .bind = ELF64_ST_BIND(s->st_info),
						    .name = lf->strtab + s->st_name };
	}
	qsort(lf->syms, lf->nr, sizeof(*lf->syms), cmp_lsym);
out:
	if (fd >= 0)
		close(fd);
	free(es);
	free(sh);
}

void ann_labels_free(struct prism_annotate *a)
{
	size_t i;

	for (i = 0; i < a->nr_label_files; i++) {
		free(a->label_files[i].path);
		free(a->label_files[i].strtab);
		free(a->label_files[i].syms);
		free(a->label_files[i].sects);
	}
	free(a->label_files);
}

/* a name as objdump -C writes it: demangled with parameters, a version suffix kept */
static void put_name(const char *name, struct prism_strbuf *sb)
{
	const char *at = strchr(name, '@');
	char *base = at ? strndup(name, (size_t)(at - name)) : NULL;
	char *dem = prism_demangle(base ? base : name, true);

	if (dem) {
		prism_strbuf_addstr(sb, dem);
		if (at)
			prism_strbuf_addstr(sb, at);
	} else {
		prism_strbuf_addstr(sb, name);
	}
	free(dem);
	free(base);
}

/* the section index holding @addr, 0 for none */
static size_t section_of(const struct ann_label_file *lf, uint64_t addr)
{
	size_t i;

	for (i = 1; i < lf->nr_sects; i++)
		if (lf->sects[i].size && addr >= lf->sects[i].addr &&
		    addr - lf->sects[i].addr < lf->sects[i].size)
			return i;
	return 0;
}

int64_t ann_file_label(struct prism_annotate *a, const struct prism_annotate_sym *s, uint64_t addr,
		       bool code, struct prism_strbuf *sb)
{
	const char *path = s->kernel ? NULL : a->label_path;
	struct ann_label_file *lf = NULL;
	size_t i, first, lo = 0, hi, sect;

	if (!path || path[0] != '/')
		return -1;
	for (i = 0; i < a->nr_label_files; i++)
		if (!strcmp(a->label_files[i].path, path))
			lf = &a->label_files[i];
	if (!lf) {
		if (prism_ensure_mem((void **)&a->label_files, &a->alloc_label_files,
				     sizeof(*a->label_files), a->nr_label_files + 1))
			return -1;
		lf = &a->label_files[a->nr_label_files];
		memset(lf, 0, sizeof(*lf));
		lf->path = strdup(path);
		if (!lf->path)
			return -1;
		a->nr_label_files++;
		load(lf);
	}
	if (!lf->nr || (code && lf->sects[section_of(lf, addr)].plt))
		return -1;
	/* the last symbol at or below addr, then the first of its value */
	for (hi = lf->nr; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (lf->syms[mid].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	for (first = lo - 1; first > 0 && lf->syms[first - 1].value == lf->syms[first].value;
	     first--)
		;
	/* code: the first of that value in the code's section, if one is */
	sect = code ? section_of(lf, s->start) : 0;
	for (i = first; sect && i < lo && lf->syms[i].shndx != sect; i++)
		;
	if (!sect || i == lo)
		i = first;
	prism_strbuf_addstr(sb, " <");
	put_name(lf->syms[i].name, sb);
	if (addr == lf->syms[i].value)
		prism_strbuf_addch(sb, '>');
	else
		prism_strbuf_addf(sb, "+0x%" PRIx64 ">", addr - lf->syms[i].value);
	return (int64_t)(addr - lf->syms[i].value);
}
