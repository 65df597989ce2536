/* SPDX-License-Identifier: MIT */
/*
 * The counter's state, shared by the files of lib/stat/.
 */
#ifndef PRISM_STAT_INTERNAL_H
#define PRISM_STAT_INTERNAL_H

#include <sys/types.h>

#include <prism/stat.h>

#include "internal.h"
#include "workload.h"

struct stat_event {
	struct perf_event_attr attr;
	char *name;
	char *filter;
	int leader; /* index of its group leader */
	bool supported;
};

struct prism_stat {
	struct prism_stat_opts o;
	struct prism_evspecs *own_specs; /* the default set, when o.events is NULL */
	struct stat_event *ev;
	size_t nr_ev;

	int *cpus; /* -1 alone when per thread */
	size_t nr_cpus;
	pid_t *threads; /* -1 alone when per CPU */
	size_t nr_threads;
	char (*comms)[16]; /* one per thread */
	bool per_cpu;

	int *fds; /* [ev][cpu][thread], -1 when not open */
	struct prism_stat_count *cur, *prev; /* like fds */

	struct prism_workload w;
	bool exited;
	int status;
	bool started;
	char err[2048];
};

#define STAT_IDX(s, e, c, t) (((e) * (s)->nr_cpus + (c)) * (s)->nr_threads + (t))

__attribute__((format(printf, 2, 3))) int stat_error(struct prism_stat *s, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void stat_hint(struct prism_stat *s, const char *fmt, ...);

#endif /* PRISM_STAT_INTERNAL_H */
