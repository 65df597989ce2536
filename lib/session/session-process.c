// SPDX-License-Identifier: MIT
/*
 * The record loop: read records from the data section (or a pipe), act on
 * perf's own records, decompress COMPRESSED chunks, put kernel records in
 * time order and deliver them to the tool's callbacks.
 *
 * Note: every record reaches the parsers 8-byte aligned and in this
 * machine's byte order: unaligned records (perf.data gives no alignment
 * guarantee) and records of opposite-endian files are copied to a scratch
 * buffer first.
 *
 * The time sort holds records of seekable files in this machine's byte
 * order by reference (their file and offset; ordered.h), and reads them
 * back when it delivers them, so its memory does not grow with the size of
 * a round.  Records of pipes, of COMPRESSED payloads and of opposite-endian
 * files are copied into it.
 */
#include <byteswap.h>
#include <stdio.h>

#include <prism/features.h>
#include <prism/tp.h>

#include "internal.h"
#include "session/session-internal.h"
#include "data/decomp.h"
#include "data/input.h"
#include "data/views.h"
#include "event/sample-fast.h"
#include "event/parse.h"
#include "event/swap.h"
#include "session/ordered.h"

#define MAX_DECOMPRESSED (64u << 20) /* one COMPRESSED payload may expand to this much */
#define MAX_TRACING_DATA (256u << 20)
/* one AUXTRACE record's trace bytes, read in one piece (perf's AUX areas: MiBs) */
#define MAX_AUXTRACE_DATA (1024u << 20)
/* data.N files of a directory read back by the time sort (kept open); the rest are copied */
#define MAX_REF_DIR_FILES 256

static int err_at(struct prism_session *s, uint64_t off, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int err_at(struct prism_session *s, uint64_t off, int err, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->cur_file)
		prism_session__set_error(s, "'%s': record at offset %#llx: %s", s->cur_file,
					 (unsigned long long)off, msg);
	else
		prism_session__set_error(s, "record at file offset %#llx: %s",
					 (unsigned long long)off, msg);
	return err;
}

/*
 * A record whose body does not fit its type while its size keeps the
 * stream in step: counted by type (with the offset of the first), handed
 * to tool->malformed, and skipped, so the rest of the file is still read.
 * -v tells each one.  @rec: the record, its header in this machine's order.
 */
