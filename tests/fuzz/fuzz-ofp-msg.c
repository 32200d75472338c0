/* Fuzz target: OpenFlow message decoding.
 *
 * Input: bytes as a peer might send them.  Checks that printing any input
 * (ovs-ofctl ofp-print's path) is safe, that the message decoder accepts
 * only what it can fully walk, and that what decodes re-encodes to the
 * same meaning: hello bitmaps, port descriptions, port mods, and the flow
 * messages (flow_mod, flow and aggregate stats requests, flow_removed in
 * OpenFlow 1.0 and NXM forms; flow stats replies in every form, 1.5's
 * included, are walked), packet-outs (1.0, 1.1-1.4 and 1.5's match-based
 * layout) and bundle control and add messages (1.4 and ONF's 1.3 forms,
 * the bundled message decoded as the switch does).  The
 * input is also tried as an OpenFlow 1.0 action list, which must survive
 * decoding, encoding and decoding again unchanged.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "fuzz.h"
#include "ofp-actions.h"
#include "ofp-async.h"
#include "ofp-bundle.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-port.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "util.h"

static void
check_ports(enum ofp_version version, const void *body, size_t size)
{
    struct ofpbuf b, copy;

    ofpbuf_use_const(&b, body, size);
    ofpbuf_init(&copy, 0);
    for (;;) {
        struct ofputil_phy_port pp, pp2;
        if (ofputil_pull_phy_port(version, &b, &pp)) {
            break;
        }

        ofpbuf_clear(&copy);
        ofputil_put_phy_port(version, &pp, &copy);
        FUZZ_CHECK(!ofputil_pull_phy_port(version, &copy, &pp2),
                   "encoded port does not decode");
        FUZZ_CHECK(pp.port_no == pp2.port_no
                   && !memcmp(&pp.hw_addr, &pp2.hw_addr, sizeof pp.hw_addr)
                   && !strcmp(pp.name, pp2.name)
                   && pp.config == pp2.config && pp.state == pp2.state,
                   "port does not survive re-encoding");
    }
    ofpbuf_uninit(&copy);
}

static void
check_actions(const uint8_t *data, size_t size)
{
    struct ofpbuf in, ofpacts, ofpacts2, out;

    ofpbuf_use_const(&in, data, size & ~(size_t) 7);
    ofpbuf_init(&ofpacts, 0);
    if (!ofpacts_pull_openflow_actions(&in, size & ~(size_t) 7,
                                       OFP10_VERSION, &ofpacts)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofpacts_format(ofpacts.data, ofpacts.size, NULL, &s);
        ds_destroy(&s);

        ofpbuf_init(&out, 0);
        ofpacts_put_openflow_actions(ofpacts.data, ofpacts.size, &out,
                                     OFP10_VERSION);
        ofpbuf_init(&ofpacts2, 0);
        struct ofpbuf out2;
        ofpbuf_use_const(&out2, out.data, out.size);
        FUZZ_CHECK(!ofpacts_pull_openflow_actions(&out2, out.size,
                                                  OFP10_VERSION, &ofpacts2),
                   "encoded actions do not decode");
        FUZZ_CHECK(ofpacts_equal(ofpacts.data, ofpacts.size,
                                 ofpacts2.data, ofpacts2.size),
                   "actions do not survive re-encoding");
        ofpbuf_uninit(&ofpacts2);
        ofpbuf_uninit(&out);
    }
    ofpbuf_uninit(&ofpacts);
}

/* A group_mod that decodes re-encodes to one that decodes to the same
 * group, and encoding that gives the same bytes. */
