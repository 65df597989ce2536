// SPDX-License-Identifier: MIT
/*
 * The line layout of perf trace and the per-thread state behind it.
 *
 *	<ms since the first event %10.3f> (<duration %6.3f> ms): <comm %.14s>/<tid> name(args) = ret
 *
 * (no comm/tid when a single thread is traced).  A call is printed at its sys_exit, with the entry text kept from its
 * sys_enter.  "= " starts at column 70 of the call text (at least one space
 * after ')').  An entry that another thread's entry follows before its exit
 * is printed at once, ending in " ...", and its exit later as
 * " ... [continued]: name()) = ret"; an exit without a seen entry (the
 * execve of a started command) prints the same way, with '?' for time and
 * duration.  exit and exit_group are printed at entry with "= ?".
 * --duration and --failure suppress the early prints: only whole calls that
 * pass them are printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <prism/util.h>

#include "internal.h"
#include "trace/trace-internal.h"

#define ARGS_ALIGNMENT 70

static __wraps uint32_t hash_tid(uint32_t tid)
{
	return tid * 2654435761u;
}

static struct strace_thread *thread_find(struct prism_strace *st, uint32_t tid, bool create)
{
	size_t i, mask;

	if (st->cap_thr) {
		mask = st->cap_thr - 1;
		for (i = hash_tid(tid) & mask; st->thr[i].used; i = (i + 1) & mask)
			if (st->thr[i].tid == tid)
				return &st->thr[i];
	}
	if (!create)
		return NULL;
	if ((st->nr_thr + 1) * 2 > st->cap_thr) {
		size_t cap = st->cap_thr ? st->cap_thr * 2 : 64, j;
		struct strace_thread *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (j = 0; j < st->cap_thr; j++) {
			if (!st->thr[j].used)
				continue;
			for (i = hash_tid(st->thr[j].tid) & (cap - 1); t[i].used;
			     i = (i + 1) & (cap - 1))
				;
			t[i] = st->thr[j];
		}
		free(st->thr);
		st->thr = t;
		st->cap_thr = cap;
	}
	mask = st->cap_thr - 1;
	for (i = hash_tid(tid) & mask; st->thr[i].used; i = (i + 1) & mask)
		;
	st->thr[i] = (struct strace_thread){ .tid = tid, .used = true };
	prism_strbuf_init(&st->thr[i].entry);
	st->nr_thr++;
	return &st->thr[i];
}

static bool filtering(const struct prism_strace *st)
{
	return st->o.min_duration_ms > 0 || st->o.failure_only;
}

static void pad(struct prism_strbuf *out, size_t printed, size_t alignment)
{
	size_t n = alignment > printed ? alignment - printed : 0;

	/* at least the one space */
	prism_strbuf_pad_to(out, out->len + (n > 1 ? n : 1), ' ');
}

/* time, the duration column (@col 0: none, 1: blank, 2: @duration) and comm/tid */
static void head_cols(struct prism_strace *st, uint32_t tid, uint64_t time, int col,
		      uint64_t duration, struct prism_strbuf *out)
{
	const char *comm;

	if (time)
		prism_strbuf_addf(out, "%10.3f ",
				  (double)(time >= st->base_time ? time - st->base_time : 0) / 1e6);
	else
		prism_strbuf_addstr(out, "         ? ");
	if (col == 2)
		prism_strbuf_addf(out, "(%6.3f ms): ", (double)duration / 1e6);
	else if (col == 1)
		prism_strbuf_addstr(out, "(         ): ");
	if (st->o.single_thread)
		return;
	comm = st->o.comm ? st->o.comm(st->o.comm_ctx, (int)tid) : NULL;
	prism_strbuf_addf(out, "%.14s/%u ", comm ? comm : ":", tid);
}

void strace_head(struct prism_strace *st, uint32_t tid, uint64_t time, bool duration_column,
		 struct prism_strbuf *out)
{
	head_cols(st, tid, time, duration_column ? 1 : 0, 0, out);
}

void strace_head_duration(struct prism_strace *st, uint32_t tid, uint64_t time, uint64_t duration,
			  struct prism_strbuf *out)
{
	head_cols(st, tid, time, 2, duration, out);
}

static void head(struct prism_strace *st, uint32_t tid, uint64_t time, bool has_duration,
		 uint64_t duration, struct prism_strbuf *out)
{
	head_cols(st, tid, time, has_duration ? 2 : 1, duration, out);
}

/* the entry of the thread that entered last, if still pending, ends in " ..." */
void strace_print_interrupted(struct prism_strace *st, struct prism_strbuf *out)
{
	struct strace_thread *t;
	size_t len;

	if (!st->has_current || filtering(st))
		return;
	t = thread_find(st, st->current, false);
	if (!t || !t->pending)
		return;
	head(st, t->tid, t->entry_time, false, 0, out);
	len = t->entry.len + 1;
	prism_strbuf_add(out, t->entry.buf, t->entry.len);
	prism_strbuf_addch(out, ')');
	if (len < ARGS_ALIGNMENT - 4)
		prism_strbuf_addf(out, "%-*s", (int)(ARGS_ALIGNMENT - 4 - len), " ");
	prism_strbuf_addstr(out, " ...\n");
	t->pending = false;
}

