/* OpenFlow message framing: headers, message types in every version, and
 * the fixed parts of the messages OVS speaks.
 *
 * A message's "raw" type (enum ofpraw) is its exact identity on the wire:
 * version range, header type, multipart (stats) type and Nicira subtype.
 * Each raw type belongs to one version-independent 'enum ofptype' (OVS's
 * split); code that handles a message switches on the ofptype and decodes
 * the body per version.  OFPRAWS(R) is the single list: R(RAW, TYPE,
 * MIN_VERSION, MAX_VERSION, OFP_TYPE, STAT, SUBTYPE, HDR_SIZE, MIN_BODY,
 * BODY_MULTIPLE, NAME) per raw type, where STAT is the multipart type (or
 * -1), SUBTYPE the Nicira subtype (or -1), HDR_SIZE the bytes before the
 * body, MIN_BODY the least body size and BODY_MULTIPLE the granularity of
 * any more (0: the body is exactly MIN_BODY bytes).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFP_MSGS_H
#define OFP_MSGS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "ofp-types.h"

struct ds;
struct ofpbuf;

/* Every OpenFlow message starts with this. */
struct ofp_header {
    uint8_t version;
    uint8_t type;
    dps_be16 length;            /* Including this header. */
    dps_be32 xid;
};
_Static_assert(sizeof(struct ofp_header) == 8, "ofp_header");

#define OFP_VENDOR_NICIRA 0x00002320
#define OFP_VENDOR_ONF 0x4f4e4600

/* A raw type's SUBTYPE with this bit is an ONF experimenter message (its
 * exp_type in the low bits) rather than a Nicira one. */
#define OFPRAW_ONF_SUBTYPE 0x40000000
#define ONF_SUBTYPE(EXP_TYPE) (OFPRAW_ONF_SUBTYPE | (EXP_TYPE))
#define OFP_HEADER_TYPE_VENDOR 4
#define OFP10_TYPE_STATS_REQUEST 16
#define OFP10_TYPE_STATS_REPLY 17
#define OFP11_TYPE_MULTIPART_REQUEST 18
#define OFP11_TYPE_MULTIPART_REPLY 19
#define OFP_STAT_VENDOR 0xffff

/* Multipart flags. */
#define OFPSF_REPLY_MORE 0x0001

