#! /usr/bin/env python3
# Usage: hostile-frames.py CLASS
#
# Prints hostile Ethernet frames, one "NAME HEX" a line, for the hostile
# input tests (tests/hostile.at), or "NAME HEX OUT-HEX" when NORMAL switching
# sends something else than it received.  Each class covers a kind of packet
# parsing bug that Open vSwitch has had security advisories for: headers
# that are truncated or whose length fields lie, extension header chains,
# IP protocol 0, ND options, slow protocols and CFM, VLAN stacks, and
# frames at the size limits.  The frames are composed byte by byte, so no
# library "fixes" the lies.
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

import struct
import sys

BCAST = bytes.fromhex("ffffffffffff")
SRC = bytes.fromhex("505400000001")


def eth(ethertype, payload, dst=BCAST):
    return dst + SRC + struct.pack("!H", ethertype) + payload


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ipv4(proto, payload, ihl=5, total=None, frag=0x4000, ver=4, opts=b""):
    if total is None:
        total = 20 + len(opts) + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", (ver << 4) | ihl, 0, total & 0xffff,
                      1, frag, 64, proto, 0, bytes([10, 0, 0, 1]),
                      bytes([10, 0, 0, 2])) + opts
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    return hdr + payload


SRC6 = bytes.fromhex("fe800000000000000000000000000001")
DST6 = bytes.fromhex("ff020000000000000000000000000001")


def ipv6(nh, payload, plen=None, hlim=255, dst=DST6):
    if plen is None:
        plen = len(payload)
    return struct.pack("!IHBB", 6 << 28, plen & 0xffff, nh, hlim) \
        + SRC6 + dst + payload


def ext(nh, hdr_ext_len, body=None):
    """An IPv6 extension header (hop-by-hop, routing, destination options):
    next header, length in 8-octet units beyond the first 8, then 'body'
    (padding by default)."""
    if body is None:
        body = b"\x01\x04\0\0\0\0" + b"\0" * (8 * hdr_ext_len)
    return bytes([nh, hdr_ext_len]) + body


def udp(payload=b"abcd", length=None):
    if length is None:
        length = 8 + len(payload)
    return struct.pack("!HHHH", 1, 2, length & 0xffff, 0) + payload


def tcp(doff=5, flags=0x02, payload=b""):
    return struct.pack("!HHIIBBHHH", 1, 2, 1, 0, doff << 4, flags, 8192,
                       0, 0) + payload


def icmp6(typ, code, body):
    return bytes([typ, code, 0, 0]) + body


def frames_ipv4():
    yield "ipv4-ihl-4", eth(0x0800, ipv4(17, udp(), ihl=4))
    yield "ipv4-ihl-0", eth(0x0800, ipv4(17, udp(), ihl=0))
    yield "ipv4-ihl-15-short", eth(0x0800, ipv4(17, udp(), ihl=15))
    yield "ipv4-options-lie", eth(0x0800, ipv4(
        6, tcp(), ihl=6, opts=b"\x44\x28\x05\x00"))
    yield "ipv4-total-0", eth(0x0800, ipv4(17, udp(), total=0))
    yield "ipv4-total-below-ihl", eth(0x0800, ipv4(17, udp(), total=12))
    yield "ipv4-total-above-frame", eth(0x0800, ipv4(17, udp(), total=1500))
    yield "ipv4-total-65535", eth(0x0800, ipv4(17, udp(), total=65535))
    yield "ipv4-header-only-10", eth(0x0800, ipv4(17, b"")[:10])
    yield "ipv4-header-only-19", eth(0x0800, ipv4(17, b"")[:19])
    yield "ipv4-version-6", eth(0x0800, ipv4(17, udp(), ver=6))
    yield "ipv4-version-15", eth(0x0800, ipv4(17, udp(), ver=15))
    yield "ipv4-proto-0", eth(0x0800, ipv4(0, b"\0" * 8))
    yield "ipv4-proto-0-empty", eth(0x0800, ipv4(0, b""))
    yield "ipv4-proto-255", eth(0x0800, ipv4(255, b"\xff" * 4))
    yield "ipv4-later-fragment", eth(0x0800, ipv4(6, b"\0" * 4, frag=0x00b9))
    yield "ipv4-first-fragment", eth(0x0800, ipv4(17, udp(), frag=0x2000))
    yield "ipv4-fragment-max-offset", eth(0x0800, ipv4(
        17, udp(), frag=0x3fff))
    yield "ipv4-tcp-doff-0", eth(0x0800, ipv4(6, tcp(doff=0)))
    yield "ipv4-tcp-doff-4", eth(0x0800, ipv4(6, tcp(doff=4)))
    yield "ipv4-tcp-doff-15-short", eth(0x0800, ipv4(6, tcp(doff=15)))
    yield "ipv4-tcp-truncated-12", eth(0x0800, ipv4(6, tcp()[:12]))
    yield "ipv4-tcp-truncated-1", eth(0x0800, ipv4(6, b"\x00"))
    yield "ipv4-udp-truncated-4", eth(0x0800, ipv4(17, udp()[:4]))
    yield "ipv4-udp-length-0", eth(0x0800, ipv4(17, udp(length=0)))
    yield "ipv4-udp-length-lie", eth(0x0800, ipv4(17, udp(length=9000)))
    yield "ipv4-sctp-truncated", eth(0x0800, ipv4(132, b"\0\1\0"))
    yield "ipv4-icmp-truncated", eth(0x0800, ipv4(1, b"\x08"))
    yield "ipv4-igmp-truncated", eth(0x0800, ipv4(2, b"\x11\0"))
    yield "ipv4-gre-truncated", eth(0x0800, ipv4(47, b"\x20\0"))
    yield "arp-truncated", eth(0x0806, bytes.fromhex("0001080006040001"))
    yield "arp-bad-lengths", eth(0x0806, bytes.fromhex(
        "0001080009ff0001") + b"\0" * 20)
    yield "mpls-truncated", eth(0x8847, b"\x00\x01")
    yield "mpls-no-bottom", eth(0x8847, b"\x00\x01\x00\x40" * 8)


