// SPDX-License-Identifier: MIT
/*
 * Syscall argument beautifiers: each turns one argument value into the text
 * perf trace 6.1 prints for it (flag names without their prefix, joined by
 * '|', unknown bits as a trailing hex number; value tables "strarrays" that
 * print a name even for zero).  Flag values come from the C library's
 * headers, as in perf, where they exist; the rest are the kernel's uapi
 * numbers, spelled out.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/strbuf.h>

#include "internal.h"
#include "trace/trace-internal.h"

struct flag_name {
	uint64_t bit;
	const char *name;
};

#define FLAG(p, n)       \
	{                \
		p##n, #n \
	}

/* names for each set bit in table order, then the bits left as "|%#x" */
static void print_flags(const struct flag_name *t, size_t n, uint64_t v, struct prism_strbuf *out)
{
	size_t i, start = out->len;

	for (i = 0; i < n; i++) {
		if (!t[i].bit || (v & t[i].bit) != t[i].bit)
			continue;
		if (out->len != start)
			prism_strbuf_addch(out, '|');
		prism_strbuf_addstr(out, t[i].name);
		v &= ~t[i].bit;
	}
	if (v)
		prism_strbuf_addf(out, "%s%#" PRIx64, out->len != start ? "|" : "", v);
}

/* a name per value from @base, else the number */
static void print_strarray(const char *const *t, size_t n, int64_t base, uint64_t v,
			   struct prism_strbuf *out)
{
	int64_t i = (int64_t)v - base;

	if (i >= 0 && (uint64_t)i < n && t[i])
		prism_strbuf_addstr(out, t[i]);
	else
		prism_strbuf_addf(out, "%d", (int)v);
}

#define STRARRAY(t, base, v, out) print_strarray(t, sizeof(t) / sizeof(t[0]), base, v, out)
#define FLAGS(t, v, out) print_flags(t, sizeof(t) / sizeof(t[0]), v, out)

static const struct flag_name open_flags[] = {
	FLAG(O_, RDWR),	     FLAG(O_, APPEND),	 FLAG(O_, ASYNC),     FLAG(O_, CLOEXEC),
	FLAG(O_, CREAT),     FLAG(O_, DIRECT),	 FLAG(O_, DIRECTORY), FLAG(O_, EXCL),
	FLAG(O_, LARGEFILE), FLAG(O_, NOFOLLOW), FLAG(O_, TMPFILE),   FLAG(O_, NOATIME),
	FLAG(O_, NOCTTY),    FLAG(O_, NONBLOCK), FLAG(O_, PATH),
};

static void open_flags_print(uint64_t v, struct prism_strbuf *out)
{
	uint32_t f = (uint32_t)v;
	size_t i, start = out->len;

	if ((f & O_ACCMODE) == O_RDONLY)
		prism_strbuf_addstr(out, "RDONLY");
	if (!f)
		return;
	for (i = 0; i < sizeof(open_flags) / sizeof(open_flags[0]); i++) {
		if (!open_flags[i].bit || !(f & open_flags[i].bit))
			continue;
		prism_strbuf_addf(out, "%s%s", out->len != start ? "|" : "", open_flags[i].name);
		f &= ~(uint32_t)open_flags[i].bit;
	}
	if ((f & O_SYNC) == O_SYNC) {
		prism_strbuf_addf(out, "%sSYNC", out->len != start ? "|" : "");
		f &= ~(uint32_t)O_SYNC;
	} else if (f & O_DSYNC) {
		prism_strbuf_addf(out, "%sDSYNC", out->len != start ? "|" : "");
		f &= ~(uint32_t)O_DSYNC;
	}
	if (f & O_TRUNC) {
		prism_strbuf_addf(out, "%sTRUNC", out->len != start ? "|" : "");
		f &= ~(uint32_t)O_TRUNC;
	}
	if (f & O_WRONLY) {
		prism_strbuf_addf(out, "%sWRONLY", out->len != start ? "|" : "");
		f &= ~(uint32_t)O_WRONLY;
	}
	if (f)
		prism_strbuf_addf(out, "%s%#x", out->len != start ? "|" : "", f);
}

