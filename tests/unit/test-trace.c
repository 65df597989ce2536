// SPDX-License-Identifier: MIT
/*
 * lib/trace: the sys_enter_* format parser, the argument beautifiers, the
 * return values and the line layout of prism trace, against the text perf
 * trace 6.1 prints for the same values (taken from `perf trace -- ls /` on
 * x86_64).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <prism/strbuf.h>
#include <prism/tp.h>
#include <prism/trace.h>

#include "test.h"
#include "trace/trace-internal.h"

#define HDR                                                                            \
	"name: sys_enter_x\nID: 1\nformat:\n"                                          \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"                   \
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"

struct fmt_text {
	const char *name, *fields;
};

/* the argument lines of this kernel's formats for the syscalls tested */
static const struct fmt_text fmts[] = {
	{ "openat", "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
		    "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
		    "\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
		    "\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n" },
	{ "mmap", "\tfield:unsigned long addr;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:unsigned long len;\toffset:24;\tsize:8;\tsigned:0;\n"
		  "\tfield:unsigned long prot;\toffset:32;\tsize:8;\tsigned:0;\n"
		  "\tfield:unsigned long flags;\toffset:40;\tsize:8;\tsigned:0;\n"
		  "\tfield:unsigned long fd;\toffset:48;\tsize:8;\tsigned:0;\n"
		  "\tfield:unsigned long off;\toffset:56;\tsize:8;\tsigned:0;\n" },
	{ "access", "\tfield:const char * filename;\toffset:16;\tsize:8;\tsigned:0;\n"
		    "\tfield:int mode;\toffset:24;\tsize:8;\tsigned:0;\n" },
	{ "futex",
	  "\tfield:u32 * uaddr;\toffset:16;\tsize:8;\tsigned:0;\n"
	  "\tfield:int op;\toffset:24;\tsize:8;\tsigned:0;\n"
	  "\tfield:u32 val;\toffset:32;\tsize:8;\tsigned:0;\n"
	  "\tfield:const struct __kernel_timespec * utime;\toffset:40;\tsize:8;\tsigned:0;\n"
	  "\tfield:u32 * uaddr2;\toffset:48;\tsize:8;\tsigned:0;\n"
	  "\tfield:u32 val3;\toffset:56;\tsize:8;\tsigned:0;\n" },
	{ "close", "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n" },
	{ "brk", "\tfield:unsigned long brk;\toffset:16;\tsize:8;\tsigned:0;\n" },
	{ "exit_group", "\tfield:int error_code;\toffset:16;\tsize:8;\tsigned:0;\n" },
	{ "set_tid_address", "\tfield:int * tidptr;\toffset:16;\tsize:8;\tsigned:0;\n" },
	{ "prlimit64", "\tfield:pid_t pid;\toffset:16;\tsize:8;\tsigned:0;\n"
		       "\tfield:unsigned int resource;\toffset:24;\tsize:8;\tsigned:0;\n"
		       "\tfield:const struct rlimit64 * new_rlim;\toffset:32;\tsize:8;\tsigned:0;\n"
		       "\tfield:struct rlimit64 * old_rlim;\toffset:40;\tsize:8;\tsigned:0;\n" },
	{ "read", "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
		  "\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n" },
	{ "dup2", "\tfield:unsigned int oldfd;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:unsigned int newfd;\toffset:24;\tsize:8;\tsigned:0;\n" },
	{ "newfstat", "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		      "\tfield:struct stat * statbuf;\toffset:24;\tsize:8;\tsigned:0;\n" },
	{ "fcntl", "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		   "\tfield:unsigned int cmd;\toffset:24;\tsize:8;\tsigned:0;\n"
		   "\tfield:unsigned long arg;\toffset:32;\tsize:8;\tsigned:0;\n" },
	{ "kill", "\tfield:pid_t pid;\toffset:16;\tsize:8;\tsigned:0;\n"
		  "\tfield:int sig;\toffset:24;\tsize:8;\tsigned:0;\n" },
};

static int read_fmt(void *ctx, const char *name, char **text, size_t *len)
{
	struct prism_strbuf sb = STRBUF_INIT;
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		if (strcmp(fmts[i].name, name))
			continue;
		prism_strbuf_addstr(&sb, HDR);
		prism_strbuf_addstr(&sb, fmts[i].fields);
		prism_strbuf_addstr(&sb, "\nprint fmt: \"\"\n");
		*text = prism_strbuf_detach(&sb, len);
		return *text ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

static const char *comm(void *ctx, int tid)
{
	(void)ctx;
	return tid == 4242 ? "ls" : NULL;
}

static struct prism_strace *new_strace(double min_ms, bool failure)
{
	struct prism_strace_opts o = {
		.arch = "x86_64",
		.min_duration_ms = min_ms,
		.failure_only = failure,
		.comm = comm,
		.read_format = read_fmt,
	};

	return prism_strace__new(&o);
}

/* the call text of syscall @id with @args */
static const char *call(struct prism_strace *st, struct prism_strbuf *sb, int64_t id,
			const uint64_t args[6], const char *str0, const char *str1)
{
	struct prism_strace_enter e = { .id = id };

	memcpy(e.args, args, sizeof(e.args));
	e.strs[0] = str0;
	e.strs[1] = str1;
	prism_strbuf_reset(sb);
	if (prism_strace__format_call(st, &e, sb))
		return "(error)";
	return sb->buf;
}

static void test_format_parse(void)
{
	struct strace_format f;
	char *text;
	size_t len;

	TEST_EQ(read_fmt(NULL, "openat", &text, &len), 0);
	TEST_EQ(strace_format_parse(text, len, &f), 0);
	free(text);
	TEST_EQ(f.nr_args, 4);
	TEST_STREQ(f.names[0], "dfd");
	TEST_STREQ(f.types[1], "const char *");
	TEST_STREQ(f.names[1], "filename");
	TEST_STREQ(f.types[3], "umode_t");
	strace_format_release(&f);
	/* no __syscall_nr: not a syscall format */
	TEST_EQ(strace_format_parse("field:int a;\n", 13, &f), -EINVAL);
	/* a field line without a name */
	TEST_EQ(strace_format_parse(HDR "\tfield:int;\n", strlen(HDR "\tfield:int;\n"), &f),
		-EINVAL);
	/* seven arguments are more than a syscall has */
	TEST_EQ(strace_format_parse(HDR "field:int a;\nfield:int b;\nfield:int c;\nfield:int d;\n"
					"field:int e;\nfield:int f;\nfield:int g;\n",
				    strlen(HDR) + 7 * 13, &f),
		-EINVAL);
	TEST_EQ(sarg_kind_of_field("const char *", "pathname"), SARG_FILENAME);
	TEST_EQ(sarg_kind_of_field("char *", "buf"), SARG_PTR);
	TEST_EQ(sarg_kind_of_field("unsigned int", "fd"), SARG_FD);
	TEST_EQ(sarg_kind_of_field("unsigned long", "fd"), SARG_DEFAULT);
	TEST_EQ(sarg_kind_of_field("pid_t", "pid"), SARG_PID);
}

static void test_args(void)
{
	struct prism_strace *st = new_strace(0, false);
	struct prism_strbuf sb = STRBUF_INIT;

	TEST_TRUE(st != NULL);
	/* openat(AT_FDCWD, p, O_RDONLY|O_CLOEXEC): mode masked without O_CREAT */
	TEST_STREQ(call(st, &sb, 257,
			(uint64_t[6]){ (uint64_t)-100, 0x7f996b31a0b1, 0x80000, 0777 }, NULL, NULL),
		   "openat(dfd: CWD, filename: 0x6b31a0b1, flags: RDONLY|CLOEXEC");
	/* flags 0 are left out, the captured string is quoted */
	TEST_STREQ(call(st, &sb, 257, (uint64_t[6]){ (uint64_t)-100, 0x1000 }, NULL,
			"/usr/lib/\"x\"\n"),
		   "openat(dfd: CWD, filename: \"/usr/lib/\\\"x\\\"\\n\"");
	TEST_STREQ(call(st, &sb, 257, (uint64_t[6]){ 3, 1, 0x241, 0644 }, NULL, NULL),
		   "openat(dfd: 3, filename: 0x1, flags: CREAT|TRUNC|WRONLY, mode: IRUGO|IWUSR");
	/* 0666 as perf prints it for sh's "> file" */
	TEST_STREQ(call(st, &sb, 257, (uint64_t[6]){ 3, 1, 0x241, 0666 }, NULL, NULL),
		   "openat(dfd: 3, filename: 0x1, flags: CREAT|TRUNC|WRONLY, mode: IRUGO|IWUGO");
	TEST_STREQ(call(st, &sb, 257, (uint64_t[6]){ 3, 1, 0x90800 }, NULL, NULL),
		   "openat(dfd: 3, filename: 0x1, flags: RDONLY|CLOEXEC|DIRECTORY|NONBLOCK");
	/* mmap: MAP_ANONYMOUS masks fd and offset */
	TEST_STREQ(call(st, &sb, 9, (uint64_t[6]){ 0, 8192, 3, 0x22, (uint64_t)-1, 0 }, NULL, NULL),
		   "mmap(len: 8192, prot: READ|WRITE, flags: PRIVATE|ANONYMOUS");
	TEST_STREQ(
		call(st, &sb, 9, (uint64_t[6]){ 0x7f996b2b5000, 110592, 5, 0x812, 3, 0x7000 }, NULL,
		     NULL),
		"mmap(addr: 0x7f996b2b5000, len: 110592, prot: READ|EXEC, flags: PRIVATE|FIXED|DENYWRITE, fd: 3, off: 0x7000");
	/* prot 0 is shown (NONE) */
	TEST_STREQ(call(st, &sb, 9, (uint64_t[6]){ 0, 4096, 0, 0x22 }, NULL, NULL),
		   "mmap(len: 4096, prot: NONE, flags: PRIVATE|ANONYMOUS");
	TEST_STREQ(call(st, &sb, 21, (uint64_t[6]){ 0x6b31b2a0, 4 }, NULL, NULL),
		   "access(filename: 0x6b31b2a0, mode: R");
	TEST_STREQ(call(st, &sb, 21, (uint64_t[6]){ 0x6b31b2a0, 7 }, NULL, NULL),
		   "access(filename: 0x6b31b2a0, mode: RWX");
	TEST_STREQ(call(st, &sb, 21, (uint64_t[6]){ 0x6b31b2a0, 0 }, NULL, NULL),
		   "access(filename: 0x6b31b2a0");
	/* futex WAKE ignores utime, uaddr2 and val3 */
	TEST_STREQ(call(st, &sb, 202,
			(uint64_t[6]){ 0x7f996b2a0a4c, 129, 2147483647, 0x1234, 0x5678, 9 }, NULL,
			NULL),
		   "futex(uaddr: 0x7f996b2a0a4c, op: WAKE|PRIVATE_FLAG, val: 2147483647");
	TEST_STREQ(call(st, &sb, 202, (uint64_t[6]){ 0x10, 9, 1, 0, 0, 0xffffffff }, NULL, NULL),
		   "futex(uaddr: 0x10, op: WAIT_BITSET, val: 1, val3: MATCH_ANY");
	TEST_STREQ(call(st, &sb, 3, (uint64_t[6]){ 3 }, NULL, NULL), "close(fd: 3");
	TEST_STREQ(call(st, &sb, 12, (uint64_t[6]){ 0 }, NULL, NULL), "brk(");
	/* a strarray prints zero's name; pid 0 is left out */
	TEST_STREQ(call(st, &sb, 302, (uint64_t[6]){ 0, 0, 0, 0x7ffd5cd773b0 }, NULL, NULL),
		   "prlimit64(resource: CPU, old_rlim: 0x7ffd5cd773b0");
	TEST_STREQ(call(st, &sb, 302, (uint64_t[6]){ 0, 3, 0, 0x7ffd5cd773b0 }, NULL, NULL),
		   "prlimit64(resource: STACK, old_rlim: 0x7ffd5cd773b0");
	/* a pid with a known comm, a signal name */
	TEST_STREQ(call(st, &sb, 62, (uint64_t[6]){ 4242, 15 }, NULL, NULL),
		   "kill(pid: 4242 (ls), sig: TERM");
	TEST_STREQ(call(st, &sb, 62, (uint64_t[6]){ 77, 99 }, NULL, NULL),
		   "kill(pid: 77, sig: 0x63");
	/* fstat's format is sys_enter_newfstat */
	TEST_STREQ(call(st, &sb, 5, (uint64_t[6]){ 3, 0x10 }, NULL, NULL),
		   "fstat(fd: 3, statbuf: 0x10");
	/* no format: arg0..arg5 as perf prints them */
	TEST_STREQ(call(st, &sb, 39, (uint64_t[6]){ 0, 5 }, NULL, NULL), "getpid(arg1: 5");
	/* the string args a caller may capture */
	TEST_EQ(prism_strace__string_args(st, 257), 2u);
	TEST_EQ(prism_strace__string_args(st, 21), 1u);
	TEST_EQ(prism_strace__string_args(st, 9), 0u);
	prism_strbuf_release(&sb);
	prism_strace__free(st);
}

static void test_ret(void)
{
	struct prism_strace *st = new_strace(0, false);
	struct prism_strbuf sb = STRBUF_INIT;

	TEST_TRUE(st != NULL);
	prism_strace__format_ret(st, 257, -2, &sb);
	TEST_STREQ(sb.buf, "-1 ENOENT (No such file or directory)");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 16, -25, &sb);
	TEST_STREQ(sb.buf, "-1 ENOTTY (Inappropriate ioctl for device)");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 9, 0x7f996b2e7000, &sb);
	TEST_STREQ(sb.buf, "0x7f996b2e7000");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 218, 4242, &sb);
	TEST_STREQ(sb.buf, "4242 (ls)");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 7, 0, &sb); /* poll */
	TEST_STREQ(sb.buf, "0 (Timeout)");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 0, 832, &sb);
	TEST_STREQ(sb.buf, "832");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 0, -100000, &sb);
	TEST_STREQ(sb.buf, "-100000");
	prism_strbuf_reset(&sb);
	prism_strace__format_ret(st, 0, -512, &sb);
	TEST_STREQ(sb.buf, "-1 ERESTARTSYS (Unknown error 512)");
	prism_strbuf_release(&sb);
	prism_strace__free(st);
}

