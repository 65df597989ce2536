/* SPDX-License-Identifier: MIT */
/*
 * Recording with perf_event_open into a perf.data file (or a pipe-mode
 * stream) that perf reads.  The library form of `prism record`, made to be
 * called by other commands, which then read the file back with session.h:
 *
 *	struct prism_record_opts o = { .events = specs, .argv = cmd, .output = "x.data" };
 *	struct prism_record *r = prism_record__new(&o);
 *	if (!r || prism_record__open(r))      -> prism_record__error(r)
 *	prism_record__run(r);                  until the workload ends, --duration,
 *	                                       or prism_record__stop() (signal-safe)
 *	prism_record__stats(r)->samples ...
 *	prism_record__free(r);
 *
 * Events: per CPU (system-wide, -C) or per task (workload, -p, -t) fds, each
 * group opened with group_fd so its members are scheduled together; one ring
 * buffer per CPU (other fds of that CPU redirected with
 * PERF_EVENT_IOC_SET_OUTPUT); all leaders enabled after every fd is open (or
 * by enable_on_exec at the workload's exec).  Each drain pass over the
 * buffers ends with FINISHED_ROUND.  prism's own threads are excluded from
 * tracepoints (filter "common_pid != <tid> && ...", sched:* ones kept with
 * include_self_sched) and its samples of other per-CPU events are left out
 * while draining, unless include_self.
 */
#ifndef PRISM_RECORD_H
#define PRISM_RECORD_H

#include <linux/perf_event.h>
#include <prism/core.h>
#include <prism/offcpu.h>

struct prism_evspecs;
struct prism_strbuf;
struct prism_record;

enum prism_callgraph_mode {
	PRISM_CALLGRAPH_NONE,
	PRISM_CALLGRAPH_FP, /* PERF_SAMPLE_CALLCHAIN (frame pointers) */
	PRISM_CALLGRAPH_DWARF, /* REGS_USER + STACK_USER, user unwinding later */
};

