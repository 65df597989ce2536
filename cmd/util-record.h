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

#include <prism/strbuf.h>

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
};

/*
 * The accounting check of a util recording, stored in its file
 * (PRISM_FEAT_UTIL_CHECK) for prism util to compare its report with: the
 * schedstat of every thread (-a) or of the -p processes at both ends of the
 * recording, or the command's rusage; when the events were disabled.
 */
struct util_check_rec {
	struct prism_util_check *check;
	int64_t *pids; /* -p, or NULL: every thread */
	size_t nr_pids;
	bool tasks; /* the tasks are checked (not with -C or -t: they ran unrecorded too) */
	bool workload; /* a command: its rusage */
	uint64_t children_before, workload_before;
	struct prism_strbuf section; /* the section, filled at the end edge */
};

/*
 * Set @o's edge callback and util_check to fill the check (its targets set
 * first; with -C or -t only the end time is kept).  Return: false when
 * there is no memory (nothing is armed).  util_check_release() it after
 * the recording either way.
 */
bool util_check_arm(struct util_check_rec *e, struct prism_record_opts *o);
void util_check_release(struct util_check_rec *e);

/*
 * Record into a new file in $TMPDIR (else /var/tmp) whose path is written to @path.
 * Prints its errors.  Return: 0, or the exit status to return.
 */
int util_record(const struct util_record *ur, char *path, size_t len);

#endif /* PRISM_CMD_UTIL_RECORD_H */
