// SPDX-License-Identifier: MIT
/*
 * The SQL exporter: reads a session's records in time order and writes
 * perf's export-to-sqlite rows through a backend (sql-sqlite.c, sql-pg.c).
 *
 * Ids follow perf's db-export: id 0 of every table is an "unknown" row
 * written with a new database; threads, comms, DSOs, symbols and call paths
 * get an id the first time a sample or switch refers to them; a call path
 * is (parent, symbol, ip) with ip 0 when the symbol is known, under one
 * root path per file; an address no symbol covers in a mapped file gets a
 * symbol "unknown" of its own, at that address, as perf creates one.  On
 * append, ids go on from each table's max(id), and each file is a new host
 * and a new machine.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>

#include <prism/export-sql.h>
#include <prism/features.h>
#include <prism/offcpu-data.h>
#include <prism/session.h>
#include <prism/task.h>

#include "internal.h"
#include "export/sql-internal.h"

#define PROGRESS_EVERY 16384

struct prism_sql {
	struct prism_sql_opts opts;
	struct sql_db *db;
	struct prism_strbuf err; /* when there is no db to hold it */
	int64_t next_id[SQL_T__NR];
	uint64_t rows[SQL_T__NR];
	struct sql_ids *ids;
	bool committed, failed;
	/* the file being added */
	const struct prism_sql_file *file;
	struct prism_symbols *sy;
	struct prism_tasks *tasks;
	struct prism_callchain cc;
	const struct prism_features *feat;
	int64_t host_id, machine_id;
	struct prism_evsel *offcpu_ev; /* prism offcpu record's event, if the file has it */
	struct sql_calls *calls; /* with opts.calls, from call chains */
	struct sql_pt *pt; /* with opts.itrace: the file's trace */
	struct comm_hist *hist; /* per thread, indexed by the ids map's 'H' keys */
	size_t nr_hist, hist_alloc;
	int64_t *path; /* the sample's call paths, root first */
	size_t path_nr, path_alloc;
	uint64_t nr_records, done, total;
};

int sql_error(struct prism_sql *x, int err, const char *fmt, ...)
{
	struct prism_strbuf *sb = x->db ? &x->db->err : &x->err;
	va_list ap;

	prism_strbuf_reset(sb);
	va_start(ap, fmt);
	prism_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return err;
}

int sql_db__fail(struct sql_db *db, int err, const char *fmt, ...)
{
	va_list ap;

	prism_strbuf_reset(&db->err);
	va_start(ap, fmt);
	prism_strbuf_vaddf(&db->err, fmt, ap);
	va_end(ap);
	/* libpq's messages end in a newline */
	while (db->err.len && db->err.buf[db->err.len - 1] == '\n')
		prism_strbuf_setlen(&db->err, db->err.len - 1);
	return err;
}

size_t prism_sql__nr_tables(void)
{
	return SQL_T__NR;
}

const char *prism_sql__table_name(size_t idx)
{
	return idx < SQL_T__NR ? sql_tables[idx].name : NULL;
}

uint64_t prism_sql__rows(const struct prism_sql *x, size_t idx)
{
	return idx < SQL_T__NR ? x->rows[idx] : 0;
}

const char *prism_sql__temp_path(const struct prism_sql *x)
{
	return x->db ? x->db->tmp_path : NULL;
}

const char *prism_sql__error(const struct prism_sql *x)
{
	if (x->db && x->db->err.len)
		return x->db->err.buf;
	return x->err.buf;
}

/* write a row; tables with a host_id column get the current host's */
int sql_put(struct prism_sql *x, enum sql_table_id t, struct sql_val *v)
{
	const struct sql_table *tab = &sql_tables[t];
	int err;

	if (!strcmp(tab->cols[tab->nr_cols - 1].name, "host_id"))
		v[tab->nr_cols - 1].i = x->host_id;
	err = x->db->ops->row(x->db, t, v);
	if (err)
		return err;
	x->rows[t]++;
	return 0;
}

bool sql_failed(const struct prism_sql *x)
{
	return x->failed || x->committed;
}

void sql_fail(struct prism_sql *x)
{
	x->failed = true;
}

