// SPDX-License-Identifier: MIT
/*
 * Off-CPU intervals without BPF, from what perf_event_open can record
 * unprivileged-ish: PERF_RECORD_SWITCH (or SWITCH_CPU_WIDE) records, which
 * say when a thread left and re-entered a CPU, and samples of the
 * context-switches software event (period 1), which carry the callchain at
 * the moment it left.
 *
 * Per thread: a context-switches sample is remembered; the switch-out that
 * follows opens an interval and takes that callchain (the kernel emits the
 * sample just before the switch-out record, with a slightly smaller time);
 * the next switch-in closes the interval and reports it.  Preempted
 * switch-outs (SWITCH_OUT_PREEMPT) are run-queue waits, not blocks: they
 * are reported only on request.  Records must be fed in time order.
 *
 * Note: the switch records carry no task state, so S and D are not told
 * apart here; only voluntary vs preempted.
 */
#include <prism/event.h>
#include <prism/offcpu.h>

#include "internal.h"

#define DEF_MAX_GAP_NS 1000000ull

struct thread {
	uint32_t tid; /* 0: empty slot (tid 0 is the idle task, never tracked) */
	uint32_t pid;
	bool out; /* an interval is open */
	bool preempted;
	bool chain_used; /* the remembered sample belongs to the open interval */
	bool has_chain;
	uint64_t start;
	uint32_t cpu_out;
	uint64_t chain_time;
	uint64_t *chain;
	uint64_t chain_nr;
	size_t chain_cap;
};

struct prism_offcpu_fallback {
	struct prism_offcpu_fallback_opts opts;
	struct thread *t; /* open addressing, linear probing, power-of-2 size */
	size_t nr, size;
	struct prism_offcpu_fallback_stats stats;
};

struct prism_offcpu_fallback *
prism_offcpu_fallback__new(const struct prism_offcpu_fallback_opts *opts)
{
	struct prism_offcpu_fallback *fb;

	if (!opts || !opts->fn) {
		errno = EINVAL;
		return NULL;
	}
	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return NULL;
	fb->opts = *opts;
	if (!fb->opts.max_sample_gap_ns)
		fb->opts.max_sample_gap_ns = DEF_MAX_GAP_NS;
	return fb;
}

void prism_offcpu_fallback__free(struct prism_offcpu_fallback *fb)
{
	size_t i;

	if (!fb)
		return;
	for (i = 0; i < fb->size; i++)
		free(fb->t[i].chain);
	free(fb->t);
	free(fb);
}

static size_t slot_of(uint32_t tid, size_t size)
{
	return (tid * 2654435761u) & (size - 1);
}

static int grow(struct prism_offcpu_fallback *fb)
{
	size_t size = fb->size ? fb->size * 2 : 256, i, j;
	struct thread *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (i = 0; i < fb->size; i++) {
		if (!fb->t[i].tid)
			continue;
		for (j = slot_of(fb->t[i].tid, size); t[j].tid; j = (j + 1) & (size - 1))
			;
		t[j] = fb->t[i];
	}
	free(fb->t);
	fb->t = t;
	fb->size = size;
	return 0;
}

/* the thread's state, created on first sight; NULL on ENOMEM */
static struct thread *thread(struct prism_offcpu_fallback *fb, uint32_t tid)
{
	size_t i;

	if (fb->size) {
		for (i = slot_of(tid, fb->size); fb->t[i].tid; i = (i + 1) & (fb->size - 1)) {
			if (fb->t[i].tid == tid)
				return &fb->t[i];
		}
	}
	if ((fb->nr + 1) * 4 > fb->size * 3 && grow(fb))
		return NULL;
	for (i = slot_of(tid, fb->size); fb->t[i].tid; i = (i + 1) & (fb->size - 1))
		;
	fb->t[i].tid = tid;
	fb->nr++;
	return &fb->t[i];
}

static int report(struct prism_offcpu_fallback *fb, struct thread *t, uint64_t end, uint32_t cpu_in,
		  bool in_progress)
{
	struct prism_offcpu_interval iv = {
		.pid = t->pid,
		.tid = t->tid,
		.start = t->start,
		.end = end < t->start ? t->start : end,
		.cpu_out = t->cpu_out,
		.cpu_in = cpu_in,
		.preempted = t->preempted,
		.in_progress = in_progress,
	};

	t->out = false;
	if (t->chain_used) {
		iv.callchain = t->chain;
		iv.callchain_nr = t->chain_nr;
	}
	/* the buffer stays valid during the callback; the next sample overwrites it */
	t->chain_used = false;
	t->has_chain = false;
	if (t->preempted) {
		fb->stats.preempted++;
		if (!fb->opts.include_preempted)
			return 0;
	}
	if (!iv.callchain)
		fb->stats.no_callchain++;
	fb->stats.intervals++;
	if (in_progress)
		fb->stats.in_progress++;
	return fb->opts.fn(&iv, fb->opts.arg);
}

