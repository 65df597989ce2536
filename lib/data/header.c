// SPDX-License-Identifier: MIT
/*
 * The perf.data file header (perf_file_header, attrs, ids, feature index)
 * and the pipe-mode header.  Offsets are followed, never assumed: perf
 * inject and old perf versions lay the sections out differently.
 */
#include <byteswap.h>

#include "internal.h"
#include "session/session-internal.h"
#include "data/attr.h"
#include "data/input.h"

#define PERF_MAGIC 0x32454c4946524550ull /* "PERFILE2" */
#define PERF_MAGIC_V1 0x454c494652455050ull /* "PERFFILE" */
#define FILE_HEADER_SIZE 104
#define FILE_HEADER_SIZE_OLD 72
#define PIPE_HEADER_SIZE 16
#define MAX_ATTRS 65536
#define MAX_IDS_PER_ATTR (1u << 24)

static uint64_t rd64(const uint8_t *p, bool swap)
{
	uint64_t v = get_u64(p);

	return swap ? bswap_64(v) : v;
}

static int read_ids(struct prism_session *s, uint64_t off, uint64_t size, uint64_t **out,
		    size_t *nr)
{
	bool swap = s->info.needs_swap;
	uint64_t *ids;
	size_t i, n;
	int err;

	*out = NULL;
	*nr = 0;
	if (size % 8 || size / 8 > MAX_IDS_PER_ATTR)
		return prism_session__set_error(s, "attr ids section at %#llx has bad size %llu",
						(unsigned long long)off, (unsigned long long)size),
		       -PRISM_E_BAD_HEADER;
	n = (size_t)(size / 8);
	if (!n)
		return 0;
	ids = malloc(n * 8);
	if (!ids)
		return -ENOMEM;
	err = prism_input__pread(s->in, ids, n * 8, off);
	if (err) {
		free(ids);
		return prism_session__set_error(
			       s,
			       "attr ids section at %#llx (%zu bytes) lies past the end of the file",
			       (unsigned long long)off, n * 8),
		       err;
	}
	if (swap)
		for (i = 0; i < n; i++)
			ids[i] = bswap_64(ids[i]);
	*out = ids;
	*nr = n;
	return 0;
}

static int read_attrs(struct prism_session *s)
{
	const struct prism_file_info *fi = &s->info;
	uint64_t nr, i;
	uint8_t *buf = NULL;
	int err = 0;

	if (!fi->attr_size)
		return prism_session__set_error(s, "header: attr_size is 0"), -PRISM_E_BAD_HEADER;
	if (fi->attr_size < PERF_ATTR_SIZE_VER0 + 16 || fi->attr_size > 4096)
		return prism_session__set_error(
			       s, "header: attr_size %llu is not a perf_event_attr size",
			       (unsigned long long)fi->attr_size),
		       -PRISM_E_BAD_HEADER;
	nr = fi->attrs_size / fi->attr_size;
	if (nr > MAX_ATTRS)
		return prism_session__set_error(s, "header: %llu attrs is more than prism accepts",
						(unsigned long long)nr),
		       -PRISM_E_BAD_HEADER;
	buf = malloc(fi->attr_size);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		uint64_t off = fi->attrs_offset + i * fi->attr_size;
		struct prism_attr_ext a;
		uint64_t *ids;
		size_t nr_ids;

		err = prism_input__pread(s->in, buf, fi->attr_size, off);
		if (err) {
			prism_session__set_error(
				s, "attr %llu at offset %#llx lies past the end of the file",
				(unsigned long long)i, (unsigned long long)off);
			break;
		}
		/* the ids section is the last 16 bytes of the entry, whatever attr.size says */
		err = prism_attr__read(&a, buf, fi->attr_size - 16, fi->needs_swap);
		if (err) {
			prism_session__set_error(s, "attr %llu at offset %#llx: bad attr.size",
						 (unsigned long long)i, (unsigned long long)off);
			break;
		}
		err = read_ids(s, rd64(buf + fi->attr_size - 16, fi->needs_swap),
			       rd64(buf + fi->attr_size - 8, fi->needs_swap), &ids, &nr_ids);
		if (err)
			break;
		err = prism_session__add_evsel(s, &a, ids, nr_ids, NULL);
		free(ids);
		if (err)
			break;
	}
	free(buf);
	return err;
}

static int read_features(struct prism_session *s)
{
	const struct prism_file_info *fi = &s->info;
	uint64_t table = fi->feat_offset;
	unsigned int bit, nth = 0;
	int err;

	for (bit = 0; bit < PRISM_FEAT_BITS; bit++) {
		uint8_t sec[16];
		uint64_t off, size;
		void *data;

		if (!(fi->features[bit / 64] & (1ull << (bit % 64))))
			continue;
		err = prism_input__pread(s->in, sec, sizeof(sec), table + 16ull * nth++);
		if (err) {
			pr_warn("header: feature index entry for feature %u at %#llx lies past the end of the file; features from here on are ignored",
				bit, (unsigned long long)(table + 16ull * (nth - 1)));
			return 0;
		}
		off = rd64(sec, fi->needs_swap);
		size = rd64(sec + 8, fi->needs_swap);
		if (!size) {
			/* flag features (BRANCH_STACK, STAT) have no payload */
			err = prism_session__decode_feature(s, bit, "", 0);
			if (err == -ENOMEM)
				return err;
			continue;
		}
		if (size > fi->file_size || off > fi->file_size - size) {
			pr_warn("header: feature %u section (offset %#llx, %llu bytes) lies past the end of the file; ignored",
				bit, (unsigned long long)off, (unsigned long long)size);
			continue;
		}
		data = malloc(size);
		if (!data)
			return -ENOMEM;
		err = prism_input__pread(s->in, data, size, off);
		if (!err)
			err = prism_session__decode_feature(s, bit, data, size);
		free(data);
		if (err == -ENOMEM)
			return err;
	}
	return 0;
}

