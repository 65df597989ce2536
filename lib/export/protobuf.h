/* SPDX-License-Identifier: MIT */
/*
 * A small protobuf encoder (the wire format only: varints, 64-bit and
 * length-delimited fields) and an output sink that writes the bytes to a
 * stdio stream, optionally through gzip.  No schema: callers write field
 * numbers from the published .proto files.
 *
 * A message is built into a struct pb (a growable byte buffer); a nested
 * message is built into its own pb and appended with pb_msg(), which writes
 * its length first.  Allocation failures are sticky (pb->failed), so a
 * message can be built freely and checked once.
 */
#ifndef PRISM_EXPORT_PROTOBUF_H
#define PRISM_EXPORT_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pb {
	uint8_t *buf;
	size_t len, alloc;
	bool failed;
};

#define PB_INIT \
	{       \
	}

void pb_release(struct pb *pb);
static inline void pb_reset(struct pb *pb)
{
	pb->len = 0;
}

/* raw bytes and a bare varint (no tag) */
void pb_raw(struct pb *pb, const void *data, size_t len);
void pb_raw_varint(struct pb *pb, uint64_t v);

/* wire type 0: uint64/int64/bool/enum (negative int64 take 10 bytes, as protobuf's) */
void pb_varint(struct pb *pb, unsigned int field, uint64_t v);
/* sint64: zigzag */
void pb_sint(struct pb *pb, unsigned int field, int64_t v);
/* wire type 1: fixed64 / double */
void pb_fixed64(struct pb *pb, unsigned int field, uint64_t v);
void pb_double(struct pb *pb, unsigned int field, double v);
/* wire type 2 */
void pb_bytes(struct pb *pb, unsigned int field, const void *data, size_t len);
void pb_string(struct pb *pb, unsigned int field, const char *s);
void pb_msg(struct pb *pb, unsigned int field, const struct pb *sub);
/* a packed repeated varint field (omitted when @n is 0) */
void pb_packed(struct pb *pb, unsigned int field, const uint64_t *v, size_t n);

/* bytes a varint of @v takes */
size_t pb_varint_size(uint64_t v);

/*
 * The output sink: bytes go to @fp, deflated into one gzip member when
 * @gzip.  Errors are sticky and returned by pb_sink_finish().
 */
struct pb_sink;
/* NULL with errno set (-PRISM_E_NOFEATURE as errno PRISM_E_NOFEATURE without zlib) */
struct pb_sink *pb_sink_new(FILE *fp, bool gzip);
int pb_sink_write(struct pb_sink *s, const void *data, size_t len);
/* write a message's bytes (as pb_msg would, without keeping them) */
int pb_sink_msg(struct pb_sink *s, unsigned int field, const struct pb *msg);
/* bytes written before compression */
uint64_t pb_sink_bytes(const struct pb_sink *s);
/* flush (ends the gzip member) and free; 0 or the first error (-errno); accepts NULL */
int pb_sink_finish(struct pb_sink *s);

#endif /* PRISM_EXPORT_PROTOBUF_H */
