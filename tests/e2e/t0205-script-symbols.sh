#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script with symbols: the default output (comm, tid, [cpu], time,
# period, event, ip, sym+off, dso, and call chains leaf first with
# DSO-relative addresses, frames unwound from the stack copy for
# --call-graph dwarf, inlined frames) equals perf script's line for line on
# every perf 6.1 fixture; so do -F lists with sym/dso/srcline, -G and
# call chains of addresses only.  perf is run by the test on the same files
# with the same symbol setup (the oracle).
#
# Setup: a --symfs directory holding the fixture workload at the path the
# files name (/tmp/perfdata-workload) and, for every other binary the
# fixtures' stored outputs name and this machine has, a link to it and to
# its /usr/lib/debug/.build-id file; HOME points at an empty directory so
# that no build-id cache (~/.debug) plays a part for either tool.
#
# Normalizations (both outputs otherwise compared as they are):
# - kernel symbols are masked on both sides (the address stays).  With
#   --symfs, perf and prism read no kernel symbols outside that directory
#   (not even the running kernel's of the same build): both print
#   "[unknown] ([kernel.kallsyms])", and prism says so once on stderr, the
#   only message allowed there.  Which names are right without --symfs is
#   t0208's and t0214's test, on any machine.
# - [vdso] frames: perf reads the recorded vdso only from its build-id cache
#   (empty here) and prints "[unknown]"; so does prism when the file's [vdso]
#   build id is not the running kernel's vdso (the usual case, with a note on
#   stderr), but when it is, prism names them from its own vdso image, the
#   one that ran: on such a machine those lines are compared with the stored
#   NAME.script.txt (perf's output on the recording machine) instead.
# - j2-pipe-inject: its samples' kernel frames carry no kernel build id;
#   under --symfs both leave them unresolved.
. tests/e2e/lib.sh
require_fixtures
require_perf

