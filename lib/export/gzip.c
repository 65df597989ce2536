// SPDX-License-Identifier: MIT
/*
 * gzip output through zlib: deflate with windowBits 15 + 16 (the gzip
 * header and CRC trailer), level 6, flushed into a 64 KiB buffer.
 */
#include <zlib.h>

#include "internal.h"
#include "export/gzip.h"

#define GZ_OUT 65536

struct gz_writer {
	FILE *fp;
	z_stream z;
	uint8_t out[GZ_OUT];
};

int gz_writer_new(FILE *fp, struct gz_writer **out)
{
	struct gz_writer *gz = calloc(1, sizeof(*gz));

	if (!gz)
		return -ENOMEM;
	gz->fp = fp;
	if (deflateInit2(&gz->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(gz);
		return -ENOMEM;
	}
	*out = gz;
	return 0;
}

static int pump(struct gz_writer *gz, int flush)
{
	int ret;

	do {
		size_t n;

		gz->z.next_out = gz->out;
		gz->z.avail_out = GZ_OUT;
		ret = deflate(&gz->z, flush);
		if (ret == Z_STREAM_ERROR)
			return -EINVAL;
		n = GZ_OUT - gz->z.avail_out;
		if (n && fwrite(gz->out, 1, n, gz->fp) != n)
			return -(errno ? errno : EIO);
	} while (gz->z.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
	return 0;
}

int gz_writer_write(struct gz_writer *gz, const void *data, size_t len)
{
	int err;

	/* avail_in is 32 bits: feed large buffers in pieces */
	while (len) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;

		gz->z.next_in = (Bytef *)data;
		gz->z.avail_in = n;
		err = pump(gz, Z_NO_FLUSH);
		if (err)
			return err;
		data = (const uint8_t *)data + n;
		len -= n;
	}
	return 0;
}

int gz_writer_finish(struct gz_writer *gz)
{
	int err;

	gz->z.next_in = NULL;
	gz->z.avail_in = 0;
	err = pump(gz, Z_FINISH);
	deflateEnd(&gz->z);
	free(gz);
	return err;
}
