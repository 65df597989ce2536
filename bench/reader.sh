#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Reader benchmark (issue 3): prism stats / prism script against perf report
# --stats / perf script and a bare header-walk floor, on two files recorded
# with the real perf:
#
#   tp.data    >= 4 M records: raw_syscalls + sched tracepoints, -a, while a
#              getppid() loop runs (~450 MB)
#   prof.data  >= 300 k samples: cpu-clock -g -F 10000 -a, both CPUs busy
#
# The files are cached in $BENCH_DIR and recorded again when missing (or
# with BENCH_REGEN=1).  Every command runs $REPS times on a warm page cache;
# the table shows the median wall time, the median CPU time (user + system:
# steadier than wall time on a busy machine) and the largest peak RSS.
#
# Targets: prism stats <= 2x floor; prism script >= 5x faster than perf
# script; prism peak RSS < 64 MB.  Exit status 0 even when a target is
# missed (the table says so), 1 when something could not run.
#
# Environment: PRISM (prism binary, default out/prism), BENCH_BIN (dir with
# floor, rss and sysloop, default out/bench), BENCH_DIR (default
# /var/tmp/prism-bench), REPS (default 3), BENCH_FILES (default "tp prof"),
# PERF (default perf).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

BENCH_DIR=${BENCH_DIR:-/var/tmp/prism-bench}
REPS=${REPS:-3}
BENCH_FILES=${BENCH_FILES:-tp prof}

TP_MIN_RECORDS=4000000
PROF_MIN_SAMPLES=300000

for t in floor rss sysloop; do
	[ -x "$BENCH_BIN/$t" ] || die "$BENCH_BIN/$t is missing: run 'make bench' (or make $BENCH_BIN/$t)"
done
[ -x "$PRISM" ] || die "$PRISM is missing: build prism first (make O=...)"
command -v "$PERF" >/dev/null || die "perf not found (apt-get install linux-perf)"
mkdir -p "$BENCH_DIR" || die "cannot create $BENCH_DIR"
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# records of type $2 (or all: TOTAL) in file $1, by the floor's header walk
count() {
	local pat=${2:-TOTAL:}
	"$BENCH_BIN/floor" "$1" | awk -v p="$pat" '{ k = $0; sub(/ *[0-9]+$/, "", k); gsub(/ /, "", k) }
		k == p { print $NF; f = 1 } END { if (!f) print 0 }'
}

tracefs() {
	[ -d /sys/kernel/tracing/events ] && return 0
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ] || die "tracefs is not mounted and cannot be (need root)"
}

# record F with "record_F SECONDS OUT" until it holds enough; $1 = name
generate() {
	local name=$1 file=$BENCH_DIR/$1.data secs have want what
	if [ -s "$file" ] && [ "${BENCH_REGEN:-0}" != 1 ]; then
		return 0
	fi
	case $name in
	tp)
		secs=5 want=$TP_MIN_RECORDS what=TOTAL:
		tracefs
		;;
	prof) secs=20 want=$PROF_MIN_SAMPLES what=type9: ;;
	*) die "unknown bench file '$name'" ;;
	esac
	for _ in 1 2 3; do
		echo "# recording $file ($secs s of sysloop) ..." >&2
		"record_$name" "$secs" "$file.tmp" || die "perf record failed for $file (see above)"
		have=$(count "$file.tmp" "$what")
		if [ "$have" -ge "$want" ]; then
			mv "$file.tmp" "$file"
			echo "# $file: $have ${what%:} records" >&2
			return 0
		fi
		echo "# $file: only $have ${what%:} records (want $want), recording longer" >&2
		secs=$(awk -v s="$secs" -v h="$have" -v w="$want" \
			'BEGIN { n = h ? s * w / h * 1.1 : s * 2; printf "%d", n + 1 }')
	done
	rm -f "$file.tmp"
	die "could not record $want ${what%:} records into $file"
}

# shellcheck disable=SC2317 # called as "record_$name"
record_tp() {
	# a group, so all four are enabled at once; a large buffer, so nothing is lost
	"$PERF" record -q -a -m 64M \
		-e '{raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_switch,sched:sched_wakeup}' \
		--exclude-perf -o "$2" -- "$BENCH_BIN/sysloop" "$1" 1 >/dev/null
}

# shellcheck disable=SC2317
record_prof() {
	"$PERF" record -q -a -g -F 10000 -e cpu-clock -m 16M -o "$2" -- \
		"$BENCH_BIN/sysloop" "$1" 2 spin >/dev/null
}

