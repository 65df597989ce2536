# SPDX-License-Identifier: MIT
#
# What every benchmark sets up first (sourced right after 'set -uo pipefail'):
# the source tree ($src), the binaries it compares (PRISM, default out/prism;
# PERF, default perf; BENCH_BIN, default out/bench with the rss tool), the C
# locale and no pager, and die() for a message named after the script.
# shellcheck shell=bash

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PRISM=${PRISM:-$src/out/prism}
BENCH_BIN=${BENCH_BIN:-$src/out/bench}
PERF=${PERF:-perf}
export LC_ALL=C PERF_PAGER=cat PAGER=cat

die() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# one run of "$@" under the rss tool, its stdout to file $2; appends "wall rss
# cpu" to $tmp/$1.m (the caller's $tmp)
rss_run() {
	local key=$1 out=$2
	shift 2
	if ! "$BENCH_BIN/rss" -o "$tmp/one" "$@" >"$out" 2>"$tmp/err"; then
		echo "$(basename "$0"): failed: $* :" >&2
		head -5 "$tmp/err" >&2
		return 1
	fi
	awk '{ print $1, $2, $4 }' "$tmp/one" >>"$tmp/$key.m"
}

# the median of the numbers on stdin (one per line or separated by spaces)
median() {
	tr -s ' \t' '\n' | grep . | sort -g |
		awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# A / B with two decimals (0 when B is 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# wall[K], cpu[K] (medians) and rss[K] (maximum, kB) of the keys' rss_run lines
bench_summary() { # keys...
	local k
	declare -gA wall cpu rss
	for k in "$@"; do
		wall[$k]=$(awk '{ print $1 }' "$tmp/$k.m" | median)
		cpu[$k]=$(awk '{ print $3 }' "$tmp/$k.m" | median)
		rss[$k]=$(awk '$2 > m { m = $2 } END { print m }' "$tmp/$k.m")
	done
}

# REPS runs of "$@" under the rss tool, stdout to /dev/null (--rm FILE: FILE
# removed before each); prints "median_wall max_rss_kb median_cpu", or "0 0 0"
# and returns 1 when a run failed
rss_measure() {
	local i rmf=
	if [ "$1" = --rm ]; then
		rmf=$2
		shift 2
	fi
	: >"$tmp/m"
	for ((i = 0; i < REPS; i++)); do
		[ -z "$rmf" ] || rm -f "$rmf"
		if ! "$BENCH_BIN/rss" -o "$tmp/one" "$@" >/dev/null 2>"$tmp/err"; then
			echo "$(basename "$0"): failed: $* (output in $tmp/err):" >&2
			head -5 "$tmp/err" >&2
			echo "0 0 0"
			return 1
		fi
		cat "$tmp/one" >>"$tmp/m"
	done
	sort -n -k4,4 "$tmp/m" | awk '{ c[NR] = $4 } END { print c[int((NR + 1) / 2)] }' >"$tmp/cpu"
	sort -n -k1,1 "$tmp/m" | awk -v c="$(cat "$tmp/cpu")" '{ w[NR] = $1; if ($2 > r) r = $2 }
		END { printf "%s %d %s\n", w[int((NR + 1) / 2)], r, c }'
}
