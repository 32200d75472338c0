#! /usr/bin/python3
# Differential test of flow extraction and checksum verification against
# scapy's dissection (Debian's python3-scapy, for /usr/bin/python3).
#
# Generates random packets of every protocol the flow key covers (VLAN tags,
# ARP, IPv4 with options, fragments and padding, IPv6 with extension
# headers, TCP, UDP, SCTP, ICMP, ICMPv6, neighbor discovery), some with a
# corrupted checksum, half of them as chains split at random offsets; feeds
# them to tests/dps-flow-dump; and compares every field with what scapy's
# dissection of the same bytes says.  Prints TAP, one line per packet kind.
#
# Usage: flow-scapy.py [DPS_FLOW_DUMP [N_PER_KIND [SEED]]]
#
# Licensed under the Apache License, Version 2.0 (see LICENSE).

import os
import random
import subprocess
import sys

try:
    import logging
    logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
    from scapy.all import (ARP, Dot1AD, Dot1Q, Dot3, Ether, ICMP,
                           ICMPv6EchoRequest, ICMPv6ND_NA, ICMPv6ND_NS, ICMPv6NDOptDstLLAddr,
                           ICMPv6NDOptMTU, ICMPv6NDOptSrcLLAddr, ICMPv6Unknown,
                           IP, IPOption_NOP, IPOption_RR, IPv6,
                           IPv6ExtHdrDestOpt, IPv6ExtHdrFragment,
                           IPv6ExtHdrHopByHop, IPv6ExtHdrRouting, Raw, SCTP,
                           TCP, UDP, raw)
    from scapy.layers.inet6 import icmp6typescls
except ImportError:
    print("1..0 # SKIP python3-scapy is not installed for /usr/bin/python3")
    sys.exit(0)

MAX_IPV6_EXT = 8                # FLOW_MAX_IPV6_EXT in lib/flow.h.
EXT_CLASSES = {0: IPv6ExtHdrHopByHop, 43: IPv6ExtHdrRouting,
               60: IPv6ExtHdrDestOpt, 44: IPv6ExtHdrFragment}

rng = random.Random()


def mac():
    return "%02x:%02x:%02x:%02x:%02x:%02x" % tuple(
        [rng.randrange(256) & 0xfe] + [rng.randrange(256) for _ in range(5)])


def ip4():
    return "%d.%d.%d.%d" % tuple(rng.randrange(256) for _ in range(4))


def ip6():
    words = [rng.randrange(65536) for _ in range(8)]
    if rng.random() < 0.3:
        words[2:6] = [0, 0, 0, 0]
    return ":".join("%x" % w for w in words)


def payload(big=False):
    n = rng.randrange(3000, 8000) if big else rng.choice(
        [0, 0, 1, 2, 3, rng.randrange(64), rng.randrange(600)])
    return Raw(bytes(rng.randrange(256) for _ in range(n)))


def l2(kind):
    """Ethernet and 0 to 3 VLAN tags."""
    pkt = Ether(src=mac(), dst=mac())
    n_tags = rng.choice([0, 0, 1, 2]) if kind != "vlan3" else 3
    for i in range(n_tags):
        tag_class = Dot1AD if (i == 0 and n_tags >= 2
                               and rng.random() < 0.5) else Dot1Q
        pkt = pkt / tag_class(prio=rng.randrange(8), id=rng.randrange(2),
                              vlan=rng.randrange(4096))
    return pkt


def l4_v4(proto):
    sport, dport = rng.randrange(65536), rng.randrange(65536)
    if proto == "tcp":
        return TCP(sport=sport, dport=dport, flags=rng.randrange(512),
                   options=rng.choice([[], [("MSS", 1460)],
                                       [("NOP", None), ("WScale", 7)]]))
    if proto == "udp":
        return UDP(sport=sport, dport=dport)
    if proto == "sctp":
        return SCTP(sport=sport, dport=dport, tag=rng.randrange(1 << 32))
    return ICMP(type=rng.randrange(256), code=rng.randrange(256))