static void
check_group_mod(const struct ofp_header *oh)
{
    struct ofputil_group_mod gm, gm2, gm3;

    if (ofputil_decode_group_mod(oh, &gm)) {
        return;
    }
    struct ofpbuf *b = ofputil_encode_group_mod(oh->version, &gm);
    FUZZ_CHECK(!ofputil_decode_group_mod(b->data, &gm2),
               "encoded group_mod does not decode");
    FUZZ_CHECK(gm.command == gm2.command && gm.type == gm2.type
               && gm.group_id == gm2.group_id
               && gm.n_buckets == gm2.n_buckets,
               "group_mod does not survive re-encoding");
    for (size_t i = 0; i < gm.n_buckets; i++) {
        const struct ofputil_bucket *x = &gm.buckets[i], *y = &gm2.buckets[i];
        FUZZ_CHECK(x->bucket_id == y->bucket_id && x->weight == y->weight
                   && x->watch_port == y->watch_port
                   && x->watch_group == y->watch_group,
                   "group_mod bucket does not survive re-encoding");
    }
    struct ofpbuf *b2 = ofputil_encode_group_mod(oh->version, &gm2);
    FUZZ_CHECK(!ofputil_decode_group_mod(b2->data, &gm3),
               "re-encoded group_mod does not decode");
    struct ofpbuf *b3 = ofputil_encode_group_mod(oh->version, &gm3);
    /* The xids differ; the rest must not. */
    FUZZ_CHECK(b2->size == b3->size
               && !memcmp((uint8_t *) b2->data + 8, (uint8_t *) b3->data + 8,
                          b2->size - 8),
               "group_mod encoding is not stable");
    ofpbuf_delete(b);
    ofpbuf_delete(b2);
    ofpbuf_delete(b3);
    ofputil_group_mod_uninit(&gm);
    ofputil_group_mod_uninit(&gm2);
    ofputil_group_mod_uninit(&gm3);
}

static enum ofputil_protocol
protocol_of(enum ofpraw raw)
{
    return (raw == OFPRAW_NXT_FLOW_MOD || raw == OFPRAW_NXST_FLOW_REQUEST
            || raw == OFPRAW_NXST_AGGREGATE_REQUEST
            || raw == OFPRAW_NXT_FLOW_REMOVED
            ? OFPUTIL_P_OF10_NXM
            : raw == OFPRAW_OFPT13_FLOW_REMOVED ? OFPUTIL_P_OF13_OXM
            : raw == OFPRAW_OFPT15_FLOW_REMOVED ? OFPUTIL_P_OF15_OXM
            : OFPUTIL_P_OF10_STD);
}

/* A packet-in that decodes re-encodes, in its own format and version, to
 * one that decodes and encodes to the same bytes. */
static void
check_packet_in(const struct ofp_header *oh, enum ofpraw raw)
{
    enum nx_packet_in_format format = (raw == OFPRAW_NXT_PACKET_IN2
                                       ? NXPIF_NXT_PACKET_IN2
                                       : raw == OFPRAW_NXT_PACKET_IN
                                       ? NXPIF_NXT_PACKET_IN
                                       : NXPIF_STANDARD);
    struct ofputil_packet_in pin, pin2;

    if (ofputil_decode_packet_in(&pin, oh)) {
        return;
    }
    struct ofpbuf *b = ofputil_encode_packet_in(&pin, oh->version, format);
    FUZZ_CHECK(!ofputil_decode_packet_in(&pin2, b->data),
               "encoded packet-in does not decode");
    FUZZ_CHECK(pin2.packet_len == pin.packet_len
               && (!pin.packet_len
                   || !memcmp(pin2.packet, pin.packet, pin.packet_len)),
               "packet-in data does not survive re-encoding");
    struct ofpbuf *b2 = ofputil_encode_packet_in(&pin2, oh->version, format);
    FUZZ_CHECK(b->size == b2->size && !memcmp(b->data, b2->data, b->size),
               "packet-in encoding is not stable");
    ofpbuf_delete(b);
    ofpbuf_delete(b2);
}

/* A set_async that decodes, as a get_async reply of a version that has
 * one, decodes to the same configuration. */
static void
check_async(const struct ofp_header *oh)
{
    struct ofputil_async_cfg cfg, cfg2;

    memset(&cfg, 0, sizeof cfg);
    if (ofputil_decode_set_async_config(oh, &cfg)
        || oh->version < OFP13_VERSION) {
        return;
    }
    struct ofpbuf *b = ofputil_encode_get_async_reply(oh, &cfg);
    memset(&cfg2, 0, sizeof cfg2);
    FUZZ_CHECK(!ofputil_decode_set_async_config(b->data, &cfg2),
               "encoded get_async reply does not decode");
    if (oh->version >= OFP14_VERSION) {
        FUZZ_CHECK(!memcmp(&cfg, &cfg2, sizeof cfg),
                   "async configuration does not survive re-encoding");
    }
    ofpbuf_delete(b);
}

