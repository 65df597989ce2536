#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report --itrace with what it used to refuse, against perf 6.1's
# perf report --itrace --stdio (rows of one percentage in one order: perf's
# order of ties is its own):
# - l with x, p or w: the branch report of every section, each sample's
#   branch stack (the transactions', ptwrites' and power events' too, as
#   perf's); a sample without branches (a psb at the trace's start) adds no
#   row, and a section with none is not shown, as perf's; per thread and per
#   CPU, with missing code, the kernel, an overflow;
# - d: the same report, and ./intel_pt.log as prism script writes it for the
#   same --itrace (each AUXTRACE record's packets, the decoding errors).
. tests/e2e/lib.sh
require_pt_files

miss="--map-path /nonexistent/pt-loop"
for c in "plain:--loops 10 --power 2 --ptw 3 --tsx 4 --tsc-every 1" \
	"percpu:--loops 30 --power 2 --ptw 3 --tsx 4 --tsc-every 1 --per-cpu" \
	"miss:--loops 10 --power 2 --ptw 3 --tsx 4 --tsc-every 1 $miss" \
	"kernel:--loops 10 --kernel --power 2 --ptw 3 --tsc-every 1 --ovf 5"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in blpw i1ilx i1ilxpwe i10ilpwx il8pw blxpwe i3tlpw; do
		(
			trap '' PIPE
			perf report -i "$TMP/$name.data" --itrace=$it --stdio 2>/dev/null
		) >"$TMP/p1"
		prism report -i "$TMP/$name.data" --itrace=$it --stdio >"$TMP/p2" 2>"$TMP/err"
		check "$name --itrace=$it: prism exits 0" test $? -eq 0
		check "$name --itrace=$it: the $(wc -l <"$TMP/p1") lines equal perf's" \
			cmp -s <(report_rows "$TMP/p1") <(report_rows "$TMP/p2")
	done
done
check "plain blpw: no psb section (its only sample has no branch)" \
	test "$(prism report -i "$TMP/plain.data" --itrace=blpw --stdio 2>/dev/null | grep -c "event 'psb'")" -eq 0

# d (the log goes to the current directory, as perf's)
cd "$TMP" || fail "cd $TMP"
for name in plain miss kernel; do
	for it in ibd ibde bpwde; do
		rm -f intel_pt.log
		prism script -i "$name.data" --itrace=$it >/dev/null 2>&1
		mv intel_pt.log script.log 2>/dev/null
		(
			trap '' PIPE
			perf report -i "$name.data" --itrace="${it%d*}${it#*d}" --stdio 2>/dev/null
		) >p1
		prism report -i "$name.data" --itrace=$it --stdio >p2 2>err
		check "$name --itrace=$it: prism exits 0" test $? -eq 0
		check "$name --itrace=$it: the report without d's, perf's" \
			cmp -s <(report_rows p1) <(report_rows p2)
		check "$name --itrace=$it: intel_pt.log as prism script's" cmp -s script.log intel_pt.log
	done
done
rm -f intel_pt.log
prism report -i miss.data --itrace=ibde --stdio >/dev/null 2>&1
check "miss ibde: the errors in the log" test "$(grep -c 'code 5: Failed to get instruction' intel_pt.log)" -eq 2
check "miss ibde: the AUXTRACE record in the log" grep -q '^AUXTRACE size 0x[0-9a-f]* offset 0 .* tid 4343 cpu 0$' intel_pt.log
done_testing