static int read_file_header(struct prism_session *s, const uint8_t *h)
{
	struct prism_file_info *fi = &s->info;
	bool swap = fi->needs_swap;
	int i, err;

	fi->header_size = rd64(h + 8, swap);
	if (fi->header_size != FILE_HEADER_SIZE && fi->header_size != FILE_HEADER_SIZE_OLD &&
	    fi->header_size < FILE_HEADER_SIZE)
		return prism_session__set_error(s, "header: size %llu is neither 104 nor 72",
						(unsigned long long)fi->header_size),
		       -PRISM_E_BAD_HEADER;
	fi->attr_size = rd64(h + 16, swap);
	fi->attrs_offset = rd64(h + 24, swap);
	fi->attrs_size = rd64(h + 32, swap);
	fi->data_offset = rd64(h + 40, swap);
	fi->data_size = rd64(h + 48, swap);
	if (fi->header_size >= FILE_HEADER_SIZE)
		for (i = 0; i < 4; i++)
			fi->features[i] = rd64(h + 72 + 8 * i, swap);
	if (swap && fi->features[0] && !(fi->features[0] & (1ull << 3))) {
		/* a 32-bit writer: the bitmap is an array of u32 (perf_file_header__read) */
		for (i = 0; i < 4; i++) {
			uint64_t raw = get_u64(h + 72 + 8 * i);
			uint32_t lo = bswap_32((uint32_t)raw), hi = bswap_32((uint32_t)(raw >> 32));

			fi->features[i] = lo | (uint64_t)hi << 32;
		}
	}
	if (fi->data_offset < fi->header_size || fi->data_offset > fi->file_size)
		return prism_session__set_error(
			       s,
			       "header: data section offset %#llx is outside the file (size %llu)",
			       (unsigned long long)fi->data_offset,
			       (unsigned long long)fi->file_size),
		       -PRISM_E_BAD_HEADER;
	if (fi->attrs_offset > fi->file_size || fi->attrs_size > fi->file_size - fi->attrs_offset)
		return prism_session__set_error(
			       s,
			       "header: attrs section (offset %#llx, %llu bytes) is outside the file",
			       (unsigned long long)fi->attrs_offset,
			       (unsigned long long)fi->attrs_size),
		       -PRISM_E_BAD_HEADER;
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

	err = read_attrs(s);
	if (err)
		return err;
	prism_session__update_id_pos(s);
	return read_features(s);
}

int prism_session__read_header(struct prism_session *s)
{
	struct prism_file_info *fi = &s->info;
	uint8_t h[FILE_HEADER_SIZE] = { 0 };
	uint64_t magic, size;
	int err;

	fi->file_size = prism_input__size(s->in);
	if (prism_input__is_pipe(s->in)) {
		const void *p = prism_input__peek(s->in, PIPE_HEADER_SIZE, &err);

		if (!p)
			return prism_session__set_error(
				       s, "the input is empty or shorter than a perf.data header"),
			       err ? err : -PRISM_E_TRUNCATED;
		memcpy(h, p, PIPE_HEADER_SIZE);
	} else {
		size_t n = fi->file_size < sizeof(h) ? (size_t)fi->file_size : sizeof(h);

		if (n < PIPE_HEADER_SIZE)
			return prism_session__set_error(
				       s,
				       "the file is empty or shorter than a perf.data header (%zu bytes)",
				       n),
			       -PRISM_E_TRUNCATED;
		err = prism_input__pread(s->in, h, n, 0);
		if (err)
			return err;
	}
	magic = get_u64(h);
	if (magic == PERF_MAGIC) {
		fi->needs_swap = false;
	} else if (magic == bswap_64(PERF_MAGIC)) {
		fi->needs_swap = true;
	} else if (magic == PERF_MAGIC_V1 || magic == bswap_64(PERF_MAGIC_V1)) {
		return prism_session__set_error(
			       s,
			       "this is a version 1 perf.data file (magic PERFFILE), from perf before 2.6.39; prism reads version 2 files"),
		       -PRISM_E_UNSUPPORTED;
	} else {
		return prism_session__set_error(
			       s, "bad magic %#018llx at offset 0: not a perf.data file",
			       (unsigned long long)magic),
		       -PRISM_E_BAD_MAGIC;
	}
	size = get_u64(h + 8);
	if (fi->needs_swap)
		size = bswap_64(size);
	if (size == PIPE_HEADER_SIZE) {
		fi->pipe = true;
		fi->header_size = PIPE_HEADER_SIZE;
		fi->data_offset = PIPE_HEADER_SIZE;
		fi->data_size = fi->file_size ? fi->file_size - PIPE_HEADER_SIZE : 0;
		if (prism_input__is_pipe(s->in))
			return prism_input__skip(s->in, PIPE_HEADER_SIZE);
		return 0;
	}
	if (prism_input__is_pipe(s->in))
		return prism_session__set_error(
			       s,
			       "the input is a pipe but holds a file-mode perf.data header (size %llu); pass the file by name instead",
			       (unsigned long long)size),
		       -PRISM_E_UNSUPPORTED;
	return read_file_header(s, h);
}
