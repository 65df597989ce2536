#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Counting benchmark (issue 18): a getppid() loop of N calls timed alone,
# under perf stat -e syscalls:sys_enter_getppid and under prism stat with
# the same event; runs interleaved, medians over $REPS.
#
# Per configuration: the loop's own time (measured inside the workload) and
# its slowdown against the bare loop (the counting overhead: the tracepoint
# fires once per call either way); the count (must be N); the tool's wall
# time and peak RSS (bench/rss).
#
# Target: prism's added loop time equal to perf's (ratio <= 1.05).  Exit
# status 0 even when the target is missed (the table says so), 1 when
# something cannot run or a count is wrong.
#
# Environment: PRISM (default out/prism), WORKLOAD (default
# out/tests/workloads/getppid-loop), RSS (default out/bench/rss), N (calls,
# default 2000000), REPS (default 5), BENCH_DIR (default
# /var/tmp/prism-bench-stat), PERF (perf).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

WORKLOAD=${WORKLOAD:-$src/out/tests/workloads/getppid-loop}
RSS=${RSS:-$src/out/bench/rss}
N=${N:-2000000}
REPS=${REPS:-5}
BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench-stat}
EV=syscalls:sys_enter_getppid

[ "$(id -u)" -eq 0 ] || die "needs root (tracepoints)"
[ -x "$PRISM" ] || die "no prism binary at $PRISM (make)"
[ -x "$WORKLOAD" ] || die "no workload at $WORKLOAD (make test-bins)"
[ -x "$RSS" ] || die "no rss tool at $RSS (make bench-bins)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing ||
	die "tracefs is not mounted and cannot be mounted"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"

configs="alone perf prism"
declare -A loop_ns wall rss

run() { # CONFIG
	local c=$1 out=$BENCH_DIR/$1.csv line n
	case $c in
	alone) "$RSS" -o "$BENCH_DIR/rss" "$WORKLOAD" "$N" -t 2>"$BENCH_DIR/err" ;;
	perf) "$RSS" -o "$BENCH_DIR/rss" "$PERF" stat -x, -o "$out" -e $EV -- "$WORKLOAD" "$N" -t \
		2>"$BENCH_DIR/err" ;;
	prism) "$RSS" -o "$BENCH_DIR/rss" "$PRISM" stat -x, -o "$out" -e $EV -- "$WORKLOAD" "$N" -t \
		2>"$BENCH_DIR/err" ;;
	esac
	line=$(grep -E '^[0-9]+ [0-9]+$' "$BENCH_DIR/err" | tail -n 1)
	[ -n "$line" ] || die "$c: no timing line from the workload; stderr: $(head -c 500 "$BENCH_DIR/err")"
	loop_ns[$c]+="${line%% *} "
	read -r w k _ <"$BENCH_DIR/rss"
	wall[$c]+="$w "
	rss[$c]+="$k "
	if [ "$c" != alone ]; then
		n=$(awk -F, -v ev=$EV '$3 == ev { print $1 }' "$out")
		[ "$n" = "$N" ] || die "$c counted ${n:-nothing} of $N calls"
	fi
}

median() { # values...
	printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : 0}'
}

for ((r = 1; r <= REPS; r++)); do
	for c in $configs; do
		run "$c"
	done
	echo "stat.sh: round $r/$REPS done" >&2
done

# shellcheck disable=SC2086
base=$(median ${loop_ns[alone]})
printf '\ncounting benchmark: %s getppid() calls counted with -e %s, %s runs each (medians)\n\n' \
	"$N" "$EV" "$REPS"
printf '%-7s %10s %9s %10s %11s\n' config loop_ms slowdown wall_s peak_rss_kB
for c in $configs; do
	# shellcheck disable=SC2086
	m=$(median ${loop_ns[$c]})
	# shellcheck disable=SC2086
	printf '%-7s %10.1f %8.2fx %10.3f %11s\n' "$c" "$(echo "$m / 1000000" | bc -l)" \
		"$(echo "$m / $base" | bc -l)" "$(median ${wall[$c]})" "$(median ${rss[$c]})"
	eval "loop_$c=$m"
done
# shellcheck disable=SC2154
added_perf=$(echo "$loop_perf - $loop_alone" | bc -l)
added_prism=$(echo "$loop_prism - $loop_alone" | bc -l)
printf '\nadded loop time: perf %.1f ms, prism %.1f ms; prism / perf %.2f (target <= 1.05)\n' \
	"$(echo "$added_perf / 1000000" | bc -l)" "$(echo "$added_prism / 1000000" | bc -l)" \
	"$(echo "if ($added_perf > 0) $added_prism / $added_perf else 0" | bc -l)"
printf 'loop time prism / perf: %.3f\n' "$(echo "$loop_prism / $loop_perf" | bc -l)"