#define OFPRAWS(R)                                                        \
    R(OFPRAW_OFPT_HELLO, OFPTYPE_HELLO, 1, 255, 0, -1, -1, 8, 0, 1,       \
      "OFPT_HELLO")                                                       \
    R(OFPRAW_OFPT_ERROR, OFPTYPE_ERROR, 1, 6, 1, -1, -1, 8, 4, 1,         \
      "OFPT_ERROR")                                                       \
    R(OFPRAW_OFPT_ECHO_REQUEST, OFPTYPE_ECHO_REQUEST, 1, 6, 2, -1, -1,    \
      8, 0, 1, "OFPT_ECHO_REQUEST")                                       \
    R(OFPRAW_OFPT_ECHO_REPLY, OFPTYPE_ECHO_REPLY, 1, 6, 3, -1, -1,        \
      8, 0, 1, "OFPT_ECHO_REPLY")                                         \
    R(OFPRAW_OFPT_FEATURES_REQUEST, OFPTYPE_FEATURES_REQUEST, 1, 6, 5,    \
      -1, -1, 8, 0, 0, "OFPT_FEATURES_REQUEST")                           \
    R(OFPRAW_OFPT10_FEATURES_REPLY, OFPTYPE_FEATURES_REPLY, 1, 1, 6,      \
      -1, -1, 8, 24, 48, "OFPT_FEATURES_REPLY")                           \
    R(OFPRAW_OFPT13_FEATURES_REPLY, OFPTYPE_FEATURES_REPLY, 4, 6, 6,      \
      -1, -1, 8, 24, 0, "OFPT_FEATURES_REPLY")                            \
    R(OFPRAW_OFPT_GET_CONFIG_REQUEST, OFPTYPE_GET_CONFIG_REQUEST, 1, 6,   \
      7, -1, -1, 8, 0, 0, "OFPT_GET_CONFIG_REQUEST")                      \
    R(OFPRAW_OFPT_GET_CONFIG_REPLY, OFPTYPE_GET_CONFIG_REPLY, 1, 6, 8,    \
      -1, -1, 8, 4, 0, "OFPT_GET_CONFIG_REPLY")                           \
    R(OFPRAW_OFPT_SET_CONFIG, OFPTYPE_SET_CONFIG, 1, 6, 9, -1, -1,        \
      8, 4, 0, "OFPT_SET_CONFIG")                                         \
    R(OFPRAW_OFPT10_PACKET_IN, OFPTYPE_PACKET_IN, 1, 1, 10, -1, -1,       \
      8, 10, 1, "OFPT_PACKET_IN")                                         \
    R(OFPRAW_OFPT13_PACKET_IN, OFPTYPE_PACKET_IN, 4, 6, 10, -1, -1,       \
      8, 16, 1, "OFPT_PACKET_IN")                                         \
    R(OFPRAW_OFPT10_FLOW_REMOVED, OFPTYPE_FLOW_REMOVED, 1, 1, 11, -1, -1, \
      8, 80, 0, "OFPT_FLOW_REMOVED")                                      \
    R(OFPRAW_OFPT13_FLOW_REMOVED, OFPTYPE_FLOW_REMOVED, 4, 5, 11, -1, -1, \
      8, 48, 8, "OFPT_FLOW_REMOVED")                                      \
    R(OFPRAW_OFPT15_FLOW_REMOVED, OFPTYPE_FLOW_REMOVED, 6, 6, 11, -1, -1, \
      8, 32, 8, "OFPT_FLOW_REMOVED")                                      \
    R(OFPRAW_OFPT10_PORT_STATUS, OFPTYPE_PORT_STATUS, 1, 1, 12, -1, -1,   \
      8, 56, 0, "OFPT_PORT_STATUS")                                       \
    R(OFPRAW_OFPT13_PORT_STATUS, OFPTYPE_PORT_STATUS, 4, 4, 12, -1, -1,   \
      8, 72, 0, "OFPT_PORT_STATUS")                                       \
    R(OFPRAW_OFPT14_PORT_STATUS, OFPTYPE_PORT_STATUS, 5, 6, 12, -1, -1,   \
      8, 48, 8, "OFPT_PORT_STATUS")                                       \
    R(OFPRAW_OFPT10_PACKET_OUT, OFPTYPE_PACKET_OUT, 1, 1, 13, -1, -1,     \
      8, 8, 1, "OFPT_PACKET_OUT")                                         \
    R(OFPRAW_OFPT13_PACKET_OUT, OFPTYPE_PACKET_OUT, 4, 5, 13, -1, -1,     \
      8, 16, 1, "OFPT_PACKET_OUT")                                        \
    R(OFPRAW_OFPT15_PACKET_OUT, OFPTYPE_PACKET_OUT, 6, 6, 13, -1, -1,     \
      8, 8, 1, "OFPT_PACKET_OUT")                                         \
    R(OFPRAW_OFPT10_FLOW_MOD, OFPTYPE_FLOW_MOD, 1, 1, 14, -1, -1,         \
      8, 64, 8, "OFPT_FLOW_MOD")                                          \
    R(OFPRAW_OFPT13_FLOW_MOD, OFPTYPE_FLOW_MOD, 4, 6, 14, -1, -1,         \
      8, 40, 8, "OFPT_FLOW_MOD")                                          \
    R(OFPRAW_OFPT10_PORT_MOD, OFPTYPE_PORT_MOD, 1, 1, 15, -1, -1,         \
      8, 24, 0, "OFPT_PORT_MOD")                                          \
    R(OFPRAW_OFPT11_GROUP_MOD, OFPTYPE_GROUP_MOD, 2, 5, 15, -1, -1,       \
      8, 8, 8, "OFPT_GROUP_MOD")                                          \
    R(OFPRAW_OFPT15_GROUP_MOD, OFPTYPE_GROUP_MOD, 6, 6, 15, -1, -1,       \
      8, 16, 8, "OFPT_GROUP_MOD")                                         \
    R(OFPRAW_OFPT13_PORT_MOD, OFPTYPE_PORT_MOD, 4, 4, 16, -1, -1,         \
      8, 32, 0, "OFPT_PORT_MOD")                                          \
    R(OFPRAW_OFPT14_PORT_MOD, OFPTYPE_PORT_MOD, 5, 6, 16, -1, -1,         \
      8, 24, 8, "OFPT_PORT_MOD")                                          \
    R(OFPRAW_OFPT13_TABLE_MOD, OFPTYPE_TABLE_MOD, 4, 4, 17, -1, -1,       \
      8, 8, 0, "OFPT_TABLE_MOD")                                          \
    R(OFPRAW_OFPT14_TABLE_MOD, OFPTYPE_TABLE_MOD, 5, 6, 17, -1, -1,       \
      8, 8, 8, "OFPT_TABLE_MOD")                                          \
    R(OFPRAW_OFPT10_BARRIER_REQUEST, OFPTYPE_BARRIER_REQUEST, 1, 1, 18,   \
      -1, -1, 8, 0, 0, "OFPT_BARRIER_REQUEST")                            \
    R(OFPRAW_OFPT10_BARRIER_REPLY, OFPTYPE_BARRIER_REPLY, 1, 1, 19,       \
      -1, -1, 8, 0, 0, "OFPT_BARRIER_REPLY")                              \
    R(OFPRAW_OFPT13_BARRIER_REQUEST, OFPTYPE_BARRIER_REQUEST, 4, 6, 20,   \
      -1, -1, 8, 0, 0, "OFPT_BARRIER_REQUEST")                            \
    R(OFPRAW_OFPT13_BARRIER_REPLY, OFPTYPE_BARRIER_REPLY, 4, 6, 21,       \
      -1, -1, 8, 0, 0, "OFPT_BARRIER_REPLY")                              \
    R(OFPRAW_OFPT13_ROLE_REQUEST, OFPTYPE_ROLE_REQUEST, 4, 6, 24, -1, -1, \
      8, 16, 0, "OFPT_ROLE_REQUEST")                                      \
    R(OFPRAW_OFPT13_ROLE_REPLY, OFPTYPE_ROLE_REPLY, 4, 6, 25, -1, -1,     \
      8, 16, 0, "OFPT_ROLE_REPLY")                                        \
    R(OFPRAW_OFPT13_GET_ASYNC_REQUEST, OFPTYPE_GET_ASYNC_REQUEST, 4, 6,   \
      26, -1, -1, 8, 0, 0, "OFPT_GET_ASYNC_REQUEST")                      \
    R(OFPRAW_OFPT13_GET_ASYNC_REPLY, OFPTYPE_GET_ASYNC_REPLY, 4, 4, 27,   \
      -1, -1, 8, 24, 0, "OFPT_GET_ASYNC_REPLY")                           \
    R(OFPRAW_OFPT14_GET_ASYNC_REPLY, OFPTYPE_GET_ASYNC_REPLY, 5, 6, 27,   \
      -1, -1, 8, 0, 8, "OFPT_GET_ASYNC_REPLY")                            \
    R(OFPRAW_OFPT13_SET_ASYNC, OFPTYPE_SET_ASYNC_CONFIG, 4, 4, 28, -1,    \
      -1, 8, 24, 0, "OFPT_SET_ASYNC")                                     \
    R(OFPRAW_OFPT14_SET_ASYNC, OFPTYPE_SET_ASYNC_CONFIG, 5, 6, 28, -1,    \
      -1, 8, 0, 8, "OFPT_SET_ASYNC")                                      \
    R(OFPRAW_OFPT14_BUNDLE_CONTROL, OFPTYPE_BUNDLE_CONTROL, 5, 6, 33,     \
      -1, -1, 8, 8, 1, "OFPT_BUNDLE_CONTROL")                             \
    R(OFPRAW_OFPT14_BUNDLE_ADD_MESSAGE, OFPTYPE_BUNDLE_ADD_MESSAGE, 5, 6, \
      34, -1, -1, 8, 16, 1, "OFPT_BUNDLE_ADD_MESSAGE")                    \
                                                                          \
    /* Multipart (stats) requests and replies. */                        \
    R(OFPRAW_OFPST10_DESC_REQUEST, OFPTYPE_DESC_STATS_REQUEST, 1, 1, 16,  \
      0, -1, 12, 0, 0, "OFPST_DESC request")                              \
    R(OFPRAW_OFPST13_DESC_REQUEST, OFPTYPE_DESC_STATS_REQUEST, 4, 6, 18,  \
      0, -1, 16, 0, 0, "OFPST_DESC request")                              \
    R(OFPRAW_OFPST10_DESC_REPLY, OFPTYPE_DESC_STATS_REPLY, 1, 1, 17,      \
      0, -1, 12, 1056, 0, "OFPST_DESC reply")                             \
    R(OFPRAW_OFPST13_DESC_REPLY, OFPTYPE_DESC_STATS_REPLY, 4, 6, 19,      \
      0, -1, 16, 1056, 0, "OFPST_DESC reply")                             \
    R(OFPRAW_OFPST10_FLOW_REQUEST, OFPTYPE_FLOW_STATS_REQUEST, 1, 1, 16,  \
      1, -1, 12, 44, 0, "OFPST_FLOW request")                             \
    R(OFPRAW_OFPST13_FLOW_REQUEST, OFPTYPE_FLOW_STATS_REQUEST, 4, 6, 18,  \
      1, -1, 16, 32, 8, "OFPST_FLOW request")                             \
    R(OFPRAW_OFPST10_FLOW_REPLY, OFPTYPE_FLOW_STATS_REPLY, 1, 1, 17,      \
      1, -1, 12, 0, 8, "OFPST_FLOW reply")                                \
    R(OFPRAW_OFPST13_FLOW_REPLY, OFPTYPE_FLOW_STATS_REPLY, 4, 5, 19,      \
      1, -1, 16, 0, 8, "OFPST_FLOW reply")                                \
    R(OFPRAW_OFPST15_FLOW_REPLY, OFPTYPE_FLOW_STATS_REPLY, 6, 6, 19,      \
      1, -1, 16, 0, 8, "OFPST_FLOW reply")                                \
    R(OFPRAW_OFPST10_AGGREGATE_REQUEST, OFPTYPE_AGGREGATE_STATS_REQUEST,  \
      1, 1, 16, 2, -1, 12, 44, 0, "OFPST_AGGREGATE request")              \
    R(OFPRAW_OFPST13_AGGREGATE_REQUEST, OFPTYPE_AGGREGATE_STATS_REQUEST,  \
      4, 6, 18, 2, -1, 16, 32, 8, "OFPST_AGGREGATE request")              \
    R(OFPRAW_OFPST10_AGGREGATE_REPLY, OFPTYPE_AGGREGATE_STATS_REPLY,      \
      1, 1, 17, 2, -1, 12, 24, 0, "OFPST_AGGREGATE reply")                \
    R(OFPRAW_OFPST13_AGGREGATE_REPLY, OFPTYPE_AGGREGATE_STATS_REPLY,      \
      4, 5, 19, 2, -1, 16, 24, 0, "OFPST_AGGREGATE reply")                \
    R(OFPRAW_OFPST15_AGGREGATE_REPLY, OFPTYPE_AGGREGATE_STATS_REPLY,      \
      6, 6, 19, 2, -1, 16, 8, 8, "OFPST_AGGREGATE reply")                 \
    R(OFPRAW_OFPST10_TABLE_REQUEST, OFPTYPE_TABLE_STATS_REQUEST, 1, 1,    \
      16, 3, -1, 12, 0, 0, "OFPST_TABLE request")                         \
    R(OFPRAW_OFPST13_TABLE_REQUEST, OFPTYPE_TABLE_STATS_REQUEST, 4, 6,    \
      18, 3, -1, 16, 0, 0, "OFPST_TABLE request")                         \
    R(OFPRAW_OFPST10_TABLE_REPLY, OFPTYPE_TABLE_STATS_REPLY, 1, 1, 17,    \
      3, -1, 12, 0, 64, "OFPST_TABLE reply")                              \
    R(OFPRAW_OFPST13_TABLE_REPLY, OFPTYPE_TABLE_STATS_REPLY, 4, 6, 19,    \
      3, -1, 16, 0, 24, "OFPST_TABLE reply")                              \
    R(OFPRAW_OFPST10_PORT_REQUEST, OFPTYPE_PORT_STATS_REQUEST, 1, 1, 16,  \
      4, -1, 12, 8, 0, "OFPST_PORT request")                              \
    R(OFPRAW_OFPST13_PORT_REQUEST, OFPTYPE_PORT_STATS_REQUEST, 4, 6, 18,  \
      4, -1, 16, 8, 0, "OFPST_PORT request")                              \
    R(OFPRAW_OFPST10_PORT_REPLY, OFPTYPE_PORT_STATS_REPLY, 1, 1, 17,      \
      4, -1, 12, 0, 104, "OFPST_PORT reply")                              \
    R(OFPRAW_OFPST13_PORT_REPLY, OFPTYPE_PORT_STATS_REPLY, 4, 4, 19,      \
      4, -1, 16, 0, 112, "OFPST_PORT reply")                              \
    R(OFPRAW_OFPST14_PORT_REPLY, OFPTYPE_PORT_STATS_REPLY, 5, 6, 19,      \
      4, -1, 16, 0, 8, "OFPST_PORT reply")                                \
    R(OFPRAW_OFPST10_QUEUE_REQUEST, OFPTYPE_QUEUE_STATS_REQUEST, 1, 1,    \
      16, 5, -1, 12, 8, 0, "OFPST_QUEUE request")                         \
    R(OFPRAW_OFPST11_QUEUE_REQUEST, OFPTYPE_QUEUE_STATS_REQUEST, 2, 6,    \
      18, 5, -1, 16, 8, 0, "OFPST_QUEUE request")                         \
    R(OFPRAW_OFPST10_QUEUE_REPLY, OFPTYPE_QUEUE_STATS_REPLY, 1, 1, 17,    \
      5, -1, 12, 0, 32, "OFPST_QUEUE reply")                              \
    R(OFPRAW_OFPST13_QUEUE_REPLY, OFPTYPE_QUEUE_STATS_REPLY, 4, 4, 19,    \
      5, -1, 16, 0, 40, "OFPST_QUEUE reply")                              \
    R(OFPRAW_OFPST14_QUEUE_REPLY, OFPTYPE_QUEUE_STATS_REPLY, 5, 6, 19,    \
      5, -1, 16, 0, 8, "OFPST_QUEUE reply")                               \
    R(OFPRAW_OFPST11_GROUP_REQUEST, OFPTYPE_GROUP_STATS_REQUEST, 2, 6,    \
      18, 6, -1, 16, 8, 0, "OFPST_GROUP request")                         \
    R(OFPRAW_OFPST11_GROUP_REPLY, OFPTYPE_GROUP_STATS_REPLY, 2, 3, 19,    \
      6, -1, 16, 0, 8, "OFPST_GROUP reply")                               \
    R(OFPRAW_OFPST13_GROUP_REPLY, OFPTYPE_GROUP_STATS_REPLY, 4, 6, 19,    \
      6, -1, 16, 0, 8, "OFPST_GROUP reply")                               \
    R(OFPRAW_OFPST11_GROUP_DESC_REQUEST, OFPTYPE_GROUP_DESC_STATS_REQUEST, \
      2, 5, 18, 7, -1, 16, 0, 0, "OFPST_GROUP_DESC request")              \
    R(OFPRAW_OFPST15_GROUP_DESC_REQUEST, OFPTYPE_GROUP_DESC_STATS_REQUEST, \
      6, 6, 18, 7, -1, 16, 8, 0, "OFPST_GROUP_DESC request")              \
    R(OFPRAW_OFPST11_GROUP_DESC_REPLY, OFPTYPE_GROUP_DESC_STATS_REPLY,    \
      2, 6, 19, 7, -1, 16, 0, 8, "OFPST_GROUP_DESC reply")                \
    R(OFPRAW_OFPST12_GROUP_FEATURES_REQUEST,                             \
      OFPTYPE_GROUP_FEATURES_STATS_REQUEST, 3, 6, 18, 8, -1, 16, 0, 0,   \
      "OFPST_GROUP_FEATURES request")                                     \
    R(OFPRAW_OFPST12_GROUP_FEATURES_REPLY,                               \
      OFPTYPE_GROUP_FEATURES_STATS_REPLY, 3, 6, 19, 8, -1, 16, 40, 0,    \
      "OFPST_GROUP_FEATURES reply")                                       \
    R(OFPRAW_OFPST13_TABLE_FEATURES_REQUEST,                             \
      OFPTYPE_TABLE_FEATURES_STATS_REQUEST, 4, 6, 18, 12, -1, 16, 0, 8,  \
      "OFPST_TABLE_FEATURES request")                                     \
    R(OFPRAW_OFPST13_TABLE_FEATURES_REPLY,                               \
      OFPTYPE_TABLE_FEATURES_STATS_REPLY, 4, 6, 19, 12, -1, 16, 0, 8,    \
      "OFPST_TABLE_FEATURES reply")                                       \
    R(OFPRAW_OFPST10_PORT_DESC_REQUEST, OFPTYPE_PORT_DESC_STATS_REQUEST,  \
      1, 1, 16, 13, -1, 12, 0, 0, "OFPST_PORT_DESC request")              \
    R(OFPRAW_OFPST13_PORT_DESC_REQUEST, OFPTYPE_PORT_DESC_STATS_REQUEST,  \
      4, 5, 18, 13, -1, 16, 0, 0, "OFPST_PORT_DESC request")              \
    R(OFPRAW_OFPST15_PORT_DESC_REQUEST, OFPTYPE_PORT_DESC_STATS_REQUEST,  \
      6, 6, 18, 13, -1, 16, 8, 0, "OFPST_PORT_DESC request")              \
    R(OFPRAW_OFPST10_PORT_DESC_REPLY, OFPTYPE_PORT_DESC_STATS_REPLY, 1, 1, \
      17, 13, -1, 12, 0, 48, "OFPST_PORT_DESC reply")                     \
    R(OFPRAW_OFPST13_PORT_DESC_REPLY, OFPTYPE_PORT_DESC_STATS_REPLY, 4, 4, \
      19, 13, -1, 16, 0, 64, "OFPST_PORT_DESC reply")                     \
    R(OFPRAW_OFPST14_PORT_DESC_REPLY, OFPTYPE_PORT_DESC_STATS_REPLY, 5, 6, \
      19, 13, -1, 16, 0, 8, "OFPST_PORT_DESC reply")                      \
                                                                          \
    /* Nicira extensions. */                                              \
    R(OFPRAW_NXT_ROLE_REQUEST, OFPTYPE_ROLE_REQUEST, 1, 6, 4, -1, 10,     \
      16, 4, 0, "NXT_ROLE_REQUEST")                                       \
    R(OFPRAW_NXT_ROLE_REPLY, OFPTYPE_ROLE_REPLY, 1, 6, 4, -1, 11,         \
      16, 4, 0, "NXT_ROLE_REPLY")                                         \
    R(OFPRAW_NXT_SET_FLOW_FORMAT, OFPTYPE_SET_FLOW_FORMAT, 1, 6, 4, -1,   \
      12, 16, 4, 0, "NXT_SET_FLOW_FORMAT")                                \
    R(OFPRAW_NXT_FLOW_MOD, OFPTYPE_FLOW_MOD, 1, 6, 4, -1, 13, 16, 32, 8,  \
      "NXT_FLOW_MOD")                                                     \
    R(OFPRAW_NXT_FLOW_REMOVED, OFPTYPE_FLOW_REMOVED, 1, 6, 4, -1, 14,     \
      16, 40, 8, "NXT_FLOW_REMOVED")                                      \
    R(OFPRAW_NXT_FLOW_MOD_TABLE_ID, OFPTYPE_FLOW_MOD_TABLE_ID, 1, 6, 4,   \
      -1, 15, 16, 8, 0, "NXT_FLOW_MOD_TABLE_ID")                          \
    R(OFPRAW_NXT_SET_PACKET_IN_FORMAT, OFPTYPE_SET_PACKET_IN_FORMAT, 1,   \
      6, 4, -1, 16, 16, 4, 0, "NXT_SET_PACKET_IN_FORMAT")                 \
    R(OFPRAW_NXT_PACKET_IN, OFPTYPE_PACKET_IN, 1, 6, 4, -1, 17, 16, 24,   \
      1, "NXT_PACKET_IN")                                                 \
    R(OFPRAW_NXT_FLOW_AGE, OFPTYPE_FLOW_AGE, 1, 6, 4, -1, 18, 16, 0, 0,   \
      "NXT_FLOW_AGE")                                                     \
    R(OFPRAW_NXT_SET_ASYNC_CONFIG, OFPTYPE_SET_ASYNC_CONFIG, 1, 6, 4, -1, \
      19, 16, 24, 0, "NXT_SET_ASYNC_CONFIG")                              \
    R(OFPRAW_NXT_SET_CONTROLLER_ID, OFPTYPE_SET_CONTROLLER_ID, 1, 6, 4,   \
      -1, 20, 16, 8, 0, "NXT_SET_CONTROLLER_ID")                          \
    R(OFPRAW_NXT_SET_ASYNC_CONFIG2, OFPTYPE_SET_ASYNC_CONFIG, 1, 6, 4,    \
      -1, 27, 16, 0, 8, "NXT_SET_ASYNC_CONFIG2")                          \
    R(OFPRAW_NXT_PACKET_IN2, OFPTYPE_PACKET_IN, 1, 6, 4, -1, 30, 16, 0,   \
      8, "NXT_PACKET_IN2")                                                \
    R(OFPRAW_NXT_GROUP_MOD, OFPTYPE_GROUP_MOD, 1, 1, 4, -1, 31, 16, 16,  \
      8, "NXT_GROUP_MOD")                                                 \
    R(OFPRAW_NXST_GROUP_REQUEST, OFPTYPE_GROUP_STATS_REQUEST, 1, 1, 16,   \
      0xffff, 7, 24, 8, 0, "NXST_GROUP request")                          \
    R(OFPRAW_NXST_GROUP_REPLY, OFPTYPE_GROUP_STATS_REPLY, 1, 1, 17,       \
      0xffff, 7, 24, 0, 8, "NXST_GROUP reply")                            \
    R(OFPRAW_NXST_GROUP_DESC_REQUEST, OFPTYPE_GROUP_DESC_STATS_REQUEST,   \
      1, 1, 16, 0xffff, 8, 24, 8, 0, "NXST_GROUP_DESC request")           \
    R(OFPRAW_NXST_GROUP_DESC_REPLY, OFPTYPE_GROUP_DESC_STATS_REPLY, 1, 1, \
      17, 0xffff, 8, 24, 0, 8, "NXST_GROUP_DESC reply")                   \
    R(OFPRAW_NXST_GROUP_FEATURES_REQUEST,                                \
      OFPTYPE_GROUP_FEATURES_STATS_REQUEST, 1, 1, 16, 0xffff, 9, 24, 0,  \
      0, "NXST_GROUP_FEATURES request")                                   \
    R(OFPRAW_NXST_GROUP_FEATURES_REPLY,                                  \
      OFPTYPE_GROUP_FEATURES_STATS_REPLY, 1, 1, 17, 0xffff, 9, 24, 40, 0, \
      "NXST_GROUP_FEATURES reply")                                        \
    R(OFPRAW_NXST_FLOW_REQUEST, OFPTYPE_FLOW_STATS_REQUEST, 1, 1, 16,     \
      0xffff, 0, 24, 8, 8, "NXST_FLOW request")                           \
    R(OFPRAW_NXST_FLOW_REPLY, OFPTYPE_FLOW_STATS_REPLY, 1, 1, 17,         \
      0xffff, 0, 24, 0, 8, "NXST_FLOW reply")                             \
    R(OFPRAW_NXST_AGGREGATE_REQUEST, OFPTYPE_AGGREGATE_STATS_REQUEST, 1,  \
      1, 16, 0xffff, 1, 24, 8, 8, "NXST_AGGREGATE request")               \
    R(OFPRAW_NXST_AGGREGATE_REPLY, OFPTYPE_AGGREGATE_STATS_REPLY, 1, 1,   \
      17, 0xffff, 1, 24, 24, 0, "NXST_AGGREGATE reply")                   \
                                                                          \
    /* ONF extensions: OpenFlow 1.4's bundles in OpenFlow 1.3. */         \
    R(OFPRAW_ONFT13_BUNDLE_CONTROL, OFPTYPE_BUNDLE_CONTROL, 4, 4, 4, -1,  \
      ONF_SUBTYPE(2300), 16, 8, 1, "ONFT_BUNDLE_CONTROL")                 \
    R(OFPRAW_ONFT13_BUNDLE_ADD_MESSAGE, OFPTYPE_BUNDLE_ADD_MESSAGE, 4, 4, \
      4, -1, ONF_SUBTYPE(2301), 16, 16, 1, "ONFT_BUNDLE_ADD_MESSAGE")

