/* SPDX-License-Identifier: MIT */
/*
 * Internals of the symbolization module (lib/symbol/).  Not installed.
 */
#ifndef PRISM_SYMBOL_INTERNAL_H
#define PRISM_SYMBOL_INTERNAL_H

#include <elf.h>
#include <limits.h>

#include <prism/symbol.h>

#include "internal.h"

#define BUILD_ID_MAX 20

/* one function symbol; [start, end) in the DSO's address space */
struct sym {
	uint64_t start, end;
	const char *name; /* points into the DSO's string pool (or a malloc()ed string) */
	uint8_t binding; /* STB_* */
	bool zero_size; /* recorded with st_size 0: end was inferred */
	bool mangled; /* the name is still to be demangled (on its first lookup) */
	uint32_t seq; /* insertion order: ties between aliases follow the file's order */
};

/* a sorted, de-duplicated symbol table */
struct symtab {
	struct sym *syms;
	size_t nr, alloc;
	char **strings; /* owned name strings */
	size_t nr_strings, alloc_strings;
};

int symtab__add(struct symtab *t, uint64_t start, uint64_t size, const char *name, uint8_t binding,
		bool copy_name);
/* sort, choose one name per address (as perf does), close zero-size symbols */
void symtab__fixup(struct symtab *t);
/* symtab__fixup()'s first step: sort by address, aliases in the file's order */
void symtab__sort(struct symtab *t);
/* symtab__fixup() of a table symtab__sort() sorted */
void symtab__fixup_sorted(struct symtab *t);
const struct sym *symtab__find(const struct symtab *t, uint64_t addr);
void symtab__release(struct symtab *t);
/* @buf (malloc()ed) is freed with the table; -ENOMEM leaves it to the caller */
int symtab__keep(struct symtab *t, char *buf);
/* an owned copy of @s kept with the table; NULL on -ENOMEM */
const char *symtab__strdup(struct symtab *t, const char *s);

enum dso_kind {
	DSO_USER,
	DSO_KERNEL, /* [kernel.kallsyms] */
	DSO_MODULE, /* [name] */
	DSO_VDSO,
	DSO_JIT, /* executable memory without a file: /tmp/perf-PID.map, as perf names it */
	DSO_BPF,
};

/* an executable PT_LOAD segment: file offset -> virtual address */
struct segment {
	uint64_t offset, vaddr, filesz;
};

struct prism_dso {
	char *path; /* as recorded */
	char *name; /* short name */
	enum dso_kind kind;
	uint32_t pid; /* DSO_JIT: whose perf-PID.map */
	uint8_t build_id[BUILD_ID_MAX];
	uint8_t build_id_size; /* 0 = unknown */
	bool loaded, load_failed;
	bool bid_mismatch; /* the file found has another build id (said once) */
	int8_t elf_file; /* dso__has_elf_file(): 1 yes, -1 no, 0 not known yet */
	bool is_exec; /* ET_EXEC: addresses are absolute */
	/* mapped as data only (prism_symbols_opts.data_maps): no symbols to load */
	bool code, data_only;
	int8_t map_identity; /* perf's map_ip is the identity: 1 yes, -1 no, 0 not known yet */
	char *symsrc; /* file the symbols came from */
	char origin; /* perf's letter for where they came from (its -v), 0 for none */
	char *debugsrc; /* file with DWARF, for source lines */
	char *runtime; /* the binary itself (for PLT and segments) */
	struct segment *segs;
	size_t nr_segs;
	struct symtab syms;
	void *dwarf; /* srcline.c's state (Dwfl *), lazily created */
	bool dwarf_failed;
	struct prism_dso *next; /* hash chain */
	uint32_t seq; /* creation order */
};

/* a mapping in an address space */
struct map {
	uint64_t start, end, pgoff;
	struct prism_dso *dso;
};

