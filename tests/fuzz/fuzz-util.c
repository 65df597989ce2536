// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the input bytes as a perf.data file analysed by prism
 * util (prism_util__process(), then reports).
 *
 * It reaches what fuzz-session does not: the util source, which finds the
 * tracepoints by name and reads their payload fields (numbers and strings)
 * for the state machine, the fast path of syscall samples, the state
 * machine itself on whatever order and content the records have, and the
 * report with its sorting and filters, and prism's accounting check
 * section (PRISM_FEAT_UTIL_CHECK) compared with the report.  Every field of the report is read,
 * so the sanitizers see the memory behind every pointer in it.
 *
 * The input is read from a memfd (mapped, like a file), in time order; a
 * hash of the first 64 bytes (the file header) picks the report options:
 *   bit 0: sort by name instead of utilization
 *   bit 1: keep only tid 1-100 and CPU 0
 *   bit 2: a tiny order_mem_limit (the time sort flushes early)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <prism/log.h>
#include <prism/session.h>
#include <prism/util-check.h>
#include <prism/util.h>

#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static volatile uint64_t sink;

/* format every message like a real log callback would */
static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	sink += (uint64_t)vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static void touch(const char *s)
{
	if (s)
		sink += strlen(s);
}

static void read_times(const struct prism_util_times *t)
{
	sink += t->user + t->sys + t->irq + t->softirq + t->hv + t->busy + t->idle + t->wait +
		t->sleep;
}

static void read_calls(const struct prism_util_call *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		touch(c[i].name);
		sink += c[i].count + c[i].elapsed + c[i].min + c[i].max + c[i].pending +
			c[i].oncpu + c[i].nr_pending_start + c[i].nr_pending_end +
			c[i].nr_unmatched_exits + c[i].nr_duplicate_exits;
	}
}

static void read_result(struct prism_util *u, const struct prism_util_result *r)
{
	size_t i, j, k;

	touch(r->arch);
	touch(r->anomalies.missing);
	read_times(&r->all);
	for (i = 0; i < r->nr_cpus; i++)
		read_times(&r->cpus[i].t);
	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++)
		read_calls(r->calls[k], r->nr_calls[k]);
	for (i = 0; i < r->nr_processes; i++) {
		const struct prism_util_process *p = &r->processes[i];
		const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS];
		size_t nr[PRISM_UTIL_NR_KINDS];

		touch(p->comm);
		read_times(&p->all);
		for (j = 0; j < p->nr_cpus; j++)
			read_times(&p->cpus[j].t);
		for (j = 0; j < p->nr_tasks; j++) {
			const struct prism_util_task *t = p->tasks[j];

			touch(t->comm);
			read_times(&t->all);
			for (k = 0; k < t->nr_cpus; k++)
				read_times(&t->cpus[k].t);
			for (k = 0; k < PRISM_UTIL_NR_KINDS; k++)
				read_calls(t->calls[k], t->nr_calls[k]);
		}
		if (!prism_util__process_calls(u, p, nr, calls))
			for (k = 0; k < PRISM_UTIL_NR_KINDS; k++)
				read_calls(calls[k], nr[k]);
	}
}

/* prism's accounting check section (PRISM_FEAT_UTIL_CHECK), against the report */
static void check_section(struct prism_session *s, const struct prism_util_result *r)
{
	struct prism_util_check_result res;
	struct prism_util_check *k;
	int err = prism_util_check__from_session(s, &k, NULL);

	if (err == -ENOMEM)
		abort();
	if (!err) {
		sink += prism_util_check__nr_tasks(k) + prism_util_check__end(k);
		if (r && !prism_util_check__compare(k, r, &res))
			sink += res.nr_within + res.nr_differ + (uint64_t)res.worst_ns;
	}
	prism_util_check__free(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t tids[] = { 1, 100 }, cpus[] = { 0 };
	uint32_t mode = fuzz_header_hash(data, size);
	struct prism_session_opts opts = { 0 };
	struct prism_util_report_opts ro = { 0 };
	const struct prism_util_result *r = NULL;
	struct prism_session *s;
	struct prism_util *u;
	int fd = fuzz_memfd(data, size);

	opts.fd = fd;
	if (mode & 4)
		opts.order_mem_limit = 4096;
	s = prism_session__open(&opts);
	if (!s) {
		close(fd);
		return 0;
	}
	u = prism_util__new(NULL);
	if (!u)
		abort();
	prism_util__process(u, s); /* a damaged file still gives a report */
	if (mode & 1)
		ro.sort = PRISM_UTIL_SORT_NAME;
	if (mode & 2) {
		/* a tid list is matched as given: 1 and 100 only */
		ro.tids = tids;
		ro.nr_tids = 2;
		ro.cpus = cpus;
		ro.nr_cpus = 1;
	}
	if (!prism_util__report(u, &ro, &r))
		read_result(u, r);
	else
		r = NULL;
	check_section(s, r);
	/* a second report over the same analysis replaces the first */
	ro.sort = PRISM_UTIL_SORT_TID;
	ro.top = 3;
	if (!prism_util__report(u, &ro, &r))
		read_result(u, r);
	prism_util__free(u);
	prism_session__free(s);
	close(fd);
	return 0;
}
