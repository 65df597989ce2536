/* SPDX-License-Identifier: MIT */
/* lib/annotate's objects, shared by its files */
#ifndef PRISM_ANNOTATE_INTERNAL_H
#define PRISM_ANNOTATE_INTERNAL_H

#include <prism/annotate.h>
#include <prism/strbuf.h>

#include "internal.h"

struct ann_sym {
	struct prism_annotate_sym pub;
	const void *id; /* the frame's sym_id */
	size_t alloc_hits, last;
};

struct ann_event {
	struct ann_sym *syms;
	size_t nr_syms, alloc_syms;
	uint32_t *slots; /* index + 1 of syms by id, open addressing */
	size_t nr_slots;
	struct prism_annotate_sym **sorted;
	bool sorted_ok;
	uint64_t nr_samples, period;
};

struct ann_missing {
	struct prism_dso *dso;
	uint64_t nr;
};

struct prism_annotate {
	struct prism_symbols *sy;
	struct prism_symbols *label_sy; /* names for objdump's labels, NULL: sy's */
	struct ann_event *ev;
	size_t nr_events;
	struct ann_missing *missing;
	size_t nr_missing, alloc_missing;
	struct prism_annotate_sym **group; /* prism_annotate__group_symbols()' list */
	const char *label_path; /* the file objdump would read symbols from, while listing */
	struct ann_label_file *label_files; /* labels.c: .symtab of the files read */
	size_t nr_label_files, alloc_label_files;
};

/* insn.c: one instruction at @addr as objdump -d writes it (AT&T), appended to @sb */
struct prism_disasm;
int ann_insn_text(struct prism_annotate *a, struct prism_disasm *d,
		  const struct prism_annotate_sym *s, const uint8_t *code, size_t len,
		  uint64_t addr, struct prism_strbuf *sb);

/*
 * insn.c: " <sym+0xoff>" for an address of @s's DSO, as objdump -C labels it;
 * returns the offset, -1 (nothing appended) when unresolved
 */
int64_t ann_put_label(struct prism_annotate *a, const struct prism_annotate_sym *s, uint64_t target,
		      struct prism_strbuf *sb);

/*
 * labels.c: " <sym+0xoff>" for an address of @s's DSO (@code: a branch
 * target or the symbol's start) as objdump names it, from the .symtab of
 * a->label_path; returns the offset, -1 (nothing appended) without one or
 * for a PLT entry
 */
struct ann_label_file;
int64_t ann_file_label(struct prism_annotate *a, const struct prism_annotate_sym *s, uint64_t addr,
		       bool code, struct prism_strbuf *sb);
void ann_labels_free(struct prism_annotate *a);

/* section.c: the name of the section of ELF file @fd that holds @addr (NUL-terminated in @name) */
int ann_section_name(int fd, uint64_t addr, char *name, size_t size);

#endif /* PRISM_ANNOTATE_INTERNAL_H */