/* a process's address space; shared by its threads */
struct maps {
	struct map *maps; /* sorted by start, not overlapping */
	size_t nr, alloc;
	int refs;
	size_t last; /* lookup cache */
	uint64_t gen; /* bumped by every insert and remove (unwind.c's cache key) */
	bool unwind_ready; /* a map with a readable ELF file was seen (see symbols.c) */
	/*
	 * the space before the last exec: looked up only when the new one has
	 * no map at an address (samples taken inside execve() still have the
	 * old image's user stack)
	 */
	struct maps *prev;
};

struct maps *maps__new(void);
struct maps *maps__get(struct maps *m);
void maps__put(struct maps *m);
struct maps *maps__clone(const struct maps *m);
/* insert, removing or trimming whatever overlaps */
int maps__insert(struct maps *m, uint64_t start, uint64_t len, uint64_t pgoff,
		 struct prism_dso *dso);
void maps__remove(struct maps *m, uint64_t start, uint64_t len);
struct map *maps__find(struct maps *m, uint64_t addr);

/*
 * perf's map_ip: @ip's place in the mapped file (ip - start + pgoff), in u64
 * arithmetic that wraps as perf's does for a pgoff from a hostile file
 */
static inline __wraps uint64_t map__file_off(const struct map *map, uint64_t ip)
{
	return ip - map->start + map->pgoff;
}

struct proc {
	uint32_t pid;
	bool used;
	struct maps *maps;
};

/* kernel symbols of one kallsyms text: the kernel's and each module's */
struct kmod_syms {
	char *name; /* "virtio_net", as kallsyms tags its lines */
	struct symtab syms;
};

struct ksyms {
	struct symtab kernel;
	struct kmod_syms *mods;
	size_t nr_mods, alloc_mods;
	uint64_t text; /* _text in the source, 0 when it has none */
	uint64_t kernel_end; /* past the last kernel symbol of any kind (perf's kernel map end) */
	void *blob; /* the text or index the names point into (malloc()ed) */
	void *map; /* ... or the index mapped (map_len bytes) */
	size_t map_len;
};

/* per-path expected build id (from the BUILD_ID feature / records) */
struct bid_entry {
	char *path;
	uint8_t id[BUILD_ID_MAX];
	uint8_t size;
	bool kernel;
};

/* kernel-code.c: an ELF file with the kernel's code */
struct kcode {
	char *path;
	struct segment *segs;
	size_t nr;
	uint64_t text; /* a vmlinux's _text (relocated to the file's), 0 for kcore */
	bool kcore; /* no ET_EXEC file: a kcore copy */
};

struct prism_symbols {
	struct prism_symbols_opts opts;
	char *symfs, *kallsyms_path, *debug_dir, *buildid_dir, *jit_dir;
	/* perf's build-id cache for binaries: <symfs>/.debug with --symfs, else buildid_dir */
	char *dso_cache_dir;
	char **path_map; /* pairs: old, new */
	size_t nr_path_map;

	struct prism_dso **dso_hash;
	size_t dso_hash_size, nr_dsos;

	struct proc *procs; /* open addressing by pid */
	size_t procs_cap, nr_procs;
	struct maps *kmaps; /* kernel and module maps */
	struct prism_dso *kernel; /* [kernel.kallsyms] */
	struct ksyms ksyms; /* kernel and module symbols, absolute addresses */
	bool ksyms_loaded, ksyms_usable;
	char *cache_dir; /* prism's own cache ($XDG_CACHE_HOME/prism), NULL = none */
	struct map kmap; /* the file's kernel map as recorded (kmap.dso NULL: none) */
	/* perf's names of the kernel when the build-id table has it under a path (vmlinux) */
	char *kname_long, *kname_short;
	bool kname_done;
	bool kallsyms_given; /* opts.kallsyms was set: no build-id check */
	char *kernel_note; /* why kernel symbols are not used */
	struct symtab bpf; /* KSYMBOL programs, absolute */
	struct prism_dso *bpf_dso;

