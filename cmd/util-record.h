/* SPDX-License-Identifier: MIT */
/*
 * The util preset: prism util's one-step mode (record it to a temporary
 * file) and prism record --util.
 */
#ifndef PRISM_CMD_UTIL_RECORD_H
#define PRISM_CMD_UTIL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct prism_evspecs;
struct prism_record_opts;
struct prism_util_check;

/*
 * The util preset's events on this kernel: one "{...}" group of the
 * tracepoints it has (mounts tracefs when needed).  Prints its errors.
 * Return: 0 with *@specs set (prism_evspecs__free it), or the exit status.
 */
int util_preset_events(struct prism_evspecs **specs);

/* the preset's recording settings: buffers that lose nothing (unless -m was
 * given), the CPU of each sample, switch records when recording tasks; call
 * it once the targets (-a, -C, -p, -t, command) are set */
void util_preset_opts(struct prism_record_opts *o);

struct util_record {
	bool all_cpus;
	const char *cpus; /* -C list */
	const char *pids; /* -p list */
	const char *const *argv; /* workload, NULL-terminated, or NULL */
	double duration; /* seconds, 0 = until the workload ends or Ctrl-C */
	/*
	 * Filled with the kernel's accounting of the recorded tasks when not
	 * NULL: schedstat of every thread (-a, -C) or of the -p processes at
	 * both ends of the recording, the workload's rusage.
	 */
	struct prism_util_check *check;
	const int64_t *check_pids; /* -p, parsed */
	size_t nr_check_pids;
	/* set to when the events were disabled, in their clock (CLOCK_MONOTONIC) */
	uint64_t *end_ns;
};

/*
 * Record into a new file under /var/tmp whose path is written to @path.
 * Prints its errors.  Return: 0, or the exit status to return.
 */
int util_record(const struct util_record *ur, char *path, size_t len);

#endif /* PRISM_CMD_UTIL_RECORD_H */
