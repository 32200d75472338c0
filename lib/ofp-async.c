/* OpenFlow asynchronous message configuration (see ofp-async.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-async.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>
#include "compiler.h"
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_async);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* Packet-in reasons "action" stands for before OpenFlow 1.4. */
#define PIN_ACTION_BITS ((1u << OFPR_ACTION) | (1u << OFPR_ACTION_SET)  \
                         | (1u << OFPR_GROUP) | (1u << OFPR_PACKET_OUT))

/* Each type's name as ovs-ofctl prints it, the bits OpenFlow 1.4 allows,
 * and the names of the reasons. */
static const struct async_type_info {
    const char *name;
    uint32_t bits14;            /* OpenFlow 1.4+. */
    uint32_t bits13;            /* Before 1.4 (types past FLOW_REMOVED:
                                 * none). */
    const char *reasons[6];
} types[OAM_N_TYPES] = {
    [OAM_PACKET_IN] = { "PACKET_IN", 0x3f, 0x7,
                        { "no_match", "action", "invalid_ttl", "action_set",
                          "group", "packet_out" } },
    [OAM_PORT_STATUS] = { "PORT_STATUS", 0x7, 0x7,
                          { "add", "delete", "modify" } },
    [OAM_FLOW_REMOVED] = { "FLOW_REMOVED", 0x3f, 0xf,
                           { "idle", "hard", "delete", "group_delete",
                             "meter_delete", "eviction" } },
    [OAM_ROLE_STATUS] = { "ROLE_STATUS", 0x7, 0,
                          { "primary_request", "configuration_changed",
                            "experimenter_data_changed" } },
    [OAM_TABLE_STATUS] = { "TABLE_STATUS", 0x18, 0,
                           { NULL, NULL, NULL, "vacancy_down",
                             "vacancy_up" } },
    [OAM_REQUESTFORWARD] = { "REQUESTFORWARD", 0x3, 0,
                             { "group_mod_request", "meter_mod_request" } },
};

static uint32_t legacy_to_mask(enum ofputil_async_msg_type, uint32_t wire);
static uint32_t mask_to_legacy(enum ofputil_async_msg_type, uint32_t mask);
static void put_prop(struct ofpbuf *, uint16_t type, uint32_t mask);

/* See ofp-async.h. */
struct ofputil_async_cfg
ofputil_async_cfg_default(enum ofp_version version DPS_UNUSED)
{
    struct ofputil_async_cfg cfg;

    memset(&cfg, 0, sizeof cfg);
    cfg.master[OAM_PACKET_IN] = 0x3f & ~(1u << OFPR_INVALID_TTL);
    cfg.master[OAM_PORT_STATUS] = 0x7;
    cfg.slave[OAM_PORT_STATUS] = 0x7;
    cfg.master[OAM_FLOW_REMOVED] = 0x3f;
    return cfg;
}

/* See ofp-async.h. */
enum ofperr
ofputil_decode_set_async_config(const struct ofp_header *oh,
                                struct ofputil_async_cfg *cfg)
{
    struct ofpbuf b;
    enum ofpraw raw;

    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }
    if (raw == OFPRAW_NXT_SET_ASYNC_CONFIG || raw == OFPRAW_OFPT13_SET_ASYNC
        || raw == OFPRAW_OFPT13_GET_ASYNC_REPLY) {
        const uint8_t *p = b.data;
        for (int t = OAM_PACKET_IN; t <= OAM_FLOW_REMOVED; t++) {
            cfg->master[t] = legacy_to_mask(t, ofp_get_be32(p + 8 * t));
            cfg->slave[t] = legacy_to_mask(t, ofp_get_be32(p + 8 * t + 4));
        }
        return 0;
    }

    while (b.size) {
        if (b.size < 4) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        const uint8_t *p = b.data;
        uint16_t type = ofp_get_be16(p);
        uint16_t len = ofp_get_be16(p + 2);
        if (len < 4 || (len + 7u) / 8 * 8 > b.size) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        if (type >= 2 * OAM_N_TYPES) {
            VLOG_WARN_RL(&rl, "unknown async config property type %"PRIu16,
                         type);
            return OFPERR_OFPACFC_UNSUPPORTED;
        }
        if (len != 8) {
            return OFPERR_OFPBPC_BAD_LEN;
        }

        const struct async_type_info *info = &types[type / 2];
        uint32_t mask = ofp_get_be32(p + 4);
        if (mask & ~info->bits14) {
            VLOG_WARN_RL(&rl, "bad value %#"PRIx32" for %s (allowed mask "
                         "%#"PRIx32")", mask, info->name, info->bits14);
            return OFPERR_OFPACFC_INVALID;
        }
        if (type % 2) {
            cfg->master[type / 2] = mask;
        } else {
            cfg->slave[type / 2] = mask;
        }
        ofpbuf_pull(&b, 8);
    }
    return 0;
}

