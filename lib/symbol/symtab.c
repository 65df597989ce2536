// SPDX-License-Identifier: MIT
/*
 * Symbol tables: a sorted array of function symbols with one name per
 * address, looked up by binary search.
 */
#include <elf.h>

#include "symbol-internal.h"

const char *symtab__strdup(struct symtab *t, const char *s)
{
	char *copy;

	if (prism_ensure_mem((void **)&t->strings, &t->alloc_strings, sizeof(*t->strings),
			     t->nr_strings + 1))
		return NULL;
	copy = strdup(s);
	if (!copy)
		return NULL;
	t->strings[t->nr_strings++] = copy;
	return copy;
}

int symtab__keep(struct symtab *t, char *buf)
{
	if (prism_ensure_mem((void **)&t->strings, &t->alloc_strings, sizeof(*t->strings),
			     t->nr_strings + 1))
		return -ENOMEM;
	t->strings[t->nr_strings++] = buf;
	return 0;
}

int symtab__add(struct symtab *t, uint64_t start, uint64_t size, const char *name, uint8_t binding,
		bool copy_name)
{
	struct sym *s;

	if (prism_ensure_mem((void **)&t->syms, &t->alloc, sizeof(*t->syms), t->nr + 1))
		return -ENOMEM;
	if (copy_name) {
		name = symtab__strdup(t, name);
		if (!name)
			return -ENOMEM;
	}
	s = &t->syms[t->nr++];
	s->start = start;
	/* an ELF symbol that would run past the top of the address space ends there */
	s->end = size > UINT64_MAX - start ? UINT64_MAX : start + size;
	s->name = name;
	s->binding = binding;
	s->zero_size = size == 0;
	s->mangled = false;
	s->seq = (uint32_t)(t->nr - 1);
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Of two symbols at one address, the one perf shows: a sized one over a
 * zero-size one, non-weak over weak, global over local, fewer leading
 * underscores, then the longer name.  @za/@zb: whether each counts as
 * zero-size.  Return: true to keep @a.
 */
static bool better(const struct sym *a, bool za, const struct sym *b, bool zb)
{
	size_t na, nb;

	if (za != zb)
		return !za;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	na = leading_underscores(a->name);
	nb = leading_underscores(b->name);
	if (na != nb)
		return na < nb;
	na = strlen(a->name);
	nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	return a->seq <= b->seq;
}

/*
 * Sort, keep one symbol per address and give zero-size symbols (hand-written
 * assembly, kallsyms) the room up to the next symbol.
 *
 * Note: perf sizes zero-size symbols before it drops aliases, so among
 * aliases of size 0 only the last one in the file gets a size and wins the
 * "sized beats zero-size" rule (kallsyms: __pi_memset over memset).  The
 * file order is kept (seq) to give the same answer.
 */
/*
 * A stable LSD radix sort by start, a byte per pass, the passes over bytes
 * that every start shares skipped: the (start, file order) order cmp_sym()
 * gives, in a few linear passes where qsort() makes n log n indirect calls.
 * Return: 0, or -ENOMEM (the table is then unsorted).
 */
static int radix_sort(struct symtab *t)
{
	struct sym *tmp = prism_reallocarray(NULL, t->nr, sizeof(*tmp)), *src = t->syms, *dst = tmp;
	uint64_t diff = 0;
	size_t i;
	int b;

	if (!tmp)
		return -ENOMEM;
	for (i = 1; i < t->nr; i++)
		diff |= t->syms[i].start ^ t->syms[0].start;
	for (b = 0; b < 64; b += 8) {
		size_t count[256] = { 0 }, pos = 0;

		if (!((diff >> b) & 0xff))
			continue;
		for (i = 0; i < t->nr; i++)
			count[(src[i].start >> b) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = pos;
			pos += c;
		}
		for (i = 0; i < t->nr; i++)
			dst[count[(src[i].start >> b) & 0xff]++] = src[i];
		tmp = src;
		src = dst;
		dst = tmp;
	}
	/* src holds the result: keep it as the table, free the other buffer */
	if (src != t->syms) {
		free(t->syms);
		t->syms = src;
		t->alloc = t->nr;
	} else {
		free(dst);
	}
	return 0;
}

void symtab__sort(struct symtab *t)
{
	size_t i;

	/* kallsyms lists its text symbols in address order: no sort then */
	for (i = 1; i < t->nr; i++)
		if (cmp_sym(&t->syms[i - 1], &t->syms[i]) > 0)
			break;
	if (i < t->nr && radix_sort(t))
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_sym);
}

void symtab__fixup(struct symtab *t)
{
	symtab__sort(t);
	symtab__fixup_sorted(t);
}

void symtab__fixup_sorted(struct symtab *t)
{
	size_t i, g, o = 0;

	if (!t->nr)
		return;
	for (g = 0; g < t->nr; g = i) {
		size_t best = g;

		for (i = g + 1; i < t->nr && t->syms[i].start == t->syms[g].start; i++)
			;
		/* within [g, i): a zero-size one is sized when it is the group's last */
		for (size_t k = g + 1; k < i; k++) {
			bool zk = t->syms[k].zero_size && k + 1 != i;
			bool zb = t->syms[best].zero_size && best + 1 != i;

			if (!better(&t->syms[best], zb, &t->syms[k], zk))
				best = k;
		}
		t->syms[o] = t->syms[best];
		/* a zero-size winner spans the group; keep the largest size seen */
		for (size_t k = g; k < i; k++)
			if (t->syms[k].end > t->syms[o].end && t->syms[o].zero_size)
				t->syms[o].end = t->syms[k].end;
		o++;
	}
	t->nr = o;
	for (i = 0; i + 1 < t->nr; i++) {
		if (t->syms[i].zero_size || t->syms[i].end == t->syms[i].start)
			t->syms[i].end = t->syms[i + 1].start;
	}
	/* the last zero-size symbol gets a page, as perf does for the kernel's end */
	if (t->syms[t->nr - 1].end == t->syms[t->nr - 1].start) {
		uint64_t start = t->syms[t->nr - 1].start;

		/* a symbol in the last page ends at the top of the address space */
		t->syms[t->nr - 1].end = start > UINT64_MAX - 4096 ? UINT64_MAX : start + 4096;
	}
}

const struct sym *symtab__find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* sized symbols may nest (a local label inside a function): check the one before */
	if (addr < t->syms[lo - 1].end)
		return &t->syms[lo - 1];
	if (lo >= 2 && addr < t->syms[lo - 2].end)
		return &t->syms[lo - 2];
	return NULL;
}

bool demangle__candidate(const char *name)
{
	return name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R' || (name[1] == '_' && name[2] == 'Z'));
}

void symtab__demangle(struct symtab *t, struct sym *s, bool params)
{
	char *d;

	if (!s->mangled)
		return;
	s->mangled = false;
	d = demangle__name(s->name, params);
	if (d) {
		const char *kept = symtab__strdup(t, d);

		if (kept)
			s->name = kept;
		free(d);
	}
}

void symtab__release(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nr_strings; i++)
		free(t->strings[i]);
	free(t->strings);
	free(t->syms);
	memset(t, 0, sizeof(*t));
}
