#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --itrace=l[N] (the last N branches of the thread on each
# instruction sample: -F +brstack, +brstacksym), -F +srcline and -F +ipc on
# Intel PT samples against perf 6.1's perf script, line for line, on
# synthesized traces (tests/tools/perfdata-pt.py): per thread and per CPU (a
# thread moving between CPUs starts its branches over, as perf), recursion
# deeper than the ring (not deeper than libipt's return stack of 64), an
# overflow, a truncated trace, no TSC, kernel code; srcline on
# a copy of the workload whose assembly has line information (.loc
# directives added to the compiler's output: the same code bytes); IPC from
# CYC packets (with MTC, TSC, CBR changes, an overflow, per CPU, call
# traces) and from the TSC by CBR without them.  The outputs have what they
# check: branch stacks, source lines, IPC values.
. tests/e2e/lib.sh
require_pt_files

# ---- l[N]: branch stacks ----
for c in "plain:--loops 30" "ovf:--loops 30 --ovf 9 --tsc-every 2" "percpu:--per-cpu --loops 20" \
	"calls:--calls 40" "thread2:--thread2 --loops 6" "trunc:--truncated --loops 40" \
	"notsc:--no-tsc --loops 8"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in i1il i7il5e i3il2; do
		pt_vs_perf "$name" "$TMP/$name.data" $it -F +brstack
	done
	pt_vs_perf "$name" "$TMP/$name.data" i5il3 -F +brstacksym,+flags
	pt_vs_perf "$name" "$TMP/$name.data" i2il4 -F +brstack,+brstacksym,+insn
	pt_vs_perf "$name" "$TMP/$name.data" i3il2g -F +brstack
	pt_vs_perf "$name" "$TMP/$name.data" bl -F +brstack # branch samples carry none
done
prism script -i "$TMP/plain.data" --itrace=i1il -F +brstack >"$TMP/out"
check "l: the default 64 entries once the thread took 64 branches" \
	test "$(tail -n 1 "$TMP/out" | grep -o '/-/-/-/0/' | wc -l)" -eq 64
check "l: the trace begin is the first branch" \
	grep -q 'pt_loop+0x0 ([^)]*) 0x0(\[unknown\])/0x55555555513d(' "$TMP/out"
check "l: the call of pt_leaf, latest first" \
	grep -qE 'pt_leaf\+0x0 \([^)]*\) 0x555555555142\([^)]*\)/0x555555555139\(' "$TMP/out"
prism script -i "$TMP/plain.data" --itrace=i5il3 -F +brstacksym >"$TMP/out"
check "brstacksym: symbols and offsets" grep -q 'pt_loop+0x5([^)]*)/pt_leaf+0x0(' "$TMP/out"
for bad in i1il0 i1il1025; do
	expect_exit 129 prism script -i "$TMP/plain.data" --itrace=$bad
done
check "l1025: the bad letter is named" grep -q "'l'" \
	<(prism script -i "$TMP/plain.data" --itrace=il1025 2>&1)