int64_t sql_new_id(struct prism_sql *x, enum sql_table_id t)
{
	return x->next_id[t]++;
}

#define I(v) SQL_I(v)
#define S(v) SQL_S(v)

/* a new database's fixed rows: perf's id 0 "unknown" rows and branch types */
static int fixed_rows(struct prism_sql *x)
{
	char version[16];
	struct sql_val meta[][2] = { { S("schema_version"), S(version) },
				     { S("creator"), S("prism " PRISM_VERSION) } };
	struct sql_val host[9] = { I(0), S("unknown") };
	struct sql_val ev[3] = { I(0), S("unknown") };
	struct sql_val machine[4] = { I(0), I(0), S("unknown") };
	struct sql_val thread[6] = { I(0), I(0), I(0), I(-1), I(-1) };
	struct sql_val comm[6] = { I(0), S("unknown") };
	struct sql_val dso[6] = { I(0), I(0), S("unknown"), S("unknown"), S("") };
	struct sql_val sym[7] = { I(0), I(0), I(0), I(0), I(0), S("unknown") };
	struct sql_val sample[26] = { I(0) };
	struct sql_val path[5] = { I(0) };
	struct sql_val call[15] = { I(0) };
	const struct {
		enum sql_table_id t;
		struct sql_val *v;
	} unknown[] = {
		{ SQL_T_HOSTS, host },	     { SQL_T_SELECTED_EVENTS, ev },
		{ SQL_T_MACHINES, machine }, { SQL_T_THREADS, thread },
		{ SQL_T_COMMS, comm },	     { SQL_T_DSOS, dso },
		{ SQL_T_SYMBOLS, sym },	     { SQL_T_SAMPLES, sample },
		{ SQL_T_CALL_PATHS, path },  { SQL_T_CALLS, call },
	};
	size_t i;
	int err = 0;

	snprintf(version, sizeof(version), "%d", PRISM_SQL_SCHEMA_VERSION);
	for (i = 0; !err && i < PRISM_ARRAY_SIZE(meta); i++)
		err = sql_put(x, SQL_T_META, meta[i]);
	for (i = 0; !err && i < PRISM_ARRAY_SIZE(unknown); i++)
		err = sql_put(x, unknown[i].t, unknown[i].v);
	for (i = 0; !err && i < sql_nr_branch_types; i++) {
		struct sql_val bt[3] = { I(sql_branch_types[i].id), S(sql_branch_types[i].name) };

		err = sql_put(x, SQL_T_BRANCH_TYPES, bt);
	}
	for (i = 0; i < SQL_T__NR; i++)
		x->next_id[i] = 1;
	return err;
}

static int create_schema(struct prism_sql *x)
{
	struct prism_strbuf sb = STRBUF_INIT;
	const char *p;
	size_t i, n;
	int err = 0;

	for (i = 0; !err && i < SQL_T__NR; i++) {
		prism_strbuf_reset(&sb);
		sql_schema__create_table(x->db->dialect, i, &sb);
		err = sb.failed ? -ENOMEM : x->db->ops->exec(x->db, sb.buf);
		if (x->db->dialect == SQL_DIALECT_PG && sql_tables[i].has_id) {
			sql_schema__primary_key(i, &x->db->after);
			prism_strbuf_addch(&x->db->after, '\0');
			x->db->nr_after++;
		}
	}
	if (x->db->after.failed)
		err = -ENOMEM;
	prism_strbuf_reset(&sb);
	n = sql_schema__views(x->db->dialect, &sb);
	for (i = 0, p = sb.buf; !err && i < n; i++, p += strlen(p) + 1)
		err = sb.failed ? -ENOMEM : x->db->ops->exec(x->db, p);
	prism_strbuf_release(&sb);
	return err ? err : fixed_rows(x);
}

