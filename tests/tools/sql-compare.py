#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare a database perf's export-to-sqlite.py wrote with prism export's
on the same perf.data file: every table's rows, column by column, in id
order (prism's extra host_id column and tables aside).

usage: sql-compare.py PERF.db PRISM.db [--tables t1,t2,...] [--no-symbols] [--us]
A table "view:NAME" compares the view NAME: every column of perf's view, the
rows sorted.
--no-symbols leaves out symbols, call_paths and the samples' symbol and
call path columns (for files where perf leaves addresses unresolved that
prism resolves).  --us compares times in microseconds (where perf
estimates the nanoseconds of a trace's restart that has no timing packet).
Prints one line per table ("ok: samples 247 rows" or the first difference);
exits 1 when a table differs."""
import sqlite3
import sys

# the columns compared per table; symbols compare by name and place
TABLES = {
    "selected_events": "id, name",
    "machines": "id, pid, root_dir",
    "threads": "id, machine_id, process_id, pid, tid",
    "comms": "id, comm, c_thread_id, c_time, exec_flag",
    "comm_threads": "id, comm_id, thread_id",
    "dsos": "id, machine_id, short_name, long_name, build_id",
    "symbols": "id, dso_id, sym_start, sym_end, binding, name",
    "branch_types": "id, name",
    "samples": "id, evsel_id, machine_id, thread_id, comm_id, dso_id, symbol_id, sym_offset, "
               "ip, time, cpu, to_dso_id, to_symbol_id, to_sym_offset, to_ip, period, weight, "
               "transaction_, data_src, branch_type, in_tx, call_path_id, insn_count, cyc_count, "
               "flags",
    "call_paths": "id, parent_id, symbol_id, ip",
    "context_switches": "id, machine_id, time, cpu, thread_out_id, comm_out_id, thread_in_id, "
                        "comm_in_id, flags",
    # the switches without their comms (see t0801: perf's comm rows are its own objects)
    "context_switches/threads": "id, machine_id, time, cpu, thread_out_id, thread_in_id, flags",
    "samples/threads": "id, evsel_id, machine_id, thread_id, dso_id, ip, time, cpu, period",
    # the columns of export-to-sqlite.py's "branches" samples table (Intel PT)
    "samples/branches": "id, evsel_id, machine_id, thread_id, comm_id, dso_id, symbol_id, "
                        "sym_offset, ip, time, cpu, to_dso_id, to_symbol_id, to_sym_offset, "
                        "to_ip, branch_type, in_tx, call_path_id, insn_count, cyc_count, flags",
    # and without to_ip (instruction samples: perf's has a taken branch's target)
    "samples/insn": "id, evsel_id, machine_id, thread_id, comm_id, dso_id, symbol_id, "
                    "sym_offset, ip, time, cpu, to_dso_id, to_symbol_id, to_sym_offset, "
                    "branch_type, in_tx, call_path_id, insn_count, cyc_count, flags",
    "calls": "id, thread_id, comm_id, call_path_id, call_time, return_time, branch_count, "
             "call_id, return_id, parent_call_path_id, flags, parent_id, insn_count, cyc_count",
}
# times, compared in microseconds with --us
TIMES = ("time", "call_time", "return_time", "elapsed_time")


def rows(db, table, cols, us=False):
    if us:
        cols = ", ".join("%s / 1000" % c if c in TIMES else c for c in cols.split(", "))
    try:
        cur = db.execute("SELECT %s FROM %s ORDER BY id" % (cols, table))
    except sqlite3.OperationalError:
        return None  # perf drops empty tables it created
    # perf binds every value as a string: compare as text
    return [tuple("" if v is None else str(v) for v in r) for r in cur]


def main():
    perf = sqlite3.connect(sys.argv[1])
    prism = sqlite3.connect(sys.argv[2])
    tables = [t for t in TABLES if "/" not in t]
    args = sys.argv[3:]
    if "--tables" in args:
        tables = args[args.index("--tables") + 1].split(",")
    if "--no-symbols" in args:
        tables = [t for t in tables if t not in ("symbols", "call_paths")]
        TABLES["samples"] = ", ".join(c for c in TABLES["samples"].split(", ")
                                      if c not in ("symbol_id", "sym_offset", "call_path_id"))
    bad = 0
    for t in tables:
        us = "--us" in args
        if t.startswith("view:"):
            table = t[5:]
            cols = ", ".join(r[1] for r in perf.execute("PRAGMA table_info(\"%s\")" % table))
            if not cols:
                print("FAIL: %s: no such view in perf's database" % t)
                bad += 1
                continue
            a, b = rows(perf, table, cols, us), rows(prism, table, cols, us)
            a, b = sorted(a or []), None if b is None else sorted(b)
        else:
            cols = TABLES[t]
            table = t.split("/")[0]
            a, b = rows(perf, table, cols, us), rows(prism, table, cols, us)
        if a is None:
            a = []
        if b is None:
            print("FAIL: %s: no such table in prism's database" % t)
            bad += 1
            continue
        if t == "dsos" and len(a) == len(b):
            # perf reads a build id the file lacks from the binary at its
            # recorded path (not under --symfs): where that path has no
            # file here, perf's is empty and prism's (read under --symfs) is
            # compared with nothing
            a = [r[:4] + (b[i][4] if r[4] == "" else r[4],) for i, r in enumerate(a)]
        if a == b:
            print("ok: %s %d rows" % (t, len(a)))
            continue
        bad += 1
        msg = "FAIL: %s: perf %d rows, prism %d" % (t, len(a), len(b))
        for i in range(min(len(a), len(b))):
            if a[i] != b[i]:
                msg += "; first difference at row %d:\n  perf:  %s\n  prism: %s" % (
                    i, "|".join(a[i]), "|".join(b[i]))
                break
        print(msg)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
