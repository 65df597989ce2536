// SPDX-License-Identifier: MIT
/*
 * prism script: one line per sample in perf script's layout, with symbols
 * (sym, symoff, dso, srcline) and call chains resolved as perf script
 * prints them; --csv
 * (readperf's overview.csv: every record), --json (one object per line) and
 * -D (a raw dump with offsets, type names and sizes).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/pt.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/suggest.h>
#include <prism/stat-reads.h>
#include <prism/symbol.h>
#include <prism/task.h>
#include <prism/tp.h>

#include "cmd.h"
#include "input.h"
#include "linebuf.h"
#include "options.h"
#include "sample-filter.h"
#include "script.h"

/* the fields that need the symbol tables (and the address spaces) */
#define F_SYMBOLS (F_SYM | F_SYMOFF | F_DSO | F_SRCLINE)

enum mode { MODE_TEXT, MODE_CSV, MODE_JSON, MODE_DUMP };

struct script {
	struct prism_session *s;
	struct script_dump dump; /* -D */
	struct prism_tasks *tasks;
	struct prism_tp *tp;
	bool ready; /* name width and tracing data looked up (pipe mode: at the first sample) */
	enum mode mode;
	unsigned int fields; /* 0: perf's defaults per event */
	unsigned int fields_add, fields_del; /* -F +f,-f: changes to the defaults */
	bool hide_cg; /* -G: no call chains, one line per sample */
	bool ns; /* --ns: times in nanoseconds */
	int max_stack; /* call chain frames printed per sample */
	struct prism_symbols *sy; /* NULL when no field needs symbols */
	struct prism_callchain cc;
	struct prism_frame frame; /* a sample without call chain */
	/* lengths of the names frames point to (owned by sy, stable), by address */
	struct {
		const char *str;
		size_t len;
	} lens[1024];
	int err; /* a failure while resolving, returned from the callbacks */
	int name_width;
	uint64_t nr; /* records seen (csv) */
	struct prism_strbuf line;
	unsigned int *defaults; /* perf's default fields by evsel index, 0 = not known yet */
	size_t nr_defaults;
	int data_src_width; /* perf pads data_src to the longest one printed so far */
	struct script_stat stat; /* perf stat record files */
	/* leader sampling: last value per sample id */
	uint64_t *grp_ids, *grp_vals;
	size_t grp_nr, grp_cap;
	unsigned int show; /* enum script_show: --show-*-events */
	struct sample_filter sf; /* -C, --pid, --tid, -c, -S, --dsos, --time */
};

static unsigned int fields_of(struct script *sc, const struct prism_evsel *evsel)
{
	int idx = prism_evsel__idx(evsel);
	unsigned int f;

	if (sc->fields)
		return sc->fields;
	if (idx < 0 || (size_t)idx >= 4096)
		return (script_default_fields(sc->s, evsel) | sc->fields_add) & ~sc->fields_del;
	if ((size_t)idx >= sc->nr_defaults) {
		sc->defaults = xrealloc(sc->defaults, (size_t)(idx + 1) * sizeof(*sc->defaults));
		memset(sc->defaults + sc->nr_defaults, 0,
		       (idx + 1 - sc->nr_defaults) * sizeof(*sc->defaults));
		sc->nr_defaults = (size_t)idx + 1;
	}
	f = sc->defaults[idx];
	if (!f)
		f = sc->defaults[idx] = script_default_fields(sc->s, evsel);
	return (f | sc->fields_add) & ~sc->fields_del;
}

static const char *comm_of(struct script *sc, uint32_t tid, char *buf, size_t len)
{
	const char *c = prism_tasks__comm(sc->tasks, tid);

	if (c)
		return c;
	snprintf(buf, len, ":%d", (int)tid);
	return buf;
}

/* strlen() of a symbol or DSO name, remembered: chains repeat the same few */
static inline size_t name_len(struct script *sc, const char *s)
{
	size_t h = ((uintptr_t)s >> 3) % PRISM_ARRAY_SIZE(sc->lens);

	if (sc->lens[h].str != s) {
		sc->lens[h].str = s;
		sc->lens[h].len = strlen(s);
	}
	return sc->lens[h].len;
}

/*
 * "\n  file:line" of a frame (perf shows the file's base name).  Without line
 * information perf prints what addr2line answers, "??:0", when it has the
 * binary, else "dso[addr]" with the DSO's short name and the address in its
 * ELF image (kernel frames without vmlinux, binaries not found).
 */
static char *put_srcline(struct script *sc, const struct prism_frame *fr)
{
	struct prism_strbuf *sb = &sc->line;
	const char *file, *slash;
	unsigned int line;
	size_t len;
	char *p;

	if (!prism_symbols__srcline(sc->sy, fr, &file, &line)) {
		slash = strrchr(file, '/');
		if (slash)
			file = slash + 1;
		len = strlen(file);
		p = room(sb, len + DIGITS_MAX + 4);
		if (!p)
			return NULL;
		p = put_str(p, "\n  ", 3);
		p = put_str(p, file, len);
		*p++ = ':';
		return put_udec(p, line, 0, ' ');
	}
	file = prism_dso__symsrc(fr->dso); /* a path, or a note for in-memory images */
	if (!fr->kernel && file && file[0] == '/') {
		p = room(sb, 8);
		return p ? put_str(p, "\n  ??:0", 7) : NULL;
	}
	len = strlen(fr->dso_name);
	p = room(sb, len + DIGITS_MAX + 6);
	if (!p)
		return NULL;
	p = put_str(p, "\n  ", 3);
	p = put_str(p, fr->dso_name, len);
	*p++ = '[';
	p = put_hex(p, fr->dso_addr, 0);
	*p++ = ']';
	return p;
}

