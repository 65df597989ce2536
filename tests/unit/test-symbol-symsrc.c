// SPDX-License-Identifier: MIT
/*
 * Where a user binary's symbols come from (lib/symbol/symsrc.c): perf 6.1's
 * candidate paths, and its choice among tiny ELF files written here (a
 * .symtab, a real or SHT_NOBITS .dynsym, a build id, a debuglink, DWARF).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/symbol-internal.h"
#include "test.h"

static const uint8_t BID[20] = { 0x5e, 0xed, 1,	 2,  3,	 4,  5,	 6,  7,	 8,
				 9,    10,   11, 12, 13, 14, 15, 16, 17, 18 };
#define BID_HEX "5eed0102030405060708090a0b0c0d0e0f101112"

enum {
	F_SYMTAB = 1, /* a .symtab */
	F_DYNSYM = 2, /* a SHT_DYNSYM .dynsym */
	F_NOBITS_DYNSYM = 4, /* a debug file's .dynsym */
	F_DWARF = 8, /* a .debug_info */
	F_LINK = 16, /* .gnu_debuglink "prog.debug" */
	F_OTHER_ID = 32, /* another build id */
	F_NO_ID = 64, /* no build id */
};

struct sec {
	const char *name;
	uint32_t type;
	const void *data;
	size_t size;
};

static void mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
}

/* an ELF64 file of the sections @flags asks for; 0 or -1 */
static int write_elf(const char *path, unsigned int flags)
{
	static const uint8_t sym0[24];
	static const char link[12] = "prog.debug";
	uint8_t note[16 + 20], id[20];
	struct sec secs[8];
	char shstr[256];
	size_t n = 0, i, off, shstr_len = 1;
	Elf64_Shdr sh[10];
	Elf64_Ehdr eh;
	FILE *f;

	memcpy(id, BID, sizeof(id));
	if (flags & F_OTHER_ID)
		id[19] ^= 0xff;
	memcpy(note, &(uint32_t){ 4 }, 4);
	memcpy(note + 4, &(uint32_t){ 20 }, 4);
	memcpy(note + 8, &(uint32_t){ NT_GNU_BUILD_ID }, 4);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, id, 20);
	if (!(flags & F_NO_ID))
		secs[n++] = (struct sec){ ".note.gnu.build-id", SHT_NOTE, note, sizeof(note) };
	if (flags & F_SYMTAB)
		secs[n++] = (struct sec){ ".symtab", SHT_SYMTAB, sym0, sizeof(sym0) };
	if (flags & F_DYNSYM)
		secs[n++] = (struct sec){ ".dynsym", SHT_DYNSYM, sym0, sizeof(sym0) };
	if (flags & F_NOBITS_DYNSYM)
		secs[n++] = (struct sec){ ".dynsym", SHT_NOBITS, NULL, sizeof(sym0) };
	if (flags & F_DWARF)
		secs[n++] = (struct sec){ ".debug_info", SHT_PROGBITS, sym0, sizeof(sym0) };
	if (flags & F_LINK)
		secs[n++] = (struct sec){ ".gnu_debuglink", SHT_PROGBITS, link, sizeof(link) };
	memset(sh, 0, sizeof(sh));
	memset(shstr, 0, sizeof(shstr));
	off = sizeof(eh);
	for (i = 0; i < n; i++) {
		Elf64_Shdr *s = &sh[i + 1];

		s->sh_name = (uint32_t)shstr_len;
		shstr_len += (size_t)snprintf(shstr + shstr_len, sizeof(shstr) - shstr_len, "%s",
					      secs[i].name) +
			     1;
		s->sh_type = secs[i].type;
		s->sh_offset = off;
		s->sh_size = secs[i].size;
		s->sh_addralign = s->sh_type == SHT_NOTE ? 4 : 8;
		if (s->sh_type == SHT_SYMTAB || s->sh_type == SHT_DYNSYM)
			s->sh_entsize = sizeof(Elf64_Sym);
		if (s->sh_type != SHT_NOBITS)
			off += secs[i].size;
	}
	sh[n + 1].sh_name = (uint32_t)shstr_len;
	shstr_len +=
		(size_t)snprintf(shstr + shstr_len, sizeof(shstr) - shstr_len, ".shstrtab") + 1;
	sh[n + 1].sh_type = SHT_STRTAB;
	sh[n + 1].sh_offset = off;
	sh[n + 1].sh_size = shstr_len;
	sh[n + 1].sh_addralign = 1;
	off += shstr_len;
	off = (off + 7) & ~(size_t)7;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shoff = off;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)(n + 2);
	eh.e_shstrndx = (uint16_t)(n + 1);
	mkdirs(path);
	f = fopen(path, "wbe");
	if (!f)
		return -1;
	fwrite(&eh, sizeof(eh), 1, f);
	for (i = 0; i < n; i++)
		if (secs[i].type != SHT_NOBITS)
			fwrite(secs[i].data, secs[i].size, 1, f);
	fwrite(shstr, shstr_len, 1, f);
	while ((size_t)ftell(f) < off)
		fputc(0, f);
	fwrite(sh, sizeof(Elf64_Shdr), n + 2, f);
	return fclose(f) ? -1 : 0;
}