F=$FIXTURES/perf-6.1
S=$TMP/symfs
mkdir -p "$S/tmp" "$TMP/home"
cp "$F/perfdata-workload.bin" "$S/tmp/perfdata-workload"
for p in $(grep -ho '(/[^) ]*)$' "$F"/*.script.txt | tr -d '()' | sort -u); do
	[ -f "$p" ] || continue
	mkdir -p "$S$(dirname "$p")"
	ln -s "$p" "$S$p"
	bid=$(readelf -n "$p" 2>/dev/null | awk '/Build ID/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
	if [ -n "$bid" ] && [ -f "$dbg" ]; then
		mkdir -p "$S$(dirname "$dbg")"
		ln -sf "$dbg" "$S$dbg"
	fi
done

# run TOOL NAME ARGS...: TOOL (perf or prism) script on fixture NAME
run() {
	local tool=$1 name=$2 in=(-i "$F/$2.data")
	shift 2
	case $name in *pipe*) in=(-i -) ;; esac
	if [ "$tool" = perf ]; then
		HOME=$TMP/home perf script --symfs "$S" "${in[@]}" "$@" <"$F/$name.data" 2>/dev/null
	else
		HOME=$TMP/home prism script --symfs "$S" "${in[@]}" "$@" <"$F/$name.data"
	fi
}

# [vdso] lines from perf's output on the recording machine (see above)
vdso_from_stored() { # PERF_OUTPUT STORED
	awk 'NR == FNR { stored[FNR] = $0; next }
	     /\(\[vdso\]\)$/ && (FNR in stored) { print stored[FNR]; next } { print }' "$2" "$1"
}

# the word after a kernel address (its symbol), in every output format
mask_kernel() {
	sed -E 's/(^|[[:space:]])(ffff[0-9a-f]{12}) [^ ]+/\1\2 <kernel>/g'
}

vdso=$(tests/tools/vdso-build-id.py)
nr=0
for f in "$F"/*.data; do
	name=$(basename "$f" .data)
	[ -f "$F/$name.script.txt" ] || continue
	run perf "$name" >"$TMP/$name.perf"
	run prism "$name" >"$TMP/$name.prism" 2>"$TMP/$name.err"
	check "$name: prism script exits 0" test $? -eq 0
	check "$name: perf printed samples" test -s "$TMP/$name.perf"
	if [ -n "$vdso" ] && tests/tools/perfdata-buildid.py "$f" 2>/dev/null |
		grep -qx "$vdso \[vdso\]"; then
		vdso_from_stored "$TMP/$name.perf" "$F/$name.script.txt" >"$TMP/$name.want"
	else
		cp "$TMP/$name.perf" "$TMP/$name.want"
	fi
	mask_kernel <"$TMP/$name.want" >"$TMP/$name.w" && mv "$TMP/$name.w" "$TMP/$name.want"
	mask_kernel <"$TMP/$name.prism" >"$TMP/$name.p" && mv "$TMP/$name.p" "$TMP/$name.prism"
	test_cmp "$TMP/$name.want" "$TMP/$name.prism"
	check "$name: no warnings but the kernel and vdso notes" \
		test -z "$(grep -v -e 'recorded on another kernel' -e "is not this kernel's" \
			-e 'no kernel symbols' -e '^$' "$TMP/$name.err")"
	nr=$((nr + 1))
done
check "compared the default output of 20+ fixtures" test "$nr" -ge 20

# the acceptance cases, spelled out: frame-pointer and DWARF-unwound chains
grep_q $'^\t +12d7 main\\+0x67 \\(/tmp/perfdata-workload\\)$' "$TMP/a-fp.prism"
grep_q $'^\t +11df middle\\+0x11 \\(/tmp/perfdata-workload\\)$' "$TMP/b-dwarf.prism"
grep_q $'^\t +27304 __libc_start_main_impl\\+0x84 \\(inlined\\)$' "$TMP/b-dwarf.prism"

# -F lists: perf's script-fields list, sym/dso/srcline alone or added to the
# defaults, addresses only (DSO-relative in chains), -G, --max-stack
for args in "-F comm,tid,pid,time,event,ip,sym,dso,period" "-F ip,sym" "-F comm,ip,dso" \
	"-F comm,ip" "-F +srcline" "-F comm,ip,sym,symoff,srcline" "-F -period,-sym,-symoff" "-G" \
	"--max-stack 2"; do
	for name in a-fp b-dwarf e-two-events i-fixed-period; do
		# shellcheck disable=SC2086 # word splitting of $args is wanted
		run perf "$name" $args >"$TMP/f.perf"
		# shellcheck disable=SC2086
		run prism "$name" $args >"$TMP/f.prism" 2>/dev/null
		# the vdso lines without their symbol (see above)
		grep -v '(\[vdso\])' "$TMP/f.perf" | mask_kernel >"$TMP/f.want"
		grep -v '(\[vdso\])' "$TMP/f.prism" |
			sed -E 's/__vdso_[a-z_]+(\+0x[0-9a-f]+)?/[unknown]/' | mask_kernel >"$TMP/f.got"
		echo "-- $name $args" >&3
		test_cmp "$TMP/f.want" "$TMP/f.got"
	done
done
run prism a-fp -F +srcline >"$TMP/src.prism" 2>/dev/null
grep_q '^  workload\.c:17$' "$TMP/src.prism"
# libc's __libc_start_call_main is in libc_start_call_main.h, but binutils'
# addr2line (perf's) names a DWARF 5 sequence's default file by the CU's
grep_q '^  libc-start\.c:74$' "$TMP/src.prism"

# --map-path instead of --symfs: the same frames
HOME=$TMP/home prism script -i "$F/a-fp.data" \
	--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin" 2>/dev/null |
	mask_kernel >"$TMP/map.prism"
test_cmp "$TMP/a-fp.prism" "$TMP/map.prism"

# perf's rules for field combinations
expect_exit 129 prism script -i "$F/a-fp.data" -F ip,symoff 2>"$TMP/err"
grep_q 'symoff needs the sym field' "$TMP/err"
expect_exit 129 prism script -i "$F/a-fp.data" -F -sym 2>"$TMP/err"
grep_q 'symoff needs the sym field' "$TMP/err"
expect_exit 129 prism script -i "$F/a-fp.data" -F comm,srcline 2>"$TMP/err"
grep_q 'srcline needs the ip field' "$TMP/err"
expect_exit 129 prism script -i "$F/a-fp.data" -F comm,dos 2>"$TMP/err"
grep_q "did you mean 'dso'" "$TMP/err"
expect_exit 129 prism script -i "$F/a-fp.data" --map-path /tmp/x 2>"$TMP/err"
grep_q 'expected OLD=NEW' "$TMP/err"
done_testing
