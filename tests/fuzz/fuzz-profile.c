// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the input bytes as a perf.data file read the way
 * `prism report` reads it: MMAP/MMAP2/COMM/FORK/EXIT/KSYMBOL/BUILD_ID
 * records build the address spaces (lib/symbol), every sample's
 * frame-pointer call chain is resolved address by address (any value: the
 * context markers, addresses near 0 and 2^64, maps that end at the top of
 * the address space) and added to a profile (lib/profile), which then
 * builds its rows, call graphs, folded stacks and flame graph.
 *
 * DWARF unwinding (samples with a stack copy) is left to fuzz-unwind: the
 * stack copy is hidden from prism_symbols__callchain() here.
 *
 * A hash of the first 64 bytes (the file header) picks the options:
 *   bit 0: binaries from their recorded paths (ELF symbol tables of this
 *          machine, as report does) instead of a symfs where none exists
 *   bit 1: sort keys pid,tid,cpu,sym instead of comm,dso,sym
 *   bit 2: callee call graphs instead of caller ones
 *   bit 3: no_order (file order) instead of time order
 * Set PRISM_FUZZ_MODE=0..15 to force a mode when replaying an input.
 * Neither /proc/kallsyms nor /proc/PID/root is read: results must not
 * depend on the machine's kernel or processes.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/log.h>
#include <prism/profile.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_PROFILES 8

struct profile_ctx {
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_profile *profiles[MAX_PROFILES];
	struct prism_callchain cc;
	unsigned int keys_mask;
};

static volatile uint64_t sink;
static int forced_mode = -1;

/* format every message like a real log callback would */
static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	sink += (uint64_t)vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *m = getenv("PRISM_FUZZ_MODE");

	if (m && *m)
		forced_mode = atoi(m) & 15;
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct profile_ctx *c = ctx;
	int err = prism_tasks__event(c->tasks, ev);

	return err ? err : prism_symbols__event(c->sy, ev);
}

static int on_symbols(void *ctx, const struct prism_event *ev)
{
	struct profile_ctx *c = ctx;

	return prism_symbols__event(c->sy, ev);
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	if (ev->type == PERF_RECORD_KSYMBOL || ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		return on_symbols(ctx, ev);
	return 0;
}

static void touch_frame(const struct prism_frame *f)
{
	struct prism_strbuf sb = STRBUF_INIT;

	touch(f->dso_name);
	touch(f->dso_path);
	touch(f->sym);
	sink += f->dso_addr + f->map_addr + f->symoff + prism_frame__addr(f);
	prism_frame__format_script(f, PRISM_FRAME_FMT_SYMOFF | PRISM_FRAME_FMT_DSO, &sb);
	prism_frame__format_sym(f, PRISM_FRAME_FMT_SYMOFF, &sb);
	sink += sb.len;
	prism_strbuf_release(&sb);
}

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct profile_ctx *c = ctx;
	struct prism_event fp = *ev; /* without the stack copy: no DWARF unwinding here */
	struct prism_profile **p;
	size_t i;
	int idx, err;

	if (!ev->evsel)
		return 0;
	idx = prism_evsel__idx(ev->evsel);
	if (idx < 0 || idx >= MAX_PROFILES)
		return 0;
	p = &c->profiles[idx];
	if (!*p) {
		*p = prism_profile__new(c->sy, c->keys_mask);
		if (!*p)
			return -ENOMEM;
	}
	fp.sample.user_stack_size = 0;
	fp.sample.user_stack = NULL;
	err = prism_symbols__callchain(c->sy, &fp, &c->cc, 0);
	if (err)
		return err;
	for (i = 0; i < c->cc.nr; i++)
		touch_frame(&c->cc.frames[i]);
	return prism_profile__add(*p, prism_tasks__comm(c->tasks, ev->sample.tid), ev->sample.pid,
				  ev->sample.tid, ev->sample.cpu, ev->sample.period, c->cc.frames,
				  c->cc.nr);
}

static void walk_graph(const struct prism_callgraph *g, unsigned int depth)
{
	size_t i;

	touch(g->name);
	touch(g->dso);
	sink += g->ip + g->period + g->samples;
	if (depth > 64)
		return;
	for (i = 0; i < g->nr_children; i++)
		walk_graph(g->children[i], depth + 1);
}