def gen(kind):
    """Returns a scapy packet of 'kind'."""
    pkt = l2(kind)
    if kind in ("tcp4", "udp4", "sctp4", "icmp4", "vlan3"):
        proto = {"tcp4": "tcp", "udp4": "udp", "sctp4": "sctp",
                 "icmp4": "icmp", "vlan3": "udp"}[kind]
        opts = rng.choice([[], [], [IPOption_NOP()] * 4,
                           [IPOption_RR(routers=[ip4(), ip4()])]])
        ip = IP(src=ip4(), dst=ip4(), tos=rng.randrange(256),
                ttl=rng.randrange(256), options=opts,
                flags=rng.choice([0, 2]), id=rng.randrange(65536))
        pkt = pkt / ip / l4_v4(proto) / payload(rng.random() < 0.02)
        if proto == "udp" and rng.random() < 0.2:
            pkt[UDP].chksum = 0
    elif kind == "frag4":
        ip = IP(src=ip4(), dst=ip4(), ttl=rng.randrange(256),
                proto=rng.choice([6, 17, 132, 1]),
                flags=rng.choice([1, 0]), frag=rng.choice([0, 0, 1, 185]))
        if ip.flags == 0 and ip.frag == 0:
            ip.flags = 1
        pkt = pkt / ip / payload()
    elif kind in ("tcp6", "udp6", "sctp6", "icmp6", "ext6", "frag6"):
        ip = IPv6(src=ip6(), dst=ip6(), tc=rng.randrange(256),
                  fl=rng.randrange(1 << 20), hlim=rng.randrange(256))
        pkt = pkt / ip
        if kind in ("ext6", "frag6"):
            n_ext = (rng.randrange(1, MAX_IPV6_EXT + 3) if kind == "ext6"
                     else rng.randrange(1, 3))
            for i in range(n_ext):
                nh = rng.choice([0, 43, 60]) if kind == "ext6" else 60
                if kind == "frag6" and i == n_ext - 1:
                    nh = 44
                if nh == 44:
                    pkt = pkt / IPv6ExtHdrFragment(
                        offset=rng.choice([0, 0, 1, 500]),
                        m=rng.randrange(2), id=rng.randrange(1 << 32))
                elif nh == 43:
                    pkt = pkt / IPv6ExtHdrRouting(addresses=[], segleft=0)
                else:
                    pkt = pkt / EXT_CLASSES[nh]()
        proto = {"tcp6": "tcp", "udp6": "udp", "sctp6": "sctp"}.get(
            kind, rng.choice(["tcp", "udp", "icmp6"]))
        if proto == "icmp6":
            pkt = pkt / rng.choice([ICMPv6EchoRequest(id=rng.randrange(65536)),
                                    ICMPv6Unknown(type=rng.randrange(256),
                                                  code=rng.randrange(256))])
        else:
            pkt = pkt / l4_v4(proto)
        pkt = pkt / payload(rng.random() < 0.02)
    elif kind == "nd":
        ip = IPv6(src=ip6(), dst=ip6(), hlim=255)
        if rng.random() < 0.5:
            msg = ICMPv6ND_NS(tgt=ip6())
        else:
            msg = ICMPv6ND_NA(tgt=ip6(), R=rng.randrange(2), S=rng.randrange(2))
        pkt = pkt / ip / msg
        for opt in rng.sample(["sll", "tll", "mtu"], rng.randrange(4)):
            if opt == "sll":
                pkt = pkt / ICMPv6NDOptSrcLLAddr(lladdr=mac())
            elif opt == "tll":
                pkt = pkt / ICMPv6NDOptDstLLAddr(lladdr=mac())
            else:
                pkt = pkt / ICMPv6NDOptMTU(mtu=1500)
    elif kind == "arp":
        pkt = pkt / ARP(op=rng.randrange(1, 5), hwsrc=mac(), hwdst=mac(),
                        psrc=ip4(), pdst=ip4())
    else:                       # "other": an EtherType nobody parses.
        pkt.type = rng.choice([0x88cc, 0x8847, 0x0800 - 0x300, 0x0042])
        pkt = pkt / payload()
    return pkt


def layer_offset(d, cls):
    """Byte offset of layer 'cls' in dissected packet 'd'."""
    return len(raw(d)) - len(raw(d[cls]))


