#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report options against perf report on the same fixture: sort keys,
# filters, --percent-limit, -n, -g none, --event, --time; usage errors.
. tests/e2e/lib.sh
require_fixtures
command -v python3 >/dev/null || skip "needs python3"

F=$FIXTURES/perf-6.1
MAP=(--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin")
CMP=$PRISM_SRC/tests/tools/report-compare.py
D=$F/a2-fp-shell.data

# perf on the same file (dash and libc resolve the same way on this machine)
same() { # DESCRIPTION prism/perf args...
	local what=$1
	shift
	if command -v perf >/dev/null 2>&1; then
		perf report -i "$D" --stdio "$@" >"$TMP/perf.txt" 2>/dev/null
		prism report -i "$D" "$@" >"$TMP/prism.txt" 2>/dev/null
		if python3 "$CMP" "$TMP/perf.txt" "$TMP/prism.txt" --kernel-aggregate >"$TMP/cmp"; then
			echo "ok: $what: $(tail -1 "$TMP/cmp")" >&3
		else
			head -20 "$TMP/cmp" >&3
			fail "$what: differs from perf report $*"
		fi
	fi
}
same "-g none" -g none
same "--no-children" --no-children
same "--sort dso,sym" --sort dso,sym
same "--sort sym" --sort sym --no-children
same "--dsos libc.so.6" --dsos libc.so.6 --no-children
same "--percent-limit 3" --percent-limit 3 --no-children

# -g without a mode is perf's caller graph; a mode may follow as a word
prism report -i "$F/a-fp.data" "${MAP[@]}" -g caller >"$TMP/gc.txt" 2>/dev/null
prism report -i "$F/a-fp.data" "${MAP[@]}" -g >"$TMP/g.txt" 2>"$TMP/err"
check "report -g exits 0" test $? -eq 0
test_cmp "$TMP/gc.txt" "$TMP/g.txt"
prism report -i "$F/a-fp.data" "${MAP[@]}" -g --no-children >"$TMP/g2.txt" 2>/dev/null
check "-g before another option" grep -q '^ *[0-9.]*% *perfdata-worklo' "$TMP/g2.txt"
# -g takes the next word, as perf's (its parameters: t0609)
expect_exit 129 prism report -i "$F/a-fp.data" -g sideways 2>"$TMP/err"
grep_q "'sideways' is none of its parameters" "$TMP/err"
expect_exit 129 prism report -i "$F/a-fp.data" --call-graph=caller,sideways 2>"$TMP/err"
grep_q "'sideways' in 'caller,sideways' is none of its parameters" "$TMP/err"

# --header-only is the header block (as 'prism header') and perf's "#"
# line; --header puts it before the report in place of perf's pointer to
# these options
{
	prism header -i "$F/a-fp.data"
	echo "#"
} >"$TMP/hdr.want"
prism report -i "$F/a-fp.data" --header-only >"$TMP/hdr.got" 2>/dev/null
test_cmp "$TMP/hdr.want" "$TMP/hdr.got"
{
	prism header -i - <"$F/d-pipe.data"
	echo "#"
} >"$TMP/hdr.want"
prism report -i - --header-only <"$F/d-pipe.data" >"$TMP/hdr.got" 2>/dev/null
test_cmp "$TMP/hdr.want" "$TMP/hdr.got"
prism report -i "$F/a-fp.data" "${MAP[@]}" --header >"$TMP/hdr.txt" 2>/dev/null
check "--header: the block first" test "$(head -1 "$TMP/hdr.txt")" = "# ========"
grep_q '^# hostname : ' "$TMP/hdr.txt"
grep_q '^# Total Lost Samples: 0$' "$TMP/hdr.txt"
check "--header: no pointer to --header" test -z "$(grep 'please use --header' "$TMP/hdr.txt")"

# -n adds a Samples column with the sample counts
prism report -i "$F/a-fp.data" "${MAP[@]}" -n -g none >"$TMP/n.txt" 2>/dev/null
grep_q '^# Children      Self       Samples  Command ' "$TMP/n.txt"
grep_q '^ +52\.03% +52\.03% +128  perfdata-worklo  perfdata-workload  \[\.\] leaf_a$' "$TMP/n.txt"

# --event picks one section of a two-event file
prism report -i "$F/e-two-events.data" "${MAP[@]}" --event task-clock >"$TMP/ev.txt" 2>/dev/null
check "--event: one section" test "$(grep -c '^# Samples' "$TMP/ev.txt")" -eq 1
grep_q "of event 'task-clock'" "$TMP/ev.txt"
expect_exit 1 prism report -i "$F/e-two-events.data" --event nosuch

# --time: the first sample only (its time from perf script, with its ns: the
# end is inclusive to the ns, as perf's, whatever the precision given)
first=$(head -1 "$F/a-fp.script.txt" | awk '{ sub(":", "", $3); print $3 }')
prism report -i "$F/a-fp.data" "${MAP[@]}" --time ",${first}006" -g none >"$TMP/t.txt" 2>/dev/null
grep_q "^# Samples: 1  of event" "$TMP/t.txt"
prism report -i "$F/a-fp.data" "${MAP[@]}" --time ",${first}005" -g none >"$TMP/t0.txt" 2>/dev/null
check "--time ,${first}005: no sample" test "$(grep -c '^# Samples: 1 ' "$TMP/t0.txt")" -eq 0
prism report -i "$F/a-fp.data" "${MAP[@]}" --time "$first," -g none >"$TMP/t2.txt" 2>/dev/null
grep_q "^# Samples: 246  of event" "$TMP/t2.txt"

# --comms / --pid filter samples
prism report -i "$F/a-fp.data" "${MAP[@]}" --comms nosuch -g none >"$TMP/c.txt" 2>/dev/null
check "--comms nosuch: no rows" test "$(grep -c '%' "$TMP/c.txt")" -eq 0
prism report -i "$F/a-fp.data" "${MAP[@]}" --pid 14567 --sort pid,sym -g none >"$TMP/p.txt" 2>/dev/null
grep_q '^ +52\.03% +52\.03%    14567:perfdata-worklo  \[\.\] leaf_a$' "$TMP/p.txt"

# srcline from DWARF
prism report -i "$F/a-fp.data" "${MAP[@]}" --sort sym,srcline -g none >"$TMP/s.txt" 2>/dev/null
grep_q '\[\.\] leaf_a +workload\.c:[0-9]+$' "$TMP/s.txt"

# usage errors
expect_exit 129 prism report --sort nosuchkey -i "$F/a-fp.data"
expect_exit 129 prism report -g sideways -i "$F/a-fp.data"
expect_exit 129 prism report --time 5 -i "$F/a-fp.data"
expect_exit 129 prism report --children --no-children -i "$F/a-fp.data"
prism report --help >"$TMP/help.txt"
for o in --sort --folded --flamegraph --csv-dir --symfs --map-path --percent-limit --time \
	--call-graph --children --no-demangle --srcline --inline; do
	grep -q -- "$o" "$TMP/help.txt" || fail "--help does not explain $o"
done
done_testing
