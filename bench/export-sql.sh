#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# prism export sqlite / postgresql benchmark (issue 17): a >= 1 M-sample
# cpu-clock profile with frame-pointer call chains (perf record -g -c
# PERIOD on the report-split workload, both CPUs busy; recorded once and
# cached in $BENCH_DIR/export-prof.data), exported
#
#   prism export sqlite      (new file, journal off, one transaction)
#   prism export postgresql  (COPY ... FROM STDIN (FORMAT binary) into a
#                             temporary cluster on a unix socket, when the
#                             server binaries are installed)
#   perf script -s export-to-sqlite.py (perf's own exporter; PySide2's QtSql
#                             through tests/tools/pyside2-shim where PySide2
#                             is missing), for the ratio
#
# with wall time, CPU time and peak RSS of prism (bench/rss.c; the
# PostgreSQL server's own memory is not counted) and sample rows per
# second.  Exit 0 with the figures, 1 when something could not run.
#
# Environment: PRISM (default out/prism), BENCH_BIN (default out/bench),
# WORKLOAD (default out/tests/workloads/report-split), BENCH_DIR (default
# /var/tmp/prism-bench), PERIOD (cpu-clock ns, default 20000), SECONDS_REC
# (default 45), PERF (default perf), NO_PERF=1 skips perf's exporter (it is
# slow: minutes for 1 M samples), BENCH_REGEN=1 records again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

WORKLOAD=${WORKLOAD:-$src/out/tests/workloads/report-split}
BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
PERIOD=${PERIOD:-20000}
SECONDS_REC=${SECONDS_REC:-45}
MIN_SAMPLES=1000000

[ -x "$PRISM" ] || die "$PRISM is missing: build prism first"
[ -x "$BENCH_BIN/rss" ] || die "$BENCH_BIN/rss is missing: run 'make bench-bins'"
[ -x "$WORKLOAD" ] || die "$WORKLOAD is missing: make test-bins (or set WORKLOAD)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
chmod 711 "$tmp"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
PG=$tmp/pg
cleanup() {
	[ -d "$PG/data" ] && su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PG/data -m immediate stop" \
		>/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
F=$BENCH_DIR/export-prof.data

samples() { "$PRISM" stats -i "$1" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }'; }

if [ ! -s "$F" ] || [ "${BENCH_REGEN:-0}" = 1 ]; then
	echo "# recording $F ($SECONDS_REC s, -g, cpu-clock every $PERIOD ns) ..." >&2
	"$PERF" record -q -g -c "$PERIOD" -e cpu-clock -m 16M -o "$F.tmp" -- \
		sh -c "$WORKLOAD $((SECONDS_REC * 1000)) & $WORKLOAD $((SECONDS_REC * 1000)); wait" \
		>/dev/null 2>"$tmp/rec.err" || die "perf record failed: $(head -3 "$tmp/rec.err")"
	mv "$F.tmp" "$F"
fi
n=$(samples "$F")
[ "${n:-0}" -ge "$MIN_SAMPLES" ] ||
	die "$F has ${n:-0} samples, fewer than $MIN_SAMPLES: BENCH_REGEN=1 with a larger SECONDS_REC or smaller PERIOD"
echo "# $F: $n samples, $(stat -c %s "$F") bytes"

# "wall rss_kb status cpu" of one run; stdout/stderr of the command to files
measure() { # NAME COMMAND...
	local name=$1
	shift
	"$BENCH_BIN/rss" -o "$tmp/$name.m" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	read -r wall rss status cpu <"$tmp/$name.m"
	[ "$status" = 0 ] || { echo "# $name failed: $(tail -2 "$tmp/$name.err")"; return 1; }
	printf '%-22s wall %7.2f s  cpu %7.2f s  peak RSS %7.1f MB  %9.0f samples/s\n' \
		"$name" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)" "$(echo "$n / $wall" | bc -l)"
	eval "${name//-/_}_wall=$wall ${name//-/_}_cpu=$cpu"
}

rm -f "$tmp/p.db"
measure prism-sqlite "$PRISM" export sqlite -i "$F" -o "$tmp/p.db" --no-progress
grep -E ' (samples|call_paths|symbols) ' "$tmp/prism-sqlite.out" | sed 's/^/#   /'
rm -f "$tmp/p.db"
measure prism-sqlite-nocg "$PRISM" export sqlite --no-callchains -i "$F" -o "$tmp/p.db" --no-progress
rm -f "$tmp/p.db"

if [ -x "$PGBIN/initdb" ] && [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
	mkdir -p "$PG" && chown postgres "$PG"
	su postgres -s /bin/sh -c "$PGBIN/initdb -D $PG/data -A trust -U postgres" >/dev/null 2>&1 &&
		su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $PG/data -l $PG/log -w -o \"-c listen_addresses='' -k $PG -c fsync=off\" start" >/dev/null 2>&1 &&
		psql -h "$PG" -U postgres -qc 'CREATE DATABASE perf' >/dev/null 2>&1
	measure prism-postgresql "$PRISM" export postgresql -i "$F" -o "host=$PG dbname=perf user=postgres" --no-progress
else
	echo "# PostgreSQL: skipped (needs root, the postgres user and $PGBIN/initdb)"
fi

SCRIPT=$(ls /usr/lib/perf-core/scripts/python/export-to-sqlite.py 2>/dev/null)
if [ "${NO_PERF:-0}" = 1 ] || [ -z "$SCRIPT" ]; then
	echo "# perf export-to-sqlite.py: skipped${SCRIPT:+ (NO_PERF=1)}"
else
	python3 -c 'import PySide2.QtSql' 2>/dev/null || export PYTHONPATH=$src/tests/tools/pyside2-shim
	if measure perf-export-to-sqlite "$PERF" script -i "$F" -s "$SCRIPT" "$tmp/perf.db" all calls callchains; then
		echo "#   perf's samples rows: $(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM samples').fetchone()[0])" "$tmp/perf.db")"
		printf '# ratio: prism export sqlite is %.1fx faster (wall), %.1fx less CPU than perf export-to-sqlite.py\n' \
			"$(echo "$perf_export_to_sqlite_wall / $prism_sqlite_wall" | bc -l)" \
			"$(echo "$perf_export_to_sqlite_cpu / $prism_sqlite_cpu" | bc -l)"
	fi
fi
exit 0