/*
 * What follows the address of a frame: " sym+0xoff (dso)" with the parts
 * the fields ask for (perf script's layout: "[unknown]" for an unresolved
 * symbol), then the srcline, then " (inlined)" for an inlined function
 * (in place of the DSO, and whatever the fields).
 */
static void put_frame(struct script *sc, const struct prism_frame *fr, unsigned int f, bool chain)
{
	struct prism_strbuf *sb = &sc->line;
	const char *sym = fr->sym ? fr->sym : "[unknown]";
	const char *dso = fr->dso_path ? fr->dso_path : "[unknown]";
	size_t sym_len = (f & F_SYM) ? name_len(sc, sym) : 0;
	size_t dso_len = (f & F_DSO) ? name_len(sc, dso) : 0;
	bool inlined = fr->sym && fr->kind == PRISM_FRAME_INLINED;
	char *p = room(sb, sym_len + dso_len + 2 * DIGITS_MAX + 48);

	if (!p)
		return;
	if (chain) { /* "\t%16" PRIx64 */
		*p++ = '\t';
		p = put_hex(p, prism_frame__addr(fr), 16);
	}
	if (f & F_SYM) {
		*p++ = ' ';
		p = put_str(p, sym, sym_len);
		if ((f & F_SYMOFF) && fr->sym) {
			p = put_str(p, "+0x", 3);
			p = put_hex(p, fr->symoff, 0);
		}
	}
	if ((f & F_DSO) && !inlined) {
		p = put_str(p, " (", 2);
		p = put_str(p, dso, dso_len);
		*p++ = ')';
	}
	if ((f & F_SRCLINE) && fr->dso) {
		commit(sb, p);
		p = put_srcline(sc, fr);
		if (!p)
			return;
		commit(sb, p);
		p = room(sb, 16);
		if (!p)
			return;
	}
	if (inlined)
		p = put_str(p, " (inlined)", 10);
	if (chain)
		*p++ = '\n';
	commit(sb, p);
}

/*
 * perf script prints no frame at all for a chain with an unknown context
 * marker (a broken frame-pointer walk can end in -1: perf calls the chain
 * corrupted and discards it), nor for one of markers only that has no user
 * stack or registers to unwind (the unwinder counts a copy without registers)
 */
static bool chain_is_empty(const struct prism_sample *s)
{
	bool frames = false;
	uint64_t i;

	for (i = 0; i < s->callchain_nr; i++) {
		switch (s->callchain[i]) {
		case PERF_CONTEXT_HV:
		case PERF_CONTEXT_KERNEL:
		case PERF_CONTEXT_USER:
			break; /* perf 6.1 takes these three only */
		default:
			if (s->callchain[i] >= PERF_CONTEXT_MAX)
				return true;
			frames = true;
			break;
		}
	}
	return !frames &&
	       !((s->type & PERF_SAMPLE_STACK_USER) && (s->user_stack_size || s->user_regs));
}

/* one "\t%16" PRIx64 " sym+0xoff (dso)\n" line per frame of the resolved chain */
static void print_callchain(struct script *sc, unsigned int f)
{
	size_t i, nr = sc->cc.nr;

	if (sc->max_stack >= 0 && nr > (size_t)sc->max_stack)
		nr = (size_t)sc->max_stack;
	for (i = 0; i < nr; i++) {
		put_frame(sc, &sc->cc.frames[i], f, true);
	}
}

/* bytes the fixed-width numeric fields of one line can take */
#define LINE_NUMS_MAX (8 * (DIGITS_MAX + 16))

/* perf's start of a line: comm, pid/tid, cpu and time as @f has them */
static char *put_head(struct script *sc, char *p, const struct prism_sample *s, unsigned int f,
		      bool chain, const char *comm, size_t comm_len)
{
	if (f & F_COMM) { /* chain ? "%s " : "%16s " */
		p = put_field(p, comm, comm_len, chain ? 0 : 16, false, ' ');
		*p++ = ' ';
	}
	if ((f & F_PID) && (f & F_TID)) { /* "%5d/%-5d " */
		p = put_int(p, (int)s->pid, 5, false);
		*p++ = '/';
		p = put_int(p, (int)s->tid, 5, true);
		*p++ = ' ';
	} else if (f & (F_PID | F_TID)) { /* "%5d " */
		p = put_int(p, (int)(f & F_PID ? s->pid : s->tid), 5, false);
		*p++ = ' ';
	}
	if (f & F_CPU) { /* "[%03u] " */
		*p++ = '[';
		p = put_udec(p, s->cpu, 3, '0');
		p = put_str(p, "] ", 2);
	}
	if (f & F_TIME) { /* "%5" PRIu64 ".%06" PRIu64 ": " of seconds and us (ns: %09) */
		p = put_udec(p, s->time / 1000000000, 5, ' ');
		*p++ = '.';
		if (sc->ns)
			p = put_udec(p, s->time % 1000000000, 9, '0');
		else
			p = put_udec(p, s->time % 1000000000 / 1000, 6, '0');
		p = put_str(p, ": ", 2);
	}
	return p;
}

