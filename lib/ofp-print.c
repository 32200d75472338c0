/* Printing OpenFlow messages as ovs-ofctl ofp-print does.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-print.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"

static enum ofperr print_body(struct ds *, const struct ofp_header *,
                              enum ofpraw, int verbosity);

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
            error = print_body(s, oh, raw, verbosity);
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
        uint16_t flags = ofpmp_flags(oh);
        if (flags & OFPSF_REPLY_MORE) {
            ds_put_cstr(s, " flags=[more]");
            flags &= ~OFPSF_REPLY_MORE;
        }
        if (flags) {
            ds_put_format(s, " ***unknown flags 0x%04"PRIx16"***", flags);
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

static enum ofperr
print_body(struct ds *s, const struct ofp_header *oh, enum ofpraw raw,
           int verbosity)
{
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
    case OFPRAW_OFPT10_FEATURES_REPLY:
    case OFPRAW_OFPT13_FEATURES_REPLY:
        return print_features_reply(s, oh, body);
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
    case OFPRAW_NXT_FLOW_MOD:
        return ofp_print_flow_mod(s, oh);
    case OFPRAW_OFPST10_FLOW_REQUEST:
    case OFPRAW_OFPST10_AGGREGATE_REQUEST:
    case OFPRAW_NXST_FLOW_REQUEST:
    case OFPRAW_NXST_AGGREGATE_REQUEST:
        return ofp_print_flow_stats_request(s, oh);
    case OFPRAW_OFPST10_FLOW_REPLY:
    case OFPRAW_NXST_FLOW_REPLY:
        return ofp_print_flow_stats_reply(s, oh);
    case OFPRAW_OFPT10_FLOW_REMOVED:
    case OFPRAW_NXT_FLOW_REMOVED:
        return ofp_print_flow_removed(s, oh);
    case OFPRAW_OFPST10_AGGREGATE_REPLY:
    case OFPRAW_OFPST13_AGGREGATE_REPLY:
    case OFPRAW_NXST_AGGREGATE_REPLY:
        ds_put_format(s, " packet_count=%"PRIu64" byte_count=%"PRIu64
                      " flow_count=%"PRIu32"\n",
                      ofp_get_be64(body), ofp_get_be64(body + 8),
                      ofp_get_be32(body + 16));
        return 0;
    default:
        ds_put_char(s, '\n');
        return 0;
    }
}