enum ofpraw {
#define OFPRAW_ENUM(RAW, TYPE, MINV, MAXV, OT, STAT, SUB, HDR, MIN, MULT, \
                    NAME) RAW,
    OFPRAWS(OFPRAW_ENUM)
#undef OFPRAW_ENUM
    OFPRAW_N
};

/* Version-independent message types. */
enum ofptype {
    OFPTYPE_HELLO, OFPTYPE_ERROR, OFPTYPE_ECHO_REQUEST, OFPTYPE_ECHO_REPLY,
    OFPTYPE_FEATURES_REQUEST, OFPTYPE_FEATURES_REPLY,
    OFPTYPE_GET_CONFIG_REQUEST, OFPTYPE_GET_CONFIG_REPLY, OFPTYPE_SET_CONFIG,
    OFPTYPE_PACKET_IN, OFPTYPE_FLOW_REMOVED, OFPTYPE_PORT_STATUS,
    OFPTYPE_PACKET_OUT, OFPTYPE_FLOW_MOD, OFPTYPE_GROUP_MOD,
    OFPTYPE_PORT_MOD, OFPTYPE_TABLE_MOD,
    OFPTYPE_BARRIER_REQUEST, OFPTYPE_BARRIER_REPLY,
    OFPTYPE_ROLE_REQUEST, OFPTYPE_ROLE_REPLY, OFPTYPE_GET_ASYNC_REQUEST,
    OFPTYPE_GET_ASYNC_REPLY,
    OFPTYPE_BUNDLE_CONTROL, OFPTYPE_BUNDLE_ADD_MESSAGE,
    OFPTYPE_DESC_STATS_REQUEST, OFPTYPE_DESC_STATS_REPLY,
    OFPTYPE_FLOW_STATS_REQUEST, OFPTYPE_FLOW_STATS_REPLY,
    OFPTYPE_AGGREGATE_STATS_REQUEST, OFPTYPE_AGGREGATE_STATS_REPLY,
    OFPTYPE_TABLE_STATS_REQUEST, OFPTYPE_TABLE_STATS_REPLY,
    OFPTYPE_PORT_STATS_REQUEST, OFPTYPE_PORT_STATS_REPLY,
    OFPTYPE_QUEUE_STATS_REQUEST, OFPTYPE_QUEUE_STATS_REPLY,
    OFPTYPE_GROUP_STATS_REQUEST, OFPTYPE_GROUP_STATS_REPLY,
    OFPTYPE_GROUP_DESC_STATS_REQUEST, OFPTYPE_GROUP_DESC_STATS_REPLY,
    OFPTYPE_GROUP_FEATURES_STATS_REQUEST, OFPTYPE_GROUP_FEATURES_STATS_REPLY,
    OFPTYPE_PORT_DESC_STATS_REQUEST, OFPTYPE_PORT_DESC_STATS_REPLY,
    OFPTYPE_TABLE_FEATURES_STATS_REQUEST, OFPTYPE_TABLE_FEATURES_STATS_REPLY,
    OFPTYPE_SET_FLOW_FORMAT, OFPTYPE_FLOW_MOD_TABLE_ID,
    OFPTYPE_SET_PACKET_IN_FORMAT, OFPTYPE_FLOW_AGE,
    OFPTYPE_SET_ASYNC_CONFIG, OFPTYPE_SET_CONTROLLER_ID,
};