	struct bid_entry *bids;
	size_t nr_bids, alloc_bids;

	char kernel_bid_hex[BUILD_ID_MAX * 2 + 1];
	bool kernel_bid_read;

	struct prism_dso unknown; /* placeholder for "[unknown]" */
	struct kcode *kcode; /* prism_symbols__add_kernel_code(), in order */
	size_t nr_kcode, cap_kcode;

	/* unwind.c: libdw sessions and file descriptors kept across samples */
	struct unw_state *unw;
	struct prism_unwind_stats unw_stats;
	bool unw_foreign_arch; /* the file's ARCH feature is not x86_64 */
	bool has_arch; /* the file names its architecture (perf then checks the DSOs) */

	/*
	 * last lookups in tables that never change once loaded (kallsyms, file
	 * DSOs): call chains repeat the same addresses, and a binary search in
	 * a large table costs a cache miss per level
	 */
	struct sym_cache_entry {
		const void *table;
		uint64_t addr;
		const struct sym *sym;
	} sym_cache[4096];
};

/* kernel-code.c: the kernel code file holding @addr (-ENOENT: none) */
int kcode__map(struct prism_symbols *sy, uint64_t addr, struct prism_code_map *out);
void kcode__free(struct prism_symbols *sy);

/* dso.c */
struct prism_dso *symbols__dso(struct prism_symbols *sy, const char *path, const uint8_t *build_id,
			       uint8_t build_id_size);
int dso__load(struct prism_symbols *sy, struct prism_dso *dso, uint32_t pid);
void dso__free(struct prism_dso *dso);
/* map an address inside @map to the DSO's address space */
uint64_t map__dso_addr(const struct map *map, uint64_t ip);
/*
 * whether an ELF file for @dso can be read here: the recorded path (after
 * --symfs and --map-path) or perf's build-id cache; for the vdso, this
 * process's own image when the file records no build id for it
 */
bool dso__has_elf_file(struct prism_symbols *sy, struct prism_dso *dso);
/* the expected build id of @path from the file, NULL when unknown */
const struct bid_entry *symbols__bid(const struct prism_symbols *sy, const char *path);
void build_id__hex(const uint8_t *id, size_t size, char *out);

/* elf.c (libelf) */
int elf__read_build_id(const char *path, uint8_t *id, uint8_t *size);
/* symbols (.symtab, else .dynsym) of @path when @syms; PLT entries when @plt */
int elf__load_syms(const char *path, struct symtab *t, bool syms, bool plt, bool *has_symtab);
/* what a candidate symbol source holds (perf's symsrc__init) */
struct elf_info {
	uint8_t id[BUILD_ID_MAX];
	uint8_t id_size; /* 0: no build-id note */
	bool symtab; /* a SHT_SYMTAB .symtab */
	bool dynsym; /* a SHT_DYNSYM .dynsym (perf's "possibly runtime") */
	bool dwarf; /* a .debug_info with contents */
};
int elf__probe(const char *path, struct elf_info *out);
int elf__load_mem_syms(const void *img, size_t len, struct symtab *t);
/* executable segments and the ELF type of @path */
int elf__segments(const char *path, struct segment **segs, size_t *nr, bool *is_exec);
/* .gnu_debuglink name (malloc()ed) or NULL */
char *elf__debuglink(const char *path);

