/* OpenFlow groups on the wire: group_mod, group desc, group stats and group
 * features in OpenFlow 1.1-1.4 (ofp11 buckets: weight, watch_port and
 * watch_group in the bucket header), OpenFlow 1.5 (ofp15 buckets: a
 * bucket id and properties) and OpenFlow 1.0, where Open vSwitch carries
 * groups as Nicira extensions (NXT_GROUP_MOD, NXST_GROUP,
 * NXST_GROUP_DESC, NXST_GROUP_FEATURES) with OpenFlow 1.5's bodies and
 * OpenFlow 1.0 actions.
 *
 * Buckets decoded from OpenFlow 1.1-1.4 get ids 0, 1, 2... in order, as in
 * Open vSwitch, so that a group reads back the same in every version.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_GROUP_H
#define OFP_GROUP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "ofp-errors.h"
#include "ofp-types.h"

struct ds;
struct ofp_header;
struct ofpbuf;
struct ofputil_port_map;

/* Group types (OFPGT11_*). */
enum ofputil_group_type {
    OFPGT11_ALL = 0,
    OFPGT11_SELECT = 1,
    OFPGT11_INDIRECT = 2,
    OFPGT11_FF = 3,
};

/* group_mod commands (OFPGC11_*, OFPGC15_*). */
enum ofputil_group_command {
    OFPGC11_ADD = 0,
    OFPGC11_MODIFY = 1,
    OFPGC11_DELETE = 2,
    OFPGC15_INSERT_BUCKET = 3,
    OFPGC15_REMOVE_BUCKET = 5,
    OFPGC11_ADD_OR_MOD = 0x8000,        /* Open vSwitch's extension. */
};

/* Special bucket ids (OpenFlow 1.5). */
#define OFPG15_BUCKET_MAX 0xffffff00u
#define OFPG15_BUCKET_FIRST 0xfffffffdu
#define OFPG15_BUCKET_LAST 0xfffffffeu
#define OFPG15_BUCKET_ALL 0xffffffffu

/* Group capabilities (OFPGFC_*). */
#define OFPGFC_SELECT_WEIGHT 1
#define OFPGFC_SELECT_LIVENESS 2
#define OFPGFC_CHAINING 4

/* A bucket.  'watch_port' is an OpenFlow 1.1 port number (OFPP11_ANY,
 * 0xffffffff, for none), 'watch_group' a group (OFPG_ANY for none). */
struct ofputil_bucket {
    uint32_t bucket_id;
    uint16_t weight;
    uint32_t watch_port;
    uint32_t watch_group;
    struct ofpact *ofpacts;     /* malloc()ed. */
    size_t ofpacts_len;
};

#define OFPUTIL_WATCH_PORT_ANY 0xffffffffu

/* A bucket id a group_mod lets the encoder choose (buckets ovs-ofctl
 * parsed without "bucket_id:"). */
#define OFPUTIL_BUCKET_ID_UNSET OFPG15_BUCKET_ALL

/* Group properties: Netronome's selection method property, which Open
 * vSwitch carries in OpenFlow 1.5 and in its OpenFlow 1.0 extension (1.1-1.4
 * have no room for it).  'fields' holds the property's fields as on the
 * wire: each an OXM or NXM header without the mask bit, then the mask. */
struct ofputil_group_props {
    char selection_method[16];  /* "" for none. */
    uint64_t selection_method_param;
    uint8_t *fields;            /* malloc()ed, may be NULL. */
    size_t fields_len;
};

struct ofputil_group_mod {
    uint16_t command;           /* OFPGC*. */
    uint8_t type;               /* OFPGT11_*. */
    uint32_t group_id;
    uint32_t command_bucket_id; /* OpenFlow 1.5 insert/remove bucket. */
    struct ofputil_bucket *buckets;     /* malloc()ed. */
    size_t n_buckets;
    struct ofputil_group_props props;
};

/* A group's counters (stats reply). */
struct ofputil_group_stats {
    uint32_t group_id;
    uint32_t ref_count;
    uint64_t packet_count, byte_count;
    uint32_t duration_sec, duration_nsec;
    size_t n_buckets;
    uint64_t *bucket_packets, *bucket_bytes;    /* 'n_buckets' each. */
};

