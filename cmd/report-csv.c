// SPDX-License-Identifier: MIT
/*
 * prism report --csv-dir DIR: readperf's four tables.
 *
 *   stat.csv       type,name,count               records per type
 *   overview.csv   nr,type,pid,tid,time,info     every record, in time order
 *   processes.csv  name,pid,mmaps,fork_time,exit_time,samples,period
 *   results.csv    function,source file,samples,period,dso,event
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <prism/strbuf.h>

#include "cmd.h"
#include "report.h"

struct proc_row {
	uint32_t pid;
	bool used;
	char comm[17];
	uint64_t mmaps, fork_time, exit_time, samples, period;
};

struct report_csv {
	char *dir;
	FILE *overview;
	uint64_t nr;
	struct prism_strbuf line;
	struct proc_row *procs;
	size_t cap, nr_procs;
};

static struct proc_row *proc_get(struct report_csv *c, uint32_t pid)
{
	size_t s;

	if ((c->nr_procs + 1) * 2 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256, i;
		struct proc_row *n = xcalloc(cap, sizeof(*n));

		for (i = 0; i < c->cap; i++) {
			if (!c->procs[i].used)
				continue;
			for (s = (c->procs[i].pid * 2654435761u) & (cap - 1); n[s].used;
			     s = (s + 1) & (cap - 1))
				;
			n[s] = c->procs[i];
		}
		free(c->procs);
		c->procs = n;
		c->cap = cap;
	}
	for (s = (pid * 2654435761u) & (c->cap - 1); c->procs[s].used; s = (s + 1) & (c->cap - 1))
		if (c->procs[s].pid == pid)
			return &c->procs[s];
	c->procs[s].used = true;
	c->procs[s].pid = pid;
	c->nr_procs++;
	return &c->procs[s];
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		error("cannot create '%s': %s", path, strerror(errno));
	return f;
}

struct report_csv *report_csv__open(const char *dir)
{
	struct report_csv *c;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		error("cannot create directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->dir = xstrdup(dir);
	prism_strbuf_init(&c->line);
	c->overview = open_in(dir, "overview.csv");
	if (!c->overview) {
		free(c->dir);
		free(c);
		return NULL;
	}
	fputs("nr,type,pid,tid,time,info\n", c->overview);
	return c;
}

void report_csv__record(struct report_csv *c, const struct prism_event *ev, uint64_t period)
{
	struct prism_strbuf *sb = &c->line;
	struct proc_row *p;

	prism_strbuf_reset(sb);
	prism_event__overview_csv(sb, c->nr++, ev, period);
	fwrite(sb->buf, 1, sb->len, c->overview);
	/* processes.csv: per-process counts */
	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		p = proc_get(c, ev->sample.pid);
		p->samples++;
		p->period += period;
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (ev->mmap.pid != (uint32_t)-1)
			proc_get(c, ev->mmap.pid)->mmaps++;
		break;
	case PERF_RECORD_COMM:
		if (ev->comm.pid == ev->comm.tid)
			snprintf(proc_get(c, ev->comm.pid)->comm, 17, "%s", ev->comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (ev->fork.pid != ev->fork.tid)
			break;
		p = proc_get(c, ev->fork.pid);
		if (ev->type == PERF_RECORD_EXIT) {
			p->exit_time = ev->fork.time;
			break;
		}
		p->fork_time = ev->fork.time;
		if (!p->comm[0]) {
			struct proc_row *parent = proc_get(c, ev->fork.ppid);

			p = proc_get(c, ev->fork.pid); /* the table may have moved */
			memcpy(p->comm, parent->comm, sizeof(p->comm));
		}
		break;
	default:
		break;
	}
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	if (x->used != y->used)
		return x->used ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int close_file(struct report_csv *c, FILE *f, const char *name)
{
	if (ferror(f) | fclose(f))
		return error("write error on '%s/%s': %s", c->dir, name, strerror(errno));
	return 0;
}

