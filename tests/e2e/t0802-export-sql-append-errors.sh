#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export sqlite: two files as two hosts in one database (two -i, and
# --append of a later export), told apart by host_id; and the errors: an
# existing file, an unwritable directory, a damaged input, --append to a
# file that is not prism's or has another schema version, an unknown
# format.  Each exits 1 (129 for usage) with a clear message and leaves no
# database, or the appended one as it was.
. tests/e2e/lib.sh
require_export sqlite

F=$FIXTURES/perf-6.1
q() { sqlite3 "$1" "$2"; }
nsamples() { prism stats -i "$1" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }'; }
A=$F/a-fp.data
B=$F/i-fixed-period.data
na=$(nsamples "$A")
nb=$(nsamples "$B")

# two -i in one export
db=$TMP/two.db
check "two inputs: exits 0" prism export sqlite -i "$A" -i "$B" -o "$db" -q 2>/dev/null
check "two inputs: two hosts" test "$(q "$db" 'SELECT count(*) FROM hosts WHERE id > 0')" -eq 2
check "two inputs: host 1 has a-fp's $na samples" \
	test "$(q "$db" "SELECT count(*) FROM samples s JOIN hosts h ON h.id = s.host_id WHERE h.file_name LIKE '%a-fp.data'")" -eq "$na"
check "two inputs: host 2 has i-fixed-period's $nb samples" \
	test "$(q "$db" "SELECT count(*) FROM samples s JOIN hosts h ON h.id = s.host_id WHERE h.file_name LIKE '%i-fixed-period.data'")" -eq "$nb"
check "two inputs: ids do not collide" \
	test "$(q "$db" 'SELECT count(DISTINCT id) FROM samples')" -eq $((na + nb + 1))
check "two inputs: each host's samples point at its own threads" \
	test "$(q "$db" 'SELECT count(*) FROM samples s JOIN threads t ON t.id = s.thread_id WHERE t.host_id != s.host_id')" -eq 0
check "two inputs: each host's samples point at its own symbols" \
	test "$(q "$db" 'SELECT count(*) FROM samples s JOIN symbols y ON y.id = s.symbol_id WHERE s.symbol_id > 0 AND y.host_id != s.host_id')" -eq 0

# --append of a second export: the same database as the two -i
db2=$TMP/append.db
check "append: first export" prism export sqlite -i "$A" -o "$db2" -q 2>/dev/null
check "append: second export" prism export sqlite --append -i "$B" -o "$db2" -q 2>/dev/null
for t in samples threads comms dsos symbols call_paths; do
	check "append: $t rows equal the two-input export's" \
		test "$(q "$db2" "SELECT count(*), sum(host_id) FROM $t")" = "$(q "$db" "SELECT count(*), sum(host_id) FROM $t")"
done
check "append: samples_view tells the hosts apart by file" \
	test "$(q "$db2" "SELECT count(*) FROM hosts_view WHERE samples = $nb AND file_name LIKE '%i-fixed%'")" -eq 1

# errors
prism export sqlite -i "$A" -o "$db2" 2>"$TMP/err"
check "existing file: exit 1" test $? -eq 1
grep_q "error: '.*append.db' exists" "$TMP/err"
grep_q "hint: --append" "$TMP/err"
before=$(q "$db2" 'SELECT count(*) FROM samples')
check "existing file: left as it was" test "$before" -eq $((na + nb + 1))

prism export sqlite -i "$A" -o "$TMP/no/such/dir/x.db" 2>"$TMP/err"
check "unwritable path: exit 1" test $? -eq 1
grep_q "error: cannot create '.*no/such/dir/x.db': No such file or directory" "$TMP/err"

# a damaged file: cut in the middle of its data
size=$(stat -c %s "$A")
head -c $((size / 2)) "$A" >"$TMP/cut.data"
prism export sqlite -i "$TMP/cut.data" -o "$TMP/cut.db" 2>"$TMP/err"
check "damaged input: exit 1" test $? -eq 1
grep_q "error: .*cut.data" "$TMP/err"
grep_q "nothing was written" "$TMP/err"
check "damaged input: no database" test ! -e "$TMP/cut.db"
check "damaged input: no temporary file" test -z "$(ls "$TMP" | grep 'cut.db')"
prism export sqlite --append -i "$TMP/cut.data" -o "$db2" 2>/dev/null
check "damaged input appended: exit 1" test $? -eq 1
check "damaged input appended: the database is as it was" \
	test "$(q "$db2" 'SELECT count(*) FROM samples'),$(q "$db2" 'SELECT count(*) FROM hosts')" = "$before,3"

prism export sqlite -i "$TMP/missing.data" -o "$TMP/m.db" 2>"$TMP/err"
check "missing input: exit 1" test $? -eq 1
check "missing input: no database" test ! -e "$TMP/m.db"

# --append to something else
q "$TMP/other.db" 'CREATE TABLE t (x integer)'
prism export sqlite --append -i "$A" -o "$TMP/other.db" 2>"$TMP/err"
check "append to another database: exit 1" test $? -eq 1
grep_q "is not a database prism exported" "$TMP/err"
echo "not a database at all" >"$TMP/text.db"
prism export sqlite --append -i "$A" -o "$TMP/text.db" 2>"$TMP/err"
check "append to a text file: exit 1" test $? -eq 1
grep_q "not a database" "$TMP/err"
cp "$TMP/two.db" "$TMP/v9.db"
q "$TMP/v9.db" "UPDATE prism_meta SET value = '9' WHERE key = 'schema_version'"
prism export sqlite --append -i "$A" -o "$TMP/v9.db" 2>"$TMP/err"
check "append to schema version 9: exit 1" test $? -eq 1
grep_q "schema version 9, this prism writes version 1" "$TMP/err"
check "schema version 9: left as it was" \
	test "$(q "$TMP/v9.db" 'SELECT count(*) FROM hosts')" -eq 3

# killed while it writes (a pipe that stalls): no database, no temporary file
(cat "$F/d-pipe.data"; sleep 3) | "$PRISM_BIN" export sqlite -i - -o "$TMP/killed.db" -q 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
check "interrupted: no database" test ! -e "$TMP/killed.db"
check "interrupted: no temporary file" test -z "$(ls "$TMP" | grep killed.db)"
grep_q "interrupted, nothing was written" "$TMP/err"

# the command line
prism export sqlite -i "$A" 2>"$TMP/err"
check "no -o: usage error 129" test $? -eq 129
grep_q "error: -o is required" "$TMP/err"
prism export sqlit -i "$A" -o "$TMP/x.db" 2>"$TMP/err"
check "unknown format: 129" test $? -eq 129
grep_q "error: 'sqlit' is not an export format" "$TMP/err"
grep_q "hint: did you mean 'sqlite'" "$TMP/err"
prism export --help >"$TMP/help"
check "export --help: exits 0" test $? -eq 0
grep_q "^   sqlite " "$TMP/help"
grep_q "^   postgresql " "$TMP/help"
prism export sqlite --help >"$TMP/help"
grep_q "[-]-append" "$TMP/help"
prism export postgresql -i "$A" -o "host=$TMP/nosock dbname=x" 2>"$TMP/err"
check "refused PostgreSQL connection: exit 1" test $? -eq 1
grep_q "error: cannot connect to PostgreSQL" "$TMP/err"
grep_q "hint: -o takes a libpq connection string" "$TMP/err"
done_testing
