#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Colors on a terminal as perf uses them: prism report's percentages are
# colored exactly as perf report --stdio colors them on a pty (red from 5%,
# green from 0.5%; rows compared in sorted order, ties order apart); prism util's util% column by the same thresholds;
# none in a pipe, none with --color=never, always with --color=always.
. tests/e2e/lib.sh
require_fixtures
require_cmd script
F=$FIXTURES/perf-6.1/a-fp.data
cd "$TMP" || exit 1
export PERF_PAGER=cat

onpty() { script -qec "$1" /dev/null </dev/null | tr -d '\r'; }
rows() { grep -E $'^  (\033\\[3[12]m)? +[0-9]+\\.[0-9]+%' "$1"; }

have_perf=1
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 || have_perf=0
for mode in --no-children --children; do
	onpty "$PRISM_BIN report -i $F $mode 2>/dev/null" >p$mode.txt
	check "report $mode on a pty: red rows" grep -q $'\033\\[31m' p$mode.txt
	if [ $have_perf = 1 ]; then
		onpty "perf report -i $F --stdio $mode 2>/dev/null" >perf$mode.txt
		# (rows of equal overhead in any order: see t0605)
		rows perf$mode.txt | sort >perf$mode.rows
		rows p$mode.txt | sort >p$mode.rows
		check "perf colored some rows ($mode)" test -s perf$mode.rows
		test_cmp perf$mode.rows p$mode.rows
	fi
done
# by threshold: every colored value has the right color, no uncolored one is >= 0.5
check "report: red >= 5%, green >= 0.5%, plain below" awk '
	{ line = $0; while (match(line, /(\033\[3[12]m)? +[0-9]+\.[0-9]+%/)) {
		s = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
		v = s; gsub(/\033\[3[12]m| |%/, "", v); v += 0
		want = v >= 5 ? "31" : v >= 0.5 ? "32" : ""
		got = s ~ /\033\[31m/ ? "31" : s ~ /\033\[32m/ ? "32" : ""
		if (got != want) { print "bad: " v " " got; bad = 1 } } }
	END { exit bad }' p--no-children.txt

prism report -i "$F" >pipe.txt 2>/dev/null
check "report in a pipe: no colors" test -z "$(grep $'\033' pipe.txt)"
onpty "$PRISM_BIN report -i $F --color=never 2>/dev/null" >never.txt
check "report --color=never on a pty: no colors" test -z "$(grep $'\033' never.txt)"
prism report -i "$F" --color=always >always.txt 2>/dev/null
check "report --color=always in a pipe: colors" grep -q $'\033\\[31m' always.txt

onpty "$PRISM_BIN util -i $F 2>/dev/null" >u.txt
check "util on a pty: util% colored" grep -qE $'\\|\033\\[3[12]m +[0-9.]+%\033\\[m ' u.txt
prism util -i "$F" >u.pipe 2>/dev/null
check "util in a pipe: no colors" test -z "$(grep $'\033' u.pipe)"
# the same text once the colors are taken out
sed $'s/\033\\[[0-9;]*m//g' u.txt >u.plain
test_cmp u.pipe u.plain
done_testing
