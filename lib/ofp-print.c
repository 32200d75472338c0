/* Printing OpenFlow messages as ovs-ofctl ofp-print does.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-print.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-async.h"
#include "ofp-errors.h"
#include "ofp-bundle.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-port.h"
#include "ofp-types.h"
#include "ofpbuf.h"
#include "util.h"

static enum ofperr print_body(struct ds *, const struct ofp_header *,
                              enum ofpraw, int verbosity,
                              const struct ofputil_port_map *);

static void
put_header_line(struct ds *s, const struct ofp_header *oh, enum ofpraw raw);

/* Returns the decoded text of the message at 'data' (see the header). */
char *
ofp_to_string(const void *data, size_t len, int verbosity)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ofp_print(data, len, verbosity, &s);
    return ds_steal_cstr(&s);
}

/* Appends the decoded text of the message at 'data' to 's'. */
void
ofp_print(const void *data, size_t len, int verbosity, struct ds *s)
{
    ofp_print_with_ports(data, len, verbosity, NULL, s);
}

/* As ofp_print(), naming ports by 'port_map' (may be NULL). */
void
ofp_print_with_ports(const void *data, size_t len, int verbosity,
                     const struct ofputil_port_map *port_map, struct ds *s)
{
    const struct ofp_header *oh = data;

    if (!len) {
        ds_put_cstr(s, "OpenFlow message is empty\n");
        return;
    } else if (len < sizeof *oh) {
        ds_put_format(s, "OpenFlow packet too short (only %zu bytes):\n",
                      len);
        ofp_put_hex_dump(s, data, len, 0, true);
        return;
    }

    size_t length = ntohs(oh->length);
    enum ofpraw raw;
    enum ofperr error;
    if (length > len) {
        if (!ofpraw_decode_partial(&raw, data, len)) {
            put_header_line(s, oh, raw);
            ds_put_char(s, '\n');
        }
        ds_put_format(s, "(***truncated to %zu bytes from %zu***)\n",
                      len, length);
    } else if (length < len) {
        ds_put_format(s, "(***only uses %zu bytes out of %zu***)\n",
                      length, len);
    } else {
        error = ofpraw_decode(&raw, oh);
        if (!error) {
            put_header_line(s, oh, raw);
            error = print_body(s, oh, raw, verbosity, port_map);
            if (!error) {
                return;
            }
            if (s->length && s->string[s->length - 1] != '\n') {
                ds_put_char(s, ' ');
            }
        }
        ds_put_format(s, "***decode error: %s***\n",
                      ofperr_get_name(error));
    }
    ofp_put_hex_dump(s, data, len, 0, true);
}

/* Appends a hex dump (see the header). */
void
ofp_put_hex_dump(struct ds *s, const void *data, size_t size, size_t ofs,
                 bool ascii)
{
    const uint8_t *buf = data;
    const size_t per_line = 16;

    while (size > 0) {
        size_t start = ofs / per_line * per_line;
        size_t end = start + per_line;
        if (end > ofs + size) {
            end = ofs + size;
        }
        size_t n = end - ofs;

        ds_put_format(s, "%08zx  ", start);
        size_t i;
        for (i = start; i < ofs; i++) {
            ds_put_cstr(s, "   ");
        }
        for (; i < end; i++) {
            ds_put_format(s, "%02x%c", buf[i - ofs],
                          i % per_line == per_line / 2 - 1 ? '-' : ' ');
        }
        if (ascii) {
            for (; i < start + per_line; i++) {
                ds_put_cstr(s, "   ");
            }
            ds_put_char(s, '|');
            for (i = start; i < ofs; i++) {
                ds_put_char(s, ' ');
            }
            for (; i < end; i++) {
                int c = buf[i - ofs];
                ds_put_char(s, c >= 32 && c < 127 ? c : '.');
            }
            for (; i < start + per_line; i++) {
                ds_put_char(s, ' ');
            }
            ds_put_char(s, '|');
        } else {
            ds_chomp(s, ' ');
            ds_chomp(s, '-');
        }
        ds_put_char(s, '\n');

        ofs += n;
        buf += n;
        size -= n;
    }
}

static void
put_version(struct ds *s, uint8_t version)
{
    if (version == OFP10_VERSION) {
        return;
    }

    static const char *const names[] = {
        [OFP11_VERSION] = "OF1.1", [OFP12_VERSION] = "OF1.2",
        [OFP13_VERSION] = "OF1.3", [OFP14_VERSION] = "OF1.4",
        [OFP15_VERSION] = "OF1.5",
    };
    if (version <= OFP15_VERSION && names[version]) {
        ds_put_format(s, " (%s)", names[version]);
    } else {
        ds_put_format(s, " (OF 0x%02"PRIx8")", version);
    }
}

static void
put_header_line(struct ds *s, const struct ofp_header *oh, enum ofpraw raw)
{
    ds_put_cstr(s, ofpraw_get_name(raw));
    put_version(s, oh->version);
    ds_put_format(s, " (xid=0x%"PRIx32"):", ntohl(oh->xid));
    if (ofpmsg_is_stat(oh)) {
        /* As Open vSwitch prints them: a reply's "more" and any other bits
         * of a reply or an OpenFlow 1.0 request as unknown; nothing of an
         * OpenFlow 1.3+ request's. */
        uint16_t flags = ofpmp_flags(oh);
        bool reply = oh->type == (oh->version == OFP10_VERSION ? 17 : 19);
        if (!reply && oh->version != OFP10_VERSION) {
            flags = 0;
        }
        if (flags) {
            ds_put_cstr(s, " flags=");
        }
        if (reply && flags & OFPSF_REPLY_MORE) {
            ds_put_cstr(s, "[more]");
            flags &= ~OFPSF_REPLY_MORE;
        }
        if (flags) {
            ds_put_format(s, "[***unknown flags 0x%04"PRIx16"***]", flags);
        }
    }
}

