#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export sqlite --itrace=... --calls against perf 6.1's
# `perf script --itrace=... -s export-to-sqlite.py DB branches calls [callchains]`
# on synthesized Intel PT files (tests/tools/perfdata-pt.py): the samples rows
# of the synthesized branches and instructions (every column of perf's
# "branches" table: an instruction's to_ip, with g its call path),
# the calls table perf's thread stack pairs from the calls and returns
# (ids, call paths, call and return sample ids, branch counts, no-call /
# no-return / jump flags, parent ids), the call paths and the views, row for
# row (tests/tools/sql-compare.py).  perf runs on tests/tools/pyside2-shim
# where PySide2 is not installed (see t0801).
#
# Left out where perf differs for reasons that are not the trace's: comms
# in files with a second thread (perf makes a comm row per comm object,
# see t0801), the kernel's DSO and symbol rows (perf names the kcore file
# and its offsets); times in microseconds where a trace starts again
# without a timing packet (perf estimates the nanoseconds, see t1007).
# perf 6.1 cannot decode a pipe: prism's pipe export equals its file export.
. tests/e2e/lib.sh
require_pt_files
require_export sqlite
SCRIPT=$(ls /usr/lib/perf-core/scripts/python/export-to-sqlite.py \
	/usr/libexec/perf-core/scripts/python/export-to-sqlite.py 2>/dev/null | head -1)
[ -n "$SCRIPT" ] || skip "perf's export-to-sqlite.py is not installed"
perf version --build-options 2>/dev/null | grep -q 'libpython: \[ on' ||
	skip "perf is built without Python scripting"
python3 -c 'import PySide2.QtSql' 2>/dev/null || export PYTHONPATH=$PRISM_SRC/tests/tools/pyside2-shim
CMP=$PRISM_SRC/tests/tools/sql-compare.py
ALL=selected_events,threads,comms,comm_threads,dsos,symbols,call_paths,samples/branches,calls

# the views perf's exported-sql-viewer.py reads: every column of perf's, every row
VIEWS=view:samples_view,view:calls_view,view:call_paths_view,view:symbols_view,view:threads_view

# NAME ITRACE INPUT [sql-compare options]
compare() {
	local name=$1 it=$2 in=$3 chains=
	shift 3
	# perf 6.1's script fails with callchains but no calls (call_query undefined)
	case $it in *g*) chains=callchains ;; esac
	perf script -i "$in" --itrace="$it" -s "$SCRIPT" "$TMP/$name.perf.db" branches calls \
		$chains >"$TMP/$name.perf.out" 2>&1
	if [ ! -s "$TMP/$name.perf.db" ]; then
		fail "$name: perf's export-to-sqlite.py wrote nothing: $(tail -3 "$TMP/$name.perf.out")"
		return
	fi
	prism export sqlite -q -i "$in" -o "$TMP/$name.db" --itrace="$it" --calls 2>"$TMP/err"
	check "$name --itrace=$it: prism export exits 0" test $? -eq 0
	if python3 "$CMP" "$TMP/$name.perf.db" "$TMP/$name.db" "$@" >"$TMP/$name.cmp"; then
		echo "ok: $name: $(grep '^ok' "$TMP/$name.cmp" | tr '\n' ' ')" >&3
	else
		fail "$name --itrace=$it: $(grep -v '^ok' "$TMP/$name.cmp")"
	fi
}

for c in "plain:--loops 6" "ovf:--loops 14 --ovf 4 --tsc-every 2" "notsc:--no-tsc --loops 5" \
	"error:--error --loops 2" "trunc:--truncated --loops 8" "c3:--calls 3" \
	"c40:--calls 40 --tsc-every 1" "split:--split 16 --calls 5" \
	"percpu:--per-cpu --loops 4" "cpc:--calls 4 --per-cpu" "thread2:--thread2 --loops 4"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	tables=$ALL
	case $name in percpu | cpc | thread2) tables=${ALL/comms,comm_threads,/} ;; esac
	compare "$name" be "$TMP/$name.data" --tables "$tables,$VIEWS" --us
done
# calls and returns only, the trace ends and starts: perf's thread stack sees only those
compare c40-cr cr "$TMP/c40.data" --tables "$ALL" --us
compare ovf-cr cr "$TMP/ovf.data" --tables "$ALL" --us

# instructions with the branches: a taken branch's target in to_ip (no to_dso, to_sym)
compare c40-i i5ib "$TMP/c40.data" --tables "$ALL,$VIEWS" --us
compare c3-i i1i "$TMP/c3.data" --tables "$ALL,$VIEWS" --us
# a period that script decodes in blocks: the export decodes each instruction for to_ip
$GEN --loops 300 "$WL" "$TMP/l300.data" || fail "the generator failed (--loops 300)"
compare l300-i67 i67ib "$TMP/l300.data" --tables "$ALL,$VIEWS" --us
check "l300 i67ib: instruction samples with a to_ip" test "$(sqlite3 "$TMP/l300-i67.db" \
	'SELECT count(*) FROM samples WHERE evsel_id = 2 AND to_ip != 0')" -gt 5
