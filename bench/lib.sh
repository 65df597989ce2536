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