static void enter(struct prism_strace *st, struct prism_strbuf *out, uint32_t tid, uint64_t t,
		  int64_t id, uint64_t a0, uint64_t a1)
{
	struct prism_strace_enter e = { .tid = tid, .time = t, .id = id, .args = { a0, a1 } };

	prism_strace__enter(st, &e, out);
}

static void test_lines(void)
{
	struct prism_strace *st = new_strace(0, false);
	struct prism_strbuf sb = STRBUF_INIT;

	TEST_TRUE(st != NULL);
	/* an exit without its entry: time and duration unknown */
	TEST_EQ(prism_strace__exit(st, 4242, 1000000, 59, 0, &sb), 0);
	TEST_STREQ(sb.buf, "         ? (         ): ls/4242  ... [continued]: execve())"
			   "                                           = 0\n");
	prism_strbuf_reset(&sb);
	enter(st, &sb, 4242, 1054000, 12, 0, 0);
	TEST_EQ(sb.len, 0);
	TEST_EQ(prism_strace__exit(st, 4242, 1066000, 12, 0x56209e82b000, &sb), 0);
	TEST_STREQ(sb.buf, "     0.054 ( 0.012 ms): ls/4242 brk()"
			   "                                                                 = "
			   "0x56209e82b000\n");
	prism_strbuf_reset(&sb);
	/* another thread's entry interrupts a pending one */
	enter(st, &sb, 4242, 2000000, 0, 3, 0x10);
	enter(st, &sb, 7, 2500000, 3, 4, 0);
	/* 66 columns for the text and its ')', then " ..." */
	TEST_STREQ(sb.buf, "     1.000 (         ): ls/4242 read(fd: 3, buf: 0x10)"
			   "                                             ...\n");
	prism_strbuf_reset(&sb);
	prism_strace__exit(st, 7, 2600000, 3, 0, &sb);
	TEST_STREQ(sb.buf, "     1.500 ( 0.100 ms): :/7 close(fd: 4)"
			   "                                                          = 0\n");
	prism_strbuf_reset(&sb);
	prism_strace__exit(st, 4242, 3000000, 0, 5, &sb);
	TEST_STREQ(sb.buf, "     1.000 ( 1.000 ms): ls/4242  ... [continued]: read())"
			   "                                             = 5\n");
	prism_strbuf_reset(&sb);
	/* exit_group is printed at its entry */
	enter(st, &sb, 4242, 4000000, 231, 0, 0);
	TEST_STREQ(sb.buf, "     3.000 (         ): ls/4242 exit_group()"
			   "                                                          = ?\n");
	prism_strbuf_reset(&sb);
	/* a long call text: one space before "= " */
	{
		struct prism_strace_enter e = { .tid = 4242,
						.time = 5000000,
						.id = 257,
						.args = { (uint64_t)-100, 1, 0x80000 } };

		e.strs[1] = "/usr/lib/x86_64-linux-gnu/libselinux.so.1";
		TEST_EQ(prism_strace__enter(st, &e, &sb), 0);
		TEST_EQ(prism_strace__exit(st, 4242, 5001000, 257, 3, &sb), 0);
		TEST_STREQ(sb.buf, "     4.000 ( 0.001 ms): ls/4242 openat(dfd: CWD, filename: "
				   "\"/usr/lib/x86_64-linux-gnu/libselinux.so.1\", flags: "
				   "RDONLY|CLOEXEC) = 3\n");
	}
	prism_strbuf_release(&sb);
	prism_strace__free(st);
}

