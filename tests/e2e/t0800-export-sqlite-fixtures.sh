#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export sqlite on the perf 6.1 fixtures (cpu-clock -g, DWARF,
# tracepoints, pipe, compressed, two events, fixed period, lost records):
# the database's row counts equal what prism stats and prism report count
# on the same file: samples (stats' SAMPLE records), the threads and comms
# samples name (report --sort pid / comm), the DSOs and symbols of samples
# and their call chains (report --children --sort dso / dso,sym).  Also
# perf's schema: its tables, views and SQLite's transaction_ column.
. tests/e2e/lib.sh
require_export sqlite

F=$FIXTURES/perf-6.1
# the workload binary the files name, from the fixture directory (as t0600)
MAP=(--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin")
q() { sqlite3 "$1" "$2"; }
# distinct report rows over every event's section, percentages cut off
rows() {
	prism report "${MAP[@]}" "${@:2}" -i "$1" -g none 2>/dev/null | grep '%' |
		sed -E 's/^( *[0-9.]+%)+ +//; s/ +$//' | sort -u | wc -l
}

for name in a-fp b-dwarf c-zstd d-pipe e-two-events f-sched-tp g-syscalls-group \
	i-fixed-period p-sched r-lost; do
	db=$TMP/$name.db
	prism export sqlite "${MAP[@]}" -i "$F/$name.data" -o "$db" >"$TMP/$name.out" 2>"$TMP/$name.err"
	check "$name: export exits 0" test $? -eq 0
	stats=$(prism stats -i "$F/$name.data" 2>/dev/null | awk '$1 == "SAMPLE" { n += $3 } END { print n }')
	# stats lists SAMPLE once in the totals and once per event
	stats=$((stats / 2))
	samples=$(q "$db" 'SELECT count(*) FROM samples WHERE id > 0')
	check "$name: samples $samples = prism stats $stats" test "$samples" -eq "$stats"
	grep_q "samples +$((samples + 1)) rows" "$TMP/$name.out"
	thr=$(q "$db" 'SELECT count(DISTINCT thread_id) FROM samples WHERE id > 0')
	want=$(prism report "${MAP[@]}" -i "$F/$name.data" --sort pid -g none 2>/dev/null | grep '%' |
		sed -E 's/^( *[0-9.]+%)+ +//; s/:.*//' | sort -u | wc -l)
	check "$name: sampled threads $thr = report's $want" test "$thr" -eq "$want"
	comms=$(q "$db" 'SELECT count(DISTINCT c.comm) FROM samples s JOIN comms c ON c.id = s.comm_id WHERE s.id > 0')
	want=$(rows "$F/$name.data" --sort comm)
	check "$name: sampled comms $comms = report's $want" test "$comms" -eq "$want"
	dsos=$(q "$db" 'SELECT count(*) FROM dsos WHERE id > 0')
	want=$(rows "$F/$name.data" --children --sort dso)
	check "$name: dsos $dsos = report's $want" test "$dsos" -eq "$want"
	syms=$(q "$db" 'SELECT count(*) FROM symbols WHERE id > 0')
	want=$(rows "$F/$name.data" --children --sort dso,sym)
	check "$name: symbols $syms = report's $want" test "$syms" -eq "$want"
	# every sample's thread, comm, DSO, symbol and call path exists
	orphans=$(q "$db" 'SELECT count(*) FROM samples s WHERE NOT EXISTS (SELECT 1 FROM threads t WHERE t.id = s.thread_id) OR NOT EXISTS (SELECT 1 FROM comms c WHERE c.id = s.comm_id) OR NOT EXISTS (SELECT 1 FROM symbols y WHERE y.id = s.symbol_id) OR NOT EXISTS (SELECT 1 FROM call_paths p WHERE p.id = s.call_path_id)')
	check "$name: no sample refers to a missing row ($orphans)" test "$orphans" -eq 0
	check "$name: samples_view has every sample" \
		test "$(q "$db" 'SELECT count(*) FROM samples_view')" -eq $((samples + 1))
	check "$name: the file is one host" \
		test "$(q "$db" 'SELECT count(*) FROM hosts WHERE id > 0')" -eq 1
done

# call paths: a -g sample's path walks up to the root in as many steps as it has frames
db=$TMP/a-fp.db
depth=$(q "$db" "WITH RECURSIVE up(id, n) AS (SELECT call_path_id, 0 FROM samples WHERE id = 1 UNION ALL SELECT c.parent_id, n + 1 FROM call_paths c JOIN up ON c.id = up.id WHERE c.id > 0) SELECT max(n) FROM up")
frames=$(prism script -i "$F/a-fp.data" 2>/dev/null | awk 'NR > 1 && /^$/ { exit } NR > 1 { n++ } END { print n }')
check "a-fp: the first sample's call path has its $frames frames (+ root): $depth" \
	test "$depth" -eq $((frames + 1))
check "a-fp: call_paths_view names leaf_a under main" \
	test "$(q "$db" "SELECT count(*) FROM call_paths_view WHERE symbol = 'leaf_a' AND parent_symbol = 'main'")" -ge 1
check "schema: SQLite's transaction_ column" \
	test "$(q "$db" "SELECT count(*) FROM pragma_table_info('samples') WHERE name = 'transaction_'")" -eq 1
for v in machines_view dsos_view symbols_view threads_view comm_threads_view call_paths_view \
	samples_view context_switches_view; do
	check "schema: view $v" test "$(q "$db" "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND name = '$v'")" -eq 1
done
check "schema version 1 in prism_meta" \
	test "$(q "$db" "SELECT value FROM prism_meta WHERE key = 'schema_version'")" = 1

# --calls: calls from consecutive call chains, nested in time and in call paths
for name in a-fp b-dwarf c-zstd; do
	db=$TMP/$name-calls.db
	prism export sqlite "${MAP[@]}" --calls -i "$F/$name.data" -o "$db" -q 2>/dev/null
	check "$name --calls: exits 0" test $? -eq 0
	check "$name --calls: rows" test "$(q "$db" 'SELECT count(*) FROM calls WHERE id > 0')" -gt 0
	check "$name --calls: each call inside its parent, whose path is its parent path" \
		test "$(q "$db" 'SELECT count(*) FROM calls c JOIN calls p ON p.id = c.parent_id WHERE c.parent_id > 0 AND (p.call_path_id != c.parent_call_path_id OR p.call_time > c.call_time OR p.return_time < c.return_time)')" -eq 0
	check "$name --calls: call and return times are their samples' times" \
		test "$(q "$db" 'SELECT count(*) FROM calls c JOIN samples a ON a.id = c.call_id JOIN samples b ON b.id = c.return_id WHERE c.id > 0 AND (a.time != c.call_time OR b.time != c.return_time)')" -eq 0
	check "$name --calls: a returned call is on no later sample's path at its return" \
		test "$(q "$db" 'SELECT count(*) FROM calls c JOIN samples b ON b.id = c.return_id WHERE c.flags = 0 AND c.id > 0 AND b.call_path_id = c.call_path_id')" -eq 0
done
db=$TMP/a-fp-calls.db
last=$(q "$db" "WITH RECURSIVE up(id, n) AS (SELECT call_path_id, 0 FROM samples WHERE id = (SELECT max(id) FROM samples) UNION ALL SELECT c.parent_id, n + 1 FROM call_paths c JOIN up ON c.id = up.id WHERE c.id > 1) SELECT max(n) FROM up")
check "a-fp --calls: open at the end = the last sample's $last frames" \
	test "$(q "$db" "SELECT count(*) FROM calls_view WHERE flags = 'no return'")" -eq "$last"

# pipe input from standard input
prism export sqlite -i - -o "$TMP/pipe.db" <"$F/c2-zstd-pipe.data" >/dev/null 2>&1
check "pipe on stdin: exits 0" test $? -eq 0
stats=$(prism stats -i - <"$F/c2-zstd-pipe.data" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
check "pipe on stdin: samples = prism stats ($stats)" \
	test "$(q "$TMP/pipe.db" 'SELECT count(*) FROM samples WHERE id > 0')" -eq "$stats"

# context switches: one row per SWITCH_CPU_WIDE record, in/out as the record says
db=$TMP/switch.db
prism export sqlite -i "$F/h-switch-cpu-wide.data" -o "$db" -q 2>/dev/null
n=$(prism stats -i "$F/h-switch-cpu-wide.data" 2>/dev/null | awk '$1 == "SWITCH_CPU_WIDE" { print $3; exit }')
check "switches: $n context_switches rows" \
	test "$(q "$db" 'SELECT count(*) FROM context_switches')" -eq "$n"
outs=$(prism script -D -i "$F/h-switch-cpu-wide.data" 2>/dev/null | grep -c 'PERF_RECORD_SWITCH_CPU_WIDE OUT')
check "switches: $outs out" \
	test "$(q "$db" "SELECT count(*) FROM context_switches_view WHERE flags LIKE 'out%'")" -eq "$outs"

# the compressed fixtures of another perf; one of them is cut short (prism
# stats fails on it): its export fails and leaves no file
for f in "$FIXTURES"/compressed/*.data; do
	name=$(basename "$f" .data)
	if ! prism stats -i "$f" >/dev/null 2>&1; then
		expect_exit 1 prism export sqlite -i "$f" -o "$TMP/c-$name.db" -q 2>/dev/null
		check "compressed/$name: damaged, no database left" test ! -e "$TMP/c-$name.db"
		check "compressed/$name: no temporary file left" \
			test -z "$(ls "$TMP" | grep "c-$name.db")"
		continue
	fi
	prism export sqlite -i "$f" -o "$TMP/c-$name.db" -q 2>/dev/null
	check "compressed/$name: exits 0" test $? -eq 0
	stats=$(prism stats -i "$f" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
	check "compressed/$name: samples = prism stats ($stats)" \
		test "$(q "$TMP/c-$name.db" 'SELECT count(*) FROM samples WHERE id > 0')" -eq "${stats:-0}"
done
done_testing
