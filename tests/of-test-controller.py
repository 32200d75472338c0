#! /usr/bin/env python3
# A minimal OpenFlow controller for the testsuite.
#
#   of-test-controller.py [OPTION]... LISTEN
#
# LISTEN is ptcp:PORT[:IP] or punix:PATH.  Accepts one connection, sends a
# hello of --version (default 1, OpenFlow 1.0), answers echo requests
# (unless --no-echo), and prints one line per message received:
# "VERSION TYPE LENGTH HEX" (type as a number), then exits after
# --duration seconds or when the switch closes the connection.  --send HEX
# (repeatable) sends raw messages after the hello.  --port-file FILE
# writes the bound TCP port there once listening.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

import argparse
import os
import select
import socket
import struct
import sys
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument('listen')
    p.add_argument('--version', type=int, default=1)
    p.add_argument('--duration', type=float, default=5.0)
    p.add_argument('--no-echo', action='store_true')
    p.add_argument('--send', action='append', default=[])
    p.add_argument('--port-file')
    p.add_argument('--close-after', type=float)
    args = p.parse_args()

    kind, _, rest = args.listen.partition(':')
    if kind == 'ptcp':
        port, _, ip = rest.partition(':')
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((ip or '127.0.0.1', int(port)))
    elif kind == 'punix':
        if os.path.exists(rest):
            os.unlink(rest)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(rest)
    else:
        sys.exit('%s: unsupported' % args.listen)
    s.listen(1)
    if args.port_file:
        with open(args.port_file + '.tmp', 'w') as f:
            f.write('%d\n' % s.getsockname()[1] if kind == 'ptcp' else '0\n')
        os.rename(args.port_file + '.tmp', args.port_file)

    deadline = time.time() + args.duration
    r, _, _ = select.select([s], [], [], args.duration)
    if not r:
        sys.exit('no connection')
    c, _ = s.accept()
    c.sendall(struct.pack('!BBHI', args.version, 0, 8, 1))
    for h in args.send:
        c.sendall(bytes.fromhex(h))
    sys.stdout.flush()
    buf = b''
    close_at = (time.time() + args.close_after if args.close_after
                else None)
    while True:
        now = time.time()
        end = min(deadline, close_at) if close_at else deadline
        if now >= end:
            break
        r, _, _ = select.select([c], [], [], end - now)
        if not r:
            continue
        data = c.recv(65536)
        if not data:
            print('closed')
            break
        buf += data
        while len(buf) >= 8:
            ver, typ, length, xid = struct.unpack('!BBHI', buf[:8])
            if length < 8 or len(buf) < length:
                break
            msg, buf = buf[:length], buf[length:]
            print('%d %d %d %s' % (ver, typ, length, msg.hex()))
            sys.stdout.flush()
            if typ == 2 and not args.no_echo:
                c.sendall(bytes([ver, 3]) + msg[2:])
    c.close()


if __name__ == '__main__':
    main()