/* append: the database must be prism's, of this schema version */
static int check_schema(struct prism_sql *x)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char q[96];
	int64_t max;
	size_t i;
	int err;

	err = x->db->ops->query_text(
		x->db, "SELECT value FROM prism_meta WHERE key = 'schema_version'", &sb);
	if (err) {
		prism_strbuf_reset(&sb);
		prism_strbuf_addstr(&sb, x->db->err.len ? x->db->err.buf : "no schema version");
		err = sql_db__fail(
			x->db, -EPROTO,
			"'%s' is not a database prism exported (no prism_meta table: %s)",
			x->opts.target, sb.buf);
		prism_strbuf_release(&sb);
		return err;
	}
	if (atoi(sb.buf) != PRISM_SQL_SCHEMA_VERSION) {
		err = sql_db__fail(
			x->db, -EPROTO,
			"'%s' has prism's schema version %s, this prism writes version %d",
			x->opts.target, sb.buf, PRISM_SQL_SCHEMA_VERSION);
		prism_strbuf_release(&sb);
		return err;
	}
	prism_strbuf_release(&sb);
	for (i = 0; i < SQL_T__NR; i++) {
		if (!sql_tables[i].has_id)
			continue;
		snprintf(q, sizeof(q), "SELECT max(id) FROM %s", sql_tables[i].name);
		err = x->db->ops->query_int(x->db, q, &max);
		if (err == -ENOENT) {
			max = 0;
			prism_strbuf_reset(&x->db->err);
		} else if (err) {
			return err;
		}
		x->next_id[i] = max + 1;
	}
	return 0;
}

int prism_sql__open(const struct prism_sql_opts *opts, struct prism_sql **out)
{
	const struct sql_backend_ops *ops;
	struct prism_sql *x = calloc(1, sizeof(*x));
	int err;

	*out = x;
	if (!x)
		return -ENOMEM;
	prism_strbuf_init(&x->err);
	x->opts = *opts;
	x->ids = sql_ids__new();
	if (!x->ids)
		return -ENOMEM;
	if (opts->calls && !opts->itrace && !(x->calls = sql_calls__new()))
		return -ENOMEM;
	ops = opts->kind == PRISM_SQL_POSTGRESQL ? &sql_pg_ops : &sql_sqlite_ops;
	err = ops->open(opts->target, opts->append, &x->db);
	if (err) {
		if (x->db && x->db->err.len)
			prism_strbuf_addstr(&x->err, x->db->err.buf);
		if (x->db)
			x->db->ops->free(x->db);
		x->db = NULL;
		return err;
	}
	err = opts->append ? check_schema(x) : create_schema(x);
	x->failed = err != 0;
	return err;
}

/* ---- ids of the things rows refer to ---- */

struct key {
	char kind;
	char pad[7];
	uint64_t a, b, c;
};

#define KEY(kd, va, vb, vc)                                                                 \
	{                                                                                   \
		.kind = (kd), .a = (uint64_t)(va), .b = (uint64_t)(vb), .c = (uint64_t)(vc) \
	}

/* the names COMM records gave a thread: its first and its last exec's */
struct comm_hist {
	char first[16], exec[16];
	uint64_t first_time, exec_time;
	unsigned int nr_exec;
};

static struct comm_hist *comm_hist(struct prism_sql *x, uint32_t tid)
{
	struct key k = KEY('H', tid, 0, 0);
	int64_t idx;

	return sql_ids__find(x->ids, &k, sizeof(k), &idx) ? &x->hist[idx] : NULL;
}

static int comm_record(struct prism_sql *x, const struct prism_event *ev)
{
	struct key k = KEY('H', ev->comm.tid, 0, 0);
	uint64_t t = (ev->sample.type & PERF_SAMPLE_TIME) ? ev->sample.time : 0;
	struct comm_hist *h = comm_hist(x, ev->comm.tid);

	if (!h) {
		if (prism_ensure_mem((void **)&x->hist, &x->hist_alloc, sizeof(*x->hist),
				     x->nr_hist + 1) ||
		    sql_ids__set(x->ids, &k, sizeof(k), (int64_t)x->nr_hist))
			return -ENOMEM;
		h = &x->hist[x->nr_hist++];
		memset(h, 0, sizeof(*h));
		snprintf(h->first, sizeof(h->first), "%s", ev->comm.comm);
		h->first_time = t;
	}
	if (ev->comm.exec) {
		snprintf(h->exec, sizeof(h->exec), "%s", ev->comm.comm);
		h->exec_time = t;
		h->nr_exec++;
	}
	return 0;
}

