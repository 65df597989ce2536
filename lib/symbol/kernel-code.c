// SPDX-License-Identifier: MIT
/*
 * The kernel's code for decoders that read instructions (Intel PT): ELF
 * files whose PT_LOAD segments hold it at its addresses, tried in the order
 * they were added: a copy of kcore (perf record --kcore's kcore_dir/kcore,
 * each segment at the address it ran at) or a vmlinux (linked addresses,
 * moved by the file's KASLR offset: the kernel map's recorded _text minus
 * the vmlinux's _text symbol, as perf relocates it).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <prism/symbol.h>

#include "symbol-internal.h"

/* the value of the symbol _text in @path's .symtab, or 0 */
static uint64_t text_symbol(const char *path)
{
	Elf_Scn *scn = NULL;
	uint64_t text = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;

	while (e && !text && (scn = elf_nextscn(e, scn))) {
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Shdr sh;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !d || !sh.sh_entsize)
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s))
				break;
			n = elf_strptr(e, sh.sh_link, s.st_name);
			if (n && !strcmp(n, "_text")) {
				text = s.st_value;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return text;
}

int prism_symbols__add_kernel_code(struct prism_symbols *sy, const char *path)
{
	struct kcode *k;
	bool is_exec = false;
	int err;

	if (prism_ensure_mem((void **)&sy->kcode, &sy->cap_kcode, sizeof(*sy->kcode),
			     sy->nr_kcode + 1))
		return -ENOMEM;
	k = &sy->kcode[sy->nr_kcode];
	memset(k, 0, sizeof(*k));
	err = elf__segments(path, &k->segs, &k->nr, &is_exec);
	if (!err && !k->nr)
		err = -ENOEXEC;
	if (!err && !(k->path = strdup(path)))
		err = -ENOMEM;
	if (err) {
		free(k->segs);
		return err;
	}
	if (is_exec)
		k->text = text_symbol(path);
	k->kcore = !is_exec;
	sy->nr_kcode++;
	pr_debug("symbol: kernel code from %s (%zu segments%s)\n", path, k->nr,
		 k->text ? ", relocated by _text" : "");
	return 0;
}

int kcode__map(struct prism_symbols *sy, uint64_t addr, struct prism_code_map *out)
{
	size_t i, j;

	for (i = 0; i < sy->nr_kcode; i++) {
		const struct kcode *k = &sy->kcode[i];
		uint64_t delta =
			k->text && sy->kmap.dso && sy->kmap.pgoff ? sy->kmap.pgoff - k->text : 0;

		for (j = 0; j < k->nr; j++) {
			uint64_t start = k->segs[j].vaddr + delta;

			if (addr < start || addr - start >= k->segs[j].filesz)
				continue;
			out->start = start;
			out->end = start + k->segs[j].filesz;
			out->pgoff = k->segs[j].offset;
			out->path = k->path;
			out->dso = sy->kernel;
			out->kcore = k->kcore;
			return 0;
		}
	}
	return -ENOENT;
}

void kcode__free(struct prism_symbols *sy)
{
	size_t i;

	for (i = 0; i < sy->nr_kcode; i++) {
		free(sy->kcode[i].path);
		free(sy->kcode[i].segs);
	}
	free(sy->kcode);
	sy->kcode = NULL;
	sy->nr_kcode = sy->cap_kcode = 0;
}
