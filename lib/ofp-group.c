/* OpenFlow groups on the wire (see ofp-group.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-group.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "ofp-actions.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_group);

/* OpenFlow 1.5 bucket property types. */
enum {
    OFPGBPT15_WEIGHT = 0,
    OFPGBPT15_WATCH_PORT = 1,
    OFPGBPT15_WATCH_GROUP = 2,
};

static enum ofperr pull_ofp11_buckets(struct ofpbuf *, enum ofp_version,
                                      struct ofputil_group_mod *);
static enum ofperr pull_ofp15_buckets(struct ofpbuf *, size_t buckets_len,
                                      enum ofp_version,
                                      struct ofputil_group_mod *);
static enum ofperr pull_bucket_actions(struct ofpbuf *, size_t len,
                                       enum ofp_version,
                                       struct ofputil_bucket *);
static struct ofputil_bucket *add_bucket(struct ofputil_group_mod *);
static enum ofperr pull_reply_header(const struct ofp_header *,
                                     struct ofpbuf *body);
static enum ofperr check_group_mod(const struct ofputil_group_mod *);
static void put_buckets(struct ofpbuf *, enum ofp_version, uint8_t type,
                        const struct ofputil_bucket *, size_t n);
static void put_be64(uint8_t *, uint64_t);

/* Decodes group_mod 'oh' (its length already checked by ofpraw_decode())
 * into '*gm', which the caller uninitialises on success.  Returns 0 or the
 * error Open vSwitch 3.1 gives for it ('*gm' is then empty). */
enum ofperr
ofputil_decode_group_mod(const struct ofp_header *oh,
                         struct ofputil_group_mod *gm)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);

    memset(gm, 0, sizeof *gm);
    if (error) {
        return error;
    }

    struct ofpbuf msg;
    ofpbuf_use_const(&msg, oh, ntohs(oh->length));
    ofpbuf_pull(&msg, ofpraw_get_hdr_size(raw));

    const uint8_t *p = ofpbuf_pull(&msg, 8);
    gm->command = ofp_get_be16(p);
    gm->type = p[2];
    gm->group_id = ofp_get_be32(p + 4);
    gm->command_bucket_id = OFPG15_BUCKET_ALL;

    if (raw == OFPRAW_OFPT11_GROUP_MOD) {
        error = pull_ofp11_buckets(&msg, oh->version, gm);
    } else {
        p = ofpbuf_pull(&msg, 8);
        size_t buckets_len = ofp_get_be16(p);
        gm->command_bucket_id = ofp_get_be32(p + 4);
        if (buckets_len > msg.size) {
            error = OFPERR_OFPBRC_BAD_LEN;
        } else {
            error = pull_ofp15_buckets(&msg, buckets_len, oh->version, gm);
        }
        /* Group properties (a select group's selection method) are not
         * supported: their presence is an error. */
        if (!error && msg.size) {
            error = OFPERR_OFPBPC_BAD_TYPE;
        }
    }
    if (!error) {
        error = check_group_mod(gm);
    }
    if (error) {
        ofputil_group_mod_uninit(gm);
    }
    return error;
}

/* Encodes 'gm' as a group_mod for 'version' (NXT_GROUP_MOD for OpenFlow
 * 1.0). */
struct ofpbuf *
ofputil_encode_group_mod(enum ofp_version version,
                         const struct ofputil_group_mod *gm)
{
    enum ofpraw raw = (version == OFP10_VERSION ? OFPRAW_NXT_GROUP_MOD
                       : version >= OFP15_VERSION ? OFPRAW_OFPT15_GROUP_MOD
                       : OFPRAW_OFPT11_GROUP_MOD);
    struct ofpbuf *msg = ofpraw_alloc(raw, version, ofpmsg_next_xid(), 0);
    size_t start = msg->size;
    uint8_t *p = ofpbuf_put_zeros(msg, raw == OFPRAW_OFPT11_GROUP_MOD
                                       ? 8 : 16);

    ofp_put_be16(p, gm->command);
    p[2] = gm->type;
    ofp_put_be32(p + 4, gm->group_id);
    if (raw == OFPRAW_OFPT11_GROUP_MOD) {
        put_buckets(msg, version, gm->type, gm->buckets, gm->n_buckets);
    } else {
        ofp_put_be32(p + 12, gm->command_bucket_id);
        size_t buckets_start = msg->size;
        put_buckets(msg, version, gm->type, gm->buckets, gm->n_buckets);
        p = (uint8_t *) msg->data + start;
        ofp_put_be16(p + 8, msg->size - buckets_start);
    }
    ofpmsg_update_length(msg);
    return msg;
}

