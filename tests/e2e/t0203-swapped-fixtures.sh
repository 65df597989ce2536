#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Opposite-endian files: fixtures converted to big endian by
# tests/tools/perfdata-swap.py decode to the same stats, script and util
# output as the originals.
. tests/e2e/lib.sh
require_fixtures
require_cmd python3 "apt-get install python3"

for f in "$FIXTURES"/perf-6.1/*.data "$FIXTURES"/compressed/sleep.data; do
	name=$(basename "$f" .data)
	sw=$TMP/$name.swapped.data
	if ! python3 tests/tools/perfdata-swap.py "$f" "$sw" 2>"$TMP/conv.err"; then
		cat "$TMP/conv.err"
		fail "$name: converter failed"
		continue
	fi
	flds=comm,tid,pid,time,event,period,ip
	case $name in f-sched* | g-sys* | p-sched | q-trace | r-lost) flds=$flds,cpu,trace ;; esac
	in=(-i "$f")
	sin=(-i "$sw")
	case $name in *pipe*) in=(-i -) sin=(-i -) ;; esac
	prism script "${in[@]}" -F "$flds" <"$f" >"$TMP/a.txt" 2>&1
	prism script "${sin[@]}" -F "$flds" <"$sw" >"$TMP/b.txt" 2>&1
	test_cmp "$TMP/a.txt" "$TMP/b.txt"
	prism stats --no-summary "${in[@]}" <"$f" >"$TMP/a.txt" 2>&1
	prism stats --no-summary "${sin[@]}" <"$sw" >"$TMP/b.txt" 2>&1
	test_cmp "$TMP/a.txt" "$TMP/b.txt"
	# util takes samples of the other byte order through the full parse
	prism util "${in[@]}" <"$f" >"$TMP/a.txt" 2>/dev/null
	prism util "${sin[@]}" <"$sw" >"$TMP/b.txt" 2>/dev/null
	test_cmp "$TMP/a.txt" "$TMP/b.txt"
done
done_testing
