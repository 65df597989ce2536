#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kernel frames are named only from the kernel the file was recorded on, on
# any machine: copies of fixtures are rewritten (tests/tools/perfdata-buildid.py)
# so that their kernel build id is
#   - one no machine runs: prism prints "[unknown] ([kernel.kallsyms])" as
#     perf does, and says once on stderr that the file is of another kernel;
#   - the running kernel's: prism names the frames from /proc/kallsyms
#     exactly as perf does (relocated by the file's kernel map).
# perf is run by the test on the same copies, with an empty HOME (no build-id
# cache).  [vdso] lines are left out: perf names them only from its cache.
. tests/e2e/lib.sh
require_fixtures
require_perf
require_cmd python3
running=$(perf buildid-list -k 2>/dev/null)
[ -n "$running" ] || skip "the running kernel has no build id (/sys/kernel/notes)"

F=$FIXTURES/perf-6.1
mkdir -p "$TMP/home"
script() { # TOOL FILE: its output without [vdso] lines in $TMP/TOOL.out
	if [ "$1" = perf ]; then
		HOME=$TMP/home perf script -i "$2" >"$TMP/raw" 2>/dev/null
	else
		HOME=$TMP/home prism script -i "$2" >"$TMP/raw" 2>"$TMP/err"
	fi
	local rc=$?
	grep -v '(\[vdso\])' "$TMP/raw" >"$TMP/$1.out"
	return $rc
}

nr=0 named=0
for name in a-fp f-sched-tp l-group-read p-sched; do
	[ -f "$F/$name.data" ] || continue
	grep -q '(\[kernel\.kallsyms\])$' "$F/$name.script.txt" || continue
	for case in other this; do
		bid=0123456789abcdef0123456789abcdef01234567
		[ $case = this ] && bid=$running
		f=$TMP/$name.$case.data
		check "$name: kernel build id rewritten" \
			python3 tests/tools/perfdata-buildid.py "$F/$name.data" "$f" "[kernel.kallsyms]=$bid"
		check "$name ($case kernel): perf script exits 0" script perf "$f"
		check "$name ($case kernel): prism script exits 0" script prism "$f"
		echo "-- $name, $case kernel" >&3
		test_cmp "$TMP/perf.out" "$TMP/prism.out"
		if [ $case = other ]; then
			check "$name: no kernel frame named" \
				test -z "$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism.out" | grep -v ' \[unknown\] ')"
			grep_q 'no kernel symbols' "$TMP/err"
		else
			n=$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism.out" | grep -vc ' \[unknown\] ')
			named=$((named + n))
			check "$name: no note about another kernel" \
				test -z "$(grep 'no kernel symbols' "$TMP/err")"
		fi
	done
	nr=$((nr + 1))
done
check "compared 2+ fixtures with kernel frames ($nr)" test "$nr" -ge 2
# the fixtures' addresses fall into any x86 kernel's text; elsewhere they
# may all be outside it, and then perf and prism agree on [unknown]
if [ "$(uname -m)" = x86_64 ]; then
	check "kernel frames were named from this kernel ($named)" test "$named" -gt 0
fi
done_testing
