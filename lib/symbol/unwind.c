// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of user stacks (perf record --call-graph dwarf): the
 * sample's user registers and its copy of the top of the user stack are
 * fed to libdw's unwinder (dwfl_getthread_frames) through custom thread
 * callbacks.  Memory outside the stack copy is read from the mapped files.
 * x86-64 only (perf's register numbering -> DWARF's).
 *
 * Every number here comes from the file: register values, the copy and its
 * sizes, the maps.  Reads are bounds-checked without sums that can wrap,
 * and the frames follow perf 6.1 (which unwinds with libunwind): the sampled
 * IP is the first frame, and a caller is reported only while the frame
 * below it lies in a binary whose CFI covers it.  libdw would otherwise go
 * on by guessing from the frame-pointer register, and print made-up frames
 * when that register holds data.
 *
 * Cost: libdw parses a module's CFI once per Dwfl, so one Dwfl per address
 * space is kept across samples, NR_SESSIONS of them (least recently used
 * out), each rebuilt when its space changes; as libdw keeps every module's
 * file open, they hold MAX_MODULES modules at most.  The files the unwinder
 * reads words from stay open, NR_FILES of them.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <unistd.h>

#include <prism/evsel.h>

#include "symbol-internal.h"

#define MAX_FRAMES 127
#define NR_SESSIONS 8
#define MAX_MODULES 256 /* libdw keeps each module's file open: a bound on descriptors */
#define NR_FILES 16
#define STACK_LIMIT (8ull << 20)

/* perf_event x86 register indexes (asm/perf_regs.h) */
enum {
	PR_AX = 0,
	PR_BX,
	PR_CX,
	PR_DX,
	PR_SI,
	PR_DI,
	PR_BP,
	PR_SP,
	PR_IP,
	PR_R8 = 16, /* .. PR_R15 = 23 */
};

/*
 * One address space's Dwfl.  dwfl_attach_state() binds the thread callbacks
 * to this object once, so the per-sample inputs live here too.
 */
struct unw_session {
	struct maps *maps; /* a reference: the key can be neither freed nor reused */
	uint64_t gen; /* maps->gen the modules were reported for */
	uint64_t used; /* LRU tick */
	Dwfl *dwfl;
	size_t nr_modules; /* reported (an upper bound: libdw may reuse one) */
	bool full; /* refused a module at MAX_MODULES: rebuilt at the next sample */

	/* the sample being unwound */
	struct prism_symbols *sy;
	uint32_t pid;
	uint64_t mask;
	const uint64_t *regs;
	const uint8_t *stack;
	uint64_t stack_size, sp;
	bool copy_full; /* dyn_size == size: the copy may have cut the stack */
	bool no_stats; /* a window unwind (unwind__window): not counted in unw_stats */
	unw_frame_cb cb;
	void *arg;
	int nr, err; /* frames so far, the frame callback's error */
	bool started, stopped, zero_pc;
	uint64_t last_pc; /* of the last frame reported */
	/*
	 * a word at or above SP could not be read (below SP are only slots a
	 * function popped already, which stale CFI rows still name), and the
	 * first such address
	 */
	bool read_failed;
	uint64_t failed_addr;
};

struct unw_file {
	struct prism_dso *dso;
	int fd;
	uint64_t used;
};

struct unw_state {
	struct unw_session *sessions[NR_SESSIONS];
	struct unw_file files[NR_FILES];
	uint64_t tick;
	size_t nr_modules; /* of all sessions */
	Elf *elf; /* an x86-64 ELF header: gives libdw its backend before any module is known */
	Elf64_Ehdr ehdr; /* its bytes */
};

/* the ELF header of an x86-64 file without sections or segments (a host-order struct: x86 only) */
static const Elf64_Ehdr x86_64_ehdr = {
	.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
	.e_type = ET_EXEC,
	.e_machine = EM_X86_64,
	.e_version = EV_CURRENT,
	.e_ehsize = sizeof(Elf64_Ehdr),
};