def corrupt(data, d):
    """Maybe flips checksum bits; returns the bytes and what was spoiled.
    Only the outermost IPv4 header and L4 header count: ICMP errors quote
    headers that scapy dissects as subclasses of IP, TCP and UDP."""
    data = bytearray(data)
    spoiled = set()
    if IP in d and type(d[IP]) is IP and rng.random() < 0.15:
        data[layer_offset(d, IP) + 10] ^= 0x41
        spoiled.add("ip")
    for cls, ofs in ((TCP, 16), (UDP, 6), (SCTP, 8), (ICMP, 2)):
        if cls in d and type(d[cls]) is cls and rng.random() < 0.15:
            where = layer_offset(d, cls) + ofs
            if (cls == UDP and d[UDP].chksum == 0) or where >= len(data):
                continue
            data[where] ^= 0x10
            spoiled.add("l4")
            break
    return bytes(data), spoiled


def expected(d, spoiled):
    """The fields and checksum states dps-flow-dump should print for the
    scapy dissection 'd'."""
    e = {"in_port": "0", "dl_src": d.src, "dl_dst": d.dst,
         "vlan0": "0x0000/0x0000", "vlan1": "0x0000/0x0000",
         "nw_src": "0.0.0.0", "nw_dst": "0.0.0.0",
         "ipv6_src": "::", "ipv6_dst": "::", "label": "0", "proto": "0",
         "tos": "0", "ttl": "0", "frag": "0", "nd_target": "::",
         "sha": "00:00:00:00:00:00", "tha": "00:00:00:00:00:00",
         "arp_op": "0", "tp_src": "0", "tp_dst": "0", "tcp_flags": "0x000",
         "ip_csum": "unknown", "l4_csum": "unknown"}
    dl_type = d.len if isinstance(d, Dot3) else d.type
    layer = d.payload
    for i in range(2):
        if not isinstance(layer, (Dot1Q, Dot1AD)):
            break
        tci = (layer.prio << 13) | 0x1000 | layer.vlan
        e["vlan%d" % i] = "0x%04x/0x%04x" % (dl_type, tci)
        dl_type = layer.type
        layer = layer.payload
    if dl_type < 0x600:
        dl_type = 0x5ff
    e["dl_type"] = "0x%04x" % dl_type

    l4 = None                   # (protocol, bytes of the IP payload).
    data = raw(d)
    if dl_type == 0x0800 and isinstance(layer, IP):
        ip = layer
        e.update(nw_src=ip.src, nw_dst=ip.dst, proto=str(ip.proto),
                 tos=str(ip.tos), ttl=str(ip.ttl))
        e["ip_csum"] = "bad" if "ip" in spoiled else "good"
        frag = 0
        if ip.flags.MF or ip.frag:
            frag = 1 | (2 if ip.frag else 0)
        e["frag"] = str(frag)
        l3_ofs = len(data) - len(raw(ip))
        if not frag & 2:
            l4 = (ip.proto, data[l3_ofs + ip.ihl * 4:l3_ofs + ip.len])
        v6 = False
    elif dl_type == 0x86dd and isinstance(layer, IPv6):
        ip6 = layer
        e.update(ipv6_src=ip6.src, ipv6_dst=ip6.dst, label=str(ip6.fl),
                 tos=str(ip6.tc), ttl=str(ip6.hlim))
        l3_ofs = len(data) - len(raw(ip6))
        end = l3_ofs + 40 + ip6.plen
        nh, layer, frag, n_ext = ip6.nh, ip6.payload, 0, 0
        while nh in EXT_CLASSES:
            if n_ext >= MAX_IPV6_EXT:
                break
            n_ext += 1
            if nh == 44:
                frag |= 1
                if layer.offset:
                    frag |= 2
                    nh = layer.nh
                    break
            nh, layer = layer.nh, layer.payload
        e["proto"] = str(nh)
        e["frag"] = str(frag)
        if nh not in EXT_CLASSES and not frag & 2:
            l4 = (nh, data[len(data) - len(raw(layer)):end])
        v6 = True
    elif dl_type == 0x0806 and isinstance(layer, ARP):
        e.update(arp_op=str(layer.op), nw_src=layer.psrc, nw_dst=layer.pdst,
                 sha=layer.hwsrc, tha=layer.hwdst)

    if l4 is not None:
        expect_l4(e, l4[0], l4[1], v6, frag, spoiled)
    return e