static void test_filters(void)
{
	struct prism_strace *st = new_strace(0.5, false);
	struct prism_strbuf sb = STRBUF_INIT;

	TEST_TRUE(st != NULL);
	/* --duration 0.5: a short call is dropped, a long one printed */
	enter(st, &sb, 4242, 1000000, 0, 3, 0x10);
	prism_strace__exit(st, 4242, 1400000, 0, 1, &sb);
	TEST_EQ(sb.len, 0);
	enter(st, &sb, 4242, 2000000, 0, 3, 0x10);
	enter(st, &sb, 7, 2100000, 3, 4, 0); /* no interrupted line under a filter */
	TEST_EQ(sb.len, 0);
	prism_strace__exit(st, 4242, 2600000, 0, 1, &sb);
	TEST_TRUE(strstr(sb.buf, "( 0.600 ms): ls/4242 read(fd: 3, buf: 0x10)") != NULL);
	prism_strbuf_reset(&sb);
	/* and an exit without a known entry has no duration to pass it */
	prism_strace__exit(st, 4242, 3000000, 59, 0, &sb);
	TEST_EQ(sb.len, 0);
	prism_strace__free(st);

	st = new_strace(0, true);
	TEST_TRUE(st != NULL);
	enter(st, &sb, 4242, 1000000, 21, 0x10, 0);
	prism_strace__exit(st, 4242, 1100000, 21, 0, &sb);
	TEST_EQ(sb.len, 0);
	enter(st, &sb, 4242, 1200000, 21, 0x10, 0);
	prism_strace__exit(st, 4242, 1300000, 21, -2, &sb);
	TEST_TRUE(strstr(sb.buf, "access(filename: 0x10) ") != NULL);
	TEST_TRUE(strstr(sb.buf, "= -1 ENOENT (No such file or directory)\n") != NULL);
	prism_strbuf_reset(&sb);
	enter(st, &sb, 4242, 1400000, 231, 0, 0); /* exit_group: no error to show */
	TEST_EQ(sb.len, 0);
	prism_strace__free(st);

	/* -e names, globs and ! */
	st = new_strace(0, false);
	TEST_TRUE(st != NULL);
	TEST_TRUE(prism_strace__wants(st, 0));
	TEST_EQ(prism_strace__filter_add(st, "nosuchcall"), -ENOENT);
	TEST_EQ(prism_strace__filter_add(st, "open*"), 0);
	TEST_EQ(prism_strace__filter_add(st, "read"), 0);
	TEST_TRUE(prism_strace__wants(st, 0));
	TEST_TRUE(prism_strace__wants(st, 2));
	TEST_TRUE(prism_strace__wants(st, 257));
	TEST_TRUE(!prism_strace__wants(st, 1));
	TEST_TRUE(!prism_strace__wants(st, -1));
	TEST_TRUE(!prism_strace__wants(st, 100000));
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__id_filter(st, &sb), 0);
	TEST_STREQ(sb.buf,
		   "id == 0 || id == 2 || id == 257 || id == 304 || id == 428 || id == 437 || "
		   "id == 467");
	prism_strace__free(st);
	st = new_strace(0, false);
	TEST_TRUE(st != NULL);
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__id_filter(st, &sb), -ENOENT);
	TEST_EQ(prism_strace__filter_add(st, "!close"), 0);
	TEST_TRUE(!prism_strace__wants(st, 3));
	TEST_TRUE(prism_strace__wants(st, 0));
	TEST_EQ(prism_strace__id_filter(st, &sb), 0);
	TEST_STREQ(sb.buf, "id != 3");
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__filter_add(st, "*"), 0);
	TEST_EQ(prism_strace__id_filter(st, &sb), -E2BIG);
	TEST_EQ(sb.len, 0);
	prism_strace__free(st);
	st = new_strace(0, false);
	TEST_TRUE(st != NULL);
	TEST_EQ(prism_strace__filter_add(st, "!close"), 0);
	/* a filtered-out call prints nothing */
	enter(st, &sb, 4242, 1000000, 3, 4, 0);
	prism_strace__exit(st, 4242, 1100000, 3, 0, &sb);
	TEST_EQ(sb.len, 0);
	prism_strace__free(st);
	prism_strbuf_release(&sb);
}

