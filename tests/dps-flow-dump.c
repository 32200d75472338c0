/* dps-flow-dump: reads packets as hex, one a line, extracts their flow keys
 * and checks their checksums, and prints every field, for tests that
 * compare dpswitch's parsing with another dissector (tests/flow-scapy.py).
 *
 * Input lines: FIRST REST HEX.  FIRST 0 puts the packet in one segment;
 * otherwise the first segment holds FIRST bytes and each following one
 * REST bytes.  Output lines: space-separated name=value pairs.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet-csum.h"
#include "dp-packet.h"
#include "dp-test.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

static const char *const csum_names[] = {
    "unknown", "good", "bad", "partial",
};

static void
print_mac(const char *name, const struct eth_addr *ea)
{
    char s[18];

    eth_addr_format(ea, s);
    printf(" %s=%s", name, s);
}

static void
print_ip(const char *name, int af, const void *addr)
{
    char s[INET6_ADDRSTRLEN];

    printf(" %s=%s", name, inet_ntop(af, addr, s, sizeof s));
}

static void
print_flow(const struct flow *f, uint32_t result, const struct dp_packet *p)
{
    printf("result=0x%x in_port=%u", result, f->in_port);
    print_mac("dl_src", &f->dl_src);
    print_mac("dl_dst", &f->dl_dst);
    printf(" dl_type=0x%04x", ntohs(f->dl_type));
    for (int i = 0; i < 2; i++) {
        printf(" vlan%d=0x%04x/0x%04x", i, ntohs(f->vlan_tpid[i]),
               ntohs(f->vlan_tci[i]));
    }
    print_ip("nw_src", AF_INET, &f->nw_src);
    print_ip("nw_dst", AF_INET, &f->nw_dst);
    print_ip("ipv6_src", AF_INET6, &f->ipv6_src);
    print_ip("ipv6_dst", AF_INET6, &f->ipv6_dst);
    printf(" label=%u proto=%u tos=%u ttl=%u frag=%u",
           ntohl(f->ipv6_label), f->nw_proto, f->nw_tos, f->nw_ttl,
           f->nw_frag);
    print_ip("nd_target", AF_INET6, &f->nd_target);
    print_mac("sha", &f->arp_sha);
    print_mac("tha", &f->arp_tha);
    printf(" arp_op=%u tp_src=%u tp_dst=%u tcp_flags=0x%03x",
           ntohs(f->arp_op), ntohs(f->tp_src), ntohs(f->tp_dst),
           ntohs(f->tcp_flags));
    printf(" ip_csum=%s l4_csum=%s\n", csum_names[p->md.ip_csum],
           csum_names[p->md.l4_csum]);
}

static size_t
parse_hex(const char *hex, uint8_t *buf, size_t max)
{
    size_t n = 0;

    while (hex[0] && hex[1] && n < max) {
        unsigned int byte;

        if (sscanf(hex, "%2x", &byte) != 1) {
            break;
        }
        buf[n++] = byte;
        hex += 2;
    }
    return n;
}

int
main(int argc DPS_UNUSED, char *argv[])
{
    char *line = NULL;
    size_t line_size = 0;
    static uint8_t buf[16384];

    util_set_program_name(argv[0]);
    dp_test_init("dps-flow-dump");
    while (getline(&line, &line_size, stdin) > 0) {
        unsigned int first, rest;
        int hex_ofs;

        if (sscanf(line, "%u %u %n", &first, &rest, &hex_ofs) != 2) {
            util_fatal(0, "bad input line: %s", line);
        }

        size_t size = parse_hex(line + hex_ofs, buf, sizeof buf);
        struct dp_packet *p;
        if (!first) {
            p = dp_packet_alloc_data(dp_test_pools.jumbo, buf, size);
        } else {
            p = dp_test_chain(dp_test_pools.std, buf, size, first,
                              rest ? rest : 1);
        }
        if (!p) {
            util_fatal(0, "cannot make a %zu-byte packet (%u, %u)", size,
                       first, rest);
        }

        struct flow flow;
        dp_packet_poison(p);
        uint32_t result = flow_extract(p, &flow);
        dp_packet_unpoison(p);
        dp_packet_csum_verify(p);
        print_flow(&flow, result, p);
        dp_packet_free(p);
    }
    free(line);
    dp_test_fini();
    return 0;
}
