// SPDX-License-Identifier: MIT
/*
 * prism util: CPU utilization per process, per task and per CPU split into
 * user / sys / irq / softirq / hv / busy / idle, with syscall, IRQ, softirq
 * and hcall tables (curt's report, done natively).  Reads a file (-i) or
 * records the util preset first (-a, -C, -p, -- command).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/util-check.h>
#include <prism/util.h>

#include "cmd.h"
#include "input.h"
#include "linebuf.h"
#include "options.h"
#include "sample-filter.h"
#include "util-record.h"

struct util_cmd {
	const char *input;
	bool force;
	const char *sort, *pids, *tids, *comms, *cpus, *time;
	int top;
	bool per_cpu, no_calls, csv, json;
	const char *arch;
	/* one-step mode */
	bool all_cpus;
	const char *rec_cpus, *rec_pids;
	double duration;
	bool keep;
	uint64_t order_mb;
	/* the accounting check a util recording carries (NULL: none) */
	struct prism_util_check *check;
	struct prism_util_check_result kc;
	bool kc_valid;
	/* printing */
	struct prism_util *u;
	bool failed; /* a table could not be made (said) */
};

static const char *const usage[] = {
	"prism util [-i <file>] [<report options>]",
	"prism util (-a | -C <cpus> | -p <pid>) [--duration <s>] [<report options>]",
	"prism util [<report options>] [--] <command> [<args>...]",
	NULL,
};

/* ---- number lists ---- */

/* "1,2,5-7" into a malloc'd array; -1 after printing an error */
static int parse_list(const char *what, const char *s, int64_t **out, size_t *nr)
{
	if (!parse_num_list(s, out, nr))
		return 0;
	error("invalid %s list '%s'", what, s);
	hint("give numbers separated by commas, ranges as 2-5 (e.g. --%s 1,4-6)", what);
	return -1;
}

static size_t split_names(char *s, const char ***out)
{
	size_t n = 0;
	char *p;
	const char **v = xcalloc(strlen(s) + 1, sizeof(*v));

	for (p = s; p && *p;) {
		char *c = strchr(p, ',');

		if (c)
			*c = '\0';
		if (*p)
			v[n++] = p;
		p = c ? c + 1 : NULL;
	}
	*out = v;
	return n;
}

/* "start,end" in seconds (perf's --time, one window); either side may be empty */
static int parse_time(const char *s, uint64_t *start, uint64_t *end)
{
	struct prism_time_filter tf;

	if (opt_time_filter("--time", s, NULL, &tf))
		return -1;
	if (tf.nr > 1) {
		error("invalid --time '%s': prism util takes one window", s);
		prism_time_filter__release(&tf);
		return -1;
	}
	*start = tf.v[0].start;
	*end = tf.v[0].end;
	prism_time_filter__release(&tf);
	return 0;
}

/* ---- text report (curt's layout) ---- */

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

/*
 * @ns as milliseconds with 6 decimals, exactly (no floating point),
 * right-aligned in @width (at most 16): "%*s" of "%" PRIu64 ".%06" PRIu64;
 * takes DIGITS_MAX + 7 + 16 bytes.  A big report has a million of them.
 */
static char *put_ms(char *p, uint64_t ns, size_t width)
{
	uint64_t whole = ns / 1000000;
	size_t n = nr_digits(whole);

	if (n + 7 < width) {
		memcpy(p, "                ", 16); /* all the padding there can be */
		p += width - n - 7;
	}
	put_digits(p + n, whole, n);
	p[n] = '.';
	put_digits6(p + n + 1, (uint32_t)(ns - whole * 1000000));
	return p + n + 7;
}

/* the same in @buf (32 bytes) */
static const char *fms(char *buf, uint64_t ns)
{
	*put_ms(buf, ns, 0) = '\0';
	return buf;
}

static uint64_t avg_ns(uint64_t total, uint64_t n)
{
	return n ? (total + n / 2) / n : 0;
}

