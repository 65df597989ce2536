// SPDX-License-Identifier: MIT
/*
 * The RAW payload of prism's offcpu-time samples (include/prism/offcpu-data.h):
 * task state, kind, block count, stack errors and the loss counters.
 */
#include <stddef.h>

#include <prism/offcpu-data.h>

#include "internal.h"

#define STAT(field, loss, hint)                             \
	{                                                   \
		offsetof(struct prism_offcpu_stats, field), \
		{                                           \
#field, loss, hint                  \
		}                                           \
	}

static const struct {
	size_t off;
	struct prism_offcpu_stat_desc d;
} stats[] = {
	STAT(switch_out, false, NULL),
	STAT(switch_in, false, NULL),
	STAT(in_progress, false, NULL),
	STAT(short_blocks, false, NULL),
	STAT(emitted, false, NULL),
	STAT(ustack_collisions, true,
	     "user stacks lost to stack-map bucket collisions: the blocks are kept without a user stack"),
	STAT(ustack_faults, true,
	     "user stacks that could not be read (exiting tasks, kernel threads): blocks kept without one"),
	STAT(ustack_errors, true, "user stacks that failed otherwise: blocks kept without one"),
	STAT(kstack_collisions, true,
	     "kernel stacks lost to stack-map bucket collisions: blocks kept without one"),
	STAT(kstack_faults, true, "kernel stacks that could not be read: blocks kept without one"),
	STAT(kstack_errors, true, "kernel stacks that failed otherwise: blocks kept without one"),
	STAT(hash_full, true, "blocks lost: the aggregation map was full"),
	STAT(hash_full_ns, true, "their off-CPU time in ns"),
	STAT(ringbuf_drops, false, NULL),
	STAT(storage_fail, true, "blocks lost: no task storage"),
	STAT(unclosed, false, NULL),
	STAT(prog_misses, true, "switches the kernel did not run the BPF program for"),
	STAT(forks, false, NULL),
	STAT(filter_full, true, "children not followed: the task filter was full"),
	STAT(start_ns, false, NULL),
	STAT(stop_ns, false, NULL),
	STAT(copies, false, NULL),
	STAT(copy_drops, false, NULL),
	STAT(copy_bytes, false, NULL),
	STAT(long_blocks, false, NULL),
	STAT(asleep_at_start, false, NULL),
};

size_t prism_offcpu_stats__nr(void)
{
	return PRISM_ARRAY_SIZE(stats);
}

const struct prism_offcpu_stat_desc *prism_offcpu_stats__desc(size_t idx)
{
	return idx < PRISM_ARRAY_SIZE(stats) ? &stats[idx].d : NULL;
}

uint64_t prism_offcpu_stats__get(const struct prism_offcpu_stats *st, size_t idx)
{
	uint64_t v;

	if (idx >= PRISM_ARRAY_SIZE(stats))
		return 0;
	memcpy(&v, (const char *)st + stats[idx].off, sizeof(v));
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

size_t prism_offcpu_raw__encode(void *buf, const struct prism_offcpu_raw *r,
				const struct prism_offcpu_stats *st)
{
	uint8_t *p = buf;
	uint32_t nr = st ? (uint32_t)PRISM_ARRAY_SIZE(stats) : 0, i;
	size_t n;
	uint16_t ver = PRISM_OFFCPU_RAW_VERSION;

	put32(p, PRISM_OFFCPU_RAW_MAGIC);
	memcpy(p + 4, &ver, 2);
	p[6] = (uint8_t)r->kind;
	p[7] = (uint8_t)r->state;
	memcpy(p + 8, &r->count, 8);
	put32(p + 16, (uint32_t)r->ustack_err);
	put32(p + 20, (uint32_t)r->kstack_err);
	memcpy(p + 24, &r->start, 8);
	put32(p + 32, nr);
	for (i = 0; i < nr; i++) {
		uint64_t v = prism_offcpu_stats__get(st, i);

		memcpy(p + PRISM_OFFCPU_RAW_MIN + 8 * i, &v, 8);
	}
	n = PRISM_OFFCPU_RAW_MIN + 8 * (size_t)nr;
	if (r->has_ustate) {
		uint32_t w =
			r->window_size <= PRISM_OFFCPU_WINDOW_MAX && r->window ? r->window_size : 0;

		memcpy(p + n, &r->ip, 8);
		memcpy(p + n + 8, &r->sp, 8);
		memcpy(p + n + 16, &r->bp, 8);
		put32(p + n + 24, w);
		put32(p + n + 28, 0);
		n += 32;
		if (w)
			memcpy(p + n, r->window, w);
		memset(p + n + w, 0, ((w + 7) & ~7u) - w);
		n += (w + 7) & ~7u;
	}
	return n;
}

int prism_offcpu_raw__decode(const void *buf, size_t size, struct prism_offcpu_raw *out)
{
	const uint8_t *p = buf;
	uint32_t nr, i;

	memset(out, 0, sizeof(*out));
	if (!buf || size < PRISM_OFFCPU_RAW_MIN || get_u32(p) != PRISM_OFFCPU_RAW_MAGIC ||
	    (p[4] | p[5] << 8) != PRISM_OFFCPU_RAW_VERSION)
		return -EINVAL;
	out->kind = (enum prism_offcpu_kind)p[6];
	out->state = p[7];
	out->count = get_u64(p + 8);
	out->ustack_err = (int)get_u32(p + 16);
	out->kstack_err = (int)get_u32(p + 20);
	out->start = get_u64(p + 24);
	nr = get_u32(p + 32);
	if (nr > (size - PRISM_OFFCPU_RAW_MIN) / 8)
		return -EINVAL;
	out->has_stats = nr > 0;
	for (i = 0; i < nr && i < PRISM_ARRAY_SIZE(stats); i++) {
		uint64_t v = get_u64(p + PRISM_OFFCPU_RAW_MIN + 8 * i);

		memcpy((char *)&out->stats + stats[i].off, &v, sizeof(v));
	}
	/* the optional user state; a payload cut inside it is not prism's */
	p += PRISM_OFFCPU_RAW_MIN + 8 * (size_t)nr;
	size -= PRISM_OFFCPU_RAW_MIN + 8 * (size_t)nr;
	if (size < 32)
		return 0;
	out->ip = get_u64(p);
	out->sp = get_u64(p + 8);
	out->bp = get_u64(p + 16);
	out->window_size = get_u32(p + 24);
	if (out->window_size > PRISM_OFFCPU_WINDOW_MAX || out->window_size > size - 32)
		return -EINVAL;
	out->window = out->window_size ? p + 32 : NULL;
	out->has_ustate = true;
	return 0;
}

const char *prism_offcpu_state_name(unsigned int state)
{
	switch (state & 0xff) {
	case 0:
		return "R";
	case 1:
		return "S";
	case 2:
		return "D";
	case 4:
	case 8:
		return "T";
	default:
		return "?";
	}
}
