#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report against perf 6.1's perf report --stdio, whole bodies: the
# keys socket, dso_size, cgroup, cgroup_id, trace, local_weight, weight, ins_lat,
# local_ins_lat, (local_)p_stage_cyc (dropped on x86, as perf does) as
# --sort keys and -F fields on the fixtures and on a file whose samples get
# a WEIGHT or WEIGHT_STRUCT (tests/tools/perfdata-rewrite.py mem-loads);
# --comms, --dsos and --symbols with the Children column (the column with
# no sample left, "# comm:" above a single column, the callers of a sample
# the filter keeps); a recording of a task in a cgroup of its own.
#
# Left out on purpose, with the reason (perf 6.1's bugs, prism keeps its
# own):
#  - --sort sym (alone, or with the sample keys) on a2-fp-shell and
#    n-ns-cgroup: perf compares an unresolved symbol by address alone but a
#    resolved one by its DSO first; the order is not transitive, so its tree
#    of rows misses an existing row and splits one symbol in two rows
#    (__strcmp_evex 13.56% + 1.69% where --no-children and --sort dso,sym
#    give one row of 15.25%);
#  - the sample keys with Children (a-fp --sort socket): perf's check for
#    a frame already counted compares a template without the sample's
#    socket/weight/cgroup, so the period counts once per frame (Children
#    above 100%), as for the time key (t0608);
#  - --sort comm,trace: perf formats a row's trace output only when it
#    compares two rows by it, so a section whose rows differ by comm
#    sizes the column to its header and cuts the text there (p-sched's
#    sched_migrate_task: "comm=perf pi").
# (perf's --comms/--dsos/--symbols keep or drop a row by the first sample
# that made it, the others then add to it whatever their comm, dso or
# symbol: prism does the same, see prism_profile__set_hidden().)
# Then perf report's event groups (--group, --no-group) and its other views
# and filters: -C, --symbol-filter, --ns, --stats, --tasks, --mmaps.
. tests/e2e/lib.sh
require_perf
require_fixtures
F=$FIXTURES/perf-6.1
TOOLS=$PRISM_SRC/tests/tools
# an empty build-id cache: perf and prism find the same (absent) binaries
export HOME=$TMP/home
mkdir -p "$HOME"

same() { report_vs_perf "$@"; }

KEYS=("--sort socket" "--sort cgroup" "--sort cgroup_id" "--sort local_weight"
	"--sort weight" "--sort ins_lat" "--sort local_ins_lat" "--sort p_stage_cyc"
	"--sort local_p_stage_cyc,dso" "--sort cgroup,cgroup_id,socket,comm"
	"--sort ins_lat,dso" "--sort dso,socket -n" "-F overhead,local_weight,weight,dso"
	"-F +cgroup" "-F local_weight,weight,overhead -n" "--sort comm,cgroup_id -t ;"
	"-F ins_lat,local_ins_lat" "-s cgroup,socket" "-s cgroup_id,cgroup")
for f in m-many-bits n-ns-cgroup; do
	for o in "${KEYS[@]}"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done

# dso_size: the size of each frame's map (Children: the callers' maps)
for f in a-fp b-dwarf e-two-events h-switch-cpu-wide m-many-bits a2-fp-shell; do
	for o in "--sort dso_size,dso" "--sort dso_size -g none" "-F overhead,dso_size,sym"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done

# weights and instruction latencies that differ between samples
python3 "$TOOLS/perfdata-rewrite.py" mem-loads "$F/o-clockid.data" "$TMP/ws.data" struct \
	2>/dev/null || fail "perfdata-rewrite.py mem-loads struct"
python3 "$TOOLS/perfdata-rewrite.py" mem-loads "$F/o-clockid.data" "$TMP/w.data" \
	2>/dev/null || fail "perfdata-rewrite.py mem-loads"
for f in ws w; do
	for o in "${KEYS[@]}" "--sort sym,local_weight" "--sort weight,sym" \
		"--sort local_ins_lat,sym" "-F ins_lat,overhead,sym" "--sort sym,ins_lat -n" \
		"--sort dso,weight --percent-limit 2"; do
		# shellcheck disable=SC2086
		same "$f" "$TMP/$f.data" $o
	done
done

# the filters with Children
FILTERS=("--comms sh --sort comm" "--comms sh --sort dso" "--comms nosuch"
	"--comms perfdata-workload" "--comms sh --sort comm,comm" "--comms sh -F comm,overhead"
	"--dsos libc.so.6 --sort dso" "--dsos libc.so.6 --sort comm,sym"
	"--comms sh --dsos libc.so.6 --sort comm,dso"
	"--comms sh --dsos libc.so.6 --sort comm,dso,sym" "--symbols main,__strcmp_evex"
	"--dsos libc.so.6 --percentage relative" "--dsos perfdata-workload"
	"--dsos perfdata-workload -g caller" "--comms sh -g none --sort pid")
for f in a-fp b-dwarf; do
	for o in "${FILTERS[@]}"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done
for o in "--comms sh" "--comms sh --sort comm" "--comms sh --sort dso" "--comms sh -G" \
	"--comms sh -g callee" "--comms sh --sort pid" "--comms sh --no-children" \
	"--comms nosuch" "--comms sh,perfdata-workload --sort dso"; do
	# shellcheck disable=SC2086
	same a2-fp-shell "$F/a2-fp-shell.data" $o
