#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report against perf 6.1's perf report --stdio on the fixtures, the
# whole body (headers, column padding, call graphs) for --sort keys and
# graph orders where their layout has perf's particular rules:
#  - every column is padded to its width, the last too, but a symbol or a
#    source line; pid's header is "    Pid:Command" (15 wide);
#  - --sort starting with "sym": a row's single chain does not repeat the
#    row's own symbol as its first frame;
#  - -g callee with children: a row's graph is each chain from the row's
#    innermost frame to the root (caller order: outermost frame to leaf);
#  - branches of equal period: the higher address first (perf's rb-tree);
#  - an unresolved leaf's absolute-address row (children only) has a graph.
# A PT file of tests/tools/perfdata-pt.py (--itrace=i100ig) adds resolved
# symbols.
. tests/e2e/lib.sh
require_perf
require_fixtures
F=$FIXTURES/perf-6.1

same() { report_vs_perf "$@"; }
for o in "--sort pid" "--sort sym,pid -g none" "--sort pid,sym -g none" "--sort comm,pid" \
	"--no-children --sort sym" "--no-children --sort sym,dso" "--no-children --sort dso,comm -g none"; do
	# shellcheck disable=SC2086
	same a-fp "$F/a-fp.data" $o
done
for o in "--sort sym" "--sort sym,dso" "--sort pid" "--sort dso,comm" "--sort comm" "--sort dso" \
	"--no-children --sort sym" "--no-children"; do
	# shellcheck disable=SC2086
	same c-zstd "$F/c-zstd.data" $o
done
# the default report too: the children-only row of an unresolved leaf
# (perf's absolute form beside the map-relative one) gets its one-frame graph
same c-zstd-default "$F/c-zstd.data"
same b-dwarf-default "$F/b-dwarf.data"
for o in "--sort sym" "--sort sym,dso" "--sort pid" "--sort comm" "--sort dso,comm"; do
	# shellcheck disable=SC2086
	same d-pipe "$F/d-pipe.data" $o
	# shellcheck disable=SC2086
	same b-dwarf "$F/b-dwarf.data" $o
done
for o in "--sort dso,comm -g none" "--no-children --sort sym -g none" "--sort pid -g none"; do
	# shellcheck disable=SC2086
	same a2-fp-shell "$F/a2-fp-shell.data" $o
done

require_pt_files
$GEN --loops 200 --tsc-every 3 "$WL" "$TMP/pt.data" || fail "the generator failed"
for o in "--sort sym" "--sort sym,dso" "--sort dso,sym" "-g callee" "--sort sym -g callee" \
	"--sort dso,sym -g callee" "-g caller" "--no-children -g callee" "--sort sym --no-children"; do
	# shellcheck disable=SC2086
	same pt "$TMP/pt.data" --itrace=i100ig $o
done

done_testing