/* fd paths: from the open that returned the fd, copied by dup, gone at close */
static void test_fd_paths(void)
{
	struct prism_strace *st = new_strace(0, false);
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_strace_enter e = { .pid = 50,
					.tid = 50,
					.time = 1000,
					.id = 257,
					.args = { (uint64_t)-100, 1, 0x80000 } };

	TEST_TRUE(st != NULL);
	e.strs[1] = "/etc/ld.so.cache";
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 2000, 257, 3, &sb);
	/* a relative path under a known directory fd */
	e = (struct prism_strace_enter){
		.pid = 50, .tid = 50, .time = 3000, .id = 257, .args = { 3, 1, 0x80000 }
	};
	e.strs[1] = "sub";
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 4000, 257, 4, &sb);
	prism_strbuf_reset(&sb);
	TEST_STREQ(call(st, &sb, 0, (uint64_t[6]){ 3, 0x10, 1 }, NULL, NULL),
		   "read(fd: 3, buf: 0x10, count: 1"); /* no pid: no paths */
	e = (struct prism_strace_enter){ .pid = 50, .tid = 50, .id = 0, .args = { 4, 0x10, 1 } };
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__format_call(st, &e, &sb), 0);
	TEST_STREQ(sb.buf, "read(fd: 4</etc/ld.so.cache/sub>, buf: 0x10, count: 1");
	/* another process's fd 3 is another file */
	e.pid = 51;
	e.args[0] = 3;
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__format_call(st, &e, &sb), 0);
	TEST_STREQ(sb.buf, "read(fd: 3, buf: 0x10, count: 1");
	/* dup2(3, 9) copies, close(3) forgets */
	e = (struct prism_strace_enter){
		.pid = 50, .tid = 50, .time = 5000, .id = 33, .args = { 3, 9 }
	};
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 6000, 33, 9, &sb);
	e = (struct prism_strace_enter){
		.pid = 50, .tid = 50, .time = 7000, .id = 3, .args = { 3 }
	};
	prism_strbuf_reset(&sb);
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 8000, 3, 0, &sb);
	TEST_TRUE(strstr(sb.buf, "close(fd: 3</etc/ld.so.cache>)") != NULL);
	e = (struct prism_strace_enter){ .pid = 50, .tid = 50, .id = 0, .args = { 3 } };
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__format_call(st, &e, &sb), 0);
	TEST_STREQ(sb.buf, "read(fd: 3");
	e.args[0] = 9;
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__format_call(st, &e, &sb), 0);
	TEST_STREQ(sb.buf, "read(fd: 9</etc/ld.so.cache>");
	/* fcntl: F_DUPFD's new fd has the old one's path, F_GETFL returns flags */
	e = (struct prism_strace_enter){
		.pid = 50, .tid = 50, .time = 8500, .id = 72, .args = { 9, F_DUPFD, 10 }
	};
	prism_strbuf_reset(&sb);
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 8600, 72, 10, &sb);
	TEST_TRUE(strstr(sb.buf, "fcntl(fd: 9</etc/ld.so.cache>, cmd: DUPFD, arg: 10) ") != NULL);
	TEST_TRUE(strstr(sb.buf, "= 10</etc/ld.so.cache>\n") != NULL);
	e = (struct prism_strace_enter){
		.pid = 50, .tid = 50, .time = 8700, .id = 72, .args = { 10, F_GETFL, 77 }
	};
	prism_strbuf_reset(&sb);
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 8800, 72, 0x8002, &sb);
	TEST_TRUE(strstr(sb.buf, "fcntl(fd: 10</etc/ld.so.cache>, cmd: GETFL) ") != NULL);
	TEST_TRUE(strstr(sb.buf, "= RDWR|0x8000\n") != NULL);
	/* a failed open sets nothing */
	e = (struct prism_strace_enter){
		.pid = 50, .tid = 50, .time = 9000, .id = 257, .args = { (uint64_t)-100, 1 }
	};
	e.strs[1] = "/nonexistent";
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 50, 9500, 257, -2, &sb);
	e = (struct prism_strace_enter){ .pid = 50, .tid = 50, .id = 0, .args = { 3 } };
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_strace__format_call(st, &e, &sb), 0);
	TEST_STREQ(sb.buf, "read(fd: 3");
	prism_strbuf_release(&sb);
	prism_strace__free(st);
}