static void
check_flow_mod(const struct ofp_header *oh, enum ofpraw raw)
{
    struct ofputil_flow_mod fm, fm2;
    struct ofpbuf ofpacts, ofpacts2;

    ofpbuf_init(&ofpacts, 0);
    ofpbuf_init(&ofpacts2, 0);
    if (!ofputil_decode_flow_mod(&fm, oh, true, &ofpacts)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        match_format(&fm.match, NULL, &s, fm.priority, OFP_DEFAULT_PRIORITY);
        ds_destroy(&s);

        /* The cookie field on the wire is the new cookie; a modify that
         * keeps cookies sends the filter cookie there instead (as
         * ovs-ofctl does), which decodes as the new one. */
        uint64_t wire_cookie = (fm.command == OFPFC_ADD || fm.modify_cookie
                                ? fm.new_cookie : fm.cookie);
        struct ofpbuf *b = ofputil_encode_flow_mod(&fm, protocol_of(raw),
                                                   true);
        FUZZ_CHECK(!ofputil_decode_flow_mod(&fm2, b->data, true, &ofpacts2),
                   "encoded flow_mod does not decode");
        /* OpenFlow 1.0 gives a flow without wildcard bits on the wire the
         * highest priority.  A match whose wildcard bits cover only what
         * cannot matter (the VLAN PCP of "no VLAN") keeps its priority,
         * but re-encodes without those bits, as Open vSwitch's encoder
         * writes it too, and so comes back with priority 65535. */
        bool exact_again = (protocol_of(raw) == OFPUTIL_P_OF10_STD
                            && !ofputil_ofp10_wildcards(
                                (const uint8_t *) b->data + 8));
        FUZZ_CHECK(match_equal(&fm.match, &fm2.match)
                   && (fm.priority == fm2.priority
                       || (exact_again && fm2.priority == UINT16_MAX))
                   && fm.command == fm2.command
                   && fm.table_id == fm2.table_id
                   && fm.cookie_mask == fm2.cookie_mask
                   && wire_cookie == fm2.new_cookie
                   && fm.flags == fm2.flags
                   && ofpacts_equal(fm.ofpacts, fm.ofpacts_len,
                                    fm2.ofpacts, fm2.ofpacts_len),
                   "flow_mod does not survive re-encoding");
        ofpbuf_delete(b);

        /* NXM says whatever OpenFlow 1.0 can, to the same rule: a switch
         * must find a flow whichever of the two added it. */
        if (raw == OFPRAW_OFPT10_FLOW_MOD) {
            b = ofputil_encode_flow_mod(&fm, OFPUTIL_P_OF10_NXM, true);
            FUZZ_CHECK(!ofputil_decode_flow_mod(&fm2, b->data, true,
                                                &ofpacts2)
                       && match_equal(&fm.match, &fm2.match)
                       && fm.priority == fm2.priority,
                       "OpenFlow 1.0 flow_mod differs as NXM");
            ofpbuf_delete(b);
        }
    }
    ofpbuf_uninit(&ofpacts);
    ofpbuf_uninit(&ofpacts2);
}

static void
check_flow_stats_request(const struct ofp_header *oh, enum ofpraw raw)
{
    struct ofputil_flow_stats_request fsr, fsr2;

    if (!ofputil_decode_flow_stats_request(&fsr, oh)) {
        struct ofpbuf *b = ofputil_encode_flow_stats_request(
            &fsr, protocol_of(raw));
        FUZZ_CHECK(!ofputil_decode_flow_stats_request(&fsr2, b->data),
                   "encoded flow stats request does not decode");
        FUZZ_CHECK(match_equal(&fsr.match, &fsr2.match)
                   && fsr.aggregate == fsr2.aggregate
                   && fsr.table_id == fsr2.table_id
                   && fsr.out_port == fsr2.out_port
                   && fsr.cookie == fsr2.cookie
                   && fsr.cookie_mask == fsr2.cookie_mask,
                   "flow stats request does not survive re-encoding");
        ofpbuf_delete(b);
    }
}

static void
check_flow_removed(const struct ofp_header *oh, enum ofpraw raw)
{
    struct ofputil_flow_removed fr, fr2;

    if (!ofputil_decode_flow_removed(&fr, oh)) {
        struct ofpbuf *b = ofputil_encode_flow_removed(&fr,
                                                       protocol_of(raw));
        FUZZ_CHECK(!ofputil_decode_flow_removed(&fr2, b->data),
                   "encoded flow_removed does not decode");
        /* An unknown count (all-ones) goes out as 0, as Open vSwitch
         * sends it. */
        uint64_t packets = (fr.packet_count == UINT64_MAX
                            ? 0 : fr.packet_count);
        FUZZ_CHECK(match_equal(&fr.match, &fr2.match)
                   && fr.cookie == fr2.cookie
                   && fr.priority == fr2.priority
                   && packets == fr2.packet_count,
                   "flow_removed does not survive re-encoding");
        ofpbuf_delete(b);
    }
}