/* Frees what 'gm' owns. */
void
ofputil_group_mod_uninit(struct ofputil_group_mod *gm)
{
    ofputil_buckets_free(gm->buckets, gm->n_buckets);
    gm->buckets = NULL;
    gm->n_buckets = 0;
}

/* Frees the 'n' buckets of 'buckets' and the array. */
void
ofputil_buckets_free(struct ofputil_bucket *buckets, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(buckets[i].ofpacts);
    }
    free(buckets);
}

/* Returns a deep copy of the 'n' buckets of 'buckets'. */
struct ofputil_bucket *
ofputil_buckets_clone(const struct ofputil_bucket *buckets, size_t n)
{
    struct ofputil_bucket *copy = xmalloc(MAX(n, 1) * sizeof *copy);

    for (size_t i = 0; i < n; i++) {
        copy[i] = buckets[i];
        copy[i].ofpacts = xmemdup(buckets[i].ofpacts,
                                  MAX(buckets[i].ofpacts_len, 1));
    }
    return copy;
}

/* Appends a group description entry for group 'group_id' of 'type' with
 * the 'n' buckets of 'buckets' to 'reply'. */
void
ofputil_append_group_desc(struct ofpbuf *reply, enum ofp_version version,
                          uint32_t group_id, uint8_t type,
                          const struct ofputil_bucket *buckets, size_t n)
{
    bool of15 = version == OFP10_VERSION || version >= OFP15_VERSION;
    size_t start = reply->size;
    uint8_t *p = ofpbuf_put_zeros(reply, of15 ? 16 : 8);

    p[2] = type;
    ofp_put_be32(p + 4, group_id);
    put_buckets(reply, version, type, buckets, n);
    p = (uint8_t *) reply->data + start;
    ofp_put_be16(p, reply->size - start);
    if (of15) {
        ofp_put_be16(p + 8, reply->size - start - 16);
    }
}

/* Appends a group statistics entry for 'gs' to 'reply'. */
void
ofputil_append_group_stats(struct ofpbuf *reply, enum ofp_version version,
                           const struct ofputil_group_stats *gs)
{
    bool durations = version == OFP10_VERSION || version >= OFP13_VERSION;
    size_t size = (durations ? 40 : 32) + 16 * gs->n_buckets;
    uint8_t *p = ofpbuf_put_zeros(reply, size);

    ofp_put_be16(p, size);
    ofp_put_be32(p + 4, gs->group_id);
    ofp_put_be32(p + 8, gs->ref_count);
    put_be64(p + 16, gs->packet_count);
    put_be64(p + 24, gs->byte_count);
    p += 32;
    if (durations) {
        ofp_put_be32(p, gs->duration_sec);
        ofp_put_be32(p + 4, gs->duration_nsec);
        p += 8;
    }
    for (size_t i = 0; i < gs->n_buckets; i++, p += 16) {
        put_be64(p, gs->bucket_packets[i]);
        put_be64(p + 8, gs->bucket_bytes[i]);
    }
}

/* Appends Open vSwitch's group features to 'reply': every type, weights,
 * liveness and chaining, OFPG_MAX groups of each type, and the actions a
 * bucket may hold as 'version''s action bitmap. */
void
ofputil_put_group_features(struct ofpbuf *reply, enum ofp_version version)
{
    uint8_t *p = ofpbuf_put_zeros(reply, 40);
    /* OpenFlow 1.0: output through mod_tp_dst and enqueue (types 0-11);
     * 1.2+: output, set/dec MPLS TTL, push/pop VLAN and MPLS, set_queue,
     * group, set/dec nw TTL and set_field (0 and 15-25). */
    uint32_t actions = version == OFP10_VERSION ? 0x00000fff : 0x03ff8001;

    ofp_put_be32(p, 0xf);
    ofp_put_be32(p + 4, (OFPGFC_SELECT_WEIGHT | OFPGFC_SELECT_LIVENESS
                         | OFPGFC_CHAINING));
    for (int i = 0; i < 4; i++) {
        ofp_put_be32(p + 8 + 4 * i, OFPG_MAX);
        ofp_put_be32(p + 24 + 4 * i, actions);
    }
}