static void report(struct prism_profile *p, const enum prism_sort_key *keys, size_t nr_keys,
		   bool caller)
{
	struct prism_flamegraph_opts fo = { .title = "fuzz", .subtitle = "fuzz" };
	struct prism_callgraph *root;
	struct prism_hist_entry *e;
	size_t n, i;
	FILE *fp;

	sink += prism_profile__total_period(p) + prism_profile__nr_samples(p) +
		prism_profile__nr_stacks(p);
	for (int children = 0; children < 2; children++) {
		if (prism_profile__entries(p, keys, nr_keys, children, &e, &n))
			continue;
		for (i = 0; i < n; i++) {
			touch(e[i].comm);
			touch(e[i].dso);
			touch(e[i].sym);
			sink += e[i].ip + e[i].self + e[i].children + e[i].nr_samples +
				e[i].nr_children_samples + e[i].pid + e[i].tid + e[i].cpu;
		}
		/* the first rows' graphs, as report --stdio -g prints them */
		for (i = 0; i < n && i < 8; i++)
			if (!prism_profile__callgraph(p, i, caller, &root))
				walk_graph(root, 0);
	}
	if (!prism_profile__callgraphs(p, caller, 0) &&
	    !prism_profile__entries(p, keys, nr_keys, true, &e, &n))
		for (i = 0; i < n && i < 8; i++)
			if (!prism_profile__callgraph(p, i, caller, &root))
				walk_graph(root, 0);
	fp = fopen("/dev/null", "w");
	if (!fp)
		abort();
	prism_profile__write_folded(p, fp, PRISM_FOLDED_KERNEL_SUFFIX | PRISM_FOLDED_TID);
	prism_profile__write_folded(p, fp, PRISM_FOLDED_PID | PRISM_FOLDED_PERIOD);
	prism_profile__write_flamegraph(p, fp, &fo);
	fclose(fp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum prism_sort_key keys_a[] = { PRISM_SORT_COMM, PRISM_SORT_DSO,
						      PRISM_SORT_SYM };
	static const enum prism_sort_key keys_b[] = { PRISM_SORT_PID, PRISM_SORT_TID,
						      PRISM_SORT_CPU, PRISM_SORT_SYM };
	uint32_t mode = forced_mode >= 0 ? (uint32_t)forced_mode : fuzz_header_hash(data, size);
	const enum prism_sort_key *keys = mode & 2 ? keys_b : keys_a;
	size_t nr_keys = mode & 2 ? PRISM_ARRAY_SIZE(keys_b) : PRISM_ARRAY_SIZE(keys_a);
	struct prism_symbols_opts so = {
		.symfs = mode & 1 ? NULL : "/nonexistent/prism-fuzz-symfs",
		.no_kernel = true,
		.no_proc_root = true,
		.debug_dir = "/nonexistent/prism-fuzz-debug",
		.buildid_dir = "/nonexistent/prism-fuzz-buildid",
		.jit_dir = "/nonexistent/prism-fuzz-jit",
	};
	struct prism_session_opts opts = { .no_order = mode & 8 };
	struct profile_ctx c = { 0 };
	struct prism_tool tool = {
		.sample = on_sample,
		.mmap = on_symbols,
		.comm = on_task,
		.fork = on_task,
		.exit = on_task,
		.other = on_other,
		.other_all = true,
	};
	struct prism_session *s;
	size_t i;
	int fd = fuzz_memfd(data, size);

	opts.fd = fd;
	s = prism_session__open(&opts);
	if (!s) {
		close(fd);
		return 0;
	}
	c.sy = prism_symbols__new(&so);
	c.tasks = prism_tasks__new();
	if (!c.sy || !c.tasks)
		abort();
	for (i = 0; i < nr_keys; i++)
		c.keys_mask |= 1u << keys[i];
	prism_symbols__set_features(c.sy, prism_session__features(s));
	prism_session__process(s, &tool, &c); /* a damaged file still gives a profile */
	for (i = 0; i < MAX_PROFILES; i++) {
		if (!c.profiles[i])
			continue;
		report(c.profiles[i], keys, nr_keys, !(mode & 4));
		prism_profile__free(c.profiles[i]);
	}
	prism_callchain__release(&c.cc);
	prism_tasks__free(c.tasks);
	prism_symbols__free(c.sy);
	prism_session__free(s);
	close(fd);
	return 0;
}
