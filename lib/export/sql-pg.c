// SPDX-License-Identifier: MIT
/*
 * The PostgreSQL backend of the SQL exporter (libpq).  The tables are
 * created in one transaction; rows are spooled per table into unlinked
 * temporary files in COPY's binary format (big-endian fields, -1 length
 * for NULL) and sent with COPY ... FROM STDIN (FORMAT binary) at the
 * commit, so memory stays bounded and nothing is visible before COMMIT.
 */
#include <endian.h>
#include <libpq-fe.h>
#include <stdio.h>

#include "internal.h"
#include "export/sql-internal.h"

struct pg_db {
	struct sql_db base;
	PGconn *c;
	FILE *spool[SQL_T__NR];
	bool committed;
};

#define DB(b) ((struct pg_db *)(b))

static const char copy_header[] = "PGCOPY\n\377\r\n";

static void quiet_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static int pg_result(struct pg_db *d, PGresult *r, ExecStatusType want, const char *what)
{
	int err = 0;

	if (PQresultStatus(r) != want)
		err = sql_db__fail(&d->base, -EIO, "PostgreSQL: %s: %s", what,
				   PQerrorMessage(d->c));
	PQclear(r);
	return err;
}

static int pg_exec(struct sql_db *b, const char *sql)
{
	struct pg_db *d = DB(b);
	char what[48];

	snprintf(what, sizeof(what), "%.40s%s", sql, strlen(sql) > 40 ? "..." : "");
	return pg_result(d, PQexec(d->c, sql), PGRES_COMMAND_OK, what);
}

static bool pg_has_hosts(struct pg_db *d)
{
	PGresult *r = PQexec(d->c, "SELECT 1 FROM pg_tables WHERE tablename = 'hosts' AND "
				   "schemaname = current_schema()");
	bool yes = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;

	PQclear(r);
	return yes;
}

static int pg_open(const char *target, bool append, struct sql_db **out)
{
	struct pg_db *d = calloc(1, sizeof(*d));
	int err;

	*out = &d->base;
	if (!d)
		return -ENOMEM;
	d->base.ops = &sql_pg_ops;
	d->base.dialect = SQL_DIALECT_PG;
	prism_strbuf_init(&d->base.err);
	prism_strbuf_init(&d->base.after);
	d->c = PQconnectdb(target);
	if (!d->c)
		return -ENOMEM;
	if (PQstatus(d->c) != CONNECTION_OK)
		return sql_db__fail(&d->base, -ECONNREFUSED,
				    "cannot connect to PostgreSQL '%s': %s", target,
				    PQerrorMessage(d->c));
	PQsetNoticeProcessor(d->c, quiet_notice, NULL);
	err = pg_exec(&d->base, "BEGIN");
	/*
	 * appends of several exports at once: one after the other, for the ids
	 * (a database without prism's tables is told so by the schema check)
	 */
	if (!err && append && pg_has_hosts(d))
		err = pg_exec(&d->base, "LOCK TABLE hosts IN EXCLUSIVE MODE");
	return err;
}

static int pg_query(struct sql_db *b, const char *sql, int64_t *i, struct prism_strbuf *s)
{
	struct pg_db *d = DB(b);
	PGresult *r = PQexec(d->c, sql);
	int err = 0;

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
		err = sql_db__fail(b, -EIO, "PostgreSQL: %s", PQerrorMessage(d->c));
	else if (!PQntuples(r) || PQgetisnull(r, 0, 0))
		err = -ENOENT;
	else if (i)
		*i = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	else
		prism_strbuf_addstr(s, PQgetvalue(r, 0, 0));
	PQclear(r);
	return err;
}

static int pg_query_int(struct sql_db *b, const char *sql, int64_t *out)
{
	return pg_query(b, sql, out, NULL);
}

static int pg_query_text(struct sql_db *b, const char *sql, struct prism_strbuf *out)
{
	return pg_query(b, sql, NULL, out);
}

static void put32(FILE *f, uint32_t v)
{
	v = htobe32(v);
	fwrite(&v, 4, 1, f);
}

static void put64(FILE *f, uint64_t v)
{
	v = htobe64(v);
	fwrite(&v, 8, 1, f);
}

/* the length of the valid UTF-8 sequence at @p (at most @n bytes), 0 if it is not one */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	len = p[0] >= 0xf0 && p[0] < 0xf5 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (!len || len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * @s as PostgreSQL takes it into @out: cut to @width bytes at a character's
 * end, and bytes that are not UTF-8 (comm and file names are any bytes) as
 * '?', where the server would refuse the whole COPY.  Return: its length.
 */
static size_t pg_text(const char *s, unsigned int width, char *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), o = 0, l;

	while (n) {
		l = utf8_len(p, n);
		if (o + (l ? l : 1) > width)
			break;
		if (l)
			memcpy(out + o, p, l);
		else
			out[o] = '?';
		o += l ? l : 1;
		p += l ? l : 1;
		n -= l ? l : 1;
	}
	return o;
}