/* symsrc.c: the files a user DSO's symbols come from (perf 6.1's dso__load order) */
enum symsrc_type {
	SYMSRC_DEBUGLINK, /* .gnu_debuglink of <symfs><path> */
	SYMSRC_CACHE, /* <cache>/.build-id/xx/rest/elf */
	SYMSRC_CACHE_DEBUG, /* <cache>/.build-id/xx/rest/debug */
	SYMSRC_FEDORA, /* <symfs><debug_dir><path>.debug */
	SYMSRC_UBUNTU, /* <symfs><debug_dir><path> */
	SYMSRC_BUILDID_DEBUG, /* <symfs><debug_dir>/.build-id/xx/rest.debug */
	SYMSRC_FILE, /* <symfs><path> (then /proc/PID/root<path>) */
	SYMSRC_OPENEMBEDDED, /* <symfs><dir>/.debug/<base> */
	SYMSRC_MIXEDUP_UBUNTU, /* <symfs><debug_dir><path without /usr> */
	SYMSRC_NR,
};
struct symsrc_in {
	const char *path; /* as recorded, after --map-path */
	const char *symfs; /* "" for none */
	const char *debug_dir; /* /usr/lib/debug */
	const char *cache_dir; /* perf's build-id cache, NULL for none */
	const uint8_t *bid; /* the expected build id (bid_size 0: any) */
	uint8_t bid_size;
	const char *bid_hex; /* the same in hex, "" for none */
	uint32_t pid; /* also look at /proc/PID/root<path> (0: no) */
};
/* the files chosen; "" and type -1 when none */
struct symsrc_pick {
	char syms[PATH_MAX]; /* the first with a .symtab (perf's syms_ss) */
	char runtime[PATH_MAX]; /* the first with a .dynsym (perf's runtime_ss) */
	char dwarf[PATH_MAX]; /* the first with DWARF (source lines) */
	char data[PATH_MAX]; /* the binary itself: the cache's copy, else the file */
	int syms_type, runtime_type, dwarf_type, data_type;
	char bad[PATH_MAX]; /* a file found with another build id */
	bool bad_has_id;
};
const char *symsrc__type_name(enum symsrc_type type);
/* @type's path for @in; -ENOENT when it has none (no build id, no debuglink) */
int symsrc__path(const struct symsrc_in *in, enum symsrc_type type, char *out, size_t len);
void symsrc__pick(const struct symsrc_in *in, struct symsrc_pick *pk);

/* kallsyms.c */
/* -EPERM when every address is hidden (kptr_restrict), else -errno of reading @path */
int kallsyms__load(const char *path, struct ksyms *k);
/* the same on a text in memory (NUL-terminated lines are cut in place: names point into it) */
int kallsyms__parse(char *text, size_t len, struct ksyms *k);
void ksyms__release(struct ksyms *k);
/* the table of module @name ("virtio_net"), added when @add; NULL when absent or -ENOMEM */
struct symtab *ksyms__module(struct ksyms *k, const char *name, bool add);
int kernel__read_build_id(uint8_t *id, uint8_t *size);
/* the _text address listed in kallsyms text at @path (first lines only) */
int kernel__read_text(const char *path, uint64_t *text);
/* a hash of @path (/proc/modules): which modules are loaded where; 0 when there is none */
uint64_t kernel__modules_key(const char *path);
/*
 * perf's kmod_path rules: whether a kernel-mode map name is a module (a
 * "[name]" other than the kernel's and the vdso's, or a path ending in .ko,
 * compressed or not), and its name as perf shows it ("[virtio_net]").
 */
bool kmod__name(const char *path, char *name, size_t len);

/* ksym-cache.c: prism's index of kernel symbols, one per build id */
int ksym_cache__parse(void *buf, size_t len, const uint8_t *bid, uint8_t bid_size, uint64_t text,
		      uint64_t key, struct ksyms *k);
int ksym_cache__load(const char *path, const uint8_t *bid, uint8_t bid_size, uint64_t text,
		     uint64_t key, struct ksyms *k);
int ksym_cache__save(const char *path, const uint8_t *bid, uint8_t bid_size, uint64_t key,
		     const struct ksyms *k);

