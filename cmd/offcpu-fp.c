// SPDX-License-Identifier: MIT
/*
 * prism offcpu: stacks that frame pointers cut short.  A user stack that
 * ends anywhere but in a thread's entry broke in some DSO (fp_check); a
 * frame-pointer stack whose leaf has no frame pointer (Debian's libc) misses
 * the leaf's caller, put back from the window of stack kept at sp with the
 * leaf's CFI (recover_leaf); a warning per DSO for each.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <prism/strbuf.h>

#include "cmd.h"
#include "offcpu.h"

/* ---- frame-pointer check ---- */

static bool is_stack_root(const char *sym)
{
	static const char *const roots[] = {
		"_start",
		"__libc_start_main",
		"__libc_start_call_main",
		"start_thread",
		"clone",
		"clone3",
		"__clone",
		"__clone3",
		"_dl_start_user",
	};
	size_t i;

	if (!sym)
		return false;
	for (i = 0; i < PRISM_ARRAY_SIZE(roots); i++)
		if (!strcmp(sym, roots[i]))
			return true;
	return false;
}

static struct fp_dso *fp_dso(struct offcpu *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->nr_fp; i++)
		if (!strcmp(o->fp[i].name, name))
			return &o->fp[i];
	if (o->nr_fp == o->cap_fp) {
		o->cap_fp = o->cap_fp ? 2 * o->cap_fp : 16;
		o->fp = xrealloc(o->fp, o->cap_fp * sizeof(*o->fp));
	}
	o->fp[o->nr_fp] = (struct fp_dso){ .name = name };
	return &o->fp[o->nr_fp++];
}

/*
 * A frame-pointer user stack normally ends in a thread's entry (_start,
 * __libc_start_call_main, start_thread, clone3).  One that ends anywhere
 * else, or that runs into an address no mapping covers, was cut short: the
 * frame-pointer chain broke in the DSO of the outermost good frame.  Every
 * user DSO on the stack counts the sample; the DSO where it broke counts it
 * as broken.
 */
void fp_check(struct offcpu *o, const struct prism_frame *f, size_t nr, const char *comm,
	      uint64_t count)
{
	const char *blame = NULL;
	size_t i, last = nr;
	bool broken = false;

	for (i = 0; i < nr; i++) {
		if (f[i].kernel)
			continue;
		if (!f[i].dso || !f[i].dso_name || !strcmp(f[i].dso_name, "[unknown]")) {
			broken = true;
			break;
		}
		last = i;
		fp_dso(o, f[i].dso_name)->samples += count;
	}
	if (last == nr) /* no user frames (kernel thread, no user stack) */
		return;
	if (!broken && !is_stack_root(f[last].sym))
		broken = true;
	if (broken) {
		struct fp_dso *d;

		blame = f[last].dso_name;
		d = fp_dso(o, blame);
		d->broken += count;
		if (!d->comm)
			d->comm = comm;
	}
}

void fp_report(struct offcpu *o)
{
	size_t i;

	for (i = 0; i < o->nr_fp; i++) {
		const struct fp_dso *d = &o->fp[i];

		if (d->samples < 3 || d->broken * 2 <= d->samples)
			continue;
		warning("%" PRIu64 " of %" PRIu64 " off-CPU blocks have user stacks that end "
			"early in %s (e.g. in '%s'): it or the code calling it was built without "
			"frame pointers, so those stacks miss their callers",
			d->broken, d->samples, d->name, d->comm ? d->comm : "?");
		hint("rebuild the program with -fno-omit-frame-pointer, or record with "
		     "'prism record --off-cpu --call-graph dwarf' (DWARF unwinding)");
	}
}

/* ---- frameless leaves ---- */

static struct leaf_dso *leaf_dso(struct offcpu *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->nr_leaves; i++)
		if (!strcmp(o->leaves[i].name, name))
			return &o->leaves[i];
	if (o->nr_leaves == o->cap_leaves) {
		o->cap_leaves = o->cap_leaves ? 2 * o->cap_leaves : 16;
		o->leaves = xrealloc(o->leaves, o->cap_leaves * sizeof(*o->leaves));
	}
	o->leaves[o->nr_leaves] = (struct leaf_dso){ .name = name };
	return &o->leaves[o->nr_leaves++];
}

/*
 * A frame-pointer stack whose leaf has no frame pointer misses the leaf's
 * caller: put it back from the window at sp (prism record --off-cpu keeps
 * one with each block), and count per DSO the stacks where it stays lost.
 */
int recover_leaf(struct offcpu *o, const struct prism_sample *s, const struct prism_offcpu_raw *raw)
{
	struct prism_leaf_window w = { .pid = s->pid, .tid = s->tid };
	const struct prism_frame *f;
	struct leaf_dso *d;
	size_t leaf, i;
	int r;

	/* DWARF samples were unwound from their stack copy */
	if (s->type & PERF_SAMPLE_STACK_USER)
		return 0;
	if (raw && raw->has_ustate) {
		w.ip = raw->ip;
		w.sp = raw->sp;
		w.bp = raw->bp;
		w.window = raw->window;
		w.size = raw->window_size;
	} else {
		for (i = 0; i < o->cc.nr && o->cc.frames[i].kernel; i++)
			;
		if (i == o->cc.nr)
			return 0;
		w.ip = o->cc.frames[i].ip;
	}
	r = prism_symbols__recover_leaf(o->sy, &o->cc, &w, &leaf);
	if (r < 0)
		return r;
	if (r == PRISM_LEAF_UNKNOWN || leaf >= o->cc.nr)
		return 0;
	f = &o->cc.frames[leaf];
	if (!f->dso_name)
		return 0;
	d = leaf_dso(o, f->dso_name);
	d->stacks++;
	if (r == PRISM_LEAF_FP)
		return 0;
	d->frameless++;
	if (r != PRISM_LEAF_LOST)
		return 0;
	d->lost++;
	for (i = 0; i < d->nr_syms && f->sym; i++)
		if (!strcmp(d->syms[i], f->sym))
			break;
	if (f->sym && i == d->nr_syms && d->nr_syms < PRISM_ARRAY_SIZE(d->syms))
		d->syms[d->nr_syms++] = f->sym;
	return 0;
}

void leaf_report(struct offcpu *o)
{
	size_t i, j;

	for (i = 0; i < o->nr_leaves; i++) {
		const struct leaf_dso *d = &o->leaves[i];
		struct prism_strbuf sb = STRBUF_INIT;

		if (!d->lost)
			continue;
		for (j = 0; j < d->nr_syms; j++) {
			const char *at = strchr(d->syms[j], '@');
			int len = at ? (int)(at - d->syms[j]) : (int)strlen(d->syms[j]);

			prism_strbuf_addf(&sb, "%s%.*s", j ? ", " : "", len, d->syms[j]);
		}
		warning("%s has no frame pointers: %" PRIu64 " of %" PRIu64
			" stacks lost their caller above %s; record with --call-graph dwarf",
			d->name, d->lost, d->stacks, d->nr_syms ? sb.buf : "its functions");
		prism_strbuf_release(&sb);
	}
}
