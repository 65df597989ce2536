// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: --call-graph dwarf samples (PERF_SAMPLE_REGS_USER |
 * PERF_SAMPLE_STACK_USER) with fuzzer-chosen registers, stack bytes and
 * sizes, unwound and symbolized against the real ELF files of
 * tests/data/elf (a PIE and a non-PIE program, a shared library, stripped
 * and not).
 *
 * The input is not a perf.data file: it describes one or two samples and
 * the maps, and the target writes the file (one cpu-clock attr, COMM,
 * MMAP2s, the samples) to a memfd that a session reads, so every input
 * reaches the unwinder.  Layout (little endian; reads past the end give 0):
 *
 *   u8  flags  bits 0-2: the mapped binary (see elf_names[], modulo 5)
 *              bit 3: a second map, of libunw.so (or its stripped copy)
 *              bit 4: map start, length and pgoff from the input (u64 x 3)
 *              bit 5: sample_regs_user from the input (u64) instead of perf's
 *              bit 6: the stack's words are relocated (below)
 *              bit 7: a second sample of the same process (the unwinder's
 *                     cached Dwfl is used again)
 *   u8  abi    (PERF_SAMPLE_REGS_ABI_*: 2 is x86-64)
 *   u8  dyn    0: dyn_size = the copy's size, 1: u16 from the input,
 *              2: u64 from the input
 *   u16 size   of the stack copy (at most 60000)
 *   u64 per register of the mask, then the stack bytes (zero padded)
 *
 * Relocated words: a register or stack word whose top nibble is 0xa is
 * "the map's start + the low 32 bits", 0xb "SP + the low 32 bits" (an SP
 * so written is relative to the default stack address): seeds and mutations
 * then make real return addresses and frame pointers in any layout.
 *
 * Each sample is also taken as a frame-pointer stack of off-CPU time (prism
 * record --off-cpu): its IP as the leaf, the stack's second word as the
 * next frame, the first 128 bytes of the copy as the window at sp, through
 * prism_symbols__recover_leaf().
 *
 * Invariants checked: an unwind gives at most 127 user frames, every frame
 * has a DSO name, the stop counts add up; a leaf recovery inserts at most 16
 * frames, each with a DSO name.
 * Set PRISM_FUZZ_ELF_DIR to the ELF directory (default tests/data/elf
 * under the current directory, or $PRISM_SRC/tests/data/elf), and
 * PRISM_FUZZ_VERBOSE=1 to see the frames of a replayed input.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/event.h>
#include <prism/evsel.h>
#include <prism/log.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define PID 4242
#define STACK_BASE 0x7ffd12340000ull
#define PERF_REGS_MASK 0xff0fffull
#define MAX_STACK 60000
#define REG_SP 7

static const char *const elf_names[] = { "unw-nopie", "unw-pie", "unw-pie-stripped", "libunw.so",
					 "libunw-stripped.so" };
static char elf_dir[PATH_MAX];
static bool verbose; /* PRISM_FUZZ_VERBOSE=1: print the frames (replaying an input) */
static volatile uint64_t sink;

/* format every message like a real log callback would */
static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	sink += (uint64_t)vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("PRISM_FUZZ_ELF_DIR"), *src = getenv("PRISM_SRC");
	char buf[PATH_MAX];

	if (!dir || !*dir) {
		snprintf(buf, sizeof(buf), "%s/tests/data/elf", src && *src ? src : ".");
		dir = buf;
	}
	if (!realpath(dir, elf_dir)) {
		fprintf(stderr, "fuzz-unwind: no ELF directory '%s' (set PRISM_FUZZ_ELF_DIR)\n",
			dir);
		abort();
	}
	verbose = getenv("PRISM_FUZZ_VERBOSE") && *getenv("PRISM_FUZZ_VERBOSE") == '1';
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

struct in {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct in *in, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (in->left) {
			v |= (uint64_t)*in->p++ << (8 * i);
			in->left--;
		}
	return v;
}

