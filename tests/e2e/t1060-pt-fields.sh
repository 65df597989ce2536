#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --itrace -F against perf 6.1, line for line, on synthesized
# Intel PT files (tests/tools/perfdata-pt.py): field lists that set the
# fields (-F ip,sym,flags), that change the defaults (+addr, -ip,-sym...),
# of one type (hw: branches and instructions, synth: the events), with call
# chains (g), the events' payload (synth), and perf's refusals: a field the
# samples lack (addr without the AUXTRACE index, cpu of a per-thread trace,
# time without timestamps; data_src, weight and phys_addr, zeros in a file
# with the index), symoff without sym, srcline without ip, a bad
# type or field, a list that both sets and changes.
. tests/e2e/lib.sh
require_pt_files

gen() { # NAME GENERATOR-OPTIONS...
	local n=$1
	shift
	$GEN "$@" "$WL" "$TMP/$n.data" || fail "$n: the generator failed"
}
gen plain --loops 3
gen idx --loops 3 --index
gen cpu --per-cpu --loops 3
gen cpuidx --per-cpu --loops 3 --index
gen notsc --no-tsc --loops 3
gen ptw --ptw 1 --loops 4
gen pwr --power 1 --loops 4
gen tsx --tsx 1 --loops 6
gen calls --calls 3
mkdir -p "$TMP/kern" # perf record --kcore's directory: data and kcore_dir
$GEN --kernel --loops 3 --kcore-dir "$TMP/kern/kcore_dir" "$WL" "$TMP/kern/data" ||
	fail "kern: the generator failed"

# F_vs_perf FILE ARGS...: prism's lines are perf's, or both refuse (prism with an error, no lines)
F_vs_perf() {
	local f=$1 in=$TMP/$1.data
	shift
	[ -d "$TMP/$f" ] && in=$TMP/$f
	perf script -i "$in" "$@" >"$TMP/perf.txt" 2>/dev/null
	local prc=$?
	prism script -i "$in" "$@" >"$TMP/prism.txt" 2>"$TMP/err"
	local rc=$?
	if [ $prc -ne 0 ]; then
		check "$f $*: refused as perf refuses it" test $rc -ne 0 -a ! -s "$TMP/prism.txt" \
			-a -s "$TMP/err"
		return
	fi
	check "$f $*: prism exits 0" test $rc -eq 0
	check "$f $*: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
		cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
	diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
}

for f in plain idx cpu cpuidx notsc; do
	for it in b i1i i3ib; do
		for F in "ip,sym,flags" "time,ip,sym,symoff,dso,addr" \
			"comm,tid,pid,cpu,time,ip,sym,insn" "+addr" "-ip,-sym" "ip" "sym" "ip,dso" \
			"ip,srcline" "period,ip" "+pid" "tid,pid" "callindent,ip" "hw:ip,sym" \
			"synth:ip,sym" "hw:+flags" "hw:-period" "-flags" "+flags,-period" \
			"ip,sym,symoff,insnlen,insn" "+ipc" "+srcline" \
			"tid,time,event,ip,sym,dso,callindent" "comm,tid,cpu,time,flags,ip,addr" \
			"addr" "cpu,ip" "+time" "-time,-cpu" "branches:ip" "ip,sym,+flags" \
			"ip,bogus" "-dso,+addr" "+insn,+insnlen" "hw:" "flags" "ip,symoff" \
			"ip,data_src" "ip,weight" "ip,phys_addr" "+data_src,+weight,+phys_addr" \
			"ip,ins_lat" "ip,code_page_size"; do
			F_vs_perf $f --itrace=$it -F "$F"
		done
	done
done
gen ovf --loops 14 --ovf 4 --tsc-every 2
gen t2 --thread2 --loops 4 --tsc-every 1
gen cyc --mtc 2 --cyc 1 --loops 6
for f in ovf t2 cyc calls; do
	for it in be i1ie cr i2igbe i1il; do
		for F in "ip,sym,symoff,dso,callindent" "+callindent,+flags" \
			"comm,pid,time,flags,callindent,ip,sym" "tid,ip,sym,addr,dso" "+ipc" "ip,sym,ipc" \
			"-event,-period,+insn" "+brstack" "+brstacksym" "+brstackoff" "ip,brstack" \
			"ip,brstacksym" "ip,brstackoff" "ip,dso,brstackoff" "sw:ip" "raw:ip" "hw:ip,flags" \
			"synth:" "sw:" "raw:" "+srcline,+insnlen" "period,ip,sym"; do
			F_vs_perf $f --itrace=$it -F "$F"
		done
	done
done
for f in ptw pwr tsx calls; do
	for it in pwx i1ig bpwx i3igpw bgx i1il bi1ig; do
		for F in "ip,sym,synth" "+synth" "-synth" "synth" "event,synth,flags" \
			"synth:ip,synth" "synth:-ip" "hw:ip,sym" "ip,dso" "+flags" \
			"comm,tid,time,event,ip,sym,symoff,dso,period" "+period" "period,event" "-ip" \
			"ip,srcline" "+callindent" "ip" "-sym,-symoff" "ip,+ipc"; do
			F_vs_perf $f --itrace=$it -F "$F"
		done
	done
done
# fields perf prints nothing or blanks of here, refuses, or ignores (with a '-': a change)
for f in plain cpu ptw; do
	for F in "ip,misc" "+misc" "ip,metric" "ip,machine_pid,vcpu" "ip,iregs" "ip,uregs" "ip,tod" \
		"ip,brstackinsn" "ip,bpf-output" "+trace"; do
		F_vs_perf $f --itrace=bi2igpw -F "$F"
	done
