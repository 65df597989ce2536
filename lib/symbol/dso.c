// SPDX-License-Identifier: MIT
/*
 * The DSO cache: one object per (path, build id), whose symbols are loaded
 * on first lookup from the file perf 6.1 would read (symsrc.c): a debug
 * file by .gnu_debuglink, perf's build-id cache, a debug directory, the
 * binary through --symfs, path rewrites or /proc/PID/root.
 */
#include <limits.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbol-internal.h"

void build_id__hex(const uint8_t *id, size_t size, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < size; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[2 * size] = '\0';
}

static uint64_t hash_str(const char *s, uint32_t pid)
{
	return prism_fnv1a(PRISM_FNV_SEED ^ pid, s);
}

/*
 * perf's name of a JIT map, "/tmp/perf-PID.map" (on_mmap() gives executable
 * anonymous memory that name): "/tmp/perf-" and a number, whatever follows
 */
static bool jit_pid(const char *path, uint32_t *pid)
{
	char *end;
	long v;

	if (strncmp(path, "/tmp/perf-", 10))
		return false;
	errno = 0;
	v = strtol(path + 10, &end, 10);
	if (end == path + 10 || errno || v < INT32_MIN || v > INT32_MAX)
		return false;
	*pid = (uint32_t)v;
	return true;
}

static char *module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name, *p;
	size_t len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	name = malloc(len + 3);
	if (!name)
		return NULL;
	snprintf(name, len + 3, "[%.*s]", (int)len, base);
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

static int dso_init_names(struct prism_dso *dso, const char *path)
{
	const char *base;
	char buf[64];
	uint32_t pid;

	dso->path = strdup(path);
	if (!dso->path)
		return -ENOMEM;
	if (!strncmp(path, "[kernel.kallsyms]", 17)) {
		dso->kind = DSO_KERNEL;
		dso->name = strdup("[kernel.kallsyms]");
	} else if (!strcmp(path, "[vdso]")) {
		dso->kind = DSO_VDSO;
		dso->name = strdup(path);
	} else if (jit_pid(path, &pid)) {
		/* perf's short name, with the process id it calls tid */
		dso->kind = DSO_JIT;
		dso->pid = pid;
		snprintf(buf, sizeof(buf), "[JIT] tid %d", (int)pid);
		dso->name = strdup(buf);
	} else if (path[0] == '/' && strstr(path, ".ko") && strstr(path, "/lib/modules/")) {
		dso->kind = DSO_MODULE;
		dso->name = module_name(path);
	} else {
		base = strrchr(path, '/');
		dso->name = strdup(base && base[1] ? base + 1 : path);
	}
	return dso->name ? 0 : -ENOMEM;
}

/*
 * Note: a DSO is shared by path and build id across processes; JIT maps are
 * per process through their path (/tmp/perf-PID.map).
 */
struct prism_dso *symbols__dso(struct prism_symbols *sy, const char *path, const uint8_t *build_id,
			       uint8_t build_id_size)
{
	uint64_t h = hash_str(path, 0);
	struct prism_dso *dso;
	size_t b;

	if (!sy->dso_hash_size) {
		sy->dso_hash = calloc(1024, sizeof(*sy->dso_hash));
		if (!sy->dso_hash)
			return NULL;
		sy->dso_hash_size = 1024;
	}
	b = h & (sy->dso_hash_size - 1);
	for (dso = sy->dso_hash[b]; dso; dso = dso->next) {
		if (strcmp(dso->path, path))
			continue;
		if (build_id_size && dso->build_id_size &&
		    (dso->build_id_size != build_id_size ||
		     memcmp(dso->build_id, build_id, build_id_size)))
			continue; /* same path, another binary (rebuilt or in a container) */
		if (build_id_size && !dso->build_id_size && !dso->loaded) {
			memcpy(dso->build_id, build_id, build_id_size);
			dso->build_id_size = build_id_size;
		}
		return dso;
	}
	dso = calloc(1, sizeof(*dso));
	if (!dso)
		return NULL;
	if (dso_init_names(dso, path)) {
		dso__free(dso);
		return NULL;
	}
	if (build_id_size) {
		memcpy(dso->build_id, build_id, build_id_size);
		dso->build_id_size = build_id_size;
	} else {
		const struct bid_entry *be = symbols__bid(sy, path);

		if (be) {
			memcpy(dso->build_id, be->id, be->size);
			dso->build_id_size = be->size;
		}
	}
	dso->next = sy->dso_hash[b];
	sy->dso_hash[b] = dso;
	dso->seq = (uint32_t)sy->nr_dsos++;
	return dso;
}

