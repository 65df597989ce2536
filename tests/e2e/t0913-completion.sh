#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bash completion the build makes from the option tables: commands,
# each command's options, files for -i, event names from 'prism list' for
# -e (the last item of a list), tried through compgen as bash calls it.
. tests/e2e/lib.sh
F=$PRISM_BUILD/docs/completion/prism
[ -s "$F" ] || skip "no $F (make test-bins generates it)"
cd "$TMP" || exit 1
mkdir bin
ln -s "$PRISM_BIN" bin/prism
mkdir d
touch d/perf.data d/other.data

# complete WORDS...: what bash offers for the last word, one a line
complete_words() {
	PATH="$TMP/bin:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_prism
		printf "%s\n" "${COMPREPLY[@]}"' _ "$F" "$@" | sort
}

complete_words prism '' >cmds.txt
prism --list-cmds | sort >want.txt
test_cmp want.txt cmds.txt
check "prism to -> top" test "$(complete_words prism to)" = top
check "prism top --de -> --delay" test "$(complete_words prism top --de)" = --delay
complete_words prism util -- >util.txt
for o in --input --sort --duration --verbose --color; do
	grep_q "^$o\$" util.txt
done
check "prism report -i <files>" test "$(complete_words prism report -i d/ | tr '\n' ' ')" = \
	"d/other.data d/perf.data "
check "prism top -d <nothing offered>" test -z "$(complete_words prism top -d '')"
check "prism record -e page-f -> page-faults" \
	test "$(complete_words prism record -e page-f)" = page-faults
check "prism record -e cpu-clock,page-f -> cpu-clock,page-faults" \
	test "$(complete_words prism record -e cpu-clock,page-f)" = cpu-clock,page-faults
if [ -d /sys/kernel/tracing/events/sched ] 2>/dev/null && [ "$(id -u)" -eq 0 ]; then
	check "tracepoints: sched:sched_swi -> sched:sched_switch" \
		test "$(complete_words prism record -e sched:sched_swi)" = sched:sched_switch
fi
check "--color on the main command" test "$(complete_words prism --col)" = --color
done_testing