def expect_l4(e, proto, b, v6, frag, spoiled):
    """Fills in 'e' from scapy's dissection of 'b', the IP payload that
    carries protocol 'proto'.  Extraction takes a header only if all of it
    is there (a first fragment's may not be)."""
    parsed = False
    if proto == 6 and len(b) >= 20 and 20 <= (b[12] >> 4) * 4 <= len(b):
        tcp = TCP(b)
        e.update(tp_src=str(tcp.sport), tp_dst=str(tcp.dport),
                 tcp_flags="0x%03x" % ((tcp.reserved << 9) | int(tcp.flags)))
        parsed = True
    elif proto == 17 and len(b) >= 8:
        udp = UDP(b)
        e.update(tp_src=str(udp.sport), tp_dst=str(udp.dport))
        parsed = True
    elif proto == 132 and len(b) >= 12:
        sctp = SCTP(b)
        e.update(tp_src=str(sctp.sport), tp_dst=str(sctp.dport))
        parsed = True
    elif proto == 1 and not v6 and len(b) >= 8:
        icmp = ICMP(b)
        e.update(tp_src=str(icmp.type), tp_dst=str(icmp.code))
        parsed = True
    elif proto == 58 and v6 and len(b) >= 4:
        hdr = ICMPv6Unknown(b)
        e.update(tp_src=str(hdr.type), tp_dst=str(hdr.code))
        if hdr.type in (135, 136) and hdr.code == 0 and len(b) >= 24:
            msg = icmp6typescls[hdr.type](b)
            e["nd_target"] = msg.tgt
            opt = msg.payload
            while opt and not isinstance(opt, Raw):
                # scapy's target option class derives from its source one.
                if isinstance(opt, ICMPv6NDOptDstLLAddr):
                    e["tha"] = opt.lladdr
                elif isinstance(opt, ICMPv6NDOptSrcLLAddr):
                    e["sha"] = opt.lladdr
                opt = opt.payload
        parsed = True
    if parsed and not frag:
        e["l4_csum"] = "bad" if "l4" in spoiled else "good"


KINDS = ["tcp4", "udp4", "sctp4", "icmp4", "frag4", "tcp6", "udp6", "sctp6",
         "icmp6", "ext6", "frag6", "nd", "arp", "vlan3", "other"]


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else "tests/dps-flow-dump"
    n_per_kind = int(sys.argv[2]) if len(sys.argv) > 2 else 250
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else int(
        os.environ.get("FLOW_SCAPY_SEED", "12345"))
    rng.seed(seed)
    if not os.path.exists(tool):
        tool = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "dps-flow-dump")

    cases = []
    for kind in KINDS:
        for _ in range(n_per_kind):
            data = raw(gen(kind))
            if len(data) < 60 and rng.random() < 0.5:
                data += bytes(rng.randrange(256) for _ in range(60 - len(data)))
            d = Ether(data)
            data, spoiled = corrupt(data, d)
            if rng.random() < 0.5:
                split = (0, 0)
            else:
                split = (rng.randrange(1, min(len(data), 120) + 1),
                         rng.randrange(16, 300))
            cases.append((kind, data, split, expected(Ether(data), spoiled)))

    text = "".join("%d %d %s\n" % (split[0], split[1], data.hex())
                   for _, data, split, _ in cases)
    out = subprocess.run([tool], input=text, capture_output=True, text=True)
    lines = out.stdout.splitlines()
    if out.returncode or len(lines) != len(cases):
        print("1..1")
        print("not ok 1 - %s failed (exit %d): %s"
              % (tool, out.returncode, out.stderr.strip()[-500:]))
        return 1

    failures = {kind: [] for kind in KINDS}
    for (kind, data, split, exp), line in zip(cases, lines):
        got = dict(item.split("=", 1) for item in line.split())
        diffs = ["%s: dpswitch %s, scapy %s" % (k, got.get(k), v)
                 for k, v in exp.items() if got.get(k) != v]
        if diffs:
            failures[kind].append("%s split %s: %s"
                                  % (data.hex(), split, "; ".join(diffs)))

    print("1..%d" % len(KINDS))
    status = 0
    for i, kind in enumerate(KINDS, 1):
        if failures[kind]:
            status = 1
            print("not ok %d - %s: %d of %d packets differ (seed %d)"
                  % (i, kind, len(failures[kind]), n_per_kind, seed))
            for f in failures[kind][:3]:
                print("# " + f)
        else:
            print("ok %d - %s: %d packets agree with scapy"
                  % (i, kind, n_per_kind))
    return status


if __name__ == "__main__":
    sys.exit(main())
