/* Checksums of packets: the IPv4 header, TCP and UDP with their IPv4 or
 * IPv6 pseudo-headers, SCTP, ICMP and ICMPv6; verification that sets the
 * four-state checksum state (lib/dp-packet.h); and the egress step that
 * completes pending checksums or hands them to the port.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_PACKET_CSUM_H
#define DP_PACKET_CSUM_H 1

#include <stdbool.h>
#include <stdint.h>
#include "compiler.h"
#include "dp-packet.h"

/* Protocol checksums of the packet headers at the offsets in the packet's
 * metadata.  Each returns the value to store in the checksum field (as it
 * lies in memory), computed as if the field were zero. */
uint16_t dp_packet_csum_ipv4_header(const struct dp_packet *);
bool dp_packet_csum_l4(const struct dp_packet *, uint32_t *value);
bool dp_packet_csum_sctp_update(struct dp_packet *, size_t offset,
                                const void *old_bytes, const void *new_bytes,
                                size_t size);

/* Verification: sets 'ip_csum' and 'l4_csum' of a packet whose states are
 * unknown to good or bad by computing them (a port without receive checksum
 * offload).  Leaves known states alone. */
void dp_packet_csum_verify(struct dp_packet *);

/* Egress port capabilities: the checksums a port computes itself. */
#define DP_TX_IP_CSUM   0x1
#define DP_TX_TCP_CSUM  0x2
#define DP_TX_UDP_CSUM  0x4
#define DP_TX_SCTP_CSUM 0x8
#define DP_TX_TCP_TSO   0x10    /* Cuts TSO packets (md.tso_segsz). */

bool dp_packet_tx_prepare__(struct dp_packet *, uint32_t caps);

/* Completes, for an egress port with capabilities 'caps' (DP_TX_*), every
 * partial checksum of 'p': in software if the port cannot do it (the state
 * becomes good), else by setting the mbuf's tx offload flags and lengths (the
 * state stays partial: the port finishes it).  A packet with nothing partial
 * costs one test and one branch.
 *
 * A TSO packet (md.tso_segsz nonzero, see lib/dp-packet-tso.h) is for a port
 * with DP_TX_TCP_TSO only; its mbuf gets the TSO request.
 *
 * Returns false if 'p' has a partial checksum that cannot be completed: its
 * headers do not hold the segment the checksum covers (offsets outside the
 * packet, a lying length, an unknown protocol).  The state is then unknown,
 * and the caller should drop 'p' (sent, it would carry whatever the field
 * holds, typically a pseudo-header sum, which no receiver accepts). */
static inline bool
dp_packet_tx_prepare(struct dp_packet *p, uint32_t caps)
{
    /* PARTIAL is GOOD | BAD: a state is partial when both bits are set. */
    uint8_t pending = ((p->md.ip_csum & (p->md.ip_csum >> 1))
                       | (p->md.l4_csum & (p->md.l4_csum >> 1)));

    if (unlikely(pending)) {
        return dp_packet_tx_prepare__(p, caps);
    }
    return true;
}

#endif /* dp-packet-csum.h */