done
# the records --show-*-events prints among the samples take -F of every type too
for f in plain cpu; do
	F_vs_perf $f --itrace=b -F ip,sym --show-mmap-events
	F_vs_perf $f --itrace=b -F -time --show-task-events
	F_vs_perf $f --itrace=b -F hw:ip --show-mmap-events
	F_vs_perf $f --itrace=b -F +pid,-cpu --show-task-events
	F_vs_perf $f --itrace=i1i -F comm,time --show-task-events --show-mmap-events
done
# a branch stack's transaction flags: X in a transaction
for F in "+brstack" "+brstacksym" "ip,brstack" "ip,dso,brstackoff"; do
	F_vs_perf tsx --itrace=i1il -F "$F"
done
# a type's own list: what its samples lack is dropped, not refused; its rules
# only where its samples are asked for
for f in ptw notsc plain; do
	for it in b i1i pw i1igpw; do
		for F in "hw:ip,addr" "hw:ip,cpu" "synth:ip,addr" "hw:time,ip" "synth:+time" \
			"hw:ip,data_src" "hw:ip,symoff" "hw:ip,srcline" "synth:symoff" "hw:-ip" \
			"synth:-sym" "hw:ip,ins_lat" "hw:ip,weight,phys_addr"; do
			F_vs_perf $f --itrace=$it -F "$F"
		done
	done
done
F_vs_perf notsc --itrace=p -F time,ip
F_vs_perf ptw --itrace=w -F +cpu
for F in "ip,sym,dso" "+flags" "-ip" "callindent,dso,ip" "time,ip,sym,symoff,dso"; do
	F_vs_perf kern --itrace=b -F "$F"
	F_vs_perf kern --itrace=i1ig -F "$F"
done
# an Intel PT file without --itrace: perf's default cepwx, with these fields
for F in "ip,sym,flags" "+insn" "ip,synth" "time,ip" "-synth" "synth:+flags"; do
	F_vs_perf ptw -F "$F"
done
# the call traces set their fields themselves; -F changes them further
for F in "+tid" "-cpu" "+flags" "-flags" "+ip" "+ip,+addr" "ip,sym,dso"; do
	F_vs_perf calls --call-trace -F "$F"
	F_vs_perf calls --call-ret-trace -F "$F"
done
# perf applies -F, --insn-trace and --call-trace in command-line order, each -F in turn
for f in plain ovf; do
	F_vs_perf $f --insn-trace -F ip,sym
	F_vs_perf $f -F ip,sym --insn-trace
	F_vs_perf $f --insn-trace -F +flags,-time
	F_vs_perf $f -F ip,sym --call-trace
	F_vs_perf $f --call-ret-trace -F ip,sym
	F_vs_perf $f --itrace=b -F ip -F +sym
	F_vs_perf $f --itrace=b -F +sym -F ip,dso
	F_vs_perf $f --itrace=be --ns -F time,ip,sym
done

# a pipe (perf 6.1 cannot decode one): the lines of the same file
gen pipe --pipe --loops 3
for F in "ip,sym,flags" "+insn,-period" "hw:ip,addr,sym,dso"; do
	prism script -i "$TMP/plain.data" --itrace=b -F "$F" >"$TMP/file.txt" 2>/dev/null
	prism script -i - --itrace=b -F "$F" <"$TMP/pipe.data" >"$TMP/pipe.txt" 2>/dev/null
	check "pipe -F $F: the lines of the file" cmp -s "$TMP/file.txt" "$TMP/pipe.txt"
done

# the errors say what is wrong
prism script -i "$TMP/plain.data" --itrace=b -F ip,addr >/dev/null 2>"$TMP/err"
check "addr without the AUXTRACE index: exit 1" test $? -eq 1
check "addr: the error names the field and the index" grep -q "addr.*AUXTRACE index" "$TMP/err"
check "addr: no word of a damaged file" test "$(grep -c 'malformed' "$TMP/err")" -eq 0
prism script -i "$TMP/plain.data" --itrace=i1i -F ip,cpu >/dev/null 2>"$TMP/err"
check "cpu of a per-thread trace: the error says so" grep -q "'instructions:uH'.*per-thread" \
	"$TMP/err"
prism script -i "$TMP/notsc.data" --itrace=b -F ip,time >/dev/null 2>"$TMP/err"
check "time without timestamps: the error says so" grep -q "no timestamps" "$TMP/err"
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F -ip,-sym
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F srcline
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F branches:ip
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F ip,+flags
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F ip,ins_lat
prism script -i "$TMP/plain.data" --itrace=b -F ip,bogus >/dev/null 2>"$TMP/err"
check "a bad field is named" grep -q "'bogus'" "$TMP/err"
prism script -i "$TMP/plain.data" --itrace=b -F ip,symof >/dev/null 2>"$TMP/err"
check "a misspelt field: the one meant" grep -q "did you mean 'symoff'" "$TMP/err"
# prism's own field: the disassembly (libcapstone)
if prism version --build-options | grep -q 'capstone: \[ on'; then
	prism script -i "$TMP/plain.data" --itrace=i1i -F ip,disasm >"$TMP/out"
	check "-F ip,disasm: the call" grep -qE '^ +555555555142		call' "$TMP/out"
fi
done_testing
