// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the AUX path of a perf.data file or pipe-mode stream
 * (the input): the session hands over the trace bytes after AUXTRACE
 * records; AUXTRACE_INFO, AUXTRACE, AUX, ITRACE_START, AUXTRACE_ERROR and
 * TIME_CONV are parsed and shown as -D shows them; every trace's packets
 * are dumped; the side-band feeds symbols, tasks and the decoder, which
 * then decodes the queues (with the errata of the file's CPUID) into
 * branches, instructions, errors, transactions, power events and ptwrites
 * (the code from whatever files the maps name; mostly none, so decoding
 * errors).
 *
 * Bit 0 of a hash of the first 64 bytes picks a real pipe instead of a
 * memfd (PRISM_FUZZ_MODE=0/1 forces one when replaying); bit 1 sparse
 * samples (blocks), bits 2-3 which of their three option sets.  Seeds: files of
 * tests/tools/perfdata-pt.py (make-pt-seeds.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/log.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static int forced_mode = -1;

struct ctx {
	struct prism_session *s;
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_pt_decoder *d;
	struct prism_strbuf sb;
	uint64_t items;
	int blocks; /* sparse samples: blocks (prism's walk, libipt's block decoder): 1 to 3 */
};

static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	(void)level;
	(void)ctx;
	vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("PRISM_FUZZ_MODE");

	(void)argc;
	(void)argv;
	if (m)
		forced_mode = atoi(m);
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static int flush(void *ctx, struct prism_strbuf *sb)
{
	(void)ctx;
	prism_strbuf_reset(sb);
	return 0;
}

static int side_band(void *arg, const struct prism_event *ev)
{
	struct ctx *c = arg;

	prism_symbols__event(c->sy, ev);
	prism_tasks__event(c->tasks, ev);
	prism_pt__dump_detail(ev, &c->sb);
	if (c->d)
		prism_pt_decoder__side_band(c->d, ev);
	prism_strbuf_reset(&c->sb);
	return 0;
}

static void new_decoder(struct ctx *c, const struct prism_pt_info *info)
{
	struct prism_pt_decoder_opts o = { .info = *info, .sy = c->sy, .tasks = c->tasks };
	size_t i;

	for (i = 0; i < prism_session__nr_evsels(c->s); i++) {
		const struct perf_event_attr *a = prism_evsel__attr(prism_session__evsel(c->s, i));

		if (a->type == info->pmu_type)
			o.config = a->config;
	}
	/*
	 * with call chains and last branches (the stacks), transactions, power
	 * events, ptwrites; IPC: the cycle counts.  Or sparse samples with call
	 * chains, walked a block at a time (many at once where they only
	 * count): with the events, in ticks with branches, in instructions
	 * with a sampled branch's target (insn_to), or only calls and returns
	 */
	if (c->blocks == 3) { /* perf's call traces' filter: calls and returns */
		prism_itrace__parse("i100uscrexpwg8", &o.itrace, NULL);
	} else if (c->blocks == 1) {
		prism_itrace__parse("i100usbexpwg8", &o.itrace, NULL);
	} else if (c->blocks == 2) {
		prism_itrace__parse("i100iexpwg8", &o.itrace, NULL);
		o.insn_to = true;
	} else {
		prism_itrace__parse("i1ibexpwg4l5s3", &o.itrace, NULL);
		o.ipc = true;
	}
	o.config |= PRISM_PT_CFG_PWR_EVT;
	o.itrace.thread_stack = true;
	/* the CPUID feature: libipt's errata for it */
	prism_pt_cpu__from_features(prism_session__features(c->s), &o.cpu);
	prism_pt_decoder__free(c->d);
	c->d = prism_pt_decoder__new(&o);
}

static int user(void *arg, const struct prism_event *ev)
{
	struct ctx *c = arg;
	struct prism_pt_info info;
	struct prism_auxtrace at;
	struct prism_auxtrace_error ae;
	struct prism_time_conv tc;

	prism_pt__dump_detail(ev, &c->sb);
	switch (ev->type) {
	case PRISM_RECORD_AUXTRACE_INFO:
		if (!prism_pt_info__parse(ev, &info) && info.type == PRISM_AUXTRACE_INTEL_PT) {
			prism_pt_info__time_conv(&info, &tc);
			prism_perf_time_to_tsc(&tc, prism_tsc_to_perf_time(&tc, info.time_zero));
			new_decoder(c, &info);
		}
		break;
	case PRISM_RECORD_AUXTRACE:
		if (!prism_auxtrace__parse(ev, &at) && at.data) {
			prism_pt__dump_packets(at.data, (size_t)at.size, &c->sb, flush, c);
			if (c->d)
				prism_pt_decoder__add(c->d, &at);
		}
		break;
	case PRISM_RECORD_AUXTRACE_ERROR:
		prism_auxtrace_error__parse(ev, &ae);
		break;
	case PRISM_RECORD_TIME_CONV:
		if (!prism_time_conv__parse(ev, &tc))
			prism_tsc_to_perf_time(&tc, 12345);
		break;
	default:
		break;
	}
	prism_strbuf_reset(&c->sb);
	return 0;
}

/* every item's flags as text; at most 100000 (a trace can decode into many) */
static int item(void *arg, const struct prism_pt_item *it)
{
	struct ctx *c = arg;

	uint32_t i;

	prism_pt_flags__str(it->flags, &c->sb);
	for (i = 0; i < it->nr_callchain; i++)
		prism_strbuf_addf(&c->sb, " %" PRIx64, it->callchain[i]);
	for (i = 0; i < it->nr_brstack; i++)
		prism_strbuf_addf(&c->sb, " %" PRIx64 "/%" PRIx64, it->brstack[i].from,
				  it->brstack[i].to);
	prism_strbuf_addf(&c->sb, " %" PRIu64 "/%" PRIu64, it->ipc_insns, it->ipc_cycles);
	prism_strbuf_reset(&c->sb);
	return ++c->items >= 100000;
}

static void run(int fd, int blocks)
{
	struct prism_session_opts opts = { .fd = fd };
	struct prism_symbols_opts so = { .no_kernel = true, .no_proc_root = true, .cache_dir = "" };
	struct prism_tool tool = { 0 };
	struct ctx c = { .sb = STRBUF_INIT, .blocks = blocks };

	c.s = prism_session__open(&opts);
	if (!c.s)
		return;
	c.sy = prism_symbols__new(&so);
	c.tasks = prism_tasks__new();
	if (c.sy && c.tasks) {
		tool.mmap = tool.comm = tool.fork = tool.exit = side_band;
		tool.switch_ = tool.other = side_band;
		tool.other_all = true;
		tool.user = user;
		tool.auxtrace_data = true;
		prism_session__process(c.s, &tool, &c);
		if (c.d)
			prism_pt_decoder__run(c.d, item, &c);
	}
	prism_pt_decoder__free(c.d);
	prism_tasks__free(c.tasks);
	prism_symbols__free(c.sy);
	prism_strbuf_release(&c.sb);
	prism_session__free(c.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t h = fuzz_header_hash(data, size);
	int mode = forced_mode >= 0 ? forced_mode : (int)(h & 1);
	int blocks = h & 2 ? 1 + !!(h & 4) + (h & 4 && h & 8) : 0;
	int fds[2];

	if ((mode & 1) && !pipe2(fds, O_CLOEXEC)) {
		/* a real pipe: the whole input must fit its buffer (no writer thread) */
		int cap = fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);

		if (cap < 0)
			cap = fcntl(fds[1], F_GETPIPE_SZ);
		if (cap >= 0 && size <= (size_t)cap && !fuzz_write_all(fds[1], data, size)) {
			close(fds[1]);
			run(fds[0], blocks);
			close(fds[0]);
			return 0;
		}
		close(fds[0]);
		close(fds[1]);
	}
	fds[0] = fuzz_memfd(data, size);
	run(fds[0], blocks);
	close(fds[0]);
	return 0;
}
