// SPDX-License-Identifier: MIT
/*
 * Intel PT decoding with libipt's instruction decoder: one decoder per
 * queue (per CPU, or per thread for --per-thread recordings), the code
 * read from the files the MMAP/MMAP2 records name (lib/symbol finds them as
 * for symbols), TSC -> perf time through AUXTRACE_INFO's time fields, the
 * running thread of a CPU from the switch side-band.  The queues are
 * decoded together, each a step at a time, so that their samples come out
 * in time order; missing code is an error sample, not an end.
 *
 * Memory: a queue's trace bytes go to an unlinked temporary file as the
 * AUXTRACE records arrive ($TMPDIR, else /var/tmp, else /tmp; in memory
 * only when none can be made), which libipt reads through a mapping; the
 * pages before where the queue's decoders stand are dropped as decoding
 * goes on, so that what is resident is bounded by the queues, not by the
 * trace (libipt sees the same contiguous bytes: the output is the same).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <intel-pt.h>

#include <prism/error.h>
#include <prism/pt.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "internal.h"
#include "spill.h"

#define FIFO 8
/* the mapped trace is released in steps of this (a multiple of the page size) */
#define RELEASE (1u << 20)

/* perf's error codes and words (intel-pt-decoder.h) */
enum {
	ERR_BADPKT = 3,
	ERR_NOINSN = 5,
	ERR_MISMAT = 6,
	ERR_OVR = 7,
	ERR_LOST = 8,
	ERR_UNK = 9,
	ERR_NELOOP = 10,
};
/* instructions decoded without a byte of trace before it is a loop without end (perf's) */
#define MAX_LOOPS 100000
static const char *const err_msg[] = {
	[ERR_BADPKT] = "Bad packet",
	[ERR_NOINSN] = "Failed to get instruction",
	[ERR_MISMAT] = "Trace doesn't match instruction",
	[ERR_OVR] = "Overflow packet",
	[ERR_LOST] = "Lost trace data",
	[ERR_UNK] = "Unknown error!",
	[ERR_NELOOP] = "Never-ending loop (refer perf config intel-pt.max-loops)",
};

struct switch_ev {
	uint64_t time;
	int32_t pid, tid;
};

struct file_map {
	char *path;
	uint8_t *p;
	size_t len;
};

struct queue {
	struct prism_pt_decoder *d;
	uint32_t key; /* cpu, or tid */
	uint8_t *buf; /* in memory: no temporary file could be made */
	size_t len, cap;
	int fd; /* the temporary file of the trace bytes, or -1 */
	uint8_t *map; /* its mapping while decoding */
	size_t dropped; /* bytes of the mapping before this are released */
	struct pt_insn_decoder *dec;
	struct pt_image *img;
	int status;
	bool synced, done;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t time;
	size_t next_switch; /* index into the CPU's switches */
	/* a branch whose target is the next instruction, if taken */
	bool pend;
	uint64_t pend_from, pend_next;
	uint32_t pend_flags;
	uint64_t insn_count;
	/*
	 * periods in ticks, as perf counts them: the TSC of the last timing
	 * packet plus the instructions since; a sample where that crosses a
	 * multiple of the period (a power of 2), checked once per run of
	 * instructions up to a branch (perf's walk)
	 */
	uint64_t tsc, tsc_insns, last_masked, walk_max, walk_n;
	bool continuous, in_walk;
	/*
	 * perf takes a TSC packet as soon as the TNT bits before it are used,
	 * libipt when the next branch needs a packet: the packets read so far
	 * (a packet decoder on the same trace) and the TNT bits left say when
	 */
	struct pt_packet_decoder *pkt;
	uint64_t pkt_off, tnt_left, tsc_next, tsc_after;
	bool has_tsc_next, synced_time, wait_ovf;
	uint64_t stall_off, stall_n; /* where the trace stood, instructions since */
	struct prism_pt_item *last_insn; /* the last instruction's sample, still in the fifo */
	/* the code mapping last read */
	struct prism_code_map cm;
	const struct file_map *cf;
	int32_t cm_pid;
	struct prism_pt_item fifo[FIFO];
	size_t head, n;
};

