// SPDX-License-Identifier: MIT
/*
 * prism script --itrace: Intel PT traces decoded (lib/pt) into perf's
 * synthesized "branches" / "instructions" samples and its error lines,
 * printed in perf script's layout:
 *
 *   comm tid [cpu] time: period event: [flags] ip sym+off (dso) => addr sym+off (dso)
 *
 * with call chains (--itrace=g) under instruction and event samples, a branch's
 * function indented by the thread's call depth (-F +callindent), and
 * --call-trace / --call-ret-trace's layout of calls (and returns):
 *
 *   comm tid [cpu] time.ns: [flags] (dso)	    function
 *
 * The side-band (maps, comms, switches) is read first; the queues are
 * decoded after the session, together, in time order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/core.h>
#include <prism/error.h>
#include <prism/evsel.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "cmd.h"
#include "input.h"
#include "sample-filter.h"
#include "script.h"

#define NR_CACHE 4096

struct addr_text {
	uint64_t addr;
	int32_t pid;
	unsigned int fl; /* the fields it was formatted with */
	size_t len;
	char *text;
};

#define NR_NAMES 1024

struct sym_dso {
	uint64_t addr;
	int32_t pid;
	bool set;
	const char *sym, *dso;
};

struct spt {
	struct prism_session *s;
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_pt_decoder_opts o;
	struct prism_pt_decoder *d;
	bool have_info, cpu, warned_type;
	const struct pt_fields *f; /* -F, --ns, --insn-trace, --call-trace */
	unsigned int hw, synth; /* the fields of each type of sample, as the file allows */
	const struct perf_event_attr *pt_attr;
	const char *pt_name;
	struct script_pt_insn si;
	int width, spacing, src_width;
	char mods[8];
	uint64_t nr_errors;
	struct prism_strbuf line, head;
	struct prism_frame fr;
	struct prism_callchain cc; /* a sample's call chain, resolved */
	struct addr_text cache[NR_CACHE];
	struct sym_dso names[NR_NAMES];
	int32_t head_tid;
	uint32_t head_cpu;
	uint64_t head_time, head_period;
	enum prism_pt_item_kind head_kind;
	struct pt_log log; /* --itrace=d */
	struct pt_show show; /* --show-*-events: the records' lines */
	bool refused; /* a field -F asked for is not in the samples (said) */
	pt_sample_fn *fn; /* the samples go there instead of being printed (prism report) */
	void *fn_ctx;
	int err;
};

/* --show-*-events: a shown record's line, kept for its place between the samples */
static int show_record(struct spt *p, const struct prism_event *ev)
{
	struct prism_strbuf sb;
	int err;

	if (!(p->f->show & script_show_of(ev->type) & ~SHOW_ROUND))
		return 0;
	prism_strbuf_init(&sb);
	p->f->show_line(p->f->show_ctx, ev, &sb);
	err = pt_show_add(&p->show, ev->sample.time,
			  ev->type == PERF_RECORD_EXIT ? (int64_t)ev->fork.tid : -1, sb.buf,
			  sb.len);
	prism_strbuf_release(&sb);
	return err;
}

static int sb_event(void *ctx, const struct prism_event *ev)
{
	struct spt *p = ctx;
	/* as perf: an EXIT's line before the task is gone, the others' after the record */
	int err = ev->type == PERF_RECORD_EXIT ? show_record(p, ev) : 0;

	if (!err)
		err = prism_symbols__event(p->sy, ev);
	if (!err)
		err = prism_tasks__event(p->tasks, ev);
	if (!err && p->d)
		err = prism_pt_decoder__side_band(p->d, ev);
	if (!err && ev->type != PERF_RECORD_EXIT)
		err = show_record(p, ev);
	return err;
}

/* perf's modifiers of an event name: ":uH" for exclude_kernel, _hv and _guest */
static void modifiers(const struct perf_event_attr *a, char *out)
{
	char name[16]; /* "branches" and at most 7 */

	prism_pt__sample_name(a, true, name, sizeof(name));
	snprintf(out, 8, "%s", name + strlen("branches"));
}

