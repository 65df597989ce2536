// SPDX-License-Identifier: MIT
/*
 * prism script: one line per sample in perf script's layout; --csv
 * (readperf's overview.csv: every record), --json (one object per line) and
 * -D (a raw dump with offsets, type names and sizes).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/suggest.h>
#include <prism/task.h>
#include <prism/tp.h>

#include "cmd.h"
#include "input.h"
#include "options.h"

enum field {
	F_COMM = 1 << 0,
	F_TID = 1 << 1,
	F_PID = 1 << 2,
	F_CPU = 1 << 3,
	F_TIME = 1 << 4,
	F_EVENT = 1 << 5,
	F_PERIOD = 1 << 6,
	F_IP = 1 << 7,
	F_ADDR = 1 << 8,
	F_TRACE = 1 << 9,
	F_PHYS_ADDR = 1 << 10,
	F_WEIGHT = 1 << 11,
	F_DATA_SRC = 1 << 12,
	F_CGROUP = 1 << 13,
};

static const struct {
	const char *name;
	unsigned int bit;
	uint64_t needs; /* sample_type bits the field needs (0: none) */
} field_names[] = {
	{ "comm", F_COMM, 0 },
	{ "tid", F_TID, PERF_SAMPLE_TID },
	{ "pid", F_PID, PERF_SAMPLE_TID },
	{ "cpu", F_CPU, PERF_SAMPLE_CPU },
	{ "time", F_TIME, PERF_SAMPLE_TIME },
	{ "event", F_EVENT, 0 },
	{ "period", F_PERIOD, 0 },
	{ "ip", F_IP, PERF_SAMPLE_IP },
	{ "addr", F_ADDR, PERF_SAMPLE_ADDR },
	{ "trace", F_TRACE, PERF_SAMPLE_RAW },
	{ "phys_addr", F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR },
	{ "weight", F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT },
	{ "data_src", F_DATA_SRC, PERF_SAMPLE_DATA_SRC },
	{ "cgroup", F_CGROUP, PERF_SAMPLE_CGROUP },
};

enum mode { MODE_TEXT, MODE_CSV, MODE_JSON, MODE_DUMP };

struct script {
	struct prism_session *s;
	struct prism_tasks *tasks;
	struct prism_tp *tp;
	bool ready; /* name width and tracing data looked up (pipe mode: at the first sample) */
	enum mode mode;
	unsigned int fields; /* 0: perf's defaults per event */
	int name_width;
	uint64_t nr; /* records seen (csv) */
	struct prism_strbuf line;
	/* leader sampling: last value per sample id */
	uint64_t *grp_ids, *grp_vals;
	size_t grp_nr, grp_cap;
};

static unsigned int default_fields(const struct prism_evsel *evsel)
{
	const struct perf_event_attr *attr = prism_evsel__attr(evsel);
	unsigned int f;

	if (attr->type == PERF_TYPE_TRACEPOINT)
		f = F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE;
	else
		f = F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_IP | F_PERIOD;
	if (!(attr->sample_type & PERF_SAMPLE_CPU))
		f &= ~F_CPU;
	return f;
}

static const char *comm_of(struct script *sc, uint32_t tid, char *buf, size_t len)
{
	const char *c = prism_tasks__comm(sc->tasks, tid);

	if (c)
		return c;
	snprintf(buf, len, ":%d", (int)tid);
	return buf;
}

static void add_time(struct prism_strbuf *sb, uint64_t t)
{
	prism_strbuf_addf(sb, "%5" PRIu64 ".%06" PRIu64, t / 1000000000, t % 1000000000 / 1000);
}

static void print_callchain(struct script *sc, const struct prism_sample *s)
{
	uint64_t i;

	for (i = 0; i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= (uint64_t)-4095) /* PERF_CONTEXT_* marker */
			continue;
		prism_strbuf_addf(&sc->line, "\t%16" PRIx64 "\n", ip);
	}
}

