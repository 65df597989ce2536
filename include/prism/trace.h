/* SPDX-License-Identifier: MIT */
/*
 * Strace-like syscall lines, as perf trace prints them:
 *
 *	     0.377 ( 0.015 ms): ls/12615 openat(dfd: CWD, filename: "/etc/ld.so.cache", flags: RDONLY|CLOEXEC) = 3
 *
 * A prism_strace turns raw_syscalls:sys_enter/sys_exit pairs into such lines:
 * the syscall's name from prism's syscall tables, its arguments named and
 * typed by the syscalls:sys_enter_<name> tracefs format and beautified as
 * perf 6.1 does (flags, fds, AT_FDCWD as CWD, signal names, ...), string
 * arguments quoted when the caller captured them, the return value with its
 * errno name.  The caller feeds the events in time order and writes out the
 * text that each call appends to its strbuf.  The object owns everything it
 * allocates; the strings and callbacks given to it are borrowed.
 */
#ifndef PRISM_TRACE_H
#define PRISM_TRACE_H

#include <prism/core.h>

struct prism_strbuf;
struct prism_strace;
struct prism_tp_event;

#define PRISM_STRACE_MAX_ARGS 6

struct prism_strace_opts {
	const char *arch; /* syscall table, uname -m style; NULL: the running kernel's */
	double min_duration_ms; /* --duration: print only calls that took this long */
	bool failure_only; /* --failure: print only calls that returned an error */
	/* the name of a task, or NULL (for pid arguments and return values) */
	const char *(*comm)(void *ctx, int tid);
	void *comm_ctx;
	/*
	 * reads the syscalls:sys_enter_@name format text into a malloc'ed
	 * *@text; NULL: read it from tracefs.  Returns 0 or -errno.
	 */
	int (*read_format)(void *ctx, const char *name, char **text, size_t *len);
	void *format_ctx;
	/*
	 * a live trace: the path of an fd the trace never saw opened is read
	 * from /proc/PID/fd, as perf does (racy: the fd may be gone)
	 */
	bool proc_fd_paths;
	/* one thread traced, without its children: no comm/tid column (perf's layout then) */
	bool single_thread;
};

/* one syscall entry: raw_syscalls:sys_enter and the strings captured for it */
struct prism_strace_enter {
	uint32_t pid; /* 0: unknown (no fd paths) */
	uint32_t tid;
	uint64_t time; /* ns */
	int64_t id;
	uint64_t args[PRISM_STRACE_MAX_ARGS];
	const char *strs[PRISM_STRACE_MAX_ARGS]; /* a string argument's text, or NULL */
	bool strs_truncated[PRISM_STRACE_MAX_ARGS];
};

/**
 * prism_strace__new - a formatter for one trace
 * @opts: options (copied; its callbacks and their contexts must outlive the object)
 *
 * Return: the object, or NULL with errno set (ENOMEM; ENOENT when prism has
 * no syscall table for @opts->arch).
 */
PRISM_API struct prism_strace *prism_strace__new(const struct prism_strace_opts *opts);

/* prism_strace__free - free @st (NULL is fine) */
PRISM_API void prism_strace__free(struct prism_strace *st);

/**
 * prism_strace__filter_add - print only the syscalls matching @pattern
 * @pattern: a syscall name or a glob ("open*"); a leading '!' on the first
 *	pattern prints all syscalls but the listed ones (perf trace -e !...)
 *
 * Return: 0, or -ENOENT when no syscall matches (the caller may take it as an
 * event name).
 */
PRISM_API int prism_strace__filter_add(struct prism_strace *st, const char *pattern);

/**
 * prism_strace__id_filter - the filter as a kernel tracepoint filter on
 * raw_syscalls' id ("id == 257 || id == 0", "id != 3 && ..."), as perf
 * trace sets it
 *
 * Return: 0; -ENOENT without a filter; -E2BIG when it names more than 64
 * syscalls (left to user space then).
 */
PRISM_API int prism_strace__id_filter(const struct prism_strace *st, struct prism_strbuf *out);

/* prism_strace__wants - true if syscall @id is printed under the filter */
PRISM_API bool prism_strace__wants(const struct prism_strace *st, int64_t id);

/**
 * prism_strace__enter - a sys_enter event
 * @out: gets the lines this event completes (an entry interrupted by this
 *	one, or the whole line of exit/exit_group, which do not return)
 *
 * Return: 0, or -ENOMEM.
 */
PRISM_API int prism_strace__enter(struct prism_strace *st, const struct prism_strace_enter *e,
				  struct prism_strbuf *out);

/**
 * prism_strace__exit - a sys_exit event; appends the call's line to @out
 * unless the filters drop it
 *
 * Return: 0, or -ENOMEM.
 */
