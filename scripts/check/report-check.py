#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check `tracebuf report --json` against a computation of its own.

For each FDR trace given, the records are read from `llvm-xray fdr-dump`
(or, where llvm-xray refuses the file, from `tracebuf convert fdr-text`,
which prints the same text), not from our C reader's structures, and the
report's numbers are computed again here: per event name the completed
calls (count, total, min, max, nearest-rank p50/p90/p99 when the report
says they are exact), point events (a fault, fork or exit is one event,
whole or with a half lost), exits without entry, entries without exit
and calls nested deeper than the report keeps; per task and per CPU the
events by class; the loss reports; every marker event in the JSON, by
name or among the others.  A capture read straight from the device is
put in order here, block by block, as the report says it does: every
record kept.
From the typed events (uapi/linux/tracebuf_fdr.h), decoded here from
the dump's bytes: the scheduler section (per task the run-queue delays,
the time on a CPU and off it by state, per CPU the switches, busy and
idle time and the outermost calls' time by class) and the errors
section (per system call the calls, the failed ones by errno name, the
return values not pinned on their exit).  llvm-xray's `convert -f yaml`
is no source for these: version 14 writes a payload's bytes that are no
UTF-8 as one U+FFFD, so a negative return value or a tid above 127 is
lost; `fdr-dump` prints the bytes as they are.
Where a collector wrote the trace (a .map beside it), `llvm-xray account
-m` without -k, as the documentation gives it, must accept it and count
what the report counts.  Prints TAP, one result per trace.

Usage: report-check.py [--tracebuf PATH] TRACE...
"""
import csv
import errno
import io
import json
import math
import os
import re
import struct
import subprocess
import sys

SPACES = {1: "syscall", 2: "irq", 3: "softirq", 4: "workqueue", 5: "fault",
          6: "sched", 7: "kfunc"}
POINT = {"fault", "sched"}
LOST = "tracebuf: lost "
TRIGGERS = ("tracebuf trigger: ", "tracebuf: panic: ")
# The post-processing opens each task with this event (convert/fdr_post.h).
START = "tracebuf: capture start"
# A task's command name, written as it exits (uapi/linux/tracebuf.h).
COMM = "tracebuf: comm "
# Calls the report keeps per task (tools.rst): deeper ones not timed.
DEPTH_MAX = 1024

# Idle tasks: tid 0x40000000 + CPU in the file (uapi TRACEBUF_FDR_IDLE_TID),
# shown as tid 0 named swapper/CPU (format/task_map.h).
IDLE_TID = 0x40000000
IDLE_CPUS = 0x10000
# Typed event types, their payloads' sizes and layouts (uapi).
SWITCH, WAKEUP, RET = 1, 2, 3
OURS = {SWITCH: 13, WAKEUP: 9, RET: 12, 4: 1, 5: 1, 6: 1}
STATES = ["running", "sleeping", "uninterruptible", "idle", "stopped",
          "dead", "other"]
ERRNO_MAX = 4095


def is_idle(tid):
    return IDLE_TID <= tid < IDLE_TID + IDLE_CPUS


# The kernel's own errnos a system call's exit can show (include/linux/
# errno.h, not in userspace's errno module): ERESTARTSYS when a signal
# interrupts a call, and the others of that range.
KERNEL_ERRNOS = {
    512: "ERESTARTSYS", 513: "ERESTARTNOINTR", 514: "ERESTARTNOHAND",
    515: "ENOIOCTLCMD", 516: "ERESTART_RESTARTBLOCK", 517: "EPROBE_DEFER",
    518: "EOPENSTALE", 519: "ENOPARAM", 521: "EBADHANDLE", 522: "ENOTSYNC",
    523: "EBADCOOKIE", 524: "ENOTSUPP", 525: "ETOOSMALL",
    526: "ESERVERFAULT", 527: "EBADTYPE", 528: "EJUKEBOX",
    529: "EIOCBQUEUED", 530: "ERECALLCONFLICT",
}


def errno_name(n):
    return errno.errorcode.get(n) or KERNEL_ERRNOS.get(n, "errno %d" % n)


def task_key(tid, comm=None):
    """A task as the report shows it: the raw tid, or an idle task's name."""
    if IDLE_TID <= tid < IDLE_TID + IDLE_CPUS:
        return "swapper/%d" % (tid - IDLE_TID)
    if tid == 0 and comm and comm.startswith("swapper/"):
        return comm
    return tid