/* in bit order, as perf's generated tables */
static const struct flag_name mmap_prot[] = {
	{ 0x1, "READ" },
	{ 0x2, "WRITE" },
	{ 0x4, "EXEC" },
	{ 0x8, "SEM" },
	{ 0x01000000, "GROWSDOWN" },
	{ 0x02000000, "GROWSUP" },
};

static const struct flag_name mmap_flags[] = {
	{ 0x1, "SHARED" },
	{ 0x2, "PRIVATE" },
	{ 0x10, "FIXED" },
	{ 0x20, "ANONYMOUS" },
	{ 0x40, "32BIT" },
	{ 0x100, "GROWSDOWN" },
	{ 0x800, "DENYWRITE" },
	{ 0x1000, "EXECUTABLE" },
	{ 0x2000, "LOCKED" },
	{ 0x4000, "NORESERVE" },
	{ 0x8000, "POPULATE" },
	{ 0x10000, "NONBLOCK" },
	{ 0x20000, "STACK" },
	{ 0x40000, "HUGETLB" },
	{ 0x80000, "SYNC" },
	{ 0x100000, "FIXED_NOREPLACE" },
	{ 0x4000000, "UNINITIALIZED" },
};

static const struct flag_name mremap_flags[] = {
	{ 0x1, "MAYMOVE" },
	{ 0x2, "FIXED" },
	{ 0x4, "DONTUNMAP" },
};

static const char *const arch_prctl_1000[] = {
	"SET_GS", "SET_FS", "GET_FS", "GET_GS", "GET_CPUID", "SET_CPUID",
};
static const char *const arch_prctl_1011[] = { "GET_CPUID", "SET_CPUID" };
static const char *const arch_prctl_2001[] = { "MAP_VDSO_X32", "MAP_VDSO_32", "MAP_VDSO_64" };
static const char *const arch_prctl_3001[] = {
	"GET_XCOMP_SUPP",	"GET_XCOMP_PERM",	"REQ_XCOMP_PERM",
	"GET_XCOMP_GUEST_PERM", "REQ_XCOMP_GUEST_PERM",
};

static const char *const rlimits[] = {
	"CPU",	   "FSIZE", "DATA",  "STACK",	   "CORE",     "RSS",  "NPROC",	 "NOFILE",
	"MEMLOCK", "AS",    "LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO", "RTTIME",
};

static const char *const futex_cmds[] = {
	"WAIT",		  "WAKE",	 "FD",		"REQUEUE",
	"CMP_REQUEUE",	  "WAKE_OP",	 "LOCK_PI",	"UNLOCK_PI",
	"TRYLOCK_PI",	  "WAIT_BITSET", "WAKE_BITSET", "WAIT_REQUEUE_PI",
	"CMP_REQUEUE_PI", "LOCK_PI2",
};

/* the futex args a command ignores: timeout 3, uaddr2 4, val3 5 */
static const unsigned char futex_masks[] = {
	1u << 5 | 1u << 4,
	1u << 5 | 1u << 4 | 1u << 3,
	1u << 5 | 1u << 4 | 1u << 3,
	1u << 5 | 1u << 3,
	1u << 3,
	0,
	1u << 5 | 1u << 4 | 1u << 3,
	1u << 5 | 1u << 4 | 1u << 3,
	1u << 5 | 1u << 4,
	1u << 4,
	1u << 4,
	0,
	1u << 3,
	0,
};

static const struct flag_name getrandom_flags[] = {
	{ 0x1, "NONBLOCK" },
	{ 0x2, "RANDOM" },
	{ 0x4, "INSECURE" },
};

