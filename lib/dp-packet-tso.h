/* Userspace TSO: TCP segments larger than the MTU (a guest's HOST_TSO4/6
 * send, md.tso_segsz > 0) cut into MTU-sized segments in software, for an
 * egress port that cannot do it itself.
 *
 * A TSO packet is one TCP segment of up to 64 KB, usually a chain of
 * buffers, whose headers are in its first segment, whose L4 checksum is
 * partial and whose 'md.tso_segsz' is the payload size of the segments to
 * make (the sender's MSS).  netdev_send() is the one place that looks at it:
 * a port with NETDEV_TX_TCP_TSO gets it as it is (dp_packet_tx_prepare()
 * sets the mbuf's TSO request), any other port gets the segments made here.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_PACKET_TSO_H
#define DP_PACKET_TSO_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct dp_packet_batch;

/* Smallest and largest MSS taken: a segment size below Linux's smallest
 * (48) or that cannot make an IP packet is a lie, and the packet is
 * dropped. */
#define DP_TSO_MIN_MSS 48
#define DP_TSO_MAX_MSS 65000

bool dp_packet_tso_valid(struct dp_packet *);
uint32_t dp_packet_tso_l3_seg_size(struct dp_packet *);
int dp_packet_tso_segment(struct dp_packet *, uint32_t *offset,
                          struct dp_packet_batch *segs);

#endif /* dp-packet-tso.h */