/*
 * The id of @k in table @t: the known one, or a new one remembered, and
 * then true (the caller writes the row).  Return: 1 new, 0 known, -ENOMEM.
 */
static int key_id(struct prism_sql *x, const struct key *k, enum sql_table_id t, int64_t *id)
{
	if (sql_ids__find(x->ids, k, sizeof(*k), id))
		return 0;
	*id = sql_new_id(x, t);
	return sql_ids__set(x->ids, k, sizeof(*k), *id) ? -ENOMEM : 1;
}

int sql_thread_id(struct prism_sql *x, uint32_t pid, uint32_t tid, int64_t *out)
{
	struct key k = KEY('T', tid, 0, 0);
	bool main = pid == tid || pid == (uint32_t)-1;
	int64_t process_id = 0;
	int err = 0;

	if (sql_ids__find(x->ids, &k, sizeof(k), out))
		return 0;
	/* the process's main thread first, as perf exports them */
	if (!main)
		err = sql_thread_id(x, pid, pid, &process_id);
	if (!err)
		err = key_id(x, &k, SQL_T_THREADS, out);
	if (err > 0) {
		struct sql_val v[6] = { I(*out), I(x->machine_id), I(main ? *out : process_id),
					I((int32_t)pid), I((int32_t)tid) };

		err = sql_put(x, SQL_T_THREADS, v);
	}
	return err;
}

/*
 * A thread's comm as perf's exporter names it: its process's "exec comm"
 * (the name the main thread's last exec gave, else the first name a COMM
 * record gave it, else the one it has), one row per process and name, with
 * a comm_threads row for each thread that has it.
 */
int sql_comm_id(struct prism_sql *x, uint32_t pid, uint32_t tid, int64_t thread, int64_t *out)
{
	uint32_t main = pid == (uint32_t)-1 ? tid : pid;
	const struct comm_hist *h = comm_hist(x, main);
	const char *name = h ? (h->nr_exec ? h->exec : h->first) :
			       prism_tasks__comm(x->tasks, main);
	char unnamed[16];
	struct key k = KEY('C', main, 0, 0), ct = KEY('X', 0, thread, 0);
	int64_t main_id = thread, id;
	int err;

	if (!name) {
		snprintf(unnamed, sizeof(unnamed), ":%u", main);
		name = unnamed;
	}
	k.b = prism_fnv1a(PRISM_FNV_SEED, name);
	if (main != tid)
		sql_ids__find(x->ids, &(struct key)KEY('T', main, 0, 0), sizeof(k), &main_id);
	err = key_id(x, &k, SQL_T_COMMS, out);
	if (err > 0) {
		struct sql_val v[6] = { I(*out), S(name), I(main_id),
					I(h ? (h->nr_exec ? h->exec_time : h->first_time) : 0),
					I(h && h->nr_exec) };

		err = sql_put(x, SQL_T_COMMS, v);
		/* perf links a process's comm to its main thread first */
		ct.b = (uint64_t)main_id;
		ct.a = (uint64_t)*out;
		if (!err && main_id != thread && key_id(x, &ct, SQL_T_COMM_THREADS, &id) > 0) {
			struct sql_val c[4] = { I(id), I(*out), I(main_id) };

			err = sql_put(x, SQL_T_COMM_THREADS, c);
		}
	}
	if (err < 0)
		return err;
	ct.a = (uint64_t)*out;
	ct.b = (uint64_t)thread;
	err = key_id(x, &ct, SQL_T_COMM_THREADS, &id);
	if (err > 0) {
		struct sql_val c[4] = { I(id), I(*out), I(thread) };

		err = sql_put(x, SQL_T_COMM_THREADS, c);
	}
	return err < 0 ? err : 0;
}

/* the build id the file's header gives @path (the kernel's), as hex */
static void header_build_id(struct prism_sql *x, const char *path, char *hex, size_t len)
{
	const struct prism_feat_build_ids *b = prism_features__build_ids(x->feat);
	size_t i, j;

	for (i = 0; b && i < b->nr; i++) {
		const struct prism_feat_build_id *e = &b->entries[i];

		if (!e->filename || strcmp(e->filename, path))
			continue;
		for (j = 0; j < e->size && j < sizeof(e->build_id) && 2 * j + 2 < len; j++)
			snprintf(hex + 2 * j, 3, "%02x", e->build_id[j]);
		return;
	}
}

