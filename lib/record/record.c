// SPDX-License-Identifier: MIT
/*
 * prism_record: options, events, the run loop and the end of a recording.
 * Opening fds is in record-open.c, ring buffers in record-ring.c, /proc
 * synthesis in record-synth.c, the workload in record-workload.c, build ids
 * in record-buildid.c.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/features.h>
#include <prism/strbuf.h>
#include <prism/tracefs.h>
#include <prism/tracing-data.h>

#include "record/record-internal.h"

#define DEFAULT_FREQ 4000

static char new_error[512];

const char *prism_record_new_error(void)
{
	return new_error;
}

int rec_error(struct prism_record *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	return -1;
}

void rec_hint(struct prism_record *r, const char *fmt, ...)
{
	size_t n = strlen(r->err);
	va_list ap;

	if (n + 8 >= sizeof(r->err))
		return;
	memcpy(r->err + n, "\nhint: ", 7);
	n += 7;
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - n, fmt, ap);
	va_end(ap);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct prism_record *prism_record__new(const struct prism_record_opts *opts)
{
	struct prism_record *r;
	int targets = !!opts->system_wide + !!opts->pid_list + !!opts->tid_list + !!opts->argv;

	new_error[0] = 0;
	if (targets > 1 && !(opts->system_wide && opts->argv && targets == 2)) {
		snprintf(new_error, sizeof(new_error),
			 "choose one target: -a (optionally with a command), -p, -t or a command");
		errno = EINVAL;
		return NULL;
	}
	if (opts->cpu_list && (opts->pid_list || opts->tid_list)) {
		snprintf(new_error, sizeof(new_error), "-C cannot be combined with -p or -t");
		errno = EINVAL;
		return NULL;
	}
	if (opts->kcore && opts->output && !strcmp(opts->output, "-")) {
		snprintf(new_error, sizeof(new_error),
			 "--kcore writes a directory: it cannot go to a pipe (-o -)");
		errno = EINVAL;
		return NULL;
	}
	if (opts->compress_level < 0 || opts->compress_level > 22) {
		snprintf(new_error, sizeof(new_error),
			 "compression level %d is out of range (1..22)", opts->compress_level);
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->o = *opts;
	if (opts->offcpu && !opts->use_clockid) {
		/* off-CPU block times are CLOCK_MONOTONIC (bpf_ktime_get_ns) */
		r->o.use_clockid = true;
		r->o.clockid = CLOCK_MONOTONIC;
	}
	r->output = strdup(opts->output ? opts->output : "perf.data");
	if (!r->output) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	r->go_fd = r->exec_err_fd = r->child_pidfd = -1;
	r->stop_pipe[0] = r->stop_pipe[1] = -1;
	r->kernel_dso = -1;
	r->aux_ev = -1;
	r->switch_ev = -1;
	r->poke_ev = -1;
	r->page = (size_t)sysconf(_SC_PAGESIZE);
	if (pipe2(r->stop_pipe, O_CLOEXEC | O_NONBLOCK)) {
		prism_record__free(r);
		return NULL;
	}
	return r;
}

void prism_record__free(struct prism_record *r)
{
	size_t i;

	if (!r)
		return;
	rec_workload_kill(r);
	rec_offcpu_free(r);
	rec_unmap_rings(r);
	rec_close_events(r);
	rec_stack_free(r);
	for (i = 0; i < r->nr_ev; i++) {
		free(r->ev[i].name);
		free(r->ev[i].filter);
		free(r->ev[i].ids);
	}
	free(r->ev);
	free(r->cpus);
	free(r->cpu_sel);
	free(r->threads);
	rec_free_dsos(r);
	prism_writer__free(r->w);
	if (r->stop_pipe[0] >= 0)
		close(r->stop_pipe[0]);
	if (r->stop_pipe[1] >= 0)
		close(r->stop_pipe[1]);
	free(r->output);
	free(r->dir);
	free(r);
}