static void stop(struct unw_session *u, enum prism_unwind_stop why)
{
	struct prism_unwind_stats *st = &u->sy->unw_stats;

	if (u->stopped)
		return;
	u->stopped = true;
	if (u->no_stats)
		return;
	st->stopped[why]++;
	st->nr_stopped++;
}

static bool reg(uint64_t mask, const uint64_t *regs, int idx, uint64_t *out)
{
	if (!(mask & (1ull << idx)))
		return false;
	*out = regs[__builtin_popcountll(mask & ((1ull << idx) - 1))];
	return true;
}

/* ---- files the unwinder reads words from ---- */

static int file_fd(struct unw_state *st, struct prism_dso *dso)
{
	struct unw_file *f = &st->files[0];
	size_t i;

	for (i = 0; i < NR_FILES; i++) {
		if (st->files[i].dso == dso) {
			st->files[i].used = ++st->tick;
			return st->files[i].fd;
		}
		if (st->files[i].used < f->used)
			f = &st->files[i];
	}
	if (f->dso && f->fd >= 0)
		close(f->fd);
	f->dso = dso;
	f->fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
	f->used = ++st->tick;
	return f->fd;
}

/* the word at @addr of the file mapped there */
static bool file_read(struct unw_session *u, uint64_t addr, Dwarf_Word *result)
{
	struct map *map = maps__find(u->maps, addr);
	struct prism_dso *dso;
	uint64_t off;
	int fd;

	if (!map || !span_ok(addr, 8, map->start, map->end - map->start))
		return false;
	dso = map->dso;
	if (dso->kind != DSO_USER)
		return false;
	if (!dso->loaded)
		dso__load(u->sy, dso, u->pid);
	off = addr - map->start;
	/* pgoff is the file's word: the sum must neither wrap nor leave off_t */
	if (!dso->runtime || map->pgoff > INT64_MAX - 8 || off > INT64_MAX - 8 - map->pgoff)
		return false;
	fd = file_fd(u->sy->unw, dso);
	return fd >= 0 && pread(fd, result, 8, (off_t)(off + map->pgoff)) == 8;
}

/* ---- libdw callbacks ---- */

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0; /* only get_thread is used */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

/* the stack copy first, then the bytes of the mapped file */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unw_session *u = arg;

	if (span_ok(addr, 8, u->sp, u->stack_size)) {
		memcpy(result, u->stack + (addr - u->sp), 8);
		return true;
	}
	if (file_read(u, addr, result))
		return true;
	if (addr >= u->sp) {
		if (!u->read_failed)
			u->failed_addr = addr;
		u->read_failed = true;
	}
	return false;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	static const int order[17] = { PR_AX,	  PR_DX,     PR_CX,	PR_BX,	   PR_SI,
				       PR_DI,	  PR_BP,     PR_SP,	PR_R8,	   PR_R8 + 1,
				       PR_R8 + 2, PR_R8 + 3, PR_R8 + 4, PR_R8 + 5, PR_R8 + 6,
				       PR_R8 + 7, PR_IP };
	struct unw_session *u = arg;
	Dwarf_Word regs[17];
	int i;

	for (i = 0; i < 17; i++) {
		uint64_t v = 0;

		reg(u->mask, u->regs, order[i], &v);
		regs[i] = v;
	}
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* ---- modules ---- */

static void session_free(struct unw_session *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	maps__put(u->maps);
	free(u);
}

/* ends the session in @slot */
static void drop(struct unw_state *st, struct unw_session **slot)
{
	if (!*slot)
		return;
	st->nr_modules -= (*slot)->nr_modules;
	session_free(*slot);
	*slot = NULL;
}

/* room for one more module: other sessions end, least recently used first */
static bool make_room(struct unw_session *u)
{
	struct unw_state *st = u->sy->unw;
	size_t i;

	while (st->nr_modules >= MAX_MODULES) {
		struct unw_session **lru = NULL;

		for (i = 0; i < NR_SESSIONS; i++)
			if (st->sessions[i] && st->sessions[i] != u &&
			    (!lru || st->sessions[i]->used < (*lru)->used))
				lru = &st->sessions[i];
		if (!lru) {
			u->full = true;
			return false;
		}
		drop(st, lru);
	}
	return true;
}

