#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script prints every sample line exactly as perf script does, for the
# fields comm, tid, pid, [cpu], time, event, period, [ip], [trace], on every
# perf 6.1 fixture.  perf is run by the test on the same file (the oracle).
. tests/e2e/lib.sh
require_fixtures
require_perf

for f in "$FIXTURES"/perf-6.1/*.data; do
	name=$(basename "$f" .data)
	[ -f "$FIXTURES/perf-6.1/$name.script.txt" ] || continue
	pipe=
	case $name in *pipe*) pipe=1 ;; esac
	if [ -n "$pipe" ]; then
		flds=comm,tid,pid,time,event,period
		case $name in d2-pipe-tp) flds=comm,tid,pid,cpu,time,event,period,ip,trace ;; esac
		# perf in pipe mode prints call chains it was not asked for (and then
		# does not pad comm): compare the sample lines, leading blanks folded
		perf script -i - -F "$flds" <"$f" 2>/dev/null | grep -v $'^\t' | grep -v '^$' |
			sed -E 's/^ +//' >"$TMP/perf.txt"
		prism script -i - -F "$flds" <"$f" 2>"$TMP/err" | grep -v $'^\t' | grep -v '^$' |
			sed -E 's/^ +//' >"$TMP/prism.txt"
	else
		st=$(grep -o 'sample_type: [A-Z|_]*' "$FIXTURES/perf-6.1/$name.evlist.txt" | head -1)
		flds=comm,tid,pid,time,event,period
		case $st in *CPU*) flds=comm,tid,pid,cpu,time,event,period ;; esac
		case $st in *CALLCHAIN*) ;; *) flds=$flds,ip ;; esac
		grep -q RAW "$FIXTURES/perf-6.1/$name.evlist.txt" && flds=$flds,trace
		perf script -i "$f" -F "$flds" >"$TMP/perf.txt" 2>/dev/null
		prism script -i "$f" -F "$flds" >"$TMP/prism.txt" 2>"$TMP/err"
	fi
	check "$name: perf printed samples" test -s "$TMP/perf.txt"
	test_cmp "$TMP/perf.txt" "$TMP/prism.txt"
	check "$name: no warnings" test ! -s "$TMP/err"
done
done_testing
