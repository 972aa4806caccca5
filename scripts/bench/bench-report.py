#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Add up the benchmark runs of scripts/bench/bench-guest.sh.

usage: bench-report.py BENCH.jsonl RESULTS.json [CONVERT.json]

For each configuration and workload: the median cost per operation and its
spread (min..max over the repetitions), the cost per traced event above the
untraced run, and that cost as a ratio to ftrace's and to the empty-probe
floor's.  Events per operation come from ftrace's own count of what it
recorded (every tracer is enabled on the same tracepoints), except for the
syscall workload where they are exactly 2 (sys_enter and sys_exit), and the
kfunc workload, where an "event" is one traced kernel function call (entry
and exit; calls_per_op of them per getppid()), and "ftrace" is
function_graph on the same functions.
"""
import json
import statistics
import sys
import time


def load(path):
    runs = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                runs.append(json.loads(line))
    return runs


def median(xs):
    return statistics.median(xs) if xs else None


# Both collectors' readers also wake on their poll timeout (100 ms).
TIMER_WAKEUPS_PER_S = 10
# A BPF ring buffer record of an event or a context switch without
# arguments: the 8-byte record header and struct tb_bpf_event
# (userspace/bpf/tracebuf_bpf.h).  Only the syscall workload has no
# arguments at all, so the bound is exact there and a slight
# underestimate elsewhere.
BPF_RECORD_BYTES = 8 + 24


def wakeup_bound(cfg, t):
    """Wake-ups per second a waiting reader may cost: one per wake-up
    threshold of data committed (the FDR rings count per CPU, so summing
    the CPUs' bytes bounds the sum of their wake-ups), plus the timer."""
    data = t.get("committed_bytes")
    if data is None:
        data = (t["events"] + t.get("switches", 0)) * BPF_RECORD_BYTES
    return data / t["wakeup_bytes"] / t["duration_s"] + TIMER_WAKEUPS_PER_S


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    runs = load(sys.argv[1])
    if not runs:
        print("bench-report: no runs in %s" % sys.argv[1], file=sys.stderr)
        return 1

    groups = {}
    for r in runs:
        groups.setdefault((r["workload_set"], r["config"]), []).append(r)

    results = {"date": time.strftime("%Y-%m-%d"), "workloads": {}}
    order = ["none", "tb_floor", "tb_fdr", "tb_fdr_cache", "tb_fdr_read",
             "tb_top", "ftrace", "bpf", "xscale", "lttng", "lttng_snap", "perf"]
    for wl in sorted({k[0] for k in groups}):
        base = groups.get((wl, "none"), [])
        base_ns = median([r["run"]["ns_per_op"] for r in base])
        if wl == "syscall":
            ev_per_op = 2.0
        elif wl == "kfunc":
            ev_per_op = base[0].get("calls_per_op") if base else None
        else:
            ft = groups.get((wl, "ftrace"), [])
            ev_per_op = median([r["events"] / r["run"]["ops"] for r in ft]) if ft else None
        rows = {}
        for cfg in order:
            rs = groups.get((wl, cfg))
            if not rs:
                continue
            per_op = [r["run"]["ns_per_op"] for r in rs]
            row = {
                "reps": len(rs),
                "ns_per_op_median": median(per_op),
                "ns_per_op_min": min(per_op),
                "ns_per_op_max": max(per_op),
            }
            if cfg != "none" and base_ns is not None and ev_per_op:
                per_ev = [(x - base_ns) / ev_per_op for x in per_op]
                row["ns_per_event_median"] = median(per_ev)
                row["ns_per_event_min"] = min(per_ev)
                row["ns_per_event_max"] = max(per_ev)
            tr = [r.get("tracer") or {} for r in rs]
            ev = [t.get("events", r.get("events")) for t, r in zip(tr, rs)]
            ev = [e for e in ev if e]
            by = [t.get("bytes") for t in tr if t.get("bytes") is not None]
            lost = [t.get("lost", r.get("lost")) for t, r in zip(tr, rs)]
            lost = [x for x in lost if x is not None]
            rd = [t.get("reader_ns", r.get("reader_ns")) for t, r in zip(tr, rs)]
            rd = [x for x in rd if x is not None]
            if ev and by:
                row["bytes_per_event"] = median([b / e for b, e in zip(by, ev)])
            if lost:
                row["lost_median"] = median(lost)
                row["lost_max"] = max(lost)
            if rd and ev:
                row["reader_ns_per_event"] = median([a / e for a, e in zip(rd, ev)])
            wk = [(t["wakeups"] / t["duration_s"], wakeup_bound(cfg, t))
                  for t in tr if t.get("wakeups") is not None and
                  t.get("duration_s") and t.get("wakeup_bytes")]
            if wk:
                row["wakeups_per_s"] = median([w for w, _ in wk])
                row["wakeup_bound_per_s"] = median([b for _, b in wk])
            rows[cfg] = row
        for cfg, row in rows.items():
            pe = row.get("ns_per_event_median")
            if pe is None:
                continue
            for ref in ("ftrace", "tb_floor"):
                rp = rows.get(ref, {}).get("ns_per_event_median")
                # A reference at or below zero is noise: no ratio to it.
                if rp is not None and rp > 0 and cfg != ref:
                    row["ratio_to_" + ref] = pe / rp
        results["workloads"][wl] = {"events_per_op": ev_per_op,
                                    "configs": rows}

    if len(sys.argv) == 4:
        try:
            with open(sys.argv[3]) as f:
                results["converters"] = json.load(f)
        except OSError as e:
            print("bench-report: no converter results: %s" % e, file=sys.stderr)

    with open(sys.argv[2], "w") as f:
        json.dump(results, f, indent=2, sort_keys=True)

    def fmt(v, spec="%.1f"):
        return "-" if v is None else spec % v

    print("\nper-operation cost in the VM (TCG: ~10x real hardware; compare ratios)")
    for wl, w in results["workloads"].items():
        print("\nworkload %s: %s events/op" % (wl, fmt(w["events_per_op"], "%.2f")))
        print("%-12s %5s %12s %19s %12s %8s %8s %8s %9s %10s" % (
            "config", "reps", "ns/op", "(min..max)", "ns/event", "xftrace",
            "xfloor", "B/event", "lost", "reader/ev"))
        for cfg, r in w["configs"].items():
            print("%-12s %5d %12s %19s %12s %8s %8s %8s %9s %10s" % (
                cfg, r["reps"], fmt(r["ns_per_op_median"]),
                "(%s..%s)" % (fmt(r["ns_per_op_min"], "%.0f"),
                              fmt(r["ns_per_op_max"], "%.0f")),
                fmt(r.get("ns_per_event_median")),
                fmt(r.get("ratio_to_ftrace"), "%.2f"),
                fmt(r.get("ratio_to_tb_floor"), "%.2f"),
                fmt(r.get("bytes_per_event"), "%.2f"),
                fmt(r.get("lost_max"), "%d"),
                fmt(r.get("reader_ns_per_event"))))
    print("\nmapped readers' CPU per event over the read() reader's (goal 0.25)")
    for wl, w in results["workloads"].items():
        ref = w["configs"].get("tb_fdr_read", {}).get("reader_ns_per_event")
        for cfg in ("tb_fdr", "tb_fdr_cache"):
            rd = w["configs"].get(cfg, {}).get("reader_ns_per_event")
            if ref and rd is not None:
                print("  %-8s %-12s %6.2f" % (wl, cfg, rd / ref))
    print("\nwake-ups of the waiting reader (per second; bound: one per wake-up"
          " threshold of data, plus its 100 ms poll timeout)")
    for wl, w in results["workloads"].items():
        for cfg, r in w["configs"].items():
            if "wakeups_per_s" in r:
                print("  %-8s %-12s %10s /s   bound %10s /s" % (
                    wl, cfg, fmt(r["wakeups_per_s"]),
                    fmt(r["wakeup_bound_per_s"])))
    if "converters" in results:
        print("\nconverters (host):")
        print(json.dumps(results["converters"], indent=2))
    print("\nwritten: %s" % sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
