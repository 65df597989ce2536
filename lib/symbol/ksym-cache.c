// SPDX-License-Identifier: MIT
/*
 * prism's kernel symbol index: the kernel and module tables of one kallsyms
 * text, already sorted and sized, in one file per kernel build id under
 * $XDG_CACHE_HOME/prism/kallsyms/ (default ~/.cache/prism/kallsyms/).
 * Loading it costs a read and a pass over the entries, where kallsyms text
 * costs the kernel's formatting of ~100k lines, their parsing and a sort.
 *
 * Layout (little endian; the file is untrusted input: every count, offset
 * and order is checked before use):
 *
 *	0  char magic[8] "PRSMKSY1"	8  u32 version (1)	12 u32 nr_mods
 *	16 u8 build_id_size, 3 pad	20 u8 build_id[20]
 *	40 u64 text (the source's _text)	48 u64 key (what the source was)
 *	56 u64 kernel_end		64 u32 nr_syms		68 u32 strtab_size
 *	72 u32 mod_name[nr_mods]	(strtab offsets)
 *	   then nr_syms entries of 24 bytes: u64 start, u64 end, u32 name,
 *	   u16 table (0 the kernel, i + 1 module i), u8 binding, u8 zero_size;
 *	   grouped by table in increasing order, sorted by start within one
 *	   then the string table, NUL-terminated strings, its last byte NUL
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol-internal.h"

#define KC_MAGIC "PRSMKSY1"
#define KC_VERSION 1
#define KC_HDR 72
#define KC_ENT 24
#define KC_MAX (256u << 20)

static void put_u16(void *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put_u32(void *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put_u64(void *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static int write_full(int fd, const void *buf, size_t len)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = write(fd, (const char *)buf + n, len - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -EIO;
		n += (size_t)r;
	}
	return 0;
}

static const char *kc_str(const uint8_t *strtab, uint32_t size, uint32_t off)
{
	return off < size ? (const char *)strtab + off : NULL;
}

/* the table entry @i belongs to, checked: NULL when out of range */
static struct symtab *kc_table(struct ksyms *k, uint16_t table)
{
	if (table > k->nr_mods)
		return NULL;
	return table ? &k->mods[table - 1].syms : &k->kernel;
}

static int kc_parse(const uint8_t *p, size_t len, const uint8_t *bid, uint8_t bid_size,
		    uint64_t text, uint64_t key, struct ksyms *k)
{
	uint32_t nr_mods, nr_syms, strsz, i;
	const uint8_t *mods, *ents, *strtab;
	uint64_t need;

	if (len < KC_HDR || memcmp(p, KC_MAGIC, 8) || get_u32(p + 8) != KC_VERSION)
		return -EINVAL;
	nr_mods = get_u32(p + 12);
	nr_syms = get_u32(p + 64);
	strsz = get_u32(p + 68);
	need = KC_HDR + 4ull * nr_mods + (uint64_t)KC_ENT * nr_syms + strsz;
	if (need != len || !strsz || p[16] > BUILD_ID_MAX || nr_mods > 65534)
		return -EINVAL;
	mods = p + KC_HDR;
	ents = mods + 4ull * nr_mods;
	strtab = ents + (uint64_t)KC_ENT * nr_syms;
	if (strtab[strsz - 1])
		return -EINVAL;
	/* the key: which kernel, at which address, from which source */
	if (p[16] != bid_size || memcmp(p + 20, bid, bid_size) || get_u64(p + 48) != key ||
	    (text && get_u64(p + 40) != text))
		return -ESTALE;
	k->text = get_u64(p + 40);
	k->kernel_end = get_u64(p + 56);
	for (i = 0; i < nr_mods; i++) {
		const char *name = kc_str(strtab, strsz, get_u32(mods + 4ull * i));

		if (!name || !*name || ksyms__module(k, name, false))
			return -EINVAL; /* a module twice */
		if (!ksyms__module(k, name, true))
			return -ENOMEM;
	}
	/* first pass: check every entry and count each table's */
	for (i = 0; i < nr_syms; i++) {
		const uint8_t *e = ents + (uint64_t)KC_ENT * i;
		uint16_t table = get_u16(e + 20);
		struct symtab *t = kc_table(k, table);

		if (!t || !kc_str(strtab, strsz, get_u32(e + 16)) || get_u64(e) > get_u64(e + 8))
			return -EINVAL;
		if (i) {
			const uint8_t *prev = e - KC_ENT;
			uint16_t pt = get_u16(prev + 20);

			if (pt > table || (pt == table && get_u64(prev) > get_u64(e)))
				return -EINVAL; /* out of order: lookups would miss */
		}
		t->alloc++;
	}
	for (i = 0; i <= nr_mods; i++) {
		struct symtab *t = kc_table(k, (uint16_t)i);

		if (t->alloc && !(t->syms = prism_reallocarray(NULL, t->alloc, sizeof(*t->syms))))
			return -ENOMEM;
	}
	for (i = 0; i < nr_syms; i++) {
		const uint8_t *e = ents + (uint64_t)KC_ENT * i;
		struct symtab *t = kc_table(k, get_u16(e + 20));
		struct sym *s = &t->syms[t->nr];

		s->start = get_u64(e);
		s->end = get_u64(e + 8);
		s->name = (const char *)strtab + get_u32(e + 16);
		s->binding = e[22];
		s->zero_size = e[23] != 0;
		s->mangled = false;
		s->seq = (uint32_t)t->nr++;
	}
	return 0;
}

