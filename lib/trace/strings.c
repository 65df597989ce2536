// SPDX-License-Identifier: MIT
/*
 * prism_strcap: the string arguments of syscalls, captured at entry by a
 * BPF program (strings.bpf.c, embedded as the skeleton strings.skel.h) and
 * matched with the raw_syscalls:sys_enter samples of the same calls.
 *
 * The program's records arrive through a BPF ring buffer, ahead of the
 * perf samples (those pass the recorder's pipe and the session's ordering
 * first), so each thread's records wait in a queue until the sys_enter
 * sample with the same syscall id and pointer value takes them; records
 * older than a match belong to calls the trace does not show and are
 * dropped.  A string that could not be read at entry is taken from the
 * record read at the call's exit; one that could not be read at all (an
 * unmapped address) or whose record was lost is printed as the pointer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <prism/trace.h>

#include "internal.h"
#include "trace/strings-bpf.h"
#include "trace/trace-internal.h"
#include "strings.skel.h"

#define QUEUE_MAX \
	4096 /* records kept per thread (a thread the trace never shows keeps at most this) */

struct strq {
	uint32_t tid;
	bool used;
	struct strcap_rec *recs;
	size_t head, nr, cap;
};

struct prism_strcap {
	struct strings_bpf *skel;
	struct ring_buffer *rb;
	struct strq *q; /* open addressing by tid */
	size_t nr_q, cap_q;
	uint64_t dropped;
	char str[PRISM_STRACE_MAX_ARGS][STRCAP_LEN];
};

static __wraps size_t hash_tid(uint32_t tid, size_t cap)
{
	return (size_t)(tid * 2654435761u) & (cap - 1);
}

static struct strq *queue_of(struct prism_strcap *c, uint32_t tid, bool create)
{
	size_t i, j;

	if (c->cap_q)
		for (i = hash_tid(tid, c->cap_q); c->q[i].used; i = (i + 1) & (c->cap_q - 1))
			if (c->q[i].tid == tid)
				return &c->q[i];
	if (!create)
		return NULL;
	if ((c->nr_q + 1) * 2 > c->cap_q) {
		size_t cap = c->cap_q ? c->cap_q * 2 : 64;
		struct strq *q = calloc(cap, sizeof(*q));

		if (!q)
			return NULL;
		for (j = 0; j < c->cap_q; j++) {
			if (!c->q[j].used)
				continue;
			for (i = hash_tid(c->q[j].tid, cap); q[i].used; i = (i + 1) & (cap - 1))
				;
			q[i] = c->q[j];
		}
		free(c->q);
		c->q = q;
		c->cap_q = cap;
	}
	for (i = hash_tid(tid, c->cap_q); c->q[i].used; i = (i + 1) & (c->cap_q - 1))
		;
	c->q[i] = (struct strq){ .tid = tid, .used = true };
	c->nr_q++;
	return &c->q[i];
}

static int on_rec(void *ctx, void *data, size_t size)
{
	struct prism_strcap *c = ctx;
	const struct strcap_rec *r = data;
	struct strq *q;

	if (size < sizeof(*r))
		return 0;
	q = queue_of(c, r->tid, true);
	if (!q)
		return 0;
	if (q->head && (q->head * 2 >= q->nr || q->nr == q->cap)) {
		memmove(q->recs, q->recs + q->head, (q->nr - q->head) * sizeof(*q->recs));
		q->nr -= q->head;
		q->head = 0;
	}
	if (q->nr == QUEUE_MAX) { /* a thread the trace does not show: keep the newest */
		q->head = QUEUE_MAX / 2;
		c->dropped += QUEUE_MAX / 2;
		return 0;
	}
	if (prism_ensure_mem((void **)&q->recs, &q->cap, sizeof(*q->recs), q->nr + 1))
		return 0;
	q->recs[q->nr++] = *r;
	return 0;
}

struct prism_strcap *prism_strcap__new(struct prism_strace *st, bool task_filter)
{
	struct prism_strcap *c = calloc(1, sizeof(*c));
	int err = -ENOMEM, fd;
	uint32_t id, mask;

