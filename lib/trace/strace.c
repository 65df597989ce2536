// SPDX-License-Identifier: MIT
/*
 * prism_strace: syscall names, the filter, and a call's argument and return
 * value text.  The line layout and the per-thread state are in lines.c.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <prism/tracefs.h>
#include <prism/util.h>

#include "internal.h"
#include "trace/trace-internal.h"

/* ids above every table's last syscall; the filter and cache cover these */
#define MAX_ID 1024

struct prism_strace *prism_strace__new(const struct prism_strace_opts *opts)
{
	struct prism_strace *st = calloc(1, sizeof(*st));
	struct utsname u;
	const char *arch = opts->arch;

	if (!st)
		return NULL;
	st->o = *opts;
	if (!arch)
		arch = uname(&u) ? "x86_64" : u.machine;
	st->arch = prism_syscall_table(arch);
	if (!st->arch) {
		free(st);
		errno = ENOENT;
		return NULL;
	}
	st->scs = calloc(MAX_ID, sizeof(*st->scs));
	st->filter = calloc(MAX_ID / 8, 1);
	if (!st->scs || !st->filter) {
		prism_strace__free(st);
		errno = ENOMEM;
		return NULL;
	}
	st->nr_scs = MAX_ID;
	prism_strbuf_init(&st->scratch);
	return st;
}

void prism_strace__free(struct prism_strace *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; st->scs && i < st->nr_scs; i++)
		strace_format_release(&st->scs[i].fmt);
	for (i = 0; st->thr && i < st->cap_thr; i++) {
		if (st->thr[i].used) {
			prism_strbuf_release(&st->thr[i].entry);
			free(st->thr[i].path);
		}
	}
	strace_fds_release(st);
	free(st->thr);
	free(st->scs);
	free(st->filter);
	prism_strbuf_release(&st->scratch);
	free(st);
}

const char *prism_strace__arch(const struct prism_strace *st)
{
	return st->arch;
}

int prism_strace__filter_add(struct prism_strace *st, const char *pattern)
{
	bool any = false;
	int64_t id;

	if (*pattern == '!') {
		pattern++;
		if (!st->has_filter)
			st->negate = true;
	}
	for (id = 0; id < MAX_ID; id++) {
		const char *name = prism_syscall_name(st->arch, id);

		if (name && !fnmatch(pattern, name, 0)) {
			st->filter[id / 8] |= (uint8_t)(1u << (id % 8));
			any = true;
		}
	}
	if (!any)
		return -ENOENT;
	st->has_filter = true;
	return 0;
}

bool prism_strace__wants(const struct prism_strace *st, int64_t id)
{
	bool in;

	if (id < 0 || id >= MAX_ID || !prism_syscall_name(st->arch, id))
		return false;
	if (!st->has_filter)
		return true;
	in = st->filter[id / 8] & (1u << (id % 8));
	return st->negate ? !in : in;
}

int prism_strace__id_filter(const struct prism_strace *st, struct prism_strbuf *out)
{
	size_t n = 0, start = out->len;
	int64_t id;

	if (!st->has_filter)
		return -ENOENT;
	for (id = 0; id < MAX_ID; id++) {
		if (!(st->filter[id / 8] & (1u << (id % 8))) || !prism_syscall_name(st->arch, id))
			continue;
		if (++n > 64) {
			prism_strbuf_setlen(out, start);
			return -E2BIG;
		}
		prism_strbuf_addf(out, "%sid %s %" PRId64,
				  n > 1 ? (st->negate ? " && " : " || ") : "",
				  st->negate ? "!=" : "==", id);
	}
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}

static int read_tracefs_format(void *ctx, const char *name, char **text, size_t *len)
{
	char rel[256];

	(void)ctx;
	if ((size_t)snprintf(rel, sizeof(rel), "events/syscalls/sys_enter_%s/format", name) >=
	    sizeof(rel))
		return -ENAMETOOLONG;
	return prism_tracefs_read(rel, text, len);
}

/*
 * A syscall's format is named after its kernel function: fstat's is
 * sys_enter_newfstat (also stat, lstat, uname), umount2's sys_enter_umount.
 */
static int read_format(struct prism_strace *st, const char *name, char **text, size_t *len)
{
	int (*rd)(void *, const char *, char **, size_t *) =
		st->o.read_format ? st->o.read_format : read_tracefs_format;
	char alt[64];
	int err = rd(st->o.format_ctx, name, text, len);

	if (err != -ENOENT)
		return err;
	if (!strcmp(name, "umount2"))
		return rd(st->o.format_ctx, "umount", text, len);
	if ((size_t)snprintf(alt, sizeof(alt), "new%s", name) >= sizeof(alt))
		return err;
	return rd(st->o.format_ctx, alt, text, len);
}