void dso__free(struct prism_dso *dso)
{
	if (!dso)
		return;
	srcline__release(dso);
	symtab__release(&dso->syms);
	free(dso->segs);
	free(dso->path);
	free(dso->name);
	free(dso->symsrc);
	free(dso->debugsrc);
	free(dso->runtime);
	free(dso);
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* the recorded path after the OLD=NEW rewrites (--map-path) */
static void map_path(const struct prism_symbols *sy, const char *path, char *out, size_t len)
{
	size_t i;

	for (i = 0; i < sy->nr_path_map; i++) {
		const char *old = sy->path_map[2 * i];
		size_t n = strlen(old);

		if (!strncmp(path, old, n)) {
			snprintf(out, len, "%s%s", sy->path_map[2 * i + 1], path + n);
			return;
		}
	}
	snprintf(out, len, "%s", path);
}

/* the recorded path after --symfs and the OLD=NEW rewrites */
static void rewrite_path(const struct prism_symbols *sy, const char *path, char *out, size_t len)
{
	char mapped[PATH_MAX];

	map_path(sy, path, mapped, sizeof(mapped));
	/* a relative name (a workload started as ./prog) under --symfs: DIR/name, as perf */
	if (snprintf(out, len, "%s%s%s", sy->symfs ? sy->symfs : "",
		     sy->symfs && mapped[0] != '/' ? "/" : "", mapped) >= (int)len)
		out[0] = '\0'; /* too long: no such file */
}

/*
 * perf 6.1 (symsrc__init) never takes symbols from a file whose build id is
 * not the recorded one, nor from one without a build id when one was
 * recorded
 */
static bool bid_matches(const struct prism_dso *dso, const char *path, bool *checked)
{
	uint8_t id[BUILD_ID_MAX];
	uint8_t size = 0;

	*checked = false;
	if (!dso->build_id_size)
		return true;
	*checked = true;
	if (elf__read_build_id(path, id, &size))
		return false;
	return size == dso->build_id_size && !memcmp(id, dso->build_id, size);
}

/* the build id of this process's vdso image (its PT_NOTE segment) */
static int vdso_build_id(const unsigned char *img, uint8_t *id, uint8_t *size)
{
	uint64_t phoff = get_u64(img + 0x20);
	uint16_t phentsize = get_u16(img + 0x36), phnum = get_u16(img + 0x3e), i;
	size_t len;

	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = img + phoff + (uint64_t)i * phentsize;

		if (get_u32(ph) != PT_NOTE)
			continue;
		if (!prism_note_build_id(img + get_u64(ph + 0x08), get_u64(ph + 0x20), id,
					 BUILD_ID_MAX, &len)) {
			*size = (uint8_t)len;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * The recorded vdso: perf's cache copy, else this process's own image when
 * the file records no build id for it (what perf does) or the same one (perf
 * would print "[unknown]" without its cache; the image is the one that ran)
 */
static int load_vdso(struct prism_symbols *sy, struct prism_dso *dso)
{
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	char path[PATH_MAX], hex[2 * BUILD_ID_MAX + 1], own[2 * BUILD_ID_MAX + 1];
	uint8_t id[BUILD_ID_MAX], size = 0;
	uint64_t shoff;
	uint16_t shnum, shentsize;
	bool checked;

	if (dso->build_id_size)
		build_id__hex(dso->build_id, dso->build_id_size, hex);
	if (dso->build_id_size && sy->dso_cache_dir) {
		snprintf(path, sizeof(path), "%s/[vdso]/%s/vdso", sy->dso_cache_dir, hex);
		if (exists(path) && bid_matches(dso, path, &checked)) {
			bool has;

			dso->symsrc = strdup(path);
			dso->origin = 'B'; /* perf's build-id cache */
			return elf__load_syms(path, &dso->syms, true, false, &has);
		}
	}
	if (!img || memcmp(img, "\177ELF", 4) || img[4] != ELFCLASS64)
		return -ENOENT;
	if (dso->build_id_size && (vdso_build_id(img, id, &size) || size != dso->build_id_size ||
				   memcmp(id, dso->build_id, size))) {
		build_id__hex(id, size, own);
		pr_warn("symbol: [vdso] of build id %s is not this kernel's (%s): its symbols are "
			"not resolved (perf's build-id cache of the recording machine has it, "
			"~/.debug/[vdso]/%s/vdso)\n",
			hex, size ? own : "none", hex);
		return -ENOENT;
	}
	/* the image ends with its section headers (Elf64 layout) */
	shoff = get_u64(img + 0x28);
	shentsize = get_u16(img + 0x3a);
	shnum = get_u16(img + 0x3c);
	dso->symsrc = strdup("[vdso] of this process");
	return elf__load_mem_syms(img, shoff + (uint64_t)shnum * shentsize, &dso->syms);
}

static void warn_mismatch(struct prism_dso *dso, const struct symsrc_in *in,
			  const struct symsrc_pick *pk)
{
	pr_warn("symbol: build id mismatch for '%s': perf.data expects %s, '%s' %s; "
		"its symbols are not used (install the binary that ran, or point "
		"--symfs/--map-path at it)\n",
		dso->path, in->bid_hex, pk->bad, pk->bad_has_id ? "differs" : "has no build id");
	dso->bid_mismatch = true;
}

/*
 * The files perf 6.1 would read (symsrc.c): symbols from the first with a
 * .symtab, PLT entries from the first with a .dynsym; code and CFI from
 * the binary itself
 */
static int load_user(struct prism_symbols *sy, struct prism_dso *dso, uint32_t pid)
{
	char mapped[PATH_MAX], file[PATH_MAX], hex[2 * BUILD_ID_MAX + 1];
	struct symsrc_in in = { .symfs = sy->symfs ? sy->symfs : "" };
	bool has_symtab = false, is_exec = false;
	uint8_t id[BUILD_ID_MAX];
	const char *syms, *rt, *code;
	struct symsrc_pick *pk;
	int err;

	map_path(sy, dso->path, mapped, sizeof(mapped));
	memcpy(id, dso->build_id, dso->build_id_size);
	in.bid_size = dso->build_id_size;
	/* none recorded: perf reads the file's (when the path, without --symfs, is a file) */
	snprintf(file, sizeof(file), "%s%s", in.symfs, mapped);
	if (!in.bid_size && exists(mapped) && elf__read_build_id(file, id, &in.bid_size))
		in.bid_size = 0;
	build_id__hex(id, in.bid_size, hex);
	in.path = mapped;
	in.debug_dir = sy->debug_dir;
	in.cache_dir = sy->dso_cache_dir;
	in.bid = id;
	in.bid_hex = hex;
	if (!sy->opts.no_proc_root && !sy->symfs && pid && pid != (uint32_t)-1)
		in.pid = pid;
	pk = malloc(sizeof(*pk));
	if (!pk)
		return -ENOMEM;
	symsrc__pick(&in, pk);
	syms = pk->syms[0] ? pk->syms : pk->runtime;
	rt = pk->runtime[0] ? pk->runtime : pk->syms;
	code = pk->data[0] ? pk->data : rt;
	if (!syms[0]) {
		if (pk->bad[0] && dso->build_id_size)
			warn_mismatch(dso, &in, pk);
		free(pk);
		return -ENOENT;
	}
	pr_debug("symbol: %s: symbols from %s (%s), PLT from %s, code from %s\n", dso->name, syms,
		 symsrc__type_name(pk->syms[0] ? pk->syms_type : pk->runtime_type), rt, code);
	dso->symsrc = strdup(syms);
	/* perf's dso__symtab_origin() letters, by symsrc_type */
	dso->origin = "lBDfubdox"[pk->syms[0] ? pk->syms_type : pk->runtime_type];
	dso->runtime = code[0] ? strdup(code) : NULL;
	dso->debugsrc = pk->dwarf[0] ? strdup(pk->dwarf) : NULL;
	if (!dso->symsrc || (code[0] && !dso->runtime) || (pk->dwarf[0] && !dso->debugsrc))
		err = -ENOMEM;
	else
		err = elf__load_syms(syms, &dso->syms, true, !strcmp(syms, rt), &has_symtab);
	if (!err && strcmp(syms, rt))
		err = elf__load_syms(rt, &dso->syms, false, true, &has_symtab);
	/* addresses map through the binary's segments (a debug file keeps its headers) */
	if (!err &&
	    elf__segments(code[0] ? code : syms, &dso->segs, &dso->nr_segs, &is_exec) == -ENOMEM)
		err = -ENOMEM;
	dso->is_exec = is_exec;
	free(pk);
	return err;
}

/*
 * Names are demangled on their first lookup (symbols.c): most symbols of a
 * large C++ library never are.  Aliases of one address are demangled now,
 * since perf chooses among them by their demangled names.
 */
static void mark_mangled(struct prism_dso *dso, bool params)
{
	struct symtab *t = &dso->syms;
	size_t g, i, k;

	symtab__sort(t);
	for (g = 0; g < t->nr; g = i) {
		for (i = g + 1; i < t->nr && t->syms[i].start == t->syms[g].start; i++)
			;
		for (k = g; k < i; k++) {
			if (!demangle__candidate(t->syms[k].name))
				continue;
			t->syms[k].mangled = true;
			if (i - g > 1)
				symtab__demangle(t, &t->syms[k], params);
		}
	}
	symtab__fixup_sorted(t);
}

/*
 * Load the symbols of @dso once.  A failure is logged once (at debug level
 * for DSOs that never have files, such as [heap]) and leaves the DSO
 * without symbols; lookups then show addresses, as perf does.
 */
int dso__load(struct prism_symbols *sy, struct prism_dso *dso, uint32_t pid)
{
	char path[PATH_MAX];
	int err;

	if (dso->loaded)
		return dso->load_failed ? -ENOENT : 0;
	dso->loaded = true;
	switch (dso->kind) {
	case DSO_VDSO:
		err = load_vdso(sy, dso);
		break;
	case DSO_JIT:
		/* perf reads the file the name says; prism from its JIT directory */
		snprintf(path, sizeof(path), "%s/%s", sy->jit_dir, strrchr(dso->path, '/') + 1);
		err = jit__load(path, &dso->syms);
		if (!err) {
			dso->symsrc = strdup(path);
			dso->origin = 'j';
		}
		break;
	case DSO_USER:
		if (dso->path[0] == '[') {
			err = -ENOENT; /* [heap], [stack], [vsyscall] */
			break;
		}
		err = load_user(sy, dso, pid);
		if (err && err != -ENOMEM && !dso->bid_mismatch)
			pr_warn("symbol: no symbols for '%s': %s%s\n", dso->path,
				err == -ENOENT ? "file not found" : strerror(-err),
				err == -ENOENT ?
					" (use --symfs or --map-path OLD=NEW to point at it)" :
					"");
		break;
	default:
		err = 0;
		break;
	}
	if (err) {
		dso->load_failed = true;
		symtab__release(&dso->syms);
		return err;
	}
	if (!sy->opts.no_demangle)
		mark_mangled(dso, sy->opts.demangle_params);
	else
		symtab__fixup(&dso->syms);
	pr_debug("symbol: %s: %zu symbols from %s\n", dso->name, dso->syms.nr,
		 dso->symsrc ? dso->symsrc : "(none)");
	return 0;
}

uint64_t map__dso_addr(const struct map *map, uint64_t ip)
{
	const struct prism_dso *dso = map->dso;
	uint64_t off = map__file_off(map, ip);
	size_t i;

	switch (dso->kind) {
	case DSO_KERNEL:
	case DSO_MODULE:
	case DSO_JIT:
	case DSO_BPF:
		return ip;
	default:
		break;
	}
	for (i = 0; i < dso->nr_segs; i++) {
		const struct segment *s = &dso->segs[i];

		if (span_ok(off, 1, s->offset, s->filesz))
			return off - s->offset + s->vaddr;
	}
	return dso->is_exec ? ip : off;
}

static bool is_elf(const char *path)
{
	unsigned char magic[4];
	FILE *f = fopen(path, "re");
	bool elf;

	if (!f)
		return false;
	elf = fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\177ELF", 4);
	fclose(f);
	return elf;
}

bool dso__has_elf_file(struct prism_symbols *sy, struct prism_dso *dso)
{
	char path[PATH_MAX], hex[2 * BUILD_ID_MAX + 1];

	if (dso->elf_file)
		return dso->elf_file > 0;
	dso->elf_file = -1;
	if (dso->build_id_size)
		build_id__hex(dso->build_id, dso->build_id_size, hex);
	if (dso->kind == DSO_VDSO) {
		if (!dso->build_id_size) {
			dso->elf_file = 1;
		} else if (sy->dso_cache_dir) {
			snprintf(path, sizeof(path), "%s/[vdso]/%s/vdso", sy->dso_cache_dir, hex);
			dso->elf_file = is_elf(path) ? 1 : -1;
		}
	} else if (dso->kind == DSO_USER && dso->path[0] != '[') {
		/* (a relative name is read from the current directory, as perf reads it) */
		rewrite_path(sy, dso->path, path, sizeof(path));
		if (is_elf(path)) {
			dso->elf_file = 1;
		} else if (dso->build_id_size && sy->dso_cache_dir) {
			snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", sy->dso_cache_dir, hex,
				 hex + 2);
			dso->elf_file = is_elf(path) ? 1 : -1;
		}
	}
	return dso->elf_file > 0;
}

const struct bid_entry *symbols__bid(const struct prism_symbols *sy, const char *path)
{
	size_t i;

	for (i = 0; i < sy->nr_bids; i++)
		if (!strcmp(sy->bids[i].path, path))
			return &sy->bids[i];
	return NULL;
}

const char *prism_dso__name(const struct prism_dso *dso)
{
	return dso->name;
}

const char *prism_dso__path(const struct prism_dso *dso)
{
	return dso->path;
}

const char *prism_dso__symsrc(const struct prism_dso *dso)
{
	return dso->symsrc;
}

uint32_t prism_dso__seq(const struct prism_dso *dso)
{
	return dso->seq;
}

size_t prism_dso__nr_symbols(const struct prism_dso *dso)
{
	return dso->syms.nr;
}

const char *prism_dso__build_id(const struct prism_dso *dso, char *hex, size_t len)
{
	uint8_t id[BUILD_ID_MAX], size = dso->build_id_size;

	memcpy(id, dso->build_id, size);
	/* none recorded: the one of the file symbols were read from, as perf reads it */
	if (!size && dso->symsrc && elf__read_build_id(dso->symsrc, id, &size))
		size = 0;
	if (len < 2 * (size_t)size + 1)
		return NULL;
	build_id__hex(id, size, hex);
	return hex;
}
