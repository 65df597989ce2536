#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism util's one-step mode: record the util preset with prism's own
# recorder, then report (-- command, and -a --duration).
. tests/e2e/lib.sh
require_root
require_tracefs
W=$PRISM_OUT/tests/workloads/util-mix
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1

mkdir rec
TMPDIR=$TMP/rec prism util --no-calls -- "$W" >cmd.txt 2>cmd.err
check "prism util -- util-mix exits 0" test $? -eq 0
grep_q '^   \[ *[0-9]+\] util-mix +ALL ' cmd.txt
grep_q '^Anomalies:' cmd.txt
grep_q '^  lost events +0 ' cmd.txt
check "the temporary recording (in \$TMPDIR) is removed" test -z "$(ls rec)"
TMPDIR=$TMP/rec prism util --no-calls --keep -- true >/dev/null 2>keep.err
grep_q "recording is kept in '$TMP/rec/prism-util-" keep.err
rm -f rec/prism-util-*

prism util -a --duration 0.3 --per-cpu --keep >sys.txt 2>sys.err
check "prism util -a --duration 0.3 exits 0" test $? -eq 0
grep_q '^   \[   ALL\] +ALL ' sys.txt
kept=$(sed -n "s/.*recording is kept in '\(.*\)'.*/\1/p" sys.err)
check "--keep names the file ($kept)" test -s "$kept"
if [ -n "$kept" ]; then
	prism util -i "$kept" --per-cpu >again.txt
	check "the kept file gives the same report" test "$(grep -c ALL again.txt)" -eq "$(grep -c ALL sys.txt)"
	rm -f "$kept"
fi
# the command may follow without '--', as for record and trace
prism util --no-calls "$W" >nodash.txt 2>nodash.err
check "prism util CMD (no --) exits 0" test $? -eq 0
grep_q '^   \[ *[0-9]+\] util-mix +ALL ' nodash.txt
done_testing