static void
check_flow_stats_reply(const struct ofp_header *oh)
{
    struct ofpbuf b, ofpacts;
    struct ofputil_flow_stats fs;

    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    ofpbuf_init(&ofpacts, 0);
    while (!ofputil_decode_flow_stats_reply(&fs, &b, &ofpacts)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofputil_flow_stats_format(&s, &fs, NULL, true);
        ds_destroy(&s);
    }
    ofpbuf_uninit(&ofpacts);
}

static void
check_packet_out(const struct ofp_header *oh)
{
    struct ofputil_packet_out po, po2;
    struct ofpbuf ofpacts, ofpacts2;

    ofpbuf_init(&ofpacts, 0);
    ofpbuf_init(&ofpacts2, 0);
    if (!ofputil_decode_packet_out(&po, oh, &ofpacts)) {
        struct ofpbuf *b = ofputil_encode_packet_out(&po, oh->version);
        FUZZ_CHECK(!ofputil_decode_packet_out(&po2, b->data, &ofpacts2),
                   "encoded packet-out does not decode");
        FUZZ_CHECK(po.buffer_id == po2.buffer_id && po.in_port == po2.in_port
                   && po.packet_len == po2.packet_len
                   && !memcmp(po.packet, po2.packet, po.packet_len)
                   && ofpacts_equal(po.ofpacts, po.ofpacts_len,
                                    po2.ofpacts, po2.ofpacts_len),
                   "packet-out does not survive re-encoding");
        ofpbuf_delete(b);
    }
    ofpbuf_uninit(&ofpacts);
    ofpbuf_uninit(&ofpacts2);
}

/* Bundle control: re-encodes to the same fields.  Bundle add: the carried
 * message is whole and of the bundle's version and xid, re-encodes to the
 * same bytes, and is checked by its own decoder. */
