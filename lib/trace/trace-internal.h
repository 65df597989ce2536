/* SPDX-License-Identifier: MIT */
/*
 * Shared inside lib/trace: the argument kinds of a syscall, the table of
 * per-syscall overrides (syscall-fmts.c), the value beautifiers (args.c),
 * the parsed sys_enter_* formats (format.c) and errno names (errno.c).
 */
#ifndef PRISM_TRACE_INTERNAL_H
#define PRISM_TRACE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <prism/strbuf.h>
#include <prism/trace.h>

#define STRACE_MAX_ARGS 6

enum sarg_kind {
	SARG_DEFAULT, /* %ld */
	SARG_INT, /* %d */
	SARG_HEX, /* %#lx */
	SARG_PTR, /* %#lx */
	SARG_FILENAME, /* the string when captured, else the pointer as %#x (perf 6.1) */
	SARG_FD, /* %d */
	SARG_FDAT, /* CWD for AT_FDCWD, else as SARG_FD */
	SARG_PID, /* %d and " (comm)" when known */
	SARG_MODE_T,
	SARG_OPEN_FLAGS, /* masks the next arg (mode) without O_CREAT */
	SARG_MMAP_PROT,
	SARG_MMAP_FLAGS, /* masks fd and offset for MAP_ANONYMOUS */
	SARG_MREMAP_FLAGS,
	SARG_ACCMODE,
	SARG_ARCH_PRCTL,
	SARG_RLIMIT, /* strarray: zero is printed */
	SARG_FUTEX_OP, /* masks the args its command ignores */
	SARG_FUTEX_VAL3,
	SARG_GETRANDOM_FLAGS,
	SARG_IOCTL_CMD,
	SARG_SIGNUM,
	SARG_SIGHOW, /* strarray */
	SARG_WHENCE, /* strarray */
	SARG_CLOCKID, /* strarray */
	SARG_ITIMER, /* strarray */
	SARG_EPOLL_OP, /* strarray */
	SARG_FCNTL_CMD, /* shown when zero; masks or shapes the arg */
	SARG_FCNTL_ARG,
	SARG_MADV,
	SARG_MSG_FLAGS,
	SARG_PIPE_FLAGS,
	SARG_SOCK_FAMILY, /* strarray */
	SARG_SOCK_TYPE,
	SARG_WAIT_OPTIONS,
	SARG_CLONE_FLAGS,
	SARG_STATX_FLAGS,
	SARG_STATX_MASK,
	SARG_PRCTL_OPTION,
	SARG_EFD_FLAGS,
	SARG_CLOSE_FD,
};

/* the return value's form */
enum sret_kind {
	SRET_SIGNED,
	SRET_HEX,
	SRET_PID, /* the number and " (comm)" of that task when known */
	SRET_TIMEOUT, /* 0 is "0 (Timeout)" */
};

struct sarg_ctx {
	uint64_t args[STRACE_MAX_ARGS];
	unsigned int mask; /* args a beautifier suppressed, bit per index */
	int idx; /* the arg being printed */
	const char *str; /* its captured string, or NULL */
	bool str_truncated;
	int fcntl_cmd; /* set by SARG_FCNTL_CMD for SARG_FCNTL_ARG */
	const char *(*comm)(void *ctx, int tid);
	void *comm_ctx;
	/* the path of fd @fd of the calling process, or NULL */
	const char *(*fd_path)(void *ctx, int fd);
	void *fd_ctx;
};

/* per-syscall overrides of the kinds that the format's field types give */
struct syscall_fmt {
	const char *name;
	enum sret_kind ret;
	unsigned char arg[STRACE_MAX_ARGS]; /* enum sarg_kind + 1; 0: from the field type */
	const char *arg_name[STRACE_MAX_ARGS]; /* names perf uses instead of the format's */
};

const struct syscall_fmt *strace_syscall_fmt(const char *name);

/* true when a zero value is printed (strarrays, and the kinds perf marks show_zero) */
bool sarg_shows_zero(enum sarg_kind k);

/* append @val formatted as @k; may set bits in @c->mask */
void sarg_format(enum sarg_kind k, uint64_t val, struct sarg_ctx *c, struct prism_strbuf *out);

/* a string, quoted and escaped as strace prints it */
void sarg_quote(const char *s, bool truncated, struct prism_strbuf *out);

/* "ENOENT", or NULL for a number without a name */
const char *strace_errno_name(int err);

/* the arg kind that perf derives from a format field's type and name */
enum sarg_kind sarg_kind_of_field(const char *type, const char *name);

/* one parsed syscalls:sys_enter_<name> format */
struct strace_format {
	size_t nr_args;
	char *names[STRACE_MAX_ARGS];
	char *types[STRACE_MAX_ARGS];
};

/*
 * Parse the "field:" lines of a tracefs format file after __syscall_nr.
 * 0, -EINVAL for a format without __syscall_nr or with a malformed field
 * line, -ENOMEM.  The text need not be NUL-terminated.
 */
int strace_format_parse(const char *text, size_t len, struct strace_format *f);
void strace_format_release(struct strace_format *f);

/* a syscall's arguments, resolved once */
struct strace_sc {
	int state; /* 0 not loaded, 1 loaded, -1 no format */
	size_t nr_args;
	const char *names[STRACE_MAX_ARGS];
	enum sarg_kind kinds[STRACE_MAX_ARGS];
	enum sret_kind ret;
	bool is_exit; /* exit, exit_group: no sys_exit follows */
	struct strace_format fmt;
};

/* a thread's call in progress */
struct strace_thread {
	uint32_t tid;
	bool used;
	bool pending; /* entry seen and not printed yet */
	int64_t id;
	uint64_t entry_time; /* 0: unknown */
	struct prism_strbuf entry; /* "name(args" */
	/* what the fd table needs at the exit (fds.c) */
	uint32_t pid;
	uint64_t a0, a1;
	char *path; /* the captured path of an open, or NULL */
};

struct prism_strace {
	struct prism_strace_opts o;
	const char *arch;
	struct strace_sc *scs; /* by id */
	size_t nr_scs;
	/* the filter: a bit per id */
	uint8_t *filter;
	bool has_filter, negate;
	struct strace_thread *thr; /* open addressing by tid */
	size_t nr_thr, cap_thr;
	uint32_t current; /* the thread of the last entry */
	bool has_current;
	uint64_t base_time;
	struct prism_strbuf scratch;
	/* fd paths (fds.c), by process */
	struct fd_proc *fds;
	size_t nr_fds, cap_fds;
	char proc_path[4096];
};

struct strace_sc *strace_sc(struct prism_strace *st, int64_t id);

/* a line's time, blank duration column (if @duration_column) and comm/tid */
void strace_head(struct prism_strace *st, uint32_t tid, uint64_t time, bool duration_column,
		 struct prism_strbuf *out);
void strace_head_duration(struct prism_strace *st, uint32_t tid, uint64_t time, uint64_t duration,
			  struct prism_strbuf *out);
void strace_print_interrupted(struct prism_strace *st, struct prism_strbuf *out);

const char *strace_fd_path(struct prism_strace *st, uint32_t pid, int fd);
void strace_fds_update(struct prism_strace *st, const struct strace_thread *t, const char *name,
		       int64_t ret);
void strace_fds_release(struct prism_strace *st);

#endif /* PRISM_TRACE_INTERNAL_H */