done

# the trace key (a tracepoint sample's output), perf's default for a file of
# tracepoints only; r-lost: "Total Lost Samples" is the LOST_SAMPLES records'
for f in q-trace r-lost f-sched-tp p-sched; do
	for o in "" "--sort trace,comm" "-F overhead,trace" "-n --sort trace,comm"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done
same a-fp "$F/a-fp.data" --sort trace

# event groups: perf's group view (a section per group, a value per event;
# leader sampling's read counts as each event's periods), --no-group
for f in l-group-read g-syscalls-group s-read; do
	for o in "" "-n" "--show-total-period --sort dso" "--no-group" "--sort comm -n --no-group" \
		"-F overhead,sym" "--percent-limit 1"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done

# -C/--cpu: the other CPUs' samples count nowhere
for f in h-switch-cpu-wide n-ns-cgroup; do
	for o in "-C 0" "-C 1 --sort cpu" "-C 0,1 -g none" "-C 1 --sort comm,dso"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done
expect_exit 1 prism report -i "$F/a-fp.data" -C 0

# --symbol-filter (one event: perf 6.1 filters only the first event's rows),
# --percentage relative (graph branches stay shares of every sample, their
# threshold a share of the samples --symbol-filter does not leave out: a-fp's
# 0.41% branches of unresolved kernel leaves stay hidden), --ns
for f in a-fp b-dwarf n-ns-cgroup a2-fp-shell; do
	for o in "--symbol-filter a --percentage relative" "--symbol-filter str -g none" \
		"--symbol-filter leaf --percentage relative --no-children" \
		"--comms sh --percentage relative" "--ns --sort time -g none --no-children" \
		"--ns -F time,overhead -g none"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" $o
	done
done
for f in a-fp a2-fp-shell; do
	same "$f" "$F/$f.data" --dsos libc.so.6 --percentage relative -g fractal
done

# --stats, --tasks (perf's tree and its order), --mmaps: whole outputs (perf
# 6.1 reads no pipe there)
for f in a-fp b-dwarf e-two-events f-sched-tp h-switch-cpu-wide h2-switch-task j4-buildid-mmap \
	m-many-bits n-ns-cgroup r-lost s-read; do
	for o in --stats --tasks --mmaps; do
		perf report -i "$F/$f.data" $o >"$TMP/p" 2>/dev/null
		prism report -i "$F/$f.data" $o >"$TMP/q" 2>/dev/null
		check "$f $o: the $(wc -l <"$TMP/p") lines equal perf's" cmp -s "$TMP/p" "$TMP/q"
		diff "$TMP/p" "$TMP/q" | head -4 >&3
	done
done

# --full-source-path (the workload's DWARF names are absolute; libc's are
# relative, the unit's compilation directory before them as perf's
# addr2line gives it: ./string/../sysdeps/x86_64/multiarch/strcmp-evex.S)
for f in a-fp e-two-events; do
	for o in "--sort srcline -g none --no-children" "--sort srcfile -g none --no-children"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" --full-source-path $o
	done
done
for f in a2-fp-shell n-ns-cgroup; do
	for o in "--sort srcfile -g none --no-children" "--sort srcfile" "--sort dso,srcfile -g none"; do
		# shellcheck disable=SC2086
		same "$f" "$F/$f.data" --full-source-path $o
	done
done

# --header-only -I: perf's block and its "#" line
for f in a-fp e-two-events n-ns-cgroup; do
	perf report -i "$F/$f.data" --header-only -I >"$TMP/p" 2>/dev/null
	prism report -i "$F/$f.data" --header-only -I >"$TMP/q" 2>/dev/null
	check "$f --header-only -I: the $(wc -l <"$TMP/p") lines equal perf's" cmp -s "$TMP/p" "$TMP/q"
	diff "$TMP/p" "$TMP/q" | head -4 >&3
done

expect_exit 129 prism report -i "$F/m-many-bits.data" --sort sockets
prism report -i "$F/m-many-bits.data" --sort mem 2>"$TMP/err" >/dev/null
grep_q "key of perf's branch or memory report" "$TMP/err"

# a task in a cgroup of its own (cgroup v2, root): its samples' cgroup by name
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
WL=$PRISM_OUT/tests/workloads/hot-spin
if [ "$(id -u)" -eq 0 ] && [ -n "$cg2" ] && [ -x "$WL" ] && mkdir "$cg2/prism-t0610-$$" 2>/dev/null; then
	cg=$cg2/prism-t0610-$$
	prism record -q --all-cgroups --namespaces -e cpu-clock -F 999 -o "$TMP/cg.data" -- \
		sh -c "echo \$\$ >$cg/cgroup.procs && exec $WL 0.3" >/dev/null 2>&1 ||
		fail "prism record --all-cgroups"
	rmdir "$cg"
	grep_q "prism-t0610-$$" <(prism report -i "$TMP/cg.data" --stdio --sort cgroup 2>/dev/null)
	for o in "--sort cgroup" "--sort cgroup,comm" "--sort cgroup_id,cgroup" "--sort cgroup,sym" \
		"-F overhead,cgroup,socket"; do
		# shellcheck disable=SC2086
		same cgroup "$TMP/cg.data" $o
	done
else
	echo "note: no live cgroup recording (needs root, a cgroup2 mount and $WL)" >&3
fi
done_testing
