#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record -e intel_pt//... on a machine without the PMU: exit 1 with a
# message that names intel_pt and what provides it (Broadwell or later, bare
# metal or a VM with PT passthrough); nothing is written.  With the PMU prism
# records it (t1018 and t1019 test that part without the hardware).
. tests/e2e/lib.sh
cd "$TMP" || exit 1
[ -e /sys/bus/event_source/devices/intel_pt ] && skip "this machine has an intel_pt PMU"
unset PRISM_SYSFS
for ev in 'intel_pt//u' 'intel_pt/cyc,mtc_period=3/' 'cycles,intel_pt//' '{intel_pt//,cycles}'; do
	prism record -e "$ev" -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
	check "-e $ev: exit 1" test $? -eq 1
	check "-e $ev: the message names intel_pt" grep -q "intel_pt" "$TMP/err"
	check "-e $ev: says there is no intel_pt PMU" grep -q 'no intel_pt PMU' "$TMP/err"
	check "-e $ev: says what provides it" grep -q 'Broadwell.*bare metal.*PT passthrough' "$TMP/err"
	check "-e $ev: no file written" test ! -e "$TMP/pt.data"
done
# a PMU whose name only starts with intel_pt is not refused as Intel PT
prism record -e 'intel_ptx//' -o "$TMP/x.data" -- true >/dev/null 2>"$TMP/err"
check "intel_ptx: not taken for intel_pt" test "$(grep -c 'Broadwell\|AUX area' "$TMP/err")" -eq 0
done_testing