/* Returns the group that group stats or desc request 'oh' asks for:
 * OFPG_ALL for OpenFlow 1.1-1.4 desc requests, which cannot say. */
uint32_t
ofputil_decode_group_request(const struct ofp_header *oh)
{
    enum ofpraw raw;

    if (ofpraw_decode(&raw, oh) || raw == OFPRAW_OFPST11_GROUP_DESC_REQUEST) {
        return OFPG_ALL;
    }
    return ofp_get_be32((const uint8_t *) oh + ofpraw_get_hdr_size(raw));
}

bool
ofputil_group_from_string(const char *s, uint32_t *group_id)
{
    char *end;

    if (!strcasecmp(s, "all")) {
        *group_id = OFPG_ALL;
        return true;
    } else if (!strcasecmp(s, "any")) {
        *group_id = OFPG_ANY;
        return true;
    }
    unsigned long long n = strtoull(s, &end, 10);
    if (*s >= '0' && *s <= '9' && !*end && n <= UINT32_MAX) {
        *group_id = n;
        return true;
    }
    VLOG_WARN("%s is not a valid group ID.  (Valid group IDs are 32-bit "
              "nonnegative integers or the keywords ANY or ALL.)", s);
    return false;
}

/* Prints desc reply 'oh''s groups, one " group_id=..." line each. */
enum ofperr
ofputil_format_group_desc_reply(struct ds *s, const struct ofp_header *oh,
                                const struct ofputil_port_map *port_map)
{
    bool of15 = oh->version == OFP10_VERSION || oh->version >= OFP15_VERSION;
    struct ofpbuf msg;
    enum ofperr error = pull_reply_header(oh, &msg);

    if (error) {
        return error;
    }
    while (msg.size) {
        const uint8_t *p = msg.data;
        size_t hdr = of15 ? 16 : 8;
        size_t len = msg.size >= hdr ? ofp_get_be16(p) : 0;
        if (len < hdr || len > msg.size || len % 8) {
            return OFPERR_OFPBRC_BAD_LEN;
        }

        struct ofputil_group_mod gm;
        struct ofpbuf entry;
        memset(&gm, 0, sizeof gm);
        gm.type = p[2];
        gm.group_id = ofp_get_be32(p + 4);
        ofpbuf_use_const(&entry, p + hdr, len - hdr);
        if (of15) {
            size_t buckets_len = ofp_get_be16(p + 8);
            error = (buckets_len > entry.size ? OFPERR_OFPBRC_BAD_LEN
                     : pull_ofp15_buckets(&entry, buckets_len, oh->version,
                                          &gm));
        } else {
            error = pull_ofp11_buckets(&entry, oh->version, &gm);
        }
        if (!error) {
            const char *type = ofputil_group_type_to_string(gm.type);
            ds_put_format(s, "\n group_id=%"PRIu32",type=", gm.group_id);
            if (type) {
                ds_put_cstr(s, type);
            } else {
                ds_put_format(s, "%"PRIu8, gm.type);
            }
            ofputil_format_buckets(s, oh->version, gm.buckets, gm.n_buckets,
                                   port_map);
        }
        ofputil_group_mod_uninit(&gm);
        if (error) {
            return error;
        }
        ofpbuf_pull(&msg, len);
    }
    ds_put_char(s, '\n');
    return 0;
}

