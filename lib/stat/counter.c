// SPDX-License-Identifier: MIT
/*
 * Counting: the targets (CPUs or threads), one fd per event per CPU per
 * thread (groups opened with group_fd), enabled after every fd is open or
 * at the workload's exec (enable_on_exec), and read as (value, time
 * enabled, time running).  Events the machine cannot count are kept as
 * "not supported" when the options allow it (perf's default set).
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/perf-open.h>

#include "stat/stat-internal.h"
#include "targets.h"

/* perf stat's default events; the hardware ones count where a PMU exists */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses";

static char new_err[512];

int stat_error(struct prism_stat *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

void stat_hint(struct prism_stat *s, const char *fmt, ...)
{
	size_t n = strlen(s->err);
	va_list ap;

	if (n + 8 >= sizeof(s->err))
		return;
	n += (size_t)snprintf(s->err + n, sizeof(s->err) - n, "\nhint: ");
	va_start(ap, fmt);
	vsnprintf(s->err + n, sizeof(s->err) - n, fmt, ap);
	va_end(ap);
}

const char *prism_stat_new_error(void)
{
	return new_err;
}

const char *prism_stat__error(const struct prism_stat *s)
{
	return s ? s->err : new_err;
}

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int add_events(struct prism_stat *s, struct prism_evspecs *l)
{
	size_t i, n = prism_evspecs__nr(l);

	s->ev = calloc(n ? n : 1, sizeof(*s->ev));
	if (!s->ev)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct prism_evspec *sp = prism_evspecs__get(l, i);
		struct stat_event *ev = &s->ev[i];

		ev->attr = sp->attr;
		ev->leader = sp->leader;
		ev->supported = true;
		ev->name = strdup(sp->name);
		if (!ev->name)
			return -ENOMEM;
		if (sp->filter && !(ev->filter = strdup(sp->filter)))
			return -ENOMEM;
		s->nr_ev++;
	}
	return 0;
}

struct prism_stat *prism_stat__new(const struct prism_stat_opts *opts)
{
	struct prism_stat *s;
	struct prism_evspecs *l = opts->events;
	int n = !!opts->system_wide + !!opts->cpu_list + !!opts->pid_list + !!opts->tid_list;

