// SPDX-License-Identifier: MIT
/*
 * Reading perf_event_attr from perf.data, in either byte order.
 */
#include <byteswap.h>

#include "internal.h"
#include "data/attr.h"

/*
 * Flag bits are C bit-fields: a big-endian compiler allocates them from the
 * other end, so a cross-endian reader reverses the bits of every byte in
 * place, without swapping the bytes (perf's swap_bitfield).
 */
static uint64_t swap_flags(uint64_t v)
{
	uint64_t out = 0;
	int byte, bit;

	for (byte = 0; byte < 8; byte++) {
		uint8_t b = (uint8_t)(v >> (byte * 8)), r = 0;

		for (bit = 0; bit < 8; bit++)
			if (b & (1u << bit))
				r |= (uint8_t)(0x80u >> bit);
		out |= (uint64_t)r << (byte * 8);
	}
	return out;
}

/* byte offsets of the u32 and u16 fields of perf_event_attr; the rest are u64 */
static const struct {
	uint16_t off, size;
} fields[] = {
	{ 0, 4 },   { 4, 4 },	{ 8, 8 },   { 16, 8 },	{ 24, 8 },  { 32, 8 },
	{ 40, 8 },  { 48, 4 },	{ 52, 4 },  { 56, 8 },	{ 64, 8 },  { 72, 8 },
	{ 80, 8 },  { 88, 4 },	{ 92, 4 },  { 96, 8 },	{ 104, 4 }, { 108, 2 },
	{ 110, 2 }, { 112, 4 }, { 116, 4 }, { 120, 8 }, { 128, 8 }, { 136, 8 },
};

int prism_attr__read(struct prism_attr_ext *out, const void *buf, size_t avail, bool swap)
{
	uint8_t raw[PRISM_ATTR_SIZE_MAX] = { 0 };
	uint32_t size;
	size_t i, n;

	memset(out, 0, sizeof(*out));
	if (avail < PERF_ATTR_SIZE_VER0)
		return -PRISM_E_BAD_HEADER;
	size = get_u32((const uint8_t *)buf + 4);
	if (swap)
		size = bswap_32(size);
	out->file_size = size;
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > avail)
		return -PRISM_E_BAD_HEADER;
	n = size < sizeof(raw) ? size : sizeof(raw);
	memcpy(raw, buf, n);
	if (swap) {
		for (i = 0; i < PRISM_ARRAY_SIZE(fields); i++) {
			uint8_t *p = raw + fields[i].off;

			if (fields[i].off + fields[i].size > n)
				break;
			if (fields[i].size == 8) {
				uint64_t v = bswap_64(get_u64(p));

				if (fields[i].off == 40)
					v = swap_flags(get_u64(p));
				memcpy(p, &v, 8);
			} else if (fields[i].size == 4) {
				uint32_t v = bswap_32(get_u32(p));

				memcpy(p, &v, 4);
			} else {
				uint16_t v = bswap_16(get_u16(p));

				memcpy(p, &v, 2);
			}
		}
	}
	memcpy(&out->attr, raw, sizeof(out->attr));
	out->attr.size = size;
	out->config3 = get_u64(raw + 128);
	out->config4 = get_u64(raw + 136);
	return 0;
}