static void set_base(struct prism_strace *st, uint64_t time)
{
	if (!st->base_time)
		st->base_time = time;
}

int prism_strace__enter(struct prism_strace *st, const struct prism_strace_enter *e,
			struct prism_strbuf *out)
{
	struct strace_sc *sc;
	struct strace_thread *t;
	size_t i;
	int err;

	if (!prism_strace__wants(st, e->id))
		return 0;
	sc = strace_sc(st, e->id);
	if (!sc)
		return 0;
	set_base(st, e->time);
	strace_print_interrupted(st, out);
	t = thread_find(st, e->tid, true);
	if (!t)
		return -ENOMEM;
	prism_strbuf_reset(&t->entry);
	err = prism_strace__format_call(st, e, &t->entry);
	if (err)
		return err;
	t->id = e->id;
	t->entry_time = e->time;
	t->pending = false;
	t->pid = e->pid;
	t->a0 = e->args[0];
	t->a1 = e->args[1];
	zfree(&t->path);
	for (i = 0; i < PRISM_STRACE_MAX_ARGS; i++) {
		if (e->strs[i] && sc->kinds[i] == SARG_FILENAME && !e->strs_truncated[i]) {
			t->path = strdup(e->strs[i]);
			break;
		}
	}
	if (sc->is_exit) {
		if (!filtering(st)) {
			head(st, e->tid, e->time, false, 0, out);
			prism_strbuf_add(out, t->entry.buf, t->entry.len);
			prism_strbuf_addch(out, ')');
			pad(out, t->entry.len + 1, ARGS_ALIGNMENT);
			prism_strbuf_addstr(out, "= ?\n");
		}
	} else {
		t->pending = true;
	}
	st->current = e->tid;
	st->has_current = true;
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}

/*
 * fcntl's return value by its command, as perf: F_GETFL's open flags,
 * F_GETFD's CLOEXEC, F_DUPFD's new fd with its path.  False: not one of these.
 */
static bool format_fcntl_ret(struct prism_strace *st, const struct strace_thread *t, uint32_t pid,
			     int64_t id, int64_t ret, struct prism_strbuf *out)
{
	const char *name = prism_syscall_name(st->arch, id), *path;
	struct sarg_ctx c = { .idx = 0 };

	if (ret < 0 || !name || strcmp(name, "fcntl"))
		return false;
	switch (t->a1) {
	case F_GETFL:
		sarg_format(SARG_OPEN_FLAGS, (uint64_t)ret, &c, out);
		return true;
	case F_GETFD:
		prism_strbuf_addstr(out, ret ? "CLOEXEC" : "0");
		return true;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		path = pid ? strace_fd_path(st, pid, (int)ret) : NULL;
		prism_strbuf_addf(out, "%d", (int)ret);
		if (path)
			prism_strbuf_addf(out, "<%s>", path);
		return true;
	default:
		return false;
	}
}

int prism_strace__exit(struct prism_strace *st, uint32_t tid, uint64_t time, int64_t id,
		       int64_t ret, struct prism_strbuf *out)
{
	struct strace_thread *t;
	bool has_duration = false, pending, known;
	uint64_t duration = 0, entry_time = 0;
	uint32_t pid;
	size_t printed;

	if (!prism_strace__wants(st, id) || !strace_sc(st, id))
		return 0;
	set_base(st, time);
	t = thread_find(st, tid, true);
	if (!t)
		return -ENOMEM;
	if (t->entry_time && t->id == id && time >= t->entry_time) {
		entry_time = t->entry_time;
		duration = time - entry_time;
		has_duration = true;
	}
	pending = t->pending && t->id == id;
	known = t->id == id && t->entry_time;
	if (known)
		strace_fds_update(st, t, prism_syscall_name(st->arch, id), ret);
	pid = known ? t->pid : 0;
	t->pending = false;
	t->entry_time = 0;
	t->pid = 0;
	zfree(&t->path);
	if (st->o.min_duration_ms > 0 &&
	    (!has_duration || (double)duration < st->o.min_duration_ms * 1e6))
		return 0;
	if (st->o.failure_only && ret >= 0)
		return 0;
	head(st, tid, entry_time, has_duration, duration, out);
	if (pending) {
		prism_strbuf_add(out, t->entry.buf, t->entry.len);
		printed = t->entry.len;
	} else {
		size_t start = out->len;

		prism_strbuf_addf(out, " ... [continued]: %s()", prism_syscall_name(st->arch, id));
		printed = out->len - start;
	}
	prism_strbuf_addch(out, ')');
	pad(out, printed + 1, ARGS_ALIGNMENT);
	prism_strbuf_addstr(out, "= ");
	if (!known || !format_fcntl_ret(st, t, pid, id, ret, out))
		prism_strace__format_ret(st, id, ret, out);
	prism_strbuf_addch(out, '\n');
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}
