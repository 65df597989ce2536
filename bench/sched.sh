#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# prism sched against perf sched on the same file: a system-wide recording
# of perf sched record's events (sched_switch, sched_stat_runtime,
# sched_waking, sched_migrate_task, fork, wakeup_new) of `perf bench sched
# messaging`, at least MIN_SAMPLES samples (about 300 MB), recorded with the
# real perf and cached in $BENCH_DIR/sched-big.data.
#
#   prism sched timehist   vs  perf sched timehist
#   prism sched latency    vs  perf sched latency
#   prism sched map        vs  perf sched map
#
# Each command runs REPS times, prism and perf interleaved; wall and
# user+system CPU are medians, RSS the largest (bench/rss.c).  The outputs
# of prism and perf are compared byte for byte (the row says "same" or
# "DIFFERENT").  Target: prism faster than perf on each, RSS bounded (not
# growing with the file).  Exit 0 even when a target is missed, 1 when
# something could not run.
#
# Environment: PRISM (default out/prism), BENCH_BIN (default out/bench),
# BENCH_DIR (default /var/tmp/prism-bench), REPS (default 5), PERF (default
# perf), MIN_SAMPLES (default 2000000), BENCH_REGEN=1 records again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-5}
MIN_SAMPLES=${MIN_SAMPLES:-2000000}
F=$BENCH_DIR/sched-big.data

[ -x "$PRISM" ] || die "$PRISM is missing: build prism first"
[ -x "$BENCH_BIN/rss" ] || die "$BENCH_BIN/rss is missing: make bench-bins"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
[ "$(id -u)" = 0 ] || die "perf sched record -a needs root"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"

samples() { "$PRISM" stats -i "$1" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }'; }

if [ ! -s "$F" ] || [ "${BENCH_REGEN:-0}" = 1 ] || [ "$(samples "$F")" -lt "$MIN_SAMPLES" ]; then
	loops=2000
	for try in 1 2 3; do
		echo "# recording $F (perf bench sched messaging -g 20 -l $loops) ..." >&2
		HOME=$tmp/home "$PERF" sched record -m 16M -o "$F.tmp" -- \
			"$PERF" bench sched messaging -g 20 -l "$loops" >/dev/null 2>"$tmp/rec.err" ||
			die "perf sched record failed: $(head -3 "$tmp/rec.err")"
		have=$(samples "$F.tmp")
		if [ "${have:-0}" -ge "$MIN_SAMPLES" ]; then
			mv "$F.tmp" "$F"
			break
		fi
		echo "# only ${have:-0} samples, recording longer" >&2
		loops=$((loops * 2))
	done
	[ -s "$F" ] || die "could not record $MIN_SAMPLES samples"
fi

cat "$F" >/dev/null
echo "file:   $F ($(samples "$F") samples, $(stat -c %s "$F" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
echo "prism:  $PRISM"
echo "perf:   $("$PERF" --version)"
echo "runs:   $REPS per command, interleaved; wall, cpu = median, RSS = max"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates wall times)"
echo
printf '%-24s %9s %9s %9s %9s %7s %7s %10s  %s\n' command 'prism(s)' 'perf(s)' \
	'cpu(s)' 'perf cpu' 'wall x' 'cpu x' 'RSS MB' output
for c in timehist latency map; do
	: >"$tmp/p$c.m"
	: >"$tmp/f$c.m"
	for ((i = 0; i < REPS; i++)); do
		rss_run "p$c" "$tmp/p$c.out" "$PRISM" sched "$c" -i "$F" || exit 1
		rss_run "f$c" "$tmp/f$c.out" "$PERF" sched -i "$F" "$c" || exit 1
	done
	bench_summary "p$c" "f$c"
	same=same
	cmp -s "$tmp/p$c.out" "$tmp/f$c.out" || same=DIFFERENT
	printf '%-24s %9.2f %9.2f %9.2f %9.2f %7s %7s %4.0f/%-5.0f  %s\n' "sched $c" \
		"${wall[p$c]}" "${wall[f$c]}" "${cpu[p$c]}" "${cpu[f$c]}" \
		"$(ratio "${wall[f$c]}" "${wall[p$c]}")" "$(ratio "${cpu[f$c]}" "${cpu[p$c]}")" \
		"$(awk -v r="${rss[p$c]}" 'BEGIN { print r / 1024 }')" \
		"$(awk -v r="${rss[f$c]}" 'BEGIN { print r / 1024 }')" "$same"
done
echo
echo "(x: perf's time / prism's; RSS: prism/perf)"
