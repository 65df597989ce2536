#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Branch stacks: prism report -b (perf report's branch mode, its default for
# such samples) and prism script -F brstack/brstacksym/brstackoff against
# perf 6.1 on the same files, line for line (report rows of one percentage
# compared in one order, as t1004): Intel PT traces decoded with --itrace=...l
# (tests/tools/perfdata-pt.py: per thread, per CPU, recursion, an overflow,
# kernel code) and a cpu-clock file that perf records here, to which
# tests/tools/perfdata-rewrite.py gives branch stacks (perf record -b needs
# LBR hardware), with and without cycles.  The PT reports are compared in
# perf's order, ties too (rows of one count by the sort keys; kernel symbols
# of a kcore copy count from its segment's file offset, as perf's).  Refusals: -b without branch
# stacks, keys of the usual report, the IPC column of branches with cycles
# (perf 6.1 crashes there).
. tests/e2e/lib.sh
require_pt_files

# report_vs_perf NAME FILE ARG...: prism report ARG... of FILE against perf's
# (rows of one percentage in one order unless ORDERED is set)
report_vs_perf() {
	local name=$1 f=$2 rows=report_rows
	shift 2
	[ -n "${ORDERED:-}" ] && rows=report_body
	perf report -i "$f" --stdio "$@" >"$TMP/p1" 2>/dev/null
	prism report -i "$f" --stdio "$@" >"$TMP/p2" 2>"$TMP/err"
	check "$name $*: prism exits 0" test $? -eq 0
	check "$name $*: the report equals perf's${ORDERED:+ in its order}" \
		cmp -s <($rows "$TMP/p1") <($rows "$TMP/p2")
	diff <($rows "$TMP/p1") <($rows "$TMP/p2") | head -4 >&3
}
sorts=("" "-s symbol_from" "-s dso_from,dso_to" "-s pid,symbol_to" "-s comm,symbol_to,dso_from"
	"-s cycles,dso_to")

# ---- Intel PT ----
ORDERED=1
for c in "plain:--loops 6" "calls:--calls 8" "percpu:--per-cpu --loops 4" \
	"ovf:--loops 12 --ovf 4 --tsc-every 2" "kern:--kernel --loops 5" "kern2:--kernel --loops 2" \
	"cyc:--loops 12 --mtc 3 --cyc 1 --tsc-every 4"; do
	name=${c%%:*}
	f=$TMP/$name.data
	case $name in kern*)
		mkdir "$TMP/$name"
		f=$TMP/$name/data
		set -- --kcore-dir "$TMP/$name/kcore_dir"
		;;
	*) set -- ;;
	esac
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$@" "$WL" "$f" || fail "$name: the generator failed"
	case $name in kern*) f=$TMP/$name ;; esac
	for it in i1il bl i3il2; do
		for s in "${sorts[@]}"; do
			# shellcheck disable=SC2086
			report_vs_perf "$name" "$f" --itrace=$it $s
		done
	done
	report_vs_perf "$name" "$f" --itrace=i1ibl -b
	report_vs_perf "$name" "$f" --itrace=i1il -n --percent-limit 2
	report_vs_perf "$name" "$f" --itrace=i2il --no-branch-stack
	for F in +brstackoff +brstackoff,+brstacksym +brstack,+brstackoff; do
		pt_vs_perf "$name" "$f" i2il3 -F $F
		pt_vs_perf "$name" "$f" bl -F $F
	done
done
prism report -i "$TMP/kern2" --itrace=bl -s symbol_from >"$TMP/tie"
check "PT kcore: the tie of kernel and user symbols in perf's order" \
	grep -q '11.76%  \[\.\] pt_loop' <(grep -A1 '11.76%  \[k\] prism_kentry' "$TMP/tie")
# CYC packets: perf 6.1's PT branch stacks still have no cycles (its
# last-branch entries carry none), so IPC 0.00, coverage 0.0% and cycles '-'
perf report -i "$TMP/cyc.data" --stdio --itrace=i1il -s symbol_from,cycles >"$TMP/p1" 2>/dev/null
prism report -i "$TMP/cyc.data" --stdio --itrace=i1il -s symbol_from,cycles >"$TMP/p2" 2>/dev/null
check "PT with CYC: perf's IPC column 0.00 [  0.0%], cycles -" \
	grep -qE '^ +[0-9.]+%  \[\.\] pt_loop +- +0\.00  \[  0\.0%\]' "$TMP/p1"
check "PT with CYC: prism's IPC and cycles columns as perf's" cmp -s <(report_body "$TMP/p1") \
	<(report_body "$TMP/p2")
