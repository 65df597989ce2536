// SPDX-License-Identifier: MIT
/*
 * The state machine's fast path for syscall events (lib/util/state-fast.h)
 * against its general path: the same events through an analysis with the
 * fast path and through one without (u->no_fast_path) give the same
 * report, number for number.  Random sequences mix syscalls with switches,
 * forks, execs, interrupts, duplicates, times running backwards and
 * samples without a task; the fixtures go through prism_util__process(),
 * whose source calls the fast path straight from the decoded sample.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/session.h>
#include <prism/util.h>

#include "test.h"
#include "util-test.h"
#include "util/util-internal.h"

static void put_times(FILE *f, const struct prism_util_times *t)
{
	fprintf(f,
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 "\n",
		t->user, t->sys, t->irq, t->softirq, t->hv, t->busy, t->idle, t->wait, t->sleep);
}

static void put_calls(FILE *f, const struct prism_util_call *const *calls, const size_t *nr)
{
	int k;
	size_t i;

	for (k = 0; k < PRISM_UTIL_NR_KINDS; k++)
		for (i = 0; i < nr[k]; i++) {
			const struct prism_util_call *c = &calls[k][i];

			fprintf(f,
				"  call %d %" PRId64 " %s %" PRIu64 " %" PRIu64 " %" PRIu64
				" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
				" %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				c->kind, c->id, c->name, c->count, c->elapsed, c->min, c->max,
				c->pending, c->oncpu, c->nr_pending_start, c->nr_pending_end,
				c->nr_inherited, c->nr_unmatched_exits, c->nr_duplicate_exits);
		}
}

/* every number of the report of @u, one fact per line (malloc'd) */
static char *dump(struct prism_util *u)
{
	const struct prism_util_result *r = util_report(u);
	const struct prism_util_anomalies *a;
	char *buf = NULL;
	size_t len = 0, i, j;
	FILE *f;

	if (!r)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	a = &r->anomalies;
	fprintf(f, "span %" PRIu64 " %" PRIu64 " cpus %u events %" PRIu64 "\n", r->start, r->end,
		r->nr_cpus, r->nr_events);
	for (i = 0; i < r->nr_cpus; i++) {
		fprintf(f, "cpu %u", r->cpus[i].cpu);
		put_times(f, &r->cpus[i].t);
	}
	for (i = 0; i < r->nr_processes; i++) {
		const struct prism_util_process *p = &r->processes[i];

		fprintf(f, "process %u %s %" PRIu64, p->pid, p->comm, p->moves);
		put_times(f, &p->all);
		for (j = 0; j < p->nr_tasks; j++) {
			const struct prism_util_task *t = p->tasks[j];
			size_t k;

			fprintf(f,
				" task %u/%u/%d %s %" PRIu64 "-%" PRIu64 " %d moves %" PRIu64
				" wake %" PRIu64 " %" PRIu64 " %" PRIu64 " inferred %" PRIu64
				" tail %" PRIu64 " head %" PRIu64 " orphan %" PRIu64
				" ins %" PRIu64,
				t->tid, t->pid, t->image, t->comm, t->start, t->end, t->exited,
				t->moves, t->wakeups, t->wakeup_total, t->wakeup_max, t->inferred,
				t->tail, t->head, t->orphan, t->switch_ins);
			put_times(f, &t->all);
			for (k = 0; k < t->nr_cpus; k++) {
				fprintf(f, "  on %u", t->cpus[k].cpu);
				put_times(f, &t->cpus[k].t);
			}
			put_calls(f, t->calls, t->nr_calls);
		}
	}
	put_calls(f, r->calls, r->nr_calls);
	fprintf(f,
		"anomalies %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		" %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
		a->lost_events, a->lost_samples, a->lost_records, a->duplicate_samples,
		a->enter_in_call, a->exit_without_enter, a->inferred_switch_ins, a->inferred_ns,
		a->spurious_migrations, a->unmatched_irq_exits, a->events_after_death,
		a->cpus_without_events, a->busy_unknown_ns, a->assumed_running, a->assumed_ns,
		a->running_at_end, a->running_at_end_ns, a->no_tid_samples,
		a->before_first_switch_ns);
	fclose(f);
	return buf;
}

