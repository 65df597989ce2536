#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script -D on a TEXT_POKE record (tests/tools/perfdata-pt.py
# --text-poke): the kernel symbol at its address after the address, as perf
# report -D prints it; the symbol comes from the file's kcore_dir, so that
# the line does not depend on this machine's kernel.
. tests/e2e/lib.sh
require_pt_files

mkdir "$TMP/d"
$GEN --kernel --text-poke --tsc-every 1 --loops 6 --kcore-dir "$TMP/d/kcore_dir" "$WL" \
	"$TMP/d/data" || fail "the generator failed (--text-poke)"
perf report -D -i "$TMP/d" 2>/dev/null | grep -A2 'PERF_RECORD_TEXT_POKE ' >"$TMP/perf.txt"
prism script -D -i "$TMP/d" 2>"$TMP/err" | grep -A2 'PERF_RECORD_TEXT_POKE ' >"$TMP/prism.txt"
check "perf names the poked function" grep -q 'ffffffff81000300 prism_kpoke+0x0 old len 5' "$TMP/perf.txt"
check "the TEXT_POKE record's 3 lines equal perf report -D's" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
check "-D with symbols warns of nothing" test ! -s "$TMP/err"

done_testing
