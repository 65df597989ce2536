/* SPDX-License-Identifier: MIT */
/*
 * The recorder's state, shared by the lib/record/record*.c files.
 */
#ifndef PRISM_RECORD_INTERNAL_H
#define PRISM_RECORD_INTERNAL_H

#include <signal.h>
#include <sys/types.h>

#include <prism/event.h>
#include <prism/record.h>

#include "data/writer.h"
#include "internal.h"
#include "record/aux-ring.h"

struct rec_event {
	struct perf_event_attr attr;
	char *name;
	char *filter; /* the kernel filter applied (user filter and self-exclusion) */
	int leader;
	int nr_members;
	bool tracepoint;
	bool precise_max, weak_group; /* :P, :W (see prism_record_event) */
	bool aux; /* intel_pt: writes the AUX area */
	bool cpu_wide; /* opened once per CPU with pid -1 (intel_pt's switch event) */
	bool all_cpus; /* on every CPU of cpus[], not only the cpu_sel ones */
	uint64_t *ids; /* one per fd */
	size_t nr_ids;
	struct prism_evsel *evsel; /* for parsing its samples (record-stack.c), or NULL */
};

/* one ring buffer (per CPU, or per thread without CPUs) */
struct rec_ring {
	int fd; /* the fd that owns the mapping */
	void *base; /* control page */
	uint8_t *data;
	uint64_t size; /* data bytes, power of two */
	uint64_t tail; /* consumed up to here */
	/* the AUX area (record-aux.c), when the ring's owner is an intel_pt fd */
	void *aux_map;
	size_t aux_len;
	struct aux_ring aux;
};

/* a mapping seen in MMAP/MMAP2 records, for the BUILD_ID feature */
struct rec_map {
	uint32_t pid;
	uint64_t start, end;
	int dso;
};

struct rec_dso {
	char *name;
	bool hit;
	bool kernel;
};

struct prism_record {
	struct prism_record_opts o;
	char *output;
	char *dir; /* --kcore: the output directory (output is DIR/data) */
	struct rec_event *ev;
	size_t nr_ev, cap_ev;

	int *cpus; /* -1 alone for per-thread */
	size_t nr_cpus;
	pid_t *threads; /* -1 alone for system-wide */
	size_t nr_threads;
	bool per_cpu;
	bool *cpu_sel; /* NULL, or per cpus[]: a CPU of -C (intel_pt's side-band on all CPUs) */

	int *fds; /* [ev][cpu][thread] */
	size_t nr_fds;
	struct rec_ring *rings;
	size_t nr_rings;
	size_t page;

	pid_t child;
	int go_fd; /* write end of the pipe the workload waits on */
	int exec_err_fd; /* read end: errno if exec failed */
	int child_pidfd;
	int stop_pipe[2];
	volatile sig_atomic_t stop;
	volatile sig_atomic_t snap_req; /* prism_record__snapshot() asked */
	int track; /* the tracking event (mmap, comm, task...): 0, or perf's dummy:u with intel_pt */
	int aux_ev; /* the intel_pt event, or -1 */
	int switch_ev; /* intel_pt: perf's cpu-wide dummy:u with context switches, or -1 */
	int poke_ev; /* intel_pt of the kernel: perf's cpu-wide dummy:u with text_poke, or -1 */
	int sched_switch; /* AUXTRACE_INFO's have_sched_switch (record-aux.c) */

	struct prism_writer *w;
	bool tp_mounted;
	bool opened;
	bool ident; /* PERF_SAMPLE_IDENTIFIER in every event */
	uint32_t self_pid; /* per-CPU events: drop samples of this pid (0: keep all) */
	uint64_t trailer_type; /* sample_type of event 0 (for synthesized trailers) */
	uint64_t first_time, last_time;

	struct rec_map *maps;
	size_t nr_maps, cap_maps;
	struct rec_dso *dsos;
	size_t nr_dsos, cap_dsos;
	int kernel_dso;
	bool maps_sorted;

	/* --off-cpu (record-offcpu.c) */
	struct prism_offcpu *off;
	uint64_t off_id; /* sample id of the offcpu-time event */
	int64_t off_clock_delta; /* records' clock - CLOCK_MONOTONIC */