/* the intel_pt event: its config and modifiers; the names' column width */
static int find_pt_event(struct spt *p)
{
	size_t i, n = prism_session__nr_evsels(p->s);
	const struct perf_event_attr *pt = NULL;
	int w;

	for (i = 0; i < n; i++) {
		struct prism_evsel *e = prism_session__evsel(p->s, i);
		const struct perf_event_attr *a = prism_evsel__attr(e);

		w = (int)strlen(prism_evsel__name(e));
		if (w > p->width)
			p->width = w;
		if (a->type == p->o.info.pmu_type && !pt) {
			pt = a;
			p->pt_name = prism_evsel__name(e);
		}
	}
	if (!pt)
		return -1;
	p->o.config = pt->config;
	p->pt_attr = pt;
	modifiers(pt, p->mods);
	/* perf's synthesized events count too */
	w = (int)strlen(p->mods);
	if (p->f->call_trace)
		return 0;
	if (p->o.itrace.instructions && w + 12 > p->width)
		p->width = w + 12; /* "instructions" */
	if (p->o.itrace.branches && w + 8 > p->width)
		p->width = w + 8; /* "branches" */
	if (script_pt_event_width(&p->o.itrace, p->o.config) > p->width)
		p->width = script_pt_event_width(&p->o.itrace, p->o.config);
	return 0;
}

static int print_item(void *ctx, const struct prism_pt_item *it);

static int on_user(void *ctx, const struct prism_event *ev)
{
	struct spt *p = ctx;
	struct prism_auxtrace at;
	struct prism_auxtrace_error ae;

	if (ev->type == PRISM_RECORD_AUXTRACE_INFO) {
		if (prism_pt_info__parse(ev, &p->o.info) ||
		    p->o.info.type != PRISM_AUXTRACE_INTEL_PT) {
			if (!p->warned_type)
				warning("AUXTRACE_INFO at offset %#" PRIx64
					" is not Intel PT's (type %u): its trace is not decoded",
					ev->file_offset, p->o.info.type);
			p->warned_type = true;
			return 0;
		}
		p->have_info = true;
		if (find_pt_event(p)) {
			error("no event of the Intel PT PMU (type %" PRIu64 ") in the file",
			      p->o.info.pmu_type);
			return -PRISM_E_BAD_RECORD;
		}
		if (!p->fn) {
			const char *why = script_pt_fields_check(p->f, p->s, p->pt_attr, p->pt_name,
								 &p->o.info, &p->o.itrace, p->mods,
								 &p->hw, &p->synth);

			if (why) {
				error("%s", why);
				p->refused = true;
				return -EINVAL;
			}
		}
		script_pt_cpu(p->s, &p->o.cpu);
		p->d = prism_pt_decoder__new(&p->o);
		if (!p->d)
			return errno == PRISM_E_UNSUPPORTED ? -PRISM_E_UNSUPPORTED : -ENOMEM;
		return 0;
	}
	if (ev->type == PRISM_RECORD_AUXTRACE && p->d && !prism_auxtrace__parse(ev, &at)) {
		script_pt_log_trace(&p->log, &at);
		return prism_pt_decoder__add(p->d, &at);
	}
	if (ev->type == PRISM_RECORD_AUXTRACE_ERROR && !prism_auxtrace_error__parse(ev, &ae)) {
		/* perf prints a file's decoding errors as it reads them */
		struct prism_pt_item it = { .kind = PRISM_PT_ERROR,
					    .time = ae.fmt ? ae.time : 0,
					    .ip = ae.ip,
					    .cpu = ae.cpu,
					    .pid = (int32_t)ae.pid,
					    .tid = (int32_t)ae.tid,
					    .code = (int)ae.code,
					    .msg = ae.msg };

		return print_item(p, &it);
	}
	return prism_symbols__event(p->sy, ev);
}

/* "(dso)", with --call-trace padded as perf pads it: 49 characters at most, then spaces to 50 */
static void put_dso(struct prism_strbuf *sb, const char *dso, bool pad)
{
	size_t n = pad ? strnlen(dso, 49) : strlen(dso);

	prism_strbuf_addch(sb, '(');
	prism_strbuf_add(sb, dso, n);
	if (pad)
		prism_strbuf_pad_to(sb, sb->len + 50 - n, ' ');
	prism_strbuf_addch(sb, ')');
}

/*
 * " sym+0xoff (dso)" of a frame as the fields @fl ask ("[unknown]" where @fr
 * is NULL; an inlined function's " (inlined)" in place of the DSO, as perf)
 */
