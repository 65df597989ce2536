#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Files of old writers, made from the perf 6.1 fixtures by
# tests/tools/perfdata-legacy.py, in both byte orders (big endian through
# perfdata-swap.py first):
#  - version-1 headers (magic PERFFILE, perf 3.0-3.2, 72- and 64-byte
#    attrs): prism script (fields and the default output with call chains)
#    and report print every sample exactly as perf 6.1 does on the same
#    file;
#  - MMAP2 records without prot/flags (Linux 3.12-3.15, RHEL 7's 3.10): perf
#    misreads their names 8 bytes too far ("fdata-workload", "[JIT] tid")
#    but prints every sample; prism prints the same samples, and names the
#    mappings as in the original file, where perf's own report (the
#    fixture's report-sort.txt) has the same symbols.
. tests/e2e/lib.sh
require_fixtures
require_perf
require_cmd python3 "apt-get install python3"

F=$FIXTURES/perf-6.1
# no build-id cache (~/.debug) for either tool
export HOME=$TMP/home
mkdir -p "$HOME"
GEN=tests/tools/perfdata-legacy.py
MAP=(--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin")
CMP=tests/tools/report-compare.py

# the script fields perf prints for fixture $1 (as t0201)
fields() {
	local st flds=comm,tid,pid,time,event,period
	st=$(grep -o 'sample_type: [A-Z|_]*' "$F/$1.evlist.txt" | head -1)
	case $st in *CPU*) flds=comm,tid,pid,cpu,time,event,period ;; esac
	case $st in *CALLCHAIN*) ;; *) flds=$flds,ip ;; esac
	grep -q RAW "$F/$1.evlist.txt" && flds=$flds,trace
	echo "$flds"
}

# make_file MODE NAME [be]: sets $out to the converted file, or to "" when a converter failed
make_file() {
	local mode=$1 name=$2 be=${3:-} src=$F/$2.data
	out=$TMP/$name.$mode${be:+.be}.data
	if [ -n "$be" ]; then
		src=$TMP/$name.be.data
		if ! python3 tests/tools/perfdata-swap.py "$F/$name.data" "$src" >/dev/null; then
			fail "$name: perfdata-swap.py failed"
			out=
			return
		fi
	fi
	if ! python3 "$GEN" "$mode" "$src" "$out" >/dev/null; then
		fail "$name: perfdata-legacy.py $mode failed"
		out=
	fi
}

# script: the sample lines of perf and prism on the same file
same_samples() { # FILE NAME LABEL
	local flds
	flds=$(fields "$2")
	perf script -i "$1" -F "$flds" >"$TMP/perf.txt" 2>/dev/null
	prism script -i "$1" -F "$flds" >"$TMP/prism.txt" 2>"$TMP/err"
	check "$3: perf read the file" test -s "$TMP/perf.txt"
	test_cmp "$TMP/perf.txt" "$TMP/prism.txt"
	check "$3: no warnings" test ! -s "$TMP/err"
	# and every sample of the original is there
	perf script -i "$F/$2.data" -F "$flds" >"$TMP/orig.txt" 2>/dev/null
	test_cmp "$TMP/orig.txt" "$TMP/prism.txt"
}