static int dso_id(struct prism_sql *x, const struct prism_frame *f, int64_t *out)
{
	struct key k = KEY('D', (uintptr_t)f->dso, 0, 0);
	char hex[2 * 64 + 1] = "";
	int err;

	*out = 0;
	if (!f->dso)
		return 0;
	err = key_id(x, &k, SQL_T_DSOS, out);
	if (err <= 0)
		return err;
	/* the frame's lookup loaded the DSO: a build id read from the binary is known */
	if (!prism_dso__build_id(f->dso, hex, sizeof(hex)) || !hex[0])
		header_build_id(x, f->dso_path, hex, sizeof(hex));
	{
		struct sql_val v[6] = { I(*out), I(x->machine_id), S(f->dso_name), S(f->dso_path),
					S(hex) };

		return sql_put(x, SQL_T_DSOS, v);
	}
}

/* the frame's symbol (perf's "unknown" symbol at the address when none covers it) */
int sql_symbol_id(struct prism_sql *x, const struct prism_frame *f, int64_t *dso, int64_t *out,
		  uint64_t *offset)
{
	struct key k =
		KEY('S', (uintptr_t)f->dso, (uintptr_t)f->sym_id, f->sym_id ? 0 : f->dso_addr);
	int err;

	*out = 0;
	*offset = 0;
	err = dso_id(x, f, dso);
	if (err || !f->dso)
		return err;
	if (f->sym)
		*offset = f->symoff;
	err = key_id(x, &k, SQL_T_SYMBOLS, out);
	if (err <= 0)
		return err;
	{
		struct sql_val v[7] = { I(*out),
					I(*dso),
					I(f->sym ? f->sym_start : f->dso_addr),
					I(f->sym ? f->sym_end : f->dso_addr),
					I(f->sym ? f->sym_binding : 0),
					S(f->sym ? f->sym : "unknown") };

		return sql_put(x, SQL_T_SYMBOLS, v);
	}
}

static int call_path_id(struct prism_sql *x, int64_t parent, int64_t sym, uint64_t ip, int64_t *out)
{
	struct key k = KEY('P', parent, sym, ip);
	struct sql_val v[5] = { I(0), I(parent), I(sym), I(ip) };
	int err = key_id(x, &k, SQL_T_CALL_PATHS, out);

	if (err <= 0)
		return err;
	v[0].i = *out;
	return sql_put(x, SQL_T_CALL_PATHS, v);
}

int sql_event_id(struct prism_sql *x, const void *ident, const char *name, int64_t *out)
{
	struct key k = KEY('V', (uintptr_t)ident, 0, 0);
	struct sql_val v[3] = { I(0), S(name) };
	int err = key_id(x, &k, SQL_T_SELECTED_EVENTS, out);

	if (err <= 0)
		return err;
	v[0].i = *out;
	return sql_put(x, SQL_T_SELECTED_EVENTS, v);
}

/* ---- records ---- */

static void progress(struct prism_sql *x, const struct prism_event *ev)
{
	if (ev->file_offset > x->done)
		x->done = ev->file_offset;
	if (x->file->progress && !(++x->nr_records % PROGRESS_EVERY))
		x->file->progress(x->file->ctx, x->done, x->total);
}

static int on_task(void *ctx, const struct prism_event *ev)
{
	struct prism_sql *x = ctx;
	int err;

	progress(x, ev);
	if (ev->type == PERF_RECORD_COMM) {
		err = comm_record(x, ev);
		if (err)
			return err;
	}
	err = prism_tasks__event(x->tasks, ev);
	return err ? err : prism_symbols__event(x->sy, ev);
}

static int on_other(void *ctx, const struct prism_event *ev)
{
	struct prism_sql *x = ctx;

	progress(x, ev);
	if (x->pt) {
		int err = sql_pt__event(x->pt, ev);

		if (err)
			return err;
	}
	if (ev->type == PERF_RECORD_KSYMBOL || ev->type == PRISM_RECORD_HEADER_BUILD_ID)
		return prism_symbols__event(x->sy, ev);
	return 0;
}

