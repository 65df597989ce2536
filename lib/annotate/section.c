// SPDX-License-Identifier: MIT
/*
 * The name of the ELF section that holds an address (objdump's
 * "Disassembly of section .plt:" line), from a 64-bit ELF file's section
 * headers.
 */
#include <elf.h>
#include <unistd.h>

#include "annotate-internal.h"

int ann_section_name(int fd, uint64_t addr, char *name, size_t size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strs;
	unsigned int i;
	ssize_t n;

	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, 4) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(sh) ||
	    eh.e_shstrndx >= eh.e_shnum ||
	    pread(fd, &strs, sizeof(strs), (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof(sh))) !=
		    (ssize_t)sizeof(strs))
		return -ENOENT;
	for (i = 0; i < eh.e_shnum; i++) {
		if (pread(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + i * sizeof(sh))) !=
		    (ssize_t)sizeof(sh))
			return -ENOENT;
		if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS || addr < sh.sh_addr ||
		    addr - sh.sh_addr >= sh.sh_size || sh.sh_name >= strs.sh_size)
			continue;
		n = pread(fd, name, size - 1, (off_t)(strs.sh_offset + sh.sh_name));
		if (n <= 0)
			return -ENOENT;
		name[n] = '\0';
		return 0;
	}
	return -ENOENT;
}
