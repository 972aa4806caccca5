#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# crash-events.py YAML PANIC PREFIX...: for scripts/check/crash-check.sh.  Reads
# the llvm-xray convert -f yaml output of a recovered crash trace and
# checks its custom events, in time order (records of one CPU are in time
# order, and the guest's TSC is one clock: sort all by tsc):
#   - the custom events that begin with one of the PREFIXes are exactly one
#     per PREFIX, in the order given (EVENTS_OK, or EVENTS_BAD);
#   - exactly one custom event is the panic message PANIC, and it is the
#     last record of its CPU (PANIC_OK, or PANIC_BAD).
# Prints what it found, for the TAP diagnostics; always exits 0.

import re
import sys


def main():
    yaml, panic_msg, prefixes = sys.argv[1], sys.argv[2], sys.argv[3:]
    recs = []
    for line in open(yaml):
        m = re.search(r'cpu: (\d+),.*kind: ([a-z-]+), tsc: (\d+), data: (.*) }$', line)
        if m:
            # yaml quotes with ' (as it is) or " (with escapes: \n).
            text = m.group(4)
            if text[:1] == "'":
                text = text[1:-1].replace("''", "'")
            else:
                text = text.strip('"').replace('\\n', '')
            recs.append((int(m.group(3)), int(m.group(1)), m.group(2), text))
    recs.sort()
    custom = [r for r in recs if r[2] == 'custom-event']
    found = [r[3] for r in custom if any(r[3].startswith(p) for p in prefixes)]
    print('events: %s' % found)
    ok = len(found) == len(prefixes) and \
        all(f.startswith(p) for f, p in zip(found, prefixes))
    print('EVENTS_OK' if ok else 'EVENTS_BAD: want %s' % prefixes)
    panic = [r for r in custom if r[3] == panic_msg]
    if len(panic) != 1:
        print('PANIC_BAD: %d panic events' % len(panic))
        return
    cpu = panic[0][1]
    last = [r for r in recs if r[1] == cpu][-1]
    print('panic on cpu %d at %d; last record of that cpu: %s' % (cpu, panic[0][0], last))
    print('PANIC_OK' if last == panic[0] else 'PANIC_BAD')


main()
