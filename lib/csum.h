/* Checksums: the Internet checksum (RFC 1071), full and incremental
 * (RFC 1624), across segments; CRC32c for SCTP (RFC 3309, RFC 4960); the
 * IPv4 header, TCP/UDP/ICMPv6 with their pseudo-headers, ICMP; and the
 * egress step that completes pending checksums or hands them to the port.
 *
 * Arithmetic convention: a one's complement sum does not depend on byte
 * order (RFC 1071 §2(B)), so sums here add 16-bit words as they lie in
 * memory, read in host order, and the final checksum is stored back the
 * same way.  'partial' values are 32-bit accumulators not yet folded.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef CSUM_H
#define CSUM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "dp-packet.h"

/* Arithmetic. */
uint32_t csum_add(uint32_t partial, const void *data, size_t size);
uint16_t csum_fold(uint32_t partial);
uint16_t csum_finish(uint32_t partial);
uint16_t csum_update16(uint16_t csum, uint16_t old_word, uint16_t new_word);
uint16_t csum_update32(uint16_t csum, uint32_t old_word, uint32_t new_word);
uint16_t csum_update_bytes(uint16_t csum, const void *old_bytes,
                           const void *new_bytes, size_t size);
uint32_t csum_packet(const struct dp_packet *, size_t offset, size_t size,
                     uint32_t partial);
uint32_t crc32c(uint32_t crc, const void *data, size_t size);

/* Protocol checksums of the packet headers at the offsets in the packet's
 * metadata.  Each returns the value to store in the checksum field (as it
 * lies in memory), computed as if the field were zero. */
uint16_t csum_ipv4_header(const struct dp_packet *);
bool csum_l4(const struct dp_packet *, uint32_t *value);

/* Verification: sets 'ip_csum' and 'l4_csum' of a packet whose states are
 * unknown to good or bad by computing them (a port without receive checksum
 * offload).  Leaves known states alone. */
void dp_packet_csum_verify(struct dp_packet *);

/* Egress port capabilities: the checksums a port computes itself. */
#define DP_TX_IP_CSUM   0x1
#define DP_TX_TCP_CSUM  0x2
#define DP_TX_UDP_CSUM  0x4
#define DP_TX_SCTP_CSUM 0x8

void dp_packet_tx_prepare__(struct dp_packet *, uint32_t caps);

/* Completes, for an egress port with capabilities 'caps' (DP_TX_*), every
 * partial checksum of 'p': in software if the port cannot do it (the state
 * becomes good), else by setting the mbuf's tx offload flags and lengths (the
 * state stays partial: the port finishes it).  A packet with nothing partial
 * costs one test and one branch. */
static inline void
dp_packet_tx_prepare(struct dp_packet *p, uint32_t caps)
{
    /* PARTIAL is GOOD | BAD: a state is partial when both bits are set. */
    uint8_t pending = ((p->md.ip_csum & (p->md.ip_csum >> 1))
                       | (p->md.l4_csum & (p->md.l4_csum >> 1)));

    if (unlikely(pending)) {
        dp_packet_tx_prepare__(p, caps);
    }
}

#endif /* csum.h */
