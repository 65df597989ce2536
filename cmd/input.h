/* SPDX-License-Identifier: MIT */
/*
 * Opening perf.data inputs for the reading commands.
 */
#ifndef PRISM_CMD_INPUT_H
#define PRISM_CMD_INPUT_H

#include <stdbool.h>

#include <prism/session.h>

/*
 * Set by a command that prints as it reads (prism script): no progress
 * line over its output on a terminal.  Reads of files show their progress
 * on a terminal's stderr otherwise (not with -q, not in pipes).
 */
extern bool input_streams_stdout;

/* open @path (NULL = "perf.data", "-" = stdin); prints the error and returns NULL on failure */
struct prism_session *open_input(const char *path, bool force, bool no_order);
/* the same with every session option (o->path NULL = "perf.data") */
struct prism_session *open_session(struct prism_session_opts *o, bool force);
/*
 * after prism_session__process() returned @err: warn about the records it
 * skipped (malformed bodies, samples of no event), then print the error
 * when @err < 0.  Return: 1 when @err < 0, else 0.
 */
int report_process_result(struct prism_session *s, const char *path, int err);

/*
 * print_header - the header block perf prints for --header-only -I (cmd/header.c);
 * a pipe not read yet is read first, its features being records.
 * Return: report_process_result()'s value for that read, else 0.
 */
int print_header(struct prism_session *s, const char *input, bool missing);

/*
 * Kernel symbols for a reader, as perf reads a perf record --kcore directory:
 * @given (--kallsyms), else @kcore/kallsyms (--kcore DIR), else the input's
 * kcore_dir/kallsyms; NULL: the default (/proc/kallsyms, build-id checked).
 * The result stays valid until the next call.
 */
const char *input_kallsyms(struct prism_session *s, const char *given, const char *kcore);
/*
 * The kernel's code for the Intel PT decoder, tried in this order: @kcore/kcore
 * (--kcore DIR), @vmlinux (-k/--vmlinux FILE), the input's kcore_dir/kcore.
 * Prints the error and returns -1 when a named one cannot be read.
 */
struct prism_symbols;
int input_kernel_code(struct prism_symbols *sy, struct prism_session *s, const char *kcore,
		      const char *vmlinux);

#define OPT_KERNEL_CODE(kcore, vmlinux)                                                        \
	OPT_STRING(0, "kcore", (kcore), "dir",                                                 \
		   "kernel code and symbols from DIR/kcore and DIR/kallsyms (a kcore_dir "     \
		   "copy of perf/prism record --kcore), for decoding kernel code (--itrace)"), \
		OPT_STRING(                                                                    \
			'k', "vmlinux", (vmlinux), "file",                                     \
			"kernel code from this vmlinux (an ELF with the kernel text, moved by the file's KASLR offset) for --itrace; tried after --kcore, a directory input's kcore_dir after both")

#define OPT_INPUT(v)                       \
	OPT_STRING(                        \
		'i', "input", (v), "file", \
		"input file (default: perf.data; '-' reads standard input); records with a malformed body are skipped with a warning, exit status 0")
#define OPT_FORCE(v) OPT_BOOL('f', "force", (v), "read a file not owned by the current user")

#endif /* PRISM_CMD_INPUT_H */
