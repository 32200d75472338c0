/* OpenFlow basics shared by the wire code (lib/ofp-*), ovs-ofctl and
 * ofproto: protocol versions, port numbers and reserved ports, table and
 * group numbers.
 *
 * Ports: inside dpswitch an OpenFlow port number is 16 bits, numbered as in
 * OpenFlow 1.0 (reserved ports 0xfff8-0xffff, OFPP_MAX = 0xff00), as Open
 * vSwitch does.  OpenFlow 1.1 and later carry 32 bits on the wire; their
 * reserved ports are ours plus OFPP11_OFFSET (ofp_port_to_ofp11() and
 * ofp_port_from_ofp11() convert).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_TYPES_H
#define OFP_TYPES_H 1

#include <stdbool.h>
#include <stdint.h>
#include "packets.h"

typedef uint64_t dps_be64;      /* 64 bits in network byte order. */

/* OpenFlow versions, as the header's version byte says. */
enum ofp_version {
    OFP10_VERSION = 0x01,
    OFP11_VERSION = 0x02,
    OFP12_VERSION = 0x03,
    OFP13_VERSION = 0x04,
    OFP14_VERSION = 0x05,
    OFP15_VERSION = 0x06,
};

/* Bit (1 << v) for each version v: the hello's version bitmap. */
#define OFPUTIL_SUPPORTED_VERSIONS ((1u << OFP10_VERSION) \
                                    | (1u << OFP13_VERSION) \
                                    | (1u << OFP14_VERSION) \
                                    | (1u << OFP15_VERSION))
/* What a switch allows when Bridge:protocols is empty, as OVS: OpenFlow 1.0
 * to 1.5 (ovs-ofctl's default is the same set). */
#define OFPUTIL_DEFAULT_VERSIONS OFPUTIL_SUPPORTED_VERSIONS

/* The TCP port a controller listens on by default. */
#define OFP_PORT 6653
#define OFP_OLD_PORT 6633

/* Port numbers (16 bits, OpenFlow 1.0 numbering). */
typedef uint16_t ofp_port_t;
#define OFPP_MAX        0xff00  /* Highest number of a physical port. */
#define OFPP_UNSET      0xfff7  /* "No port given" (OVS's internal use). */
#define OFPP_IN_PORT    0xfff8  /* Back out of the input port. */
#define OFPP_TABLE      0xfff9  /* Through the flow table (packet-out). */
#define OFPP_NORMAL     0xfffa  /* The L2 learning switch. */
#define OFPP_FLOOD      0xfffb  /* All ports but input and no-flood ones. */
#define OFPP_ALL        0xfffc  /* All ports but the input one. */
#define OFPP_CONTROLLER 0xfffd  /* To the controllers, as a packet-in. */
#define OFPP_LOCAL      0xfffe  /* The bridge's local port. */
#define OFPP_NONE       0xffff  /* Not a port (OpenFlow 1.1+: OFPP_ANY). */
#define OFPP_ANY        OFPP_NONE

/* OpenFlow 1.1+ 32-bit port numbers. */
#define OFPP11_MAX      0xffffff00u
#define OFPP11_OFFSET   0xffff0000u /* Reserved port p is p + offset. */

/* Tables. */
#define OFPTT_MAX 0xfe          /* Highest table number. */
#define OFPTT_ALL 0xff          /* All tables (flow_mod delete, stats). */

/* Groups. */
#define OFPG_MAX 0xffffff00u    /* Highest group number. */
#define OFPG_ALL 0xfffffffcu    /* All groups (delete, stats). */
#define OFPG_ANY 0xffffffffu    /* No group given (flow stats filter). */

/* Buffers: packet-outs and flow_mods without a buffered packet. */
#define OFP_NO_BUFFER 0xffffffffu

/* "Send the whole packet" for output to the controller. */
#define OFPCML_NO_BUFFER 0xffff

/* Packet-in reasons, numbered as OpenFlow 1.0-1.3 (0-2) and 1.4+ (3-5). */
enum ofp_packet_in_reason {
    OFPR_NO_MATCH = 0,          /* Table miss (1.4+: "table_miss"). */
    OFPR_ACTION = 1,            /* controller action ("apply_action"). */
    OFPR_INVALID_TTL = 2,       /* TTL hit zero. */
    OFPR_ACTION_SET = 3,        /* controller action in the action set. */
    OFPR_GROUP = 4,             /* controller action in a group bucket. */
    OFPR_PACKET_OUT = 5,        /* controller action in a packet-out. */
    OFPR_N_REASONS
};

/* Converts 32-bit OpenFlow 1.1+ port 'port' to dpswitch's 16-bit number;
 * returns false (and sets '*out' to OFPP_NONE) if 'port' has no 16-bit
 * form. */
static inline bool
ofp_port_from_ofp11(uint32_t port, ofp_port_t *out)
{
    if (port < OFPP_MAX) {
        *out = port;
        return true;
    } else if (port >= OFPP11_MAX) {
        *out = port - OFPP11_OFFSET;
        return true;
    }
    *out = OFPP_NONE;
    return false;
}

/* Converts 16-bit port 'port' to its 32-bit OpenFlow 1.1+ number. */
static inline uint32_t
ofp_port_to_ofp11(ofp_port_t port)
{
    return port < OFPP_MAX ? port : port + OFPP11_OFFSET;
}

/* Reading and writing big-endian integers at any alignment in a message. */
static inline uint16_t
ofp_get_be16(const void *p_)
{
    const uint8_t *p = p_;

    return (uint16_t) ((p[0] << 8) | p[1]);
}

static inline uint32_t
ofp_get_be32(const void *p_)
{
    const uint8_t *p = p_;

    return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
           | ((uint32_t) p[2] << 8) | p[3];
}

static inline uint64_t
ofp_get_be64(const void *p)
{
    return ((uint64_t) ofp_get_be32(p) << 32)
           | ofp_get_be32((const uint8_t *) p + 4);
}

static inline void
ofp_put_be16(void *p_, uint16_t x)
{
    uint8_t *p = p_;

    p[0] = x >> 8;
    p[1] = x;
}

static inline void
ofp_put_be32(void *p_, uint32_t x)
{
    uint8_t *p = p_;

    p[0] = x >> 24;
    p[1] = x >> 16;
    p[2] = x >> 8;
    p[3] = x;
}

static inline void
ofp_put_be64(void *p_, uint64_t x)
{
    uint8_t *p = p_;

    ofp_put_be32(p, x >> 32);
    ofp_put_be32(p + 4, x);
}

#endif /* ofp-types.h */
