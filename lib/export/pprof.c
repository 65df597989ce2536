// SPDX-License-Identifier: MIT
/*
 * pprof's profile.proto, streamed.  Field numbers from
 * github.com/google/pprof proto/profile.proto (perftools.profiles):
 * Profile 1 sample_type, 2 sample, 3 mapping, 4 location, 5 function,
 * 6 string_table, 9 time_nanos, 10 duration_nanos, 11 period_type,
 * 12 period, 13 comment, 14 default_sample_type.
 *
 * Repeated fields of a message may come in any order and interleaved, so
 * samples, locations and functions go out as they are met; only the
 * mappings (their ranges grow with the samples) and the strings wait for
 * the end.
 */
#include <prism/export-pprof.h>

#include "internal.h"
#include "export/intern.h"
#include "export/protobuf.h"

enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
};
enum { VT_TYPE = 1, VT_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_STR = 2 };
enum {
	MAPPING_ID = 1,
	MAPPING_START = 2,
	MAPPING_LIMIT = 3,
	MAPPING_OFFSET = 4,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9,
	MAPPING_HAS_INLINE_FRAMES = 10,
};
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3, LOCATION_LINE = 4 };
enum { LINE_FUNCTION_ID = 1, LINE_LINE = 2 };
enum { FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4 };

/* label keys, interned first (after "") */
enum { S_EMPTY, S_PID, S_TID, S_COMM, S_CPU, S__FIXED };
static const char *const fixed_strings[S__FIXED] = { "", "pid", "tid", "comm", "cpu" };

struct mapping {
	const struct prism_dso *dso;
	const char *path; /* owned by the symbols object */
	uint64_t lo, hi, lo_offset;
	bool file; /* a mapped file: file offsets are meaningful */
	bool lines, inlines;
};

struct prism_pprof {
	struct prism_symbols *sy;
	struct prism_pprof_opts o;
	struct pb_sink *sink;
	struct strtab str;
	struct pairmap mappings_by_key, locations, functions;
	struct mapping *mappings;
	size_t nr_mappings, alloc_mappings;
	uint64_t nr_locations, nr_functions, nr_samples;
	struct pb msg, sub, line; /* scratch */
	uint64_t *ids;
	size_t alloc_ids;
	int err;
};

struct prism_pprof *prism_pprof__new(FILE *fp, struct prism_symbols *sy,
				     const struct prism_pprof_opts *opts)
{
	struct prism_pprof *p = calloc(1, sizeof(*p));
	uint64_t idx;
	int i;

	if (!p)
		return NULL;
	p->sy = sy;
	p->o = *opts;
	for (i = 0; i < S__FIXED; i++) {
		if (strtab_intern(&p->str, fixed_strings[i], &idx)) {
			prism_pprof__free(p);
			errno = ENOMEM;
			return NULL;
		}
	}
	p->sink = pb_sink_new(fp, true);
	if (!p->sink) {
		int e = errno;

		prism_pprof__free(p);
		errno = e;
		return NULL;
	}
	return p;
}

static uint64_t intern(struct prism_pprof *p, const char *s)
{
	uint64_t idx = 0;

	if (s && *s && strtab_intern(&p->str, s, &idx) && !p->err)
		p->err = -ENOMEM;
	return idx;
}

/* the mapping of a resolved frame: one per DSO and load bias; 0 for none */
static uint64_t mapping_of(struct prism_pprof *p, const struct prism_frame *f)
{
	bool file = f->dso && !f->kernel && f->kind != PRISM_FRAME_JIT &&
		    f->kind != PRISM_FRAME_BPF;
	uint64_t bias = file ? f->ip - f->map_addr : 0, id;
	struct mapping *m;
	int ret;

	if (!f->dso)
		return 0;
	ret = pairmap_get_or_add(&p->mappings_by_key, (uintptr_t)f->dso, bias, p->nr_mappings + 1,
				 &id);
	if (ret < 0)
		goto nomem;
	if (ret == 1) {
		if (prism_ensure_mem((void **)&p->mappings, &p->alloc_mappings,
				     sizeof(*p->mappings), p->nr_mappings + 1))
			goto nomem;
		m = &p->mappings[p->nr_mappings++];
		*m = (struct mapping){ .dso = f->dso,
				       .path = f->dso_path,
				       .lo = f->ip,
				       .hi = f->ip,
				       .lo_offset = file ? f->map_addr : 0,
				       .file = file };
	}
	m = &p->mappings[id - 1];
	if (f->ip < m->lo) {
		m->lo = f->ip;
		m->lo_offset = file ? f->map_addr : 0;
	}
	if (f->ip > m->hi)
		m->hi = f->ip;
	return id;
nomem:
	p->err = -ENOMEM;
	return 0;
}