/* Hello: the versions offered. */
static enum ofperr
print_hello(struct ds *s, const struct ofp_header *oh)
{
    uint32_t bitmap;
    bool ok = ofputil_decode_hello(oh, &bitmap);

    ds_put_cstr(s, "\n version bitmap: ");
    bool first = true;
    for (int v = 0; v < 32; v++) {
        if (bitmap & (1u << v)) {
            ds_put_format(s, "%s0x%02x", first ? "" : ", ", v);
            first = false;
        }
    }
    ds_put_char(s, '\n');
    if (!ok) {
        ds_put_cstr(s, " unknown data in hello:\n");
        ofp_put_hex_dump(s, oh, ntohs(oh->length), 0, true);
    }
    return 0;
}

static enum ofperr
print_echo(struct ds *s, const struct ofp_header *oh, int verbosity)
{
    size_t payload = ntohs(oh->length) - sizeof *oh;

    ds_put_format(s, " %zu bytes of payload\n", payload);
    if (verbosity > 1 || payload) {
        ofp_put_hex_dump(s, oh + 1, payload, 0, true);
    }
    return 0;
}

static enum ofperr
print_error(struct ds *s, const struct ofp_header *oh, int verbosity)
{
    struct ofpbuf payload;
    enum ofperr error = ofperr_decode_msg(oh, &payload);

    if (!error) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    ds_put_format(s, " %s\n", ofperr_get_name(error));
    if (error == OFPERR_OFPHFC_INCOMPATIBLE || error == OFPERR_OFPHFC_EPERM) {
        ds_put_buffer(s, payload.data, payload.size);
        ds_put_char(s, '\n');
    } else {
        ofp_print(payload.data, payload.size, verbosity - 1, s);
    }
    return 0;
}

static void
put_frag_and_miss(struct ds *s, const uint8_t *body)
{
    static const char *const frags[] = {
        "normal", "drop", "reassemble", "nx-match"
    };
    uint16_t flags = ofp_get_be16(body);

    ds_put_format(s, " frags=%s", frags[flags & 3]);
    if (flags & 4) {
        ds_put_cstr(s, " invalid_ttl_to_controller");
    }
    ds_put_format(s, " miss_send_len=%"PRIu16"\n", ofp_get_be16(body + 2));
}

static void
put_desc_field(struct ds *s, const char *label, const uint8_t *p,
               size_t size)
{
    size_t n = strnlen((const char *) p, size);

    ds_put_format(s, "%s: ", label);
    ds_put_buffer(s, (const char *) p, n);
    ds_put_char(s, '\n');
}

static enum ofperr
print_desc_reply(struct ds *s, const uint8_t *body)
{
    ds_put_char(s, '\n');
    put_desc_field(s, "Manufacturer", body, 256);
    put_desc_field(s, "Hardware", body + 256, 256);
    put_desc_field(s, "Software", body + 512, 256);
    put_desc_field(s, "Serial Num", body + 768, 32);
    put_desc_field(s, "DP Description", body + 800, 256);
    return 0;
}

static void
put_bits(struct ds *s, uint32_t bits, const char *const names[], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (bits & (1u << i) && names[i]) {
            ds_put_format(s, " %s", names[i]);
        }
    }
}

static enum ofperr
print_features_reply(struct ds *s, const struct ofp_header *oh,
                     const uint8_t *body)
{
    static const char *const caps10[] = {
        "FLOW_STATS", "TABLE_STATS", "PORT_STATS", "STP", NULL, "IP_REASM",
        "QUEUE_STATS", "ARP_MATCH_IP",
    };
    static const char *const caps13[] = {
        "FLOW_STATS", "TABLE_STATS", "PORT_STATS", "GROUP_STATS", NULL,
        "IP_REASM", "QUEUE_STATS", NULL, "PORT_BLOCKED", "BUNDLES",
    };

    ds_put_format(s, " dpid:%016"PRIx64"\n", ofp_get_be64(body));
    ds_put_format(s, "n_tables:%d, n_buffers:%"PRIu32, body[12],
                  ofp_get_be32(body + 8));
    if (oh->version >= OFP13_VERSION && body[13]) {
        ds_put_format(s, ", auxiliary_id:%d", body[13]);
    }
    ds_put_char(s, '\n');
    ds_put_cstr(s, "capabilities:");
    uint32_t caps = ofp_get_be32(body + 16);
    if (oh->version == OFP10_VERSION) {
        put_bits(s, caps, caps10, ARRAY_SIZE(caps10));
    } else {
        put_bits(s, caps, caps13, ARRAY_SIZE(caps13));
    }
    ds_put_char(s, '\n');

    if (oh->version == OFP10_VERSION) {
        /* OVS's order: enqueue (bit 11) comes right after output. */
        static const int order[] = { 0, 11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
        static const char *const names[] = {
            "output", "set_vlan_vid", "set_vlan_pcp", "strip_vlan",
            "mod_dl_src", "mod_dl_dst", "mod_nw_src", "mod_nw_dst",
            "mod_nw_tos", "mod_tp_src", "mod_tp_dst", "enqueue",
        };
        uint32_t actions = ofp_get_be32(body + 20);

        ds_put_cstr(s, "actions:");
        for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
            if (actions & (1u << order[i])) {
                ds_put_format(s, " %s", names[order[i]]);
            }
        }
        ds_put_char(s, '\n');

        struct ofpbuf ports;
        ofpbuf_use_const(&ports, body + 24, ntohs(oh->length) - 32);
        return ofputil_print_phy_ports(s, oh->version, &ports);
    }
    return 0;
}

