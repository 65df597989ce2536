#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare `prism util --json` with perf's own summaries.

  util-compare.py trace    PERF_TRACE_S.txt PRISM.json [--tids 1,2] [--comm-prefix X]
      for every thread and syscall of `perf trace -s`: prism's calls
      (count + exits whose entry preceded the trace + the damaged calls
      prism counts on that call: exits without an entry and duplicated exit
      samples, which perf counts as calls; summed over exec images) equal
      perf's exactly; total/min/max agree to perf's printed precision where
      perf measured every call from its entry.  A duplicated exit adds one
      more of the same call to perf's numbers: min/max stay exact, and
      perf's total lies between prism's + dups x min and + dups x max.
  util-compare.py timehist PERF_SCHED_TIMEHIST_S.txt PRISM.json [--tids ...]
      every task's run time matches perf sched timehist -s within 0.1% or
      10 us, plus the run time prism reports as inferred for that task, or
      as moved by runtime events (perf measures from the traced switch, the
      kernel and prism from when the task was picked).
  util-compare.py cpusum   PRISM.json
      every CPU row sums to the trace length within 1 us.

Prints one line per difference; exits 1 if there is any, 2 when there was
nothing to compare.
"""
import json
import re
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def tasks_by_tid(doc):
    out = {}
    for p in doc["processes"]:
        for t in p["tasks"]:
            out.setdefault(t["tid"], []).append(t)
    return out


def run_of(times):
    return sum(times[k] for k in ("user", "sys", "irq", "softirq", "hv", "busy"))


def parse_trace_summary(path):
    """{tid: (comm, {syscall: (calls, total, min, avg, max)})}"""
    out = {}
    cur = None
    head = re.compile(r"^ (.*) \((\d+)\), (\d+) events")
    row = re.compile(r"^   (\S+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)")
    with open(path, errors="replace") as f:
        for line in f:
            m = head.match(line)
            if m:
                cur = out.setdefault(int(m.group(2)), (m.group(1), {}))[1]
                continue
            m = row.match(line)
            if m and cur is not None and m.group(1) != "syscall":
                cur[m.group(1)] = tuple([int(m.group(2))] + [float(m.group(i)) for i in (4, 5, 6, 7)])
    return out


def parse_timehist(path):
    """{tid: (comm, run_ms)} from the Runtime summary and Terminated tasks."""
    out = {}
    row = re.compile(r"^\s*(.*)\[(\d+)(?:/(\d+))?\]\s+(-?\d+)\s+(\d+)\s+([\d.]+)\s")
    on = False
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("Runtime summary"):
                on = True
                continue
            if line.startswith("Idle stats"):
                on = False
            if not on:
                continue
            m = row.match(line)
            if m:
                tid = int(m.group(2))
                prev = out.get(tid, (m.group(1).strip(), 0.0))
                out[tid] = (prev[0], prev[1] + float(m.group(6)))
    return out


def want(tid, args):
    return not args["tids"] or tid in args["tids"]


def cmp_trace(perf_txt, doc, args):
    perf = parse_trace_summary(perf_txt)
    ours = tasks_by_tid(doc)
    bad = compared = 0
    for tid, (comm, calls) in sorted(perf.items()):
        if not want(tid, args):
            continue
        if args["comm"] and not comm.startswith(args["comm"]):
            continue
        mine = {}
        for t in ours.get(tid, []):
            for c in t.get("calls", {}).get("syscall", []):
                m = mine.setdefault(c["name"], {"count": 0, "elapsed": 0.0, "min": None,
                                                "max": 0.0, "ps": 0, "inh": 0, "unm": 0,
                                                "dup": 0})
                m["count"] += c["count"]
                m["elapsed"] += c["elapsed"]
                m["ps"] += c["pending_start"]
                m["inh"] += c["inherited"]
                m["unm"] += c["unmatched_exits"]
                m["dup"] += c["duplicate_exits"]
                if c["count"]:
                    m["min"] = c["minimum"] if m["min"] is None else min(m["min"], c["minimum"])
                    m["max"] = max(m["max"], c["maximum"])
        for name, (n, total, mn, avg, mx) in sorted(calls.items()):
            compared += 1
            m = mine.get(name)
            if not m:
                print("%s[%d] %s: perf %d calls, prism none" % (comm, tid, name, n))
                bad += 1
                continue
            if m["count"] + m["ps"] + m["unm"] + m["dup"] != n:
                print("%s[%d] %s: perf %d calls, prism %d (+%d entered before the trace, "
                      "+%d exits without entry, +%d duplicated exits)"
                      % (comm, tid, name, n, m["count"], m["ps"], m["unm"], m["dup"]))
                bad += 1
                continue
            if m["ps"] or m["inh"] or m["unm"]:
                # perf timed those from nothing (duration 0) or from the
                # thread's previous entry, which prism does not keep
                continue
            lo = hi = m["elapsed"]
            if m["count"] and m["dup"]:
                lo += m["dup"] * m["min"]
                hi += m["dup"] * m["max"]
            if not (round(lo, 3) - 0.0011 <= total <= round(hi, 3) + 0.0011):
                print("%s[%d] %s: total perf %.3f prism %.6f (+%d duplicated exits)"
                      % (comm, tid, name, total, m["elapsed"], m["dup"]))
                bad += 1
            for what, p, q in (("min", mn, m["min"] or 0.0), ("max", mx, m["max"])):
                if abs(round(q, 3) - p) > 0.0011:
                    print("%s[%d] %s: %s perf %.3f prism %.6f" % (comm, tid, name, what, p, q))
                    bad += 1
        for name, m in sorted(mine.items()):
            if name in calls or not (m["count"] + m["ps"]):
                continue
            if name == "rt_sigreturn":
                continue  # its exit has id -1: perf drops it, prism closes the call
            print("%s[%d] %s: prism %d calls, perf none" % (comm, tid, name, m["count"]))
            bad += 1
    return bad, compared


def cmp_timehist(perf_txt, doc, args):
    perf = parse_timehist(perf_txt)
    ours = tasks_by_tid(doc)
    bad = compared = 0
    for tid, (comm, run) in sorted(perf.items()):
        if tid == 0 or not want(tid, args) or tid not in ours:
            if tid and want(tid, args) and args["tids"] and run > 0.0105:
                print("%s[%d]: perf ran %.3f ms, prism has no such task" % (comm, tid, run))
                bad += 1
            continue
        if args["comm"] and not comm.startswith(args["comm"]):
            continue
        mine = sum(run_of(t["all"]) for t in ours[tid])
        # perf leaves out what ran before a CPU's first switch (head) and
        # after a task's last switch-in (tail), and places missing switches
        # differently (inferred), and gives an exiting thread's last run,
        # sampled with tid -1, to tid -1 (orphan): prism reports each per task
        inferred = sum(t["inferred"] + t.get("moved", 0) + t["tail"] + t["head"] + t["orphan"]
                       for t in ours[tid])
        tol = max(0.001 * run, 0.010) + 0.0005 + inferred
        compared += 1
        if abs(mine - run) > tol:
            print("%s[%d]: run time perf %.3f ms, prism %.6f ms (allowed %.6f, inferred %.6f)"
                  % (comm, tid, run, mine, tol, inferred))
            bad += 1
    return bad, compared


def cmp_cpusum(doc):
    bad = 0
    length = doc["length"]
    cpus = doc["system"]["cpus"]
    for c in cpus:
        s = run_of(c) + c["idle"]
        if abs(s - length) > 0.001:
            print("cpu %d: rows sum to %.6f ms, trace length %.6f ms" % (c["cpu"], s, length))
            bad += 1
    return bad, len(cpus)


def main():
    a = sys.argv[1:]
    args = {"tids": set(), "comm": None}
    if "--tids" in a:
        i = a.index("--tids")
        args["tids"] = {int(x) for x in a[i + 1].split(",") if x}
        del a[i:i + 2]
    if "--comm-prefix" in a:
        i = a.index("--comm-prefix")
        args["comm"] = a[i + 1]
        del a[i:i + 2]
    if len(a) == 3 and a[0] == "trace":
        bad, n = cmp_trace(a[1], load(a[2]), args)
    elif len(a) == 3 and a[0] == "timehist":
        bad, n = cmp_timehist(a[1], load(a[2]), args)
    elif len(a) == 2 and a[0] == "cpusum":
        bad, n = cmp_cpusum(load(a[1]))
    else:
        sys.exit(__doc__)
    print("compared %d, %d differences" % (n, bad))
    sys.exit(1 if bad else (2 if n == 0 else 0))


if __name__ == "__main__":
    main()
