/* SPDX-License-Identifier: MIT */
/*
 * Exporting perf.data files into an SQL database: SQLite (a file) or
 * PostgreSQL (a server), in the schema of perf's export-to-sqlite.py and
 * export-to-postgresql.py (selected_events, machines, threads, comms,
 * comm_threads, dsos, symbols, branch_types, samples, call_paths, calls,
 * context_switches and their views; SQLite names the samples' transaction
 * column transaction_), so perf's exported-sql-viewer.py and existing
 * queries work on it.  prism adds a hosts table and a host_id column in
 * every table: the files of many hosts go into one database (append).
 *
 *	struct prism_sql_opts o = { .kind = PRISM_SQL_SQLITE, .target = "perf.db" };
 *	struct prism_sql *x;
 *	err = prism_sql__open(&o, &x);		(x is set even on error, for the message)
 *	err = prism_sql__add_session(x, &file);	(once per file: one host each)
 *	err = prism_sql__commit(x);
 *	prism_sql__free(x);			(rolls back what was not committed)
 *
 * One transaction per export: until prism_sql__commit() nothing is visible,
 * and after an error nothing is left (a new SQLite file is written under a
 * temporary name and renamed at the commit).  Rows are streamed: memory
 * grows with the distinct threads, DSOs, symbols and call paths, not with
 * the samples.
 */
#ifndef PRISM_EXPORT_SQL_H
#define PRISM_EXPORT_SQL_H

#include <prism/core.h>
#include <prism/symbol.h>

struct prism_sql;
struct prism_session;
struct prism_itrace;

enum prism_sql_kind {
	PRISM_SQL_SQLITE, /* target: a file path */
	PRISM_SQL_POSTGRESQL, /* target: a libpq connection string or URI */
};

/* the schema version prism writes (in the prism_meta table) */
#define PRISM_SQL_SCHEMA_VERSION 1

struct prism_sql_opts {
	enum prism_sql_kind kind;
	const char *target;
	/* add to a database prism wrote before (else: a new SQLite file, or new tables) */
	bool append;
	/* no call_paths rows: samples keep call_path_id 0 */
	bool no_callchains;
	/*
	 * calls rows from each thread's consecutive call chains: a function is
	 * called at the first sample that has it on the stack and returns at
	 * the first that no longer has it (a sampled view: calls between two
	 * samples are not seen); open ones at the end have flags 2, no return
	 */
	bool calls;
	/*
	 * decode the files' Intel PT traces (perf's --itrace options) into
	 * samples rows, and with calls the calls rows from the branches (perf's
	 * thread-stack pairing of calls and returns) instead of call chains;
	 * NULL: the recorded samples only.  A file without an Intel PT trace
	 * is then an error (-EPROTO).
	 */
	const struct prism_itrace *itrace;
};

/**
 * prism_sql__open - open the target and start the export's transaction
 * @opts: what to write where
 * @out: set to the export object, also when the open failed (for
 *       prism_sql__error()); NULL only on -ENOMEM
 *
 * Creates the schema in a new database, or checks an existing one's
 * schema version for append.
 *
 * Return: 0; -EEXIST (a new SQLite file's path exists), -EPROTO (append to
 * a database that is not prism's or has another schema version),
 * -PRISM_E_NOFEATURE (no libsqlite3/libpq in this build), -EIO (the
 * database refused: connection, permissions, SQL); prism_sql__error() says
 * what happened.
 */
PRISM_API int prism_sql__open(const struct prism_sql_opts *opts, struct prism_sql **out);

/* one file to add: it becomes one host */
struct prism_sql_file {
	struct prism_session *session; /* opened, not processed yet */
	const char *name; /* the file's name, for the hosts table */
	const struct prism_symbols_opts *symbols; /* may be NULL */
	/* called every few thousand records: done of total bytes (total 0 for a pipe) */
	void (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
	/*
	 * called with the file's symbols before its records are read (ctx as
	 * progress), e.g. to add the kernel's code for --itrace
	 * (prism_symbols__add_kernel_code()); non-zero stops the export
	 * (-ECANCELED); may be NULL
	 */
	int (*symbols_ready)(void *ctx, struct prism_symbols *sy);
};

/**
 * prism_sql__add_session - process a session and write its rows
 *
 * Return: 0, a negative error of the session's read (prism_session__error()
 * describes it), or -EIO/-ENOMEM from the database side (prism_sql__error()).
 */
PRISM_API int prism_sql__add_session(struct prism_sql *x, const struct prism_sql_file *file);

/**
 * prism_sql__add_util - write prism util's result into util_tasks and util_calls
 * @u: a finished analysis of the file prism_sql__add_session() added last
 *     (its host): prism_util__process() on the same file
 *
 * The rows and call records of prism util --csv, with the same numbers
 * (times in ms; cpu -1 for a task's, process's or the system's ALL row).
 *
 * Return: 0, -ENOMEM or -EIO (prism_sql__error()).
 */
struct prism_util;
PRISM_API int prism_sql__add_util(struct prism_sql *x, struct prism_util *u);

/* commit the transaction (and rename a new SQLite file into place); 0 or -EIO */
PRISM_API int prism_sql__commit(struct prism_sql *x);

/*
 * the file a new SQLite database is written to until the commit renames it
 * (for a caller that removes it when it is killed), else NULL
 */
PRISM_API const char *prism_sql__temp_path(const struct prism_sql *x);

/* the last database error as text ("" when none) */
PRISM_API const char *prism_sql__error(const struct prism_sql *x);

/* frees @x, rolling back an uncommitted export; accepts NULL */
PRISM_API void prism_sql__free(struct prism_sql *x);

/* the tables, in creation order, and the rows this export wrote into each */
PRISM_API size_t prism_sql__nr_tables(void);
PRISM_API const char *prism_sql__table_name(size_t idx);
PRISM_API uint64_t prism_sql__rows(const struct prism_sql *x, size_t idx);

#endif /* PRISM_EXPORT_SQL_H */
