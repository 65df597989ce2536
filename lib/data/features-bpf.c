// SPDX-License-Identifier: MIT
/*
 * BPF_PROG_INFO and BPF_BTF: the BPF programs and BTF blobs that were loaded
 * while recording, and perf's names for the programs ("bpf_prog_<tag>_<name>").
 */
#include <byteswap.h>
#include <stdio.h>

#include "data/features-internal.h"

/*
 * Offsets in struct bpf_prog_info (uapi linux/bpf.h).  The stored struct
 * has the writer's info_len bytes; fields past it read as 0.
 */
enum {
	BPI_TYPE = 0,
	BPI_ID = 4,
	BPI_TAG = 8,
	BPI_NAME = 64,
	BPI_NR_JITED_KSYMS = 104,
	BPI_NR_JITED_FUNC_LENS = 108,
	BPI_JITED_KSYMS = 112,
	BPI_JITED_FUNC_LENS = 120,
	BPI_BTF_ID = 128,
	BPI_FUNC_INFO_REC_SIZE = 132,
	BPI_FUNC_INFO = 136,
	BPI_NR_FUNC_INFO = 144,
	BPI_NR_PROG_TAGS = 180,
	BPI_PROG_TAGS = 184,
	BPI_KNOWN_SIZE = 192,
};

/* perf_bpil array bits (tools/perf/util/bpf-utils.h) */
enum {
	BPIL_JITED_KSYMS = 3,
	BPIL_JITED_FUNC_LENS = 4,
	BPIL_FUNC_INFO = 5,
	BPIL_PROG_TAGS = 8,
};

#define BPF_TAG_SIZE 8
#define BPF_OBJ_NAME_LEN 16

static uint32_t info_u32(const uint8_t *info, size_t off, bool swap)
{
	uint32_t v = get_u32(info + off);

	return swap ? bswap_32(v) : v;
}

static uint64_t info_u64(const uint8_t *info, size_t off, bool swap)
{
	uint64_t v = get_u64(info + off);

	return swap ? bswap_64(v) : v;
}

/*
 * An array inside the program's data: the info field holds its offset into
 * data when its bit is set in 'arrays' (perf's bpil_addr_to_offs).
 * Return: a pointer into @data, or NULL when absent or out of bounds.
 */
static const uint8_t *bpil_array(const uint8_t *info, uint64_t arrays, int bit, size_t off_field,
				 uint64_t nr, size_t elem, const uint8_t *data, uint32_t data_len,
				 bool swap)
{
	uint64_t off = info_u64(info, off_field, swap), bytes;

	if (!(arrays & (1ull << bit)))
		return NULL;
	if (__builtin_mul_overflow(nr, (uint64_t)elem, &bytes) || off > data_len ||
	    bytes > data_len - off)
		return NULL;
	return data + off;
}