static void put_sym(struct prism_strbuf *sb, const struct prism_frame *fr, unsigned int fl,
		    bool pad)
{
	bool inlined = fr && fr->sym && fr->kind == PRISM_FRAME_INLINED;

	if (fl & F_SYM) {
		prism_strbuf_addch(sb, ' ');
		if (fr)
			prism_frame__format_sym(fr, fl & F_SYMOFF ? PRISM_FRAME_FMT_SYMOFF : 0, sb);
		else
			prism_strbuf_addstr(sb, "[unknown]");
	}
	if ((fl & F_DSO) && !inlined) {
		prism_strbuf_addch(sb, ' ');
		put_dso(sb, fr && fr->dso_path ? fr->dso_path : "[unknown]", pad);
	}
}

/* " %16lx sym+0xoff (dso)" of an address (as @fl asks), cached: a trace's addresses repeat */
static void put_addr(struct spt *p, const struct prism_pt_item *it, uint64_t addr, unsigned int fl)
{
	struct addr_text *c = &p->cache[(addr ^ (addr >> 12) ^ (uint64_t)it->pid * 31) % NR_CACHE];
	struct prism_strbuf *sb = &p->line;
	size_t at = sb->len;

	fl &= F_SYM | F_SYMOFF | F_DSO;
	if (c->text && c->addr == addr && c->pid == it->pid && c->fl == fl) {
		prism_strbuf_add(sb, c->text, c->len);
		return;
	}
	prism_strbuf_addf(sb, " %16" PRIx64, addr);
	if (addr && it->pid >= 0) {
		prism_symbols__resolve(p->sy, (uint32_t)it->pid,
				       addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
				       addr, &p->fr);
		put_sym(sb, &p->fr, fl, p->f->pad_dso);
	} else {
		put_sym(sb, NULL, fl, p->f->pad_dso);
	}
	if (sb->failed)
		return;
	free(c->text);
	c->len = sb->len - at;
	c->text = malloc(c->len);
	if (c->text)
		memcpy(c->text, sb->buf + at, c->len);
	c->addr = addr;
	c->pid = it->pid;
	c->fl = fl;
}

/*
 * "comm tid [cpu] time: period name: " of a sample as the fields @fl ask,
 * kept while they stay the same (perf: the comm not padded before a call
 * chain; times in ns with --ns and in call traces)
 */
static void put_head(struct spt *p, const struct prism_pt_item *it, unsigned int fl)
{
	struct prism_strbuf *sb = &p->line;
	bool ns = p->f->ns;
	uint64_t t = ns ? it->time : it->time / 1000;
	const char *comm;
	char name[32];

	if (p->head.len && p->head_tid == it->tid && p->head_cpu == it->cpu && p->head_time == t &&
	    p->head_kind == it->kind && p->head_period == it->period) {
		prism_strbuf_add(sb, p->head.buf, p->head.len);
		return;
	}
	prism_strbuf_reset(&p->head);
	comm = it->tid >= 0 ? prism_tasks__comm(p->tasks, (uint32_t)it->tid) : NULL;
	if (fl & F_COMM)
		prism_strbuf_addf(&p->head, it->callchain && (fl & F_IP) ? "%s " : "%16s ",
				  comm ? comm : ":-1");
	if ((fl & F_PID) && (fl & F_TID))
		prism_strbuf_addf(&p->head, "%5d/%-5d ", (int)it->pid, (int)it->tid);
	else if (fl & (F_PID | F_TID))
		prism_strbuf_addf(&p->head, "%5d ", (int)(fl & F_PID ? it->pid : it->tid));
	if (fl & F_CPU)
		prism_strbuf_addf(&p->head, "[%03d] ", (int)it->cpu);
	if (fl & F_MISC) /* perf: none of its flags, then padded to 6 */
		prism_strbuf_addstr(&p->head, "      ");
	if (fl & F_TIME)
		prism_strbuf_addf(&p->head,
				  ns ? "%5" PRIu64 ".%09" PRIu64 ": " :
				       "%5" PRIu64 ".%06" PRIu64 ": ",
				  t / (ns ? 1000000000 : 1000000), t % (ns ? 1000000000 : 1000000));
	snprintf(name, sizeof(name), "%s%s",
		 it->kind == PRISM_PT_BRANCH ? "branches" : "instructions", p->mods);
	if (script_pt_event_name(it->kind))
		snprintf(name, sizeof(name), "%s", script_pt_event_name(it->kind));
	if (fl & F_PERIOD) /* perf's events: a period of 1 */
		prism_strbuf_addf(&p->head, "%10" PRIu64 " ",
				  script_pt_event_synth(it->kind) ? 1 : it->period);
	if (fl & F_EVENT)
		prism_strbuf_addf(&p->head, "%*s: ", p->width, name);
	p->head_tid = it->tid;
	p->head_cpu = it->cpu;
	p->head_time = t;
	p->head_kind = it->kind;
	p->head_period = it->period;
	prism_strbuf_add(sb, p->head.buf, p->head.len);
}

