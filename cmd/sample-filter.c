// SPDX-License-Identifier: MIT
/*
 * perf script's sample filters, with perf 6.1's meaning: a sample is left
 * out when its time is outside the --time windows, its CPU not in -C, its
 * task's pid, tid or command name not in --pid, --tid, -c, or its address
 * not in a function of -S or a DSO of --dsos.  Records shown with
 * --show-*-events are filtered by CPU only, as perf does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/features.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "cmd.h"
#include "options.h"
#include "sample-filter.h"

#define MAX_CPUS 4096

int opt_time_filter(const char *opt, const char *str, struct prism_session *s,
		    struct prism_time_filter *tf)
{
	const struct prism_feat_sample_time *st =
		s ? prism_features__sample_time(prism_session__features(s)) : NULL;
	const char *why;

	if (!s && prism_time_filter__percent(str)) {
		error("invalid %s '%s': percents of the file's time are not taken here", opt, str);
		hint("give START,END in seconds as perf script prints times");
		return -1;
	}
	if (!prism_time_filter__parse(tf, str, st ? st->first : 0, st ? st->last : 0, &why))
		return 0;
	error("invalid %s '%s': %s", opt, str, why);
	if (prism_time_filter__percent(str))
		hint("e.g. %s 10%%/2 (the second tenth), %s 0%%-25%%,75%%-100%%", opt, opt);
	else
		hint("e.g. %s 603.13,603.2 (seconds as perf script prints them; an empty side "
		     "is open: %s 603.13,), or several: %s '1.5,2 3,4'",
		     opt, opt, opt);
	return -1;
}

static int parse_cpus(struct sample_filter *sf)
{
	int64_t *v = NULL;
	size_t i, nr = 0;

	if (parse_num_list(sf->cpu_list, &v, &nr)) {
		error("invalid -C/--cpu '%s': expected CPU numbers", sf->cpu_list);
		hint("give CPUs separated by commas, ranges as 0-3 (e.g. -C 0-3,6)");
		return -1;
	}
	for (i = 0; i < nr; i++) {
		if (v[i] < 0 || v[i] >= MAX_CPUS) {
			error("invalid -C/--cpu '%s': CPU %" PRId64 " is out of range",
			      sf->cpu_list, v[i]);
			hint("CPUs are numbered from 0 to %d", MAX_CPUS - 1);
			free(v);
			return -1;
		}
		if ((size_t)v[i] >= sf->nr_cpus)
			sf->nr_cpus = (size_t)v[i] + 1;
	}
	sf->cpus = xcalloc(sf->nr_cpus + 1, sizeof(*sf->cpus));
	for (i = 0; i < nr; i++)
		sf->cpus[v[i]] = true;
	free(v);
	return 0;
}

/* perf: the -S entries that read whole as hex numbers are addresses too */
static void parse_addrs(struct sample_filter *sf)
{
	size_t i;

	sf->addrs = xcalloc(sf->syms.nr + 1, sizeof(*sf->addrs));
	for (i = 0; i < sf->syms.nr; i++) {
		const char *v = sf->syms.v[i];
		char *end;
		uint64_t a;

		if (!*v || *v == '-' || *v == '+')
			continue;
		errno = 0;
		a = strtoull(v, &end, 16);
		if (!errno && !*end)
			sf->addrs[sf->nr_addrs++] = a;
	}
}

static bool addr_matches(const struct sample_filter *sf, uint64_t ip)
{
	size_t i;

	for (i = 0; i < sf->nr_addrs; i++)
		if (ip == sf->addrs[i] || (sf->addr_range > 0 && ip > sf->addrs[i] &&
					   ip - sf->addrs[i] < (uint64_t)sf->addr_range))
			return true;
	return false;
}

int sample_filter_parse(struct sample_filter *sf, const char *refuse)
{
	sf->on = sf->cpu_list || sf->pid_list || sf->tid_list || sf->comm_list || sf->sym_list ||
		 sf->dso_list || sf->time_str;
	if (sf->on && refuse) {
		error("%s shows every record: the sample filters (-C, --pid, --tid, -c, -S, "
		      "--dsos, --time) do not apply",
		      refuse);
		return -1;
	}
	if (sf->cpu_list && parse_cpus(sf))
		return -1;
	if (parse_ids(sf->pid_list, "pid", &sf->pids, &sf->nr_pids) ||
	    parse_ids(sf->tid_list, "tid", &sf->tids, &sf->nr_tids))
		return -1;
	split_list(sf->comm_list, &sf->comms);
	split_list(sf->sym_list, &sf->syms);
	parse_addrs(sf);
	split_list(sf->dso_list, &sf->dsos);
	if (sf->time_str && !prism_time_filter__percent(sf->time_str))
		return opt_time_filter("--time", sf->time_str, NULL, &sf->time);
	return 0;
}

