// SPDX-License-Identifier: MIT
/*
 * The accounting check as a file section (PRISM_FEAT_UTIL_CHECK, bit 255
 * of the feature bitmap, which perf passes over): prism util -i then
 * checks a recording against the kernel as the live report does.
 *
 * Layout (the writer's byte order, told by the order word):
 *	0	char tag[8]	"PRISMUCK"
 *	8	u32 order	0x01020304
 *	12	u32 version	1
 *	16	u32 nr		tasks that follow
 *	20	u32 flags	bit 0: the workload's rusage is known
 *	24	u64 end_ns	when the events were disabled (their clock), 0 unknown
 *	32	u64 workload_ns
 *	40	u32 self_pid	prism's pid (its tasks are not the workload's)
 *	44	u32 reserved
 *	48	nr entries of 40 bytes:
 *		u32 tid, u32 ended (1: read at the end too), u64 start_ns,
 *		u64 end_ns, char comm[16] (NUL-padded)
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/features.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/util-check.h>

#include "check-internal.h"
#include "internal.h"

#define TAG "PRISMUCK"
#define ORDER 0x01020304u
#define VERSION 1u
#define HEAD 48u
#define ENTRY 40u
#define F_WORKLOAD 1u

static void put32(struct prism_strbuf *sb, uint32_t v)
{
	prism_strbuf_add(sb, &v, sizeof(v));
}

static void put64(struct prism_strbuf *sb, uint64_t v)
{
	prism_strbuf_add(sb, &v, sizeof(v));
}

int prism_util_check__save(const struct prism_util_check *k, struct prism_strbuf *sb)
{
	size_t i;

	if (k->nr > UINT32_MAX)
		return -EOVERFLOW;
	prism_strbuf_add(sb, TAG, 8);
	put32(sb, ORDER);
	put32(sb, VERSION);
	put32(sb, (uint32_t)k->nr);
	put32(sb, k->has_workload ? F_WORKLOAD : 0);
	put64(sb, k->end_ns);
	put64(sb, k->workload_ns);
	put32(sb, k->self_pid);
	put32(sb, 0);
	for (i = 0; i < k->nr; i++) {
		const struct kt *t = &k->v[i];
		char comm[16] = { 0 };

		put32(sb, t->tid);
		put32(sb, t->ended);
		put64(sb, t->start);
		put64(sb, t->end);
		memcpy(comm, t->comm, strnlen(t->comm, sizeof(comm) - 1));
		prism_strbuf_add(sb, comm, sizeof(comm));
	}
	return prism_strbuf_failed(sb) ? -ENOMEM : 0;
}

static uint32_t get32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static uint64_t get64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

static void clear(struct prism_util_check *k)
{
	k->nr = 0;
	k->has_workload = false;
	k->workload_ns = 0;
	k->self_pid = 0;
	k->end_ns = 0;
}

int prism_util_check__load(struct prism_util_check *k, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t order, nr, i;
	bool swap;

	clear(k);
	if (!p || len < HEAD || memcmp(p, TAG, 8))
		return -EINVAL;
	order = get32(p + 8, false);
	if (order != ORDER && order != bswap_32(ORDER))
		return -EINVAL;
	swap = order != ORDER;
	nr = get32(p + 16, swap);
	if (get32(p + 12, swap) != VERSION || !range_ok(HEAD, (uint64_t)nr * ENTRY, len))
		return -EINVAL;
	if (prism_ensure_mem((void **)&k->v, &k->cap, sizeof(*k->v), nr))
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const uint8_t *e = p + HEAD + (size_t)i * ENTRY;
		struct kt *t = &k->v[i];

		memset(t, 0, sizeof(*t));
		t->tid = get32(e, swap);
		t->ended = get32(e + 4, swap) != 0;
		t->start = get64(e + 8, swap);
		t->end = get64(e + 16, swap);
		memcpy(t->comm, e + 24, sizeof(t->comm) - 1);
	}
	k->nr = nr;
	k->has_workload = get32(p + 20, swap) & F_WORKLOAD;
	k->end_ns = get64(p + 24, swap);
	k->workload_ns = get64(p + 32, swap);
	k->self_pid = get32(p + 40, swap);
	check_sort(k);
	return 0;
}

int prism_util_check__from_session(const struct prism_session *s, struct prism_util_check **out,
				   size_t *len)
{
	size_t n;
	const void *sec =
		prism_features__raw(prism_session__features(s), PRISM_FEAT_UTIL_CHECK, &n);
	struct prism_util_check *k;
	int err;

	*out = NULL;
	if (len)
		*len = n;
	if (!sec)
		return -ENOENT;
	k = prism_util_check__new();
	if (!k)
		return -ENOMEM;
	err = prism_util_check__load(k, sec, n);
	if (err) {
		prism_util_check__free(k);
		return err;
	}
	*out = k;
	return 0;
}
