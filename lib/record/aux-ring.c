// SPDX-License-Identifier: MIT
/*
 * Reading the AUX area into PERF_RECORD_AUXTRACE records (see aux-ring.h):
 * the offsets perf record computes, for full and snapshot mode, on any
 * memory the caller hands in.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <prism/event.h>

#include "data/writer.h"
#include "record/aux-ring.h"

int aux_ring__init(struct aux_ring *r, struct perf_event_mmap_page *pc, const void *data,
		   uint64_t size, bool snapshot)
{
	memset(r, 0, sizeof(*r));
	if (!size || (size & (size - 1)))
		return -EINVAL;
	r->pc = pc;
	r->data = data;
	r->size = size;
	r->snapshot = snapshot;
	r->idx = r->tid = r->cpu = (uint32_t)-1;
	return 0;
}

/*
 * Snapshot mode: whether the hardware has filled the area once, perf's
 * test: the last 4 KiB (or the whole area when smaller) are not all zero
 * (the area starts zeroed).
 */
static bool first_wrap(const struct aux_ring *r)
{
	uint64_t from = r->size > 4096 ? r->size - 4096 : 0, i;

	for (i = from; i < r->size; i++)
		if (r->data[i])
			return true;
	return false;
}

int aux_ring__next(struct aux_ring *r, uint64_t max_snapshot, uint64_t reference,
		   struct aux_chunk *c)
{
	uint64_t mask = r->size - 1, head, old = r->prev, head_off, old_off, size;

	head = __atomic_load_n(&r->pc->aux_head, __ATOMIC_ACQUIRE);
	if (r->snapshot) {
		/* aux_head is an offset inside the area: make old < head as in full mode */
		if (!r->wrapped && first_wrap(r))
			r->wrapped = true;
		if (r->wrapped) {
			old = head;
			head += r->size;
		} else {
			old &= mask;
			if (old > head)
				head += r->size;
		}
	}
	if (old == head)
		return 0;
	head_off = head & mask;
	old_off = old & mask;
	size = head_off > old_off ? head_off - old_off : r->size - (old_off - head_off);
	if (r->snapshot && max_snapshot && size > max_snapshot)
		size = max_snapshot;
	memset(c, 0, sizeof(*c));
	if (size > head_off) {
		c->alen = (size_t)(size - head_off);
		c->a = r->data + r->size - c->alen;
		c->b = r->data;
		c->blen = (size_t)head_off;
	} else {
		c->a = r->data + head_off - size;
		c->alen = (size_t)size;
	}
	c->pad = (size_t)(-size & 7);
	c->rec.header.type = PRISM_RECORD_AUXTRACE;
	c->rec.header.size = sizeof(c->rec);
	c->rec.size = size + c->pad;
	c->rec.offset = head - size;
	c->rec.reference = reference;
	c->rec.idx = r->idx;
	c->rec.tid = r->tid;
	c->rec.cpu = r->cpu;
	c->head = head;
	return 1;
}

void aux_ring__done(struct aux_ring *r, const struct aux_chunk *c)
{
	r->prev = c->head;
	if (!r->snapshot)
		__atomic_store_n(&r->pc->aux_tail, c->head, __ATOMIC_RELEASE);
}

int aux_ring__read(struct aux_ring *r, struct prism_writer *w, uint64_t max_snapshot,
		   uint64_t reference)
{
	struct aux_chunk c;
	int err;

	if (!aux_ring__next(r, max_snapshot, reference, &c))
		return 0;
	err = prism_writer__write_auxtrace(w, &c.rec, sizeof(c.rec), c.a, c.alen, c.b, c.blen);
	if (!err)
		aux_ring__done(r, &c);
	return err;
}

uint64_t aux_reference(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
#endif
}