/* whether the remembered sample belongs to a switch-out at @time */
static bool chain_matches(const struct prism_offcpu_fallback *fb, const struct thread *t,
			  uint64_t time)
{
	uint64_t gap;

	if (!t->has_chain)
		return false;
	gap = t->chain_time > time ? t->chain_time - time : time - t->chain_time;
	return gap <= fb->opts.max_sample_gap_ns;
}

int prism_offcpu_fallback__switch(struct prism_offcpu_fallback *fb, uint64_t time, uint32_t pid,
				  uint32_t tid, uint32_t cpu, bool out, bool preempt)
{
	struct thread *t;

	if (!tid)
		return 0;
	t = thread(fb, tid);
	if (!t)
		return -ENOMEM;
	t->pid = pid;
	if (!out) {
		if (!t->out) {
			fb->stats.unmatched_in++;
			return 0;
		}
		return report(fb, t, time, cpu, false);
	}
	if (t->out)
		fb->stats.double_out++; /* the switch-in was lost: restart from here */
	t->out = true;
	t->start = time;
	t->cpu_out = cpu;
	t->preempted = preempt;
	t->chain_used = chain_matches(fb, t, time);
	if (!t->chain_used)
		t->has_chain = false; /* stale: its switch-out record was lost */
	return 0;
}

int prism_offcpu_fallback__sample(struct prism_offcpu_fallback *fb, uint64_t time, uint32_t pid,
				  uint32_t tid, uint32_t cpu, const uint64_t *callchain,
				  uint64_t nr)
{
	struct thread *t;

	if (!tid)
		return 0;
	t = thread(fb, tid);
	if (!t)
		return -ENOMEM;
	/* a sample already taken for the open interval stays; a later one is for the next */
	if (t->out && t->chain_used)
		return 0;
	if (prism_ensure_mem((void **)&t->chain, &t->chain_cap, sizeof(*t->chain), nr ? nr : 1))
		return -ENOMEM;
	if (nr)
		memcpy(t->chain, callchain, nr * sizeof(*t->chain));
	t->chain_nr = nr;
	t->chain_time = time;
	t->has_chain = true;
	t->pid = pid;
	/* delivered after its switch-out (equal times reordered): attach it now */
	if (t->out && chain_matches(fb, t, t->start))
		t->chain_used = true;
	return 0;
}

void prism_offcpu_fallback__lost(struct prism_offcpu_fallback *fb)
{
	size_t i;

	for (i = 0; i < fb->size; i++) {
		struct thread *t = &fb->t[i];

		if (t->tid && t->out) {
			t->out = false;
			fb->stats.dropped++;
		}
		t->has_chain = false;
		t->chain_used = false;
	}
}

int prism_offcpu_fallback__event(struct prism_offcpu_fallback *fb, const struct prism_event *ev,
				 bool is_cs_sample)
{
	const struct prism_sample *s = &ev->sample;

	switch (ev->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (!(s->type & PERF_SAMPLE_TID) || !(s->type & PERF_SAMPLE_TIME))
			return -EINVAL;
		return prism_offcpu_fallback__switch(fb, s->time, s->pid, s->tid, s->cpu,
						     ev->sw.out, ev->sw.preempt);
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		prism_offcpu_fallback__lost(fb);
		return 0;
	case PERF_RECORD_SAMPLE:
		if (!is_cs_sample)
			return 0;
		return prism_offcpu_fallback__sample(fb, s->time, s->pid, s->tid, s->cpu,
						     s->callchain, s->callchain_nr);
	default:
		return 0;
	}
}

int prism_offcpu_fallback__finish(struct prism_offcpu_fallback *fb, uint64_t end)
{
	size_t i;
	int err;

	for (i = 0; i < fb->size; i++) {
		struct thread *t = &fb->t[i];

		if (!t->tid || !t->out)
			continue;
		err = report(fb, t, end, t->cpu_out, true);
		if (err)
			return err;
	}
	return 0;
}

const struct prism_offcpu_fallback_stats *
prism_offcpu_fallback__stats(const struct prism_offcpu_fallback *fb)
{
	return &fb->stats;
}
