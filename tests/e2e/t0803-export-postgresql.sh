#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export postgresql into a real server: a cluster made in a temporary
# directory (initdb, pg_ctl start on a private unix socket, no TCP; as the
# postgres user when run as root), the fixtures exported with COPY ...
# (FORMAT binary), checked with psql: the same rows as the SQLite export of
# the same files, two hosts appended and told apart, views that work in
# PostgreSQL's dialect, and a failed export (damaged input, other schema
# version) leaving the database as it was.
. tests/e2e/lib.sh
require_export postgresql
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] ||
	skip "needs the PostgreSQL server binaries (apt-get install postgresql)"
require_cmd psql "apt-get install postgresql-client"

PG=$TMP/pg
as_pg() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || skip "needs the postgres user to run the server as root"
	chmod 711 "$TMP"
	mkdir -p "$PG"
	chown postgres "$PG"
	as_pg() { su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; }
else
	mkdir -p "$PG"
fi
as_pg "$PGBIN/initdb" -D "$PG/data" -A trust -U postgres >"$PG/initdb.log" 2>&1 ||
	skip "initdb failed: $(tail -1 "$PG/initdb.log")"
as_pg "$PGBIN/pg_ctl" -D "$PG/data" -l "$PG/server.log" -w \
	-o "-c listen_addresses='' -k $PG -c fsync=off" start >/dev/null 2>&1 ||
	skip "the server did not start: $(tail -2 "$PG/server.log" 2>/dev/null)"
trap 'as_pg "$PGBIN/pg_ctl" -D "$PG/data" -m immediate stop >/dev/null 2>&1; rm -rf "$TMP"' EXIT

psql -h "$PG" -U postgres -qc 'CREATE DATABASE perf' >/dev/null 2>&1
psql -h "$PG" -U postgres -qc 'CREATE DATABASE other' >/dev/null 2>&1
CONN="host=$PG dbname=perf user=postgres"
pq() { psql -h "$PG" -U postgres -d "${2:-perf}" -XAtc "$1"; }

F=$FIXTURES/perf-6.1
A=$F/a-fp.data
B=$F/b-dwarf.data

prism export postgresql -i "$A" -o "$CONN" >"$TMP/out" 2>"$TMP/err"
check "a-fp: export exits 0" test $? -eq 0
grep_q "samples +[0-9]+ rows" "$TMP/out"
prism export postgresql --append -i "$B" -o "$CONN" -q 2>/dev/null
check "b-dwarf appended: exits 0" test $? -eq 0
prism export sqlite -i "$A" -i "$B" -o "$TMP/ref.db" -q 2>/dev/null
check "the SQLite reference: exits 0" test $? -eq 0

# every table's rows equal the SQLite export's
for t in hosts selected_events machines threads comms comm_threads dsos symbols branch_types \
	samples call_paths; do
	cols=$(sqlite3 "$TMP/ref.db" "SELECT group_concat(name, ', ') FROM pragma_table_info('$t') WHERE name NOT IN ('transaction_', 'record_time', 'in_tx', 'exec_flag')")
	sqlite3 -separator '|' "$TMP/ref.db" "SELECT $cols FROM $t ORDER BY id" >"$TMP/$t.sqlite"
	pq "SELECT $cols FROM $t ORDER BY id" >"$TMP/$t.pg"
	if cmp -s "$TMP/$t.sqlite" "$TMP/$t.pg"; then
		echo "ok: $t: $(wc -l <"$TMP/$t.pg") rows as in SQLite" >&3
	else
		fail "$t differs from the SQLite export: $(diff "$TMP/$t.sqlite" "$TMP/$t.pg" | head -4)"
	fi
