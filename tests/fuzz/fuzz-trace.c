// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: lib/trace's untrusted inputs, a syscalls:sys_enter_*
 * format text (parsed for every syscall), argument values and a captured
 * string (a traced process's memory).
 *
 * Input layout: u16 id, u64 args[6], u8 ret selector, STRING '\0' FORMAT.
 * Each input is formatted as a call, as an enter/exit pair (line layout
 * and return value), and as an exit of a call that was never entered.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/log.h>
#include <prism/strbuf.h>
#include <prism/trace.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct input {
	const char *fmt;
	size_t fmt_len;
};

static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static int read_fmt(void *ctx, const char *name, char **text, size_t *len)
{
	const struct input *in = ctx;

	*text = malloc(in->fmt_len + 1);
	if (!*text)
		return -ENOMEM;
	memcpy(*text, in->fmt, in->fmt_len);
	*len = in->fmt_len;
	return 0;
}

static const char *comm(void *ctx, int tid)
{
	return tid & 1 ? "comm" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prism_strace_enter e = { .pid = 7, .tid = 7, .time = 1000 };
	struct prism_strbuf sb = STRBUF_INIT;
	struct input in;
	struct prism_strace_opts o = {
		.arch = "x86_64",
		.comm = comm,
		.read_format = read_fmt,
		.format_ctx = &in,
	};
	struct prism_strace *st;
	const uint8_t *nul;
	uint16_t id;
	int64_t ret;
	size_t i;

	if (size < 2 + 48 + 1)
		return 0;
	memcpy(&id, data, 2);
	memcpy(e.args, data + 2, 48);
	ret = (int64_t)e.args[(data[50] & 7) % 6] >> (data[50] >> 3);
	data += 51;
	size -= 51;
	nul = memchr(data, 0, size);
	if (!nul)
		return 0;
	for (i = 0; i < PRISM_STRACE_MAX_ARGS; i++) {
		e.strs[i] = (const char *)data;
		e.strs_truncated[i] = i & 1;
	}
	in.fmt = (const char *)nul + 1;
	in.fmt_len = size - (size_t)(nul + 1 - data);
	o.failure_only = id & 0x8000;
	st = prism_strace__new(&o);
	if (!st)
		return 0;
	e.id = id & 0x3ff;
	prism_strace__format_call(st, &e, &sb);
	prism_strace__string_args(st, e.id);
	prism_strace__enter(st, &e, &sb);
	prism_strace__exit(st, 7, 2000, e.id, ret, &sb);
	prism_strace__exit(st, 8, 3000, e.id, ret, &sb);
	prism_strace__format_ret(st, e.id, ret, &sb);
	prism_strace__free(st);
	prism_strbuf_release(&sb);
	return 0;
}
