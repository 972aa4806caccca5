#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Check a trace.dat written by `tracebuf convert fdr-tracedat` against
# trace-cmd itself: `trace-cmd report` must read it without a word on
# stderr and count, per event name, what `tracebuf report --json`
# counts, with the lost events the pages say; `trace-cmd report --cpu N`
# must split the same events by CPU, `trace-cmd report --stat` must run
# and `trace-cmd dump -v` call the file valid.
#
# Usage: tracedat-check.py TRACEBUF FDR DAT
# Exit: 0 ok, 1 mismatch, 4 trace-cmd is not installed (the test skips).

import collections
import json
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fdr_typed  # noqa: E402

EVENT = re.compile(r'^\s*\S.*\[(\d+)\]\s+\d+\.\d+: ([A-Za-z0-9_]+):')
DROPPED = re.compile(r'^CPU:(\d+) \[(\d+) EVENTS DROPPED\]')


def fail(msg):
    print('tracedat-check: ' + msg, file=sys.stderr)
    sys.exit(1)


def trace_cmd(*args):
    p = subprocess.run(['trace-cmd'] + list(args), capture_output=True,
                       text=True, errors='replace')
    if p.returncode:
        fail('trace-cmd %s failed: %s' % (' '.join(args), p.stderr[-2000:]))
    if p.stderr.strip():
        fail('trace-cmd %s said: %s' % (' '.join(args), p.stderr[-2000:]))
    return p.stdout


# The ftrace names of a report name, as convert/fdr_tracedat_event.c maps them.
def ftrace_names(cls, name):
    if cls == 'syscall':
        return ['sys_enter'], ['sys_exit']
    if cls == 'irq':
        return ['irq_handler_entry'], ['irq_handler_exit']
    if cls == 'softirq':
        return ['softirq_entry'], ['softirq_exit']
    if cls == 'marker':
        return ['print'], []
    if name in ('fault_user', 'fault_kernel'):
        return ['page_fault_' + name[6:]], []
    if name == 'task_fork':
        return ['sched_process_fork'], []
    if name == 'task_exit':
        return ['sched_process_exit'], []
    return ['func_entry'], ['func_exit']


def expected(rep):
    want = collections.Counter()
    for n in rep['names']:
        entries, exits = ftrace_names(n['class'], n['name'])
        if n['points']:
            for e in entries:
                want[e] += n['points']
            continue
        for e in entries:
            want[e] += n['count'] + n['entry_no_exit']
        for e in exits:
            want[e] += n['count'] + n['exit_no_entry']
    # Trigger and panic events are markers too, counted apart.
    want['print'] += rep.get('trigger', {}).get('count', 0)
    return want


# The kernel's print fmt of sched_switch's prev_state (trace-cmd report -N).
STATE_LETTERS = {0: 'R', 0x1: 'S', 0x2: 'D', 0x4: 'T', 0x10: 'X', 0x80: 'I'}
KV = re.compile(r'(\w+)=(\S+)')


def check_typed(fdr, dat):
    """The recorded switches, wake-ups and errors, each as its event."""
    t = fdr_typed.read(fdr)
    sw, wake, rets = [], [], []
    for line in trace_cmd('report', '-N', dat).splitlines():
        m = EVENT.match(line)
        if not m:
            continue
        cpu, name = int(m.group(1)), m.group(2)
        f = dict(KV.findall(line.split(name + ':', 1)[1]))
        if name == 'sched_switch':
            sw.append((cpu, int(f['prev_pid']), int(f['next_pid']),
                       int(f['prev_prio']), int(f['next_prio']),
                       f['prev_state']))
        elif name in ('sched_wakeup', 'sched_wakeup_new'):
            wake.append((cpu, int(f['pid']), int(f['target_cpu']),
                         int(f['prio']), name == 'sched_wakeup_new'))
        elif name == 'sys_exit':
            ret = int(line.rsplit('=', 1)[1])
            if ret:
                rets.append(ret)
    want = [s[:5] + (STATE_LETTERS.get(s[5], '?'),) for s in t.switches]
    if collections.Counter(sw) != collections.Counter(want):
        fail('sched_switch: trace-cmd %s, the trace %s' %
             (sorted(sw)[:5], sorted(want)[:5]))
    if collections.Counter(wake) != collections.Counter(t.wakeups):
        fail('sched_wakeup: trace-cmd %s, the trace %s' %
             (sorted(wake)[:5], sorted(t.wakeups)[:5]))
    want = sorted(v for _, v in t.rets if v)
    if sorted(rets) != want:
        fail('sys_exit ret: trace-cmd %s, the trace\'s RET %s' %
             (sorted(rets)[:10], want[:10]))
    print('trace-cmd: %d switches, %d wake-ups, %d return values agree '
          'with the trace' % (len(sw), len(wake), len(rets)))
    return t


def parse(out):
    got, cpus, lost = collections.Counter(), collections.Counter(), 0
    for line in out.splitlines():
        m = DROPPED.match(line)
        if m:
            lost += int(m.group(2))
            continue
        m = EVENT.match(line)
        if m:
            got[m.group(2)] += 1
            cpus[int(m.group(1))] += 1
        elif line.strip() and not line.startswith('cpus='):
            fail('trace-cmd report line not understood: ' + line)
    return got, cpus, lost


def main():
    if len(sys.argv) != 4:
        print('usage: tracedat-check.py TRACEBUF FDR DAT')
        return 2
    tb, fdr, dat = sys.argv[1:]
    if not shutil.which('trace-cmd'):
        print('tracedat-check: trace-cmd not installed '
              '(scripts/setup.sh installs it)')
        return 4
    rep = json.loads(subprocess.run([tb, 'report', '--json', fdr],
                                    check=True, capture_output=True,
                                    text=True).stdout)
    if 'is a valid trace-cmd file' not in trace_cmd('dump', '-v', dat):
        fail('trace-cmd dump -v does not call it valid')
    got, cpus, lost = parse(trace_cmd('report', dat))
    total = sum(got.values())
    check_typed(fdr, dat)
    # The report counts as markers the typed events that are not ours;
    # ours too short for their type it counts as malformed in its errors
    # and sched sections: both are written as typed_event here.
    got['print'] += got.pop('typed_event', 0) - \
        rep['errors']['malformed'] - rep['sched']['malformed']
    want = expected(rep)
    for name in ('sched_switch', 'sched_wakeup', 'sched_wakeup_new'):
        got.pop(name, None)     # checked against the trace
    for name in set(want) | set(got):
        if got[name] != want[name]:
            fail('%s: trace-cmd %d, report %d' % (name, got[name],
                                                  want[name]))
    if lost != rep['lost']:
        fail('trace-cmd: %d events dropped, the report %d lost' %
             (lost, rep['lost']))
    for cpu, n in cpus.items():
        one, per, _ = parse(trace_cmd('report', '--cpu', str(cpu), dat))
        if set(per) != {cpu} or per[cpu] != n:
            fail('--cpu %d: %s events, the whole report %d' %
                 (cpu, dict(per), n))
    stat = trace_cmd('report', '--stat', dat)
    if 'CPU' not in stat and 'cpu' not in stat:
        fail('--stat printed no CPU: ' + stat[:500])
    print('trace-cmd: %d events on %d CPUs, %d names agree with tracebuf '
          'report' % (total, len(cpus), len(want)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