static uint64_t run_of(const struct prism_util_times *t)
{
	return t->user + t->sys + t->irq + t->softirq + t->hv + t->busy;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "%u-%d" (tid-image) or "%u" in @buf (32 bytes) */
static void task_label(char *buf, const struct prism_util_task *t)
{
	char *p = put_udec(buf, t->tid, 0, ' ');

	if (t->image >= 0) {
		*p++ = '-';
		p = put_udec(p, (uint64_t)t->image, 0, ' ');
	}
	*p = '\0';
}

/* a steal column in the text tables: only when the trace has steal time */
static bool show_steal;

static void row_header(void)
{
	/* printf("-- [%6s] %-16s%3s %10s ... %10s |%7s %5s\n", "task", "command", ...) */
	fputs("-- [  task] command         cpu       user        sys        irq    softirq         hv       busy       idle       wait      sleep",
	      stdout);
	fputs(show_steal ? "      steal |  util% moves\n" : " |  util% moves\n", stdout);
}

/*
 * One row, as printf("   [%6s] %-16.16s%3s %10s ... %10s |%6.1f%% %5s\n")
 * would print it, written directly: a big report has hundreds of
 * thousands of numbers.  @label, @cpu and @moves are at most 31 bytes.
 */
static void row(const char *label, const char *comm, const char *cpu,
		const struct prism_util_times *t, uint64_t whole, const char *moves)
{
	const uint64_t v[10] = { t->user, t->sys,  t->irq,  t->softirq, t->hv,
				 t->busy, t->idle, t->wait, t->sleep,	t->steal };
	char line[512], *p = line;
	uint64_t run = run_of(t);
	const char *c;
	size_t i;

	p = put_str(p, "   [", 4);
	p = put_field(p, label, strlen(label), 6, false, ' ');
	p = put_str(p, "] ", 2);
	p = put_field(p, comm, strnlen(comm, 16), 16, true, ' ');
	p = put_field(p, cpu, strlen(cpu), 3, false, ' ');
	for (i = 0; i < (show_steal ? 10u : 9u); i++) {
		*p++ = ' ';
		p = put_ms(p, v[i], 10);
	}
	p = put_str(p, " |", 2);
	c = percent_color(pct(run, whole ? whole : run + t->idle));
	p = put_str(p, c, strlen(c));
	p = put_fixed1(p, pct(run, whole ? whole : run + t->idle), 6);
	p = put_str(p, *c ? "%" COLOR_RESET " " : "% ", *c ? 5 : 2);
	p = put_field(p, moves, strlen(moves), 5, false, ' ');
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), stdout);
}

static const char *const kind_title[] = { "syscall", "irq", "softirq", "hcall" };

/* "%" PRId64, or "%#" PRIx64 with @hex, NUL-terminated in @buf (24 bytes) */
static size_t call_id(char *buf, int64_t id, bool hex)
{
	char *p = buf;

	if (hex) {
		if (id)
			p = put_str(p, "0x", 2);
		p = put_hex(p, (uint64_t)id, 0);
	} else {
		uint64_t u = id < 0 ? -(uint64_t)id : (uint64_t)id;

		if (id < 0)
			*p++ = '-';
		p = put_udec(p, u, 0, ' ');
	}
	*p = '\0';
	return (size_t)(p - buf);
}

/* the heading of a table of calls of kind @k (made once: there are thousands) */
static const char *calls_header(int k)
{
	static char hdr[PRISM_UTIL_NR_KINDS][160];

	if (!hdr[k][0])
		snprintf(hdr[k], sizeof(hdr[k]),
			 "\n  -- (%3s)%-16s%6s %10s %12s %12s %12s %12s %12s   (%s)\n", "ID",
			 "name", "count", "elapsed", "pending", "average", "minimum", "maximum",
			 "blocked", kind_title[k]);
	return hdr[k];
}

static void calls_table(size_t *nr, const struct prism_util_call *const *calls)
{
	struct prism_strbuf sb = STRBUF_INIT;
	int k;
	size_t i;

	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++) {
		if (!nr[k])
			continue;
		fputs(calls_header(k), stdout);
		for (i = 0; i < nr[k]; i++) {
			const struct prism_util_call *c = &calls[k][i];
			uint64_t wall = c->elapsed + c->pending;
			size_t name_len, id_len;
			char id[24], *p;

			id_len = call_id(id, c->id, k == PRISM_UTIL_HCALL);
			/* "     (%3s)%-16s%6" PRIu64 " %10s %12s %12s %12s %12s %12s\n" */
			name_len = strlen(c->name);
			p = room(&sb, 128 + name_len + 6 * (DIGITS_MAX + 19));
			if (!p)
				break;
			p = put_str(p, "     (", 6);
			p = put_field(p, id, id_len, 3, false, ' ');
			*p++ = ')';
			p = put_field(p, c->name, name_len, 16, true, ' ');
			p = put_udec(p, c->count, 6, ' ');
			*p++ = ' ';
			p = put_ms(p, c->elapsed, 10);
			*p++ = ' ';
			p = put_ms(p, c->pending, 12);
			if (c->count) {
				*p++ = ' ';
				p = put_ms(p, avg_ns(c->elapsed, c->count), 12);
				*p++ = ' ';
				p = put_ms(p, c->min, 12);
				*p++ = ' ';
				p = put_ms(p, c->max, 12);
			} else {
				p = put_str(p, "           --           --           --", 39);
			}
			*p++ = ' ';
			p = put_ms(p, wall > c->oncpu ? wall - c->oncpu : 0, 12);
			*p++ = '\n';
			commit(&sb, p);
		}
		fwrite(sb.buf, 1, sb.len, stdout);
		sb.len = 0;
	}
	prism_strbuf_release(&sb);
}

/* "%u", NUL-terminated in @buf (24 bytes) */
static const char *udec(char *buf, uint64_t v)
{
	*put_udec(buf, v, 0, ' ') = '\0';
	return buf;
}

