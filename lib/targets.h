/* SPDX-License-Identifier: MIT */
/*
 * The targets of a measurement (record, stat): number lists ("0-3,6"), the
 * online CPUs, the threads of a process.  Not installed.
 */
#ifndef PRISM_TARGETS_H
#define PRISM_TARGETS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * "0-3,6" into a malloc()ed array (*@out, also on error: free it); numbers
 * must be below @max unless @max < 0.  Return: 0, -EINVAL (syntax, empty),
 * -ERANGE (a number >= @max), -ENOMEM.
 */
int prism_parse_int_list(const char *s, int **out, size_t *nr, int max);

/* /sys/devices/system/cpu/online as a malloc()ed array; 0 or -errno */
int prism_online_cpus(int **out, size_t *nr);

/*
 * Append the threads of process @pid (/proc/PID/task) to *@tids (capacity
 * *@cap).  Return: 0, -ESRCH (no such process), -ENOMEM.
 */
int prism_proc_tids(pid_t pid, pid_t **tids, size_t *nr, size_t *cap);

/*
 * The CPUs to count on: the online ones, or those of @list ("0-3,6"; NULL:
 * all online), each of which must be online.  On error @err (@len bytes)
 * gets the message, "\nhint: ..." lines after it.
 * Return: 0, -EINVAL (a bad list, an offline CPU), -errno (sysfs), -ENOMEM.
 */
int prism_target_cpus(const char *list, int **cpus, size_t *nr, char *err, size_t len);

/*
 * Raise the soft RLIMIT_NOFILE to @needed file descriptors (events x CPUs x
 * threads) when it is lower.  On error @err gets the message and hints.
 * Return: 0, -EMFILE (the hard limit is lower), -errno of setrlimit.
 */
int prism_raise_nofile(size_t needed, char *err, size_t len);

#endif /* PRISM_TARGETS_H */
