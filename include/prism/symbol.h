/* SPDX-License-Identifier: MIT */
/*
 * Symbolization: sample addresses -> DSO, function, offset, source line.
 *
 *	struct prism_symbols_opts o = { 0 };
 *	struct prism_symbols *sy = prism_symbols__new(&o);
 *	prism_symbols__set_features(sy, prism_session__features(s));
 *	... feed every MMAP/MMAP2/COMM/FORK/EXIT/KSYMBOL record, in time order:
 *	prism_symbols__event(sy, ev);
 *	... and for a sample:
 *	prism_symbols__resolve(sy, ev->sample.pid, cpumode, ip, &frame);
 *
 * The object keeps one address space per process (threads share it, fork
 * copies it, exec empties it) and one global cache of DSOs keyed by path and
 * build id: each binary is parsed once, lazily, on its first lookup.
 * Everything a frame points to (names, DSOs) is owned by the prism_symbols
 * object and stays valid until prism_symbols__free().
 */
#ifndef PRISM_SYMBOL_H
#define PRISM_SYMBOL_H

#include <prism/core.h>
#include <prism/event.h>

struct prism_symbols;
struct prism_dso;
struct prism_features;

struct prism_symbols_opts {
	const char *symfs; /* prefix for every binary path (perf report --symfs) */
	/* NULL-terminated "OLD=NEW" prefix rewrites applied to recorded paths */
	const char *const *path_map;
	bool no_demangle; /* keep mangled names */
	bool demangle_params; /* C++: print parameter lists (DMGL_PARAMS) */
	bool no_kernel; /* never read /proc/kallsyms */
	bool no_proc_root; /* do not look through /proc/PID/root */
	const char *kallsyms; /* default /proc/kallsyms */
	const char *debug_dir; /* default /usr/lib/debug */
	const char *buildid_dir; /* default $HOME/.debug (perf's build-id cache) */
	const char *jit_dir; /* where perf-PID.map files are; default /tmp */
	/* keep data mappings too (PROT_EXEC-less mmaps): for data addresses (prism trace -F) */
	bool data_maps;
	/*
	 * prism's own cache (kernel symbol index); default $XDG_CACHE_HOME/prism,
	 * else $HOME/.cache/prism; "" = none
	 */
	const char *cache_dir;
};

/* what kind of code a frame is in (flame graph colours) */
enum prism_frame_kind {
	PRISM_FRAME_USER,
	PRISM_FRAME_KERNEL,
	PRISM_FRAME_JIT,
	PRISM_FRAME_BPF,
	PRISM_FRAME_INLINED,
};

/* one resolved address; pointers are owned by the prism_symbols object */
struct prism_frame {
	uint64_t ip; /* the address as sampled */
	uint64_t dso_addr; /* the address in the DSO's own (ELF virtual) address space */
	/*
	 * the address in its mapping as perf script prints it in call chains:
	 * ip - map start + file offset for mapped files (perf's map_ip), the
	 * sampled address for the kernel, modules, JIT and BPF code
	 */
	uint64_t map_addr;
	struct prism_dso *dso; /* NULL when no map covers ip */
	const char *dso_name; /* short name: "libc.so.6", "[kernel.kallsyms]", "[unknown]" */
	const char *dso_path; /* long name as recorded: "/usr/lib/.../libc.so.6" */
	const char *sym; /* demangled symbol name, NULL when unresolved */
	const void *sym_id; /* identity of the symbol (for grouping), NULL when unresolved */
	uint64_t sym_start; /* symbol start, in the DSO's address space */
	uint64_t symoff; /* dso_addr - sym_start */
	uint64_t sym_end; /* symbol end (exclusive), in the DSO's address space */
	uint8_t sym_binding; /* STB_LOCAL, STB_GLOBAL, STB_WEAK of the ELF symbol */
	bool kernel; /* a kernel-space address (cpumode kernel / guest kernel) */
	enum prism_frame_kind kind;
};

/**
 * prism_symbols__new - create a symbolization context
 * @opts: options, may be NULL; strings are copied
 *
 * Return: the context, or NULL with errno set.
 */
PRISM_API struct prism_symbols *prism_symbols__new(const struct prism_symbols_opts *opts);
/* frees the context, every DSO it loaded and every name it handed out; accepts NULL */
PRISM_API void prism_symbols__free(struct prism_symbols *sy);

