#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Directory-format perf.data (perf record --threads: PATH/data plus raw
# streams PATH/data.N, with -z one zstd stream per file): per-type counts equal
# perf report --stats, sample lines equal perf script's, and a damaged stream
# is named in the error.
. tests/e2e/lib.sh
require_perf

for d in tests/data/dir/threads.data tests/data/dir/threads-zstd.data; do
	name=$(basename "$d" .data)
	perf report --stats -i "$d" 2>/dev/null | sed -n '/^Aggregated stats/,$p' |
		grep -v '^ *$' >"$TMP/$name.perf-stats"
	prism stats --no-summary -i "$d" 2>"$TMP/$name.err" | grep -v '^ *$' >"$TMP/$name.stats"
	test_cmp "$TMP/$name.perf-stats" "$TMP/$name.stats"
	check "$name: no warnings" test ! -s "$TMP/$name.err"
	perf script -i "$d" -F comm,tid,cpu,time,event,period,ip >"$TMP/$name.perf" 2>/dev/null
	prism script -i "$d" -F comm,tid,cpu,time,event,period,ip >"$TMP/$name.prism"
	check "$name: perf printed samples" test -s "$TMP/$name.perf"
	test_cmp "$TMP/$name.perf" "$TMP/$name.prism"
	grep_q 'data files +: 2' <(prism stats -i "$d")
done

# a stream cut in the middle of a record: everything before is delivered,
# then the error names the stream file and its offset
cp -r tests/data/dir/threads.data "$TMP/cut.data"
size=$(stat -c %s "$TMP/cut.data/data.0")
truncate -s $((size - 5)) "$TMP/cut.data/data.0"
expect_exit 1 prism stats -i "$TMP/cut.data" >/dev/null 2>"$TMP/stderr"
grep_q "cut.data/data.0': record at offset 0x[0-9a-f]+: record of [0-9]+ bytes runs past the end" "$TMP/stderr"
done_testing
