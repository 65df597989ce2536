// SPDX-License-Identifier: MIT
/*
 * Per-syscall argument kinds and return forms where the sys_enter_* format's
 * field types are not enough: perf trace 6.1's table of beautified
 * syscalls (format facts: which argument is flags, which return value is a
 * pid or an address).  Sorted by name for bsearch.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/trace-internal.h"

#define A(k) (SARG_##k + 1)

static const struct syscall_fmt fmts[] = {
	{ "access", .arg = { [1] = A(ACCMODE) } },
	{ "arch_prctl", .arg = { [0] = A(ARCH_PRCTL), [1] = A(PTR) } },
	{ "brk", SRET_HEX, .arg = { [0] = A(PTR) } },
	{ "clock_gettime", .arg = { [0] = A(CLOCKID) } },
	{ "clone", SRET_PID, .arg = { A(CLONE_FLAGS), A(HEX), A(HEX), A(HEX), A(HEX) },
	  .arg_name = { "flags", "child_stack", "parent_tidptr", "child_tidptr", "tls" } },
	{ "close", .arg = { [0] = A(CLOSE_FD) } },
	{ "epoll_ctl", .arg = { [1] = A(EPOLL_OP) } },
	{ "eventfd2", .arg = { [1] = A(EFD_FLAGS) } },
	{ "faccessat", .arg = { [0] = A(FDAT), [2] = A(ACCMODE) } },
	{ "faccessat2", .arg = { [0] = A(FDAT), [2] = A(ACCMODE) } },
	{ "fchmodat", .arg = { [0] = A(FDAT) } },
	{ "fchownat", .arg = { [0] = A(FDAT) } },
	{ "fcntl", .arg = { [1] = A(FCNTL_CMD), [2] = A(FCNTL_ARG) } },
	{ "fork", SRET_PID },
	{ "futex", .arg = { [1] = A(FUTEX_OP), [5] = A(FUTEX_VAL3) } },
	{ "futimesat", .arg = { [0] = A(FDAT) } },
	{ "getitimer", .arg = { [0] = A(ITIMER) } },
	{ "getpgid", SRET_PID },
	{ "getpid", SRET_PID },
	{ "getppid", SRET_PID },
	{ "getrandom", .arg = { [2] = A(GETRANDOM_FLAGS) } },
	{ "getrlimit", .arg = { [0] = A(RLIMIT) } },
	{ "gettid", SRET_PID },
	{ "ioctl", .arg = { [1] = A(IOCTL_CMD), [2] = A(HEX) } },
	{ "kill", .arg = { [1] = A(SIGNUM) } },
	{ "linkat", .arg = { [0] = A(FDAT) } },
	{ "lseek", .arg = { [2] = A(WHENCE) } },
	{ "madvise", .arg = { [0] = A(HEX), [2] = A(MADV) } },
	{ "mkdirat", .arg = { [0] = A(FDAT) } },
	{ "mknodat", .arg = { [0] = A(FDAT) } },
	{ "mmap", SRET_HEX, .arg = { [2] = A(MMAP_PROT), [3] = A(MMAP_FLAGS), [5] = A(HEX) } },
	{ "mprotect", .arg = { [0] = A(HEX), [2] = A(MMAP_PROT) } },
	{ "mremap", SRET_HEX, .arg = { [3] = A(MREMAP_FLAGS) } },
	{ "name_to_handle_at", .arg = { [0] = A(FDAT) } },
	{ "newfstatat", .arg = { [0] = A(FDAT) } },
	{ "open", .arg = { [1] = A(OPEN_FLAGS) } },
	{ "open_by_handle_at", .arg = { [0] = A(FDAT), [2] = A(OPEN_FLAGS) } },
	{ "openat", .arg = { [0] = A(FDAT), [2] = A(OPEN_FLAGS) } },
	{ "pipe2", .arg = { [1] = A(PIPE_FLAGS) } },
	{ "pkey_mprotect", .arg = { [0] = A(HEX), [2] = A(MMAP_PROT), [3] = A(INT) } },
	{ "poll", SRET_TIMEOUT },
	{ "ppoll", SRET_TIMEOUT },
	{ "prctl", .arg = { [0] = A(PRCTL_OPTION), [1] = A(HEX), [2] = A(HEX) } },
	{ "prlimit64", .arg = { [1] = A(RLIMIT) } },
	{ "readlinkat", .arg = { [0] = A(FDAT) } },
	{ "recvfrom", .arg = { [3] = A(MSG_FLAGS) } },
	{ "recvmmsg", .arg = { [3] = A(MSG_FLAGS) } },
	{ "recvmsg", .arg = { [2] = A(MSG_FLAGS) } },
	{ "renameat", .arg = { [0] = A(FDAT), [2] = A(FDAT) } },
	{ "renameat2", .arg = { [0] = A(FDAT), [2] = A(FDAT) } },
	{ "rt_sigaction", .arg = { [0] = A(SIGNUM) } },
	{ "rt_sigprocmask", .arg = { [0] = A(SIGHOW) } },
	{ "rt_sigqueueinfo", .arg = { [1] = A(SIGNUM) } },
	{ "rt_tgsigqueueinfo", .arg = { [2] = A(SIGNUM) } },
	{ "select", SRET_TIMEOUT },
	{ "sendmmsg", .arg = { [3] = A(MSG_FLAGS) } },
	{ "sendmsg", .arg = { [2] = A(MSG_FLAGS) } },
	{ "sendto", .arg = { [3] = A(MSG_FLAGS) } },
	{ "set_tid_address", SRET_PID },
	{ "setitimer", .arg = { [0] = A(ITIMER) } },
	{ "setrlimit", .arg = { [0] = A(RLIMIT) } },
	{ "socket", .arg = { [0] = A(SOCK_FAMILY), [1] = A(SOCK_TYPE) } },
	{ "socketpair", .arg = { [0] = A(SOCK_FAMILY), [1] = A(SOCK_TYPE) } },
	{ "statx", .arg = { [0] = A(FDAT), [2] = A(STATX_FLAGS), [3] = A(STATX_MASK) } },
	{ "tgkill", .arg = { [2] = A(SIGNUM) } },
	{ "tkill", .arg = { [1] = A(SIGNUM) } },
	{ "unlinkat", .arg = { [0] = A(FDAT) } },
	{ "utimensat", .arg = { [0] = A(FDAT) } },
	{ "vfork", SRET_PID },
	{ "wait4", SRET_PID, .arg = { [2] = A(WAIT_OPTIONS) } },
	{ "waitid", SRET_PID, .arg = { [3] = A(WAIT_OPTIONS) } },
};

static int cmp_fmt(const void *key, const void *elem)
{
	return strcmp(key, ((const struct syscall_fmt *)elem)->name);
}

const struct syscall_fmt *strace_syscall_fmt(const char *name)
{
	return bsearch(name, fmts, sizeof(fmts) / sizeof(fmts[0]), sizeof(fmts[0]), cmp_fmt);
}
