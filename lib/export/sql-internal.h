/* SPDX-License-Identifier: MIT */
/*
 * The SQL exporter's parts: the schema (sql-schema.c), the id maps
 * (sql-ids.c), the record consumer (sql-export.c) and one backend per
 * database (sql-sqlite.c, sql-pg.c) behind struct sql_backend_ops.
 */
#ifndef PRISM_LIB_EXPORT_SQL_INTERNAL_H
#define PRISM_LIB_EXPORT_SQL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <prism/export-sql.h>
#include <prism/strbuf.h>

enum sql_type {
	SQL_ID, /* the primary key: bigint */
	SQL_I64,
	SQL_I32,
	SQL_BOOL,
	SQL_F64, /* double precision */
	SQL_TEXT, /* varchar(width); longer values are cut to width bytes (PostgreSQL) */
};

struct sql_col {
	const char *name;
	enum sql_type type;
	unsigned int width;
	const char *sqlite_name; /* when SQLite's differs (perf's transaction_) */
};

/* the tables, in creation order */
enum sql_table_id {
	SQL_T_META,
	SQL_T_HOSTS,
	SQL_T_SELECTED_EVENTS,
	SQL_T_MACHINES,
	SQL_T_THREADS,
	SQL_T_COMMS,
	SQL_T_COMM_THREADS,
	SQL_T_DSOS,
	SQL_T_SYMBOLS,
	SQL_T_BRANCH_TYPES,
	SQL_T_SAMPLES,
	SQL_T_CALL_PATHS,
	SQL_T_CONTEXT_SWITCHES,
	SQL_T_CALLS,
	SQL_T_OFFCPU,
	SQL_T_UTIL_TASKS,
	SQL_T_UTIL_CALLS,
	SQL_T__NR,
};

struct sql_table {
	const char *name;
	const struct sql_col *cols;
	size_t nr_cols;
	bool has_id; /* first column is an id; rows get ids from max(id) + 1 on append */
};

extern const struct sql_table sql_tables[SQL_T__NR];

/* one value of a row: i for integers, d for F64, s for text (NULL = SQL NULL); null */
struct sql_val {
	int64_t i;
	const char *s;
	double d;
	bool null;
};

/* initializers of a value */
#define SQL_I(v)                  \
	{                         \
		.i = (int64_t)(v) \
	}
#define SQL_S(v)         \
	{                \
		.s = (v) \
	}

enum sql_dialect { SQL_DIALECT_SQLITE, SQL_DIALECT_PG };

/*
 * CREATE TABLE for table @t, appended to @sb.  PostgreSQL's tables get their
 * primary key after the rows are in (as perf's export-to-postgresql does:
 * COPY into an indexed table is slower): sql_schema__primary_key()'s
 * ALTER TABLE, run by the backend's commit (db->after).
 */
void sql_schema__create_table(enum sql_dialect d, enum sql_table_id t, struct prism_strbuf *sb);
void sql_schema__primary_key(enum sql_table_id t, struct prism_strbuf *sb);
/* the views' CREATE VIEW statements, NULL-terminated list built into @sb, separated by '\0' */
size_t sql_schema__views(enum sql_dialect d, struct prism_strbuf *sb);
/* the column's name in dialect @d */
const char *sql_col__name(const struct sql_col *c, enum sql_dialect d);

/* perf's branch_types rows (id, name), for a new database */
struct sql_branch_type {
	int id;
	const char *name;
};
extern const struct sql_branch_type sql_branch_types[];
extern const size_t sql_nr_branch_types;

/*
 * A database behind the export.  Every backend embeds struct sql_db first;
 * err holds the last error's text.  row() may buffer (PostgreSQL spools
 * COPY data): only commit() makes rows visible; free() without a commit
 * rolls back and removes what open() created.
 */
struct sql_db {
	const struct sql_backend_ops *ops;
	enum sql_dialect dialect;
	struct prism_strbuf err;
	/* a file the export writes before its commit renames it, else NULL */
	const char *tmp_path;
	/* statements commit() runs after the rows, '\0'-separated (nr_after of them) */
	struct prism_strbuf after;
	size_t nr_after;
};

struct sql_backend_ops {
	int (*open)(const char *target, bool append, struct sql_db **out);
	int (*exec)(struct sql_db *db, const char *sql);
	/* the first column of the first row of @sql; -ENOENT for no row or a NULL */
	int (*query_int)(struct sql_db *db, const char *sql, int64_t *out);
	int (*query_text)(struct sql_db *db, const char *sql, struct prism_strbuf *out);
	int (*row)(struct sql_db *db, enum sql_table_id t, const struct sql_val *vals);
	int (*commit)(struct sql_db *db);
	void (*free)(struct sql_db *db);
};

extern const struct sql_backend_ops sql_sqlite_ops;
extern const struct sql_backend_ops sql_pg_ops;

