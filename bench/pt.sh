#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Intel PT decoding benchmark (issue 16): a synthesized trace of
# tests/workloads/pt-loop (tests/tools/perfdata-pt.py: pt_loop's loop, a TNT
# byte per two iterations, in AUXTRACE records of 4 MiB) of $PT_MB MB, read by
#
#   prism script --itrace=b   vs  perf script --itrace=b   (every branch, 3.5 per trace byte)
#   prism script -D           vs  perf report -D           (every packet)
#   prism script --itrace=i100us, --itrace=i1000i vs perf's, on a trace of
#                             $PT_PERIOD_MB MB (periods: perf skips ahead between
#                             samples, prism walks blocks, many at a time where
#                             they only count; PRISM_PT_LIBIPT_BLOCKS=1 gives the
#                             figures of libipt's block decoder,
#                             PRISM_PT_INSN_DECODER=1 of one instruction at a time)
#   prism script --call-ret-trace vs perf's (calls and returns, the thread stack)
#   prism report vs perf report on a trace of $PT_PERIOD_MB MB with an MTC every
#                             16 TNTs (--mtc 3, perf record's default mtc_period; a
#                             real trace has one every 10 to 50 TNTs)
#   prism report vs perf report (the default: --itrace=i100usgxwp, the
#                             instruction samples every 100 us with their
#                             call chains, pt_loop calling pt_leaf, and the
#                             psb/cbr/power events), and the same with
#                             --itrace=i100usg, --stdio, on the $PT_PERIOD_MB MB trace
#
# Each command runs $REPS times, interleaved; the table shows the median
# wall and CPU time, the largest peak RSS, and packets (trace bytes) per
# second; the --itrace outputs and the reports are compared line for line.  The issue's
# 100 MB make --itrace=b print 350 M lines (an hour here): the default is
# smaller, PT_MB=100 runs it.
#
# Environment: PRISM (default out/prism), BENCH_BIN (dir with the rss tool,
# default out/bench), WORKLOAD (default out/tests/workloads/pt-loop),
# BENCH_DIR (default /var/tmp/prism-bench), REPS (default 3), PT_MB
# (default 2), PT_PERIOD_MB (default 32), PERF (default perf).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

WORKLOAD=${WORKLOAD:-$src/out/tests/workloads/pt-loop}
BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-3}
PT_MB=${PT_MB:-2}
PT_PERIOD_MB=${PT_PERIOD_MB:-32}

[ -x "$PRISM" ] || die "$PRISM is missing: build prism first"
[ -x "$BENCH_BIN/rss" ] || die "$BENCH_BIN/rss is missing: run 'make bench-bins'"
[ -x "$WORKLOAD" ] || die "$WORKLOAD is missing: make test-bins (or set WORKLOAD)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
"$PRISM" version --build-options | grep -q 'intel-pt: \[ on' || die "prism was built without libipt"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
# gen MB: the synthesized file of MB megabytes (made once, kept in $BENCH_DIR)
gen() {
	local f=$BENCH_DIR/pt-$1.data
	if [ ! -s "$f" ]; then
		python3 "$src/tests/tools/perfdata-pt.py" --loops $(($1 * 2000000)) --split 4194304 \
			"$WORKLOAD" "$f.tmp" || die "the generator failed"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}
# gen_mtc MB: the same with MTC packets (--mtc 3)
gen_mtc() {
	local f=$BENCH_DIR/pt-mtc3-$1.data
	if [ ! -s "$f" ]; then
		python3 "$src/tests/tools/perfdata-pt.py" --loops $(($1 * 1750000)) --split 4194304 \
			--mtc 3 "$WORKLOAD" "$f.tmp" || die "the generator failed"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}
F=$(gen "$PT_MB") || exit 1
FP=$(gen "$PT_PERIOD_MB") || exit 1
FM=$(gen_mtc "$PT_PERIOD_MB") || exit 1
mbytes=$(stat -c %s "$FM")
loops=$((PT_MB * 2000000))
bytes=$(stat -c %s "$F")
pbytes=$(stat -c %s "$FP")

keys=(pb fb pc fc pd fd pu fu pn fn pr fr pg fg pm fm)
declare -A label
label[pb]="prism script --itrace=b"
label[fb]="perf script --itrace=b"
label[pd]="prism script -D"
label[fd]="perf report -D"
label[pu]="prism script --itrace=i100us"
label[fu]="perf script --itrace=i100us"
label[pn]="prism script --itrace=i1000i"
label[fn]="perf script --itrace=i1000i"
label[pr]="prism report"
label[fr]="perf report"
label[pg]="prism report --itrace=i100usg"
label[fg]="perf report --itrace=i100usg"
label[pm]="prism report (MTCs)"
label[fm]="perf report (MTCs)"
cat "$F" "$FP" "$FM" >/dev/null
label[pc]="prism --call-ret-trace"
label[fc]="perf --call-ret-trace"
for ((r = 0; r < REPS; r++)); do
	rss_run pb "$tmp/prism.b" "$PRISM" script -i "$F" --itrace=b || exit 1
	rss_run fb "$tmp/perf.b" "$PERF" script -i "$F" --itrace=b || exit 1
	rss_run pc "$tmp/prism.c" "$PRISM" script -i "$F" --call-ret-trace || exit 1
	rss_run fc "$tmp/perf.c" "$PERF" script -i "$F" --call-ret-trace || exit 1
	rss_run pd /dev/null "$PRISM" script -D -i "$F" || exit 1
	rss_run fd /dev/null "$PERF" report -D -i "$F" || exit 1
	rss_run pu "$tmp/prism.u" "$PRISM" script -i "$FP" --itrace=i100us || exit 1
	rss_run fu "$tmp/perf.u" "$PERF" script -i "$FP" --itrace=i100us || exit 1
	rss_run pn "$tmp/prism.n" "$PRISM" script -i "$FP" --itrace=i1000i || exit 1
	rss_run fn "$tmp/perf.n" "$PERF" script -i "$FP" --itrace=i1000i || exit 1
	rss_run pr "$tmp/prism.r" "$PRISM" report -i "$FP" --stdio || exit 1
	rss_run fr "$tmp/perf.r" "$PERF" report -i "$FP" --stdio || exit 1
	rss_run pg "$tmp/prism.g" "$PRISM" report -i "$FP" --stdio --itrace=i100usg || exit 1
	rss_run fg "$tmp/perf.g" "$PERF" report -i "$FP" --stdio --itrace=i100usg || exit 1
	rss_run pm "$tmp/prism.m" "$PRISM" report -i "$FM" --stdio || exit 1
	rss_run fm "$tmp/perf.m" "$PERF" report -i "$FM" --stdio || exit 1