def frames_ipv6():
    yield "ipv6-truncated-20", eth(0x86dd, ipv6(17, udp())[:20])
    yield "ipv6-truncated-39", eth(0x86dd, ipv6(17, udp())[:39])
    yield "ipv6-plen-above-frame", eth(0x86dd, ipv6(17, udp(), plen=1400))
    yield "ipv6-plen-0", eth(0x86dd, ipv6(17, udp(), plen=0))
    yield "ipv6-plen-65535", eth(0x86dd, ipv6(17, udp(), plen=65535))
    yield "ipv6-version-4", eth(0x86dd, b"\x40" + ipv6(17, udp())[1:])
    yield "ipv6-nh-0-empty", eth(0x86dd, ipv6(0, b""))
    yield "ipv6-hbh-truncated", eth(0x86dd, ipv6(0, b"\x11\x00\x01"))
    yield "ipv6-hbh-length-lie", eth(0x86dd, ipv6(0, ext(17, 255, b"")))
    yield "ipv6-hbh-not-first", eth(0x86dd, ipv6(60, ext(0, 0) + ext(17, 0)
                                                 + udp()))
    yield "ipv6-dstopt-chain-40", eth(0x86dd, ipv6(
        60, b"".join(ext(60, 0) for _ in range(39)) + ext(17, 0) + udp()))
    yield "ipv6-routing-truncated", eth(0x86dd, ipv6(43, b"\x11\x02\x00"))
    yield "ipv6-routing-type0", eth(0x86dd, ipv6(43, bytes(
        [17, 2, 0, 1, 0, 0, 0, 0]) + b"\0" * 16 + udp()))
    yield "ipv6-fragment-truncated", eth(0x86dd, ipv6(44, b"\x11\x00\x00"))
    yield "ipv6-fragment-later", eth(0x86dd, ipv6(44, bytes(
        [6, 0, 0x05, 0x39, 0, 0, 0, 1]) + b"\0" * 4))
    yield "ipv6-fragment-first-then-chain", eth(0x86dd, ipv6(44, bytes(
        [60, 0, 0, 1, 0, 0, 0, 2]) + ext(17, 0) + udp()))
    yield "ipv6-fragment-then-fragment", eth(0x86dd, ipv6(44, bytes(
        [44, 0, 0, 1, 0, 0, 0, 2]) + bytes([17, 0, 0, 0, 0, 0, 0, 2])
        + udp()))
    yield "ipv6-ah-truncated", eth(0x86dd, ipv6(51, b"\x11\x04"))
    yield "ipv6-ah-length-lie", eth(0x86dd, ipv6(51, bytes(
        [17, 200, 0, 0]) + b"\0" * 8))
    yield "ipv6-esp", eth(0x86dd, ipv6(50, b"\0" * 16))
    yield "ipv6-no-next-header", eth(0x86dd, ipv6(59, b"\xde\xad"))
    yield "ipv6-tcp-doff-2", eth(0x86dd, ipv6(6, tcp(doff=2)))
    yield "ipv6-tcp-truncated", eth(0x86dd, ipv6(6, tcp()[:5]))
    yield "ipv6-udp-truncated", eth(0x86dd, ipv6(17, b"\0\1"))
    yield "ipv6-icmp6-truncated", eth(0x86dd, ipv6(58, b"\x87"))
    yield "ipv6-in-ipv4-truncated", eth(0x0800, ipv4(41, ipv6(17, b"")[:7]))


