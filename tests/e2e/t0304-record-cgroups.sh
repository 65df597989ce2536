#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record -a --all-cgroups names the cgroups that existed before the
# recording (one CGROUP record each, as perf synthesizes them): a busy loop
# in a cgroup made for the test is reported under that cgroup's path by
# perf report --sort cgroup, and perf lists the same cgroup records.
. tests/e2e/lib.sh
require_root
require_perf
root=$(awk '$(NF - 2) == "cgroup2" || $9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$root" ] || skip "no cgroup2 hierarchy is mounted"
cg=$root/prism-t0304-$$
mkdir "$cg" || skip "cannot create a cgroup in $root"
cd "$TMP" || exit 1
# the busy loop joins the cgroup first, then waits for the recording
sh -c "echo \$\$ > '$cg/cgroup.procs' && sleep 0.3 && end=\$((\$(date +%s) + 1)); \
	while [ \$(date +%s) -lt \$end ]; do :; done" &
loop=$!
prism record -q -a --all-cgroups --duration 1.2 -o cg.data 2>rec.err
check "record -a --all-cgroups exits 0" test $? -eq 0
wait $loop
rmdir "$cg"

perf script --show-cgroup-events -i cg.data 2>/dev/null | grep PERF_RECORD_CGROUP >ev.txt
grep_q "PERF_RECORD_CGROUP cgroup: [0-9]+ /\$" ev.txt
grep_q "PERF_RECORD_CGROUP cgroup: [0-9]+ /prism-t0304-$$\$" ev.txt
perf report --sort cgroup -i cg.data --stdio 2>/dev/null | grep -v '^#' >rep.txt
grep_q "/prism-t0304-$$\$" rep.txt
check "no sample is in an unnamed cgroup" eval "! grep -q 'unknown' rep.txt"
prism stats -i cg.data >stats.txt 2>&1
n=$(grep -c 'PERF_RECORD_CGROUP' ev.txt)
grep_q "CGROUP events: +$n " stats.txt
done_testing
