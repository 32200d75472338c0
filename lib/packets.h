/* Protocol headers: Ethernet, 802.1Q/802.1ad, ARP, IPv4, IPv6 and its
 * extension headers, TCP, UDP, SCTP, ICMP, ICMPv6 and neighbor discovery;
 * and the header-rewrite helpers that follow the checksum state rules.
 *
 * Every header struct is packed (alignment 1): headers sit at any offset in
 * a packet (an IPv4 header usually starts 2 bytes off a 4-byte boundary), so
 * the compiler must never assume an alignment.  Multi-byte fields are in
 * network byte order ('dps_be16', 'dps_be32'); never take their address,
 * read and write them as values.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef PACKETS_H
#define PACKETS_H 1

#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>

struct dp_packet;

/* Network byte order values, for readers; the compiler sees integers. */
typedef uint16_t dps_be16;
typedef uint32_t dps_be32;

#define DPS_PACKED __attribute__((__packed__))

/* Ethernet. */
#define ETH_ADDR_LEN 6
#define ETH_HEADER_LEN 14
#define ETH_TYPE_MIN 0x600      /* Smaller values are 802.3 lengths. */
#define ETH_TYPE_IP 0x0800
#define ETH_TYPE_ARP 0x0806
#define ETH_TYPE_VLAN 0x8100    /* 802.1Q customer tag. */
#define ETH_TYPE_IPV6 0x86dd
#define ETH_TYPE_VLAN_8021AD 0x88a8     /* 802.1ad service tag. */

struct eth_addr {
    uint8_t ea[ETH_ADDR_LEN];
};

struct eth_header {
    struct eth_addr dst;
    struct eth_addr src;
    dps_be16 type;
} DPS_PACKED;

/* 802.1Q/802.1ad tag: follows the TPID that stands in the type field. */
#define VLAN_HEADER_LEN 4
#define VLAN_VID_MASK 0x0fff
#define VLAN_CFI 0x1000         /* In flow keys: "a tag is present". */
#define VLAN_PCP_MASK 0xe000
#define VLAN_PCP_SHIFT 13

struct vlan_header {
    dps_be16 tci;
    dps_be16 next_type;
} DPS_PACKED;

/* ARP for IPv4 over Ethernet. */
#define ARP_HTYPE_ETH 1
#define ARP_OP_REQUEST 1
#define ARP_OP_REPLY 2
#define ARP_ETH_HEADER_LEN 28

struct arp_eth_header {
    dps_be16 htype;
    dps_be16 ptype;
    uint8_t hlen;
    uint8_t plen;
    dps_be16 op;
    struct eth_addr sha;
    dps_be32 spa;
    struct eth_addr tha;
    dps_be32 tpa;
} DPS_PACKED;

/* IPv4. */
#define IPV4_HEADER_LEN 20
#define IPV4_MF 0x2000
#define IPV4_DF 0x4000
#define IPV4_FRAG_OFF_MASK 0x1fff

struct ipv4_header {
    uint8_t ver_ihl;            /* Version (4) << 4 | header words. */
    uint8_t tos;
    dps_be16 tot_len;
    dps_be16 id;
    dps_be16 frag_off;          /* Flags and fragment offset. */
    uint8_t ttl;
    uint8_t proto;
    dps_be16 csum;
    dps_be32 src;
    dps_be32 dst;
} DPS_PACKED;

static inline unsigned int
ipv4_header_size(const struct ipv4_header *ip)
{
    return (ip->ver_ihl & 0x0f) * 4u;
}

/* IPv6 and its extension headers. */
#define IPV6_HEADER_LEN 40
#define IPV6_LABEL_MASK 0x000fffff

struct ipv6_addr {
    uint8_t s6[16];
};

struct ipv6_header {
    dps_be32 ver_tc_label;      /* Version 6, traffic class, flow label. */
    dps_be16 payload_len;
    uint8_t next;
    uint8_t hlimit;
    struct ipv6_addr src;
    struct ipv6_addr dst;
} DPS_PACKED;

/* IP protocol numbers, including IPv6 extension headers. */
#define IPPROTO_HOPOPTS_ 0
#define IPPROTO_ICMP_ 1
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17
#define IPPROTO_ROUTING_ 43
#define IPPROTO_FRAGMENT_ 44
#define IPPROTO_AH_ 51
#define IPPROTO_ICMPV6_ 58
#define IPPROTO_NONE_ 59
#define IPPROTO_DSTOPTS_ 60
#define IPPROTO_SCTP_ 132

/* Hop-by-hop, routing and destination options headers share this start;
 * the header is (len + 1) * 8 bytes long. */
struct ipv6_ext_header {
    uint8_t next;
    uint8_t len;
} DPS_PACKED;