struct prism_record_opts {
	struct prism_evspecs *events; /* parsed -e list; NULL: cpu-clock (see add_event) */
	bool system_wide; /* -a */
	const char *cpu_list; /* -C "0-3,6" (implies per-CPU) */
	const char *pid_list; /* -p "12,34": every thread of these processes */
	const char *tid_list; /* -t "56": these threads only */
	const char *const *argv; /* workload, NULL-terminated; NULL for none */
	double duration; /* seconds, 0 = until stopped */
	const char *output; /* path (default "perf.data"); "-" = pipe mode on output_fd */
	int output_fd; /* pipe mode: the fd to write to ("-": 1) */
	bool keep_old; /* rename an existing output to OUTPUT.old (default in the CLI) */
	size_t mmap_bytes; /* ring buffer data bytes per CPU; 0 = 128M / CPUs in [2M, 32M] (2^n pages) */
	uint64_t freq; /* -F, samples/s for events without their own period/freq (default 4000) */
	uint64_t period; /* -c, fixed period (overrides freq) */
	enum prism_callgraph_mode callgraph;
	uint32_t dwarf_stack_size; /* default 8192 */
	bool sample_cpu; /* --sample-cpu (always on per-CPU and for tracepoints) */
	bool data_addr; /* -d: PERF_SAMPLE_ADDR and data mmaps */
	bool switch_events; /* --switch-events */
	bool use_clockid; /* -k */
	int clockid;
	bool namespaces; /* --namespaces */
	bool all_cgroups; /* --all-cgroups: PERF_SAMPLE_CGROUP + CGROUP records */
	int compress_level; /* -z: 0 none, else zstd level */
	bool include_self; /* trace prism itself too */
	/*
	 * Exclude prism only from the tracepoints that are its own activity
	 * (syscalls, interrupts, ...), not from sched:* ones: a CPU's chain of
	 * switches stays whole, and prism's own on-CPU time stays true.  Its
	 * samples of events that are not tracepoints are then kept too.
	 */
	bool include_self_sched;
	/*
	 * Record the workload from its release, its exec included (its first
	 * image is prism's child), not from its exec (enable_on_exec): all
	 * of its CPU time as the kernel accounts it (rusage) is then recorded.
	 */
	bool workload_from_start;
	bool no_buildid; /* skip the BUILD_ID feature */
	/*
	 * perf's build-id cache to fill, as perf record does (~/.debug): the
	 * kernel's kallsyms and a copy of each sampled binary under its build
	 * id; NULL = none (perf record -N)
	 */
	const char *buildid_cache;
	int cmdline_argc; /* CMDLINE feature */
	const char *const *cmdline_argv;
	/*
	 * Off-CPU time with BPF (lib/record/record-offcpu.c), NULL for none:
	 * the engine's options; its cpus, pids, tids and follow_children are
	 * set from -C / -p / -t / the command.  The filter is armed before the
	 * workload is released; the results are written as offcpu-time samples
	 * (include/prism/offcpu-data.h).  Forces -k CLOCK_MONOTONIC (the BPF
	 * clock) unless another clockid is given (then the times are converted).
	 */
	const struct prism_offcpu_opts *offcpu;
	/*
	 * Called by run() right before the events are enabled (@end false)
	 * and right after they are disabled (@end true), e.g. to read the
	 * kernel's own accounting at the edges of the recording; @workload is
	 * the pid of the workload (held before its exec at the start), or 0.
	 * NULL: none.
	 */
	void (*edge)(void *ctx, bool end, int workload);
	void *edge_ctx;
	/*
	 * The util accounting check's section (PRISM_FEAT_UTIL_CHECK,
	 * prism_util_check__save()), read when the file is finished, after
	 * edge(end): written when not empty (file mode only).  NULL: none.
	 */
	const struct prism_strbuf *util_check;
	/*
	 * --kcore (perf record --kcore): the output is a directory, OUTPUT/data
	 * the perf.data and OUTPUT/kcore_dir the kernel's code
	 * (prism_kcore__copy() from /proc) copied before the events are enabled
	 */
	bool kcore;
	/* the directory read as /proc for --kcore (perf's guest root + /proc); NULL: /proc */
	const char *kcore_proc;
	/*
	 * AUX area (intel_pt events, lib/record/record-aux.c): bytes per
	 * buffer, a power of two of pages (0: perf's default, 4 MiB as root,
	 * 128 KiB otherwise).  aux_snapshot: snapshot mode (the hardware
	 * overwrites the area; prism_record__snapshot() writes what it holds,
	 * at most snapshot_size bytes, 0: the whole area); snapshot_on_exit:
	 * one more at the end.
	 */
	size_t aux_bytes;
	bool aux_snapshot;
	uint64_t snapshot_size;
	bool snapshot_on_exit;
};

/* an event added by code instead of an -e string */
struct prism_record_event {
	struct perf_event_attr attr; /* type, config, exclude_*, period/freq if fixed */
	const char *name; /* perf's name ("cpu-clock", "sched:sched_switch") */
	int leader; /* index of its group leader; own index (or -1) for a single event */
	int nr_members; /* on leaders of groups: members including itself */
	bool user_period; /* keep attr's period/freq instead of -F/-c */
	bool precise_max; /* lower attr.precise_ip until the PMU takes it (:P) */
	bool weak_group; /* on a leader: open the members apart if the group fails (:W) */
	const char *filter; /* tracepoint filter, intel_pt address filter, or NULL */
	/*
	 * intel_pt: the event writes an AUX area; the recording then adds a
	 * dummy:u tracking event with context switches, maps the area and
	 * writes AUXTRACE_INFO and AUXTRACE records as perf record does
	 */
	bool aux;
};