static enum ofperr
print_port_status(struct ds *s, const struct ofp_header *oh,
                  const uint8_t *body)
{
    static const char *const reasons[] = { "ADD", "DEL", "MOD" };
    struct ofputil_phy_port pp;
    struct ofpbuf b;

    if (body[0] > 2) {
        return OFPERR_NXBRC_BAD_REASON;
    }
    ofpbuf_use_const(&b, body + 8, ntohs(oh->length) - 16);
    int error = ofputil_pull_phy_port(oh->version, &b, &pp);
    if (error) {
        return error == EOF ? OFPERR_OFPBRC_BAD_LEN : error;
    }
    ds_put_format(s, " %s:", reasons[body[0]]);
    ofputil_print_phy_port(s, oh->version, &pp);
    return 0;
}

static enum ofperr
print_port_mod(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_port_mod pm;
    enum ofperr error = ofputil_decode_port_mod(oh, &pm);
    const uint8_t *a = (const uint8_t *) &pm.hw_addr;

    if (error) {
        return error;
    }
    ds_put_cstr(s, " port: ");
    ofputil_format_port(pm.port_no, s);
    ds_put_format(s, ": addr:%02x:%02x:%02x:%02x:%02x:%02x\n",
                  a[0], a[1], a[2], a[3], a[4], a[5]);
    ds_put_cstr(s, "     config: ");
    ofputil_format_port_config(pm.config, s);
    ds_put_cstr(s, "\n     mask:   ");
    ofputil_format_port_config(pm.mask, s);
    ds_put_cstr(s, "\n     advertise: ");
    if (pm.advertise) {
        ofputil_format_port_features(pm.advertise, s);
        ds_put_char(s, '\n');
    } else {
        ds_put_cstr(s, "UNCHANGED\n");
    }
    return 0;
}

/* Table statistics. */

/* One table of an OFPST_TABLE reply.  'fields' and 'max_entries' are what
 * an OpenFlow 1.0 reply says of its features (OFP10_FIELD_* bits); later
 * versions carry none, and leave them 0. */
struct table_stats {
    uint8_t table_id;
    char name[32];
    uint32_t fields;
    uint32_t max_entries;
    uint32_t active_count;
    uint64_t lookup_count;
    uint64_t matched_count;
};

/* The fields an OpenFlow 1.0 table's wildcards say it can match, in the
 * order Open vSwitch lists them, with the wildcard bits for each. */
static const struct {
    const char *name;
    uint32_t wildcards;
} ofp10_table_fields[] = {
    { "in_port", 1 << 0 },
    { "eth_src", 1 << 2 },
    { "eth_dst", 1 << 3 },
    { "eth_type", 1 << 4 },
    { "vlan_vid", 1 << 1 },
    { "vlan_pcp", 1 << 20 },
    { "ip_src", 0x3f << 8 },
    { "ip_dst", 0x3f << 14 },
    { "nw_proto", 1 << 5 },
    { "nw_tos", 1 << 21 },
    { "tcp_src", 1 << 6 },
    { "tcp_dst", 1 << 7 },
};

static void
decode_table_stats(enum ofp_version version, const uint8_t *p,
                   struct table_stats *ts)
{
    memset(ts, 0, sizeof *ts);
    ts->table_id = p[0];
    if (version == OFP10_VERSION) {
        uint32_t wildcards = ofp_get_be32(p + 36);

        memcpy(ts->name, p + 4, sizeof ts->name);
        ts->name[sizeof ts->name - 1] = '\0';
        for (size_t i = 0; i < ARRAY_SIZE(ofp10_table_fields); i++) {
            if (wildcards & ofp10_table_fields[i].wildcards) {
                ts->fields |= 1u << i;
            }
        }
        ts->max_entries = ofp_get_be32(p + 40);
        ts->active_count = ofp_get_be32(p + 44);
        ts->lookup_count = ofp_get_be64(p + 48);
        ts->matched_count = ofp_get_be64(p + 56);
    } else {
        ts->active_count = ofp_get_be32(p + 4);
        ts->lookup_count = ofp_get_be64(p + 8);
        ts->matched_count = ofp_get_be64(p + 16);
    }
}

/* Appends the names of 'fields' (OFP10_FIELD_* bits), those that share a
 * prefix next to each other run together as Open vSwitch writes them
 * ("eth_{src,dst,type}"). */
static void
put_table_fields(struct ds *s, uint32_t fields)
{
    const char *names[ARRAY_SIZE(ofp10_table_fields)];
    size_t n = 0;

    for (size_t i = 0; i < ARRAY_SIZE(ofp10_table_fields); i++) {
        if (fields & (1u << i)) {
            names[n++] = ofp10_table_fields[i].name;
        }
    }
    for (size_t i = 0; i < n; ) {
        size_t prefix_len = strcspn(names[i], "_") + 1;
        size_t j = i + 1;

        while (j < n && !strncmp(names[i], names[j], prefix_len)) {
            j++;
        }
        if (i) {
            ds_put_char(s, ' ');
        }
        if (j - i == 1) {
            ds_put_cstr(s, names[i]);
        } else {
            ds_put_format(s, "%.*s{", (int) prefix_len, names[i]);
            for (size_t k = i; k < j; k++) {
                ds_put_format(s, "%s%s", k > i ? "," : "",
                              names[k] + prefix_len);
            }
            ds_put_char(s, '}');
        }
        i = j;
    }
}

/* Ends a run of tables 'first' through 'last' that repeat the one before
 * them, if there is one. */