/**
 * prism_symbols__set_features - take build ids from a file's header
 * @sy: context
 * @f: the session's features (BUILD_ID: expected build id per DSO path;
 *     the kernel's entry decides whether /proc/kallsyms fits the file)
 *
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_symbols__set_features(struct prism_symbols *sy, const struct prism_features *f);

/**
 * prism_symbols__event - update the address spaces from a record
 *
 * MMAP/MMAP2 add a map, COMM with the exec bit empties the process's
 * address space, FORK of a new process copies its parent's, KSYMBOL adds or
 * removes a BPF program; other records are ignored.  HEADER_BUILD_ID records
 * (perf inject -b) record the expected build id of a path.
 *
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_symbols__event(struct prism_symbols *sy, const struct prism_event *ev);

/**
 * prism_symbols__resolve - resolve one address of process @pid
 * @sy: context
 * @pid: process id (threads share their process's maps)
 * @cpumode: PERF_RECORD_MISC_USER / _KERNEL / ... (misc & PRISM_MISC_CPUMODE_MASK)
 * @ip: the address
 * @out: filled; unresolved parts are NULL / "[unknown]"
 *
 * Loads the DSO's symbols on first use (errors there become warnings once
 * per DSO through the log callback, and the frame stays unresolved).
 *
 * Return: 0 when a symbol was found, 1 when the address stayed unresolved.
 */
PRISM_API int prism_symbols__resolve(struct prism_symbols *sy, uint32_t pid, uint8_t cpumode,
				     uint64_t ip, struct prism_frame *out);

/*
 * A sample's call chain, leaf first, as perf script prints it.  Fill with
 * prism_symbols__callchain(); reuse the same object for every sample.
 */
struct prism_callchain {
	size_t nr, alloc;
	struct prism_frame *frames;
	/*
	 * the first frames, from the sample's recorded chain (not unwound
	 * from its stack copy, not the sample address standing in for none)
	 */
	size_t nr_recorded;
};

/**
 * prism_symbols__callchain - resolve a sample's call chain
 * @sy: context
 * @ev: a SAMPLE record
 * @cc: output, leaf first; PERF_CONTEXT_* markers switch the cpumode and are
 *      dropped.  Without PERF_SAMPLE_CALLCHAIN the chain is the sample ip alone.
 * @flags: PRISM_CALLCHAIN_INLINE_UNWOUND expands the frames found by DWARF
 *      unwinding into their inlined functions (perf's default), _INLINE every
 *      frame.  An expanded frame becomes the chain of functions DWARF gives
 *      for its address, innermost first; those that are not the ELF symbol
 *      itself are frames of kind PRISM_FRAME_INLINED.
 *
 * Samples with REGS_USER + STACK_USER (perf record --call-graph dwarf) and
 * no user part in their chain get it by unwinding the stack copy (libdw),
 * as perf 6.1 does: the sampled IP first, then a caller for as long as the
 * frame below it lies in a binary with CFI.  Such a sample whose copy
 * cannot be unwound at all (no registers, IP 0, nothing copied) has no user
 * frames, and its chain may be empty (perf script prints no frame for it);
 * prism_symbols__unwind_stats() counts why unwinds stopped early.
 *
 * Return: 0 or -ENOMEM.
 */
#define PRISM_CALLCHAIN_INLINE 1u
#define PRISM_CALLCHAIN_INLINE_UNWOUND 2u
PRISM_API int prism_symbols__callchain(struct prism_symbols *sy, const struct prism_event *ev,
				       struct prism_callchain *cc, unsigned int flags);
/*
 * prism_symbols__sample_ip - make @cc the sample's own address alone, for a
 * sample without a call chain or one of which nothing could be unwound
 * Return: 0 or -ENOMEM.
 */
PRISM_API int prism_symbols__sample_ip(struct prism_symbols *sy, const struct prism_event *ev,
				       struct prism_callchain *cc);
/* frees the frames array (not the names); accepts an empty chain */
PRISM_API void prism_callchain__release(struct prism_callchain *cc);

/*
 * A frame-pointer stack's leaf.  A leaf function without a frame pointer
 * (e.g. a libc syscall wrapper of a distribution built without them) keeps
 * its return address on the stack, not in a frame record: a frame-pointer
 * walk skips its caller.  With a window of the stack at sp taken with the
 * stack, the leaf's CFI (.eh_frame) finds that return address.
 */
enum prism_leaf {
	PRISM_LEAF_FP = 0, /* nothing missing: the leaf's caller is on the stack */
	PRISM_LEAF_RECOVERED, /* frameless leaf: its callers were found in the window */
	PRISM_LEAF_LOST, /* frameless leaf: its caller is missing and the window did not give it */
	PRISM_LEAF_UNKNOWN, /* no user leaf, or no CFI for it (no mapping, binary not found) */
};

/* the registers at the leaf and the window of user stack at sp (may be NULL/0) */
struct prism_leaf_window {
	uint32_t pid, tid;
	uint64_t ip, sp, bp;
	const uint8_t *window;
	uint32_t size;
};

