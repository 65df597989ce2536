// SPDX-License-Identifier: MIT
/*
 * intel_pt in a recording, as perf record sets it up: a dummy:u tracking
 * event after the others (mmap, comm, task and context switches: SWITCH
 * records per thread, SWITCH_CPU_WIDE per CPU), the AUX area mapped above
 * each ring buffer (owned by the intel_pt fd of that CPU), read into
 * AUXTRACE records by aux-ring.c on every drain (full mode) or on
 * prism_record__snapshot() (snapshot mode: the event disabled while its
 * area is copied), and the AUXTRACE_INFO record perf's decoder reads (PMU
 * type, the time conversion of the user page, the config bits of the
 * format files, caps, the address filter) with TIME_CONV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <prism/pt.h>

#include "record/pmu-internal.h"
#include "record/record-internal.h"
#include "targets.h"

#define PT_PMU "intel_pt"

static size_t aux_bytes(const struct prism_record *r);
static uint64_t term_bits(const char *term);

/* perf's dummy:u for intel_pt: user space, every record */
static void dummy_u(struct perf_event_attr *a)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_period = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->exclude_guest = 1;
}

/*
 * whether a dummy:u of every task may be opened on a CPU (root, or
 * perf_event_paranoid) with context switches, or (@text_poke) with
 * TEXT_POKE records (kernels 5.9 and later)
 */