int pt_item_frames(struct prism_symbols *sy, const struct prism_pt_item *it, bool chain,
		   struct prism_callchain *cc)
{
	bool use = chain && it->callchain;
	size_t i, n = use ? it->nr_callchain : 1;

	if (cc->alloc < n) {
		struct prism_frame *f = realloc(cc->frames, n * sizeof(*f));

		if (!f)
			return -ENOMEM;
		cc->frames = f;
		cc->alloc = n;
	}
	for (i = 0; i < n; i++) {
		uint64_t a = use ? it->callchain[i] : it->ip;

		prism_symbols__resolve(sy, (uint32_t)it->pid,
				       a >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, a,
				       &cc->frames[i]);
	}
	cc->nr = n;
	return 0;
}

/*
 * the call chain under an instruction or event sample: "\t%16lx sym+0xoff
 * (dso)\n" a frame, as the fields @fl ask
 */
static void put_chain(struct spt *p, const struct prism_pt_item *it, unsigned int fl)
{
	size_t i;

	prism_strbuf_addch(&p->line, '\n');
	if (pt_item_frames(p->sy, it, true, &p->cc))
		return;
	for (i = 0; i < p->cc.nr; i++) {
		prism_strbuf_addf(&p->line, "\t%16" PRIx64, prism_frame__addr(&p->cc.frames[i]));
		put_sym(&p->line, &p->cc.frames[i], fl, p->f->pad_dso);
		/* perf: each frame's source line under it */
		script_pt_srcline_put(&p->si, it, p->cc.frames[i].ip, &p->line);
		prism_strbuf_addch(&p->line, '\n');
	}
}

static void spaces(struct prism_strbuf *sb, size_t n)
{
	prism_strbuf_pad_to(sb, sb->len + n, ' ');
}

/* the symbol and DSO of an address, cached: a trace's calls and returns repeat */
static const struct sym_dso *sym_dso(struct spt *p, int32_t pid, uint64_t addr)
{
	struct sym_dso *c = &p->names[(addr ^ (addr >> 12) ^ (uint64_t)pid * 31) % NR_NAMES];

	if (c->set && c->addr == addr && c->pid == pid)
		return c;
	prism_symbols__resolve(p->sy, (uint32_t)pid,
			       addr >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, addr,
			       &p->fr);
	c->set = true;
	c->addr = addr;
	c->pid = pid;
	c->sym = p->fr.sym;
	c->dso = p->fr.dso_path;
	return c;
}

/*
 * -F +callindent: the function called (or begun in), returned from (or
 * ended in), indented 4 columns a level of the thread's call depth (a
 * return's before it), padded so that lines change width seldom, as perf;
 * call traces put the DSO of the branch before it
 */
