/* SPDX-License-Identifier: MIT */
/*
 * Byte-swapping records of opposite-endian perf.data files.
 */
#ifndef PRISM_EVENT_SWAP_H
#define PRISM_EVENT_SWAP_H

#include <stddef.h>

/*
 * prism_swap__record - convert one record (8-byte aligned copy) to this
 * machine's byte order, following perf's rules (session.c swap ops): the
 * header field by field; SAMPLE bodies and sample_id trailers as u64 words
 * (prism_sample__parse() then puts u32 pairs, RAW and stack bytes right);
 * fixed fields of other records one by one; strings and opaque payloads
 * (COMPRESSED data, tracing data, feature payloads, HEADER_ATTR, which its
 * readers swap themselves) untouched.
 *
 * @tr: the size of the sample_id trailer of a kernel record other than
 * SAMPLE (0 when it has none)
 *
 * Return: 0, or -PRISM_E_BAD_RECORD when the record is too small for its type.
 */
int prism_swap__record(void *rec, size_t size, size_t tr);

#endif /* PRISM_EVENT_SWAP_H */