static int pg_row(struct sql_db *b, enum sql_table_id t, const struct sql_val *v)
{
	struct pg_db *d = DB(b);
	const struct sql_table *tab = &sql_tables[t];
	FILE *f = d->spool[t];
	uint16_t n = htobe16((uint16_t)tab->nr_cols);
	size_t i;

	if (!f) {
		f = d->spool[t] = tmpfile();
		if (!f)
			return sql_db__fail(b, -errno, "PostgreSQL: cannot create a spool file: %s",
					    strerror(errno));
		fwrite(copy_header, 1, 11, f);
		put32(f, 0); /* flags */
		put32(f, 0); /* header extension length */
	}
	fwrite(&n, 2, 1, f);
	for (i = 0; i < tab->nr_cols; i++) {
		const struct sql_col *c = &tab->cols[i];
		uint64_t bits;

		if (v[i].null) {
			put32(f, UINT32_MAX);
			continue;
		}
		switch (c->type) {
		case SQL_ID:
		case SQL_I64:
			put32(f, 8);
			put64(f, (uint64_t)v[i].i);
			break;
		case SQL_I32:
			put32(f, 4);
			put32(f, (uint32_t)v[i].i);
			break;
		case SQL_BOOL:
			put32(f, 1);
			fputc(v[i].i ? 1 : 0, f);
			break;
		case SQL_F64: /* float8: the IEEE bits, big-endian */
			memcpy(&bits, &v[i].d, 8);
			put32(f, 8);
			put64(f, bits);
			break;
		case SQL_TEXT:
			if (!v[i].s) {
				put32(f, UINT32_MAX);
			} else {
				char buf[4096];
				size_t len = pg_text(
					v[i].s, c->width < sizeof(buf) ? c->width : sizeof(buf),
					buf);

				put32(f, (uint32_t)len);
				fwrite(buf, 1, len, f);
			}
			break;
		}
	}
	if (ferror(f))
		return sql_db__fail(b, -EIO,
				    "PostgreSQL: writing the spool file of table %s failed",
				    tab->name);
	return 0;
}

static int copy_table(struct pg_db *d, enum sql_table_id t)
{
	FILE *f = d->spool[t];
	char sql[96], buf[65536];
	uint16_t trailer = 0xffff;
	size_t n;
	int err;

	fwrite(&trailer, 2, 1, f);
	if (fflush(f) || ferror(f) || fseek(f, 0, SEEK_SET))
		return sql_db__fail(&d->base, -EIO, "PostgreSQL: the spool file of table %s: %s",
				    sql_tables[t].name, strerror(errno));
	snprintf(sql, sizeof(sql), "COPY %s FROM STDIN (FORMAT binary)", sql_tables[t].name);
	err = pg_result(d, PQexec(d->c, sql), PGRES_COPY_IN, sql);
	if (err)
		return err;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (PQputCopyData(d->c, buf, (int)n) != 1)
			break;
	if (PQputCopyEnd(d->c, ferror(f) ? "spool file read error" : NULL) != 1)
		return sql_db__fail(&d->base, -EIO, "PostgreSQL: COPY %s: %s", sql_tables[t].name,
				    PQerrorMessage(d->c));
	err = pg_result(d, PQgetResult(d->c), PGRES_COMMAND_OK, sql);
	/* drain: libpq wants NULL before the next command */
	while (1) {
		PGresult *r = PQgetResult(d->c);

		if (!r)
			break;
		PQclear(r);
	}
	return err;
}

static int pg_commit(struct sql_db *b)
{
	struct pg_db *d = DB(b);
	const char *p = b->after.buf;
	size_t t;
	int err = 0;

	for (t = 0; !err && t < SQL_T__NR; t++)
		if (d->spool[t])
			err = copy_table(d, t);
	for (t = 0; !err && t < b->nr_after; t++, p += strlen(p) + 1)
		err = pg_exec(b, p);
	if (!err)
		err = pg_exec(b, "COMMIT");
	d->committed = !err;
	return err;
}

static void pg_free(struct sql_db *b)
{
	struct pg_db *d = DB(b);
	size_t t;

	for (t = 0; t < SQL_T__NR; t++)
		if (d->spool[t])
			fclose(d->spool[t]);
	if (d->c && !d->committed && PQstatus(d->c) == CONNECTION_OK)
		PQclear(PQexec(d->c, "ROLLBACK"));
	PQfinish(d->c);
	prism_strbuf_release(&d->base.err);
	prism_strbuf_release(&d->base.after);
	free(d);
}

const struct sql_backend_ops sql_pg_ops = {
	.open = pg_open,
	.exec = pg_exec,
	.query_int = pg_query_int,
	.query_text = pg_query_text,
	.row = pg_row,
	.commit = pg_commit,
	.free = pg_free,
};