static void text_line(struct script *sc, const struct prism_event *ev, uint64_t period,
		      const struct prism_evsel *evsel)
{
	const struct prism_sample *s = &ev->sample;
	unsigned int f = fields_of(sc, evsel);
	const struct perf_event_attr *attr = prism_evsel__attr(evsel);
	struct prism_strbuf *sb = &sc->line;
	bool chain = (f & F_IP) && (s->type & PERF_SAMPLE_CALLCHAIN) && !sc->hide_cg;
	const char *comm = NULL, *name = NULL;
	size_t comm_len = 0, name_len = 0;
	char buf[32], *p;

	if (attr->type != PERF_TYPE_TRACEPOINT)
		f &= ~F_TRACE;
	if (f & F_COMM) {
		comm = comm_of(sc, s->tid, buf, sizeof(buf));
		comm_len = strlen(comm);
	}
	if (f & F_EVENT) {
		name = prism_evsel__name(evsel);
		name_len = strlen(name);
	}
	p = room(sb, LINE_NUMS_MAX + comm_len + name_len + (size_t)sc->name_width);
	if (!p)
		return;
	p = put_head(sc, p, s, f, chain, comm, comm_len);
	if (f & F_PERIOD) { /* "%10" PRIu64 " " */
		p = put_udec(p, period, 10, ' ');
		*p++ = ' ';
	}
	if (f & F_EVENT) { /* "%*s: " */
		p = put_field(p, name, name_len, (size_t)sc->name_width, false, ' ');
		p = put_str(p, ": ", 2);
	}
	commit(sb, p);
	if ((f & F_TRACE) && sc->tp && s->raw_data)
		prism_tp__format(sc->tp, s->raw_data, s->raw_size, sb);
	p = room(sb, LINE_NUMS_MAX);
	if (!p)
		return;
	if (f & F_ADDR) /* "%16" PRIx64 */
		p = put_hex(p, s->addr, 16);
	if (f & F_DATA_SRC) {
		commit(sb, p);
		script_put_data_src(sb, &sc->data_src_width, s->data_src);
		p = room(sb, LINE_NUMS_MAX);
		if (!p)
			return;
	}
	if (f & F_WEIGHT) /* "%16" PRIu64 */
		p = put_udec(p, s->weight, 16, ' ');
	if (f & F_INS_LAT) /* "%16" PRIu16 */
		p = put_udec(p, s->weight_var2, 16, ' ');
	if (f & F_CGROUP) { /* "%" PRIu64 " " */
		p = put_udec(p, s->cgroup, 0, ' ');
		*p++ = ' ';
	}
	if ((f & F_IP) && !chain) { /* " %16" PRIx64 " sym+0xoff (dso)" */
		*p++ = ' ';
		p = put_hex(p, s->ip, 16);
		commit(sb, p);
		if ((f & F_SYMBOLS) && sc->sy) {
			prism_symbols__resolve(sc->sy, s->pid,
					       ev->raw->misc & PRISM_MISC_CPUMODE_MASK, s->ip,
					       &sc->frame);
			put_frame(sc, &sc->frame, f, false);
		}
		p = room(sb, 1);
		if (!p)
			return;
	}
	if (chain) {
		*p++ = '\n';
		commit(sb, p);
		/* perf shows DSO-relative addresses in chains, so they are always resolved */
		if (sc->sy && !chain_is_empty(s)) {
			int err = prism_symbols__callchain(sc->sy, ev, &sc->cc,
							   PRISM_CALLCHAIN_INLINE_UNWOUND);

			if (err)
				sc->err = err;
			else
				print_callchain(sc, f);
		}
		/* a call chain ends with an empty line (after the fields that follow it) */
		script_put_tail(sb, sc->sy, ev, f);
		prism_strbuf_addch(sb, '\n');
		return;
	}
	commit(sb, p);
	script_put_tail(sb, sc->sy, ev, f);
	/* perf keeps trailing blanks */
	prism_strbuf_addch(sb, '\n');
}

/* a frame's keys, as the fields allow: "sym", "symoff", "dso", "inlined" */
static void json_frame_keys(struct script *sc, const struct prism_frame *fr, unsigned int f)
{
	struct prism_strbuf *sb = &sc->line;

	if (f & F_SYM) {
		prism_strbuf_addstr(sb, ",\"sym\":");
		if (fr->sym)
			prism_strbuf_add_json_str(sb, fr->sym);
		else
			prism_strbuf_addstr(sb, "null");
		if ((f & F_SYMOFF) && fr->sym)
			prism_strbuf_addf(sb, ",\"symoff\":%" PRIu64, fr->symoff);
	}
	if (f & F_DSO) {
		prism_strbuf_addstr(sb, ",\"dso\":");
		prism_strbuf_add_json_str(sb, fr->dso_path ? fr->dso_path : "[unknown]");
	}
	if (fr->sym && fr->kind == PRISM_FRAME_INLINED)
		prism_strbuf_addstr(sb, ",\"inlined\":true");
}