static void
put_ditto_run(struct ds *s, int first, int last)
{
    if (first < 0) {
        return;
    }
    if (first == last) {
        ds_put_format(s, "\n  table %d: ditto\n", first);
    } else {
        ds_put_format(s, "\n  tables %d...%d: ditto\n", first, last);
    }
}

/* The tables of an OFPST_TABLE reply, each shown in full unless it repeats
 * the one before: a run of unnamed tables that do is "tables 2...253:
 * ditto", a table that changes only its counters "(same features)", one
 * that changes its size but not its fields "(same matching)". */
static void
print_table_stats_reply(struct ds *s, enum ofp_version version,
                        const uint8_t *body, size_t len)
{
    size_t entry_size = version == OFP10_VERSION ? 64 : 24;
    int first_ditto = -1, last_ditto = -1;
    struct table_stats prev = { .table_id = 0 }, ts;

    for (size_t ofs = 0; ofs + entry_size <= len; ofs += entry_size) {
        decode_table_stats(version, body + ofs, &ts);

        bool same_stats = (ofs && ts.active_count == prev.active_count
                           && ts.lookup_count == prev.lookup_count
                           && ts.matched_count == prev.matched_count);
        bool same_features = (ofs && ts.fields == prev.fields
                              && ts.max_entries == prev.max_entries);
        uint32_t prev_fields = prev.fields;
        prev = ts;
        if (same_stats && same_features && !ts.name[0]) {
            if (first_ditto < 0) {
                first_ditto = ts.table_id;
            }
            last_ditto = ts.table_id;
            continue;
        }
        put_ditto_run(s, first_ditto, last_ditto);
        first_ditto = -1;

        ds_put_format(s, "\n  table %"PRIu8, ts.table_id);
        if (ts.name[0]) {
            ds_put_format(s, " (\"%s\")", ts.name);
        }
        ds_put_char(s, ':');
        if (same_stats && same_features) {
            ds_put_cstr(s, " ditto");
            continue;
        }
        ds_put_format(s, "\n    active=%"PRIu32", lookup=%"PRIu64
                      ", matched=%"PRIu64"\n", ts.active_count,
                      ts.lookup_count, ts.matched_count);
        if (version != OFP10_VERSION) {
            continue;
        }
        if (same_features) {
            ds_put_cstr(s, "    (same features)\n");
            continue;
        }
        if (ts.max_entries) {
            ds_put_format(s, "    max_entries=%"PRIu32"\n", ts.max_entries);
        }
        if (ts.fields && ofs && ts.fields == prev_fields) {
            ds_put_cstr(s, "    (same matching)\n");
        } else if (ts.fields) {
            ds_put_cstr(s, "    matching:\n      exact match or wildcard: ");
            put_table_fields(s, ts.fields);
            ds_put_char(s, '\n');
        }
    }
    put_ditto_run(s, first_ditto, last_ditto);
    if (!s->length || s->string[s->length - 1] != '\n') {
        ds_put_char(s, '\n');
    }
}

/* Port statistics. */

#define PORT_STATS_UNKNOWN UINT64_MAX   /* A counter the port lacks. */
#define INTEL_VENDOR_ID 0x0000aa01      /* Open vSwitch's port properties. */

/* One port of an OFPST_PORT reply; 'custom' points to the 'n_custom'
 * entries (a length byte, a name, a 64-bit value) of an OpenFlow 1.4
 * custom statistics property, 'custom_len' bytes. */
struct port_stats {
    ofp_port_t port_no;
    uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
    uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
    uint64_t rx_frame_errors, rx_over_errors, rx_crc_errors, collisions;
    uint32_t duration_sec, duration_nsec;   /* UINT32_MAX sec: unknown. */
    uint64_t rfc2819[21];
    const uint8_t *custom;
    size_t custom_len;
    unsigned int n_custom;
};

/* The RFC 2819 counters of Open vSwitch's OpenFlow 1.4 experimenter
 * property, as 'rfc2819' holds them (their order in the property), and
 * which of the two lines lists each. */
static const struct {
    const char *name;
    bool rx;
} rfc2819_counters[] = {
    { "1_to_64_packets", true }, { "65_to_127_packets", true },
    { "128_to_255_packets", true }, { "256_to_511_packets", true },
    { "512_to_1023_packets", true }, { "1024_to_1522_packets", true },
    { "1523_to_max_packets", true },
    { "1_to_64_packets", false }, { "65_to_127_packets", false },
    { "128_to_255_packets", false }, { "256_to_511_packets", false },
    { "512_to_1023_packets", false }, { "1024_to_1522_packets", false },
    { "1523_to_max_packets", false },
    { "multicast_packets", false }, { "broadcast_packets", true },
    { "broadcast_packets", false }, { "undersized_errors", true },
    { "oversize_errors", true }, { "rx_fragmented_errors", true },
    { "rx_jabber_errors", true },
};

/* Reads the 64-bit counters at 'p' into 'out'. */
static void
get_counters(const uint8_t *p, uint64_t *const out[], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        *out[i] = ofp_get_be64(p + 8 * i);
    }
}

/* Decodes the properties of an OpenFlow 1.4 port stats entry, the 'len'
 * bytes at 'p'. */
