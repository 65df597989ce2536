#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism stats: per-type record counts equal perf's own count ("Aggregated
# stats" of perf report -D, NAME.record-types.txt) for every perf 6.1 fixture.
. tests/e2e/lib.sh
require_fixtures

for f in "$FIXTURES"/perf-6.1/*.data; do
	name=$(basename "$f" .data)
	want=$FIXTURES/perf-6.1/$name.record-types.txt
	[ -f "$want" ] || continue
	prism stats --no-summary -i "$f" >"$TMP/$name.stats" 2>"$TMP/$name.err"
	test_cmp "$want" "$TMP/$name.stats"
	check "$name: no warnings" test ! -s "$TMP/$name.err"
done

# the compressed files of a newer perf (perf 6.1 cannot read most of them):
# every record decodes and the data is consumed to its last byte.  One pipe
# file ends with perf's own stderr text ("[ perf record: Woken up ...") that
# was captured into it: there prism must stop with an error naming the offset.
for f in "$FIXTURES"/compressed/*.data; do
	name=$(basename "$f" .data)
	if prism stats -i "$f" >"$TMP/$name.stats" 2>"$TMP/$name.err"; then
		check "$name: no warnings" test ! -s "$TMP/$name.err"
		grep_q '^ +SAMPLE events: +[1-9]' "$TMP/$name.stats"
	else
		grep_q "record at file offset 0x[0-9a-f]+: record of [0-9]+ bytes runs past the end" "$TMP/$name.err"
		check "$name: the junk is perf's stderr text" grep -aq 'perf record: Woken up' "$f"
	fi
done
# The file and pipe fixtures are separate recordings of the same command (see
# their README: even the event modifiers differ), so their samples differ:
# both variants must decode to samples.
for base in sleep.compressed sleep.compressed2; do
	prism script -i "$FIXTURES/compressed/$base.data" -F event >"$TMP/file.txt"
	prism script -i - -F event <"$FIXTURES/compressed/$base.pipe.data" >"$TMP/pipe.txt" 2>/dev/null
	check "$base: file has samples" test -s "$TMP/file.txt"
	check "$base: pipe has samples" test -s "$TMP/pipe.txt"
done
done_testing