static int skip_malformed(struct prism_session *s, const void *rec, uint64_t off, bool compressed,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int skip_malformed(struct prism_session *s, const void *rec, uint64_t off, bool compressed,
			  const char *fmt, ...)
{
	const struct perf_event_header *hdr = rec;
	uint32_t type = hdr->type < PRISM_RECORD_TYPE_MAX ? hdr->type : 0;
	struct prism_event ev;
	char msg[256];
	va_list ap;

	if (!s->stats.nr_malformed[type]++)
		s->stats.malformed_offset[type] = off;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_info("%s%srecord at file offset %#llx: %s; skipped", s->cur_file ? s->cur_file : "",
		s->cur_file ? ": " : "", (unsigned long long)off, msg);
	if (!s->tool->malformed)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.raw = hdr;
	ev.type = hdr->type;
	ev.file_offset = off;
	ev.compressed = compressed;
	return s->tool->malformed(s->ctx, &ev);
}

static inline __attribute__((always_inline)) struct prism_evsel *
evsel_of(struct prism_session *s, const void *rec, uint32_t type, uint16_t size, bool *unknown)
{
	uint64_t id;

	*unknown = false;
	if (s->nr_evsels == 1 || !s->nr_evsels)
		return s->nr_evsels ? s->evsels[0] : NULL;
	if (type == PERF_RECORD_SAMPLE) {
		if (s->id_end > size) /* no id, or a record too short for it */
			return s->evsels[0];
		id = get_u64((const uint8_t *)rec + 8 + 8 * s->id_pos);
	} else {
		if (s->is_pos < 0 || !s->evsels[0]->a.attr.sample_id_all ||
		    8 + 8 * (size_t)s->is_pos > size)
			return s->evsels[0];
		id = get_u64((const uint8_t *)rec + size - 8 * s->is_pos);
	}
	if (!id)
		return s->evsels[0]; /* synthesized records carry id 0 */
	{
		struct prism_evsel *e = prism_idmap__find(&s->ids, id);

		if (!e)
			*unknown = true;
		return e;
	}
}

static int call(const struct prism_tool *t, int (*fn)(void *, const struct prism_event *),
		void *ctx, const struct prism_event *ev)
{
	if (fn)
		return fn(ctx, ev);
	if (t->other_all && t->other)
		return t->other(ctx, ev);
	return 0;
}

/*
 * Leader sampling (PERF_SAMPLE_READ with a GROUP read_format): one record
 * carries the values of every group member, and perf counts a sample for
 * each member, so do the same.
 */
static void count_group_members(struct prism_session *s, const struct prism_event *ev)
{
	uint64_t fmt = ev->evsel->a.attr.read_format, i;
	const uint8_t *v = ev->sample.read.values_raw;
	size_t entry = 8 + (fmt & PERF_FORMAT_ID ? 8 : 0) + (fmt & PERF_FORMAT_LOST ? 8 : 0);

	if (!(ev->sample.type & PERF_SAMPLE_READ) || !(fmt & PERF_FORMAT_GROUP) ||
	    !(fmt & PERF_FORMAT_ID) || !v)
		return;
	for (i = 0; i < ev->sample.read.nr; i++, v += entry) {
		struct prism_evsel *m = prism_idmap__find(&s->ids, get_u64(v + 8));

		if (m && m != ev->evsel)
			m->nr_samples++;
	}
}

static uint64_t evsel_time(const struct perf_event_header *hdr, const struct prism_evsel *evsel);

/* the first and last record times (0: none) */
static inline __wraps void note_time(struct prism_session *s, uint64_t tm)
{
	/* tm != 0 and (no first time yet, or an earlier one): 0 - 1 wraps to the top */
	if (tm - 1 < s->stats.first_time - 1)
		s->stats.first_time = tm;
	if (tm > s->stats.last_time)
		s->stats.last_time = tm;
}

static __attribute__((noinline)) int bad_sample(struct prism_session *s, uint64_t off,
						bool compressed,
						const struct perf_event_header *hdr,
						const struct prism_evsel *evsel)
{
	return skip_malformed(
		s, hdr, off, compressed,
		"SAMPLE of %u bytes does not match the sample_type %#llx of event '%s'", hdr->size,
		(unsigned long long)evsel->a.attr.sample_type, prism_evsel__name(evsel));
}

static inline void ev_head(struct prism_event *ev, const struct perf_event_header *hdr,
			   uint64_t off, bool compressed, struct prism_evsel *evsel)
{
	ev->raw = hdr;
	ev->type = hdr->type;
	ev->file_offset = off;
	ev->compressed = compressed;
	ev->evsel = evsel;
}

static int deliver_any(struct prism_session *s, void *rec, uint64_t off, bool compressed,
		       struct prism_evsel *evsel);

/*
 * decode and hand one kernel record (aligned, native order) to the tool:
 * the samples a sample_basic tool takes from the fast layout here, in
 * few instructions, anything else in deliver_any()
 */
static inline __attribute__((always_inline)) int deliver(struct prism_session *s, void *rec,
							 uint64_t off, bool compressed)
{
	struct perf_event_header *hdr = rec;
	struct prism_evsel *evsel;
	bool unknown;

	evsel = evsel_of(s, rec, hdr->type, hdr->size, &unknown);
	if (likely(evsel && hdr->type == PERF_RECORD_SAMPLE && s->basic && evsel->sample_fast)) {
		struct prism_sample_basic b;
		int err;

		evsel->nr_records[PERF_RECORD_SAMPLE]++;
		err = prism_sample__parse_basic(evsel, rec, &b);
		if (unlikely(err))
			return bad_sample(s, off, compressed, hdr, evsel);
		b.evsel = evsel;
		b.file_offset = off;
		evsel->nr_samples++;
		note_time(s, b.time);
		return s->tool->sample_basic(s->ctx, &b);
	}
	return deliver_any(s, rec, off, compressed, evsel);
}

/* deliver() of the records it does not take itself (@evsel: the record's) */
static __attribute__((noinline)) int deliver_any(struct prism_session *s, void *rec, uint64_t off,
						 bool compressed, struct prism_evsel *evsel)
{
	const struct prism_tool *t = s->tool;
	struct perf_event_header *hdr = rec;
	/* reused: its rare sample fields stay clear while no sample has them */
	struct prism_event *ev = &s->ev;
	int err;

	if (!evsel) {
		if (hdr->type == PERF_RECORD_SAMPLE)
			s->stats.nr_unknown_id++;
		return 0;
	}
	if (likely(hdr->type == PERF_RECORD_SAMPLE)) {
		uint64_t st = evsel->a.attr.sample_type;

		evsel->nr_records[PERF_RECORD_SAMPLE]++;
		if (!t->sample && !t->sample_basic && !(st & PERF_SAMPLE_READ)) {
			note_time(s, evsel_time(hdr, evsel));
			evsel->nr_samples++;
			return 0;
		}
		ev_head(ev, hdr, off, compressed, evsel);
		if (s->ev_cold)
			prism_sample__clear_cold(&ev->sample);
		s->ev_cold = st & PRISM_SAMPLE_COLD;
		err = prism_sample__parse_hot(evsel, rec, s->info.needs_swap, &ev->sample);
		if (err)
			return bad_sample(s, off, compressed, hdr, evsel);
		evsel->nr_samples++;
		if (unlikely(st & PERF_SAMPLE_READ))
			count_group_members(s, ev);
		note_time(s, ev->sample.time);
		if (t->sample_basic) { /* a layout of its own, or a file of the other byte order */
			struct prism_sample_basic b = { .evsel = evsel, .file_offset = off };

			prism_sample__basic_of(&ev->sample, &b);
			return t->sample_basic(s->ctx, &b);
		}
		return t->sample ? t->sample(s->ctx, ev) : 0;
	}
	ev_head(ev, hdr, off, compressed, evsel);
	if (hdr->type < PRISM_RECORD_TYPE_MAX)
		ev->evsel->nr_records[hdr->type]++;
	if (hdr->type == PERF_RECORD_LOST_SAMPLES && hdr->size >= 16)
		ev->evsel->nr_lost_samples =
			sat_add(ev->evsel->nr_lost_samples, get_u64((uint8_t *)rec + 8));
	err = prism_sample__parse_id(ev->evsel, rec, s->info.needs_swap, &ev->sample);
	s->ev_cold = false; /* it clears every field */
	if (!err)
		err = prism_event__decode(ev, ev->evsel, hdr->size - ev->evsel->id_hdr_size);
	if (err)
		return skip_malformed(s, rec, off, compressed, "%s record of %u bytes is malformed",
				      prism_record_type_name(hdr->type), hdr->size);
	note_time(s, ev->sample.time);
	switch (hdr->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return call(t, t->mmap, s->ctx, ev);
	case PERF_RECORD_COMM:
		return call(t, t->comm, s->ctx, ev);
	case PERF_RECORD_FORK:
		return call(t, t->fork, s->ctx, ev);
	case PERF_RECORD_EXIT:
		return call(t, t->exit, s->ctx, ev);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		return call(t, t->lost, s->ctx, ev);
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return call(t, t->switch_, s->ctx, ev);
	default:
		return t->other ? t->other(s->ctx, ev) : 0;
	}
}

static int ordered_deliver(void *ctx, const void *rec, size_t size, uint64_t time,
			   uint64_t file_offset)
{
	struct prism_session *s = ctx;

	/* the queue hands out aligned private copies; the top bit marks compressed */
	return deliver(s, (void *)rec, file_offset & ~(1ull << 63), file_offset >> 63);
}

/* the record's timestamp, or 0 when it has none (synthesized or no TIME bit) */
static uint64_t evsel_time(const struct perf_event_header *hdr, const struct prism_evsel *evsel)
{
	const uint8_t *p = (const uint8_t *)hdr;

	if (hdr->type == PERF_RECORD_SAMPLE)
		return evsel->at_time && evsel->at_time + 8u <= hdr->size ?
			       get_u64(p + evsel->at_time) :
			       0;
	if (!evsel->trailer_time || hdr->size < 8 + evsel->id_hdr_size)
		return 0;
	return get_u64(p + hdr->size - evsel->trailer_time);
}

/*
 * The record's timestamp, or 0 when it has none; found without looking its
 * event up when every event puts it in the same place.
 */
static inline uint64_t record_time(struct prism_session *s, const struct perf_event_header *hdr)
{
	const uint8_t *p = (const uint8_t *)hdr;
	struct prism_evsel *evsel;
	bool unknown;

	if (s->time_shared) {
		if (hdr->type == PERF_RECORD_SAMPLE) {
			if (s->time_pos < 0 || 8 + 8 * (size_t)(s->time_pos + 1) > hdr->size)
				return 0;
			return get_u64(p + 8 + 8 * s->time_pos);
		}
		if (s->time_is_pos < 0 || hdr->size < s->time_is_min)
			return 0;
		return get_u64(p + hdr->size - 8 * s->time_is_pos);
	}
	evsel = evsel_of(s, hdr, hdr->type, hdr->size, &unknown);
	return evsel ? evsel_time(hdr, evsel) : 0;
}

/* per-event counts and the tool's callbacks come at delivery, in time order */
static int handle_kernel(struct prism_session *s, void *rec, uint64_t off, bool compressed)
{
	struct perf_event_header *hdr = rec;
	uint64_t time;

	if (hdr->type == PERF_RECORD_LOST && hdr->size >= 24)
		s->stats.total_lost = sat_add(s->stats.total_lost, get_u64((uint8_t *)rec + 16));
	if (hdr->type == PERF_RECORD_LOST_SAMPLES && hdr->size >= 16)
		s->stats.total_lost_samples =
			sat_add(s->stats.total_lost_samples, get_u64((uint8_t *)rec + 8));
	if (s->no_order || !s->ordered)
		return deliver(s, rec, off, compressed);
	time = record_time(s, hdr);
	if (!time || time == ~0ull)
		return deliver(s, rec, off, compressed);
	if (!compressed && s->cur_input != UINT32_MAX)
		return prism_ordered__queue_ref(s->ordered, rec, hdr->size, time, s->cur_input,
						off);
	return prism_ordered__queue(s->ordered, rec, hdr->size, time,
				    off | ((uint64_t)compressed << 63));
}

/* the time sort reads a record queued by reference back from its file */
static int ordered_read(void *ctx, uint32_t file, void *buf, size_t len, uint64_t off)
{
	struct prism_session *s = ctx;
	const char *name = file && file <= s->nr_dir_files ? s->dir_files[file - 1] :
							     "the data file";
	int err = -EINVAL;

	if (file < s->nr_ord_in && s->ord_in[file])
		err = prism_input__pread(s->ord_in[file], buf, len, off);
	if (err && !s->errmsg[0]) /* keep the error of a damage found before */
		prism_session__set_error(
			s,
			"%s: reading %zu bytes at file offset %#llx back for the time sort failed: %s (was the file changed while prism read it?)",
			name, len, (unsigned long long)off,
			err == -PRISM_E_TRUNCATED ? "the file is shorter now" : strerror(-err));
	return err;
}

/* or finds it in place, mapped (set only with s->views) */
static const void *ordered_view(void *ctx, uint32_t file, uint64_t off, size_t *avail)
{
	struct prism_session *s = ctx;

	if (file < s->nr_ord_in && s->ord_in[file])
		return prism_views__get(s->views, s->ord_in[file], off, avail);
	return NULL;
}

static void ordered_unview(void *ctx, uint32_t file, uint64_t off)
{
	struct prism_session *s = ctx;

	if (file < s->nr_ord_in && s->ord_in[file])
		prism_views__put(s->views, s->ord_in[file], off);
}

/* the time of a record read back, as handle_kernel() found it */
static uint64_t ordered_time(void *ctx, const void *rec, size_t size)
{
	struct prism_session *s = ctx;

	(void)size;
	return record_time(s, rec);
}

static int process_record(struct prism_session *s, void *rec, uint64_t off, bool compressed);

/* decompress one payload and process every complete record it completes */
static int handle_compressed(struct prism_session *s, const uint8_t *payload, size_t len,
			     uint64_t off)
{
	size_t pos = 0;
	int err;

	if (!s->decomp) {
		s->decomp = prism_decomp__new();
		if (!s->decomp)
			return err_at(
				s, off, -errno,
				"COMPRESSED record, but this build of prism has no zstd support (install libzstd-dev and rebuild)");
	}
	err = prism_decomp__feed(s->decomp, payload, len, &s->dbuf, &s->dlen, &s->dcap,
				 MAX_DECOMPRESSED);
	if (err)
		return err_at(s, off, err, "zstd stream could not be decompressed");
	s->stats.compressed_bytes += len;
	while (s->dlen - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;

		memcpy(&h, s->dbuf + pos, sizeof(h));
		if (s->info.needs_swap)
			h.size = bswap_16(h.size);
		if (h.size < sizeof(h))
			return err_at(s, off, -PRISM_E_BAD_RECORD,
				      "record inside COMPRESSED data at +%#zx has size %u", pos,
				      h.size);
		if (h.size > s->dlen - pos)
			break; /* straddles into the next chunk */
		err = process_record(s, s->dbuf + pos, off, true);
		if (err)
			return err;
		pos += h.size;
	}
	s->stats.decompressed_bytes += pos;
	if (pos) { /* dbuf is still NULL when nothing was decompressed yet */
		memmove(s->dbuf, s->dbuf + pos, s->dlen - pos);
		s->dlen -= pos;
	}
	return 0;
}

static int handle_event_update(struct prism_session *s, const uint8_t *rec, uint16_t size)
{
	struct prism_evsel *evsel;
	uint64_t type, id;

	if (size < 24)
		return 0;
	type = get_u64(rec + 8);
	id = get_u64(rec + 16);
	evsel = prism_idmap__find(&s->ids, id);
	if (!evsel)
		return 0;
	switch (type) {
	case 0: /* UNIT */
		if (memchr(rec + 24, '\0', size - 24))
			return prism_evsel__set_unit(evsel, (const char *)rec + 24);
		return 0;
	case 1: /* SCALE */
		if (size >= 32)
			memcpy(&evsel->scale, rec + 24, 8);
		return 0;
	case 2: /* NAME */
		if (memchr(rec + 24, '\0', size - 24))
			return prism_evsel__set_name(evsel, (const char *)rec + 24);
		return 0;
	default:
		return 0;
	}
}

/* pipe mode: HEADER_ATTR = attr (attr.size bytes) then ids to header.size */
static int handle_header_attr(struct prism_session *s, const uint8_t *rec, uint16_t size,
			      uint64_t off)
{
	struct prism_attr_ext a;
	uint32_t asize;
	size_t nr_ids;
	int err;

	uint64_t *ids;
	size_t i;

	err = prism_attr__read(&a, rec + 8, size - 8u, s->info.needs_swap);
	if (err)
		return skip_malformed(s, rec, off, false, "HEADER_ATTR with a bad attr.size");
	asize = a.attr.size;
	nr_ids = (size - 8u - asize) / 8;
	ids = calloc(nr_ids + 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (i = 0; i < nr_ids; i++) {
		ids[i] = get_u64(rec + 8 + asize + 8 * i);
		if (s->info.needs_swap)
			ids[i] = bswap_64(ids[i]);
	}
	err = prism_session__add_evsel(s, &a, ids, nr_ids, NULL);
	free(ids);
	if (err)
		return err;
	prism_session__update_id_pos(s);
	return 0;
}

/* HEADER_TRACING_DATA: the blob follows the record, outside header.size */
static int handle_tracing_data(struct prism_session *s, const uint8_t *rec, uint16_t size,
			       uint64_t off, bool compressed)
{
	const void *blob;
	uint32_t len;
	int err;

	if (size < 12)
		return err_at(s, off, -PRISM_E_BAD_RECORD, "TRACING_DATA record too small");
	len = get_u32(rec + 8); /* already in our byte order (prism_swap__record) */
	if (compressed)
		return err_at(s, off, -PRISM_E_UNSUPPORTED, "TRACING_DATA inside compressed data");
	if (len > MAX_TRACING_DATA)
		return err_at(s, off, -PRISM_E_BAD_RECORD, "TRACING_DATA of %u bytes", len);
	blob = prism_input__peek(s->in, len, &err);
	if (!blob)
		return err_at(s, off, err ? err : -PRISM_E_TRUNCATED,
			      "tracing data of %u bytes runs past the end of the input", len);
	err = prism_session__decode_feature(s, PRISM_FEAT_TRACING_DATA, blob, len);
	if (err)
		return err;
	return prism_input__skip(s->in, len);
}

static int handle_user(struct prism_session *s, void *rec, uint64_t off, bool compressed)
{
	struct perf_event_header *hdr = rec;
	const uint8_t *b = rec;
	const void *payload = NULL;
	uint64_t aux_size = 0;
	int err = 0;

	switch (hdr->type) {
	case PRISM_RECORD_HEADER_ATTR:
		err = handle_header_attr(s, b, hdr->size, off);
		break;
	case PRISM_RECORD_HEADER_TRACING_DATA:
		err = handle_tracing_data(s, b, hdr->size, off, compressed);
		break;
	case PRISM_RECORD_HEADER_FEATURE:
		if (hdr->size > 16)
			err = prism_session__decode_feature(s, (unsigned int)get_u64(b + 8), b + 16,
							    hdr->size - 16u);
		break;
	case PRISM_RECORD_EVENT_UPDATE:
		err = handle_event_update(s, b, hdr->size);
		break;
	case PRISM_RECORD_FINISHED_ROUND:
		if (s->ordered)
			err = prism_ordered__finished_round(s->ordered);
		break;
	case PRISM_RECORD_AUXTRACE:
		/* AUX data follows the record, outside header.size: skipped after the callback */
		if (hdr->size >= 16 && !compressed)
			aux_size = get_u64(b + 8);
		if (aux_size && s->tool->user && s->tool->auxtrace_data) {
			if (aux_size > MAX_AUXTRACE_DATA)
				return err_at(s, off, -PRISM_E_BAD_RECORD,
					      "AUXTRACE data of %llu bytes (more than %u MiB)",
					      (unsigned long long)aux_size,
					      MAX_AUXTRACE_DATA >> 20);
			payload = prism_input__peek(s->in, (size_t)aux_size, &err);
			if (!payload)
				return err_at(
					s, off, err ? err : -PRISM_E_TRUNCATED,
					"AUXTRACE data of %llu bytes runs past the end of the input",
					(unsigned long long)aux_size);
		}
		break;
	case PRISM_RECORD_COMPRESSED:
		if (compressed)
			return skip_malformed(s, rec, off, compressed,
					      "COMPRESSED record inside compressed data");
		err = handle_compressed(s, b + 8, hdr->size - 8u, off);
		break;
	case PRISM_RECORD_COMPRESSED2: {
		uint64_t n = hdr->size >= 16 ? get_u64(b + 8) : 0;

		if (compressed) /* as for COMPRESSED: no nesting, no recursion without end */
			return err_at(s, off, -PRISM_E_BAD_RECORD,
				      "COMPRESSED2 record inside compressed data");
		if (hdr->size < 16 || n > hdr->size - 16u)
			return skip_malformed(
				s, rec, off, compressed,
				"COMPRESSED2 data_size %llu does not fit its record of %u bytes",
				(unsigned long long)n, hdr->size);
		err = handle_compressed(s, b + 16, (size_t)n, off);
		break;
	}
	default:
		break;
	}
	if (err)
		return err;
	if (!s->names_resolved && hdr->type != PRISM_RECORD_HEADER_FEATURE &&
	    hdr->type != PRISM_RECORD_HEADER_ATTR)
		prism_session__resolve_names(s);
	if (s->tool->user) {
		struct prism_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.raw = hdr;
		ev.type = hdr->type;
		ev.file_offset = off;
		ev.compressed = compressed;
		ev.payload = payload;
		ev.payload_size = payload ? aux_size : 0;
		err = s->tool->user(s->ctx, &ev);
	}
	if (err || !aux_size)
		return err;
	return prism_input__skip(s->in, aux_size);
}

/*
 * the sample_id trailer size of a non-sample kernel record still in the
 * other byte order (its id is found swapped)
 */
static size_t swapped_trailer(struct prism_session *s, const uint8_t *rec, size_t size)
{
	struct prism_evsel *evsel = NULL;

	if (!s->nr_evsels || !s->evsels[0]->a.attr.sample_id_all)
		return 0;
	if (s->nr_evsels == 1 || s->is_pos < 0) {
		evsel = s->evsels[0];
	} else if (8 + 8 * (size_t)s->is_pos <= size) {
		uint64_t id = bswap_64(get_u64(rec + size - 8 * s->is_pos));

		evsel = id ? prism_idmap__find(&s->ids, id) : s->evsels[0];
	}
	if (!evsel || evsel->id_hdr_size + 8 > size)
		return 0;
	return evsel->id_hdr_size;
}

/* @rec may be unaligned and in file byte order */
static int process_record(struct prism_session *s, void *rec, uint64_t off, bool compressed)
{
	struct perf_event_header hdr;
	void *r = rec;
	int err;

	memcpy(&hdr, rec, sizeof(hdr));
	if (s->info.needs_swap) {
		hdr.type = bswap_32(hdr.type);
		hdr.size = bswap_16(hdr.size);
	}
	s->stats.nr_records_total++;
	if (hdr.type < PRISM_RECORD_TYPE_MAX)
		s->stats.nr_records[hdr.type]++;
	/*
	 * Copy when unaligned, when swapping, and for the two records whose
	 * payload follows them (reading it may move the input window).
	 */
	if (((uintptr_t)rec & 7) || s->info.needs_swap ||
	    hdr.type == PRISM_RECORD_HEADER_TRACING_DATA || hdr.type == PRISM_RECORD_AUXTRACE) {
		if (!s->scratch) {
			s->scratch = aligned_alloc(8, 65536);
			s->scratch_cap = s->scratch ? 65536 : 0;
			if (!s->scratch)
				return -ENOMEM;
		}
		memcpy(s->scratch, rec, hdr.size);
		r = s->scratch;
		if (s->info.needs_swap) {
			size_t tr = 0;

			if (hdr.type < PRISM_RECORD_HEADER_ATTR && hdr.type != PERF_RECORD_SAMPLE)
				tr = swapped_trailer(s, r, hdr.size);
			err = prism_swap__record(r, hdr.size, tr);
			if (err &&
			    (hdr.type == PRISM_RECORD_HEADER_TRACING_DATA ||
			     hdr.type == PRISM_RECORD_AUXTRACE)) /* the payload after it is lost */
				return err_at(s, off, err,
					      "%s record of %u bytes could not be byte-swapped",
					      prism_record_type_name(hdr.type), hdr.size);
			if (err)
				return skip_malformed(
					s, r, off, compressed,
					"%s record of %u bytes could not be byte-swapped",
					prism_record_type_name(hdr.type), hdr.size);
		}
	}
	if (hdr.type >= PRISM_RECORD_HEADER_ATTR) {
		if (hdr.type >= PRISM_RECORD_TYPE_MAX) {
			s->stats.nr_unknown++;
			return 0;
		}
		return handle_user(s, r, off, compressed);
	}
	if (hdr.type >= PRISM_RECORD_KERNEL_MAX || hdr.type == 0) {
		s->stats.nr_unknown++;
		return 0;
	}
	if (!s->names_resolved)
		prism_session__resolve_names(s);
	return handle_kernel(s, r, off, compressed);
}

/*
 * Read the records of one stream (the data section, or a data.N file of a
 * directory) from @start to @end (UINT64_MAX: to the end of a pipe).
 */
/* opts.progress, and when to call it next */
static __attribute__((noinline)) void report_progress(struct prism_session *s, bool end)
{
	const struct prism_file_info *fi = &s->info;
	uint64_t total = fi->pipe ? 0 : fi->data_size + fi->dir_data_size;

	s->progress_next = s->stats.data_bytes + (64u << 10);
	s->progress(s->progress_ctx, s->stats.data_bytes, total, s->stats.nr_records_total, end);
}

static int process_stream(struct prism_session *s, uint64_t start, uint64_t end)
{
	const struct prism_file_info *fi = &s->info;
	/* records queued by reference (see prism_session__process()): samples in bulk */
	bool fast = s->cur_input != UINT32_MAX;
	int err = 0;

	if (!prism_input__is_pipe(s->in)) {
		err = prism_input__seek(s->in, start);
		if (err)
			return err;
		if (end != UINT64_MAX)
			prism_input__set_end(s->in, end);
	}
	for (;;) {
		uint64_t off = prism_input__pos(s->in);
		struct perf_event_header hdr;
		const uint8_t *p;
		size_t avail, used = 0;

		p = prism_input__span(s->in, sizeof(hdr), &avail, &err);
		if (!p) {
			if (err)
				err = err_at(s, off, err, "the data ends inside a record header");
			break;
		}
		/* every whole record inside the span, without a peek each */
		while (avail - used >= sizeof(hdr)) {
			if (fast && s->names_resolved) {
				size_t n, got = prism_ordered__extend(s->ordered, p + used,
								      avail - used, s->cur_input,
								      off + used, &n);

				if (got) {
					s->stats.data_bytes += got;
					s->stats.nr_records_total += n;
					s->stats.nr_records[PERF_RECORD_SAMPLE] += n;
					used += got;
					continue;
				}
			}
			memcpy(&hdr, p + used, sizeof(hdr));
			if (fi->needs_swap) {
				hdr.size = bswap_16(hdr.size);
				hdr.type = bswap_32(hdr.type);
			}
			if (hdr.size < sizeof(hdr) || hdr.size > avail - used ||
			    hdr.type == PRISM_RECORD_HEADER_TRACING_DATA ||
			    hdr.type == PRISM_RECORD_AUXTRACE)
				break;
			s->stats.data_bytes += hdr.size;
			err = process_record(s, (void *)(p + used), off + used, false);
			used += hdr.size;
			if (err)
				break;
		}
		if (!err && used)
			err = prism_input__skip(s->in, used);
		if (err)
			break;
		if (unlikely(s->progress) && s->stats.data_bytes >= s->progress_next)
			report_progress(s, false);
		if (used)
			continue;
		/* a record across the window end, a bad size, or one with a payload after it */
		memcpy(&hdr, p, sizeof(hdr));
		if (fi->needs_swap)
			hdr.size = bswap_16(hdr.size);
		if (hdr.size < sizeof(hdr)) {
			err = err_at(
				s, off, -PRISM_E_BAD_RECORD,
				"size %u is smaller than a record header (8): the data is corrupt",
				hdr.size);
			break;
		}
		p = prism_input__peek(s->in, hdr.size, &err);
		if (!p) {
			err = err_at(s, off, err ? err : -PRISM_E_TRUNCATED,
				     "record of %u bytes runs past the end of the data", hdr.size);
			break;
		}
		s->stats.data_bytes += hdr.size;
		/* the payload of TRACING_DATA/AUXTRACE follows: step over the record first */
		err = prism_input__skip(s->in, hdr.size);
		if (!err)
			err = process_record(s, (void *)p, off, false);
		if (err)
			break;
	}
	return err;
}

/* the compressed stream of one file does not continue into the next */
static int end_stream(struct prism_session *s)
{
	if (s->dlen)
		pr_warn("%zu bytes of compressed data at the end of the stream do not form a whole record",
			s->dlen);
	s->dlen = 0;
	prism_decomp__free(s->decomp);
	s->decomp = NULL;
	return 0;
}

/*
 * The data.N inputs kept for reading back.  Records still queued (after a
 * callback stopped the processing) are dropped: the queue cannot be resumed
 * by reference without them.
 */
static void free_ord_inputs(struct prism_session *s)
{
	size_t i;

	if (s->ordered && s->nr_ord_in) {
		prism_ordered__free(s->ordered);
		s->ordered = NULL;
	}
	prism_views__free(s->views);
	s->views = NULL;
	for (i = 1; i < s->nr_ord_in; i++)
		prism_input__free(s->ord_in[i]);
	zfree(&s->ord_in);
	s->nr_ord_in = 0;
	s->cur_input = UINT32_MAX;
}

int prism_session__process(struct prism_session *s, const struct prism_tool *tool, void *ctx)
{
	const struct prism_file_info *fi = &s->info;
	int err;

	s->tool = tool;
	s->basic = tool->sample_basic && !fi->needs_swap;
	s->ctx = ctx;
	s->errmsg[0] = '\0';
	if (!s->no_order && !s->ordered) {
		s->ordered = prism_ordered__new(s->order_mem_limit, ordered_deliver, s);
		if (!s->ordered)
			return -ENOMEM;
	}
	/* seekable native files: records stay in the file until the sort delivers them */
	s->cur_input = UINT32_MAX;
	if (s->ordered && !fi->pipe && !fi->needs_swap && !prism_input__is_pipe(s->in)) {
		size_t n = 1 + (s->nr_dir_files < MAX_REF_DIR_FILES ? s->nr_dir_files :
								      MAX_REF_DIR_FILES);

		free(s->ord_in);
		s->ord_in = calloc(n, sizeof(*s->ord_in));
		if (!s->ord_in)
			return -ENOMEM;
		s->nr_ord_in = n;
		s->ord_in[0] = s->in;
		s->cur_input = 0;
		prism_ordered__set_reader(s->ordered, ordered_read, ordered_time);
		/* without views (no memory for them) the runs are read with pread */
		if (!s->views)
			s->views = prism_views__new();
		if (s->views)
			prism_ordered__set_view(s->ordered, ordered_view, ordered_unview);
		if (s->time_shared && s->time_pos >= 0)
			prism_ordered__set_sample_time(s->ordered, 8 + 8 * (size_t)s->time_pos);
	}
	err = process_stream(s, fi->data_offset,
			     fi->pipe ? UINT64_MAX : sat_add(fi->data_offset, fi->data_size));
	for (size_t i = 0; !err && i < s->nr_dir_files; i++) {
		struct prism_input *main_in = s->in;

		s->in = prism_input__open(s->dir_files[i], -1);
		if (!s->in) {
			err = -errno;
			s->in = main_in;
			prism_session__set_error(s, "'%s': %s", s->dir_files[i], strerror(-err));
			break;
		}
		s->cur_file = s->dir_files[i];
		s->cur_input = i + 1 < s->nr_ord_in ? (uint32_t)(i + 1) : UINT32_MAX;
		err = end_stream(s);
		if (!err)
			err = process_stream(s, 0, prism_input__size(s->in));
		if (s->cur_input != UINT32_MAX) {
			/* its queued records are read back from it: keep the fd, not the window */
			prism_input__drop_window(s->in);
			s->ord_in[s->cur_input] = s->in;
		} else {
			prism_input__free(s->in);
		}
		s->in = main_in;
		s->cur_input = s->nr_ord_in ? 0 : UINT32_MAX;
		if (!err)
			s->cur_file = NULL;
	}
	/* deliver what was decoded before the end (or the damage), unless a callback said stop */
	if (s->ordered && err <= 0) {
		int ferr = prism_ordered__flush_all(s->ordered);

		if (!err)
			err = ferr;
	}
	if (s->ordered) {
		s->stats.nr_out_of_order = prism_ordered__nr_out_of_order(s->ordered);
		s->stats.nr_early_flushes = prism_ordered__nr_early_flushes(s->ordered);
	}
	free_ord_inputs(s);
	if (s->progress)
		report_progress(s, true);
	if (err)
		return err;
	return end_stream(s);
}