/*
 * A side of a switch, as perf's exporter takes it: a thread no COMM record
 * named is not traced (id 0, no row); the idle task is told apart.
 */
static int switch_side(struct prism_sql *x, uint32_t pid, uint32_t tid, int64_t *th, int64_t *comm,
		       bool *idle)
{
	*th = *comm = 0;
	*idle = !pid && !tid;
	if (tid == (uint32_t)-1 || !prism_tasks__comm(x->tasks, tid))
		return 0;
	return sql_thread_id(x, pid, tid, th) ?: sql_comm_id(x, pid, tid, *th, comm);
}

static int on_switch(void *ctx, const struct prism_event *ev)
{
	struct prism_sql *x = ctx;
	const struct prism_sample *s = &ev->sample;
	int64_t th, comm, oth = 0, ocomm = 0;
	bool idle, oidle = false;
	int err;

	progress(x, ev);
	err = x->pt ? sql_pt__event(x->pt, ev) : 0;
	if (!err)
		err = switch_side(x, s->pid, s->tid, &th, &comm, &idle);
	if (!err && ev->type == PERF_RECORD_SWITCH_CPU_WIDE)
		err = switch_side(x, ev->sw.next_prev_pid, ev->sw.next_prev_tid, &oth, &ocomm,
				  &oidle);
	/* neither side traced, or one not and the other idle: no row, as perf */
	if (err || ((!th || idle) && (!oth || oidle)))
		return err;
	{
		struct sql_val v[10] = {
			I(sql_new_id(x, SQL_T_CONTEXT_SWITCHES)),
			I(x->machine_id),
			I(s->time),
			I((s->type & PERF_SAMPLE_CPU) ? (int32_t)s->cpu : -1),
			I(ev->sw.out ? th : oth),
			I(ev->sw.out ? comm : ocomm),
			I(ev->sw.out ? oth : th),
			I(ev->sw.out ? ocomm : comm),
			I((ev->sw.out ? 1 : 0) | (ev->sw.out && ev->sw.preempt ? 2 : 0)),
		};

		return sql_put(x, SQL_T_CONTEXT_SWITCHES, v);
	}
}

/* prism offcpu record's samples: the block's state, count and start beside the sample */
static int offcpu_row(struct prism_sql *x, const struct prism_event *ev, int64_t sample, int64_t th,
		      int64_t comm, int64_t path, uint64_t period)
{
	static const char *const kinds[] = { "entry", "block", "block_open", "stats" };
	struct prism_offcpu_raw raw;

	if (!(ev->sample.type & PERF_SAMPLE_RAW) ||
	    prism_offcpu_raw__decode(ev->sample.raw_data, ev->sample.raw_size, &raw) ||
	    raw.kind == PRISM_OFFCPU_KIND_STATS)
		return 0;
	{
		struct sql_val v[11] = {
			I(sql_new_id(x, SQL_T_OFFCPU)),
			I(sample),
			I(th),
			I(comm),
			I(path),
			S(prism_offcpu_state_name(raw.state)),
			I(raw.count),
			I(raw.start),
			I(period),
			S(raw.kind < PRISM_ARRAY_SIZE(kinds) ? kinds[raw.kind] : "?"),
		};

		return sql_put(x, SQL_T_OFFCPU, v);
	}
}

/* perf 6.1 takes a chain with a context marker other than HV/KERNEL/USER as empty */
static bool chain_usable(const struct prism_sample *s)
{
	uint64_t i;

	if (!(s->type & PERF_SAMPLE_CALLCHAIN))
		return false;
	for (i = 0; i < s->callchain_nr; i++)
		if (s->callchain[i] >= PERF_CONTEXT_MAX && s->callchain[i] != PERF_CONTEXT_HV &&
		    s->callchain[i] != PERF_CONTEXT_KERNEL && s->callchain[i] != PERF_CONTEXT_USER)
			return false;
	return true;
}

