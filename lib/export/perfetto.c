// SPDX-License-Identifier: MIT
/*
 * A Perfetto trace, streamed.  Field numbers from Perfetto's protos
 * (protos/perfetto/trace/...): Trace.packet 1; TracePacket ftrace_events 1,
 * timestamp 8, trusted_packet_sequence_id 10, track_event 11,
 * interned_data 12, sequence_flags 13, incremental_state_cleared 41,
 * track_descriptor 60, perf_sample 66.  Repeated scalars are written
 * unpacked, as proto2 declares them.
 */
#include <inttypes.h>
#include <stdio.h>

#include <prism/export-perfetto.h>
#include <prism/strbuf.h>

#include "internal.h"
#include "export/intern.h"
#include "export/protobuf.h"

enum {
	TRACE_PACKET = 1,
	TP_FTRACE_EVENTS = 1,
	TP_TIMESTAMP = 8,
	TP_SEQ_ID = 10,
	TP_TRACK_EVENT = 11,
	TP_INTERNED_DATA = 12,
	TP_SEQUENCE_FLAGS = 13,
	TP_INCREMENTAL_STATE_CLEARED = 41,
	TP_TRACK_DESCRIPTOR = 60,
	TP_PERF_SAMPLE = 66,
};
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };
enum {
	TD_UUID = 1,
	TD_NAME = 2,
	TD_PROCESS = 3,
	TD_THREAD = 4,
	TD_PARENT_UUID = 5,
	TD_COUNTER = 8
};
enum { PD_PID = 1, PD_PROCESS_NAME = 6 };
enum { THD_PID = 1, THD_TID = 2, THD_THREAD_NAME = 5 };
enum { CD_UNIT_NAME = 6 };
enum { TE_TYPE = 9, TE_TRACK_UUID = 11, TE_CATEGORIES = 22, TE_NAME = 23, TE_COUNTER_VALUE = 30 };
enum { TE_SLICE_BEGIN = 1, TE_SLICE_END = 2, TE_COUNTER = 4 };
enum { FB_CPU = 1, FB_EVENT = 2 };
enum {
	FE_TIMESTAMP = 1,
	FE_PID = 2,
	FE_SCHED_SWITCH = 4,
	FE_SCHED_WAKEUP = 17,
	FE_SCHED_WAKING = 20
};
enum { SS_PREV_COMM = 1, SS_PREV_PID = 2, SS_PREV_STATE = 4, SS_NEXT_COMM = 5, SS_NEXT_PID = 6 };
enum { SW_COMM = 1, SW_PID = 2, SW_SUCCESS = 4, SW_TARGET_CPU = 5 };
enum {
	ID_FUNCTION_NAMES = 5,
	ID_FRAMES = 6,
	ID_CALLSTACKS = 7,
	ID_BUILD_IDS = 16,
	ID_MAPPING_PATHS = 17,
	ID_MAPPINGS = 19,
};
enum { IS_IID = 1, IS_STR = 2 };
enum { MAP_IID = 1, MAP_BUILD_ID = 2, MAP_PATH_STRING_IDS = 7 };
enum { FR_IID = 1, FR_FUNCTION_NAME_ID = 2, FR_MAPPING_ID = 3, FR_REL_PC = 4 };
enum { CS_IID = 1, CS_FRAME_IDS = 2 };
enum { PS_CPU = 1, PS_PID = 2, PS_TID = 3, PS_CALLSTACK_IID = 4, PS_CPU_MODE = 5 };
enum { MODE_KERNEL = 1, MODE_USER = 2 };

#define SEQ_ID 1
#define BUNDLE_MAX 512
#define UUID_PROCESS(pid) ((1ull << 32) | (pid))
#define UUID_THREAD(tid) ((2ull << 32) | (tid))
#define UUID_CPU_SLICES(cpu) ((3ull << 32) | (cpu))
#define UUID_CPU_UTIL(cpu) ((4ull << 32) | (cpu))

struct task {
	uint32_t pid;
	char comm[16];
};

struct cpu {
	bool slices_described, util_described, seen;
	bool busy;
	uint64_t last; /* time accounted up to */
	uint64_t win; /* start of the current window */
	uint64_t busy_ns; /* in the current window */
	int64_t last_value; /* last counter value written, -1 none */
};