/**
 * prism_symbols__recover_leaf - put a frameless leaf's missing callers into a chain
 * @sy: context (the process's MMAP records already seen)
 * @cc: a frame-pointer chain from prism_symbols__callchain(), without
 *      inline expansion of user frames; frames found are inserted after its
 *      first user frame
 * @w: the leaf's registers and window; w->ip must be the first user frame
 * @leaf: if not NULL, set to the first user frame's index in @cc
 *
 * Without a window only tells whether a caller is missing (PRISM_LEAF_LOST).
 * Return: a prism_leaf value, or -ENOMEM.
 */
PRISM_API int prism_symbols__recover_leaf(struct prism_symbols *sy, struct prism_callchain *cc,
					  const struct prism_leaf_window *w, size_t *leaf);

/*
 * Why a DWARF unwind (--call-graph dwarf) stopped before the outermost
 * frame.  Each damaged sample is counted once, under the first reason found.
 */
enum prism_unwind_stop {
	PRISM_UNWIND_NO_REGS, /* a stack copy without user registers, or without IP/SP */
	PRISM_UNWIND_ZERO_REGS, /* IP or SP is 0 */
	PRISM_UNWIND_EMPTY_STACK, /* nothing was copied (dyn_size 0) */
	PRISM_UNWIND_DYN_SIZE, /* dyn_size larger than the copy: the copy is used */
	PRISM_UNWIND_NO_MAP, /* a frame at an address no MMAP record of the process covers */
	PRISM_UNWIND_NO_BINARY, /* a frame in code whose binary (or its CFI) was not found */
	PRISM_UNWIND_TRUNCATED, /* the stack copy ended (a larger dwarf,SIZE would go on) */
	PRISM_UNWIND_FAILED, /* unreadable memory or CFI that does not fit the registers */
	PRISM_UNWIND_ARCH, /* registers of an architecture prism does not unwind */
	PRISM_UNWIND__NR,
};

/* unwinds of samples that carry user registers or a stack copy */
struct prism_unwind_stats {
	uint64_t nr_unwinds;
	uint64_t nr_stopped; /* sum of stopped[] */
	uint64_t stopped[PRISM_UNWIND__NR];
};

/* the counts so far (zero without libdw); owned by @sy */
PRISM_API const struct prism_unwind_stats *
prism_symbols__unwind_stats(const struct prism_symbols *sy);
/* "the stack copy ended", ...; "?" for an unknown value */
PRISM_API const char *prism_unwind_stop__str(enum prism_unwind_stop why);

/**
 * prism_symbols__srcline - source file and line of a resolved frame (libdw)
 * @sy: context
 * @f: a frame from prism_symbols__resolve()/__callchain()
 * @file: set to the file name (owned by @sy) on success
 * @line: set to the line
 *
 * Return: 0, -ENOENT when the DSO's binary was not found, -ENODATA when it
 * was but has no line for the address (addr2line's "??:0"), or
 * -PRISM_E_NOFEATURE without libdw.
 */
PRISM_API int prism_symbols__srcline(struct prism_symbols *sy, const struct prism_frame *f,
				     const char **file, unsigned int *line);
/*
 * the compilation directory (DW_AT_comp_dir) of the unit of @f's address,
 * owned by @sy; NULL for none: binutils' addr2line (perf's) puts it before
 * a relative file name ("./string" + "../sysdeps/.../strcmp-evex.S")
 */
PRISM_API const char *prism_symbols__comp_dir(struct prism_symbols *sy,
					      const struct prism_frame *f);

/**
 * prism_demangle - demangle a C++ or Rust (legacy and v0) symbol
 * @name: a symbol name
 * @params: include parameter lists (C++)
 *
 * Return: a malloc()ed string the caller frees, or NULL when @name is not
 * mangled (or libiberty is not compiled in).
 */
PRISM_API char *prism_demangle(const char *name, bool params);

/*
 * perf script's text for frames.  Flags: PRISM_FRAME_FMT_SYMOFF appends
 * "+0x<offset>" (perf script's default 'sym' with 'symoff'), _DSO appends
 * " (<dso path>)".  Unresolved symbols print "[unknown]"; inlined frames
 * print " (inlined)" in place of the DSO, as perf script does.
 */
#define PRISM_FRAME_FMT_SYMOFF 1u
#define PRISM_FRAME_FMT_DSO 2u
struct prism_strbuf;
/* the address perf script shows in call chains: map_addr for user DSOs, else the sampled one */
PRISM_API uint64_t prism_frame__addr(const struct prism_frame *f);
/* "sym+0xoff (dso)" */
PRISM_API void prism_frame__format_sym(const struct prism_frame *f, unsigned int flags,
				       struct prism_strbuf *sb);
/* one callchain line: "\t%16lx sym+0xoff (dso)\n" */
PRISM_API void prism_frame__format_script(const struct prism_frame *f, unsigned int flags,
					  struct prism_strbuf *sb);

/* the running kernel's build id as hex, or NULL (static buffer) */
PRISM_API const char *prism_symbols__kernel_build_id(struct prism_symbols *sy);