# periods in blocks: a sampled branch's target from the next block, as perf's and
# as one instruction at a time
compare c40-i64 i64ib "$TMP/c40.data" --tables "$ALL,$VIEWS" --us
compare l300-t i64tb "$TMP/l300.data" --tables "$ALL,$VIEWS" --us
for c in c40-i64:i64ib:c40 l300-t:i64tb:l300; do
	IFS=: read -r name it in <<<"$c"
	PRISM_PT_INSN_DECODER=1 prism export sqlite -q -i "$TMP/$in.data" -o "$TMP/$name-insn.db" \
		--itrace="$it" --calls
	check "$name: blocks give the instruction decoder's rows" \
		python3 "$CMP" "$TMP/$name-insn.db" "$TMP/$name.db" --tables "$ALL"
	check "$name: instruction samples with a to_ip" test "$(sqlite3 "$TMP/$name.db" \
		'SELECT count(*) FROM samples WHERE evsel_id = 2 AND to_ip != 0')" -gt 0
done
check "c40 i5ib: instruction samples with a to_ip (calls, returns), as perf's" \
	test "$(sqlite3 "$TMP/c40-i.db" 'SELECT count(*) FROM samples WHERE evsel_id = 2 AND to_ip != 0')" -gt 10
# g: each instruction sample's call chain a call path (perf: from the calls' thread stacks,
# at most 16 entries: c40 is deeper)
for c in "c40-g:i5igb:c40" "c3-g:i3ig:c3" "ovf-g:i2igb:ovf" "plain-g:i7ig:plain" \
	"split-g:i4igb:split" "cpc-g:i3ig:cpc" "c40-g4:i9ig4b:c40"; do
	IFS=: read -r name it in <<<"$c"
	tables="$ALL,$VIEWS"
	case $in in cpc) tables=${ALL/comms,comm_threads,/} ;; esac
	compare "$name" "$it" "$TMP/$in.data" --tables "$tables" --us
	check "$name: instruction samples with call paths" test "$(sqlite3 "$TMP/$name.db" \
		"SELECT count(*) FROM samples JOIN selected_events e ON e.id = evsel_id WHERE e.name LIKE 'instructions%' AND call_path_id != 0")" -gt 0
done

# an interrupt into kernel code and back (the kernel's entries popped at the return to user)
mkdir -p "$TMP/k"
$GEN --kernel --loops 6 --kcore-dir "$TMP/k/kcore_dir" "$WL" "$TMP/k/data" ||
	fail "the generator failed (--kernel)"
compare kernel be "$TMP/k" --tables selected_events,threads,comms,call_paths,samples/branches,calls --us
# chains across the kernel entry (perf's context marks count in the 16 entries)
compare kernel-g i1igb "$TMP/k" --tables selected_events,threads,comms,call_paths,samples/branches,calls --us
check "kernel: prism_kentry is called from pt_loop" test "$(sqlite3 "$TMP/kernel.db" \
	"SELECT count(*) FROM calls_view WHERE symbol = 'prism_kentry'")" -gt 0

# the views perf's exported-sql-viewer.py reads
check "c40: calls_view: pt_rec called 41 times, returned 41 times" \
	test "$(sqlite3 "$TMP/c40.db" "SELECT count(*) FROM calls_view WHERE symbol = 'pt_rec' AND return_id != 0")" -eq 41
check "c40: calls_view: pt_jump not returned (flags 'no return')" \
	test "$(sqlite3 "$TMP/c40.db" "SELECT flags FROM calls_view WHERE symbol = 'pt_jump'")" = "no return"
check "c40: the deepest call path: the root, pt_calls and 41 pt_rec" \
	test "$(sqlite3 "$TMP/c40.db" "WITH RECURSIVE up(id, n) AS (SELECT call_path_id, 1 FROM calls WHERE id != 0 UNION ALL SELECT parent_id, n + 1 FROM call_paths, up WHERE call_paths.id = up.id AND parent_id != 0) SELECT max(n) FROM up")" -eq 43

# a pipe (perf 6.1 decodes none): the rows of the file's export
$GEN --pipe --calls 5 "$WL" "$TMP/pipe.data" || fail "the generator failed (--pipe)"
$GEN --calls 5 "$WL" "$TMP/file.data" || fail "the generator failed"
prism export sqlite -q -i - -o "$TMP/pipe.db" --itrace=be --calls <"$TMP/pipe.data"
check "pipe: prism export exits 0" test $? -eq 0
prism export sqlite -q -i "$TMP/file.data" -o "$TMP/file.db" --itrace=be --calls
check "pipe: the samples, calls and call paths of the file's export" \
	python3 "$CMP" "$TMP/file.db" "$TMP/pipe.db" --tables "$ALL"