/* perf: every event type's first event must sample the CPU, and -C the CPUs recorded */
static int check_cpus(struct sample_filter *sf, struct prism_session *s, const char *input)
{
	const struct prism_feat_nrcpus *n = prism_features__nrcpus(prism_session__features(s));
	size_t i, nr = prism_session__nr_evsels(s);
	bool seen[PERF_TYPE_MAX] = { false };

	for (i = 0; i < nr; i++) {
		const struct perf_event_attr *a = prism_evsel__attr(prism_session__evsel(s, i));

		if (a->type >= PERF_TYPE_MAX || seen[a->type])
			continue;
		seen[a->type] = true;
		if (!(a->sample_type & PERF_SAMPLE_CPU)) {
			error("-C/--cpu: the samples of '%s' do not carry their CPU",
			      input ? input : "perf.data");
			hint("record with -a or --sample-cpu, or leave out -C");
			return -1;
		}
	}
	if (n && n->nr_cpus_avail && sf->nr_cpus > n->nr_cpus_avail) {
		error("invalid -C/--cpu '%s': CPU %zu is not in the file ('%s' was recorded with "
		      "CPUs 0-%u)",
		      sf->cpu_list, sf->nr_cpus - 1, input ? input : "perf.data",
		      n->nr_cpus_avail - 1);
		return -1;
	}
	return 0;
}

int sample_filter_open(struct sample_filter *sf, struct prism_session *s, const char *input)
{
	if (sf->cpus && check_cpus(sf, s, input))
		return 1;
	if (prism_time_filter__percent(sf->time_str) &&
	    opt_time_filter("--time", sf->time_str, s, &sf->time))
		return EXIT_USAGE;
	return 0;
}

bool sample_filter_needs_symbols(const struct sample_filter *sf)
{
	return sf->syms.nr || sf->dsos.nr;
}

void sample_filter_release(struct sample_filter *sf)
{
	free(sf->cpus);
	free(sf->pids);
	free(sf->tids);
	free(sf->addrs);
	strlist_release(&sf->comms);
	strlist_release(&sf->syms);
	strlist_release(&sf->dsos);
	prism_time_filter__release(&sf->time);
	sf->cpus = NULL;
	sf->pids = sf->tids = NULL;
	sf->addrs = NULL;
}

static bool cpu_skipped(const struct sample_filter *sf, uint32_t cpu)
{
	return sf->cpus && cpu != (uint32_t)-1 && (cpu >= sf->nr_cpus || !sf->cpus[cpu]);
}

bool sample_filter_skip(const struct sample_filter *sf, uint32_t pid, uint32_t tid, uint32_t cpu,
			uint64_t time, uint8_t cpumode, uint64_t ip)
{
	if (!sf || !sf->on)
		return false;
	if (prism_time_filter__skip(&sf->time, time) || cpu_skipped(sf, cpu))
		return true;
	if ((sf->nr_pids && !in_ids(sf->pids, sf->nr_pids, pid)) ||
	    (sf->nr_tids && !in_ids(sf->tids, sf->nr_tids, tid)))
		return true;
	if (sf->comms.nr) {
		const char *comm = sf->tasks ? prism_tasks__comm(sf->tasks, tid) : NULL;
		char buf[24];

		if (!comm) { /* perf's name of a task without a COMM */
			snprintf(buf, sizeof(buf), ":%d", (int)tid);
			comm = buf;
		}
		if (!in_list(&sf->comms, comm))
			return true;
	}
	if (sample_filter_needs_symbols(sf) && sf->sy) {
		struct prism_frame fr;

		prism_symbols__resolve(sf->sy, pid, cpumode, ip, &fr);
		if (sf->dsos.nr && (!fr.dso || !(in_list(&sf->dsos, fr.dso_name) ||
						 in_list(&sf->dsos, fr.dso_path))))
			return true;
		/* perf 6.1: a name, or a sample address in a map */
		if (sf->syms.nr && !in_list(&sf->syms, fr.sym) && !(fr.dso && addr_matches(sf, ip)))
			return true;
	}
	return false;
}

