#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record -e intel_pt//... against a fake intel_pt PMU (PRISM_SYSFS
# points prism at a sysfs tree with bus/event_source/devices/intel_pt/
# {type,format/*,caps/*}, as a Skylake has them): the terms and perf's
# default config give the attr.config prism opens (prism -vv), the same as
# perf record -vv's with the tree bind-mounted over sysfs in a private mount
# namespace (root only); then perf_event_open fails with a message that names
# the PMU type, the sysfs tree and the config, and nothing is written.  The
# AUX options: -m PAGES,AUXPAGES (a power of two of pages), --snapshot and
# --filter only with intel_pt.  Without any intel_pt the refusal stays
# (t1003).
. tests/e2e/lib.sh
cd "$TMP" || exit 1

# the fake tree: intel_pt, and the machine's own PMUs beside it
fake=$TMP/sys
devs=$fake/bus/event_source/devices
mkdir -p "$devs/intel_pt/format" "$devs/intel_pt/caps"
for d in /sys/bus/event_source/devices/*; do
	[ "$(basename "$d")" = intel_pt ] || ln -s "$(readlink -f "$d")" "$devs/$(basename "$d")"
done
pt=$devs/intel_pt
echo 8 >"$pt/type"
for t in pt:0 cyc:1 pwr_evt:4 fup_on_ptw:5 mtc:9 tsc:10 noretcomp:11 ptw:12 branch:13 \
	mtc_period:14-17 cyc_thresh:19-22 psb_period:24-27; do
	echo "config:${t#*:}" >"$pt/format/${t%%:*}"
done
echo 1 >"$pt/caps/mtc"
echo 249 >"$pt/caps/mtc_periods"
echo 1 >"$pt/caps/psb_cyc"
echo 3f >"$pt/caps/psb_periods"
echo 3fff >"$pt/caps/cycle_thresholds"
echo 24 >"$pt/max_nonturbo_ratio"
echo 2 >"$pt/nr_addr_filters"
export PRISM_SYSFS=$fake

config_of() { # the config prism opens intel_pt with: prism -vv's perf_event_open line
	sed -n 's/.*perf_event_open intel_pt.*config \(0x[0-9a-f]*\), config1.*/\1/p' "$1" | head -1
}

# perf as the oracle: the fake tree over sysfs, in a mount namespace of its own
perf_config() {
	unshare -m sh -c "mount --bind '$devs' /sys/bus/event_source/devices &&
		perf record -vv -e '$1' -o '$TMP/perf.data' -- true" 2>&1 |
		sed -n 's/^ *config  *\(0x[0-9a-f]*\)$/\1/p' | head -1
}
oracle=
if [ "$(id -u)" = 0 ] && command -v perf >/dev/null && command -v unshare >/dev/null &&
	unshare -m true 2>/dev/null; then
	oracle=1
fi
# perf sets intel_pt up as an AUX tracer (its dummies, side-band, the caps/
# checks of mtc_period, psb_period and cyc_thresh) only on a GenuineIntel CPU
# (arch/x86/util/auxtrace.c); elsewhere it opens the event alone, so those
# comparisons need an Intel CPU.  The config perf computes from the terms and
# its address filters do not depend on the vendor.
aux_oracle=
vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -1)
if [ -n "$oracle" ] && [ "$vendor" = GenuineIntel ]; then
	aux_oracle=1
elif [ -n "$oracle" ]; then
	echo "# perf's intel_pt set-up not compared: perf does it only on GenuineIntel CPUs, this one is ${vendor:-unknown}" >&3
fi