static bool can_open_cpu_wide(bool text_poke)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	dummy_u(&a);
	a.context_switch = !text_poke;
	a.text_poke = text_poke;
	a.disabled = 1;
	fd = (int)syscall(__NR_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * How the decoder learns which thread runs on a CPU, as perf 6.1 chooses:
 * only with timestamps in the trace (full trace or snapshot, the tsc term);
 * a per-thread recording (a workload, -p, -t) adds a dummy:u of every task
 * on each CPU with context switches (SWITCH_CPU_WIDE records, have_sched_switch
 * 3) when it may, else the tracking event records the switches of the
 * recorded threads (SWITCH, 2); a CPU-wide one (-a, -C) has the tracking
 * event record them (SWITCH_CPU_WIDE, 3).
 */
static int add_switch_tracking(struct prism_record *r)
{
	struct prism_record_event ev = { .name = "dummy:u", .leader = -1, .user_period = true };
	bool cpu_wide = r->o.system_wide || r->o.cpu_list;
	int err;

	r->sched_switch = 0;
	if (!(r->ev[r->aux_ev].attr.config & term_bits("tsc")))
		return 0; /* no timing: nothing to place the switches with */
	if (cpu_wide || !can_open_cpu_wide(false)) {
		r->sched_switch = cpu_wide ? 3 : 2;
		return 0;
	}
	dummy_u(&ev.attr);
	err = prism_record__add_event(r, &ev);
	if (err)
		return rec_error(r, "out of memory"), err;
	r->switch_ev = (int)r->nr_ev - 1;
	r->ev[r->switch_ev].cpu_wide = true;
	r->sched_switch = 3;
	return 0;
}

/*
 * perf 6.1 with a trace of the kernel that has timestamps: a dummy:u of
 * every task on each CPU with text_poke and ksymbol, last, on from the
 * open.  Its TEXT_POKE records are the kernel code changed while tracing
 * (static keys, ftrace, BPF programs), which the decoder lays over its copy
 * of the code from their time on.
 */
static int add_text_poke(struct prism_record *r)
{
	struct prism_record_event ev = { .name = "dummy:u", .leader = -1, .user_period = true };
	const struct perf_event_attr *pt = &r->ev[r->aux_ev].attr;
	int err;

	if (pt->exclude_kernel || !(pt->config & term_bits("tsc")) || !can_open_cpu_wide(true))
		return 0;
	dummy_u(&ev.attr);
	ev.attr.text_poke = 1;
	ev.attr.ksymbol = 1;
	err = prism_record__add_event(r, &ev);
	if (err)
		return rec_error(r, "out of memory"), err;
	r->poke_ev = (int)r->nr_ev - 1;
	r->ev[r->poke_ev].cpu_wide = true;
	r->ev[r->poke_ev].all_cpus = true;
	return 0;
}

static const char *const switch_how[] = {
	"none (no tsc in the trace)",
	"",
	"SWITCH records of the recorded threads, from the tracking event",
	"SWITCH_CPU_WIDE records",
};

/* as perf: no more filters than the PMU's nr_addr_filters */
static int filter_count(struct prism_record *r, const struct rec_event *e)
{
	const char *p;
	char buf[32];
	unsigned long max = 0, n = 1;

	for (p = e->filter; *p; p++)
		n += *p == ',';
	if (!pmu_read_file(PT_PMU, NULL, "nr_addr_filters", buf, sizeof(buf)))
		max = strtoul(buf, NULL, 10);
	if (!max)
		return rec_error(r,
				 "--filter of %s: this CPU's intel_pt has no address filters "
				 "(%s/" PT_PMU "/nr_addr_filters)",
				 e->name, pmu_sysfs_root()),
		       -EOPNOTSUPP;
	if (n > max)
		return rec_error(r,
				 "--filter of %s: %lu address filters, this CPU's intel_pt "
				 "takes at most %lu",
				 e->name, n, max),
		       -EINVAL;
	return 0;
}

int rec_aux_prepare(struct prism_record *r)
{
	struct prism_record_event ev = { .name = "dummy:u", .leader = -1, .user_period = true };
	size_t i;
	int err;

	r->aux_ev = -1;
	for (i = 0; i < r->nr_ev; i++) {
		if (!r->ev[i].aux)
			continue;
		if (r->aux_ev >= 0)
			return rec_error(
				       r,
				       "-e %s: one intel_pt event per recording (%s is the first)",
				       r->ev[i].name, r->ev[r->aux_ev].name),
			       -EINVAL;
		r->aux_ev = (int)i;
	}
	if (r->aux_ev < 0)
		return 0;
	if (r->ev[r->aux_ev].filter) {
		struct rec_event *e = &r->ev[r->aux_ev];
		char why[512], *f;

		err = pt_filter_resolve(e->filter, &f, why, sizeof(why));
		if (err == -ENOMEM)
			return rec_error(r, "out of memory"), err;
		if (err) {
			rec_error(r, "--filter '%s' of %s: %s", e->filter, e->name, why);
			rec_hint(r, "filter|start|stop|tracestop ADDR|FUNCTION [/ SIZE] [@ FILE], "
				    "comma-separated, e.g. 'filter main @ /usr/bin/prog'");
			return err;
		}
		pr_debug("record: address filter of %s: %s", e->name, f);
		free(e->filter);
		e->filter = f;
		err = filter_count(r, e);
		if (err)
			return err;
	}
	if (r->o.aux_snapshot && r->o.snapshot_size > aux_bytes(r))
		return rec_error(r, "--snapshot size %llu is larger than the %zu-byte AUX area",
				 (unsigned long long)r->o.snapshot_size, aux_bytes(r)),
		       -EINVAL;
	if (r->o.compress_level)
		pr_debug("record: AUXTRACE records are written uncompressed (as perf does)");
	err = add_switch_tracking(r);
	if (err)
		return err;
	pr_debug("record: intel_pt have_sched_switch %d: %s%s", r->sched_switch,
		 switch_how[r->sched_switch], r->switch_ev >= 0 ? " of a cpu-wide dummy:u" : "");
	/* perf's tracking event for intel_pt: dummy:u, every record, last */
	dummy_u(&ev.attr);
	err = prism_record__add_event(r, &ev);
	if (err)
		return rec_error(r, "out of memory"), err;
	r->track = (int)r->nr_ev - 1;
	return add_text_poke(r);
}

/*
 * perf 6.1: tasks move between CPUs, so with -C the side-band of every CPU
 * is recorded (the tracking event on all CPUs) unless the trace is of the
 * kernel only; the text_poke event is on every CPU too (the kernel's code
 * changes for all); the other events stay on the CPUs of -C.
 */
int rec_aux_targets(struct prism_record *r)
{
	size_t i, j, n;
	int *all, err;

	bool user = r->aux_ev >= 0 && !r->ev[r->aux_ev].attr.exclude_user;

	if (!r->o.cpu_list || (!user && r->poke_ev < 0))
		return 0;
	err = prism_target_cpus(NULL, &all, &n, r->err, sizeof(r->err));
	if (err)
		return err;
	r->cpu_sel = calloc(n, sizeof(*r->cpu_sel));
	if (!r->cpu_sel) {
		free(all);
		return rec_error(r, "out of memory"), -ENOMEM;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < r->nr_cpus; j++)
			r->cpu_sel[i] |= all[i] == r->cpus[j];
	free(r->cpus);
	r->cpus = all;
	r->nr_cpus = n;
	r->ev[r->track].all_cpus = user;
	return 0;
}

void rec_aux_configure(struct prism_record *r)
{
	struct perf_event_attr *t;

	if (r->aux_ev < 0)
		return;
	/* perf's: a wake-up each quarter of the AUX area in full-trace mode */
	if (!r->o.aux_snapshot)
		r->ev[r->aux_ev].attr.aux_watermark = (uint32_t)(aux_bytes(r) / 4);
	t = &r->ev[r->track].attr;
	if (r->per_cpu) {
		size_t i;

		/*
		 * -a, -C: perf's tracking event is on from the open (the mmaps
		 * and switches before the others start), and every event has
		 * inherit set (perf's default; a CPU-wide event ignores it)
		 */
		t->disabled = 0;
		t->enable_on_exec = 0;
		for (i = 0; i < r->nr_ev; i++)
			r->ev[i].attr.inherit = 1;
	}
	if (r->poke_ev >= 0) {
		struct perf_event_attr *p = &r->ev[r->poke_ev].attr;

		/* perf's: on from the open, a CPU in its records only with -a, -C */
		p->disabled = 0;
		p->enable_on_exec = 0;
		if (!r->per_cpu && !r->o.sample_cpu)
			p->sample_type &= ~(uint64_t)PERF_SAMPLE_CPU;
	}
	if (r->switch_ev >= 0) {
		struct perf_event_attr *s = &r->ev[r->switch_ev].attr;

		/* on from the open, as perf's: the switches before the exec too */
		s->context_switch = 1;
		s->disabled = 0;
		s->enable_on_exec = 0;
		s->sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
		t->context_switch = 0; /* the cpu-wide event has them all */
	} else if (r->sched_switch) {
		/* perf's: the tracking event on from the open, with the switches */
		t->context_switch = 1;
		t->disabled = 0;
		t->enable_on_exec = 0;
	}
}

int rec_aux_fd(const struct prism_record *r, size_t c)
{
	if (r->aux_ev < 0 || !r->fds)
		return -1;
	return r->fds[((size_t)r->aux_ev * r->nr_cpus + c) * r->nr_threads];
}

void rec_aux_open_error(struct prism_record *r, const struct rec_event *ev, int err)
{
	const char *root = pmu_sysfs_root();

	rec_error(r, "cannot open %s (PMU type %u from %s/" PT_PMU "/type, config %#llx): %s",
		  ev->name, ev->attr.type, root, (unsigned long long)ev->attr.config,
		  strerror(err));
	if (strcmp(root, "/sys/bus/event_source/devices"))
		rec_hint(r, "the PMUs come from another sysfs tree (PRISM_SYSFS): this kernel has "
			    "no such intel_pt PMU");
	else if (err == EINVAL || err == EOPNOTSUPP)
		rec_hint(r, "check the terms against the PMU's format/ and caps/ files: cyc, "
			    "mtc_period, psb_period and cyc_thresh take the values caps/ lists");
	else if (err == EACCES || err == EPERM)
		rec_hint(r, "run as root, or lower /proc/sys/kernel/perf_event_paranoid");
}

static size_t aux_bytes(const struct prism_record *r)
{
	if (r->o.aux_bytes)
		return r->o.aux_bytes;
	/* perf's defaults: 4 MiB as root, 128 KiB otherwise (perf_event_mlock_kb) */
	return geteuid() == 0 ? 4u << 20 : 128u << 10;
}

int rec_aux_mmap(struct prism_record *r, struct rec_ring *rg, size_t c)
{
	struct perf_event_mmap_page *pc = rg->base;
	size_t len = aux_bytes(r);
	int prot = PROT_READ | (r->o.aux_snapshot ? 0 : PROT_WRITE);
	void *p;
	int err;

	if (len % r->page || (len & (len - 1)))
		return rec_error(r, "the AUX area of %zu bytes is not a power of two of pages",
				 len),
		       -EINVAL;
	pc->aux_offset = rg->size + r->page;
	pc->aux_size = len;
	p = mmap(NULL, len, prot, MAP_SHARED, rg->fd, (off_t)pc->aux_offset);
	if (p == MAP_FAILED) {
		err = errno;
		rec_error(r, "cannot map the %zu KiB AUX area of %s on CPU %d: %s", len >> 10,
			  r->ev[r->aux_ev].name, r->cpus[c], strerror(err));
		if (err == EPERM || err == ENOMEM)
			rec_hint(r, "use a smaller AUX area (-m ,PAGES), or raise "
				    "/proc/sys/kernel/perf_event_mlock_kb (or run as root)");
		return -err;
	}
	rg->aux_map = p;
	rg->aux_len = len;
	err = aux_ring__init(&rg->aux, pc, p, len, r->o.aux_snapshot);
	if (err)
		return err;
	/*
	 * perf's AUXTRACE idx/tid/cpu: the buffer's index, the workload's
	 * thread (-1 system-wide), the buffer's CPU (-1 per thread)
	 */
	rg->aux.idx = (uint32_t)c;
	rg->aux.tid = (uint32_t)r->threads[0];
	rg->aux.cpu = (uint32_t)r->cpus[c];
	return 0;
}

void rec_aux_unmap(struct rec_ring *rg)
{
	if (rg->aux_map)
		munmap(rg->aux_map, rg->aux_len);
	rg->aux_map = NULL;
}

int rec_aux_drain(struct prism_record *r, struct rec_ring *rg, bool *wrote)
{
	uint64_t before = rg->aux.prev;
	int err;

	if (!rg->aux_map || r->o.aux_snapshot)
		return 0;
	err = aux_ring__read(&rg->aux, r->w, 0, aux_reference());
	if (rg->aux.prev != before)
		*wrote = true;
	return err;
}

static void aux_enable(struct prism_record *r, bool on)
{
	size_t i, per = r->nr_cpus * r->nr_threads;

	for (i = 0; i < per; i++) {
		int fd = r->fds[(size_t)r->aux_ev * per + i];

		if (fd >= 0)
			ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
	}
}

int rec_aux_snapshot(struct prism_record *r)
{
	size_t i;
	int err = 0;

	if (r->aux_ev < 0 || !r->o.aux_snapshot)
		return 0;
	/* as perf: the trace stopped while its area is copied */
	aux_enable(r, false);
	for (i = 0; !err && i < r->nr_rings; i++)
		if (r->rings[i].aux_map)
			err = aux_ring__read(&r->rings[i].aux, r->w, r->o.snapshot_size,
					     aux_reference());
	if (!err)
		err = prism_writer__finished_round(r->w);
	if (!r->stop)
		aux_enable(r, true);
	return err;
}

/* the attr config bits of a format term of intel_pt (0 when the PMU has no such term) */
static uint64_t term_bits(const char *term)
{
	struct perf_event_attr a;
	struct pmu_format f;

	if (pmu_read_format(PT_PMU, term, &f) || f.field != 0)
		return 0;
	memset(&a, 0, sizeof(a));
	pmu_format__apply(&f, ~0ull >> (64 - pmu_format__bits(&f)), &a);
	return a.config;
}

/* CPUID leaf 0x15: TSC / core crystal clock ratio (perf's TSC_CTC_N / _D), else 0 */
static void tsc_ctc(uint64_t *n, uint64_t *d)
{
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

#if defined(__x86_64__) || defined(__i386__)
	if (__get_cpuid_max(0, NULL) >= 0x15)
		__cpuid_count(0x15, 0, eax, ebx, ecx, edx);
#endif
	(void)ecx;
	(void)edx;
	*n = ebx;
	*d = eax;
}

int rec_aux_info(struct prism_record *r)
{
	const struct perf_event_mmap_page *pc;
	struct prism_pt_info info = { .type = PRISM_AUXTRACE_INTEL_PT };
	struct perf_event_header h;
	uint64_t rec[(16 + 8 * 17 + 4096) / 8];
	uint64_t tc[7] = { 0 }; /* 56 bytes */
	char buf[32];
	size_t size;
	int err;

	if (r->aux_ev < 0)
		return 0;
	if (!r->nr_rings)
		return rec_error(r, "no buffer for %s", r->ev[r->aux_ev].name), -EINVAL;
	pc = r->rings[0].base;
	info.pmu_type = r->ev[r->aux_ev].attr.type;
	info.time_shift = pc->time_shift;
	info.time_mult = pc->time_mult;
	info.time_zero = pc->time_zero;
	info.cap_user_time_zero = pc->cap_user_time_zero;
	info.tsc_bit = term_bits("tsc");
	info.noretcomp_bit = term_bits("noretcomp");
	info.have_sched_switch = (uint64_t)r->sched_switch;
	info.snapshot_mode = r->o.aux_snapshot;
	info.per_cpu_mmaps = r->cpus[0] >= 0; /* a workload too: a buffer per CPU */
	info.mtc_bit = term_bits("mtc");
	info.mtc_freq_bits = term_bits("mtc_period");
	tsc_ctc(&info.tsc_ctc_n, &info.tsc_ctc_d);
	info.cyc_bit = term_bits("cyc");
	if (!pmu_read_file(PT_PMU, NULL, "max_nonturbo_ratio", buf, sizeof(buf)))
		info.max_nonturbo_ratio = strtoull(buf, NULL, 10);
	info.filter = r->ev[r->aux_ev].filter;
	size = prism_pt_info__write(&info, rec, sizeof(rec));
	if (!size)
		return rec_error(r, "the address filter '%s' is too long", info.filter), -E2BIG;
	err = prism_writer__write(r->w, rec, size);
	if (err)
		return err;
	/* TIME_CONV: shift, mult, zero, cycles, mask, cap_user_time_zero, _short */
	h = (struct perf_event_header){ .type = PRISM_RECORD_TIME_CONV, .size = sizeof(tc) };
	memcpy(tc, &h, sizeof(h));
	tc[1] = pc->time_shift;
	tc[2] = pc->time_mult;
	tc[3] = pc->time_zero;
	tc[4] = pc->time_cycles;
	tc[5] = pc->time_mask;
	((uint8_t *)&tc[6])[0] = pc->cap_user_time_zero;
	((uint8_t *)&tc[6])[1] = pc->cap_user_time_short;
	return prism_writer__write(r->w, tc, sizeof(tc));
}
