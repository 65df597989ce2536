#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism reads perf.data through mappings: a file cut shorter while prism
# reads it raises SIGBUS.  prism then says what happened and exits 1, instead
# of dying of "Bus error".  The signal is sent to a prism that waits on an
# empty FIFO (a truncation race could not be timed reliably).
. tests/e2e/lib.sh

mkfifo "$TMP/fifo"
"$PRISM_BIN" util -i - <"$TMP/fifo" >"$TMP/out" 2>"$TMP/err" &
pid=$!
exec 5>"$TMP/fifo" # the writer: prism's read then waits
# blocked reading the pipe: its handlers are in place
for _ in $(seq 100); do
	state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
	[ "$state" = S ] && [ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$PRISM_BIN")" ] && break
	sleep 0.05
done
kill -BUS "$pid"
wait "$pid"
rc=$?
exec 5>&-
check "exit status 1 after SIGBUS (got $rc)" test "$rc" -eq 1
check "the message names the cause" grep -q "truncated or rewritten while prism read it" "$TMP/err"
check "and a hint" grep -q "^hint: " "$TMP/err"
done_testing