/* See ofp-async.h. */
struct ofpbuf *
ofputil_encode_get_async_reply(const struct ofp_header *request,
                               const struct ofputil_async_cfg *cfg)
{
    struct ofpbuf *b;

    if (request->version < OFP14_VERSION) {
        b = ofpraw_alloc_reply(OFPRAW_OFPT13_GET_ASYNC_REPLY, request, 0);
        uint8_t *p = ofpbuf_put_zeros(b, 24);
        for (int t = OAM_PACKET_IN; t <= OAM_FLOW_REMOVED; t++) {
            ofp_put_be32(p + 8 * t, mask_to_legacy(t, cfg->master[t]));
            ofp_put_be32(p + 8 * t + 4, mask_to_legacy(t, cfg->slave[t]));
        }
    } else {
        b = ofpraw_alloc_reply(OFPRAW_OFPT14_GET_ASYNC_REPLY, request,
                               16 * OAM_N_TYPES);
        for (int t = 0; t < OAM_N_TYPES; t++) {
            put_prop(b, 2 * t, cfg->slave[t]);
            put_prop(b, 2 * t + 1, cfg->master[t]);
        }
    }
    ofpmsg_update_length(b);
    return b;
}

/* See ofp-async.h. */
enum ofperr
ofp_print_async_config(struct ds *s, const struct ofp_header *oh)
{
    struct ofputil_async_cfg cfg;

    memset(&cfg, 0, sizeof cfg);
    enum ofperr error = ofputil_decode_set_async_config(oh, &cfg);
    if (error) {
        return error;
    }

    bool of14 = oh->version >= OFP14_VERSION;
    enum ofpraw raw;
    if (!ofpraw_decode_partial(&raw, oh, ntohs(oh->length))
        && raw == OFPRAW_NXT_SET_ASYNC_CONFIG2) {
        of14 = true;
    }
    ds_put_char(s, '\n');
    for (int role = 0; role < 2; role++) {
        const uint32_t *masks = role ? cfg.slave : cfg.master;

        ds_put_format(s, "%s %s:\n", role ? "\n" : "",
                      role ? "secondary" : "primary");
        for (int t = 0; t < OAM_N_TYPES; t++) {
            const struct async_type_info *info = &types[t];
            uint32_t shown = masks[t] & (of14 ? info->bits14 : info->bits13);

            ds_put_format(s, "%16s:", info->name);
            if (!shown) {
                ds_put_cstr(s, " (off)");
            }
            for (int r = 0; r < 6; r++) {
                if (shown & (1u << r) && info->reasons[r]) {
                    ds_put_format(s, " %s", info->reasons[r]);
                }
            }
            ds_put_char(s, '\n');
        }
    }
    return 0;
}

/* The mask of an OpenFlow 1.3 (or NXT_SET_ASYNC_CONFIG) wire mask of
 * 'type': the bits the version has, "action" for the reasons it stands
 * for. */
static uint32_t
legacy_to_mask(enum ofputil_async_msg_type type, uint32_t wire)
{
    uint32_t mask = wire & types[type].bits13;

    if (type == OAM_PACKET_IN && mask & (1u << OFPR_ACTION)) {
        mask |= PIN_ACTION_BITS;
    }
    return mask;
}

/* The OpenFlow 1.3 wire mask for 'mask' of 'type'. */
static uint32_t
mask_to_legacy(enum ofputil_async_msg_type type, uint32_t mask)
{
    uint32_t wire = mask & types[type].bits13;

    if (type == OAM_PACKET_IN && mask & PIN_ACTION_BITS) {
        wire |= 1u << OFPR_ACTION;
    }
    return wire;
}

static void
put_prop(struct ofpbuf *b, uint16_t type, uint32_t mask)
{
    uint8_t *p = ofpbuf_put_zeros(b, 8);

    ofp_put_be16(p, type);
    ofp_put_be16(p + 2, 8);
    ofp_put_be32(p + 4, mask);
}
