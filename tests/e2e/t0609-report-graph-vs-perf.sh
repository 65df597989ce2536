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
#  - -g on a file without call chains: perf's error.
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
