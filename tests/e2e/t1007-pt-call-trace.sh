#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --call-trace, --call-ret-trace and -F +callindent (a branch's
# function indented by the thread's call depth, perf's spacing) against perf
# 6.1, line for line, on synthesized Intel PT files (pt_loop and pt_calls:
# recursion, a return past its caller, a call at a trace end), with perf's
# psb and cbr lines (its --call-trace asks for 'p').  Not compared: where a
# trace starts again without a timing packet (the --calls files), the
# nanoseconds below the microsecond (perf estimates that time from the
# instructions since the last TSC).
. tests/e2e/lib.sh
require_pt_files

us() { sed 's/\( [0-9]*\.[0-9]\{6\}\)[0-9]\{3\}: /\1: /' "$1"; }

for c in "plain:--loops 6" "ovf:--loops 14 --ovf 4 --tsc-every 2" "notsc:--no-tsc --loops 5" \
	"percpu:--per-cpu --loops 4" "thread2:--thread2 --loops 4" "error:--error --loops 2" \
	"c3:--calls 3" "c40:--calls 40 --tsc-every 1" "cpc:--calls 4 --per-cpu"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	cut=cat
	[ "${name#c}" != "$name" ] && cut=us
	for o in --call-trace --call-ret-trace "--itrace=cr -F +callindent" \
		"--itrace=i1ibe -F +callindent,+flags" "--itrace=b -F +flags,+callindent"; do
		# shellcheck disable=SC2086
		perf script -i "$TMP/$name.data" $o >"$TMP/perf.txt" 2>/dev/null
		# shellcheck disable=SC2086
		prism script -i "$TMP/$name.data" $o >"$TMP/prism.txt" 2>"$TMP/err"
		check "$name $o: prism exits 0" test $? -eq 0
		check "$name $o: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s <($cut "$TMP/perf.txt") <($cut "$TMP/prism.txt")
		diff <($cut "$TMP/perf.txt") <($cut "$TMP/prism.txt") | head -4 >&3
	done
done

# an interrupt into kernel code (hw int, iret) and back
mkdir -p "$TMP/k"
$GEN --kernel --loops 6 --kcore-dir "$TMP/k/kcore_dir" "$WL" "$TMP/k/data" || fail "the generator failed (--kernel)"
for o in --call-trace --call-ret-trace; do
	perf script -i "$TMP/k" $o 2>/dev/null | us /dev/stdin >"$TMP/perf.txt"
	prism script -i "$TMP/k" $o | us /dev/stdin >"$TMP/prism.txt"
	check "kernel $o: the $(wc -l <"$TMP/perf.txt") lines equal perf's" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
done
check "kernel: prism_kleaf called at depth 2" grep -q $'call .*(\[kernel.kallsyms\])\t        prism_kleaf ' "$TMP/prism.txt"

# the depths: pt_rec called 41 times (4 columns a level), its returns at the same depths
prism script -i "$TMP/c40.data" --call-ret-trace >"$TMP/out"
check "c40: the deepest call of pt_rec at depth 41" \
	grep -q $'\t'"$(printf '%164s' '')pt_rec " "$TMP/out"
check "c40: 41 calls and 41 returns of pt_rec" \
	test "$(grep -c 'call .*pt_rec \| return .*pt_rec ' "$TMP/out")" -eq 82
check "c40: the return past pt_mid at depth 1" grep -q $'return .*)\t    pt_jump ' "$TMP/out"
check "c40: the call at the trace end at depth 1" grep -q $'tr end  call .*)\t    pt_leaf ' "$TMP/out"
check "c40: the restart at its return address at depth 0" grep -q $'tr strt .*)\tpt_calls ' "$TMP/out"
check "--call-trace: the DSO padded to 50 columns" \
	grep -q '(.\{50\})'$'\t' <(prism script -i "$TMP/plain.data" --call-trace)

expect_exit 129 prism script -i "$TMP/plain.data" --call-trace --call-ret-trace
expect_exit 129 prism script -i "$TMP/plain.data" --call-trace --itrace=b
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F +callindent,ip
check "--call-trace with --json: refused with the reason" \
	grep -q 'not --csv, --json or -D' <(prism script -i "$TMP/plain.data" --call-trace --json 2>&1)
done_testing
