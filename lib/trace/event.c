// SPDX-License-Identifier: MIT
/*
 * Tracepoints other than the syscalls in prism trace's output, as perf
 * trace prints them:
 *
 *	     0.000 (         ): ls/22061 sched:sched_process_exec(filename: "/usr/bin/ls", pid: 22061 (ls), old_pid: 22061 (ls))
 *
 * The fields after the common ones, by the kinds perf derives from their
 * types and names (pid_t with the task's name, pointers and "addr" fields
 * in hex, char arrays quoted); a zero is left out.  Numbers are the field's
 * bytes unextended, as perf reads them, printed signed.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <prism/tp.h>

#include "internal.h"
#include "trace/trace-internal.h"

static void field_print(struct prism_strace *st, const struct prism_tp_field *f, const void *raw,
			size_t raw_size, bool *first, struct prism_strbuf *out)
{
	const char *name = prism_tp_field__name(f), *type = prism_tp_field__type(f), *s;
	struct sarg_ctx c = { .comm = st->o.comm, .comm_ctx = st->o.comm_ctx };
	size_t len, size = prism_tp_field__size(f);
	uint64_t v;

	if (prism_tp_field__is_string(f) && strstr(type, "char")) {
		if (prism_tp_field__str(f, raw, raw_size, &s, &len))
			return;
		len = strnlen(s, len);
		prism_strbuf_addf(out, "%s%s: ", *first ? "" : ", ", name);
		prism_strbuf_addch(out, '"');
		prism_strbuf_add(out, s, len);
		prism_strbuf_addch(out, '"');
		*first = false;
		return;
	}
	if (prism_tp_field__is_dynamic(f) || prism_tp_field__nr_elems(f) > 1 ||
	    prism_tp_field__u64(f, raw, raw_size, &v))
		return; /* arrays of numbers: perf prints their address, prism nothing */
	if (size < 8)
		v &= (1ull << (size * 8)) - 1;
	if (!v)
		return;
	prism_strbuf_addf(out, "%s%s: ", *first ? "" : ", ", name);
	sarg_format(sarg_kind_of_field(type, name), v, &c, out);
	*first = false;
}

int prism_strace__event(struct prism_strace *st, const struct prism_strace_ev *e,
			struct prism_strbuf *out)
{
	const struct prism_tp_event *tpe = e->tp_event;
	bool first = true;
	size_t i, n;

	if (!st->base_time)
		st->base_time = e->time;
	strace_print_interrupted(st, out);
	strace_head(st, e->tid, e->time, e->duration_column, out);
	prism_strbuf_addf(out, "%s(", e->name);
	n = tpe ? prism_tp_event__nr_fields(tpe) : 0;
	for (i = 0; i < n; i++) {
		const struct prism_tp_field *f = prism_tp_event__field_at(tpe, i);

		if (!strncmp(prism_tp_field__name(f), "common_", 7))
			continue;
		field_print(st, f, e->raw, e->raw_size, &first, out);
	}
	prism_strbuf_addstr(out, ")\n");
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}

/*
 * "time ( 0.000 ms): comm/tid majfault [ip_sym+0xoff] => /dso/path@0xoff (d.)":
 * where the fault happened (its symbol, else its map offset, else the
 * faulting address, as perf prints it) and what it touched (the mapping's
 * path and offset, else the address; 'd' for a mapped address, '?' not).
 */
int prism_strace__fault(struct prism_strace *st, const struct prism_strace_fault *f,
			struct prism_strbuf *out)
{
	if (!st->base_time)
		st->base_time = f->time;
	strace_print_interrupted(st, out);
	strace_head_duration(st, f->tid, f->time, 0, out);
	prism_strbuf_addf(out, "%sfault [", f->major ? "maj" : "min");
	if (f->ip_sym)
		prism_strbuf_addf(out, "%s+0x%" PRIx64, f->ip_sym, f->ip_symoff);
	else
		prism_strbuf_addf(out, "0x%" PRIx64, f->ip_mapped ? f->ip_map_addr : f->addr);
	prism_strbuf_addstr(out, "] => ");
	if (f->addr_dso)
		prism_strbuf_addf(out, "%s@0x%" PRIx64, f->addr_dso, f->addr_map_addr);
	else
		prism_strbuf_addf(out, "0x%" PRIx64, f->addr);
	prism_strbuf_addf(out, " (%c%c)\n", f->addr_dso ? 'd' : '?', f->level ? f->level : '.');
	return prism_strbuf_failed(out) ? -ENOMEM : 0;
}
