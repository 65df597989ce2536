// SPDX-License-Identifier: MIT
/*
 * Streaming zstd decompression of perf's compressed records (libzstd).
 */
#include <zstd.h>

#include "internal.h"
#include "data/decomp.h"

struct prism_decomp {
	ZSTD_DStream *zds;
};

struct prism_decomp *prism_decomp__new(void)
{
	struct prism_decomp *d = calloc(1, sizeof(*d));

	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	d->zds = ZSTD_createDStream();
	if (!d->zds) {
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	ZSTD_initDStream(d->zds);
	return d;
}

void prism_decomp__free(struct prism_decomp *d)
{
	if (!d)
		return;
	ZSTD_freeDStream(d->zds);
	free(d);
}

/*
 * Decompress @len bytes into the caller's buffer, growing it in steps of
 * ZSTD_DStreamOutSize() but never past @max_out + 1 bytes of new output:
 * producing that one extra byte is how an over-long payload is detected
 * without first allocating whatever a corrupt stream claims.
 *
 * Note: zstd may keep decoded bytes inside its window when the output
 * buffer is full, so the loop runs until the input is used up *and* the
 * last call left room in the output.
 */
int prism_decomp__feed(struct prism_decomp *d, const void *src, size_t len, uint8_t **out,
		       size_t *out_len, size_t *out_cap, size_t max_out)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t start = *out_len, produced = 0, step = ZSTD_DStreamOutSize();
	int err, stalls = 0;

	if (!len)
		return 0;
	for (;;) {
		size_t room, before_in = in.pos, ret, limit = max_out - produced + 1;
		ZSTD_outBuffer ob;

		if (max_out == SIZE_MAX)
			limit = SIZE_MAX - produced;
		room = *out_cap - *out_len;
		if (room < step && room < limit) {
			size_t want = step < limit ? step : limit;

			if (want > SIZE_MAX - *out_len) {
				err = -ENOMEM;
				goto err_out;
			}
			err = prism_ensure_mem((void **)out, out_cap, 1, *out_len + want);
			if (err)
				goto err_out;
			room = *out_cap - *out_len;
		}
		ob.dst = *out + *out_len;
		ob.size = room < limit ? room : limit;
		ob.pos = 0;

		ret = ZSTD_decompressStream(d->zds, &ob, &in);
		if (ZSTD_isError(ret)) {
			pr_debug("zstd: cannot decompress a %zu-byte compressed record payload: %s",
				 len, ZSTD_getErrorName(ret));
			err = -PRISM_E_DECOMPRESS;
			goto err_out;
		}
		*out_len += ob.pos;
		produced += ob.pos;
		if (produced > max_out) {
			pr_debug("zstd: a %zu-byte payload expands beyond %zu bytes", len, max_out);
			err = -PRISM_E_DECOMPRESS;
			goto err_out;
		}
		if (in.pos == in.size && ob.pos < ob.size)
			break;
		if (in.pos != before_in || ob.pos) {
			stalls = 0;
		} else if (++stalls > 16) {
			/* zstd makes progress with room in both buffers: never loop forever */
			pr_debug("zstd: decoder made no progress on a %zu-byte payload", len);
			err = -PRISM_E_DECOMPRESS;
			goto err_out;
		}
	}
	return 0;

err_out:
	*out_len = start;
	ZSTD_DCtx_reset(d->zds, ZSTD_reset_session_only);
	return err;
}