/* Prints stats reply 'oh''s groups, one " group_id=..." line each. */
enum ofperr
ofputil_format_group_stats_reply(struct ds *s, const struct ofp_header *oh)
{
    bool durations = oh->version == OFP10_VERSION
                     || oh->version >= OFP13_VERSION;
    size_t hdr = durations ? 40 : 32;
    struct ofpbuf msg;
    enum ofperr error = pull_reply_header(oh, &msg);

    if (error) {
        return error;
    }
    while (msg.size) {
        const uint8_t *p = msg.data;
        size_t len = msg.size >= hdr ? ofp_get_be16(p) : 0;
        if (len < hdr || len > msg.size || (len - hdr) % 16) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        ds_put_format(s, "\n group_id=%"PRIu32, ofp_get_be32(p + 4));
        if (durations) {
            uint32_t nsec = ofp_get_be32(p + 36);
            ds_put_format(s, ",duration=%"PRIu32".%03"PRIu32"s",
                          ofp_get_be32(p + 32), nsec / 1000000);
        }
        ds_put_format(s, ",ref_count=%"PRIu32",packet_count=%"PRIu64
                      ",byte_count=%"PRIu64, ofp_get_be32(p + 8),
                      ofp_get_be64(p + 16), ofp_get_be64(p + 24));
        for (size_t i = 0; hdr + 16 * i < len; i++) {
            const uint8_t *q = p + hdr + 16 * i;
            ds_put_format(s, ",bucket%zu:packet_count=%"PRIu64
                          ",byte_count=%"PRIu64, i, ofp_get_be64(q),
                          ofp_get_be64(q + 8));
        }
        ofpbuf_pull(&msg, len);
    }
    ds_put_char(s, '\n');
    return 0;
}

/* Returns Open vSwitch's name for group 'type' ("all", "select",
 * "indirect", "ff"), or NULL. */
const char *
ofputil_group_type_to_string(uint8_t type)
{
    switch (type) {
    case OFPGT11_ALL:
        return "all";
    case OFPGT11_SELECT:
        return "select";
    case OFPGT11_INDIRECT:
        return "indirect";
    case OFPGT11_FF:
        return "ff";
    default:
        return NULL;
    }
}

/* Appends ",bucket=..." for each of the 'n' buckets, as Open vSwitch's
 * ovs-ofctl prints a group of 'version' (bucket ids in OpenFlow 1.0 and
 * 1.5, where the wire carries them). */
void
ofputil_format_buckets(struct ds *s, enum ofp_version version,
                       const struct ofputil_bucket *buckets, size_t n,
                       const struct ofputil_port_map *port_map)
{
    bool ids = version == OFP10_VERSION || version >= OFP15_VERSION;

    for (size_t i = 0; i < n; i++) {
        const struct ofputil_bucket *b = &buckets[i];

        ds_put_cstr(s, ",bucket=");
        if (ids) {
            ds_put_format(s, "bucket_id:%"PRIu32",", b->bucket_id);
        }
        if (b->weight) {
            ds_put_format(s, "weight:%"PRIu16",", b->weight);
        }
        if (b->watch_port != OFPUTIL_WATCH_PORT_ANY) {
            ofp_port_t port;
            ds_put_cstr(s, "watch_port:");
            if (ofp_port_from_ofp11(b->watch_port, &port)) {
                ofputil_format_port(port, s);
            } else {
                ds_put_format(s, "%"PRIu32, b->watch_port);
            }
            ds_put_char(s, ',');
        }
        if (b->watch_group != OFPG_ANY) {
            ds_put_format(s, "watch_group:%"PRIu32",", b->watch_group);
        }
        ds_put_cstr(s, "actions=");
        ofpacts_format(b->ofpacts, b->ofpacts_len, port_map, s);
    }
}

/* OpenFlow 1.1-1.4 buckets: the rest of 'msg'. */
static enum ofperr
pull_ofp11_buckets(struct ofpbuf *msg, enum ofp_version version,
                   struct ofputil_group_mod *gm)
{
    while (msg->size) {
        if (msg->size < 16) {
            return OFPERR_OFPGMFC_BAD_BUCKET;
        }
        const uint8_t *p = msg->data;
        size_t len = ofp_get_be16(p);
        if (len < 16 || len > msg->size || len % 8) {
            return OFPERR_OFPGMFC_BAD_BUCKET;
        }
        ofpbuf_pull(msg, 16);

        struct ofputil_bucket *b = add_bucket(gm);
        b->bucket_id = gm->n_buckets - 1;
        b->weight = ofp_get_be16(p + 2);
        b->watch_port = ofp_get_be32(p + 4);
        b->watch_group = ofp_get_be32(p + 8);

        enum ofperr error = pull_bucket_actions(msg, len - 16, version, b);
        if (error) {
            return error;
        }
    }
    return 0;
}

