// SPDX-License-Identifier: MIT
/*
 * prism_kcore__copy(): perf record --kcore's copy of the kernel's code from
 * a directory that stands for /proc (kallsyms, modules, a kcore ELF file):
 * which ranges it keeps, where their bytes go, and its failures.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/record.h>

#include "test.h"

#define KBASE 0xffffffff81000000ull
#define MBASE 0xffffffffc0000000ull
#define TRAMP 0xfffffe0000006000ull
#define PAGE 4096u

struct seg {
	uint64_t vaddr, off, len;
	uint32_t flags;
	uint8_t fill;
};

static char dir[64], from[96], to[96];

static void put(const char *name, const void *buf, size_t len)
{
	char path[160];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", from, name);
	f = fopen(path, "wb");
	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
	}
}

static void put_str(const char *name, const char *s)
{
	put(name, s, strlen(s));
}

/* an ELF64 core file with these PT_LOAD segments, each filled with its byte */
static void put_kcore(const struct seg *s, size_t n)
{
	size_t size = PAGE, i;
	uint8_t *img;
	Elf64_Ehdr *eh;

	for (i = 0; i < n; i++)
		if (s[i].off + s[i].len > size)
			size = s[i].off + s[i].len;
	img = calloc(1, size);
	if (!img)
		return;
	eh = (Elf64_Ehdr *)img;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_CORE;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = (uint16_t)n;
	for (i = 0; i < n; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh)) + i;

		ph->p_type = PT_LOAD;
		ph->p_flags = s[i].flags;
		ph->p_offset = s[i].off;
		ph->p_vaddr = s[i].vaddr;
		ph->p_filesz = ph->p_memsz = s[i].len;
		ph->p_align = PAGE;
		memset(img + s[i].off, s[i].fill, s[i].len);
	}
	put("kcore", img, size);
	free(img);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/prism-kcore-XXXXXX");
	if (!mkdtemp(dir))
		return;
	snprintf(from, sizeof(from), "%s/proc", dir);
	snprintf(to, sizeof(to), "%s/kcore_dir", dir);
	mkdir(from, 0700);
}

static void cleanup(void)
{
	static const char *const names[] = { "kcore", "kallsyms", "modules" };
	char path[160];
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", from, names[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", to, names[i]);
		chmod(path, 0600);
		unlink(path);
	}
	rmdir(to);
	rmdir(from);
	rmdir(dir);
}