/*
 * One object per sample with the keys -F selects (the defaults as perf
 * script's): call chains as resolved frames, leaf first, without the
 * kernel's context markers; times in nanoseconds.
 */
static void json_line(struct script *sc, const struct prism_event *ev, uint64_t period,
		      const struct prism_evsel *evsel)
{
	const struct prism_sample *s = &ev->sample;
	unsigned int f = fields_of(sc, evsel);
	struct prism_strbuf *sb = &sc->line;
	bool chain = (f & F_IP) && (s->type & PERF_SAMPLE_CALLCHAIN) && !sc->hide_cg;
	const char *sep = "{";
	char buf[32];
	size_t i;

	if (f & F_EVENT) {
		prism_strbuf_addstr(sb, "{\"event\":");
		prism_strbuf_add_json_str(sb, prism_evsel__name(evsel));
		sep = ",";
	}
	if (f & F_COMM) {
		prism_strbuf_addf(sb, "%s\"comm\":", sep);
		prism_strbuf_add_json_str(sb, comm_of(sc, s->tid, buf, sizeof(buf)));
		sep = ",";
	}
	if (f & (F_PID | F_TID)) {
		prism_strbuf_addf(sb, "%s\"pid\":%d,\"tid\":%d", sep, (int)s->pid, (int)s->tid);
		sep = ",";
	}
	if ((f & F_CPU) && (s->type & PERF_SAMPLE_CPU)) {
		prism_strbuf_addf(sb, "%s\"cpu\":%u", sep, s->cpu);
		sep = ",";
	}
	if (f & F_TIME) {
		prism_strbuf_addf(sb, "%s\"time\":%" PRIu64, sep, s->time);
		sep = ",";
	}
	if (f & F_PERIOD) {
		prism_strbuf_addf(sb, "%s\"period\":%" PRIu64, sep, period);
		sep = ",";
	}
	if ((f & F_ADDR) && (s->type & PERF_SAMPLE_ADDR)) {
		prism_strbuf_addf(sb, "%s\"addr\":\"0x%" PRIx64 "\"", sep, s->addr);
		sep = ",";
	}
	if ((f & F_IP) && (s->type & PERF_SAMPLE_IP)) {
		prism_strbuf_addf(sb, "%s\"ip\":\"0x%" PRIx64 "\"", sep, s->ip);
		sep = ",";
		if (!chain && (f & F_SYMBOLS) && sc->sy) {
			prism_symbols__resolve(sc->sy, s->pid,
					       ev->raw->misc & PRISM_MISC_CPUMODE_MASK, s->ip,
					       &sc->frame);
			json_frame_keys(sc, &sc->frame, f);
		}
	}
	if (chain && sc->sy) {
		size_t nr = 0;

		if (!chain_is_empty(s)) {
			int err = prism_symbols__callchain(sc->sy, ev, &sc->cc,
							   PRISM_CALLCHAIN_INLINE_UNWOUND);

			if (err)
				sc->err = err;
			else
				nr = sc->cc.nr;
		}
		if (sc->max_stack >= 0 && nr > (size_t)sc->max_stack)
			nr = (size_t)sc->max_stack;
		prism_strbuf_addf(sb, "%s\"callchain\":[", sep);
		sep = ",";
		for (i = 0; i < nr; i++) {
			const struct prism_frame *fr = &sc->cc.frames[i];

			prism_strbuf_addf(sb, "%s{\"ip\":\"0x%" PRIx64 "\"", i ? "," : "", fr->ip);
			json_frame_keys(sc, fr, f);
			prism_strbuf_addch(sb, '}');
		}
		prism_strbuf_addch(sb, ']');
	}
	if ((f & F_TRACE) && s->raw_data && sc->tp) {
		struct prism_strbuf t = STRBUF_INIT;

		prism_tp__format(sc->tp, s->raw_data, s->raw_size, &t);
		prism_strbuf_addf(sb, "%s\"trace\":", sep);
		prism_strbuf_add_json_str(sb, t.buf ? t.buf : "");
		prism_strbuf_release(&t);
		sep = ",";
	}
	prism_strbuf_addstr(sb, *sep == '{' ? "{}\n" : "}\n");
}

#define OUT_CHUNK (64u << 10)

/* write the lines gathered so far: all of them with @all, else in chunks of OUT_CHUNK */
static void flush_out(struct script *sc, bool all)
{
	if (!all && sc->line.len < OUT_CHUNK)
		return;
	fwrite(sc->line.buf, 1, sc->line.len, stdout);
	prism_strbuf_reset(&sc->line);
}

static void emit(struct script *sc)
{
	flush_out(sc, false);
}

