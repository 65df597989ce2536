// SPDX-License-Identifier: MIT
/*
 * Kernel symbols: kallsyms text (kernel and module tables), prism's index
 * of them (round trip, keys that do not match, damaged files), perf's
 * module names, and which source fits a file's kernel.
 */
#include <elf.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol/symbol-internal.h"
#include "test.h"

static const char kallsyms_text[] = "0000000000000000 A fixed_percpu_data\n"
				    "ffffffff81000000 T _stext\n"
				    "ffffffff81000000 T _text\n"
				    "ffffffff81000100 t helper\n"
				    "ffffffff81000200 W weak_one\n"
				    "ffffffff81000300 D some_data\n"
				    "ffffffff82000000 B __bss_stop\n"
				    "garbage line\n"
				    "ffffffff81000400 T\n"
				    "ffffffffc0001000 t vn_poll\t[virtio_net]\n"
				    "ffffffffc0001100 T vn_open\t[virtio_net]\n"
				    "ffffffffc0002000 t prog\t[bpf]\n"
				    "ffffffff81000500 t broken\t[unterminated\n";

static const uint8_t bid[20] = { 0x48, 0xdc, 0x54, 1, 2, 3 };

static int parse(struct ksyms *k)
{
	char *text = strdup(kallsyms_text);

	memset(k, 0, sizeof(*k));
	k->blob = text;
	return kallsyms__parse(text, strlen(text), k);
}

static void test_kallsyms_tables(void)
{
	struct ksyms k;
	struct symtab *m;

	TEST_EQ(parse(&k), 0);
	TEST_EQ_U64(k.text, 0xffffffff81000000ull);
	/* perf's kernel map ends past its last symbol of any kind (bss here) */
	TEST_EQ_U64(k.kernel_end, 0xffffffff82000001ull);
	TEST_STREQ(symtab__find(&k.kernel, 0xffffffff81000150)->name, "helper");
	TEST_STREQ(symtab__find(&k.kernel, 0xffffffff81000210)->name, "weak_one");
	/* a tab without a "[module]" tag keeps the line in the kernel's table */
	TEST_STREQ(symtab__find(&k.kernel, 0xffffffff81000500)->name, "broken");
	TEST_EQ(k.nr_mods, 1);
	m = ksyms__module(&k, "virtio_net", false);
	TEST_TRUE(m != NULL);
	TEST_EQ(m->nr, 2);
	TEST_STREQ(symtab__find(m, 0xffffffffc0001010)->name, "vn_poll");
	/* module symbols are not kernel symbols, BPF programs are left out */
	TEST_TRUE(ksyms__module(&k, "bpf", false) == NULL);
	ksyms__release(&k);
}

static void test_kallsyms_hidden(void)
{
	char text[] = "0000000000000000 T _text\n0000000000000000 t foo\n";
	struct ksyms k = { 0 };

	TEST_EQ(kallsyms__parse(text, strlen(text), &k), -EPERM);
	ksyms__release(&k);
}

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
	static char path[256];

	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/prism-kcache-XXXXXX");
		if (!mkdtemp(tmpdir))
			return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static void test_index_round_trip(void)
{
	const char *path = tmp_path("sub/dir/index");
	struct ksyms k, c;

	TEST_TRUE(path != NULL);
	TEST_EQ(parse(&k), 0);
	TEST_EQ(ksym_cache__save(path, bid, 20, 77, &k), 0);
	TEST_EQ(ksym_cache__load(path, bid, 20, 0xffffffff81000000ull, 77, &c), 0);
	TEST_EQ(c.kernel.nr, k.kernel.nr);
	TEST_EQ_U64(c.text, k.text);
	TEST_EQ_U64(c.kernel_end, k.kernel_end);
	for (size_t i = 0; i < k.kernel.nr; i++) {
		TEST_EQ_U64(c.kernel.syms[i].start, k.kernel.syms[i].start);
		TEST_EQ_U64(c.kernel.syms[i].end, k.kernel.syms[i].end);
		TEST_STREQ(c.kernel.syms[i].name, k.kernel.syms[i].name);
	}
	TEST_STREQ(symtab__find(ksyms__module(&c, "virtio_net", false), 0xffffffffc0001100)->name,
		   "vn_open");
	ksyms__release(&c);
	/* another kernel, another _text (KASLR), another module list: not trusted */
	{
		uint8_t other[20] = { 1 };

		TEST_EQ(ksym_cache__load(path, other, 20, 0, 77, &c), -ESTALE);
		TEST_EQ(ksym_cache__load(path, bid, 20, 0xffffffff9a000000ull, 77, &c), -ESTALE);
		TEST_EQ(ksym_cache__load(path, bid, 20, 0, 78, &c), -ESTALE);
		TEST_EQ(ksym_cache__load(path, bid, 19, 0, 77, &c), -ESTALE);
	}
	ksyms__release(&k);
}

