/* OpenFlow ports on the wire: port descriptions (features reply, port
 * status, port desc reply) and port mods, in every version, and their
 * ovs-ofctl printing.
 *
 * 'struct ofputil_phy_port' holds a port version-independently: 'config'
 * and 'state' in OpenFlow 1.0 bit positions (OFPPC_*, OFPPS_*: 1.1+'s bits
 * are the same where both have them), features in OpenFlow 1.1+ positions
 * (NETDEV_F_*), speeds in kbps.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_PORT_H
#define OFP_PORT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-types.h"

struct ds;
struct ofp_header;
struct ofpbuf;

/* Port config. */
#define OFPPC_PORT_DOWN    (1 << 0)
#define OFPPC_NO_STP       (1 << 1)     /* OpenFlow 1.0 only. */
#define OFPPC_NO_RECV      (1 << 2)
#define OFPPC_NO_RECV_STP  (1 << 3)     /* OpenFlow 1.0 only. */
#define OFPPC_NO_FLOOD     (1 << 4)     /* OpenFlow 1.0 only. */
#define OFPPC_NO_FWD       (1 << 5)
#define OFPPC_NO_PACKET_IN (1 << 6)

/* Port state. */
#define OFPPS_LINK_DOWN    (1 << 0)
#define OFPPS_BLOCKED      (1 << 1)     /* OpenFlow 1.1+. */
#define OFPPS_LIVE         (1 << 2)     /* OpenFlow 1.1+. */
#define OFPPS10_STP_MASK   (3 << 8)     /* OpenFlow 1.0 STP state. */

/* Port features (OpenFlow 1.1+ bits). */
#define NETDEV_F_10MB_HD    (1 << 0)
#define NETDEV_F_10MB_FD    (1 << 1)
#define NETDEV_F_100MB_HD   (1 << 2)
#define NETDEV_F_100MB_FD   (1 << 3)
#define NETDEV_F_1GB_HD     (1 << 4)
#define NETDEV_F_1GB_FD     (1 << 5)
#define NETDEV_F_10GB_FD    (1 << 6)
#define NETDEV_F_40GB_FD    (1 << 7)
#define NETDEV_F_100GB_FD   (1 << 8)
#define NETDEV_F_1TB_FD     (1 << 9)
#define NETDEV_F_OTHER      (1 << 10)
#define NETDEV_F_COPPER     (1 << 11)
#define NETDEV_F_FIBER      (1 << 12)
#define NETDEV_F_AUTONEG    (1 << 13)
#define NETDEV_F_PAUSE      (1 << 14)
#define NETDEV_F_PAUSE_ASYM (1 << 15)

#define OFP_MAX_PORT_NAME_LEN 16

struct ofputil_phy_port {
    ofp_port_t port_no;
    struct eth_addr hw_addr;
    char name[OFP_MAX_PORT_NAME_LEN];   /* Null-terminated. */
    uint32_t config;                    /* OFPPC_*. */
    uint32_t state;                     /* OFPPS_*. */
    uint32_t curr, advertised, supported, peer; /* NETDEV_F_*. */
    uint32_t curr_speed, max_speed;     /* kbps. */
};

/* Decodes one port description of 'version' from the front of 'b' (pulling
 * it).  Returns 0, EOF if 'b' is empty, or OFPERR_OFPBRC_BAD_LEN. */
int ofputil_pull_phy_port(enum ofp_version, struct ofpbuf *b,
                          struct ofputil_phy_port *);
/* Appends 'pp' as a port description of 'version' to 'b'. */
void ofputil_put_phy_port(enum ofp_version, const struct ofputil_phy_port *,
                          struct ofpbuf *b);

/* Port mod. */
struct ofputil_port_mod {
    ofp_port_t port_no;
    struct eth_addr hw_addr;
    uint32_t config;
    uint32_t mask;
    uint32_t advertise;                 /* NETDEV_F_*, 0: no change. */
};
enum ofperr ofputil_decode_port_mod(const struct ofp_header *,
                                    struct ofputil_port_mod *);
struct ofpbuf *ofputil_encode_port_mod(const struct ofputil_port_mod *,
                                       enum ofp_version);

/* Printing. */
void ofputil_format_port(ofp_port_t, struct ds *);
bool ofputil_port_from_string(const char *, ofp_port_t *);

/* Port names, as ovs-ofctl learns them from a switch's features reply, so
 * that flows may say "in_port=p1" and "output:p1". */
struct ofputil_port_map_entry {
    ofp_port_t port;
    char name[OFP_MAX_PORT_NAME_LEN];
};
struct ofputil_port_map {
    struct ofputil_port_map_entry *entries;
    size_t n;
};
#define OFPUTIL_PORT_MAP_INITIALIZER { NULL, 0 }
void ofputil_port_map_add(struct ofputil_port_map *, ofp_port_t,
                          const char *name);
void ofputil_port_map_destroy(struct ofputil_port_map *);
/* The name 'map' (may be NULL) gives physical port 'port', or NULL if it
 * gives none (reserved ports keep their reserved names). */
const char *ofputil_port_map_get_name(const struct ofputil_port_map *map,
                                      ofp_port_t port);
/* Appends port name 'name' as Open vSwitch shows it: as it is if it is a
 * letter and then letters and digits, else as a JSON string ("a,b"). */
void ofputil_format_port_name(const char *name, struct ds *);
/* Parses 's' as ofputil_port_from_string() does, then as a name in 'map'
 * (which may be NULL). */
bool ofputil_port_parse(const char *s, const struct ofputil_port_map *map,
                        ofp_port_t *portp);
void ofputil_format_port_config(uint32_t config, struct ds *);
void ofputil_format_port_features(uint32_t features, struct ds *);
void ofputil_print_phy_port(struct ds *, enum ofp_version,
                            const struct ofputil_phy_port *);
enum ofperr ofputil_print_phy_ports(struct ds *, enum ofp_version,
                                    struct ofpbuf *b);

#endif /* ofp-port.h */