/* leader sampling (PERF_SAMPLE_READ + GROUP): one line per member, period = delta */
static uint64_t group_delta(struct script *sc, uint64_t id, uint64_t value)
{
	size_t i;

	for (i = 0; i < sc->grp_nr; i++) {
		if (sc->grp_ids[i] == id) {
			uint64_t d = value - sc->grp_vals[i];

			sc->grp_vals[i] = value;
			return d;
		}
	}
	if (sc->grp_nr == sc->grp_cap) {
		sc->grp_cap = sc->grp_cap ? sc->grp_cap * 2 : 16;
		sc->grp_ids = xrealloc(sc->grp_ids, sc->grp_cap * sizeof(uint64_t));
		sc->grp_vals = xrealloc(sc->grp_vals, sc->grp_cap * sizeof(uint64_t));
	}
	sc->grp_ids[sc->grp_nr] = id;
	sc->grp_vals[sc->grp_nr++] = value;
	return value;
}

static void setup_names(struct script *sc)
{
	size_t i;

	for (i = 0; i < prism_session__nr_evsels(sc->s); i++) {
		int n = (int)strlen(prism_evsel__name(prism_session__evsel(sc->s, i)));

		if (n > sc->name_width)
			sc->name_width = n;
	}
	/* tracing data may arrive in the stream (pipe mode) */
	sc->tp = prism_session__tp(sc->s);
	sc->ready = true;
}

static void one_sample(struct script *sc, const struct prism_event *ev, uint64_t period,
		       const struct prism_evsel *evsel)
{
	if (sample_filter_skip_event(&sc->sf, ev))
		return;
	if (!sc->ready)
		setup_names(sc);
	if (sc->mode == MODE_JSON)
		json_line(sc, ev, period, evsel);
	else
		text_line(sc, ev, period, evsel);
	emit(sc);
}

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;
	const struct prism_sample *s = &ev->sample;
	const struct perf_event_attr *attr = prism_evsel__attr(ev->evsel);
	uint64_t i;

	if (sc->mode == MODE_CSV)
		return 0;
	if ((s->type & PERF_SAMPLE_READ) && (attr->read_format & PERF_FORMAT_GROUP) &&
	    (attr->read_format & PERF_FORMAT_ID)) {
		size_t entry = 16 + (attr->read_format & PERF_FORMAT_LOST ? 8 : 0);
		const uint8_t *v = s->read.values_raw;

		for (i = 0; i < s->read.nr; i++, v += entry) {
			uint64_t value, id;
			struct prism_evsel *m;

			memcpy(&value, v, 8);
			memcpy(&id, v + 8, 8);
			m = prism_session__evsel_by_id(sc->s, id);
			if (m)
				one_sample(sc, ev, group_delta(sc, id, value), m);
		}
		return 0;
	}
	one_sample(sc, ev, s->period, ev->evsel);
	return sc->err;
}

/* readperf's overview.csv: nr,type,pid,tid,time,info for every record */
static int csv_record(struct script *sc, const struct prism_event *ev)
{
	uint64_t nr = sc->nr++; /* a sample filtered out keeps its number */

	if (ev->type == PERF_RECORD_SAMPLE && sample_filter_skip_event(&sc->sf, ev))
		return 0;
	prism_event__overview_csv(&sc->line, nr, ev, ev->sample.period);
	emit(sc);
	return 0;
}

/* --show-*-events: a record after the fields of its event, as perf prints it */
static void record_text(struct script *sc, const struct prism_event *ev)
{
	const struct prism_evsel *evsel = ev->evsel;
	struct prism_sample smp = ev->sample;
	int64_t pid, tid;
	const char *comm = ":-1";
	char buf[32], *p;
	unsigned int f;

	script_show_ids(ev, &pid, &tid);
	if (!evsel && prism_session__nr_evsels(sc->s))
		evsel = prism_session__evsel(sc->s, 0); /* perf's: the first */
	if (sample_filter_skip_record(&sc->sf, evsel, ev))
		return;
	if (evsel) {
		const struct perf_event_attr *a = prism_evsel__attr(evsel);

		f = fields_of(sc, evsel);
		if (!a->sample_id_all) { /* perf's stand-ins for the missing sample_id */
			smp.cpu = 0;
			smp.time = ev->type == PERF_RECORD_FORK || ev->type == PERF_RECORD_EXIT ?
					   ev->fork.time :
					   0;
			smp.pid = (uint32_t)pid;
			smp.tid = (uint32_t)tid;
		}
		if (tid != -1)
			comm = comm_of(sc, (uint32_t)tid, buf, sizeof(buf));
		p = room(&sc->line, LINE_NUMS_MAX + strlen(comm));
		if (!p)
			return;
		p = put_head(sc, p, &smp, f,
			     (f & F_IP) && (a->sample_type & PERF_SAMPLE_CALLCHAIN) && !sc->hide_cg,
			     comm, strlen(comm));
		commit(&sc->line, p);
	}
	script_put_record(&sc->line, ev, sc->sy);
}

static void record_line(struct script *sc, const struct prism_event *ev)
{
	record_text(sc, ev);
	emit(sc);
}

