/* OpenFlow ports on the wire.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-port.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_port);

/* Wire sizes of a port description. */
#define OFP10_PHY_PORT_SIZE 48
#define OFP11_PORT_SIZE 64
#define OFP14_PORT_SIZE 40
#define OFP14_PORT_DESC_PROP_ETHERNET_SIZE 32

static const char *const reserved_port_names[] = {
    [OFPP_IN_PORT - OFPP_UNSET] = "IN_PORT",
    [OFPP_TABLE - OFPP_UNSET] = "TABLE",
    [OFPP_NORMAL - OFPP_UNSET] = "NORMAL",
    [OFPP_FLOOD - OFPP_UNSET] = "FLOOD",
    [OFPP_ALL - OFPP_UNSET] = "ALL",
    [OFPP_CONTROLLER - OFPP_UNSET] = "CONTROLLER",
    [OFPP_LOCAL - OFPP_UNSET] = "LOCAL",
    [OFPP_NONE - OFPP_UNSET] = "ANY",
};

static const char *const feature_names[] = {
    "10MB-HD", "10MB-FD", "100MB-HD", "100MB-FD", "1GB-HD", "1GB-FD",
    "10GB-FD", "40GB-FD", "100GB-FD", "1TB-FD", "OTHER", "COPPER",
    "FIBER", "AUTO_NEG", "AUTO_PAUSE", "AUTO_PAUSE_ASYM",
};

static const char *const config_names[] = {
    "PORT_DOWN", "NO_STP", "NO_RECV", "NO_RECV_STP", "NO_FLOOD",
    "NO_FWD", "NO_PACKET_IN",
};

static uint32_t features_from_ofp10(uint32_t f);
static uint32_t features_to_ofp10(uint32_t f);
static void copy_name(char dst[OFP_MAX_PORT_NAME_LEN], const uint8_t *src);
static uint32_t speed_from_features(uint32_t f);
static bool decode_port11_head(const uint8_t *p, struct ofputil_phy_port *pp);
static void
put_bit_names(struct ds *s, uint32_t bits, const char *const names[],
              size_t n_names);
static void put_features(struct ds *s, const char *label, uint32_t features);
static int compare_ports(const void *a_, const void *b_);

/* Decodes a port description (see the header). */
int
ofputil_pull_phy_port(enum ofp_version version, struct ofpbuf *b,
                      struct ofputil_phy_port *pp)
{
    memset(pp, 0, sizeof *pp);
    if (!b->size) {
        return EOF;
    }

    const uint8_t *p;
    if (version == OFP10_VERSION) {
        p = ofpbuf_try_pull(b, OFP10_PHY_PORT_SIZE);
        if (!p) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        pp->port_no = ofp_get_be16(p);
        memcpy(&pp->hw_addr, p + 2, 6);
        copy_name(pp->name, p + 8);
        pp->config = ofp_get_be32(p + 24);
        pp->state = ofp_get_be32(p + 28);
        pp->curr = features_from_ofp10(ofp_get_be32(p + 32));
        pp->advertised = features_from_ofp10(ofp_get_be32(p + 36));
        pp->supported = features_from_ofp10(ofp_get_be32(p + 40));
        pp->peer = features_from_ofp10(ofp_get_be32(p + 44));
        pp->curr_speed = speed_from_features(pp->curr);
        pp->max_speed = speed_from_features(pp->supported);
        return 0;
    }

    if (version < OFP14_VERSION) {
        p = ofpbuf_try_pull(b, OFP11_PORT_SIZE);
        if (!p) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        if (!decode_port11_head(p, pp)) {
            return OFPERR_OFPBAC_BAD_OUT_PORT;
        }
        pp->curr = ofp_get_be32(p + 40);
        pp->advertised = ofp_get_be32(p + 44);
        pp->supported = ofp_get_be32(p + 48);
        pp->peer = ofp_get_be32(p + 52);
        pp->curr_speed = ofp_get_be32(p + 56);
        pp->max_speed = ofp_get_be32(p + 60);
        return 0;
    }

