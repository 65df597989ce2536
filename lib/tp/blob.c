// SPDX-License-Identifier: MIT
/*
 * Walk a perf tracing-data blob (trace-event-info.c writes it, perf's
 * trace-event-read.c reads it) and locate its sections.  The blob is
 * untrusted: every count and size is checked against the bytes left before
 * anything is read, and nothing is handed on to a parser until the whole
 * walk has succeeded.
 */
#include "internal.h"
#include "tp/blob.h"

struct cursor {
	const uint8_t *p;
	size_t left;
	bool swap; /* the blob's byte order is not the host's */
};

static int take(struct cursor *c, size_t n, const uint8_t **out)
{
	if (n > c->left)
		return -PRISM_E_TRUNCATED;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

static int take_u32(struct cursor *c, uint32_t *v)
{
	const uint8_t *p;
	int err = take(c, 4, &p);

	if (err)
		return err;
	*v = get_u32(p);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	return 0;
}

static int take_u64(struct cursor *c, uint64_t *v)
{
	const uint8_t *p;
	int err = take(c, 8, &p);

	if (err)
		return err;
	*v = get_u64(p);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	return 0;
}

/* a NUL-terminated string; the NUL must lie inside the blob */
static int take_str(struct cursor *c, const char **s)
{
	const uint8_t *nul = memchr(c->p, '\0', c->left);
	const uint8_t *p;

	if (!nul)
		return -PRISM_E_TRUNCATED;
	*s = (const char *)c->p;
	return take(c, (size_t)(nul - c->p) + 1, &p);
}

/* a u32- or u64-sized length followed by that many bytes */
static int take_piece(struct cursor *c, bool len64, struct tp_blob_piece *piece)
{
	const uint8_t *p;
	uint64_t n;
	uint32_t n32 = 0;
	int err;

	if (len64) {
		err = take_u64(c, &n);
	} else {
		err = take_u32(c, &n32);
		n = n32;
	}
	if (err)
		return err;
	if (n > c->left)
		return -PRISM_E_TRUNCATED;
	err = take(c, (size_t)n, &p);
	piece->data = (const char *)p;
	piece->size = (size_t)n;
	return err;
}

/* "header_page\0" + u64 size + bytes, as read_header_files() expects */
static int take_named_piece(struct cursor *c, const char *name, struct tp_blob_piece *piece)
{
	size_t n = strlen(name) + 1;
	const uint8_t *p;
	int err = take(c, n, &p);

	if (err)
		return err;
	if (memcmp(p, name, n)) {
		pr_debug("tp: tracing data: expected section '%s'", name);
		return -PRISM_E_TRACEPOINT;
	}
	return take_piece(c, true, piece);
}

/* u32 count, count x (u64 size, bytes) */
static int take_formats(struct cursor *c, struct tp_blob *b, const char *system, size_t *cap)
{
	uint32_t i, count;
	int err = take_u32(c, &count);

	for (i = 0; !err && i < count; i++) {
		/* each format needs at least its 8-byte size: bounds the count */
		if (c->left < 8)
			return -PRISM_E_TRUNCATED;
		err = prism_ensure_mem((void **)&b->formats, cap, sizeof(*b->formats),
				       b->nr_formats + 1);
		if (err)
			return err;
		b->formats[b->nr_formats].system = system;
		err = take_piece(c, true, &b->formats[b->nr_formats].text);
		if (!err)
			b->nr_formats++;
	}
	return err;
}

/*
 * perf compares the version with atof(version) >= 0.6, so "0.10" is older
 * than "0.6" for it; do the same without depending on the locale.
 */
static bool version_has_cmdlines(const char *v)
{
	bool major = false; /* a nonzero integer part: only that matters, however long */

	while (*v >= '0' && *v <= '9')
		major |= *v++ != '0';
	if (major)
		return true;
	return v[0] == '.' && v[1] >= '6' && v[1] <= '9';
}

static int walk(struct cursor *c, struct tp_blob *b)
{
	static const uint8_t magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint8_t *p;
	uint32_t i, nr_systems;
	size_t cap = 0;
	int err;

	err = take(c, sizeof(magic), &p);
	if (err)
		return err;
	if (memcmp(p, magic, sizeof(magic))) {
		pr_debug("tp: tracing data: bad magic");
		return -PRISM_E_TRACEPOINT;
	}
	err = take_str(c, &b->version);
	if (!err)
		err = take(c, 2, &p);
	if (err)
		return err;
	b->big_endian = p[0];
	b->long_size = p[1];
	if (b->long_size != 4 && b->long_size != 8) {
		pr_debug("tp: tracing data: unsupported long size %u", b->long_size);
		return -PRISM_E_TRACEPOINT;
	}
	c->swap = b->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	err = take_u32(c, &b->page_size);
	if (!err)
		err = take_named_piece(c, "header_page", &b->header_page);
	if (!err)
		err = take_named_piece(c, "header_event", &b->header_event);
	if (!err)
		err = take_formats(c, b, "ftrace", &cap);
	b->nr_ftrace = b->nr_formats;
	if (!err)
		err = take_u32(c, &nr_systems);
	for (i = 0; !err && i < nr_systems; i++) {
		const char *system;

		err = take_str(c, &system);
		if (!err)
			err = take_formats(c, b, system, &cap);
	}
	if (!err)
		err = take_piece(c, false, &b->kallsyms);
	if (!err)
		err = take_piece(c, false, &b->printk);
	if (!err && version_has_cmdlines(b->version))
		err = take_piece(c, true, &b->cmdlines);
	return err;
}

int tp_blob__parse(struct tp_blob *b, const void *data, size_t size)
{
	struct cursor c = { .p = data, .left = size };
	int err;

	memset(b, 0, sizeof(*b));
	if (!data && size)
		return -EINVAL;
	err = walk(&c, b);
	if (err)
		tp_blob__release(b);
	return err;
}

void tp_blob__release(struct tp_blob *b)
{
	zfree(&b->formats);
	memset(b, 0, sizeof(*b));
}