/* OpenFlow 1.5 buckets: 'buckets_len' bytes of 'msg'. */
static enum ofperr
pull_ofp15_buckets(struct ofpbuf *msg, size_t buckets_len,
                   enum ofp_version version, struct ofputil_group_mod *gm)
{

    while (buckets_len) {
        if (buckets_len < 8) {
            return OFPERR_OFPGMFC_BAD_BUCKET;
        }
        const uint8_t *p = msg->data;
        size_t len = ofp_get_be16(p);
        size_t actions_len = ofp_get_be16(p + 2);
        if (len < 8 || len > buckets_len || len % 8
            || actions_len > len - 8) {
            return OFPERR_OFPGMFC_BAD_BUCKET;
        }
        ofpbuf_pull(msg, 8);
        buckets_len -= len;

        struct ofputil_bucket *b = add_bucket(gm);
        b->bucket_id = ofp_get_be32(p + 4);
        if (b->bucket_id > OFPG15_BUCKET_MAX) {
            return OFPERR_OFPGMFC_BAD_BUCKET;
        }

        enum ofperr error = pull_bucket_actions(msg, actions_len, version,
                                                b);
        if (error) {
            return error;
        }

        size_t props_len = len - 8 - actions_len;
        while (props_len) {
            const uint8_t *q = msg->data;
            if (props_len < 4) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            size_t plen = ofp_get_be16(q + 2);
            size_t padded = (plen + 7) & ~(size_t) 7;
            if (plen < 4 || padded > props_len) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            switch (ofp_get_be16(q)) {
            case OFPGBPT15_WEIGHT:
                if (plen != 8) {
                    return OFPERR_OFPBPC_BAD_LEN;
                }
                b->weight = ofp_get_be16(q + 4);
                break;
            case OFPGBPT15_WATCH_PORT:
                if (plen != 8) {
                    return OFPERR_OFPBPC_BAD_LEN;
                }
                b->watch_port = ofp_get_be32(q + 4);
                break;
            case OFPGBPT15_WATCH_GROUP:
                if (plen != 8) {
                    return OFPERR_OFPBPC_BAD_LEN;
                }
                b->watch_group = ofp_get_be32(q + 4);
                break;
            default:
                return OFPERR_OFPBPC_BAD_TYPE;
            }
            ofpbuf_pull(msg, padded);
            props_len -= padded;
        }
    }

    for (size_t i = 0; i < gm->n_buckets; i++) {
        for (size_t j = 0; j < i; j++) {
            if (gm->buckets[i].bucket_id == gm->buckets[j].bucket_id) {
                return OFPERR_OFPGMFC_BUCKET_EXISTS;
            }
        }
    }
    return 0;
}

/* Pulls 'len' bytes of actions off 'msg' into 'b' (which owns them, even
 * on error). */
static enum ofperr
pull_bucket_actions(struct ofpbuf *msg, size_t len, enum ofp_version version,
                    struct ofputil_bucket *b)
{
    struct ofpbuf ofpacts;

    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = ofpacts_pull_openflow_actions(msg, len, version,
                                                      &ofpacts);
    b->ofpacts_len = ofpacts.size;
    b->ofpacts = xmemdup(ofpacts.data, MAX(ofpacts.size, 1));
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* Points 'body' at the body of multipart reply 'oh'. */
static enum ofperr
pull_reply_header(const struct ofp_header *oh, struct ofpbuf *body)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);

    if (!error) {
        ofpbuf_use_const(body, oh, ntohs(oh->length));
        ofpbuf_pull(body, ofpraw_get_hdr_size(raw));
    }
    return error;
}

static struct ofputil_bucket *
add_bucket(struct ofputil_group_mod *gm)
{
    gm->buckets = xrealloc(gm->buckets,
                           (gm->n_buckets + 1) * sizeof *gm->buckets);
    struct ofputil_bucket *b = &gm->buckets[gm->n_buckets++];
    memset(b, 0, sizeof *b);
    b->watch_port = OFPUTIL_WATCH_PORT_ANY;
    b->watch_group = OFPG_ANY;
    return b;
}

/* Open vSwitch's checks of a decoded group_mod's command, type and
 * buckets. */
