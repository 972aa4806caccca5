#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Check a trace converted by `tracebuf convert fdr-ctf` against the real
# readers: babeltrace2 must read it without a warning (a discarded-events
# notice must say exactly the trace's lost events) and count, per event
# name, what `tracebuf report --json` counts; with --analyses,
# lttng-syscallstats-mi and lttng-irqstats-mi must give the report's
# counts, minimums, maximums and totals.  Durations may differ by 1 ns a
# call: the report converts each duration to ns, babeltrace each time.
#
# With --lttng DIR, DIR holds LTTng's own kernel trace of the same
# workload, recorded at the same time (scripts/check/lttng-compare.sh): for
# each task born in our capture, lttng-syscallstats-mi must give the
# same calls and return values per syscall on LTTng's trace as on ours.
#
# Usage: ctf-check.py TRACEBUF FDR CTFDIR [--analyses] [--lttng DIR]
# Exit: 0 ok, 1 mismatch, 4 a reader is not installed (the test skips).

import ast
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


def fail(msg):
    print('ctf-check: ' + msg, file=sys.stderr)
    sys.exit(1)


def report(tb, fdr):
    out = subprocess.run([tb, 'report', '--json', fdr], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


# The calls LTTng names after their kernel function (sys_newuname), not
# their __NR_ macro (uname), as convert/fdr_ctf_event.c renames them
# (sendfile and fadvise64 on some architectures only: by number there,
# which the report does not give; a CTF name that the report does not
# have is therefore taken back to its __NR_ name before counting).
UNRENAMED = {'newstat': 'stat', 'newfstat': 'fstat', 'newlstat': 'lstat',
             'newuname': 'uname', 'sendfile64': 'sendfile',
             'umount': 'umount2', 'fadvise64_64': 'fadvise64'}


def unrenamed(event, want):
    """@event, or the CTF name of its __NR_ name when only that is wanted."""
    m = re.match(r'((?:compat_)?syscall_(?:entry|exit)_)(\w+)$', event)
    if event in want or not m or m.group(2) not in UNRENAMED:
        return event
    return m.group(1) + UNRENAMED[m.group(2)]


# The CTF names of a report name, as convert/fdr_ctf.c maps them, before
# the renames above.
def ctf_names(cls, name):
    if cls == 'syscall':
        sys_ = name[4:] if name.startswith('sys_') else name
        return ['syscall_entry_' + sys_], ['syscall_exit_' + sys_]
    if cls == 'irq':
        return ['irq_handler_entry'], ['irq_handler_exit']
    if cls == 'softirq':
        return ['softirq_entry'], ['softirq_exit']
    if cls == 'marker':
        return ['lttng_logger'], []
    if name == 'fault_user':
        return ['x86_exceptions_page_fault_user'], []
    if name == 'fault_kernel':
        return ['x86_exceptions_page_fault_kernel'], []
    if name == 'task_fork':
        return ['sched_process_fork'], []
    if name == 'task_exit':
        return ['sched_process_exit'], []
    return ['tracebuf_func_entry'], ['tracebuf_func_exit']


def expected_counts(rep):
    want = collections.Counter()
    for n in rep['names']:
        entries, exits = ctf_names(n['class'], n['name'])
        if n['points']:
            for e in entries:
                want[e] += n['points']
            continue
        for e in entries:
            want[e] += n['count'] + n['entry_no_exit']
        for e in exits:
            want[e] += n['count'] + n['exit_no_entry']
    # Trigger and panic events are markers too, counted apart.
    want['lttng_logger'] += rep.get('trigger', {}).get('count', 0)
    return want


FIELD = re.compile(r'(\w+) = ("[^"]*"|-?\w+)')


def fields(line):
    return dict(FIELD.findall(line.split('}, {', 1)[-1]))


def check_typed(fdr, lines):
    """The recorded switches, wake-ups and errors, each as its event."""
    t = fdr_typed.read(fdr)
    sw, derived, wake, rets = [], 0, [], []
    for line in lines:
        m = re.match(r'\[[^]]*\] \([^)]*\) \S+ ([^:]+): \{ cpu_id = (\d+) \}',
                     line)
        if not m:
            continue
        name, cpu, f = m.group(1), int(m.group(2)), fields(line)
        if name == 'sched_switch':
            sw.append((cpu, int(f['prev_tid']), int(f['next_tid']),
                       int(f['prev_prio']) + 100, int(f['next_prio']) + 100,
                       int(f['prev_state'])))
        elif name in ('sched_wakeup', 'sched_wakeup_new'):
            wake.append((cpu, int(f['tid']), int(f['target_cpu']),
                         int(f['prio']) + 100, name == 'sched_wakeup_new'))
        elif name.startswith('syscall_exit_') or \
                name.startswith('compat_syscall_exit_'):
            if int(f['ret']):
                rets.append(int(f['ret']))
    left = collections.Counter(sw)
    left.subtract(collections.Counter(t.switches))
    if -left:
        fail('recorded switches missing from sched_switch: %s' %
             list((-left).elements())[:5])
    # The rest is derived where no switch was recorded: state 0, prio 20.
    for s in left.elements():
        if s[3:] != (120, 120, 0):
            fail('sched_switch not recorded and not derived: %s' % (s,))
        derived += 1
    if collections.Counter(wake) != collections.Counter(t.wakeups):
        fail('sched_wakeup: babeltrace2 %s, the trace %s' %
             (sorted(wake)[:5], sorted(t.wakeups)[:5]))
    want = sorted(v for _, v in t.rets if v)
    if sorted(rets) != want:
        fail('syscall_exit ret: babeltrace2 %s, the trace\'s RET %s' %
             (sorted(rets)[:10], want[:10]))
    print('babeltrace2: %d recorded switches (%d derived), %d wake-ups, '
          '%d return values agree with the trace' %
          (len(t.switches), derived, len(wake), len(rets)))
    return t


def check_babeltrace(rep, ctf, fdr):
    p = subprocess.run(['babeltrace2', ctf], capture_output=True, text=True,
                       errors='replace')
    if p.returncode:
        fail('babeltrace2 failed: ' + p.stderr[-2000:])
    lost = 0
    for line in p.stderr.splitlines():
        m = re.search(r'Tracer discarded (\d+) events', line)
        if m:
            lost += int(m.group(1))
        elif line.strip() and 'WARNING' not in line and \
                'discarded' not in line and 'between' not in line:
            fail('babeltrace2 said: ' + line)
    got = collections.Counter()
    check_typed(fdr, p.stdout.splitlines())
    for line in p.stdout.splitlines():
        if line.startswith('WARNING') or 'discarded' in line:
            continue
        m = re.match(r'\[[^]]*\] \([^)]*\) \S+ ([^:]+):', line)
        if not m:
            fail('babeltrace2 line not understood: ' + line)
        got[m.group(1)] += 1
    if lost != rep['lost']:
        fail('babeltrace2: %d events discarded, the report %d' %
             (lost, rep['lost']))
    want = expected_counts(rep)
    for name in list(got):
        if unrenamed(name, want) != name:
            got[unrenamed(name, want)] += got.pop(name)
    total = sum(got.values())
    # The report counts as markers the typed events that are not ours;
    # ours too short for their type it counts as malformed in its errors
    # and sched sections: both are written as tracebuf_typed_event here.
    got['lttng_logger'] += got.pop('tracebuf_typed_event', 0) - \
        rep['errors']['malformed'] - rep['sched']['malformed']
    for name in set(want) | set(got):
        if name in ('sched_switch', 'sched_wakeup', 'sched_wakeup_new') or \
                name.startswith('lttng_statedump_'):
            continue        # checked against the trace, or derived
        if got[name] != want[name]:
            fail('%s: babeltrace2 %d, report %d' % (name, got[name],
                                                    want[name]))
    print('babeltrace2: %d events, %d names agree with tracebuf report' %
          (total, len(want)))


def near(a, b, calls):
    return abs(a - b) <= calls


def mi(tool, ctf, *args):
    p = subprocess.run([tool, *args, ctf], capture_output=True, text=True)
    if p.returncode:
        fail('%s failed: %s' % (tool, p.stderr[-2000:]))
    return json.loads(p.stdout)['results']


def check_analyses(rep, ctf):
    names = {n['name']: n for n in rep['names']}
    # lttng-syscallstats-mi: a table per task; summed per syscall.
    agg = {}
    for table in mi('lttng-syscallstats-mi', ctf):
        if table['class'] == 'total' or not isinstance(table['class'], dict):
            continue
        for row in table['data']:
            name, count = row[0]['name'], row[1]['value']
            mn, avg, mx = row[2]['value'], row[3]['value'], row[4]['value']
            a = agg.setdefault(name, [0, None, None, 0.0])
            a[0] += count
            a[1] = mn if a[1] is None else min(a[1], mn)
            a[2] = mx if a[2] is None else max(a[2], mx)
            a[3] += avg * count
    rows = [('sys_' + (k if 'sys_' + k in names else UNRENAMED.get(k, k)), v)
            for k, v in agg.items()]
    for n in rep['names']:
        if n['class'] == 'syscall' and n['count'] and \
                n['name'] not in dict(rows):
            fail('%s: in the report, not in lttng-syscallstats' % n['name'])
    # lttng-irqstats-mi: hard and soft IRQs.
    for table in mi('lttng-irqstats-mi', ctf):
        for row in table['data']:
            irq = row[0]
            if irq['hard']:
                key = 'irq_%d_%s' % (irq['nr'], irq['name'])
                # A name not of the collectors' "irq_N_NAME" form is
                # the CTF's name whole (convert/fdr_ctf_event.c).
                if key not in names and irq['name'] in names:
                    key = irq['name']
            else:
                key = 'softirq_' + irq['name'].replace('_SOFTIRQ', '')
            rows.append((key, [row[1]['value'], row[2]['value'],
                               row[4]['value'],
                               row[3]['value'] * row[1]['value']]))
    for key, (count, mn, mx, total) in rows:
        n = names.get(key)
        if not n:
            fail('%s: in lttng-analyses, not in the report' % key)
        if count != n['count'] or not near(mn, n['min_ns'], 1) or \
                not near(mx, n['max_ns'], 1) or \
                not near(total, n['total_ns'], count + 1):
            fail('%s: lttng-analyses %d calls min %d max %d total %d, '
                 'report %d min %d max %d total %d' %
                 (key, count, mn, mx, total, n['count'], n['min_ns'],
                  n['max_ns'], n['total_ns']))
    print('lttng-analyses: %d syscall and IRQ names agree with tracebuf '
          'report' % len(rows))


def syscalls_of(ctf, tid):
    """{syscall: [calls, {return value: calls}]} of task @tid.

    lttng-syscallstats-mi's return values count each value once too many
    (see check_analyses' caller in tools.rst): taken back here, so that
    rows can be added up.
    """
    rows = {}
    for table in mi('lttng-syscallstats-mi', ctf, '--tid', str(tid)):
        if table['class'] == 'total' or not isinstance(table['class'], dict):
            continue
        for row in table['data']:
            rets = ast.literal_eval(row[6]['value'])
            rows[row[0]['name']] = [row[1]['value'],
                                    {k: v - 1 for k, v in rets.items()}]
    return rows


def lttng_syscalls(lttng):
    """The system calls LTTng's trace declares (its metadata's events)."""
    p = subprocess.run(['babeltrace2', '--output-format=ctf-metadata',
                        os.path.join(lttng, 'kernel')],
                       capture_output=True, text=True)
    if p.returncode:
        fail('babeltrace2 cannot read the metadata of %s: %s' %
             (lttng, p.stderr[-500:]))
    return set(re.findall(r'name = "syscall_entry_(\w+)"', p.stdout))


def check_lttng(tb, ctf, fdr, lttng):
    """
    Every task born in our capture (a fork event in it: its whole life is
    in both traces, LTTng's session having started first and stopped
    last): the same calls and return values per syscall.  A call LTTng
    2.13 does not know is its "unknown" (rseq, getrandom...): ours are
    added up under that name too.
    """
    out = subprocess.run([tb, 'script', '-e', 'sched', fdr], check=True,
                         capture_output=True, text=True).stdout
    tids = [int(t) for t in re.findall(r'sched:task_fork child_pid=(\d+)', out)]
    if not tids:
        fail('no task was born in the capture')
    known = lttng_syscalls(lttng)
    calls = 0
    for tid in tids:
        ours, theirs = {}, syscalls_of(lttng, tid)
        for name, (n, rets) in syscalls_of(ctf, tid).items():
            row = ours.setdefault(name if name in known else 'unknown', [0, {}])
            row[0] += n
            for k, v in rets.items():
                row[1][k] = row[1].get(k, 0) + v
        if not ours:
            fail('tid %d: no system call in the converted trace' % tid)
        for name in sorted(set(ours) | set(theirs)):
            if ours.get(name) != theirs.get(name):
                fail('tid %d %s: LTTng %s, tracebuf %s' %
                     (tid, name, theirs.get(name), ours.get(name)))
        calls += sum(c for c, _ in ours.values())
    print('lttng-syscallstats: %d tasks born in the capture, %d calls: '
          'LTTng\'s own trace and ours agree per syscall, return values '
          'included' % (len(tids), calls))


def main():
    if len(sys.argv) < 4:
        print(__doc__ or 'usage: ctf-check.py TRACEBUF FDR CTFDIR [--analyses]')
        return 2
    tb, fdr, ctf = sys.argv[1:4]
    analyses = '--analyses' in sys.argv[4:]
    need = ['babeltrace2']
    if analyses or '--lttng' in sys.argv[4:]:
        need += ['babeltrace', 'lttng-syscallstats-mi', 'lttng-irqstats-mi']
    missing = [t for t in need if not shutil.which(t)]
    if missing:
        print('ctf-check: not installed: ' + ' '.join(missing) +
              ' (scripts/setup.sh installs them)')
        return 4
    rep = report(tb, fdr)
    check_babeltrace(rep, ctf, fdr)
    if analyses:
        check_analyses(rep, ctf)
    if '--lttng' in sys.argv[4:]:
        i = sys.argv.index('--lttng')
        if i + 1 >= len(sys.argv):
            fail('--lttng needs the directory of LTTng\'s trace')
        check_lttng(tb, ctf, fdr, sys.argv[i + 1])
    return 0


if __name__ == '__main__':
    sys.exit(main())
