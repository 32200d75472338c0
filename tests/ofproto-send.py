#! /usr/bin/env python3
# Licensed under the Apache License, Version 2.0 (see LICENSE).
"""Speaks raw OpenFlow to a switch's Unix socket, for the tests.

usage: ofproto-send.py SOCKET VERSION STEP...

Connects, sends a hello offering only VERSION (1 = OpenFlow 1.0, 4 = 1.3,
5 = 1.4, 6 = 1.5), reads the switch's hello (not printed: its xid and
bitmap are the switch's own business) and then does each STEP:

  HEX       sends the bytes HEX (a message, a piece of one, or several),
            then an echo request with xid 0x5eed0000+N, and prints in hex
            every message that arrives before that echo's reply, one per
            line; "(closed)" if the switch closes the connection.
  expect:N  prints the next N messages the switch sends.
  ready:F   creates file F (so that a test knows the earlier steps are
            done and the switch has taken them).

Waiting is bounded only to fail instead of hanging: 30 s without a
message prints "(timeout)" and exits with status 1."""

import os
import socket
import struct
import sys

TIMEOUT = 30


def recv_exact(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def recv_msg(sock):
    header = recv_exact(sock, 8)
    if header is None:
        return None
    length = struct.unpack("!H", header[2:4])[0]
    body = recv_exact(sock, max(length - 8, 0))
    if body is None:
        return None
    return header + body


def main():
    path, version = sys.argv[1], int(sys.argv[2], 0)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(TIMEOUT)
    sock.connect(path)
    sock.sendall(struct.pack("!BBHIHHI", version, 0, 16, 1, 1, 8,
                             1 << version))
    try:
        if recv_msg(sock) is None:
            print("(closed)")
            return 0
        for n, step in enumerate(sys.argv[3:]):
            if step.startswith("expect:"):
                for _ in range(int(step[7:])):
                    msg = recv_msg(sock)
                    if msg is None:
                        print("(closed)")
                        return 0
                    print(msg.hex())
            elif step.startswith("ready:"):
                open(step[6:], "w").close()
            else:
                xid = 0x5eed0000 + n
                sock.sendall(bytes.fromhex(step)
                             + struct.pack("!BBHI", version, 2, 8, xid))
                while True:
                    msg = recv_msg(sock)
                    if msg is None:
                        print("(closed)")
                        return 0
                    if msg[1] == 3 and struct.unpack("!I", msg[4:8])[0] == xid:
                        break
                    print(msg.hex())
    except socket.timeout:
        print("(timeout)")
        return 1
    except (ConnectionResetError, BrokenPipeError):
        print("(closed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