/* a growable byte buffer for the file */
struct buf {
	uint8_t *d;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->d = realloc(b->d, b->cap);
		if (!b->d)
			abort();
	}
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void header(struct buf *b, uint32_t type, uint16_t misc, size_t size)
{
	uint16_t sz = (uint16_t)size;

	put32(b, type);
	put(b, &misc, 2);
	put(b, &sz, 2);
}

/* a record with the sample_id trailer (TID, TIME) */
static void record(struct buf *b, uint32_t type, uint16_t misc, const struct buf *body,
		   uint64_t time)
{
	header(b, type, misc, 8 + body->len + 16);
	put(b, body->d, body->len);
	put32(b, PID);
	put32(b, PID);
	put64(b, time);
}

static void mmap2(struct buf *b, uint64_t start, uint64_t len, uint64_t pgoff, const char *name,
		  uint64_t time)
{
	struct buf r = { 0 };
	char path[PATH_MAX + 8] = { 0 };
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", elf_dir, name);
	n = (strlen(path) + 8) & ~7ul;
	put32(&r, PID);
	put32(&r, PID);
	put64(&r, start);
	put64(&r, len);
	put64(&r, pgoff);
	put64(&r, 0x100000008ull); /* maj, min */
	put64(&r, 1234); /* ino */
	put64(&r, 0);
	put32(&r, 5); /* PROT_READ | PROT_EXEC */
	put32(&r, 2); /* MAP_PRIVATE */
	put(&r, path, n);
	record(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &r, time);
	free(r.d);
}

static uint64_t reloc(uint64_t w, uint64_t map_start, uint64_t sp)
{
	switch (w >> 60) {
	case 0xa:
		return map_start + (uint32_t)w;
	case 0xb:
		return sp + (uint32_t)w;
	default:
		return w;
	}
}

/* one sample from the input */
static void sample(struct buf *b, struct in *in, uint64_t mask, uint64_t map_start, bool relocate,
		   uint64_t time)
{
	struct buf r = { 0 };
	uint64_t abi = take(in, 1), dyn_mode = take(in, 1), size = take(in, 2), dyn,
		 sp = STACK_BASE;
	uint64_t regs[64], ip = 0, i, n = (uint64_t)__builtin_popcountll(mask);
	uint8_t *stack;

	if (size > MAX_STACK)
		size %= MAX_STACK;
	size &= ~7ull;
	dyn = dyn_mode == 1 ? take(in, 2) : dyn_mode == 2 ? take(in, 8) : size;
	for (i = 0; i < n; i++)
		regs[i] = take(in, 8);
	/* SP first: the other relocations are relative to it */
	if (mask & (1ull << REG_SP)) {
		uint64_t *spr = &regs[__builtin_popcountll(mask & ((1ull << REG_SP) - 1))];

		*spr = reloc(*spr, map_start, STACK_BASE);
		sp = *spr;
	}
	for (i = 0; i < n; i++)
		regs[i] = reloc(regs[i], map_start, sp);
	if (mask & 0x100) /* IP */
		ip = regs[__builtin_popcountll(mask & 0xff)];
	stack = calloc(1, size ? size : 1);
	if (!stack)
		abort();
	for (i = 0; i < size && in->left; i++)
		stack[i] = (uint8_t)take(in, 1);
	if (relocate)
		for (i = 0; i + 8 <= size; i += 8) {
			uint64_t w;

			memcpy(&w, stack + i, 8);
			w = reloc(w, map_start, sp);
			memcpy(stack + i, &w, 8);
		}
	put64(&r, ip);
	put32(&r, PID);
	put32(&r, PID);
	put64(&r, time);
	put64(&r, 100000); /* period */
	put64(&r, 0); /* callchain: empty (exclude_callchain_user, user mode) */
	put64(&r, abi);
	if (abi)
		put(&r, regs, n * 8);
	put64(&r, size);
	if (size) {
		put(&r, stack, size);
		put64(&r, dyn);
	}
	header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + r.len);
	put(b, r.d, r.len);
	free(r.d);
	free(stack);
}