LINE = re.compile(r"<(Function Enter|Function Exit|Function Tail Exit|"
                  r"Function Enter With Arg): #(\d+) delta = \+(\d+)>")


def load_names(path):
    """id -> (name, kernel id) from an "ID NAME" file with kernel-id comments."""
    names, last = {}, None
    if not path or not os.path.exists(path):
        return names
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            s = line.strip()
            m = re.match(r"# kernel id 0x([0-9a-fA-F]+)$", s)
            if m and last is not None and names[last][1] == 0:
                names[last] = (names[last][0], int(m.group(1), 16))
                continue
            if not s or s.startswith("#"):
                continue
            ident, name = s.split(None, 1)
            last = int(ident, 0)
            names[last] = (name.strip(), 0)
    return names


def load_tasks(path):
    """The tids a tasks file ("TID PID COMM") lists."""
    tids = set()
    if not os.path.exists(path):
        return tids
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[0].lstrip("-").isdigit():
                tids.add(int(parts[0]))
    return tids


def class_of(names, fid):
    kid = names.get(fid, ("", 0))[1] or (fid if fid >> 24 else 0)
    if not kid:
        return "function"
    return SPACES.get((kid >> 24) & 0xF, "function")


def name_of(names, fid):
    if fid in names:
        return names[fid][0]
    kid = fid if fid >> 24 else 0
    if kid:
        return "%s_0x%x" % (class_of(names, fid), kid & 0xFFFFFF)
    return "function_%d" % fid


def dump(trace, tracebuf):
    p = subprocess.run(["llvm-xray", "fdr-dump", trace], capture_output=True)
    if p.returncode == 0:
        return p.stdout.decode("latin-1"), "llvm-xray fdr-dump"
    p = subprocess.run([tracebuf, "convert", "fdr-text", trace],
                       capture_output=True, check=True)
    return p.stdout.decode("latin-1"), "tracebuf convert fdr-text"


def pct(sorted_v, p):
    rank = max(1, math.ceil(p / 100.0 * len(sorted_v)))
    return sorted_v[min(rank, len(sorted_v)) - 1]


def records(text):
    """(kind, rest, data) of each record of an fdr-dump text."""
    pos = 0
    tokens = re.compile(r"<(Thread ID|PID|CPU|TSC Wrap|Custom Event|"
                        r"Typed Event|Function[^:]*)(:[^\n]*)?")
    while True:
        m = tokens.search(text, pos)
        if not m:
            return
        kind, rest = m.group(1), m.group(2) or ""
        pos = m.end()
        data = None
        if kind in ("Custom Event", "Typed Event"):
            g = re.match(r": (?:delta = \+(-?\d+)|tsc = (\d+), cpu = \d+)"
                         r"(?:, type = (\d+))?, size = (\d+), data = '",
                         rest)
            start = m.start(2) + g.end()
            data = text[start:start + int(g.group(4))]
            pos = start + len(data)
            if kind == "Typed Event":
                data = (int(g.group(3)), data)
        elif kind.startswith("Function"):
            rest = m.group(0)
        yield kind, rest, data


def in_order(recs):
    """The blocks (each from its Thread ID record) by task, then time."""
    blocks, cur = [], []
    for r in recs:
        if r[0] == "Thread ID" and cur:
            blocks.append(cur)
            cur = []
        cur.append(r)
    if cur:
        blocks.append(cur)

    def key(i):
        tid, t = -1, 0
        for kind, rest, _ in blocks[i]:
            if kind == "Thread ID":
                tid = int(rest[1:].strip(" >"))
            elif kind == "CPU":
                t = int(re.match(r": id = \d+, tsc = (\d+)>", rest).group(1))
                break
        return (tid, t, i)
    for i in sorted(range(len(blocks)), key=key):
        yield from blocks[i]