int ksym_cache__parse(void *buf, size_t len, const uint8_t *bid, uint8_t bid_size, uint64_t text,
		      uint64_t key, struct ksyms *k)
{
	int err;

	memset(k, 0, sizeof(*k));
	err = kc_parse(buf, len, bid, bid_size, text, key, k);
	if (err) {
		ksyms__release(k);
		return err;
	}
	k->blob = buf;
	return 0;
}

int ksym_cache__load(const char *path, const uint8_t *bid, uint8_t bid_size, uint64_t text,
		     uint64_t key, struct ksyms *k)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	struct stat st;
	void *map;

	memset(k, 0, sizeof(*k));
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < KC_HDR ||
	    (uint64_t)st.st_size > KC_MAX) {
		close(fd);
		return -EINVAL;
	}
	/*
	 * mapped, not read: the names point into the page cache.  The file is
	 * replaced by rename(), never rewritten in place, so the mapping
	 * stays what was checked (a file cut under it would SIGBUS: the index
	 * is the user's own, written only so)
	 */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	err = kc_parse(map, (size_t)st.st_size, bid, bid_size, text, key, k);
	if (err) {
		ksyms__release(k);
		munmap(map, (size_t)st.st_size);
		return err;
	}
	k->map = map;
	k->map_len = (size_t)st.st_size;
	return 0;
}

static void put_sym(uint8_t *e, const struct sym *s, uint32_t name, uint16_t table)
{
	put_u64(e, s->start);
	put_u64(e + 8, s->end);
	put_u32(e + 16, name);
	put_u16(e + 20, table);
	e[22] = s->binding;
	e[23] = s->zero_size;
}

/* the index of @k as one buffer (malloc()ed), NULL on -ENOMEM or a table too large */
static uint8_t *kc_build(const struct ksyms *k, const uint8_t *bid, uint8_t bid_size, uint64_t key,
			 size_t *len)
{
	uint64_t nr = k->kernel.nr, strsz = 1, size;
	uint8_t *buf, *ents, *str;
	uint32_t so = 1;
	size_t i, j;

	for (i = 0; i < k->kernel.nr; i++)
		strsz += strlen(k->kernel.syms[i].name) + 1;
	for (i = 0; i < k->nr_mods; i++) {
		strsz += strlen(k->mods[i].name) + 1;
		nr += k->mods[i].syms.nr;
		for (j = 0; j < k->mods[i].syms.nr; j++)
			strsz += strlen(k->mods[i].syms.syms[j].name) + 1;
	}
	size = KC_HDR + 4ull * k->nr_mods + KC_ENT * nr + strsz;
	if (size > KC_MAX || k->nr_mods > 65534 || bid_size > BUILD_ID_MAX)
		return NULL;
	buf = calloc(1, (size_t)size);
	if (!buf)
		return NULL;
	memcpy(buf, KC_MAGIC, 8);
	put_u32(buf + 8, KC_VERSION);
	put_u32(buf + 12, (uint32_t)k->nr_mods);
	buf[16] = bid_size;
	memcpy(buf + 20, bid, bid_size);
	put_u64(buf + 40, k->text);
	put_u64(buf + 48, key);
	put_u64(buf + 56, k->kernel_end);
	put_u32(buf + 64, (uint32_t)nr);
	put_u32(buf + 68, (uint32_t)strsz);
	ents = buf + KC_HDR + 4ull * k->nr_mods;
	str = ents + KC_ENT * nr;
#define KC_ADD(s)                          \
	({                                 \
		size_t l_ = strlen(s) + 1; \
		memcpy(str + so, (s), l_); \
		so += (uint32_t)l_;        \
		so - (uint32_t)l_;         \
	})
	for (i = 0; i < k->kernel.nr; i++, ents += KC_ENT)
		put_sym(ents, &k->kernel.syms[i], KC_ADD(k->kernel.syms[i].name), 0);
	for (i = 0; i < k->nr_mods; i++) {
		put_u32(buf + KC_HDR + 4 * i, KC_ADD(k->mods[i].name));
		for (j = 0; j < k->mods[i].syms.nr; j++, ents += KC_ENT)
			put_sym(ents, &k->mods[i].syms.syms[j],
				KC_ADD(k->mods[i].syms.syms[j].name), (uint16_t)(i + 1));
	}
#undef KC_ADD
	*len = (size_t)size;
	return buf;
}

/* mkdir -p of @path's directory */
static int make_dirs(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int ksym_cache__save(const char *path, const uint8_t *bid, uint8_t bid_size, uint64_t key,
		     const struct ksyms *k)
{
	char tmp[PATH_MAX];
	size_t len;
	uint8_t *buf = kc_build(k, bid, bid_size, key, &len);
	int fd, err;

	if (!buf)
		return -ENOMEM;
	err = make_dirs(path);
	if (!err &&
	    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp))
		err = -ENAMETOOLONG;
	if (err) {
		free(buf);
		return err;
	}
	/* a new file renamed over the old: readers see the old or the new one, whole */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		free(buf);
		return err;
	}
	err = write_full(fd, buf, len);
	free(buf);
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