/* group_mod. */
enum ofperr ofputil_decode_group_mod(const struct ofp_header *,
                                     struct ofputil_group_mod *);
struct ofpbuf *ofputil_encode_group_mod(enum ofp_version,
                                        const struct ofputil_group_mod *);
void ofputil_group_mod_uninit(struct ofputil_group_mod *);
void ofputil_buckets_free(struct ofputil_bucket *, size_t n);
struct ofputil_bucket *ofputil_buckets_clone(const struct ofputil_bucket *,
                                             size_t n);

/* The buckets of a group of 'type' with the 'n_old' buckets of 'old' once
 * insert_bucket or remove_bucket 'gm' is done, in '*newp' and '*n_newp'
 * (malloc()ed: the caller frees them with ofputil_buckets_free()).
 * Buckets are inserted at the start (command bucket id "first"), at the end
 * ("last") or after the bucket with the id given, as Open vSwitch inserts
 * them.  Returns 0, or Open vSwitch's error: OFPGMFC_UNKNOWN_BUCKET for a
 * bucket id the group lacks, OFPGMFC_BUCKET_EXISTS for an inserted
 * bucket's id that it has.  As in Open vSwitch, the result is not checked
 * against the group's type. */
enum ofperr ofputil_group_edit_buckets(const struct ofputil_group_mod *gm,
                                       uint8_t type,
                                       const struct ofputil_bucket *old,
                                       size_t n_old,
                                       struct ofputil_bucket **newp,
                                       size_t *n_newp);

/* ovs-ofctl(8)'s "Group Syntax": parses 'string' as a group_mod 'command'
 * (OFPGC*; with 'keywords', a leading "add", "modify", "add_or_mod",
 * "delete", "insert_bucket" or "remove_bucket" may choose another, as
 * ovs-ofctl add-groups lets a file's lines do) into '*gm', naming ports by
 * 'port_map' (may be NULL).  '*usable_versions' gets the OpenFlow versions
 * (1 << OFP*_VERSION) that can carry it.  Returns NULL, or Open vSwitch's
 * error message (for the caller to free; '*gm' is then empty). */
char *ofputil_parse_group_mod(struct ofputil_group_mod *gm, int command,
                              bool keywords, const char *string,
                              const struct ofputil_port_map *port_map,
                              uint32_t *usable_versions)
    DPS_WARN_UNUSED_RESULT;

/* Multipart bodies.  The appenders add one entry to 'reply', a multipart
 * reply being built for 'version' (after its header). */
void ofputil_append_group_desc(struct ofpbuf *reply, enum ofp_version,
                               uint32_t group_id, uint8_t type,
                               const struct ofputil_bucket *, size_t n,
                               const struct ofputil_group_props *);
void ofputil_append_group_stats(struct ofpbuf *reply, enum ofp_version,
                                const struct ofputil_group_stats *);
void ofputil_put_group_features(struct ofpbuf *reply, enum ofp_version);

/* The group a stats or desc request asks for (OFPG_ALL for every one). */
uint32_t ofputil_decode_group_request(const struct ofp_header *);

/* Parses group id 's' (a number, "all" or "any") into '*group_id'; logs
 * Open vSwitch's warning and returns false if it is none of those. */
bool ofputil_group_from_string(const char *s, uint32_t *group_id);

/* Text, as Open vSwitch's ovs-ofctl shows it.  The format_*_reply
 * functions print a group desc or stats reply's body (after the header
 * line) and return 0 or the error that made them stop. */
enum ofperr ofputil_format_group_desc_reply(struct ds *,
                                            const struct ofp_header *,
                                            const struct ofputil_port_map *);
enum ofperr ofputil_format_group_stats_reply(struct ds *,
                                             const struct ofp_header *);
const char *ofputil_group_type_to_string(uint8_t type);
void ofputil_format_buckets(struct ds *, enum ofp_version, uint8_t type,
                            const struct ofputil_bucket *, size_t n,
                            const struct ofputil_port_map *);
enum ofperr ofputil_format_group_mod(struct ds *, const struct ofp_header *,
                                     const struct ofputil_port_map *);
enum ofperr ofputil_format_group_features_reply(struct ds *,
                                                const struct ofp_header *);

#endif /* ofp-group.h */