/* Decoding.  ofpraw_decode() identifies the message in the 'length' bytes
 * at 'oh' (which must hold the whole message, as its header says) and
 * checks its length against the type: it returns 0 or OFPERR_OFPBRC_*
 * (BAD_VERSION, BAD_TYPE, BAD_STAT, BAD_VENDOR, BAD_SUBTYPE, BAD_LEN).
 * ofpraw_decode_partial() identifies a message of which only 'length'
 * bytes are at hand, without the length check. */
enum ofperr ofpraw_decode(enum ofpraw *, const struct ofp_header *oh);
enum ofperr ofpraw_decode_partial(enum ofpraw *, const void *data,
                                  size_t length);
enum ofperr ofptype_decode(enum ofptype *, const struct ofp_header *);
enum ofptype ofptype_from_ofpraw(enum ofpraw);
const char *ofpraw_get_name(enum ofpraw);
size_t ofpraw_get_hdr_size(enum ofpraw);

/* Pulls the headers (OpenFlow, multipart, Nicira) of the message in 'msg'
 * off its front, setting 'msg->header' to the message and 'msg->msg' to
 * the body.  Returns 0 or the ofpraw_decode() error. */
enum ofperr ofpraw_pull(enum ofpraw *, struct ofpbuf *msg);

/* Encoding.  ofpraw_alloc() returns a new message of type 'raw' for
 * 'version' with transaction id 'xid', its headers filled in and room for
 * 'extra' more body bytes; ofpraw_alloc_reply() takes the version and xid
 * from 'request'.  ofpmsg_update_length() sets the header's length to the
 * buffer's size (call it once the body is complete). */
