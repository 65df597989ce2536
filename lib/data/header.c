// SPDX-License-Identifier: MIT
/*
 * The perf.data file header (perf_file_header, attrs, ids, feature index)
 * and the pipe-mode header.  Offsets are followed, never assumed: perf
 * inject and old perf versions lay the sections out differently.
 */
#include <byteswap.h>
#include <stdarg.h>
#include <stdio.h>

#include <prism/features.h>

#include "internal.h"
#include "data/header.h"
#include "data/input.h"

#define PERF_MAGIC 0x32454c4946524550ull /* "PERFILE2" */
#define FILE_HEADER_SIZE 104
#define FILE_HEADER_SIZE_OLD 72
#define PIPE_HEADER_SIZE 16
#define MAX_ATTRS 65536
#define MAX_IDS_PER_ATTR (1u << 24)

static int fail(struct prism_file_header *h, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct prism_file_header *h, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

static uint64_t rd64(const uint8_t *p, bool swap)
{
	uint64_t v = get_u64(p);

	return swap ? bswap_64(v) : v;
}

static int read_ids(struct prism_file_header *h, struct prism_input *in, uint64_t off,
		    uint64_t size, struct prism_header_attr *ha)
{
	uint64_t *ids;
	size_t i, n;
	int err;

	if (size % 8 || size / 8 > MAX_IDS_PER_ATTR)
		return fail(h, -PRISM_E_BAD_HEADER, "attr ids section at %#llx has bad size %llu",
			    (unsigned long long)off, (unsigned long long)size);
	n = (size_t)(size / 8);
	if (!n)
		return 0;
	ids = malloc(n * 8);
	if (!ids)
		return -ENOMEM;
	err = prism_input__pread(in, ids, n * 8, off);
	if (err) {
		free(ids);
		return fail(h, err,
			    "attr ids section at %#llx (%zu bytes) lies past the end of the file",
			    (unsigned long long)off, n * 8);
	}
	if (h->info.needs_swap)
		for (i = 0; i < n; i++)
			ids[i] = bswap_64(ids[i]);
	ha->ids = ids;
	ha->nr_ids = n;
	return 0;
}

static int read_attrs(struct prism_file_header *h, struct prism_input *in)
{
	const struct prism_file_info *fi = &h->info;
	uint64_t nr, i;
	uint8_t *buf;
	int err = 0;

	if (!fi->attr_size)
		return fail(h, -PRISM_E_BAD_HEADER, "header: attr_size is 0");
	if (fi->attr_size < PERF_ATTR_SIZE_VER0 + 16 || fi->attr_size > 4096)
		return fail(h, -PRISM_E_BAD_HEADER,
			    "header: attr_size %llu is not a perf_event_attr size",
			    (unsigned long long)fi->attr_size);
	nr = fi->attrs_size / fi->attr_size;
	if (nr > MAX_ATTRS)
		return fail(h, -PRISM_E_BAD_HEADER, "header: %llu attrs is more than prism accepts",
			    (unsigned long long)nr);
	h->attrs = calloc(nr ? nr : 1, sizeof(*h->attrs));
	buf = malloc(fi->attr_size);
	if (!h->attrs || !buf) {
		free(buf);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		uint64_t off = fi->attrs_offset + i * fi->attr_size;
		struct prism_header_attr *ha = &h->attrs[i];

		err = prism_input__pread(in, buf, fi->attr_size, off);
		if (err) {
			fail(h, err, "attr %llu at offset %#llx lies past the end of the file",
			     (unsigned long long)i, (unsigned long long)off);
			break;
		}
		/* the ids section is the last 16 bytes of the entry, whatever attr.size says */
		err = prism_attr__read(&ha->a, buf, fi->attr_size - 16, fi->needs_swap);
		if (err) {
			fail(h, err, "attr %llu at offset %#llx: bad attr.size",
			     (unsigned long long)i, (unsigned long long)off);
			break;
		}
		err = read_ids(h, in, rd64(buf + fi->attr_size - 16, fi->needs_swap),
			       rd64(buf + fi->attr_size - 8, fi->needs_swap), ha);
		if (err)
			break;
		h->nr_attrs++;
	}
	free(buf);
	return err;
}

/* the feature index at data.offset + data.size: one section per set bit */
static int read_feature_index(struct prism_file_header *h, struct prism_input *in)
{
	const struct prism_file_info *fi = &h->info;
	unsigned int bit, nth = 0;

	h->feats = calloc(PRISM_FEAT_BITS, sizeof(*h->feats));
	if (!h->feats)
		return -ENOMEM;
	for (bit = 0; bit < PRISM_FEAT_BITS; bit++) {
		uint64_t at = fi->feat_offset + 16ull * nth;
		struct prism_header_feat *f = &h->feats[h->nr_feats];
		uint8_t sec[16];

		if (!(fi->features[bit / 64] & (1ull << (bit % 64))))
			continue;
		nth++;
		if (prism_input__pread(in, sec, sizeof(sec), at)) {
			pr_warn("header: feature index entry for feature %u at %#llx lies past the end of the file; features from here on are ignored",
				bit, (unsigned long long)at);
			return 0;
		}
		f->bit = bit;
		f->offset = rd64(sec, fi->needs_swap);
		f->size = rd64(sec + 8, fi->needs_swap);
		if (f->size && !range_ok(f->offset, f->size, fi->file_size)) {
			pr_warn("header: feature %u section (offset %#llx, %llu bytes) lies past the end of the file; ignored",
				bit, (unsigned long long)f->offset, (unsigned long long)f->size);
			continue;
		}
		h->nr_feats++;
	}
	return 0;
}

/* the 256-bit feature bitmap at header offset 72 */
static void read_feature_bits(struct prism_file_info *fi, const uint8_t *b)
{
	int i;

	for (i = 0; i < 4; i++)
		fi->features[i] = rd64(b + 8 * i, fi->needs_swap);
	if (!fi->needs_swap || !fi->features[0] || fi->features[0] & (1ull << PRISM_FEAT_HOSTNAME))
		return;
	/*
	 * A 32-bit writer's bitmap is an array of u32 (perf_file_header__read):
	 * perf takes HOSTNAME, always written since perf 3.x, as the witness
	 * of the right word size.
	 */
	for (i = 0; i < 4; i++) {
		uint64_t raw = get_u64(b + 8 * i);
		uint32_t lo = bswap_32((uint32_t)raw), hi = bswap_32((uint32_t)(raw >> 32));

		fi->features[i] = lo | (uint64_t)hi << 32;
	}
}

static int read_file_header(struct prism_file_header *h, struct prism_input *in, const uint8_t *b)
{
	struct prism_file_info *fi = &h->info;
	bool swap = fi->needs_swap;
	int err;

	fi->header_size = rd64(b + 8, swap);
	if (fi->header_size != FILE_HEADER_SIZE_OLD && fi->header_size < FILE_HEADER_SIZE)
		return fail(h, -PRISM_E_BAD_HEADER, "header: size %llu is neither 104 nor 72",
			    (unsigned long long)fi->header_size);
	fi->attr_size = rd64(b + 16, swap);
	fi->attrs_offset = rd64(b + 24, swap);
	fi->attrs_size = rd64(b + 32, swap);
	fi->data_offset = rd64(b + 40, swap);
	fi->data_size = rd64(b + 48, swap);
	if (fi->header_size >= FILE_HEADER_SIZE)
		read_feature_bits(fi, b + 72);
	if (fi->data_offset < fi->header_size || fi->data_offset > fi->file_size)
		return fail(h, -PRISM_E_BAD_HEADER,
			    "header: data section offset %#llx is outside the file (size %llu)",
			    (unsigned long long)fi->data_offset, (unsigned long long)fi->file_size);
	if (!range_ok(fi->attrs_offset, fi->attrs_size, fi->file_size))
		return fail(h, -PRISM_E_BAD_HEADER,
			    "header: attrs section (offset %#llx, %llu bytes) is outside the file",
			    (unsigned long long)fi->attrs_offset,
			    (unsigned long long)fi->attrs_size);
	if (fi->data_size == 0) {
		pr_warn("data size is 0: the recording did not finish; reading records up to the end of the file");
		fi->data_size = fi->file_size - fi->data_offset;
		memset(fi->features, 0, sizeof(fi->features));
	} else if (fi->data_size > fi->file_size - fi->data_offset) {
		pr_warn("data section (offset %#llx, %llu bytes) runs past the end of the file (%llu bytes): the file is truncated",
			(unsigned long long)fi->data_offset, (unsigned long long)fi->data_size,
			(unsigned long long)fi->file_size);
		memset(fi->features, 0, sizeof(fi->features));
	}
	fi->feat_offset = fi->data_offset + fi->data_size;

	err = read_attrs(h, in);
	if (err)
		return err;
	return read_feature_index(h, in);
}

/*
 * The byte order of a version-1 file.  Its magic "PERFFILE" reads the same
 * in both orders, so perf (try_all_file_abis) takes the order in which
 * attr_size is one of the attr sizes of that era, VER0-VER4 (64-104 bytes)
 * plus the 16-byte ids section; pipe streams are told by their header
 * size, 16.
 */
static int v1_byte_order(struct prism_file_header *h, const uint8_t *b)
{
	static const uint64_t attr_sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4,
	};
	uint64_t size = get_u64(b + 8), attr_size = get_u64(b + 16);
	size_t i;

	if (size == PIPE_HEADER_SIZE || bswap_64(size) == PIPE_HEADER_SIZE) {
		h->info.needs_swap = size != PIPE_HEADER_SIZE;
		return 0;
	}
	for (i = 0; i < PRISM_ARRAY_SIZE(attr_sizes); i++) {
		if (attr_size == attr_sizes[i] + 16)
			return 0;
		if (bswap_64(attr_size) == attr_sizes[i] + 16) {
			h->info.needs_swap = true;
			return 0;
		}
	}
	return fail(
		h, -PRISM_E_BAD_HEADER,
		"version-1 perf.data header (magic PERFFILE) with attr_size %#llx: in neither byte order one of the sizes perf wrote (80, 88, 96, 112, 120)",
		(unsigned long long)attr_size);
}

