/* OpenFlow message framing.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-msgs.h"
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofpbuf.h"
#include "util.h"

struct ofpraw_info {
    enum ofptype type;
    uint8_t min_version;
    uint8_t max_version;
    uint8_t ofp_type;
    int stat;                   /* Multipart type, or -1. */
    int subtype;                /* Nicira subtype, or -1. */
    unsigned int hdr_size;
    unsigned int min_body;
    unsigned int body_multiple;
    const char *name;
};

static const struct ofpraw_info raw_infos[OFPRAW_N] = {
#define OFPRAW_INFO(RAW, TYPE, MINV, MAXV, OT, STAT, SUB, HDR, MIN, MULT, \
                    NAME)                                                 \
    [RAW] = { TYPE, MINV, MAXV, OT, STAT, SUB, HDR, MIN, MULT, NAME },
    OFPRAWS(OFPRAW_INFO)
#undef OFPRAW_INFO
};

static const char *const version_names[] = {
    [OFP10_VERSION] = "OpenFlow10",
    [OFP11_VERSION] = "OpenFlow11",
    [OFP12_VERSION] = "OpenFlow12",
    [OFP13_VERSION] = "OpenFlow13",
    [OFP14_VERSION] = "OpenFlow14",
    [OFP15_VERSION] = "OpenFlow15",
};

static uint32_t implied_bitmap(uint8_t version);

/* Identifies the message at 'oh' (the whole message, as long as its
 * header says) and checks its length. */