static void put_callindent(struct spt *p, const struct prism_pt_item *it, unsigned int fl)
{
	struct prism_strbuf *sb = &p->line;
	uint32_t depth = it->depth + !!(it->flags & PRISM_PT_FL_RETURN);
	uint64_t ip = 0;
	const char *name = NULL;
	size_t at;
	int len = 0;

	if (it->flags & (PRISM_PT_FL_CALL | PRISM_PT_FL_TRACE_BEGIN))
		ip = it->addr;
	else if (it->flags & (PRISM_PT_FL_RETURN | PRISM_PT_FL_TRACE_END))
		ip = it->ip;
	if (ip && it->pid >= 0)
		name = sym_dso(p, it->pid, ip)->sym;
	if ((fl & F_DSO) && !(fl & (F_IP | F_ADDR))) { /* perf: the DSO, where no address has it */
		const char *dso = NULL;

		if (it->ip && it->pid >= 0)
			dso = sym_dso(p, it->pid, it->ip)->dso;
		if (!dso)
			dso = "[unknown]";
		put_dso(sb, dso, p->f->pad_dso);
		prism_strbuf_addch(sb, '\t');
	}
	at = sb->len;
	if (name || ip)
		spaces(sb, depth * 4);
	if (name)
		prism_strbuf_addstr(sb, name);
	else if (ip)
		prism_strbuf_addf(sb, "%16" PRIx64, ip);
	len = (int)(sb->len - at);
	if (len > p->spacing || (len && len < p->spacing - 52))
		p->spacing = (len + 4 + 31) / 32 * 32;
	if (len < p->spacing)
		spaces(sb, (size_t)(p->spacing - len));
}

/* a decoding error's line, as perf script prints it */
static void error_line(struct prism_strbuf *sb, const struct prism_pt_item *it)
{
	prism_strbuf_addstr(sb, " instruction trace error type 1 time ");
	if (it->time) /* perf: "0" without timestamps */
		prism_strbuf_addf(sb, "%" PRIu64 ".%09" PRIu64, it->time / 1000000000,
				  it->time % 1000000000);
	else
		prism_strbuf_addch(sb, '0');
	prism_strbuf_addf(sb, " cpu %d pid %d tid %d ip %#" PRIx64 " code %d: %s\n", (int)it->cpu,
			  (int)it->pid, (int)it->tid, it->ip, it->code, it->msg);
}

static int print_item(void *ctx, const struct prism_pt_item *it)
{
	struct spt *p = ctx;
	struct prism_strbuf *sb = &p->line;
	struct pt_filtered pf;
	char name[32];

	if (p->fn) {
		if (it->kind == PRISM_PT_ERROR) { /* --itrace=d: in the log all the same */
			if (p->log.f) {
				prism_strbuf_reset(sb);
				error_line(sb, it);
				script_pt_log_line(&p->log, sb->buf, sb->len);
				prism_strbuf_reset(sb);
			}
			return 0;
		}
		if (script_pt_event_name(it->kind))
			return p->fn(p->fn_ctx, it, script_pt_event_name(it->kind));
		snprintf(name, sizeof(name), "%s%s",
			 it->kind == PRISM_PT_BRANCH ? "branches" : "instructions", p->mods);
		return p->fn(p->fn_ctx, it, name);
	}
	if (p->o.config & p->o.info.tsc_bit)
		pt_show_flush(&p->show, it->time, sb);
	else
		pt_show_flush_to_exit(&p->show, it->tid, sb);
	if (!sample_filter_pt(it, &pf)) /* -C, --pid, --time ... (cmd/sample-filter.c) */
		return 0;
	if (pf.cbr)
		print_item(p, pf.cbr);
	it = pf.it;
	if (it->kind == PRISM_PT_ERROR) {
		size_t at = sb->len;

		p->nr_errors++;
		error_line(sb, it);
		script_pt_log_line(&p->log, sb->buf + at, sb->len - at);
	} else {
		unsigned int fl = script_pt_event_synth(it->kind) ? p->synth : p->hw;
		bool user_set =
			p->f->type[script_pt_event_synth(it->kind) ? PT_SYNTH : PT_HW].user_set;

		if (!fl) /* perf: no line for a type without fields (-F flags) */
			return 0;
		p->si.fields = fl;
		put_head(p, it, fl);
		if (p->f->flags) {
			size_t at = sb->len;

			prism_strbuf_addstr(sb, "  ");
			prism_pt_flags__str(it->flags, sb);
			prism_strbuf_pad_to(sb, at + 2 + 21, ' ');
			prism_strbuf_addch(sb, ' ');
		}
		if (it->kind == PRISM_PT_BRANCH) { /* perf's layout of branches */
			if (fl & F_CALLINDENT)
				put_callindent(p, it, fl);
			if (fl & F_IP)
				put_addr(p, it, it->ip, fl);
			/* perf: the target where asked, or by default */
			if ((fl & F_ADDR) || !user_set) {
				prism_strbuf_addstr(sb, " =>");
				put_addr(p, it, it->addr, fl);
			}
			script_pt_ipc_put(&p->si, it, sb);
			if (fl & F_IP)
				script_pt_srcline_put(&p->si, it, it->ip, sb);
			script_pt_insn_put(&p->si, it, sb);
		} else {
			if ((fl & F_SYNTH) && script_pt_event_synth(it->kind))
				script_pt_event_put(&p->o.info, it, sb);
			if (fl & F_ADDR)
				prism_strbuf_addf(sb, "%16" PRIx64, it->addr);
			if (fl & F_DATA_SRC) /* perf: zeros (files with an AUXTRACE index) */
				script_put_data_src(sb, &p->src_width, 0);
			if (fl & F_WEIGHT)
				prism_strbuf_addf(sb, "%16u", 0);
			if ((fl & F_IP) && it->callchain) {
				put_chain(p, it, fl);
			} else if (fl & F_IP) {
				put_addr(p, it, it->ip, fl);
				script_pt_srcline_put(&p->si, it, it->ip, sb);
			}
			if (fl & F_PHYS_ADDR)
				prism_strbuf_addf(sb, "%16x", 0);
			script_pt_brstack_put(&p->si, it, sb);
			script_pt_insn_put(&p->si, it, sb);
			script_pt_ipc_put(&p->si, it, sb);
		}
		prism_strbuf_addch(sb, '\n');
	}
	if (sb->len >= 65536) {
		fwrite(sb->buf, 1, sb->len, stdout);
		prism_strbuf_reset(sb);
	}
	return 0;
}

