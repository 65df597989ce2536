// SPDX-License-Identifier: MIT
/*
 * zstd compression for `prism record -z`: one stream per output, never
 * ended, flushed after every input piece so each COMPRESSED record can be
 * decompressed as soon as it is read (what perf does).  Without libzstd the
 * functions fail with PRISM_E_NOFEATURE.
 */
#include "data/writer-internal.h"
#include "internal.h"

#if HAVE_LIBZSTD
#include <zstd.h>

struct wr_zstd {
	ZSTD_CStream *cs;
	uint8_t *rec; /* header + payload of the record being filled */
	size_t cap;
};

struct wr_zstd *wr_zstd__new(int level)
{
	struct wr_zstd *z = calloc(1, sizeof(*z));
	size_t r;

	if (!z)
		return NULL;
	z->cs = ZSTD_createCStream();
	if (!z->cs) {
		free(z);
		errno = ENOMEM;
		return NULL;
	}
	r = ZSTD_initCStream(z->cs, level);
	if (ZSTD_isError(r)) {
		pr_debug("zstd: init at level %d: %s", level, ZSTD_getErrorName(r));
		ZSTD_freeCStream(z->cs);
		free(z);
		errno = EINVAL;
		return NULL;
	}
	return z;
}

void wr_zstd__free(struct wr_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCStream(z->cs);
	free(z->rec);
	free(z);
}

int wr_zstd__compress(struct wr_zstd *z, const void *src, size_t len, size_t max_payload,
		      int (*emit)(void *ctx, const void *rec, size_t len), void *ctx)
{
	ZSTD_inBuffer in = { src, len, 0 };
	struct perf_event_header *h;
	size_t r;
	int err;

	if (!len)
		return 0;
	if (z->cap < max_payload + sizeof(*h)) {
		free(z->rec);
		z->rec = malloc(max_payload + sizeof(*h));
		if (!z->rec) {
			z->cap = 0;
			return -ENOMEM;
		}
		z->cap = max_payload + sizeof(*h);
	}
	h = (struct perf_event_header *)z->rec;
	do {
		ZSTD_outBuffer out = { z->rec + sizeof(*h), max_payload, 0 };

		r = ZSTD_compressStream2(z->cs, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(r)) {
			pr_err("zstd compression failed: %s", ZSTD_getErrorName(r));
			return -EIO;
		}
		if (out.pos) {
			h->type = PRISM_RECORD_COMPRESSED;
			h->misc = 0;
			h->size = (uint16_t)(out.pos + sizeof(*h));
			err = emit(ctx, z->rec, out.pos + sizeof(*h));
			if (err)
				return err;
		}
	} while (r != 0 || in.pos < in.size);
	return 0;
}

#else /* !HAVE_LIBZSTD */

struct wr_zstd *wr_zstd__new(int level)
{
	(void)level;
	errno = PRISM_E_NOFEATURE;
	return NULL;
}

void wr_zstd__free(struct wr_zstd *z)
{
	(void)z;
}

int wr_zstd__compress(struct wr_zstd *z, const void *src, size_t len, size_t max_payload,
		      int (*emit)(void *ctx, const void *rec, size_t len), void *ctx)
{
	return -PRISM_E_NOFEATURE;
}
#endif
