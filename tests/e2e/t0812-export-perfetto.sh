#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export perfetto, decoded with protoc and a minimal .proto written
# from Perfetto's field numbers (tests/data/perfetto/trace-min.proto):
# sched_switch / sched_waking / sched_wakeup counts equal the file's (prism
# script), syscall/irq/softirq slices equal prism util's call counts per
# name, every slice ends on its track after it begins, every track is
# described, samples carry interned call stacks whose functions match
# prism report's sample counts.  Fixtures: perf sched, system-wide
# tracepoints (file and pipe), perf trace, a syscall group, cpu-clock -g;
# live (root, tracefs): prism record --util -a with IRQs and softirqs.
. tests/e2e/lib.sh
require_fixtures
require_cmd python3
require_cmd protoc
F=$FIXTURES/perf-6.1
P=tests/data/perfetto
S=$TMP/symfs
mkdir -p "$S/tmp"
cp "$F/perfdata-workload.bin" "$S/tmp/perfdata-workload"

# export NAME ARGS...: export, decode, summarize
export_one() {
	local name=$1
	shift
	prism export perfetto "$@" -o "$TMP/$name.pftrace" >/dev/null 2>"$TMP/$name.err"
	rc=$?
	check "$name: export exits 0 ($(head -c 300 "$TMP/$name.err"))" test $rc -eq 0
	grep_q "^wrote '$TMP/$name.pftrace': [0-9]+ packets" "$TMP/$name.err"
	protoc --proto_path="$P" --decode=perfetto.Trace trace-min.proto \
		<"$TMP/$name.pftrace" >"$TMP/$name.txt" 2>"$TMP/$name.perr"
	rc=$?
	check "$name: protoc decodes it ($(head -c 200 "$TMP/$name.perr"))" test $rc -eq 0
	python3 tests/tools/perfetto-summary.py "$TMP/$name.txt" >"$TMP/$name.sum" \
		2>"$TMP/$name.serr"
	rc=$?
	check "$name: consistent ($(head -c 300 "$TMP/$name.serr"))" test $rc -eq 0
}

# the file's own count of an event
count() {
	local ev=$1
	shift
	prism script "$@" -F event 2>/dev/null | grep -c "^ *$ev: *\$"
}

# sched: NAME ARGS...: switch and wakeup counts = the file's
sched() {
	local name=$1 sw wk wu
	shift
	sw=$(count sched:sched_switch "$@")
	wk=$(count sched:sched_waking "$@")
	wu=$(($(count sched:sched_wakeup "$@") + $(count sched:sched_wakeup_new "$@")))
	check "$name: some switches ($sw)" test "$sw" -gt 0
	grep_q "^switch $sw\$" "$TMP/$name.sum"
	grep_q "^waking $wk\$" "$TMP/$name.sum"
	grep_q "^wakeup $wu\$" "$TMP/$name.sum"
}

# calls NAME ARGS...: slices = prism util's calls
calls() {
	local name=$1
	shift
	prism util "$@" --json >"$TMP/$name.json" 2>/dev/null
	python3 tests/tools/perfetto-vs-util.py "$TMP/$name.sum" "$TMP/$name.json" \
		>"$TMP/$name.cmp" 2>&1
	rc=$?
	check "$name: slices = prism util's calls: $(tr '\n' ';' <"$TMP/$name.cmp" | head -c 500)" \
		test $rc -eq 0
}

export_one p-sched -i "$F/p-sched.data"
sched p-sched -i "$F/p-sched.data"
grep_q '^counter [1-9]' "$TMP/p-sched.sum"
grep_q 'thread_name: "perfdata-worklo"' "$TMP/p-sched.txt"
grep_q 'unit_name: "%"' "$TMP/p-sched.txt"
export_one f-sched -i "$F/f-sched-tp.data"
sched f-sched -i "$F/f-sched-tp.data"
export_one d2-pipe -i - <"$F/d2-pipe-tp.data"
sched d2-pipe -i "$F/d2-pipe-tp.data"
export_one q-trace -i "$F/q-trace.data"
calls q-trace -i "$F/q-trace.data"
export_one g-group -i "$F/g-syscalls-group.data"
calls g-group -i "$F/g-syscalls-group.data"

# samples: one PerfSample each, stacks with the workload's functions
export_one a-fp -i "$F/a-fp.data" --symfs "$S"
n=$(count cpu-clock -i "$F/a-fp.data")
grep_q "^sample $n\$" "$TMP/a-fp.sum"
prism report -i "$F/a-fp.data" --symfs "$S" --sort sym -n -g none 2>/dev/null >"$TMP/a-fp.rep"
grep_q "^function main $n\$" "$TMP/a-fp.sum"
for f in leaf_a leaf_b; do
	want=$(awk -v f="$f" '$NF == f { print $3 }' "$TMP/a-fp.rep")
	check "$f: $want samples in prism report" test -n "$want"
	grep_q "^leaf $f $want\$" "$TMP/a-fp.sum"
done
grep_q 'build_ids \{' "$TMP/a-fp.txt"
prism export perfetto -i "$F/a-fp.data" --no-samples -o "$TMP/ns.pftrace" 2>/dev/null
protoc --proto_path="$P" --decode=perfetto.Trace trace-min.proto <"$TMP/ns.pftrace" |
	grep -c 'perf_sample {' >"$TMP/ns.n"
grep_q '^0$' "$TMP/ns.n"

# errors
expect_exit 1 prism export perfetto -i "$TMP/none.data" -o "$TMP/x.pftrace"
check "no output after a failed export" test ! -e "$TMP/x.pftrace"
expect_exit 129 prism export perfetto -i "$F/a-fp.data"

# live: IRQs and softirqs, with the whole util preset
if [ "$(id -u)" -eq 0 ] && { [ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
	prism record --util -a -o "$TMP/u.data" -- sh -c 'ls / >/dev/null; sleep 0.3' \
		>/dev/null 2>"$TMP/rec.err"
	rc=$?
	check "prism record --util exits 0 ($(head -c 200 "$TMP/rec.err"))" test $rc -eq 0
	export_one live -i "$TMP/u.data"
	sched live -i "$TMP/u.data"
	calls live -i "$TMP/u.data"
	grep_q '^slice syscall ' "$TMP/live.sum"
	grep_q '^slice softirq ' "$TMP/live.sum"
else
	echo "# live part skipped: needs root and tracefs" >&3
fi
done_testing
