#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report on an Intel PT file without --itrace against perf 6.1's perf
# report --stdio without it (perf's default: instructions every 100 us with
# call chains, and the sections of the transactions, ptwrite and power
# events, no Children column): every section, header, row and percentage, on
# synthesized files per thread and per CPU, with power events, TSX and
# PTWRITE, with kernel code, without timing; the --itrace strings of those
# events (x, p, w, alone, with i and b, with g) against perf with the same
# string.  Not compared: --sort sym with g (perf leaves out a chain's node
# that is its row's symbol) and what perf refuses (-g caller without g: perf
# finds no call chains in the file; x or w without such events).
. tests/e2e/lib.sh
require_pt_files

# vs NAME FILE ARG...: prism report ARG... against perf report ARG...
vs() {
	local name=$1 f=$2
	shift 2
	perf report -i "$f" --stdio "$@" >"$TMP/p1" 2>/dev/null
	prism report -i "$f" --stdio "$@" >"$TMP/p2" 2>"$TMP/err"
	check "$name $*: prism exits 0" test $? -eq 0
	check "$name $*: the $(report_body "$TMP/p1" | wc -l) lines equal perf's" \
		cmp -s <(report_body "$TMP/p1") <(report_body "$TMP/p2")
	diff <(report_body "$TMP/p1") <(report_body "$TMP/p2") | head -4 >&3
}

mkdir "$TMP/k"
for c in "plain:--loops 6" "percpu:--per-cpu --loops 12 --tsx 1 --ptw 6 --power 8" \
	"power:--loops 10 --power 2 --tsc-every 2" "notsc:--no-tsc --loops 12 --tsx 1 --ptw 6 --power 8" \
	"all:--loops 20000 --tsc-every 1 --power 5 --tsx 9 --ptw 13" "chains:--loops 400000" \
	"kernel:--kernel --loops 4 --tsc-every 1 --power 2 --kcore-dir $TMP/k/kcore_dir"; do
	name=${c%%:*}
	f=$TMP/$name.data
	[ "$name" = kernel ] && f=$TMP/k/data
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$f" || fail "$name: the generator failed"
	[ "$name" = kernel ] && f=$TMP/k
	for o in "" --no-children --children "-g none" "--sort dso,sym" "--sort comm,sym"; do
		# shellcheck disable=SC2086
		vs "$name" "$f" $o
	done
	for it in p bp i1ip pg i100usgp; do
		vs "$name" "$f" --itrace=$it
		vs "$name" "$f" --itrace=$it --sort dso,sym
	done
	[ "$name" = all ] || [ "$name" = percpu ] || [ "$name" = notsc ] || continue
	for it in x w pxw; do
		vs "$name" "$f" --itrace=$it
		vs "$name" "$f" --itrace=$it --sort comm,sym
	done
	for it in xg pwxg; do
		vs "$name" "$f" --itrace=$it
		vs "$name" "$f" --itrace=$it -g caller --sort comm,dso,sym
	done
done

# the cases are not empty, and the decoding is said on stderr
prism report -i "$TMP/all.data" >"$TMP/out" 2>"$TMP/err"
for e in "152  of event 'instructions:uH'" "4  of event 'transactions'" "2  of event 'ptwrite'" \
	"3  of event 'cbr'" "1  of event 'psb'" "1  of event 'mwait'" "1  of event 'pwre'" \
	"2  of event 'exstop'" "2  of event 'pwrx'"; do
	check "all: # Samples: $e" grep -q "^# Samples: $e" "$TMP/out"
done
check "all: no Children column" grep -q '^# Overhead  Command' "$TMP/out"
check "all: call graphs" grep -q -- '---pt_loop' "$TMP/out"
check "all: says which --itrace" grep -q 'with --itrace=i100usgxwp (perf report' "$TMP/err"
check "all: nothing else on stderr" test "$(wc -l <"$TMP/err")" -eq 1

# a pipe is read once: its trace is decoded with --itrace only (then as perf's default on the file)
$GEN --loops 10 --power 2 --tsc-every 2 --pipe "$WL" "$TMP/pipe.data"
prism report -i - <"$TMP/pipe.data" >/dev/null 2>"$TMP/err"
check "pipe without --itrace: says the trace is not decoded" \
	grep -q 'decodes from a pipe only with --itrace' "$TMP/err"
perf report -i "$TMP/power.data" --stdio >"$TMP/p1" 2>/dev/null
prism report -i - --itrace=i100usgxwp <"$TMP/pipe.data" >"$TMP/p2" 2>/dev/null
check "pipe --itrace=i100usgxwp: perf report's default on the file" \
	cmp -s <(report_body "$TMP/p1") <(report_body "$TMP/p2")

# l with x, p or w: the branch report of each section, as perf's (t1065);
# d alone synthesizes nothing (perf: "no samples")
for it in pl i1ilx; do
	perf report -i "$TMP/all.data" --stdio --itrace=$it >"$TMP/p1" 2>/dev/null
	prism report -i "$TMP/all.data" --stdio --itrace=$it >"$TMP/p2" 2>/dev/null
	check "all --itrace=$it: the report equals perf's" \
		cmp -s <(report_rows "$TMP/p1") <(report_rows "$TMP/p2")
done
expect_exit 129 prism report -i "$TMP/all.data" --itrace=d
done_testing
