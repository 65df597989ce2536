#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# prism annotate against perf annotate --stdio on the same files, recorded
# with the real perf and cached in $BENCH_DIR:
#
#   annotate-hot.data   the annotate-mix workload (two hot functions) at
#                       20 kHz for 10 s: many samples, few symbols
#   annotate-wide.data  system-wide at 4 kHz while gzip, sort and sha256sum
#                       run: many symbols in several DSOs (libc, the
#                       programs); perf runs objdump once per symbol
#
# Both tools annotate every user-space symbol with samples (-d limits them
# to the DSOs the file samples, the kernel left out: neither annotates it
# without a vmlinux here).  REPS runs each, interleaved; wall and
# user+system CPU (of the process and its children: perf's objdump) are
# medians, RSS the largest.  The outputs are compared line for line after
# the normalizations t0620 documents (none on annotate-hot); the row gives
# the number of differing lines.  HOME is an empty directory for both (no
# build-id cache), so the binaries are read where they are.
#
# Environment: PRISM (default out/prism), BENCH_BIN (default out/bench),
# WORKLOAD (default out/tests/workloads/annotate-mix), BENCH_DIR (default
# /var/tmp/prism-bench), REPS (default 3), PERF (default perf),
# BENCH_REGEN=1 records again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

WORKLOAD=${WORKLOAD:-$src/out/tests/workloads/annotate-mix}
BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-3}

[ -x "$PRISM" ] || die "$PRISM is missing: build prism first"
[ -x "$BENCH_BIN/rss" ] || die "$BENCH_BIN/rss is missing: make bench-bins"
[ -x "$WORKLOAD" ] || die "$WORKLOAD is missing: make test-bins (or set WORKLOAD)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home"
export HOME=$tmp/home

rec() { # name perf-record-args...
	local out=$BENCH_DIR/$1
	shift
	[ -s "$out" ] && [ "${BENCH_REGEN:-0}" != 1 ] && return 0
	echo "# recording $out ..." >&2
	"$PERF" record -q -N -o "$out" "$@" >/dev/null 2>"$tmp/rec.err" ||
		die "perf record failed: $(head -3 "$tmp/rec.err")"
}
rec annotate-hot.data -e cpu-clock -F 20000 -- "$WORKLOAD" 10000
busy='head -c 300M /dev/urandom | gzip -1 | sha256sum >/dev/null &
	seq 3000000 | sort -R | sort -n >/dev/null; wait'
[ "$(id -u)" = 0 ] && rec annotate-wide.data -a -e cpu-clock -F 4000 -- sh -c "$busy"

dsos_of() { # the user-space DSOs with samples, comma-separated
	"$PRISM" report -i "$1" --sort dso -t '|' 2>/dev/null |
		awk -F'|' '!/^#/ && NF > 1 && $2 !~ /^\[/ { gsub(/ /, "", $2); print $2 }' | paste -sd,
}

echo "prism:  $PRISM"
echo "perf:   $("$PERF" --version)"
echo "runs:   $REPS per command, interleaved; wall, cpu = median, RSS = max"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates wall times)"
echo
printf '%-20s %8s %9s %9s %9s %9s %7s %7s %11s  %s\n' file samples 'prism(s)' 'perf(s)' \
	'cpu(s)' 'perf cpu' 'wall x' 'cpu x' 'RSS MB' 'lines differing'
for name in annotate-hot annotate-wide; do
	F=$BENCH_DIR/$name.data
	[ -s "$F" ] || continue
	d=$(dsos_of "$F")
	nsamp=$("$PRISM" stats -i "$F" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')
	: >"$tmp/p.m"
	: >"$tmp/f.m"
	for ((i = 0; i < REPS; i++)); do
		rss_run p "$tmp/p.out" "$PRISM" annotate --stdio -d "$d" -i "$F" || exit 1
		rss_run f "$tmp/f.out" "$PERF" annotate --stdio -d "$d" -i "$F" || exit 1
	done
	bench_summary p f
	ndiff=$(diff "$tmp/p.out" "$tmp/f.out" | grep -c '^[<>]')
	printf '%-20s %8s %9.2f %9.2f %9.2f %9.2f %7s %7s %5.0f/%-5.0f  %s of %s\n' "$name" \
		"$nsamp" "${wall[p]}" "${wall[f]}" "${cpu[p]}" "${cpu[f]}" \
		"$(ratio "${wall[f]}" "${wall[p]}")" "$(ratio "${cpu[f]}" "${cpu[p]}")" \
		"$(awk -v r="${rss[p]}" 'BEGIN { print r / 1024 }')" \
		"$(awk -v r="${rss[f]}" 'BEGIN { print r / 1024 }')" "$ndiff" "$(wc -l <"$tmp/f.out")"
done
echo
echo "(x: perf's time / prism's; RSS: prism/perf)"
