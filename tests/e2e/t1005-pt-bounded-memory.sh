#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Intel PT decoder does not hold the trace in memory: on a synthesized
# trace of 2.5 MB in AUXTRACE records of 1 MiB, prism script -v says that no
# trace byte is held in memory (they go to a temporary file) and that the
# mapped bytes behind the decoders were released while decoding (at least
# 1 MiB); the samples equal perf's, and equal them with $TMPDIR unusable
# (the fallback temporary directories).
. tests/e2e/lib.sh
require_pt_files

$GEN --loops 5000000 --split 1048576 "$WL" "$TMP/pt.data" || fail "the generator failed"
perf script -i "$TMP/pt.data" --itrace=i100000ie >"$TMP/perf.txt" 2>/dev/null
prism script -v -i "$TMP/pt.data" --itrace=i100000ie >"$TMP/prism.txt" 2>"$TMP/err"
check "prism exits 0" test $? -eq 0
check "the $(wc -l <"$TMP/perf.txt") samples equal perf's" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
check "samples were made" test "$(wc -l <"$TMP/perf.txt")" -ge 20
line=$(grep '^Intel PT: ' "$TMP/err")
echo "# $line" >&3
# shellcheck disable=SC2086
set -- $line
check "-v: the trace bytes counted" test "${3:-0}" -ge 2500000
check "-v: none of them held in memory" test "${9:-x}" = 0
check "-v: at least 1 MiB released while decoding" test "${15:-0}" -ge 1048576
TMPDIR=$TMP/none prism script -i "$TMP/pt.data" --itrace=i100000ie >"$TMP/prism2.txt" 2>/dev/null
check "a missing TMPDIR: the same samples" cmp -s "$TMP/perf.txt" "$TMP/prism2.txt"
done_testing