	if (!c)
		goto fail;
	if (strcmp(prism_strace__arch(st), "x86_64")) {
		/* the program reads x86-64's syscall argument registers */
		err = -ENOTSUP;
		goto fail;
	}
	c->skel = strings_bpf__open();
	if (!c->skel) {
		err = -errno;
		goto fail;
	}
	c->skel->rodata->has_task_filter = task_filter;
	c->skel->rodata->self_tgid = (uint32_t)getpid();
	err = strings_bpf__load(c->skel);
	if (err)
		goto fail;
	fd = bpf_map__fd(c->skel->maps.str_args);
	for (id = 0; id < STRCAP_MAX_ID; id++) {
		if (!prism_strace__wants(st, id))
			continue;
		mask = prism_strace__string_args(st, id);
		if (mask && bpf_map_update_elem(fd, &id, &mask, BPF_ANY)) {
			err = -errno;
			goto fail;
		}
	}
	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.events), on_rec, c, NULL);
	if (!c->rb) {
		err = -errno;
		goto fail;
	}
	err = strings_bpf__attach(c->skel);
	if (err)
		goto fail;
	return c;
fail:
	pr_debug("trace: no string capture with BPF: %s", strerror(-err));
	prism_strcap__free(c);
	errno = -err;
	return NULL;
}

int prism_strcap__add_tgid(struct prism_strcap *c, int tgid)
{
	uint32_t key = (uint32_t)tgid;
	uint8_t one = 1;

	if (bpf_map_update_elem(bpf_map__fd(c->skel->maps.tgids), &key, &one, BPF_ANY))
		return -errno;
	return 0;
}

/*
 * The exit record of argument @i of the call whose entry record is @j: the
 * records after it up to the next call's entry records.
 */
static const struct strcap_rec *exit_rec(const struct strq *q, size_t j, size_t i)
{
	const struct strcap_rec *e = &q->recs[j];
	size_t k;

	for (k = j + 1; k < q->nr; k++) {
		const struct strcap_rec *r = &q->recs[k];

		if (!(r->flags & STRCAP_F_EXIT)) {
			if (r->id != e->id || r->idx <= e->idx)
				break; /* the next call */
			continue; /* a later argument of the same call */
		}
		if (r->id == e->id && r->idx == i && r->ptr == e->ptr)
			return r;
	}
	return NULL;
}

void prism_strcap__fill(struct prism_strcap *c, struct prism_strace_enter *e)
{
	const struct strcap_rec *r;
	struct strq *q;
	size_t i, j;

	ring_buffer__consume(c->rb);
	q = queue_of(c, e->tid, false);
	for (i = 0; q && i < PRISM_STRACE_MAX_ARGS; i++) {
		for (j = q->head; j < q->nr; j++) {
			r = &q->recs[j];
			if (!(r->flags & STRCAP_F_EXIT) && r->id == e->id && r->idx == i &&
			    r->ptr == e->args[i])
				break;
		}
		if (j == q->nr)
			continue;
		r = &q->recs[j];
		if (r->flags & STRCAP_F_FAILED)
			r = exit_rec(q, j, i);
		if (r && !(r->flags & STRCAP_F_FAILED) && r->len > 0) {
			memcpy(c->str[i], r->str, STRCAP_LEN);
			c->str[i][STRCAP_LEN - 1] = '\0';
			e->strs[i] = c->str[i];
			e->strs_truncated[i] = r->len == STRCAP_LEN;
		}
		q->head = j + 1;
	}
}

uint64_t prism_strcap__lost(const struct prism_strcap *c)
{
	return c->skel->bss->lost;
}

void prism_strcap__free(struct prism_strcap *c)
{
	size_t i;

	if (!c)
		return;
	ring_buffer__free(c->rb);
	strings_bpf__destroy(c->skel);
	for (i = 0; i < c->cap_q; i++)
		free(c->q[i].recs);
	free(c->q);
	free(c);
}