    if (b->size < OFP14_PORT_SIZE) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    p = b->data;
    size_t len = ofp_get_be16(p + 4);
    if (len < OFP14_PORT_SIZE || len > b->size || len % 8) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    ofpbuf_pull(b, len);
    if (!decode_port11_head(p, pp)) {
        return OFPERR_OFPBAC_BAD_OUT_PORT;
    }
    for (size_t ofs = OFP14_PORT_SIZE; ofs + 4 <= len; ) {
        const uint8_t *prop = p + ofs;
        size_t prop_len = ofp_get_be16(prop + 2);
        if (prop_len < 4 || ofs + prop_len > len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        if (ofp_get_be16(prop) == 0
            && prop_len >= OFP14_PORT_DESC_PROP_ETHERNET_SIZE) {
            pp->curr = ofp_get_be32(prop + 8);
            pp->advertised = ofp_get_be32(prop + 12);
            pp->supported = ofp_get_be32(prop + 16);
            pp->peer = ofp_get_be32(prop + 20);
            pp->curr_speed = ofp_get_be32(prop + 24);
            pp->max_speed = ofp_get_be32(prop + 28);
        }
        ofs += (prop_len + 7) / 8 * 8;
    }
    return 0;
}

/* Appends a port description (see the header). */
void
ofputil_put_phy_port(enum ofp_version version,
                     const struct ofputil_phy_port *pp, struct ofpbuf *b)
{
    uint8_t *p;

    if (version == OFP10_VERSION) {
        p = ofpbuf_put_zeros(b, OFP10_PHY_PORT_SIZE);
        ofp_put_be16(p, pp->port_no);
        memcpy(p + 2, &pp->hw_addr, 6);
        memcpy(p + 8, pp->name, strnlen(pp->name, OFP_MAX_PORT_NAME_LEN - 1));
        ofp_put_be32(p + 24, pp->config);
        ofp_put_be32(p + 28, pp->state);
        ofp_put_be32(p + 32, features_to_ofp10(pp->curr));
        ofp_put_be32(p + 36, features_to_ofp10(pp->advertised));
        ofp_put_be32(p + 40, features_to_ofp10(pp->supported));
        ofp_put_be32(p + 44, features_to_ofp10(pp->peer));
        return;
    }

    size_t size = (version < OFP14_VERSION ? OFP11_PORT_SIZE
                   : OFP14_PORT_SIZE + OFP14_PORT_DESC_PROP_ETHERNET_SIZE);
    p = ofpbuf_put_zeros(b, size);
    ofp_put_be32(p, ofp_port_to_ofp11(pp->port_no));
    memcpy(p + 8, &pp->hw_addr, 6);
    memcpy(p + 16, pp->name, strnlen(pp->name, OFP_MAX_PORT_NAME_LEN - 1));
    ofp_put_be32(p + 32, pp->config);
    ofp_put_be32(p + 36, pp->state);

    uint8_t *f = p + 40;
    if (version >= OFP14_VERSION) {
        ofp_put_be16(p + 4, size);
        ofp_put_be16(f + 2, OFP14_PORT_DESC_PROP_ETHERNET_SIZE);
        f += 8;
    }
    ofp_put_be32(f, pp->curr);
    ofp_put_be32(f + 4, pp->advertised);
    ofp_put_be32(f + 8, pp->supported);
    ofp_put_be32(f + 12, pp->peer);
    ofp_put_be32(f + 16, pp->curr_speed);
    ofp_put_be32(f + 20, pp->max_speed);
}

/* Decodes port mod 'oh' (the whole message, already checked by
 * ofpraw_decode()). */
enum ofperr
ofputil_decode_port_mod(const struct ofp_header *oh,
                        struct ofputil_port_mod *pm)
{
    const uint8_t *p = (const uint8_t *) (oh + 1);
    ofp_port_t port;

