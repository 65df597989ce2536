/* SPDX-License-Identifier: MIT */
/*
 * tracefs access: where it is mounted, tracepoint ids and formats, and the
 * list of tracepoints (events/SYS/NAME directories that have an "id" file).
 *
 * The path found by prism_tracefs_init() is process-wide state.  Call it
 * once before the other functions; they use an already mounted tracefs by
 * themselves, but only prism_tracefs_init() mounts one.
 */
#ifndef PRISM_TRACEFS_H
#define PRISM_TRACEFS_H

#include <prism/core.h>

/**
 * prism_tracefs_init - find tracefs, mounting it when needed and allowed
 * @mounted_now: set to true when this call mounted tracefs on
 *		 /sys/kernel/tracing (the CLI says so on stderr); may be NULL
 *
 * Looks at /sys/kernel/tracing, then /sys/kernel/debug/tracing.  When
 * neither has an events/ directory and we are root, mounts tracefs on
 * /sys/kernel/tracing.
 *
 * Return: 0; -ENOENT when tracefs is not available (kernel without it,
 * mount failed); -EACCES when it is mounted but not readable by us (or the
 * mount was refused); -EPERM when it is not mounted and we are not root.
 */
PRISM_API int prism_tracefs_init(bool *mounted_now);

/**
 * prism_tracefs_path - the tracefs mount point in use
 *
 * Return: a static string, or NULL before a successful prism_tracefs_init().
 */
PRISM_API const char *prism_tracefs_path(void);

/**
 * prism_tracefs_tp_id - id of a tracepoint (the events/SYS/NAME/id file)
 * @sys: system, e.g. "sched"
 * @name: event, e.g. "sched_switch"
 * @id: the id (perf_event_attr.config of PERF_TYPE_TRACEPOINT)
 *
 * Return: 0; -ENOENT no such tracepoint; -EACCES; -EINVAL for names with
 * '/' or "..", or a malformed id file; other -errno.
 */
PRISM_API int prism_tracefs_tp_id(const char *sys, const char *name, uint64_t *id);

/**
 * prism_tracefs_read - read a tracefs file
 * @relpath: path relative to the tracefs root, e.g. "events/sched/sched_switch/format"
 * @buf: set to a malloc'd, NUL-terminated copy of the contents (caller frees)
 * @len: set to the number of bytes read (without the added NUL); may be NULL
 *
 * Return: 0 or -errno (-ENOENT, -EACCES, -ENOMEM, ...).
 */
PRISM_API int prism_tracefs_read(const char *relpath, char **buf, size_t *len);

/**
 * prism_tracefs_for_each_tp - visit the tracepoints matching a glob
 * @glob: "sys:name" with fnmatch() wildcards in either part ("sched:*",
 *	  "sched:sched_wak*", "*:sys_enter"), "sys" alone (= "sys:*"), or NULL for all
 * @cb: called with each match in ascending (system, name) byte order; a
 *	non-zero return stops the walk and is returned
 * @ctx: passed to @cb
 *
 * Return: 0 when the walk completed, @cb's non-zero value, or -errno when
 * tracefs cannot be read.
 */
PRISM_API int prism_tracefs_for_each_tp(const char *glob,
					int (*cb)(void *ctx, const char *sys, const char *name),
					void *ctx);

#endif /* PRISM_TRACEFS_H */