# ---- srcline: the workload with line information for its assembly ----
if command -v gcc >/dev/null; then
	src=$PRISM_SRC/tests/workloads/pt-loop.c
	gcc -O1 -g -fno-omit-frame-pointer -fno-inline -pthread -S -o "$TMP/pt-loop.s" "$src" ||
		fail "cannot compile $src"
	# the k-th line of the assembly block is the k-th string of its source
	lines=$(awk '/^__asm__\(/ { a = 1 } a && (/^__asm__/ || /^\t"/) { print NR } a && /\);$/ { exit }' "$src")
	awk -v src="$lines" 'BEGIN { n = split(src, L, "\n") } /#NO_APP/ { app = 0 }
		app && k < n { print "\t.loc 0 " L[++k] } { print } /#APP/ { app = 1 }' \
		"$TMP/pt-loop.s" >"$TMP/pt-lines.s"
	if grep -q '^	\.file 0' "$TMP/pt-loop.s" &&
		gcc -g -pthread -o "$TMP/pt-lines" "$TMP/pt-lines.s"; then
		check "the copy has the same code" cmp -s \
			<(objdump -d --no-show-raw-insn "$WL" | sed 1,3d) \
			<(objdump -d --no-show-raw-insn "$TMP/pt-lines" | sed 1,3d)
		for c in "lines:--loops 5" "lines-calls:--calls 5" "lines-cpu:--per-cpu --loops 4"; do
			name=${c%%:*}
			# shellcheck disable=SC2086
			$GEN ${c#*:} "$TMP/pt-lines" "$TMP/$name.data" || fail "$name: the generator failed"
			pt_vs_perf "$name" "$TMP/$name.data" i3i -F +srcline
			pt_vs_perf "$name" "$TMP/$name.data" b -F +srcline
			pt_vs_perf "$name" "$TMP/$name.data" i2ig -F +srcline
			pt_vs_perf "$name" "$TMP/$name.data" be -F +srcline,+insn,+flags
			pt_vs_perf "$name" "$TMP/$name.data" c -F +srcline,+callindent
			pt_vs_perf "$name" "$TMP/$name.data" i1il4 -F +srcline,+brstacksym
		done
		lea=$(grep -n 'lea 1(%rdi), %eax' "$src" | cut -d: -f1)
		prism script -i "$TMP/lines.data" --itrace=i1i -F +srcline >"$TMP/out"
		check "srcline: pt_leaf's lea is pt-loop.c:$lea" \
			grep -qx "  pt-loop.c:$lea" <(grep -A1 'pt_leaf+0x0 ' "$TMP/out")
		# the workload as built has no line information for its assembly: nothing, as perf
		prism script -i "$TMP/plain.data" --itrace=i3i -F +srcline >"$TMP/out"
		check "srcline: none where the DWARF has no line" test "$(grep -c '^  [^ ]' "$TMP/out")" -eq 0
	else
		echo "# srcline vs perf left out: the compiler's assembly has no .file 0 (DWARF 5)" >&3
	fi
else
	echo "# srcline vs perf left out: no gcc to build the copy with line information" >&3
fi
expect_exit 129 prism script -i "$TMP/plain.data" --call-trace -F +srcline

# ---- ipc ----
cases=(
	"cyc:--mtc 0 --cyc 1 --loops 40"
	"cyc3:--mtc 2 --cyc 3 --loops 90 --tsc-every 25"
	"cbr:--mtc 1 --cyc 1 --cbr-at 12:20 --loops 40"
	"cyc-cbr:--cyc 1 --cbr-at 6:30 --loops 30"
	"cyc-ovf:--mtc 0 --cyc 2 --ovf 9 --loops 30"
	"cyc-cpu:--mtc 0 --cyc 1 --per-cpu --loops 10"
	"cyc-calls:--mtc 0 --cyc 1 --calls 12"
	"mtc:--mtc 0 --loops 40"
	"mtc-cbr:--mtc 1 --cbr-at 12:20 --loops 40"
	"mtc-ovf:--mtc 1 --ovf 6 --tsc-every 4 --loops 30"
)
for c in "${cases[@]}"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	pt_vs_perf "$name" "$TMP/$name.data" b -F +ipc
	pt_vs_perf "$name" "$TMP/$name.data" i1i -F +ipc
	pt_vs_perf "$name" "$TMP/$name.data" i7ib -F +ipc,+flags
	pt_vs_perf "$name" "$TMP/$name.data" ce -F +ipc,+callindent
	pt_vs_perf "$name" "$TMP/$name.data" i5il3 -F +ipc,+brstack,+insn
	# in blocks (lib/pt/decode-block.c): the instructions counted a run at a time
	pt_vs_perf "$name" "$TMP/$name.data" i64ib -F +ipc,+flags
	pt_vs_perf "$name" "$TMP/$name.data" i64t -F +ipc
done
check "ipc: walked in blocks" grep -qE ', [1-9][0-9]* blocks walked' \
	<(prism script -v -i "$TMP/cyc.data" --itrace=i64ib -F +ipc 2>&1 >/dev/null)
# through kernel code (an interrupt, iret; a kcore_dir that perf reads)
mkdir "$TMP/kern" && $GEN --kernel --loops 5 --kcore-dir "$TMP/kern/kcore_dir" \
	"$WL" "$TMP/kern/data" || fail "kernel: the generator failed"
pt_vs_perf kernel "$TMP/kern" i1il -F +brstack,+flags
pt_vs_perf kernel "$TMP/kern" i3il5 -F +brstacksym
check "kernel: the interrupt in the branch stacks" grep -q \
	'pt_loop+0x3(.*)/prism_kentry+0x0(\[kernel.kallsyms\])/-/-/-/0/' \
	<(prism script -i "$TMP/kern" --itrace=i3il5 -F +brstacksym)
# call traces, with perf's power events (psb, cbr) among them
perf script -i "$TMP/cbr.data" --call-ret-trace -F +ipc >"$TMP/perf.txt" 2>/dev/null
prism script -i "$TMP/cbr.data" --call-ret-trace -F +ipc >"$TMP/prism.txt"
check "cbr --call-ret-trace -F +ipc: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
	cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
prism script -i "$TMP/cyc.data" --itrace=b -F +ipc >"$TMP/out"
check "ipc: branches with IPC" test "$(grep -c '	 IPC: [0-9]*\.[0-9][0-9] ([0-9]*/[0-9]*) $' "$TMP/out")" -gt 5
prism script -i "$TMP/mtc.data" --itrace=b -F +ipc >"$TMP/out"
check "ipc without CYC: from the TSC" test "$(grep -c 'IPC: ' "$TMP/out")" -gt 5
prism script -i "$TMP/plain.data" --itrace=b -F +ipc >"$TMP/out"
check "ipc: none without timing packets" test "$(grep -c 'IPC: ' "$TMP/out")" -eq 0
done_testing
