// SPDX-License-Identifier: MIT
/*
 * Tracepoint field access on PERF_SAMPLE_RAW payloads: numbers in the
 * recording machine's byte order, fixed-size arrays, char arrays and
 * __data_loc / __rel_loc strings.  Payloads are untrusted, so every read is
 * checked against the payload size first.
 */
#include "internal.h"
#include "tp/field.h"

/*
 * A __data_loc word is a u32: offset in the low 16 bits, length in the
 * high 16; a __rel_loc offset counts from the end of the field.  Very old
 * kernels used a u16 offset and no length: the data then runs to the end of
 * the payload (as libtraceevent reads it).
 */
int tp_field__dynamic_loc(const struct prism_tp_field *f, const void *raw, size_t raw_size,
			  size_t *off, size_t *len)
{
	uint64_t v;

	if ((f->size != 2 && f->size != 4) || !range_ok(f->offset, f->size, raw_size))
		return -PRISM_E_TRUNCATED;
	v = tp_read_num((const uint8_t *)raw + f->offset, f->size, false, f->swap);
	*off = (size_t)(v & 0xffff);
	if (f->flags & TP_FIELD_RELATIVE)
		*off += f->offset + f->size;
	if (f->size == 2)
		*len = *off <= raw_size ? raw_size - *off : 0;
	else
		*len = (size_t)(v >> 16) & 0xffff;
	return range_ok(*off, *len, raw_size) ? 0 : -PRISM_E_TRUNCATED;
}

int tp_fields__check(const struct prism_tp_field *fields, size_t nr, const void *raw,
		     size_t raw_size)
{
	size_t i, off, len;
	int err;

	for (i = 0; i < nr; i++) {
		const struct prism_tp_field *f = &fields[i];

		if (f->flags & TP_FIELD_DYNAMIC) {
			err = tp_field__dynamic_loc(f, raw, raw_size, &off, &len);
			if (err)
				return err;
		} else if (!range_ok(f->offset, f->size, raw_size)) {
			return -PRISM_E_TRUNCATED;
		}
	}
	return 0;
}

const char *prism_tp_field__name(const struct prism_tp_field *f)
{
	return f->name;
}

const char *prism_tp_field__type(const struct prism_tp_field *f)
{
	return f->type;
}

size_t prism_tp_field__offset(const struct prism_tp_field *f)
{
	return f->offset;
}

size_t prism_tp_field__size(const struct prism_tp_field *f)
{
	return f->size;
}

size_t prism_tp_field__nr_elems(const struct prism_tp_field *f)
{
	return f->nr_elems;
}

bool prism_tp_field__is_signed(const struct prism_tp_field *f)
{
	return f->flags & TP_FIELD_SIGNED;
}

bool prism_tp_field__is_string(const struct prism_tp_field *f)
{
	return f->flags & TP_FIELD_STRING;
}

bool prism_tp_field__is_dynamic(const struct prism_tp_field *f)
{
	return f->flags & TP_FIELD_DYNAMIC;
}

int prism_tp_field__u64_at(const struct prism_tp_field *f, const void *raw, size_t raw_size,
			   size_t idx, uint64_t *val)
{
	size_t es = f->elem_size;

	if ((f->flags & TP_FIELD_DYNAMIC) || (es != 1 && es != 2 && es != 4 && es != 8))
		return -EINVAL;
	if (idx >= f->nr_elems)
		return -ERANGE;
	if (!range_ok(f->offset + idx * es, es, raw_size))
		return -PRISM_E_TRUNCATED;
	*val = tp_read_num((const uint8_t *)raw + f->offset + idx * es, es,
			   f->flags & TP_FIELD_SIGNED, f->swap);
	return 0;
}

int prism_tp_field__u64(const struct prism_tp_field *f, const void *raw, size_t raw_size,
			uint64_t *val)
{
	if (f->flags & TP_FIELD_ARRAY)
		return -EINVAL;
	return prism_tp_field__u64_at(f, raw, raw_size, 0, val);
}

int prism_tp_field__str(const struct prism_tp_field *f, const void *raw, size_t raw_size,
			const char **str, size_t *len)
{
	size_t off = f->offset, n = f->size;
	const char *s, *nul;
	int err;

	if (!(f->flags & TP_FIELD_STRING))
		return -EINVAL;
	if (f->flags & TP_FIELD_DYNAMIC) {
		err = tp_field__dynamic_loc(f, raw, raw_size, &off, &n);
		if (err)
			return err;
	} else if (!n) {
		/* "char buf[]" of size 0 (ftrace print): the rest of the payload */
		n = off <= raw_size ? raw_size - off : 0;
	}
	if (!range_ok(off, n, raw_size))
		return -PRISM_E_TRUNCATED;
	s = (const char *)raw + off;
	nul = n ? memchr(s, '\0', n) : NULL;
	*str = s;
	*len = nul ? (size_t)(nul - s) : n;
	return 0;
}
