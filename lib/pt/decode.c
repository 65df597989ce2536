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
 *
 * Speed: where samples are sparse the queues walk blocks (decode-block.c);
 * PRISM_PT_INSN_DECODER=1 in the environment makes them go one instruction
 * at a time (the tests compare the two).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/task.h>

#include "cpu.h"
#include "decode.h"

const char *const pt_err_msg[] = {
	[ERR_BADPKT] = "Bad packet",
	[ERR_NOINSN] = "Failed to get instruction",
	[ERR_MISMAT] = "Trace doesn't match instruction",
	[ERR_OVR] = "Overflow packet",
	[ERR_LOST] = "Lost trace data",
	[ERR_UNK] = "Unknown error!",
	[ERR_NELOOP] = "Never-ending loop (refer perf config intel-pt.max-loops)",
};

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
			t = prism_ns_to_tsc_ticks(&d->tc, t);
		/* perf: the largest power of 2 not above it, at least 1 */
		d->period_ticks = 1;
		while (t >= 2 * d->period_ticks && d->period_ticks < (1ull << 62))
			d->period_ticks *= 2;
	}
	d->per_cpu = o->info.per_cpu_mmaps;
	/* blocks (and a walk that goes on after errors as perf's) */
	d->blocks = !getenv("PRISM_PT_INSN_DECODER");
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
		pt_block_free(&d->qs[i]);
		pt_pkt_free_decoder(d->qs[i].pkt);
		pt_pkt_free_decoder(d->qs[i].look);
		pt_image_free(d->qs[i].img);
		free(d->qs[i].buf);
		free(d->qs[i].chains);
		free(d->qs[i].lbrs);
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
	pt_iscache_free(d->iscache);
	free(d->brc);
	pt_poke_free(d);
	free(d->sw);
	free(d->nr_sw);
	free(d->qs);
	free(d->errs);
	pt_stacks_free(&d->stacks);
	free(d);
}

/* ---- one queue ---- */

static struct prism_pt_item *push(struct queue *q, enum prism_pt_item_kind kind)
{
	struct prism_pt_item *it;

	if (q->n == FIFO) /* never: a step makes at most 4, and the events of an instruction */
		return NULL;
	q->fifo_nomap[(q->head + q->n) % FIFO] = 0;
	it = &q->fifo[(q->head + q->n++) % FIFO];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->time = pt_sample_time(q);
	it->cpu = q->cpu;
	it->pid = q->pid;
	it->tid = q->tid;
	return it;
}

/* the call stack of the thread the queue runs, when call chains or depths are asked for */
static struct pt_stack *stack(struct queue *q)
{
	const struct prism_itrace *o = &q->d->o.itrace;

	if (!o->callchain && !o->thread_stack && !o->last_branch)
		return NULL;
	return pt_stacks_get(&q->d->stacks, q->pid, q->tid, q->cpu);
}

/*
 * an instruction or event sample's call chain (itrace.callchain) and last
 * branches (itrace.last_branch), from its thread's stack
 */
void pt_insn_chain(struct queue *q, struct prism_pt_item *it)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	uint64_t *cc;

	if (o->last_branch)
		pt_lbr_sample(&q->lbrs, (size_t)(it - q->fifo), FIFO, o->last_branch_sz, stack(q),
			      it);
	if (!o->callchain)
		return;
	cc = q->chains + (size_t)(it - q->fifo) * o->callchain_sz;
	it->nr_callchain = (uint32_t)pt_stack_chain(stack(q), it->ip, cc, o->callchain_sz);
	it->callchain = cc;
}