/* map start - linked address: wraps (modular arithmetic) for a bias that makes no sense */
static __wraps uint64_t load_bias(uint64_t start, uint64_t vaddr)
{
	return start - vaddr;
}

/* the module of the binary mapped at @addr, reported to libdw on first use; NULL when none */
static Dwfl_Module *module_at(struct unw_session *u, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, addr);
	struct prism_dso *dso;
	struct map *map;
	uint64_t vaddr;
	size_t i;

	if (mod)
		return mod;
	map = maps__find(u->maps, addr);
	if (!map || map->dso->kind != DSO_USER)
		return NULL;
	dso = map->dso;
	if (!dso->loaded)
		dso__load(u->sy, dso, u->pid);
	if (!dso->runtime)
		return NULL;
	/* the load bias: where the segment that holds pgoff was linked against where it is */
	vaddr = map->pgoff;
	for (i = 0; i < dso->nr_segs; i++) {
		const struct segment *s = &dso->segs[i];

		if (map->pgoff >= s->offset && map->pgoff - s->offset < s->filesz) {
			vaddr = map->pgoff - s->offset + s->vaddr;
			break;
		}
	}
	if (!make_room(u))
		return NULL;
	/* modular arithmetic: a bias that makes no sense gives a module elsewhere */
	mod = dwfl_report_elf(u->dwfl, dso->name, dso->runtime, -1,
			      dso->is_exec ? 0 : load_bias(map->start, vaddr), false);
	if (mod) {
		u->nr_modules++;
		u->sy->unw->nr_modules++;
	}
	/* as perf: a module that does not cover @addr (bad pgoff, another file) is no use */
	return mod && dwfl_addrmodule(u->dwfl, addr) == mod ? mod : NULL;
}

static bool cfi_covers(Dwarf_CFI *cfi, Dwarf_Addr bias, uint64_t pc)
{
	Dwarf_Frame *frame = NULL;
	bool ok;

	if (!cfi)
		return false;
	ok = !dwarf_cfi_addrframe(cfi, pc - bias, &frame);
	free(frame);
	return ok;
}

/* whether libdw can unwind a frame at @pc from CFI (not by guessing) */
static bool unwindable(struct unw_session *u, uint64_t pc)
{
	Dwfl_Module *mod = module_at(u, pc);
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi_covers(cfi, bias, pc))
		return true;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	return cfi_covers(cfi, bias, pc);
}

/* whether the CFI at @pc says there is no caller (the return address is undefined: _start) */
static bool outermost(struct unw_session *u, uint64_t pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, pc);
	Dwarf_Frame *frame = NULL;
	Dwarf_Op mem[3], *ops = NULL;
	Dwarf_Addr bias = 0, start, end;
	Dwarf_CFI *cfi;
	size_t nops = 1;
	bool signal;
	int ra;

	if (!mod)
		return false;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		free(frame);
		frame = NULL;
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame))
			goto out;
	}
	ra = dwarf_frame_info(frame, &start, &end, &signal);
	if (ra < 0 || dwarf_frame_register(frame, ra, mem, &ops, &nops))
		nops = 1;
out:
	free(frame);
	return !nops && ops == mem; /* "undefined"; a null @ops would be "same value" */
}

/*
 * the unwind ends at @pc, which no CFI covers: in no mapping, in a binary
 * not found, or at a program's entry point (the first instruction of
 * ld.so's _start has nothing above it, and no CFI: not an early stop)
 */