static int sample_path(struct prism_sql *x, const struct prism_event *ev, int64_t *out)
{
	int64_t parent, sym, dso;
	uint64_t off;
	size_t i;
	int err;

	*out = 0;
	if (x->opts.no_callchains ||
	    (!chain_usable(&ev->sample) && !(ev->sample.type & PERF_SAMPLE_STACK_USER)))
		return 0;
	err = prism_symbols__callchain(x->sy, ev, &x->cc, PRISM_CALLCHAIN_INLINE_UNWOUND);
	if (err || !x->cc.nr)
		return err;
	/* the root of the file's call paths (perf's call_path_root), with its first path */
	err = call_path_id(x, 0, 0, 0, &parent);
	if (err)
		return err;
	x->path_nr = 0;
	if (prism_ensure_mem((void **)&x->path, &x->path_alloc, sizeof(*x->path), x->cc.nr + 1))
		return -ENOMEM;
	x->path[x->path_nr++] = parent;
	for (i = x->cc.nr; i-- > 0;) {
		const struct prism_frame *f = &x->cc.frames[i];

		err = sql_symbol_id(x, f, &dso, &sym, &off);
		if (!err)
			err = call_path_id(x, parent, sym, sym ? 0 : f->ip, &parent);
		if (err)
			return err;
		x->path[x->path_nr++] = parent;
	}
	*out = parent;
	return 0;
}

static int on_sample(void *ctx, const struct prism_event *ev)
{
	struct prism_sql *x = ctx;
	const struct prism_sample *s = &ev->sample;
	struct prism_frame f;
	int64_t ev_id, th, comm, dso, sym, path;
	uint64_t off, period;
	int err;

	progress(x, ev);
	if (!ev->evsel)
		return 0;
	period = (s->type & PERF_SAMPLE_PERIOD) ? s->period : prism_evsel__fixed_period(ev->evsel);
	err = sql_event_id(x, ev->evsel, prism_evsel__name(ev->evsel), &ev_id);
	if (!err)
		err = sql_thread_id(x, s->pid, s->tid, &th);
	if (!err)
		err = sql_comm_id(x, s->pid, s->tid, th, &comm);
	if (err)
		return err;
	prism_symbols__resolve(x->sy, s->pid, ev->raw->misc & PRISM_MISC_CPUMODE_MASK, s->ip, &f);
	err = sql_symbol_id(x, &f, &dso, &sym, &off);
	if (!err)
		err = sample_path(x, ev, &path);
	if (!err) {
		struct sql_val v[26] = {
			I(sql_new_id(x, SQL_T_SAMPLES)), I(ev_id), I(x->machine_id), I(th), I(comm),
			I(dso), I(sym), I(off), I(s->ip), I(s->time),
			I((s->type & PERF_SAMPLE_CPU) ? (int32_t)s->cpu : -1),
			I(0), /* to_dso_id: branch samples only */
			I(0), I(0), I(0), I(period), I(s->weight), I(s->transaction),
			/* perf's PERF_MEM_DATA_SRC_NONE when the sample has none */
			I((s->type & PERF_SAMPLE_DATA_SRC) ? s->data_src : 0x5080021),
			I(0), /* branch_type */
			I(0), /* in_tx */
			I(path), I(0), /* insn_count */
			I(0), /* cyc_count */
			I(0), /* flags */
		};

		err = sql_put(x, SQL_T_SAMPLES, v);
		if (!err && x->calls && path)
			err = sql_calls__sample(x, x->calls, s->tid, th, comm, v[0].i, s->time,
						x->path, x->path_nr);
		if (!err && x->offcpu_ev == ev->evsel)
			err = offcpu_row(x, ev, v[0].i, th, comm, path, period);
	}
	return err;
}