declare -A wall rss cpu
row() { # key file label cmd...
	local key=$1 f=$2 label=$3 m
	shift 3
	m=$(rss_measure "$@")
	read -r "wall[$key]" "rss[$key]" "cpu[$key]" <<<"$m"
	awk -v f="$f" -v l="$label" -v w="${wall[$key]}" -v r="${rss[$key]}" -v c="${cpu[$key]}" -v n="$nrec" \
		'BEGIN { printf "%-5s %-32s %8.3f %8.3f %9.2f %8.1f\n", f, l, w, c, (w > 0 ? n / w / 1e6 : 0), r / 1024 }'
}


for name in $BENCH_FILES; do
	generate "$name"
done

echo "prism:  $PRISM ($("$PRISM" --version 2>/dev/null | head -1))"
echo "perf:   $("$PERF" --version)"
echo "runs:   $REPS per command, warm page cache; wall = median, RSS = max"
echo
printf '%-5s %-32s %8s %8s %9s %8s\n' file command 'wall(s)' 'cpu(s)' 'Mrec/s' 'RSS(MB)'
summary=()
for name in $BENCH_FILES; do
	f=$BENCH_DIR/$name.data
	nrec=$(count "$f")
	nsamp=$(count "$f" type9:)
	round=$("$BENCH_BIN/floor" "$f" | awk '/largest round/ { printf "%.1f", $(NF - 1) / 1048576 }')
	# warm the page cache
	cat "$f" >/dev/null
	row "$name.floor" "$name" "floor (header walk)" "$BENCH_BIN/floor" "$f"
	row "$name.pstats" "$name" "prism stats" "$PRISM" stats -i "$f"
	row "$name.fstats" "$name" "perf report --stats" "$PERF" report --stats -i "$f"
	row "$name.pscript" "$name" "prism script" "$PRISM" script -i "$f"
	row "$name.fscript" "$name" "perf script" "$PERF" script -i "$f"
	if [ "$name" = prof ]; then
		# the same text as prism script (call chains as addresses, no symbols)
		row "$name.fscriptF" "$name" "perf script -F (prism's fields)" \
			"$PERF" script -F comm,tid,cpu,time,period,event,ip -i "$f"
	fi
	summary+=("$name: $nrec records ($nsamp samples), $(stat -c %s "$f" | awk '{ printf "%.0f MB", $1 / 1e6 }'), \
largest FINISHED_ROUND span $round MiB (time ordering holds up to two); \
prism stats / floor = $(ratio "${wall[$name.pstats]}" "${wall[$name.floor]}") wall, \
$(ratio "${cpu[$name.pstats]}" "${cpu[$name.floor]}") cpu (target <= 2); \
perf report --stats / prism stats = $(ratio "${wall[$name.fstats]}" "${wall[$name.pstats]}") wall; \
perf script / prism script = $(ratio "${wall[$name.fscript]}" "${wall[$name.pscript]}") wall, \
$(ratio "${cpu[$name.fscript]}" "${cpu[$name.pscript]}") cpu (target >= 5)\
${wall[$name.fscriptF]:+; perf script -F / prism script = $(ratio "${wall[$name.fscriptF]}" "${wall[$name.pscript]}") wall, $(ratio "${cpu[$name.fscriptF]}" "${cpu[$name.pscript]}") cpu}; \
prism peak RSS: stats $((rss[$name.pstats] / 1024)) MB, script $((rss[$name.pscript] / 1024)) MB (target < 64); \
perf peak RSS: report --stats $((rss[$name.fstats] / 1024)) MB, script $((rss[$name.fscript] / 1024)) MB")
done
echo
for s in "${summary[@]}"; do
	echo "${s//; /$'\n'    }"
done
echo
# verdicts on wall time (the targets' measure) and on CPU time
missed=0
verdict() { # what ok
	if [ "$2" = 1 ]; then echo "met:    $1"; else echo "MISSED: $1"; missed=1; fi
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= b) ? 1 : 0 }'; }
for name in $BENCH_FILES; do
	for m in wall cpu; do
		declare -n t=$m
		verdict "$name: prism stats <= 2x floor ($m)" \
			"$(le "${t[$name.pstats]}" "$(awk -v b="${t[$name.floor]}" 'BEGIN { print 2 * b }')")"
		verdict "$name: prism script >= 5x faster than perf script ($m)" \
			"$(le "$(awk -v a="${t[$name.pscript]}" 'BEGIN { print 5 * a }')" "${t[$name.fscript]}")"
		unset -n t
	done
	for k in pstats pscript; do
		verdict "$name: prism ${k#p} peak RSS < 64 MB" "$([ "${rss[$name.$k]}" -lt $((64 * 1024)) ] && echo 1)"
	done
done
[ $missed = 1 ] || echo "all targets met"
exit 0
