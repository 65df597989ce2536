// SPDX-License-Identifier: MIT
/*
 * ELF files through libelf: build ids, function symbols (.symtab or
 * .dynsym), PLT entries, executable segments, .gnu_debuglink.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <unistd.h>

#include "symbol-internal.h"

static Elf *open_elf(const char *path, int *fd)
{
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		*fd = -1;
		errno = ENOEXEC;
		return NULL;
	}
	return e;
}

static void close_elf(Elf *e, int fd)
{
	elf_end(e);
	if (fd >= 0)
		close(fd);
}

static Elf_Scn *find_section(Elf *e, const char *name, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, out))
			continue;
		n = elf_strptr(e, shstrndx, out->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* the NT_GNU_BUILD_ID note of any SHT_NOTE section */
static int read_build_id(Elf *e, uint8_t *id, uint8_t *size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;
		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((const char *)d->d_buf + name_off, "GNU", 4)) {
				*size = nh.n_descsz > BUILD_ID_MAX ? BUILD_ID_MAX : nh.n_descsz;
				memcpy(id, (const char *)d->d_buf + desc_off, *size);
				return 0;
			}
		}
	}
	return -ENOENT;
}

int elf__read_build_id(const char *path, uint8_t *id, uint8_t *size)
{
	int fd, err;
	Elf *e = open_elf(path, &fd);

	if (!e)
		return -errno;
	err = read_build_id(e, id, size);
	close_elf(e, fd);
	return err;
}

static bool is_exec_section(Elf *e, size_t idx)
{
	Elf_Scn *scn = elf_getscn(e, idx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/*
 * The string table of a symbol table, copied once into the table's strings
 * (with a NUL after it): names point into it, no copy per symbol.  NULL
 * when it cannot be read (then names are looked up one by one).
 */
static const char *copy_strtab(Elf *e, size_t link, struct symtab *t, size_t *len)
{
	Elf_Scn *scn = elf_getscn(e, link);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	char *buf;

	if (!d || !d->d_buf || !d->d_size || d->d_size > SIZE_MAX - 1)
		return NULL;
	buf = malloc(d->d_size + 1);
	if (!buf)
		return NULL;
	memcpy(buf, d->d_buf, d->d_size);
	buf[d->d_size] = '\0';
	if (symtab__keep(t, buf)) {
		free(buf);
		return NULL;
	}
	*len = d->d_size;
	return buf;
}

static int load_symtab(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct symtab *t)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n, strsz = 0;
	const char *strs;

	if (!d || !sh->sh_entsize)
		return 0;
	strs = copy_strtab(e, sh->sh_link, t, &strsz);
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int err;

		if (!gelf_getsym(d, (int)i, &s))
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE || !s.st_value)
			continue;
		switch (GELF_ST_TYPE(s.st_info)) {
		case STT_FUNC:
		case STT_GNU_IFUNC:
			break;
		case STT_NOTYPE:
			/* assembly labels in code (ld.so's _dl_start_user), as perf takes them */
			if (!is_exec_section(e, s.st_shndx))
				continue;
			break;
		default:
			continue;
		}
		if (strs)
			name = s.st_name < strsz ? strs + s.st_name : NULL;
		else
			name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		err = symtab__add(t, s.st_value, s.st_size, name, GELF_ST_BIND(s.st_info), !strs);
		if (err)
			return err;
	}
	return 0;
}

/*
 * PLT entries get "<name>@plt" symbols, as perf and objdump show them.
 * Note: x86-64 with IBT has the real stubs in .plt.sec (no header entry);
 * otherwise .plt starts with one 16-byte header entry.
 */
