// SPDX-License-Identifier: MIT
/*
 * The SQL exporter's Intel PT part: a file's trace decoded (lib/pt) into
 * the samples perf's export-to-sqlite.py / export-to-postgresql.py write
 * for `perf script --itrace=... -s export-to-sqlite.py`: one samples row
 * per synthesized branch or instruction, in the synthesized events
 * "branches:uH" / "instructions:uH" (selected_events), and with calls the
 * calls table from the branches (sql-pt-calls.c).
 *
 * The side-band (maps, comms, switches) is read with the rest of the file;
 * the queues are decoded after it, so the synthesized samples come after
 * the file's own samples.
 *
 * A samples row of a branch, as perf 6.1's db-export: ip and addr with
 * their DSOs, symbols and offsets, period 1, branch_type the branch flags
 * (PERF_IP_FLAG_*) but in_tx, flags all of them, call_path_id 0.  An
 * instruction sample has the target of its instruction's taken branch in
 * to_ip (0 when none), no to_dso/to_sym (perf's synthesized instructions
 * event has no PERF_SAMPLE_ADDR); with --itrace=...g its call chain is a
 * call path (perf's "callchains"), in the tree of the calls' call paths,
 * the root first, each frame's symbol and DSO rows written as perf's
 * db-export does (after the sample's own).  insn_count and
 * cyc_count are 0: perf fills them from CYC packets (IPC), which prism
 * does not count.
 */
#include <errno.h>
#include <inttypes.h>

#include <linux/perf_event.h>

#include <prism/evsel.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/symbol.h>

#include "internal.h"
#include "export/sql-internal.h"

#define KERNEL_START (1ULL << 63)
#define FL_IN_TX 0x400u /* perf's PERF_IP_FLAG_IN_TX */

struct sql_pt {
	struct prism_sql *x;
	struct prism_session *s;
	struct prism_pt_decoder_opts o;
	struct prism_pt_decoder *d;
	bool have_info;
	uint32_t other_type; /* an AUXTRACE_INFO of another tracer (0: none) */
	char names[2][32]; /* branches, instructions */
	struct sql_pt_calls *calls; /* with calls or call chains: the call paths */
	bool do_calls;
	uint64_t *chain; /* a sample's chain from the calls' stack (callchain_sz + 2) */
	int64_t machine_id;
	uint64_t errors;
};

struct sql_pt *sql_pt__new(struct prism_sql *x, const struct prism_itrace *it,
			   struct prism_session *s, struct prism_symbols *sy,
			   struct prism_tasks *tasks, bool calls)
{
	struct sql_pt *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->x = x;
	p->s = s;
	p->o.itrace = *it;
	p->o.sy = sy;
	p->o.tasks = tasks;
	p->o.insn_to = true;
	p->do_calls = calls;
	if ((calls || it->callchain) && !(p->calls = sql_pt_calls__new())) {
		free(p);
		return NULL;
	}
	if (it->callchain && !(p->chain = calloc(it->callchain_sz + 2u, sizeof(*p->chain)))) {
		sql_pt__free(p);
		return NULL;
	}
	return p;
}

void sql_pt__free(struct sql_pt *p)
{
	if (!p)
		return;
	prism_pt_decoder__free(p->d);
	sql_pt_calls__free(p->calls);
	free(p->chain);
	free(p);
}

