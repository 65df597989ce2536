#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism offcpu / record --off-cpu usage errors, a file without off-CPU data,
# and a prism built without BPF support (make NO_LIBBPF=1, built here into
# $TMP unless the prism under test already is such a build): --off-cpu must
# explain how to enable it (packages, the sched method) and exit 1.
. tests/e2e/lib.sh

expect_exit 129 prism record --off-cpu=bogus -- true 2>"$TMP/e1"
grep_q "unknown off-CPU method 'bogus'" "$TMP/e1"
expect_exit 129 prism record --off-cpu --off-cpu-state X -- true 2>"$TMP/e2"
grep_q "bad --off-cpu-state 'X'" "$TMP/e2"
expect_exit 129 prism record --off-cpu --off-cpu-thresh -3 -- true 2>"$TMP/e3"
grep_q "bad --off-cpu-thresh" "$TMP/e3"
expect_exit 129 prism record --off-cpu=sched --off-cpu-thresh 5 -- true 2>"$TMP/e6"
grep_q "off-cpu-thresh applies to --off-cpu=bpf only" "$TMP/e6"
expect_exit 129 prism offcpu --state Q 2>"$TMP/e4"
grep_q "bad --state 'Q'" "$TMP/e4"
prism offcpu --help >"$TMP/help" 2>&1
grep_q '--flamegraph <file.svg>' "$TMP/help"
grep_q '--with-cpu' "$TMP/help"
prism record --help >"$TMP/rhelp" 2>&1
grep_q '--off-cpu\[=<bpf\|sched>\]' "$TMP/rhelp"

if [ -f "$FIXTURES/perf-6.1/a-fp.data" ]; then
	expect_exit 1 prism offcpu -i "$FIXTURES/perf-6.1/a-fp.data" 2>"$TMP/e5"
	grep_q "has no off-CPU data" "$TMP/e5"
	grep_q "hint: record with 'prism record --off-cpu'" "$TMP/e5"
fi

# built without BPF
if prism version --build-options | grep -q 'bpf: \[ OFF'; then
	NOBPF=$PRISM_BIN
else
	command -v make >/dev/null || skip "needs make to build a NO_LIBBPF=1 prism"
	make -s -C "$PRISM_SRC" O="$TMP/nobpf" NO_LIBBPF=1 -j2 "$TMP/nobpf/prism" \
		>"$TMP/build.log" 2>&1 || { tail -5 "$TMP/build.log" >&3; fail "NO_LIBBPF=1 build"; done_testing; }
	NOBPF=$TMP/nobpf/prism
fi
"$NOBPF" version --build-options >"$TMP/bo" 2>&1
grep_q 'bpf: \[ OFF' "$TMP/bo"
expect_exit 1 "$NOBPF" record --off-cpu -o "$TMP/x.data" -- true 2>"$TMP/nobpf.err"
grep_q '^error: .*built without BPF support.*BPF skeleton' "$TMP/nobpf.err"
# libbpf is installed here: the hint is to rebuild without NO_LIBBPF=1
grep_q '^hint: this prism was built with NO_LIBBPF=1: rebuild it without that option' "$TMP/nobpf.err"
grep_q 'bpf: \[ OFF \]  # this prism was built with NO_LIBBPF=1' "$TMP/bo"
grep_q 'off-cpu=sched' "$TMP/nobpf.err"
check "no file is left behind" test ! -e "$TMP/x.data"
done_testing