static void text_line(struct script *sc, const struct prism_event *ev, uint64_t period,
		      const struct prism_evsel *evsel)
{
	const struct prism_sample *s = &ev->sample;
	unsigned int f = sc->fields ? sc->fields : default_fields(evsel);
	const struct perf_event_attr *attr = prism_evsel__attr(evsel);
	struct prism_strbuf *sb = &sc->line;
	bool chain = (f & F_IP) && (s->type & PERF_SAMPLE_CALLCHAIN);
	char buf[32];

	if (attr->type != PERF_TYPE_TRACEPOINT)
		f &= ~F_TRACE;
	if (f & F_COMM) {
		const char *c = comm_of(sc, s->tid, buf, sizeof(buf));

		prism_strbuf_addf(sb, chain ? "%s " : "%16s ", c);
	}
	if ((f & F_PID) && (f & F_TID))
		prism_strbuf_addf(sb, "%5d/%-5d ", (int)s->pid, (int)s->tid);
	else if (f & F_PID)
		prism_strbuf_addf(sb, "%5d ", (int)s->pid);
	else if (f & F_TID)
		prism_strbuf_addf(sb, "%5d ", (int)s->tid);
	if (f & F_CPU)
		prism_strbuf_addf(sb, "[%03u] ", s->cpu);
	if (f & F_TIME) {
		add_time(sb, s->time);
		prism_strbuf_addstr(sb, ": ");
	}
	if (f & F_PERIOD)
		prism_strbuf_addf(sb, "%10" PRIu64 " ", period);
	if (f & F_EVENT)
		prism_strbuf_addf(sb, "%*s: ", sc->name_width, prism_evsel__name(evsel));
	if (f & F_TRACE) {
		if (sc->tp && s->raw_data)
			prism_tp__format(sc->tp, s->raw_data, s->raw_size, sb);
	}
	if (f & F_ADDR)
		prism_strbuf_addf(sb, "%16" PRIx64 " ", s->addr);
	if (f & F_WEIGHT)
		prism_strbuf_addf(sb, "%16" PRIu64 " ", s->weight);
	if (f & F_DATA_SRC)
		prism_strbuf_addf(sb, "%16" PRIx64 " ", s->data_src);
	if (f & F_PHYS_ADDR)
		prism_strbuf_addf(sb, "%16" PRIx64 " ", s->phys_addr);
	if (f & F_CGROUP)
		prism_strbuf_addf(sb, "%" PRIu64 " ", s->cgroup);
	if (f & F_IP) {
		if (chain) {
			prism_strbuf_addch(sb, '\n');
			print_callchain(sc, s);
		} else {
			prism_strbuf_addf(sb, " %16" PRIx64, s->ip);
		}
	}
	/* perf keeps trailing blanks; a call chain ends with an empty line */
	prism_strbuf_addch(sb, '\n');
}

static void json_str(struct prism_strbuf *sb, const char *s)
{
	prism_strbuf_addch(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			prism_strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20)
			prism_strbuf_addf(sb, "\\u%04x", c);
		else
			prism_strbuf_addch(sb, (char)c);
	}
	prism_strbuf_addch(sb, '"');
}

static void json_line(struct script *sc, const struct prism_event *ev, uint64_t period,
		      const struct prism_evsel *evsel)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_strbuf *sb = &sc->line;
	char buf[32];
	uint64_t i;

	prism_strbuf_addstr(sb, "{\"event\":");
	json_str(sb, prism_evsel__name(evsel));
	prism_strbuf_addstr(sb, ",\"comm\":");
	json_str(sb, comm_of(sc, s->tid, buf, sizeof(buf)));
	prism_strbuf_addf(sb, ",\"pid\":%d,\"tid\":%d", (int)s->pid, (int)s->tid);
	if (s->type & PERF_SAMPLE_CPU)
		prism_strbuf_addf(sb, ",\"cpu\":%u", s->cpu);
	prism_strbuf_addf(sb, ",\"time\":%" PRIu64 ",\"period\":%" PRIu64, s->time, period);
	if (s->type & PERF_SAMPLE_IP)
		prism_strbuf_addf(sb, ",\"ip\":\"0x%" PRIx64 "\"", s->ip);
	if (s->type & PERF_SAMPLE_ADDR)
		prism_strbuf_addf(sb, ",\"addr\":\"0x%" PRIx64 "\"", s->addr);
	if (s->callchain_nr) {
		prism_strbuf_addstr(sb, ",\"callchain\":[");
		for (i = 0; i < s->callchain_nr; i++)
			prism_strbuf_addf(sb, "%s\"0x%" PRIx64 "\"", i ? "," : "", s->callchain[i]);
		prism_strbuf_addch(sb, ']');
	}
	if (s->raw_data && sc->tp) {
		struct prism_strbuf t = STRBUF_INIT;

		prism_tp__format(sc->tp, s->raw_data, s->raw_size, &t);
		prism_strbuf_addstr(sb, ",\"trace\":");
		json_str(sb, t.buf);
		prism_strbuf_release(&t);
	}
	prism_strbuf_addstr(sb, "}\n");
}

static void emit(struct script *sc)
{
	fwrite(sc->line.buf, 1, sc->line.len, stdout);
	prism_strbuf_reset(&sc->line);
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
	return 0;
}

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;

	return prism_tasks__event(sc->tasks, ev);
}