int prism_record__add_event(struct prism_record *r, const struct prism_record_event *ev)
{
	struct rec_event *e;

	if (r->opened)
		return -EBUSY;
	if (prism_ensure_mem((void **)&r->ev, &r->cap_ev, sizeof(*r->ev), r->nr_ev + 1))
		return -ENOMEM;
	e = &r->ev[r->nr_ev];
	memset(e, 0, sizeof(*e));
	e->attr = ev->attr;
	e->attr.size = sizeof(e->attr);
	e->name = strdup(ev->name ? ev->name : "unknown");
	if (!e->name)
		return -ENOMEM;
	e->leader = ev->leader < 0 ? (int)r->nr_ev : ev->leader;
	e->nr_members = e->leader == (int)r->nr_ev ? (ev->nr_members > 0 ? ev->nr_members : 1) : 0;
	e->tracepoint = ev->attr.type == PERF_TYPE_TRACEPOINT;
	e->precise_max = ev->precise_max;
	e->weak_group = ev->weak_group;
	e->aux = ev->aux;
	if (ev->filter) {
		e->filter = strdup(ev->filter);
		if (!e->filter)
			return -ENOMEM;
	}
	if (!ev->user_period) {
		e->attr.freq = 0;
		e->attr.sample_period = 0; /* decided in configure() */
	} else if (!e->attr.sample_period) {
		e->attr.sample_period = 1;
	}
	r->nr_ev++;
	return 0;
}

static int add_evspecs(struct prism_record *r)
{
	struct prism_evspecs *l = r->o.events;
	size_t i, n = prism_evspecs__nr(l);
	int err;

	for (i = 0; i < n; i++) {
		const struct prism_evspec *s = prism_evspecs__get(l, i);
		struct prism_record_event ev = {
			.attr = s->attr,
			.name = s->name,
			.leader = s->leader,
			.nr_members = s->nr_members,
			.user_period = s->user_period || s->user_freq,
			.precise_max = s->precise_max,
			.weak_group = s->weak_group,
			.filter = s->filter,
			.aux = s->aux,
		};

		/* intel_pt: period 1, no frequency, as perf sets it (it writes no samples) */
		if (s->aux && !ev.user_period) {
			ev.attr.sample_period = 1;
			ev.user_period = true;
		}

		err = prism_record__add_event(r, &ev);
		if (err)
			return err;
	}
	return 0;
}

/* sample_type and the flags the recorder owns, perf's choices */
static void configure(struct prism_record *r)
{
	const struct prism_record_opts *o = &r->o;
	bool workload = o->argv && !r->per_cpu;
	bool on_exec = workload && !o->workload_from_start;
	size_t i;

	r->ident = r->nr_ev > 1 || !strcmp(r->output, "-") || o->offcpu;
	for (i = 0; i < r->nr_ev; i++) {
		struct rec_event *e = &r->ev[i];
		struct perf_event_attr *a = &e->attr;
		bool leader = e->leader == (int)i;

		a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		if (e->tracepoint) {
			a->sample_type |= PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
			if (!a->sample_period)
				a->sample_period = 1;
		} else if (a->sample_period || a->freq) {
			if (a->freq)
				a->sample_type |= PERF_SAMPLE_PERIOD;
		} else if (a->type == PERF_TYPE_BREAKPOINT) {
			a->sample_period = 1; /* every hit, as perf does */
		} else if (o->period) {
			a->sample_period = o->period;
		} else {
			a->freq = 1;
			a->sample_freq = o->freq ? o->freq : DEFAULT_FREQ;
			a->sample_type |= PERF_SAMPLE_PERIOD;
		}
		/* intel_pt: CPU in every record when the buffers are per CPU, as perf */
		if (r->per_cpu || o->sample_cpu || (r->aux_ev >= 0 && r->cpus[0] >= 0))
			a->sample_type |= PERF_SAMPLE_CPU;
		if (r->ident)
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		if (o->callgraph == PRISM_CALLGRAPH_FP) {
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		} else if (o->callgraph == PRISM_CALLGRAPH_DWARF) {
			a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
					  PERF_SAMPLE_STACK_USER;
			a->sample_regs_user = 0xff0fff; /* x86-64: perf's mask */
			a->sample_stack_user = o->dwarf_stack_size ? o->dwarf_stack_size : 8192;
			a->exclude_callchain_user = 1;
		}
		if (o->data_addr)
			a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		if (o->all_cgroups)
			a->sample_type |= PERF_SAMPLE_CGROUP;
		a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		/*
		 * leaders start disabled: enabled at the workload's exec, or by
		 * rec_enable() (enable_on_exec alone leaves an enabled event on,
		 * and prism's forked child was recorded before its exec)
		 */
		a->disabled = leader;
		a->enable_on_exec = leader && on_exec;
		a->inherit = workload || o->pid_list;
		a->sample_id_all = 1;
		/* wake the poll loop at a quarter full: room for the drain to catch up */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)(rec_ring_bytes(r) / 4);
		if (o->use_clockid) {
			a->use_clockid = 1;
			a->clockid = o->clockid;
		}
		if ((int)i == r->track) { /* the tracking event */
			a->mmap = 1;
			a->mmap2 = 1;
			a->comm = 1;
			a->comm_exec = 1;
			a->task = 1;
			a->mmap_data = o->data_addr;
			a->context_switch = o->switch_events; /* (intel_pt: rec_aux_configure) */
			a->namespaces = o->namespaces;
			a->cgroup = o->all_cgroups;
		}
	}
	rec_aux_configure(r);
	r->trailer_type = r->ev[0].attr.sample_type;
	/* (tracepoint samples of prism are left out by the kernel filters) */
	if (r->per_cpu && !o->include_self && !o->include_self_sched)
		r->self_pid = (uint32_t)getpid();
}