def nd(typ, target, options):
    return icmp6(typ, 0, b"\0" * 4 + target + options)


TARGET = bytes.fromhex("fe800000000000000000000000000002")


def frames_nd():
    ns, na = 135, 136
    sll = b"\x01\x01" + SRC
    yield "nd-ns-ok", eth(0x86dd, ipv6(58, nd(ns, TARGET, sll)))
    yield "nd-ns-option-len-0", eth(0x86dd, ipv6(58, nd(
        ns, TARGET, b"\x01\x00" + SRC)))
    yield "nd-ns-option-len-0-last", eth(0x86dd, ipv6(58, nd(
        ns, TARGET, sll + b"\x0e\x00\0\0\0\0\0\0")))
    yield "nd-ns-option-beyond-end", eth(0x86dd, ipv6(58, nd(
        ns, TARGET, b"\x01\x05" + SRC)))
    yield "nd-ns-option-truncated", eth(0x86dd, ipv6(58, nd(
        ns, TARGET, b"\x01")))
    yield "nd-ns-two-sll", eth(0x86dd, ipv6(58, nd(ns, TARGET, sll + sll)))
    yield "nd-ns-tll-in-ns", eth(0x86dd, ipv6(58, nd(
        ns, TARGET, b"\x02\x01" + SRC)))
    yield "nd-ns-sll-len-2", eth(0x86dd, ipv6(58, nd(
        ns, TARGET, b"\x01\x02" + SRC + b"\0" * 8)))
    yield "nd-ns-target-truncated", eth(0x86dd, ipv6(58, icmp6(
        ns, 0, b"\0" * 4 + TARGET[:7])))
    yield "nd-ns-no-target", eth(0x86dd, ipv6(58, icmp6(ns, 0, b"")))
    yield "nd-na-two-tll", eth(0x86dd, ipv6(58, nd(
        na, TARGET, b"\x02\x01" + SRC + b"\x02\x01" + SRC)))
    yield "nd-na-unknown-options", eth(0x86dd, ipv6(58, nd(
        na, TARGET, b"\xfe\x01" + b"\0" * 6 + b"\x05\x01" + b"\0" * 6)))
    yield "nd-na-plen-lie", eth(0x86dd, ipv6(58, nd(
        na, TARGET, b"\x02\x01" + SRC), plen=200))
    yield "nd-ns-code-1", eth(0x86dd, ipv6(58, icmp6(
        ns, 1, b"\0" * 4 + TARGET + sll)))
    yield "nd-rs-truncated", eth(0x86dd, ipv6(58, icmp6(133, 0, b"\0")))
    yield "nd-ra-options-lie", eth(0x86dd, ipv6(58, icmp6(
        134, 0, b"\0" * 12 + b"\x03\x04" + b"\0" * 6)))


SLOW_DST = bytes.fromhex("0180c2000002")
LLDP_DST = bytes.fromhex("0180c200000e")
CFM_DST = bytes.fromhex("0180c2000030")