static enum ofperr
decode_port_stats_props(const uint8_t *p, size_t len, struct port_stats *ps)
{
    while (len) {
        if (len < 4) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        uint16_t type = ofp_get_be16(p);
        size_t prop_len = ofp_get_be16(p + 2);
        size_t padded = (prop_len + 7) & ~(size_t) 7;
        if (prop_len < 4 || padded > len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }

        if (type == 0) {                        /* OFPPSPT14_ETHERNET. */
            uint64_t *const counters[] = {
                &ps->rx_frame_errors, &ps->rx_over_errors,
                &ps->rx_crc_errors, &ps->collisions,
            };
            if (prop_len != 40) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            get_counters(p + 8, counters, ARRAY_SIZE(counters));
        } else if (type == 0xffff && prop_len >= 12
                   && ofp_get_be32(p + 4) == INTEL_VENDOR_ID) {
            uint32_t exp_type = ofp_get_be32(p + 8);

            if (exp_type == 1) {                /* RFC 2819 counters. */
                if (prop_len != 16 + 8 * ARRAY_SIZE(ps->rfc2819)) {
                    return OFPERR_OFPBRC_BAD_LEN;
                }
                for (size_t i = 0; i < ARRAY_SIZE(ps->rfc2819); i++) {
                    ps->rfc2819[i] = ofp_get_be64(p + 16 + 8 * i);
                }
            } else if (exp_type == 2) {         /* Custom statistics. */
                if (prop_len < 16) {
                    return OFPERR_OFPBRC_BAD_LEN;
                }
                ps->n_custom = ofp_get_be16(p + 14);
                ps->custom = p + 16;
                ps->custom_len = prop_len - 16;
            }
        }
        p += padded;
        len -= padded;
    }
    return 0;
}

/* Decodes the port stats entry at the start of the 'len' bytes at 'p' of
 * a 'version' reply into 'ps'; returns its size or 0 with '*errorp' set. */
static size_t
decode_port_stats(enum ofp_version version, const uint8_t *p, size_t len,
                  struct port_stats *ps, enum ofperr *errorp)
{
    uint64_t *const counters[] = {
        &ps->rx_packets, &ps->tx_packets, &ps->rx_bytes, &ps->tx_bytes,
        &ps->rx_dropped, &ps->tx_dropped, &ps->rx_errors, &ps->tx_errors,
        &ps->rx_frame_errors, &ps->rx_over_errors, &ps->rx_crc_errors,
        &ps->collisions,
    };
    uint32_t port;

    memset(ps, 0, sizeof *ps);
    ps->duration_sec = UINT32_MAX;
    for (size_t i = 0; i < ARRAY_SIZE(ps->rfc2819); i++) {
        ps->rfc2819[i] = PORT_STATS_UNKNOWN;
    }
    *errorp = 0;

    if (version == OFP10_VERSION) {
        ps->port_no = ofp_get_be16(p);
        get_counters(p + 8, counters, ARRAY_SIZE(counters));
        return 104;
    } else if (version == OFP13_VERSION) {
        port = ofp_get_be32(p);
        get_counters(p + 8, counters, ARRAY_SIZE(counters));
        ps->duration_sec = ofp_get_be32(p + 104);
        ps->duration_nsec = ofp_get_be32(p + 108);
        if (!ofp_port_from_ofp11(port, &ps->port_no)) {
            *errorp = OFPERR_OFPBAC_BAD_OUT_PORT;
            return 0;
        }
        return 112;
    }

    size_t entry_len = len >= 2 ? ofp_get_be16(p) : 0;
    if (entry_len < 80 || entry_len > len) {
        *errorp = OFPERR_OFPBRC_BAD_LEN;
        return 0;
    }
    port = ofp_get_be32(p + 4);
    ps->duration_sec = ofp_get_be32(p + 8);
    ps->duration_nsec = ofp_get_be32(p + 12);
    get_counters(p + 16, counters, 8);
    for (size_t i = 8; i < ARRAY_SIZE(counters); i++) {
        *counters[i] = PORT_STATS_UNKNOWN;
    }
    if (!ofp_port_from_ofp11(port, &ps->port_no)) {
        *errorp = OFPERR_OFPBAC_BAD_OUT_PORT;
        return 0;
    }
    *errorp = decode_port_stats_props(p + 80, entry_len - 80, ps);
    return *errorp ? 0 : entry_len;
}

/* Appends 'port': a reserved port by its reserved name ("UNSET" too, as
 * Open vSwitch prints port statistics), another by its name in 'port_map'
 * if it has one there. */
static void
put_port(struct ds *s, ofp_port_t port,
         const struct ofputil_port_map *port_map)
{
    const char *name = ofputil_port_map_get_name(port_map, port);

    if (name) {
        ofputil_format_port_name(name, s);
    } else if (port == OFPP_UNSET) {
        ds_put_cstr(s, "UNSET");
    } else {
        ofputil_format_port(port, s);
    }
}

/* Appends "LABEL=VALUE, ", VALUE "?" if the port lacks the counter. */
static void
put_counter(struct ds *s, const char *label, uint64_t value, bool last)
{
    ds_put_format(s, "%s=", label);
    if (value == PORT_STATS_UNKNOWN) {
        ds_put_char(s, '?');
    } else {
        ds_put_format(s, "%"PRIu64, value);
    }
    ds_put_cstr(s, last ? "\n" : ", ");
}

/* Appends the line of RFC 2819 counters for 'rx' (or tx), if the port has
 * any of them. */
static void
put_rfc2819_line(struct ds *s, const struct port_stats *ps, bool rx)
{
    size_t start = s->length;
    bool any = false;

    ds_put_format(s, "           %s rfc2819 ", rx ? "rx" : "tx");
    for (size_t i = 0; i < ARRAY_SIZE(rfc2819_counters); i++) {
        if (rfc2819_counters[i].rx == rx
            && ps->rfc2819[i] != PORT_STATS_UNKNOWN) {
            ds_put_format(s, "%s=%"PRIu64", ", rfc2819_counters[i].name,
                          ps->rfc2819[i]);
            any = true;
        }
    }
    if (any) {
        ds_put_char(s, '\n');
    } else {
        ds_truncate(s, start);
    }
}