/* one thread traced: perf leaves out the comm/tid column */
static void test_single_thread(void)
{
	struct prism_strace_opts o = { .arch = "x86_64",
				       .read_format = read_fmt,
				       .single_thread = true };
	struct prism_strace *st = prism_strace__new(&o);
	struct prism_strbuf sb = STRBUF_INIT;

	TEST_TRUE(st != NULL);
	prism_strace__exit(st, 4242, 1000000, 230, 0, &sb);
	TEST_STREQ(sb.buf, "         ? (         ):  ... [continued]: clock_nanosleep())"
			   "                                  = 0\n");
	prism_strbuf_reset(&sb);
	enter(st, &sb, 4242, 1020000, 3, 1, 0);
	prism_strace__exit(st, 4242, 1023000, 3, 0, &sb);
	TEST_STREQ(sb.buf, "     0.020 ( 0.003 ms): close(fd: 1)"
			   "                                                          = 0\n");
	prism_strbuf_release(&sb);
	prism_strace__free(st);
}

static void *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* another tracepoint: its fields after the common ones, zeros left out */
static void test_event(void)
{
	/* a sched_switch of tests/data/tp/p-sched.vec: perf -> migration/0, prev_state D */
	static const char hex[] =
		"740101035a3c0000706572660000000000000000000000005a3c000078000000020000000000"
		"00006d6967726174696f6e2f300000000000120000000000000000000000";
	struct prism_strace *st = new_strace(0, false);
	struct prism_strbuf sb = STRBUF_INIT;
	uint8_t raw[sizeof(hex) / 2];
	struct prism_strace_ev e = { .tid = 4242, .time = 1000000, .name = "sched:sched_switch" };
	struct prism_tp *tp = NULL;
	size_t len = 0, i;
	void *blob;

	TEST_TRUE(st != NULL);
	for (i = 0; i < sizeof(raw); i++) {
		unsigned int b;

		sscanf(hex + 2 * i, "%2x", &b);
		raw[i] = (uint8_t)b;
	}
	blob = read_all(test_data_path("tp/p-sched.blob"), &len);
	TEST_TRUE(blob != NULL);
	tp = prism_tp__new(blob, len);
	free(blob);
	if (!tp) {
		prism_strace__free(st);
		TEST_SKIP("no tracepoint formats (built without libtraceevent)");
	}
	e.tp_event = prism_tp__event_of(tp, raw, sizeof(raw));
	e.raw = raw;
	e.raw_size = sizeof(raw);
	TEST_TRUE(e.tp_event != NULL);
	TEST_EQ(prism_strace__event(st, &e, &sb), 0);
	TEST_STREQ(sb.buf,
		   "     0.000 ls/4242 sched:sched_switch(prev_comm: \"perf\", prev_pid: 15450, "
		   "prev_prio: 120, prev_state: 2, next_comm: \"migration/0\", next_pid: 18)\n");
	prism_strbuf_reset(&sb);
	e.duration_column = true;
	e.time = 3000000;
	TEST_EQ(prism_strace__event(st, &e, &sb), 0);
	TEST_TRUE(!strncmp(sb.buf,
			   "     2.000 (         ): ls/4242 sched:sched_switch(prev_comm:", 59));
	prism_strbuf_release(&sb);
	prism_tp__free(tp);
	prism_strace__free(st);
}