/* readperf's overview.csv: nr,type,pid,tid,time,info for every record */
static int csv_record(struct script *sc, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_strbuf *sb = &sc->line;

	prism_strbuf_addf(sb, "%" PRIu64 ",%s,", sc->nr++, prism_record_type_name(ev->type));
	if (ev->type < PRISM_RECORD_HEADER_ATTR && (s->type & PERF_SAMPLE_TID))
		prism_strbuf_addf(sb, "%d,%d,", (int)s->pid, (int)s->tid);
	else
		prism_strbuf_addstr(sb, ",,");
	if (s->time)
		prism_strbuf_addf(sb, "%" PRIu64, s->time);
	prism_strbuf_addch(sb, ',');
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		prism_strbuf_addf(sb, "%s ip=0x%" PRIx64 " period=%" PRIu64,
				  prism_evsel__name(ev->evsel), s->ip, s->period);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		prism_strbuf_addf(sb, "%u/%u 0x%" PRIx64 "+0x%" PRIx64 " %s", ev->mmap.pid,
				  ev->mmap.tid, ev->mmap.start, ev->mmap.len, ev->mmap.filename);
		break;
	case PERF_RECORD_COMM:
		prism_strbuf_addf(sb, "%u/%u %s%s", ev->comm.pid, ev->comm.tid, ev->comm.comm,
				  ev->comm.exec ? " (exec)" : "");
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		prism_strbuf_addf(sb, "%u/%u parent %u/%u", ev->fork.pid, ev->fork.tid,
				  ev->fork.ppid, ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		prism_strbuf_addf(sb, "lost %" PRIu64, ev->lost.lost);
		break;
	default:
		break;
	}
	prism_strbuf_addch(sb, '\n');
	emit(sc);
	return 0;
}

static int on_record(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;
	int err = 0;

	if (ev->type == PERF_RECORD_COMM || ev->type == PERF_RECORD_FORK ||
	    ev->type == PERF_RECORD_EXIT)
		err = prism_tasks__event(sc->tasks, ev);
	if (err)
		return err;
	if (sc->mode == MODE_CSV)
		return csv_record(sc, ev);
	if (ev->type == PERF_RECORD_SAMPLE)
		return on_sample(ctx, ev);
	return 0;
}

static void hexdump(struct prism_strbuf *sb, const uint8_t *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i += 16) {
		prism_strbuf_addf(sb, ".  %04zx: ", i);
		for (j = i; j < i + 16; j++) {
			if (j < n)
				prism_strbuf_addf(sb, " %02x", p[j]);
			else
				prism_strbuf_addstr(sb, "   ");
		}
		prism_strbuf_addstr(sb, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			prism_strbuf_addch(sb, p[j] >= 0x20 && p[j] < 0x7f ? (char)p[j] : '.');
		prism_strbuf_addch(sb, '\n');
	}
}

static int dump_record(void *ctx, const struct prism_event *ev)
{
	struct script *sc = ctx;
	struct prism_strbuf *sb = &sc->line;
	const struct prism_sample *s = &ev->sample;

	prism_strbuf_addf(sb,
			  "\n%#" PRIx64 "%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
			  ev->file_offset, ev->compressed ? " (in COMPRESSED)" : "", ev->raw->size,
			  ev->type, ev->raw->size);
	hexdump(sb, (const uint8_t *)ev->raw, ev->raw->size);
	prism_strbuf_addf(sb, "\n%" PRIu64 " %#" PRIx64 " [%#x]: PERF_RECORD_%s", s->time,
			  ev->file_offset, ev->raw->size, prism_record_type_name(ev->type));
	if (ev->type == PERF_RECORD_SAMPLE)
		prism_strbuf_addf(sb,
				  "(IP, %#x): %u/%u: %#" PRIx64 " period: %" PRIu64
				  " addr: %#" PRIx64,
				  ev->raw->misc, s->pid, s->tid, s->ip, s->period, s->addr);
	prism_strbuf_addch(sb, '\n');
	emit(sc);
	return 0;
}