enum ofperr
ofpraw_decode(enum ofpraw *rawp, const struct ofp_header *oh)
{
    size_t length = ntohs(oh->length);
    enum ofperr error = ofpraw_decode_partial(rawp, oh, length);
    if (error) {
        return error;
    }

    const struct ofpraw_info *info = &raw_infos[*rawp];
    if (length < info->hdr_size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    size_t body = length - info->hdr_size;
    if (body < info->min_body
        || (!info->body_multiple && body != info->min_body)
        || (info->body_multiple > 1
            && (body - info->min_body) % info->body_multiple)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    return 0;
}

/* Identifies the message of which 'length' bytes are at 'data' (see the
 * header), without checking its length against its type. */
enum ofperr
ofpraw_decode_partial(enum ofpraw *rawp, const void *data, size_t length)
{
    const uint8_t *p = data;
    int stat = -1;
    int subtype = -1;

    *rawp = OFPRAW_N;
    if (length < sizeof(struct ofp_header)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    uint8_t version = p[0];
    uint8_t type = p[1];
    if (type == OFP_HEADER_TYPE_VENDOR) {
        if (length < 16) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        uint32_t vendor = ofp_get_be32(p + 8);
        if (vendor == OFP_VENDOR_ONF && ofp_get_be32(p + 12) < 0x10000) {
            subtype = ONF_SUBTYPE(ofp_get_be32(p + 12));
        } else if (vendor != OFP_VENDOR_NICIRA) {
            return OFPERR_OFPBRC_BAD_VENDOR;
        } else {
            subtype = ofp_get_be32(p + 12);
        }
    } else if (version == OFP10_VERSION
               && (type == OFP10_TYPE_STATS_REQUEST
                   || type == OFP10_TYPE_STATS_REPLY)) {
        if (length < 12) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        stat = ofp_get_be16(p + 8);
        if (stat == OFP_STAT_VENDOR) {
            if (length < 20) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            if (ofp_get_be32(p + 12) != OFP_VENDOR_NICIRA) {
                return OFPERR_OFPBRC_BAD_VENDOR;
            }
            subtype = ofp_get_be32(p + 16);
        }
    } else if (version >= OFP11_VERSION
               && (type == OFP11_TYPE_MULTIPART_REQUEST
                   || type == OFP11_TYPE_MULTIPART_REPLY)) {
        if (length < 16) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        stat = ofp_get_be16(p + 8);
        if (stat == OFP_STAT_VENDOR) {
            if (length < 24) {
                return OFPERR_OFPBRC_BAD_LEN;
            }
            if (ofp_get_be32(p + 16) != OFP_VENDOR_NICIRA) {
                return OFPERR_OFPBRC_BAD_VENDOR;
            }
            subtype = ofp_get_be32(p + 20);
        }
    }

    for (size_t i = 0; i < OFPRAW_N; i++) {
        const struct ofpraw_info *info = &raw_infos[i];

        if (info->ofp_type == type && info->stat == stat
            && info->subtype == subtype
            && version >= info->min_version
            && version <= info->max_version) {
            *rawp = i;
            return 0;
        }
    }

    if (version > OFP15_VERSION) {
        return OFPERR_OFPBRC_BAD_VERSION;
    } else if (subtype >= 0) {
        return OFPERR_OFPBRC_BAD_SUBTYPE;
    } else if (stat >= 0) {
        return OFPERR_OFPBRC_BAD_STAT;
    }
    return OFPERR_OFPBRC_BAD_TYPE;
}

/* Like ofpraw_decode(), but gives the version-independent type. */
enum ofperr
ofptype_decode(enum ofptype *typep, const struct ofp_header *oh)
{
    enum ofpraw raw;
    enum ofperr error = ofpraw_decode(&raw, oh);

    *typep = error ? 0 : raw_infos[raw].type;
    return error;
}

/* Returns the version-independent type of 'raw'. */
enum ofptype
ofptype_from_ofpraw(enum ofpraw raw)
{
    return raw_infos[raw].type;
}

/* Returns the name ovs-ofctl prints for 'raw' ("OFPT_HELLO",
 * "OFPST_FLOW reply"). */
const char *
ofpraw_get_name(enum ofpraw raw)
{
    return raw < OFPRAW_N ? raw_infos[raw].name : "<unknown>";
}

/* Returns the bytes of headers before the body of a 'raw' message. */
size_t
ofpraw_get_hdr_size(enum ofpraw raw)
{
    return raw_infos[raw].hdr_size;
}

/* Decodes the message in 'msg' and pulls its headers (see the header). */
enum ofperr
ofpraw_pull(enum ofpraw *rawp, struct ofpbuf *msg)
{
    if (msg->size < sizeof(struct ofp_header)) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    const struct ofp_header *oh = msg->data;
    if (ntohs(oh->length) > msg->size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }

    enum ofperr error = ofpraw_decode(rawp, oh);
    if (error) {
        return error;
    }
    msg->header = msg->data;
    msg->size = ntohs(oh->length);
    ofpbuf_pull(msg, raw_infos[*rawp].hdr_size);
    msg->msg = msg->data;
    return 0;
}

/* Returns a new 'raw' message (see the header). */
struct ofpbuf *
ofpraw_alloc(enum ofpraw raw, enum ofp_version version, uint32_t xid,
             size_t extra)
{
    const struct ofpraw_info *info = &raw_infos[raw];
    struct ofpbuf *b = ofpbuf_new(info->hdr_size + info->min_body + extra);
    uint8_t *p = ofpbuf_put_zeros(b, info->hdr_size);

    util_assert(version >= info->min_version
                && version <= info->max_version);
    b->header = p;
    p[0] = version;
    p[1] = info->ofp_type;
    uint32_t be_xid = htonl(xid);
    memcpy(p + 4, &be_xid, 4);

    uint16_t be16;
    uint32_t be32;
    if (info->ofp_type == OFP_HEADER_TYPE_VENDOR) {
        bool onf = (info->subtype & OFPRAW_ONF_SUBTYPE) != 0;
        be32 = htonl(onf ? OFP_VENDOR_ONF : OFP_VENDOR_NICIRA);
        memcpy(p + 8, &be32, 4);
        be32 = htonl(info->subtype & ~OFPRAW_ONF_SUBTYPE);
        memcpy(p + 12, &be32, 4);
    } else if (info->stat >= 0) {
        be16 = htons(info->stat);
        memcpy(p + 8, &be16, 2);
        if (info->subtype >= 0) {
            size_t ofs = version == OFP10_VERSION ? 12 : 16;
            be32 = htonl(OFP_VENDOR_NICIRA);
            memcpy(p + ofs, &be32, 4);
            be32 = htonl(info->subtype);
            memcpy(p + ofs + 4, &be32, 4);
        }
    }
    b->msg = ofpbuf_tail(b);
    ofpmsg_update_length(b);
    return b;
}

/* Returns a new 'raw' message answering 'request'. */
struct ofpbuf *
ofpraw_alloc_reply(enum ofpraw raw, const struct ofp_header *request,
                   size_t extra)
{
    return ofpraw_alloc(raw, request->version, ntohl(request->xid), extra);
}

/* Sets the length in the header of 'b''s message to the bytes from the
 * header to the end of the buffer. */
void
ofpmsg_update_length(struct ofpbuf *b)
{
    struct ofp_header *oh = b->header;

    oh->length = htons(ofpbuf_header_size(b));
}

/* Returns a transaction id not used recently. */
uint32_t
ofpmsg_next_xid(void)
{
    static uint32_t next_xid = 1;

    return next_xid++;
}

/* Returns the raw type that carries 'type' in 'version', or OFPRAW_N.
 * Standard messages are preferred to Nicira ones. */
enum ofpraw
ofpraw_for_type(enum ofptype type, enum ofp_version version)
{
    for (size_t i = 0; i < OFPRAW_N; i++) {
        const struct ofpraw_info *info = &raw_infos[i];

        if (info->type == type && info->subtype < 0
            && version >= info->min_version
            && version <= info->max_version) {
            return i;
        }
    }
    return OFPRAW_N;
}

/* True if 'oh' is a multipart (stats) request or reply. */
bool
ofpmsg_is_stat(const struct ofp_header *oh)
{
    return (oh->version == OFP10_VERSION
            ? oh->type == OFP10_TYPE_STATS_REQUEST
              || oh->type == OFP10_TYPE_STATS_REPLY
            : oh->type == OFP11_TYPE_MULTIPART_REQUEST
              || oh->type == OFP11_TYPE_MULTIPART_REPLY);
}

/* The flags of multipart message 'oh'. */
uint16_t
ofpmp_flags(const struct ofp_header *oh)
{
    return ofp_get_be16((const uint8_t *) oh + 10);
}

/* True if multipart reply 'oh' says more replies follow. */
bool
ofpmp_more(const struct ofp_header *oh)
{
    return (ofpmp_flags(oh) & OFPSF_REPLY_MORE) != 0;
}

/* Versions. */

/* Returns "OpenFlow10" ... "OpenFlow15" for 'version', or NULL. */
const char *
ofputil_version_to_string(enum ofp_version version)
{
    return (version >= OFP10_VERSION && version <= OFP15_VERSION
            ? version_names[version] : NULL);
}

/* Parses "OpenFlow10" ... "OpenFlow15"; returns the version or 0. */
int
ofputil_version_from_string(const char *s)
{
    for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
        if (!strcmp(s, version_names[v])) {
            return v;
        }
    }
    return 0;
}

/* Parses a comma- or space-separated list of version names into a bitmap
 * of the versions dpswitch supports.  Returns 0 if a name is unknown or
 * names a version dpswitch does not speak. */
uint32_t
ofputil_versions_from_string(const char *s)
{
    char *copy = xstrdup(s);
    char *save = NULL;
    uint32_t bitmap = 0;

    for (char *name = strtok_r(copy, ", \t", &save); name;
         name = strtok_r(NULL, ", \t", &save)) {
        int v = ofputil_version_from_string(name);
        if (!v || !(OFPUTIL_SUPPORTED_VERSIONS & (1u << v))) {
            bitmap = 0;
            break;
        }
        bitmap |= 1u << v;
    }
    free(copy);
    return bitmap;
}

/* Returns 'bitmap' as "OpenFlow10, OpenFlow13" (the caller frees it). */
char *
ofputil_versions_to_string(uint32_t bitmap)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    for (int v = OFP10_VERSION; v <= OFP15_VERSION; v++) {
        if (bitmap & (1u << v)) {
            if (s.length) {
                ds_put_cstr(&s, ", ");
            }
            ds_put_cstr(&s, version_names[v]);
        }
    }
    return ds_steal_cstr(&s);
}

/* Decodes hello 'oh' (the whole message) into '*bitmap', the versions the
 * peer offers.  Returns false if the hello carries elements it cannot
 * understand (the bitmap is still set, from what it could read). */
bool
ofputil_decode_hello(const struct ofp_header *oh, uint32_t *bitmap)
{
    const uint8_t *p = (const uint8_t *) oh + sizeof *oh;
    size_t left = ntohs(oh->length) - sizeof *oh;
    bool ok = true;

    *bitmap = implied_bitmap(oh->version);
    while (left >= 4) {
        uint16_t type = ofp_get_be16(p);
        uint16_t len = ofp_get_be16(p + 2);
        size_t padded = (len + 7) / 8 * 8;

        if (len < 4 || padded > left) {
            ok = false;
            break;
        }
        if (type == 1 && len >= 8) {
            *bitmap = ofp_get_be32(p + 4);
        } else {
            ok = false;
        }
        p += padded;
        left -= padded;
    }
    if (left) {
        ok = false;
    }
    return ok;
}

/* Returns a hello offering the versions in 'bitmap', which must not be
 * empty: a plain header when the bitmap is what the highest version
 * implies, otherwise a header and a version bitmap element. */
struct ofpbuf *
ofputil_encode_hello(uint32_t bitmap)
{
    int version = ofputil_bitmap_max_version(bitmap);
    struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPT_HELLO, version,
                                    ofpmsg_next_xid(), 8);

    if (bitmap != implied_bitmap(version)) {
        uint8_t elem[8] = { 0, 1, 0, 8 };
        uint32_t be = htonl(bitmap);

        memcpy(elem + 4, &be, 4);
        ofpbuf_put(b, elem, sizeof elem);
        ofpmsg_update_length(b);
    }
    return b;
}