struct ctx {
	struct prism_symbols *sy;
	struct prism_callchain cc;
	struct prism_strbuf sb;
};

static int on_task(void *arg, const struct prism_event *ev)
{
	struct ctx *c = arg;

	return prism_symbols__event(c->sy, ev);
}

/* the register @idx (perf's x86-64 numbering) of the sample, 0 when not recorded */
static uint64_t user_reg(const struct prism_event *ev, int idx)
{
	uint64_t mask = prism_evsel__attr(ev->evsel)->sample_regs_user;

	if (!ev->sample.user_regs || !(mask & (1ull << idx)))
		return 0;
	return ev->sample.user_regs[__builtin_popcountll(mask & ((1ull << idx) - 1))];
}

/* the sample as the frame-pointer stack of an off-CPU block with its window */
static int leaf(struct ctx *c, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_leaf_window w = { .pid = s->pid, .tid = s->tid };
	struct prism_callchain fp = { 0 };
	uint64_t next = 0;
	size_t i, nr;
	int r;

	w.ip = user_reg(ev, 8);
	w.sp = user_reg(ev, 7);
	w.bp = user_reg(ev, 6);
	if (!w.ip)
		return 0;
	if (s->user_stack && s->user_stack_size) {
		w.window = (const uint8_t *)s->user_stack;
		w.size = s->user_stack_size < 128 ? (uint32_t)s->user_stack_size : 128;
		if (s->user_stack_size >= 16)
			memcpy(&next, (const uint8_t *)s->user_stack + 8, 8);
	}
	fp.frames = calloc(2, sizeof(*fp.frames));
	if (!fp.frames)
		return -ENOMEM;
	fp.alloc = 2;
	prism_symbols__resolve(c->sy, s->pid, PERF_RECORD_MISC_USER, w.ip, &fp.frames[fp.nr++]);
	if (next)
		prism_symbols__resolve(c->sy, s->pid, PERF_RECORD_MISC_USER, next,
				       &fp.frames[fp.nr++]);
	nr = fp.nr;
	r = prism_symbols__recover_leaf(c->sy, &fp, &w, NULL);
	if (r < 0 && r != -ENOMEM)
		abort();
	if (r >= 0 && (fp.nr > nr + 16 || (r != PRISM_LEAF_RECOVERED && fp.nr != nr)))
		abort();
	for (i = 0; i < fp.nr; i++)
		if (!fp.frames[i].dso_name)
			abort();
	sink += fp.nr;
	prism_callchain__release(&fp);
	return 0;
}

static int on_sample(void *arg, const struct prism_event *ev)
{
	struct ctx *c = arg;
	struct prism_frame f;
	const char *file;
	unsigned int line;
	size_t i;
	int err;

	err = prism_symbols__callchain(c->sy, ev, &c->cc, PRISM_CALLCHAIN_INLINE_UNWOUND);
	if (err)
		return err;
	/* 127 unwound frames, each expanded into at most 16 inlined ones */
	if (c->cc.nr > 127 * 16)
		abort();
	for (i = 0; i < c->cc.nr; i++) {
		const struct prism_frame *fr = &c->cc.frames[i];

		if (!fr->dso_name)
			abort();
		prism_strbuf_reset(&c->sb);
		prism_frame__format_script(fr, PRISM_FRAME_FMT_SYMOFF | PRISM_FRAME_FMT_DSO,
					   &c->sb);
		sink += c->sb.len;
		if (verbose)
			fputs(c->sb.buf, stderr);
		if (!prism_symbols__srcline(c->sy, fr, &file, &line))
			sink += strlen(file) + line;
	}
	prism_symbols__resolve(c->sy, ev->sample.pid, PERF_RECORD_MISC_USER, ev->sample.ip, &f);
	sink += f.dso_addr;
	return leaf(c, ev);
}

