/* OpenFlow errors.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofp-errors.h"
#include <arpa/inet.h>
#include <string.h>
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "util.h"

struct ofperr_info {
    const char *name;
    int type, code;             /* OpenFlow 1.1+. */
    int of10_type, of10_code;   /* OpenFlow 1.0, or -1. */
    const char *description;
};

static const struct ofperr_info infos[] = {
#define OFPERR_INFO(NAME, TYPE, CODE, T10, C10, TEXT) \
    { #NAME, TYPE, CODE, T10, C10, TEXT },
    OFP_ERRORS(OFPERR_INFO)
#undef OFPERR_INFO
};

static const struct ofperr_info *get_info(enum ofperr error);
static struct ofpbuf *
encode_msg(enum ofperr error, uint8_t version, uint32_t xid,
           const void *data, size_t size);

/* Returns OVS's name of 'error' ("OFPBRC_BAD_TYPE"). */
const char *
ofperr_get_name(enum ofperr error)
{
    const struct ofperr_info *info = get_info(error);

    return info ? info->name : "<invalid>";
}

/* Returns a sentence describing 'error'. */
const char *
ofperr_get_description(enum ofperr error)
{
    const struct ofperr_info *info = get_info(error);

    return info ? info->description : "<invalid>";
}

/* Returns the error named 'name', or 0. */
enum ofperr
ofperr_from_name(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(infos); i++) {
        if (!strcmp(infos[i].name, name)) {
            return OFPERR_OFS + i;
        }
    }
    return 0;
}

/* Returns the OpenFlow type number of 'error' in 'version', or -1 if
 * 'version' has no such error. */
int
ofperr_get_type(enum ofperr error, enum ofp_version version)
{
    const struct ofperr_info *info = get_info(error);

    return !info ? -1 : version == OFP10_VERSION ? info->of10_type
                                                 : info->type;
}

/* Returns the OpenFlow code of 'error' in 'version', or -1. */
int
ofperr_get_code(enum ofperr error, enum ofp_version version)
{
    const struct ofperr_info *info = get_info(error);

    return !info ? -1 : version == OFP10_VERSION ? info->of10_code
                                                 : info->code;
}

/* Returns the error that 'type' and 'code' mean in 'version', or 0.  An
 * OpenFlow 1.0 Nicira vendor error's 'type' is NX10(its type), past 16
 * bits. */
enum ofperr
ofperr_decode(enum ofp_version version, int type, int code)
{
    for (size_t i = 0; i < ARRAY_SIZE(infos); i++) {
        enum ofperr error = OFPERR_OFS + i;

        if (ofperr_get_type(error, version) == type
            && ofperr_get_code(error, version) == code) {
            return error;
        }
    }
    return 0;
}

/* Returns the name of 'error', or "Success" for 0. */
const char *
ofperr_to_string(enum ofperr error)
{
    return error ? ofperr_get_name(error) : "Success";
}

/* Returns the error reply to 'request' (an OpenFlow message with a valid
 * header): its version and xid, and the whole request as the data (as
 * much of it as fits in a message), as OVS sends. */
struct ofpbuf *
ofperr_encode_reply(enum ofperr error, const void *request)
{
    const struct ofp_header *oh = request;
    size_t size = ntohs(oh->length);
    size_t max = UINT16_MAX - NX_VENDOR_ERROR_LEN;

    return encode_msg(error, oh->version, ntohl(oh->xid), request,
                      size < max ? size : max);
}

/* Returns a hello-failed error for 'version' with text 's'. */
struct ofpbuf *
ofperr_encode_hello(enum ofperr error, enum ofp_version version,
                    const char *s)
{
    return encode_msg(error, version, 0, s, strlen(s));
}

/* Decodes error message 'oh' (the whole message, decoded as OFPT_ERROR):
 * returns the error, or 0 if the type and code are not known, and points
 * 'payload' at the data after the type and code. */