/* ksym-source.c: where the kernel's symbols come from */
enum ksrc {
	KSRC_NONE, /* no source matches the file's kernel */
	KSRC_GIVEN, /* --kallsyms FILE, taken as it is */
	KSRC_RUNNING, /* the running kernel: its build id is the file's */
	KSRC_RUNNING_UNCHECKED, /* the file records no kernel build id (perf reads /proc/kallsyms) */
	KSRC_BUILDID_CACHE, /* perf's cache: <buildid_dir>/[kernel.kallsyms]/<id>/kallsyms */
	KSRC_SYMFS, /* <symfs>/[kernel.kallsyms]/<id>/kallsyms (an unpacked archive) */
};
struct ksrc_in {
	const char *want; /* the file's kernel build id (hex), NULL when it records none */
	const char *running; /* the running kernel's, NULL when unknown */
	const char *given, *symfs, *buildid_dir;
};
/* the source for @in; @path gets the file to read for GIVEN, BUILDID_CACHE and SYMFS */
enum ksrc ksrc__choose(const struct ksrc_in *in, char *path, size_t len);
/* loads sy->ksyms on the first kernel address (sets ksyms_usable or kernel_note) */
void ksyms__load_for(struct prism_symbols *sy);
/* the file's kernel build-id entry: the first kernel-mode one that is not a module */
const struct bid_entry *kernel_bid(const struct prism_symbols *sy);

/* jit.c */
int jit__load(const char *path, struct symtab *t);

/* demangle.c: demangle in place into the table's strings; NULL = not mangled */
char *demangle__name(const char *name, bool params);
/* whether @name has a mangled name's prefix (_Z, __Z, _R) */
bool demangle__candidate(const char *name);
/* the demangled name of a symbol marked mangled, kept in @t's strings (lookups call it) */
void symtab__demangle(struct symtab *t, struct sym *s, bool params);

/* the address space of process @pid, NULL when unknown */
struct maps *symbols__maps(struct prism_symbols *sy, uint32_t pid);

/* unwind.c (libdw): user frames of a sample with REGS_USER + STACK_USER */
typedef int (*unw_frame_cb)(void *arg, uint64_t pc);
/*
 * calls @cb per frame, leaf first, and counts in sy->unw_stats why an unwind
 * stopped early; returns the number of frames (0 when none can be trusted,
 * or the sample carries neither registers nor a stack copy), or @cb's error
 */
int unwind__user(struct prism_symbols *sy, const struct prism_event *ev, unw_frame_cb cb,
		 void *arg);
/* a frame-pointer stack's leaf: registers and the window of stack at sp */
struct unwind_window {
	uint32_t pid, tid;
	uint64_t ip, sp, bp;
	const uint8_t *window;
	uint32_t size;
};
/*
 * unwind__window - the frames the window at sp gives by the CFI, leaf first
 * (callers as pc - 1), without counting stops in unw_stats; *@last_cfa_reg
 * is the DWARF register the CFA of the last frame is based on (6: rbp, a
 * frame pointer; 7: rsp, frameless; -1: no CFI).  Returns 0 or -errno.
 */
int unwind__window(struct prism_symbols *sy, const struct unwind_window *w, uint64_t *pcs,
		   size_t max, size_t *nr, int *last_cfa_reg);
/* ends the sessions unwind__user() kept and closes its files */
void unwind__release(struct prism_symbols *sy);

/* srcline.c (libdw) */
int srcline__find(struct prism_dso *dso, uint64_t dso_addr, const char **file, unsigned int *line);
/* the same with the line's DWARF discriminator (0 for none) and its unit's DW_AT_comp_dir */
int srcline__find_disc(struct prism_dso *dso, uint64_t dso_addr, const char **file,
		       unsigned int *line, unsigned int *disc, const char **comp_dir);
/*
 * the functions at @dso_addr, innermost inlined one first, the containing
 * function last, by linkage name where DWARF has one, else by name (NULL
 * when it has neither); names are owned by the dso; 0 when unknown
 */
int srcline__inlines(struct prism_dso *dso, uint64_t dso_addr, const char **names, size_t max);
void srcline__release(struct prism_dso *dso);

#endif /* PRISM_SYMBOL_INTERNAL_H */