static void print_task(const struct prism_util_task *t, bool no_calls)
{
	char label[32], cpu[24], moves[24];
	size_t i;

	task_label(label, t);
	row_header();
	for (i = 0; i < t->nr_cpus; i++)
		row(label, t->comm, udec(cpu, t->cpus[i].cpu), &t->cpus[i].t, 0, "");
	row(label, t->comm, "ALL", &t->all, 0, udec(moves, t->moves));
	if (t->wakeups)
		printf("   wakeups %" PRIu64 ", latency average %.6f maximum %.6f\n", t->wakeups,
		       ms(t->wakeup_total) / (double)t->wakeups, ms(t->wakeup_max));
	if (!no_calls)
		calls_table((size_t *)t->nr_calls, t->calls);
	printf("\n");
}

static void print_anomalies(const struct prism_util_result *r)
{
	const struct prism_util_anomalies *a = &r->anomalies;

	printf("Anomalies:\n");
	printf("  lost events              %12" PRIu64 " (in %" PRIu64
	       " LOST/LOST_SAMPLES records)\n",
	       a->lost_events, a->lost_records);
	printf("  lost samples             %12" PRIu64 "\n", a->lost_samples);
	printf("  out of time order        %12" PRIu64 " (records later than the time sort held)\n",
	       a->out_of_order);
	printf("  duplicated samples       %12" PRIu64 " (ignored)\n", a->duplicate_samples);
	printf("  entry while in a call    %12" PRIu64 " (the open call is left out)\n",
	       a->enter_in_call);
	printf("  exit without entry       %12" PRIu64 " (left out)\n", a->exit_without_enter);
	printf("  unmatched irq exits      %12" PRIu64 "\n", a->unmatched_irq_exits);
	printf("  inferred switch-ins      %12" PRIu64 " (%.6f ms around them)\n",
	       a->inferred_switch_ins, ms(a->inferred_ns));
	printf("  assumed running          %12" PRIu64
	       " tasks (%.6f ms before their first event)\n",
	       a->assumed_running, ms(a->assumed_ns));
	printf("  running at the end       %12" PRIu64
	       " tasks (%.6f ms since their last switch-in)\n",
	       a->running_at_end, ms(a->running_at_end_ns));
	printf("  samples without a task   %12" PRIu64 " (tid -1: switch-outs of exiting tasks)\n",
	       a->no_tid_samples);
	printf("  before a CPU's 1st switch %11.6f ms of task run time\n",
	       ms(a->before_first_switch_ns));
	printf("  spurious migrations      %12" PRIu64 " (ignored)\n", a->spurious_migrations);
	printf("  events after death       %12" PRIu64 "\n", a->events_after_death);
	printf("  CPUs without events      %12" PRIu64 " (counted idle)\n", a->cpus_without_events);
	printf("  busy, mode unknown       %12.6f ms\n", ms(a->busy_unknown_ns));
	printf("  switch records           %12" PRIu64 " (the authority on who runs)\n",
	       a->switch_records);
	printf("  moved by runtime events  %12.6f ms (run time from a switch's pick, as the kernel counts)\n",
	       ms(a->runtime_moved_ns));
	printf("  steal time               %12.6f ms in %" PRIu64
	       " intervals (the hypervisor ran something else: not on CPU)\n",
	       ms(a->steal_ns), a->steal_intervals);
	if (a->missing[0])
		printf("  events not in the file: %s\n", a->missing);
}

/*
 * "accounting check: N tasks within 1 ms of the kernel, M differ (largest:
 * comm[tid] X ms); the workload: X ms on CPU, Y ms by its rusage (D ms)"
 */
static void check_line(const struct util_cmd *c, const char *prefix, const char *suffix)
{
	const struct prism_util_check_result *k = &c->kc;

	if (!c->kc_valid)
		return;
	printf("%saccounting check: %zu tasks within %.0f ms of the kernel, %zu differ", prefix,
	       k->nr_within, ms(PRISM_UTIL_CHECK_TOLERANCE_NS), k->nr_differ);
	if (k->nr_within + k->nr_differ)
		printf(" (largest: %s[%u] %+.3f ms)", k->worst_comm, k->worst_tid,
		       (double)k->worst_ns / 1e6);
	if (k->has_workload)
		printf("; the workload: %.3f ms on CPU, %.3f ms by its rusage (%+.3f ms)",
		       ms(k->workload_ns), ms(k->workload_kernel_ns),
		       ((double)k->workload_ns - (double)k->workload_kernel_ns) / 1e6);
	printf("%s\n", suffix);
}

/* the call tables of process @p; false (said) when they cannot be made */
static bool process_calls(struct util_cmd *c, const struct prism_util_process *p,
			  size_t nr[PRISM_UTIL_NR_KINDS],
			  const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS])
{
	int err = prism_util__process_calls(c->u, p, nr, calls);

	if (err) {
		error_errno(-err, "cannot merge the call tables of process %u", p->pid);
		c->failed = true;
	}
	return !err;
}

