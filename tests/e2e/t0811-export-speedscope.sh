#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export speedscope on perf 6.1's fixtures: the file passes checks
# written from speedscope's file format spec (tests/tools/speedscope-check.py),
# holds every sample of the event (prism script's count) with the event
# count as total weight, one profile per thread with that thread's samples,
# and each named function's self and total share equal prism report's.
. tests/e2e/lib.sh
require_fixtures
require_cmd python3
F=$FIXTURES/perf-6.1
S=$TMP/symfs
mkdir -p "$S/tmp"
cp "$F/perfdata-workload.bin" "$S/tmp/perfdata-workload"

compare() {
	local name=$1 ev=$2 empty=
	shift 2
	# samples all in kernel code this machine cannot name: no named row
	[ "$name" = h-switch ] && empty=--may-be-empty
	prism export speedscope "$@" --symfs "$S" -e "$ev" -o "$TMP/$name.json" \
		>/dev/null 2>"$TMP/$name.err"
	rc=$?
	check "$name: export exits 0 ($(head -c 300 "$TMP/$name.err"))" test $rc -eq 0
	grep_q "^wrote '$TMP/$name.json': [0-9]+ samples of '$ev' in [0-9]+ thread profiles" \
		"$TMP/$name.err"
	python3 tests/tools/speedscope-check.py "$TMP/$name.json" >"$TMP/$name.sum" \
		2>"$TMP/$name.chk"
	rc=$?
	check "$name: follows the speedscope format: $(head -c 400 "$TMP/$name.chk")" test $rc -eq 0
	prism report "$@" --symfs "$S" -e "$ev" --sort sym -g none >"$TMP/$name.rep" 2>/dev/null
	python3 tests/tools/pprof-vs-report.py "$TMP/$name.rep" "$TMP/$name.sum" $empty \
		>"$TMP/$name.cmp" 2>&1
	rc=$?
	check "$name: shares = prism report: $(tr '\n' ';' <"$TMP/$name.cmp" | head -c 600)" \
		test $rc -eq 0
	prism script "$@" -F tid,event 2>/dev/null | grep " $ev: *\$" |
		awk '{ n[$1]++ } END { for (t in n) print t, n[t] }' | sort >"$TMP/$name.want"
	sed -n 's/^profile .*\/\([0-9]*\)) \([0-9]*\)$/\1 \2/p' "$TMP/$name.sum" | sort \
		>"$TMP/$name.got"
	check "$name: a profile per thread with its samples ($(wc -l <"$TMP/$name.want") threads)" \
		cmp -s "$TMP/$name.want" "$TMP/$name.got"
	want_n=$(awk '{ s += $2 } END { print s + 0 }' "$TMP/$name.want")
	grep_q "^samples $want_n\$" "$TMP/$name.sum"
	want_p=$(sed -n 's/^# Event count (approx.): \([0-9]*\)$/\1/p' "$TMP/$name.rep" | head -1)
	grep_q "^weight $want_p\$" "$TMP/$name.sum"
}

compare a-fp cpu-clock -i "$F/a-fp.data"
compare b-dwarf cpu-clock -i "$F/b-dwarf.data"
compare c-zstd cpu-clock -i "$F/c-zstd.data"
compare h-switch cpu-clock -i "$F/h-switch-cpu-wide.data"
compare e-task task-clock -i "$F/e-two-events.data"
compare d-pipe cpu-clock -i - <"$F/d-pipe.data"
grep_q '"unit":"nanoseconds"' "$TMP/a-fp.json"
# a tracepoint's period is no time
prism export speedscope -i "$F/f-sched-tp.data" -o "$TMP/tp.json" 2>/dev/null
rc=$?
check "tracepoint export exits 0" test $rc -eq 0
grep_q '"unit":"none"' "$TMP/tp.json"

# the checker itself rejects what breaks the format
python3 - "$TMP/a-fp.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['profiles'][0]['weights'].pop()
json.dump(d, open(sys.argv[2], 'w'))
PY
python3 tests/tools/speedscope-check.py "$TMP/bad.json" >/dev/null 2>&1
check "the checker rejects samples and weights of different lengths" test $? -eq 1

expect_exit 1 prism export speedscope -i "$TMP/none.data" -o "$TMP/x.json"
check "no output after a failed export" test ! -e "$TMP/x.json"
expect_exit 129 prism export speedscope -i "$F/a-fp.data"
prism export speedscope -i - -o - <"$F/d-pipe.data" 2>/dev/null | python3 -m json.tool >/dev/null
rc=$?
check "pipe in, JSON out on standard output" test $rc -eq 0
done_testing