struct prism_perfetto {
	struct pb_sink *sink;
	uint64_t window;
	struct pairmap task_idx;
	struct task *tasks;
	size_t nr_tasks, alloc_tasks;
	struct cpu *cpus;
	size_t nr_cpus;
	/* the open ftrace bundle */
	struct pb bundle;
	uint32_t bundle_cpu;
	size_t bundle_n;
	/* interning for samples: iid = index + 1 */
	struct strtab funcs, paths, build_ids, stacks;
	size_t funcs_done, paths_done, build_ids_done;
	struct pairmap mappings, frames;
	uint64_t nr_mappings, nr_frames, nr_stacks;
	uint64_t *ids;
	size_t alloc_ids;
	struct prism_strbuf key;
	struct pb pkt, msg, sub, interned, item;
	struct prism_perfetto_stats st;
	int err;
};

static int emit(struct prism_perfetto *pf)
{
	if (pf->err)
		return pf->err;
	if (pf->pkt.failed)
		return pf->err = -ENOMEM;
	pf->st.packets++;
	pf->err = pb_sink_msg(pf->sink, TRACE_PACKET, &pf->pkt);
	pb_reset(&pf->pkt);
	return pf->err;
}

struct prism_perfetto *prism_perfetto__new(FILE *fp, const struct prism_perfetto_opts *opts)
{
	struct prism_perfetto *pf = calloc(1, sizeof(*pf));

