#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script's instruction fields of Intel PT samples against perf 6.1,
# line for line, on synthesized files (tests/tools/perfdata-pt.py): -F +insn
# (the instruction's bytes), +insnlen, with +flags and -event/-period, on
# branches and instructions (every one and periods), per thread and per CPU,
# with an overflow, without TSC; --insn-trace (perf: --itrace=i0ns -F
# +insn,-event,-period, times in ns); the branch target left out as perf
# does once -F changes more than flags; bad -F fields and --insn-trace values
# refused with the offending word.
. tests/e2e/lib.sh
require_pt_files

for c in "plain:--loops 6" "ovf:--loops 14 --ovf 4 --tsc-every 2" "notsc:--no-tsc --loops 5" \
	"percpu:--per-cpu --loops 4" "thread2:--thread2 --loops 4 --tsc-every 1"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for a in "--itrace=i1i -F +insn" "--itrace=b -F +insn" "--itrace=be -F +flags,+insn" \
		"--itrace=i3ib -F +insnlen,+insn" "--itrace=b -F +flags,-period" \
		"--itrace=i1i -F -event,+insn" "--itrace=c -F +insnlen" "--insn-trace" \
		"--insn-trace=raw -F +flags"; do
		# shellcheck disable=SC2086
		perf script -i "$TMP/$name.data" $a >"$TMP/perf.txt" 2>/dev/null
		# shellcheck disable=SC2086
		prism script -i "$TMP/$name.data" $a >"$TMP/prism.txt" 2>"$TMP/err"
		check "$name $a: prism exits 0" test $? -eq 0
		check "$name $a: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
		diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
	done
done
# not empty: the bytes the workload's source names (pt-loop.c)
prism script -i "$TMP/plain.data" --itrace=i1i -F +insn >"$TMP/out"
check "call pt_leaf: e8 rel32" grep -q 'pt_loop+0x5 .* insn: e8 f2 ff ff ff$' "$TMP/out"
check "jnz: 75 ed" grep -q 'pt_loop+0x14 .* insn: 75 ed$' "$TMP/out"
check "pt_leaf's ret: c3" grep -q 'pt_leaf+0x3 .* insn: c3$' "$TMP/out"
prism script -i "$TMP/plain.data" --insn-trace >"$TMP/out"
check "--insn-trace: one line per instruction" test "$(wc -l <"$TMP/out")" -eq \
	"$(prism script -i "$TMP/plain.data" --itrace=i1i | wc -l)"
check "--insn-trace: times in ns, no event name" \
	grep -qE '^ +pt-loop +4343 +[0-9]+\.[0-9]{9}: +55555555513d pt_loop\+0x0 .* insn: 53$' "$TMP/out"
prism script -i "$TMP/plain.data" --itrace=b -F +insn >"$TMP/out"
check "-F +insn: no branch target (as perf 6.1)" test "$(grep -c '=>' "$TMP/out")" -eq 0
prism script -i "$TMP/plain.data" --itrace=b -F +flags >"$TMP/out"
check "-F +flags: the branch target" test "$(grep -c '=>' "$TMP/out")" -gt 10

# what is not a field of these samples, and bad --insn-trace values
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F +insn,+brstackinsn
check "a bad field is named" grep -q "'brstackinsn'" <(prism script -i "$TMP/plain.data" --itrace=b \
	-F +insn,+brstackinsn 2>&1)
expect_exit 129 prism script -i "$TMP/plain.data" --insn-trace=xed
check "a bad --insn-trace value is named" grep -q 'xed' <(prism script -i "$TMP/plain.data" \
	--insn-trace=xed 2>&1)
expect_exit 129 prism script -i "$TMP/plain.data" --insn-trace --itrace=b
expect_exit 129 prism script -i "$TMP/plain.data" --insn-trace -M masm
done_testing