/* Appends a port's custom statistics, three a line. */
static void
put_custom_stats(struct ds *s, const struct port_stats *ps)
{
    const uint8_t *p = ps->custom;
    size_t len = ps->custom_len;

    if (!ps->n_custom) {
        return;
    }
    ds_put_cstr(s, "           CUSTOM Statistics\n");
    for (unsigned int i = 0; i < ps->n_custom; i++) {
        size_t name_len = len ? p[0] : 0;
        if (!len || 1 + name_len + 8 > len) {
            break;
        }
        if (i % 3 == 0) {
            ds_put_cstr(s, "                      ");
        }
        ds_put_format(s, "%.*s=%"PRIu64",", (int) name_len,
                      (const char *) p + 1, ofp_get_be64(p + 1 + name_len));
        ds_put_char(s, i % 3 == 2 || i + 1 == ps->n_custom ? '\n' : ' ');
        p += 1 + name_len + 8;
        len -= 1 + name_len + 8;
    }
}

static void
print_port_stats(struct ds *s, const struct port_stats *ps,
                 const struct ofputil_port_map *port_map)
{
    ds_put_cstr(s, "  port ");
    if (ps->port_no < 10) {
        ds_put_char(s, ' ');
    }
    put_port(s, ps->port_no, port_map);
    ds_put_cstr(s, ": rx ");
    put_counter(s, "pkts", ps->rx_packets, false);
    put_counter(s, "bytes", ps->rx_bytes, false);
    put_counter(s, "drop", ps->rx_dropped, false);
    put_counter(s, "errs", ps->rx_errors, false);
    put_counter(s, "frame", ps->rx_frame_errors, false);
    put_counter(s, "over", ps->rx_over_errors, false);
    put_counter(s, "crc", ps->rx_crc_errors, true);
    ds_put_cstr(s, "           tx ");
    put_counter(s, "pkts", ps->tx_packets, false);
    put_counter(s, "bytes", ps->tx_bytes, false);
    put_counter(s, "drop", ps->tx_dropped, false);
    put_counter(s, "errs", ps->tx_errors, false);
    put_counter(s, "coll", ps->collisions, true);
    if (ps->duration_sec != UINT32_MAX) {
        ds_put_cstr(s, "           duration=");
        ofputil_format_duration(s, ps->duration_sec, ps->duration_nsec);
        ds_put_char(s, '\n');
    }
    put_rfc2819_line(s, ps, true);
    put_rfc2819_line(s, ps, false);
    put_custom_stats(s, ps);
}

/* "N ports", then each port; the ports before an entry that does not
 * decode, then its error. */
static enum ofperr
print_port_stats_reply(struct ds *s, enum ofp_version version,
                       const uint8_t *body, size_t len,
                       const struct ofputil_port_map *port_map)
{
    struct port_stats *ports = NULL;
    enum ofperr error = 0;
    size_t n = 0;

    for (size_t ofs = 0; ofs < len; ) {
        ports = xrealloc(ports, (n + 1) * sizeof *ports);
        size_t size = decode_port_stats(version, body + ofs, len - ofs,
                                        &ports[n], &error);
        if (!size) {
            break;
        }
        ofs += size;
        n++;
    }
    ds_put_format(s, " %zu ports\n", n);
    for (size_t i = 0; i < n; i++) {
        print_port_stats(s, &ports[i], port_map);
    }
    free(ports);
    return error;
}

/* The port a port or queue stats request's body starts with. */
static enum ofperr
get_request_port(enum ofp_version version, const uint8_t *body,
                 ofp_port_t *port)
{
    if (version == OFP10_VERSION) {
        *port = ofp_get_be16(body);
    } else if (!ofp_port_from_ofp11(ofp_get_be32(body), port)) {
        return OFPERR_OFPBAC_BAD_OUT_PORT;
    }
    return 0;
}

static enum ofperr
print_port_stats_request(struct ds *s, enum ofp_version version,
                         const uint8_t *body,
                         const struct ofputil_port_map *port_map)
{
    ofp_port_t port;
    enum ofperr error = get_request_port(version, body, &port);

    if (error) {
        return error;
    }
    ds_put_cstr(s, " port_no=");
    put_port(s, port, port_map);
    ds_put_char(s, '\n');
    return 0;
}

/* Queue stats: "port=P queue=Q" (a request), or each queue's counters (a
 * reply), as Open vSwitch prints them. */
static void
put_queue_id(struct ds *s, uint32_t queue)
{
    if (queue == 0xffffffffu) {
        ds_put_cstr(s, "ALL");
    } else {
        ds_put_format(s, "%"PRIu32, queue);
    }
}

static enum ofperr
print_queue_stats_request(struct ds *s, enum ofp_version version,
                          const uint8_t *body,
                          const struct ofputil_port_map *port_map)
{
    ofp_port_t port;
    enum ofperr error = get_request_port(version, body, &port);

    if (error) {
        return error;
    }
    if (version == OFP10_VERSION && port == OFPP_ALL) {
        port = OFPP_ANY;
    }
    ds_put_cstr(s, " port=");
    put_port(s, port, port_map);
    ds_put_cstr(s, " queue=");
    put_queue_id(s, ofp_get_be32(body + 4));
    ds_put_char(s, '\n');
    return 0;
}

static void
put_queue_counter(struct ds *s, const char *label, uint64_t value)
{
    if (value == UINT64_MAX) {
        ds_put_format(s, "%s=?, ", label);
    } else {
        ds_put_format(s, "%s=%"PRIu64", ", label, value);
    }
}