/* Returns the highest version in both bitmaps, or 0 if there is none. */
enum ofp_version
ofputil_negotiate(uint32_t ours, uint32_t theirs)
{
    return ofputil_bitmap_max_version(ours & theirs);
}

/* Returns an echo request with no payload. */
struct ofpbuf *
ofputil_encode_echo_request(enum ofp_version version)
{
    return ofpraw_alloc(OFPRAW_OFPT_ECHO_REQUEST, version, ofpmsg_next_xid(),
                        0);
}

/* Returns the echo reply to 'request': same xid, same payload. */
struct ofpbuf *
ofputil_encode_echo_reply(const struct ofp_header *request)
{
    size_t payload = ntohs(request->length) - sizeof *request;
    struct ofpbuf *b = ofpraw_alloc_reply(OFPRAW_OFPT_ECHO_REPLY, request,
                                          payload);

    ofpbuf_put(b, request + 1, payload);
    ofpmsg_update_length(b);
    return b;
}

/* Returns a barrier request for 'version'. */
struct ofpbuf *
ofputil_encode_barrier_request(enum ofp_version version)
{
    enum ofpraw raw = (version == OFP10_VERSION
                       ? OFPRAW_OFPT10_BARRIER_REQUEST
                       : OFPRAW_OFPT13_BARRIER_REQUEST);

    return ofpraw_alloc(raw, version, ofpmsg_next_xid(), 0);
}

/* The versions a hello without a bitmap element offers: all up to its
 * header's. */
static uint32_t
implied_bitmap(uint8_t version)
{
    return version >= 31 ? 0xfffffffeu : (1u << (version + 1)) - 2;
}