/* sets db->err from a format; returns @err */
int sql_db__fail(struct sql_db *db, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* sql-export.c: write a row into @t (its host_id set), a new id of @t */
int sql_put(struct prism_sql *x, enum sql_table_id t, struct sql_val *v);
int64_t sql_new_id(struct prism_sql *x, enum sql_table_id t);
/* whether the export can take no more rows (failed or committed); mark it failed */
bool sql_failed(const struct prism_sql *x);
void sql_fail(struct prism_sql *x);

/*
 * sql-calls.c: the calls table from the call paths of each thread's
 * consecutive samples (root first, paths[0] the root)
 */
struct sql_calls;
struct sql_calls *sql_calls__new(void);
void sql_calls__free(struct sql_calls *c);
int sql_calls__sample(struct prism_sql *x, struct sql_calls *c, uint32_t tid, int64_t thread,
		      int64_t comm, int64_t sample, uint64_t time, const int64_t *paths, size_t n);
/* the end of a file: the calls still open, written as not returned */
int sql_calls__flush(struct prism_sql *x, struct sql_calls *c);

/* sql-export.c: the ids of the things rows refer to (their rows written the first time) */
int sql_thread_id(struct prism_sql *x, uint32_t pid, uint32_t tid, int64_t *out);
int sql_comm_id(struct prism_sql *x, uint32_t pid, uint32_t tid, int64_t thread, int64_t *out);
struct prism_frame;
int sql_symbol_id(struct prism_sql *x, const struct prism_frame *f, int64_t *dso, int64_t *out,
		  uint64_t *offset);
/* a selected_events row named @name, one per @ident (an evsel, a synthesized event's name) */
int sql_event_id(struct prism_sql *x, const void *ident, const char *name, int64_t *out);
/* the export's error message (prism_sql__error()); returns @err */
int sql_error(struct prism_sql *x, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * sql-pt.c: a file's Intel PT trace, decoded into samples rows (and calls
 * rows from sql-pt-calls.c with @calls) after its records were read
 */
struct sql_pt;
struct prism_itrace;
struct prism_session;
struct prism_symbols;
struct prism_tasks;
struct prism_event;
struct sql_pt *sql_pt__new(struct prism_sql *x, const struct prism_itrace *it,
			   struct prism_session *s, struct prism_symbols *sy,
			   struct prism_tasks *tasks, bool calls);
/* AUXTRACE_INFO, AUXTRACE and the side-band (switches, ITRACE_START, AUX); others ignored */
int sql_pt__event(struct sql_pt *p, const struct prism_event *ev);
/* decode and write the rows; -EPROTO (said) when the file (@name) has no Intel PT trace */
int sql_pt__run(struct sql_pt *p, int64_t machine_id, const char *name);
/* the decoding errors the trace had */
uint64_t sql_pt__errors(const struct sql_pt *p);
void sql_pt__free(struct sql_pt *p);

/* sql-pt-calls.c: perf's call/return processor, fed the branches samples in order */
struct sql_pt_branch {
	int32_t pid, tid;
	uint32_t cpu;
	int64_t thread, comm; /* rows of the sample */
	int64_t ref; /* the sample's id */
	uint64_t time, ip, addr;
	uint32_t flags; /* PRISM_PT_FL_* */
	unsigned int insn_len;
	int64_t from_sym, to_sym; /* symbols rows of ip and addr, 0 = none */
	const char *from_name, *to_name; /* their names, NULL */
	bool to_at_start; /* addr is its symbol's start */
};
struct sql_pt_calls;
struct sql_pt_calls *sql_pt_calls__new(void);
void sql_pt_calls__free(struct sql_pt_calls *c);
int sql_pt_calls__branch(struct prism_sql *x, struct sql_pt_calls *c,
			 const struct sql_pt_branch *b);
/*
 * a sample's call chain as perf's call paths (the calls' tree): the child of
 * call path @parent (0: the root) for a frame, (size_t)-1 without memory;
 * a call path's row (its parents' first) written once, its id
 */
size_t sql_pt_calls__child(struct sql_pt_calls *c, size_t parent, int64_t sym, const char *name,
			   uint64_t ip);
int sql_pt_calls__export(struct prism_sql *x, struct sql_pt_calls *c, size_t cp, int64_t *id);
/* the return addresses on a thread's stack, the innermost first (at most @max); their count */
size_t sql_pt_calls__rets(struct sql_pt_calls *c, int32_t pid, int32_t tid, uint32_t cpu,
			  uint64_t *rets, size_t max);
/* the end of the file: every stack emptied, as not returned */
int sql_pt_calls__flush(struct prism_sql *x, struct sql_pt_calls *c);

/*
 * sql-ids.c: a map from byte-string keys to ids, for the rows written once
 * per distinct thing (threads, comms, DSOs, symbols, call paths).  Keys are
 * copied; memory grows with the distinct keys.
 */
struct sql_ids;
struct sql_ids *sql_ids__new(void);
void sql_ids__free(struct sql_ids *m);
void sql_ids__clear(struct sql_ids *m);
/* Return: 1 and *val when found, 0 when not */
int sql_ids__find(const struct sql_ids *m, const void *key, size_t len, int64_t *val);
/* add or replace; 0 or -ENOMEM */
int sql_ids__set(struct sql_ids *m, const void *key, size_t len, int64_t val);

#endif /* PRISM_LIB_EXPORT_SQL_INTERNAL_H */