static const char *const sighow[] = { "BLOCK", "UNBLOCK", "SETMASK" };
static const char *const whences[] = { "SET", "CUR", "END", "DATA", "HOLE" };
static const char *const clockids[] = {
	"REALTIME",	  "MONOTONIC",	     "PROCESS_CPUTIME_ID", "THREAD_CPUTIME_ID",
	"MONOTONIC_RAW",  "REALTIME_COARSE", "MONOTONIC_COARSE",   "BOOTTIME",
	"REALTIME_ALARM", "BOOTTIME_ALARM",  "SGI_CYCLE",	   "TAI",
};
static const char *const itimers[] = { "REAL", "VIRTUAL", "PROF" };
static const char *const epoll_ops[] = { "ADD", "DEL", "MOD" };
static const char *const families[] = {
	"UNSPEC",   "LOCAL",	  "INET",    "AX25",	  "IPX",     "APPLETALK", "NETROM",
	"BRIDGE",   "ATMPVC",	  "X25",     "INET6",	  "ROSE",    "DECnet",	  "NETBEUI",
	"SECURITY", "KEY",	  "NETLINK", "PACKET",	  "ASH",     "ECONET",	  "ATMSVC",
	"RDS",	    "SNA",	  "IRDA",    "PPPOX",	  "WANPIPE", "LLC",	  "IB",
	"MPLS",	    "CAN",	  "TIPC",    "BLUETOOTH", "IUCV",    "RXRPC",	  "ISDN",
	"PHONET",   "IEEE802154", "CAIF",    "ALG",	  "NFC",     "VSOCK",	  "KCM",
	"QIPCRTR",  "SMC",	  "XDP",     "MCTP",
};
static const char *const sock_types[] = {
	NULL, "STREAM", "DGRAM", "RAW", "RDM", "SEQPACKET", "DCCP", NULL, NULL, NULL, "PACKET",
};

static const char *const madvs[] = {
	"NORMAL",
	"RANDOM",
	"SEQUENTIAL",
	"WILLNEED",
	"DONTNEED",
	NULL,
	NULL,
	NULL,
	"FREE",
	"REMOVE",
	"DONTFORK",
	"DOFORK",
	"MERGEABLE",
	"UNMERGEABLE",
	"HUGEPAGE",
	"NOHUGEPAGE",
	"DONTDUMP",
	"DODUMP",
	"WIPEONFORK",
	"KEEPONFORK",
	"COLD",
	"PAGEOUT",
	"POPULATE_READ",
	"POPULATE_WRITE",
	"DONTNEED_LOCKED",
	"COLLAPSE",
};

static const struct flag_name msg_flags[] = {
	{ 0x1, "OOB" },
	{ 0x2, "PEEK" },
	{ 0x4, "DONTROUTE" },
	{ 0x8, "CTRUNC" },
	{ 0x10, "PROBE" },
	{ 0x20, "TRUNC" },
	{ 0x40, "DONTWAIT" },
	{ 0x80, "EOR" },
	{ 0x100, "WAITALL" },
	{ 0x200, "FIN" },
	{ 0x400, "SYN" },
	{ 0x800, "CONFIRM" },
	{ 0x1000, "RST" },
	{ 0x2000, "ERRQUEUE" },
	{ 0x4000, "NOSIGNAL" },
	{ 0x8000, "MORE" },
	{ 0x10000, "WAITFORONE" },
	{ 0x20000000, "FASTOPEN" },
	{ 0x40000000, "CMSG_CLOEXEC" },
};

static const struct flag_name pipe_flags[] = {
	FLAG(O_, CLOEXEC),
	FLAG(O_, NONBLOCK),
	FLAG(O_, DIRECT),
};

static const struct flag_name efd_flags[] = {
	{ 1, "SEMAPHORE" },
	FLAG(O_, CLOEXEC),
	FLAG(O_, NONBLOCK),
};

static const struct flag_name wait_options[] = {
	{ 0x1, "NOHANG" },     { 0x2, "UNTRACED" },	{ 0x4, "EXITED" },
	{ 0x8, "CONTINUED" },  { 0x1000000, "NOWAIT" }, { 0x20000000, "NOTHREAD" },
	{ 0x40000000, "ALL" }, { 0x80000000, "CLONE" },
};

static const struct flag_name clone_flags[] = {
	{ 0x00000100, "VM" },
	{ 0x00000200, "FS" },
	{ 0x00000400, "FILES" },
	{ 0x00000800, "SIGHAND" },
	{ 0x00001000, "PIDFD" },
	{ 0x00002000, "PTRACE" },
	{ 0x00004000, "VFORK" },
	{ 0x00008000, "PARENT" },
	{ 0x00010000, "THREAD" },
	{ 0x00020000, "NEWNS" },
	{ 0x00040000, "SYSVSEM" },
	{ 0x00080000, "SETTLS" },
	{ 0x00100000, "PARENT_SETTID" },
	{ 0x00200000, "CHILD_CLEARTID" },
	{ 0x00400000, "DETACHED" },
	{ 0x00800000, "UNTRACED" },
	{ 0x01000000, "CHILD_SETTID" },
	{ 0x02000000, "NEWCGROUP" },
	{ 0x04000000, "NEWUTS" },
	{ 0x08000000, "NEWIPC" },
	{ 0x10000000, "NEWUSER" },
	{ 0x20000000, "NEWPID" },
	{ 0x40000000, "NEWNET" },
	{ 0x80000000, "IO" },
};