	struct prism_record_stats st;
	char err[2048];
	/* a record copied out of a wrapped buffer */
	uint8_t rec_buf[65536 + 8] __attribute__((aligned(8)));
};

__attribute__((format(printf, 2, 3))) int rec_error(struct prism_record *r, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void rec_hint(struct prism_record *r, const char *fmt, ...);

/* kcore.c: --kcore's output directory, and the copy of the kernel's code into it */
int rec_kcore_prepare(struct prism_record *r);
int rec_kcore_copy(struct prism_record *r);

/* record-open.c */
int rec_open_events(struct prism_record *r);
int rec_enable(struct prism_record *r);
void rec_disable(struct prism_record *r);
void rec_close_events(struct prism_record *r);

/* record-ring.c */
size_t rec_ring_bytes(const struct prism_record *r);
int rec_mmap_rings(struct prism_record *r);
void rec_unmap_rings(struct prism_record *r);
/* drain every buffer once; *wrote tells whether anything was written */
int rec_drain(struct prism_record *r, bool *wrote);

/* record-stack.c: --call-graph dwarf samples with their stack copy cut to dyn_size */
/* whether a record of this type may be cut: a sample of a recording with STACK_USER */
bool rec_stack_trimmable(const struct prism_record *r, const struct perf_event_header *h);
/* cut the record at @rec (8-byte aligned, writable) in place; its new size */
size_t rec_stack_trim(struct prism_record *r, uint8_t *rec);
void rec_stack_free(struct prism_record *r);

/* record-synth.c */
int rec_synthesize(struct prism_record *r);
size_t rec_trailer(struct prism_record *r, uint8_t *p, uint32_t pid, uint32_t tid);

/* record-workload.c */
int rec_workload_prepare(struct prism_record *r);
int rec_workload_start(struct prism_record *r);
void rec_workload_kill(struct prism_record *r);

/* record-offcpu.c: the BPF off-CPU engine inside a recording */
int rec_offcpu_open(struct prism_record *r); /* after the fds, before the writer */
int rec_offcpu_add_event(struct prism_record *r); /* the offcpu-time attr, to the writer */
int rec_offcpu_start(struct prism_record *r); /* before the workload is released */
int rec_offcpu_poll_fd(const struct prism_record *r); /* -1 when none */
int rec_offcpu_drain(struct prism_record *r); /* write the long blocks seen so far */
int rec_offcpu_finish(struct prism_record *r); /* stop and write everything */
void rec_offcpu_free(struct prism_record *r);

/* record-aux.c: the AUX area of intel_pt events */
int rec_aux_prepare(struct prism_record *r); /* after the events are added */
/* -C with intel_pt: the tracking event on every CPU (after the CPUs are known) */
int rec_aux_targets(struct prism_record *r);
/* the attr bits of perf's switch and tracking events for intel_pt (end of rec_configure) */
void rec_aux_configure(struct prism_record *r);
int rec_aux_mmap(struct prism_record *r, struct rec_ring *rg, size_t c);
void rec_aux_unmap(struct rec_ring *rg);
int rec_aux_info(struct prism_record *r); /* AUXTRACE_INFO and TIME_CONV, after the header */
int rec_aux_drain(struct prism_record *r, struct rec_ring *rg, bool *wrote);
int rec_aux_snapshot(struct prism_record *r);
/*
 * pt-filter.c: an intel_pt --filter ("filter main @ /bin/prog, stop 0x1234")
 * with functions turned into file offsets, as the kernel takes it; -EINVAL
 * with @err saying why
 */
int pt_filter_resolve(const char *in, char **out, char *err, size_t elen);
/* perf_event_open() refused the intel_pt event @ev with errno @err: the message */
void rec_aux_open_error(struct prism_record *r, const struct rec_event *ev, int err);
/* the fd of the intel_pt event on CPU index @c (first thread), or -1 */
int rec_aux_fd(const struct prism_record *r, size_t c);

/* record-buildid.c */
void rec_track_mmap(struct prism_record *r, const uint8_t *rec, bool mmap2);
void rec_track_sample(struct prism_record *r, uint32_t pid, uint64_t ip, uint16_t misc);
int rec_add_build_ids(struct prism_record *r);
void rec_free_dsos(struct prism_record *r);

#endif /* PRISM_RECORD_INTERNAL_H */