/* page faults: where, and what they touched, as perf trace -F */
static void test_fault(void)
{
	struct prism_strace *st = new_strace(0, false);
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_strace_fault f = {
		.tid = 4242,
		.time = 1000000,
		.addr = 0x7f0000001b70,
		.ip_sym = "_start",
		.ip_mapped = true,
		.addr_dso = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		.addr_map_addr = 0x1ab70,
		.level = '.',
	};

	TEST_TRUE(st != NULL);
	TEST_EQ(prism_strace__fault(st, &f, &sb), 0);
	TEST_STREQ(sb.buf, "     0.000 ( 0.000 ms): ls/4242 minfault [_start+0x0] => "
			   "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2@0x1ab70 (d.)\n");
	prism_strbuf_reset(&sb);
	/* in the kernel, on an address without a mapping */
	f = (struct prism_strace_fault){ .tid = 4242,
					 .time = 1049000,
					 .major = true,
					 .addr = 0x56092b2195c0,
					 .ip_sym = "elf_load",
					 .ip_symoff = 0x28a,
					 .ip_mapped = true,
					 .level = 'k' };
	TEST_EQ(prism_strace__fault(st, &f, &sb), 0);
	TEST_STREQ(sb.buf, "     0.049 ( 0.000 ms): ls/4242 majfault [elf_load+0x28a] => "
			   "0x56092b2195c0 (?k)\n");
	prism_strbuf_reset(&sb);
	/* no symbol: the offset in the mapping, else the faulting address */
	f = (struct prism_strace_fault){
		.tid = 4242, .time = 2000000, .addr = 0x10, .ip_mapped = true, .ip_map_addr = 0x1234
	};
	TEST_EQ(prism_strace__fault(st, &f, &sb), 0);
	TEST_TRUE(strstr(sb.buf, "minfault [0x1234] => 0x10 (?.)\n") != NULL);
	prism_strbuf_reset(&sb);
	f.ip_mapped = false;
	TEST_EQ(prism_strace__fault(st, &f, &sb), 0);
	TEST_TRUE(strstr(sb.buf, "minfault [0x10] => 0x10 (?.)\n") != NULL);
	prism_strbuf_release(&sb);
	prism_strace__free(st);
}

TEST_MAIN(TEST(format_parse), TEST(args), TEST(ret), TEST(lines), TEST(filters), TEST(fd_paths),
	  TEST(single_thread), TEST(event), TEST(fault));