static const struct flag_name at_flags[] = {
	{ 0x100, "SYMLINK_NOFOLLOW" }, { 0x200, "REMOVEDIR" },	 { 0x400, "SYMLINK_FOLLOW" },
	{ 0x800, "NO_AUTOMOUNT" },     { 0x1000, "EMPTY_PATH" }, { 0x2000, "STATX_FORCE_SYNC" },
	{ 0x4000, "STATX_DONT_SYNC" },
};

static const struct flag_name statx_mask[] = {
	{ 0x1, "TYPE" },      { 0x2, "MODE" },	      { 0x4, "NLINK" },	   { 0x8, "UID" },
	{ 0x10, "GID" },      { 0x20, "ATIME" },      { 0x40, "MTIME" },   { 0x80, "CTIME" },
	{ 0x100, "INO" },     { 0x200, "SIZE" },      { 0x400, "BLOCKS" }, { 0x800, "BTIME" },
	{ 0x1000, "MNT_ID" }, { 0x2000, "DIOALIGN" },
};

/* perf's order: the groups of all users first, then the file type, then the rest */
static const struct flag_name mode_bits[] = {
	{ 07777, "IALLUGO" }, { 0777, "IRWXUGO" }, { 0444, "IRUGO" }, { 0222, "IWUGO" },
	{ 0111, "IXUGO" },    FLAG(S_, IFMT),	   FLAG(S_, IFSOCK),  FLAG(S_, IFLNK),
	FLAG(S_, IFREG),      FLAG(S_, IFBLK),	   FLAG(S_, IFDIR),   FLAG(S_, IFCHR),
	FLAG(S_, IFIFO),      FLAG(S_, ISUID),	   FLAG(S_, ISGID),   FLAG(S_, ISVTX),
	FLAG(S_, IRWXU),      FLAG(S_, IRUSR),	   FLAG(S_, IWUSR),   FLAG(S_, IXUSR),
	FLAG(S_, IRWXG),      FLAG(S_, IRGRP),	   FLAG(S_, IWGRP),   FLAG(S_, IXGRP),
	FLAG(S_, IRWXO),      FLAG(S_, IROTH),	   FLAG(S_, IWOTH),   FLAG(S_, IXOTH),
};

static const char *const fcntl_cmds[] = {
	"DUPFD", "GETFD",  "SETFD",  "GETFL",	  "SETFL",     "GETLK",
	"SETLK", "SETLKW", "SETOWN", "GETOWN",	  "SETSIG",    "GETSIG",
	NULL,	 NULL,	   NULL,     "SETOWN_EX", "GETOWN_EX", "GETOWNER_UIDS",
};
static const char *const fcntl_linux_cmds[] = {
	"SETLEASE",    "GETLEASE",	   "NOTIFY",	       NULL,
	NULL,	       "CANCELLK",	   "DUPFD_CLOEXEC",    "SETPIPE_SZ",
	"GETPIPE_SZ",  "ADD_SEALS",	   "GET_SEALS",	       "GET_RW_HINT",
	"SET_RW_HINT", "GET_FILE_RW_HINT", "SET_FILE_RW_HINT",
};

