// SPDX-License-Identifier: MIT
/*
 * Targets (CPUs, threads) and opening the events: one fd per event per CPU
 * per thread, groups opened with group_fd, ids read with PERF_EVENT_IOC_ID,
 * tracepoint filters set, RLIMIT_NOFILE raised as needed; and enabling the
 * leaders once everything is open.
 */
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <prism/perf-open.h>

#include "record/record-internal.h"
#include "targets.h"

int rec_configure(struct prism_record *r);

static int perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			   unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int add_thread(struct prism_record *r, size_t *cap, pid_t tid)
{
	if (prism_ensure_mem((void **)&r->threads, cap, sizeof(pid_t), r->nr_threads + 1))
		return -ENOMEM;
	r->threads[r->nr_threads++] = tid;
	return 0;
}

static int setup_targets(struct prism_record *r)
{
	const struct prism_record_opts *o = &r->o;
	size_t cap = 0, i;
	int *ids = NULL, err;

	err = prism_target_cpus(o->cpu_list, &r->cpus, &r->nr_cpus, r->err, sizeof(r->err));
	if (err)
		return err;
	r->per_cpu = o->system_wide || o->cpu_list;
	if (r->per_cpu)
		return add_thread(r, &cap, -1);
	if (o->argv)
		return add_thread(r, &cap, r->child);
	if (o->tid_list) {
		size_t n;

		err = prism_parse_int_list(o->tid_list, &ids, &n, -1);
		if (err) {
			free(ids);
			return rec_error(r, "bad thread list '%s' (expected e.g. 123,456)",
					 o->tid_list),
			       -EINVAL;
		}
		for (i = 0; i < n && !err; i++) {
			char path[32];

			/* a thread that does not exist is an error, as a process is */
			snprintf(path, sizeof(path), "/proc/%d", ids[i]);
			if (access(path, F_OK)) {
				rec_error(r, "no thread %d (%s: %s)", ids[i], path,
					  strerror(errno));
				free(ids);
				return -ESRCH;
			}
			err = add_thread(r, &cap, ids[i]);
		}
		free(ids);
		return err;
	}
	if (o->pid_list) {
		size_t n;

		err = prism_parse_int_list(o->pid_list, &ids, &n, -1);
		if (err) {
			free(ids);
			return rec_error(r, "bad process list '%s' (expected e.g. 123,456)",
					 o->pid_list),
			       -EINVAL;
		}
		for (i = 0; i < n && !err; i++) {
			err = prism_proc_tids(ids[i], &r->threads, &r->nr_threads, &cap);
			if (err == -ESRCH) {
				rec_error(r, "no process %d (/proc/%d/task: %s)", ids[i], ids[i],
					  strerror(ENOENT));
				free(ids);
				return -ESRCH;
			}
		}
		free(ids);
		return err;
	}
	return add_thread(r, &cap, -1);
}

