#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live: perf records tests/workloads/report-split (main -> a -> b, b meant
# to spin 70% of the time, a 30%) with frame-pointer call chains; prism
# report gives a and b exactly perf's shares on the same file (the split
# the workload gets is the VM's to decide, so it is only printed), finds
# the call chain main -> a -> b, and resolves the binary it has never seen
# before through its own ELF symbols.
. tests/e2e/lib.sh
require_perf
WL=$PRISM_OUT/tests/workloads/report-split
[ -x "$WL" ] || skip "workload $WL not built (make test-bins)"

perf record -q -g -e cpu-clock -F 999 -o "$TMP/split.data" -- "$WL" 1500 >/dev/null 2>"$TMP/rec.err" ||
	skip "perf record failed: $(head -1 "$TMP/rec.err")"

prism report -i "$TMP/split.data" --no-children --comms report-split --sort sym \
	>"$TMP/self.txt" 2>"$TMP/err"
check "report exits 0" test $? -eq 0
pct() { awk -v s="$2" '$NF == s && $(NF-1) == "[.]" { sub("%", "", $1); print $1 }' "$1"; }
a=$(pct "$TMP/self.txt" a)
b=$(pct "$TMP/self.txt" b)
echo "note: self a=$a% b=$b% (meant to be 30/70)" >&3
check "a and b both have samples ($a, $b)" test -n "$a" -a -n "$b"

# children: main and a cover (nearly) everything, b its 70%
prism report -i "$TMP/split.data" --children --comms report-split --sort sym -g none \
	>"$TMP/children.txt" 2>/dev/null
main_c=$(awk '$NF == "main" && $(NF-1) == "[.]" { sub("%", "", $1); print $1 }' "$TMP/children.txt")
check "main's children overhead >= 95%: $main_c" awk -v v="${main_c:-0}" 'BEGIN { exit !(v >= 95) }'

prism report -i "$TMP/split.data" --folded --comms report-split >"$TMP/folded" 2>/dev/null
grep_q '^report-split;.*main;a;b [0-9]+$' "$TMP/folded"

# the same numbers as perf itself
perf report -i "$TMP/split.data" --stdio --no-children --comms report-split --sort sym \
	2>/dev/null >"$TMP/perf.txt"
pa=$(pct "$TMP/perf.txt" a)
pb=$(pct "$TMP/perf.txt" b)
check "a's share equals perf's ($pa vs $a)" test "$pa" = "$a"
check "b's share equals perf's ($pb vs $b)" test "$pb" = "$b"
done_testing