static const char *const prctl_options[] = {
	NULL,
	"SET_PDEATHSIG",
	"GET_PDEATHSIG",
	"GET_DUMPABLE",
	"SET_DUMPABLE",
	"GET_UNALIGN",
	"SET_UNALIGN",
	"GET_KEEPCAPS",
	"SET_KEEPCAPS",
	"GET_FPEMU",
	"SET_FPEMU",
	"GET_FPEXC",
	"SET_FPEXC",
	"GET_TIMING",
	"SET_TIMING",
	"SET_NAME",
	"GET_NAME",
	NULL,
	NULL,
	"GET_ENDIAN",
	"SET_ENDIAN",
	"GET_SECCOMP",
	"SET_SECCOMP",
	"CAPBSET_READ",
	"CAPBSET_DROP",
	"GET_TSC",
	"SET_TSC",
	"GET_SECUREBITS",
	"SET_SECUREBITS",
	"SET_TIMERSLACK",
	"GET_TIMERSLACK",
	"TASK_PERF_EVENTS_DISABLE",
	"TASK_PERF_EVENTS_ENABLE",
	"MCE_KILL",
	"MCE_KILL_GET",
	"SET_MM",
	"SET_CHILD_SUBREAPER",
	"GET_CHILD_SUBREAPER",
	"SET_NO_NEW_PRIVS",
	"GET_NO_NEW_PRIVS",
	"GET_TID_ADDRESS",
	"SET_THP_DISABLE",
	"GET_THP_DISABLE",
	"MPX_ENABLE_MANAGEMENT",
	"MPX_DISABLE_MANAGEMENT",
	"SET_FP_MODE",
	"GET_FP_MODE",
	"CAP_AMBIENT",
	NULL,
	NULL,
	"SVE_SET_VL",
	"SVE_GET_VL",
	"GET_SPECULATION_CTRL",
	"SET_SPECULATION_CTRL",
	"PAC_RESET_KEYS",
	"SET_TAGGED_ADDR_CTRL",
	"GET_TAGGED_ADDR_CTRL",
	"SET_IO_FLUSHER",
	"GET_IO_FLUSHER",
	"SET_SYSCALL_USER_DISPATCH",
	"PAC_SET_ENABLED_KEYS",
	"PAC_GET_ENABLED_KEYS",
	"SCHED_CORE",
};

struct ioctl_name {
	uint32_t cmd;
	const char *name;
};

/* the x86 TTY and generic file ioctls (perf decodes these on x86 only) */
static const struct ioctl_name ioctls[] = {
	{ 0x5401, "TCGETS" },	    { 0x5402, "TCSETS" },	{ 0x5403, "TCSETSW" },
	{ 0x5404, "TCSETSF" },	    { 0x5405, "TCGETA" },	{ 0x5406, "TCSETA" },
	{ 0x5407, "TCSETAW" },	    { 0x5408, "TCSETAF" },	{ 0x5409, "TCSBRK" },
	{ 0x540A, "TCXONC" },	    { 0x540B, "TCFLSH" },	{ 0x540C, "TIOCEXCL" },
	{ 0x540D, "TIOCNXCL" },	    { 0x540E, "TIOCSCTTY" },	{ 0x540F, "TIOCGPGRP" },
	{ 0x5410, "TIOCSPGRP" },    { 0x5411, "TIOCOUTQ" },	{ 0x5412, "TIOCSTI" },
	{ 0x5413, "TIOCGWINSZ" },   { 0x5414, "TIOCSWINSZ" },	{ 0x5415, "TIOCMGET" },
	{ 0x5416, "TIOCMBIS" },	    { 0x5417, "TIOCMBIC" },	{ 0x5418, "TIOCMSET" },
	{ 0x5419, "TIOCGSOFTCAR" }, { 0x541A, "TIOCSSOFTCAR" }, { 0x541B, "FIONREAD" },
	{ 0x541C, "TIOCLINUX" },    { 0x541D, "TIOCCONS" },	{ 0x541E, "TIOCGSERIAL" },
	{ 0x541F, "TIOCSSERIAL" },  { 0x5420, "TIOCPKT" },	{ 0x5421, "FIONBIO" },
	{ 0x5422, "TIOCNOTTY" },    { 0x5423, "TIOCSETD" },	{ 0x5424, "TIOCGETD" },
	{ 0x5425, "TCSBRKP" },	    { 0x5427, "TIOCSBRK" },	{ 0x5428, "TIOCCBRK" },
	{ 0x5429, "TIOCGSID" },	    { 0x5450, "FIONCLEX" },	{ 0x5451, "FIOCLEX" },
	{ 0x5452, "FIOASYNC" },	    { 0x5460, "FIOQSIZE" },
};

static void ioctl_print(uint64_t v, struct prism_strbuf *out)
{
	size_t i;

	for (i = 0; i < sizeof(ioctls) / sizeof(ioctls[0]); i++) {
		if (ioctls[i].cmd == (uint32_t)v) {
			prism_strbuf_addstr(out, ioctls[i].name);
			return;
		}
	}
	prism_strbuf_addf(out, "%#" PRIx64, v);
}