def compute(trace, text, names, tidy):
    with open(trace, "rb") as f:
        freq = struct.unpack_from("<Q", f.read(32), 8)[0]
    to_ns = (lambda t: int(t * 1000000000 // freq)) if freq else (lambda t: t)
    funcs, tasks, cpus = {}, {}, {}
    stacks, comms, deep, point = {}, {}, {}, {}
    lost = 0
    tid = pid = cpu = None
    tsc = 0
    typed = {"sched": [], "malformed": 0, "returns": 0, "unmatched": 0,
             "failed": {}, "cpu_time": {}}
    # The exit just read in this block, which a return value may follow.
    last_exit = None

    def func(fid):
        if fid not in funcs:
            funcs[fid] = {"name": name_of(names, fid),
                          "class": class_of(names, fid), "calls": [],
                          "points": 0, "no_entry": 0, "no_exit": 0,
                          "too_deep": 0}
        return funcs[fid]

    def count(cls):
        tasks.setdefault(tid, {"pid": pid, "events": {}})
        ev = tasks[tid]["events"]
        ev[cls] = ev.get(cls, 0) + 1
        c = cpus.setdefault(cpu, {"events": {}, "lost": 0})["events"]
        c[cls] = c.get(cls, 0) + 1

    recs = records(text)
    for kind, rest, data in (in_order(recs) if tidy else recs):
        if kind == "Thread ID":
            tid = int(rest[1:].strip(" >"))
            last_exit = None
        elif kind == "PID":
            pid = int(rest[1:].strip(" >"))
        elif kind == "CPU":
            g = re.match(r": id = (\d+), tsc = (\d+)>", rest)
            cpu, tsc = int(g.group(1)), int(g.group(2))
        elif kind == "TSC Wrap":
            tsc = int(re.match(r": base = (\d+)>", rest).group(1))
        elif data is not None:
            g = re.match(r": delta = \+(-?\d+)", rest)
            if g:
                tsc += int(g.group(1))
            after_exit, last_exit = last_exit, None
            if isinstance(data, tuple) and data[0] in OURS:
                etype, raw = data[0], data[1].encode("latin-1")
                if len(raw) < OURS[etype]:
                    typed["malformed"] += 1
                elif etype == SWITCH:
                    prev, nxt, _, _, state = struct.unpack_from("<iihhB",
                                                                raw)
                    typed["sched"].append((tsc, 1, len(typed["sched"]), cpu,
                                           prev, nxt, min(state, 6)))
                elif etype == WAKEUP:
                    woken = struct.unpack_from("<i", raw)[0]
                    typed["sched"].append((tsc, 0, len(typed["sched"]), cpu,
                                           None, woken, None))
                elif etype == RET:
                    fid, value = struct.unpack_from("<Iq", raw)
                    typed["returns"] += 1
                    if after_exit != fid:
                        typed["unmatched"] += 1
                    elif -ERRNO_MAX <= value < 0:
                        key = (fid, -value)
                        typed["failed"][key] = typed["failed"].get(key, 0) + 1
                continue
            if isinstance(data, tuple):
                data = data[1]
            if data.startswith(LOST):
                n = int(data[len(LOST):].split()[0])
                lost += n
                cpus.setdefault(cpu, {"events": {}, "lost": 0})["lost"] += n
            elif data.startswith(COMM):
                comms[tid] = data[len(COMM):]
            elif not data.startswith(TRIGGERS) and data != START:
                count("marker")
        else:
            g = LINE.match(rest + ">") or LINE.match(rest)
            what, fid, delta = g.group(1), int(g.group(2)), int(g.group(3))
            tsc += delta
            f = func(fid)
            st = stacks.setdefault(tid, [])
            enter = what in ("Function Enter", "Function Enter With Arg")
            last_exit = None if enter else fid
            half = point.pop(tid, None)
            if f["class"] in POINT:
                # One event: the entry, or a half whose other is lost.
                if enter or half != fid:
                    f["points"] += 1
                    count(f["class"])
                if enter:
                    point[tid] = fid
                continue
            if enter:
                if len(st) >= DEPTH_MAX:
                    deep[tid] = deep.get(tid, 0) + 1
                    f["too_deep"] += 1
                else:
                    st.append((fid, tsc, cpu))
                count(f["class"])
                continue
            if deep.get(tid):
                deep[tid] -= 1
                continue
            i = len(st)
            while i and st[i - 1][0] != fid:
                i -= 1
            if not i:
                f["no_entry"] += 1
                continue
            while len(st) > i:
                funcs[st.pop()[0]]["no_exit"] += 1
            _, t0, cpu0 = st.pop()
            f["calls"].append(tsc - t0)
            if not st:
                # Outermost: its time is its CPU's, by class.
                ct = typed["cpu_time"].setdefault(cpu0, {})
                ct[f["class"]] = ct.get(f["class"], 0) + tsc - t0
    for st in stacks.values():
        for fid, _, _ in st:
            funcs[fid]["no_exit"] += 1
    return funcs, tasks, cpus, lost, to_ns, comms, typed


def sched_walk(events):
    """The scheduler's numbers from the switches and wake-ups, in time
    order (wake-ups first at one time): per task the run-queue delays,
    switches in, time on a CPU and off it by state; per CPU switches,
    busy and idle time between its first and last switch."""
    tasks, cpus = {}, {}

    def task(t):
        return tasks.setdefault(t, {"delays": [], "switches": 0, "on": 0,
                                    "off": [0] * len(STATES), "in": None,
                                    "out": None, "wait": None})
    for t, is_switch, _, cpu, prev, nxt, state in sorted(events):
        if not is_switch:
            if is_idle(nxt):
                continue
            w = task(nxt)
            if w["in"] is None and w["wait"] is None:
                w["wait"] = t
            continue
        c = cpus.setdefault(cpu, {"switches": 0, "busy": 0, "idle": 0,
                                  "last": None})
        if c["last"] is not None:
            c["idle" if is_idle(prev) else "busy"] += t - c["last"]
        c["last"] = t
        c["switches"] += 1
        if prev == nxt:
            continue
        if not is_idle(prev):
            p = task(prev)
            if p["in"] is not None:
                p["on"] += t - p["in"]
            p["in"], p["out"] = None, (t, state)
            p["wait"] = t if state == 0 else None
        if not is_idle(nxt):
            n = task(nxt)
            n["switches"] += 1
            if n["out"] is not None:
                n["off"][n["out"][1]] += t - n["out"][0]
            if n["wait"] is not None:
                n["delays"].append(t - n["wait"])
            n["in"], n["out"], n["wait"] = t, None, None
    return tasks, cpus


def check_typed(got, typed, funcs, to_ns):
    """The scheduler and errors sections of the JSON against ours."""
    bad = []
    rep = got.get("sched")
    if rep is None or "errors" not in got:
        return ["no sched or errors section in the JSON"]
    switches = sum(1 for e in typed["sched"] if e[1])
    if rep["switches"] != switches:
        bad.append("sched: %d switches, computed %d" % (rep["switches"],
                                                        switches))
    if rep["wakeups"] != len(typed["sched"]) - switches:
        bad.append("sched: %d wake-ups, computed %d" %
                   (rep["wakeups"], len(typed["sched"]) - switches))
    tasks, cpus = sched_walk(typed["sched"])
    seen = {t["tid"]: t for t in rep["tasks"]}
    if set(seen) != set(tasks):
        bad.append("sched: tasks %s, computed %s" % (sorted(seen)[:8],
                                                     sorted(tasks)[:8]))
    log2 = [0] * 65
    for tid in set(seen) & set(tasks):
        g, w = seen[tid], tasks[tid]
        d = sorted(w["delays"])
        for v in d:
            log2[to_ns(v).bit_length()] += 1
        exp = {"switches": w["switches"], "on_cpu_ns": to_ns(w["on"])}
        exp.update({"off_" + s: to_ns(w["off"][i])
                    for i, s in enumerate(STATES)})
        exp["runq_count"] = len(d)
        if d:
            exp.update({"runq_total_ns": to_ns(sum(d)),
                        "runq_min_ns": to_ns(d[0]),
                        "runq_max_ns": to_ns(d[-1])})
            if g["runq"]["percentiles_exact"]:
                exp["runq_p50_ns"] = to_ns(pct(d, 50))
                exp["runq_p99_ns"] = to_ns(pct(d, 99))
        flat = {"switches": g["switches"], "on_cpu_ns": g["on_cpu_ns"]}
        flat.update({"off_" + k: v for k, v in g["off_cpu_ns"].items()})
        flat.update({"runq_" + k: v for k, v in g["runq"].items()})
        for k, v in exp.items():
            # Nanoseconds from ticks may round apart by one; counts not.
            slack = 1 if k.endswith("_ns") else 0
            if k not in flat or abs(flat[k] - v) > slack:
                bad.append("sched task %d: %s %s, computed %d" %
                           (tid, k, flat.get(k), v))
    if rep["runq_log2_ns"] != log2:
        bad.append("sched: run-queue histogram %s, computed %s" %
                   (rep["runq_log2_ns"], log2))
    for c in rep["cpus"]:
        w = cpus.get(c["cpu"], {"switches": 0, "busy": 0, "idle": 0})
        for k in ("busy", "idle"):
            if abs(c[k + "_ns"] - to_ns(w[k])) > 1:
                bad.append("sched cpu %d: %s_ns %d, computed %d" %
                           (c["cpu"], k, c[k + "_ns"], to_ns(w[k])))
        if c["switches"] != w["switches"]:
            bad.append("sched cpu %d: %d switches, computed %d" %
                       (c["cpu"], c["switches"], w["switches"]))
    for c in got["per_cpu"]:
        w = {k: to_ns(v) for k, v in
             typed["cpu_time"].get(c["cpu"], {}).items() if v}
        g = c.get("time_ns", {})
        if set(g) != set(w) or any(abs(g[k] - w[k]) > 1 for k in w):
            bad.append("cpu %d: time by class %s, computed %s" %
                       (c["cpu"], g, w))
    # Errors: per function the calls whose exit the trace holds, the
    # failed ones by errno name.
    err = got["errors"]
    for k in ("returns", "unmatched", "malformed"):
        want = typed[k] if k != "malformed" else None
        if want is not None and err[k] != want:
            bad.append("errors: %s %d, computed %d" % (k, err[k], want))
    want = {}
    for (fid, n), v in typed["failed"].items():
        f = funcs[fid]
        w = want.setdefault((f["class"], f["name"]), {
            "calls": len(f["calls"]) + f["no_entry"], "failed": 0,
            "errnos": {}})
        w["failed"] += v
        w["errnos"][errno_name(n)] = v
    seen = {(c["class"], c["name"]): {k: c[k] for k in
                                      ("calls", "failed", "errnos")}
            for c in err["calls"]}
    if seen != want:
        bad.append("errors: %s, computed %s" % (seen, want))
    return bad


def account(trace, got):
    """`llvm-xray account -m MAP` as our documentation gives it (no -k):
    it must accept what a collector wrote and count, per name, the calls
    and point events the report counts."""
    p = subprocess.run(["llvm-xray", "account", "-m", trace + ".map",
                        "-f", "csv", trace], capture_output=True)
    err = p.stderr.decode("latin-1").strip().splitlines()
    if p.returncode != 0:
        return ["llvm-xray account (no -k) refused the trace: %s" %
                " / ".join(err[:3])]
    counts = {}
    for row in csv.reader(io.StringIO(p.stdout.decode("latin-1"))):
        if len(row) < 10 or not row[0].isdigit():
            continue
        counts[row[-1]] = counts.get(row[-1], 0) + int(row[1])
    want = {n["name"]: n["count"] + n["points"] for n in got["names"]
            if n["class"] != "marker" and n["count"] + n["points"]}
    if counts == want:
        return []
    diff = sorted(k for k in set(counts) | set(want)
                  if counts.get(k) != want.get(k))
    return ["llvm-xray account -m (no -k) differs from the report: %s" %
            ", ".join("%s %s vs %s" % (k, counts.get(k, 0), want.get(k, 0))
                      for k in diff[:8])]


def check(trace, tracebuf):
    rep = subprocess.run([tracebuf, "report", "--json", "--top", "0", trace],
                         capture_output=True, check=True)
    got = json.loads(rep.stdout)
    names = load_names(trace + ".names")
    # A capture read from the device: the report put it in order first,
    # every record kept; so does compute().
    text, source = dump(trace, tracebuf)
    funcs, tasks, cpus, lost, to_ns, comms, typed = compute(
        trace, text, names, got["tidied"])
    bad = []
    want = {}
    for f in funcs.values():
        if not (f["calls"] or f["points"] or f["no_entry"] or f["no_exit"]
                or f["too_deep"]):
            continue
        want[(f["class"], f["name"])] = f
    seen = {(n["class"], n["name"]): n for n in got["names"]
            if n["class"] != "marker"}
    if set(want) != set(seen):
        bad.append("names differ: only computed %s, only reported %s" %
                   (sorted(set(want) - set(seen))[:5],
                    sorted(set(seen) - set(want))[:5]))
    for key in set(want) & set(seen):
        w, g = want[key], seen[key]
        calls = sorted(w["calls"])
        exp = {"count": len(calls), "points": w["points"],
               "exit_no_entry": w["no_entry"], "entry_no_exit": w["no_exit"],
               "too_deep": w["too_deep"]}
        for k, v in exp.items():
            if g[k] != v:
                bad.append("%s %s: %s %d, computed %d" % (key[0], key[1], k,
                                                           g[k], v))
        if not calls:
            continue
        exp = {"total_ns": to_ns(sum(calls)), "min_ns": to_ns(calls[0]),
               "max_ns": to_ns(calls[-1])}
        if g.get("percentiles_exact"):
            for p in (50, 90, 99):
                exp["p%d_ns" % p] = to_ns(pct(calls, p))
        for k, v in exp.items():
            if abs(g[k] - v) > 1:
                bad.append("%s %s: %s %d, computed %d" % (key[0], key[1], k,
                                                           g[k], v))
    tasks = {task_key(k): v for k, v in tasks.items()}
    for t in got["tasks"]:
        w = tasks.get(task_key(t["tid"], t["comm"]), {"events": {}})["events"]
        if t["events"] != w:
            bad.append("task %d: events %s, computed %s" % (t["tid"],
                                                           t["events"], w))
    if len([t for t in got["tasks"] if t["events"]]) != len(tasks):
        bad.append("%d tasks with events, computed %d" %
                   (len([t for t in got["tasks"] if t["events"]]), len(tasks)))
    for c in got["per_cpu"]:
        w = cpus.get(c["cpu"], {"events": {}, "lost": 0})
        if c["events"] != w["events"] or c["lost"] != w["lost"]:
            bad.append("cpu %d: %s lost %d, computed %s lost %d" %
                       (c["cpu"], c["events"], c["lost"], w["events"],
                        w["lost"]))
    # A task that exited during the capture is named by the name it wrote,
    # where the tasks file does not know it.
    listed = load_tasks(trace + ".tasks")
    for t in got["tasks"]:
        want_comm = comms.get(t["tid"])
        if want_comm and t["tid"] not in listed and t["comm"] != want_comm:
            bad.append("task %d: comm %r, its exit says %r" %
                       (t["tid"], t["comm"], want_comm))
    # Every marker event is in the JSON: by name, or among the others.
    named = sum(n["points"] for n in got["names"] if n["class"] == "marker")
    events = sum(c["events"].get("marker", 0) for c in got["per_cpu"])
    if named + got["markers_other"] != events:
        bad.append("markers: %d by name + %d others, %d events" %
                   (named, got["markers_other"], events))
    if got["lost"] != lost:
        bad.append("lost %d, computed %d" % (got["lost"], lost))
    # What the collectors wrote (a map beside it, no ordering needed):
    # llvm-xray's own accounting agrees, as the documentation promises.
    if os.path.exists(trace + ".map") and not got["tidied"]:
        bad += account(trace, got)
        source += ", llvm-xray account"
    bad += check_typed(got, typed, funcs, to_ns)
    ncalls = sum(len(f["calls"]) + f["points"] for f in funcs.values())
    nsw = sum(1 for e in typed["sched"] if e[1])
    return bad, source, "%d calls and point events, %d switches, %d wake-ups and %d return values agree" % (
        ncalls, nsw, len(typed["sched"]) - nsw, typed["returns"])


def main():
    args = sys.argv[1:]
    tracebuf = "tracebuf"
    if len(args) > 1 and args[0] == "--tracebuf":
        tracebuf, args = args[1], args[2:]
    if not args:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    print("TAP version 13\n1..%d" % len(args))
    failed = 0
    for i, trace in enumerate(args, 1):
        try:
            bad, source, n = check(trace, tracebuf)
        except (subprocess.CalledProcessError, OSError, ValueError,
                KeyError) as e:
            bad, source, n = ["cannot check: %s" % e], "-", ""
        name = os.path.basename(trace)
        if bad:
            failed += 1
            print("not ok %d %s" % (i, name))
            for b in bad[:20]:
                print("# " + b)
        else:
            print("ok %d %s # %s (%s)" % (i, name, n, source))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