/* the function of a frame, written when new: keyed by name and DSO path */
static uint64_t function_of(struct prism_pprof *p, const struct prism_frame *f, const char *file)
{
	uint64_t name = intern(p, f->sym), path = intern(p, f->dso_path), id;
	int ret;

	ret = pairmap_get_or_add(&p->functions, name, path, p->nr_functions + 1, &id);
	if (ret < 0) {
		p->err = -ENOMEM;
		return 0;
	}
	if (ret == 1) {
		p->nr_functions++;
		pb_reset(&p->sub);
		pb_varint(&p->sub, FUNCTION_ID, id);
		pb_varint(&p->sub, FUNCTION_NAME, name);
		pb_varint(&p->sub, FUNCTION_SYSTEM_NAME, name);
		if (file)
			pb_varint(&p->sub, FUNCTION_FILENAME, intern(p, file));
		pb_sink_msg(p->sink, PROFILE_FUNCTION, &p->sub);
	}
	return id;
}

/*
 * The location of frames [@f, @f + @n): an address with the inlined
 * functions DWARF gives for it (kind PRISM_FRAME_INLINED, innermost first)
 * and the function they were inlined into last, one Line each.
 */
static uint64_t location_of(struct prism_pprof *p, const struct prism_frame *f, size_t n)
{
	const struct prism_frame *outer = &f[n - 1];
	uint64_t map = mapping_of(p, outer), id;
	struct mapping *m = map ? &p->mappings[map - 1] : NULL;
	size_t k;
	int ret;

	ret = pairmap_get_or_add(&p->locations, map | (uint64_t)n << 40, f->ip, p->nr_locations + 1,
				 &id);
	if (ret < 0) {
		p->err = -ENOMEM;
		return 0;
	}
	if (ret == 0)
		return id;
	p->nr_locations++;
	pb_reset(&p->msg);
	pb_varint(&p->msg, LOCATION_ID, id);
	if (map)
		pb_varint(&p->msg, LOCATION_MAPPING_ID, map);
	pb_varint(&p->msg, LOCATION_ADDRESS, f->ip);
	for (k = 0; k < n && f[k].sym; k++) {
		const char *file = NULL;
		unsigned int line = 0;
		uint64_t fn;

		/* the address's line is the innermost function's */
		if (!k && !p->o.no_srcline && prism_symbols__srcline(p->sy, &f[k], &file, &line))
			file = NULL, line = 0;
		fn = function_of(p, &f[k], file);
		pb_reset(&p->line);
		pb_varint(&p->line, LINE_FUNCTION_ID, fn);
		if (line)
			pb_varint(&p->line, LINE_LINE, line);
		pb_msg(&p->msg, LOCATION_LINE, &p->line);
		if (m && file)
			m->lines = true;
	}
	if (m && n > 1)
		m->inlines = true;
	pb_sink_msg(p->sink, PROFILE_LOCATION, &p->msg);
	return id;
}

/*
 * String labels, numbers too: proto3 cannot tell a num of 0 (cpu 0, pid 0)
 * from none, and pprof drops such a label.
 */
static void label(struct prism_pprof *p, uint64_t key, const char *s)
{
	pb_reset(&p->line);
	pb_varint(&p->line, LABEL_KEY, key);
	pb_varint(&p->line, LABEL_STR, intern(p, s));
	pb_msg(&p->sub, SAMPLE_LABEL, &p->line);
}

static void label_num(struct prism_pprof *p, uint64_t key, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", v);
	label(p, key, buf);
}

int prism_pprof__add(struct prism_pprof *p, const struct prism_export_sample *s)
{
	uint64_t values[2] = { 1, s->period };
	size_t i, n, nr_ids = 0;

	if (p->err)
		return p->err;
	if (prism_ensure_mem((void **)&p->ids, &p->alloc_ids, sizeof(*p->ids), s->nr + 1))
		return p->err = -ENOMEM;
	for (i = 0; i < s->nr; i += n) {
		for (n = 1; i + n < s->nr && s->frames[i + n - 1].kind == PRISM_FRAME_INLINED &&
			    s->frames[i + n].ip == s->frames[i].ip;
		     n++)
			;
		p->ids[nr_ids++] = location_of(p, &s->frames[i], n);
	}
	pb_reset(&p->sub);
	pb_packed(&p->sub, SAMPLE_LOCATION_ID, p->ids, nr_ids);
	pb_packed(&p->sub, SAMPLE_VALUE, values, 2);
	if (p->o.labels) {
		label_num(p, S_PID, s->pid);
		label_num(p, S_TID, s->tid);
		if (s->comm)
			label(p, S_COMM, s->comm);
		if (s->has_cpu)
			label_num(p, S_CPU, s->cpu);
	}
	pb_sink_msg(p->sink, PROFILE_SAMPLE, &p->sub);
	p->nr_samples++;
	if (p->err)
		return p->err;
	if (p->sub.failed || p->msg.failed || p->line.failed)
		return p->err = -ENOMEM;
	return p->err = pb_sink_write(p->sink, NULL, 0);
}