static int parse_fields(const char *list, unsigned int *out)
{
	char *dup = xstrdup(list), *tok, *save = NULL;
	unsigned int f = 0;
	size_t i;

	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const char *names[PRISM_ARRAY_SIZE(field_names)];
		bool found = false;

		for (i = 0; i < PRISM_ARRAY_SIZE(field_names); i++) {
			names[i] = field_names[i].name;
			if (!strcmp(tok, field_names[i].name)) {
				f |= field_names[i].bit;
				found = true;
			}
		}
		if (found)
			continue;
		if (!strcmp(tok, "sym") || !strcmp(tok, "dso") || !strcmp(tok, "symoff") ||
		    !strcmp(tok, "srcline")) {
			error("field '%s' needs symbol resolution, which this prism does not have yet",
			      tok);
			hint("use 'ip' for raw addresses");
		} else {
			const char *best = prism_suggest(tok, names, PRISM_ARRAY_SIZE(names));

			error("unknown field '%s' in -F", tok);
			if (best)
				hint("did you mean '%s'?", best);
			hint("fields: comm,tid,pid,cpu,time,event,period,ip,addr,trace,phys_addr,weight,data_src,cgroup");
		}
		free(dup);
		return -1;
	}
	free(dup);
	*out = f;
	return 0;
}

/* like perf: a requested field the samples cannot carry is an error */
static int check_fields(struct script *sc)
{
	size_t i, j;

	for (i = 0; i < PRISM_ARRAY_SIZE(field_names); i++) {
		bool ok = false;

		if (!(sc->fields & field_names[i].bit) || !field_names[i].needs)
			continue;
		if (field_names[i].bit == F_TRACE)
			continue; /* ignored for non-tracepoint events, as perf does */
		for (j = 0; j < prism_session__nr_evsels(sc->s); j++) {
			const struct perf_event_attr *a =
				prism_evsel__attr(prism_session__evsel(sc->s, j));

			if (a->sample_type & field_names[i].needs)
				ok = true;
		}
		if (!ok) {
			error("samples have no '%s' field (its sample_type bit was not recorded)",
			      field_names[i].name);
			hint("drop '%s' from -F, or record with the option that adds it",
			     field_names[i].name);
			return -1;
		}
	}
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism script [-i <file>] [-F <fields>] [--csv | --json | -D] [--no-order]", NULL
	};
	const char *input = NULL, *fields = NULL;
	bool force = false, csv = false, json = false, dump = false, no_order = false;
	const struct option_def opts[] = {
		OPT_INPUT(&input),
		OPT_FORCE(&force),
		OPT_STRING(
			'F', "fields", &fields, "list",
			"comma-separated fields: comm,tid,pid,cpu,time,event,period,ip,addr,trace,phys_addr,weight,data_src,cgroup"),
		OPT_BOOL(0, "csv", &csv,
			 "every record as CSV: nr,type,pid,tid,time,info (readperf's overview.csv)"),
		OPT_BOOL(0, "json", &json, "one JSON object per sample"),
		OPT_BOOL('D', "dump-raw-trace", &dump,
			 "dump every record: offset, size, type and bytes (file order)"),
		OPT_BOOL(0, "no-order", &no_order, "deliver records in file order, not time order"),
		OPT_END(),
	};
	struct script sc = { .line = STRBUF_INIT };
	struct prism_tool tool = { 0 };
	int err;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (csv + json + dump > 1)
		usage_error(usage, opts, "--csv, --json and -D cannot be combined");
	if (fields && parse_fields(fields, &sc.fields))
		return EXIT_USAGE;
	sc.mode = csv ? MODE_CSV : json ? MODE_JSON : dump ? MODE_DUMP : MODE_TEXT;
	sc.s = open_input(input, force, no_order || dump);
	if (!sc.s)
		return 1;
	/* pipe mode: the events arrive in the stream, after this check could run */
	if (sc.fields && prism_session__nr_evsels(sc.s) && check_fields(&sc)) {
		prism_session__free(sc.s);
		return EXIT_USAGE;
	}
	sc.tasks = prism_tasks__new();
	if (!sc.tasks) {
		prism_session__free(sc.s);
		return error("out of memory"), 1;
	}
	if (dump) {
		tool.other = dump_record;
		tool.other_all = true;
		tool.sample = dump_record;
		tool.user = dump_record;
	} else {
		tool.other = on_record;
		tool.other_all = true;
		tool.sample = on_record;
		if (csv)
			tool.user = on_record;
		(void)on_task;
	}
	err = prism_session__process(sc.s, &tool, &sc);
	if (err < 0)
		err = report_process_error(sc.s, input, err);
	else
		err = 0;
	if (!err) {
		const struct prism_session_stats *st = prism_session__stats(sc.s);

		if (st->nr_unknown_id)
			warning("%" PRIu64
				" samples belong to no event of the file and were skipped",
				st->nr_unknown_id);
		if (st->nr_out_of_order)
			warning("%" PRIu64
				" records arrived after their time slot was delivered (out of order)",
				st->nr_out_of_order);
	}
	prism_strbuf_release(&sc.line);
	prism_tasks__free(sc.tasks);
	free(sc.grp_ids);
	free(sc.grp_vals);
	prism_session__free(sc.s);
	return err;
}
