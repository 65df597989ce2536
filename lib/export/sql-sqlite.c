// SPDX-License-Identifier: MIT
/*
 * The SQLite backend of the SQL exporter.  A new database is written into a
 * temporary file next to the target, with the journal off and one
 * transaction, and linked into place at the commit: an error leaves no
 * file.  Append opens the existing file and writes in one transaction with
 * SQLite's rollback journal, so an error leaves the file as it was.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

#include "internal.h"
#include "export/sql-internal.h"

struct sqlite_db {
	struct sql_db base;
	sqlite3 *h;
	sqlite3_stmt *ins[SQL_T__NR];
	char *target, *tmp; /* tmp: the new file before the commit */
	bool append, committed;
};

#define DB(b) ((struct sqlite_db *)(b))

static int fail_sqlite(struct sqlite_db *d, const char *what)
{
	return sql_db__fail(&d->base, -EIO, "%s '%s': %s", what, d->target,
			    d->h ? sqlite3_errmsg(d->h) : "out of memory");
}

static int sq_exec(struct sql_db *b, const char *sql)
{
	struct sqlite_db *d = DB(b);
	char *msg = NULL;

	if (sqlite3_exec(d->h, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	sql_db__fail(b, -EIO, "SQLite database '%s': %s", d->target, msg ? msg : "error");
	sqlite3_free(msg);
	return -EIO;
}

static int sq_open(const char *target, bool append, struct sql_db **out)
{
	struct sqlite_db *d = calloc(1, sizeof(*d));
	int fd, err;

	*out = &d->base;
	if (!d)
		return -ENOMEM;
	d->base.ops = &sql_sqlite_ops;
	d->base.dialect = SQL_DIALECT_SQLITE;
	prism_strbuf_init(&d->base.err);
	prism_strbuf_init(&d->base.after);
	d->append = append;
	d->target = strdup(target);
	if (!d->target)
		return -ENOMEM;
	if (append) {
		if (access(target, R_OK | W_OK))
			return sql_db__fail(&d->base, -errno, "cannot open '%s' to append: %s",
					    target, strerror(errno));
		if (sqlite3_open_v2(target, &d->h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
			return fail_sqlite(d, "cannot open");
		sqlite3_busy_timeout(d->h, 10000);
		return sq_exec(&d->base, "BEGIN IMMEDIATE");
	}
	if (!access(target, F_OK))
		return sql_db__fail(&d->base, -EEXIST, "'%s' exists", target);
	if (asprintf(&d->tmp, "%s.tmp-XXXXXX", target) < 0) {
		d->tmp = NULL;
		return -ENOMEM;
	}
	fd = mkstemp(d->tmp);
	if (fd < 0) {
		err = -errno;
		free(d->tmp);
		d->tmp = NULL;
		return sql_db__fail(&d->base, err, "cannot create '%s': %s", target,
				    strerror(-err));
	}
	close(fd);
	d->base.tmp_path = d->tmp;
	if (sqlite3_open_v2(d->tmp, &d->h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		return fail_sqlite(d, "cannot create");
	/* nothing to roll back into: an error removes the file */
	err = sq_exec(&d->base, "PRAGMA journal_mode = OFF");
	if (!err)
		err = sq_exec(&d->base, "PRAGMA synchronous = OFF");
	return err ? err : sq_exec(&d->base, "BEGIN");
}

static int prepare(struct sqlite_db *d, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(d->h, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	return sql_db__fail(&d->base, -EIO, "SQLite database '%s': %s", d->target,
			    sqlite3_errmsg(d->h));
}

static int sq_query(struct sql_db *b, const char *sql, int64_t *i, struct prism_strbuf *s)
{
	struct sqlite_db *d = DB(b);
	sqlite3_stmt *st;
	int rc, err = prepare(d, sql, &st);

	if (err)
		return err;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		if (i)
			*i = sqlite3_column_int64(st, 0);
		else
			prism_strbuf_addstr(s, (const char *)sqlite3_column_text(st, 0));
	} else if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
		err = -ENOENT;
	} else {
		err = sql_db__fail(b, -EIO, "SQLite database '%s': %s", d->target,
				   sqlite3_errmsg(d->h));
	}
	sqlite3_finalize(st);
	return err;
}

static int sq_query_int(struct sql_db *b, const char *sql, int64_t *out)
{
	return sq_query(b, sql, out, NULL);
}

static int sq_query_text(struct sql_db *b, const char *sql, struct prism_strbuf *out)
{
	return sq_query(b, sql, NULL, out);
}

static int sq_row(struct sql_db *b, enum sql_table_id t, const struct sql_val *v)
{
	struct sqlite_db *d = DB(b);
	const struct sql_table *tab = &sql_tables[t];
	sqlite3_stmt *st = d->ins[t];
	size_t i;
	int rc;

	if (!st) {
		struct prism_strbuf sb = STRBUF_INIT;
		int err;

		prism_strbuf_addf(&sb, "INSERT INTO %s VALUES (", tab->name);
		for (i = 0; i < tab->nr_cols; i++)
			prism_strbuf_addstr(&sb, i ? ", ?" : "?");
		prism_strbuf_addch(&sb, ')');
		err = sb.failed ? -ENOMEM : prepare(d, sb.buf, &d->ins[t]);
		prism_strbuf_release(&sb);
		if (err)
			return err;
		st = d->ins[t];
	}
	for (i = 0; i < tab->nr_cols; i++) {
		if (v[i].null || (tab->cols[i].type == SQL_TEXT && !v[i].s))
			rc = sqlite3_bind_null(st, (int)i + 1);
		else if (tab->cols[i].type == SQL_TEXT)
			rc = sqlite3_bind_text(st, (int)i + 1, v[i].s, -1, SQLITE_STATIC);
		else if (tab->cols[i].type == SQL_F64)
			rc = sqlite3_bind_double(st, (int)i + 1, v[i].d);
		else
			rc = sqlite3_bind_int64(st, (int)i + 1, v[i].i);
		if (rc != SQLITE_OK)
			break;
	}
	if (i == tab->nr_cols)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_OK)
		return sql_db__fail(b, rc == SQLITE_NOMEM ? -ENOMEM : -EIO,
				    "writing table %s of '%s': %s", tab->name, d->target,
				    sqlite3_errmsg(d->h));
	return 0;
}

static void finalize_all(struct sqlite_db *d)
{
	size_t i;

	for (i = 0; i < SQL_T__NR; i++) {
		sqlite3_finalize(d->ins[i]);
		d->ins[i] = NULL;
	}
}

static int sq_commit(struct sql_db *b)
{
	struct sqlite_db *d = DB(b);
	int err;

	finalize_all(d);
	err = sq_exec(b, "COMMIT");
	if (err)
		return err;
	if (sqlite3_close(d->h) != SQLITE_OK)
		return fail_sqlite(d, "cannot close");
	d->h = NULL;
	if (d->tmp) {
		/* link, not rename: a file created at the target meanwhile is kept */
		if (link(d->tmp, d->target))
			return sql_db__fail(b, -errno, "cannot create '%s': %s", d->target,
					    strerror(errno));
		d->base.tmp_path = NULL;
		unlink(d->tmp);
		free(d->tmp);
		d->tmp = NULL;
	}
	d->committed = true;
	return 0;
}

static void sq_free(struct sql_db *b)
{
	struct sqlite_db *d = DB(b);

	finalize_all(d);
	if (d->h && d->append && !d->committed && !sqlite3_get_autocommit(d->h))
		sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
	if (d->h)
		sqlite3_close(d->h);
	if (d->tmp)
		unlink(d->tmp);
	free(d->tmp);
	free(d->target);
	prism_strbuf_release(&d->base.err);
	prism_strbuf_release(&d->base.after);
	free(d);
}

const struct sql_backend_ops sql_sqlite_ops = {
	.open = sq_open,
	.exec = sq_exec,
	.query_int = sq_query_int,
	.query_text = sq_query_text,
	.row = sq_row,
	.commit = sq_commit,
	.free = sq_free,
};