static void print_text(const struct prism_util_result *r, struct util_cmd *c)
{
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS];
	size_t nr[PRISM_UTIL_NR_KINDS];
	char cpu[24], moves[24];
	size_t i, j;
	uint64_t all_moves = 0;

	show_steal = r->anomalies.steal_ns != 0;
	for (i = 0; i < r->nr_processes; i++)
		all_moves += r->processes[i].moves;
	if (!c->per_cpu) {
		for (i = 0; i < r->nr_processes; i++) {
			const struct prism_util_process *p = &r->processes[i];

			printf("%u:\n", p->pid);
			for (j = 0; j < p->nr_tasks; j++)
				print_task(p->tasks[j], c->no_calls);
			row_header();
			for (j = 0; j < p->nr_cpus; j++)
				row("ALL", "", udec(cpu, p->cpus[j].cpu), &p->cpus[j].t, 0, "");
			row("ALL", "", "ALL", &p->all, 0, udec(moves, p->moves));
			if (!c->no_calls && process_calls(c, p, nr, calls))
				calls_table(nr, calls);
			printf("\n");
		}
	}
	printf("ALL:\n");
	row_header();
	for (j = 0; j < r->nr_cpus; j++) {
		snprintf(cpu, sizeof(cpu), "%u", r->cpus[j].cpu);
		row("ALL", "", cpu, &r->cpus[j].t, r->length, "");
	}
	snprintf(moves, sizeof(moves), "%" PRIu64, all_moves);
	row("ALL", "", "ALL", &r->all, r->length * (r->nr_cpus ? r->nr_cpus : 1), moves);
	if (!c->no_calls && !c->per_cpu)
		calls_table((size_t *)r->nr_calls, r->calls);
	printf("\nTotal Trace Time: %.6f ms (%u CPUs, %" PRIu64 " events, arch %s)\n\n",
	       ms(r->length), r->nr_cpus, r->nr_events, r->arch);
	print_anomalies(r);
	check_line(c, "\n", "");
}

/* ---- CSV ---- */

static void csv_times(const struct prism_util_times *t, uint64_t whole)
{
	char b[9][32];

	printf(",%s,%s,%s,%s,%s,%s,%s,%s,%s,%.2f", fms(b[0], t->user), fms(b[1], t->sys),
	       fms(b[2], t->irq), fms(b[3], t->softirq), fms(b[4], t->hv), fms(b[5], t->busy),
	       fms(b[6], t->idle), fms(b[7], t->wait), fms(b[8], t->sleep),
	       pct(run_of(t), whole ? whole : run_of(t) + t->idle));
}

/* the last column of a row (added after the others: readers by position keep working) */
static void csv_steal(const struct prism_util_times *t)
{
	char b[32];

	printf(",%s\n", fms(b, t->steal));
}

static void csv_str(const char *s)
{
	putchar(',');
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void csv_calls(const char *scope, int64_t pid, int64_t tid, int image, size_t *nr,
		      const struct prism_util_call *const *calls)
{
	int k;
	size_t i;

	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++)
		for (i = 0; i < nr[k]; i++) {
			const struct prism_util_call *c = &calls[k][i];

			printf("call,%s,%" PRId64 ",%" PRId64 ",%d,%s,%" PRId64, scope, pid, tid,
			       image, kind_title[k], c->id);
			csv_str(c->name);
			printf(",%" PRIu64 ",%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%" PRIu64 ",%" PRIu64
			       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			       c->count, ms(c->elapsed), ms(c->pending),
			       c->count ? ms(c->elapsed) / (double)c->count : 0.0, ms(c->min),
			       ms(c->max), ms(c->oncpu), c->nr_pending_start, c->nr_pending_end,
			       c->nr_inherited, c->nr_unmatched_exits, c->nr_duplicate_exits);
		}
}