static enum ofperr
print_queue_stats_reply(struct ds *s, enum ofp_version version,
                        const uint8_t *body, size_t len,
                        const struct ofputil_port_map *port_map)
{
    size_t n = 0;

    /* Count first: the header line says how many. */
    for (size_t ofs = 0; ofs < len; n++) {
        size_t size = (version == OFP10_VERSION ? 32
                       : version == OFP13_VERSION ? 40
                       : ofp_get_be16(body + ofs));
        if (size < (version >= OFP14_VERSION ? 48 : 32) || ofs + size > len) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ofs += size;
    }
    ds_put_format(s, " %zu queues\n", n);

    for (size_t ofs = 0; ofs < len; ) {
        const uint8_t *p = body + ofs;
        ofp_port_t port;
        uint32_t sec = UINT32_MAX, nsec = 0;

        if (version == OFP10_VERSION) {
            port = ofp_get_be16(p);
            p += 4;
            ofs += 32;
        } else {
            if (version >= OFP14_VERSION) {
                ofs += ofp_get_be16(p);
                p += 8;
            } else {
                ofs += 40;
            }
            if (!ofp_port_from_ofp11(ofp_get_be32(p), &port)) {
                return OFPERR_OFPBAC_BAD_OUT_PORT;
            }
            sec = ofp_get_be32(p + 32);
            nsec = ofp_get_be32(p + 36);
            p += 4;
        }
        ds_put_cstr(s, "  port ");
        put_port(s, port, port_map);
        ds_put_cstr(s, " queue ");
        put_queue_id(s, ofp_get_be32(p));
        ds_put_cstr(s, ": ");
        put_queue_counter(s, "bytes", ofp_get_be64(p + 4));
        put_queue_counter(s, "pkts", ofp_get_be64(p + 12));
        put_queue_counter(s, "errors", ofp_get_be64(p + 20));
        if (sec == UINT32_MAX) {
            ds_put_cstr(s, "duration=?\n");
        } else {
            ds_put_format(s, "duration=%"PRIu32".%03"PRIu32"s\n", sec,
                          nsec / 1000000);
        }
    }
    return 0;
}