/* NULL when @a and @b are the same, else the first line where they differ */
static const char *first_difference(const char *a, const char *b)
{
	static char msg[600];
	const char *la = a, *lb = b;

	while (*a && *a == *b) {
		if (*a == '\n') {
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	if (!*a && !*b)
		return NULL;
	snprintf(msg, sizeof(msg), "fast: %.*s | general: %.*s", (int)strcspn(la, "\n"), la,
		 (int)strcspn(lb, "\n"), lb);
	return msg;
}

/* a syscall sample, with the pid given or not, and ids -1 now and then */
static struct prism_util_event random_event(uint64_t *now, uint32_t nr_cpus)
{
	static const int64_t ids[] = { 0, 1, 3, 39, 60, 231, -1 };
	struct prism_util_event e = { 0 };
	uint64_t r = rnd();
	unsigned int kind = (unsigned int)(r % 100);

	/* mostly forward, sometimes the same time, rarely backwards */
	if (r % 53 == 0 && *now > 5000)
		*now -= rnd() % 4000;
	else if (r % 7)
		*now += 1 + rnd() % 3000;
	e.time = *now;
	e.cpu = (uint32_t)(rnd() % nr_cpus);
	e.tid = (uint32_t)(1 + rnd() % 5);
	if (rnd() % 97 == 0)
		e.tid = rnd() % 2 ? 0 : UINT32_MAX;
	/* tids 1-3 are threads of process 1; the pid is sometimes not given */
	e.pid = rnd() % 5 ? (e.tid <= 3 ? 1 : e.tid) : 0;
	e.a = ids[rnd() % (sizeof(ids) / sizeof(ids[0]))];
	if (kind < 40) {
		e.type = PRISM_UTIL_EV_SYS_ENTER;
	} else if (kind < 80) {
		e.type = PRISM_UTIL_EV_SYS_EXIT;
	} else if (kind < 88) {
		e.type = PRISM_UTIL_EV_SWITCH;
		e.a = e.tid;
		e.b = rnd() % 3 ? 0 : 1;
		e.c = (int64_t)(rnd() % 6);
	} else if (kind < 91) {
		e.type = PRISM_UTIL_EV_WAKEUP;
		e.a = (int64_t)(1 + rnd() % 5);
	} else if (kind < 93) {
		e.type = PRISM_UTIL_EV_IRQ_ENTRY;
		e.a = 11;
	} else if (kind < 95) {
		e.type = PRISM_UTIL_EV_IRQ_EXIT;
		e.a = 11;
	} else if (kind < 96) {
		e.type = PRISM_UTIL_EV_FORK;
		e.a = e.tid;
		e.c = (int64_t)(6 + rnd() % 3);
	} else if (kind < 97) {
		e.type = PRISM_UTIL_EV_EXEC;
		e.a = e.tid;
	} else if (kind < 98) {
		e.type = PRISM_UTIL_EV_MIGRATE;
		e.a = (int64_t)(1 + rnd() % 5);
		e.b = (int64_t)(rnd() % nr_cpus);
		e.c = (int64_t)(rnd() % nr_cpus);
	} else if (kind < 99) {
		e.type = PRISM_UTIL_EV_EXIT;
		e.a = e.tid;
	} else {
		e.type = PRISM_UTIL_EV_OTHER;
	}
	/* syscall samples of other layouts: b and c are compared for duplicates */
	if (e.type <= PRISM_UTIL_EV_SYS_EXIT && rnd() % 50 == 0)
		e.b = 1;
	return e;
}

static void test_random_sequences(void)
{
	unsigned int seq;

	for (seq = 0; seq < 400; seq++) {
		struct prism_util *fast = prism_util__new(NULL), *slow = prism_util__new(NULL);
		struct prism_util_event prev = { 0 };
		uint64_t now = 1000000;
		uint32_t nr_cpus = 1 + seq % 3;
		char *a, *b;
		const char *diff;
		int i, n = 200 + (int)(rnd() % 3000);

		TEST_TRUE(fast && slow);
		slow->no_fast_path = true;
		for (i = 0; i < n; i++) {
			/* a duplicated sample now and then */
			struct prism_util_event e =
				i && rnd() % 40 == 0 ? prev : random_event(&now, nr_cpus);

			TEST_EQ(prism_util__event(fast, &e), prism_util__event(slow, &e));
			prev = e;
		}
		a = dump(fast);
		b = dump(slow);
		TEST_TRUE(a && b);
		diff = first_difference(a, b);
		if (diff)
			test_fail(__FILE__, __LINE__, "sequence %u of %d events: %s", seq, n, diff);
		free(a);
		free(b);
		prism_util__free(fast);
		prism_util__free(slow);
		if (test_failed)
			return;
	}
}

static void test_fixtures(void)
{
	static const char *const files[] = { "q-trace", "g-syscalls-group", "r-lost", "p-sched",
					     "f-sched-tp" };
	const char *dir = test_fixture_path("perf-6.1");
	size_t i;

	if (!dir)
		TEST_SKIP("../shared/fixtures is not there");
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[4096], *out[2];
		const char *diff;
		int pass;

		snprintf(path, sizeof(path), "%s/%s.data", dir, files[i]);
		for (pass = 0; pass < 2; pass++) {
			struct prism_session_opts o = { .path = path };
			struct prism_session *s = prism_session__open(&o);
			struct prism_util *u = prism_util__new(NULL);

			TEST_TRUE(s && u);
			u->no_fast_path = pass == 1;
			TEST_EQ(prism_util__process(u, s), 0);
			TEST_TRUE(u->nr_events > 100);
			out[pass] = dump(u);
			TEST_TRUE(out[pass] != NULL);
			prism_util__free(u);
			prism_session__free(s);
		}
		diff = first_difference(out[0], out[1]);
		if (diff)
			test_fail(__FILE__, __LINE__, "%s: %s", files[i], diff);
		free(out[0]);
		free(out[1]);
		if (test_failed)
			return;
	}
}

TEST_MAIN(TEST(random_sequences), TEST(fixtures));