static enum ofperr
check_group_mod(const struct ofputil_group_mod *gm)
{
    switch (gm->command) {
    case OFPGC11_ADD:
    case OFPGC11_MODIFY:
    case OFPGC11_ADD_OR_MOD:
    case OFPGC11_DELETE:
        break;
    case OFPGC15_INSERT_BUCKET:
    case OFPGC15_REMOVE_BUCKET:
    default:
        return OFPERR_OFPGMFC_BAD_COMMAND;
    }
    if (gm->command == OFPGC11_DELETE) {
        return 0;
    }

    switch (gm->type) {
    case OFPGT11_INDIRECT:
        if (gm->n_buckets != 1) {
            return OFPERR_OFPGMFC_INVALID_GROUP;
        }
        break;
    case OFPGT11_ALL:
    case OFPGT11_SELECT:
    case OFPGT11_FF:
        break;
    default:
        return OFPERR_OFPGMFC_BAD_TYPE;
    }

    for (size_t i = 0; i < gm->n_buckets; i++) {
        const struct ofputil_bucket *b = &gm->buckets[i];
        bool live = (b->watch_port != OFPUTIL_WATCH_PORT_ANY
                     || b->watch_group != OFPG_ANY);

        if (b->weight && gm->type != OFPGT11_SELECT) {
            return OFPERR_OFPGMFC_INVALID_GROUP;
        }
        if ((gm->type == OFPGT11_ALL || gm->type == OFPGT11_INDIRECT)
            && live) {
            return OFPERR_OFPGMFC_WATCH_UNSUPPORTED;
        }
        if (gm->type == OFPGT11_FF && !live) {
            return OFPERR_OFPGMFC_INVALID_GROUP;
        }
        ofp_port_t port;
        if (b->watch_port != OFPUTIL_WATCH_PORT_ANY
            && (!ofp_port_from_ofp11(b->watch_port, &port)
                || (port >= OFPP_MAX && port != OFPP_LOCAL))) {
            return OFPERR_OFPGMFC_BAD_WATCH;
        }
    }
    return 0;
}

/* Appends the 'n' buckets of a group of 'type' in 'version''s form. */
static void
put_buckets(struct ofpbuf *msg, enum ofp_version version, uint8_t type,
            const struct ofputil_bucket *buckets, size_t n)
{
    bool of15 = version == OFP10_VERSION || version >= OFP15_VERSION;

    for (size_t i = 0; i < n; i++) {
        const struct ofputil_bucket *b = &buckets[i];
        size_t start = msg->size;
        uint8_t *p = ofpbuf_put_zeros(msg, of15 ? 8 : 16);

        if (!of15) {
            ofp_put_be16(p + 2, b->weight);
            ofp_put_be32(p + 4, b->watch_port);
            ofp_put_be32(p + 8, b->watch_group);
            ofpacts_put_openflow_actions(b->ofpacts, b->ofpacts_len, msg,
                                         version);
        } else {
            ofp_put_be32(p + 4, b->bucket_id);
            size_t actions_len = ofpacts_put_openflow_actions(
                b->ofpacts, b->ofpacts_len, msg, version);
            ofp_put_be16((uint8_t *) msg->data + start + 2, actions_len);
            if (type == OFPGT11_SELECT) {
                uint8_t *q = ofpbuf_put_zeros(msg, 8);
                ofp_put_be16(q, OFPGBPT15_WEIGHT);
                ofp_put_be16(q + 2, 8);
                ofp_put_be16(q + 4, b->weight);
            }
            if (b->watch_port != OFPUTIL_WATCH_PORT_ANY) {
                uint8_t *q = ofpbuf_put_zeros(msg, 8);
                ofp_put_be16(q, OFPGBPT15_WATCH_PORT);
                ofp_put_be16(q + 2, 8);
                ofp_put_be32(q + 4, b->watch_port);
            }
            if (b->watch_group != OFPG_ANY) {
                uint8_t *q = ofpbuf_put_zeros(msg, 8);
                ofp_put_be16(q, OFPGBPT15_WATCH_GROUP);
                ofp_put_be16(q + 2, 8);
                ofp_put_be32(q + 4, b->watch_group);
            }
        }
        ofp_put_be16((uint8_t *) msg->data + start, msg->size - start);
    }
}

static void
put_be64(uint8_t *p, uint64_t x)
{
    ofp_put_be32(p, x >> 32);
    ofp_put_be32(p + 4, x);
}
