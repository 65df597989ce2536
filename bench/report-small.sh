#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# prism report on small and mid-size profiles against perf report --stdio
# (issue 19): fixed costs count here, the kernel's symbols above all.
#
#   3k   a 3,000-sample system-wide -a -g cpu-clock profile (1.5 s)
#   48k  a 48,000-sample one (6 s)
#   a few hundred samples: this machine with and without kernel samples,
#        "another machine's" (the kernel build id rewritten, no kernel map),
#        and the perf 6.1 fixtures of ../shared/fixtures (recorded elsewhere)
#
# Each file is reported REPS times by each command, interleaved (prism cold,
# prism warm, perf, prism cold, ...), and the medians of wall and user+sys
# time are compared.  "cold" is prism's first run on a machine: its kernel
# symbol index ($XDG_CACHE_HOME/prism) is empty each time; "warm" is every
# later run.  HOME is an empty directory for both tools (no build-id cache).
#
# Targets: 3k and 48k >= 5x faster than perf warm, >= 2x cold; on the small
# files prism never slower than perf (the worst ratio is printed).  Exit 0
# even when a target is missed (the summary says so), 1 when something
# could not run.
#
# Environment: PRISM (default out/prism), WORKLOAD (out/tests/workloads/
# report-split), BENCH_DIR (default /var/tmp/prism-bench), REPS (default 11),
# PERF (default perf), FIXTURES (default ../shared/fixtures), BENCH_REGEN=1
# records the profiles again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

WORKLOAD=${WORKLOAD:-$src/out/tests/workloads/report-split}
BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-11}
FIXTURES=${FIXTURES:-$src/../shared/fixtures}

[ -x "$PRISM" ] || die "$PRISM is missing: build prism first"
[ -x "$WORKLOAD" ] || die "$WORKLOAD is missing: make test-bins (or set WORKLOAD)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/warm"

samples() {
	"$PRISM" stats -i "$1" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }'
}

rec() { # out perf-record-args... -- cmd
	local out=$BENCH_DIR/$1
	shift
	[ -s "$out" ] && [ "${BENCH_REGEN:-0}" != 1 ] && return 0
	echo "# recording $out ..." >&2
	HOME=$tmp/home "$PERF" record -q -N -o "$out" "$@" >/dev/null 2>"$tmp/rec.err" ||
		die "perf record failed: $(head -3 "$tmp/rec.err")"
}
busy="$WORKLOAD %d & timeout %s sh -c 'dd if=/dev/urandom bs=64k 2>/dev/null | gzip -1 >/dev/null'; wait"
# shellcheck disable=SC2059
rec report-3k.data -a -g -F 1000 -e cpu-clock -- sh -c "$(printf "$busy" 1500 1.5)"
# shellcheck disable=SC2059
rec report-48k.data -a -g -F 4000 -e cpu-clock -- sh -c "$(printf "$busy" 6000 6)"
rec small-kernel.data -g -F 2000 -e cpu-clock -- dd if=/dev/zero of=/dev/null bs=4k count=150000
rec small-user.data -g -F 2000 -e cpu-clock:u -- "$WORKLOAD" 200
foreign=0123456789abcdef0123456789abcdef01234567
python3 "$src/tests/tools/perfdata-buildid.py" "$BENCH_DIR/small-kernel.data" \
	"$tmp/small-other-kernel.data" "[kernel.kallsyms]=$foreign" || die "perfdata-buildid.py failed"
python3 "$src/tests/tools/perfdata-kmaps.py" "$tmp/small-other-kernel.data" \
	"$tmp/small-no-kernel-map.data" no-kernel-map || die "perfdata-kmaps.py failed"

files=("$BENCH_DIR/report-3k.data" "$BENCH_DIR/report-48k.data" "$BENCH_DIR/small-kernel.data"
	"$BENCH_DIR/small-user.data" "$tmp/small-other-kernel.data" "$tmp/small-no-kernel-map.data")
for f in a-fp a2-fp-shell e-two-events i-fixed-period l-group-read n-ns-cgroup; do
	[ -f "$FIXTURES/perf-6.1/$f.data" ] && files+=("$FIXTURES/perf-6.1/$f.data")
