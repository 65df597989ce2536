#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# prism export pprof / perfetto / speedscope benchmark (issue 17), on two
# files recorded with the real perf and cached in $BENCH_DIR:
#
#   export-prof.data  >= 1 M samples: cpu-clock -g -F 10000, both CPUs busy
#                     (the same file bench/export.sh's SQL exports read)
#   export-tp.data    >= 4 M records: raw_syscalls + sched tracepoints, -a,
#                     while a getppid() loop runs (the memory bound)
#
# Each command runs $REPS times on a warm page cache (median wall and CPU
# time, largest peak RSS, by bench/rss).  Output bytes per second of wall
# time and input samples per second are printed per format.  The peer on
# the same input is perf's own converter, 'perf data convert --to-json'
# (perf 6.1 has no pprof, Perfetto or speedscope output; its gecko script
# came in 6.6), and 'perf script' with call chains (the usual first step of
# a conversion through a script) for the profile.
#
# Targets: every prism export >= 5x faster than perf data convert --to-json
# on the profile; peak RSS <= 64 MB on both files.  Exit 0 even when a
# target is missed (the summary says so), 1 when something could not run.
#
# Environment: PRISM (default out/prism), BENCH_BIN (default out/bench),
# BENCH_DIR (default /var/tmp/prism-bench), REPS (default 3), PERF (default
# perf), BENCH_REGEN=1 records the files again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-3}

for t in rss sysloop; do
	[ -x "$BENCH_BIN/$t" ] || die "$BENCH_BIN/$t is missing: run 'make bench-bins'"
done
[ -x "$PRISM" ] || die "$PRISM is missing: build prism first"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d "$BENCH_DIR/export-proto.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

records() { # FILE [TYPE]: records of a type (default all) as prism stats counts them
	"$PRISM" stats -i "$1" 2>/dev/null |
		awk -v t="${2:-TOTAL}" '$1 == t && $2 == "events:" { print $3; exit }'
}

record_prof() { # seconds out
	"$PERF" record -q -g -F 10000 -e cpu-clock -m 16M -o "$2" -- \
		"$BENCH_BIN/sysloop" "$1" 2 spin >/dev/null
}

record_tp() {
	[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	"$PERF" record -q -a -m 64M \
		-e '{raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_switch,sched:sched_wakeup}' \
		--exclude-perf -o "$2" -- "$BENCH_BIN/sysloop" "$1" 1 >/dev/null
}

generate() { # name type want secs
	local file=$BENCH_DIR/export-$1.data have secs=$4
	if [ -s "$file" ] && [ "${BENCH_REGEN:-0}" != 1 ]; then
		return 0
	fi
	for _ in 1 2 3; do
		echo "# recording $file ($secs s) ..." >&2
		"record_$1" "$secs" "$file.tmp" || die "perf record failed for $file"
		have=$(records "$file.tmp" "$2")
		if [ "${have:-0}" -ge "$3" ]; then
			mv "$file.tmp" "$file"
			return 0
		fi
		echo "# only ${have:-0} $2 records, recording longer" >&2
		secs=$((secs * 2))
	done
	rm -f "$file.tmp"
	die "could not record $3 $2 records into $file"
}

generate prof SAMPLE 1000000 60
generate tp TOTAL 4000000 5

declare -A wall rss cpu bytes
row() { # key file-label out cmd...
	local key=$1 label=$2 out=$3 m
	shift 3
	m=$(rss_measure --rm "$out" "$@")
	read -r "wall[$key]" "rss[$key]" "cpu[$key]" <<<"$m"
	bytes[$key]=$(stat -c %s "$out" 2>/dev/null || echo 0)
	awk -v l="$label" -v w="${wall[$key]}" -v r="${rss[$key]}" -v c="${cpu[$key]}" \
		-v b="${bytes[$key]}" -v n="$nrec" \
		'BEGIN { printf "%-44s %8.2f %8.2f %9.1f %9.2f %8.1f\n", l, w, c, b / 1e6,
			(w > 0 ? b / w / 1e6 : 0), r / 1024 }'
}


P=$BENCH_DIR/export-prof.data
T=$BENCH_DIR/export-tp.data
nrec=$(records "$P" SAMPLE)
ntp=$(records "$T")
echo "profile: $P, $nrec samples ($(($(stat -c %s "$P") / 1000000)) MB)"
echo "trace:   $T, $ntp records ($(($(stat -c %s "$T") / 1000000)) MB)"
echo "runs: $REPS per command, warm cache; wall/CPU medians (s), output MB, MB/s of output, peak RSS MB"
printf '%-44s %8s %8s %9s %9s %8s\n' command wall cpu out_MB MB/s rss_MB
cat "$P" "$T" >/dev/null
row pprof "prism export pprof (prof)" "$tmp/p.pb.gz" "$PRISM" export pprof -q -i "$P" -o "$tmp/p.pb.gz"
row perfetto "prism export perfetto (prof)" "$tmp/p.pftrace" \
	"$PRISM" export perfetto -q -i "$P" -o "$tmp/p.pftrace"
row speedscope "prism export speedscope (prof)" "$tmp/p.json" \
	"$PRISM" export speedscope -q -i "$P" -o "$tmp/p.json"
row json "perf data convert --to-json (prof)" "$tmp/perf.json" \
	"$PERF" data convert -i "$P" --to-json "$tmp/perf.json"
row script "perf script, call chains (prof)" "$tmp/perf.txt" \
	sh -c "'$PERF' script -i '$P' >'$tmp/perf.txt'"
nrec=$ntp
row tp_perfetto "prism export perfetto (tp)" "$tmp/t.pftrace" \
	"$PRISM" export perfetto -q -i "$T" -o "$tmp/t.pftrace"
row tp_pprof "prism export pprof (tp)" "$tmp/t.pb.gz" "$PRISM" export pprof -q -i "$T" -o "$tmp/t.pb.gz"
row tp_json "perf data convert --to-json (tp)" "$tmp/t.json" \
	"$PERF" data convert -i "$T" --to-json "$tmp/t.json"

echo
miss=0
verdict() { # text ok
	if [ "$2" = 1 ]; then
		echo "  met:    $1"
	else
		echo "  missed: $1"
		miss=1
	fi
}
for k in pprof perfetto speedscope; do
	r=$(ratio "${wall[json]}" "${wall[$k]}")
	echo "perf data convert --to-json / prism export $k (wall): $r x; samples/s: $(awk -v n="$(records "$P" SAMPLE)" -v w="${wall[$k]}" 'BEGIN { printf "%.0f", (w > 0 ? n / w : 0) }')"
	verdict "prism export $k >= 5x faster than perf's JSON converter ($r x)" \
		"$(awk -v r="$r" 'BEGIN { print (r >= 5) }')"
done
echo "perf script / prism export pprof (wall): $(ratio "${wall[script]}" "${wall[pprof]}") x"
echo "perf data convert --to-json / prism export perfetto on the trace (wall): $(ratio "${wall[tp_json]}" "${wall[tp_perfetto]}") x"
for k in pprof perfetto speedscope tp_perfetto tp_pprof; do
	verdict "$k: peak RSS <= 64 MB ($((${rss[$k]} / 1024)) MB)" \
		"$([ "${rss[$k]}" -gt 0 ] && [ "${rss[$k]}" -le $((64 * 1024)) ] && echo 1)"
done
echo "peak RSS ratio perf --to-json / prism perfetto (prof): $(ratio "${rss[json]}" "${rss[perfetto]}") x"
[ $miss = 0 ] && echo "all targets met" || echo "some targets missed"
exit 0
