/* OpenFlow errors: Open vSwitch's names for them and their (type, code)
 * numbers in each OpenFlow version.
 *
 * An 'enum ofperr' is 0 for success or one of the OFPERR_* values below,
 * which are never valid errno values, so a function can return either.
 * OFP_ERRORS(E) calls E(NAME, TYPE, CODE, OF10_TYPE, OF10_CODE, TEXT) once
 * per error: TYPE and CODE are the OpenFlow 1.1+ numbers; OF10_TYPE and
 * OF10_CODE the OpenFlow 1.0 ones, -1 where OpenFlow 1.0 lacks the error
 * (it is then sent as OFPET_BAD_REQUEST/OFPBRC_EPERM, as OVS does for
 * errors a version cannot express).  Where Open vSwitch sends an error in
 * OpenFlow 1.0 as a Nicira extension (an NXET_VENDOR error, type 0xb0c2,
 * carrying vendor 0x2320 and its own type and code), OF10_TYPE is
 * NX10(type) and OF10_CODE the code.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_ERRORS_H
#define OFP_ERRORS_H 1

#include <stdbool.h>
#include <stdint.h>
#include "ofp-types.h"

struct ds;
struct ofpbuf;

/* OpenFlow 1.0 errors sent inside an NXET_VENDOR error (see above). */
#define OFPERR_NX10_BASE 0x10000
#define NX10(TYPE) (OFPERR_NX10_BASE + (TYPE))
#define NXET_VENDOR 0xb0c2
#define NX_VENDOR_ID 0x00002320
#define NX_VENDOR_ERROR_LEN 8   /* vendor, type, code. */

/* OpenFlow 1.4's bundle errors (type OFPET14_BUNDLE_FAILED, 17) go in
 * OpenFlow 1.3 as ONF experimenter errors (type 0xffff, the experimenter
 * code ONF_BUNDLE_ERROR_BASE + the 1.4 code, experimenter 0x4f4e4600), as
 * Open vSwitch sends them with its ONF bundle extension. */
#define OFPET14_BUNDLE_FAILED 17
#define OFPET12_EXPERIMENTER 0xffff
#define ONF_VENDOR_ID 0x4f4e4600
#define ONF_BUNDLE_ERROR_BASE 2300

/* OFPBFC_BAD_VERSION is Open vSwitch's own: a Nicira experimenter error
 * (type 0xffff, experimenter 0x2320) with code 10 in OpenFlow 1.2 and 1.3
 * and 22 in 1.4+. */
#define NX12_BUNDLE_BAD_VERSION 10
#define NX14_BUNDLE_BAD_VERSION 22

/* The first error number: past every errno. */
#define OFPERR_OFS (1 << 30)