check "pipe: calls rows written" test "$(sqlite3 "$TMP/pipe.db" 'SELECT count(*) FROM calls')" -gt 5

# two files appended: ids go on, each file's calls refer to its own samples
prism export sqlite -q -i "$TMP/c3.data" -i "$TMP/plain.data" -o "$TMP/two.db" --itrace=b --calls
check "two files: exit 0" test $? -eq 0
check "two files: every call's samples are of its host" test "$(sqlite3 "$TMP/two.db" \
	"SELECT count(*) FROM calls c JOIN samples s ON s.id = c.call_id WHERE c.id != 0 AND s.host_id != c.host_id")" -eq 0

# pprof and speedscope: the synthesized samples of one event, as many as perf script's
n=$(perf script -i "$TMP/c40.data" --itrace=i1i 2>/dev/null | wc -l)
prism export pprof -i "$TMP/c40.data" --itrace=i1ig -o "$TMP/c40.pb.gz" >"$TMP/out" 2>&1
check "pprof --itrace=i1ig: exit 0" test $? -eq 0
grep_q "wrote '.*': $n samples of 'instructions:uH'" "$TMP/out"
if command -v go >/dev/null; then
	go tool pprof -top "$TMP/c40.pb.gz" >"$TMP/top" 2>/dev/null
	grep_q "^Type: instructions:uH" "$TMP/top"
	# every instruction of pt_rec once (self), as perf script's lines
	check "pprof: pt_rec's flat count is perf script's instructions in pt_rec" \
		grep -q "^ *$(perf script -i "$TMP/c40.data" --itrace=i1i 2>/dev/null | grep -c ' pt_rec+') .* pt_rec$" "$TMP/top"
fi
# g: the samples' stacks are the synthesized call chains, as perf script's
# (tests/tools/stack-compare.py: how many samples have each stack)
SC=$PRISM_SRC/tests/tools/stack-compare.py
for c in "c40:i1ig:$TMP/c40.data" "c40-g4:i1ig4:$TMP/c40.data" "kernel:i1ig:$TMP/k"; do
	IFS=: read -r name it in <<<"$c"
	perf script -i "$in" --itrace="$it" >"$TMP/$name.chains" 2>/dev/null
	prism export speedscope -i "$in" --itrace="$it" -o "$TMP/$name.json" >/dev/null 2>&1
	check "speedscope $name --itrace=$it: perf script's stacks" \
		python3 "$SC" "$TMP/$name.chains" --speedscope "$TMP/$name.json"
	command -v go >/dev/null || continue
	prism export pprof -i "$in" --itrace="$it" -o "$TMP/$name.pb.gz" >/dev/null 2>&1
	go tool pprof -traces "$TMP/$name.pb.gz" >"$TMP/$name.traces" 2>/dev/null
	check "pprof $name --itrace=$it: perf script's stacks (go tool pprof -traces)" \
		python3 "$SC" "$TMP/$name.chains" --pprof-traces "$TMP/$name.traces"
done
n=$(perf script -i "$TMP/c40.data" --itrace=b 2>/dev/null | wc -l)
prism export speedscope -i "$TMP/c40.data" --itrace=i1ib -e branches:uH -o "$TMP/c40.json" >"$TMP/out" 2>&1
check "speedscope --itrace=i1ib -e branches:uH: exit 0" test $? -eq 0
grep_q "wrote '.*': $n samples of 'branches:uH'" "$TMP/out"
check "speedscope: the JSON names the event" grep -q '"name":"[^"]*c40.data: branches:uH"' "$TMP/c40.json"

# errors
prism export sqlite -i "$FIXTURES/perf-6.1/a-fp.data" -o "$TMP/no.db" --itrace=b >"$TMP/out" 2>&1
check "a file without a trace: exit 1" test $? -eq 1
grep_q "has no Intel PT trace" "$TMP/out"
check "a file without a trace: no database left" test ! -e "$TMP/no.db"
expect_exit 129 prism export sqlite -i "$TMP/c3.data" -o "$TMP/x.db" --itrace=bq
expect_exit 129 prism export sqlite -i "$TMP/c3.data" -o "$TMP/x.db" --itrace=e
expect_exit 129 prism export sqlite -i "$TMP/c3.data" -o "$TMP/x.db" --itrace=ig --no-callchains
prism export sqlite -i "$TMP/c3.data" -o "$TMP/x.db" --itrace=bq >"$TMP/out" 2>&1
grep_q "'q' is not an option" "$TMP/out"
done_testing