static char root[64];

/* a file at @rel under the test's directory */
static const char *at(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], PATH_MAX, "%s%s", root, rel);
	return buf[k];
}

static void in_init(struct symsrc_in *in, char *cache)
{
	memset(in, 0, sizeof(*in));
	snprintf(cache, PATH_MAX, "%s/cache", root);
	in->path = "/bin/prog";
	in->symfs = root;
	in->debug_dir = "/usr/lib/debug";
	in->cache_dir = cache;
	in->bid = BID;
	in->bid_size = sizeof(BID);
	in->bid_hex = BID_HEX;
}

static bool setup(void)
{
	snprintf(root, sizeof(root), "/tmp/prism-symsrc.XXXXXX");
	if (!mkdtemp(root)) {
		test_skip_reason = "cannot make a temporary directory";
		return false;
	}
	return true;
}

static void cleanup(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
}

/* a fresh directory, @in set up for /bin/prog in it; NULL (skipped) without one */
static struct symsrc_pick *begin(struct symsrc_in *in, char *cache)
{
	struct symsrc_pick *pk = malloc(sizeof(*pk));

	if (!pk || !setup()) {
		free(pk);
		return NULL;
	}
	in_init(in, cache);
	return pk;
}

static void test_paths(void)
{
	char cache[PATH_MAX], out[PATH_MAX];
	struct symsrc_in in;

	if (!setup())
		return;
	in_init(&in, cache);
	TEST_EQ(symsrc__path(&in, SYMSRC_CACHE, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/cache/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112/elf"));
	TEST_EQ(symsrc__path(&in, SYMSRC_CACHE_DEBUG, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/cache/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112/debug"));
	TEST_EQ(symsrc__path(&in, SYMSRC_FEDORA, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/usr/lib/debug/bin/prog.debug"));
	TEST_EQ(symsrc__path(&in, SYMSRC_UBUNTU, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/usr/lib/debug/bin/prog"));
	TEST_EQ(symsrc__path(&in, SYMSRC_BUILDID_DEBUG, out, sizeof(out)), 0);
	TEST_STREQ(out,
		   at("/usr/lib/debug/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112.debug"));
	TEST_EQ(symsrc__path(&in, SYMSRC_FILE, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/bin/prog"));
	TEST_EQ(symsrc__path(&in, SYMSRC_OPENEMBEDDED, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/bin/.debug/prog"));
	/* only for /usr/lib/...: Ubuntu's /usr/lib/debug/lib/... */
	TEST_EQ(symsrc__path(&in, SYMSRC_MIXEDUP_UBUNTU, out, sizeof(out)), -ENOENT);
	in.path = "/usr/lib/libx.so";
	TEST_EQ(symsrc__path(&in, SYMSRC_MIXEDUP_UBUNTU, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/usr/lib/debug/lib/libx.so"));
	/* no build id: no cache and no .build-id paths; no file: no debuglink */
	in.bid_size = 0;
	in.bid_hex = "";
	TEST_EQ(symsrc__path(&in, SYMSRC_CACHE, out, sizeof(out)), -ENOENT);
	TEST_EQ(symsrc__path(&in, SYMSRC_CACHE_DEBUG, out, sizeof(out)), -ENOENT);
	TEST_EQ(symsrc__path(&in, SYMSRC_BUILDID_DEBUG, out, sizeof(out)), -ENOENT);
	TEST_EQ(symsrc__path(&in, SYMSRC_DEBUGLINK, out, sizeof(out)), -ENOENT);
	/* the old cache layout: the .build-id name is the file */
	in_init(&in, cache);
	TEST_EQ(write_elf(at("/cache/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112"),
			  F_SYMTAB),
		0);
	TEST_EQ(symsrc__path(&in, SYMSRC_CACHE_DEBUG, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/cache/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112"));
	/* the debuglink: next to the file, then in its .debug/ */
	TEST_EQ(write_elf(at("/bin/prog"), F_DYNSYM | F_LINK), 0);
	TEST_EQ(symsrc__path(&in, SYMSRC_DEBUGLINK, out, sizeof(out)), -ENOENT);
	TEST_EQ(write_elf(at("/bin/.debug/prog.debug"), F_SYMTAB), 0);
	TEST_EQ(symsrc__path(&in, SYMSRC_DEBUGLINK, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/bin/.debug/prog.debug"));
	TEST_EQ(write_elf(at("/bin/prog.debug"), F_SYMTAB), 0);
	TEST_EQ(symsrc__path(&in, SYMSRC_DEBUGLINK, out, sizeof(out)), 0);
	TEST_STREQ(out, at("/bin/prog.debug"));
	cleanup();
}

#define CACHE_ELF "/cache/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112/elf"
#define CACHE_DEBUG "/cache/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112/debug"

static void test_pick_order(void)
{
	char cache[PATH_MAX];
	struct symsrc_in in;
	struct symsrc_pick *pk = begin(&in, cache);

	if (!pk)
		return;
	/* the stripped file alone: its .dynsym */
	TEST_EQ(write_elf(at("/bin/prog"), F_DYNSYM | F_LINK), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, "");
	TEST_STREQ(pk->runtime, at("/bin/prog"));
	TEST_EQ(pk->runtime_type, SYMSRC_FILE);
	TEST_STREQ(pk->data, at("/bin/prog"));
	/* a debug file in the cache: its .symtab, the file's .dynsym */
	TEST_EQ(write_elf(at(CACHE_DEBUG), F_SYMTAB | F_NOBITS_DYNSYM | F_DWARF), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, at(CACHE_DEBUG));
	TEST_EQ(pk->syms_type, SYMSRC_CACHE_DEBUG);
	TEST_STREQ(pk->runtime, at("/bin/prog"));
	TEST_STREQ(pk->dwarf, at(CACHE_DEBUG));
	/* an unstripped copy in the cache comes first, for both */
	TEST_EQ(write_elf(at(CACHE_ELF), F_SYMTAB | F_DYNSYM), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, at(CACHE_ELF));
	TEST_STREQ(pk->runtime, at(CACHE_ELF));
	TEST_STREQ(pk->data, at(CACHE_ELF));
	TEST_EQ(pk->data_type, SYMSRC_CACHE);
	/* ... but the DWARF is still looked for further on */
	TEST_STREQ(pk->dwarf, at(CACHE_DEBUG));
	/* the debuglink file comes before the cache */
	TEST_EQ(write_elf(at("/bin/.debug/prog.debug"), F_SYMTAB | F_NOBITS_DYNSYM), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, at("/bin/.debug/prog.debug"));
	TEST_EQ(pk->syms_type, SYMSRC_DEBUGLINK);
	TEST_STREQ(pk->runtime, at(CACHE_ELF));
	/* a cache copy of another build: skipped, and noted */
	TEST_EQ(write_elf(at(CACHE_ELF), F_SYMTAB | F_DYNSYM | F_OTHER_ID), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->runtime, at("/bin/prog"));
	TEST_STREQ(pk->data, at("/bin/prog"));
	TEST_STREQ(pk->bad, at(CACHE_ELF));
	TEST_TRUE(pk->bad_has_id);
	/* no build id recorded: any file fits */
	in.bid_size = 0;
	in.bid_hex = "";
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, at("/bin/.debug/prog.debug"));
	TEST_STREQ(pk->runtime, at("/bin/prog"));
	TEST_STREQ(pk->bad, "");
	free(pk);
	cleanup();
}

static void test_pick_debug_dirs(void)
{
	char cache[PATH_MAX];
	struct symsrc_in in;
	struct symsrc_pick *pk = begin(&in, cache);

	if (!pk)
		return;
	TEST_EQ(write_elf(at("/bin/prog"), F_DYNSYM), 0);
	TEST_EQ(write_elf(at("/bin/.debug/prog"), F_SYMTAB), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, at("/bin/.debug/prog"));
	TEST_EQ(pk->syms_type, SYMSRC_OPENEMBEDDED);
	TEST_EQ(write_elf(at("/usr/lib/debug/.build-id/5e/ed0102030405060708090a0b0c0d0e0f101112."
			     "debug"),
			  F_SYMTAB),
		0);
	symsrc__pick(&in, pk);
	TEST_EQ(pk->syms_type, SYMSRC_BUILDID_DEBUG);
	TEST_EQ(write_elf(at("/usr/lib/debug/bin/prog"), F_SYMTAB), 0);
	symsrc__pick(&in, pk);
	TEST_EQ(pk->syms_type, SYMSRC_UBUNTU);
	TEST_EQ(write_elf(at("/usr/lib/debug/bin/prog.debug"), F_SYMTAB), 0);
	symsrc__pick(&in, pk);
	TEST_EQ(pk->syms_type, SYMSRC_FEDORA);
	TEST_STREQ(pk->runtime, at("/bin/prog"));
	/* a debug file without a build id is not the recorded binary's */
	TEST_EQ(write_elf(at("/usr/lib/debug/bin/prog.debug"), F_SYMTAB | F_NO_ID), 0);
	symsrc__pick(&in, pk);
	TEST_EQ(pk->syms_type, SYMSRC_UBUNTU);
	TEST_STREQ(pk->bad, at("/usr/lib/debug/bin/prog.debug"));
	TEST_TRUE(!pk->bad_has_id);
	free(pk);
	cleanup();
}

static void test_pick_static(void)
{
	char cache[PATH_MAX];
	struct symsrc_in in;
	struct symsrc_pick *pk = begin(&in, cache);

	if (!pk)
		return;
	/* no .dynsym anywhere (a static binary): no runtime file, symbols from the file */
	TEST_EQ(write_elf(at("/bin/prog"), F_SYMTAB), 0);
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, at("/bin/prog"));
	TEST_STREQ(pk->runtime, "");
	TEST_EQ(pk->runtime_type, -1);
	TEST_STREQ(pk->data, at("/bin/prog"));
	/* nothing there */
	in.path = "/bin/none";
	symsrc__pick(&in, pk);
	TEST_STREQ(pk->syms, "");
	TEST_STREQ(pk->runtime, "");
	TEST_STREQ(pk->data, "");
	free(pk);
	cleanup();
}

TEST_MAIN(TEST(paths), TEST(pick_order), TEST(pick_debug_dirs), TEST(pick_static));
