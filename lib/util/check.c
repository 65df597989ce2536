// SPDX-License-Identifier: MIT
/*
 * The accounting check: the kernel's on-CPU time of tasks, from
 * /proc/PID/task/TID/schedstat (first field: ns on CPU), read at both ends
 * of a recording, set against the report's rows of those tasks.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/util-check.h>
#include <prism/util.h>

#include "check-internal.h"
#include "internal.h"

struct prism_util_check *prism_util_check__new(void)
{
	return calloc(1, sizeof(struct prism_util_check));
}

void prism_util_check__free(struct prism_util_check *k)
{
	if (!k)
		return;
	free(k->v);
	free(k);
}

/* the first number of a small /proc file; false when it cannot be read */
static bool read_first(const char *path, uint64_t *v, char *text, size_t len)
{
	char buf[128];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (text) {
		size_t i;

		for (i = 0; i + 1 < len && buf[i] && buf[i] != '\n'; i++)
			text[i] = buf[i];
		text[i] = '\0';
		return true;
	}
	return sscanf(buf, "%" SCNu64, v) == 1;
}

static int cmp_kt(const void *a, const void *b)
{
	const struct kt *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

void check_sort(struct prism_util_check *k)
{
	if (k->nr)
		qsort(k->v, k->nr, sizeof(*k->v), cmp_kt);
}

static struct kt *find(struct prism_util_check *k, uint32_t tid)
{
	struct kt key = { .tid = tid };

	return k->nr ? bsearch(&key, k->v, k->nr, sizeof(*k->v), cmp_kt) : NULL;
}

static int one_task(struct prism_util_check *k, bool end, uint32_t pid, uint32_t tid)
{
	char path[96];
	uint64_t ns;
	struct kt *t;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/schedstat", pid, tid);
	if (!read_first(path, &ns, NULL, 0))
		return 0; /* gone, or no schedstat */
	if (end) {
		t = find(k, tid);
		if (t) {
			t->end = ns;
			t->ended = true;
		}
		return 0;
	}
	if (prism_ensure_mem((void **)&k->v, &k->cap, sizeof(*k->v), k->nr + 1))
		return -ENOMEM;
	t = &k->v[k->nr++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->start = ns;
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	read_first(path, NULL, t->comm, sizeof(t->comm));
	return 0;
}

static int one_process(struct prism_util_check *k, bool end, uint32_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir))) {
		long tid = atol(d->d_name);

		if (tid > 0 && tid <= UINT32_MAX)
			err = one_task(k, end, pid, (uint32_t)tid);
	}
	closedir(dir);
	return err;
}

int prism_util_check__read(struct prism_util_check *k, bool end, const int64_t *pids,
			   size_t nr_pids)
{
	uint32_t self = (uint32_t)getpid();
	bool with_self = !pids;
	struct dirent *d;
	DIR *dir;
	size_t i;
	int err = 0;

	if (access("/proc/self/schedstat", R_OK))
		return -ENOENT;
	for (i = 0; pids && i < nr_pids; i++)
		with_self |= pids[i] == self;
	/*
	 * the reader's own threads last at the start and first at the end, so
	 * that the reading of the others (milliseconds for a whole machine) is
	 * not in their window: the events are enabled right after the start
	 * and were disabled right before the end
	 */
	if (with_self && end)
		err = one_process(k, end, self);
	if (pids) {
		for (i = 0; !err && i < nr_pids; i++)
			if (pids[i] > 0 && pids[i] <= UINT32_MAX && pids[i] != self)
				err = one_process(k, end, (uint32_t)pids[i]);
	} else {
		dir = opendir("/proc");
		if (!dir)
			return -errno;
		while (!err && (d = readdir(dir))) {
			long pid = atol(d->d_name);

			if (pid > 0 && pid <= UINT32_MAX && (uint32_t)pid != self)
				err = one_process(k, end, (uint32_t)pid);
		}
		closedir(dir);
	}
	if (!err && with_self && !end)
		err = one_process(k, end, self);
	if (!end)
		check_sort(k);
	return err;
}

void prism_util_check__set_workload(struct prism_util_check *k, uint64_t ns, uint32_t self_pid)
{
	k->has_workload = true;
	k->workload_ns = ns;
	k->self_pid = self_pid;
}

void prism_util_check__set_end(struct prism_util_check *k, uint64_t ns)
{
	k->end_ns = ns;
}

uint64_t prism_util_check__end(const struct prism_util_check *k)
{
	return k->end_ns;
}

size_t prism_util_check__nr_tasks(const struct prism_util_check *k)
{
	return k->nr;
}

bool prism_util_check__has_workload(const struct prism_util_check *k, uint64_t *ns)
{
	if (ns)
		*ns = k->workload_ns;
	return k->has_workload;
}

static uint64_t run_of(const struct prism_util_times *t)
{
	return sat_add(sat_add(sat_add(t->user, t->sys), sat_add(t->irq, t->softirq)),
		       sat_add(t->hv, t->busy));
}

/*
 * Note: a file's section can hold any numbers: the differences are made
 * in two's complement on purpose (__wraps) and the sums saturate.
 */
__wraps int prism_util_check__compare(const struct prism_util_check *k,
				      const struct prism_util_result *r,
				      struct prism_util_check_result *res)
{
	uint64_t *shown = k->nr ? calloc(k->nr, sizeof(*shown)) : NULL;
	bool *seen = k->nr ? calloc(k->nr, sizeof(*seen)) : NULL;
	uint64_t worst = 0;
	size_t i, j;

	memset(res, 0, sizeof(*res));
	if (k->nr && (!shown || !seen)) {
		free(shown);
		free(seen);
		return -ENOMEM;
	}
	for (i = 0; i < r->nr_processes; i++) {
		const struct prism_util_process *p = &r->processes[i];

		for (j = 0; j < p->nr_tasks; j++) {
			const struct prism_util_task *t = p->tasks[j];
			const struct kt *kt = find((struct prism_util_check *)k, t->tid);

			if (kt) {
				shown[kt - k->v] = sat_add(shown[kt - k->v], run_of(&t->all));
				seen[kt - k->v] = true;
			}
			if (k->has_workload && (!k->self_pid || t->pid != k->self_pid))
				res->workload_ns = sat_add(res->workload_ns, run_of(&t->all));
		}
	}
	for (i = 0; i < k->nr; i++) {
		const struct kt *kt = &k->v[i];
		int64_t d;
		uint64_t ad;

		if (!kt->ended || kt->end < kt->start)
			continue;
		d = (int64_t)(shown[i] - (kt->end - kt->start));
		ad = d < 0 ? -(uint64_t)d : (uint64_t)d;
		if (!seen[i] && ad <= PRISM_UTIL_CHECK_TOLERANCE_NS) {
			res->nr_absent++; /* never ran, or next to never */
			continue;
		}
		if (ad <= PRISM_UTIL_CHECK_TOLERANCE_NS)
			res->nr_within++;
		else
			res->nr_differ++;
		if (ad >= worst) {
			worst = ad;
			res->worst_tid = kt->tid;
			res->worst_ns = d;
			memcpy(res->worst_comm, kt->comm, sizeof(res->worst_comm));
		}
	}
	res->has_workload = k->has_workload;
	res->workload_kernel_ns = k->workload_ns;
	free(shown);
	free(seen);
	return 0;
}