struct prism_pt_decoder {
	struct prism_pt_decoder_opts o;
	struct prism_time_conv tc;
	bool per_cpu, has_tsc;
	uint64_t period_ticks; /* periods in ticks or ns: a power of 2 */
	struct queue *qs;
	size_t nr_qs;
	struct switch_ev **sw; /* per CPU, in time order */
	size_t *nr_sw, nr_cpus;
	struct prism_pt_item *errs; /* AUX records with lost data */
	size_t nr_errs, next_err;
	struct file_map *files;
	size_t nr_files;
	struct prism_pt_decoder_stats st;
};

static const struct file_map *file_get(struct prism_pt_decoder *d, const char *path)
{
	struct file_map *f;
	struct stat st;
	void *p;
	int fd;
	size_t i;

	for (i = 0; i < d->nr_files; i++)
		if (!strcmp(d->files[i].path, path))
			return d->files[i].p ? &d->files[i] : NULL;
	f = realloc(d->files, (d->nr_files + 1) * sizeof(*f));
	if (!f)
		return NULL;
	d->files = f;
	f = &d->files[d->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	d->nr_files++;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			f->p = p;
			f->len = (size_t)st.st_size;
		}
	}
	close(fd);
	return f->p ? f : NULL;
}

/* libipt's memory callback: the bytes of the running process's code */
static int read_code(uint8_t *buf, size_t size, const struct pt_asid *asid, uint64_t ip, void *ctx)
{
	struct queue *q = ctx;
	uint64_t off, n;

	(void)asid;
	if (q->pid < 0)
		return -pte_nomap;
	if (!q->cf || q->cm_pid != q->pid || ip < q->cm.start || ip >= q->cm.end) {
		q->cf = NULL;
		if (prism_symbols__code_map(q->d->o.sy, (uint32_t)q->pid, ip, &q->cm))
			return -pte_nomap;
		q->cf = file_get(q->d, q->cm.path);
		q->cm_pid = q->pid;
		if (!q->cf)
			return -pte_nomap;
	}
	off = ip - q->cm.start + q->cm.pgoff;
	if (off >= q->cf->len)
		return -pte_nomap;
	n = q->cf->len - off;
	if (n > q->cm.end - ip)
		n = q->cm.end - ip;
	if (n > size)
		n = size;
	memcpy(buf, q->cf->p + off, (size_t)n);
	return (int)n;
}

/* ns -> TSC ticks by the time conversion's multiplier and shift (perf's) */
static uint64_t ns_to_ticks(const struct prism_time_conv *tc, uint64_t ns)
{
	uint64_t q, r;

	if (!tc->time_mult)
		return ns;
	q = ns / tc->time_mult;
	r = ns % tc->time_mult;
	return (q << tc->time_shift) + (r << tc->time_shift) / tc->time_mult;
}

struct prism_pt_decoder *prism_pt_decoder__new(const struct prism_pt_decoder_opts *o)
{
	struct prism_pt_decoder *d;

	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->o = *o;
	prism_pt_info__time_conv(&o->info, &d->tc);
	if (o->itrace.instructions && o->itrace.period_type != PRISM_ITRACE_INSNS) {
		uint64_t t = o->itrace.period;

		if (o->itrace.period_type == PRISM_ITRACE_NS)
			t = ns_to_ticks(&d->tc, t);
		/* perf: the largest power of 2 not above it, at least 1 */
		d->period_ticks = 1;
		while (t >= 2 * d->period_ticks && d->period_ticks < (1ull << 62))
			d->period_ticks *= 2;
	}
	d->per_cpu = o->info.per_cpu_mmaps;
	d->has_tsc = o->info.tsc_bit && (o->config & o->info.tsc_bit);
	return d;
}