/* --itrace: the line into @out, for script-pt.c to put between the samples */
static void itrace_show_line(void *ctx, const struct prism_event *ev, struct prism_strbuf *out)
{
	struct script *sc = ctx;
	struct prism_strbuf keep = sc->line;

	sc->line = *out;
	record_text(sc, ev);
	*out = sc->line;
	sc->line = keep;
}

static int on_record(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;
	bool show = sc->mode == MODE_TEXT && (sc->show & script_show_of(ev->type));
	int err = 0;

	if (show && ev->type == PERF_RECORD_EXIT) /* perf: before the task is gone */
		record_line(sc, ev);

	if (ev->type == PERF_RECORD_COMM || ev->type == PERF_RECORD_FORK ||
	    ev->type == PERF_RECORD_EXIT)
		err = prism_tasks__event(sc->tasks, ev);
	/* MMAP/MMAP2/COMM/FORK/EXIT/KSYMBOL build the address spaces */
	if (!err && sc->sy && ev->type != PERF_RECORD_SAMPLE)
		err = prism_symbols__event(sc->sy, ev);
	if (err)
		return err;
	if (sc->mode == MODE_CSV)
		return csv_record(sc, ev);
	if (ev->type == PERF_RECORD_SAMPLE)
		return on_sample(ctx, ev);
	if (show && ev->type != PERF_RECORD_EXIT)
		record_line(sc, ev);
	return 0;
}