done

bench_summary "${keys[@]}"

echo "file:   $F ($(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }'), pt_loop($loops))"
echo "        $FP ($(awk -v b="$pbytes" 'BEGIN { printf "%.1f MB", b / 1e6 }')) for the periods"
echo "        $FM ($(awk -v b="$mbytes" 'BEGIN { printf "%.1f MB", b / 1e6 }')) with MTCs"
echo "prism:  $PRISM"
echo "perf:   $("$PERF" --version)"
echo "runs:   $REPS per command, interleaved, warm page cache; wall, cpu = median, RSS = max"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates wall times)"
echo
printf '%-30s %8s %8s %9s %14s\n' command 'wall(s)' 'cpu(s)' 'RSS(MB)' 'packets/s'
for k in "${keys[@]}"; do
	b=$bytes
	case $k in pu | fu | pn | fn | pr | fr | pg | fg) b=$pbytes ;; pm | fm) b=$mbytes ;; esac
	printf '%-30s %8.2f %8.2f %9.1f %14.0f\n' "${label[$k]}" "${wall[$k]}" "${cpu[$k]}" \
		"$(awk -v r="${rss[$k]}" 'BEGIN { print r / 1024 }')" \
		"$(awk -v b="$b" -v w="${wall[$k]}" 'BEGIN { print (w > 0 ? b / w : 0) }')"
done
echo
echo "--itrace=b: prism $(ratio "${wall[fb]}" "${wall[pb]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fb]}" "${cpu[pb]}")x (cpu), RSS $(ratio "${rss[pb]}" "${rss[fb]}")x perf's"
echo "call-ret:   prism $(ratio "${wall[fc]}" "${wall[pc]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fc]}" "${cpu[pc]}")x (cpu), RSS $(ratio "${rss[pc]}" "${rss[fc]}")x perf's"
echo "-D:         prism $(ratio "${wall[fd]}" "${wall[pd]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fd]}" "${cpu[pd]}")x (cpu), RSS $(ratio "${rss[pd]}" "${rss[fd]}")x perf's"
echo "i100us:      prism $(ratio "${wall[fu]}" "${wall[pu]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fu]}" "${cpu[pu]}")x (cpu), RSS $(ratio "${rss[pu]}" "${rss[fu]}")x perf's"
echo "i1000i:      prism $(ratio "${wall[fn]}" "${wall[pn]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fn]}" "${cpu[pn]}")x (cpu), RSS $(ratio "${rss[pn]}" "${rss[fn]}")x perf's"
echo "report:      prism $(ratio "${wall[fr]}" "${wall[pr]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fr]}" "${cpu[pr]}")x (cpu), RSS $(ratio "${rss[pr]}" "${rss[fr]}")x perf's"
echo "report i100usg: prism $(ratio "${wall[fg]}" "${wall[pg]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fg]}" "${cpu[pg]}")x (cpu), RSS $(ratio "${rss[pg]}" "${rss[fg]}")x perf's"
echo "report (MTCs): prism $(ratio "${wall[fm]}" "${wall[pm]}")x faster than perf (wall)," \
	"$(ratio "${cpu[fm]}" "${cpu[pm]}")x (cpu), RSS $(ratio "${rss[pm]}" "${rss[fm]}")x perf's"
# perf's tip at the end of its report ('#', '# (Tip: ...)', '#') is not prism's
for o in r g m; do
	if cmp -s "$tmp/prism.$o" <(awk '{ l[NR] = $0 } END { n = NR; if (l[n - 1] ~ /^# \(Tip: /) n -= 3
		for (i = 1; i <= n; i++) print l[i] }' "$tmp/perf.$o"); then
		echo "report output ($o): identical but perf's tip ($(wc -l <"$tmp/prism.$o") lines)"
	else
		echo "report output ($o): DIFFERS (prism $(wc -l <"$tmp/prism.$o"), perf $(wc -l <"$tmp/perf.$o") lines)"
	fi
done
for o in b u n; do
	if cmp -s "$tmp/prism.$o" "$tmp/perf.$o"; then
		echo "--itrace output ($o): identical ($(wc -l <"$tmp/perf.$o") lines)"
	else
		echo "--itrace output ($o): DIFFERS (prism $(wc -l <"$tmp/prism.$o"), perf $(wc -l <"$tmp/perf.$o") lines)"
	fi
done
if cmp -s "$tmp/prism.c" "$tmp/perf.c"; then
	echo "--call-ret-trace output: identical ($(wc -l <"$tmp/prism.c") lines)"
else
	echo "--call-ret-trace output: DIFFERS"
fi
exit 0