PRISM_API int prism_strace__exit(struct prism_strace *st, uint32_t tid, uint64_t time, int64_t id,
				 int64_t ret, struct prism_strbuf *out);

/* another tracepoint's sample, for prism_strace__event() */
struct prism_strace_ev {
	uint32_t tid;
	uint64_t time; /* ns */
	const char *name; /* "sys:name" */
	const struct prism_tp_event *tp_event; /* its format (prism_tp), or NULL */
	const void *raw;
	size_t raw_size;
	bool duration_column; /* syscalls are traced too: "(         ): " after the time */
};

/**
 * prism_strace__event - a tracepoint that is not a syscall, as perf trace
 * prints it: "time [(         ): ]comm/tid sys:name(field: value, ...)"
 *
 * Return: 0, or -ENOMEM.
 */
PRISM_API int prism_strace__event(struct prism_strace *st, const struct prism_strace_ev *e,
				  struct prism_strbuf *out);

/* a page fault sample, resolved by the caller (prism_symbols) */
struct prism_strace_fault {
	uint32_t tid;
	uint64_t time; /* ns */
	bool major;
	uint64_t addr; /* the faulting address */
	const char *ip_sym; /* the symbol of the faulting instruction, or NULL */
	uint64_t ip_symoff;
	bool ip_mapped; /* the instruction lies in a known mapping */
	uint64_t ip_map_addr; /* its offset there */
	const char *addr_dso; /* the path of the mapping holding @addr, or NULL */
	uint64_t addr_map_addr; /* @addr's offset in it */
	char level; /* '.' user, 'k' kernel, as perf */
};

/**
 * prism_strace__fault - a page fault as perf trace -F prints it:
 * "time ( 0.000 ms): comm/tid majfault [sym+0xoff] => /path@0xoff (d.)"
 *
 * Return: 0, or -ENOMEM.
 */
PRISM_API int prism_strace__fault(struct prism_strace *st, const struct prism_strace_fault *f,
				  struct prism_strbuf *out);

/**
 * prism_strace__format_call - "name(arg: value, ..." (no closing parenthesis)
 *
 * Return: 0, -ENOENT for an id without a name (nothing appended), -ENOMEM.
 */
PRISM_API int prism_strace__format_call(struct prism_strace *st, const struct prism_strace_enter *e,
					struct prism_strbuf *out);

/* prism_strace__format_ret - the text after "= " for @ret of syscall @id */
PRISM_API void prism_strace__format_ret(struct prism_strace *st, int64_t id, int64_t ret,
					struct prism_strbuf *out);

/**
 * prism_strace__string_args - the arguments of syscall @id that are strings
 * (paths, names) a caller may capture: bit i for argument i
 */
PRISM_API unsigned int prism_strace__string_args(struct prism_strace *st, int64_t id);

/* the arch name of the syscall table in use (e.g. "x86_64") */
PRISM_API const char *prism_strace__arch(const struct prism_strace *st);

/*
 * String capture: the string arguments of syscalls (paths, names) read at
 * entry by a BPF program, for the quoted strings that prism_strace prints
 * in place of perf 6.1's pointers.  Needs libbpf, x86-64 and the rights to
 * load BPF programs (root or CAP_BPF+CAP_PERFMON).
 */
struct prism_strcap;

/**
 * prism_strcap__new - load and attach the capture program
 * @st: which syscalls (the filter) and which of their arguments are strings
 *	(every sys_enter format is read now)
 * @task_filter: capture only the processes added with
 *	prism_strcap__add_tgid() and their descendants; false: every task
 *
 * Return: the object, or NULL with errno set (ENOTSUP without libbpf or on
 * another architecture, EPERM, ...): the caller prints pointers then.
 */
PRISM_API struct prism_strcap *prism_strcap__new(struct prism_strace *st, bool task_filter);

/* prism_strcap__add_tgid - follow process @tgid and its future children; 0 or -errno */
PRISM_API int prism_strcap__add_tgid(struct prism_strcap *c, int tgid);

/**
 * prism_strcap__fill - set @e->strs from the captured strings of this call
 * (call it right before prism_strace__enter(); the strings stay valid until
 * the next call)
 */
PRISM_API void prism_strcap__fill(struct prism_strcap *c, struct prism_strace_enter *e);

/* prism_strcap__lost - strings the BPF ring buffer had no room for */
PRISM_API uint64_t prism_strcap__lost(const struct prism_strcap *c);

/* prism_strcap__free - detach and free (NULL is fine) */
PRISM_API void prism_strcap__free(struct prism_strcap *c);

#endif /* PRISM_TRACE_H */
