#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/tools/perfdata-swap.py makes opposite-endian perf.data files for the
# cross-endian reader tests.  Every fixture converted to big endian and back
# must give the original bytes, and the converter must interpret every byte
# of every record and feature (--check).  Compressed files are recompressed,
# so for them: a third conversion reproduces the first, the decompressed
# content survives the round trip, and the --inline (decompressed) form
# round-trips byte for byte.  With perf installed, perf itself must decode
# the big-endian copies of a few file-mode fixtures to the same 'perf script'
# text as the originals.
. tests/e2e/lib.sh
require_fixtures
require_cmd python3

# the interpreter itself: a version-manager shim costs 0.1 s per call
PY=$(python3 -c 'import sys; print(sys.executable)')
swap() {
	"$PY" "$PRISM_SRC/tests/tools/perfdata-swap.py" "$@" 2>>"$TMP/warnings"
}

have_zstd() {
	command -v zstd >/dev/null 2>&1 ||
		"$PY" -c 'import ctypes.util, sys; sys.exit(not ctypes.util.find_library("zstd"))'
}
have_zstd && zstd_ok=1 || zstd_ok=0

# shellcheck disable=SC2317 # called through check
differs() {
	! cmp -s "$1" "$2"
}

is_compressed() {
	case $(basename "$1") in
	*zstd* | *compressed*) return 0 ;;
	*) return 1 ;;
	esac
}

for f in "$FIXTURES"/perf-6.1/*.data "$FIXTURES"/compressed/*.data; do
	n=$(basename "$(dirname "$f")")-$(basename "$f" .data)
	if ! is_compressed "$f"; then
		check "$n: to big endian (--check)" swap --check "$f" "$TMP/$n.be"
		check "$n: back to little endian" swap "$TMP/$n.be" "$TMP/$n.le"
		check "$n: round trip is byte-exact" cmp "$f" "$TMP/$n.le"
		check "$n: the big-endian copy differs" differs "$f" "$TMP/$n.be"
		rm -f "$TMP/$n.le"
		continue
	fi
	if [ "$zstd_ok" = 0 ]; then
		echo "skip: $n: needs libzstd or the zstd command" >&3
		continue
	fi
	check "$n: to big endian, recompressed (--check)" swap --check "$f" "$TMP/$n.A"
	check "$n: back" swap "$TMP/$n.A" "$TMP/$n.B"
	check "$n: and again" swap "$TMP/$n.B" "$TMP/$n.C"
	check "$n: third conversion reproduces the first" cmp "$TMP/$n.A" "$TMP/$n.C"
	check "$n: decompressed original" swap --inline --no-swap "$f" "$TMP/$n.Xi"
	check "$n: decompressed round trip" swap --inline --no-swap "$TMP/$n.B" "$TMP/$n.Bi"
	check "$n: content survives the round trip" cmp "$TMP/$n.Xi" "$TMP/$n.Bi"
	check "$n: to big endian, decompressed (--check)" swap --check --inline "$f" "$TMP/$n.Ai"
	check "$n: decompressed form, back" swap "$TMP/$n.Ai" "$TMP/$n.Ai.le"
	check "$n: decompressed form round-trips" cmp "$TMP/$n.Xi" "$TMP/$n.Ai.le"
	check "$n: decompressed form, swapped directly" swap "$TMP/$n.Xi" "$TMP/$n.Xi.be"
	check "$n: both ways give the same big-endian file" cmp "$TMP/$n.Ai" "$TMP/$n.Xi.be"
	rm -f "$TMP/$n".[ABC] "$TMP/$n".*i*
done

# perf 6.1 reads cross-endian files (not pipes: it does not swap
# HEADER_FEATURE records); its sample decoding must not see a difference
if command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1; then
	for n in a-fp b-dwarf c-zstd f-sched-tp l-group-read m-many-bits n-ns-cgroup s-read; do
		f=$FIXTURES/perf-6.1/$n.data
		be=$TMP/perf-6.1-$n.be
		[ -f "$be" ] || swap "$f" "$be"
		# (perf unwinds a cross-endian file's user stacks wrongly past the
		# first frame: the whole unwinding shows only where perf finds the
		# binaries, in its build-id cache, so only the sampled frame is compared)
		opt=()
		[ "$n" = b-dwarf ] && opt=(--hide-call-graph)
		perf script -f "${opt[@]}" -i "$f" >"$TMP/$n.script.le" 2>/dev/null
		perf script -f "${opt[@]}" -i "$be" >"$TMP/$n.script.be" 2>/dev/null
		check "$n: perf script output is not empty" test -s "$TMP/$n.script.le"
		test_cmp "$TMP/$n.script.le" "$TMP/$n.script.be"
	done
else
	echo "note: perf not available, skipping the perf cross-check" >&3
fi

if [ -s "$TMP/warnings" ]; then
	sort -u "$TMP/warnings" | sed 's/^/note: /' >&3
fi
done_testing
