#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# DWARF unwinding benchmark (issue 20): a `perf record --call-graph dwarf`
# profile of a workload on this machine (report-split, main -> a -> b with
# frame pointers, next to `dd | gzip -1`: libc, libz and kernel stacks
# without them), recorded with the real perf and cached in
# $BENCH_DIR/dwarf-prof.data, read by
#
#   prism script            vs  perf script
#   prism report --stdio    vs  perf report --stdio
#
# Every command runs $REPS times, the commands interleaved round by round
# (prism, perf, prism, perf, ...: a load change on the shared machine hits
# both alike); the table shows the median wall time, the median CPU time
# (user + system, from the bench rss tool) and the largest peak RSS.  The
# script outputs are also compared: lines, and sample lines whose frames
# differ.
#
# Exit 0 (the figures are the result), 1 when something could not run.
#
# Environment: PRISM (default out/prism), BENCH_BIN (dir with the rss tool,
# default out/bench), WORKLOAD (default out/tests/workloads/report-split),
# BENCH_DIR (default /var/tmp/prism-bench), REPS (default 5), SECONDS_REC
# (default 5), FREQ (default 999), PERF (default perf), BENCH_REGEN=1
# records the profile again.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

WORKLOAD=${WORKLOAD:-$src/out/tests/workloads/report-split}
BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-5}
SECONDS_REC=${SECONDS_REC:-5}
FREQ=${FREQ:-999}

[ -x "$PRISM" ] || die "$PRISM is missing: build prism first (make O=...)"
[ -x "$BENCH_BIN/rss" ] || die "$BENCH_BIN/rss is missing: run 'make bench-bins'"
[ -x "$WORKLOAD" ] || die "$WORKLOAD is missing: make test-bins (or set WORKLOAD)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
F=$BENCH_DIR/dwarf-prof.data

if [ ! -s "$F" ] || [ "${BENCH_REGEN:-0}" = 1 ]; then
	echo "# recording $F ($SECONDS_REC s, --call-graph dwarf, -F $FREQ) ..." >&2
	"$PERF" record -q --call-graph dwarf -F "$FREQ" -e cpu-clock -m 16M -o "$F.tmp" -- \
		sh -c "$WORKLOAD $((SECONDS_REC * 1000)) & timeout $SECONDS_REC sh -c 'dd if=/dev/urandom bs=64k 2>/dev/null | gzip -1 >/dev/null'; wait" \
		>/dev/null 2>"$tmp/rec.err" || die "perf record failed: $(head -3 "$tmp/rec.err")"
	mv "$F.tmp" "$F"
fi
nsamp=$("$PRISM" stats -i "$F" 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }')

keys=(pscript fscript preport freport)
declare -A label
label[pscript]="prism script"
label[fscript]="perf script"
label[preport]="prism report --stdio"
label[freport]="perf report --stdio"
cat "$F" >/dev/null
for ((r = 0; r < REPS; r++)); do
	rss_run pscript "$tmp/prism.script" "$PRISM" script -i "$F" || exit 1
	rss_run fscript "$tmp/perf.script" "$PERF" script -i "$F" || exit 1
	rss_run preport "$tmp/prism.report" "$PRISM" report --stdio -i "$F" || exit 1
	rss_run freport "$tmp/perf.report" "$PERF" report --stdio -i "$F" || exit 1
done

bench_summary "${keys[@]}"

echo "file:   $F ($nsamp samples, $(stat -c %s "$F" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
echo "prism:  $PRISM"
echo "perf:   $("$PERF" --version)"
echo "runs:   $REPS per command, interleaved, warm page cache; wall, cpu = median, RSS = max"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates wall times)"
echo
printf '%-24s %8s %8s %9s\n' command 'wall(s)' 'cpu(s)' 'RSS(MB)'
for k in "${keys[@]}"; do
	printf '%-24s %8.2f %8.2f %9.1f\n' "${label[$k]}" "${wall[$k]}" "${cpu[$k]}" \
		"$(awk -v r="${rss[$k]}" 'BEGIN { print r / 1024 }')"
done
echo
echo "prism script vs perf script: $(ratio "${wall[fscript]}" "${wall[pscript]}")x faster (wall)," \
	"$(ratio "${cpu[fscript]}" "${cpu[pscript]}")x (cpu), RSS $(ratio "${rss[pscript]}" "${rss[fscript]}")x perf's"
echo "prism report vs perf report: $(ratio "${wall[freport]}" "${wall[preport]}")x faster (wall)," \
	"$(ratio "${cpu[freport]}" "${cpu[preport]}")x (cpu), RSS $(ratio "${rss[preport]}" "${rss[freport]}")x perf's"
# the same call chains?  sample blocks (header + frames) compared as wholes
same=$(comm -12 <(awk -v RS= -v ORS='\n\0' '{ print }' "$tmp/prism.script" | tr '\n\0' '\1\n' | sort) \
	<(awk -v RS= -v ORS='\n\0' '{ print }' "$tmp/perf.script" | tr '\n\0' '\1\n' | sort) | wc -l)
echo "script samples: prism $(awk -v RS= 'END { print NR }' "$tmp/prism.script"), perf" \
	"$(awk -v RS= 'END { print NR }' "$tmp/perf.script"), identical (header and every frame) $same"
exit 0
