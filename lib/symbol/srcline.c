// SPDX-License-Identifier: MIT
/*
 * Source lines and inlined frames through libdw, from the DSO's debug file
 * (by build id or debuglink) or the binary itself.  Addresses are in the
 * DSO's ELF address space, which is the DWARF address space.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include "symbol-internal.h"

#define INL_CACHE 1024 /* entries, a power of 2 */
#define INL_NAMES 4 /* deeper chains are looked up every time */

/*
 * the last inline chains looked up, by address: call chains repeat the
 * same return addresses, and dwarf_getscopes() walks a CU's DIEs each time
 */
struct inl_entry {
	uint64_t addr;
	int n; /* -1: empty slot */
	const char *names[INL_NAMES]; /* owned by the Dwarf */
};

struct dwarf_state {
	int fd;
	Dwarf *dw;
	struct inl_entry *inl; /* INL_CACHE entries, NULL until the first lookup */
	Dwarf_Die last_sub; /* the function of the last innermost lookup */
	bool has_last_sub;
};

static Dwarf *get_dwarf(struct prism_dso *dso)
{
	struct dwarf_state *st = dso->dwarf;
	const char *path = dso->debugsrc ? dso->debugsrc : dso->symsrc;

	if (st)
		return st->dw;
	if (dso->dwarf_failed || !path)
		return NULL;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	st->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (st->fd >= 0)
		st->dw = dwarf_begin(st->fd, DWARF_C_READ);
	if (!st->dw) {
		pr_debug("symbol: no DWARF in '%s' for %s\n", path, dso->name);
		if (st->fd >= 0)
			close(st->fd);
		free(st);
		dso->dwarf_failed = true;
		return NULL;
	}
	dso->dwarf = st;
	return st->dw;
}

/*
 * binutils' addr2line (perf's) names the lines of a DWARF 5 sequence that
 * keep the file register's default (1, no DW_LNS_set_file yet) by file 0,
 * the unit's own: glibc's __libc_start_call_main, in libc_start_call_main.h,
 * is at libc-start.c.  A line in file 1 with only file 1 before it in its
 * sequence is taken for one.
 */
static bool default_file(Dwarf_Die *cu, Dwarf_Line *l, uint64_t addr, Dwarf_Files **files)
{
	Dwarf_Lines *lines;
	Dwarf_Addr a;
	Dwarf_Half version;
	size_t n, lo = 0, hi, idx;
	bool end;

	if (dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) || version < 5 ||
	    dwarf_line_file(l, files, &idx) || idx != 1 || dwarf_getsrclines(cu, &lines, &n))
		return false;
	for (hi = n; lo < hi;) { /* the first line past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a) || a <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo > 0; lo--) {
		Dwarf_Line *o = dwarf_onesrcline(lines, lo - 1);
		Dwarf_Files *f;

		if (o != l && !dwarf_lineendsequence(o, &end) && end)
			break; /* the sequence before */
		if (dwarf_line_file(o, &f, &idx) || idx != 1)
			return false;
	}
	return true;
}

static const char *line_file(Dwarf_Die *cu, Dwarf_Line *l, uint64_t addr)
{
	Dwarf_Files *files;

	if (default_file(cu, l, addr, &files))
		return dwarf_filesrc(files, 0, NULL, NULL);
	return dwarf_linesrc(l, NULL, NULL);
}

int srcline__find(struct prism_dso *dso, uint64_t dso_addr, const char **file, unsigned int *line)
{
	unsigned int disc;

	return srcline__find_disc(dso, dso_addr, file, line, &disc, NULL);
}

int srcline__find_disc(struct prism_dso *dso, uint64_t dso_addr, const char **file,
		       unsigned int *line, unsigned int *disc, const char **comp_dir)
{
	Dwarf *dw = get_dwarf(dso);
	Dwarf_Die cu;
	Dwarf_Line *l;
	int lineno;

	/* perf 6.1 asks addr2line whenever it has the binary: "??:0" without a line */
	if (!dw)
		return dso->symsrc ? -ENODATA : -ENOENT;
	if (!dwarf_addrdie(dw, dso_addr, &cu))
		return -ENODATA;
	l = dwarf_getsrc_die(&cu, dso_addr);
	if (!l)
		return -ENODATA;
	*file = line_file(&cu, l, dso_addr);
	if (!*file || dwarf_lineno(l, &lineno))
		return -ENOENT;
	*line = (unsigned int)lineno;
	if (dwarf_linediscriminator(l, disc))
		*disc = 0;
	if (comp_dir) {
		Dwarf_Attribute a;

		*comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
	}
	return 0;
}

/*
 * a function DIE's name as binutils' addr2line (which perf asks) gives it:
 * its linkage name where it has one (glibc's __libc_write is
 * __GI___libc_write, as its ELF symbol), else its name; through its
 * abstract origin or specification when it has neither itself
 */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));

	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
	return name ? name : dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

/*
 * Note: dwarf_getscopes() continues past the innermost inlined instance in
 * its abstract origin's scopes, not where it was inlined: the chain of
 * inlined callers comes from the concrete instance's parents
 * (dwarf_getscopes_die()), as eu-addr2line -i does.
 */
