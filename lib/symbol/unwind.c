// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of user stacks (perf record --call-graph dwarf): the
 * sample's user registers and its copy of the top of the user stack are
 * fed to libdw's unwinder (dwfl_getthread_frames) through custom thread
 * callbacks.  Memory outside the stack copy is read from the mapped files.
 * x86-64 only (perf's register numbering -> DWARF's).
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <unistd.h>

#include <prism/evsel.h>

#include "symbol-internal.h"

#define MAX_FRAMES 127

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

struct unw {
	struct prism_symbols *sy;
	struct maps *maps;
	uint32_t pid, tid;
	Dwfl *dwfl;
	uint64_t mask;
	const uint64_t *regs;
	const uint8_t *stack;
	uint64_t stack_size, sp;
	unw_frame_cb cb;
	void *arg;
	int nr;
};

static bool reg(const struct unw *u, int idx, uint64_t *out)
{
	if (!(u->mask & (1ull << idx)))
		return false;
	*out = u->regs[__builtin_popcountll(u->mask & ((1ull << idx) - 1))];
	return true;
}

/* report the DSO mapped at @addr to libdw, once */
static void report_module(struct unw *u, uint64_t addr)
{
	struct map *map = maps__find(u->maps, addr);
	struct prism_dso *dso;
	uint64_t bias, vaddr;
	size_t i;

	if (!map || dwfl_addrmodule(u->dwfl, addr))
		return;
	dso = map->dso;
	if (dso->kind != DSO_USER)
		return;
	if (!dso->loaded)
		dso__load(u->sy, dso, u->pid);
	if (!dso->runtime)
		return;
	/* the load bias: where the segment that holds pgoff was linked against where it is */
	vaddr = map->pgoff;
	for (i = 0; i < dso->nr_segs; i++) {
		const struct segment *s = &dso->segs[i];

		if (map->pgoff >= s->offset && map->pgoff < s->offset + s->filesz) {
			vaddr = map->pgoff - s->offset + s->vaddr;
			break;
		}
	}
	bias = dso->is_exec ? 0 : map->start - vaddr;
	dwfl_report_elf(u->dwfl, dso->name, dso->runtime, -1, bias, false);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unw *u = arg;

	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->tid;
}

/* the stack copy first, then the bytes of the mapped file */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unw *u = arg;
	struct map *map;
	ssize_t n;
	int fd;

	if (addr >= u->sp && addr + 8 <= u->sp + u->stack_size) {
		memcpy(result, u->stack + (addr - u->sp), 8);
		return true;
	}
	map = maps__find(u->maps, addr);
	if (!map || !map->dso->runtime || addr + 8 > map->end)
		return false;
	fd = open(map->dso->runtime, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = pread(fd, result, 8, (off_t)(addr - map->start + map->pgoff));
	close(fd);
	return n == 8;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	static const int order[17] = { PR_AX,	  PR_DX,     PR_CX,	PR_BX,	   PR_SI,
				       PR_DI,	  PR_BP,     PR_SP,	PR_R8,	   PR_R8 + 1,
				       PR_R8 + 2, PR_R8 + 3, PR_R8 + 4, PR_R8 + 5, PR_R8 + 6,
				       PR_R8 + 7, PR_IP };
	struct unw *u = arg;
	Dwarf_Word regs[17];
	int i;

	for (i = 0; i < 17; i++) {
		uint64_t v = 0;

		reg(u, order[i], &v);
		regs[i] = v;
	}
	return dwfl_thread_state_registers(thread, 0, 17, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unw *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a return address points after the call: look the call itself up */
	if (!activation)
		pc--;
	if (u->cb(u->arg, pc) || ++u->nr >= MAX_FRAMES)
		return DWARF_CB_ABORT;
	return DWARF_CB_OK;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

int unwind__user(struct prism_symbols *sy, const struct prism_event *ev, unw_frame_cb cb, void *arg)
{
	const struct prism_sample *s = &ev->sample;
	struct unw u = { .sy = sy, .cb = cb, .arg = arg };
	uint64_t ip;

	if (!ev->evsel || !s->user_regs || !s->user_stack || !s->user_stack_size ||
	    s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64)
		return 0;
	u.mask = prism_evsel__attr(ev->evsel)->sample_regs_user;
	u.regs = s->user_regs;
	if (!reg(&u, PR_SP, &u.sp) || !reg(&u, PR_IP, &ip))
		return 0;
	u.maps = symbols__maps(sy, s->pid);
	if (!u.maps)
		return 0;
	u.pid = s->pid;
	u.tid = s->tid;
	u.stack = s->user_stack;
	u.stack_size = s->user_stack_dyn_size && s->user_stack_dyn_size < s->user_stack_size ?
			       s->user_stack_dyn_size :
			       s->user_stack_size;
	u.dwfl = dwfl_begin(&offline_callbacks);
	if (!u.dwfl)
		return -ENOMEM;
	report_module(&u, ip);
	if (dwfl_attach_state(u.dwfl, NULL, (pid_t)u.tid, &thread_callbacks, &u))
		dwfl_getthread_frames(u.dwfl, (pid_t)u.tid, frame_callback, &u);
	dwfl_end(u.dwfl);
	if (!u.nr) /* not even the first frame: at least the address itself */
		return cb(arg, ip) ? -ENOMEM : 1;
	return u.nr;
}