static void print_csv(const struct prism_util_result *r, struct util_cmd *c)
{
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS];
	size_t nr[PRISM_UTIL_NR_KINDS];
	size_t i, j, k;

	printf("record,scope,pid,tid,image,comm,cpu,user,sys,irq,softirq,hv,busy,idle,wait,sleep,"
	       "util,moves,wakeups,wakeup_avg,wakeup_max,inferred,steal\n");
	printf("call,scope,pid,tid,image,kind,id,name,count,elapsed,pending,average,minimum,"
	       "maximum,oncpu,pending_start,pending_end,inherited,unmatched_exits,duplicate_exits\n");
	for (i = 0; i < r->nr_processes && !c->per_cpu; i++) {
		const struct prism_util_process *p = &r->processes[i];

		for (j = 0; j < p->nr_tasks; j++) {
			const struct prism_util_task *t = p->tasks[j];

			for (k = 0; k < t->nr_cpus; k++) {
				printf("row,task,%u,%u,%d", t->pid, t->tid, t->image);
				csv_str(t->comm);
				printf(",%u", t->cpus[k].cpu);
				csv_times(&t->cpus[k].t, 0);
				printf(",,,,,");
				csv_steal(&t->cpus[k].t);
			}
			printf("row,task,%u,%u,%d", t->pid, t->tid, t->image);
			csv_str(t->comm);
			printf(",ALL");
			csv_times(&t->all, 0);
			printf(",%" PRIu64 ",%" PRIu64 ",%.6f,%.6f,%.6f", t->moves, t->wakeups,
			       t->wakeups ? ms(t->wakeup_total) / (double)t->wakeups : 0.0,
			       ms(t->wakeup_max), ms(t->inferred));
			csv_steal(&t->all);
			if (!c->no_calls)
				csv_calls("task", t->pid, t->tid, t->image, (size_t *)t->nr_calls,
					  t->calls);
		}
		for (k = 0; k < p->nr_cpus; k++) {
			printf("row,process,%u,,", p->pid);
			csv_str(p->comm);
			printf(",%u", p->cpus[k].cpu);
			csv_times(&p->cpus[k].t, 0);
			printf(",,,,,");
			csv_steal(&p->cpus[k].t);
		}
		printf("row,process,%u,,", p->pid);
		csv_str(p->comm);
		printf(",ALL");
		csv_times(&p->all, 0);
		printf(",%" PRIu64 ",,,,", p->moves);
		csv_steal(&p->all);
		if (!c->no_calls && process_calls(c, p, nr, calls))
			csv_calls("process", p->pid, -1, -1, nr, calls);
	}
	for (k = 0; k < r->nr_cpus; k++) {
		printf("row,system,,,,,%u", r->cpus[k].cpu);
		csv_times(&r->cpus[k].t, r->length);
		printf(",,,,,");
		csv_steal(&r->cpus[k].t);
	}
	printf("row,system,,,,,ALL");
	csv_times(&r->all, r->length * (r->nr_cpus ? r->nr_cpus : 1));
	printf(",,,,,");
	csv_steal(&r->all);
	if (!c->no_calls && !c->per_cpu)
		csv_calls("system", -1, -1, -1, (size_t *)r->nr_calls, r->calls);
	printf("trace,length,%.6f,cpus,%u,events,%" PRIu64 ",lost_events,%" PRIu64
	       ",lost_samples,%" PRIu64 "\n",
	       ms(r->length), r->nr_cpus, r->nr_events, r->anomalies.lost_events,
	       r->anomalies.lost_samples);
	if (c->kc_valid) {
		const struct prism_util_check_result *kc = &c->kc;

		printf("check,within,%zu,differ,%zu,worst_tid,%u,worst_comm", kc->nr_within,
		       kc->nr_differ, kc->worst_tid);
		csv_str(kc->worst_comm);
		printf(",worst_ms,%.6f", (double)kc->worst_ns / 1e6);
		if (kc->has_workload)
			printf(",workload_ms,%.6f,workload_rusage_ms,%.6f", ms(kc->workload_ns),
			       ms(kc->workload_kernel_ns));
		printf("\n");
	}
}

/* ---- JSON ---- */

static void json_str(const char *s)
{
	struct prism_strbuf sb = STRBUF_INIT;

	prism_strbuf_add_json_str(&sb, s);
	fputs(sb.buf ? sb.buf : "\"\"", stdout);
	prism_strbuf_release(&sb);
}

static void json_times(const struct prism_util_times *t)
{
	char b[10][32];

	printf("\"user\":%s,\"sys\":%s,\"irq\":%s,\"softirq\":%s,\"hv\":%s,\"busy\":%s,"
	       "\"idle\":%s,\"wait\":%s,\"sleep\":%s,\"steal\":%s",
	       fms(b[0], t->user), fms(b[1], t->sys), fms(b[2], t->irq), fms(b[3], t->softirq),
	       fms(b[4], t->hv), fms(b[5], t->busy), fms(b[6], t->idle), fms(b[7], t->wait),
	       fms(b[8], t->sleep), fms(b[9], t->steal));
}

static void json_rows(const struct prism_util_cpu_row *rows, size_t n)
{
	size_t i;

	printf("\"cpus\":[");
	for (i = 0; i < n; i++) {
		printf("%s{\"cpu\":%u,", i ? "," : "", rows[i].cpu);
		json_times(&rows[i].t);
		printf("}");
	}
	printf("]");
}

static void json_calls(size_t *nr, const struct prism_util_call *const *calls)
{
	int k;
	size_t i;

	printf("\"calls\":{");
	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++) {
		printf("%s\"%s\":[", k ? "," : "", kind_title[k]);
		for (i = 0; i < nr[k]; i++) {
			const struct prism_util_call *c = &calls[k][i];

			printf("%s{\"id\":%" PRId64 ",\"name\":", i ? "," : "", c->id);
			json_str(c->name);
			printf(",\"count\":%" PRIu64 ",\"elapsed\":%.6f,\"pending\":%.6f,"
			       "\"minimum\":%.6f,\"maximum\":%.6f,\"oncpu\":%.6f,"
			       "\"pending_start\":%" PRIu64 ",\"pending_end\":%" PRIu64
			       ",\"inherited\":%" PRIu64 ",\"unmatched_exits\":%" PRIu64
			       ",\"duplicate_exits\":%" PRIu64 "}",
			       c->count, ms(c->elapsed), ms(c->pending), ms(c->min), ms(c->max),
			       ms(c->oncpu), c->nr_pending_start, c->nr_pending_end,
			       c->nr_inherited, c->nr_unmatched_exits, c->nr_duplicate_exits);
		}
		printf("]");
	}
	printf("}");
}

