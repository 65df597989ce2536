#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report --folded writes what flamegraph.pl reads (one "stack count"
# per line, comm first, counts adding up to the samples) and --flamegraph
# writes a valid, self-contained SVG with a title and frames; a headless
# Chromium check runs when chromium is installed.
. tests/e2e/lib.sh
require_fixtures
require_cmd xmllint "apt-get install libxml2-utils"

F=$FIXTURES/perf-6.1
MAP=(--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin")

prism report -i "$F/a-fp.data" "${MAP[@]}" --folded >"$TMP/a.folded" 2>"$TMP/err"
check "folded: exit 0" test $? -eq 0
check "folded: every line is 'stack count'" \
	test "$(grep -cvE '^[^ ;]+(;[^;]+)* [0-9]+$' "$TMP/a.folded")" -eq 0
check "folded: counts add up to the 246 samples" \
	test "$(awk '{ n += $NF } END { print n }' "$TMP/a.folded")" -eq 246
grep_q '^perfdata-worklo;__libc_start_call_main;main;leaf_a 128$' "$TMP/a.folded"
grep_q '^perfdata-worklo;__libc_start_call_main;main;leaf_b 116$' "$TMP/a.folded"
grep_q '_\[k\]( |;)' "$TMP/a.folded"
check "folded: sorted, no duplicate stacks" \
	test "$(cut -d' ' -f1 "$TMP/a.folded" | sort -u | wc -l)" -eq "$(wc -l <"$TMP/a.folded")"

# a2: comm with unresolved frames; no callchain file (e-two-events): one frame
prism report -i "$F/a2-fp-shell.data" --folded >"$TMP/a2.folded" 2>/dev/null
check "a2 folded: counts add up to 59 samples" \
	test "$(awk '{ n += $NF } END { print n }' "$TMP/a2.folded")" -eq 59
grep_q '^sh;.*\[unknown\]' "$TMP/a2.folded"
prism report -i "$F/e-two-events.data" "${MAP[@]}" --folded >"$TMP/e.folded" 2>/dev/null
grep_q '^perfdata-worklo;leaf_a [0-9]+$' "$TMP/e.folded"

prism report -i "$F/a-fp.data" "${MAP[@]}" --flamegraph "$TMP/a.svg" --title 'a-fp <test>' \
	>/dev/null 2>&1
check "flamegraph: exit 0" test $? -eq 0
check "flamegraph: valid XML" xmllint --noout "$TMP/a.svg"
check "flamegraph: title" grep -q '<text id="title"[^>]*>a-fp &lt;test&gt;</text>' "$TMP/a.svg"
check "flamegraph: frames" test "$(grep -c '<g class="f"' "$TMP/a.svg")" -ge 6
grep_q 'data-n="leaf_a"><title>leaf_a \(128 samples, 52.03%\)</title>' "$TMP/a.svg"
check "flamegraph: no external references" test "$(grep -c 'href=\|src=' "$TMP/a.svg")" -eq 0
# a minimum width drops narrow frames: the 1-sample kernel stacks go at 10 px
prism report -i "$F/a-fp.data" "${MAP[@]}" --flamegraph "$TMP/b.svg" --min-width 10 >/dev/null 2>&1
check "flamegraph: --min-width leaves out narrow frames" \
	test "$(grep -c '<g class="f"' "$TMP/b.svg")" -lt "$(grep -c '<g class="f"' "$TMP/a.svg")"

if command -v chromium >/dev/null 2>&1; then
	chromium --headless --disable-gpu --no-sandbox --dump-dom "file://$TMP/a.svg" \
		>"$TMP/dom.html" 2>/dev/null
	grep_q 'a-fp &lt;test&gt;' "$TMP/dom.html"
	grep_q 'class="f"' "$TMP/dom.html"
else
	echo "note: chromium is not installed: the in-browser rendering check is skipped" >&3
fi
done_testing
