#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export sqlite against perf's own export-to-sqlite.py on the same
# fixtures.  perf's script needs PySide2 only to reach SQLite (QtSql);
# where PySide2 is not installed (Debian 12 has no python3-pyside2) the
# script runs on tests/tools/pyside2-shim, a stand-in for the few QtSql
# calls it makes over Python's sqlite3 module.  Both read the binaries
# through --symfs (the workload from the fixture directory, libc as
# installed), so that they symbolize from the same files.
#
# Compared row by row (tests/tools/sql-compare.py): selected_events,
# machines, threads, comms, comm_threads, dsos (with build ids),
# branch_types, samples (every column; symbol and call path ids where both
# resolve the same) and call_paths.  Where perf leaves an address
# unresolved that prism resolves (libc of another build, kernel without
# kallsyms), symbols, samples' symbol columns and call paths are left out
# (sql-compare.py --no-symbols); their counts are t0800's.  The system-wide
# files with switch records compare threads, DSOs, samples and switches
# without comms: perf makes a comm row per comm object of its threads
# (inherited names, a process's names before and after exec), prism one per
# process and name (its main thread's exec name, as perf's exporter picks).
. tests/e2e/lib.sh
require_export sqlite
require_perf
SCRIPT=$(perf script -l 2>/dev/null >/dev/null; ls /usr/lib/perf-core/scripts/python/export-to-sqlite.py \
	/usr/libexec/perf-core/scripts/python/export-to-sqlite.py 2>/dev/null | head -1)
[ -n "$SCRIPT" ] || skip "perf's export-to-sqlite.py is not installed"
perf version --build-options 2>/dev/null | grep -q 'libpython: \[ on' ||
	skip "perf is built without Python scripting"
python3 -c 'import PySide2.QtSql' 2>/dev/null || export PYTHONPATH=$PRISM_SRC/tests/tools/pyside2-shim

F=$FIXTURES/perf-6.1
CMP=$PRISM_SRC/tests/tools/sql-compare.py
SYMFS=$TMP/symfs
mkdir -p "$SYMFS/tmp" "$SYMFS/usr/lib/x86_64-linux-gnu"
cp "$F/perfdata-workload.bin" "$SYMFS/tmp/perfdata-workload"
cp /usr/lib/x86_64-linux-gnu/libc.so.6 "$SYMFS/usr/lib/x86_64-linux-gnu/" 2>/dev/null

perf_export() { # NAME DB
	if [ "$1" = d-pipe ]; then
		perf script --symfs "$SYMFS" -i - -s "$SCRIPT" "$2" all calls callchains \
			<"$F/$1.data" >"$TMP/$1.perf.out" 2>&1
	else
		perf script --symfs "$SYMFS" -i "$F/$1.data" -s "$SCRIPT" "$2" all calls callchains \
			>"$TMP/$1.perf.out" 2>&1
	fi
}

# NAME [sql-compare options]
compare() {
	local name=$1 in=(-i "$F/$1.data")
	shift
	[ "$name" = d-pipe ] && in=(-i -)
	perf_export "$name" "$TMP/$name.perf.db"
	if [ ! -s "$TMP/$name.perf.db" ]; then
		fail "$name: perf's export-to-sqlite.py wrote nothing: $(tail -3 "$TMP/$name.perf.out")"
		return
	fi
	prism export sqlite --symfs "$SYMFS" "${in[@]}" -o "$TMP/$name.db" -q \
		<"$F/$name.data" 2>/dev/null
	check "$name: prism export exits 0" test $? -eq 0
	if python3 "$CMP" "$TMP/$name.perf.db" "$TMP/$name.db" "$@" >"$TMP/$name.cmp"; then
		echo "ok: $name: $(grep -c '^ok' "$TMP/$name.cmp") tables equal perf's" >&3
	else
		fail "$name: $(grep -v '^ok' "$TMP/$name.cmp")"
	fi
}

compare e-two-events
compare b-dwarf --no-symbols
compare a-fp --no-symbols
compare c-zstd --no-symbols
compare d-pipe --no-symbols
compare i-fixed-period --no-symbols
compare j-inject-b --no-symbols
for name in h-switch-cpu-wide h2-switch-task; do
	compare $name --tables selected_events,machines,threads,dsos,samples/threads,context_switches/threads
done
done_testing