/* "common_pid != A && common_pid != B ...": every thread of prism */
static char *self_filter(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct dirent *d;
	DIR *dir = opendir("/proc/self/task");

	prism_strbuf_addf(&sb, "common_pid != %d", (int)getpid());
	while (dir && (d = readdir(dir))) {
		int tid = atoi(d->d_name);

		if (tid > 0 && tid != getpid())
			prism_strbuf_addf(&sb, " && common_pid != %d", tid);
	}
	if (dir)
		closedir(dir);
	return prism_strbuf_detach(&sb, NULL);
}

/* kernel tracepoint filter: the user's AND "not prism itself" */
static int set_filters(struct prism_record *r)
{
	char *self = NULL;
	size_t i;

	for (i = 0; i < r->nr_ev; i++) {
		struct rec_event *e = &r->ev[i];
		char *f = NULL;

		if (!e->tracepoint || r->o.include_self ||
		    (r->o.include_self_sched && !strncmp(e->name, "sched:", 6)))
			continue;
		if (!self && !(self = self_filter()))
			return -ENOMEM;
		if (e->filter) {
			if (asprintf(&f, "(%s) && %s", e->filter, self) < 0)
				f = NULL;
		} else {
			f = strdup(self);
		}
		if (!f) {
			free(self);
			return -ENOMEM;
		}
		free(e->filter);
		e->filter = f;
	}
	free(self);
	return 0;
}

static int open_writer(struct prism_record *r)
{
	bool pipe = !strcmp(r->output, "-");
	struct prism_writer_opts wo = {
		.path = pipe ? NULL : r->output,
		.fd = pipe ? (r->o.output_fd > 0 ? r->o.output_fd : 1) : -1,
		.pipe = pipe,
		.keep_old = r->o.keep_old,
		.compress_level = r->o.compress_level,
		.comp_mmap_len =
			1u << 20, /* input per COMPRESSED chunk: perf decompresses into this */
		.argc = r->o.cmdline_argc,
		.argv = r->o.cmdline_argv,
		.clockid = r->o.use_clockid ? r->o.clockid : CLOCK_MONOTONIC,
	};
	size_t i;
	int err;

	r->w = prism_writer__new(&wo);
	if (!r->w) {
		err = errno;
		rec_error(r, "cannot write %s: %s", pipe ? "standard output" : r->output,
			  err == PRISM_E_NOFEATURE ?
				  "zstd compression is not built into this prism" :
				  strerror(err));
		return -err;
	}
	for (i = 0; i < r->nr_ev; i++) {
		err = prism_writer__add_event(r->w, &r->ev[i].attr, r->ev[i].name, r->ev[i].ids,
					      r->ev[i].nr_ids, r->ev[i].leader,
					      r->ev[i].nr_members);
		if (err)
			return rec_error(r, "out of memory"), err;
	}
	err = rec_offcpu_add_event(r);
	if (err)
		return err;
	if (r->o.events) {
		bool tp = false;

		for (i = 0; i < r->nr_ev; i++)
			tp |= r->ev[i].tracepoint;
		if (tp) {
			void *buf = NULL;
			size_t len = 0;

			err = prism_tracing_data_build(r->o.events, &buf, &len);
			if (err) {
				char m[128];

				return rec_error(r, "cannot collect the tracepoint formats: %s",
						 prism_strerror(err, m, sizeof(m))),
				       err;
			}
			err = prism_writer__set_tracing_data(r->w, buf, len);
			free(buf);
			if (err)
				return err;
		}
	}
	err = prism_writer__start(r->w);
	if (err)
		return rec_error(r, "cannot write the header of %s: %s", prism_writer__path(r->w),
				 strerror(-err)),
		       err;
	return 0;
}

