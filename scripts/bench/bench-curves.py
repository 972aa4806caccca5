#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Add up scripts/bench/bench-curves-guest.sh's runs and plot them with gnuplot.

usage: bench-curves.py CURVES.jsonl DIR

Writes DIR/rate.dat, kfunc.dat, memory.dat (medians over the repetitions,
one row per point, columns named in the first line) and an SVG per plot:
rate-cost.svg (extra ns per event against the achieved event rate, lost
events beside it in rate.dat), reader.svg (reader CPU per event against
rate; LTTng's is both daemons', every thread), kfunc.svg (ns per traced
call against functions selected, with the traced calls per operation
printed, 1.00 when nothing but the workload called a selected function,
and the collectors' set-up CPU time in kfunc.dat)
and memory.svg (MiB taken against buffer size).  Prints the tables.
"""
import json
import os
import statistics
import subprocess
import sys

RATE_CFGS = ["tb_fdr", "tb_fdr_read", "bpf", "lttng"]
KF_CFGS = ["kfunc", "fentry"]
MEM_CFGS = ["tb_fdr", "bpf", "lttng"]
LABEL = {"tb_fdr": "tracebuf record (mmap)", "tb_fdr_read": "tracebuf record (read)",
         "bpf": "tracebuf bpf (BPF ring buffer)", "lttng": "LTTng (discard)",
         "kfunc": "record -f (kretprobes)", "fentry": "bpf -f (BPF trampolines)"}


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(v, spec="%.1f"):
    return "?" if v is None else spec % v


def write_dat(path, header, rows):
    with open(path, "w") as f:
        f.write("# " + " ".join(header) + "\n")
        for r in rows:
            f.write(" ".join(fmt(v, "%.6g") for v in r) + "\n")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    d = sys.argv[2]
    g = {}
    for r in runs:
        g.setdefault((r["curve"], r["config"], r["x"]), []).append(r)

    def runs_of(curve, cfg, x):
        return g.get((curve, cfg, x), [])

    gp = []
    # Cost, loss and reader CPU against event rate.
    xs = sorted({k[2] for k in g if k[0] == "rate"}, key=lambda x: x or 1e12)
    rows = []
    print("rate: extra ns per event (lost, reader ns per event) against events/s")
    for x in xs:
        base = med([r["run"]["ns_per_op"] for r in runs_of("rate", "none", x)])
        row = [x, med([r["run"]["ev_per_s"] for r in runs_of("rate", "none", x)])]
        line = "%9s none %8s ev/s" % (x or "max", fmt(row[1], "%.0f"))
        for c in RATE_CFGS:
            rs = runs_of("rate", c, x)
            rate = med([r["run"]["ev_per_s"] for r in rs])
            cost = med([(r["run"]["ns_per_op"] - base) / 2 for r in rs]) if base and rs else None
            lost = max([r["tracer"].get("lost", 0) for r in rs], default=None)
            ev = [2 * r["run"]["ops"] for r in rs]
            # No reader time (0) is not measured, never free.
            rd = med([r["tracer"]["reader_ns"] / e for r, e in zip(rs, ev)
                      if e and r["tracer"].get("reader_ns")])
            row += [rate, cost, lost, rd]
            line += " | %s %s ev/s %s ns (%s, %s)" % (c, fmt(rate, "%.0f"), fmt(cost),
                                                   fmt(lost, "%d"), fmt(rd))
        rows.append(row)
        print(line)
    hdr = ["target", "none_ev_s"]
    for c in RATE_CFGS:
        hdr += [c + "_ev_s", c + "_ns_ev", c + "_lost", c + "_reader_ns_ev"]
    if rows:
        write_dat(os.path.join(d, "rate.dat"), hdr, rows)
        plots = ", ".join("'rate.dat' using %d:%d with linespoints title '%s'" %
                          (3 + 4 * i, 4 + 4 * i, LABEL[c]) for i, c in enumerate(RATE_CFGS))
        gp += ["set output 'rate-cost.svg'", "set logscale x", "set xlabel 'events per second (achieved)'",
               "set ylabel 'extra ns per event (TCG)'", "plot " + plots]
        plots = ", ".join("'rate.dat' using %d:%d with linespoints title '%s'" %
                          (3 + 4 * i, 6 + 4 * i, LABEL[c]) for i, c in enumerate(RATE_CFGS))
        gp += ["set output 'reader.svg'", "set ylabel 'reader CPU ns per event (TCG)'",
               "plot " + plots, "unset logscale x"]

    # Kernel functions: cost per traced call against functions selected.
    base = med([r["run"]["ns_per_op"] for r in runs_of("kfunc", "none", 0)])
    xs = sorted({k[2] for k in g if k[0] == "kfunc" and k[2]})
    rows = []
    if xs:
        print("kfunc: extra ns per traced call against functions selected (none %s ns/op)" % fmt(base))
    for x in xs:
        row, setups = [x], []
        line = "%5d" % x
        for c in KF_CFGS:
            rs = runs_of("kfunc", c, x)
            cost = med([r["run"]["ns_per_op"] - base for r in rs]) if base and rs else None
            calls = max([r["tracer"].get("kfunc_calls", 0) / r["run"]["ops"] for r in rs],
                        default=None)
            setup = med([r["tracer"].get("setup_cpu_s") for r in rs])
            row.append(cost)
            setups.append(setup)
            line += "  %s %s (%s calls/op, set-up %s s)" % (c, fmt(cost), fmt(calls, "%.4f"),
                                                          fmt(setup, "%.2f"))
        rows.append(row + setups)
        print(line)
    if rows:
        write_dat(os.path.join(d, "kfunc.dat"), ["functions"] + [c + "_ns_call" for c in KF_CFGS] +
                  [c + "_setup_cpu_s" for c in KF_CFGS], rows)
        plots = ", ".join("'kfunc.dat' using 1:%d with linespoints title '%s'" % (2 + i, LABEL[c])
                          for i, c in enumerate(KF_CFGS))
        gp += ["set output 'kfunc.svg'", "set logscale x 2", "set xlabel 'functions selected'",
               "set ylabel 'extra ns per traced call (TCG)'", "plot " + plots, "unset logscale x"]

    # Memory against buffer size.
    xs = sorted({k[2] for k in g if k[0] == "memory"})
    rows = []
    if xs:
        print("memory: MiB taken while recording against buffer size")
    for x in xs:
        row = [x]
        line = "%6d KiB" % x
        for c in MEM_CFGS:
            m = med([r["run"]["taken_kib"] / 1024 for r in runs_of("memory", c, x)])
            row.append(m)
            line += "  %s %s" % (c, fmt(m))
        rows.append(row)
        print(line)
    if rows:
        write_dat(os.path.join(d, "memory.dat"), ["size_kib"] + [c + "_mib" for c in MEM_CFGS], rows)
        plots = ", ".join("'memory.dat' using 1:%d with linespoints title '%s'" % (2 + i, LABEL[c])
                          for i, c in enumerate(MEM_CFGS))
        gp += ["set output 'memory.svg'", "set logscale xy 2", "set xlabel 'buffer size (KiB)'",
               "set ylabel 'MiB taken while recording'", "plot " + plots]

    if gp:
        gp = ["set terminal svg size 720,420 noenhanced font 'sans,12'", "set key top left",
              "set grid"] + gp
        subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True, cwd=d, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
