#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The record side of Intel PT without the hardware: tests/helper/aux-replay
# plays the trace of a generated file (tests/tools/perfdata-pt.py) into a
# memory AUX area as the hardware would write it, reads it with prism's AUX
# ring reader (lib/record/aux-ring.c, the code prism record runs) and writes
# its AUXTRACE records and the generator's side-band with prism's writer
# (AUXTRACE_INFO parsed and written again by prism's, the recorder's, code).
# perf 6.1 decodes that file into the same branches as the generator's own:
# one piece per queue, a snapshot, and pieces wrapped around a small area.
# perf 6.1 mis-decodes some traces split in pieces (t1002): on those, and on
# every other area/write size, per thread and per CPU, with an overflow, in
# pipe mode, prism script on the replayed file prints what perf prints on
# the generator's file.  The AUXTRACE records say what perf's say: offsets
# that follow each other per queue, sizes padded to 8, the AUXTRACE index.
. tests/e2e/lib.sh
require_pt_files
replay=$PRISM_BUILD/tests/helper/aux-replay
[ -x "$replay" ] || skip "$replay is not built (make test-bins)"

# perf on the generator's file = perf on the replayed file
for c in "one:--loops 25|--area 4096 --write 4096" \
	"wrap:--loops 25|--area 64 --write 24 --reads 2" \
	"wrap-notsc:--loops 200 --no-tsc|--area 128 --write 40 --reads 1" \
	"thread2:--thread2 --loops 5|--area 128 --write 40 --reads 1" \
	"snapshot:--loops 12 --tsc-every 2|--area 8192 --write 16 --snapshot" \
	"percpu:--per-cpu --loops 7|--area 4096 --write 4096" \
	"percpu-snap:--per-cpu --loops 30 --tsc-every 3|--area 16384 --write 40 --snapshot" \
	"ovf:--loops 9 --ovf 3 --tsc-every 2|--area 8192 --write 16 --snapshot"; do
	name=${c%%:*} spec=${c#*:}
	gen=${spec%|*} rep=${spec#*|}
	# shellcheck disable=SC2086
	$GEN $gen "$WL" "$TMP/$name.gen.data"
	# shellcheck disable=SC2086
	"$replay" $rep "$TMP/$name.gen.data" "$TMP/$name.rec.data" 2>"$TMP/err"
	check "$name: replayed" test $? -eq 0
	perf script -i "$TMP/$name.gen.data" --itrace=be -F +flags >"$TMP/gen.txt" 2>/dev/null
	perf script -i "$TMP/$name.rec.data" --itrace=be -F +flags >"$TMP/rec.txt" 2>/dev/null
	check "$name: perf decodes branches ($(wc -l <"$TMP/gen.txt"))" test -s "$TMP/gen.txt"
	check "$name: perf script --itrace=be the same on both files" \
		cmp -s "$TMP/gen.txt" "$TMP/rec.txt"
done

# prism on the replayed file = perf on the generator's, whatever the pieces
for gen in "--loops 25" "--loops 200 --no-tsc" "--per-cpu --loops 30 --tsc-every 3" \
	"--thread2 --loops 5" "--loops 9 --ovf 3 --tsc-every 2"; do
	# shellcheck disable=SC2086
	$GEN $gen "$WL" "$TMP/g.data"
	perf script -i "$TMP/g.data" --itrace=be -F +flags >"$TMP/gen.txt" 2>/dev/null
	for rep in "--area 64 --write 24 --reads 2" "--area 64 --write 8 --reads 3" \
		"--area 128 --write 40 --reads 1" "--area 256 --write 56 --reads 5" \
		"--area 8192 --write 16 --snapshot" "--area 64 --write 24 --pipe"; do
		# shellcheck disable=SC2086
		"$replay" $rep "$TMP/g.data" "$TMP/r.data"
		prism script -i "$TMP/r.data" --itrace=be -F +flags >"$TMP/rec.txt" 2>/dev/null
		check "$gen | $rep: prism on the replayed file = perf on the generator's" \
			cmp -s "$TMP/gen.txt" "$TMP/rec.txt"
	done
done

# the records: offsets follow each other, sizes are padded, idx/tid/cpu as perf's
$GEN --per-cpu --loops 30 --tsc-every 3 "$WL" "$TMP/g.data"
"$replay" --area 64 --write 24 --reads 2 "$TMP/g.data" "$TMP/r.data"
perf report -D -i "$TMP/r.data" 2>/dev/null | grep 'PERF_RECORD_AUXTRACE ' >"$TMP/recs"
info() { perf report -D -i "$1" 2>/dev/null | sed -n '/PERF_RECORD_AUXTRACE_INFO/,/^$/p'; }
check "AUXTRACE_INFO written again: perf shows the same fields" \
	cmp -s <(info "$TMP/g.data") <(info "$TMP/r.data")
check "AUXTRACE_INFO: perf shows its Intel PT fields" grep -q 'Max non-turbo ratio' <(info "$TMP/r.data")
check "pieces: several AUXTRACE records per queue" test "$(grep -c 'idx: 1 ' "$TMP/recs")" -gt 3
# each queue's next offset is the previous one's offset + size; sizes multiples of 8
follow() {
	local -A next=()
	local line s o q
	while read -r line; do
		s=$(sed -n 's/.*size: \(0x[0-9a-f]*\).*/\1/p' <<<"$line")
		o=$(sed -n 's/.*offset: \(0x[0-9a-f]*\|0\) .*/\1/p' <<<"$line")
		q=$(sed -n 's/.*idx: \([0-9]*\) .*/\1/p' <<<"$line")
		[ -n "$s" ] && [ -n "$o" ] && [ -n "$q" ] || return 1
		((s % 8 == 0)) || return 1
		[ -z "${next[$q]:-}" ] || ((next[$q] == o)) || return 1
		next[$q]=$((o + s))
	done <"$1"
}
check "pieces: offsets follow each other in each queue, sizes multiples of 8" follow "$TMP/recs"
check "pieces: per CPU: tid -1, cpu = idx" \
	test "$(grep -c 'idx: 1  tid: -1  cpu: 1' "$TMP/recs")" -eq "$(grep -c 'idx: 1 ' "$TMP/recs")"
check "pieces: perf finds the AUXTRACE index in the header" \
	grep -q 'contains AUX area data' <(perf report --header-only -i "$TMP/r.data" 2>/dev/null)
"$replay" --area 48 "$TMP/g.data" "$TMP/bad.data" 2>"$TMP/err"
check "an area that is not a power of two is refused" test $? -ne 0
done_testing