static const char *const signames[] = {
	NULL,	"HUP",	"INT",	"QUIT", "ILL",	  "TRAP",   "ABRT",  "BUS",  "FPE",  "KILL", "USR1",
	"SEGV", "USR2", "PIPE", "ALRM", "TERM",	  "STKFLT", "CHLD",  "CONT", "STOP", "TSTP", "TTIN",
	"TTOU", "URG",	"XCPU", "XFSZ", "VTALRM", "PROF",   "WINCH", "IO",   "PWR",  "SYS",
};

static void signum_print(uint64_t v, struct prism_strbuf *out)
{
	int sig = (int)v;

	if (sig > 0 && (size_t)sig < sizeof(signames) / sizeof(signames[0]))
		prism_strbuf_addstr(out, signames[sig]);
	else
		prism_strbuf_addf(out, "%#x", sig);
}

static void accmode_print(uint64_t v, struct prism_strbuf *out)
{
	int mode = (int)v;

	if (mode == F_OK) {
		prism_strbuf_addstr(out, "F");
		return;
	}
	if (mode & R_OK)
		prism_strbuf_addch(out, 'R');
	if (mode & W_OK)
		prism_strbuf_addch(out, 'W');
	if (mode & X_OK)
		prism_strbuf_addch(out, 'X');
	mode &= ~(R_OK | W_OK | X_OK);
	if (mode)
		prism_strbuf_addf(out, "|%#x", mode);
}

static void arch_prctl_print(uint64_t v, struct prism_strbuf *out)
{
	if (v >= 0x1001 && v <= 0x1004)
		STRARRAY(arch_prctl_1000, 0x1001, v, out);
	else if (v >= 0x1011 && v <= 0x1012)
		STRARRAY(arch_prctl_1011, 0x1011, v, out);
	else if (v >= 0x2001 && v <= 0x2003)
		STRARRAY(arch_prctl_2001, 0x2001, v, out);
	else if (v >= 0x3001 && v <= 0x3005)
		STRARRAY(arch_prctl_3001, 0x3001, v, out);
	else
		prism_strbuf_addf(out, "%#" PRIx64, v);
}

static void futex_op_print(uint64_t v, struct sarg_ctx *c, struct prism_strbuf *out)
{
	int op = (int)v, cmd = op & 0x7f;

	if (cmd >= 0 && (size_t)cmd < sizeof(futex_cmds) / sizeof(futex_cmds[0])) {
		prism_strbuf_addstr(out, futex_cmds[cmd]);
		c->mask |= futex_masks[cmd];
	} else {
		prism_strbuf_addf(out, "%#x", cmd);
	}
	if (op & 128)
		prism_strbuf_addstr(out, "|PRIVATE_FLAG");
	if (op & 256)
		prism_strbuf_addstr(out, "|CLOCK_REALTIME");
}