bool script_is_pt_file(struct prism_session *s)
{
	size_t i, n = prism_session__nr_evsels(s);

	for (i = 0; i < n; i++)
		if (!strncmp(prism_evsel__name(prism_session__evsel(s, i)), "intel_pt", 8))
			return true;
	return false;
}

const char *script_itrace_setup(const char *itrace, const char *fields, bool call_trace,
				bool callret_trace, struct prism_itrace *it, struct pt_fields *f)
{
	static char why[400];
	const char *bad = NULL, *opts = itrace;

	if (call_trace && callret_trace)
		return "--call-trace and --call-ret-trace cannot be combined";
	if ((call_trace || callret_trace) && itrace)
		return "--call-trace and --call-ret-trace set --itrace themselves (ce, cre)";
	if (call_trace || callret_trace) { /* perf's --itrace (their fields: the options') */
		opts = call_trace ? "cewp" : "crewp";
		f->call_trace = f->ns = true;
		f->pad_dso = call_trace;
	}
	if (prism_itrace__parse(opts, it, &bad)) {
		if (*bad == 'g' || *bad == 'l') /* perf's bounds */
			snprintf(why, sizeof(why), "--itrace %s: '%c' takes a count of 1 to 1024",
				 opts, *bad);
		else
			snprintf(why, sizeof(why), "--itrace %s: '%c' is not an option prism knows",
				 opts, *bad);
		return why;
	}
	if (script_itrace_unsupported(it)) {
		snprintf(why, sizeof(why), "--itrace %s: %s", opts, script_itrace_unsupported(it));
		return why;
	}
	return script_pt_fields_apply(fields, f);
}

const char *script_itrace_unsupported(const struct prism_itrace *it)
{
	if (!it->instructions && !it->branches && !it->errors && !it->transactions &&
	    !it->pwr_events && !it->ptwrites)
		return "nothing to synthesize: give i, b, c, r, e, x, p or w";
	return NULL;
}

const char *export_itrace_unsupported(const struct prism_itrace *it)
{
	if (it->transactions || it->pwr_events || it->ptwrites || it->log || it->last_branch)
		return "x, p, w, d and l are prism script's (the exports take the branches and "
		       "instructions samples: i, b, c, r)";
	if (!it->instructions && !it->branches)
		return "no samples to export: give i, b, c or r";
	return NULL;
}

