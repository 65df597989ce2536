// SPDX-License-Identifier: MIT
/*
 * prism record --off-cpu: the BPF off-CPU engine (lib/offcpu) driven by the
 * recorder.  Its filter follows the recording's targets and is armed before
 * the workload is released; the long blocks are collected from the BPF ring
 * buffer in the poll loop (so it never fills); every sample (aggregated
 * sums, long blocks, blocks still open) is written at the end with the time
 * of the end, the last one carrying the counters.  The format is described
 * in include/prism/offcpu-data.h.
 */
#include <time.h>
#include <unistd.h>

#include <prism/offcpu-data.h>

#include "record/record-internal.h"

#define OFF_SAMPLE_TYPE                                                                 \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
/* frames kept per stack (the engine collects at most 127 by default) */
#define OFF_MAX_FRAMES 256
/* a sample's size is a u16: what a stack copy can take at most */
#define OFF_MAX_SAMPLE 65528

static uint64_t clock_ns(int id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* "12,34" -> ints; 0 or -EINVAL */
static int parse_ids(const char *s, int **out, size_t *nr)
{
	size_t n = 0, cap = 0;
	int *v = NULL;

	while (s && *s) {
		char *end;
		long x = strtol(s, &end, 10);

		if (end == s || x <= 0 || x > 0x3fffffff || (*end && *end != ',')) {
			free(v);
			return -EINVAL;
		}
		if (prism_ensure_mem((void **)&v, &cap, sizeof(*v), n + 1)) {
			free(v);
			return -ENOMEM;
		}
		v[n++] = (int)x;
		s = *end ? end + 1 : end;
	}
	*out = v;
	*nr = n;
	return 0;
}

int rec_offcpu_open(struct prism_record *r)
{
	struct prism_offcpu_opts oo;
	int *pids = NULL, *tids = NULL;
	size_t nr_pids = 0, nr_tids = 0;
	int err;

	if (!r->o.offcpu)
		return 0;
	oo = *r->o.offcpu;
	if (r->o.cpu_list && r->per_cpu && r->cpus && r->cpus[0] >= 0) {
		oo.cpus = r->cpus;
		oo.nr_cpus = r->nr_cpus;
	}
	if (parse_ids(r->o.pid_list, &pids, &nr_pids) ||
	    parse_ids(r->o.tid_list, &tids, &nr_tids)) {
		rec_error(r, "off-CPU: bad -p/-t list '%s' (expected e.g. 12,34)",
			  r->o.pid_list ? r->o.pid_list : r->o.tid_list);
		err = -EINVAL;
		goto out;
	}
	oo.pids = pids;
	oo.nr_pids = nr_pids;
	oo.tids = tids;
	oo.nr_tids = nr_tids;
	/* -p: the processes and what they fork, as perf's inherit does */
	oo.follow_children = nr_pids > 0;
	if (r->child > 0 && !r->o.system_wide && !r->o.cpu_list) {
		oo.follow_children = true;
		oo.task_filter = true;
	}
	r->off = prism_offcpu__new(&oo);
	if (!r->off) {
		err = -errno;
		rec_error(r, "off-CPU: bad options: %s", strerror(errno));
		goto out;
	}
	err = prism_offcpu__open(r->off);
	if (err) {
		/* the engine's message: error line, then "hint: " lines */
		rec_error(r, "%s", prism_offcpu__error(r->off));
		goto out;
	}
	/* the workload waits for its release in prism's code: not a block of its own */
	if (r->child > 0)
		prism_offcpu__hold_pid(r->off, (int)r->child);
	if (oo.task_filter) {
		err = prism_offcpu__add_pid(r->off, (int)r->child);
		if (err) {
			rec_error(r,
				  "off-CPU: cannot put the workload (pid %d) into the filter: %s",
				  (int)r->child, prism_offcpu__error(r->off));
			goto out;
		}
	}
	/* the records' clock minus CLOCK_MONOTONIC (0 unless -k names another clock) */
	if (r->o.use_clockid && r->o.clockid != CLOCK_MONOTONIC) {
		uint64_t a = clock_ns(CLOCK_MONOTONIC), b = clock_ns(r->o.clockid),
			 c = clock_ns(CLOCK_MONOTONIC);

		r->off_clock_delta = (int64_t)(b - (a + (c - a) / 2));
	}
out:
	free(pids);
	free(tids);
	return err;
}

int rec_offcpu_add_event(struct prism_record *r)
{
	struct perf_event_attr a = { 0 };
	uint64_t id = 0;
	size_t i, j;

	if (!r->off)
		return 0;
	/* an id no kernel fd of this recording has */
	for (i = 0; i < r->nr_ev; i++)
		for (j = 0; j < r->ev[i].nr_ids; j++)
			if (r->ev[i].ids[j] > id)
				id = r->ev[i].ids[j];
	r->off_id = id + 1;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_BPF_OUTPUT;
	a.size = PRISM_WRITER_ATTR_SIZE;
	a.sample_period = 1;
	a.sample_type = OFF_SAMPLE_TYPE;
	if (r->o.offcpu->dwarf_size) {
		/* as perf's --call-graph dwarf: perf script unwinds them too */
		a.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a.sample_regs_user = PRISM_OFFCPU_REGS_MASK;
		a.sample_stack_user = r->o.offcpu->dwarf_size;
		a.exclude_callchain_user = 1;
	}
	a.read_format = r->nr_ev ? r->ev[0].attr.read_format : 0;
	a.sample_id_all = 1;
	a.disabled = 1;
	if (r->o.use_clockid) {
		a.use_clockid = 1;
		a.clockid = r->o.clockid;
	}
	if (prism_writer__add_event(r->w, &a, PRISM_OFFCPU_EVENT_NAME, &r->off_id, 1, (int)r->nr_ev,
				    1))
		return rec_error(r, "out of memory"), -ENOMEM;
	return 0;
}

int rec_offcpu_start(struct prism_record *r)
{
	int err;

	if (!r->off)
		return 0;
	err = prism_offcpu__start(r->off);
	if (err)
		rec_error(r, "%s", prism_offcpu__error(r->off));
	return err;
}

int rec_offcpu_poll_fd(const struct prism_record *r)
{
	int fd;

	if (!r->off)
		return -1;
	fd = prism_offcpu__poll_fd(r->off);
	return fd >= 0 ? fd : -1;
}

static size_t put_stack(uint64_t *p, uint64_t ctx, const struct prism_offcpu_stack *s)
{
	size_t n = 0, i, nr = s->nr < OFF_MAX_FRAMES ? s->nr : OFF_MAX_FRAMES;

	if (!nr)
		return 0;
	p[n++] = ctx;
	for (i = 0; i < nr; i++)
		p[n++] = s->ips[i];
	return n;
}

struct off_sample {
	uint32_t pid, tid, cpu;
	uint64_t time, period;
	const struct prism_offcpu_stack *user, *kernel;
	const struct prism_offcpu_ustate *ustate; /* NULL: none */
	struct prism_offcpu_raw raw;
};

/* DWARF mode: the registers and the stack copy, perf's REGS_USER and STACK_USER parts */
static size_t put_dwarf(uint64_t *p, size_t used, const struct prism_offcpu_ustate *u)
{
	size_t n = 0, room, size;

	if (!u || !u->regs) {
		p[n++] = PERF_SAMPLE_REGS_ABI_NONE;
		p[n++] = 0; /* stack size 0: no data, no dyn_size */
		return n;
	}
	p[n++] = PERF_SAMPLE_REGS_ABI_64;
	memcpy(p + n, u->regs, PRISM_OFFCPU_NR_REGS * 8);
	n += PRISM_OFFCPU_NR_REGS;
	/* the size written is the bytes copied (not the asked size): smaller files */
	size = ((size_t)u->stack_size + 7) & ~(size_t)7;
	room = OFF_MAX_SAMPLE - (used + n + 2) * 8;
	if (size > room)
		size = room;
	p[n++] = size;
	if (size) {
		size_t copy = u->stack_size < size ? u->stack_size : size;

		memcpy(p + n, u->stack, copy);
		memset((uint8_t *)(p + n) + copy, 0, size - copy);
		n += size / 8;
		p[n++] = copy;
	}
	return n;
}

/* build one sample; returns its size in bytes */
static size_t build_sample(struct prism_record *r, uint64_t *buf, const struct off_sample *s,
			   const struct prism_offcpu_stats *st)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE };
	bool dwarf = r->o.offcpu->dwarf_size > 0;
	struct prism_offcpu_raw rw = s->raw;
	size_t n = 1, chain, nr, raw;
	uint64_t ip = 0;

	buf[n++] = r->off_id;
	buf[n++] = 0; /* ip, below */
	buf[n++] = (uint64_t)s->tid << 32 | s->pid;
	buf[n++] = s->time;
	buf[n++] = s->cpu;
	buf[n++] = s->period;
	chain = n++;
	nr = put_stack(buf + n, PERF_CONTEXT_KERNEL, s->kernel);
	if (nr)
		ip = buf[n + 1];
	n += nr;
	/* DWARF mode: the user part is unwound from the copy, as perf's */
	nr = dwarf ? 0 : put_stack(buf + n, PERF_CONTEXT_USER, s->user);
	if (nr && !ip)
		ip = buf[n + 1];
	if (!ip && dwarf && s->ustate)
		ip = s->ustate->ip;
	n += nr;
	buf[chain] = n - chain - 1;
	buf[2] = ip;
	h.misc = s->kernel->nr ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	/* frame-pointer mode: the window at sp, for the leaf's return address */
	if (!dwarf && s->ustate && (s->ustate->window_size || s->ustate->ip)) {
		rw.has_ustate = true;
		rw.ip = s->ustate->ip;
		rw.sp = s->ustate->sp;
		rw.bp = s->ustate->bp;
		rw.window = s->ustate->window;
		rw.window_size = s->ustate->window_size;
	}
	raw = prism_offcpu_raw__encode((uint8_t *)(buf + n) + 4, &rw, st);
	memcpy(buf + n, &(uint32_t){ (uint32_t)raw }, 4);
	n += (4 + raw) / 8;
	if (dwarf)
		n += put_dwarf(buf + n, n, s->ustate);
	h.size = (uint16_t)(n * 8);
	memcpy(buf, &h, sizeof(h));
	return n * 8;
}