int prism_record__open(struct prism_record *r)
{
	size_t i;
	int err;

	if (r->opened)
		return -EBUSY;
	if (r->o.events) {
		err = add_evspecs(r);
		if (err)
			return rec_error(r, "out of memory"), err;
	}
	if (!r->nr_ev) {
		struct prism_record_event ev = { .name = "cpu-clock", .leader = -1 };

		ev.attr.type = PERF_TYPE_SOFTWARE;
		ev.attr.config = PERF_COUNT_SW_CPU_CLOCK;
		err = prism_record__add_event(r, &ev);
		if (err)
			return err;
	}
	err = rec_aux_prepare(r); /* (adds perf's tracking event for intel_pt) */
	if (err)
		return err;
	r->opened = true;
	err = rec_kcore_prepare(r);
	if (err)
		return err;
	for (i = 0; i < r->nr_ev; i++) {
		if (r->ev[i].tracepoint) {
			err = prism_tracefs_init(&r->tp_mounted);
			if (err) {
				rec_error(r, "tracefs is not available: %s", strerror(-err));
				rec_hint(
					r,
					"mount it: mount -t tracefs nodev /sys/kernel/tracing (as root)");
				return err;
			}
			break;
		}
	}
	err = rec_workload_prepare(r);
	if (err)
		return err;
	err = rec_open_events(r); /* sets per_cpu, cpus, threads; needs configure() */
	if (err)
		return err;
	err = rec_mmap_rings(r);
	if (err)
		return err;
	err = rec_offcpu_open(r);
	if (err)
		return err;
	err = open_writer(r);
	if (!err)
		err = rec_kcore_copy(r);
	if (!err)
		err = rec_aux_info(r);
	if (err)
		return err;
	return rec_synthesize(r);
}

/* called by rec_open_events() once targets are known, before any fd is opened */
int rec_configure(struct prism_record *r);
int rec_configure(struct prism_record *r)
{
	configure(r);
	return set_filters(r);
}

/* set @flag and wake run()'s poll; async-signal-safe */
static void wake(struct prism_record *r, volatile sig_atomic_t *flag)
{
	int saved = errno;
	char c = 1;
	ssize_t n;

	*flag = 1;
	n = write(r->stop_pipe[1], &c, 1);
	(void)n;
	errno = saved;
}

void prism_record__snapshot(struct prism_record *r)
{
	wake(r, &r->snap_req);
}

/* a snapshot asked for: the wake-up bytes read, the AUX areas written */
static int snapshot_check(struct prism_record *r)
{
	char buf[64];

	if (!r->snap_req)
		return 0;
	r->snap_req = 0;
	while (read(r->stop_pipe[0], buf, sizeof(buf)) > 0)
		;
	return rec_aux_snapshot(r);
}

void prism_record__stop(struct prism_record *r)
{
	wake(r, &r->stop);
}

static int drain_round(struct prism_record *r)
{
	bool wrote = false;
	int err = rec_drain(r, &wrote);

	if (!err && wrote) {
		r->st.rounds++;
		err = prism_writer__finished_round(r->w);
	}
	return err;
}

static void workload_check(struct prism_record *r)
{
	if (r->child > 0 && !r->st.workload_exited) {
		int status;
		pid_t p = waitpid(r->child, &status, WNOHANG);

		if (p == r->child) {
			r->st.workload_exited = true;
			r->st.workload_status = status;
			r->st.workload_exit_ns = now_ns();
		}
	}
}

/*
 * Samples the kernel dropped without a LOST record (PERF_FORMAT_LOST, Linux
 * 6.0+): one LOST_SAMPLES record per fd that lost some, as perf writes them.
 */
static int write_lost_samples(struct prism_record *r)
{
	size_t e, i, per = r->nr_cpus * r->nr_threads;

	for (e = 0; e < r->nr_ev; e++) {
		if (!(r->ev[e].attr.read_format & PERF_FORMAT_LOST))
			continue;
		for (i = 0; i < per; i++) {
			int fd = r->fds[e * per + i];
			uint64_t v[3], rec[16];
			struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES };
			size_t n;
			int err;

			if (fd < 0 || read(fd, v, sizeof(v)) != sizeof(v) || !v[2])
				continue;
			rec[1] = v[2];
			n = 16 + rec_trailer(r, (uint8_t *)rec + 16, 0, 0);
			if (r->trailer_type & PERF_SAMPLE_IDENTIFIER)
				rec[n / 8 - 1] = v[1];
			h.size = (uint16_t)n;
			memcpy(rec, &h, sizeof(h));
			r->st.lost_samples += v[2];
			err = prism_writer__write(r->w, rec, n);
			if (err)
				return err;
		}
	}
	return 0;
}

