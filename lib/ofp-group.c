/* OpenFlow groups on the wire (see ofp-group.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-group.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofp-match.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
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
static enum ofperr check_command_bucket_id(const struct ofputil_group_mod *);
static void put_buckets(struct ofpbuf *, enum ofp_version, uint8_t type,
                        const struct ofputil_bucket *, size_t n);
static void put_be64(uint8_t *, uint64_t);
static void put_group_props(struct ofpbuf *, enum ofp_version,
                            const struct ofputil_group_props *);
static enum ofperr pull_group_props(struct ofpbuf *, uint8_t type,
                                    struct ofputil_group_props *);
static void format_group_props(struct ds *,
                               const struct ofputil_group_props *);
static char *parse_group_mod__(struct ofputil_group_mod *, int command,
                               bool keywords, char *string,
                               const struct ofputil_port_map *,
                               uint32_t *usable_versions)
    DPS_WARN_UNUSED_RESULT;
static char *parse_bucket(char *string, const struct ofputil_port_map *,
                          struct ofputil_bucket *)
    DPS_WARN_UNUSED_RESULT;
static char *parse_u32(const char *s, uint32_t *value)
    DPS_WARN_UNUSED_RESULT;
static char *parse_group_fields(char *string, struct ofputil_group_props *)
    DPS_WARN_UNUSED_RESULT;
static int field_rank(enum match_field_id);

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
        /* Open vSwitch refuses an OpenFlow 1.1-1.4 delete with buckets
         * (OpenFlow 1.5's may have them). */
        if (!error && gm->command == OFPGC11_DELETE && gm->n_buckets) {
            error = OFPERR_OFPGMFC_INVALID_GROUP;
        }
    } else {
        p = ofpbuf_pull(&msg, 8);
        size_t buckets_len = ofp_get_be16(p);
        gm->command_bucket_id = ofp_get_be32(p + 4);
        if (buckets_len > msg.size) {
            error = OFPERR_OFPBRC_BAD_LEN;
        } else {
            error = pull_ofp15_buckets(&msg, buckets_len, oh->version, gm);
        }
        if (!error) {
            error = pull_group_props(&msg, gm->type, &gm->props);
        }
        if (!error) {
            error = check_command_bucket_id(gm);
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
        put_group_props(msg, version, &gm->props);
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
    free(gm->props.fields);
    memset(&gm->props, 0, sizeof gm->props);
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

enum ofperr
ofputil_group_edit_buckets(const struct ofputil_group_mod *gm, uint8_t type,
                           const struct ofputil_bucket *old, size_t n_old,
                           struct ofputil_bucket **newp, size_t *n_newp)
{
    uint32_t id = gm->command_bucket_id;
    size_t pos;

    *newp = NULL;
    *n_newp = 0;
    if (id == OFPG15_BUCKET_FIRST) {
        pos = 0;
    } else if (id == OFPG15_BUCKET_LAST || id == OFPG15_BUCKET_ALL) {
        pos = n_old;
    } else {
        for (pos = 0; pos < n_old && old[pos].bucket_id != id; pos++) {
            continue;
        }
        if (pos >= n_old) {
            return OFPERR_OFPGMFC_UNKNOWN_BUCKET;
        }
        if (gm->command == OFPGC15_INSERT_BUCKET) {
            /* Open vSwitch inserts after the bucket named. */
            pos++;
        }
    }

    struct ofputil_group_mod edited;
    memset(&edited, 0, sizeof edited);
    edited.command = OFPGC11_MODIFY;
    edited.type = type;
    if (gm->command == OFPGC15_INSERT_BUCKET) {
        for (size_t i = 0; i < gm->n_buckets; i++) {
            for (size_t j = 0; j < n_old; j++) {
                if (old[j].bucket_id == gm->buckets[i].bucket_id) {
                    return OFPERR_OFPGMFC_BUCKET_EXISTS;
                }
            }
        }
        edited.n_buckets = n_old + gm->n_buckets;
        edited.buckets = xmalloc(MAX(edited.n_buckets, 1)
                                 * sizeof *edited.buckets);
        struct ofputil_bucket *copy = ofputil_buckets_clone(old, n_old);
        struct ofputil_bucket *added = ofputil_buckets_clone(gm->buckets,
                                                             gm->n_buckets);
        memcpy(edited.buckets, copy, pos * sizeof *copy);
        memcpy(&edited.buckets[pos], added, gm->n_buckets * sizeof *added);
        memcpy(&edited.buckets[pos + gm->n_buckets], &copy[pos],
               (n_old - pos) * sizeof *copy);
        free(copy);
        free(added);
        if (type != OFPGT11_SELECT) {
            for (size_t i = pos; i < pos + gm->n_buckets; i++) {
                edited.buckets[i].weight = 0;
            }
        }
    } else {
        size_t first = pos, n_removed = 1;
        if (id == OFPG15_BUCKET_ALL) {
            first = 0;
            n_removed = n_old;
        } else if (id == OFPG15_BUCKET_LAST) {
            first = n_old ? n_old - 1 : 0;
        }
        if (!n_old) {
            n_removed = 0;
        }
        struct ofputil_bucket *copy = ofputil_buckets_clone(old, n_old);
        for (size_t i = first; i < first + n_removed; i++) {
            free(copy[i].ofpacts);
        }
        memmove(&copy[first], &copy[first + n_removed],
                (n_old - first - n_removed) * sizeof *copy);
        edited.buckets = copy;
        edited.n_buckets = n_old - n_removed;
    }

    /* As in Open vSwitch, the result is not checked against the group's
     * type (an indirect group may end up with two buckets). */
    *newp = edited.buckets;
    *n_newp = edited.n_buckets;
    return 0;
}

/* What each command lets a group say (parse_group_mod__()). */
enum {
    GF_TYPE = 1 << 0,                   /* type=, required. */
    GF_BUCKETS = 1 << 1,                /* bucket=. */
    GF_COMMAND_BUCKET_ID = 1 << 2,      /* command_bucket_id=. */
    GF_COMMAND_BUCKET_ID_REQUIRED = 1 << 3,
};

char *
ofputil_parse_group_mod(struct ofputil_group_mod *gm, int command,
                        bool keywords, const char *string,
                        const struct ofputil_port_map *port_map,
                        uint32_t *usable_versions)
{
    char *copy = xstrdup(string);
    char *error = parse_group_mod__(gm, command, keywords, copy, port_map,
                                    usable_versions);

    free(copy);
    if (error) {
        ofputil_group_mod_uninit(gm);
    }
    return error;
}

/* Appends a group description entry for group 'group_id' of 'type' with
 * the 'n' buckets of 'buckets' and properties 'props' (may be NULL; only
 * OpenFlow 1.0 and 1.5 carry them) to 'reply'. */
void
ofputil_append_group_desc(struct ofpbuf *reply, enum ofp_version version,
                          uint32_t group_id, uint8_t type,
                          const struct ofputil_bucket *buckets, size_t n,
                          const struct ofputil_group_props *props)
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
        if (props) {
            put_group_props(reply, version, props);
            p = (uint8_t *) reply->data + start;
            ofp_put_be16(p, reply->size - start);
        }
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
            if (!error) {
                error = pull_group_props(&entry, gm.type, &gm.props);
            }
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
            format_group_props(s, &gm.props);
            ofputil_format_buckets(s, oh->version, gm.type, gm.buckets,
                                   gm.n_buckets, port_map);
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
ofputil_format_buckets(struct ds *s, enum ofp_version version, uint8_t type,
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
        if (type == OFPGT11_SELECT && b->weight != 1) {
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

/* Prints group_mod 'oh' as Open vSwitch's ofp-print does (after the
 * header line): " ADD group_id=1,type=all,bucket=...". */
enum ofperr
ofputil_format_group_mod(struct ds *s, const struct ofp_header *oh,
                         const struct ofputil_port_map *port_map)
{
    struct ofputil_group_mod gm;
    enum ofperr error = ofputil_decode_group_mod(oh, &gm);
    bool of15 = oh->version == OFP10_VERSION || oh->version >= OFP15_VERSION;
    bool bucket_command = (gm.command == OFPGC15_INSERT_BUCKET
                           || gm.command == OFPGC15_REMOVE_BUCKET);

    if (error) {
        return error;
    }

    static const struct {
        uint16_t command;
        const char *name;
    } names[] = {
        { OFPGC11_ADD, "ADD" },
        { OFPGC11_MODIFY, "MOD" },
        { OFPGC11_ADD_OR_MOD, "ADD_OR_MOD" },
        { OFPGC11_DELETE, "DEL" },
        { OFPGC15_INSERT_BUCKET, "INSERT_BUCKET" },
        { OFPGC15_REMOVE_BUCKET, "REMOVE_BUCKET" },
    };
    ds_put_cstr(s, "\n ");
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (names[i].command == gm.command) {
            ds_put_cstr(s, names[i].name);
        }
    }
    ds_put_char(s, ' ');
    if (bucket_command && of15) {
        ds_put_cstr(s, "command_bucket_id:");
        switch (gm.command_bucket_id) {
        case OFPG15_BUCKET_FIRST:
            ds_put_cstr(s, "first");
            break;
        case OFPG15_BUCKET_LAST:
            ds_put_cstr(s, "last");
            break;
        case OFPG15_BUCKET_ALL:
            ds_put_cstr(s, "all");
            break;
        default:
            ds_put_format(s, "%"PRIu32, gm.command_bucket_id);
            break;
        }
        ds_put_char(s, ',');
    }
    ds_put_format(s, "group_id=%"PRIu32, gm.group_id);
    if (!bucket_command) {
        const char *type = ofputil_group_type_to_string(gm.type);
        ds_put_cstr(s, ",type=");
        if (type) {
            ds_put_cstr(s, type);
        } else {
            ds_put_format(s, "%"PRIu8, gm.type);
        }
    }
    format_group_props(s, &gm.props);
    ofputil_format_buckets(s, oh->version, gm.type, gm.buckets, gm.n_buckets,
                           port_map);
    ds_put_char(s, '\n');
    ofputil_group_mod_uninit(&gm);
    return 0;
}

/* Prints group features reply 'oh' as Open vSwitch's ofp-print does (after
 * the header line). */
enum ofperr
ofputil_format_group_features_reply(struct ds *s, const struct ofp_header *oh)
{
    /* The actions a bucket may hold, in the order Open vSwitch names them,
     * with their bits in OpenFlow 1.0's and 1.2+'s action bitmaps. */
    static const struct {
        const char *name;
        int of10_bit, of12_bit;
    } actions[] = {
        { "output", 0, 0 }, { "group", -1, 22 }, { "enqueue", 11, -1 },
        { "set_field", -1, 25 }, { "set_vlan_vid", 1, -1 },
        { "set_vlan_pcp", 2, -1 }, { "strip_vlan", 3, 18 },
        { "push_vlan", -1, 17 }, { "mod_dl_src", 4, -1 },
        { "mod_dl_dst", 5, -1 }, { "mod_nw_src", 6, -1 },
        { "mod_nw_dst", 7, -1 }, { "mod_nw_tos", 8, -1 },
        { "mod_nw_ttl", -1, 23 }, { "mod_tp_src", 9, -1 },
        { "mod_tp_dst", 10, -1 }, { "dec_ttl", -1, 24 },
        { "set_mpls_ttl", -1, 15 }, { "dec_mpls_ttl", -1, 16 },
        { "push_mpls", -1, 19 }, { "pop_mpls", -1, 20 },
        { "set_queue", -1, 21 },
    };
    static const char *const type_names[] = {
        "all", "select", "indirect", "fast failover"
    };
    struct ofpbuf msg;
    enum ofperr error = pull_reply_header(oh, &msg);

    if (error) {
        return error;
    }
    if (msg.size < 40) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    const uint8_t *p = msg.data;
    uint32_t types = ofp_get_be32(p);
    ds_put_format(s, "\n Group table:\n    Types:  0x%"PRIx32"\n"
                  "    Capabilities:  0x%"PRIx32"\n", types,
                  ofp_get_be32(p + 4));
    for (int i = 0; i < 4; i++) {
        if (!(types & (1u << i))) {
            continue;
        }
        uint32_t bits = ofp_get_be32(p + 24 + 4 * i);
        bool any = false;
        ds_put_format(s, "    %s group:\n       max_groups=%#"PRIx32"\n"
                      "       actions: ", type_names[i],
                      ofp_get_be32(p + 8 + 4 * i));
        for (size_t j = 0; j < ARRAY_SIZE(actions); j++) {
            int bit = (oh->version == OFP10_VERSION ? actions[j].of10_bit
                       : actions[j].of12_bit);
            if (bit >= 0 && bits & (1u << bit)) {
                ds_put_format(s, "%s ", actions[j].name);
                any = true;
            }
        }
        if (any) {
            ds_chomp(s, ' ');
        } else {
            ds_put_cstr(s, "<none>");
        }
        ds_put_char(s, '\n');
    }
    return 0;
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
        /* Open vSwitch weighs a select group's buckets 1 unless told (and
         * so buckets to insert, whose group's type it has to see). */
        b->weight = (gm->type == OFPGT11_SELECT
                     || gm->command == OFPGC15_INSERT_BUCKET);
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
                VLOG_WARN("Duplicate bucket id");
                return OFPERR_OFPGMFC_BAD_BUCKET;
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
        /* The group's type is the switch's to check the buckets against;
         * a remove_bucket has none. */
        return (gm->command == OFPGC15_REMOVE_BUCKET && gm->n_buckets
                ? OFPERR_OFPGMFC_BAD_BUCKET : 0);
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
    uint32_t next_id = 0;

    for (size_t i = 0; i < n; i++) {
        const struct ofputil_bucket *b = &buckets[i];
        size_t start = msg->size;
        uint8_t *p = ofpbuf_put_zeros(msg, of15 ? 8 : 16);
        uint32_t bucket_id = b->bucket_id;

        if (bucket_id == OFPUTIL_BUCKET_ID_UNSET) {
            /* As Open vSwitch numbers the buckets ovs-ofctl was not given
             * ids for: counting from 0, past the ids that later buckets
             * were given. */
            for (size_t j = i + 1; j < n; j++) {
                if (buckets[j].bucket_id == next_id) {
                    next_id++;
                    j = i;
                }
            }
            bucket_id = next_id++;
        }
        if (!of15) {
            ofp_put_be16(p + 2, type == OFPGT11_SELECT ? b->weight : 0);
            ofp_put_be32(p + 4, b->watch_port);
            ofp_put_be32(p + 8, b->watch_group);
            ofpacts_put_openflow_actions(b->ofpacts, b->ofpacts_len, msg,
                                         version);
        } else {
            ofp_put_be32(p + 4, bucket_id);
            size_t actions_len = ofpacts_put_openflow_actions(
                b->ofpacts, b->ofpacts_len, msg, version);
            ofp_put_be16((uint8_t *) msg->data + start + 2, actions_len);
            if (type == OFPGT11_SELECT || b->weight) {
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

/* OpenFlow 1.5's rules for a group_mod's command bucket id, as Open
 * vSwitch applies them (its warning too). */
static enum ofperr
check_command_bucket_id(const struct ofputil_group_mod *gm)
{
    uint32_t id = gm->command_bucket_id;
    bool ok;

    switch (gm->command) {
    case OFPGC15_INSERT_BUCKET:
        ok = id <= OFPG15_BUCKET_MAX || id == OFPG15_BUCKET_FIRST
             || id == OFPG15_BUCKET_LAST;
        break;
    case OFPGC15_REMOVE_BUCKET:
        ok = id <= OFPG15_BUCKET_MAX || id >= OFPG15_BUCKET_FIRST;
        break;
    default:
        ok = id == OFPG15_BUCKET_ALL;
        break;
    }
    if (!ok) {
        VLOG_WARN("group command bucket id (%"PRIu32") is out of range", id);
        return OFPERR_OFPGMFC_BAD_BUCKET;
    }
    return 0;
}

/* Netronome's selection method property. */
#define NTR_VENDOR_ID 0x0000154du
#define NTRT_SELECTION_METHOD 1
#define NTR_SELECTION_METHOD_LEN 40     /* Without the fields. */

/* Appends 'props' for 'version' (nothing if there is no selection
 * method). */
static void
put_group_props(struct ofpbuf *msg, enum ofp_version version,
                const struct ofputil_group_props *props)
{
    bool nxm = version == OFP10_VERSION;

    if (!props->selection_method[0]) {
        return;
    }

    size_t len = NTR_SELECTION_METHOD_LEN + props->fields_len;
    uint8_t *p = ofpbuf_put_zeros(msg, NTR_SELECTION_METHOD_LEN);
    ofp_put_be16(p, 0xffff);
    ofp_put_be16(p + 2, len);
    ofp_put_be32(p + 4, NTR_VENDOR_ID);
    ofp_put_be32(p + 8, NTRT_SELECTION_METHOD);
    memcpy(p + 16, props->selection_method, strlen(props->selection_method));
    put_be64(p + 32, props->selection_method_param);
    if (props->fields_len) {
        size_t fields_start = msg->size;
        ofpbuf_put(msg, props->fields, props->fields_len);
        /* OpenFlow 1.0 (Open vSwitch's extension) names the fields by
         * their NXM headers. */
        for (size_t ofs = 0; nxm && ofs + 4 <= props->fields_len; ) {
            uint8_t *q = (uint8_t *) msg->data + fields_start + ofs;
            uint32_t header = ofp_get_be32(q);
            enum match_field_id id;
            unsigned int width;
            if (nxm_field_from_header(header, &id, &width)) {
                uint32_t nxm_header = nxm_header_from_field(id);
                if (nxm_header && (nxm_header & 0xff) == (header & 0xff)) {
                    ofp_put_be32(q, nxm_header);
                }
            }
            ofs += 4 + (header & 0xff);
        }
    }
    ofpbuf_put_zeros(msg, ((len + 7) & ~(size_t) 7) - len);
}

/* Pulls the group properties at the end of a group_mod or desc entry of a
 * group of 'type' into 'props'. */
static enum ofperr
pull_group_props(struct ofpbuf *msg, uint8_t type,
                 struct ofputil_group_props *props)
{
    while (msg->size) {
        const uint8_t *p = msg->data;
        if (msg->size < 4) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        size_t len = ofp_get_be16(p + 2);
        size_t padded = (len + 7) & ~(size_t) 7;
        if (len < 4 || padded > msg->size) {
            return OFPERR_OFPBPC_BAD_LEN;
        }
        if (ofp_get_be16(p) != 0xffff || len < NTR_SELECTION_METHOD_LEN
            || ofp_get_be32(p + 4) != NTR_VENDOR_ID
            || ofp_get_be32(p + 8) != NTRT_SELECTION_METHOD) {
            return OFPERR_OFPBPC_BAD_TYPE;
        }
        if (type != OFPGT11_SELECT) {
            VLOG_WARN("ntr selection method property is only allowed for "
                      "select groups");
            return OFPERR_OFPBPC_BAD_VALUE;
        }
        memcpy(props->selection_method, p + 16, 15);
        props->selection_method[15] = '\0';
        if (strcmp(props->selection_method, "hash")
            && strcmp(props->selection_method, "dp_hash")) {
            VLOG_WARN("ntr selection method '%s' is not supported",
                      props->selection_method);
            return OFPERR_OFPBPC_BAD_VALUE;
        }
        props->selection_method_param = ofp_get_be64(p + 32);
        free(props->fields);
        props->fields_len = len - NTR_SELECTION_METHOD_LEN;
        props->fields = (props->fields_len
                         ? xmemdup(p + NTR_SELECTION_METHOD_LEN,
                                   props->fields_len)
                         : NULL);
        ofpbuf_pull(msg, padded);
    }
    return 0;
}

/* Appends ",selection_method=..." and the rest of 'props', if any. */
static void
format_group_props(struct ds *s, const struct ofputil_group_props *props)
{
    if (!props->selection_method[0]) {
        return;
    }
    ds_put_format(s, ",selection_method=%s", props->selection_method);
    if (props->selection_method_param) {
        ds_put_format(s, ",selection_method_param=%"PRIu64,
                      props->selection_method_param);
    }

    /* The fields, by name, each with its mask unless that is all ones. */
    struct ds fields = DS_EMPTY_INITIALIZER;
    size_t n = 0;
    for (size_t ofs = 0; ofs + 4 <= props->fields_len; ) {
        const uint8_t *p = props->fields + ofs;
        uint32_t header = ofp_get_be32(p);
        size_t width = header & 0xff;
        enum match_field_id id;
        unsigned int field_width;

        if (ofs + 4 + width > props->fields_len
            || !nxm_field_from_header(header, &id, &field_width)) {
            break;
        }
        const struct match_field *mf = match_field_info(id);
        union match_value v, all;
        memset(&v, 0, sizeof v);
        memset(&all, 0xff, sizeof all);
        memcpy(v.u8, p + 4 + (width - mf->n_bytes), mf->n_bytes);

        /* The mask, unless it is all ones, as the field's value prints in
         * a match. */
        bool ones = true;
        for (size_t i = 0; i < width; i++) {
            ones &= p[4 + i] == 0xff;
        }
        ds_put_format(&fields, "%s%s", n++ ? "," : "", mf->name);
        if (!ones) {
            struct match m;
            struct ds value = DS_EMPTY_INITIALIZER;
            match_init_catchall(&m);
            match_field_set(mf, &v, &all, &m);
            match_format(&m, NULL, &value, INT_MIN, INT_MIN);
            const char *eq = strrchr(ds_cstr(&value), '=');
            ds_put_format(&fields, "=%s", eq ? eq + 1 : ds_cstr(&value));
            ds_destroy(&value);
        }
        ofs += 4 + width;
    }
    if (n == 1) {
        ds_put_format(s, ",fields=%s", ds_cstr(&fields));
    } else if (n) {
        ds_put_format(s, ",fields(%s)", ds_cstr(&fields));
    }
    ds_destroy(&fields);
}

/* parse-group's body, on a copy of the caller's 'string' that it may
 * change. */
static char *
parse_group_mod__(struct ofputil_group_mod *gm, int command, bool keywords,
                  char *string, const struct ofputil_port_map *port_map,
                  uint32_t *usable_versions)
{
    static const struct {
        const char *name;
        uint16_t command;
    } commands[] = {
        { "add", OFPGC11_ADD },
        { "delete", OFPGC11_DELETE },
        { "modify", OFPGC11_MODIFY },
        { "add_or_mod", OFPGC11_ADD_OR_MOD },
        { "insert_bucket", OFPGC15_INSERT_BUCKET },
        { "remove_bucket", OFPGC15_REMOVE_BUCKET },
    };
    char *s = string;

    memset(gm, 0, sizeof *gm);
    *usable_versions = OFPUTIL_SUPPORTED_VERSIONS;
    if (keywords) {
        /* A line of add-groups' file may start with a command, or any
         * beginning of one's name, as in Open vSwitch. */
        s += strspn(s, " \t\r\n");
        size_t len = strcspn(s, ", \t\r\n");
        command = OFPGC11_ADD;
        for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
            if (!strncmp(s, commands[i].name, len)) {
                command = commands[i].command;
                s += len;
                break;
            }
        }
    }

    unsigned int fields;
    switch (command) {
    case OFPGC11_ADD:
    case OFPGC11_MODIFY:
    case OFPGC11_ADD_OR_MOD:
        fields = GF_TYPE | GF_BUCKETS;
        break;
    case OFPGC11_DELETE:
        fields = 0;
        break;
    case OFPGC15_INSERT_BUCKET:
        fields = (GF_BUCKETS | GF_COMMAND_BUCKET_ID
                  | GF_COMMAND_BUCKET_ID_REQUIRED);
        break;
    case OFPGC15_REMOVE_BUCKET:
        fields = GF_COMMAND_BUCKET_ID;
        *usable_versions = (1u << OFP10_VERSION) | (1u << OFP15_VERSION);
        break;
    default:
        return xasprintf("unknown group command %d", command);
    }
    gm->command = command;
    gm->group_id = OFPG_ANY;
    gm->command_bucket_id = OFPG15_BUCKET_ALL;

    /* Buckets come last: the rest of the string from the first one. */
    char *buckets = strstr(s, "bucket=");
    if (buckets) {
        if (!(fields & GF_BUCKETS)) {
            return xstrdup("bucket is not needed");
        }
        *buckets = '\0';
        buckets += strlen("bucket=");
    }

    bool had_group_id = false, had_type = false, had_command_bucket_id = false;
    bool had_param = false, had_fields = false;
    char *name, *value;
    while (ofp_parse_key_value(&s, &name, &value)) {
        char *error = NULL;

        if (!strcmp(name, "command_bucket_id")) {
            if (!(fields & GF_COMMAND_BUCKET_ID)) {
                return xstrdup("command bucket id is not needed");
            }
            if (!strcmp(value, "all")) {
                gm->command_bucket_id = OFPG15_BUCKET_ALL;
            } else if (!strcmp(value, "first")) {
                gm->command_bucket_id = OFPG15_BUCKET_FIRST;
            } else if (!strcmp(value, "last")) {
                gm->command_bucket_id = OFPG15_BUCKET_LAST;
            } else {
                error = parse_u32(value, &gm->command_bucket_id);
                if (!error && gm->command_bucket_id > OFPG15_BUCKET_MAX) {
                    error = xasprintf("invalid command bucket id %"PRIu32,
                                      gm->command_bucket_id);
                }
            }
            had_command_bucket_id = true;
        } else if (!strcmp(name, "group_id")) {
            if (!strcmp(value, "all")) {
                gm->group_id = OFPG_ALL;
            } else {
                error = parse_u32(value, &gm->group_id);
                if (!error && gm->group_id > OFPG_MAX) {
                    error = xasprintf("invalid group id %"PRIu32,
                                      gm->group_id);
                }
            }
            had_group_id = true;
        } else if (!strcmp(name, "type")) {
            if (!(fields & GF_TYPE)) {
                return xstrdup("type is not needed");
            }
            if (!strcmp(value, "all")) {
                gm->type = OFPGT11_ALL;
            } else if (!strcmp(value, "select")) {
                gm->type = OFPGT11_SELECT;
            } else if (!strcmp(value, "indirect")) {
                gm->type = OFPGT11_INDIRECT;
            } else if (!strcmp(value, "ff")
                       || !strcmp(value, "fast_failover")) {
                gm->type = OFPGT11_FF;
            } else {
                error = xasprintf("invalid group type %s", value);
            }
            had_type = true;
        } else if (!strcmp(name, "selection_method")) {
            if (strlen(value) >= sizeof gm->props.selection_method) {
                error = xstrdup("selection method is longer than 15 bytes "
                                "long");
            } else {
                strcpy(gm->props.selection_method, value);
            }
        } else if (!strcmp(name, "selection_method_param")) {
            if (!ofp_parse_u64(value, &gm->props.selection_method_param)) {
                error = xasprintf("invalid numeric format %s", value);
            }
            had_param = true;
        } else if (!strcmp(name, "fields")) {
            error = parse_group_fields(value, &gm->props);
            had_fields = true;
        } else {
            error = xasprintf("unknown keyword %s", name);
        }
        if (error) {
            return error;
        }
    }

    if (!had_group_id) {
        return xstrdup("must specify a group_id");
    }
    if (fields & GF_TYPE && !had_type) {
        return xstrdup("must specify a type");
    }
    if (fields & GF_COMMAND_BUCKET_ID_REQUIRED) {
        if (!had_command_bucket_id) {
            return xstrdup("must specify a command bucket id");
        } else if (gm->command_bucket_id == OFPG15_BUCKET_ALL) {
            return xstrdup("command_bucket_id=all is not permitted");
        }
    }
    if (had_param && !gm->props.selection_method[0]) {
        return xstrdup("selection_method_param is only allowed with "
                       "\"selection_method\"");
    }
    if (had_fields && strcmp(gm->props.selection_method, "hash")) {
        return xstrdup("fields may only be specified with "
                       "\"selection_method=hash\"");
    }

    while (buckets) {
        char *next = strstr(buckets, "bucket=");
        if (next) {
            *next = '\0';
            next += strlen("bucket=");
        }

        struct ofputil_bucket *b = add_bucket(gm);
        /* A select group's buckets weigh 1 unless told. */
        b->weight = gm->type == OFPGT11_SELECT;
        char *error = parse_bucket(buckets, port_map, b);
        if (error) {
            return error;
        }
        buckets = next;
    }

    for (size_t i = 0; i < gm->n_buckets; i++) {
        struct ofputil_bucket *b = &gm->buckets[i];

        /* (A bucket to insert may weigh: its group's type is unknown.) */
        if (fields & GF_TYPE && gm->type != OFPGT11_SELECT && b->weight) {
            return xstrdup("Only select groups can have bucket weights.");
        }
        if (gm->type == OFPGT11_FF
            && b->watch_port == OFPUTIL_WATCH_PORT_ANY
            && b->watch_group == OFPG_ANY) {
            return xstrdup("fast failover bucket requires watch_port or "
                           "watch_group");
        }
    }
    if (gm->type == OFPGT11_INDIRECT && gm->n_buckets > 1) {
        return xstrdup("Indirect groups can have at most one bucket.");
    }
    return NULL;
}

/* Parses bucket 'string' ("weight:2,watch_port:1,actions=..."; what is not
 * a bucket's keyword is an action) into 'b' (whose weight is the default). */
static char *
parse_bucket(char *string, const struct ofputil_port_map *port_map,
             struct ofputil_bucket *b)
{
    char *original = xstrdup(string);
    struct ds actions = DS_EMPTY_INITIALIZER;
    char *error = NULL;
    char *name, *value;
    char *s = string;

    b->bucket_id = OFPUTIL_BUCKET_ID_UNSET;
    while (!error && ofp_parse_key_value(&s, &name, &value)) {
        if (!strcmp(name, "weight")) {
            uint64_t weight;
            if (!ofp_parse_u64(value, &weight) || weight > UINT16_MAX) {
                error = xasprintf("invalid weight \"%s\"", value);
            } else {
                b->weight = weight;
            }
        } else if (!strcmp(name, "watch_port")) {
            ofp_port_t port;
            if (!ofputil_port_parse(value, port_map, &port)
                || (port >= OFPP_MAX && port != OFPP_ANY)) {
                error = xasprintf("%s: invalid watch_port", value);
            } else {
                b->watch_port = ofp_port_to_ofp11(port);
            }
        } else if (!strcmp(name, "watch_group")) {
            error = parse_u32(value, &b->watch_group);
            if (!error && b->watch_group > OFPG_MAX) {
                error = xasprintf("invalid watch_group id %"PRIu32,
                                  b->watch_group);
            }
        } else if (!strcmp(name, "bucket_id")) {
            error = parse_u32(value, &b->bucket_id);
            if (!error && b->bucket_id > OFPG15_BUCKET_MAX) {
                error = xasprintf("invalid bucket_id id %"PRIu32,
                                  b->bucket_id);
            }
        } else if (!strcmp(name, "actions")) {
            ds_put_format(&actions, "%s,", value);
        } else {
            /* An action: its text as it was given. */
            size_t name_len = strlen(name);
            size_t ofs = name - string;
            char delimiter = original[ofs + name_len];

            ds_put_cstr(&actions, name);
            if (value != name + name_len && value[-1] == '\0') {
                if (delimiter == '(') {
                    ds_put_format(&actions, "(%s)", value);
                } else {
                    ds_put_format(&actions, "%c%s", delimiter, value);
                }
            }
            ds_put_char(&actions, ',');
        }
    }

    if (!error && !actions.length) {
        error = xstrdup("bucket must specify actions");
    }
    if (!error) {
        struct ofpbuf ofpacts;

        ds_chomp(&actions, ',');
        ofpbuf_init(&ofpacts, 64);
        error = ofpacts_parse(ds_cstr(&actions), &ofpacts, port_map);
        b->ofpacts_len = ofpacts.size;
        b->ofpacts = xmemdup(ofpacts.data, MAX(ofpacts.size, 1));
        ofpbuf_uninit(&ofpacts);
    }
    if (!b->ofpacts) {
        b->ofpacts = xmalloc(1);
    }
    ds_destroy(&actions);
    free(original);
    return error;
}

/* Parses 's' (decimal, or hex with "0x") as a 32-bit number. */
static char *
parse_u32(const char *s, uint32_t *value)
{
    uint64_t n;

    if (!ofp_parse_u64(s, &n) || n > UINT32_MAX) {
        return xasprintf("invalid numeric format %s", s);
    }
    *value = n;
    return NULL;
}

/* Parses the value of "fields=" ("ip_src", or "ip_src,tcp_dst=0xff00" from
 * "fields(...)": each a field, with a mask as its value) into 'props', in
 * Open vSwitch's order of fields: each as an OXM header (NXM for a field
 * without one, and for in_port) without the mask bit, then the mask. */
static char *
parse_group_fields(char *string, struct ofputil_group_props *props)
{
    struct entry {
        enum match_field_id id;
        union match_value mask;
        bool given;             /* A mask given, not the whole field. */
    } entries[MATCH_N_FIELDS];
    size_t n = 0;
    char *name, *value;

    while (ofp_parse_key_value(&string, &name, &value)) {
        const struct match_field *mf = ofp_parse_field_name(name);
        if (!mf) {
            return xasprintf(": unknown field %s", name);
        }
        for (size_t i = 0; i < n; i++) {
            if (entries[i].id == mf->id) {
                return xasprintf("%s: duplicate field", name);
            }
        }

        union match_value mask, ignored;
        memset(&mask, 0xff, sizeof mask);
        if (*value) {
            char *error = ofp_parse_field_value(mf, value, &mask, &ignored);
            if (error) {
                return error;
            }
        }
        entries[n].id = mf->id;
        entries[n].mask = mask;
        entries[n].given = *value != '\0';
        n++;
    }

    /* Open vSwitch's order (insertion sort: there are few). */
    for (size_t i = 1; i < n; i++) {
        for (size_t j = i; j > 0 && (field_rank(entries[j].id)
                                     < field_rank(entries[j - 1].id)); j--) {
            struct entry tmp = entries[j];
            entries[j] = entries[j - 1];
            entries[j - 1] = tmp;
        }
    }

    struct ofpbuf b;
    ofpbuf_init(&b, 64);
    for (size_t i = 0; i < n; i++) {
        const struct match_field *mf = match_field_info(entries[i].id);
        size_t start = b.size;
        if (mf->id == MATCH_F_IN_PORT) {
            uint8_t *p = ofpbuf_put_zeros(&b, 6);
            ofp_put_be32(p, nxm_header_from_field(mf->id));
        } else {
            union match_value all;
            memset(&all, 0xff, sizeof all);
            oxm_put_field(&b, mf->id, &all, &all);
        }

        /* The mask: all ones over the header's width (as Open vSwitch
         * writes it, past the field's bits), or the one given. */
        uint8_t *p = (uint8_t *) b.data + start;
        size_t width = ofp_get_be32(p) & 0xff;
        memset(p + 4, 0xff, width);
        if (entries[i].given) {
            memset(p + 4, 0, width - MIN(width, mf->n_bytes));
            memcpy(p + 4 + width - MIN(width, mf->n_bytes),
                   entries[i].mask.u8, MIN(width, mf->n_bytes));
        }
    }
    free(props->fields);
    props->fields_len = b.size;
    props->fields = xmemdup(b.data, MAX(b.size, 1));
    ofpbuf_uninit(&b);
    return NULL;
}

/* Where field 'id' comes in Open vSwitch's table of fields (the order of
 * ours but for metadata, the IP addresses and nw_tos). */
static int
field_rank(enum match_field_id id)
{
    switch (id) {
    case MATCH_F_METADATA:
        return -1;
    case MATCH_F_IPV4_SRC:
    case MATCH_F_IPV4_DST:
    case MATCH_F_IPV6_SRC:
    case MATCH_F_IPV6_DST:
    case MATCH_F_IPV6_LABEL:
        /* Between the VLAN fields and nw_proto. */
        return 10 * MATCH_F_IP_PROTO - 9 + (id - MATCH_F_IPV4_SRC);
    case MATCH_F_NW_TOS:
        return 10 * MATCH_F_IP_DSCP - 1;
    default:
        return 10 * id;
    }
}