/* AUXTRACE_INFO: the intel_pt event, the names of its samples, the decoder */
static int start(struct sql_pt *p, const struct prism_event *ev)
{
	size_t i, n = prism_session__nr_evsels(p->s);
	const struct perf_event_attr *pt = NULL;

	if (prism_pt_info__parse(ev, &p->o.info))
		return sql_error(p->x, -PRISM_E_BAD_RECORD,
				 "the AUXTRACE_INFO record at offset %#" PRIx64 " is too short",
				 ev->file_offset);
	if (p->o.info.type != PRISM_AUXTRACE_INTEL_PT) {
		p->other_type = p->o.info.type;
		return 0;
	}
	if (p->d)
		return 0; /* one per file */
	for (i = 0; i < n; i++) {
		const struct perf_event_attr *a = prism_evsel__attr(prism_session__evsel(p->s, i));

		if (a->type == p->o.info.pmu_type)
			pt = a;
	}
	if (!pt)
		return sql_error(p->x, -PRISM_E_BAD_RECORD,
				 "no event of the Intel PT PMU (type %" PRIu64 ") in the file",
				 p->o.info.pmu_type);
	p->o.config = pt->config;
	prism_pt__sample_name(pt, true, p->names[0], sizeof(p->names[0]));
	prism_pt__sample_name(pt, false, p->names[1], sizeof(p->names[1]));
	/* the CPUID feature: libipt's errata (none when absent or not understood) */
	prism_pt_cpu__from_features(prism_session__features(p->s), &p->o.cpu);
	p->d = prism_pt_decoder__new(&p->o);
	if (!p->d)
		return errno == PRISM_E_UNSUPPORTED ?
			       sql_error(p->x, -PRISM_E_NOFEATURE,
					 "this prism was built without libipt: it cannot decode "
					 "Intel PT traces") :
		       errno == EINVAL ?
			       sql_error(p->x, -EINVAL,
					 "--itrace: the decoder does not take this instruction "
					 "period; give one in instructions (i100i)") :
			       -ENOMEM;
	p->have_info = true;
	return 0;
}

int sql_pt__event(struct sql_pt *p, const struct prism_event *ev)
{
	struct prism_auxtrace at;

	if (ev->type == PRISM_RECORD_AUXTRACE_INFO)
		return start(p, ev);
	if (!p->d)
		return 0;
	if (ev->type == PRISM_RECORD_AUXTRACE)
		return prism_auxtrace__parse(ev, &at) ? 0 : prism_pt_decoder__add(p->d, &at);
	return prism_pt_decoder__side_band(p->d, ev);
}

static void resolve(struct sql_pt *p, const struct prism_pt_item *it, uint64_t addr,
		    struct prism_frame *f)
{
	prism_symbols__resolve(
		p->o.sy, (uint32_t)it->pid,
		addr >= KERNEL_START ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, addr, f);
}

/* whether @f's address is the start of its symbol (perf's unknown symbols start there) */
static bool at_start(const struct prism_frame *f)
{
	return !f->sym || f->dso_addr == f->sym_start;
}

/*
 * the call path of an instruction sample's call chain (perf's
 * call_path_from_sample).  With the calls of branches samples, perf's
 * chains come from the calls' thread stacks (thread_stack__process supersedes the decoder's):
 * the sample's ip, then the return addresses on the stack, the bottom's
 * (a function not seen called) its first branch's ip.
 */
static int chain_path(struct sql_pt *p, const struct prism_pt_item *it, int64_t *id)
{
	const uint64_t *chain = it->callchain;
	size_t n = it->nr_callchain, cp = 0, i;
	int err;

	*id = 0;
	if (p->do_calls && p->o.itrace.branches) {
		/* perf's thread_stack__sample: @sz entries with the context marks */
		size_t sz = p->o.itrace.callchain_sz + 1, nr, j, k = 2;
		bool last = it->ip >= KERNEL_START;

		if (sz < 2)
			return 0;
		p->chain[0] = it->ip;
		nr = sql_pt_calls__rets(p->calls, it->pid, it->tid, it->cpu, p->chain + 1, sz);
		for (n = 1, j = 0; j < nr && k < sz; j++, k++) {
			bool kernel = p->chain[1 + j] >= KERNEL_START;

			if (kernel != last) {
				if (k >= sz - 1)
					break;
				k++;
				last = kernel;
			}
			p->chain[n++] = p->chain[1 + j];
		}
		chain = p->chain;
	}
	for (i = n; i--;) {
		struct prism_frame f;
		int64_t dso, sym;
		uint64_t off;

		resolve(p, it, chain[i], &f);
		err = sql_symbol_id(p->x, &f, &dso, &sym, &off);
		if (err)
			return err;
		cp = sql_pt_calls__child(p->calls, cp, sym, f.sym, chain[i]);
		if (cp == (size_t)-1)
			return -ENOMEM;
	}
	return cp ? sql_pt_calls__export(p->x, p->calls, cp, id) : 0;
}