static void sock_type_print(uint64_t v, struct prism_strbuf *out)
{
	int t = (int)v, base = t & 0xf;

	if ((size_t)base < sizeof(sock_types) / sizeof(sock_types[0]) && sock_types[base])
		prism_strbuf_addstr(out, sock_types[base]);
	else
		prism_strbuf_addf(out, "%#x", base);
	if (t & SOCK_CLOEXEC)
		prism_strbuf_addstr(out, "|CLOEXEC");
	if (t & SOCK_NONBLOCK)
		prism_strbuf_addstr(out, "|NONBLOCK");
	t &= ~(0xf | SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (t)
		prism_strbuf_addf(out, "|%#x", t);
}

static void fcntl_cmd_print(uint64_t v, struct sarg_ctx *c, struct prism_strbuf *out)
{
	int cmd = (int)v;

	c->fcntl_cmd = cmd;
	if (cmd >= 1024)
		STRARRAY(fcntl_linux_cmds, 1024, v, out);
	else
		STRARRAY(fcntl_cmds, 0, v, out);
	/* the "get" commands take no argument */
	if (cmd == F_GETFD || cmd == F_GETFL || cmd == F_GETOWN || cmd == F_GETSIG ||
	    cmd == F_GETLEASE || cmd == F_GET_SEALS)
		c->mask |= 1u << (c->idx + 1);
}

/* the commands whose argument points to a struct (printed as an address) */
static bool fcntl_arg_is_ptr(int cmd)
{
	switch (cmd) {
	case F_SETLK:
	case F_SETLKW:
	case F_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
	case F_OFD_GETLK:
	case F_GETOWN_EX:
	case F_SETOWN_EX:
	case 1035: /* F_GET_RW_HINT .. F_SET_FILE_RW_HINT */
	case 1036:
	case 1037:
	case 1038:
		return true;
	default:
		return false;
	}
}

static void fcntl_arg_print(uint64_t v, struct sarg_ctx *c, struct prism_strbuf *out)
{
	if (c->fcntl_cmd == F_SETFD)
		prism_strbuf_addstr(out, v ? "CLOEXEC" : "0");
	else if (c->fcntl_cmd == F_SETFL)
		open_flags_print(v, out);
	else if (fcntl_arg_is_ptr(c->fcntl_cmd))
		prism_strbuf_addf(out, "%#" PRIx64, v);
	else
		prism_strbuf_addf(out, "%ld", (long)v);
}

static void fd_print(uint64_t v, struct sarg_ctx *c, struct prism_strbuf *out)
{
	const char *path = c->fd_path && (int)v >= 0 ? c->fd_path(c->fd_ctx, (int)v) : NULL;

	prism_strbuf_addf(out, "%d", (int)v);
	if (path)
		prism_strbuf_addf(out, "<%s>", path);
}

void sarg_quote(const char *s, bool truncated, struct prism_strbuf *out)
{
	const unsigned char *p;

	prism_strbuf_addch(out, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			prism_strbuf_addstr(out, "\\\"");
			break;
		case '\\':
			prism_strbuf_addstr(out, "\\\\");
			break;
		case '\n':
			prism_strbuf_addstr(out, "\\n");
			break;
		case '\t':
			prism_strbuf_addstr(out, "\\t");
			break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				prism_strbuf_addf(out, "\\x%02x", *p);
			else
				prism_strbuf_addch(out, (char)*p);
		}
	}
	prism_strbuf_addch(out, '"');
	if (truncated)
		prism_strbuf_addstr(out, "...");
}

bool sarg_shows_zero(enum sarg_kind k)
{
	switch (k) {
	case SARG_RLIMIT:
	case SARG_SIGHOW:
	case SARG_WHENCE:
	case SARG_CLOCKID:
	case SARG_ITIMER:
	case SARG_EPOLL_OP:
	case SARG_FCNTL_CMD:
	case SARG_MMAP_PROT:
	case SARG_SOCK_FAMILY:
		return true;
	default:
		return false;
	}
}

