#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare `prism util --csv` with the kernel's own accounting.

  util-kernel.py snap FILE
      write every thread's on-CPU ns (/proc/PID/task/TID/schedstat, first
      field) and comm to FILE, one "tid ns comm" line each.
  util-kernel.py system BEFORE AFTER PRISM.csv [--slack-ms 1] [--total-pct 10] [--runtime-ms X]
                                               [--not-pid P,Q] [--not-comm C,D]
                                               [--light-pct L] [--only-pid P,Q]
      BEFORE and AFTER are snaps taken around the prism run (a window that
      holds the recording: the kernel's figure is an upper bound).  Every
      task of the report that lived through the window (or was born in it
      and still lives) is on CPU no longer than the kernel accounted to it
      + slack; the report's total of those tasks is within total-pct of the
      kernel's, for the tasks alive at both reads: no more than 10% over
      the kernel's total over the window, no more than 10% under its share
      over the trace (the trace's length over the time between the reads).
      With --light-pct, the total counts only tasks the kernel gave at most
      L% of one CPU over the window (the machine's busy tasks run in the
      window's ends, outside the trace, at their own pace).  --not-pid:
      leave these processes' threads out of the total; --only-pid: count
      only these processes' threads in it (a test's own tasks, which run at
      a steady pace: other processes may run in bursts at the window's
      ends, outside the trace, and make the share over the trace no bound).
  util-kernel.py sum PRISM.csv [--comm-not a,b] [--pid P] [--not-pid P] [--with-steal]
      print the on-CPU ms of the report's task rows (ALL, every image)
      that pass the filters; --with-steal adds their steal time (the wall
      clock's view, as perf's task-clock counts).
  util-kernel.py runtime PRISM DATA TID[,TID...]
      the kernel's own count of these tasks' run time inside the trace DATA:
      the sum of their sched_stat_runtime events (read with PRISM script),
      one "comm[tid]: N runtime events, X ms" line each; set against
      prism util's rows it tells a deviation in the analysis from time that
      is not in the trace (run outside it, or lost events).
  util-kernel.py rusage OUT CMD...
      run CMD, write "PID MS" to OUT: its pid and the user + sys time its
      rusage says (wait4, microseconds), then exit with CMD's status.

Prints one line per difference; exits 1 if there is any.
"""
import os
import sys
import time


def snap(path):
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat", errors="surrogateescape") as f:
                    ns = int(f.read().split()[0])
                with open(f"/proc/{pid}/task/{tid}/comm", errors="surrogateescape") as f:
                    comm = f.read().strip().replace(" ", "_")
            except (OSError, ValueError, IndexError):
                continue
            out.append(f"{tid} {ns} {comm}\n")
    with open(path, "w", errors="surrogateescape") as f:
        f.write(f"# {time.monotonic_ns()}\n")
        f.writelines(out)


def load_snap(path):
    d = {}
    with open(path, errors="surrogateescape") as f:
        for line in f:
            if line.startswith("#"):
                d["t"] = int(line.split()[1])
                continue
            tid, ns, comm = line.split(" ", 2)
            d[int(tid)] = (int(ns), comm.strip())
    return d


def load_tasks(path):
    """tid -> [comm, on-CPU ms summed over the images, pid]"""
    tasks = {}
    with open(path, errors="surrogateescape") as f:
        for line in f:
            v = line.rstrip("\n").split(",")
            if len(v) < 13 or v[0] != "row" or v[1] != "task" or v[6] != "ALL":
                continue
            tid = int(v[3])
            run = sum(float(x) for x in v[7:13])
            t = tasks.setdefault(tid, [v[5], 0.0, int(v[2])])
            t[1] += run
            if v[4] == "-1":
                t[0] = v[5]
    return tasks


def system(argv):
    before, after = load_snap(argv[0]), load_snap(argv[1])
    tasks = load_tasks(argv[2])
    slack = float(opt(argv, "--slack-ms", "1"))
    slack_pct = float(opt(argv, "--slack-pct", "0"))
    total_pct = float(opt(argv, "--total-pct", "10"))
    window = (after["t"] - before["t"]) / 1e6
    light = float(opt(argv, "--light-pct", "100")) / 100 * window
    length = window
    with open(argv[2], errors="surrogateescape") as f:
        for line in f:
            if line.startswith("trace,length,"):
                length = float(line.split(",")[2])
    bad = 0
    sum_prism = sum_kernel = sum_scaled = 0.0
    diffs = []
    n = 0
    for tid, (comm, run, pid) in sorted(tasks.items()):
        if tid not in after:
            continue  # ended in the window: the kernel's figure is gone
        if str(pid) in opt(argv, "--not-pid", "").split(",") or \
                comm in opt(argv, "--not-comm", "").split(","):
            continue
        k = (after[tid][0] - before.get(tid, (0, ""))[0]) / 1e6
        only = [p for p in opt(argv, "--only-pid", "").split(",") if p]
        if k <= light and tid in before and (not only or str(pid) in only):
            n += 1
            sum_prism += run
            sum_kernel += k
            sum_scaled += k * min(1.0, length / window)
            diffs.append((k - run, comm, tid, run, k))
        if run > k + max(slack, k * slack_pct / 100):
            print(f"{comm}[{tid}]: prism {run:.3f} ms on CPU, the kernel {k:.3f} ms")
            bad += 1
        elif run > k + slack:  # the bound, not yet met on every run
            print(f"note: {comm}[{tid}]: prism {run:.3f} ms on CPU, the kernel {k:.3f} ms"
                  f" (over the kernel + {slack:g} ms)", file=sys.stderr)
    print(f"note: {n} tasks in the total, prism {sum_prism:.3f} ms, kernel {sum_scaled:.3f} ms"
          f" over the trace's share of the {window:.0f} ms window, {sum_kernel:.3f} ms over"
          " all of it", file=sys.stderr)
    if not n:
        print("no task to compare")
        return 1
    # the kernel's total over the trace: its runtime events there when given
    # (--runtime-ms), else between the window's share and the whole window
    rt = opt(argv, "--runtime-ms", None)
    low = float(rt) if rt is not None else sum_scaled
    if sum_prism < low * (1 - total_pct / 100) or \
            sum_prism > sum_kernel * (1 + total_pct / 100) or \
            (rt is not None and sum_prism > low * (1 + total_pct / 100) + 0.5):
        print(f"total: prism {sum_prism:.3f} ms, the kernel {sum_scaled:.3f} ms over the"
              f" trace's share of the window, {sum_kernel:.3f} ms over the window"
              + (f", {low:.3f} ms in the trace's runtime events" if rt is not None else ""))
        for d, comm, tid, run, k in sorted(diffs, reverse=True)[:5]:
            print(f"  {comm}[{tid}]: prism {run:.3f} ms, the kernel {k:.3f} ms")
        bad += 1
    return 1 if bad else 0


def opt(argv, name, default):
    return argv[argv.index(name) + 1] if name in argv else default


def rows_sum(argv):
    skip = opt(argv, "--comm-not", "").split(",")
    pid = opt(argv, "--pid", None)
    not_pid = opt(argv, "--not-pid", None)
    steal_col = None
    total = 0.0
    with open(argv[0], errors="surrogateescape") as f:
        for line in f:
            v = line.rstrip("\n").split(",")
            if v[0] == "record" and len(v) > 1 and v[1] == "scope" and "steal" in v:
                steal_col = v.index("steal")
            if len(v) < 13 or v[0] != "row" or v[1] != "task" or v[6] != "ALL":
                continue
            if v[5] in skip or (pid and v[2] != pid) or (not_pid and v[2] == not_pid):
                continue
            total += sum(float(x) for x in v[7:13])
            # the wall clock's view (perf's task-clock): steal time counts
            if "--with-steal" in argv and steal_col is not None and len(v) > steal_col:
                total += float(v[steal_col] or 0)
    print(f"{total:.6f}")
    return 0


def runtime(argv):
    import re
    import subprocess
    tids = {int(t): [0, 0, "?"] for t in argv[2].split(",") if t}
    pat = re.compile(r"sched:sched_stat_runtime: comm=(.*) pid=(\d+) runtime=(\d+)")
    with subprocess.Popen([argv[0], "script", "-i", argv[1]], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, errors="surrogateescape") as p:
        for line in p.stdout:
            m = pat.search(line)
            if m and int(m.group(2)) in tids:
                t = tids[int(m.group(2))]
                t[0] += 1
                t[1] += int(m.group(3))
                t[2] = m.group(1)
    for tid, (n, ns, comm) in sorted(tids.items()):
        print(f"{comm}[{tid}]: {n} runtime events, {ns / 1e6:.3f} ms")
    return 0 if p.returncode == 0 else 1


def rusage(argv):
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[1], argv[1:])
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    with open(argv[0], "w", errors="surrogateescape") as f:
        f.write(f"{pid} {(ru.ru_utime + ru.ru_stime) * 1e3:.3f}\n")
    return os.waitstatus_to_exitcode(status) & 0xff


def main():
    # comm names are bytes, not always UTF-8
    sys.stdout.reconfigure(errors="backslashreplace")
    sys.stderr.reconfigure(errors="backslashreplace")
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, argv = sys.argv[1], sys.argv[2:]
    if cmd == "snap":
        snap(argv[0])
        return 0
    if cmd == "system":
        return system(argv)
    if cmd == "sum":
        return rows_sum(argv)
    if cmd == "runtime":
        return runtime(argv)
    if cmd == "rusage":
        return rusage(argv)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