#define OFP_ERRORS(E)                                                   \
    E(OFPHFC_INCOMPATIBLE, 0, 0, 0, 0,                                  \
      "no compatible OpenFlow version")                                 \
    E(OFPHFC_EPERM, 0, 1, 0, 1, "permissions error")                    \
    E(OFPBRC_BAD_VERSION, 1, 0, 1, 0, "ofp_header.version not supported") \
    E(OFPBRC_BAD_TYPE, 1, 1, 1, 1, "ofp_header.type not supported")     \
    E(OFPBRC_BAD_STAT, 1, 2, 1, 2, "ofp_stats_msg.type not supported")  \
    E(OFPBRC_BAD_VENDOR, 1, 3, 1, 3,                                    \
      "Vendor not supported (in ofp_vendor_header or ofp_stats_msg).")  \
    E(OFPBRC_BAD_SUBTYPE, 1, 4, 1, 4, "Vendor subtype not supported.")  \
    E(OFPBRC_EPERM, 1, 5, 1, 5, "Permissions error.")                   \
    E(OFPBRC_BAD_LEN, 1, 6, 1, 6, "Wrong request length for type.")     \
    E(OFPBRC_BUFFER_EMPTY, 1, 7, 1, 7,                                  \
      "Specified buffer has already been used.")                        \
    E(OFPBRC_BUFFER_UNKNOWN, 1, 8, 1, 8,                                \
      "Specified buffer does not exist.")                               \
    E(OFPBRC_BAD_TABLE_ID, 1, 9, -1, -1,                                \
      "Specified table-id invalid or does not exist.")                  \
    E(OFPBRC_IS_SLAVE, 1, 10, -1, -1,                                   \
      "Denied because controller is slave.")                            \
    E(OFPBRC_BAD_PORT, 1, 11, NX10(1), 514, "Invalid port.")             \
    E(OFPBRC_BAD_PACKET, 1, 12, -1, -1, "Invalid packet in packet-out.") \
    E(OFPBRC_MULTIPART_BUFFER_OVERFLOW, 1, 13, -1, -1,                  \
      "Multipart request overflowed the assigned buffer.")              \
    E(OFPBAC_BAD_TYPE, 2, 0, 2, 0, "Unknown action type.")              \
    E(OFPBAC_BAD_LEN, 2, 1, 2, 1, "Length problem in actions.")         \
    E(OFPBAC_BAD_VENDOR, 2, 2, 2, 2, "Unknown experimenter id specified.") \
    E(OFPBAC_BAD_VENDOR_TYPE, 2, 3, 2, 3,                               \
      "Unknown action type for experimenter id.")                       \
    E(OFPBAC_BAD_OUT_PORT, 2, 4, 2, 4, "Problem validating output port.") \
    E(OFPBAC_BAD_ARGUMENT, 2, 5, 2, 5, "Bad action argument.")          \
    E(OFPBAC_EPERM, 2, 6, 2, 6, "Permissions error.")                   \
    E(OFPBAC_TOO_MANY, 2, 7, 2, 7, "Can't handle this many actions.")   \
    E(OFPBAC_BAD_QUEUE, 2, 8, 2, 8, "Problem validating output queue.") \
    E(OFPBAC_BAD_OUT_GROUP, 2, 9, -1, -1, "Invalid group id in forward action.") \
    E(OFPBAC_MATCH_INCONSISTENT, 2, 10, -1, -1,                         \
      "Action can't apply for this match, or a set_field prerequisite is not met.") \
    E(OFPBAC_UNSUPPORTED_ORDER, 2, 11, -1, -1,                          \
      "Action order is unsupported for the action list in an Apply-Actions instruction") \
    E(OFPBAC_BAD_TAG, 2, 12, -1, -1,                                    \
      "Actions uses an unsupported tag/encap.")                         \
    E(OFPBAC_BAD_SET_TYPE, 2, 13, -1, -1, "Unsupported type in SET_FIELD action.") \
    E(OFPBAC_BAD_SET_LEN, 2, 14, -1, -1, "Length problem in SET_FIELD action.") \
    E(OFPBAC_BAD_SET_ARGUMENT, 2, 15, -1, -1,                           \
      "Bad argument in SET_FIELD action.")                              \
    E(OFPBIC_UNKNOWN_INST, 3, 0, -1, -1, "Unknown instruction.")        \
    E(OFPBIC_UNSUP_INST, 3, 1, -1, -1, "Switch or table does not support the instruction.") \
    E(OFPBIC_BAD_TABLE_ID, 3, 2, -1, -1, "Invalid Table-ID specified.") \
    E(OFPBIC_UNSUP_METADATA, 3, 3, -1, -1, "Metadata value unsupported by datapath.") \
    E(OFPBIC_UNSUP_METADATA_MASK, 3, 4, -1, -1, "Metadata mask value unsupported by datapath.") \
    E(OFPBIC_BAD_EXPERIMENTER, 3, 5, -1, -1, "Unknown experimenter id specified.") \
    E(OFPBIC_BAD_LEN, 3, 7, -1, -1, "Length problem in instructions.")  \
    E(OFPBIC_DUP_INST, 3, 8, -1, -1, "Duplicate instruction.")          \
    E(OFPBMC_BAD_TYPE, 4, 0, -1, -1, "Unsupported match type specified by the match.") \
    E(OFPBMC_BAD_LEN, 4, 1, -1, -1, "Length problem in match.")         \
    E(OFPBMC_BAD_TAG, 4, 2, -1, -1, "Match uses an unsupported tag/encap.") \
    E(OFPBMC_BAD_DL_ADDR_MASK, 4, 3, -1, -1,                            \
      "Unsupported datalink addr mask - switch does not support arbitrary datalink address mask.") \
    E(OFPBMC_BAD_NW_ADDR_MASK, 4, 4, -1, -1,                            \
      "Unsupported network addr mask - switch does not support arbitrary network address mask.") \
    E(OFPBMC_BAD_WILDCARDS, 4, 5, -1, -1, "Unsupported combination of fields masked or omitted in the match.") \
    E(OFPBMC_BAD_FIELD, 4, 6, -1, -1, "Unsupported field type in the match.") \
    E(OFPBMC_BAD_VALUE, 4, 7, -1, -1, "Unsupported value in a match field.") \
    E(OFPBMC_BAD_MASK, 4, 8, -1, -1, "Unsupported mask specified in the match.") \
    E(OFPBMC_BAD_PREREQ, 4, 9, -1, -1, "A prerequisite was not met.")   \
    E(OFPBMC_DUP_FIELD, 4, 10, -1, -1, "A field type was duplicated.")  \
    E(OFPBMC_EPERM, 4, 11, -1, -1, "Permissions error.")                \
    E(OFPFMFC_UNKNOWN, 5, 0, -1, -1, "Unspecified error.")              \
    E(OFPFMFC_TABLE_FULL, 5, 1, 3, 0, "Flow not added because table was full.") \
    E(OFPFMFC_BAD_TABLE_ID, 5, 2, -1, -1, "Table does not exist") \
    E(OFPFMFC_OVERLAP, 5, 3, 3, 1, "Attempted to add overlapping flow with CHECK_OVERLAP flag set.") \
    E(OFPFMFC_EPERM, 5, 4, 3, 2, "Permissions error.")                  \
    E(OFPFMFC_BAD_TIMEOUT, 5, 5, -1, -1, "Flow not added because of unsupported idle/hard timeout.") \
    E(OFPFMFC_BAD_EMERG_TIMEOUT, -1, -1, 3, 3, "Flow not added because of non-zero idle/hard timeout.") \
    E(OFPFMFC_BAD_COMMAND, 5, 6, 3, 4, "Unsupported or unknown command.") \
    E(OFPFMFC_BAD_FLAGS, 5, 7, NX10(3), 258, "Unsupported or unknown flags.") \
    E(OFPMMFC_UNKNOWN_METER, 12, 2, -1, -1, "Meter not added because meter specified is invalid, or invalid meter in meter action.") \
    E(OFPGMFC_GROUP_EXISTS, 6, 0, NX10(6), 0, "Group not added because a group ADD attempted to replace an already-present group.") \
    E(OFPGMFC_INVALID_GROUP, 6, 1, NX10(6), 1, "Group not added because Group specified is invalid.") \
    E(OFPGMFC_WEIGHT_UNSUPPORTED, 6, 2, NX10(6), 2, "Switch does not support unequal load sharing with select groups.") \
    E(OFPGMFC_OUT_OF_GROUPS, 6, 3, NX10(6), 3, "The group table is full.")  \
    E(OFPGMFC_OUT_OF_BUCKETS, 6, 4, NX10(6), 4, "The maximum number of action buckets for a group has been exceeded.") \
    E(OFPGMFC_CHAINING_UNSUPPORTED, 6, 5, NX10(6), 5, "Switch does not support groups that forward to groups.") \
    E(OFPGMFC_WATCH_UNSUPPORTED, 6, 6, NX10(6), 6, "This group cannot watch the watch_port or watch_group specified.") \
    E(OFPGMFC_LOOP, 6, 7, NX10(6), 7, "Group entry would cause a loop.") \
    E(OFPGMFC_UNKNOWN_GROUP, 6, 8, NX10(6), 8, "Group not modified because a group MODIFY attempted to modify a non-existent group.") \
    E(OFPGMFC_CHAINED_GROUP, 6, 9, NX10(6), 9, "Group not deleted because another group is forwarding to it.") \
    E(OFPGMFC_BAD_TYPE, 6, 10, NX10(6), 10, "Unsupported or unknown group type.") \
    E(OFPGMFC_BAD_COMMAND, 6, 11, NX10(6), 11, "Unsupported or unknown command.") \
    E(OFPGMFC_BAD_BUCKET, 6, 12, NX10(6), 12, "Error in bucket.")            \
    E(OFPGMFC_BAD_WATCH, 6, 13, NX10(6), 13, "Error in watch port/group.")  \
    E(OFPGMFC_EPERM, 6, 14, NX10(6), 14, "Permissions error.")               \
    E(OFPGMFC_UNKNOWN_BUCKET, 6, 15, NX10(6), 15, "Invalid bucket identifier used in INSERT BUCKET or REMOVE BUCKET command.") \
    E(OFPGMFC_BUCKET_EXISTS, 6, 16, NX10(6), 16, "Can't insert bucket because a bucket with that identifier already exists.") \
    E(OFPBFC_UNKNOWN, 17, 0, -1, -1, "Unspecified error.") \
    E(OFPBFC_EPERM, 17, 1, -1, -1, "Permissions error.") \
    E(OFPBFC_BAD_ID, 17, 2, -1, -1, "Bundle ID doesn't exist.") \
    E(OFPBFC_BUNDLE_EXIST, 17, 3, -1, -1, "Bundle ID already exists.") \
    E(OFPBFC_BUNDLE_CLOSED, 17, 4, -1, -1, "Bundle ID is closed.") \
    E(OFPBFC_OUT_OF_BUNDLES, 17, 5, -1, -1, "Too many bundle IDs.") \
    E(OFPBFC_BAD_TYPE, 17, 6, -1, -1, "Unsupported or unknown message control type.") \
    E(OFPBFC_BAD_FLAGS, 17, 7, -1, -1, "Unsupported, unknown, or inconsistent flags.") \
    E(OFPBFC_MSG_BAD_LEN, 17, 8, -1, -1, "Length problem in included message.") \
    E(OFPBFC_MSG_BAD_XID, 17, 9, -1, -1, "Inconsistent or duplicate XID.") \
    E(OFPBFC_MSG_UNSUP, 17, 10, -1, -1, "Unsupported message in this bundle.") \
    E(OFPBFC_MSG_CONFLICT, 17, 11, -1, -1, "Unsupported message combination in this bundle.") \
    E(OFPBFC_MSG_TOO_MANY, 17, 12, -1, -1, "Can't handle this many messages in bundle.") \
    E(OFPBFC_MSG_FAILED, 17, 13, -1, -1, "One message in bundle failed.") \
    E(OFPBFC_TIMEOUT, 17, 14, -1, -1, "Bundle is taking too long.") \
    E(OFPBFC_BUNDLE_IN_PROGRESS, 17, 15, -1, -1, "Bundle is locking the resource.") \
    E(OFPBFC_BAD_VERSION, -1, -1, -1, -1, "Bundled message's version is not the bundle's.") \
    E(OFPBPC_BAD_TYPE, 14, 0, -1, -1, "Unknown property type.")       \
    E(OFPBPC_BAD_LEN, 14, 1, -1, -1, "Length problem in property.")   \
    E(OFPBPC_BAD_VALUE, 14, 4, -1, -1, "Unsupported property value.")  \
    E(OFPACFC_INVALID, 15, 0, -1, -1, "One mask is invalid.")          \
    E(OFPACFC_UNSUPPORTED, 15, 1, -1, -1,                               \
      "Requested configuration not supported.")                         \
    E(OFPACFC_EPERM, 15, 2, -1, -1, "Permissions error.")             \
    E(OFPPMFC_BAD_PORT, 7, 0, 4, 0, "Specified port does not exist.")   \
    E(OFPPMFC_BAD_HW_ADDR, 7, 1, 4, 1, "Specified hardware address does not match the port number.") \
    E(OFPPMFC_BAD_CONFIG, 7, 2, -1, -1, "Specified config is invalid.") \
    E(OFPQOFC_BAD_PORT, 9, 0, 5, 0, "Invalid port (or port does not exist).") \
    E(OFPQOFC_BAD_QUEUE, 9, 1, 5, 1, "Queue does not exist.")           \
    E(OFPQOFC_EPERM, 9, 2, 5, 2, "Permissions error.")                  \
    E(OFPTMFC_BAD_TABLE, 8, 0, -1, -1, "Specified table does not exist.") \
    E(OFPTMFC_BAD_CONFIG, 8, 1, -1, -1, "Specified config is invalid.") \
    E(OFPSCFC_BAD_FLAGS, 10, 0, -1, -1, "Specified flags is invalid.")  \
    E(OFPSCFC_BAD_LEN, 10, 1, -1, -1, "Specified len is invalid.")      \
    E(OFPRRFC_STALE, 11, 0, -1, -1, "Stale Message: old generation_id.") \
    E(OFPRRFC_UNSUP, 11, 1, -1, -1, "Controller role change unsupported.") \
    E(OFPRRFC_BAD_ROLE, 11, 2, -1, -1, "Invalid role.")                 \
    E(OFPTFFC_BAD_TABLE, 13, 0, -1, -1, "Specified table does not exist.") \
    E(OFPTFFC_EPERM, 13, 5, -1, -1, "Permissions error.")              \
    E(NXBRC_BAD_REASON, -1, -1, -1, -1, "Invalid reason in a message.") \
    E(NXBRC_NXM_INVALID, -1, -1, -1, -1, "Invalid NXM flow match.")

enum ofperr {
    OFPERR_BASE = OFPERR_OFS - 1,
#define OFPERR_ENUM(NAME, TYPE, CODE, T10, C10, TEXT) OFPERR_##NAME,
    OFP_ERRORS(OFPERR_ENUM)
#undef OFPERR_ENUM
    OFPERR_MAX
};

/* True if 'error' is one of the OFPERR_* values. */
static inline bool
ofperr_is_valid(int error)
{
    return error > OFPERR_BASE && error < OFPERR_MAX;
}

const char *ofperr_get_name(enum ofperr);
const char *ofperr_get_description(enum ofperr);
enum ofperr ofperr_from_name(const char *);
int ofperr_get_type(enum ofperr, enum ofp_version);
int ofperr_get_code(enum ofperr, enum ofp_version);
enum ofperr ofperr_decode(enum ofp_version, int type, int code);
const char *ofperr_to_string(enum ofperr);

struct ofpbuf *ofperr_encode_reply(enum ofperr, const void *request);
struct ofpbuf *ofperr_encode_hello(enum ofperr, enum ofp_version,
                                   const char *);
enum ofperr ofperr_decode_msg(const void *oh, struct ofpbuf *payload);

#endif /* ofp-errors.h */
