/* SPDX-License-Identifier: MIT */
/*
 * The body of struct prism_tp_field and the bounds-checked payload readers
 * shared by lib/tp/.  Internal to lib/.
 *
 * Field decoding needs no libtraceevent (tp.c copies what it needs out of
 * each tep_format_field), so field.c is compiled in every build.
 */
#ifndef PRISM_TP_FIELD_H
#define PRISM_TP_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <prism/tp.h>

#include "internal.h" /* get_u16() ... */

enum tp_field_flags {
	TP_FIELD_SIGNED = 1 << 0,
	TP_FIELD_ARRAY = 1 << 1, /* x[N], and every __data_loc / __rel_loc field */
	TP_FIELD_STRING = 1 << 2, /* an array of char, u8 or s8 */
	TP_FIELD_DYNAMIC = 1 << 3, /* __data_loc or __rel_loc */
	TP_FIELD_RELATIVE = 1 << 4, /* __rel_loc: offset counts from the field's end */
};

struct prism_tp_field {
	const char *name; /* owned by the tep_format_field */
	const char *type;
	size_t offset; /* both at most 0xffff: tp.c drops events with larger ones */
	size_t size;
	size_t elem_size; /* element size of a fixed-size array, else size */
	size_t nr_elems; /* elements of a fixed-size array, else 1 */
	unsigned int flags;
	bool swap; /* payloads are in the other byte order */
};

/*
 * 1, 2, 4 or 8 bytes at @p, byte-swapped if @swap, zero- or sign-extended
 * (inline: util reads fields of every event with it)
 */
static inline uint64_t tp_read_num(const void *p, size_t size, bool sign, bool swap)
{
	uint64_t v;

	switch (size) {
	case 1:
		v = *(const uint8_t *)p;
		return sign ? (uint64_t)(int64_t)(int8_t)v : v;
	case 2:
		v = swap ? __builtin_bswap16(get_u16(p)) : get_u16(p);
		return sign ? (uint64_t)(int64_t)(int16_t)v : v;
	case 4:
		v = swap ? __builtin_bswap32(get_u32(p)) : get_u32(p);
		return sign ? (uint64_t)(int64_t)(int32_t)v : v;
	case 8:
		return swap ? __builtin_bswap64(get_u64(p)) : get_u64(p);
	default:
		return 0;
	}
}

/*
 * tp_field__dynamic_loc - where the bytes of a __data_loc / __rel_loc field are
 *
 * Return: 0 with *@off and *@len inside @raw_size, or -PRISM_E_TRUNCATED.
 */
int tp_field__dynamic_loc(const struct prism_tp_field *f, const void *raw, size_t raw_size,
			  size_t *off, size_t *len);

/*
 * tp_fields__check - every field of an event, and every dynamic array one
 * points to, lies inside the payload
 *
 * Return: 0 or -PRISM_E_TRUNCATED.
 */
int tp_fields__check(const struct prism_tp_field *fields, size_t nr, const void *raw,
		     size_t raw_size);

#endif /* PRISM_TP_FIELD_H */