/* the host and machine rows of a new file */
static int file_rows(struct prism_sql *x)
{
	const struct prism_feat_nrcpus *nr = prism_features__nrcpus(x->feat);
	const struct prism_feat_cmdline *cl = prism_features__cmdline(x->feat);
	struct prism_strbuf cmd = STRBUF_INIT;
	struct stat st;
	int64_t when = 0;
	uint32_t i;
	int err;

	if (x->file->name && strcmp(x->file->name, "-") && !stat(x->file->name, &st))
		when = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	for (i = 0; cl && i < cl->argc; i++)
		prism_strbuf_addf(&cmd, "%s%s", i ? " " : "", cl->argv[i]);
	x->host_id = sql_new_id(x, SQL_T_HOSTS);
	{
		struct sql_val v[9] = {
			I(x->host_id),
			S(prism_features__str(x->feat, PRISM_FEAT_HOSTNAME)),
			S(prism_features__str(x->feat, PRISM_FEAT_OSRELEASE)),
			S(prism_features__str(x->feat, PRISM_FEAT_ARCH)),
			I(nr ? nr->nr_cpus_online : 0),
			S(prism_features__str(x->feat, PRISM_FEAT_VERSION)),
			I(when),
			S(x->file->name),
			S(cmd.failed ? NULL : cmd.buf),
		};

		err = sql_put(x, SQL_T_HOSTS, v);
	}
	prism_strbuf_release(&cmd);
	x->machine_id = sql_new_id(x, SQL_T_MACHINES);
	if (!err) {
		struct sql_val v[4] = { I(x->machine_id), I(-1), S("") };

		err = sql_put(x, SQL_T_MACHINES, v);
	}
	return err;
}

int prism_sql__add_session(struct prism_sql *x, const struct prism_sql_file *file)
{
	struct prism_tool tool = {
		.sample = on_sample,
		.mmap = on_task,
		.comm = on_task,
		.fork = on_task,
		.exit = on_task,
		.switch_ = on_switch,
		.other = on_other,
		.user = on_other,
	};
	size_t i;
	int err;

	if (x->failed || x->committed)
		return -EINVAL;
	x->file = file;
	x->feat = prism_session__features(file->session);
	x->total = prism_session__file_info(file->session)->file_size;
	x->done = 0;
	x->nr_records = 0;
	x->offcpu_ev = NULL;
	for (i = 0; i < prism_session__nr_evsels(file->session); i++) {
		struct prism_evsel *e = prism_session__evsel(file->session, i);

		if (!strcmp(prism_evsel__name(e), PRISM_OFFCPU_EVENT_NAME))
			x->offcpu_ev = e;
	}
	sql_ids__clear(x->ids);
	x->nr_hist = 0;
	x->sy = prism_symbols__new(file->symbols);
	x->tasks = prism_tasks__new();
	err = x->sy && x->tasks ? 0 : -ENOMEM;
	if (!err)
		err = prism_symbols__set_features(x->sy, x->feat);
	if (!err && file->symbols_ready && file->symbols_ready(file->ctx, x->sy))
		err = -ECANCELED;
	if (!err)
		err = file_rows(x);
	if (!err && x->opts.itrace) {
		x->pt = sql_pt__new(x, x->opts.itrace, file->session, x->sy, x->tasks,
				    x->opts.calls);
		err = x->pt ? 0 : -ENOMEM;
		tool.auxtrace_data = tool.other_all = true;
	}
	if (!err)
		err = prism_session__process(file->session, &tool, x);
	if (err > 0)
		err = 0;
	if (!err && x->pt)
		err = sql_pt__run(x->pt, x->machine_id, file->name ? file->name : "perf.data");
	sql_pt__free(x->pt);
	x->pt = NULL;
	if (!err && x->calls)
		err = sql_calls__flush(x, x->calls);
	if (!err && file->progress)
		file->progress(file->ctx, x->total ? x->total : x->done, x->total);
	prism_callchain__release(&x->cc);
	memset(&x->cc, 0, sizeof(x->cc));
	/* the host stays: prism_sql__add_util() may add the file's util rows */
	prism_symbols__free(x->sy);
	prism_tasks__free(x->tasks);
	x->sy = NULL;
	x->tasks = NULL;
	x->failed = err != 0;
	return err;
}

int prism_sql__commit(struct prism_sql *x)
{
	int err;

	if (x->failed || x->committed)
		return -EINVAL;
	err = x->db->ops->commit(x->db);
	x->committed = !err;
	x->failed = err != 0;
	return err;
}

void prism_sql__free(struct prism_sql *x)
{
	if (!x)
		return;
	if (x->db)
		x->db->ops->free(x->db);
	sql_ids__free(x->ids);
	sql_calls__free(x->calls);
	free(x->hist);
	free(x->path);
	prism_strbuf_release(&x->err);
	free(x);
}