static void resolve(struct prism_strace *st, struct strace_sc *sc, const char *name)
{
	const struct syscall_fmt *sf = strace_syscall_fmt(name);
	char *text = NULL;
	size_t len = 0, i;
	int err;

	sc->state = -1;
	sc->ret = sf ? sf->ret : SRET_SIGNED;
	sc->is_exit = !strcmp(name, "exit") || !strcmp(name, "exit_group");
	err = read_format(st, name, &text, &len);
	if (!err)
		err = strace_format_parse(text, len, &sc->fmt);
	free(text);
	if (err) {
		pr_debug("trace: no format for syscall %s: %s", name, strerror(-err));
		/* perf prints arg0..arg5 of a syscall it has no format for */
		sc->nr_args = STRACE_MAX_ARGS;
		for (i = 0; i < STRACE_MAX_ARGS; i++) {
			sc->names[i] = NULL;
			sc->kinds[i] = sf && sf->arg[i] ? (enum sarg_kind)(sf->arg[i] - 1) :
							  SARG_DEFAULT;
		}
		return;
	}
	sc->state = 1;
	sc->nr_args = sc->fmt.nr_args;
	for (i = 0; i < sc->nr_args; i++) {
		sc->names[i] = sf && sf->arg_name[i] ? sf->arg_name[i] : sc->fmt.names[i];
		if (sf && sf->arg[i])
			sc->kinds[i] = (enum sarg_kind)(sf->arg[i] - 1);
		else
			sc->kinds[i] = sarg_kind_of_field(sc->fmt.types[i], sc->fmt.names[i]);
	}
}

struct strace_sc *strace_sc(struct prism_strace *st, int64_t id)
{
	const char *name;
	struct strace_sc *sc;

	if (id < 0 || (uint64_t)id >= st->nr_scs)
		return NULL;
	name = prism_syscall_name(st->arch, id);
	if (!name)
		return NULL;
	sc = &st->scs[id];
	if (!sc->state)
		resolve(st, sc, name);
	return sc;
}

unsigned int prism_strace__string_args(struct prism_strace *st, int64_t id)
{
	struct strace_sc *sc = strace_sc(st, id);
	unsigned int mask = 0;
	size_t i;

	for (i = 0; sc && i < sc->nr_args; i++)
		if (sc->kinds[i] == SARG_FILENAME)
			mask |= 1u << i;
	return mask;
}

struct fd_ctx {
	struct prism_strace *st;
	uint32_t pid;
};

static const char *fd_path_of(void *ctx, int fd)
{
	struct fd_ctx *f = ctx;

	return strace_fd_path(f->st, f->pid, fd);
}

int prism_strace__format_call(struct prism_strace *st, const struct prism_strace_enter *e,
			      struct prism_strbuf *out)
{
	struct strace_sc *sc = strace_sc(st, e->id);
	struct fd_ctx f = { st, e->pid };
	struct sarg_ctx c = { .comm = st->o.comm, .comm_ctx = st->o.comm_ctx };
	size_t i, start;

	if (!sc)
		return -ENOENT;
	memcpy(c.args, e->args, sizeof(c.args));
	if (e->pid) {
		c.fd_path = fd_path_of;
		c.fd_ctx = &f;
	}
	prism_strbuf_addf(out, "%s(", prism_syscall_name(st->arch, e->id));
	start = out->len;
	for (i = 0; i < sc->nr_args; i++) {
		uint64_t v = e->args[i];

		if (c.mask & (1u << i))
			continue;
		/* a zero is left out unless its kind names zero */
		if (!v && !sarg_shows_zero(sc->kinds[i]))
			continue;
		if (out->len != start)
			prism_strbuf_addstr(out, ", ");
		if (sc->names[i])
			prism_strbuf_addf(out, "%s: ", sc->names[i]);
		else
			prism_strbuf_addf(out, "arg%zu: ", i);
		c.idx = (int)i;
		c.str = e->strs[i];
		c.str_truncated = e->strs_truncated[i];
		sarg_format(sc->kinds[i], v, &c, out);
	}
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}

void prism_strace__format_ret(struct prism_strace *st, int64_t id, int64_t ret,
			      struct prism_strbuf *out)
{
	struct strace_sc *sc = strace_sc(st, id);
	enum sret_kind k = sc ? sc->ret : SRET_SIGNED;
	const char *name, *comm;
	char buf[128];

	if (ret < 0) {
		name = ret >= -4095 ? strace_errno_name((int)-ret) : NULL;
		if (!name) {
			prism_strbuf_addf(out, "%" PRId64, ret);
			return;
		}
		prism_strbuf_addf(out, "-1 %s (%s)", name, strerror_r((int)-ret, buf, sizeof(buf)));
		return;
	}
	switch (k) {
	case SRET_TIMEOUT:
		prism_strbuf_addstr(out, ret ? "" : "0 (Timeout)");
		if (ret)
			prism_strbuf_addf(out, "%" PRId64, ret);
		break;
	case SRET_HEX:
		prism_strbuf_addf(out, "%#" PRIx64, (uint64_t)ret);
		break;
	case SRET_PID:
		prism_strbuf_addf(out, "%" PRId64, ret);
		comm = ret > 0 && st->o.comm ? st->o.comm(st->o.comm_ctx, (int)ret) : NULL;
		if (comm)
			prism_strbuf_addf(out, " (%s)", comm);
		break;
	case SRET_SIGNED:
	default:
		prism_strbuf_addf(out, "%" PRId64, ret);
		break;
	}
}