enum ofperr
ofperr_decode_msg(const void *oh_, struct ofpbuf *payload)
{
    const struct ofp_header *oh = oh_;
    const uint8_t *p = oh_;
    size_t length = ntohs(oh->length);
    uint16_t type, code;

    memcpy(&type, p + 8, 2);
    memcpy(&code, p + 10, 2);
    if (oh->version == OFP10_VERSION && ntohs(type) == NXET_VENDOR
        && length >= 12 + NX_VENDOR_ERROR_LEN) {
        uint32_t vendor;
        memcpy(&vendor, p + 12, 4);
        if (ntohl(vendor) == NX_VENDOR_ID) {
            memcpy(&type, p + 16, 2);
            memcpy(&code, p + 18, 2);
            ofpbuf_use_const(payload, p + 12 + NX_VENDOR_ERROR_LEN,
                             length - 12 - NX_VENDOR_ERROR_LEN);
            return ofperr_decode(oh->version,
                                 OFPERR_NX10_BASE + ntohs(type),
                                 ntohs(code));
        }
    }
    if (oh->version == OFP13_VERSION
        && ntohs(type) == OFPET12_EXPERIMENTER && length >= 16) {
        uint32_t vendor;
        memcpy(&vendor, p + 12, 4);
        if (ntohl(vendor) == ONF_VENDOR_ID
            && ntohs(code) >= ONF_BUNDLE_ERROR_BASE) {
            ofpbuf_use_const(payload, p + 16, length - 16);
            return ofperr_decode(OFP14_VERSION, OFPET14_BUNDLE_FAILED,
                                 ntohs(code) - ONF_BUNDLE_ERROR_BASE);
        }
    }
    if (oh->version >= OFP12_VERSION && oh->version <= OFP15_VERSION
        && ntohs(type) == OFPET12_EXPERIMENTER && length >= 16) {
        uint32_t vendor;
        memcpy(&vendor, p + 12, 4);
        if (ntohl(vendor) == NX_VENDOR_ID
            && ntohs(code) == (oh->version >= OFP14_VERSION
                               ? NX14_BUNDLE_BAD_VERSION
                               : NX12_BUNDLE_BAD_VERSION)) {
            ofpbuf_use_const(payload, p + 16, length - 16);
            return OFPERR_OFPBFC_BAD_VERSION;
        }
    }
    ofpbuf_use_const(payload, p + 12, length - 12);
    return ofperr_decode(oh->version, ntohs(type), ntohs(code));
}

static const struct ofperr_info *
get_info(enum ofperr error)
{
    return ofperr_is_valid(error) ? &infos[error - OFPERR_OFS] : NULL;
}

/* Returns an error message for 'error' in 'version' with 'xid', carrying
 * the 'size' bytes at 'data'.  An error 'version' cannot express goes as
 * OFPBRC_EPERM. */
static struct ofpbuf *
encode_msg(enum ofperr error, uint8_t version, uint32_t xid,
           const void *data, size_t size)
{
    if (version < OFP10_VERSION || version > OFP15_VERSION) {
        version = OFP10_VERSION;
    }

    int type = ofperr_get_type(error, version);
    int code = ofperr_get_code(error, version);
    if (type < 0 && !(error == OFPERR_OFPBFC_BAD_VERSION
                      && version >= OFP12_VERSION)) {
        type = ofperr_get_type(OFPERR_OFPBRC_EPERM, version);
        code = ofperr_get_code(OFPERR_OFPBRC_EPERM, version);
    }

    struct ofpbuf *b = ofpraw_alloc(OFPRAW_OFPT_ERROR, version, xid,
                                    size + NX_VENDOR_ERROR_LEN);
    if (error == OFPERR_OFPBFC_BAD_VERSION && version >= OFP12_VERSION) {
        uint16_t be[2] = { htons(OFPET12_EXPERIMENTER),
                           htons(version >= OFP14_VERSION
                                 ? NX14_BUNDLE_BAD_VERSION
                                 : NX12_BUNDLE_BAD_VERSION) };
        uint32_t vendor = htonl(NX_VENDOR_ID);
        ofpbuf_put(b, be, sizeof be);
        ofpbuf_put(b, &vendor, sizeof vendor);
    } else if (type == OFPET14_BUNDLE_FAILED && version == OFP13_VERSION) {
        uint16_t be[2] = { htons(OFPET12_EXPERIMENTER),
                           htons(ONF_BUNDLE_ERROR_BASE + code) };
        uint32_t vendor = htonl(ONF_VENDOR_ID);
        ofpbuf_put(b, be, sizeof be);
        ofpbuf_put(b, &vendor, sizeof vendor);
    } else if (type >= OFPERR_NX10_BASE) {
        /* An NXET_VENDOR error carrying the Nicira (type, code). */
        uint16_t be[2] = { htons(NXET_VENDOR), 0 };
        uint32_t vendor = htonl(NX_VENDOR_ID);
        uint16_t nx[2] = { htons(type - OFPERR_NX10_BASE), htons(code) };
        ofpbuf_put(b, be, sizeof be);
        ofpbuf_put(b, &vendor, sizeof vendor);
        ofpbuf_put(b, nx, sizeof nx);
    } else {
        uint16_t be[2] = { htons(type), htons(code) };
        ofpbuf_put(b, be, sizeof be);
    }
    ofpbuf_put(b, data, size);
    ofpmsg_update_length(b);
    return b;
}
