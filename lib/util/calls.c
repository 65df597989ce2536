// SPDX-License-Identifier: MIT
/*
 * The calls a task makes, as the utilization state machine sees them:
 * syscalls and hypervisor calls entered and left (with the cases of a
 * trace that starts or ends inside one, and damaged ones), and the mode
 * of the task that their events reveal.
 */
#include "util/state-fast.h"

/* the first syscall event tells what the unknown ("busy") time was */
static __wraps void reclassify(struct prism_util *u, struct task *t, enum bucket to)
{
	size_t i;

	for (i = 0; i < t->nr_cpus; i++) {
		uint64_t v = t->cpus[i].t[B_BUSY];
		struct cpu *c = t->cpus[i].cpu < u->nr_cpus ? &u->cpus[t->cpus[i].cpu] : NULL;

		if (!v)
			continue;
		t->cpus[i].t[B_BUSY] = 0;
		t->cpus[i].t[to] += v;
		if (c && c->t[B_BUSY] >= v) {
			c->t[B_BUSY] -= v;
			c->t[to] += v;
		}
	}
	t->mode_known = true;
}

int util_sys_enter(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	if (!t->mode_known)
		reclassify(u, t, B_USER);
	return sys_enter_known(u, t, now, id);
}

/* an exit whose entry is missing mid-trace: left out, counted on its call */
static int unmatched_exit(struct prism_util *u, struct task *t, enum prism_util_call_kind kind,
			  int64_t id)
{
	struct ucall *call = calltab_get(&t->calls, kind, id, NULL);

	u->an.exit_without_enter++;
	if (!call)
		return -ENOMEM;
	call->pub.nr_unmatched_exits++;
	return 0;
}

int util_sys_exit(struct prism_util *u, struct task *t, uint64_t now, int64_t id, bool cpu_first)
{
	struct ucall *call;
	int err = 0;

	if (!t->mode_known)
		reclassify(u, t, B_SYS);
	if (t->in_sc) {
		if (id == t->sc_id || id == -1) {
			/* id -1: x86 rt_sigreturn, seccomp: closes what was entered */
			sys_exit_matched(u, t, now);
		} else if (cpu_first) {
			/* the open call ended unseen before this CPU was traced */
			call = &t->calls.v[t->sc_idx];
			call->pub.nr_pending_end++;
			call = calltab_get(&t->calls, PRISM_UTIL_SYSCALL, id, NULL);
			if (!call)
				return -ENOMEM;
			call->pub.nr_pending_start++;
		} else {
			err = unmatched_exit(u, t, PRISM_UTIL_SYSCALL, id);
		}
	} else if (!t->seen_sc || cpu_first) {
		/*
		 * Running since before the trace, or since before this CPU's
		 * events were enabled (perf enables them one CPU at a time).
		 */
		call = calltab_get(&t->calls, PRISM_UTIL_SYSCALL, id, NULL);
		if (!call)
			return -ENOMEM;
		call->pub.pending += span(t->start > u->start ? t->start : u->start, now);
		call->pub.nr_pending_start++;
	} else {
		err = unmatched_exit(u, t, PRISM_UTIL_SYSCALL, id);
	}
	sys_exit_close(t);
	return err;
}

int util_hcall_entry(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	if (!t->mode_known)
		reclassify(u, t, B_SYS);
	if (t->in_hc)
		u->an.enter_in_call++;
	else
		t->hc_prev_mode = t->mode;
	t->in_hc = true;
	t->seen_hc = true;
	t->hc_id = id;
	t->hc_start = now;
	if (!calltab_get(&t->calls, PRISM_UTIL_HCALL, id, &t->hc_idx))
		return -ENOMEM;
	t->mode = MODE_HV;
	return 0;
}

int util_hcall_exit(struct prism_util *u, struct task *t, uint64_t now, int64_t id)
{
	struct ucall *call;
	int err = 0;

	if (!t->mode_known)
		reclassify(u, t, B_HV);
	if (t->in_hc && t->hc_id == id) {
		call_complete(&t->calls.v[t->hc_idx], span(t->hc_start, now));
		call_observe(u, PRISM_UTIL_HCALL, id, t, t->cpu, t->hc_start, now);
		t->mode = t->hc_prev_mode;
	} else if (!t->in_hc && !t->seen_hc) {
		call = calltab_get(&t->calls, PRISM_UTIL_HCALL, id, NULL);
		if (!call)
			return -ENOMEM;
		call->pub.pending += span(t->start > u->start ? t->start : u->start, now);
		call->pub.nr_pending_start++;
		t->mode = MODE_SYS;
	} else {
		err = unmatched_exit(u, t, PRISM_UTIL_HCALL, id);
		t->mode = MODE_SYS;
	}
	t->in_hc = false;
	t->seen_hc = true;
	t->hc_idx = -1;
	return err;
}