static int write_stat(struct report_csv *c, struct prism_session *s)
{
	const struct prism_session_stats *st = prism_session__stats(s);
	FILE *f = open_in(c->dir, "stat.csv");
	uint32_t t;

	if (!f)
		return -1;
	fputs("type,name,count\n", f);
	for (t = 1; t < PRISM_RECORD_TYPE_MAX; t++)
		if (st->nr_records[t])
			fprintf(f, "%u,%s,%" PRIu64 "\n", t, prism_record_type_name(t),
				st->nr_records[t]);
	if (st->nr_unknown)
		fprintf(f, ",UNKNOWN,%" PRIu64 "\n", st->nr_unknown);
	return close_file(c, f, "stat.csv");
}

static int write_procs(struct report_csv *c)
{
	FILE *f = open_in(c->dir, "processes.csv");
	size_t i;

	if (!f)
		return -1;
	if (c->nr_procs)
		qsort(c->procs, c->cap, sizeof(*c->procs), cmp_proc);
	fputs("name,pid,mmaps,fork_time,exit_time,samples,period\n", f);
	for (i = 0; i < c->nr_procs; i++) {
		const struct proc_row *p = &c->procs[i];
		struct prism_strbuf sb = STRBUF_INIT;

		prism_strbuf_add_csv(&sb, p->comm[0] ? p->comm : "");
		fprintf(f, "%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			sb.buf, p->pid, p->mmaps, p->fork_time, p->exit_time, p->samples,
			p->period);
		prism_strbuf_release(&sb);
	}
	return close_file(c, f, "processes.csv");
}

static int write_results(struct report_csv *c, struct prism_profile *const *profiles,
			 const char *const *names, size_t nr)
{
	static const enum prism_sort_key keys[] = { PRISM_SORT_DSO, PRISM_SORT_SYM };
	FILE *f = open_in(c->dir, "results.csv");
	struct prism_strbuf sb = STRBUF_INIT;
	size_t i, j;

	if (!f)
		return -1;
	fputs("function,source file,samples,period,dso,event\n", f);
	for (i = 0; i < nr; i++) {
		struct prism_hist_entry *e;
		size_t n;

		if (!profiles[i] || prism_profile__entries(profiles[i], keys,
							   PRISM_ARRAY_SIZE(keys), false, &e, &n))
			continue;
		for (j = 0; j < n; j++) {
			const char *file = "";
			unsigned int line;
			char addr[32];

			if (!e[j].self)
				continue;
			prism_strbuf_reset(&sb);
			if (e[j].sym) {
				prism_strbuf_add_csv(&sb, e[j].sym);
			} else {
				snprintf(addr, sizeof(addr), "0x%" PRIx64, e[j].ip);
				prism_strbuf_addstr(&sb, addr);
			}
			prism_strbuf_addch(&sb, ',');
			if (!prism_profile__entry_srcline(profiles[i], j, &file, &line))
				prism_strbuf_add_csv(&sb, file);
			prism_strbuf_addf(&sb, ",%" PRIu64 ",%" PRIu64 ",", e[j].nr_samples,
					  e[j].self);
			prism_strbuf_add_csv(&sb, e[j].dso ? e[j].dso : "[unknown]");
			prism_strbuf_addch(&sb, ',');
			prism_strbuf_add_csv(&sb, names[i]);
			prism_strbuf_addch(&sb, '\n');
			fwrite(sb.buf, 1, sb.len, f);
		}
	}
	prism_strbuf_release(&sb);
	return close_file(c, f, "results.csv");
}

int report_csv__finish(struct report_csv *c, struct prism_session *s,
		       struct prism_profile *const *profiles, const char *const *event_names,
		       size_t nr)
{
	int err = 0;

	if (close_file(c, c->overview, "overview.csv"))
		err = 1;
	if (write_stat(c, s) || write_procs(c) || write_results(c, profiles, event_names, nr))
		err = 1;
	prism_strbuf_release(&c->line);
	free(c->procs);
	free(c->dir);
	free(c);
	return err;
}
