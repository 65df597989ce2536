// SPDX-License-Identifier: MIT
/*
 * Record byte-swapping for opposite-endian files.
 */
#include <byteswap.h>

#include "internal.h"
#include "event/parse.h"
#include "event/swap.h"

static void sw16(uint8_t *p)
{
	uint16_t v = bswap_16(get_u16(p));

	memcpy(p, &v, 2);
}

static void sw32(uint8_t *p)
{
	uint32_t v = bswap_32(get_u32(p));

	memcpy(p, &v, 4);
}

static void sw64(uint8_t *p)
{
	uint64_t v = bswap_64(get_u64(p));

	memcpy(p, &v, 8);
}

/*
 * CPU_MAP: u16 type, then CPUS {u16 nr; u16 cpu[nr]}, MASK {u16 nr; u16
 * long_size; 4-byte words, or a u32 pad and 8-byte words} or RANGE {u8
 * any_cpu; u8 pad; u16 start; u16 end}
 */
static int swap_cpu_map(uint8_t *b, size_t n)
{
	size_t i, nr, word;

	if (n < 4)
		return -PRISM_E_BAD_RECORD;
	sw16(b);
	switch (get_u16(b)) {
	case 0:
		sw16(b + 2);
		for (i = 0, nr = get_u16(b + 2); i < nr && 4 + 2 * i + 2 <= n; i++)
			sw16(b + 4 + 2 * i);
		return 0;
	case 1:
		if (n < 6)
			return -PRISM_E_BAD_RECORD;
		sw16(b + 2);
		sw16(b + 4);
		nr = get_u16(b + 2);
		word = get_u16(b + 4);
		for (i = 0; word == 4 && i < nr && 6 + 4 * i + 4 <= n; i++)
			sw32(b + 6 + 4 * i);
		for (i = 0; word == 8 && i < nr && 10 + 8 * i + 8 <= n; i++)
			sw64(b + 10 + 8 * i);
		return 0;
	case 2:
		if (n < 8)
			return -PRISM_E_BAD_RECORD;
		sw16(b + 4);
		sw16(b + 6);
		return 0;
	default:
		return 0;
	}
}

static void sw64_range(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i += 8)
		sw64(p + i);
}