/* the copy's program headers and its bytes */
static uint8_t *read_copy(size_t *len)
{
	char path[160];
	struct stat st;
	uint8_t *buf;
	int fd;

	snprintf(path, sizeof(path), "%s/kcore", to);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/* the copy from "from" to "to"; its kcore's bytes, or NULL (the failure on stderr) */
static uint8_t *copy(size_t *len)
{
	char msg[512];
	int err = prism_kcore__copy(from, to, msg, sizeof(msg));

	if (err) {
		fprintf(stderr, "# copy: %s (%d)\n", msg, err);
		return NULL;
	}
	return read_copy(len);
}

static const Elf64_Phdr *phdr(const uint8_t *img, size_t i)
{
	return (const Elf64_Phdr *)(img + ((const Elf64_Ehdr *)img)->e_phoff) + i;
}

static bool filled(const uint8_t *img, size_t len, const Elf64_Phdr *ph, uint8_t fill)
{
	size_t i;

	if (ph->p_offset + ph->p_filesz > len)
		return false;
	for (i = 0; i < ph->p_filesz; i++)
		if (img[ph->p_offset + i] != fill)
			return false;
	return true;
}

/*
 * The kernel's text from _stext to _etext, the module range from the
 * lowest module address to a page past the last module symbol, the
 * trampoline's page sharing the kernel's bytes, the data segment left out
 */
static void test_layout(void)
{
	const struct seg segs[] = {
		{ 0xffffc90000000000ull, 1 * PAGE, PAGE, PF_R, 0x55 }, /* data */
		{ KBASE - 2 * PAGE, 2 * PAGE, 6 * PAGE, PF_R | PF_X, 0xaa }, /* text */
		{ MBASE, 8 * PAGE, 4 * PAGE, PF_R | PF_X, 0xbb }, /* modules */
		{ TRAMP, 5 * PAGE, PAGE, PF_R | PF_X,
		  0xaa }, /* the text page at KBASE + PAGE again */
	};
	char path[160];
	const Elf64_Phdr *ph;
	uint8_t *img;
	size_t len = 0;

	setup();
	put_str("kallsyms", "fffffe0000006040 t __entry_SYSCALL_64_trampoline\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81000010 T _stext\n"
			    "ffffffff81000100 T one\n"
			    "ffffffff81002800 D some_data\n"
			    "ffffffff81002000 T _etext\n"
			    "ffffffffc0000010 t mod_a\t[m]\n"
			    "ffffffffc0001010 T mod_b\t[m]\n");
	put_str("modules", "m 16384 0 - Live 0xffffffffc0000000\n");
	put_kcore(segs, 4);
	img = copy(&len);
	if (!img) {
		cleanup();
		TEST_FAIL("the copy failed");
	}
	TEST_EQ(((const Elf64_Ehdr *)img)->e_type, ET_CORE);
	TEST_EQ(((const Elf64_Ehdr *)img)->e_machine, EM_X86_64);
	TEST_EQ(((const Elf64_Ehdr *)img)->e_phnum, 3);
	TEST_EQ(((const Elf64_Ehdr *)img)->e_shnum, 0);
	ph = phdr(img, 0); /* _stext rounded down to _etext */
	TEST_EQ_U64(ph->p_vaddr, KBASE);
	TEST_EQ_U64(ph->p_filesz, 2 * PAGE);
	TEST_EQ_U64(ph->p_offset, PAGE); /* the first page after the headers */
	TEST_EQ(ph->p_flags, PF_R | PF_W | PF_X);
	TEST_TRUE(filled(img, len, ph, 0xaa));
	ph = phdr(img, 1); /* modules: a page past mod_b rounded up */
	TEST_EQ_U64(ph->p_vaddr, MBASE);
	TEST_EQ_U64(ph->p_filesz, 3 * PAGE);
	TEST_EQ_U64(ph->p_offset, 3 * PAGE);
	TEST_TRUE(filled(img, len, ph, 0xbb));
	ph = phdr(img, 2); /* the trampoline: the kernel's second page, not copied again */
	TEST_EQ_U64(ph->p_vaddr, TRAMP);
	TEST_EQ_U64(ph->p_filesz, PAGE);
	TEST_EQ_U64(ph->p_offset, 2 * PAGE);
	TEST_EQ(len, 6 * PAGE);
	free(img);
	snprintf(path, sizeof(path), "%s/modules", to);
	TEST_TRUE(access(path, R_OK) == 0);
	cleanup();
}

/* no _stext/_etext: the lowest function symbol to a page past the highest */
static void test_no_stext(void)
{
	const struct seg segs[] = { { KBASE, PAGE, 4 * PAGE, PF_R | PF_X, 0x11 } };
	const Elf64_Phdr *ph;
	uint8_t *img;
	size_t len = 0;

	setup();
	put_str("kallsyms", "ffffffff81000100 t low\nffffffff81001100 W high\n"
			    "ffffffff81003000 d data\n");
	put_str("modules", "");
	put_kcore(segs, 1);
	img = copy(&len);
	if (!img) {
		cleanup();
		TEST_FAIL("the copy failed");
	}
	TEST_EQ(((const Elf64_Ehdr *)img)->e_phnum, 1);
	ph = phdr(img, 0);
	TEST_EQ_U64(ph->p_vaddr, KBASE);
	TEST_EQ_U64(ph->p_filesz, 3 * PAGE);
	TEST_TRUE(filled(img, len, ph, 0x11));
	free(img);
	cleanup();
}

/* each failure says what failed and leaves nothing behind */
static void test_failures(void)
{
	const struct seg segs[] = { { KBASE, PAGE, PAGE, PF_R | PF_X, 0x11 } };
	struct stat st;
	char msg[512];
	int err;

	setup();
	put_str("kallsyms", "ffffffff81000000 T _stext\nffffffff81000800 T _etext\n");
	put_str("modules", "");
	err = prism_kcore__copy(from, to, msg, sizeof(msg)); /* no kcore */
	TEST_EQ(err, -ENOENT);
	TEST_TRUE(strstr(msg, "/proc/kcore") != NULL);
	TEST_TRUE(stat(to, &st) != 0);
	put_str("kcore", "not an ELF file");
	err = prism_kcore__copy(from, to, msg, sizeof(msg));
	TEST_EQ(err, -ENOEXEC);
	TEST_TRUE(stat(to, &st) != 0);
	put_kcore(segs, 1);
	put_str("kallsyms", "0000000000000000 T _stext\n0000000000000000 T _etext\n");
	err = prism_kcore__copy(from, to, msg, sizeof(msg)); /* hidden addresses */
	TEST_EQ(err, -EINVAL);
	TEST_TRUE(strstr(msg, "kallsyms") != NULL);
	TEST_TRUE(stat(to, &st) != 0);
	put_str("kallsyms", "ffffffff91000000 T _stext\nffffffff91000800 T _etext\n");
	err = prism_kcore__copy(from, to, msg, sizeof(msg)); /* text in no segment */
	TEST_EQ(err, -ENOENT);
	TEST_TRUE(strstr(msg, "no executable segment") != NULL);
	mkdir(to, 0700);
	err = prism_kcore__copy(from, to, msg, sizeof(msg));
	TEST_EQ(err, -EEXIST);
	cleanup();
}

TEST_MAIN(TEST(layout), TEST(no_stext), TEST(failures));