/* every truncation and many byte flips of a valid index: refused or loaded, never read out of bounds */
static void test_index_damaged(void)
{
	const char *path = tmp_path("damaged");
	struct ksyms k, c;
	FILE *f;
	uint8_t *img;
	long len;

	TEST_TRUE(path != NULL);
	TEST_EQ(parse(&k), 0);
	TEST_EQ(ksym_cache__save(path, bid, 20, 5, &k), 0);
	ksyms__release(&k);
	f = fopen(path, "rb");
	TEST_TRUE(f != NULL);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	img = malloc((size_t)len);
	TEST_TRUE(img && fread(img, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	for (long n = 0; n < len; n++) {
		void *cut = malloc((size_t)n + 1);

		memcpy(cut, img, (size_t)n);
		TEST_TRUE(ksym_cache__parse(cut, (size_t)n, bid, 20, 0, 5, &c) != 0);
		free(cut);
	}
	for (long i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit += 3) {
			uint8_t *bad = malloc((size_t)len);
			int err;

			memcpy(bad, img, (size_t)len);
			bad[i] ^= (uint8_t)(1u << bit);
			err = ksym_cache__parse(bad, (size_t)len, bid, 20, 0, 5, &c);
			if (!err) {
				/* what loads is usable: lookups stay in the tables */
				symtab__find(&c.kernel, 0xffffffff81000100);
				ksyms__release(&c); /* frees bad */
			} else {
				free(bad);
			}
		}
	}
	/* a strings table without its final NUL, an out-of-order table */
	img[len - 1] = 'x';
	TEST_EQ(ksym_cache__parse(img, (size_t)len, bid, 20, 0, 5, &c), -EINVAL);
	img[len - 1] = 0;
	{
		uint8_t save[24];
		uint8_t *e0 = img + 72 + 4; /* one module name, then the first entry */

		memcpy(save, e0, 24);
		memcpy(e0, e0 + 24, 24);
		memcpy(e0 + 24, save, 24);
		TEST_EQ(ksym_cache__parse(img, (size_t)len, bid, 20, 0, 5, &c), -EINVAL);
	}
	free(img);
}

static void test_kmod_names(void)
{
	char n[64];

	TEST_TRUE(kmod__name("/lib/modules/6.1.0/kernel/drivers/net/virtio_net.ko", n, sizeof(n)));
	TEST_STREQ(n, "[virtio_net]");
	TEST_TRUE(kmod__name("/lib/modules/6.1/x/snd-hda-intel.ko.xz", n, sizeof(n)));
	TEST_STREQ(n, "[snd_hda_intel]");
	TEST_TRUE(kmod__name("[dxrt_driver]", n, sizeof(n)));
	TEST_STREQ(n, "[dxrt_driver]");
	TEST_TRUE(!kmod__name("[kernel.kallsyms]_text", n, sizeof(n)));
	TEST_TRUE(!kmod__name("[vdso]", n, sizeof(n)));
	TEST_TRUE(!kmod__name("/lib/modules/4.10.13-1-ARCH/build/vmlinux", n, sizeof(n)));
	TEST_TRUE(!kmod__name("/boot/vmlinux-6.1.0.debug", n, sizeof(n)));
}

static void touch(const char *path)
{
	char dir[PATH_MAX];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0755);
			*p = '/';
		}
	}
	f = fopen(path, "w");
	if (f) {
		fputs("ffffffff81000000 T _text\n", f);
		fclose(f);
	}
}

static void test_source_rules(void)
{
	const char *want = "0123456789abcdef0123456789abcdef01234567";
	const char *running = "48dc540c8b76393804ca8088dbfa7d42911a9444";
	char cache[256], symfs[256], path[PATH_MAX], f[PATH_MAX];
	struct ksrc_in in = { .want = want, .running = running };

	snprintf(cache, sizeof(cache), "%s", tmp_path("debug"));
	snprintf(symfs, sizeof(symfs), "%s", tmp_path("symfs"));
	in.buildid_dir = cache;
	/* another kernel and nothing of it anywhere: no source, not the running kernel */
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_NONE);
	/* perf's build-id cache has it */
	snprintf(f, sizeof(f), "%s/[kernel.kallsyms]/%s/kallsyms", cache, want);
	touch(f);
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_BUILDID_CACHE);
	TEST_STREQ(path, f);
	/* the running kernel is the file's */
	in.want = running;
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_RUNNING);
	/* the file records no kernel build id: perf reads the running kernel's */
	in.want = NULL;
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_RUNNING_UNCHECKED);
	/* --symfs: nothing outside it, not even the running kernel of the same build */
	in.want = running;
	in.symfs = symfs;
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_NONE);
	in.want = want;
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_NONE);
	snprintf(f, sizeof(f), "%s/[kernel.kallsyms]/%s/kallsyms", symfs, want);
	touch(f);
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_SYMFS);
	TEST_STREQ(path, f);
	/* --kallsyms wins over everything */
	in.given = "/x/kallsyms";
	TEST_EQ(ksrc__choose(&in, path, sizeof(path)), KSRC_GIVEN);
	TEST_STREQ(path, "/x/kallsyms");
}

TEST_MAIN(TEST(kallsyms_tables), TEST(kallsyms_hidden), TEST(index_round_trip), TEST(index_damaged),
	  TEST(kmod_names), TEST(source_rules));