/* perf's own records: HEADER_BUILD_ID (perf inject -b) tells the build ids */
static int on_user(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;
	int err = 0;

	if (sc->sy && ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		err = prism_symbols__event(sc->sy, ev);
	if (!err && sc->mode == MODE_TEXT)
		err = script_stat_event(&sc->stat, sc->s, ev, &sc->line);
	if (!err && sc->mode == MODE_TEXT && (sc->show & SHOW_ROUND) &&
	    ev->type == PRISM_RECORD_FINISHED_ROUND) {
		prism_strbuf_addstr(&sc->line, "PERF_RECORD_FINISHED_ROUND\n");
		emit(sc);
	}
	if (err)
		return err;
	if (sc->mode == MODE_CSV)
		return csv_record(sc, ev);
	return 0;
}

static int dump_malformed(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;

	script_dump_malformed(&sc->dump, sc->s, &sc->line, ev);
	emit(sc);
	return 0;
}

static int dump_flush(void *ctx, struct prism_strbuf *sb)
{
	(void)sb; /* sc->line */
	emit(ctx);
	return 0;
}

static int dump_record(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;

	if (script_dump_record(&sc->dump, sc->s, &sc->line, ev, dump_flush, sc))
		emit(sc);
	return 0;
}

/* symbols are needed when a sample line prints an address, a symbol or a chain */
static bool needs_symbols(const struct script *sc)
{
	if (sc->mode == MODE_DUMP)
		return true; /* a TEXT_POKE's kernel symbol */
	if (sc->mode != MODE_TEXT && sc->mode != MODE_JSON)
		return false;
	if (!sc->fields)
		return true; /* the defaults print ip, sym and dso */
	return sc->fields & (F_IP | F_BRSTACKS);
}

static int setup_symbols(struct script *sc, const struct prism_symbols_opts *so, const char *input)
{
	int err;

	sc->sy = prism_symbols__new(so);
	if (!sc->sy) {
		error_errno(errno, "cannot set up symbol resolution");
		if (errno == EINVAL)
			hint("--map-path takes OLD=NEW");
		return -1;
	}
	err = prism_symbols__set_features(sc->sy, prism_session__features(sc->s));
	if (err) {
		error_errno(err, "cannot read the build ids of '%s'", input ? input : "perf.data");
		return -1;
	}
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism script [-i <file>] [-F <fields>] [-G] [--symfs <dir>] [--csv | --json | -D] [--no-order] [--ns] [--itrace=<opts> | --call-trace | --call-ret-trace] [<filters>]",
		NULL
	};
	const char *input = NULL, *fields = NULL, *itrace = NULL, *bad = NULL;
	const char *kcore = NULL, *vmlinux = NULL;
	struct prism_itrace it;
	struct pt_fields ptf = { 0 };
	const char *insn_trace = NULL, *dis_style = NULL;
	bool force = false, csv = false, json = false, dump = false, no_order = false;
	bool call_trace = false, callret_trace = false;
	bool show[9] = { false }; /* --show-*-events, in enum script_show's order */
	struct prism_symbols_opts so = { 0 };
	struct strlist map_path = { 0 };
	struct script sc = { .line = STRBUF_INIT, .max_stack = 127 };
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_CALLBACK(
			'F', "fields", &fields, "list",
			"comma-separated fields: " FIELD_LIST
			". Default as perf: comm,tid,[cpu],time,event,period,ip,sym,symoff,dso "
			"(tracepoints: comm,tid,cpu,time,event,trace). A list starting with '+' "
			"or '-' adds to / removes from the defaults (-F +srcline,-period). sym, "
			"symoff and dso show with ip; in call chains ip is the DSO-relative address. "
			"With --itrace (perf's): [hw:|synth:]" FIELD_LIST_PT,
			script_opt_fields),
		OPT_BOOL('G', "hide-call-graph", &sc.hide_cg,
			 "one line per sample: the sampled address only, no call chain"),
		OPT_INT(0, "max-stack", &sc.max_stack, "n",
			"print at most n frames of each call chain (default 127, as perf)"),
		OPT_BOOL(0, "csv", &csv,
			 "every record as CSV: nr,type,pid,tid,time,info (readperf's overview.csv)"),
		OPT_BOOL(0, "json", &json,
			 "one JSON object per sample, with the keys -F selects (default: perf's "
			 "fields) and call chains as resolved frames"),
		OPT_BOOL('D', "dump-raw-trace", &dump,
			 "dump every record: offset, size, type and bytes (file order)"),
		OPT_BOOL(0, "no-order", &no_order, "deliver records in file order, not time order"),
		OPT_BOOL(0, "show-task-events", &show[0], "show the COMM, FORK and EXIT records"),
		OPT_BOOL(0, "show-mmap-events", &show[1], "show the MMAP and MMAP2 records"),
		OPT_BOOL(0, "show-switch-events", &show[2],
			 "show the context switch records (SWITCH, SWITCH_CPU_WIDE)"),
		OPT_BOOL(0, "show-lost-events", &show[3], "show the LOST records"),
		OPT_BOOL(0, "show-namespace-events", &show[4], "show the NAMESPACES records"),
		OPT_BOOL(0, "show-cgroup-events", &show[5], "show the CGROUP records"),
		OPT_BOOL(0, "show-round-events", &show[6],
			 "show the FINISHED_ROUND records (all records in file order, as perf)"),
		OPT_BOOL(0, "show-bpf-events", &show[7], "show the KSYMBOL and BPF_EVENT records"),
		OPT_BOOL(0, "show-text-poke-events", &show[8],
			 "show the TEXT_POKE and KSYMBOL records (kernel code changes)"),
		OPT_BOOL(0, "ns", &sc.ns, "print times in nanoseconds (default: microseconds)"),
		OPT_STRING(0, "itrace", &itrace, "opts",
			   "decode the Intel PT trace into samples as perf (default on a file of "
			   "intel_pt: cepwx): i[PERIOD] instructions (Ni, Nt ticks, Nns/Nus/Nms; "
			   "i: i100us), b branches, c calls, r returns, e errors, x transactions, "
			   "p power events, w ptwrite, d log to ./intel_pt.log, g[N] call chains "
			   "(default 16) and l[N] last branches (64) on instruction samples, s[N] "
			   "skip N samples; -F takes perf's field lists of these samples"),
		OPT_CALLBACK(0, "call-trace", &call_trace, NULL,
			     "Intel PT calls, indented by call depth, and power events and "
			     "ptwrites, as perf --call-trace (--itrace=cewp)",
			     script_opt_call_trace),
		OPT_CALLBACK(0, "call-ret-trace", &callret_trace, NULL,
			     "Intel PT calls and returns, indented, with flags, power events "
			     "and ptwrites, as perf --call-ret-trace (--itrace=crewp)",
			     script_opt_call_trace),
		OPT_CALLBACK_OPTARG(
			0, "insn-trace", &insn_trace, "raw|disasm",
			"every instruction of the Intel PT trace, with its bytes (raw) or "
			"its disassembly (disasm, libcapstone), times in ns: perf's "
			"--itrace=i0ns -F +insn,-event,-period",
			script_opt_insn_trace, "raw"),
		OPT_STRING('M', "disassembler-style", &dis_style, "att|intel",
			   "syntax of -F +disasm (default att, as perf script)"),
		OPT_GROUP("Filters (perf script's; records of --show-*-events by -C only)"),
		OPT_SAMPLE_FILTERS(&sc.sf),
		OPT_GROUP("Symbols"),
		OPT_STRING(
			0, "symfs", &so.symfs, "dir",
			"look for every binary (and its debug info) under this directory, as perf "
			"--symfs; the kernel's symbols only in DIR/[kernel.kallsyms]/<build id>/kallsyms"),
		OPT_CALLBACK(0, "map-path", &map_path, "old=new",
			     "read binaries recorded under path prefix OLD from NEW (repeatable)",
			     opt_map_path),
		OPT_STRING(0, "kallsyms", &so.kallsyms, "file",
			   "kernel symbols from this file instead of /proc/kallsyms (used as it is, "
			   "without the kernel build-id check)"),
		OPT_BOOL(0, "no-demangle", &so.no_demangle, "show C++/Rust symbols mangled"),
		OPT_KERNEL_CODE(&kcore, &vmlinux),
		OPT_END(),
	};
	struct prism_tool tool = { 0 };
	int err;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	for (size_t i = 0; i < PRISM_ARRAY_SIZE(show); i++)
		sc.show |= show[i] ? 1u << i : 0;
	if (sc.show & SHOW_ROUND)
		no_order = true; /* perf's: the rounds where the file has them */
	if (csv + json + dump > 1)
		usage_error(usage, opts, "--csv, --json and -D cannot be combined");
	if (sc.max_stack < 0)
		usage_error(usage, opts, "--max-stack %d: expected 0 or more frames", sc.max_stack);
	if ((bad = script_pt_insn_opts(insn_trace, dis_style, &ptf, &itrace)))
		usage_error(usage, opts, "%s", bad);
	if ((itrace || call_trace || callret_trace) &&
	    (bad = script_itrace_setup(itrace, fields, call_trace, callret_trace, &it, &ptf)))
		usage_error(usage, opts, "%s", bad);
	if ((itrace || call_trace || callret_trace) && (csv || json || dump))
		usage_error(usage, opts, "--itrace prints perf's layout: not --csv, --json or -D");
	if (sc.show && (call_trace || callret_trace || json || (itrace && (sc.show & SHOW_ROUND))))
		usage_error(
			usage, opts,
			"--show-*-events: with the text output of samples only (not yet with "
			"--call-trace, --json or, with --itrace, --show-round-events; --csv and "
			"-D show every record)");
	ptf.show = sc.show;
	ptf.show_line = itrace_show_line;
	ptf.show_ctx = &sc;
	if (call_trace || callret_trace)
		itrace = "";
	ptf.ns = ptf.ns || sc.ns; /* --ns */
	so.path_map = map_path.v;
	sc.mode = csv ? MODE_CSV : json ? MODE_JSON : dump ? MODE_DUMP : MODE_TEXT;
	input_streams_stdout = true;
	sc.s = open_input(input, force, no_order || dump);
	sc.dump.where = input && strcmp(input, "-") ? input : "perf.data";
	if (sc.s && prism_session__file_info(sc.s)->pipe)
		sc.dump.where = "pipe";
	if (!sc.s) {
		free(map_path.v);
		return 1;
	}
	/* an Intel PT file without --itrace: perf's default, calls and events */
	if (!itrace && sc.mode == MODE_TEXT && !sc.show && script_is_pt_file(sc.s)) {
		itrace = "cepwx";
		if ((bad = script_itrace_setup(itrace, fields, false, false, &it, &ptf))) {
			prism_session__free(sc.s);
			usage_error(usage, opts, "%s", bad);
		}
		ptf.ns = sc.ns;
	}
	if (!itrace && fields && /* -F of an Intel PT file: its fields, set up above */
	    script_parse_fields(fields, &sc.fields, &sc.fields_add, &sc.fields_del)) {
		prism_session__free(sc.s);
		free(map_path.v);
		return EXIT_USAGE;
	}
	/* pipe mode: the events arrive in the stream, after this check could run */
	if ((sc.fields || sc.fields_add) && prism_session__nr_evsels(sc.s) &&
	    script_check_fields(sc.s, sc.fields | sc.fields_add)) {
		prism_session__free(sc.s);
		free(map_path.v);
		return EXIT_USAGE;
	}
	sc.tasks = prism_tasks__new();
	if (!sc.tasks) {
		prism_session__free(sc.s);
		free(map_path.v);
		return error("out of memory"), 1;
	}
	/* the filters' syntax is a usage error, the CPUs the file lacks not */
	err = sample_filter_parse(&sc.sf, dump ? "-D" : NULL) ?
		      EXIT_USAGE :
		      sample_filter_open(&sc.sf, sc.s, input);
	if (err)
		goto out;
	so.kallsyms = input_kallsyms(sc.s, so.kallsyms, kcore);
	if ((needs_symbols(&sc) || sample_filter_needs_symbols(&sc.sf)) &&
	    (setup_symbols(&sc, &so, input) ||
	     (itrace && input_kernel_code(sc.sy, sc.s, kcore, vmlinux)))) {
		err = 1;
		goto out;
	}
	sc.sf.tasks = sc.tasks;
	sc.sf.sy = sc.sy;
	sample_filter_for_pt(&sc.sf);
	if (itrace) {
		script_pt_show_fields(&ptf, &sc.fields, &sc.fields_add, &sc.fields_del);
		err = script_itrace(sc.s, sc.sy, sc.tasks, &it, &ptf, input);
		goto out;
	}
	if (dump) {
		sc.dump.sy = sc.sy;
		tool.other = dump_record;
		tool.other_all = true;
		tool.sample = dump_record;
		tool.user = dump_record;
		tool.auxtrace_data = true;
		tool.malformed = dump_malformed;
	} else {
		tool.other = on_record;
		tool.other_all = true;
		tool.sample = on_record;
		tool.user = on_user;
	}
	err = prism_session__process(sc.s, &tool, &sc);
	flush_out(&sc, true);
	err = report_process_result(sc.s, input, err);
	if (!err) {
		const struct prism_session_stats *st = prism_session__stats(sc.s);

		if (st->nr_out_of_order)
			warning("%" PRIu64
				" records arrived after their time slot was delivered (out of order)",
				st->nr_out_of_order);
	}
	warn_unwind_stops(sc.sy);
out:
	prism_strbuf_release(&sc.line);
	prism_callchain__release(&sc.cc);
	prism_symbols__free(sc.sy);
	prism_tasks__free(sc.tasks);
	free(sc.grp_ids);
	free(sc.defaults);
	prism_stat_reads__free(sc.stat.reads);
	free(sc.grp_vals);
	free(map_path.v);
	sample_filter_release(&sc.sf);
	prism_session__free(sc.s);
	return err;
}