static void branch(struct queue *q, uint64_t from, uint64_t to, uint32_t flags)
{
	struct prism_pt_item *it;
	const struct prism_itrace *o = &q->d->o.itrace;
	struct pt_stack *st = stack(q);
	uint32_t filter = 0;

	/* perf's to_ip of an instruction sample: its taken branch's target */
	if (q->pend_insn && from && from == q->pend_from && !(flags & PRISM_PT_FL_ASYNC)) {
		q->pend_insn->addr = to;
		q->pend_insn = NULL;
	}
	/* every branch moves the stack, before its sample (as perf) */
	if (st) {
		pt_stack_trace(st, (size_t)(q - q->d->qs) + 1); /* another CPU's: anew */
		pt_stack_event(st, flags, from, to,
			       q->pend && from == q->pend_from ?
				       (unsigned int)(q->pend_next - q->pend_from) :
				       0);
	}
	if (st && o->last_branch)
		pt_lbr_event(st, o->last_branch_sz, flags, from, to);
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
		/*
		 * the branch instruction's bytes (perf has none for asynchronous
		 * ones); a trace start has the last branch's, as perf's
		 */
		if ((from ? from == q->pend_from : flags == PRISM_PT_FL_TRACE_BEGIN) &&
		    !(flags & PRISM_PT_FL_ASYNC)) {
			it->insn_len = q->pend_size;
			it->insn_32bit = q->pend_32bit;
			memcpy(it->insn, q->pend_raw, sizeof(it->insn));
		}
		it->depth = st ? (uint32_t)st->cnt : 0;
		if (q->d->o.ipc) { /* a pending branch's state, else one now */
			struct pt_ipc_snap now;

			if (!q->ipc.from_pend)
				pt_ipc_state(&q->ipc, true, &now);
			pt_ipc_sample(&q->ipc, q->ipc.from_pend ? &q->ipc.br : &now, true,
				      &it->ipc_insns, &it->ipc_cycles);
		}
	}
}

/* the pending branch, with the time of its instruction */
static void pend_branch(struct queue *q, uint64_t to, uint32_t flags)
{
	uint64_t now = q->time;

	q->time = q->pend_time;
	if (q->d->o.ipc)
		pt_ipc_resolve(&q->ipc, true);
	q->ipc.from_pend = q->d->o.ipc;
	branch(q, q->pend_from, to, flags);
	q->ipc.from_pend = false;
	q->time = now;
}

static void error(struct queue *q, int code, uint64_t ip)
{
	struct prism_pt_item *it;

	if (q->d->o.ipc) /* perf: an error state has the cycles now */
		q->ipc.sample_tot_cyc = q->ipc.tot_cyc;
	q->d->st.errors++;
	if (!q->d->o.itrace.errors)
		return;
	it = push(q, PRISM_PT_ERROR);
	if (it) {
		it->code = code;
		it->msg = pt_err_msg[code];
		it->ip = ip;
	}
}

/* the opcode after legacy and REX prefixes */
static uint8_t opcode(const struct pt_insn *insn)
{
	uint8_t i = 0;

	while (i + 1 < insn->size && (insn->raw[i] == 0x66 || (insn->raw[i] & 0xf0) == 0x40))
		i++;
	return insn->raw[i];
}

static uint32_t class_flags(const struct pt_insn *insn)
{
	uint8_t op;

	switch (insn->iclass) {
	case ptic_call:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL;
	case ptic_return:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN;
	case ptic_cond_jump:
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_CONDITIONAL;
	case ptic_jump:
		return PRISM_PT_FL_BRANCH;
	case ptic_far_call: /* int3, int n, into are interrupts (perf's "int") */
		op = opcode(insn);
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_CALL |
		       (op >= 0xcc && op <= 0xce ? PRISM_PT_FL_INTERRUPT : PRISM_PT_FL_SYSCALLRET);
	case ptic_far_return: /* iret, not sysret */
		return PRISM_PT_FL_BRANCH | PRISM_PT_FL_RETURN |
		       (opcode(insn) == 0xcf ? PRISM_PT_FL_INTERRUPT : PRISM_PT_FL_SYSCALLRET);
	case ptic_far_jump:
		return PRISM_PT_FL_BRANCH;
	default:
		return 0;
	}
}

/* @insn's bytes as the last branch's */
static void pend_bytes(struct queue *q, const struct pt_insn *insn)
{
	q->pend_size = insn->size;
	q->pend_32bit = insn->mode != ptem_64bit;
	memcpy(q->pend_raw, insn->raw, sizeof(q->pend_raw));
}