struct prism_record_stats {
	uint64_t samples; /* SAMPLE records written */
	uint64_t records; /* all kernel records written */
	uint64_t lost; /* sum of LOST.lost (ring buffer full) */
	uint64_t lost_records; /* LOST records */
	uint64_t lost_samples; /* sum of LOST_SAMPLES.lost */
	uint64_t throttle; /* THROTTLE records */
	uint64_t self_dropped; /* samples of prism itself left out (per-CPU, non-tracepoint) */
	uint64_t rounds; /* drain passes that wrote data */
	uint64_t bytes; /* bytes of the output */
	uint64_t raw_bytes; /* ring-buffer bytes before compression */
	uint64_t comp_bytes; /* what they were compressed to (COMPRESSED payloads) */
	uint64_t nr_fds, nr_buffers;
	size_t mmap_bytes; /* data bytes per ring buffer */
	bool workload_exited;
	int workload_status; /* wait status of the workload */
	uint64_t workload_exit_ns; /* CLOCK_MONOTONIC when its exit was seen */
	uint64_t end_ns; /* CLOCK_MONOTONIC when the output was complete */
	int write_error; /* -errno of the first write error, or 0 */
	/* --off-cpu: offcpu-time samples written, and the BPF side's counters */
	uint64_t offcpu_samples;
	uint64_t offcpu_ns; /* off-CPU time written */
	uint64_t offcpu_blocks; /* blocks those samples hold (what prism offcpu counts) */
	bool offcpu_stats_valid;
	struct prism_offcpu_stats offcpu_stats;
};

/* NULL with errno on bad options; prism_record_new_error() then says why */
PRISM_API struct prism_record *prism_record__new(const struct prism_record_opts *opts);
PRISM_API const char *prism_record_new_error(void);
PRISM_API void prism_record__free(struct prism_record *r); /* accepts NULL */

/* add an event by hand (before open); opts->events are added by open */
PRISM_API int prism_record__add_event(struct prism_record *r, const struct prism_record_event *ev);

/*
 * Open every event, map the buffers, start the workload held before exec,
 * synthesize the existing tasks and write the file header.  On error
 * prism_record__error() holds a full message: first line the error,
 * following lines "hint: ..." fixes.
 */
PRISM_API int prism_record__open(struct prism_record *r);

/*
 * Enable the events (release the workload), drain the buffers until the
 * workload ends, the duration passes or prism_record__stop() is called;
 * then drain what is left and finish the file.  Returns 0, or the first
 * error (a write error leaves a readable file that holds what was written).
 */
PRISM_API int prism_record__run(struct prism_record *r);

/* ask run() to finish; async-signal-safe */
PRISM_API void prism_record__stop(struct prism_record *r);
/* snapshot mode: ask run() to write the AUX areas' contents (SIGUSR2); async-signal-safe */
PRISM_API void prism_record__snapshot(struct prism_record *r);

PRISM_API const struct prism_record_stats *prism_record__stats(const struct prism_record *r);
PRISM_API const char *prism_record__error(const struct prism_record *r);
/* the output path written ("<stdout>" in pipe mode) */
PRISM_API const char *prism_record__output(const struct prism_record *r);
/* whether tracefs had to be mounted by open() (the CLI says so) */
PRISM_API bool prism_record__mounted_tracefs(const struct prism_record *r);

/*
 * prism_kcore__copy - the kernel's code as perf record --kcore copies it
 * @from: a directory with kallsyms, modules and kcore ("/proc")
 * @to: the directory to create (mode 0700; it must not exist) with copies of
 *	kallsyms and modules and an ELF file kcore with only the code segments
 *	of @from/kcore: the kernel's text, the modules and the entry trampolines
 * @msg: what failed and where, when it returns an error (@msg_len bytes)
 *
 * Return: 0, or -errno (nothing is left in @to then); -EAGAIN when kallsyms
 * changed during the copy (a module came or went).
 */
PRISM_API int prism_kcore__copy(const char *from, const char *to, char *msg, size_t msg_len);

#endif /* PRISM_RECORD_H */