static void print_json(const struct prism_util_result *r, struct util_cmd *c)
{
	const struct prism_util_call *calls[PRISM_UTIL_NR_KINDS];
	size_t nr[PRISM_UTIL_NR_KINDS];
	const struct prism_util_anomalies *a = &r->anomalies;
	size_t i, j;

	printf("{\"unit\":\"ms\",\"start\":%.9f,\"end\":%.9f,\"length\":%.6f,\"arch\":",
	       (double)r->start / 1e9, (double)r->end / 1e9, ms(r->length));
	json_str(r->arch);
	printf(",\"events\":%" PRIu64 ",\"processes\":[", r->nr_events);
	for (i = 0; i < r->nr_processes && !c->per_cpu; i++) {
		const struct prism_util_process *p = &r->processes[i];

		printf("%s{\"pid\":%u,\"comm\":", i ? "," : "", p->pid);
		json_str(p->comm);
		printf(",\"moves\":%" PRIu64 ",\"all\":{", p->moves);
		json_times(&p->all);
		printf("},");
		json_rows(p->cpus, p->nr_cpus);
		printf(",\"tasks\":[");
		for (j = 0; j < p->nr_tasks; j++) {
			const struct prism_util_task *t = p->tasks[j];

			printf("%s{\"tid\":%u,\"pid\":%u,\"image\":%d,\"comm\":", j ? "," : "",
			       t->tid, t->pid, t->image);
			json_str(t->comm);
			printf(",\"start\":%.9f,\"end\":%.9f,\"exited\":%s,\"moves\":%" PRIu64
			       ",\"wakeups\":%" PRIu64 ",\"wakeup_total\":%.6f,\"wakeup_max\":%.6f,"
			       "\"inferred\":%.6f,\"moved\":%.6f,\"tail\":%.6f,\"head\":%.6f,"
			       "\"orphan\":%.6f,\"all\":{",
			       (double)t->start / 1e9, (double)t->end / 1e9,
			       t->exited ? "true" : "false", t->moves, t->wakeups,
			       ms(t->wakeup_total), ms(t->wakeup_max), ms(t->inferred),
			       ms(t->moved), ms(t->tail), ms(t->head), ms(t->orphan));
			json_times(&t->all);
			printf("},");
			json_rows(t->cpus, t->nr_cpus);
			if (!c->no_calls) {
				printf(",");
				json_calls((size_t *)t->nr_calls, t->calls);
			}
			printf("}");
		}
		printf("]");
		if (!c->no_calls && process_calls(c, p, nr, calls)) {
			printf(",");
			json_calls(nr, calls);
		}
		printf("}");
	}
	printf("],\"system\":{\"util\":%.2f,\"all\":{", r->util_pct);
	json_times(&r->all);
	printf("},");
	json_rows(r->cpus, r->nr_cpus);
	if (!c->no_calls && !c->per_cpu) {
		printf(",");
		json_calls((size_t *)r->nr_calls, r->calls);
	}
	printf("},\"anomalies\":{\"lost_events\":%" PRIu64 ",\"lost_samples\":%" PRIu64
	       ",\"lost_records\":%" PRIu64 ",\"out_of_order\":%" PRIu64
	       ",\"duplicate_samples\":%" PRIu64 ",\"enter_in_call\":%" PRIu64
	       ",\"exit_without_enter\":%" PRIu64 ",\"unmatched_irq_exits\":%" PRIu64
	       ",\"inferred_switch_ins\":%" PRIu64 ",\"inferred\":%.6f,\"assumed_running\":%" PRIu64
	       ",\"assumed\":%.6f"
	       ",\"running_at_end\":%" PRIu64
	       ",\"running_at_end_ms\":%.6f,\"before_first_switch\":%.6f,\"no_tid_samples\":%" PRIu64
	       ",\"spurious_migrations\":%" PRIu64 ",\"events_after_death\":%" PRIu64
	       ",\"cpus_without_events\":%" PRIu64 ",\"busy_unknown\":%.6f,\"missing\":",
	       a->lost_events, a->lost_samples, a->lost_records, a->out_of_order,
	       a->duplicate_samples, a->enter_in_call, a->exit_without_enter,
	       a->unmatched_irq_exits, a->inferred_switch_ins, ms(a->inferred_ns),
	       a->assumed_running, ms(a->assumed_ns), a->running_at_end, ms(a->running_at_end_ns),
	       ms(a->before_first_switch_ns), a->no_tid_samples, a->spurious_migrations,
	       a->events_after_death, a->cpus_without_events, ms(a->busy_unknown_ns));
	json_str(a->missing);
	printf(",\"switch_records\":%" PRIu64 ",\"runtime_moved\":%.6f,\"steal\":%.6f,"
	       "\"steal_intervals\":%" PRIu64 "}",
	       a->switch_records, ms(a->runtime_moved_ns), ms(a->steal_ns), a->steal_intervals);
	if (c->kc_valid) {
		const struct prism_util_check_result *k = &c->kc;

		printf(",\"accounting_check\":{\"within\":%zu,\"differ\":%zu,\"worst_tid\":%u,"
		       "\"worst_comm\":",
		       k->nr_within, k->nr_differ, k->worst_tid);
		json_str(k->worst_comm);
		printf(",\"worst\":%.6f", (double)k->worst_ns / 1e6);
		if (k->has_workload)
			printf(",\"workload\":%.6f,\"workload_rusage\":%.6f", ms(k->workload_ns),
			       ms(k->workload_kernel_ns));
		printf("}");
	}
	printf("}\n");
}