void prism_pt_decoder__free(struct prism_pt_decoder *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nr_qs; i++) {
		pt_insn_free_decoder(d->qs[i].dec);
		pt_pkt_free_decoder(d->qs[i].pkt);
		pt_image_free(d->qs[i].img);
		free(d->qs[i].buf);
		if (d->qs[i].map)
			munmap(d->qs[i].map, d->qs[i].len);
		if (d->qs[i].fd >= 0)
			close(d->qs[i].fd);
	}
	for (i = 0; i < d->nr_cpus; i++)
		free(d->sw[i]);
	for (i = 0; i < d->nr_files; i++) {
		if (d->files[i].p)
			munmap(d->files[i].p, d->files[i].len);
		free(d->files[i].path);
	}
	free(d->files);
	free(d->sw);
	free(d->nr_sw);
	free(d->qs);
	free(d->errs);
	free(d);
}

static struct queue *queue_get(struct prism_pt_decoder *d, uint32_t key)
{
	struct queue *q;
	size_t i;

	for (i = 0; i < d->nr_qs; i++)
		if (d->qs[i].key == key)
			return &d->qs[i];
	q = realloc(d->qs, (d->nr_qs + 1) * sizeof(*q));
	if (!q)
		return NULL;
	d->qs = q;
	q = &d->qs[d->nr_qs++];
	memset(q, 0, sizeof(*q));
	q->key = key;
	q->d = d;
	q->pid = q->tid = -1;
	q->cpu = (uint32_t)-1;
	q->fd = prism_spill__open();
	return q;
}

int prism_pt_decoder__add(struct prism_pt_decoder *d, const struct prism_auxtrace *at)
{
	struct queue *q;

	if (!at->data)
		return 0;
	q = queue_get(d, d->per_cpu ? at->cpu : at->tid);
	if (!q)
		return -ENOMEM;
	if (!d->per_cpu)
		q->tid = (int32_t)at->tid; /* its process: at the run, once the COMMs are read */
	q->cpu = at->cpu;
	if (at->size > SIZE_MAX - q->len)
		return -ENOMEM;
	d->st.trace_bytes += at->size;
	if (q->fd < 0)
		d->st.heap_bytes += at->size;
	if (q->fd >= 0) {
		int err = prism_spill__write(q->fd, q->len, at->data, (size_t)at->size);

		if (!err)
			q->len += (size_t)at->size;
		return err;
	}
	if (q->len + at->size > q->cap) {
		size_t cap = q->cap ? q->cap : 65536;
		uint8_t *b;

		while (cap < q->len + at->size)
			cap *= 2;
		b = realloc(q->buf, cap);
		if (!b)
			return -ENOMEM;
		q->buf = b;
		q->cap = cap;
	}
	memcpy(q->buf + q->len, at->data, (size_t)at->size);
	q->len += (size_t)at->size;
	return 0;
}