int prism_swap__record(void *rec, size_t size, size_t tr)
{
	uint8_t *r = rec, *b = r + 8;
	struct perf_event_header *hdr = rec;
	size_t n = size - 8;

	sw32(r);
	sw16(r + 4);
	sw16(r + 6);
	if (hdr->type == PERF_RECORD_SAMPLE || hdr->type == PERF_RECORD_LOST ||
	    hdr->type == PERF_RECORD_LOST_SAMPLES || hdr->type == PRISM_RECORD_ID_INDEX ||
	    hdr->type == PERF_RECORD_READ || hdr->type == PRISM_RECORD_STAT_CONFIG ||
	    hdr->type == PRISM_RECORD_STAT_ROUND || hdr->type == PRISM_RECORD_TIME_CONV) {
		sw64_range(b, n);
		if (hdr->type == PERF_RECORD_READ && n >= 8) {
			/* pid/tid: after the u64 swap the halves are exchanged */
			uint32_t a = get_u32(b), c = get_u32(b + 4);

			memcpy(b, &c, 4);
			memcpy(b + 4, &a, 4);
		}
		return 0;
	}
	if (hdr->type < PRISM_RECORD_HEADER_ATTR) {
		if (tr > n)
			return -PRISM_E_BAD_RECORD;
		sw64_range(r + size - tr, tr);
		n -= tr;
	}
	switch (hdr->type) {
	case PERF_RECORD_MMAP:
		if (n < 32)
			return -PRISM_E_BAD_RECORD;
		sw32(b);
		sw32(b + 4);
		sw64_range(b + 8, 24);
		return 0;
	case PERF_RECORD_MMAP2:
		if (n < 64)
			return -PRISM_E_BAD_RECORD;
		sw32(b);
		sw32(b + 4);
		sw64_range(b + 8, 24);
		if (!(hdr->misc & PRISM_MISC_MMAP_BUILD_ID)) {
			sw32(b + 32);
			sw32(b + 36);
			sw64(b + 40);
			sw64(b + 48);
		}
		if (!prism_mmap2__without_prot(b, n)) {
			sw32(b + 56);
			sw32(b + 60);
		}
		return 0;
	case PERF_RECORD_COMM:
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (n < 8)
			return -PRISM_E_BAD_RECORD;
		sw32(b);
		sw32(b + 4);
		if (hdr->type == PERF_RECORD_NAMESPACES)
			sw64_range(b + 8, n - 8);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (n < 24)
			return -PRISM_E_BAD_RECORD;
		sw32(b);
		sw32(b + 4);
		sw32(b + 8);
		sw32(b + 12);
		sw64(b + 16);
		return 0;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
	case PRISM_RECORD_CALLCHAIN_DEFERRED:
		sw64_range(b, n);
		return 0;
	case PERF_RECORD_KSYMBOL:
		if (n < 16)
			return -PRISM_E_BAD_RECORD;
		sw64(b);
		sw32(b + 8);
		sw16(b + 12);
		sw16(b + 14);
		return 0;
	case PERF_RECORD_BPF_EVENT:
		if (n < 8)
			return -PRISM_E_BAD_RECORD;
		sw16(b);
		sw16(b + 2);
		sw32(b + 4);
		return 0;
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_TEXT_POKE:
		if (n < 8)
			return -PRISM_E_BAD_RECORD;
		sw64(b);
		if (hdr->type == PERF_RECORD_TEXT_POKE && n >= 12) {
			sw16(b + 8);
			sw16(b + 10);
		}
		return 0;
	case PRISM_RECORD_HEADER_FEATURE:
	case PRISM_RECORD_COMPRESSED2:
	case PRISM_RECORD_THREAD_MAP:
	case PRISM_RECORD_AUXTRACE_INFO:
		if (n < 8)
			return -PRISM_E_BAD_RECORD;
		if (hdr->type == PRISM_RECORD_AUXTRACE_INFO) {
			sw32(b);
			sw64_range(b + 8, n - 8);
		} else {
			sw64(b);
		}
		if (hdr->type == PRISM_RECORD_THREAD_MAP) {
			size_t i, nr = get_u64(b);

			for (i = 0; i < nr && 8 + i * 24 + 8 <= n; i++)
				sw64(b + 8 + i * 24);
		}
		return 0;
	case PRISM_RECORD_HEADER_TRACING_DATA:
		if (n < 4)
			return -PRISM_E_BAD_RECORD;
		sw32(b);
		return 0;
	case PRISM_RECORD_EVENT_UPDATE:
		if (n < 16)
			return -PRISM_E_BAD_RECORD;
		sw64(b);
		sw64(b + 8);
		if (get_u64(b) == 1 && n >= 24)
			sw64(b + 16); /* SCALE: a double */
		return 0;
	case PRISM_RECORD_STAT:
		if (n < 40)
			return -PRISM_E_BAD_RECORD;
		sw64(b);
		sw32(b + 8);
		sw32(b + 12);
		sw64_range(b + 16, 24);
		return 0;
	case PRISM_RECORD_AUXTRACE:
		if (n < 40)
			return -PRISM_E_BAD_RECORD;
		sw64_range(b, 24);
		sw32(b + 24);
		sw32(b + 28);
		sw32(b + 32);
		return 0;
	case PRISM_RECORD_HEADER_BUILD_ID:
		if (n >= 4)
			sw32(b); /* pid; perf itself has no swap op for this record */
		return 0;
	case PRISM_RECORD_CPU_MAP:
		return swap_cpu_map(b, n);
	default:
		/* HEADER_ATTR (its reader swaps), COMPRESSED, FINISHED_*, unknown */
		return 0;
	}
}
