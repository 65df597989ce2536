#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report --itrace=...g: the instruction samples' call chains in the
# Children column and the call graphs, against perf 6.1's perf report
# --stdio on synthesized Intel PT files (pt_loop per thread, per CPU, with an
# overflow; pt_calls with recursion and a return past its caller); --folded
# against the stacks of perf script's call chains; a flame graph.  Not
# compared (prism report differs from perf there on sampled files too, not
# only here): --children with -g callee or a --sort without comm/dso.  And
# not the branches section of --itrace=ibg: perf 6.1 gives branch samples
# (which have no chain) the previous instruction sample's chain for their
# Children; prism gives them none.
. tests/e2e/lib.sh
require_pt_files


for c in "plain:--loops 6" "ovf:--loops 12 --ovf 4 --tsc-every 2" "percpu:--per-cpu --loops 4" \
	"thread2:--thread2 --loops 5" "c3:--calls 3" "cpc:--calls 5 --per-cpu"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for o in "--itrace=i1ig" "--itrace=i1ig -g" "--itrace=i1ig -g caller" \
		"--itrace=i1ig --no-children" "--itrace=i1ig --no-children -g callee" \
		"--itrace=i1ig -g none" "--itrace=i3ig3" "--itrace=i1ig2 --no-children" \
		"--itrace=i1is4g" "--itrace=i1ig --sort comm,dso,sym"; do
		# shellcheck disable=SC2086
		perf report -i "$TMP/$name.data" $o --stdio >"$TMP/p1" 2>/dev/null
		# shellcheck disable=SC2086
		prism report -i "$TMP/$name.data" $o --stdio >"$TMP/p2" 2>"$TMP/err"
		check "$name $o: prism exits 0" test $? -eq 0
		check "$name $o: the report equals perf's" cmp -s <(report_body "$TMP/p1") <(report_body "$TMP/p2")
		diff <(report_body "$TMP/p1") <(report_body "$TMP/p2") | head -6 >&3
	done
	# the instructions section of ibg (the branches': see above)
	perf report -i "$TMP/$name.data" --itrace=i1ibg --stdio 2>/dev/null |
		sed -n '/instructions:uH/,$p' >"$TMP/p1"
	prism report -i "$TMP/$name.data" --itrace=i1ibg --stdio | sed -n '/instructions:uH/,$p' >"$TMP/p2"
	check "$name --itrace=i1ibg: the instructions section equals perf's" \
		cmp -s <(report_body "$TMP/p1") <(report_body "$TMP/p2")
	# --folded: each chain of perf script, outermost first, counted
	perf script -i "$TMP/$name.data" --itrace=i1ig 2>/dev/null | awk '
		/^[^\t]/ && NF { comm = $1; n = 0; next }
		/^\t/ { sub(/\+0x[0-9a-f]+$/, "", $2); f[n++] = $2; next }
		!NF && n { s = comm; for (i = n - 1; i >= 0; i--) s = s ";" f[i]; c[s]++; n = 0 }
		END { for (s in c) print s, c[s] }' | sort >"$TMP/f1"
	prism report -i "$TMP/$name.data" --itrace=i1ig --folded | sort >"$TMP/f2"
	check "$name --folded: the $(wc -l <"$TMP/f1") stacks of perf script's chains" \
		cmp -s "$TMP/f1" "$TMP/f2"
done
check "c3 --folded: pt_rec 4 deep" grep -q '^pt-loop;pt_calls;pt_rec;pt_rec;pt_rec;pt_rec [0-9]' \
	<(prism report -i "$TMP/c3.data" --itrace=i1ig --folded)
prism report -i "$TMP/c3.data" --itrace=i1ig --flamegraph "$TMP/fg.svg" 2>/dev/null
check "c3 --flamegraph: an SVG with pt_rec" grep -q 'pt_rec' "$TMP/fg.svg"
done_testing