/* the DIEs dwarf_getscopes() descends into (libdw's may_have_scopes()) */
static bool may_have_scopes(int tag)
{
	switch (tag) {
	case DW_TAG_module:
	case DW_TAG_lexical_block:
	case DW_TAG_with_stmt:
	case DW_TAG_catch_block:
	case DW_TAG_try_block:
	case DW_TAG_entry_point:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram:
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
		return true;
	default:
		return false;
	}
}

/*
 * the innermost function (inlined or not) at @addr under @die, which covers
 * it, as dwarf_getscopes() finds it from the unit: into the children that
 * cover @addr, deepest first; @die itself when none does
 */
static void innermost_under(Dwarf_Die *die, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die cur = *die, child;
	int depth;

	*out = *die;
	for (depth = 0; depth < 64 && dwarf_child(&cur, &child) == 0; depth++) {
		bool found = false;

		do {
			int tag = dwarf_tag(&child);

			if (may_have_scopes(tag) && dwarf_haspc(&child, addr) > 0) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		cur = child;
		if (dwarf_tag(&cur) == DW_TAG_inlined_subroutine ||
		    dwarf_tag(&cur) == DW_TAG_subprogram)
			*out = cur;
	}
}

/*
 * the innermost function at @dso_addr, as lookup_inlines() gives it first;
 * the unit's walk (dwarf_getscopes) only when the address leaves the last
 * function: a listing asks for each instruction of one function in turn
 */
static int lookup_innermost(struct dwarf_state *st, uint64_t dso_addr, const char **name)
{
	Dwarf_Die cu, *scopes = NULL, die;
	int n, i, first = -1;

	if (st->has_last_sub && dwarf_haspc(&st->last_sub, dso_addr) > 0) {
		innermost_under(&st->last_sub, dso_addr, &die);
		*name = die_name(&die);
		return 1;
	}
	if (!dwarf_addrdie(st->dw, dso_addr, &cu))
		return 0;
	n = dwarf_getscopes(&cu, dso_addr, &scopes);
	for (i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		if (first < 0)
			first = i;
		if (tag == DW_TAG_subprogram) {
			st->last_sub = scopes[i]; /* the outermost one covering it */
			st->has_last_sub = true;
		}
	}
	if (first >= 0)
		*name = die_name(&scopes[first]);
	free(scopes);
	return first >= 0;
}

static int lookup_inlines(Dwarf *dw, uint64_t dso_addr, const char **names, size_t max)
{
	Dwarf_Die cu, *scopes = NULL, *chain = NULL;
	int n, i, first = -1;
	size_t out = 0;

	if (!dwarf_addrdie(dw, dso_addr, &cu))
		return 0;
	n = dwarf_getscopes(&cu, dso_addr, &scopes);
	for (i = 0; i < n && first < 0; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
			first = i;
	}
	if (first < 0) {
		free(scopes);
		return 0;
	}
	n = dwarf_getscopes_die(&scopes[first], &chain);
	for (i = 0; i < n && out < max; i++) {
		int tag = dwarf_tag(&chain[i]);

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		/* NULL for a function without a name: the frame's own symbol */
		names[out++] = die_name(&chain[i]);
		if (tag == DW_TAG_subprogram)
			break; /* the containing function ends the chain */
	}
	/* inlined code whose containing function's DIE does not cover it: the frame ends it */
	if (out && out < max && (i >= n || dwarf_tag(&chain[i]) != DW_TAG_subprogram))
		names[out++] = NULL;
	free(chain);
	free(scopes);
	return (int)out;
}

int srcline__inlines(struct prism_dso *dso, uint64_t dso_addr, const char **names, size_t max)
{
	Dwarf *dw = get_dwarf(dso);
	struct dwarf_state *st = dso->dwarf;
	struct inl_entry *e;
	int n, i;

	if (!dw)
		return 0;
	if (max == 1)
		return lookup_innermost(st, dso_addr, names); /* not cached: its own fast path */
	if (!st->inl) {
		st->inl = prism_reallocarray(NULL, INL_CACHE, sizeof(*st->inl));
		if (!st->inl)
			return lookup_inlines(dw, dso_addr, names, max);
		for (i = 0; i < INL_CACHE; i++)
			st->inl[i].n = -1;
	}
	e = &st->inl[(dso_addr ^ (dso_addr >> 10)) & (INL_CACHE - 1)];
	if (e->n >= 0 && e->addr == dso_addr && (size_t)e->n <= max) {
		memcpy(names, e->names, (size_t)e->n * sizeof(*names));
		return e->n;
	}
	n = lookup_inlines(dw, dso_addr, names, max);
	if (n <= INL_NAMES) {
		e->addr = dso_addr;
		e->n = n;
		memcpy(e->names, names, (size_t)n * sizeof(*names));
	}
	return n;
}

void srcline__release(struct prism_dso *dso)
{
	struct dwarf_state *st = dso->dwarf;

	if (!st)
		return;
	dwarf_end(st->dw);
	close(st->fd);
	free(st->inl);
	free(st);
	dso->dwarf = NULL;
}