static int open_one(struct prism_record *r, size_t e, size_t c, size_t t, int group_fd)
{
	struct rec_event *ev = &r->ev[e];
	pid_t pid = r->threads[t];
	int cpu = r->cpus[c];
	int fd;

	pr_debug("record: perf_event_open %s: type %u, config %#llx, config1 %#llx, config2 %#llx, "
		 "sample_type %#llx, pid %d, cpu %d",
		 ev->name, ev->attr.type, (unsigned long long)ev->attr.config,
		 (unsigned long long)ev->attr.config1, (unsigned long long)ev->attr.config2,
		 (unsigned long long)ev->attr.sample_type, (int)pid, cpu);
	fd = perf_event_open(&ev->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL && (ev->attr.read_format & PERF_FORMAT_LOST)) {
		size_t i;

		/* kernels before 6.0: no lost counts in read() */
		for (i = 0; i < r->nr_ev; i++)
			r->ev[i].attr.read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		fd = perf_event_open(&ev->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	/* :P: the highest precise_ip this PMU takes, for every CPU and thread alike */
	while (fd < 0 && (errno == EINVAL || errno == EOPNOTSUPP) && ev->precise_max &&
	       ev->attr.precise_ip) {
		ev->attr.precise_ip--;
		fd = perf_event_open(&ev->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !ev->attr.exclude_kernel &&
	    !r->per_cpu) {
		size_t i;

		/* perf_event_paranoid >= 2 without privileges: user space only, as perf does */
		pr_warn("kernel samples are not allowed (perf_event_paranoid): recording user space only (as with :u)");
		for (i = 0; i < r->nr_ev; i++) {
			r->ev[i].attr.exclude_kernel = 1;
			r->ev[i].attr.exclude_hv = 1;
		}
		fd = perf_event_open(&ev->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		int err = errno;

		if (err == ESRCH && pid > 0 && !r->o.argv) {
			pr_debug("record: thread %d is gone, skipped", (int)pid);
			return -ESRCH;
		}
		if (ev->aux)
			return rec_aux_open_error(r, ev, err), -err;
		prism_perf_open_strerror_at(err, &ev->attr, ev->name, pid, cpu, r->err,
					    sizeof(r->err));
		return -err;
	}
	return fd;
}

/* close every fd opened so far, to open again */
static void close_all(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_fds; i++) {
		if (r->fds[i] >= 0)
			close(r->fds[i]);
		r->fds[i] = -1;
	}
	for (i = 0; i < r->nr_ev; i++)
		r->ev[i].nr_ids = 0;
	r->st.nr_fds = 0;
}

/* a weak group (:W) that cannot be opened as one: its events become single events */
static void break_group(struct prism_record *r, int leader)
{
	size_t i;

	pr_warn("the weak group led by %s cannot be opened as a group (%s): its events are opened apart",
		r->ev[leader].name, r->err);
	for (i = 0; i < r->nr_ev; i++) {
		if (r->ev[i].leader != leader)
			continue;
		r->ev[i].leader = (int)i;
		r->ev[i].nr_members = 1;
		r->ev[i].weak_group = false;
	}
}

int rec_open_events(struct prism_record *r)
{
	size_t e, c, t, n;
	int err;

	err = setup_targets(r);
	if (err)
		return err;
	err = rec_configure(r);
	if (err)
		return rec_error(r, "out of memory"), err;
	n = r->nr_ev * r->nr_cpus * r->nr_threads;
	err = prism_raise_nofile(n + r->nr_cpus + 64, r->err, sizeof(r->err));
	if (err)
		return err;
	r->fds = malloc(n * sizeof(*r->fds));
	if (!r->fds)
		return rec_error(r, "out of memory"), -ENOMEM;
	for (e = 0; e < n; e++)
		r->fds[e] = -1;
	r->nr_fds = n;
	for (e = 0; e < r->nr_ev; e++) {
		r->ev[e].ids = calloc(r->nr_cpus * r->nr_threads, sizeof(uint64_t));
		if (!r->ev[e].ids)
			return rec_error(r, "out of memory"), -ENOMEM;
	}
#define FD(e, c, t) r->fds[((e)*r->nr_cpus + (c)) * r->nr_threads + (t)]
again:
	for (c = 0; c < r->nr_cpus; c++) {
		for (t = 0; t < r->nr_threads; t++) {
			for (e = 0; e < r->nr_ev; e++) {
				struct rec_event *ev = &r->ev[e];
				int leader = ev->leader, fd, group_fd = -1;
				uint64_t id;

				if (leader != (int)e)
					group_fd = FD(leader, c, t);
				if (leader != (int)e && group_fd < 0)
					continue; /* leader's thread vanished */
				fd = open_one(r, e, c, t, group_fd);
				if (fd == -ESRCH)
					continue;
				if (fd < 0 && group_fd >= 0 && r->ev[leader].weak_group) {
					break_group(r, leader);
					close_all(r);
					goto again;
				}
				if (fd < 0)
					return fd;
				FD(e, c, t) = fd;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
					err = errno;
					return rec_error(r, "cannot read the id of event %s: %s",
							 ev->name, strerror(err)),
					       -err;
				}
				ev->ids[ev->nr_ids++] = id;
				if (ev->aux && ev->filter &&
				    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter)) {
					err = errno;
					rec_error(
						r,
						"the kernel rejected the address filter '%s' of %s: %s",
						ev->filter, ev->name, strerror(err));
					rec_hint(
						r,
						"filter|start|stop|tracestop ADDR[/SIZE][@FILE], or a "
						"function name: --filter 'filter main @ /bin/prog'");
					return -err;
				}
				if (ev->tracepoint && ev->filter &&
				    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ev->filter)) {
					err = errno;
					rec_error(r,
						  "the kernel rejected the filter '%s' of %s: %s",
						  ev->filter, ev->name, strerror(err));
					rec_hint(
						r,
						"filters name the tracepoint's fields (see its format file in tracefs), e.g. 'prev_pid == 1 && next_prio < 100'");
					return -err;
				}
				r->st.nr_fds++;
			}
		}
	}
	return 0;
}

int rec_enable(struct prism_record *r)
{
	size_t e, i, per = r->nr_cpus * r->nr_threads;

	if (r->o.argv && !r->per_cpu && !r->o.workload_from_start)
		return 0; /* enable_on_exec */
	/* leaders only: their members follow, so a group starts as one */
	for (e = 0; e < r->nr_ev; e++) {
		if (r->ev[e].leader != (int)e)
			continue;
		for (i = 0; i < per; i++) {
			int fd = r->fds[e * per + i];

			if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
				int err = errno;

				return rec_error(r, "cannot enable %s: %s", r->ev[e].name,
						 strerror(err)),
				       -err;
			}
		}
	}
	return 0;
}

void rec_disable(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_fds; i++)
		if (r->fds[i] >= 0)
			ioctl(r->fds[i], PERF_EVENT_IOC_DISABLE, 0);
}

void rec_close_events(struct prism_record *r)
{
	size_t i;

	for (i = 0; i < r->nr_fds; i++)
		if (r->fds[i] >= 0)
			close(r->fds[i]);
	free(r->fds);
	r->fds = NULL;
	r->nr_fds = 0;
}