static void
check_bundle(const struct ofp_header *oh, enum ofptype type)
{
    if (type == OFPTYPE_BUNDLE_CONTROL) {
        struct ofputil_bundle_ctrl bc, bc2;
        if (!ofputil_decode_bundle_ctrl(oh, &bc)) {
            struct ofpbuf *b = ofputil_encode_bundle_ctrl_request(
                oh->version, &bc);
            FUZZ_CHECK(!ofputil_decode_bundle_ctrl(b->data, &bc2)
                       && bc.bundle_id == bc2.bundle_id
                       && bc.type == bc2.type && bc.flags == bc2.flags,
                       "bundle control does not survive re-encoding");
            ofpbuf_delete(b);
        }
        return;
    }

    struct ofputil_bundle_add add;
    enum ofptype inner;
    if (ofputil_decode_bundle_add(oh, &add, &inner)) {
        return;
    }
    size_t inner_len = ntohs(add.msg->length);
    FUZZ_CHECK(add.msg->version == oh->version && add.msg->xid == oh->xid
               && (const uint8_t *) add.msg + inner_len
                  <= (const uint8_t *) oh + ntohs(oh->length),
               "bundled message is not whole");
    struct ofpbuf *b = ofputil_encode_bundle_add(add.bundle_id, add.flags,
                                                 add.msg);
    struct ofputil_bundle_add add2;
    enum ofptype inner2;
    FUZZ_CHECK(!ofputil_decode_bundle_add(b->data, &add2, &inner2)
               && add2.bundle_id == add.bundle_id
               && add2.flags == add.flags && inner2 == inner
               && !memcmp(add2.msg, add.msg, inner_len),
               "bundle add does not survive re-encoding");
    ofpbuf_delete(b);

    if (inner == OFPTYPE_FLOW_MOD) {
        /* OpenFlow 1.3+ flow_mods: decoded and printed (the re-encoding
         * check is for the OpenFlow 1.0 and NXM forms). */
        struct ofputil_flow_mod fm;
        struct ofpbuf ofpacts;
        ofpbuf_init(&ofpacts, 0);
        if (!ofputil_decode_flow_mod(&fm, add.msg, false, &ofpacts)) {
            struct ds s = DS_EMPTY_INITIALIZER;
            match_format(&fm.match, NULL, &s, fm.priority,
                         OFP_DEFAULT_PRIORITY);
            ofpacts_format(fm.ofpacts, fm.ofpacts_len, NULL, &s);
            ds_destroy(&s);
        }
        ofpbuf_uninit(&ofpacts);
    } else if (inner == OFPTYPE_GROUP_MOD) {
        check_group_mod(add.msg);
    } else if (inner == OFPTYPE_PACKET_OUT) {
        check_packet_out(add.msg);
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_actions(data, size);

    /* Printing takes anything. */
    free(ofp_to_string(data, size, 2));

    if (size < sizeof(struct ofp_header)) {
        return 0;
    }

    /* Decoding: only whole messages, as a connection frames them. */
    struct ofp_header oh;
    memcpy(&oh, data, sizeof oh);
    size_t length = ntohs(oh.length);
    if (length < sizeof oh || length > size) {
        return 0;
    }

    struct ofpbuf *msg = ofpbuf_clone_data(data, length);
    enum ofpraw raw;
    if (!ofpraw_pull(&raw, msg)) {
        FUZZ_CHECK(msg->size + ofpraw_get_hdr_size(raw) == length,
                   "pulled message has the wrong body size");
        const struct ofp_header *moh = msg->header;

        switch (ofptype_from_ofpraw(raw)) {
        case OFPTYPE_HELLO: {
            uint32_t bitmap, bitmap2;
            ofputil_decode_hello(moh, &bitmap);
            if (bitmap & OFPUTIL_SUPPORTED_VERSIONS) {
                struct ofpbuf *hello = ofputil_encode_hello(
                    bitmap & OFPUTIL_SUPPORTED_VERSIONS);
                FUZZ_CHECK(ofputil_decode_hello(hello->data, &bitmap2),
                           "encoded hello does not decode");
                FUZZ_CHECK(bitmap2 == (bitmap & OFPUTIL_SUPPORTED_VERSIONS),
                           "hello bitmap does not survive");
                ofpbuf_delete(hello);
            }
            break;
        }
        case OFPTYPE_PORT_DESC_STATS_REPLY:
            check_ports(moh->version, msg->data, msg->size);
            break;
        case OFPTYPE_FEATURES_REPLY:
            if (moh->version == OFP10_VERSION) {
                check_ports(moh->version, (uint8_t *) msg->data + 24,
                            msg->size - 24);
            }
            break;
        case OFPTYPE_PORT_MOD: {
            struct ofputil_port_mod pm, pm2;
            if (!ofputil_decode_port_mod(moh, &pm)) {
                struct ofpbuf *b = ofputil_encode_port_mod(&pm,
                                                           moh->version);
                FUZZ_CHECK(!ofputil_decode_port_mod(b->data, &pm2),
                           "encoded port mod does not decode");
                FUZZ_CHECK(pm.port_no == pm2.port_no
                           && pm.config == pm2.config
                           && pm.mask == pm2.mask,
                           "port mod does not survive re-encoding");
                ofpbuf_delete(b);
            }
            break;
        }
        case OFPTYPE_FLOW_MOD:
            check_flow_mod(moh, raw);
            break;
        case OFPTYPE_GROUP_MOD:
            check_group_mod(moh);
            break;
        case OFPTYPE_FLOW_STATS_REQUEST:
        case OFPTYPE_AGGREGATE_STATS_REQUEST:
            check_flow_stats_request(moh, raw);
            break;
        case OFPTYPE_FLOW_REMOVED:
            check_flow_removed(moh, raw);
            break;
        case OFPTYPE_PACKET_IN:
            check_packet_in(moh, raw);
            break;
        case OFPTYPE_SET_ASYNC_CONFIG:
        case OFPTYPE_GET_ASYNC_REPLY:
            check_async(moh);
            break;
        case OFPTYPE_FLOW_STATS_REPLY:
            check_flow_stats_reply(moh);
            break;
        case OFPTYPE_AGGREGATE_STATS_REPLY: {
            struct ofputil_aggregate_stats as;
            ofputil_decode_aggregate_stats_reply(&as, moh);
            break;
        }
        case OFPTYPE_PACKET_OUT:
            check_packet_out(moh);
            break;
        case OFPTYPE_BUNDLE_CONTROL:
        case OFPTYPE_BUNDLE_ADD_MESSAGE:
            check_bundle(moh, ofptype_from_ofpraw(raw));
            break;
        default:
            break;
        }
    }
    ofpbuf_delete(msg);
    return 0;
}
