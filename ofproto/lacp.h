/* LACP: the Link Aggregation Control Protocol of IEEE 802.1AX-2008 (802.3ad
 * clause 43), as Open vSwitch 3.1's userspace LACP speaks it, for one bond.
 *
 * The LACPDU.  A slow protocols frame (destination 01:80:c2:00:00:02,
 * ethertype 0x8809) whose 110 bytes of payload are: subtype 1, version 1;
 * the actor TLV (type 1, length 20: system priority, system ID, key, port
 * priority, port number, state, 3 reserved bytes), the partner TLV (type 2,
 * the same fields), the collector TLV (type 3, length 16: max delay and 12
 * reserved bytes) and the terminator (type 0, length 0, 50 reserved
 * bytes).  Numbers are big-endian.  lacp_pdu_encode() and
 * lacp_pdu_decode() are the codec.
 *
 * Members.  Each member is known by a number the caller chooses (the bond
 * uses the datapath port).  A member's status is "current" while LACPDUs
 * arrive within three transmission periods of our lacp-time (3 s fast,
 * 90 s slow), then "expired" (the partner is assumed to time out fast and
 * out of sync) for 3 s, then "defaulted" (no partner).  An active bond's
 * members start expired, a passive one's defaulted, as in Open vSwitch.
 * Every member that is not defaulted is "attached" to the aggregator of
 * the best partner (lowest system priority, system ID, port priority, port
 * number) if its partner is that same system with the same key; with
 * lacp-fallback-ab, defaulted members are attached too.  The bond has
 * "negotiated" while some member is attached and not defaulted.  A member
 * may carry traffic when attached and its partner says it is in sync (or,
 * with lacp-fallback-ab, when defaulted).
 *
 * Transmission.  A member sends when its carrier is up and the bond is
 * active or the member has a partner: at once when what it would say
 * changes, and then every 1 s if the partner asked for fast timeouts, else
 * every 30 s.  Marker requests are counted (and logged at debug level),
 * not answered, as in Open vSwitch 3.1: no marker responder.
 *
 * Threads.  Each lacp has a mutex; every function takes it, so the
 * upcall threads may hand in packets while the main thread runs it.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef LACP_H
#define LACP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct ds;
struct lacp;

/* The slow protocols' destination and ethertype; LACP's subtype. */
#define LACP_ETH_TYPE 0x8809
#define LACP_SUBTYPE 1
#define LACP_MARKER_SUBTYPE 2
extern const struct eth_addr lacp_dst;

/* LACPDU payload and whole-frame sizes. */
#define LACP_PDU_LEN 110
#define LACP_FRAME_LEN (ETH_HEADER_LEN + LACP_PDU_LEN)

/* Actor and partner state bits. */
#define LACP_STATE_ACTIVITY     0x01
#define LACP_STATE_TIMEOUT      0x02    /* Fast (short) timeouts. */
#define LACP_STATE_AGGREGATION  0x04
#define LACP_STATE_SYNC         0x08
#define LACP_STATE_COLLECTING   0x10
#define LACP_STATE_DISTRIBUTING 0x20
#define LACP_STATE_DEFAULTED    0x40
#define LACP_STATE_EXPIRED      0x80

/* One side's information, as a TLV carries it (host byte order). */
struct lacp_info {
    uint16_t sys_priority;
    struct eth_addr sys_id;
    uint16_t key;
    uint16_t port_priority;
    uint16_t port_id;
    uint8_t state;
};

/* Writes the LACPDU payload for 'actor' and 'partner' into 'pdu'. */
void lacp_pdu_encode(const struct lacp_info *actor,
                     const struct lacp_info *partner,
                     uint8_t pdu[LACP_PDU_LEN]);

/* Parses the 'size' bytes of slow protocols payload at 'pdu' (after the
 * Ethernet header).  Returns true and fills 'actor' and 'partner' for a
 * LACPDU (subtype 1, version 1 or later, actor and partner TLVs of the
 * right types and lengths; what follows them is not checked, as other
 * implementations differ there), false for anything else. */
bool lacp_pdu_decode(const void *pdu, size_t size, struct lacp_info *actor,
                     struct lacp_info *partner);

/* Writes a whole frame from 'src' carrying 'pdu' into 'frame'. */
void lacp_frame_compose(const struct eth_addr *src,
                        const uint8_t pdu[LACP_PDU_LEN],
                        uint8_t frame[LACP_FRAME_LEN]);

/* A bond's LACP settings. */
struct lacp_settings {
    struct eth_addr sys_id;         /* lacp-system-id, else the bridge's. */
    uint16_t sys_priority;          /* lacp-system-priority (65534). */
    bool active;                    /* lacp=active (else passive). */
    bool fast;                      /* lacp-time=fast. */
    bool fallback_ab;               /* lacp-fallback-ab. */
};

/* A member's, from its Interface other_config. */
struct lacp_member_settings {
    const char *name;
    uint16_t port_id;               /* lacp-port-id, else the ofport. */
    uint16_t port_priority;         /* lacp-port-priority (65535). */
    uint16_t key;                   /* lacp-aggregation-key, 0 if none. */
};

/* Sends 'pdu' on member 'member'. */
typedef void lacp_send_cb(void *aux, uint32_t member,
                          const uint8_t pdu[LACP_PDU_LEN]);

struct lacp *lacp_create(const char *name);
void lacp_destroy(struct lacp *);
void lacp_configure(struct lacp *, const struct lacp_settings *);
void lacp_member_register(struct lacp *, uint32_t member,
                          const struct lacp_member_settings *);
void lacp_member_unregister(struct lacp *, uint32_t member);
void lacp_member_set_carrier(struct lacp *, uint32_t member, bool up);

bool lacp_process_packet(struct lacp *, uint32_t member, const void *pdu,
                         size_t size, long long int now);
bool lacp_run(struct lacp *, long long int now, lacp_send_cb *, void *aux);
long long int lacp_next_wakeup(struct lacp *);

bool lacp_negotiated(struct lacp *);
bool lacp_member_is_current(struct lacp *, uint32_t member);
bool lacp_member_may_enable(struct lacp *, uint32_t member);

void lacp_register_commands(void);

#endif /* lacp.h */
