#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export sqlite --util: util_tasks and util_calls hold prism util
# --csv's row and call records with the same numbers (the CSV rebuilt from
# the tables by a query equals prism util --csv, line for line), on the
# tracepoint fixtures; and the offcpu table of a prism offcpu record file
# (recorded here when BPF works: state, blocks and off-CPU time per sample,
# their sum equal to the samples' periods).
. tests/e2e/lib.sh
require_export sqlite

F=$FIXTURES/perf-6.1
q() { sqlite3 "$1" "$2"; }
# prism util --csv's lines rebuilt from the tables (Python formats the
# doubles: SQLite's printf rounds halves its own way)
tocsv() { # DB
	python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def f6(v): return "" if v is None else "%.6f" % v
def n(v): return "" if v is None else str(v)
for r in db.execute("SELECT scope, pid, tid, image, comm, cpu, user_ms, sys_ms, irq_ms, "
                    "softirq_ms, hv_ms, busy_ms, idle_ms, wait_ms, sleep_ms, util_pct, moves, "
                    "wakeups, wakeup_avg_ms, wakeup_max_ms, inferred_ms, steal_ms "
                    "FROM util_tasks WHERE id > 0 ORDER BY id"):
    print(",".join(["row", r[0], n(r[1]), n(r[2]), n(r[3]), n(r[4]),
                    "ALL" if r[5] == -1 else str(r[5])] + [f6(v) for v in r[6:15]] +
                   ["%.2f" % r[15], n(r[16]), n(r[17])] + [f6(v) for v in r[18:22]]))
for r in db.execute("SELECT scope, pid, tid, image, kind, call_id, name, count, elapsed_ms, "
                    "pending_ms, average_ms, minimum_ms, maximum_ms, oncpu_ms, pending_start, "
                    "pending_end, inherited, unmatched_exits, duplicate_exits FROM util_calls "
                    "ORDER BY id"):
    print(",".join(["call"] + [n(v) for v in r[:8]] + [f6(v) for v in r[8:14]] +
                   [n(v) for v in r[14:]]))
PY
}

for name in p-sched g-syscalls-group f-sched-tp q-trace h-switch-cpu-wide; do
	db=$TMP/$name.db
	prism export sqlite --util -i "$F/$name.data" -o "$db" -q 2>/dev/null
	check "$name: export --util exits 0" test $? -eq 0
	prism util --csv -i "$F/$name.data" 2>/dev/null >"$TMP/$name.csv"
	grep '^row,' "$TMP/$name.csv" >"$TMP/$name.rows"
	grep '^call,' "$TMP/$name.csv" | grep -v '^call,scope,' >"$TMP/$name.calls"
	tocsv "$db" >"$TMP/$name.sql"
	grep '^row,' "$TMP/$name.sql" >"$TMP/$name.sql-rows"
	grep '^call,' "$TMP/$name.sql" >"$TMP/$name.sql-calls"
	check "$name: util_tasks = prism util --csv's $(wc -l <"$TMP/$name.rows") row records" \
		test_cmp "$TMP/$name.rows" "$TMP/$name.sql-rows"
	check "$name: util_calls = its $(wc -l <"$TMP/$name.calls") call records" \
		test_cmp "$TMP/$name.calls" "$TMP/$name.sql-calls"
done
# a query over util_calls: the syscall count of g-syscalls-group's workload (ls)
calls=$(q "$TMP/g-syscalls-group.db" "SELECT sum(count) FROM util_calls WHERE scope = 'system' AND kind = 'syscall'")
check "g-syscalls-group: the system's syscalls counted ($calls)" test "${calls:-0}" -gt 0
expect_exit 129 prism export sqlite --util -i - -o "$TMP/x.db" <"$F/d-pipe.data" 2>/dev/null
check "--util from a pipe: no database" test ! -e "$TMP/x.db"

# off-CPU: a prism offcpu record file (BPF), when this machine can record one
if [ "$(id -u)" -eq 0 ] && prism version --build-options | grep -q 'bpf: \[ on'; then
	if prism record --off-cpu -o "$TMP/off.data" -- sh -c 'sleep 0.2; sleep 0.1' \
		>/dev/null 2>"$TMP/off.err"; then
		db=$TMP/off.db
		prism export sqlite -i "$TMP/off.data" -o "$db" -q 2>/dev/null
		check "offcpu: export exits 0" test $? -eq 0
		n=$(q "$db" 'SELECT count(*) FROM offcpu')
		check "offcpu: rows ($n)" test "$n" -gt 0
		check "offcpu: off_cpu_ns is each sample's period" \
			test "$(q "$db" 'SELECT count(*) FROM offcpu o JOIN samples s ON s.id = o.sample_id WHERE s.period != o.off_cpu_ns')" -eq 0
		check "offcpu: the sleeps are in state S" \
			test "$(q "$db" "SELECT count(*) FROM offcpu_view WHERE command = 'sleep' AND state = 'S' AND off_cpu_ns >= 50000000")" -ge 2
		check "offcpu: the blocks have call paths" \
			test "$(q "$db" 'SELECT count(*) FROM offcpu WHERE call_path_id > 0')" -gt 0
	else
		echo "note: offcpu record failed here, no off-CPU check: $(tail -1 "$TMP/off.err")" >&3
	fi
else
	echo "note: off-CPU recording needs root and BPF, not checked" >&3
fi
done_testing