    memset(pm, 0, sizeof *pm);
    if (oh->version == OFP10_VERSION) {
        pm->port_no = ofp_get_be16(p);
        memcpy(&pm->hw_addr, p + 2, 6);
        pm->config = ofp_get_be32(p + 8);
        pm->mask = ofp_get_be32(p + 12);
        pm->advertise = features_from_ofp10(ofp_get_be32(p + 16));
        return 0;
    }
    if (!ofp_port_from_ofp11(ofp_get_be32(p), &port)) {
        return OFPERR_OFPBAC_BAD_OUT_PORT;
    }
    pm->port_no = port;
    memcpy(&pm->hw_addr, p + 8, 6);
    pm->config = ofp_get_be32(p + 16);
    pm->mask = ofp_get_be32(p + 20);
    if (oh->version < OFP14_VERSION) {
        pm->advertise = ofp_get_be32(p + 24);
    }
    return 0;
}

/* Returns a port mod for 'version'. */
struct ofpbuf *
ofputil_encode_port_mod(const struct ofputil_port_mod *pm,
                        enum ofp_version version)
{
    struct ofpbuf *b;
    uint8_t *p;

    if (version == OFP10_VERSION) {
        b = ofpraw_alloc(OFPRAW_OFPT10_PORT_MOD, version, ofpmsg_next_xid(),
                         0);
        p = ofpbuf_put_zeros(b, 24);
        ofp_put_be16(p, pm->port_no);
        memcpy(p + 2, &pm->hw_addr, 6);
        ofp_put_be32(p + 8, pm->config);
        ofp_put_be32(p + 12, pm->mask);
        ofp_put_be32(p + 16, features_to_ofp10(pm->advertise));
    } else {
        enum ofpraw raw = (version < OFP14_VERSION ? OFPRAW_OFPT13_PORT_MOD
                           : OFPRAW_OFPT14_PORT_MOD);
        b = ofpraw_alloc(raw, version, ofpmsg_next_xid(), 0);
        p = ofpbuf_put_zeros(b, version < OFP14_VERSION ? 32 : 24);
        ofp_put_be32(p, ofp_port_to_ofp11(pm->port_no));
        memcpy(p + 8, &pm->hw_addr, 6);
        ofp_put_be32(p + 16, pm->config);
        ofp_put_be32(p + 20, pm->mask);
        if (version < OFP14_VERSION) {
            ofp_put_be32(p + 24, pm->advertise);
        }
    }
    ofpmsg_update_length(b);
    return b;
}

/* Appends 'port' as ovs-ofctl prints it: a number, or "LOCAL" etc. */
void
ofputil_format_port(ofp_port_t port, struct ds *s)
{
    if (port > OFPP_UNSET) {
        ds_put_cstr(s, reserved_port_names[port - OFPP_UNSET]);
    } else {
        ds_put_format(s, "%"PRIu16, port);
    }
}

/* Parses a port number or reserved port name ("LOCAL", "NONE" too). */
bool
ofputil_port_from_string(const char *s, ofp_port_t *portp)
{
    unsigned int n;

    if (util_str_to_uint(s, 10, &n)) {
        if (n < OFPP_MAX) {
            *portp = n;
            return true;
        }
        return false;
    }
    for (size_t i = 1; i < ARRAY_SIZE(reserved_port_names); i++) {
        if (reserved_port_names[i] && !strcasecmp(s, reserved_port_names[i])) {
            *portp = OFPP_UNSET + i;
            return true;
        }
    }
    if (!strcasecmp(s, "NONE")) {
        *portp = OFPP_NONE;
        return true;
    }
    return false;
}

/* Adds 'name' for 'port' to 'map'. */
void
ofputil_port_map_add(struct ofputil_port_map *map, ofp_port_t port,
                     const char *name)
{
    map->entries = xrealloc(map->entries,
                            (map->n + 1) * sizeof *map->entries);
    struct ofputil_port_map_entry *e = &map->entries[map->n++];
    e->port = port;
    snprintf(e->name, sizeof e->name, "%s", name);
}

void
ofputil_port_map_destroy(struct ofputil_port_map *map)
{
    free(map->entries);
    map->entries = NULL;
    map->n = 0;
}

/* Returns the name 'map' gives 'port' (see the header). */
const char *
ofputil_port_map_get_name(const struct ofputil_port_map *map,
                          ofp_port_t port)
{
    for (size_t i = 0; map && port < OFPP_MAX && i < map->n; i++) {
        if (map->entries[i].port == port) {
            return map->entries[i].name;
        }
    }
    return NULL;
}

/* Appends 'name', quoted if need be (see the header). */
void
ofputil_format_port_name(const char *name, struct ds *s)
{
    bool plain = isalpha((unsigned char) name[0]);

    for (const char *p = name; plain && *p; p++) {
        plain = isalnum((unsigned char) *p);
    }
    if (plain) {
        ds_put_cstr(s, name);
        return;
    }

    ds_put_char(s, '"');
    for (const unsigned char *p = (const unsigned char *) name; *p; p++) {
        if (*p == '"' || *p == '\\') {
            ds_put_format(s, "\\%c", *p);
        } else if (*p < 0x20) {
            ds_put_format(s, "\\u%04x", *p);
        } else {
            ds_put_char(s, *p);
        }
    }
    ds_put_char(s, '"');
}

/* Parses a port number, a reserved name or a name in 'map'. */
bool
ofputil_port_parse(const char *s, const struct ofputil_port_map *map,
                   ofp_port_t *portp)
{
    unsigned int n;

    if (ofputil_port_from_string(s, portp)) {
        return true;
    }
    if (util_str_to_uint(s, 10, &n)) {
        /* What Open vSwitch's tools say of numbers past OFPP_MAX. */
        if (n == OFPP_NONE) {
            VLOG_WARN("referring to port ANY as 65535 is deprecated for "
                      "compatibility with OpenFlow 1.1 and later");
        } else if (n >= OFPP_MAX && n < OFPP_NONE) {
            VLOG_WARN("port %u is a reserved OF1.0 port number that will "
                      "be translated to %u when talking to an OF1.1 or "
                      "later controller", n, n + 0xffff0000u);
        } else if (n < 0xffffff00u) {
            VLOG_WARN("port %u is outside the supported range 0 through "
                      "ffff or 0xffffff00 through 0xffffffff", n);
            return false;
        } else {
            return false;
        }
        *portp = n;
        return true;
    }
    for (size_t i = 0; map && i < map->n; i++) {
        if (!strcmp(map->entries[i].name, s)) {
            *portp = map->entries[i].port;
            return true;
        }
    }
    return false;
}

/* Appends port config bits 'config' by name ("0" for none). */
void
ofputil_format_port_config(uint32_t config, struct ds *s)
{
    put_bit_names(s, config, config_names, ARRAY_SIZE(config_names));
}

/* Appends port features 'features' by name ("0" for none). */
void
ofputil_format_port_features(uint32_t features, struct ds *s)
{
    put_bit_names(s, features, feature_names, ARRAY_SIZE(feature_names));
}

/* Appends 'pp' as ovs-ofctl show prints a port. */
void
ofputil_print_phy_port(struct ds *s, enum ofp_version version,
                       const struct ofputil_phy_port *pp)
{
    static const char *const state_names[] = {
        "LINK_DOWN", "BLOCKED", "LIVE",
    };
    const uint8_t *a = (const uint8_t *) &pp->hw_addr;

    ds_put_char(s, ' ');
    ofputil_format_port(pp->port_no, s);
    ds_put_format(s, "(%s): addr:%02x:%02x:%02x:%02x:%02x:%02x\n", pp->name,
                  a[0], a[1], a[2], a[3], a[4], a[5]);

    ds_put_cstr(s, "     config:     ");
    put_bit_names(s, pp->config, config_names, ARRAY_SIZE(config_names));
    ds_put_char(s, '\n');

    ds_put_cstr(s, "     state:      ");
    uint32_t state = pp->state;
    if (version == OFP10_VERSION) {
        static const char *const stp[] = {
            NULL, "STP_LEARN", "STP_FORWARD", "STP_BLOCK"
        };
        uint32_t stp_state = (state & OFPPS10_STP_MASK) >> 8;
        state &= ~OFPPS10_STP_MASK;
        put_bit_names(s, state, state_names, 1);
        if (stp[stp_state]) {
            if (state) {
                ds_put_char(s, ' ');
            } else {
                ds_chomp(s, '0');
            }
            ds_put_cstr(s, stp[stp_state]);
        }
    } else {
        put_bit_names(s, state, state_names, ARRAY_SIZE(state_names));
    }
    ds_put_char(s, '\n');

    put_features(s, "current:", pp->curr);
    put_features(s, "advertised:", pp->advertised);
    put_features(s, "supported:", pp->supported);
    put_features(s, "peer:", pp->peer);
    ds_put_format(s, "     speed: %"PRIu32" Mbps now, %"PRIu32" Mbps max\n",
                  pp->curr_speed / 1000, pp->max_speed / 1000);
}

/* Decodes the port descriptions filling 'b' and appends them sorted by
 * port number.  Returns 0 or the decoding error. */
enum ofperr
ofputil_print_phy_ports(struct ds *s, enum ofp_version version,
                        struct ofpbuf *b)
{
    struct ofputil_phy_port *ports = NULL;
    size_t n = 0, allocated = 0;
    int error;

