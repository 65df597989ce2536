#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/tools/perfdata-pt.py writes files perf 6.1 decodes into the branches
# pt-loop's code takes: perf script --itrace=b shows, per run of pt_loop(N),
# the trace start, a call and a return per iteration, the jz taken on even
# counts, the jnz taken on all but the last, the indirect call, its return
# and pt_loop's return that ends the trace; per thread and per CPU (with the
# switch side-band naming the threads), with and without TSC.  This proves
# the files the other t10xx tests compare prism with perf on.
. tests/e2e/lib.sh
require_pt_files

branches() { # the branches of one run of pt_loop($1)
	local n=$1 i c=4
	for ((i = n; i > 0; i--)); do
		c=$((c + 2 + (i % 2 == 0) + (i != 1)))
	done
	echo "$c"
}

for n in 1 3 8 25; do
	for t in "" "--no-tsc"; do
		# shellcheck disable=SC2086
		$GEN --loops $n $t "$WL" "$TMP/a.data"
		perf script -i "$TMP/a.data" --itrace=b -F +flags >"$TMP/out" 2>"$TMP/err"
		check "loops $n $t: perf decodes $(branches "$n") branches" \
			test "$(wc -l <"$TMP/out")" -eq "$(branches "$n")"
		check "loops $n $t: no decoding error" test "$(grep -c 'error' "$TMP/err")" -eq 0
		check "loops $n $t: the last is pt_loop's return into main" \
			grep -q 'tr end  return .*pt_loop+0x20 .*main+' <(tail -1 "$TMP/out")
		check "loops $n $t: $n calls of pt_leaf from the loop" \
			test "$(grep -c 'call .*pt_loop+0x5 .*pt_leaf+0x0' "$TMP/out")" -eq "$n"
	done
done

$GEN --per-cpu --loops 4 "$WL" "$TMP/pc.data"
perf script -i "$TMP/pc.data" --itrace=b -F +flags,+cpu >"$TMP/out" 2>"$TMP/err"
check "per-cpu: thread 4343 on CPU 0: pt_loop(4)" \
	test "$(grep -c ' 4343 \[000\] ' "$TMP/out")" -eq "$(branches 4)"
check "per-cpu: thread 4344 on CPU 0: pt_loop(5)" \
	test "$(grep -c ' 4344 \[000\] ' "$TMP/out")" -eq "$(branches 5)"
check "per-cpu: thread 4344 on CPU 1: pt_loop(6)" \
	test "$(grep -c ' 4344 \[001\] ' "$TMP/out")" -eq "$(branches 6)"

$GEN --loops 12 --ovf 3 "$WL" "$TMP/ovf.data"
perf script -i "$TMP/ovf.data" --itrace=be >"$TMP/out" 2>&1
check "ovf: perf reports the overflow" grep -q 'code 7: Overflow packet' "$TMP/out"
$GEN --loops 12 --truncated "$WL" "$TMP/tr.data"
perf report -D -i "$TMP/tr.data" >"$TMP/out" 2>&1
check "truncated: the AUX record is flagged" grep -q 'flags: 0x1 \[T\]' "$TMP/out"
done_testing
