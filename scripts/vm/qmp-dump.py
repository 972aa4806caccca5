#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# qmp-dump.py SOCKET DUMP TIMEOUT [KDUMP]: for scripts/vm/vm-run --panic.  Wait for
# the guest behind qemu's QMP SOCKET to stop after a panic (pvpanic with
# -action panic=pause, or the reboot that panic=-1 asks for, turned into a
# pause by -action reboot=shutdown,shutdown=pause), have qemu write its
# physical memory as an ELF core to DUMP (dump-guest-memory), and with
# KDUMP also in the kdump-compressed format (zlib) there, then quit qemu.  Exit 0 when the dump is written, 1 if the guest never stopped
# within TIMEOUT seconds or qemu went away, 2 if the dump failed.

import json
import socket
import sys
import time


class Qmp:
    def __init__(self, path, deadline):
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        self.f = self.s.makefile('rw')
        self.events = []
        self.recv()                     # the greeting
        self.cmd('qmp_capabilities')

    def recv(self):
        line = self.f.readline()
        if not line:
            raise EOFError('qemu closed the QMP socket')
        return json.loads(line)

    def cmd(self, name, **args):
        msg = {'execute': name}
        if args:
            msg['arguments'] = args
        self.f.write(json.dumps(msg) + '\n')
        self.f.flush()
        while True:
            r = self.recv()
            if 'event' in r:
                self.events.append(r['event'])
                continue
            if 'error' in r:
                raise RuntimeError('%s: %s' % (name, r['error'].get('desc')))
            return r.get('return')


def main():
    path, dump, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    kdump = sys.argv[4] if len(sys.argv) > 4 else None
    deadline = time.time() + timeout
    try:
        q = Qmp(path, deadline)
        while True:
            st = q.cmd('query-status')
            if not st.get('running') and st.get('status') != 'prelaunch':
                break
            if time.time() > deadline:
                print('qmp-dump: the guest did not stop within %ds' % timeout,
                      file=sys.stderr)
                q.cmd('quit')
                return 1
            time.sleep(0.5)
    except (OSError, EOFError) as e:
        print('qmp-dump: %s' % e, file=sys.stderr)
        return 1
    print('qmp-dump: guest stopped (%s, events %s); dumping its memory to %s'
          % (st.get('status'), ','.join(sorted(set(q.events))) or '-', dump),
          file=sys.stderr)
    rc = 0
    try:
        q.cmd('dump-guest-memory', paging=False, protocol='file:' + dump)
        if kdump:
            q.cmd('dump-guest-memory', paging=False, protocol='file:' + kdump,
                  format='kdump-zlib')
    except RuntimeError as e:
        print('qmp-dump: %s' % e, file=sys.stderr)
        rc = 2
    try:
        q.cmd('quit')
    except (OSError, EOFError):
        pass
    return rc


sys.exit(main())