	if (!pf)
		return NULL;
	pf->window = opts && opts->util_window ? opts->util_window : 10000000;
	prism_strbuf_init(&pf->key);
	pf->sink = pb_sink_new(fp, false);
	if (!pf->sink) {
		free(pf);
		return NULL;
	}
	/* the sequence starts with its interned state cleared */
	pb_varint(&pf->pkt, TP_SEQ_ID, SEQ_ID);
	pb_varint(&pf->pkt, TP_INCREMENTAL_STATE_CLEARED, 1);
	pb_varint(&pf->pkt, TP_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	if (emit(pf)) {
		prism_perfetto__free(pf);
		errno = EIO;
		return NULL;
	}
	return pf;
}

static void descriptor(struct prism_perfetto *pf)
{
	pb_varint(&pf->pkt, TP_SEQ_ID, SEQ_ID);
	pb_msg(&pf->pkt, TP_TRACK_DESCRIPTOR, &pf->msg);
	emit(pf);
}

int prism_perfetto__task(struct prism_perfetto *pf, uint32_t pid, uint32_t tid, const char *comm)
{
	struct task *t;
	uint64_t idx;
	int ret;

	if (pf->err || !tid)
		return pf->err; /* the idle task has the CPU tracks */
	ret = pairmap_get_or_add(&pf->task_idx, tid, 0, pf->nr_tasks, &idx);
	if (ret < 0)
		return pf->err = -ENOMEM;
	if (ret == 1) {
		if (prism_ensure_mem((void **)&pf->tasks, &pf->alloc_tasks, sizeof(*pf->tasks),
				     pf->nr_tasks + 1))
			return pf->err = -ENOMEM;
		t = &pf->tasks[pf->nr_tasks++];
		memset(t, 0, sizeof(*t));
		pf->st.tasks++;
	}
	t = &pf->tasks[idx];
	if (ret == 0 && (!pid || pid == t->pid) &&
	    (!comm || !strncmp(t->comm, comm, sizeof(t->comm) - 1)))
		return 0;
	if (pid)
		t->pid = pid;
	if (comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	if (!t->pid)
		t->pid = tid;
	/* the process (named by its main thread), then the thread */
	if (t->pid == tid || ret == 1) {
		pb_reset(&pf->msg);
		pb_reset(&pf->sub);
		pb_varint(&pf->msg, TD_UUID, UUID_PROCESS(t->pid));
		pb_varint(&pf->sub, PD_PID, t->pid);
		if (t->pid == tid && t->comm[0])
			pb_string(&pf->sub, PD_PROCESS_NAME, t->comm);
		pb_msg(&pf->msg, TD_PROCESS, &pf->sub);
		descriptor(pf);
	}
	pb_reset(&pf->msg);
	pb_reset(&pf->sub);
	pb_varint(&pf->msg, TD_UUID, UUID_THREAD(tid));
	pb_varint(&pf->msg, TD_PARENT_UUID, UUID_PROCESS(t->pid));
	pb_varint(&pf->sub, THD_PID, t->pid);
	pb_varint(&pf->sub, THD_TID, tid);
	if (t->comm[0])
		pb_string(&pf->sub, THD_THREAD_NAME, t->comm);
	pb_msg(&pf->msg, TD_THREAD, &pf->sub);
	descriptor(pf);
	return pf->err;
}

static struct cpu *cpu_of(struct prism_perfetto *pf, uint32_t cpu)
{
	if (cpu >= 65536)
		return NULL; /* not a CPU number a file can mean */
	if (cpu >= pf->nr_cpus) {
		size_t n = (size_t)cpu + 1, i;
		struct cpu *c = prism_reallocarray(pf->cpus, n, sizeof(*c));

		if (!c) {
			pf->err = -ENOMEM;
			return NULL;
		}
		memset(c + pf->nr_cpus, 0, (n - pf->nr_cpus) * sizeof(*c));
		for (i = pf->nr_cpus; i < n; i++)
			c[i].last_value = -1;
		pf->cpus = c;
		pf->nr_cpus = n;
	}
	return &pf->cpus[cpu];
}

static void flush_bundle(struct prism_perfetto *pf)
{
	if (!pf->bundle_n)
		return;
	pb_reset(&pf->msg);
	pb_varint(&pf->msg, FB_CPU, pf->bundle_cpu);
	pb_raw(&pf->msg, pf->bundle.buf, pf->bundle.len);
	if (pf->bundle.failed)
		pf->msg.failed = true;
	pb_varint(&pf->pkt, TP_SEQ_ID, SEQ_ID);
	pb_msg(&pf->pkt, TP_FTRACE_EVENTS, &pf->msg);
	emit(pf);
	pb_reset(&pf->bundle);
	pf->bundle_n = 0;
}

/* one FtraceEvent (its body in pf->sub, as field @field) into the bundle of @cpu */
static void ftrace_event(struct prism_perfetto *pf, uint32_t cpu, uint64_t time, uint32_t pid,
			 unsigned int field)
{
	if (pf->bundle_n && (pf->bundle_cpu != cpu || pf->bundle_n >= BUNDLE_MAX))
		flush_bundle(pf);
	pf->bundle_cpu = cpu;
	pb_reset(&pf->item);
	pb_varint(&pf->item, FE_TIMESTAMP, time);
	pb_varint(&pf->item, FE_PID, pid);
	pb_msg(&pf->item, field, &pf->sub);
	pb_msg(&pf->bundle, FB_EVENT, &pf->item);
	pf->bundle_n++;
}

static void counter_track(struct prism_perfetto *pf, uint32_t cpu)
{
	char name[48];

	snprintf(name, sizeof(name), "CPU %u utilization", cpu);
	pb_reset(&pf->msg);
	pb_reset(&pf->sub);
	pb_varint(&pf->msg, TD_UUID, UUID_CPU_UTIL(cpu));
	pb_string(&pf->msg, TD_NAME, name);
	pb_string(&pf->sub, CD_UNIT_NAME, "%");
	pb_msg(&pf->msg, TD_COUNTER, &pf->sub);
	descriptor(pf);
}

static void counter(struct prism_perfetto *pf, uint32_t cpu, struct cpu *c, uint64_t time,
		    int64_t value)
{
	if (value == c->last_value)
		return;
	if (!c->util_described) {
		counter_track(pf, cpu);
		c->util_described = true;
	}
	c->last_value = value;
	pb_reset(&pf->msg);
	pb_varint(&pf->msg, TE_TYPE, TE_COUNTER);
	pb_varint(&pf->msg, TE_TRACK_UUID, UUID_CPU_UTIL(cpu));
	pb_varint(&pf->msg, TE_COUNTER_VALUE, (uint64_t)value);
	pb_varint(&pf->pkt, TP_TIMESTAMP, time);
	pb_varint(&pf->pkt, TP_SEQ_ID, SEQ_ID);
	pb_msg(&pf->pkt, TP_TRACK_EVENT, &pf->msg);
	emit(pf);
	pf->st.counters++;
}

/* charge @c's state up to @now, writing the utilization of every window that ends */
static void account(struct prism_perfetto *pf, uint32_t cpu, struct cpu *c, uint64_t now)
{
	if (!c->seen) {
		c->seen = true;
		c->win = now - now % pf->window;
		c->last = now;
		return;
	}
	if (now < c->last)
		return; /* out of order: nothing to add */
	while (now >= c->win + pf->window) {
		uint64_t end = c->win + pf->window;

		if (c->busy)
			c->busy_ns += end - c->last;
		counter(pf, cpu, c, c->win, (int64_t)(c->busy_ns * 100 / pf->window));
		c->busy_ns = 0;
		c->last = end;
		c->win = end;
		/* a long stretch without a switch: jump to the window of @now */
		if (now >= c->win + pf->window && !c->busy) {
			counter(pf, cpu, c, c->win, 0);
			c->win = now - now % pf->window;
			c->last = c->win;
		}
	}
	if (c->busy)
		c->busy_ns += now - c->last;
	c->last = now;
}

int prism_perfetto__switch(struct prism_perfetto *pf, uint32_t cpu, uint64_t time,
			   uint32_t prev_tid, const char *prev_comm, int64_t prev_state,
			   uint32_t next_tid, const char *next_comm)
{
	struct cpu *c = cpu_of(pf, cpu);

	if (!c)
		return pf->err;
	account(pf, cpu, c, time);
	c->busy = next_tid != 0;
	pb_reset(&pf->sub);
	if (prev_comm)
		pb_string(&pf->sub, SS_PREV_COMM, prev_comm);
	pb_varint(&pf->sub, SS_PREV_PID, prev_tid);
	pb_varint(&pf->sub, SS_PREV_STATE, (uint64_t)prev_state);
	if (next_comm)
		pb_string(&pf->sub, SS_NEXT_COMM, next_comm);
	pb_varint(&pf->sub, SS_NEXT_PID, next_tid);
	ftrace_event(pf, cpu, time, prev_tid, FE_SCHED_SWITCH);
	pf->st.switches++;
	return pf->err;
}

int prism_perfetto__waking(struct prism_perfetto *pf, uint32_t cpu, uint64_t time, uint32_t waker,
			   uint32_t tid, const char *comm, bool wakeup)
{
	pb_reset(&pf->sub);
	if (comm)
		pb_string(&pf->sub, SW_COMM, comm);
	pb_varint(&pf->sub, SW_PID, tid);
	pb_varint(&pf->sub, SW_SUCCESS, 1);
	pb_varint(&pf->sub, SW_TARGET_CPU, cpu);
	/* sched_wakeup and sched_waking share their field numbers */
	ftrace_event(pf, cpu, time, waker, wakeup ? FE_SCHED_WAKEUP : FE_SCHED_WAKING);
	pf->st.wakings++;
	return pf->err;
}

static void slice_event(struct prism_perfetto *pf, uint64_t track, uint64_t time, int type,
			const struct prism_perfetto_slice *s)
{
	pb_reset(&pf->msg);
	pb_varint(&pf->msg, TE_TYPE, type);
	pb_varint(&pf->msg, TE_TRACK_UUID, track);
	if (type == TE_SLICE_BEGIN) {
		pb_string(&pf->msg, TE_CATEGORIES, s->category);
		pb_string(&pf->msg, TE_NAME, s->name);
	}
	pb_varint(&pf->pkt, TP_TIMESTAMP, time);
	pb_varint(&pf->pkt, TP_SEQ_ID, SEQ_ID);
	pb_msg(&pf->pkt, TP_TRACK_EVENT, &pf->msg);
	emit(pf);
}

int prism_perfetto__slice(struct prism_perfetto *pf, const struct prism_perfetto_slice *s)
{
	uint64_t track;

	if (s->track == PRISM_PERFETTO_CPU) {
		struct cpu *c = cpu_of(pf, s->cpu);
		char name[48];

		if (!c)
			return pf->err;
		track = UUID_CPU_SLICES(s->cpu);
		if (!c->slices_described) {
			snprintf(name, sizeof(name), "CPU %u irq", s->cpu);
			pb_reset(&pf->msg);
			pb_varint(&pf->msg, TD_UUID, track);
			pb_string(&pf->msg, TD_NAME, name);
			descriptor(pf);
			c->slices_described = true;
		}
	} else {
		if (!s->tid)
			return pf->err;
		prism_perfetto__task(pf, s->pid, s->tid, NULL);
		track = UUID_THREAD(s->tid);
	}
	slice_event(pf, track, s->start, TE_SLICE_BEGIN, s);
	slice_event(pf, track, s->end, TE_SLICE_END, s);
	pf->st.slices++;
	return pf->err;
}

static void interned_string(struct prism_perfetto *pf, unsigned int field, uint64_t iid,
			    const char *s)
{
	pb_reset(&pf->item);
	pb_varint(&pf->item, IS_IID, iid);
	pb_string(&pf->item, IS_STR, s);
	pb_msg(&pf->interned, field, &pf->item);
}

static uint64_t intern_str(struct prism_perfetto *pf, struct strtab *t, size_t *done,
			   unsigned int field, const char *s)
{
	uint64_t idx = 0;

	if (strtab_intern(t, s, &idx)) {
		pf->err = -ENOMEM;
		return 0;
	}
	for (; *done < t->nr; (*done)++)
		interned_string(pf, field, *done + 1, t->str[*done]);
	return idx + 1;
}

static uint64_t mapping_iid(struct prism_perfetto *pf, const struct prism_frame *f)
{
	uint64_t iid, path, bid = 0;
	char hex[64];
	int ret;

	if (!f->dso)
		return 0;
	ret = pairmap_get_or_add(&pf->mappings, (uintptr_t)f->dso, 0, pf->nr_mappings + 1, &iid);
	if (ret <= 0) {
		if (ret < 0)
			pf->err = -ENOMEM;
		return ret < 0 ? 0 : iid;
	}
	pf->nr_mappings++;
	path = intern_str(pf, &pf->paths, &pf->paths_done, ID_MAPPING_PATHS, f->dso_path);
	if (prism_dso__build_id(f->dso, hex, sizeof(hex)) && hex[0])
		bid = intern_str(pf, &pf->build_ids, &pf->build_ids_done, ID_BUILD_IDS, hex);
	pb_reset(&pf->sub);
	pb_varint(&pf->sub, MAP_IID, iid);
	if (bid)
		pb_varint(&pf->sub, MAP_BUILD_ID, bid);
	pb_varint(&pf->sub, MAP_PATH_STRING_IDS, path);
	pb_msg(&pf->interned, ID_MAPPINGS, &pf->sub);
	return iid;
}

static uint64_t frame_iid(struct prism_perfetto *pf, const struct prism_frame *f)
{
	uint64_t map = mapping_iid(pf, f), fn = 0, iid;
	uint64_t pc = f->dso ? f->dso_addr : f->ip;
	int ret;

	if (f->sym)
		fn = intern_str(pf, &pf->funcs, &pf->funcs_done, ID_FUNCTION_NAMES, f->sym);
	ret = pairmap_get_or_add(&pf->frames, map | fn << 32, pc, pf->nr_frames + 1, &iid);
	if (ret < 0) {
		pf->err = -ENOMEM;
		return 0;
	}
	if (ret == 1) {
		pf->nr_frames++;
		pb_reset(&pf->sub);
		pb_varint(&pf->sub, FR_IID, iid);
		if (fn)
			pb_varint(&pf->sub, FR_FUNCTION_NAME_ID, fn);
		if (map)
			pb_varint(&pf->sub, FR_MAPPING_ID, map);
		pb_varint(&pf->sub, FR_REL_PC, pc);
		pb_msg(&pf->interned, ID_FRAMES, &pf->sub);
	}
	return iid;
}

static uint64_t callstack_iid(struct prism_perfetto *pf, const struct prism_frame *frames,
			      size_t nr)
{
	size_t i, before = pf->stacks.nr;
	uint64_t idx;

	if (prism_ensure_mem((void **)&pf->ids, &pf->alloc_ids, sizeof(*pf->ids), nr)) {
		pf->err = -ENOMEM;
		return 0;
	}
	prism_strbuf_reset(&pf->key);
	for (i = 0; i < nr; i++) {
		pf->ids[i] = frame_iid(pf, &frames[nr - 1 - i]); /* bottom frame first */
		prism_strbuf_addf(&pf->key, "%" PRIx64 ",", pf->ids[i]);
	}
	if (prism_strbuf_failed(&pf->key) || strtab_intern(&pf->stacks, pf->key.buf, &idx)) {
		pf->err = -ENOMEM;
		return 0;
	}
	if (pf->stacks.nr > before) {
		pb_reset(&pf->sub);
		pb_varint(&pf->sub, CS_IID, idx + 1);
		for (i = 0; i < nr; i++)
			pb_varint(&pf->sub, CS_FRAME_IDS, pf->ids[i]);
		pb_msg(&pf->interned, ID_CALLSTACKS, &pf->sub);
	}
	return idx + 1;
}

int prism_perfetto__sample(struct prism_perfetto *pf, uint32_t cpu, uint32_t pid, uint32_t tid,
			   uint64_t time, bool kernel, const struct prism_frame *frames, size_t nr)
{
	uint64_t cs = 0;

	if (pf->err)
		return pf->err;
	prism_perfetto__task(pf, pid, tid, NULL);
	pb_reset(&pf->interned);
	if (nr)
		cs = callstack_iid(pf, frames, nr);
	pb_reset(&pf->msg);
	pb_varint(&pf->msg, PS_CPU, cpu);
	pb_varint(&pf->msg, PS_PID, pid);
	pb_varint(&pf->msg, PS_TID, tid);
	if (cs)
		pb_varint(&pf->msg, PS_CALLSTACK_IID, cs);
	pb_varint(&pf->msg, PS_CPU_MODE, kernel ? MODE_KERNEL : MODE_USER);
	pb_varint(&pf->pkt, TP_TIMESTAMP, time);
	pb_varint(&pf->pkt, TP_SEQ_ID, SEQ_ID);
	pb_varint(&pf->pkt, TP_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	if (pf->interned.len)
		pb_msg(&pf->pkt, TP_INTERNED_DATA, &pf->interned);
	pb_msg(&pf->pkt, TP_PERF_SAMPLE, &pf->msg);
	emit(pf);
	pf->st.samples++;
	return pf->err;
}

int prism_perfetto__finish(struct prism_perfetto *pf, uint64_t end, struct prism_perfetto_stats *st)
{
	size_t i;
	int err;

	flush_bundle(pf);
	for (i = 0; i < pf->nr_cpus && !pf->err; i++) {
		struct cpu *c = &pf->cpus[i];

		if (!c->seen || end <= c->last)
			continue;
		account(pf, (uint32_t)i, c, end);
		/* the last, partial window */
		if (end > c->win)
			counter(pf, (uint32_t)i, c, c->win,
				(int64_t)(c->busy_ns * 100 / (end - c->win)));
	}
	pf->st.bytes = pb_sink_bytes(pf->sink);
	if (st)
		*st = pf->st;
	err = pb_sink_finish(pf->sink);
	pf->sink = NULL;
	return pf->err ? pf->err : err;
}

void prism_perfetto__free(struct prism_perfetto *pf)
{
	if (!pf)
		return;
	pb_sink_finish(pf->sink);
	pairmap_release(&pf->task_idx);
	free(pf->tasks);
	free(pf->cpus);
	strtab_release(&pf->funcs);
	strtab_release(&pf->paths);
	strtab_release(&pf->build_ids);
	strtab_release(&pf->stacks);
	pairmap_release(&pf->mappings);
	pairmap_release(&pf->frames);
	free(pf->ids);
	prism_strbuf_release(&pf->key);
	pb_release(&pf->bundle);
	pb_release(&pf->pkt);
	pb_release(&pf->msg);
	pb_release(&pf->sub);
	pb_release(&pf->interned);
	pb_release(&pf->item);
	free(pf);
}