done

TIMEFORMAT='%3R %3U %3S'
one() { # label cmd...: appends "wall cpu" to $tmp/label
	local label=$1 t
	shift
	t=$({ time "$@" >/dev/null 2>&1; } 2>&1 | tail -1)
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$t" >>"$tmp/$label"
}
median() { # file column
	sort -n -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }

echo "prism:  $PRISM"
echo "perf:   $("$PERF" --version)"
echo "runs:   $REPS per command, interleaved; medians of wall and user+sys (ms)"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates wall times)"
echo
printf '%-22s %7s %7s %7s %7s %7s %7s   %s\n' file samples perf cold warm 'x cold' 'x warm' \
	'(cpu: perf cold warm, x cold, x warm)'
worst_cold=1000 worst_warm=1000 worst=
missed=0
for f in "${files[@]}"; do
	rm -rf "$tmp/cold" "$tmp/cold.t" "$tmp/warm.t" "$tmp/perf" "$tmp/warm"/*
	HOME=$tmp/home XDG_CACHE_HOME=$tmp/warm "$PRISM" report --stdio -i "$f" >/dev/null 2>&1
	cat "$f" >/dev/null
	for ((i = 0; i < REPS; i++)); do
		rm -rf "$tmp/cold"
		one cold.t env HOME="$tmp/home" XDG_CACHE_HOME="$tmp/cold" "$PRISM" report --stdio -i "$f"
		one warm.t env HOME="$tmp/home" XDG_CACHE_HOME="$tmp/warm" "$PRISM" report --stdio -i "$f"
		one perf env HOME="$tmp/home" "$PERF" report --stdio -i "$f"
	done
	pw=$(median "$tmp/perf" 1) cw=$(median "$tmp/cold.t" 1) ww=$(median "$tmp/warm.t" 1)
	pc=$(median "$tmp/perf" 2) cc=$(median "$tmp/cold.t" 2) wc=$(median "$tmp/warm.t" 2)
	rm -f "$tmp/cold.t" "$tmp/warm.t" "$tmp/perf"
	name=$(basename "$f" .data)
	printf '%-22s %7s %7.0f %7.0f %7.0f %7s %7s   %.0f %.0f %.0f, %s, %s\n' "$name" \
		"$(samples "$f")" "$(awk -v v="$pw" 'BEGIN { print v * 1000 }')" \
		"$(awk -v v="$cw" 'BEGIN { print v * 1000 }')" "$(awk -v v="$ww" 'BEGIN { print v * 1000 }')" \
		"$(ratio "$pw" "$cw")" "$(ratio "$pw" "$ww")" \
		"$(awk -v v="$pc" 'BEGIN { print v * 1000 }')" "$(awk -v v="$cc" 'BEGIN { print v * 1000 }')" \
		"$(awk -v v="$wc" 'BEGIN { print v * 1000 }')" "$(ratio "$pc" "$cc")" "$(ratio "$pc" "$wc")"
	case $name in
	report-3k | report-48k)
		awk -v a="$(ratio "$pw" "$ww")" 'BEGIN { exit !(a >= 5) }' ||
			{ echo "MISSED: $name warm >= 5x"; missed=1; }
		awk -v a="$(ratio "$pw" "$cw")" 'BEGIN { exit !(a >= 2) }' ||
			{ echo "MISSED: $name cold >= 2x"; missed=1; }
		;;
	*)
		c=$(ratio "$pw" "$cw") w=$(ratio "$pw" "$ww")
		awk -v a="$c" -v b="$worst_cold" 'BEGIN { exit !(a < b) }' && worst_cold=$c worst=$name
		awk -v a="$w" -v b="$worst_warm" 'BEGIN { exit !(a < b) }' && worst_warm=$w
		;;
	esac
done
echo
echo "small files: worst ratio perf/prism ${worst_cold}x cold (${worst}), ${worst_warm}x warm"
awk -v a="$worst_cold" 'BEGIN { exit !(a >= 1) }' || { echo "MISSED: prism slower than perf on a small file"; missed=1; }
[ $missed = 1 ] || echo "all targets met"
exit 0