void sarg_format(enum sarg_kind k, uint64_t val, struct sarg_ctx *c, struct prism_strbuf *out)
{
	const char *comm;

	switch (k) {
	case SARG_INT:
		prism_strbuf_addf(out, "%d", (int)val);
		break;
	case SARG_FD:
	case SARG_CLOSE_FD:
		fd_print(val, c, out);
		break;
	case SARG_HEX:
	case SARG_PTR:
		prism_strbuf_addf(out, "%#" PRIx64, val);
		break;
	case SARG_FILENAME:
		if (c->str)
			sarg_quote(c->str, c->str_truncated, out);
		else /* perf 6.1 without its vfs_getname probe: the low 32 bits */
			prism_strbuf_addf(out, "%#x", (unsigned int)val);
		break;
	case SARG_FDAT:
		if ((int)val == AT_FDCWD)
			prism_strbuf_addstr(out, "CWD");
		else
			fd_print(val, c, out);
		break;
	case SARG_PID:
		prism_strbuf_addf(out, "%d", (int)val);
		comm = c->comm ? c->comm(c->comm_ctx, (int)val) : NULL;
		if (comm)
			prism_strbuf_addf(out, " (%s)", comm);
		break;
	case SARG_MODE_T:
		FLAGS(mode_bits, (uint32_t)val, out);
		break;
	case SARG_OPEN_FLAGS:
		if (!(val & O_CREAT))
			c->mask |= 1u << (c->idx + 1);
		open_flags_print(val, out);
		break;
	case SARG_MMAP_PROT:
		if ((uint32_t)val == 0)
			prism_strbuf_addstr(out, "NONE");
		else
			FLAGS(mmap_prot, (uint32_t)val, out);
		break;
	case SARG_MMAP_FLAGS:
		if (val & 0x20) /* MAP_ANONYMOUS: fd and offset are ignored */
			c->mask |= 1u << 4 | 1u << 5;
		FLAGS(mmap_flags, val, out);
		break;
	case SARG_MREMAP_FLAGS:
		FLAGS(mremap_flags, val, out);
		break;
	case SARG_ACCMODE:
		accmode_print(val, out);
		break;
	case SARG_ARCH_PRCTL:
		arch_prctl_print(val, out);
		break;
	case SARG_RLIMIT:
		STRARRAY(rlimits, 0, val, out);
		break;
	case SARG_FUTEX_OP:
		futex_op_print(val, c, out);
		break;
	case SARG_FUTEX_VAL3:
		if ((uint32_t)val == 0xffffffffu)
			prism_strbuf_addstr(out, "MATCH_ANY");
		else
			prism_strbuf_addf(out, "%#" PRIx64, val);
		break;
	case SARG_GETRANDOM_FLAGS:
		FLAGS(getrandom_flags, val, out);
		break;
	case SARG_IOCTL_CMD:
		ioctl_print(val, out);
		break;
	case SARG_SIGNUM:
		signum_print(val, out);
		break;
	case SARG_SIGHOW:
		STRARRAY(sighow, 0, val, out);
		break;
	case SARG_WHENCE:
		STRARRAY(whences, 0, val, out);
		break;
	case SARG_CLOCKID:
		STRARRAY(clockids, 0, val, out);
		break;
	case SARG_ITIMER:
		STRARRAY(itimers, 0, val, out);
		break;
	case SARG_EPOLL_OP:
		STRARRAY(epoll_ops, 1, val, out);
		break;
	case SARG_FCNTL_CMD:
		fcntl_cmd_print(val, c, out);
		break;
	case SARG_FCNTL_ARG:
		fcntl_arg_print(val, c, out);
		break;
	case SARG_MADV:
		STRARRAY(madvs, 0, val, out);
		break;
	case SARG_MSG_FLAGS:
		FLAGS(msg_flags, val, out);
		break;
	case SARG_PIPE_FLAGS:
		FLAGS(pipe_flags, val, out);
		break;
	case SARG_EFD_FLAGS:
		FLAGS(efd_flags, val, out);
		break;
	case SARG_SOCK_FAMILY:
		STRARRAY(families, 0, val, out);
		break;
	case SARG_SOCK_TYPE:
		sock_type_print(val, out);
		break;
	case SARG_WAIT_OPTIONS:
		FLAGS(wait_options, (uint32_t)val, out);
		break;
	case SARG_CLONE_FLAGS:
		if (val & 0xff)
			signum_print(val & 0xff, out);
		if (val & ~0xffull) {
			if (val & 0xff)
				prism_strbuf_addch(out, '|');
			FLAGS(clone_flags, val & ~0xffull, out);
		}
		break;
	case SARG_STATX_FLAGS:
		FLAGS(at_flags, (uint32_t)val, out);
		break;
	case SARG_STATX_MASK:
		FLAGS(statx_mask, (uint32_t)val, out);
		break;
	case SARG_PRCTL_OPTION:
		STRARRAY(prctl_options, 0, val, out);
		break;
	case SARG_DEFAULT:
	default:
		prism_strbuf_addf(out, "%ld", (long)val);
		break;
	}
}

enum sarg_kind sarg_kind_of_field(const char *type, const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(type, "const char *") &&
	    ((len >= 4 && !strcmp(name + len - 4, "name")) || strstr(name, "path")))
		return SARG_FILENAME;
	if (strchr(type, '*') || strstr(name, "addr"))
		return SARG_PTR;
	if (!strcmp(type, "pid_t"))
		return SARG_PID;
	if (!strcmp(type, "umode_t"))
		return SARG_MODE_T;
	if ((!strcmp(type, "int") || !strcmp(type, "unsigned int") || !strcmp(type, "long")) &&
	    len >= 2 && !strcmp(name + len - 2, "fd"))
		return SARG_FD;
	return SARG_DEFAULT;
}