	new_err[0] = 0;
	if (n > 1 && !(n == 2 && opts->system_wide && opts->cpu_list)) {
		snprintf(new_err, sizeof(new_err),
			 "the targets -a/-C, -p and -t cannot be mixed: choose one");
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->o = *opts;
	s->w = (struct prism_workload)PRISM_WORKLOAD_INIT;
	if (!l) {
		s->own_specs = prism_evspecs__new();
		if (!s->own_specs || prism_evspecs__parse(s->own_specs, default_events)) {
			snprintf(new_err, sizeof(new_err), "cannot set up the default events");
			prism_stat__free(s);
			errno = ENOMEM;
			return NULL;
		}
		s->o.allow_unsupported = true;
		l = s->own_specs;
	}
	if (add_events(s, l)) {
		prism_stat__free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

static void close_fds(struct prism_stat *s)
{
	size_t i, n = s->nr_ev * s->nr_cpus * s->nr_threads;

	for (i = 0; s->fds && i < n; i++) {
		if (s->fds[i] >= 0)
			close(s->fds[i]);
		s->fds[i] = -1;
	}
}

void prism_stat__free(struct prism_stat *s)
{
	size_t i;

	if (!s)
		return;
	close_fds(s);
	if (s->w.pid > 0 || s->w.go_fd >= 0)
		prism_workload_end(&s->w, true, s->exited);
	for (i = 0; i < s->nr_ev; i++) {
		free(s->ev[i].name);
		free(s->ev[i].filter);
	}
	free(s->ev);
	prism_evspecs__free(s->own_specs);
	free(s->cpus);
	free(s->threads);
	free(s->comms);
	free(s->fds);
	free(s->cur);
	free(s->prev);
	free(s);
}

static int add_thread(struct prism_stat *s, size_t *cap, pid_t tid)
{
	if (prism_ensure_mem((void **)&s->threads, cap, sizeof(pid_t), s->nr_threads + 1))
		return -ENOMEM;
	s->threads[s->nr_threads++] = tid;
	return 0;
}

static int thread_list(struct prism_stat *s, const char *list, bool procs, size_t *cap)
{
	const char *what = procs ? "process" : "thread";
	size_t n, i;
	int *ids = NULL, err = prism_parse_int_list(list, &ids, &n, -1);

	if (err) {
		free(ids);
		stat_error(s, "bad %s list '%s' (expected e.g. 123,456)", what, list);
		return -EINVAL;
	}
	for (i = 0; i < n && !err; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/proc/%d", ids[i]);
		if (ids[i] <= 0 || access(path, F_OK)) {
			stat_error(s, "no %s %d (%s: %s)", what, ids[i], path, strerror(ENOENT));
			err = -ESRCH;
		} else if (procs) {
			err = prism_proc_tids(ids[i], &s->threads, &s->nr_threads, cap);
		} else {
			err = add_thread(s, cap, ids[i]);
		}
	}
	free(ids);
	return err;
}

static void read_comm(pid_t tid, char *out)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	out[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(out, 16, f))
		out[strcspn(out, "\n")] = 0;
	fclose(f);
}

static int setup_targets(struct prism_stat *s)
{
	const struct prism_stat_opts *o = &s->o;
	size_t cap = 0, i;
	int err = prism_target_cpus(o->cpu_list, &s->cpus, &s->nr_cpus, s->err, sizeof(s->err));

	if (err)
		return err;
	s->per_cpu = o->system_wide || o->cpu_list;
	if (s->per_cpu) {
		err = add_thread(s, &cap, -1);
	} else {
		s->cpus[0] = -1;
		s->nr_cpus = 1;
		if (o->tid_list)
			err = thread_list(s, o->tid_list, false, &cap);
		else if (o->pid_list)
			err = thread_list(s, o->pid_list, true, &cap);
		else if (o->argv)
			err = add_thread(s, &cap, s->w.pid);
		else
			err = add_thread(s, &cap, -1); /* not reached: the CLI says -a then */
	}
	if (err)
		return err == -ENOMEM ? (stat_error(s, "out of memory"), err) : err;
	s->comms = calloc(s->nr_threads, sizeof(*s->comms));
	if (!s->comms)
		return stat_error(s, "out of memory"), -ENOMEM;
	for (i = 0; i < s->nr_threads; i++)
		if (s->threads[i] > 0)
			read_comm(s->threads[i], s->comms[i]);
	return 0;
}

/* what perf_event_open says for an event this machine has no counter for */
static bool unsupported_err(int err)
{
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL;
}

static void configure(struct prism_stat *s)
{
	bool on_exec = s->o.argv && !s->per_cpu && !s->o.pid_list && !s->o.tid_list &&
		       !s->o.delay_enable;
	size_t e;

	for (e = 0; e < s->nr_ev; e++) {
		struct perf_event_attr *a = &s->ev[e].attr;
		bool leader = s->ev[e].leader == (int)e;

		a->size = sizeof(*a);
		a->sample_period = 0;
		a->sample_type = 0;
		a->freq = 0;
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->inherit = !s->o.no_inherit;
		a->disabled = leader;
		a->enable_on_exec = leader && on_exec;
	}
}

static int open_one(struct prism_stat *s, size_t e, size_t c, size_t t)
{
	struct stat_event *ev = &s->ev[e];
	int group_fd = -1, fd;

	if (ev->leader != (int)e) {
		group_fd = s->fds[STAT_IDX(s, (size_t)ev->leader, c, t)];
		if (group_fd < 0)
			return 0; /* the leader is not supported or its thread is gone */
	}
	fd = perf_event_open(&ev->attr, s->threads[t], s->cpus[c], group_fd);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !ev->attr.exclude_kernel &&
	    !s->per_cpu) {
		size_t i;

		/* perf_event_paranoid >= 2 without privileges: user space only, as perf does */
		pr_warn("kernel counts are not allowed (perf_event_paranoid): counting user space only (as with :u)");
		for (i = 0; i < s->nr_ev; i++) {
			s->ev[i].attr.exclude_kernel = 1;
			s->ev[i].attr.exclude_hv = 1;
		}
		fd = perf_event_open(&ev->attr, s->threads[t], s->cpus[c], group_fd);
	}
	if (fd < 0) {
		int err = errno;

		if (err == ESRCH && s->threads[t] > 0 && !s->o.argv)
			return 0; /* a thread of -p that ended meanwhile */
		if (s->o.allow_unsupported && unsupported_err(err) &&
		    ev->attr.type != PERF_TYPE_TRACEPOINT) {
			pr_debug("stat: %s is not supported: %s", ev->name, strerror(err));
			ev->supported = false;
			return 0;
		}
		prism_perf_open_strerror_at(err, &ev->attr, ev->name, s->threads[t], s->cpus[c],
					    s->err, sizeof(s->err));
		return -err;
	}
	s->fds[STAT_IDX(s, e, c, t)] = fd;
	if (ev->filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter)) {
		int err = errno;

		stat_error(s, "the kernel rejected the filter '%s' of %s: %s", ev->filter, ev->name,
			   strerror(err));
		return -err;
	}
	return 0;
}

