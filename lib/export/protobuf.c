// SPDX-License-Identifier: MIT
/*
 * The protobuf wire format (encoding only): a varint is 7 bits per byte,
 * low group first, the top bit set on every byte but the last; a field is
 * its tag varint (field number << 3 | wire type) and its value.
 */
#include "internal.h"
#include "export/protobuf.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

void pb_release(struct pb *pb)
{
	free(pb->buf);
	pb->buf = NULL;
	pb->len = pb->alloc = 0;
	pb->failed = false;
}

static bool room(struct pb *pb, size_t extra)
{
	if (pb->failed)
		return false;
	if (extra > SIZE_MAX - pb->len ||
	    prism_ensure_mem((void **)&pb->buf, &pb->alloc, 1, pb->len + extra)) {
		pb->failed = true;
		return false;
	}
	return true;
}

void pb_raw(struct pb *pb, const void *data, size_t len)
{
	if (!len || !room(pb, len))
		return;
	memcpy(pb->buf + pb->len, data, len);
	pb->len += len;
}

size_t pb_varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

void pb_raw_varint(struct pb *pb, uint64_t v)
{
	if (!room(pb, 10))
		return;
	pb->len += put_varint(pb->buf + pb->len, v);
}

static void tag(struct pb *pb, unsigned int field, unsigned int wt)
{
	pb_raw_varint(pb, (uint64_t)field << 3 | wt);
}

void pb_varint(struct pb *pb, unsigned int field, uint64_t v)
{
	tag(pb, field, WT_VARINT);
	pb_raw_varint(pb, v);
}

void pb_sint(struct pb *pb, unsigned int field, int64_t v)
{
	pb_varint(pb, field, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void pb_fixed64(struct pb *pb, unsigned int field, uint64_t v)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	tag(pb, field, WT_I64);
	pb_raw(pb, b, sizeof(b));
}

void pb_double(struct pb *pb, unsigned int field, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	pb_fixed64(pb, field, u);
}

void pb_bytes(struct pb *pb, unsigned int field, const void *data, size_t len)
{
	tag(pb, field, WT_LEN);
	pb_raw_varint(pb, len);
	pb_raw(pb, data, len);
}

void pb_string(struct pb *pb, unsigned int field, const char *s)
{
	pb_bytes(pb, field, s, strlen(s));
}

void pb_msg(struct pb *pb, unsigned int field, const struct pb *sub)
{
	if (sub->failed)
		pb->failed = true;
	pb_bytes(pb, field, sub->buf, sub->len);
}

void pb_packed(struct pb *pb, unsigned int field, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		len += pb_varint_size(v[i]);
	tag(pb, field, WT_LEN);
	pb_raw_varint(pb, len);
	if (!room(pb, len))
		return;
	for (i = 0; i < n; i++)
		pb->len += put_varint(pb->buf + pb->len, v[i]);
}
