// SPDX-License-Identifier: MIT
/*
 * The util preset (every tracepoint the analysis uses that this kernel
 * has, in one group so they are enabled together; switch records when
 * recording tasks; big buffers so nothing is lost), shared by prism util's one-step mode
 * (recorded into a temporary file) and prism record --util.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/record.h>
#include <prism/strbuf.h>
#include <prism/tracefs.h>
#include <prism/util-check.h>
#include <prism/util.h>

#include "cmd.h"
#include "options.h"
#include "record-opts.h"
#include "util-record.h"

/* per-CPU ring buffer: a syscall loop on this VM loses events below 64 MiB */
#define UTIL_MMAP_BYTES (64u << 20)

int util_preset_events(struct prism_evspecs **specs)
{
	const char *const *ev = prism_util_preset();
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_evspecs *es;
	int n = 0;

	*specs = NULL;
	if (tracefs_setup("the util preset records"))
		return 1;
	prism_strbuf_addstr(&sb, "{");
	for (; *ev; ev++) {
		char sys[64], *name;
		uint64_t id;

		snprintf(sys, sizeof(sys), "%s", *ev);
		name = strchr(sys, ':');
		if (!name)
			continue;
		*name++ = '\0';
		if (prism_tracefs_tp_id(sys, name, &id))
			continue; /* not on this kernel (powerpc:hcall_*, ...) */
		prism_strbuf_addf(&sb, "%s%s", n++ ? "," : "", *ev);
	}
	prism_strbuf_addstr(&sb, "}");
	if (!n) {
		prism_strbuf_release(&sb);
		error("none of the util tracepoints exists in %s", prism_tracefs_path());
		return 1;
	}
	es = prism_evspecs__new();
	if (!es || prism_evspecs__parse(es, sb.buf)) {
		error("cannot use the util preset '%s': %s", sb.buf,
		      es ? prism_evspecs__error(es) : strerror(ENOMEM));
		prism_strbuf_release(&sb);
		prism_evspecs__free(es);
		return 1;
	}
	prism_strbuf_release(&sb);
	*specs = es;
	return 0;
}

void util_preset_opts(struct prism_record_opts *o)
{
	if (!o->mmap_bytes)
		o->mmap_bytes = UTIL_MMAP_BYTES;
	o->sample_cpu = true;
	/* prism's switches keep its row and the CPU's chain of switches true */
	o->include_self_sched = true;
	/*
	 * Per task, a sched_switch fires in the context of the task leaving
	 * the CPU: the switch-in of a recorded task is seen only when the task
	 * it replaces is recorded too.  Switch records report both sides.
	 */
	if (!o->system_wide && !o->cpu_list)
		o->switch_events = true;
	/* the workload's exec is its CPU time too (rusage counts it) */
	o->workload_from_start = true;
	/* events in the clock of the recording's edges (prism_util__set_end()) */
	if (!o->use_clockid) {
		o->use_clockid = true;
		o->clockid = CLOCK_MONOTONIC;
	}
}

static uint64_t children_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000u;
}

/* the kernel's accounting at an edge of the recording (prism_record_opts.edge) */
static void check_edge(void *ctx, bool end, int workload)
{
	struct util_check_rec *e = ctx;
	char path[64];
	struct timespec ts;
	FILE *f;
	int err;

	if (end && !clock_gettime(CLOCK_MONOTONIC, &ts))
		prism_util_check__set_end(e->check,
					  (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
	if (!e->tasks) {
		/* -C, -t: the tasks also ran where nothing was recorded */
	} else if (e->workload && !end) {
		/* its tasks come and go: its rusage tells, less what it ran unrecorded */
		e->children_before = children_ns();
		snprintf(path, sizeof(path), "/proc/%d/schedstat", workload);
		f = workload > 0 ? fopen(path, "r") : NULL;
		if (f) {
			if (fscanf(f, "%" SCNu64, &e->workload_before) != 1)
				e->workload_before = 0;
			fclose(f);
		}
	} else if (e->workload) {
		uint64_t ns = children_ns() - e->children_before;

		/* reaped when it ended the recording; else it runs on, unrecorded */
		if (workload > 0 && kill(workload, 0) && errno == ESRCH)
			prism_util_check__set_workload(
				e->check, ns > e->workload_before ? ns - e->workload_before : 0,
				(uint32_t)getpid());
	} else {
		err = prism_util_check__read(e->check, end, e->pids, e->nr_pids);
		if (err && !end)
			warning("no accounting check: cannot read the tasks' schedstat: %s",
				strerror(-err));
	}
	if (end) {
		prism_strbuf_reset(&e->section);
		if (prism_util_check__save(e->check, &e->section))
			prism_strbuf_reset(&e->section);
	}
}

bool util_check_arm(struct util_check_rec *e, struct prism_record_opts *o)
{
	memset(e, 0, sizeof(*e));
	prism_strbuf_init(&e->section);
	e->check = prism_util_check__new();
	if (!e->check)
		return false;
	e->tasks = !o->cpu_list && !o->tid_list &&
		   (!o->pid_list || !parse_num_list(o->pid_list, &e->pids, &e->nr_pids));
	e->workload = e->tasks && o->argv;
	o->edge = check_edge;
	o->edge_ctx = e;
	o->util_check = &e->section;
	return true;
}

void util_check_release(struct util_check_rec *e)
{
	prism_util_check__free(e->check);
	free(e->pids);
	prism_strbuf_release(&e->section);
	memset(e, 0, sizeof(*e));
}

int util_record(const struct util_record *ur, char *path, size_t len)
{
	struct prism_record_opts o = { 0 };
	struct util_check_rec ec;
	const char *dir;
	int fd, ret;

	if (ur->all_cpus && ur->cpus) {
		error("-a and -C exclude each other");
		return EXIT_USAGE;
	}
	ret = util_preset_events(&record_specs);
	if (ret)
		return ret;

	/* a recording can be large: $TMPDIR, else /var/tmp (not a tmpfs /tmp) */
	dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/var/tmp";
	if ((size_t)snprintf(path, len, "%s/prism-util-XXXXXX", dir) >= len) {
		error("the temporary directory's path is too long: %s", dir);
		return 1;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		error("cannot create a temporary file in %s: %s", dir, strerror(errno));
		hint("set TMPDIR to a writable directory with room for the recording");
		prism_evspecs__free(record_specs);
		record_specs = NULL;
		return 1;
	}
	close(fd);
	o.events = record_specs;
	o.system_wide = ur->all_cpus || (!ur->cpus && !ur->pids && !ur->argv);
	o.cpu_list = ur->cpus;
	o.pid_list = ur->pids;
	o.argv = ur->argv;
	o.duration = ur->duration;
	o.output = path;
	util_preset_opts(&o);
	util_check_arm(&ec, &o);
	ret = record_run(&o, !quiet);
	util_check_release(&ec);
	prism_evspecs__free(record_specs);
	record_specs = NULL;
	if (ret) {
		unlink(path);
		return ret;
	}
	return 0;
}