#define IPV6_FRAG_HEADER_LEN 8
#define IPV6_FRAG_OFF_MASK 0xfff8
#define IPV6_FRAG_MORE 0x0001

struct ipv6_frag_header {
    uint8_t next;
    uint8_t reserved;
    dps_be16 off_flags;         /* Offset in 8-byte units << 3, M flag. */
    dps_be32 id;
} DPS_PACKED;

/* TCP. */
#define TCP_HEADER_LEN 20
#define TCP_FLAGS_MASK 0x0fff
#define TCP_FIN 0x001
#define TCP_SYN 0x002
#define TCP_RST 0x004
#define TCP_PSH 0x008
#define TCP_ACK 0x010
#define TCP_URG 0x020
#define TCP_ECE 0x040
#define TCP_CWR 0x080
#define TCP_NS 0x100

struct tcp_header {
    dps_be16 src;
    dps_be16 dst;
    dps_be32 seq;
    dps_be32 ack;
    dps_be16 off_flags;         /* Data offset << 12 | flags. */
    dps_be16 window;
    dps_be16 csum;
    dps_be16 urgent;
} DPS_PACKED;

/* UDP. */
#define UDP_HEADER_LEN 8

struct udp_header {
    dps_be16 src;
    dps_be16 dst;
    dps_be16 len;
    dps_be16 csum;              /* 0: none (IPv4 only). */
} DPS_PACKED;

/* SCTP common header. */
#define SCTP_HEADER_LEN 12

struct sctp_header {
    dps_be16 src;
    dps_be16 dst;
    dps_be32 vtag;
    uint32_t csum;              /* CRC32c, least significant byte first. */
} DPS_PACKED;

/* ICMP. */
#define ICMP_HEADER_LEN 8

struct icmp_header {
    uint8_t type;
    uint8_t code;
    dps_be16 csum;
    dps_be32 rest;
} DPS_PACKED;

/* ICMPv6 and neighbor discovery. */
#define ICMPV6_HEADER_LEN 4
#define ND_NEIGHBOR_SOLICIT 135
#define ND_NEIGHBOR_ADVERT 136
#define ND_OPT_SOURCE_LL 1
#define ND_OPT_TARGET_LL 2

struct icmpv6_header {
    uint8_t type;
    uint8_t code;
    dps_be16 csum;
} DPS_PACKED;

#define ND_MSG_LEN 24

struct nd_msg {
    struct icmpv6_header icmp;
    dps_be32 flags;
    struct ipv6_addr target;
} DPS_PACKED;

/* An ND option is (len * 8) bytes long, type and length included. */
struct nd_opt_header {
    uint8_t type;
    uint8_t len;
} DPS_PACKED;

_Static_assert(sizeof(struct eth_header) == ETH_HEADER_LEN, "eth");
_Static_assert(sizeof(struct arp_eth_header) == ARP_ETH_HEADER_LEN, "arp");
_Static_assert(sizeof(struct ipv4_header) == IPV4_HEADER_LEN, "ipv4");
_Static_assert(sizeof(struct ipv6_header) == IPV6_HEADER_LEN, "ipv6");
_Static_assert(sizeof(struct tcp_header) == TCP_HEADER_LEN, "tcp");
_Static_assert(sizeof(struct sctp_header) == SCTP_HEADER_LEN, "sctp");
_Static_assert(sizeof(struct nd_msg) == ND_MSG_LEN, "nd");

/* Header rewrites.  Each keeps the checksum state rules of DESIGN.md §3: a
 * checksum in state good or partial becomes partial with no arithmetic; one
 * in state unknown or bad is updated incrementally (RFC 1624), so a bad
 * checksum stays bad.  (The L4 checksum of an IP fragment covers the whole
 * datagram and cannot be completed later: a good one is updated
 * incrementally and stays good.)  They make the headers they touch
 * contiguous in the first segment if needed, find them at the offsets flow
 * extraction (or packet composition) recorded, and do nothing to a header
 * that is not there. */
void packet_set_eth_addrs(struct dp_packet *, const struct eth_addr *src,
                          const struct eth_addr *dst);
void packet_set_ipv4_addr(struct dp_packet *, bool is_src, dps_be32 addr);
void packet_set_ipv4_tos_ttl(struct dp_packet *, uint8_t tos, uint8_t ttl);
void packet_set_ipv6_addr(struct dp_packet *, bool is_src,
                          const struct ipv6_addr *);
void packet_set_l4_ports(struct dp_packet *, dps_be16 src, dps_be16 dst);

/* Text forms of addresses. */
void eth_addr_format(const struct eth_addr *, char s[18]);
bool eth_addr_parse(const char *, struct eth_addr *);

#endif /* packets.h */
