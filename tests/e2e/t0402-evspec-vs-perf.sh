#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism's -e parser sets the same perf_event_attr fields as perf 6.1 for the
# same event string (perf record + perf evlist -v is the oracle): names,
# type, config, modifiers (exclude_*, precise_ip, pinned), period/freq
# terms, groups and tracepoint globs.
. tests/e2e/lib.sh
require_perf
require_tracefs
dump=$PRISM_BUILD/tests/helper/evspec-dump
[ -x "$dump" ] || skip "tests/helper/evspec-dump is not built"

keys='type|config|exclude_user|exclude_kernel|exclude_hv|exclude_idle|pinned|exclusive|precise_ip|exclude_host|exclude_guest|bp_type|bp_addr|bp_len'
# perf evlist -v lines reduced to the fields prism's parser owns; the
# default period/frequency perf record adds is left out unless a term set it
reduce() {
	awk -v keys="^($keys|$1)\$" '
		/^#/ { next }
		{
			gsub(/\{ sample_period, sample_freq \}/, "sample_period")
			gsub(/\{ bp_addr, config1 \}/, "bp_addr")
			gsub(/\{ bp_len, config2 \}/, "bp_len")
			sub(/: type:/, "\001type:")
			name = substr($0, 1, index($0, "\001") - 1)
			rest = substr($0, index($0, "\001") + 1)
			sub(/ # .*/, "", rest)
			n = split(rest, f, ", ")
			out = name ":"
			sep = " "
			for (i = 1; i <= n; i++) {
				k = f[i]; sub(/: [^:]*$/, "", k)
				if (k ~ keys) { out = out sep f[i]; sep = ", " }
			}
			print out
		}' | sort
}

for ev in cs cs:u cpu-clock:uk faults cpu-clock:h cpu-clock:G cpu-clock:H cpu-clock:Gu \
	migrations:uH task-clock:ppp cpu-clock:p cpu-clock:S cpu-clock:D cpu-clock:e cpu-clock:P \
	cpu-clock:uP '{cpu-clock,cs}:e' '{cpu-clock,cs}:W' '{cpu-clock,cs}:uW' \
	'{cpu-clock,cs}:u' '{cpu-clock:k,cs}:u' '{cpu-clock,cs}:D' '{task-clock,faults}:upp' \
	software/config=3/ software/config=3/k cpu-clock/name=foo/ \
	sched:sched_switch sched:sched_switch:k 'sched:sched_wak*' 'raw_syscalls:*:u' \
	'{raw_syscalls:sys_enter,raw_syscalls:sys_exit}' 'cs,sched:sched_switch,{cpu-clock,faults}:k' \
	cpu-clock/period=1000/ task-clock/freq=99/u mem:0x1000 mem:0x1000:w mem:0x1000/8:rw \
	mem:0x1000:x mem:4096 mem:0x1000:w:u mem:0x1000/4:w:k mem:0x1000:rw:k '{mem:0x1000,mem:0x2000:w}'; do
	extra=zzz
	case $ev in *period=* | *freq=*) extra='sample_period|freq' ;; esac
	case $ev in sched:* | raw_syscalls:* | {raw_syscalls:* | mem:* | {mem:*) extra='sample_period' ;; esac
	if ! perf record -q -e "$ev" -o "$TMP/p.data" -- true >"$TMP/rec.out" 2>&1; then
		cat "$TMP/rec.out" >&3
		case $ev in
		mem:* | {mem:*)
			# the oracle needs the machine to open it: some have no breakpoints
			echo "# skipped -e '$ev': this machine cannot open hardware breakpoints" >&3 ;;
		*) fail "perf record -e '$ev' failed" ;;
		esac
		continue
	fi
	perf evlist -v -i "$TMP/p.data" 2>/dev/null | reduce "$extra" >"$TMP/perf.txt"
	if ! "$dump" "$ev" >"$TMP/dump.txt" 2>"$TMP/err.txt"; then
		cat "$TMP/err.txt" >&3
		fail "prism cannot parse '$ev'"
		continue
	fi
	reduce "$extra" <"$TMP/dump.txt" >"$TMP/prism.txt"
	echo "# -e '$ev'" >&3
	test_cmp "$TMP/perf.txt" "$TMP/prism.txt"
done

# groups: leaders and member counts
"$dump" 'cs,{cpu-clock,task-clock,faults}:u,dummy' >"$TMP/g.txt"
grep_q '^cs: .* # leader 0, members 1$' "$TMP/g.txt"
grep_q '^cpu-clock: .* # leader 1, members 3$' "$TMP/g.txt"
grep_q '^faults: .* # leader 1, members 0$' "$TMP/g.txt"
grep_q '^dummy: .* # leader 4, members 1$' "$TMP/g.txt"
# :W marks the group weak (kept as a group while it opens); :P asks for the
# highest precise_ip; ':b' is perf stat's and refused; :e only on leaders
"$dump" '{cpu-clock,cs}:W,task-clock:P' >"$TMP/w.txt"
grep_q '^cpu-clock: .* # leader 0, members 2, weak$' "$TMP/w.txt"
grep_q '^task-clock:P: .*precise_ip: 3 # leader 2, members 1, precise_max$' "$TMP/w.txt"
expect_exit 1 "$dump" 'cpu-clock:b' 2>"$TMP/err.txt"
grep_q "modifier 'b' .* counts with BPF in perf stat" "$TMP/err.txt"
expect_exit 1 "$dump" '{cpu-clock,cs:e}' 2>"$TMP/err.txt"
grep_q "':e' \(exclusive\) on 'cs:e', which is not the leader" "$TMP/err.txt"
# breakpoints: bad address, length, access
expect_exit 1 "$dump" 'mem:foo' 2>"$TMP/err.txt"
grep_q "breakpoint address 'foo' at column 5 is not a number" "$TMP/err.txt"
expect_exit 1 "$dump" 'mem:0x1000/3' 2>"$TMP/err.txt"
grep_q "breakpoint length '3' at column 12: 1, 2, 4 or 8" "$TMP/err.txt"
expect_exit 1 "$dump" 'mem:0x1000:rr' 2>"$TMP/err.txt"
grep_q "repeats 'r'" "$TMP/err.txt"
# --filter applies to the tracepoints of the -e before it
"$dump" cs 'sched:sched_wakeup,sched:sched_waking' --filter 'pid != 0' >"$TMP/f.txt"
grep_q '^cs: .* # leader 0, members 1$' "$TMP/f.txt"
grep_q '^sched:sched_waking: .*, filter pid != 0$' "$TMP/f.txt"
expect_exit 1 "$dump" cs --filter 'pid != 0' 2>"$TMP/err.txt"
grep_q "which is neither a tracepoint" "$TMP/err.txt"
# error messages name the token, its column and the closest names
expect_exit 1 "$dump" 'cycles,cpu-clok:u' 2>"$TMP/err.txt"
grep_q "^error: unknown event 'cpu-clok' at column 8 \(did you mean 'cpu-clock'\?\)$" "$TMP/err.txt"
expect_exit 1 "$dump" 'sched:sched_swich' 2>"$TMP/err.txt"
grep_q "closest: sched:sched_switch" "$TMP/err.txt"

done_testing