static int item(void *ctx, const struct prism_pt_item *it)
{
	struct sql_pt *p = ctx;
	struct prism_sql *x = p->x;
	bool br = it->kind == PRISM_PT_BRANCH;
	struct prism_frame from, to;
	int64_t ev, th, comm, dso, sym, to_dso = 0, to_sym = 0, path = 0;
	uint64_t off, to_off = 0;
	/* perf's flags of a trace begin (from nowhere) have "branch" too */
	uint32_t flags = it->flags | (br && !it->ip ? PRISM_PT_FL_BRANCH : 0);
	int err;

	if (it->kind == PRISM_PT_ERROR) {
		p->errors++;
		return 0;
	}
	err = sql_event_id(x, p->names[!br], p->names[!br], &ev);
	if (!err)
		err = sql_thread_id(x, (uint32_t)it->pid, (uint32_t)it->tid, &th);
	if (!err)
		err = sql_comm_id(x, (uint32_t)it->pid, (uint32_t)it->tid, th, &comm);
	if (err)
		return err;
	resolve(p, it, it->ip, &from);
	err = sql_symbol_id(x, &from, &dso, &sym, &off);
	if (!err && br) {
		resolve(p, it, it->addr, &to);
		err = sql_symbol_id(x, &to, &to_dso, &to_sym, &to_off);
	}
	if (!err && !br && p->o.itrace.callchain)
		err = chain_path(p, it, &path);
	if (err)
		return err;
	{
		struct sql_val v[26] = {
			SQL_I(sql_new_id(x, SQL_T_SAMPLES)),
			SQL_I(ev),
			SQL_I(p->machine_id),
			SQL_I(th),
			SQL_I(comm),
			SQL_I(dso),
			SQL_I(sym),
			SQL_I(off),
			SQL_I(it->ip),
			SQL_I(it->time),
			SQL_I((int32_t)it->cpu),
			SQL_I(to_dso),
			SQL_I(to_sym),
			SQL_I(to_off),
			SQL_I(it->addr),
			SQL_I(it->period),
			SQL_I(0), /* weight */
			SQL_I(0), /* transaction */
			SQL_I(0), /* data_src */
			SQL_I(flags & ~FL_IN_TX),
			SQL_I(!!(flags & FL_IN_TX)),
			SQL_I(path),
			SQL_I(0), /* insn_count */
			SQL_I(0), /* cyc_count */
			SQL_I(flags),
		};
		struct sql_pt_branch b = {
			.pid = it->pid,
			.tid = it->tid,
			.cpu = it->cpu,
			.thread = th,
			.comm = comm,
			.ref = v[0].i,
			.time = it->time,
			.ip = it->ip,
			.addr = it->addr,
			.flags = flags,
			.insn_len = it->insn_len,
			.from_sym = sym,
			.to_sym = to_sym,
			.from_name = from.sym,
			.to_name = br ? to.sym : NULL,
			.to_at_start = br && at_start(&to),
		};

		err = sql_put(x, SQL_T_SAMPLES, v);
		/* perf's thread stack takes the samples of the branches event only */
		if (!err && br && p->do_calls)
			err = sql_pt_calls__branch(x, p->calls, &b);
	}
	return err;
}

int sql_pt__run(struct sql_pt *p, int64_t machine_id, const char *name)
{
	int err;

	if (!p->have_info) {
		if (p->other_type)
			return sql_error(p->x, -EPROTO,
					 "'%s' has the trace of another tracer (AUXTRACE_INFO type "
					 "%u), not Intel PT: --itrace decodes Intel PT only",
					 name, p->other_type);
		return sql_error(p->x, -EPROTO,
				 "'%s' has no Intel PT trace (no AUXTRACE_INFO record): --itrace "
				 "needs a file recorded with -e intel_pt//",
				 name);
	}
	p->machine_id = machine_id;
	err = prism_pt_decoder__run(p->d, item, p);
	if (!err && p->do_calls)
		err = sql_pt_calls__flush(p->x, p->calls);
	return err;
}

uint64_t sql_pt__errors(const struct sql_pt *p)
{
	return p->errors;
}