static void run(const uint8_t *file, size_t len)
{
	struct prism_symbols_opts so = {
		.no_kernel = true,
		.no_proc_root = true,
		.buildid_dir = "/nonexistent/prism-fuzz",
		.debug_dir = "/nonexistent/prism-fuzz",
		.jit_dir = "/nonexistent/prism-fuzz",
	};
	struct prism_tool tool = {
		.sample = on_sample,
		.mmap = on_task,
		.comm = on_task,
		.fork = on_task,
		.exit = on_task,
	};
	struct ctx c = { .sb = STRBUF_INIT };
	struct prism_session_opts opts = { .fd = fuzz_memfd(file, len) };
	struct prism_session *s = prism_session__open(&opts);
	const struct prism_unwind_stats *st;
	uint64_t sum = 0;
	int i;

	if (!s) {
		close(opts.fd);
		return;
	}
	c.sy = prism_symbols__new(&so);
	if (!c.sy)
		abort();
	prism_session__process(s, &tool, &c);
	st = prism_symbols__unwind_stats(c.sy);
	for (i = 0; i < PRISM_UNWIND__NR; i++) {
		sum += st->stopped[i];
		sink += strlen(prism_unwind_stop__str(i));
	}
	if (sum != st->nr_stopped || st->nr_stopped > st->nr_unwinds)
		abort();
	prism_callchain__release(&c.cc);
	prism_strbuf_release(&c.sb);
	prism_symbols__free(c.sy);
	prism_session__free(s);
	close(opts.fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	uint64_t flags = take(&in, 1), mask = PERF_REGS_MASK, start, len, pgoff;
	const char *name = elf_names[(flags & 7) % 5];
	struct buf d = { 0 }, f = { 0 }, comm = { 0 };
	uint64_t attr[16] = { 0 };
	bool pie = (flags & 7) % 5 != 0;

	start = pie ? 0x555555554000ull : 0x400000;
	len = 0x1000;
	pgoff = 0;
	if (flags & 16) {
		start = take(&in, 8);
		len = take(&in, 8);
		pgoff = take(&in, 8);
	}
	if (flags & 32)
		mask = take(&in, 8);

	put32(&comm, PID);
	put32(&comm, PID);
	put(&comm, "unw\0\0\0\0\0", 8);
	record(&d, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, &comm, 1000);
	mmap2(&d, start, len, pgoff, name, 2000);
	if (flags & 8)
		mmap2(&d, 0x7f0000000000ull, 0x1000, 0, elf_names[3 + (flags >> 4 & 1)], 3000);
	sample(&d, &in, mask, start, flags & 64, 1000000);
	if (flags & 128)
		sample(&d, &in, mask, start, flags & 64, 2000000);
	header(&d, 68 /* FINISHED_ROUND */, 0, 8);

	/* perf_event_attr (128 bytes): cpu-clock, sampled as --call-graph dwarf */
	attr[0] = 1 | (128ull << 32); /* type SOFTWARE, size */
	attr[2] = 100000; /* sample_period */
	attr[3] = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN |
		  PERF_SAMPLE_PERIOD | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	/* disabled, mmap, comm, sample_id_all, exclude_guest, exclude_callchain_user, mmap2, comm_exec */
	attr[5] = 1 | 1 << 8 | 1 << 9 | 1 << 18 | 1 << 20 | 1 << 22 | 1 << 23 | 1 << 24;
	attr[10] = mask; /* sample_regs_user */
	attr[11] = 65528; /* sample_stack_user */

	put(&f, "PERFILE2", 8);
	put64(&f, 104); /* header size */
	put64(&f, 144); /* attr_size */
	put64(&f, 112); /* attrs */
	put64(&f, 144);
	put64(&f, 112 + 144); /* data */
	put64(&f, d.len);
	put64(&f, 0); /* event_types */
	put64(&f, 0);
	put(&f, (uint64_t[4]){ 0 }, 32); /* no features */
	put64(&f, 7); /* the attr's id, at 104 */
	put(&f, attr, sizeof(attr));
	put64(&f, 104); /* ids section */
	put64(&f, 8);
	put(&f, d.d, d.len);
	run(f.d, f.len);
	free(comm.d);
	free(d.d);
	free(f.d);
	return 0;
}
