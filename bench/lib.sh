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
