// SPDX-License-Identifier: MIT
/*
 * The SQL exporter's parts: the id map (many keys, growth, replace,
 * clear), the schema in both dialects (perf's column names, views without
 * leftover placeholders), and the transaction: an export freed without a
 * commit leaves no file, a committed one has the file's samples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <prism/export-sql.h>
#include <prism/session.h>

#include "export/sql-internal.h"

#include "test.h"

static void test_ids_many_keys(void)
{
	struct sql_ids *m = sql_ids__new();
	char key[64];
	int64_t v;
	int i, n;

	TEST_TRUE(m != NULL);
	for (i = 0; i < 100000; i++) {
		n = snprintf(key, sizeof(key), "k%d%.*s", i, i % 23, "xxxxxxxxxxxxxxxxxxxxxxx");
		TEST_EQ(sql_ids__set(m, key, (size_t)n, i), 0);
	}
	for (i = 0; i < 100000; i++) {
		n = snprintf(key, sizeof(key), "k%d%.*s", i, i % 23, "xxxxxxxxxxxxxxxxxxxxxxx");
		TEST_EQ(sql_ids__find(m, key, (size_t)n, &v), 1);
		TEST_EQ(v, i);
	}
	/* a prefix of a key is another key */
	TEST_EQ(sql_ids__find(m, "k1", 1, &v), 0);
	TEST_EQ(sql_ids__set(m, "k1", 2, -5), 0);
	TEST_EQ(sql_ids__find(m, "k1", 2, &v), 1);
	TEST_EQ(v, -5);
	sql_ids__clear(m);
	TEST_EQ(sql_ids__find(m, "k1", 2, &v), 0);
	TEST_EQ(sql_ids__set(m, "k1", 2, 7), 0);
	TEST_EQ(sql_ids__find(m, "k1", 2, &v), 1);
	TEST_EQ(v, 7);
	sql_ids__free(m);
}

static void test_schema_dialects(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	size_t i, n;
	const char *p;

	sql_schema__create_table(SQL_DIALECT_SQLITE, SQL_T_SAMPLES, &sb);
	TEST_TRUE(strstr(sb.buf, "id integer NOT NULL PRIMARY KEY, evsel_id bigint") != NULL);
	TEST_TRUE(strstr(sb.buf, "transaction_ bigint") != NULL);
	TEST_TRUE(strstr(sb.buf, "host_id bigint)") != NULL);
	prism_strbuf_reset(&sb);
	sql_schema__create_table(SQL_DIALECT_PG, SQL_T_SAMPLES, &sb);
	TEST_TRUE(strstr(sb.buf, "id bigint NOT NULL, ") != NULL);
	TEST_TRUE(strstr(sb.buf, " transaction bigint") != NULL);
	prism_strbuf_reset(&sb);
	sql_schema__create_table(SQL_DIALECT_PG, SQL_T_COMMS, &sb);
	TEST_TRUE(strstr(sb.buf, "comm varchar(16)") != NULL);
	TEST_TRUE(strstr(sb.buf, "exec_flag boolean") != NULL);
	prism_strbuf_reset(&sb);
	n = sql_schema__views(SQL_DIALECT_PG, &sb);
	TEST_TRUE(n >= 8);
	for (i = 0, p = sb.buf; i < n; i++, p += strlen(p) + 1) {
		TEST_TRUE(!strncmp(p, "CREATE VIEW ", 12));
		TEST_TRUE(strstr(p, "HEX(") == NULL);
		TEST_TRUE(strstr(p, "IPC AS IPC") == NULL);
		TEST_TRUE(strstr(p, "printf(") == NULL);
	}
	prism_strbuf_reset(&sb);
	n = sql_schema__views(SQL_DIALECT_SQLITE, &sb);
	for (i = 0, p = sb.buf; i < n; i++, p += strlen(p) + 1) {
		TEST_TRUE(strstr(p, "to_hex(") == NULL && strstr(p, "NUMERIC") == NULL);
		if (!strncmp(p, "CREATE VIEW samples_view", 24))
			TEST_TRUE(strstr(p, "printf('%x', ip) AS ip_hex") != NULL);
	}
	prism_strbuf_release(&sb);
	/* every table but prism_meta has its host, last */
	for (i = 0; i < SQL_T__NR; i++) {
		const struct sql_table *t = &sql_tables[i];

		if (i == SQL_T_META || i == SQL_T_HOSTS)
			continue;
		TEST_STREQ(t->cols[t->nr_cols - 1].name, "host_id");
		TEST_STREQ(t->cols[0].name, "id");
	}
}

static int export_fixture(const char *db, bool commit)
{
	const char *path = test_fixture_path("perf-6.1/a-fp.data");
	struct prism_session_opts so = { .path = path };
	struct prism_sql_opts o = { .kind = PRISM_SQL_SQLITE, .target = db };
	struct prism_session *s = prism_session__open(&so);
	struct prism_sql_file f = { .session = s, .name = path };
	struct prism_sql *x;
	int err;

	if (!s)
		return -1;
	err = prism_sql__open(&o, &x);
	if (!err)
		err = prism_sql__add_session(x, &f);
	if (!err && commit)
		err = prism_sql__commit(x);
	if (!err && commit) {
		size_t i;

		for (i = 0; i < prism_sql__nr_tables(); i++)
			if (!strcmp(prism_sql__table_name(i), "samples"))
				err = prism_sql__rows(x, i) == 247 ? 0 : -2;
	}
	prism_sql__free(x);
	prism_session__free(s);
	return err;
}

static void test_transaction(void)
{
	char dir[] = "/tmp/prism-test-sql.XXXXXX", dir2[] = "/tmp/prism-test-sql.XXXXXX", db[64];

	if (!prism_feature_enabled(PRISM_FEATURE_LIBSQLITE3)) {
		test_skip_reason = "built without libsqlite3";
		return;
	}
	if (!test_fixture_path("perf-6.1/a-fp.data")) {
		test_skip_reason = "needs ../shared/fixtures";
		return;
	}
	TEST_TRUE(mkdtemp(dir) != NULL);
	snprintf(db, sizeof(db), "%s/x.db", dir);
	/* not committed: no file, no temporary file */
	TEST_EQ(export_fixture(db, false), 0);
	TEST_TRUE(access(db, F_OK) != 0);
	TEST_TRUE(rmdir(dir) == 0);
	TEST_TRUE(mkdtemp(dir2) != NULL);
	snprintf(db, sizeof(db), "%s/x.db", dir2);
	TEST_EQ(export_fixture(db, true), 0);
	TEST_TRUE(access(db, F_OK) == 0);
	/* a second export into it: -EEXIST, the file stays */
	TEST_EQ(export_fixture(db, true), -EEXIST);
	TEST_TRUE(access(db, F_OK) == 0);
	unlink(db);
	TEST_TRUE(rmdir(dir2) == 0);
}

TEST_MAIN(TEST(ids_many_keys), TEST(schema_dialects), TEST(transaction));