static enum ofperr
print_body(struct ds *s, const struct ofp_header *oh, enum ofpraw raw,
           int verbosity, const struct ofputil_port_map *port_map)
{
    size_t body_len = ntohs(oh->length) - ofpraw_get_hdr_size(raw);

    const uint8_t *body = (const uint8_t *) oh + ofpraw_get_hdr_size(raw);

    switch (raw) {
    case OFPRAW_OFPT_HELLO:
        return print_hello(s, oh);
    case OFPRAW_OFPT_ECHO_REQUEST:
    case OFPRAW_OFPT_ECHO_REPLY:
        return print_echo(s, oh, verbosity);
    case OFPRAW_OFPT_ERROR:
        return print_error(s, oh, verbosity);
    case OFPRAW_OFPT_GET_CONFIG_REPLY:
    case OFPRAW_OFPT_SET_CONFIG:
        put_frag_and_miss(s, body);
        return 0;
    case OFPRAW_OFPST10_DESC_REPLY:
    case OFPRAW_OFPST13_DESC_REPLY:
        return print_desc_reply(s, body);
    case OFPRAW_OFPST13_PORT_DESC_REQUEST:
    case OFPRAW_OFPST10_PORT_DESC_REQUEST:
        ds_put_cstr(s, " port=ANY\n");
        return 0;
    case OFPRAW_OFPST15_PORT_DESC_REQUEST:
        if (ofp_get_be32(body) == 0xffffffffu) {
            ds_put_cstr(s, " port=ANY\n");
        } else {
            ds_put_format(s, " port=%"PRIu32"\n", ofp_get_be32(body));
        }
        return 0;
    case OFPRAW_NXT_SET_FLOW_FORMAT: {
        uint32_t format = ofp_get_be32(body);
        if (format == 0) {
            ds_put_cstr(s, " format=openflow10\n");
        } else if (format == 2) {
            ds_put_cstr(s, " format=nxm\n");
        } else {
            ds_put_format(s, " format=%"PRIu32"\n", format);
        }
        return 0;
    }
    case OFPRAW_NXT_SET_PACKET_IN_FORMAT: {
        static const char *const formats[] = {
            "standard", "nxt_packet_in", "nxt_packet_in2"
        };
        uint32_t format = ofp_get_be32(body);
        if (format < ARRAY_SIZE(formats)) {
            ds_put_format(s, " format=%s\n", formats[format]);
        } else {
            ds_put_format(s, " format=%"PRIu32"\n", format);
        }
        return 0;
    }
    case OFPRAW_OFPT14_BUNDLE_CONTROL:
    case OFPRAW_ONFT13_BUNDLE_CONTROL:
        return ofp_print_bundle_ctrl(s, oh);
    case OFPRAW_OFPT14_BUNDLE_ADD_MESSAGE:
    case OFPRAW_ONFT13_BUNDLE_ADD_MESSAGE:
        return ofp_print_bundle_add(s, oh, verbosity);
    case OFPRAW_OFPT10_FEATURES_REPLY:
    case OFPRAW_OFPT13_FEATURES_REPLY:
        return print_features_reply(s, oh, body);
    case OFPRAW_OFPST11_GROUP_DESC_REPLY:
    case OFPRAW_NXST_GROUP_DESC_REPLY:
        return ofputil_format_group_desc_reply(s, oh, port_map);
    case OFPRAW_OFPST11_GROUP_REPLY:
    case OFPRAW_OFPST13_GROUP_REPLY:
    case OFPRAW_NXST_GROUP_REPLY:
        return ofputil_format_group_stats_reply(s, oh);
    case OFPRAW_OFPT11_GROUP_MOD:
    case OFPRAW_OFPT15_GROUP_MOD:
    case OFPRAW_NXT_GROUP_MOD:
        return ofputil_format_group_mod(s, oh, port_map);
    case OFPRAW_OFPST12_GROUP_FEATURES_REPLY:
    case OFPRAW_NXST_GROUP_FEATURES_REPLY:
        return ofputil_format_group_features_reply(s, oh);
    case OFPRAW_OFPST10_PORT_DESC_REPLY:
    case OFPRAW_OFPST13_PORT_DESC_REPLY:
    case OFPRAW_OFPST14_PORT_DESC_REPLY: {
        struct ofpbuf ports;
        ds_put_char(s, '\n');
        ofpbuf_use_const(&ports, body,
                         ntohs(oh->length) - ofpraw_get_hdr_size(raw));
        return ofputil_print_phy_ports(s, oh->version, &ports);
    }
    case OFPRAW_OFPT10_PORT_STATUS:
    case OFPRAW_OFPT13_PORT_STATUS:
    case OFPRAW_OFPT14_PORT_STATUS:
        return print_port_status(s, oh, body);
    case OFPRAW_OFPT10_PORT_MOD:
    case OFPRAW_OFPT13_PORT_MOD:
    case OFPRAW_OFPT14_PORT_MOD:
        return print_port_mod(s, oh);
    case OFPRAW_OFPT10_FLOW_MOD:
    case OFPRAW_OFPT13_FLOW_MOD:
    case OFPRAW_NXT_FLOW_MOD:
        return ofp_print_flow_mod(s, oh);
    case OFPRAW_OFPT10_PACKET_OUT:
    case OFPRAW_OFPT13_PACKET_OUT:
    case OFPRAW_OFPT15_PACKET_OUT:
        return ofp_print_packet_out(s, oh, port_map);
    case OFPRAW_NXT_SET_ASYNC_CONFIG:
    case OFPRAW_NXT_SET_ASYNC_CONFIG2:
    case OFPRAW_OFPT13_SET_ASYNC:
    case OFPRAW_OFPT14_SET_ASYNC:
    case OFPRAW_OFPT13_GET_ASYNC_REPLY:
    case OFPRAW_OFPT14_GET_ASYNC_REPLY:
        return ofp_print_async_config(s, oh);
    case OFPRAW_OFPT10_PACKET_IN:
    case OFPRAW_OFPT13_PACKET_IN:
    case OFPRAW_NXT_PACKET_IN:
    case OFPRAW_NXT_PACKET_IN2:
        return ofp_print_packet_in(s, oh, verbosity, port_map);
    case OFPRAW_OFPST10_FLOW_REQUEST:
    case OFPRAW_OFPST10_AGGREGATE_REQUEST:
    case OFPRAW_OFPST13_FLOW_REQUEST:
    case OFPRAW_OFPST13_AGGREGATE_REQUEST:
    case OFPRAW_NXST_FLOW_REQUEST:
    case OFPRAW_NXST_AGGREGATE_REQUEST:
        return ofp_print_flow_stats_request(s, oh);
    case OFPRAW_OFPST10_FLOW_REPLY:
    case OFPRAW_OFPST13_FLOW_REPLY:
    case OFPRAW_OFPST15_FLOW_REPLY:
    case OFPRAW_NXST_FLOW_REPLY:
        return ofp_print_flow_stats_reply(s, oh);
    case OFPRAW_OFPT10_FLOW_REMOVED:
    case OFPRAW_OFPT13_FLOW_REMOVED:
    case OFPRAW_OFPT15_FLOW_REMOVED:
    case OFPRAW_NXT_FLOW_REMOVED:
        return ofp_print_flow_removed(s, oh);
    case OFPRAW_OFPST10_AGGREGATE_REPLY:
    case OFPRAW_OFPST13_AGGREGATE_REPLY:
    case OFPRAW_NXST_AGGREGATE_REPLY:
    case OFPRAW_OFPST15_AGGREGATE_REPLY: {
        struct ofputil_aggregate_stats as;
        enum ofperr error = ofputil_decode_aggregate_stats_reply(&as, oh);
        if (error) {
            return error;
        }
        ds_put_format(s, " packet_count=%"PRIu64" byte_count=%"PRIu64
                      " flow_count=%"PRIu32"\n",
                      as.packet_count, as.byte_count, as.flow_count);
        return 0;
    }
    case OFPRAW_OFPST10_TABLE_REPLY:
    case OFPRAW_OFPST13_TABLE_REPLY:
        print_table_stats_reply(s, oh->version, body, body_len);
        return 0;
    case OFPRAW_OFPST10_PORT_REQUEST:
    case OFPRAW_OFPST13_PORT_REQUEST:
        return print_port_stats_request(s, oh->version, body, port_map);
    case OFPRAW_OFPST10_QUEUE_REQUEST:
    case OFPRAW_OFPST11_QUEUE_REQUEST:
        return print_queue_stats_request(s, oh->version, body, port_map);
    case OFPRAW_OFPST10_QUEUE_REPLY:
    case OFPRAW_OFPST13_QUEUE_REPLY:
    case OFPRAW_OFPST14_QUEUE_REPLY:
        return print_queue_stats_reply(s, oh->version, body, body_len,
                                       port_map);
    case OFPRAW_OFPST10_PORT_REPLY:
    case OFPRAW_OFPST13_PORT_REPLY:
    case OFPRAW_OFPST14_PORT_REPLY:
        return print_port_stats_reply(s, oh->version, body, body_len,
                                      port_map);
    default:
        ds_put_char(s, '\n');
        return 0;
    }
}
