#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Progress of a read on stderr (percentage of the file, records/s): on a
# terminal (a pty made by script -qc) for every reading command, never in
# a pipe or a file, never with -q, and not over prism script's lines on
# the same terminal.  PRISM_PROGRESS_DELAY=0 shows it at once (default:
# after a second).
. tests/e2e/lib.sh
require_fixtures
require_cmd script
F=$FIXTURES/perf-6.1/r-lost.data
[ -f "$F" ] || skip "no $F"
cd "$TMP" || exit 1
export PRISM_PROGRESS_DELAY=0

onpty() { # CMD: run it on a pty, what the terminal got
	script -qec "$1" /dev/null </dev/null
}
for c in stats report "util --per-cpu"; do
	onpty "$PRISM_BIN $c -i $F >/dev/null" >"pty.${c%% *}" 2>&1
	grep_q "r-lost.data: +[0-9]+% of [0-9.]+ MiB, [0-9]+ records, [0-9]+ records/s" "pty.${c%% *}"
done
check "the line is cleared at the end" grep -q $'\r\033\\[K' pty.stats
onpty "$PRISM_BIN stats -q -i $F >/dev/null" >pty.q 2>&1
check "-q: no progress" test -z "$(grep 'records/s' pty.q)"
onpty "$PRISM_BIN script -i $F" >pty.script 2>&1
check "script printing to the terminal: no progress over it" test -z "$(grep 'records/s' pty.script)"
onpty "$PRISM_BIN script -i $F >script.out" >pty.script2 2>&1
grep_q "records/s" pty.script2
check "the output file has none" test -z "$(grep 'records/s' script.out)"

prism stats -i "$F" 2>pipe.err | cat >pipe.out
check "a pipe: no progress on stderr" test -z "$(grep 'records/s' pipe.err)"
check "a pipe: none on stdout" test -z "$(grep 'records/s' pipe.out)"
onpty "$PRISM_BIN stats -i $F 2>err.file >/dev/null" >pty.file 2>&1
check "stderr to a file: no progress" test -z "$(grep 'records/s' err.file pty.file)"
done_testing