int prism_stat__open(struct prism_stat *s)
{
	size_t e, c, t, n;
	int err;

	if (s->o.argv && s->o.argv[0]) {
		err = prism_workload_fork(&s->w, s->o.argv, s->o.workload_stdout_to_stderr);
		if (err)
			return stat_error(s, "cannot start '%s': %s", s->o.argv[0], strerror(-err)),
			       err;
	}
	err = setup_targets(s);
	if (err)
		return err;
	configure(s);
	n = s->nr_ev * s->nr_cpus * s->nr_threads;
	err = prism_raise_nofile(n + 64, s->err, sizeof(s->err));
	if (err)
		return err;
	s->fds = malloc((n ? n : 1) * sizeof(*s->fds));
	s->cur = calloc(n ? n : 1, sizeof(*s->cur));
	s->prev = calloc(n ? n : 1, sizeof(*s->prev));
	if (!s->fds || !s->cur || !s->prev)
		return stat_error(s, "out of memory"), -ENOMEM;
	for (e = 0; e < n; e++)
		s->fds[e] = -1;
	for (e = 0; e < s->nr_ev; e++) {
		for (c = 0; c < s->nr_cpus; c++) {
			for (t = 0; t < s->nr_threads; t++) {
				err = open_one(s, e, c, t);
				if (err)
					return err;
				if (!s->ev[e].supported)
					break;
			}
			if (!s->ev[e].supported)
				break;
		}
		if (!s->ev[e].supported) { /* none of its fds count */
			for (c = 0; c < s->nr_cpus; c++)
				for (t = 0; t < s->nr_threads; t++) {
					int *fd = &s->fds[STAT_IDX(s, e, c, t)];

					if (*fd >= 0)
						close(*fd);
					*fd = -1;
				}
		}
	}
	return 0;
}

int prism_stat__enable(struct prism_stat *s)
{
	size_t e, i, per = s->nr_cpus * s->nr_threads;

	for (e = 0; e < s->nr_ev; e++) {
		if (s->ev[e].leader != (int)e)
			continue; /* members follow their leader */
		for (i = 0; i < per; i++) {
			int fd = s->fds[e * per + i];

			if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				return stat_error(s, "cannot enable %s: %s", s->ev[e].name,
						  strerror(errno)),
				       -errno;
		}
	}
	return 0;
}