void pt_branch_bytes(struct queue *q)
{
	struct pt_insn insn;

	if (!q->flags_lazy)
		return;
	q->flags_lazy = false;
	if (pt_ild_nth(q, q->flags_ip, q->flags_mode, 0, &insn) >= 0)
		pend_bytes(q, &insn);
}

/* perf's flags after @insn: its branch's (the pending branch's, the events' after it) */
void pt_insn_flags(struct queue *q, const struct pt_insn *insn)
{
	q->pend_flags = class_flags(insn);
	if (q->pend_flags && insn->speculative)
		q->pend_flags |= PRISM_PT_FL_IN_TX;
	if (q->pend_flags) { /* the branch's bytes: its sample's, the events' after it */
		pend_bytes(q, insn);
		/* (a block's last instruction whose bytes nothing else needed) */
		q->flags_lazy = !insn->size && q->ild;
		q->flags_ip = insn->ip;
		q->flags_mode = insn->mode;
	}
	pt_events_insn(q, q->pend_flags);
}

struct prism_pt_item *pt_insn_sample(struct queue *q, const struct pt_insn *insn,
				     struct pt_ipc_snap *snap)
{
	struct prism_pt_item *it = push(q, PRISM_PT_INSN);

	if (!it)
		return NULL;
	it->ip = insn->ip;
	it->period = q->insn_count + q->period_carry;
	q->period_carry = 0;
	it->flags = class_flags(insn) | (insn->speculative ? PRISM_PT_FL_IN_TX : 0);
	it->insn_len = insn->size;
	it->insn_32bit = insn->mode != ptem_64bit;
	memcpy(it->insn, insn->raw, sizeof(it->insn));
	q->last_insn = it;
	pt_insn_chain(q, it);
	if (q->d->o.ipc) {
		pt_ipc_state(&q->ipc, false, snap);
		pt_ipc_sample(&q->ipc, snap, false, &it->ipc_insns, &it->ipc_cycles);
	}
	return it;
}

static void on_insn(struct queue *q, const struct pt_insn *insn)
{
	const struct prism_itrace *o = &q->d->o.itrace;
	struct pt_ipc_snap snap;
	bool sampled = false;

	q->last_insn = NULL;
	if (q->hold_target) /* (the pending branch below gives it) */
		q->hold = q->hold_target = false;
	if (!(o->instructions && q->d->period_ticks)) /* (else pt_ticks_due counts it) */
		q->tsc_insns++;
	if (q->pend) {
		bool taken = insn->ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL);

		if (taken)
			pend_branch(q, insn->ip, q->pend_flags);
		else if (q->d->o.ipc)
			pt_ipc_resolve(&q->ipc, false);
		q->pend = false;
	}
	if (q->ev.n)
		pt_events_flush(q, insn->ip);
	if (q->d->o.ipc)
		pt_ipc_count(&q->ipc, 1);
	if (o->instructions) {
		bool due;

		q->insn_count++;
		if (q->d->period_ticks)
			due = pt_ticks_due(q, insn->iclass != ptic_other);
		else
			due = q->insn_count >= o->period;
		if (due) {
			struct prism_pt_item *it = pt_insn_sample(q, insn, &snap);

			if (it) {
				sampled = true;
				/* iret, sysret: its time may be perf's estimate (pt_time_at) */
				q->hold = q->d->has_tsc && (insn->ip >> 63) &&
					  (insn->iclass == ptic_far_return ||
					   insn->iclass == ptic_far_jump);
			}
			q->insn_count = 0;
		}
	}
	pt_insn_flags(q, insn);
	/* only branch samples and the call stacks use it */
	if (q->pend_flags && (o->branches || o->callchain || o->thread_stack || o->last_branch ||
			      q->d->o.ipc || (sampled && q->d->o.insn_to))) {
		q->pend = true;
		q->pend_insn = sampled && q->d->o.insn_to ? q->last_insn : NULL;
		if (q->pend_insn && !q->hold)
			q->hold = q->hold_target = true;
		q->pend_time = q->time;
		q->pend_from = insn->ip;
		q->pend_next = insn->ip + insn->size;
		if (q->d->o.ipc) /* sampled: that state is the branch's */
			pt_ipc_pend(&q->ipc, sampled ? &snap : NULL);
	}
}

