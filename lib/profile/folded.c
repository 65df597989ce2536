// SPDX-License-Identifier: MIT
/*
 * Folded stacks, the input format of flamegraph.pl: "comm;root;...;leaf N".
 */
#include <inttypes.h>
#include <prism/strbuf.h>

#include "profile-internal.h"

struct fline {
	size_t off, len;
	uint64_t count;
};

static void add_name(struct prism_strbuf *sb, const char *s, char from, char to)
{
	size_t start = sb->len, i;

	prism_strbuf_addstr(sb, s);
	if (prism_strbuf_failed(sb))
		return;
	for (i = start; i < sb->len; i++)
		if (sb->buf[i] == from)
			sb->buf[i] = to;
}

static int cmp_line(const void *pa, const void *pb, void *arg)
{
	const struct fline *a = pa, *b = pb;
	const char *buf = arg;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(buf + a->off, buf + b->off, n);

	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

int prism_profile__write_folded(struct prism_profile *p, FILE *fp, unsigned int flags)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct fline *lines;
	size_t r, i, out;
	int err = 0;

	lines = prism_reallocarray(NULL, p->nr_recs + 1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	for (r = 0; r < p->nr_recs; r++) {
		const struct precord *rec = &p->recs[r];
		uint32_t j;

		lines[r].off = sb.len;
		add_name(&sb, strtab__str(&p->strs, rec->comm_id), ' ', '_');
		if (flags & (PRISM_FOLDED_PID | PRISM_FOLDED_TID))
			prism_strbuf_addf(&sb, "-%u", rec->pid);
		if (flags & PRISM_FOLDED_TID)
			prism_strbuf_addf(&sb, "/%u", rec->tid);
		for (j = rec->depth; j > 0; j--) {
			const struct pframe *f = &p->frames[p->pool[rec->off + j - 1]];

			prism_strbuf_addch(&sb, ';');
			add_name(&sb, pframe__label(f), ';', ':');
			if ((flags & PRISM_FOLDED_KERNEL_SUFFIX) && f->kernel)
				prism_strbuf_addstr(&sb, "_[k]");
		}
		lines[r].len = sb.len - lines[r].off;
		lines[r].count = flags & PRISM_FOLDED_PERIOD ? rec->period : rec->count;
	}
	if (prism_strbuf_failed(&sb)) {
		err = -ENOMEM;
		goto out;
	}
	qsort_r(lines, p->nr_recs, sizeof(*lines), cmp_line, sb.buf);
	for (i = 0; i < p->nr_recs; i = out) {
		uint64_t count = lines[i].count;

		for (out = i + 1; out < p->nr_recs && !cmp_line(&lines[i], &lines[out], sb.buf);
		     out++)
			count += lines[out].count;
		fwrite(sb.buf + lines[i].off, 1, lines[i].len, fp);
		fprintf(fp, " %" PRIu64 "\n", count);
	}
	if (ferror(fp))
		err = -EIO;
out:
	prism_strbuf_release(&sb);
	free(lines);
	return err;
}