struct ofpbuf *ofpraw_alloc(enum ofpraw, enum ofp_version, uint32_t xid,
                            size_t extra);
struct ofpbuf *ofpraw_alloc_reply(enum ofpraw, const struct ofp_header *,
                                  size_t extra);
void ofpmsg_update_length(struct ofpbuf *);
uint32_t ofpmsg_next_xid(void);

/* Which raw type is 'type' in 'version'?  Returns OFPRAW_N for none. */
enum ofpraw ofpraw_for_type(enum ofptype, enum ofp_version);

/* Multipart messages. */
bool ofpmsg_is_stat(const struct ofp_header *);
uint16_t ofpmp_flags(const struct ofp_header *);
bool ofpmp_more(const struct ofp_header *);

/* Versions and hellos. */
const char *ofputil_version_to_string(enum ofp_version);
int ofputil_version_from_string(const char *);
uint32_t ofputil_versions_from_string(const char *);
char *ofputil_versions_to_string(uint32_t bitmap);
bool ofputil_decode_hello(const struct ofp_header *, uint32_t *bitmap);
struct ofpbuf *ofputil_encode_hello(uint32_t bitmap);
enum ofp_version ofputil_negotiate(uint32_t ours, uint32_t theirs);
struct ofpbuf *ofputil_encode_echo_request(enum ofp_version);
struct ofpbuf *ofputil_encode_echo_reply(const struct ofp_header *request);
struct ofpbuf *ofputil_encode_barrier_request(enum ofp_version);

static inline int
ofputil_bitmap_max_version(uint32_t bitmap)
{
    return bitmap ? 31 - __builtin_clz(bitmap) : 0;
}

#endif /* ofp-msgs.h */