static void on_event(struct queue *q, const struct pt_event *ev)
{
	size_t before = q->ev.n; /* (a trace start: those of packets after it wait) */

	q->hold = false;
	pt_time_event(q, ev);
	q->in_walk = false;
	switch (ev->type) {
	case ptev_enabled:
		pt_ipc_pge(&q->ipc, true, q->tm.timestamp);
		pt_follow_switches(q);
		pt_events_flush_n(q, 0, before);
		q->in_kernel = true; /* a trace start: from no code, as from the kernel */
		pt_time_at(q, ev->variant.enabled.ip);
		branch(q, 0, ev->variant.enabled.ip, PRISM_PT_FL_TRACE_BEGIN);
		pt_time_started(q);
		break;
	case ptev_disabled:
	case ptev_async_disabled:
		if (ev->type == ptev_async_disabled)
			branch(q, ev->variant.async_disabled.at,
			       ev->ip_suppressed ? 0 : ev->variant.async_disabled.ip,
			       PRISM_PT_FL_BRANCH | PRISM_PT_FL_ASYNC | PRISM_PT_FL_TRACE_END);
		else if (q->pend)
			pend_branch(q, ev->ip_suppressed ? 0 : ev->variant.disabled.ip,
				    q->pend_flags | PRISM_PT_FL_TRACE_END);
		q->continuous = false;
		pt_ipc_pge(&q->ipc, false, q->tm.timestamp);
		if (q->last_insn)
			q->last_insn->flags |= PRISM_PT_FL_TRACE_END;
		q->last_insn = NULL;
		q->pend = false;
		break;
	case ptev_async_branch: /* after the branch that led to where it came */
		/* (not the branch it comes at, as perf: Apollo Lake's FUP after an indirect one, walk.c) */
		if (q->pend && ev->variant.async_branch.from == q->pend_from)
			q->pend = false;
		if (q->pend && (ev->variant.async_branch.from != q->pend_next ||
				!(q->pend_flags & PRISM_PT_FL_CONDITIONAL)))
			branch(q, q->pend_from, ev->variant.async_branch.from, q->pend_flags);
		branch(q, ev->variant.async_branch.from,
		       ev->ip_suppressed ? 0 : ev->variant.async_branch.to,
		       pt_events_async_flags(q, ev->ip_suppressed));
		q->pend = false;
		break;
	case ptev_overflow: {
		/*
		 * where the last branch went, as perf's decoder stands (also
		 * where tracing resumes at a FUP elsewhere); else at the FUP
		 */
		uint64_t ip = pt_ovf_disabled_ip(q);

		if (!ip && !ev->ip_suppressed)
			ip = ev->variant.overflow.ip;

		if (q->pend && ip &&
		    (ip != q->pend_next || !(q->pend_flags & PRISM_PT_FL_CONDITIONAL)))
			pend_branch(q, ip, q->pend_flags);
		q->pend = false;
		bool psb = !ev->ip_suppressed && pt_ovf_psb(q);

		error(q, ERR_OVR, ip);
		if (psb) /* perf: its walk from no IP to the PSB's FUP */
			error(q, ERR_NOINSN, 0);
		q->pend_size = 0; /* perf: no instruction bytes after an overflow */
		q->flags_lazy = false;
		pt_time_overflow(q);
		if (psb) { /* the PSB+'s CBR: perf's walk to its FUP read it, a trace start's */
			pt_events_resync_cbr(q);
			pt_events_flush(q, 0);
		}
		if (!ev->ip_suppressed)
			branch(q, 0, ev->variant.overflow.ip, PRISM_PT_FL_TRACE_BEGIN);
		else if ((ip = pt_ovf_fup(q))) { /* APL12's FUP (libipt's workaround took it) */
			branch(q, 0, ip, PRISM_PT_FL_TRACE_BEGIN);
			q->ev.after_fup = true; /* (perf's events after it: no flags) */
		}
		break;
	}
	case ptev_tsx:
		pt_events_tsx(q, ev);
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
	pt_cpu_config(&cfg, &q->d->o.cpu); /* libipt's errata for the file's CPUID, skd010 */
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
	if (!q->d->iscache)
		q->d->iscache = pt_iscache_alloc(NULL);
	q->img = pt_image_alloc(NULL);
	if (!q->img)
		return -ENOMEM;
	pt_image_set_callback(q->img, pt_read_code, q);
	q->img_pid = q->pid;
	if (q->d->blocks) {
		int err = pt_block_start(q, &cfg);

		if (err)
			return err;
	} else {
		q->dec = pt_insn_alloc_decoder(&cfg);
		if (!q->dec)
			return -ENOMEM;
		pt_insn_set_image(q->dec, q->img);
	}
	if (q->d->o.itrace.callchain) {
		q->chains = calloc(FIFO * (size_t)q->d->o.itrace.callchain_sz, sizeof(*q->chains));
		if (!q->chains)
			return -ENOMEM;
	}
	if (pt_time_start(q, &cfg))
		return -ENOMEM;
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
	case pte_bad_retcomp: /* perf's "Bad RET compression" */
	case pte_retstack_empty:
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

void pt_release(struct queue *q, uint64_t off)
{
	release(q, off);
}

/* the decoder found a PSB (sync status @st): timing starts over there */
void pt_synced(struct queue *q, int st)
{
	q->synced = true;
	q->status = st;
	q->ret_n = 0; /* libipt's call stack starts empty at a PSB */
	pt_time_sync(q); /* the PSB's TSC */
}

/* an error sample at perf's estimated time, then on from the next PSB (as perf) */
void pt_stop(struct queue *q, int code, uint64_t ip)
{
	uint64_t now = q->time;

	q->time = pt_time_error(q);
	if (q->ev.n || pt_events_wait(q))
		pt_events_error(q, ip);
	error(q, code, ip);
	q->time = now;
	q->pend = false;
	q->synced = false;
	q->last_insn =
		NULL; /* (its time stays: a trace start after the error is no branch from it) */
}

/*
 * after the instruction at @ip, the decoder at @off in the trace: the bytes
 * behind it released, the loop guard.  Return: false when the guard stopped
 * the queue.
 */
bool pt_stepped(struct queue *q, uint64_t off, uint64_t ip)
{
	if (off != q->stall_off) {
		release(q, off);
		q->stall_off = off;
		q->stall_n = 0;
	} else if (++q->stall_n > MAX_LOOPS) {
		q->stall_n = 0;
		pt_stop(q, ERR_NELOOP, ip);
		return false;
	}
	return true;
}

/* decode until the queue has an item or is done, or has no item and is past @limit */
static int queue_step(struct queue *q, uint64_t limit)
{
	struct pt_insn insn;
	struct pt_event ev;
	int st;

	/*
	 * an instruction's events first: a trace end marks its sample; a branch's
	 * sample waits for the target once the items before it are out
	 */
	while (!q->done && (!q->n || (q->hold && !(q->hold_target && q->n > 1)) ||
			    (q->synced && q->status >= 0 && (q->status & pts_event_pending)))) {
		if (!q->n && q->synced && q->time > limit)
			break;
		if (!q->synced) {
			st = pt_insn_sync_forward(q->dec);
			if (st < 0) {
				q->done = true;
				break;
			}
			pt_synced(q, st);
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
				pend_branch(q, insn.ip, q->pend_flags);
			q->pend = false;
			q->done = true;
			break;
		}
		if (st >= 0) {
			memset(&insn, 0, sizeof(insn));
			pt_image_follow_pid(q);
			st = pt_insn_next(q->dec, &insn, sizeof(insn));
			if (st >= 0) {
				uint64_t off = 0;

				pt_scan_packets(q, &insn);
				if (insn.iclass == ptic_call || insn.iclass == ptic_return)
					pt_ovf_calls(q, &insn);
				on_insn(q, &insn);
				pt_take_packet(q);
				pt_insn_get_offset(q->dec, &off);
				if (!pt_stepped(q, off, insn.ip))
					continue;
			}
		}
		if (st == -pte_eos) {
			q->done = true;
		} else if (st < 0) {
			pt_stop(q, lib_error_code(st), st == -pte_nomap ? insn.ip : 0);
			if (st == -pte_nomap)
				pt_nomap_mark(q);
			continue;
		}
		q->status = st;
	}
	return 0;
}

/* for decode-block.c */
struct prism_pt_item *pt_push(struct queue *q, enum prism_pt_item_kind kind)
{
	return push(q, kind);
}

void pt_on_insn(struct queue *q, const struct pt_insn *insn)
{
	on_insn(q, insn);
}

void pt_on_event(struct queue *q, const struct pt_event *ev)
{
	on_event(q, ev);
}

void pt_branch(struct queue *q, uint64_t from, uint64_t to, uint32_t flags)
{
	branch(q, from, to, flags);
}

void pt_pend_branch(struct queue *q, uint64_t to, uint32_t flags)
{
	pend_branch(q, to, flags);
}

uint32_t pt_class_flags(const struct pt_insn *insn)
{
	return class_flags(insn);
}

int pt_lib_error_code(int err)
{
	return lib_error_code(err);
}

/*
 * The threads' call stacks need their branches in time order, also where a
 * thread moves between CPUs: the queue furthest behind is decoded, up to
 * the time of the next one (or of the first item waiting)
 */
static void step_in_order(struct prism_pt_decoder *d)
{
	for (;;) {
		struct queue *low = NULL, *next = NULL;
		uint64_t head = UINT64_MAX, limit;
		size_t i;

		for (i = 0; i < d->nr_qs; i++) {
			struct queue *q = &d->qs[i];

			if (q->n) {
				if (q->fifo[q->head].time < head)
					head = q->fifo[q->head].time;
			} else if (!q->done) {
				if (!low || q->time < low->time) {
					next = low;
					low = q;
				} else if (!next || q->time < next->time) {
					next = q;
				}
			}
		}
		if (!low || (head != UINT64_MAX && head <= low->time))
			return;
		limit = next && next->time < head ? next->time : head;
		if (d->blocks)
			pt_block_step(low, limit);
		else
			queue_step(low, limit);
	}
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
		/*
		 * in time order (the threads' stacks): each queue at its first
		 * PSB's time before any is decoded, so that none runs ahead
		 */
		if ((d->o.itrace.callchain || d->o.itrace.thread_stack ||
		     d->o.itrace.last_branch) &&
		    d->nr_qs > 1) {
			int st = d->blocks ? pt_block_sync(q) : pt_insn_sync_forward(q->dec);

			if (st < 0)
				q->done = true;
			else
				pt_synced(q, st);
		}
		pt_follow_switches(q);
	}
	for (;;) {
		struct queue *best = NULL;
		const struct prism_pt_item *it = NULL;
		bool ordered = (d->o.itrace.callchain || d->o.itrace.thread_stack ||
				d->o.itrace.last_branch) &&
			       d->nr_qs > 1;

		if (ordered)
			step_in_order(d);
		for (i = 0; i < d->nr_qs; i++) {
			struct queue *q = &d->qs[i];

			/* ordered: the queues stepped above */
			if (ordered)
				;
			else if (d->blocks)
				pt_block_step(q, UINT64_MAX);
			else
				queue_step(q, UINT64_MAX);
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
		if (best && it == &best->fifo[best->head] && best->fifo_nomap[best->head] &&
		    !pt_nomap_reported(d, best->fifo_nomap[best->head])) {
			d->st.errors--; /* (perf's third failure in a file: not reported) */
			err = 0;
		} else if (it->kind != PRISM_PT_ERROR && d->skipped < d->o.itrace.skip) {
			/* 's': as perf, a skipped instruction sample's count goes to the next one */
			d->skipped++;
			if (it->kind == PRISM_PT_INSN)
				best->skipped_period += it->period;
			err = 0;
		} else {
			if (it->kind == PRISM_PT_INSN && best->skipped_period) {
				best->fifo[best->head].period += best->skipped_period;
				best->skipped_period = 0;
			}
			err = fn(ctx, it);
		}
		if (best && it == &best->fifo[best->head]) {
			if (best->last_insn == it)
				best->last_insn = NULL;
			if (best->pend_insn == it)
				best->pend_insn = NULL;
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
