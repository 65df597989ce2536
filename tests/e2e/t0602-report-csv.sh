#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report --csv-dir: readperf's four tables.
. tests/e2e/lib.sh
require_fixtures

F=$FIXTURES/perf-6.1
MAP=(--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin")

prism report -i "$F/a-fp.data" "${MAP[@]}" --csv-dir "$TMP/csv" >"$TMP/out" 2>/dev/null
check "exit 0" test $? -eq 0
for t in stat overview processes results; do
	check "$t.csv written" test -s "$TMP/csv/$t.csv"
done
check "no report on stdout without --stdio" test ! -s "$TMP/out"

# stat.csv is prism stats --csv with a header
prism stats -i "$F/a-fp.data" --csv >"$TMP/stats.csv"
tail -n +2 "$TMP/csv/stat.csv" >"$TMP/stat-body.csv"
grep -v '^type,' "$TMP/stats.csv" >"$TMP/stats-body.csv"
test_cmp "$TMP/stats-body.csv" "$TMP/stat-body.csv"

# overview.csv: one line per record (the stat counts), in time order
records=$(awk -F, 'NR > 1 { n += $3 } END { print n }' "$TMP/csv/stat.csv")
check "overview.csv: one line per record ($records)" \
	test "$(($(wc -l <"$TMP/csv/overview.csv") - 1))" -eq "$records"
check "overview.csv: 246 SAMPLE lines" test "$(grep -c ',SAMPLE,' "$TMP/csv/overview.csv")" -eq 246
check "overview.csv: times never go back" awk -F, 'NR > 1 && $5 != "" { if ($5 + 0 < last) exit 1; last = $5 + 0 }' "$TMP/csv/overview.csv"

# processes.csv: the workload with its 246 samples and their period
grep_q '^perfdata-worklo,14567,[0-9]+,[0-9]+,[0-9]+,246,246246246$' "$TMP/csv/processes.csv"
# results.csv: function, source file (DWARF), samples, period
grep_q '^leaf_a,[^,]*workload\.c,128,128128128,perfdata-workload,cpu-clock$' "$TMP/csv/results.csv"
grep_q '^leaf_b,[^,]*workload\.c,116,116116116,' "$TMP/csv/results.csv"
check "results.csv: samples add up to 246" \
	test "$(awk -F, 'NR > 1 { n += $3 } END { print n }' "$TMP/csv/results.csv")" -eq 246

# --stdio together with --csv-dir prints the report too
prism report -i "$F/a-fp.data" "${MAP[@]}" --csv-dir "$TMP/csv2" --stdio 2>/dev/null | grep -q leaf_a
check "--csv-dir --stdio also prints the report" test $? -eq 0
expect_exit 1 prism report -i "$F/a-fp.data" --csv-dir /proc/no/such/dir
done_testing