static int write_sample(struct prism_record *r, const struct off_sample *s,
			const struct prism_offcpu_stats *st)
{
	static uint64_t buf[16 + 2 * (OFF_MAX_FRAMES + 1) + PRISM_OFFCPU_RAW_MAX / 8 + 1 +
			    PRISM_OFFCPU_NR_REGS + 3 + OFF_MAX_SAMPLE / 8];
	size_t len = build_sample(r, buf, s, st), i;
	uint16_t misc = PERF_RECORD_MISC_USER;

	for (i = 0; i < s->user->nr; i++)
		rec_track_sample(r, s->pid, s->user->ips[i], misc);
	if (s->ustate && s->ustate->ip)
		rec_track_sample(r, s->pid, s->ustate->ip, misc);
	if (s->kernel->nr)
		rec_track_sample(r, s->pid, s->kernel->ips[0], PERF_RECORD_MISC_KERNEL);
	if (!r->first_time || s->time < r->first_time)
		r->first_time = s->time;
	if (s->time > r->last_time)
		r->last_time = s->time;
	r->st.offcpu_samples++;
	r->st.offcpu_ns += s->period;
	r->st.offcpu_blocks += s->raw.count;
	return prism_writer__write(r->w, buf, len);
}

static uint64_t conv(const struct prism_record *r, uint64_t mono)
{
	return mono + (uint64_t)r->off_clock_delta;
}