done
na=$(prism stats -i "$A" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
check "hosts: a-fp's $na samples under its host" \
	test "$(pq "SELECT count(*) FROM samples s JOIN hosts h ON h.id = s.host_id WHERE h.file_name LIKE '%a-fp.data'")" -eq "$na"
check "views: samples_view in PostgreSQL's dialect" \
	test "$(pq "SELECT count(*) FROM samples_view WHERE ip_hex <> '' AND host = 'vm'")" -ge "$na"
check "views: call_paths_view" test "$(pq 'SELECT count(*) FROM call_paths_view')" -gt 0
check "views: context_switches_view" pq 'SELECT count(*) FROM context_switches_view' >/dev/null
check "primary keys on every table's id (added after the load)" \
	test "$(pq "SELECT count(*) FROM information_schema.table_constraints WHERE constraint_type = 'PRIMARY KEY' AND table_schema = 'public'")" -eq "$(pq "SELECT count(*) FROM information_schema.columns WHERE column_name = 'id' AND table_schema = 'public' AND table_name NOT LIKE '%view'")"
check "column: transaction (perf's PostgreSQL name)" \
	test "$(pq "SELECT count(*) FROM information_schema.columns WHERE table_name = 'samples' AND column_name = 'transaction'")" -eq 1

# failures leave the database as it was
before=$(pq 'SELECT count(*) FROM samples')
head -c $(($(stat -c %s "$A") / 2)) "$A" >"$TMP/cut.data"
prism export postgresql --append -i "$TMP/cut.data" -o "$CONN" 2>"$TMP/err"
check "damaged input: exit 1" test $? -eq 1
grep_q "nothing was written" "$TMP/err"
check "damaged input: samples as before ($before)" test "$(pq 'SELECT count(*) FROM samples')" -eq "$before"
check "damaged input: no third host" test "$(pq 'SELECT count(*) FROM hosts')" -eq 3
prism export postgresql -i "$A" -o "$CONN" 2>"$TMP/err"
check "new export into a database with the tables: exit 1" test $? -eq 1
grep_q "already exists" "$TMP/err"
grep_q "hint: .*--append" "$TMP/err"
pq "UPDATE prism_meta SET value = '7' WHERE key = 'schema_version'" >/dev/null
prism export postgresql --append -i "$A" -o "$CONN" 2>"$TMP/err"
check "schema version 7: exit 1" test $? -eq 1
grep_q "schema version 7, this prism writes version 1" "$TMP/err"
prism export postgresql --append -i "$A" -o "host=$PG dbname=other user=postgres" 2>"$TMP/err"
check "append to a database without prism's tables: exit 1" test $? -eq 1
grep_q "is not a database prism exported" "$TMP/err"
check "that database still has no tables" \
	test "$(pq "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'" other)" -eq 0
# --util and --calls: the rows of the SQLite export of the same file
G=$F/g-syscalls-group.data
prism export postgresql --util --calls -i "$G" -o "host=$PG dbname=other user=postgres" -q 2>/dev/null
check "--util --calls: exits 0" test $? -eq 0
prism export sqlite --util --calls -i "$G" -o "$TMP/g.db" -q 2>/dev/null
for t in util_tasks util_calls calls; do
	n=$(sqlite3 "$TMP/g.db" "SELECT count(*) FROM $t")
	check "--util --calls: $t has SQLite's $n rows" test "$(pq "SELECT count(*) FROM $t" other)" -eq "$n"
done
check "--util: the system's syscalls as in SQLite" \
	test "$(pq "SELECT sum(count) FROM util_calls WHERE scope = 'system'" other)" -eq \
	"$(sqlite3 "$TMP/g.db" "SELECT sum(count) FROM util_calls WHERE scope = 'system'")"
check "--util: the busy time as in SQLite (ns)" \
	test "$(pq "SELECT round(sum(busy_ms) * 1000000) FROM util_tasks" other)" = \
	"$(sqlite3 "$TMP/g.db" "SELECT CAST(round(sum(busy_ms) * 1000000) AS integer) FROM util_tasks")"
# names that are not UTF-8 (a comm is any bytes): '?' in PostgreSQL, where
# the server would refuse the whole COPY
bad=$TMP/$'\xff\xfe'sh
cp /bin/sh "$bad"
if perf record -q -e cpu-clock -c 100000 -o "$TMP/bad.data" -- "$bad" -c \
	'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' >/dev/null 2>&1; then
	psql -h "$PG" -U postgres -qc "CREATE DATABASE bad ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0" >/dev/null 2>&1
	prism export postgresql -i "$TMP/bad.data" -o "host=$PG dbname=bad user=postgres" -q 2>/dev/null
	check "a comm that is not UTF-8: exits 0" test $? -eq 0
	check "a comm that is not UTF-8: '??sh'" \
		test "$(pq "SELECT count(*) FROM comms WHERE comm = '??sh'" bad)" -eq 1
else
	echo "note: perf record failed here: no check of names that are not UTF-8" >&3
fi
prism export postgresql -i "$A" -o "host=$PG dbname=nosuchdb user=postgres" 2>"$TMP/err"
check "a database that does not exist: exit 1" test $? -eq 1
grep_q "cannot connect to PostgreSQL" "$TMP/err"
# an Intel PT trace decoded (--itrace=i5igb --calls: instructions with to_ip and call
# chains, branches, calls): the samples, calls and call paths of SQLite's
WL=$PRISM_OUT/tests/workloads/pt-loop
if [ -x "$WL" ] && prism version --build-options | grep -q 'intel-pt: \[ on'; then
	python3 "$PRISM_SRC/tests/tools/perfdata-pt.py" --calls 6 "$WL" "$TMP/pt.data"
	psql -h "$PG" -U postgres -qc 'CREATE DATABASE pt' >/dev/null 2>&1
	prism export postgresql -q -i "$TMP/pt.data" -o "host=$PG dbname=pt user=postgres" \
		--itrace=i5igb --calls 2>"$TMP/err"
	check "pt: export --itrace=i5igb --calls exits 0" test $? -eq 0
	prism export sqlite -q -i "$TMP/pt.data" -o "$TMP/pt.db" --itrace=i5igb --calls
	for t in samples calls call_paths; do
		cols=$(sqlite3 "$TMP/pt.db" "SELECT group_concat(name, ', ') FROM pragma_table_info('$t') WHERE name NOT IN ('transaction_', 'in_tx')")
		sqlite3 -separator '|' "$TMP/pt.db" "SELECT $cols FROM $t ORDER BY id" >"$TMP/$t.sqlite"
		pq "SELECT $cols FROM $t ORDER BY id" pt >"$TMP/$t.pg"
		check "pt: $t: the $(wc -l <"$TMP/$t.pg") rows of SQLite's" cmp -s "$TMP/$t.sqlite" "$TMP/$t.pg"
	done
	check "pt: calls rows" test "$(pq 'SELECT count(*) FROM calls' pt)" -gt 5
	check "pt: instruction samples with to_ip and call paths" \
		test "$(pq 'SELECT count(*) FROM samples WHERE evsel_id = 2 AND to_ip != 0 AND call_path_id != 0' pt)" -gt 2
fi
done_testing
