#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report's call graphs against perf 6.1's perf report --stdio on the
# fixtures, whole bodies, for -g's parameters and the options around them:
#  - rows of equal children overhead: perf's order (the caller first, by the
#    longest chain of each row's graph; its trees' order, not transitive);
#  - branches of equal period: by DSO creation order, then address;
#  - -g print_type (graph, fractal, flat, folded), threshold, print_limit, order,
#    value (percent, period, count), -G, --max-stack, --ignore-callees;
#  - --percent-limit hides graph branches below it too;
#  - pipe input: no Children column, callers first but with --no-children;
#  - -g on a file without call chains: perf's error;
#  - --call-graph dwarf with kernel frames (a live recording).
. tests/e2e/lib.sh
require_perf
require_fixtures
F=$FIXTURES/perf-6.1

same() { report_vs_perf "$1" "$F/$1.data" "${@:2}"; }

for f in a-fp a2-fp-shell c-zstd d-pipe; do
	for o in "" "-g callee" "--no-children" "--no-children -g caller" "-G" "--percent-limit 5" \
		"-g flat" "-g folded,0,2" "-g graph,0.5,2" "-g fo,count" "-g caller,period" \
		"-g fractal" "-g fractal,0,2" "-g fractal,callee,count" \
		"--max-stack 3" "--max-stack 2 -g callee" "--max-stack 0" \
		"--ignore-callees strcmp" "--ignore-callees evex --max-stack 2 -g callee"; do
		# shellcheck disable=SC2086
		same $f $o
	done
done
for o in "--sort pid" "--sort sym,dso" "--sort dso,sym -g callee" "--sort comm -g flat,1"; do
	# shellcheck disable=SC2086
	same a2-fp-shell $o
done
# the parent (-p) an --ignore-callees restart leaves out of the chain: perf
# found it as it walked the frames before
same a2-fp-shell -p str -x --ignore-callees strcmp
same a-fp -p _start --ignore-callees main -g caller --sort parent,sym
same b-dwarf -g callee,flat
same d-pipe -g callee
same d-pipe --no-children -g folded

# -g on a file whose samples have no call chains: perf's error (perf 6.1
# exits 0 after it; prism 1)
for f in e-two-events i-fixed-period; do
	expect_exit 1 prism report -i "$F/$f.data" -g caller 2>"$TMP/err" >"$TMP/out"
	check "$f -g: the error says why" grep -q "have no call chains" "$TMP/err"
	check "$f -g: no report" test ! -s "$TMP/out"
	perf report -i "$F/$f.data" --stdio -g caller >"$TMP/perf" 2>&1
	grep -q "no callchain" "$TMP/perf" || fail "perf 6.1 no longer refuses -g on $f"
	prism report -i "$F/$f.data" -g none >"$TMP/out" 2>/dev/null
	check "$f -g none: the report" grep -q "^# Samples" "$TMP/out"
done

# --call-graph dwarf with kernel frames (a live recording: the running
# kernel's symbols): perf walks the recorded chain and the unwound frames
# apart (--max-stack cuts each; caller order: the unwound frames reversed,
# then the recorded chain's root side), an --ignore-callees restart drops
# the frames walked before it, the parent is the first recorded frame of
# the walk -p matches (also one the restart left out), a sample address in
# inlined code has its symbol's row.  (Left out: --max-stack 2 -g callee,
# whose branches of equal period between kernel and inlined libc frames
# perf orders by its DSO objects' addresses.)
mkdir -p "$TMP/home"
if HOME=$TMP/home perf record -q -e cpu-clock -F 999 --call-graph dwarf,4096 -o "$TMP/dw.data" \
	-- dd if=/dev/zero of=/dev/null bs=1 count=300000 >/dev/null 2>&1; then
	for o in "" "--no-children" "--sort sym -g none" "--max-stack 3 -g caller" "--max-stack 1" \
		"--ignore-callees vfs_read" "--ignore-callees do_syscall_64 -g caller" \
		"-p ^ksys_ --sort parent,sym" "-p do_syscall -x --ignore-callees vfs" \
		"-p x64 --ignore-callees vfs --max-stack 3 -g caller --sort parent,sym" \
		"-p ^ksys --sort parent,sym --max-stack 4 -g caller --no-children" \
		"-G -p vfs --sort parent,sym"; do
		# shellcheck disable=SC2086
		HOME=$TMP/home report_vs_perf "dd (dwarf)" "$TMP/dw.data" $o
	done
else
	echo "note: perf record --call-graph dwarf failed here, no live DWARF check" >&3
fi

# bad parameters: what is wrong, the -g line of the usage
expect_exit 129 prism report -i "$F/a-fp.data" -g graph,0.5,2,3 2>"$TMP/err"
check "a third number" grep -q "'3' in 'graph,0.5,2,3' is none of its parameters" "$TMP/err"
expect_exit 129 prism report -i "$F/a-fp.data" -g address 2>"$TMP/err"
check "address: not supported" grep -q "'address' is not supported" "$TMP/err"
expect_exit 129 prism report -i "$F/a-fp.data" --max-stack -2 2>"$TMP/err"
check "--max-stack -2" grep -q "0 or more" "$TMP/err"
expect_exit 129 prism report -i "$F/a-fp.data" --ignore-callees 'a(' 2>"$TMP/err"
check "--ignore-callees: a bad regex" grep -q "ignore-callees 'a('" "$TMP/err"

done_testing