ORDERED=
prism report -i "$TMP/plain.data" --itrace=i1il >"$TMP/out"
check "PT: 722 branches of the instruction samples" \
	grep -q "^# Samples: 722  of event 'instructions:uH'" "$TMP/out"
check "PT: the trace begins come from address 0, level H" \
	grep -qE '^ +[0-9.]+%  pt-loop  \[unknown\] +\[H\] 0000000000000000 +\[\.\] pt_loop ' "$TMP/out"
check "PT kernel: branches into the kernel" grep -q '\[\.\] pt_loop  *\[k\] prism_kentry' \
	<(prism report -i "$TMP/kern" --itrace=bl)
expect_exit 129 prism report -i "$TMP/plain.data" --itrace=i1i -b
expect_exit 129 prism report -i "$TMP/plain.data" --itrace=i1il -s sym
expect_exit 129 prism report -i "$TMP/plain.data" --itrace=i1il --comms pt-loop
check "-b without branch stacks: the reason" grep -q 'have no branch stacks' \
	<(prism report -i "$TMP/plain.data" --itrace=b -b 2>&1)

# ---- samples with PERF_SAMPLE_BRANCH_STACK ----
SPLIT=$PRISM_OUT/tests/workloads/report-split
[ -x "$SPLIT" ] || skip "workload $SPLIT not built (make test-bins)"
perf record -N -q -e cpu-clock:u -F 1999 -o "$TMP/cc.data" -- "$SPLIT" 300 >/dev/null \
	2>"$TMP/rec.err" || skip "perf record failed: $(head -1 "$TMP/rec.err")"
TOOLS=$PRISM_SRC/tests/tools
"$TOOLS/perfdata-rewrite.py" brstack "$TMP/cc.data" "$TMP/br.data" 2>/dev/null ||
	fail "perfdata-rewrite.py brstack failed"
"$TOOLS/perfdata-rewrite.py" brstack "$TMP/cc.data" "$TMP/brc.data" cycles 2>/dev/null ||
	fail "perfdata-rewrite.py brstack cycles failed"
for s in "${sorts[@]}"; do
	# shellcheck disable=SC2086
	report_vs_perf br "$TMP/br.data" $s
done
for s in "" "-s dso_from,dso_to" "-s cycles" "-s comm,dso_to,cycles"; do
	# shellcheck disable=SC2086
	report_vs_perf brc "$TMP/brc.data" $s
done
report_vs_perf br "$TMP/br.data" -b
report_vs_perf br "$TMP/br.data" -n
report_vs_perf br "$TMP/br.data" --percent-limit 1 -s dso_from,symbol_to
report_vs_perf br "$TMP/br.data" --no-branch-stack
# a pipe has no BRANCH_STACK feature: the usual report, unless -b (as perf)
perf inject -i "$TMP/br.data" -o - >"$TMP/brp.data" 2>/dev/null || fail "perf inject to a pipe failed"
for b in "" -b; do
	perf report -i - --stdio $b <"$TMP/brp.data" >"$TMP/p1" 2>/dev/null
	prism report -i - --stdio $b <"$TMP/brp.data" >"$TMP/p2" 2>/dev/null
	check "pipe $b: the report equals perf's" cmp -s <(report_rows "$TMP/p1") <(report_rows "$TMP/p2")
done
check "pipe -b: the branch report" grep -q 'Source Symbol' "$TMP/p2"
check "br: the default is the branch report" grep -q '^# Overhead  Command  *Source Shared Object' \
	<(prism report -i "$TMP/br.data")
check "brc: basic block cycles" grep -qE '\[\.\] b +[1-8] +$' <(prism report -i "$TMP/brc.data")
expect_exit 1 prism report -i "$TMP/brc.data" -s symbol_from
check "brc -s symbol_from: the IPC column is named" grep -q 'IPC column' \
	<(prism report -i "$TMP/brc.data" -s symbol_from 2>&1)
expect_exit 129 prism report -i "$TMP/cc.data" -b
for f in br brc; do
	for F in +brstack +brstacksym +brstackoff ip,brstackoff ip,dso,brstackoff ip,sym,brstacksym \
		ip,brstackoff,brstack; do
		perf script -i "$TMP/$f.data" -F $F >"$TMP/perf.txt" 2>/dev/null
		prism script -i "$TMP/$f.data" -F $F >"$TMP/prism.txt" 2>"$TMP/err"
		check "$f -F $F: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
	done
done
check "brstack: predicted, mispredicted and cycles" grep -q '/P/-/-/[1-8]/ .*/M/-/-/[0-8]/ ' \
	<(prism script -i "$TMP/brc.data" -F ip,brstack)
expect_exit 129 prism script -i "$TMP/cc.data" -F ip,brstack
done_testing