int prism_stat__start(struct prism_stat *s)
{
	bool on_exec = s->nr_ev && s->ev[0].attr.enable_on_exec;
	int err, exec_err;

	if (!on_exec && !s->o.delay_enable) {
		err = prism_stat__enable(s);
		if (err)
			return err;
	}
	s->started = true;
	if (s->w.go_fd < 0)
		return 0;
	err = prism_workload_release(&s->w, &exec_err);
	if (err && !exec_err)
		return stat_error(s, "cannot release the workload: %s", strerror(-err)), err;
	if (err) {
		stat_error(s, "cannot run '%s': %s", s->o.argv[0], strerror(exec_err));
		if (exec_err == ENOENT)
			stat_hint(s, "check the command's name and $PATH");
		prism_stat__workload_wait(s, true, NULL);
	}
	return err;
}

void prism_stat__stop(struct prism_stat *s)
{
	size_t i, n = s->nr_ev * s->nr_cpus * s->nr_threads;

	for (i = 0; s->fds && i < n; i++)
		if (s->fds[i] >= 0)
			ioctl(s->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

int prism_stat__read(struct prism_stat *s)
{
	size_t i, n = s->nr_ev * s->nr_cpus * s->nr_threads;

	memcpy(s->prev, s->cur, n * sizeof(*s->cur));
	for (i = 0; i < n; i++) {
		uint64_t v[3];
		ssize_t r;

		if (s->fds[i] < 0)
			continue;
		r = read(s->fds[i], v, sizeof(v));
		if (r != (ssize_t)sizeof(v))
			return stat_error(s, "cannot read a counter of %s: %s",
					  s->ev[i / (s->nr_cpus * s->nr_threads)].name,
					  r < 0 ? strerror(errno) : "short read"),
			       r < 0 ? -errno : -EIO;
		s->cur[i].val = v[0];
		s->cur[i].ena = v[1];
		s->cur[i].run = v[2];
	}
	return 0;
}

int prism_stat__workload_pid(const struct prism_stat *s)
{
	return s->w.pid;
}

int prism_stat__workload_pidfd(const struct prism_stat *s)
{
	return s->exited ? -1 : s->w.pidfd;
}

int prism_stat__workload_wait(struct prism_stat *s, bool block, int *status)
{
	pid_t p;

	if (s->w.pid <= 0)
		return 0;
	if (!s->exited) {
		do
			p = waitpid(s->w.pid, &s->status, block ? 0 : WNOHANG);
		while (p < 0 && errno == EINTR && block);
		if (p < 0)
			return -errno;
		if (p == 0)
			return 0;
		s->exited = true;
	}
	if (status)
		*status = s->status;
	return 1;
}

bool prism_stat__targets_alive(const struct prism_stat *s)
{
	size_t i;

	if (s->per_cpu)
		return true;
	for (i = 0; i < s->nr_threads; i++)
		if (s->threads[i] <= 0 || !kill(s->threads[i], 0) || errno != ESRCH)
			return true;
	return false;
}

void prism_stat__workload_kill(struct prism_stat *s, int sig)
{
	if (s->w.pid > 0 && !s->exited)
		kill(s->w.pid, sig);
}

size_t prism_stat__nr_events(const struct prism_stat *s)
{
	return s->nr_ev;
}

const char *prism_stat__event_name(const struct prism_stat *s, size_t e)
{
	return s->ev[e].name;
}

/* perf shows the clocks (ns counts) in msec */
static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

const char *prism_stat__event_unit(const struct prism_stat *s, size_t e)
{
	return is_clock(&s->ev[e].attr) ? "msec" : "";
}

double prism_stat__event_scale(const struct prism_stat *s, size_t e)
{
	return is_clock(&s->ev[e].attr) ? 1e-6 : 1.0;
}

const struct perf_event_attr *prism_stat__event_attr(const struct prism_stat *s, size_t e)
{
	return &s->ev[e].attr;
}

bool prism_stat__event_supported(const struct prism_stat *s, size_t e)
{
	return s->ev[e].supported;
}

bool prism_stat__per_cpu(const struct prism_stat *s)
{
	return s->per_cpu;
}

size_t prism_stat__nr_cpus(const struct prism_stat *s)
{
	return s->nr_cpus;
}

size_t prism_stat__nr_threads(const struct prism_stat *s)
{
	return s->nr_threads;
}