def frames_slow():
    yield "lacp-truncated", eth(0x8809, b"\x01", SLOW_DST)
    yield "lacp-garbage", eth(0x8809, b"\x01\x01\x14" + b"\xff" * 40,
                              SLOW_DST)
    yield "lacp-tlv-length-0", eth(0x8809, b"\x01\x01\x00" + b"\0" * 100,
                                   SLOW_DST)
    yield "marker-truncated", eth(0x8809, b"\x02\x01", SLOW_DST)
    yield "oam-garbage", eth(0x8809, b"\x03" + b"\xaa" * 50, SLOW_DST)
    yield "slow-subtype-0", eth(0x8809, b"\x00", SLOW_DST)
    yield "lldp-empty", eth(0x88cc, b"", LLDP_DST)
    yield "lldp-tlv-beyond-end", eth(0x88cc, b"\x02\xff\x04", LLDP_DST)
    yield "lldp-tlv-chain", eth(0x88cc, b"\x02\x07\x04" + SRC + b"\x04\x02"
                                + b"\x07x" * 200 + b"\0\0", LLDP_DST)
    yield "lldp-no-end", eth(0x88cc, b"\x02\x07\x04" + SRC, LLDP_DST)
    yield "cfm-truncated", eth(0x8902, b"\x00", CFM_DST)
    yield "cfm-ccm-first-tlv-lie", eth(0x8902, bytes(
        [0, 1, 0x07, 250]) + b"\0" * 20, CFM_DST)
    yield "cfm-ccm-short", eth(0x8902, bytes([0, 1, 0x07, 70]) + b"\0" * 10,
                               CFM_DST)
    yield "cfm-unicast", eth(0x8902, bytes([0x20, 1, 0x07, 70])
                             + b"\0" * 74)
    yield "stp-truncated", SLOW_DST[:5] + b"\x00" + SRC \
        + struct.pack("!H", 3) + b"\x42\x42\x03"
    yield "llc-length-lie", BCAST + SRC + struct.pack("!H", 1500) \
        + b"\xaa\xaa\x03\x00\x00\x00"
    yield "snap-truncated", BCAST + SRC + struct.pack("!H", 8) + b"\xaa\xaa"


def frames_vlan():
    payload = ipv4(17, udp())
    yield "vlan-tci-truncated", BCAST + SRC + b"\x81\x00\x00"
    yield "vlan-no-ethertype", BCAST + SRC + b"\x81\x00\x00\x05"
    # A priority tag of priority 0 carries nothing: NORMAL sends the frame
    # untagged, as Open vSwitch does (the Port's priority-tags is false).
    yield "vlan-vid-0", eth(0x8100, b"\x00\x00\x08\x00" + payload), \
        eth(0x0800, payload)
    yield "vlan-vid-4095", eth(0x8100, b"\x0f\xff\x08\x00" + payload)
    yield "vlan-pcp-cfi", eth(0x8100, b"\xf0\x0a\x08\x00" + payload)
    yield "qinq", eth(0x88a8, b"\x00\x64\x81\x00\x00\x0a\x08\x00" + payload)
    yield "qinq-inner-truncated", eth(0x88a8, b"\x00\x64\x81\x00\x00")
    yield "vlan-triple", eth(0x88a8, b"\x00\x64\x81\x00\x00\x0a\x81\x00"
                             b"\x00\x0b\x08\x00" + payload)
    yield "vlan-stack-16", eth(0x8100, b"\x00\x0a\x81\x00" * 15
                               + b"\x00\x0a\x08\x00" + payload)
    yield "vlan-stack-40-truncated", eth(0x8100, b"\x00\x0a\x81\x00" * 40)
    yield "vlan-then-length", eth(0x8100, b"\x00\x0a\x00\x20"
                                  + b"\xaa\xaa\x03\x00\x00\x00\x08\x00")
    yield "vlan-then-ipv6-truncated", eth(0x8100, b"\x00\x0a\x86\xdd"
                                          + b"\x60\0\0")


def frames_size():
    yield "header-only", eth(0x0800, b"")
    yield "header-plus-1", eth(0x0800, b"\x45")
    yield "ethertype-0", eth(0x0000, b"\0" * 46)
    yield "ethertype-05ff", eth(0x05ff, b"\0" * 46)
    yield "ethertype-ffff", eth(0xffff, b"\0" * 46)
    yield "min-60", eth(0x0800, ipv4(17, udp()) + b"\0" * 14)
    yield "mtu-1514", eth(0x0800, ipv4(17, udp(b"\x5a" * 1472)))
    yield "mtu-plus-vlan-1518", eth(0x8100, b"\x00\x0a\x08\x00" + ipv4(
        17, udp(b"\x5a" * 1472)))


CLASSES = {"ipv4": frames_ipv4, "ipv6": frames_ipv6, "nd": frames_nd,
           "slow": frames_slow, "vlan": frames_vlan, "size": frames_size}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in CLASSES:
        sys.stderr.write("usage: %s %s\n" % (sys.argv[0],
                                             "|".join(sorted(CLASSES))))
        sys.exit(1)
    for name, frame, *out in CLASSES[sys.argv[1]]():
        print(name, frame.hex(), *(o.hex() for o in out))


if __name__ == "__main__":
    main()
