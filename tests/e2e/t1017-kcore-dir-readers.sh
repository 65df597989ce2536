#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A directory perf.data with a kcore_dir (perf record --kcore's layout) gives
# prism's readers their kernel symbols, as it gives perf its: a recording of
# dd's system calls, put in DIR/data beside a kcore_dir whose kallsyms names
# every kernel function kc_NAME, reads in prism script and prism report with
# those names, line for line as perf script and perf report print them;
# --kallsyms still wins.  prism report --itrace on the Intel PT --kernel
# directory equals perf report's.
. tests/e2e/lib.sh
require_perf
cd "$TMP" || exit 1

mkdir -p "$TMP/d/kcore_dir"
prism record -e cpu-clock -o "$TMP/d/data" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=300000 >/dev/null 2>&1 ||
	skip "prism record -e cpu-clock does not record here"
[ -r /proc/kallsyms ] && grep -q '^ffffffff[0-9a-f]* [tT] ' /proc/kallsyms ||
	skip "kernel addresses are hidden in /proc/kallsyms"
# the names change, not _text/_stext/_etext: perf relocates by _text
sed -E '/ (_text|_stext|_etext)$/!s/^([0-9a-f]+ [a-zA-Z] )/\1kc_/' /proc/kallsyms \
	>"$TMP/d/kcore_dir/kallsyms"
cp /proc/modules "$TMP/d/kcore_dir/modules" 2>/dev/null || : >"$TMP/d/kcore_dir/modules"
perf script -i "$TMP/d" >"$TMP/p1" 2>/dev/null
grep -q 'kc_[a-z_0-9.]*+0x[0-9a-f]* (\[kernel.kallsyms\])' "$TMP/p1" ||
	skip "no kernel sample of dd resolved by perf (perf_event_paranoid?)"
prism script -i "$TMP/d" >"$TMP/p2" 2>/dev/null
check "prism script -i DIR: kernel symbols from kcore_dir" \
	grep -q 'kc_[a-z_0-9.]*+0x[0-9a-f]* (\[kernel.kallsyms\])' "$TMP/p2"
# unresolved addresses left out: perf leaves BPF programs' without a dso, prism names the kernel
check "prism script -i DIR prints perf's lines" \
	cmp -s <(grep -v '\[unknown\] (' "$TMP/p1") <(grep -v '\[unknown\] (' "$TMP/p2")
body() { grep -v '^# (Tip\|^#$\|^$\|\[unknown\]' "$1"; }
perf report -i "$TMP/d" --stdio --sort sym >"$TMP/r1" 2>/dev/null
prism report -i "$TMP/d" --stdio --sort sym >"$TMP/r2" 2>/dev/null
check "prism report -i DIR: kernel symbols from kcore_dir" grep -q '\[k\] kc_' "$TMP/r2"
check "prism report -i DIR: perf's kernel rows" \
	cmp -s <(body "$TMP/r1" | grep '\[k\]' | sort) <(body "$TMP/r2" | grep '\[k\]' | sort)
prism script -i "$TMP/d" --kallsyms /proc/kallsyms >"$TMP/p3" 2>/dev/null
check "--kallsyms wins over kcore_dir" test "$(grep -c ' kc_' "$TMP/p3")" -eq 0
prism script -i "$TMP/d/data" >"$TMP/p4" 2>/dev/null
check "the file itself (not the directory) has no kcore_dir" test "$(grep -c ' kc_' "$TMP/p4")" -eq 0

command -v python3 >/dev/null || skip "python3 is not installed"
prism version --build-options | grep -q 'intel-pt: \[ on' || skip "prism built without libipt"
WL=$PRISM_OUT/tests/workloads/pt-loop
[ -x "$WL" ] || skip "$WL is not built (make test-bins)"
mkdir -p "$TMP/k"
python3 "$PRISM_SRC/tests/tools/perfdata-pt.py" --kernel --loops 6 --kcore-dir "$TMP/k/kcore_dir" \
	"$WL" "$TMP/k/data"
for it in b i1i c; do
	for sort in "" "--sort sym" "--sort dso,sym"; do
		# shellcheck disable=SC2086
		perf report -i "$TMP/k" --itrace=$it --stdio $sort >"$TMP/r1" 2>/dev/null
		# shellcheck disable=SC2086
		prism report -i "$TMP/k" --itrace=$it --stdio $sort >"$TMP/r2" 2>/dev/null
		check "PT --kernel --itrace=$it $sort: the report has kernel rows" \
			grep -q '\[k\] prism_kentry' "$TMP/r2"
		check "PT --kernel --itrace=$it $sort: the report equals perf's" \
			cmp -s <(report_rows "$TMP/r1") <(report_rows "$TMP/r2")
	done
done
done_testing