/* ---- the command ---- */

/*
 * The accounting check of a util recording (prism util's own, prism record
 * --util), and when its events were disabled: the report ends there too.
 * Not with --time (the report is of a part).
 */
static void load_check(struct util_cmd *c, struct prism_session *s, struct prism_util *u,
		       const char *path, const struct prism_util_opts *uo)
{
	size_t len;
	uint64_t end;

	if (uo->time_start || uo->time_end)
		return;
	if (prism_util_check__from_session(s, &c->check, &len) == -EINVAL)
		warning("'%s': the accounting check section (%zu bytes) is not one this prism "
			"reads: no accounting check",
			path ? path : "perf.data", len);
	if (!c->check)
		return;
	end = prism_util_check__end(c->check);
	if (end)
		prism_util__set_end(u, end);
	if (!prism_util_check__nr_tasks(c->check) &&
	    !prism_util_check__has_workload(c->check, NULL)) {
		prism_util_check__free(c->check); /* -C, -t: nothing to compare */
		c->check = NULL;
	}
}

static int analyse(struct util_cmd *c, const char *path, struct prism_util_report_opts *ro,
		   const struct prism_util_opts *uo)
{
	/* --sort-mem: a round of a system-wide recording can hold hundreds of MB */
	struct prism_session_opts o = { .path = path, .order_mem_limit = c->order_mb << 20 };
	struct prism_session *s = open_session(&o, c->force);
	const struct prism_util_result *r;
	struct prism_util *u;
	int err, ret = 0;

	if (!s) {
		if (!path && access("perf.data", F_OK))
			hint("or record and report in one step: prism util -a --duration 5");
		return 1;
	}
	u = prism_util__new(uo);
	if (!u) {
		prism_session__free(s);
		return error_errno(ENOMEM, "cannot start the analysis");
	}
	load_check(c, s, u, path, uo);
	err = prism_util__process(u, s);
	if (report_process_result(s, path, err))
		ret = 1;
	if (c->check) {
		/* against every task, whatever the filters show */
		err = prism_util__report(u, NULL, &r);
		if (!err)
			err = prism_util_check__compare(c->check, r, &c->kc);
		c->kc_valid = !err;
	}
	err = prism_util__report(u, ro, &r);
	c->u = u;
	if (err) {
		ret = error_errno(-err, "cannot build the report of '%s'",
				  path ? path : "perf.data");
	} else {
		/*
		 * A big report is megabytes: into a file or a pipe in large
		 * writes, not one per 4 KiB (a terminal keeps its line
		 * buffering).  glibc takes the size only with a buffer given.
		 */
		static char out_buf[(size_t)256 << 10];

		if (!isatty(STDOUT_FILENO))
			setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
		if (c->json)
			print_json(r, c);
		else if (c->csv)
			print_csv(r, c);
		else
			print_text(r, c);
		if (c->failed)
			ret = 1;
		if (r->anomalies.lost_events || r->anomalies.lost_samples)
			warning("'%s' lost %" PRIu64 " events and %" PRIu64
				" samples: the report covers what was recorded (see Anomalies)",
				path ? path : "perf.data", r->anomalies.lost_events,
				r->anomalies.lost_samples);
	}
	prism_util__free(u);
	prism_session__free(s);
	return ret < 0 ? 1 : ret;
}