static int finish(struct prism_record *r, int err)
{
	int ferr;

	if (!err)
		err = drain_round(r);
	if (!err)
		err = write_lost_samples(r);
	if (!err)
		err = rec_offcpu_finish(r);
	if (r->first_time)
		prism_writer__set_sample_time(r->w, r->first_time, r->last_time);
	if (!r->o.no_buildid && !prism_writer__error(r->w))
		rec_add_build_ids(r);
	if (!err && r->o.util_check && r->o.util_check->len)
		err = prism_writer__set_util_check(r->w, r->o.util_check->buf,
						   r->o.util_check->len);
	ferr = prism_writer__finish(r->w);
	r->st.bytes = prism_writer__bytes(r->w);
	r->st.raw_bytes = prism_writer__data_raw_bytes(r->w);
	r->st.comp_bytes = prism_writer__data_comp_bytes(r->w);
	r->st.write_error = prism_writer__error(r->w);
	r->st.end_ns = now_ns();
	if (r->st.write_error) {
		rec_error(r, "writing %s failed: %s; the recording stopped there", r->output,
			  strerror(-r->st.write_error));
		rec_hint(r,
			 "the file holds the %llu bytes written before the error and is readable",
			 (unsigned long long)r->st.bytes);
		if (r->st.write_error == -ENOSPC)
			rec_hint(
				r,
				"free space on the file system, record less (-F, --duration) or compress (-z)");
		return r->st.write_error;
	}
	return err ? err : ferr;
}

/*
 * -p/-t: a task's events hang up (POLLHUP) when it exits, and poll() then
 * returns at once; their rings are left out of the poll (they are still
 * drained) and the recording ends when every target has gone, as perf's.
 */
static bool targets_gone(struct prism_record *r, struct pollfd *pfd)
{
	size_t i, gone = 0;

	if (r->per_cpu || r->child > 0 || !r->nr_rings)
		return false;
	for (i = 0; i < r->nr_rings; i++) {
		if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLHUP | POLLERR)))
			pfd[i].fd = -1;
		gone += pfd[i].fd < 0;
	}
	return gone == r->nr_rings;
}

int prism_record__run(struct prism_record *r)
{
	struct pollfd *pfd;
	uint64_t deadline = 0;
	size_t i, n;
	int err = 0;

	if (!r->w)
		return rec_error(r, "prism_record__run() before a successful open"), -EINVAL;
	pfd = calloc(r->nr_rings + 3, sizeof(*pfd));
	if (!pfd)
		return -ENOMEM;
	for (i = 0; i < r->nr_rings; i++) {
		pfd[i].fd = r->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	n = r->nr_rings;
	pfd[n].fd = r->stop_pipe[0];
	pfd[n++].events = POLLIN;
	if (r->child_pidfd >= 0) {
		pfd[n].fd = r->child_pidfd;
		pfd[n++].events = POLLIN;
	}
	if (rec_offcpu_poll_fd(r) >= 0) {
		pfd[n].fd = rec_offcpu_poll_fd(r);
		pfd[n++].events = POLLIN;
	}
	if (r->o.edge)
		r->o.edge(r->o.edge_ctx, false, r->child > 0 ? (int)r->child : 0);
	err = rec_enable(r);
	if (!err)
		err = rec_offcpu_start(r);
	if (!err && r->child > 0)
		err = rec_workload_start(r);
	if (r->o.duration > 0)
		deadline = now_ns() + (uint64_t)(r->o.duration * 1e9);
	while (!err && !r->stop) {
		int timeout = 100;

		if (deadline) {
			uint64_t t = now_ns();

			if (t >= deadline)
				break;
			if ((deadline - t) / 1000000 < (uint64_t)timeout)
				timeout = (int)((deadline - t) / 1000000) + 1;
		}
		if (poll(pfd, n, timeout) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		err = rec_offcpu_drain(r);
		if (!err)
			err = drain_round(r);
		if (!err && !r->stop)
			err = snapshot_check(r);
		workload_check(r);
		if (r->st.workload_exited || targets_gone(r, pfd))
			break;
	}
	free(pfd);
	if (!err && r->o.snapshot_on_exit)
		err = rec_aux_snapshot(r);
	/* stop the events, then take what they wrote */
	rec_disable(r);
	if (r->o.edge)
		r->o.edge(r->o.edge_ctx, true, r->child > 0 ? (int)r->child : 0);
	return finish(r, err);
}

const struct prism_record_stats *prism_record__stats(const struct prism_record *r)
{
	return &r->st;
}

const char *prism_record__error(const struct prism_record *r)
{
	return r ? r->err : new_error;
}

const char *prism_record__output(const struct prism_record *r)
{
	if (r->dir)
		return r->dir;
	return r->w ? prism_writer__path(r->w) : r->output;
}

bool prism_record__mounted_tracefs(const struct prism_record *r)
{
	return r->tp_mounted;
}