static int add_switch(struct prism_pt_decoder *d, uint32_t cpu, uint64_t time, int32_t pid,
		      int32_t tid)
{
	struct switch_ev *s;

	if (cpu >= 4096)
		return 0;
	if (cpu >= d->nr_cpus) {
		struct switch_ev **sw = realloc(d->sw, (cpu + 1) * sizeof(*sw));
		size_t *nr;

		if (!sw)
			return -ENOMEM;
		d->sw = sw;
		nr = realloc(d->nr_sw, (cpu + 1) * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		d->nr_sw = nr;
		memset(d->sw + d->nr_cpus, 0, (cpu + 1 - d->nr_cpus) * sizeof(*sw));
		memset(d->nr_sw + d->nr_cpus, 0, (cpu + 1 - d->nr_cpus) * sizeof(*nr));
		d->nr_cpus = cpu + 1;
	}
	s = realloc(d->sw[cpu], (d->nr_sw[cpu] + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	d->sw[cpu] = s;
	s[d->nr_sw[cpu]++] = (struct switch_ev){ time, pid, tid };
	return 0;
}

int prism_pt_decoder__side_band(struct prism_pt_decoder *d, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;
	struct prism_aux aux;
	uint32_t pid, tid;

	switch (ev->type) {
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* the task that runs from now on: the next one at a switch out */
		if (ev->sw.out)
			return add_switch(d, s->cpu, s->time, (int32_t)ev->sw.next_prev_pid,
					  (int32_t)ev->sw.next_prev_tid);
		return add_switch(d, s->cpu, s->time, (int32_t)s->pid, (int32_t)s->tid);
	case PERF_RECORD_SWITCH:
		if (!ev->sw.out)
			return add_switch(d, s->cpu, s->time, (int32_t)s->pid, (int32_t)s->tid);
		return 0;
	case PERF_RECORD_ITRACE_START:
		if (prism_itrace_start__parse(ev, &pid, &tid))
			return 0;
		return add_switch(d, s->cpu, s->time, (int32_t)pid, (int32_t)tid);
	case PERF_RECORD_AUX:
		if (prism_aux__parse(ev, &aux) || !(aux.flags & PRISM_AUX_FLAG_TRUNCATED))
			return 0;
		{
			struct prism_pt_item *e = realloc(d->errs, (d->nr_errs + 1) * sizeof(*e));

			if (!e)
				return -ENOMEM;
			d->errs = e;
			e += d->nr_errs++;
			memset(e, 0, sizeof(*e));
			e->kind = PRISM_PT_ERROR;
			e->time = s->time;
			e->cpu = s->cpu;
			e->pid = (int32_t)s->pid;
			e->tid = (int32_t)s->tid;
			e->code = ERR_LOST;
			e->msg = err_msg[ERR_LOST];
		}
		return 0;
	default:
		return 0;
	}
}

/* ---- one queue ---- */

static struct prism_pt_item *push(struct queue *q, enum prism_pt_item_kind kind)
{
	struct prism_pt_item *it;

	if (q->n == FIFO) /* never: a step makes at most 4 */
		return NULL;
	it = &q->fifo[(q->head + q->n++) % FIFO];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->time = q->time;
	it->cpu = q->cpu;
	it->pid = q->pid;
	it->tid = q->tid;
	return it;
}

static void branch(struct queue *q, uint64_t from, uint64_t to, uint32_t flags)
{
	struct prism_pt_item *it;
	const struct prism_itrace *o = &q->d->o.itrace;
	uint32_t filter = 0;

	if (!o->branches)
		return;
	/* perf's branch filters: calls with async and trace ends, returns with trace begins */
	if (o->calls)
		filter |= PRISM_PT_FL_CALL | PRISM_PT_FL_ASYNC | PRISM_PT_FL_TRACE_END;
	if (o->returns)
		filter |= PRISM_PT_FL_RETURN | PRISM_PT_FL_TRACE_BEGIN;
	if (filter && !(flags & filter))
		return;
	it = push(q, PRISM_PT_BRANCH);
	if (it) {
		it->ip = from;
		it->addr = to;
		it->flags = flags;
		it->period = 1;
	}
}

static void error(struct queue *q, int code, uint64_t ip)
{
	struct prism_pt_item *it;

	if (!q->d->o.itrace.errors)
		return;
	it = push(q, PRISM_PT_ERROR);
	if (it) {
		it->code = code;
		it->msg = err_msg[code];
		it->ip = ip;
	}
}

/* the thread running on the queue's CPU at q->time (per-CPU queues) */
static void follow_switches(struct queue *q)
{
	struct prism_pt_decoder *d = q->d;
	const struct switch_ev *s;
	size_t n;

	if (!d->per_cpu || q->cpu >= d->nr_cpus)
		return;
	s = d->sw[q->cpu];
	n = d->nr_sw[q->cpu];
	while (q->next_switch < n && (s[q->next_switch].time <= q->time || !d->has_tsc)) {
		q->pid = s[q->next_switch].pid;
		q->tid = s[q->next_switch].tid;
		q->next_switch++;
		if (!d->has_tsc)
			break;
	}
	if (q->tid == 0) /* the idle task: perf shows pid/tid 0 */
		q->pid = 0;
}

static void set_time(struct queue *q, uint64_t tsc)
{
	if (q->d->has_tsc)
		q->time = prism_tsc_to_perf_time(&q->d->tc, tsc);
}

/* a timing packet's TSC: the ticks count from there */
static void set_ticks(struct queue *q, uint64_t tsc)
{
	if (tsc != q->tsc) {
		q->tsc = tsc;
		q->tsc_insns = 0;
	}
}

static void update_time(struct queue *q)
{
	uint64_t tsc;
	uint32_t lm, lc;

	if (pt_insn_time(q->dec, &tsc, &lm, &lc) < 0)
		return;
	if (!q->pkt || !q->synced_time) /* else the packets say when */
		set_ticks(q, tsc);
	q->synced_time = true;
	if (q->d->has_tsc)
		set_time(q, tsc);
}

/* the TSC read ahead, once what came before it is taken */
static void apply_tsc(struct queue *q)
{
	if (q->has_tsc_next && !q->tsc_after && !q->wait_ovf) {
		set_ticks(q, q->tsc_next);
		q->has_tsc_next = false;
	}
}

/* whether @insn takes a TNT bit or a TIP: conditional, return, indirect */
static bool takes_packet(const struct pt_insn *insn)
{
	switch (insn->iclass) {
	case ptic_cond_jump:
	case ptic_return:
		return true;
	case ptic_call:
	case ptic_jump: /* not call/jmp rel */
		return insn->size && insn->raw[0] != 0xe8 && insn->raw[0] != 0xe9 &&
		       insn->raw[0] != 0xeb;
	default:
		return false;
	}
}

/*
 * Before an instruction is counted: the TSC packets read since the last
 * one (libipt reads ahead) count once the TNT bits and TIPs before them
 * are taken by the instructions, as perf counts them (a FUP goes with an
 * event, an OVF's TSC with the overflow's).
 */
static void scan_packets(struct queue *q)
{
	struct pt_packet p;
	uint64_t off, pos, units = 0, before = 0;
	bool tsc = false;

	if (!q->pkt || pt_insn_get_offset(q->dec, &off) < 0)
		return;
	if (off != q->pkt_off) {
		if (pt_pkt_sync_set(q->pkt, q->pkt_off) >= 0)
			while (pt_pkt_get_offset(q->pkt, &pos) >= 0 && pos < off &&
			       pt_pkt_next(q->pkt, &p, sizeof(p)) >= 0) {
				if (p.type == ppt_psb)
					break; /* its TSC comes with the trace's start */
				if (p.type == ppt_ovf) { /* after the overflow's event */
					q->tnt_left = units = before = 0;
					q->wait_ovf = true;
				}
				if (p.type == ppt_tsc) {
					q->tsc_next = p.payload.tsc.tsc |
						      (q->tsc & ~((1ull << 56) - 1));
					tsc = true;
					before = units;
				} else if (p.type == ppt_tnt_8 || p.type == ppt_tnt_64) {
					units += p.payload.tnt.bit_size;
				} else if (p.type == ppt_tip || p.type == ppt_tip_pgd) {
					units++;
				}
			}
		q->pkt_off = off;
		if (tsc) {
			q->has_tsc_next = true;
			q->tsc_after = q->tnt_left + before;
		}
		q->tnt_left += units;
	}
	/* nothing before it: it counts from this instruction on */
	apply_tsc(q);
}

/* after @insn: it took a TNT bit or TIP; a TSC after them counts from here */
static void take_packet(struct queue *q, const struct pt_insn *insn)
{
	if (takes_packet(insn) && q->tnt_left) {
		q->tnt_left--;
		if (q->tsc_after)
			q->tsc_after--;
	}
	/* what came before the TSC is taken: it counts from here */
	apply_tsc(q);
}

/* instructions until the next sample in ticks, at the start of a walk (perf's) */
static uint64_t next_period(struct queue *q)
{
	uint64_t period = q->d->period_ticks, mask = ~(period - 1);
	uint64_t t = q->tsc + q->tsc_insns, m = t & mask;

	if (q->continuous) {
		if (m > q->last_masked)
			return 1;
	} else {
		t++;
		m = t & mask;
		if (m > q->last_masked) {
			q->last_masked = m;
			q->continuous = true;
		}
	}
	if (m < q->last_masked)
		return period;
	return period - (t - m);
}

/* whether this instruction is sampled, in ticks; it is counted */
static bool ticks_due(struct queue *q, bool branch)
{
	uint64_t period = q->d->period_ticks;
	bool due = false;

	if (!q->in_walk) {
		q->walk_max = next_period(q);
		q->walk_n = 0;
		q->in_walk = true;
	}
	q->walk_n++;
	q->tsc_insns++;
	if (q->walk_max && q->walk_n >= q->walk_max) {
		uint64_t m = (q->tsc + q->tsc_insns) & ~(period - 1);

		if (m > q->last_masked)
			q->last_masked = m;
		else
			q->last_masked += period;
		due = true;
	}
	if (due || branch)
		q->in_walk = false;
	return due;
}

static uint32_t class_flags(enum pt_insn_class c)
{
	switch (c) {
	case ptic_call:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL;
	case ptic_return:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN;
	case ptic_cond_jump:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_CONDITIONAL;
	case ptic_jump:
		return PRISM_PT_FL_BRANCH;
	case ptic_far_call:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL | PRISM_PT_FL_SYSCALLRET;
	case ptic_far_return:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN | PRISM_PT_FL_SYSCALLRET;
	case ptic_far_jump:
		return PRISM_PT_FL_BRANCH;
	default:
		return 0;
	}
}

static void on_insn(struct queue *q, const struct pt_insn *insn)
{
	const struct prism_itrace *o = &q->d->o.itrace;

	q->last_insn = NULL;
	if (q->pend) {
		bool taken = insn->ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL);

		if (taken)
			branch(q, q->pend_from, insn->ip, q->pend_flags);
		q->pend = false;
	}
	if (o->instructions) {
		bool due;

		q->insn_count++;
		if (q->d->period_ticks)
			due = ticks_due(q, insn->iclass != ptic_other);
		else
			due = q->insn_count >= o->period;
		if (due) {
			struct prism_pt_item *it = push(q, PRISM_PT_INSN);

			if (it) {
				it->ip = insn->ip;
				it->period = q->insn_count;
				it->flags = class_flags(insn->iclass);
				q->last_insn = it;
			}
			q->insn_count = 0;
		}
	}
	q->pend_flags = class_flags(insn->iclass);
	if (q->pend_flags) {
		q->pend = true;
		q->pend_from = insn->ip;
		q->pend_next = insn->ip + insn->size;
	}
}

static void on_event(struct queue *q, const struct pt_event *ev)
{
	if (ev->has_tsc) {
		if (!q->pkt) /* else the packets say when (scan_packets) */
			set_ticks(q, ev->tsc);
		set_time(q, ev->tsc);
	}
	q->in_walk = false;
	switch (ev->type) {
	case ptev_enabled:
		follow_switches(q);
		branch(q, 0, ev->variant.enabled.ip, PRISM_PT_FL_TRACE_BEGIN);
		break;
	case ptev_disabled:
	case ptev_async_disabled:
		if (ev->type == ptev_async_disabled)
			branch(q, ev->variant.async_disabled.at,
			       ev->ip_suppressed ? 0 : ev->variant.async_disabled.ip,
			       PRISM_PT_FL_BRANCH | PRISM_PT_FL_ASYNC | PRISM_PT_FL_TRACE_END);
		else if (q->pend)
			branch(q, q->pend_from, ev->ip_suppressed ? 0 : ev->variant.disabled.ip,
			       q->pend_flags | PRISM_PT_FL_TRACE_END);
		q->continuous = false;
		if (q->last_insn)
			q->last_insn->flags |= PRISM_PT_FL_TRACE_END;
		q->last_insn = NULL;
		q->pend = false;
		break;
	case ptev_async_branch:
		branch(q, ev->variant.async_branch.from,
		       ev->ip_suppressed ? 0 : ev->variant.async_branch.to,
		       PRISM_PT_FL_BRANCH | PRISM_PT_FL_ASYNC);
		q->pend = false;
		break;
	case ptev_overflow:
		q->tsc_insns = 0;
		q->wait_ovf = false;
		apply_tsc(q);
		if (q->pend && !ev->ip_suppressed)
			branch(q, q->pend_from, ev->variant.overflow.ip, q->pend_flags);
		q->pend = false;
		error(q, ERR_OVR, ev->ip_suppressed ? 0 : ev->variant.overflow.ip);
		if (!ev->ip_suppressed)
			branch(q, 0, ev->variant.overflow.ip, PRISM_PT_FL_TRACE_BEGIN);
		break;
	default:
		break;
	}
}

static int queue_start(struct queue *q)
{
	struct pt_config cfg;
	const struct prism_pt_info *i = &q->d->o.info;

	pt_config_init(&cfg);
	if (q->fd >= 0 && q->len) {
		void *m = mmap(NULL, q->len, PROT_READ, MAP_SHARED, q->fd, 0);

		if (m == MAP_FAILED)
			return -errno;
		q->map = m;
	}
	cfg.begin = q->map ? q->map : q->buf;
	cfg.end = cfg.begin + q->len;
	if (i->has_mtc && i->mtc_freq_bits) {
		uint64_t bits = i->mtc_freq_bits;
		unsigned int shift = (unsigned int)__builtin_ctzll(bits);

		cfg.mtc_freq = (uint8_t)((q->d->o.config & bits) >> shift);
		cfg.nom_freq = (uint8_t)i->max_nonturbo_ratio;
		cfg.cpuid_0x15_eax = (uint32_t)i->tsc_ctc_d;
		cfg.cpuid_0x15_ebx = (uint32_t)i->tsc_ctc_n;
	}
	q->dec = pt_insn_alloc_decoder(&cfg);
	if (!q->dec)
		return -ENOMEM;
	if (q->d->period_ticks) {
		q->pkt = pt_pkt_alloc_decoder(&cfg);
		if (!q->pkt)
			return -ENOMEM;
	}
	q->img = pt_insn_get_image(q->dec);
	pt_image_set_callback(q->img, read_code, q);
	q->img = NULL; /* the decoder's own */
	return 0;
}

static int lib_error_code(int err)
{
	switch (-err) {
	case pte_bad_opc:
	case pte_bad_packet:
		return ERR_BADPKT;
	case pte_nomap:
	case pte_bad_insn:
		return ERR_NOINSN;
	case pte_bad_query:
	case pte_bad_context:
		return ERR_MISMAT;
	default:
		return ERR_UNK;
	}
}

/* the mapped trace before @off (and the packet decoder's place) is not needed again */
static void release(struct queue *q, uint64_t off)
{
	size_t at;

	if (!q->map)
		return;
	if (q->pkt && q->pkt_off < off)
		off = q->pkt_off;
	at = (size_t)(off & ~(uint64_t)(RELEASE - 1));
	if (at > q->dropped && at <= q->len) {
		madvise(q->map + q->dropped, at - q->dropped, MADV_DONTNEED);
		q->d->st.released_bytes += at - q->dropped;
		q->dropped = at;
	}
}

/* decode until the queue has an item or is done */
static int queue_step(struct queue *q)
{
	struct pt_insn insn;
	struct pt_event ev;
	int st;

	/* an instruction's events first: a trace end marks its sample */
	while (!q->done &&
	       (!q->n || (q->synced && q->status >= 0 && (q->status & pts_event_pending)))) {
		if (!q->synced) {
			st = pt_insn_sync_forward(q->dec);
			if (st < 0) {
				q->done = true;
				break;
			}
			q->synced = true;
			q->status = st;
			q->tnt_left = 0;
			q->tsc_after = 0;
			q->has_tsc_next = q->wait_ovf = false;
			q->synced_time = false;
			update_time(q); /* the PSB's TSC */
			if (pt_insn_get_offset(q->dec, &q->pkt_off) < 0)
				q->pkt_off = 0;
		}
		st = q->status;
		while (st >= 0 && (st & pts_event_pending)) {
			st = pt_insn_event(q->dec, &ev, sizeof(ev));
			if (st >= 0)
				on_event(q, &ev);
		}
		/*
		 * At the trace's end, as perf: stop once the last trace bit is
		 * used; the next instruction only tells where a pending branch went.
		 */
		if (st >= 0 && (st & pts_eos)) {
			if (q->pend && pt_insn_next(q->dec, &insn, sizeof(insn)) >= 0 &&
			    (insn.ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL)))
				branch(q, q->pend_from, insn.ip, q->pend_flags);
			q->pend = false;
			q->done = true;
			break;
		}
		if (st >= 0) {
			memset(&insn, 0, sizeof(insn));
			st = pt_insn_next(q->dec, &insn, sizeof(insn));
			if (st >= 0) {
				uint64_t off = 0;

				update_time(q);
				scan_packets(q);
				on_insn(q, &insn);
				take_packet(q, &insn);
				pt_insn_get_offset(q->dec, &off);
				release(q, off);
				if (off != q->stall_off) {
					q->stall_off = off;
					q->stall_n = 0;
				} else if (++q->stall_n > MAX_LOOPS) {
					q->stall_n = 0;
					error(q, ERR_NELOOP, insn.ip);
					q->pend = false;
					q->synced = false;
					continue;
				}
			}
		}
		if (st == -pte_eos) {
			q->done = true;
		} else if (st < 0) {
			/* as perf: an error sample, then on from the next PSB */
			error(q, lib_error_code(st), st == -pte_nomap ? insn.ip : 0);
			q->pend = false;
			q->synced = false;
			continue;
		}
		q->status = st;
	}
	return 0;
}

int prism_pt_decoder__run(struct prism_pt_decoder *d,
			  int (*fn)(void *ctx, const struct prism_pt_item *it), void *ctx)
{
	size_t i;
	int err;

	for (i = 0; i < d->nr_qs; i++) {
		struct queue *q = &d->qs[i];

		err = queue_start(q);
		if (err)
			return err;
		if (!d->per_cpu) {
			q->pid = d->o.tasks ?
					 (int32_t)prism_tasks__pid(d->o.tasks, (uint32_t)q->tid) :
					 -1;
			if (q->pid < 0)
				q->pid = q->tid;
		}
		follow_switches(q);
	}
	for (;;) {
		struct queue *best = NULL;
		const struct prism_pt_item *it = NULL;

		for (i = 0; i < d->nr_qs; i++) {
			struct queue *q = &d->qs[i];

			queue_step(q);
			if (q->done && q->map) { /* its decoders do not read it again */
				munmap(q->map, q->len);
				q->map = NULL;
			}
			if (q->n && (!best || q->fifo[q->head].time < best->fifo[best->head].time))
				best = q;
		}
		/* lost-data errors of AUX records go where their time puts them */
		if (d->next_err < d->nr_errs && d->o.itrace.errors &&
		    (!best || d->errs[d->next_err].time <= best->fifo[best->head].time))
			it = &d->errs[d->next_err++];
		else if (best)
			it = &best->fifo[best->head];
		else if (d->next_err < d->nr_errs && !d->o.itrace.errors)
			d->next_err = d->nr_errs;
		if (!it)
			break;
		err = fn(ctx, it);
		if (best && it == &best->fifo[best->head]) {
			if (best->last_insn == it)
				best->last_insn = NULL;
			best->head = (best->head + 1) % FIFO;
			best->n--;
		}
		if (err)
			return err;
	}
	return 0;
}

void prism_pt_decoder__stats(const struct prism_pt_decoder *d, struct prism_pt_decoder_stats *st)
{
	*st = d->st;
	st->queues = d->nr_qs;
}