static bool decode_prog(struct feat_cursor *c, struct prism_feat_bpf_prog *p)
{
	uint8_t info[BPI_KNOWN_SIZE] = { 0 };
	const uint8_t *data, *a;
	uint32_t i, nr;

	if (!feat_u32(c, &p->info_len) || !feat_u32(c, &p->data_len) || !feat_u64(c, &p->arrays))
		return false;
	if (!feat_bytes(c, info, p->info_len < sizeof(info) ? p->info_len : sizeof(info)))
		return false;
	if (p->info_len > sizeof(info) && !feat_skip(c, p->info_len - sizeof(info)))
		return false;
	if (!feat_dup(c, p->data_len, &data))
		return false;

	p->type = info_u32(info, BPI_TYPE, c->swap);
	p->id = info_u32(info, BPI_ID, c->swap);
	memcpy(p->tag, info + BPI_TAG, BPF_TAG_SIZE);
	memcpy(p->name, info + BPI_NAME, BPF_OBJ_NAME_LEN);
	p->btf_id = info_u32(info, BPI_BTF_ID, c->swap);
	p->nr_sub_progs = nr = info_u32(info, BPI_NR_JITED_KSYMS, c->swap);
	p->func_info_rec_size = info_u32(info, BPI_FUNC_INFO_REC_SIZE, c->swap);
	p->nr_func_info = info_u32(info, BPI_NR_FUNC_INFO, c->swap);
	p->func_info = bpil_array(info, p->arrays, BPIL_FUNC_INFO, BPI_FUNC_INFO, p->nr_func_info,
				  p->func_info_rec_size, data, p->data_len, c->swap);

	/* perf names sub-programs only when the three arrays agree */
	if (nr != info_u32(info, BPI_NR_JITED_FUNC_LENS, c->swap) ||
	    nr != info_u32(info, BPI_NR_PROG_TAGS, c->swap))
		return true;
	a = bpil_array(info, p->arrays, BPIL_JITED_KSYMS, BPI_JITED_KSYMS, nr, 8, data, p->data_len,
		       c->swap);
	if (a) {
		uint64_t *addrs = feat_array(c, nr, sizeof(*addrs), 0, "sub-programs");

		if (!addrs)
			return false;
		for (i = 0; i < nr; i++)
			addrs[i] = c->swap ? bswap_64(get_u64(a + 8 * i)) : get_u64(a + 8 * i);
		p->sub_prog_addrs = addrs;
	}
	a = bpil_array(info, p->arrays, BPIL_JITED_FUNC_LENS, BPI_JITED_FUNC_LENS, nr, 4, data,
		       p->data_len, c->swap);
	if (a) {
		uint32_t *lens = feat_array(c, nr, sizeof(*lens), 0, "sub-programs");

		if (!lens)
			return false;
		for (i = 0; i < nr; i++)
			lens[i] = c->swap ? bswap_32(get_u32(a + 4 * i)) : get_u32(a + 4 * i);
		p->sub_prog_lens = lens;
	}
	p->sub_prog_tags = (const uint8_t(*)[8])bpil_array(info, p->arrays, BPIL_PROG_TAGS,
							   BPI_PROG_TAGS, nr, BPF_TAG_SIZE, data,
							   p->data_len, c->swap);
	p->decoded = !nr || (p->sub_prog_addrs && p->sub_prog_lens && p->sub_prog_tags);
	return true;
}

bool feat_decode_bpf_prog_info(struct feat_cursor *c, void **out)
{
	struct prism_feat_bpf_prog_info *t;
	struct prism_feat_bpf_prog *progs;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->nr))
		return false;
	progs = feat_array(c, t->nr, sizeof(*progs), 16, "programs");
	if (!progs)
		return false;
	for (i = 0; i < t->nr; i++)
		if (!decode_prog(c, &progs[i]))
			return false;
	t->progs = progs;
	*out = t;
	return true;
}

bool feat_decode_bpf_btf(struct feat_cursor *c, void **out)
{
	struct prism_feat_bpf_btf *t;
	struct prism_feat_btf *btfs;
	uint32_t i;

	if (!FEAT_NEW(c, t) || !feat_u32(c, &t->nr))
		return false;
	btfs = feat_array(c, t->nr, sizeof(*btfs), 8, "BTF blobs");
	if (!btfs)
		return false;
	for (i = 0; i < t->nr; i++)
		if (!feat_u32(c, &btfs[i].id) || !feat_u32(c, &btfs[i].size) ||
		    !feat_dup(c, btfs[i].size, &btfs[i].data))
			return false;
	t->btfs = btfs;
	*out = t;
	return true;
}

/* ---- just enough BTF to name a function type ---- */

#define BTF_MAGIC 0xeB9F

struct btf_view {
	const uint8_t *types, *strs;
	uint32_t types_len, strs_len;
	bool swap;
};

static uint32_t btf_u32(const struct btf_view *b, const uint8_t *p)
{
	return b->swap ? bswap_32(get_u32(p)) : get_u32(p);
}

static bool btf_open(struct btf_view *b, const uint8_t *data, uint32_t size)
{
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	uint16_t magic;

	if (size < 24)
		return false;
	magic = get_u16(data);
	if (magic != BTF_MAGIC && magic != bswap_16(BTF_MAGIC))
		return false;
	b->swap = magic != BTF_MAGIC;
	hdr_len = btf_u32(b, data + 4);
	type_off = btf_u32(b, data + 8);
	type_len = btf_u32(b, data + 12);
	str_off = btf_u32(b, data + 16);
	str_len = btf_u32(b, data + 20);
	if (hdr_len < 24 || hdr_len > size || type_off > size - hdr_len ||
	    type_len > size - hdr_len - type_off || str_off > size - hdr_len ||
	    str_len > size - hdr_len - str_off)
		return false;
	b->types = data + hdr_len + type_off;
	b->types_len = type_len;
	b->strs = data + hdr_len + str_off;
	b->strs_len = str_len;
	return true;
}

