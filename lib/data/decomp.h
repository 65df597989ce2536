/* SPDX-License-Identifier: MIT */
/*
 * Streaming decompression of PERF_RECORD_COMPRESSED (81) and
 * PERF_RECORD_COMPRESSED2 (83) payloads.  Internal to lib/.
 *
 * perf writes every compressed chunk of one output file as a piece of a
 * single zstd stream whose frame is never ended, so one prism_decomp lives
 * as long as the file is read and is fed every payload in file order.  A
 * decompressed record may straddle two payloads: the caller keeps the tail
 * in its output buffer and this module appends after it.
 *
 * Ownership: the caller owns the output buffer (*out) and frees it; a
 * prism_decomp owns only its decoder state.
 *
 * Without libzstd (NO_LIBZSTD=1 or the library missing) the stub fails
 * prism_decomp__new() with errno PRISM_E_NOFEATURE.
 */
#ifndef PRISM_DATA_DECOMP_H
#define PRISM_DATA_DECOMP_H

#include <stddef.h>
#include <stdint.h>

struct prism_decomp;

/**
 * prism_decomp__new - make a decoder for one compressed record stream
 *
 * Return: the decoder, or NULL with errno set (ENOMEM, or PRISM_E_NOFEATURE
 * when prism was built without libzstd).
 */
struct prism_decomp *prism_decomp__new(void);

/**
 * prism_decomp__free - release a decoder
 * @d: the decoder; NULL is accepted
 */
void prism_decomp__free(struct prism_decomp *d);

/**
 * prism_decomp__feed - decompress the next payload of the stream
 * @d: the decoder of this file (or pipe)
 * @src: payload of one COMPRESSED record (header.size - 8 bytes) or the
 *	data_size bytes of one COMPRESSED2 record; any split of the stream
 *	into pieces works, as long as the pieces come in order
 * @len: bytes at @src (0 is a no-op)
 * @out: the caller's growable output buffer (may be NULL with *@out_cap 0)
 * @out_len: bytes already in *@out (e.g. the undelivered tail of a record
 *	that straddles payloads); the output is appended after them
 * @out_cap: capacity of *@out; grown with prism_ensure_mem()
 * @max_out: most bytes this one payload may expand to (zip-bomb bound);
 *	perf's own bound is the COMPRESSED feature's mmap_len
 *
 * Return: 0 with *@out_len advanced by the decompressed size;
 * -PRISM_E_DECOMPRESS when zstd reports an error (its message goes to
 * pr_debug) or the payload expands beyond @max_out bytes; -ENOMEM.
 * On error *@out_len is left as it was on entry (*@out may have moved), and
 * the decoder is reset: the rest of this stream cannot be decoded.
 *
 * Note: a truncated payload is not an error by itself, since the stream
 * simply continues with the next payload; the bytes it did hold are
 * decompressed as far as they go.
 */
int prism_decomp__feed(struct prism_decomp *d, const void *src, size_t len, uint8_t **out,
		       size_t *out_len, size_t *out_cap, size_t max_out);

#endif /* PRISM_DATA_DECOMP_H */