static bool skip_task(const struct prism_record *r, uint32_t pid)
{
	/* prism's own waits, like its samples of other events (unless --include-self) */
	return r->self_pid && pid == r->self_pid;
}

static void block_sample(const struct prism_record *r, const struct prism_offcpu_block *b,
			 uint64_t end, struct off_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = (uint32_t)b->pid;
	s->tid = (uint32_t)b->tid;
	s->cpu = (uint32_t)(b->in_progress ? b->cpu_out : b->cpu_in);
	s->time = end;
	s->raw.start = conv(r, b->start_ns);
	s->period = b->duration_ns;
	s->user = &b->user;
	s->kernel = &b->kernel;
	s->ustate = &b->ustate;
	s->raw.kind = b->in_progress ? PRISM_OFFCPU_KIND_BLOCK_OPEN : PRISM_OFFCPU_KIND_BLOCK;
	s->raw.state = b->state;
	s->raw.count = 1;
	s->raw.ustack_err = b->user.err;
	s->raw.kstack_err = b->kernel.err;
}

int rec_offcpu_drain(struct prism_record *r)
{
	int n;

	if (!r->off)
		return 0;
	/* keep the BPF ring buffer drained (blocks are made public at stop) */
	n = prism_offcpu__poll(r->off, 0);
	if (n < 0)
		return rec_error(r, "off-CPU: %s", prism_offcpu__error(r->off)), n;
	return 0;
}

