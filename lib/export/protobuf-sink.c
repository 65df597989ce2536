// SPDX-License-Identifier: MIT
/*
 * The protobuf output sink: plain bytes to a stdio stream, or one gzip
 * member through zlib (pprof's files are gzipped profile.proto).
 */
#include "internal.h"
#include "export/protobuf.h"
#include "export/gzip.h"

struct pb_sink {
	FILE *fp;
	struct gz_writer *gz;
	uint64_t bytes;
	int err;
};

struct pb_sink *pb_sink_new(FILE *fp, bool gzip)
{
	struct pb_sink *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return NULL;
	s->fp = fp;
	if (gzip) {
		err = gz_writer_new(fp, &s->gz);
		if (err) {
			free(s);
			errno = -err;
			return NULL;
		}
	}
	return s;
}

int pb_sink_write(struct pb_sink *s, const void *data, size_t len)
{
	if (s->err || !len)
		return s->err;
	s->bytes += len;
	if (s->gz)
		s->err = gz_writer_write(s->gz, data, len);
	else if (fwrite(data, 1, len, s->fp) != len)
		s->err = -(errno ? errno : EIO);
	return s->err;
}

int pb_sink_msg(struct pb_sink *s, unsigned int field, const struct pb *msg)
{
	uint8_t hdr[20];
	struct pb h = { .buf = hdr, .alloc = sizeof(hdr) };

	if (msg->failed)
		return s->err ? s->err : (s->err = -ENOMEM);
	/* tag and length fit the fixed buffer: no allocation happens */
	pb_raw_varint(&h, (uint64_t)field << 3 | 2);
	pb_raw_varint(&h, msg->len);
	pb_sink_write(s, hdr, h.len);
	return pb_sink_write(s, msg->buf, msg->len);
}

uint64_t pb_sink_bytes(const struct pb_sink *s)
{
	return s->bytes;
}

int pb_sink_finish(struct pb_sink *s)
{
	int err;

	if (!s)
		return 0;
	err = s->err;
	if (s->gz) {
		int e = gz_writer_finish(s->gz);

		if (!err)
			err = e;
	}
	if (!err && fflush(s->fp))
		err = -(errno ? errno : EIO);
	free(s);
	return err;
}