static void stop_without_cfi(struct unw_session *u, uint64_t pc)
{
	Dwfl_Module *mod;
	GElf_Ehdr mem, *eh;
	Dwarf_Addr bias;
	Elf *elf;

	if (!maps__find(u->maps, pc)) {
		stop(u, PRISM_UNWIND_NO_MAP);
		return;
	}
	mod = dwfl_addrmodule(u->dwfl, pc);
	elf = mod ? dwfl_module_getelf(mod, &bias) : NULL;
	eh = elf ? gelf_getehdr(elf, &mem) : NULL;
	/*
	 * the entry point itself, or a caller in its first instructions (ld.so's
	 * _start calls _dl_start at once: a task preempted there returns to
	 * _start + 8, looked up as _start + 7)
	 */
	if (!eh || pc < eh->e_entry + bias || pc - (eh->e_entry + bias) >= 16)
		stop(u, PRISM_UNWIND_NO_BINARY);
	else
		u->zero_pc = true; /* the outermost frame, as a return address 0 says */
}

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unw_session *u = arg;
	Dwarf_Addr pc;
	bool activation;

	/* the first frame is the sampled IP, already reported and checked */
	if (!u->started) {
		u->started = true;
		return DWARF_CB_OK;
	}
	/*
	 * a read failed while libdw computed this frame: the CFI could not be
	 * followed and the frame is libdw's guess from the frame-pointer
	 * register (a step that follows the CFI reads nothing above the
	 * return address, so nothing it reads at or above SP can fail)
	 */
	if (u->read_failed)
		return DWARF_CB_ABORT;
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	module_at(u, pc); /* dwfl_frame_pc() needs the module to tell a signal frame */
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!pc) {
		u->zero_pc = true; /* a return address 0 ends a chain by convention */
		return DWARF_CB_ABORT;
	}
	/* a return address points after the call: look the call itself up */
	if (!activation)
		pc--;
	u->err = u->cb(u->arg, pc);
	u->last_pc = pc;
	if (u->err || ++u->nr >= MAX_FRAMES)
		return DWARF_CB_ABORT;
	if (!unwindable(u, pc)) {
		stop_without_cfi(u, pc);
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* ---- sessions ---- */

static struct unw_state *state_of(struct prism_symbols *sy)
{
	struct unw_state *st = sy->unw;
	size_t i;

	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	for (i = 0; i < NR_FILES; i++)
		st->files[i].fd = -1;
	elf_version(EV_CURRENT);
	st->ehdr = x86_64_ehdr;
	st->elf = elf_memory((char *)&st->ehdr, sizeof(st->ehdr));
	if (!st->elf) {
		free(st);
		return NULL;
	}
	sy->unw = st;
	return st;
}

/* the Dwfl of @maps, as its maps are now; NULL when libdw cannot give one */
static struct unw_session *session_of(struct prism_symbols *sy, struct maps *maps, uint32_t pid)
{
	struct unw_state *st = state_of(sy);
	struct unw_session **slot, *u;
	size_t i;

	if (!st)
		return NULL;
	slot = &st->sessions[0];
	for (i = 0; i < NR_SESSIONS; i++) {
		u = st->sessions[i];
		if (u && u->maps == maps) {
			slot = &st->sessions[i];
			break;
		}
		if (!u || (*slot && u->used < (*slot)->used))
			slot = &st->sessions[i];
	}
	u = *slot;
	if (u && u->maps == maps && u->gen == maps->gen && !u->full) {
		u->used = ++st->tick;
		return u;
	}
	drop(st, slot);
	*slot = u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->maps = maps__get(maps);
	u->gen = maps->gen;
	u->used = ++st->tick;
	u->dwfl = dwfl_begin(&offline_callbacks);
	if (!u->dwfl || !dwfl_attach_state(u->dwfl, st->elf, (pid_t)pid, &thread_callbacks, u)) {
		drop(st, slot);
		return NULL;
	}
	return u;
}

void unwind__release(struct prism_symbols *sy)
{
	struct unw_state *st = sy->unw;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < NR_SESSIONS; i++)
		session_free(st->sessions[i]);
	for (i = 0; i < NR_FILES; i++)
		if (st->files[i].dso && st->files[i].fd >= 0)
			close(st->files[i].fd);
	elf_end(st->elf);
	free(st);
	sy->unw = NULL;
}