/**
 * prism_buildid_cache__add - put a file into perf's build-id cache layout
 * @dir: the cache (~/.debug)
 * @name: "[kernel.kallsyms]", "[vdso]" or the binary's path as recorded
 * @hex: its build id
 * @src: the file to copy (/proc/kallsyms, the binary)
 * @leaf: "kallsyms", "elf" or "vdso"
 *
 * Writes @dir/@name/@hex/@leaf (kept when there already) and the link
 * @dir/.build-id/xx/yyy -> ../../@name/@hex, as perf record does.
 *
 * Return: 0 or -errno.
 */
PRISM_API int prism_buildid_cache__add(const char *dir, const char *name, const char *hex,
				       const char *src, const char *leaf);

/* a mapping of code and the file that holds it */
struct prism_code_map {
	uint64_t start, end, pgoff; /* [start, end) maps the file from offset pgoff */
	const char *path; /* the binary as found here (owned by the prism_symbols object) */
	struct prism_dso *dso;
	bool kcore; /* a segment of a kcore copy (perf: its kernel symbols count from pgoff) */
};
/*
 * prism_symbols__code_map - the mapping of process @pid at @addr and the
 * file whose bytes are there (user DSOs and the vdso, found as for symbols;
 * kernel addresses from the files prism_symbols__add_kernel_code() added)
 *
 * Return: 0, -ENOENT when no map covers @addr, -ENODATA when its file is
 * not here (@out->dso is the map's DSO then).
 */
PRISM_API int prism_symbols__code_map(struct prism_symbols *sy, uint32_t pid, uint64_t addr,
				      struct prism_code_map *out);
/*
 * prism_symbols__add_kernel_code - an ELF file with the kernel's code in its
 * PT_LOAD segments for prism_symbols__code_map(): a kcore copy (perf record
 * --kcore's kcore_dir/kcore) or a vmlinux (moved by the file's KASLR offset);
 * files added first are tried first
 *
 * Return: 0, or -errno (-ENOEXEC: not an ELF file with segments).
 */
PRISM_API int prism_symbols__add_kernel_code(struct prism_symbols *sy, const char *path);

/* DSO facts */
PRISM_API const char *prism_dso__name(const struct prism_dso *dso); /* short name */
PRISM_API const char *prism_dso__path(const struct prism_dso *dso); /* long name */
/*
 * where @dso's symbols came from as perf report -v shows it (its
 * dso__symtab_origin()): 'k' kallsyms, 'd' the binary, 'b' the build-id
 * debug file, 'l' its debuglink, 'B' perf's build-id cache, 'j' a JIT map...,
 * '!' none (or not loaded yet); NULL @dso: '!'
 */
PRISM_API char prism_symbols__origin(struct prism_symbols *sy, const struct prism_dso *dso);
/* the file symbols were read from, NULL when none was found (or not loaded yet) */
PRISM_API const char *prism_dso__symsrc(const struct prism_dso *dso);
PRISM_API size_t prism_dso__nr_symbols(const struct prism_dso *dso);
/*
 * the build id known for the DSO (the file's header or its MMAP2 record, else
 * the binary's symbols were read from) as hex into @hex, "" when none; NULL
 * when @len is too small
 */
PRISM_API const char *prism_dso__build_id(const struct prism_dso *dso, char *hex, size_t len);
/* the DSO's number in creation order (0 for the first): perf orders graph branches of equal
 * period by it, as it compares its DSO objects' addresses */
PRISM_API uint32_t prism_dso__seq(const struct prism_dso *dso);

/*
 * prism_symbols__map_size - the size of the mapping of process @pid that
 * holds frame @f's address (perf's map__size; the kernel's as recorded),
 * 0 when no map covers it
 */
PRISM_API uint64_t prism_symbols__map_size(struct prism_symbols *sy, uint32_t pid,
					   const struct prism_frame *f);

/*
 * An address's row of the DWARF line table, as objdump -l shows it: the
 * source file as binutils names it (a relative name after its unit's
 * compilation directory), line, discriminator (0 for none) and the
 * innermost function there (an inlined one's, by DWARF's linkage name or
 * name; NULL when none); strings owned by the DSO's context or @path.
 */
struct prism_src_loc {
	const char *file;
	unsigned int line, discriminator;
	const char *func;
	char path[512];
};
/*
 * prism_dso__src_loc - the line table row of @dso_addr in a user DSO whose
 * symbols were loaded
 * Return: 0, -ENOENT (no binary, not loaded, a kernel DSO), -ENODATA (no
 * line for it), -PRISM_E_NOFEATURE without libdw.
 */
PRISM_API int prism_dso__src_loc(struct prism_dso *dso, uint64_t dso_addr,
				 struct prism_src_loc *out);

#endif /* PRISM_SYMBOL_H */