for spec in a-fp e-two-events f-sched-tp a-fp:be; do
	name=${spec%:be} be=
	[ "$spec" != "$name" ] && be=1
	label="v1 $name${be:+ (big endian)}"
	make_file v1 "$name" $be
	v1=$out
	[ -n "$v1" ] || continue
	check "$label: magic PERFFILE" test "$(head -c 8 "$v1")" = PERFFILE
	same_samples "$v1" "$name" "$label"
	prism header -i "$v1" >"$TMP/header.txt" 2>&1
	grep_q '^# header version : 0$' "$TMP/header.txt"
	# the default output, call chains included, binaries absent for both; perf reads
	# the recorded [vdso] only from a build-id cache, prism from the running kernel
	perf script -i "$v1" 2>/dev/null | grep -v '(\[vdso\])$' >"$TMP/perf.txt"
	prism script -i "$v1" 2>/dev/null | grep -v '(\[vdso\])$' >"$TMP/prism.txt"
	check "$label: perf printed $(wc -l <"$TMP/perf.txt") lines" test -s "$TMP/perf.txt"
	test_cmp "$TMP/perf.txt" "$TMP/prism.txt"
	# report: perf run here on the same file, per command and shared object
	perf report -i "$v1" --stdio --no-children --sort comm,dso >"$TMP/perf.rep" 2>/dev/null
	prism report -i "$v1" --stdio --no-children --sort comm,dso >"$TMP/prism.rep" 2>"$TMP/err"
	check "$label: prism report exits 0" test $? -eq 0
	if python3 "$CMP" "$TMP/perf.rep" "$TMP/prism.rep" >"$TMP/cmp"; then
		echo "ok: $label: report $(tail -1 "$TMP/cmp")" >&3
	else
		cat "$TMP/cmp" >&3
		fail "$label: report rows differ from perf's"
	fi
	grep -m1 '^# Samples:' "$TMP/perf.rep" >"$TMP/want"
	grep -m1 '^# Samples:' "$TMP/prism.rep" >"$TMP/got"
	test_cmp "$TMP/want" "$TMP/got"
done

# the smallest attr of the era (VER0: 64 bytes, attr_size 80), both byte orders
for be in "" 1; do
	src=$F/e-two-events.data
	if [ -n "$be" ]; then
		src=$TMP/e-two-events.be.data
		python3 tests/tools/perfdata-swap.py "$F/e-two-events.data" "$src" >/dev/null ||
			fail "e-two-events: perfdata-swap.py failed"
	fi
	rm -f "$TMP/v0.data"
	python3 "$GEN" v1 --attr-size 64 "$src" "$TMP/v0.data" >/dev/null ||
		fail "perfdata-legacy.py v1 --attr-size 64 failed"
	same_samples "$TMP/v0.data" e-two-events "v1 64-byte attrs${be:+ (big endian)}"
done

for spec in a-fp f-sched-tp a-fp:be; do
	name=${spec%:be} be=
	[ "$spec" != "$name" ] && be=1
	label="rhel7 $name${be:+ (big endian)}"
	make_file rhel7 "$name" $be
	r7=$out
	[ -n "$r7" ] || continue
	same_samples "$r7" "$name" "$label"
	# perf misreads the names ...
	perf script -i "$r7" --show-mmap-events -F comm,tid,time,event 2>/dev/null |
		grep -c 'PERF_RECORD_MMAP2' >"$TMP/n2"
	check "$label: the file has MMAP2 records" test "$(cat "$TMP/n2")" -gt 0
	# ... prism names them as in the original: the same symbols and objects
	prism script -i "$r7" "${MAP[@]}" >"$TMP/r7.txt" 2>/dev/null
	prism script -i "$F/$name.data" "${MAP[@]}" >"$TMP/orig.txt" 2>/dev/null
	test_cmp "$TMP/orig.txt" "$TMP/r7.txt"
	perf report -i "$r7" --stdio --sort comm >"$TMP/perf.rep" 2>/dev/null
	prism report -i "$r7" "${MAP[@]}" --sort comm,dso,sym >"$TMP/prism.rep" 2>/dev/null
	check "$label: prism report exits 0" test $? -eq 0
	grep '^# Samples:' "$TMP/perf.rep" >"$TMP/want"
	grep '^# Samples:' "$TMP/prism.rep" >"$TMP/got"
	test_cmp "$TMP/want" "$TMP/got"
	[ "$name" = a-fp ] || continue
	# rows as perf's report on the original (binaries present): kernel rows in aggregate
	if python3 "$CMP" "$F/$name.report-sort.txt" "$TMP/prism.rep" --kernel-aggregate \
		>"$TMP/cmp"; then
		echo "ok: $label: report $(tail -1 "$TMP/cmp")" >&3
	else
		cat "$TMP/cmp" >&3
		fail "$label: report rows differ from perf's on the original"
	fi
	grep_q 'perfdata-workload +\[\.\] leaf_a$' "$TMP/prism.rep"
done
done_testing