bool sample_filter_skip_event(const struct sample_filter *sf, const struct prism_event *ev)
{
	const struct prism_sample *s = &ev->sample;

	if (!sf->on)
		return false;
	return sample_filter_skip(sf, s->pid, s->tid,
				  (s->type & PERF_SAMPLE_CPU) ? s->cpu : (uint32_t)-1, s->time,
				  ev->raw->misc & PRISM_MISC_CPUMODE_MASK, s->ip);
}

bool sample_filter_skip_record(const struct sample_filter *sf, const struct prism_evsel *evsel,
			       const struct prism_event *ev)
{
	if (!sf->cpus)
		return false;
	/* perf: a record without sample_id has CPU 0 */
	if (evsel && !prism_evsel__attr(evsel)->sample_id_all)
		return cpu_skipped(sf, 0);
	return cpu_skipped(sf, (ev->sample.type & PERF_SAMPLE_CPU) ? ev->sample.cpu : (uint32_t)-1);
}

static const struct sample_filter *pt_filter;
/*
 * --time: perf's decoder makes no samples outside the windows and starts
 * again at a window (by queue: a CPU, or a thread without per-CPU trace):
 * the first instruction sample after a gap counts the gap's instructions,
 * and with power events the first sample has a CBR event (its ratio then)
 * before it
 */
static struct pt_queue {
	int64_t key; /* 0: a free entry */
	uint64_t insns;
	bool gap, cbr_known;
	uint8_t cbr;
} queues[64];

void sample_filter_for_pt(const struct sample_filter *sf)
{
	pt_filter = sf && sf->on ? sf : NULL;
	memset(queues, 0, sizeof(queues));
}

static struct pt_queue *queue_of(const struct prism_pt_item *it)
{
	int64_t key = it->cpu != (uint32_t)-1 ? 1 + (int64_t)it->cpu : -2 - (int64_t)it->tid;
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(queues); i++) {
		if (queues[i].key == key || !queues[i].key) {
			queues[i].key = key;
			return &queues[i];
		}
	}
	return NULL;
}

/* what perf's decoder does at the start of a --time window */
static void window_start(struct pt_queue *q, const struct prism_pt_item *it, struct pt_filtered *pf)
{
	if (q->gap && q->cbr_known && it->kind != PRISM_PT_CBR && it->kind != PRISM_PT_ERROR) {
		memset(&pf->cbr_item, 0, sizeof(pf->cbr_item));
		pf->cbr_item.kind = PRISM_PT_CBR;
		pf->cbr_item.time = it->time;
		pf->cbr_item.ip = it->ip;
		pf->cbr_item.cpu = it->cpu;
		pf->cbr_item.pid = it->pid;
		pf->cbr_item.tid = it->tid;
		pf->cbr_item.cbr = q->cbr;
		pf->cbr = &pf->cbr_item;
	}
	if (it->kind != PRISM_PT_ERROR)
		q->gap = false;
	if (it->kind == PRISM_PT_INSN && q->insns) {
		pf->adj = *it;
		pf->adj.period += q->insns;
		pf->it = &pf->adj;
		q->insns = 0;
	}
}

/*
 * perf decodes only the CPUs of -C and the --time windows, and filters the
 * samples: an error is left out by CPU and time only
 */
bool sample_filter_pt(const struct prism_pt_item *it, struct pt_filtered *pf)
{
	const struct sample_filter *sf = pt_filter;
	struct pt_queue *q;

	pf->it = it;
	pf->cbr = NULL;
	if (!sf)
		return true;
	if (cpu_skipped(sf, it->cpu))
		return false;
	q = sf->time.nr ? queue_of(it) : NULL;
	if (q && it->kind == PRISM_PT_CBR) {
		q->cbr = it->cbr;
		q->cbr_known = true;
	}
	if (prism_time_filter__skip(&sf->time, it->time)) {
		if (q && it->kind != PRISM_PT_ERROR)
			q->gap = true;
		if (q && it->kind == PRISM_PT_INSN)
			q->insns += it->period;
		return false;
	}
	if (q)
		window_start(q, it, pf);
	return it->kind == PRISM_PT_ERROR ||
	       !sample_filter_skip(sf, (uint32_t)it->pid, (uint32_t)it->tid, it->cpu, it->time,
				   it->ip >> 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
				   it->ip);
}