static int decode(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
		  const struct prism_itrace *itrace, const struct pt_fields *f, const char *input,
		  pt_sample_fn *fn, void *fn_ctx)
{
	/* static: the address cache is big for a stack */
	static struct spt p;
	size_t i;
	struct prism_tool tool = { 0 };
	int err;

	if (!prism_feature_enabled(PRISM_FEATURE_LIBIPT)) {
		error("this prism was built without libipt: it cannot decode Intel PT traces");
		hint("%s", prism_feature_hint(PRISM_FEATURE_LIBIPT));
		return 1;
	}
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.sy = sy;
	p.tasks = tasks;
	p.f = f;
	if (script_pt_insn_init(&p.si, f, sy)) {
		error("-F disasm needs libcapstone: this prism was built without it");
		hint("%s", prism_feature_hint(PRISM_FEATURE_LIBCAPSTONE));
		return 1;
	}
	p.fn = fn;
	p.fn_ctx = fn_ctx;
	if (itrace->log && script_pt_log_open(&p.log)) {
		error_errno(errno, "--itrace=d: cannot write %s", script_pt_log_name());
		return 1;
	}
	prism_strbuf_init(&p.line);
	prism_strbuf_init(&p.head);
	p.o.itrace = *itrace;
	if ((f->type[PT_HW].fields | f->type[PT_SYNTH].fields) & F_CALLINDENT)
		p.o.itrace.thread_stack = true;
	p.o.ipc = (f->type[PT_HW].fields | f->type[PT_SYNTH].fields) & F_IPC;
	p.o.insn_to = itrace->instructions && (f->type[PT_HW].fields & F_ADDR);
	p.o.sy = sy;
	p.o.tasks = tasks;
	tool.mmap = tool.comm = tool.fork = tool.exit = sb_event;
	tool.switch_ = tool.other = sb_event;
	tool.other_all = true;
	tool.user = on_user;
	tool.auxtrace_data = true;
	err = prism_session__process(s, &tool, &p);
	if (err < 0) {
		err = p.refused ? 1 : report_process_result(s, input, err);
		goto out;
	}
	if (!p.have_info) {
		error("'%s' has no Intel PT trace (no AUXTRACE_INFO record of Intel PT)",
		      input ? input : "perf.data");
		hint("record one with prism record -e intel_pt//u or perf record -e intel_pt//u");
		err = 1;
		goto out;
	}
	p.cpu = p.o.info.per_cpu_mmaps;
	err = prism_pt_decoder__run(p.d, print_item, &p);
	pt_show_flush(&p.show, UINT64_MAX, &p.line);
	fwrite(p.line.buf, 1, p.line.len, stdout);
	if (verbose) {
		struct prism_pt_decoder_stats st;

		prism_pt_decoder__stats(p.d, &st);
		fprintf(stderr,
			"Intel PT: %" PRIu64 " trace bytes in %zu queues, %" PRIu64
			" of them held in memory, %" PRIu64 " released while decoding, %" PRIu64
			" blocks walked (%zu queues by prism's walk)\n",
			st.trace_bytes, st.queues, st.heap_bytes, st.released_bytes, st.blocks,
			st.walked);
	}
	if (err) {
		error_errno(err, "decoding the Intel PT trace of '%s' failed",
			    input ? input : "perf.data");
		err = 1;
	} else if (p.nr_errors) {
		warning("%" PRIu64 " instruction trace errors", p.nr_errors);
	} else {
		struct prism_pt_decoder_stats st;

		prism_pt_decoder__stats(p.d, &st);
		if (st.errors)
			warning("%" PRIu64 " instruction trace errors where decoding stopped or "
				"started again (--itrace=e shows them)",
				st.errors);
	}
out:
	if (script_pt_log_close(&p.log) && !err) {
		error("--itrace=d: writing %s failed", script_pt_log_name());
		err = 1;
	}
	prism_pt_decoder__free(p.d);
	script_pt_insn_release(&p.si);
	prism_strbuf_release(&p.line);
	prism_strbuf_release(&p.head);
	pt_show_release(&p.show);
	prism_callchain__release(&p.cc);
	for (i = 0; i < NR_CACHE; i++)
		free(p.cache[i].text);
	return err ? 1 : 0;
}

int script_itrace(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
		  const struct prism_itrace *itrace, const struct pt_fields *f, const char *input)
{
	return decode(s, sy, tasks, itrace, f, input, NULL, NULL);
}

int pt_decode(struct prism_session *s, struct prism_symbols *sy, struct prism_tasks *tasks,
	      const struct prism_itrace *itrace, const char *input, pt_sample_fn *fn, void *ctx)
{
	static const struct pt_fields none;

	return decode(s, sy, tasks, itrace, &none, input, fn, ctx);
}