static int load_plt(Elf *e, struct symtab *t)
{
	GElf_Shdr plt_sh, rela_sh, dyn_sh;
	Elf_Scn *plt, *rela, *dyn;
	Elf_Data *rd, *dd;
	uint64_t entsize = 16, addr;
	size_t i, n;
	char buf[512];

	plt = find_section(e, ".plt.sec", &plt_sh);
	if (plt) {
		addr = plt_sh.sh_addr;
	} else {
		plt = find_section(e, ".plt", &plt_sh);
		if (!plt)
			return 0;
		if (plt_sh.sh_entsize && plt_sh.sh_entsize < plt_sh.sh_size)
			entsize = plt_sh.sh_entsize;
		addr = plt_sh.sh_addr + entsize;
	}
	rela = find_section(e, ".rela.plt", &rela_sh);
	if (!rela || rela_sh.sh_type != SHT_RELA || !rela_sh.sh_entsize)
		return 0;
	dyn = elf_getscn(e, rela_sh.sh_link);
	if (!dyn || !gelf_getshdr(dyn, &dyn_sh))
		return 0;
	rd = elf_getdata(rela, NULL);
	dd = elf_getdata(dyn, NULL);
	if (!rd || !dd)
		return 0;
	n = rela_sh.sh_size / rela_sh.sh_entsize;
	for (i = 0; i < n; i++, addr += entsize) {
		GElf_Rela r;
		GElf_Sym s;
		const char *name;
		int err;

		if (!span_ok(addr, entsize, plt_sh.sh_addr, plt_sh.sh_size))
			break;
		if (!gelf_getrela(rd, (int)i, &r))
			continue;
		if (!gelf_getsym(dd, GELF_R_SYM(r.r_info), &s))
			memset(&s, 0, sizeof(s));
		name = elf_strptr(e, dyn_sh.sh_link, s.st_name);
		/* IRELATIVE slots have no symbol: perf names them "@plt" */
		snprintf(buf, sizeof(buf), "%s@plt", name ? name : "");
		err = symtab__add(t, addr, entsize, buf, STB_GLOBAL, true);
		if (err)
			return err;
	}
	return 0;
}

int elf__load_syms(const char *path, struct symtab *t, bool syms, bool plt, bool *has_symtab)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	int fd, err = 0;
	Elf *e = open_elf(path, &fd);

	if (!e)
		return -errno;
	*has_symtab = false;
	scn = syms ? find_section(e, ".symtab", &sh) : NULL;
	if (!syms) {
		/* PLT only */
	} else if (scn && sh.sh_type == SHT_SYMTAB) {
		*has_symtab = true;
		err = load_symtab(e, scn, &sh, t);
	} else {
		scn = find_section(e, ".dynsym", &sh);
		if (scn && sh.sh_type == SHT_DYNSYM)
			err = load_symtab(e, scn, &sh, t);
	}
	if (!err && plt)
		err = load_plt(e, t);
	close_elf(e, fd);
	return err;
}

int elf__load_mem_syms(const void *img, size_t len, struct symtab *t)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	int err = 0;
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOEXEC;
	e = elf_memory((char *)img, len);
	if (!e)
		return -ENOEXEC;
	scn = find_section(e, ".symtab", &sh);
	if (!scn)
		scn = find_section(e, ".dynsym", &sh);
	if (scn)
		err = load_symtab(e, scn, &sh, t);
	elf_end(e);
	return err;
}

int elf__segments(const char *path, struct segment **segs, size_t *nr, bool *is_exec)
{
	GElf_Ehdr eh;
	size_t i, n, alloc = 0;
	int fd, err = 0;
	Elf *e = open_elf(path, &fd);

	*segs = NULL;
	*nr = 0;
	if (!e)
		return -errno;
	if (!gelf_getehdr(e, &eh) || elf_getphdrnum(e, &n)) {
		err = -ENOEXEC;
		goto out;
	}
	*is_exec = eh.e_type == ET_EXEC;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (prism_ensure_mem((void **)segs, &alloc, sizeof(**segs), *nr + 1)) {
			err = -ENOMEM;
			goto out;
		}
		(*segs)[*nr].offset = ph.p_offset;
		(*segs)[*nr].vaddr = ph.p_vaddr;
		(*segs)[*nr].filesz = ph.p_filesz;
		(*nr)++;
	}
out:
	close_elf(e, fd);
	return err;
}

char *elf__debuglink(const char *path)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d;
	char *name = NULL;
	int fd;
	Elf *e = open_elf(path, &fd);

	if (!e)
		return NULL;
	scn = find_section(e, ".gnu_debuglink", &sh);
	if (scn && (d = elf_getdata(scn, NULL)) && d->d_size > 1 && memchr(d->d_buf, 0, d->d_size))
		name = strdup(d->d_buf);
	close_elf(e, fd);
	return name;
}

int elf__probe(const char *path, struct elf_info *out)
{
	GElf_Shdr sh;
	int fd;
	Elf *e = open_elf(path, &fd);

	memset(out, 0, sizeof(*out));
	if (!e)
		return -errno;
	if (read_build_id(e, out->id, &out->id_size))
		out->id_size = 0;
	/* a debug file's copies of the loaded sections are SHT_NOBITS: not a .dynsym */
	out->symtab = find_section(e, ".symtab", &sh) && sh.sh_type == SHT_SYMTAB;
	out->dynsym = find_section(e, ".dynsym", &sh) && sh.sh_type == SHT_DYNSYM;
	out->dwarf = find_section(e, ".debug_info", &sh) && sh.sh_type != SHT_NOBITS;
	close_elf(e, fd);
	return 0;
}
