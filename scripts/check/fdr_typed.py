# SPDX-License-Identifier: GPL-2.0
#
# The scheduler's typed events of an XRay FDR trace (SWITCH, WAKEUP, RET:
# uapi/linux/tracebuf_fdr.h, "typed events"), read straight from the
# file's bytes for scripts/check/ctf-check.py and scripts/check/tracedat-check.py, so
# that what they check the converters against shares no code with
# tracebuf's reader (lib/format/fdr_reader.c, fdr_event.c).  Only what
# those checks need: version 5 records in file order, per thread.

import struct

META_TID = 0x7ffffffe
IDLE_BASE = 0x40000000
SWITCH, WAKEUP, RET = 1, 2, 3
SIZE = {SWITCH: 13, WAKEUP: 9, RET: 12}     # the payloads' sizes
# The kernel's sched_switch prev_state for each recorder state (its
# TASK_* bits, include/linux/sched.h; running: TASK_RUNNING, 0).
STATE_VALUE = {0: 0, 1: 0x1, 2: 0x2, 3: 0x80, 4: 0x4, 5: 0x10, 6: 0}


def shown(tid):
    """The tid the kernel's tracers show: idle tasks are 0."""
    return 0 if IDLE_BASE <= tid < META_TID else tid


class Typed:
    def __init__(self):
        self.switches = []      # (cpu, prev, next, prev_prio, next_prio, state)
        self.wakeups = []       # (cpu, tid, target_cpu, prio, new)
        self.rets = []          # (tid, value) pinned on their exit
        # Typed records that are no tracebuf typed event once converted:
        # the trace's description, and SWITCH, WAKEUP, RET whole.
        self.ours = 0


def read(path):
    t = Typed()
    with open(path, 'rb') as f:
        b = f.read()
    if len(b) < 32 or struct.unpack_from('<H', b, 0)[0] != 5:
        return t                # typed events with deltas: version 5
    off, tid, cpu, last_exit = 32, 0, 0, None
    while off < len(b):
        if not b[off] & 1:      # a function record: 8 bytes
            if off + 8 > len(b):
                break
            w, = struct.unpack_from('<I', b, off)
            ftype, fid = (w >> 1) & 7, w >> 4
            last_exit = fid if ftype in (1, 2) else None
            off += 8
            continue
        if off + 16 > len(b):
            break
        kind = b[off] >> 1
        if kind == 0:           # NewBuffer
            tid, = struct.unpack_from('<i', b, off + 1)
            last_exit = None
        elif kind == 2:         # NewCPUId
            cpu, = struct.unpack_from('<H', b, off + 1)
        elif kind in (5, 8):    # custom, typed: payload follows
            size, = struct.unpack_from('<i', b, off + 1)
            data = b[off + 16:off + 16 + max(size, 0)]
            if kind == 8:
                etype, = struct.unpack_from('<H', b, off + 9)
                typed(t, tid, cpu, etype, data, last_exit)
            last_exit = None
            off += max(size, 0)
        elif kind != 6:         # call arguments keep the exit pending
            last_exit = None
        off += 16
    return t


def typed(t, tid, cpu, etype, data, last_exit):
    if tid == META_TID:
        t.ours += 1
        return
    if len(data) >= SIZE.get(etype, 1 << 31):
        t.ours += 1
    if etype == SWITCH and len(data) >= 13:
        prev, nxt, pp, np_, st = struct.unpack_from('<iihhB', data)
        t.switches.append((cpu, shown(prev), shown(nxt), pp, np_,
                           STATE_VALUE.get(st, 0)))
    elif etype == WAKEUP and len(data) >= 9:
        wt, tcpu, prio, flags = struct.unpack_from('<iHhB', data)
        t.wakeups.append((cpu, shown(wt), tcpu, prio, bool(flags & 1)))
    elif etype == RET and len(data) >= 12:
        fid, value = struct.unpack_from('<Iq', data)
        if last_exit is not None and last_exit == fid:
            t.rets.append((tid, value))
