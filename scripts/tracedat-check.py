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
import re
import shutil
import subprocess
import sys

EVENT = re.compile(r'^\s*\S.*\[(\d+)\]\s+\d+\.\d+: ([A-Za-z0-9_]+):')
DROPPED = re.compile(r'^CPU:(\d+) \[(\d+) EVENTS DROPPED\]')


def fail(msg):
    print('tracedat-check: ' + msg, file=sys.stderr)
    sys.exit(1)


def trace_cmd(*args):
    p = subprocess.run(['trace-cmd'] + list(args), capture_output=True,
                       text=True)
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
    return want


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
    # The report counts typed events with the markers (class "marker").
    got['print'] += got.pop('typed_event', 0)
    want = expected(rep)
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
          'report' % (sum(got.values()), len(cpus), len(want)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
