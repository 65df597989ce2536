// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding: kernel code changed while tracing (static keys,
 * ftrace, alternatives), from the TEXT_POKE records of perf's text_poke
 * dummy.  As perf, a change holds from its record's time on: the code a
 * queue reads is the kernel file's (a kcore copy, a vmlinux) with the new
 * bytes of every change up to the queue's time laid over it, in time order.
 * libipt's cached sections (decode-image.c) leave out the pages changed,
 * so that it reads them through the callback; the block walk's remembered
 * instructions (decode-block.c) are not kept for them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

#define PAGE 4096ull

int pt_poke_add(struct prism_pt_decoder *d, const struct prism_event *ev)
{
	const struct prism_ev_text_poke *tp = &ev->poke;
	struct poke **list, *p;
	size_t i;

	/* perf: only the kernel's code; a poke of no bytes changes nothing */
	if ((ev->raw->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    !tp->new_len || tp->addr > UINT64_MAX - tp->new_len)
		return 0;
	list = realloc(d->pokes, (d->nr_pokes + 1) * sizeof(*list));
	if (!list)
		return -ENOMEM;
	d->pokes = list;
	p = malloc(sizeof(*p) + tp->new_len);
	if (!p)
		return -ENOMEM;
	p->time = ev->sample.time;
	p->addr = tp->addr;
	p->len = tp->new_len;
	memcpy(p->bytes, tp->new_bytes, tp->new_len);
	/* in time order (the records come nearly so) */
	for (i = d->nr_pokes; i && d->pokes[i - 1]->time > p->time; i--)
		d->pokes[i] = d->pokes[i - 1];
	d->pokes[i] = p;
	d->nr_pokes++;
	return 0;
}

void pt_poke_free(struct prism_pt_decoder *d)
{
	size_t i;

	for (i = 0; i < d->nr_pokes; i++)
		free(d->pokes[i]);
	free(d->pokes);
	d->pokes = NULL;
	d->nr_pokes = 0;
}

bool pt_poked(const struct prism_pt_decoder *d, uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = 0; i < d->nr_pokes; i++)
		if (d->pokes[i]->addr < hi && d->pokes[i]->addr + d->pokes[i]->len > lo)
			return true;
	return false;
}

void pt_poke_read(const struct queue *q, uint64_t ip, uint8_t *buf, size_t n)
{
	const struct prism_pt_decoder *d = q->d;
	size_t i;

	for (i = 0; i < d->nr_pokes && d->pokes[i]->time <= q->time; i++) {
		const struct poke *p = d->pokes[i];
		uint64_t lo = p->addr > ip ? p->addr : ip;
		uint64_t hi = p->addr + p->len < ip + n ? p->addr + p->len : ip + n;

		if (lo < hi)
			memcpy(buf + (lo - ip), p->bytes + (lo - p->addr), (size_t)(hi - lo));
	}
}

/*
 * The pieces of [@start, @end) without the pages changed: @fn(@ctx, lo, hi)
 * for each (all of it without changes)
 */
void pt_poke_split(const struct prism_pt_decoder *d, uint64_t start, uint64_t end,
		   void (*fn)(void *ctx, uint64_t lo, uint64_t hi), void *ctx)
{
	uint64_t lo = start;

	while (lo < end) {
		uint64_t skip = lo, hi = end;
		size_t i;

		for (i = 0; i < d->nr_pokes; i++) {
			const struct poke *p = d->pokes[i];
			uint64_t first = p->addr & ~(PAGE - 1), e = p->addr + p->len;
			uint64_t last = e > UINT64_MAX - PAGE ? UINT64_MAX :
								(e + PAGE - 1) & ~(PAGE - 1);

			if (first <= lo && last > lo) {
				if (last > skip)
					skip = last; /* lo is in a changed page */
			} else if (first > lo && first < hi) {
				hi = first;
			}
		}
		if (skip > lo) {
			lo = skip;
			continue;
		}
		fn(ctx, lo, hi);
		lo = hi;
	}
}
