#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script -D in perf report -D's layout, on every perf 6.1 fixture
# against perf report -D on the same file: the records' dump headers
# ("OFFSET@FILE [SIZE]: event: TYPE", "@pipe" for pipes, a compressed
# record's contents at the COMPRESSED record's offset) and their decoded
# lines ("CPU TIME OFFSET [SIZE]: PERF_RECORD_X fields": samples with their
# call chains, MMAP/MMAP2, COMM, FORK/EXIT, LOST, LOST_SAMPLES, SWITCH,
# ID_INDEX, THREAD_MAP, EVENT_UPDATE) are the same, compared as sorted
# lists: perf prints a record's decoded line when it delivers it in time
# order, prism right after its dump.
. tests/e2e/lib.sh
command -v perf >/dev/null || skip "perf is not installed"
[ -d "$FIXTURES/perf-6.1" ] || skip "no fixtures in $FIXTURES"
cd "$FIXTURES/perf-6.1" || exit 1
re='PERF_RECORD_(MMAP|MMAP2|COMM|FORK|EXIT|SAMPLE|LOST|LOST_SAMPLES|SWITCH|SWITCH_CPU_WIDE|ID_INDEX|THREAD_MAP|FINISHED_INIT|EVENT_UPDATE)\b|^ \.\.\. id:|^\.\.\. (id|unit|scale|name):|^\.\.\.\.\. *[0-9]+: |^\.\.\. FP chain'
n=0
for f in *.data; do
	perf report -D -i "$f" >"$TMP/perf.txt" 2>/dev/null || continue
	prism script -D -i "$f" >"$TMP/prism.txt" 2>"$TMP/prism.err"
	check "$f: prism script -D exits 0" test $? -eq 0
	grep '@.* event: ' "$TMP/perf.txt" | sort >"$TMP/h1"
	grep '@.* event: ' "$TMP/prism.txt" | sort >"$TMP/h2"
	check "$f: the records' dump headers equal perf's ($(wc -l <"$TMP/h1"))" cmp -s "$TMP/h1" "$TMP/h2"
	grep -E "$re" "$TMP/perf.txt" | sort >"$TMP/d1"
	grep -E "$re" "$TMP/prism.txt" | sort >"$TMP/d2"
	check "$f: the decoded lines equal perf's ($(wc -l <"$TMP/d1"))" cmp -s "$TMP/d1" "$TMP/d2"
	cmp -s "$TMP/d1" "$TMP/d2" || diff "$TMP/d1" "$TMP/d2" | head -5 >&3
	n=$((n + 1))
done
check "perf read some fixtures ($n)" test "$n" -gt 10
done_testing