int rec_offcpu_finish(struct prism_record *r)
{
	size_t i, nr_blocks, nr_entries;
	struct off_sample s, last;
	bool have_last = false;
	uint64_t end;
	int err;

	if (!r->off)
		return 0;
	err = prism_offcpu__stop(r->off);
	if (err)
		return rec_error(r, "off-CPU: %s", prism_offcpu__error(r->off)), err;
	err = prism_offcpu__read_stats(r->off, &r->st.offcpu_stats);
	if (err)
		return rec_error(r, "off-CPU: cannot read the counters: %s", strerror(-err)), err;
	r->st.offcpu_stats_valid = true;
	end = conv(r, r->st.offcpu_stats.stop_ns);
	/* the samples are written one behind: the last one carries the counters */
	nr_blocks = prism_offcpu__nr_blocks(r->off);
	nr_entries = prism_offcpu__nr_entries(r->off);
	for (i = 0; i < nr_blocks + nr_entries; i++) {
		if (i < nr_blocks) {
			const struct prism_offcpu_block *b = prism_offcpu__block(r->off, i);

			if (!b || skip_task(r, (uint32_t)b->pid))
				continue;
			block_sample(r, b, end, &s);
		} else {
			const struct prism_offcpu_entry *e =
				prism_offcpu__entry(r->off, i - nr_blocks);

			if (!e || skip_task(r, (uint32_t)e->pid))
				continue;
			memset(&s, 0, sizeof(s));
			s.pid = (uint32_t)e->pid;
			s.tid = (uint32_t)e->tid;
			s.time = end;
			s.period = e->total_ns;
			s.user = &e->user;
			s.kernel = &e->kernel;
			s.ustate = &e->ustate;
			s.raw.kind = PRISM_OFFCPU_KIND_ENTRY;
			s.raw.state = e->state;
			s.raw.count = e->count;
			s.raw.ustack_err = e->user.err;
			s.raw.kstack_err = e->kernel.err;
		}
		if (have_last) {
			err = write_sample(r, &last, NULL);
			if (err)
				return err;
		}
		last = s;
		have_last = true;
	}
	if (!have_last) {
		static const struct prism_offcpu_stack none = { .err = -ENOENT };

		memset(&last, 0, sizeof(last));
		last.time = end;
		last.user = last.kernel = &none;
		last.raw.kind = PRISM_OFFCPU_KIND_STATS;
		last.raw.ustack_err = last.raw.kstack_err = -ENOENT;
	}
	return write_sample(r, &last, &r->st.offcpu_stats);
}

void rec_offcpu_free(struct prism_record *r)
{
	prism_offcpu__free(r->off);
	r->off = NULL;
}