/* ---- a sample ---- */

/*
 * whether the failed read was of the stack above the copy: in the map that
 * holds SP, or within the default 8 MiB stack limit when no map does
 */
static bool past_copy(struct unw_session *u)
{
	struct map *map;

	if (!u->read_failed || u->failed_addr < u->sp || u->failed_addr - u->sp < u->stack_size)
		return false;
	map = maps__find(u->maps, u->sp);
	if (map)
		return u->failed_addr < map->end;
	return u->failed_addr - u->sp < STACK_LIMIT;
}

/* the checks perf makes before unwinding, and the damage it does not check for */
static int sample_inputs(struct unw_session *in, const struct prism_sample *s, uint64_t mask,
			 uint64_t *ip)
{
	if (!s->user_regs || s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64 ||
	    !reg(mask, s->user_regs, PR_IP, ip) || !reg(mask, s->user_regs, PR_SP, &in->sp))
		return PRISM_UNWIND_NO_REGS;
	if (in->sy->unw_foreign_arch)
		return PRISM_UNWIND_ARCH;
	if (!s->user_stack || !s->user_stack_dyn_size)
		return PRISM_UNWIND_EMPTY_STACK;
	if (!*ip)
		return PRISM_UNWIND_ZERO_REGS;
	in->stack = s->user_stack;
	in->stack_size = s->user_stack_dyn_size;
	in->copy_full = s->user_stack_dyn_size >= s->user_stack_size;
	if (s->user_stack_dyn_size > s->user_stack_size) {
		in->stack_size = s->user_stack_size;
		return PRISM_UNWIND_DYN_SIZE;
	}
	return -1;
}

static int unwind_from(struct prism_symbols *sy, struct unw_session *in, uint32_t pid, uint32_t tid,
		       uint64_t ip, unw_frame_cb cb, void *arg);

int unwind__user(struct prism_symbols *sy, const struct prism_event *ev, unw_frame_cb cb, void *arg)
{
	const struct prism_sample *s = &ev->sample;
	struct unw_session in = { .sy = sy };
	uint64_t ip;
	int why;

	if (!ev->evsel || (!s->user_regs && !s->user_stack_size))
		return 0; /* no user context was sampled (a kernel thread) */
	sy->unw_stats.nr_unwinds++;
	in.mask = prism_evsel__attr(ev->evsel)->sample_regs_user;
	in.regs = s->user_regs;
	why = sample_inputs(&in, s, in.mask, &ip);
	if (why >= 0)
		stop(&in, why);
	/* like perf: no frame at all without registers, a copy, or an IP */
	if (why >= 0 && why != PRISM_UNWIND_DYN_SIZE)
		return 0;
	return unwind_from(sy, &in, s->pid, s->tid, ip, cb, arg);
}

/* the unwind of unwind__user() and unwind__window() once the inputs are checked */
static int unwind_from(struct prism_symbols *sy, struct unw_session *in, uint32_t pid, uint32_t tid,
		       uint64_t ip, unw_frame_cb cb, void *arg)
{
	struct unw_session *u;
	struct maps *maps;
	int ret;

	ret = cb(arg, ip);
	if (ret)
		return ret;
	maps = symbols__maps(sy, pid);
	if (!in->sp) {
		stop(in, PRISM_UNWIND_ZERO_REGS);
		return 1;
	}
	/*
	 * no mapping recorded for the process (yet): a sample of a child
	 * before its exec, whose space the recorder never described, is not
	 * an unwind that stopped early
	 */
	if (!maps || (!maps->nr && !maps->prev))
		return 1;
	u = session_of(sy, maps, pid);
	if (!u) {
		stop(in, PRISM_UNWIND_FAILED); /* out of memory, or libdw without x86-64 */
		return 1;
	}
	u->sy = sy;
	u->pid = pid;
	u->mask = in->mask;
	u->regs = in->regs;
	u->stack = in->stack;
	u->stack_size = in->stack_size;
	u->sp = in->sp;
	u->copy_full = in->copy_full;
	u->no_stats = in->no_stats;
	u->cb = cb;
	u->arg = arg;
	u->nr = 1;
	u->err = 0;
	u->started = false;
	u->zero_pc = false;
	u->stopped = in->stopped;
	u->last_pc = ip;
	u->read_failed = false;
	if (!unwindable(u, ip)) {
		stop_without_cfi(u, ip);
		return 1;
	}
	ret = dwfl_getthread_frames(u->dwfl, (pid_t)tid, frame_callback, u);
	if (u->err)
		return u->err;
	/*
	 * libdw ends an unwind as at the outermost frame (0) when it cannot
	 * read a return address: the last frame's CFI tells the two apart.  A
	 * failed read above a copy that was cut at its full size is the
	 * copy's end.
	 */
	if (!u->stopped && u->nr < MAX_FRAMES && !u->zero_pc &&
	    (ret < 0 || !outermost(u, u->last_pc)))
		stop(u,
		     u->copy_full && past_copy(u) ? PRISM_UNWIND_TRUNCATED : PRISM_UNWIND_FAILED);
	return u->nr;
}