int cmd_util(int argc, const char **argv)
{
	struct util_cmd c = { 0 };
	const struct option_def opts[] = {
		OPT_INPUT(&c.input),
		OPT_FORCE(&c.force),
		OPT_GROUP("Report"),
		OPT_STRING(0, "sort", &c.sort, "key",
			   "order of processes and tasks: util (busiest first, default), cpu "
			   "(on-CPU time), tid, name"),
		OPT_STRING(0, "pid", &c.pids, "pids",
			   "only these processes (comma-separated, ranges as 10-20)"),
		OPT_STRING(0, "tid", &c.tids, "tids", "only these tasks"),
		OPT_STRING(0, "comm", &c.comms, "names", "only tasks with these command names"),
		OPT_STRING(0, "cpu", &c.cpus, "cpus",
			   "only these CPUs' rows, and tasks that ran on them (e.g. 0,2-3)"),
		OPT_STRING(0, "time", &c.time, "start,end",
			   "only events between these times in seconds (as perf script prints "
			   "them; either side may be empty)"),
		OPT_INT(0, "top", &c.top, "n", "only the N busiest processes"),
		OPT_BOOL(0, "per-cpu", &c.per_cpu, "only the system per-CPU summary"),
		OPT_BOOL(0, "no-calls", &c.no_calls,
			 "leave out the syscall/irq/softirq/hcall tables"),
		OPT_BOOL(0, "csv", &c.csv, "print CSV (same numbers, ms)"),
		OPT_BOOL(0, "json", &c.json, "print one JSON object (same numbers, ms)"),
		OPT_U64(0, "sort-mem", &c.order_mb, "MB",
			"bound the memory the time sort may hold for records it cannot re-read "
			"from the file (pipes, compressed data; default 32); records later than "
			"a smaller window are counted out of order in the footer"),
		OPT_STRING(0, "arch", &c.arch, "arch",
			   "name syscalls with this architecture's table (default: the file's)"),
		OPT_GROUP(
			"Record first (one step); a live report ends with an accounting check: its "
			"tasks against the kernel's schedstat, the command against its rusage"),
		OPT_BOOL('a', "all-cpus", &c.all_cpus, "record every CPU (system-wide)"),
		OPT_STRING('C', "cpu-list", &c.rec_cpus, "cpus", "record these CPUs"),
		OPT_STRING('p', "record-pid", &c.rec_pids, "pids",
			   "record these processes (with switch records, as for a command)"),
		OPT_DOUBLE_POSITIVE(0, "duration", &c.duration, "seconds",
				    "stop recording after this long (default: until the command "
				    "ends, or Ctrl-C)"),
		OPT_BOOL(0, "keep", &c.keep, "keep the recorded file (its path is printed)"),
		OPT_END(),
	};
	struct prism_util_report_opts ro = { 0 };
	struct prism_util_opts uo = { 0 };
	int64_t *pids = NULL, *tids = NULL, *cpus = NULL;
	const char **comms = NULL;
	char *comm_buf = NULL;
	bool one_step;
	int ret = EXIT_USAGE;

	/* the command may follow with or without '--', as for record and trace */
	argc = parse_options(argc, argv, opts, usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_KEEP_DASHDASH);
	one_step = c.all_cpus || c.rec_cpus || c.rec_pids || argc;
	if (argc && !strcmp(argv[0], "--")) {
		argv++;
		argc--;
		if (!argc)
			usage_error(usage, opts, "'--' must be followed by a command to run");
	}
	if (one_step && c.input)
		usage_error(usage, opts, "-i reads a file; -a, -C, -p and '-- command' record one");
	if (!one_step && (c.duration || c.keep))
		usage_error(usage, opts, "--duration and --keep need -a, -C, -p or '-- command'");
	if (c.csv && c.json)
		usage_error(usage, opts, "--csv and --json exclude each other");
	if (c.top < 0)
		usage_error(usage, opts, "--top needs a positive number, not %d", c.top);
	if (c.sort) {
		if (!strcmp(c.sort, "util"))
			ro.sort = PRISM_UTIL_SORT_UTIL;
		else if (!strcmp(c.sort, "cpu"))
			ro.sort = PRISM_UTIL_SORT_CPU;
		else if (!strcmp(c.sort, "tid"))
			ro.sort = PRISM_UTIL_SORT_TID;
		else if (!strcmp(c.sort, "name"))
			ro.sort = PRISM_UTIL_SORT_NAME;
		else
			usage_error(usage, opts,
				    "unknown --sort key '%s' (use util, cpu, tid or name)", c.sort);
	}
	if ((c.pids && parse_list("pid", c.pids, &pids, &ro.nr_pids)) ||
	    (c.tids && parse_list("tid", c.tids, &tids, &ro.nr_tids)) ||
	    (c.cpus && parse_list("cpu", c.cpus, &cpus, &ro.nr_cpus)) ||
	    /* a -C recording knows nothing of the other CPUs: report the recorded ones */
	    (!c.cpus && c.rec_cpus && parse_list("cpu", c.rec_cpus, &cpus, &ro.nr_cpus)) ||
	    (c.time && parse_time(c.time, &uo.time_start, &uo.time_end)))
		goto out;
	ro.pids = pids;
	ro.tids = tids;
	ro.cpus = cpus;
	if (c.comms) {
		comm_buf = xstrdup(c.comms);
		ro.nr_comms = split_names(comm_buf, &comms);
		ro.comms = comms;
	}
	ro.top = (size_t)c.top;
	uo.arch = c.arch;
	if (c.arch && !prism_syscall_table(c.arch)) {
		error("no syscall table for architecture '%s'", c.arch);
		hint("use one of x86_64, i686, aarch64, armv7l, ppc64le, ppc, s390x, s390, riscv64");
		goto out;
	}

	if (one_step) {
		struct util_record rec = {
			.all_cpus = c.all_cpus,
			.cpus = c.rec_cpus,
			.pids = c.rec_pids,
			.argv = argc ? argv : NULL,
			.duration = c.duration,
		};
		char path[PATH_MAX];

		ret = util_record(&rec, path, sizeof(path));
		if (ret)
			goto out;
		ret = analyse(&c, path, &ro, &uo);
		if (c.keep)
			info("the recording is kept in '%s'", path);
		else
			unlink(path);
	} else {
		ret = analyse(&c, c.input, &ro, &uo);
	}
out:
	prism_util_check__free(c.check);
	free(pids);
	free(tids);
	free(cpus);
	free(comms);
	free(comm_buf);
	return ret;
}