int prism_file_header__read(struct prism_file_header *h, struct prism_input *in)
{
	struct prism_file_info *fi = &h->info;
	uint8_t b[FILE_HEADER_SIZE] = { 0 };
	uint64_t magic, size;
	int err;

	memset(h, 0, sizeof(*h));
	fi->file_size = prism_input__size(in);
	if (prism_input__is_pipe(in)) {
		const void *p = prism_input__peek(in, PIPE_HEADER_SIZE, &err);

		if (!p)
			return fail(h, err ? err : -PRISM_E_TRUNCATED,
				    "the input is empty or shorter than a perf.data header");
		memcpy(b, p, PIPE_HEADER_SIZE);
	} else {
		size_t n = fi->file_size < sizeof(b) ? (size_t)fi->file_size : sizeof(b);

		if (n < PIPE_HEADER_SIZE)
			return fail(
				h, -PRISM_E_TRUNCATED,
				"the file is empty or shorter than a perf.data header (%zu bytes)",
				n);
		err = prism_input__pread(in, b, n, 0);
		if (err)
			return err;
	}
	magic = get_u64(b);
	fi->version = 1;
	if (magic == PERF_MAGIC) {
		fi->needs_swap = false;
	} else if (magic == bswap_64(PERF_MAGIC)) {
		fi->needs_swap = true;
	} else if (!memcmp(b, "PERFFILE", 8)) {
		fi->version = 0;
		err = v1_byte_order(h, b);
		if (err)
			return err;
	} else {
		return fail(h, -PRISM_E_BAD_MAGIC,
			    "bad magic %#018llx at offset 0: not a perf.data file",
			    (unsigned long long)magic);
	}
	size = rd64(b + 8, fi->needs_swap);
	if (size == PIPE_HEADER_SIZE) {
		fi->pipe = true;
		fi->header_size = PIPE_HEADER_SIZE;
		fi->data_offset = PIPE_HEADER_SIZE;
		fi->data_size = fi->file_size ? fi->file_size - PIPE_HEADER_SIZE : 0;
		if (prism_input__is_pipe(in))
			return prism_input__skip(in, PIPE_HEADER_SIZE);
		return 0;
	}
	if (prism_input__is_pipe(in))
		return fail(
			h, -PRISM_E_UNSUPPORTED,
			"the input is a pipe but holds a file-mode perf.data header (size %llu); pass the file by name instead",
			(unsigned long long)size);
	return read_file_header(h, in, b);
}

void prism_file_header__release(struct prism_file_header *h)
{
	size_t i;

	for (i = 0; i < h->nr_attrs; i++)
		free(h->attrs[i].ids);
	zfree(&h->attrs);
	zfree(&h->feats);
	h->nr_attrs = h->nr_feats = 0;
}