/* ---- the window at sp of a frame-pointer stack ---- */

/* DWARF x86-64 register numbers */
#define DW_RBP 6
#define DW_RSP 7

/* the register the CFA at @pc is computed from (DW_RBP, DW_RSP), or -1 */
static __wraps int cfa_reg(struct unw_session *u, uint64_t pc)
{
	Dwfl_Module *mod = module_at(u, pc);
	Dwarf_Frame *frame = NULL;
	Dwarf_Addr bias = 0;
	Dwarf_Op *ops = NULL;
	Dwarf_CFI *cfi;
	size_t nops = 0;
	int reg = -1;

	if (!mod)
		return -1;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame)) {
		free(frame);
		frame = NULL;
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame))
			goto out;
	}
	/* a "register + offset" rule comes as DW_OP_bregx (libdw), an expression may use bregN */
	if (dwarf_frame_cfa(frame, &ops, &nops) || nops < 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx)
		reg = (int)ops[0].number;
	else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
		reg = ops[0].atom - DW_OP_breg0;
out:
	free(frame);
	return reg;
}

struct win_ctx {
	uint64_t *pcs;
	size_t max, nr;
};

static int win_frame(void *arg, uint64_t pc)
{
	struct win_ctx *c = arg;

	if (c->nr < c->max)
		c->pcs[c->nr++] = pc;
	return 0;
}

int unwind__window(struct prism_symbols *sy, const struct unwind_window *w, uint64_t *pcs,
		   size_t max, size_t *nr, int *last_cfa_reg)
{
	uint64_t regs[3] = { w->bp, w->sp, w->ip }; /* in the mask's bit order */
	struct unw_session in = { .sy = sy, .no_stats = true }, *u;
	struct win_ctx c = { .pcs = pcs, .max = max };
	struct maps *maps;
	int n;

	*nr = 0;
	*last_cfa_reg = -1;
	if (!w->ip || !max || sy->unw_foreign_arch)
		return 0;
	if (w->sp && w->window && w->size) {
		in.mask = 1ull << PR_BP | 1ull << PR_SP | 1ull << PR_IP;
		in.regs = regs;
		in.sp = w->sp;
		in.stack = w->window;
		in.stack_size = w->size;
		n = unwind_from(sy, &in, w->pid, w->tid, w->ip, win_frame, &c);
		if (n < 0)
			return n;
	} else {
		/* no window: only the leaf's CFI */
		pcs[c.nr++] = w->ip;
	}
	*nr = c.nr;
	maps = symbols__maps(sy, w->pid);
	if (!c.nr || !maps)
		return 0;
	u = session_of(sy, maps, w->pid);
	if (u) {
		u->sy = sy;
		u->pid = w->pid;
		*last_cfa_reg = cfa_reg(u, pcs[c.nr - 1]);
	}
	return 0;
}