/* bytes that follow struct btf_type for each kind (uapi linux/btf.h) */
static bool btf_extra(uint32_t kind, uint32_t vlen, size_t *extra)
{
	switch (kind) {
	case 2: /* PTR */
	case 7: /* FWD */
	case 8: /* TYPEDEF */
	case 9: /* VOLATILE */
	case 10: /* CONST */
	case 11: /* RESTRICT */
	case 12: /* FUNC */
	case 16: /* FLOAT */
	case 18: /* TYPE_TAG */
		*extra = 0;
		return true;
	case 1: /* INT */
	case 14: /* VAR */
	case 17: /* DECL_TAG */
		*extra = 4;
		return true;
	case 3: /* ARRAY */
		*extra = 12;
		return true;
	case 4: /* STRUCT */
	case 5: /* UNION */
	case 15: /* DATASEC */
	case 19: /* ENUM64 */
		*extra = (size_t)vlen * 12;
		return true;
	case 6: /* ENUM */
	case 13: /* FUNC_PROTO */
		*extra = (size_t)vlen * 8;
		return true;
	default:
		return false;
	}
}

/* the name of type @id; NULL when there is no such type or name */
static const char *btf_type_name(const struct btf_view *b, uint32_t id)
{
	size_t pos = 0;
	uint32_t cur;

	for (cur = 1; pos + 12 <= b->types_len; cur++) {
		uint32_t name_off = btf_u32(b, b->types + pos);
		uint32_t info = btf_u32(b, b->types + pos + 4);
		size_t extra;

		if (cur == id) {
			if (name_off >= b->strs_len ||
			    !memchr(b->strs + name_off, '\0', b->strs_len - name_off))
				return NULL;
			return (const char *)b->strs + name_off;
		}
		if (!btf_extra((info >> 24) & 0x1f, info & 0xffff, &extra))
			return NULL;
		pos += 12 + extra;
	}
	return NULL;
}

/*
 * The function name of sub-program @sub from the program's BTF.
 * Return: false when there is no usable BTF (then perf names it without);
 * true with *@name set (NULL when the type has no name).
 */
static bool btf_func_name(const struct prism_feat_bpf_prog *prog,
			  const struct prism_feat_bpf_btf *btf, uint32_t sub, const char **name)
{
	const struct prism_feat_btf *bt = NULL;
	struct btf_view view;
	const uint8_t *rec;
	uint32_t i, type_id;

	/* perf keeps the first blob of an id */
	for (i = 0; prog->btf_id && btf && i < btf->nr && !bt; i++)
		if (btf->btfs[i].id == prog->btf_id)
			bt = &btf->btfs[i];
	if (!bt || !prog->func_info || sub >= prog->nr_func_info || prog->func_info_rec_size < 8 ||
	    !btf_open(&view, bt->data, bt->size))
		return false;
	rec = prog->func_info + (size_t)sub * prog->func_info_rec_size;
	type_id = view.swap ? bswap_32(get_u32(rec + 4)) : get_u32(rec + 4);
	*name = btf_type_name(&view, type_id);
	return true;
}

/*
 * perf's synthesize_bpf_prog_name(): with the program's BTF the function
 * name comes from its func_info record, else from the program name (single
 * program) or "F" (a sub-program).
 */
void feat_bpf_prog_name(const struct prism_feat_bpf_prog *prog,
			const struct prism_feat_bpf_btf *btf, uint32_t sub, char *buf, size_t size)
{
	const char *short_name = NULL;
	size_t len;
	uint32_t i;
	int n;

	n = snprintf(buf, size, "bpf_prog_");
	len = n > 0 ? (size_t)n : 0;
	for (i = 0; i < BPF_TAG_SIZE && len < size; i++) {
		n = snprintf(buf + len, size - len, "%02x", prog->sub_prog_tags[sub][i]);
		len += n > 0 ? (size_t)n : 0;
	}
	if (!btf_func_name(prog, btf, sub, &short_name)) {
		if (sub == 0 && prog->nr_sub_progs == 1)
			short_name = prog->name[0] ? prog->name : NULL;
		else
			short_name = "F";
	}
	if (short_name && len < size)
		snprintf(buf + len, size - len, "_%s", short_name);
}