static void value_type(struct prism_pprof *p, unsigned int field, const char *type,
		       const char *unit)
{
	pb_reset(&p->line);
	pb_varint(&p->line, VT_TYPE, intern(p, type));
	pb_varint(&p->line, VT_UNIT, intern(p, unit));
	pb_msg(&p->msg, field, &p->line);
}

int prism_pprof__finish(struct prism_pprof *p, int64_t time_nanos, uint64_t duration_nanos,
			struct prism_pprof_stats *st)
{
	const char *type = "cpu", *unit = "nanoseconds";
	char bid[64];
	size_t i;
	int err;

	pb_reset(&p->msg);
	if (p->o.value == PRISM_PPROF_OFFCPU_NS) {
		type = "off_cpu";
	} else if (p->o.value == PRISM_PPROF_EVENTS) {
		type = p->o.event ? p->o.event : "events";
		unit = "count";
	}
	value_type(p, PROFILE_SAMPLE_TYPE, "samples", "count");
	value_type(p, PROFILE_SAMPLE_TYPE, type, unit);
	value_type(p, PROFILE_PERIOD_TYPE, type, unit);
	if (p->o.period)
		pb_varint(&p->msg, PROFILE_PERIOD, p->o.period);
	pb_varint(&p->msg, PROFILE_DEFAULT_SAMPLE_TYPE, intern(p, type));
	if (time_nanos)
		pb_varint(&p->msg, PROFILE_TIME_NANOS, (uint64_t)time_nanos);
	if (duration_nanos)
		pb_varint(&p->msg, PROFILE_DURATION_NANOS, duration_nanos);
	if (p->o.comment)
		pb_varint(&p->msg, PROFILE_COMMENT, intern(p, p->o.comment));
	for (i = 0; i < p->nr_mappings; i++) {
		const struct mapping *m = &p->mappings[i];
		const char *id = prism_dso__build_id(m->dso, bid, sizeof(bid));

		pb_reset(&p->sub);
		pb_varint(&p->sub, MAPPING_ID, i + 1);
		pb_varint(&p->sub, MAPPING_START, m->lo);
		pb_varint(&p->sub, MAPPING_LIMIT, m->hi + 1);
		if (m->lo_offset)
			pb_varint(&p->sub, MAPPING_OFFSET, m->lo_offset);
		pb_varint(&p->sub, MAPPING_FILENAME, intern(p, m->path));
		if (id && *id)
			pb_varint(&p->sub, MAPPING_BUILD_ID, intern(p, id));
		pb_varint(&p->sub, MAPPING_HAS_FUNCTIONS, 1);
		if (m->lines) {
			pb_varint(&p->sub, MAPPING_HAS_FILENAMES, 1);
			pb_varint(&p->sub, MAPPING_HAS_LINE_NUMBERS, 1);
		}
		if (m->inlines)
			pb_varint(&p->sub, MAPPING_HAS_INLINE_FRAMES, 1);
		pb_msg(&p->msg, PROFILE_MAPPING, &p->sub);
	}
	/* every string is interned by now: the table goes last */
	for (i = 0; i < p->str.nr; i++)
		pb_string(&p->msg, PROFILE_STRING_TABLE, p->str.str[i]);
	if (p->msg.failed && !p->err)
		p->err = -ENOMEM;
	if (!p->err)
		pb_sink_write(p->sink, p->msg.buf, p->msg.len);
	if (st) {
		st->samples = p->nr_samples;
		st->locations = p->nr_locations;
		st->functions = p->nr_functions;
		st->mappings = p->nr_mappings;
		st->strings = p->str.nr;
		st->proto_bytes = pb_sink_bytes(p->sink);
	}
	err = pb_sink_finish(p->sink);
	p->sink = NULL;
	return p->err ? p->err : err;
}

void prism_pprof__free(struct prism_pprof *p)
{
	if (!p)
		return;
	pb_sink_finish(p->sink);
	strtab_release(&p->str);
	pairmap_release(&p->mappings_by_key);
	pairmap_release(&p->locations);
	pairmap_release(&p->functions);
	free(p->mappings);
	free(p->ids);
	pb_release(&p->msg);
	pb_release(&p->sub);
	pb_release(&p->line);
	free(p);
}