for spec in 'intel_pt//u:0x300e601' 'intel_pt/cyc,mtc_period=3/u:0x300e603' \
	'intel_pt/noretcomp,tsc=0/:0x300ea01' 'intel_pt/cyc,cyc_thresh=2,psb_period=0/u:0x10e603' \
	'intel_pt/pt,branch=0,mtc=0/k:0x300c401'; do
	ev=${spec%:*} want=${spec##*:}
	prism -vv record -e "$ev" -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
	check "$ev: exit 1" test $? -eq 1
	check "$ev: config $want" test "$(config_of "$TMP/err")" = "$want"
	check "$ev: the error names the PMU type and the tree" \
		grep -q "cannot open $ev (PMU type 8 from $devs/intel_pt/type, config $want)" "$TMP/err"
	check "$ev: says the PMU is not this kernel's" \
		grep -q 'hint: .*PRISM_SYSFS.*no such intel_pt PMU' "$TMP/err"
	check "$ev: no file written" test ! -e "$TMP/pt.data"
	if [ -n "$oracle" ]; then
		check "$ev: perf record opens the same config" test "$(perf_config "$ev")" = "$want"
	fi
done

# the tracking event perf adds, and the intel_pt attr as perf sets it
prism -vv record -e intel_pt//u -o "$TMP/pt.data" -- true 2>"$TMP/err"
check "intel_pt: IP, TID, TIME, CPU, IDENTIFIER (perf's)" \
	grep -q 'perf_event_open intel_pt//u: type 8, .*sample_type 0x10087' "$TMP/err"

# without caps/ perf's default has no MTC (it needs mtc_periods) nor psb_period
mv "$pt/caps" "$TMP/caps"
prism -vv record -e intel_pt//u -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "no caps: tsc,pt,branch" test "$(config_of "$TMP/err")" = 0x2401
[ -z "$oracle" ] || check "no caps: perf the same" test "$(perf_config intel_pt//u)" = 0x2401
mv "$TMP/caps" "$pt/caps"

# bad terms are parse errors, before anything is opened
prism record -e intel_pt/mtc_period=16/u -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "mtc_period=16: exit 1" test $? -ne 0
check "mtc_period=16: does not fit its bits" grep -q 'does not fit in its 4 bits (config:14-17)' "$TMP/err"
for bad in 'mtc_period=2:mtc_periods:0,3,6,9' 'psb_period=7:psb_periods:0-5' \
	'cyc_thresh=15:cycle_thresholds:0-13'; do
	term=${bad%%:*} rest=${bad#*:}
	prism record -e "intel_pt/$term/u" -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
	check "$term: not in caps/${rest%%:*}: valid values ${rest#*:}" \
		grep -q "invalid $term for intel_pt (caps/${rest%%:*}): valid values are ${rest#*:}$" "$TMP/err"
	if [ -n "$aux_oracle" ]; then
		unshare -m sh -c "mount --bind '$devs' /sys/bus/event_source/devices &&
			perf record -e 'intel_pt/$term/u' -o '$TMP/perf.data' -- true" >/dev/null 2>"$TMP/perr"
		check "$term: perf lists the same values" grep -q "Valid values are: ${rest#*:}$" "$TMP/perr"
	fi
done
prism record -e intel_pt/cycc/u -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "cycc: did you mean cyc" grep -q "unknown term 'cycc' for PMU 'intel_pt'.*did you mean 'cyc'" "$TMP/err"

# the AUX options
prism record -e intel_pt//u -m 16,3 -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "-m 16,3: AUX pages not a power of two" grep -q "bad AUX area size '3' in -m 16,3" "$TMP/err"
prism -vv record -e intel_pt//u -m ,1024 --snapshot=e1M -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "-m ,1024 --snapshot=e1M: accepted, fails at the open" grep -q 'cannot open intel_pt//u' "$TMP/err"
prism record -e intel_pt//u -m ,16 --snapshot=128K -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "--snapshot larger than the AUX area: refused" \
	grep -q -- '--snapshot size 131072 is larger than the 65536-byte AUX area' "$TMP/err"
prism record -e cpu-clock --snapshot -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "--snapshot without intel_pt: refused" grep -q -- '--snapshot applies to intel_pt events only' "$TMP/err"
prism record -e cpu-clock -m 8,64 -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "-m ,AUX without intel_pt: refused" grep -q -- '-m ,AUXPAGES applies to intel_pt events only' "$TMP/err"
prism record -e intel_pt//u --snapshot=x -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "--snapshot=x: a bad size" grep -q "bad --snapshot size 'x'" "$TMP/err"
# address filters: functions turned into file offsets, as perf turns them (perf -vvv's line)
WL=$PRISM_OUT/tests/workloads/pt-loop
if [ -x "$WL" ]; then
	filt="filter pt_loop @ $WL, stop pt_leaf @ $WL"
	prism -vv record -e intel_pt//u --filter "$filt" -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
	sed -n 's/^debug: record: address filter of intel_pt\/\/u: //p' "$TMP/err" >"$TMP/pf"
	loop=$(nm "$WL" | sed -n 's/^0*\([0-9a-f]*\) T pt_loop$/\1/p')
	check "--filter: pt_loop at its file offset, its size; pt_leaf's start" \
		grep -q "^filter 0x$loop/0x21@$(readlink -f "$WL"),stop 0x[0-9a-f]*@" "$TMP/pf"
	check "--filter: then the open fails" grep -q 'cannot open intel_pt//u' "$TMP/err"
	if [ -n "$oracle" ]; then
		unshare -m sh -c "mount --bind '$devs' /sys/bus/event_source/devices &&
			perf record -vvv -e intel_pt//u --filter '$filt' -o '$TMP/perf.data' -- true" 2>&1 |
			sed -n 's/^Address filter: //p' >"$TMP/perf.f"
		check "--filter: perf resolves it the same" cmp -s "$TMP/pf" "$TMP/perf.f"
	fi
	prism record -e intel_pt//u --filter "filter nosuchfn @ $WL" -o "$TMP/pt.data" -- true \
		>"$TMP/out" 2>"$TMP/err"
	check "--filter: an unknown function named" grep -q "no function nosuchfn in $(readlink -f "$WL")" "$TMP/err"
	prism record -e intel_pt//u --filter "filter 1/2@$WL,filter 3/4@$WL,stop 5@$WL" \
		-o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
	check "--filter: more than nr_addr_filters" grep -q '3 address filters, this CPU.s intel_pt takes at most 2' "$TMP/err"
fi
prism record -e intel_pt//u --filter 'filter main' -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "--filter: a function without its file" grep -q 'a function needs its file' "$TMP/err"
prism record -e intel_pt//u --filter 'trace 0x1000' -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "--filter: an unknown action" grep -q 'starts with filter, start, stop or tracestop' "$TMP/err"
prism record -e cpu-clock --filter 'filter main' -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "--filter after cpu-clock: neither a tracepoint nor intel_pt" \
	grep -q 'neither a tracepoint nor intel_pt' "$TMP/err"

# the events and attrs of a recording, perf's and prism's: a second tree
# whose intel_pt is the software PMU (type 1, pt and tsc at config bits 0
# and 3: config 9, a dummy) opens everywhere, so both open every event and
# stop at the AUX area's mmap.  Left out of the comparison: prism's ring
# wake-up (watermark, wakeup_watermark), perf's ksymbol/bpf_event, and
# the exclude_guest prism's modifiers give every event (perf 6.1 here gives
# it to its own dummy:u only).  A trace of the kernel with timestamps has
# perf's cpu-wide text_poke dummy last.
sw=$TMP/swsys/bus/event_source/devices
mkdir -p "$sw/intel_pt/format"
for d in /sys/bus/event_source/devices/*; do
	[ "$(basename "$d")" = intel_pt ] || ln -s "$(readlink -f "$d")" "$sw/$(basename "$d")"
done
echo 1 >"$sw/intel_pt/type"
for t in pt:0 tsc:3 branch:0; do
	echo "config:${t#*:}" >"$sw/intel_pt/format/${t%%:*}"
done
# one line per attr field and per open: "E<event> field: value", "E<event> open pid -1|T cpu N"
norm_attrs() {
	sed 's/{ \([a-z_0-9]*\), \([a-z_0-9]*\) }/{\1|\2}/g' |
		grep -v -e ' watermark: ' -e 'wakeup_watermark' -e ' ksymbol: ' -e ' bpf_event: ' \
			-e '^E0 exclude_guest: ' |
		sort
}
perf_attrs() { # perf record -vv ARGS..., as user $RUNAS (root when empty)
	unshare -m sh -c "mount --bind '$sw' /sys/bus/event_source/devices &&
		${RUNAS:+setpriv --reuid=$RUNAS --regid=$RUNAS --clear-groups} \
		perf record -vv $* -o '$TMP/u/perf.data'" 2>&1 |
		awk '/^perf_event_attr:/ { e++; inb = 1; next }
		     /^-----/ { inb = 0; next }
		     inb && /^  / { l = substr($0, 3); match(l, /  +/)
				    print "E" e - 1 " " substr(l, 1, RSTART - 1) ": " substr(l, RSTART + RLENGTH) }
		     /^sys_perf_event_open: pid/ { print "E" e - 1 " open pid " ($3 == "-1" ? "-1" : "T") " cpu " $5 }' |
		norm_attrs
}
prism_attrs() { # prism -vv record ARGS...: its "attr" and "perf_event_open" debug lines
	${RUNAS:+setpriv --reuid=$RUNAS --regid=$RUNAS --clear-groups} \
		env PRISM_SYSFS="$TMP/swsys" "$PRISM_BIN" -vv record "$@" -o "$TMP/u/pt.data" 2>"$TMP/u/err" >/dev/null
	awk '/debug: record: attr / { sub(/.*debug: record: attr [^ ]*: type:/, "type:")
				       gsub(/{ sample_period, sample_freq }/, "{sample_period|sample_freq}")
				       gsub(/{ wakeup_events, wakeup_watermark }/, "{wakeup_events|wakeup_watermark}")
				       gsub(/{ bp_addr, config1 }/, "{bp_addr|config1}")
				       gsub(/{ bp_len, config2 }/, "{bp_len|config2}")
				       n = split($0, f, ", "); for (i = 1; i <= n; i++) print "E" e + 0 " " f[i]; e++ }
	     /debug: record: perf_event_open / { match($0, /pid -?[0-9]+, cpu -?[0-9]+ .event [0-9]+/)
				       split(substr($0, RSTART, RLENGTH), p, /[ ,()]+/)
				       print "E" p[6] " open pid " (p[2] == "-1" ? "-1" : "T") " cpu " p[4] }' \
		"$TMP/u/err" | norm_attrs
}
# have_sched_switch as perf 6.1 sets it for the events it opened: a cpu-wide
# dummy with context_switch: 3; else the tracking event's switches: 3 for
# -a/-C, 2 per thread; no switches: 0
perf_sched_switch() { # $1: the normalized attrs, $2: 1 when CPU-wide
	if grep -q '^E1 context_switch: 1' "$1" && grep -q '^E1 open pid -1' "$1" &&
		[ "$(grep -c '^E[0-9]* open' "$1")" -gt "$(grep -c '^E1 open' "$1")" ] && [ -z "$2" ]; then
		echo 3
	elif grep -q 'context_switch: 1' "$1"; then
		[ -n "$2" ] && echo 3 || echo 2
	else
		echo 0
	fi
}
mkdir -p "$TMP/u" && chmod 711 "$TMP" && chmod 777 "$TMP/u"
if [ -n "$oracle" ]; then
	# a target for -p and -t that lives until the end, however slow the machine
	sleep 3600 &
	spid=$!
	trap 'kill $spid 2>/dev/null; rm -rf "$TMP"' EXIT
	for c in "workload|-e intel_pt//u -- true" "pid|-e intel_pt//u -p $spid" \
		"tid|-e intel_pt//u -t $spid" "snapshot|-e intel_pt//u --snapshot -- true" \
		"system-wide|-e intel_pt//u -a -- true" "cpu|-e intel_pt//u -C 0 -- true" \
		"no tsc|-e intel_pt/tsc=0/u -- true" "no tsc, -a|-e intel_pt/tsc=0/u -a -- true" \
		"AUX area 64 KiB|-e intel_pt//u -m ,16 -- true" \
		"unprivileged|-e intel_pt//u -- true" "kernel|-e intel_pt// -- true" \
		"kernel, -a|-e intel_pt// -a -- true" "kernel only, -C|-e intel_pt//k -C 1 -- true" \
		"kernel, no tsc|-e intel_pt/tsc=0/ -- true"; do
		name=${c%%|*} args=${c#*|} RUNAS=
		# not root: the cpu-wide event only as perf_event_paranoid allows
		case $name in unprivileged*) RUNAS=65534 ;; esac
		# shellcheck disable=SC2086
		prism_attrs $args >"$TMP/pt.attrs"
		check "$name: prism stops at the AUX area's mmap" grep -q 'cannot map the .* AUX area' "$TMP/u/err"
		[ -n "$aux_oracle" ] || continue
		perf_attrs $args >"$TMP/perf.attrs"
		check "$name: perf opens intel_pt, dummies" grep -q '^E1 type: 1' "$TMP/perf.attrs"
		check "$name: the events, attrs and opens of perf" diff "$TMP/perf.attrs" "$TMP/pt.attrs"
		wide=
		case $args in *-a*|*-C*) wide=1 ;; esac
		want=$(perf_sched_switch "$TMP/perf.attrs" "$wide")
		check "$name: have_sched_switch $want, as perf's" \
			grep -q "have_sched_switch $want:" "$TMP/u/err"
	done
	kill "$spid"
fi

# a tree without intel_pt: the refusal, as on this machine
rm -rf "$pt"
prism record -e intel_pt//u -o "$TMP/pt.data" -- true >"$TMP/out" 2>"$TMP/err"
check "no intel_pt in the tree: refused" grep -q 'no intel_pt PMU' "$TMP/err"
done_testing