    for (;;) {
        struct ofputil_phy_port pp;
        error = ofputil_pull_phy_port(version, b, &pp);
        if (error) {
            break;
        }
        if (n >= allocated) {
            allocated = allocated ? 2 * allocated : 8;
            ports = xrealloc(ports, allocated * sizeof *ports);
        }
        ports[n++] = pp;
    }
    if (n) {
        qsort(ports, n, sizeof *ports, compare_ports);
    }
    for (size_t i = 0; i < n; i++) {
        ofputil_print_phy_port(s, version, &ports[i]);
    }
    free(ports);
    return error == EOF ? 0 : error;
}

/* OpenFlow 1.0 features: bits 0-6 as 1.1, then copper (7) to pause_asym
 * (11) where 1.1 has them at 11-15. */
static uint32_t
features_from_ofp10(uint32_t f)
{
    return (f & 0x7f) | ((f & 0xf80) << 4);
}

static uint32_t
features_to_ofp10(uint32_t f)
{
    return (f & 0x7f) | ((f >> 4) & 0xf80);
}

static void
copy_name(char dst[OFP_MAX_PORT_NAME_LEN], const uint8_t *src)
{
    memcpy(dst, src, OFP_MAX_PORT_NAME_LEN);
    dst[OFP_MAX_PORT_NAME_LEN - 1] = '\0';
}

static uint32_t
speed_from_features(uint32_t f)
{
    return (f & NETDEV_F_1TB_FD ? 1000000000
            : f & NETDEV_F_100GB_FD ? 100000000
            : f & NETDEV_F_40GB_FD ? 40000000
            : f & NETDEV_F_10GB_FD ? 10000000
            : f & (NETDEV_F_1GB_HD | NETDEV_F_1GB_FD) ? 1000000
            : f & (NETDEV_F_100MB_HD | NETDEV_F_100MB_FD) ? 100000
            : f & (NETDEV_F_10MB_HD | NETDEV_F_10MB_FD) ? 10000
            : 0);
}

/* Decodes the first 40 bytes of an OpenFlow 1.1+ port, the same in 1.1 to
 * 1.5; false if its number has no 16-bit form. */
static bool
decode_port11_head(const uint8_t *p, struct ofputil_phy_port *pp)
{
    ofp_port_t port;

    if (!ofp_port_from_ofp11(ofp_get_be32(p), &port)) {
        return false;
    }
    pp->port_no = port;
    memcpy(&pp->hw_addr, p + 8, 6);
    copy_name(pp->name, p + 16);
    pp->config = ofp_get_be32(p + 32);
    pp->state = ofp_get_be32(p + 36);
    return true;
}

static void
put_bit_names(struct ds *s, uint32_t bits, const char *const names[],
              size_t n_names)
{
    if (!bits) {
        ds_put_cstr(s, "0");
    }
    bool first = true;
    for (size_t i = 0; i < 32; i++) {
        if (bits & (1u << i)) {
            if (!first) {
                ds_put_char(s, ' ');
            }
            first = false;
            if (i < n_names && names[i]) {
                ds_put_cstr(s, names[i]);
            } else {
                ds_put_format(s, "0x%"PRIx32, 1u << i);
            }
        }
    }
}

static void
put_features(struct ds *s, const char *label, uint32_t features)
{
    if (features) {
        ds_put_format(s, "     %-12s", label);
        put_bit_names(s, features, feature_names, ARRAY_SIZE(feature_names));
        ds_put_char(s, '\n');
    }
}

static int
compare_ports(const void *a_, const void *b_)
{
    const struct ofputil_phy_port *a = a_, *b = b_;

    return a->port_no < b->port_no ? -1 : a->port_no > b->port_no;
}
