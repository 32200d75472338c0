/* ofproto: a bridge's OpenFlow flow tables and their flow_mod semantics.
 *
 * An ofproto has OFPROTO_N_TABLES (255) tables, each a classifier
 * (lib/classifier.h) of rules.  A rule is a match, a priority, a cookie,
 * timeouts, flags and an action list; the action list is the wire code's
 * internal form (lib/ofp-actions.h), which this module stores and hands
 * back without reading it.
 *
 * flow_mod semantics (OpenFlow 1.0-1.5 as Open vSwitch 3.1 applies them):
 *   add            Adds the rule to 'table_id' (OFPTT_ALL, what OpenFlow
 *                  1.0 flow_mods carry, means table 0).  With
 *                  OFPROTO_FF_CHECK_OVERLAP, fails with OVERLAP if a rule of
 *                  the same priority matches a packet the new one matches.
 *                  A rule with the same match and priority is replaced;
 *                  the new rule keeps its counters unless
 *                  OFPROTO_FF_RESET_COUNTS (OpenFlow 1.3 5.8).  The replaced
 *                  rule is not reported as removed.
 *   modify         Every rule that loosely matches (its match is at least
 *                  as specific as the flow_mod's) in 'table_id' (or every
 *                  table for OFPTT_ALL) and whose cookie agrees under
 *                  'cookie_mask' gets the new actions (and 'new_cookie' if
 *                  'modify_cookie'); timeouts, flags and counters stay,
 *                  except that OFPROTO_FF_RESET_COUNTS clears the counters.
 *                  If nothing matched, and the flow_mod neither filters on
 *                  the cookie nor leaves it alone ('modify_cookie' set,
 *                  'cookie_mask' 0: OpenFlow 1.0), the flow_mod adds the
 *                  rule instead, with 'new_cookie', as Open vSwitch does.
 *   modify_strict  The same, for the rule with exactly this match and
 *                  priority.
 *   delete         Removes every loosely matching rule whose cookie
 *                  agrees, and, if 'out_port' is not OFPROTO_OFPP_ANY (or
 *                  'out_group' not OFPROTO_OFPG_ANY), whose actions output
 *                  there (the caller's 'outputs_to' says).  Each removed
 *                  rule with OFPROTO_FF_SEND_FLOW_REM is reported with
 *                  reason OFPROTO_RR_DELETE.
 *   delete_strict  The same, for the rule with exactly this match and
 *                  priority.
 *
 * Timeouts: ofproto_run() removes rules idle for 'idle_timeout' seconds
 * (since the last packet, or since creation) or 'hard_timeout' seconds
 * since they were added or last modified, reporting OFPROTO_RR_IDLE_TIMEOUT
 * or OFPROTO_RR_HARD_TIMEOUT.
 *
 * Versions: ofproto_version() increases on every change to any table.
 * Translation reads it (under the read lock) with the rules it consulted;
 * a datapath flow translated at version V is right as long as no change
 * came after V, which is what revalidation compares.
 *
 * Threads.  Changes (flow_mod, ofproto_run(), ofproto_destroy()) happen on
 * the main thread with the write lock, which they take themselves.  Other
 * threads (upcalls) take ofproto_rdlock() around lookups and must not keep
 * pointers to rules after ofproto_unlock().  The main thread reads without
 * locking.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef OFPROTO_H
#define OFPROTO_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "classifier.h"
#include "compiler.h"
#include "match.h"
#include "ofp-errors.h"
#include "ofp-group.h"

struct ofproto;

#define OFPROTO_N_TABLES 255
#define OFPROTO_FAIL_OPEN_PRIORITY 0xf0f0f0   /* The fail-open rule's. */
#define OFPROTO_TABLE_ALL 0xff          /* OFPTT_ALL. */
#define OFPROTO_OFPP_ANY MATCH_OFPP_NONE
#define OFPROTO_OFPG_ANY 0xffffffff

/* flow_mod commands (OpenFlow's numbering). */
enum ofproto_fm_command {
    OFPROTO_FC_ADD = 0,
    OFPROTO_FC_MODIFY = 1,
    OFPROTO_FC_MODIFY_STRICT = 2,
    OFPROTO_FC_DELETE = 3,
    OFPROTO_FC_DELETE_STRICT = 4,
};

/* Rule flags (Open vSwitch's OFPUTIL_FF_* meanings). */
enum ofproto_flow_flags {
    OFPROTO_FF_SEND_FLOW_REM = 1 << 0,
    OFPROTO_FF_CHECK_OVERLAP = 1 << 1,
    OFPROTO_FF_RESET_COUNTS = 1 << 2,
    OFPROTO_FF_NO_PKT_COUNTS = 1 << 3,
    OFPROTO_FF_NO_BYT_COUNTS = 1 << 4,
};

/* Why a rule went away (OpenFlow's flow_removed reasons). */
enum ofproto_removed_reason {
    OFPROTO_RR_IDLE_TIMEOUT = 0,
    OFPROTO_RR_HARD_TIMEOUT = 1,
    OFPROTO_RR_DELETE = 2,
    OFPROTO_RR_GROUP_DELETE = 3,
};

/* Why a flow_mod failed; the connection manager turns these into OpenFlow
 * errors (the OFPERR_* in parentheses). */
enum ofproto_error {
    OFPROTO_OK = 0,
    OFPROTO_ERR_OVERLAP,        /* OFPFMFC_OVERLAP. */
    OFPROTO_ERR_BAD_COMMAND,    /* OFPFMFC_BAD_COMMAND. */
};

/* What happens to IP fragments (OpenFlow's OFPC_FRAG_*, set by
 * OFPT_SET_CONFIG).  DROP drops every fragment before any table sees it;
 * NORMAL and NX_MATCH look fragments up like other packets (NX_MATCH is
 * what lets flows match ip_frag; in NORMAL Open vSwitch also zeroes a
 * first fragment's L4 ports, which this switch does not); REASSEMBLE is not
 * supported. */
enum ofproto_frag_handling {
    OFPROTO_FRAG_NORMAL = 0,
    OFPROTO_FRAG_DROP = 1,
    OFPROTO_FRAG_REASSEMBLE = 2,
    OFPROTO_FRAG_NX_MATCH = 3,
};

/* A flow (an OpenFlow "flow entry"). */
struct ofproto_rule {
    struct cls_rule cr;         /* Match and priority. */
    uint8_t table_id;
    uint64_t cookie;            /* Host byte order. */
    uint16_t idle_timeout;      /* Seconds, 0 for none. */
    uint16_t hard_timeout;
    uint16_t importance;
    uint16_t flags;             /* OFPROTO_FF_*, as given. */
    long long created;          /* Milliseconds (time_msec()). */
    long long modified;         /* Added or last modified. */
    long long used;             /* Last packet, or 'created'. */
    uint64_t n_packets;
    uint64_t n_bytes;
    void *ofpacts;              /* The action list (struct ofpact[]). */
    size_t ofpacts_len;
};

/* What a flow_mod asks. */
struct ofproto_flow_mod {
    enum ofproto_fm_command command;
    uint8_t table_id;           /* OFPROTO_TABLE_ALL: modify/delete all. */
    struct match match;
    int priority;               /* 0..65535. */
    uint64_t cookie;            /* add: the cookie; others: the filter. */
    uint64_t cookie_mask;       /* modify/delete filter: 0 for none. */
    uint64_t new_cookie;        /* modify: with 'modify_cookie'. */
    bool modify_cookie;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint16_t importance;
    uint16_t flags;             /* OFPROTO_FF_*. */
    uint32_t out_port;          /* delete filter, OFPROTO_OFPP_ANY: none. */
    uint32_t out_group;         /* delete filter, OFPROTO_OFPG_ANY: none. */
    const void *ofpacts;        /* Copied. */
    size_t ofpacts_len;
};

/* Reports a removed rule, before it is freed ('rule' is valid during the
 * call).  Called on the main thread with the write lock held: it must not
 * call back into this module except to read 'rule'. */
typedef void ofproto_flow_removed_cb(void *aux,
                                     const struct ofproto_rule *rule,
                                     enum ofproto_removed_reason,
                                     long long now);

/* Whether 'rule''s actions output to OpenFlow port 'port' (OFPROTO_OFPP_ANY
 * for "don't care") or to group 'group' (OFPROTO_OFPG_ANY likewise). */
typedef bool ofproto_outputs_to_cb(const struct ofproto_rule *rule,
                                   uint32_t port, uint32_t group);

/* Packet-ins.  Translation (ofproto/ofproto-xlate.c) makes one for each
 * controller action a packet meets, on whichever thread translates it, and
 * queues it with ofproto_send_packet_in(); the connection manager takes
 * them on the main thread (ofproto_take_packet_ins()) and sends each to
 * the connections that want it.  At most OFPROTO_MAX_PACKET_INS wait;
 * more are dropped (counted as ofproto_packet_in_overflow) until the main
 * thread catches up.
 *
 * 'miss' says whether the packet-in is a table miss: one without a flow
 * (OpenFlow 1.0's default, which OpenFlow 1.3+ connections never see) or
 * one a table-miss flow (priority 0, matching everything) sent, which
 * OpenFlow 1.3+ connections see as "no_match".
 *
 * Translation does not see the packet: it freezes what the packet-in says
 * besides the packet (ofproto_freeze_packet_in(), which returns the same
 * id, Open vSwitch's "recirc_id", for the same state, so that a flow's
 * actions do not change from one translation to the next) and the
 * datapath's userspace action hands the packet to
 * ofproto_thaw_packet_in() with that id.  Ids are never reused; the state
 * of a destroyed ofproto is forgotten.  At most OFPROTO_MAX_FROZEN states
 * are kept: past that, controller actions send nothing (logged). */
enum ofproto_packet_in_miss {
    OFPROTO_PACKET_IN_NO_MISS,
    OFPROTO_PACKET_IN_MISS_WITHOUT_FLOW,
    OFPROTO_PACKET_IN_MISS_FLOW,
};

struct ofproto_packet_in {
    uint8_t *packet;            /* malloc()ed, the whole packet. */
    size_t packet_len;
    struct match_flow flow;     /* The pipeline as the action saw it:
                                 * in_port, metadata and registers are
                                 * what the packet-in reports. */
    uint8_t reason;             /* enum ofp_packet_in_reason. */
    uint8_t table_id;
    enum ofproto_packet_in_miss miss;
    uint64_t cookie;            /* The rule's; UINT64_MAX: none. */
    uint16_t max_len;           /* From the action (packets are sent
                                 * whole: there are no buffers). */
    uint16_t controller_id;
    uint8_t *userdata;          /* malloc()ed, or NULL. */
    size_t userdata_len;
};

#define OFPROTO_MAX_PACKET_INS 1024
#define OFPROTO_MAX_FROZEN (1 << 20)

struct ofproto *ofproto_create(const char *name);
void ofproto_destroy(struct ofproto *);
const char *ofproto_name(const struct ofproto *);
void ofproto_send_packet_in(struct ofproto *, struct ofproto_packet_in *);
uint32_t ofproto_freeze_packet_in(struct ofproto *,
                                  const struct ofproto_packet_in *);
void ofproto_thaw_packet_in(uint32_t recirc_id, uint8_t *packet,
                            size_t packet_len);
size_t ofproto_take_packet_ins(struct ofproto *,
                               struct ofproto_packet_in ***pinsp);
void ofproto_packet_in_wait(struct ofproto *);
void ofproto_packet_in_destroy(struct ofproto_packet_in *);

/* Whether some connection takes table misses (an OpenFlow 1.0-1.2
 * connection with controller id 0, as Open vSwitch decides): then a miss
 * sends a packet-in rather than dropping.  The connection manager sets it;
 * a change counts as a table change (ofproto_version()). */
void ofproto_set_miss_to_controller(struct ofproto *, bool);
bool ofproto_get_miss_to_controller(const struct ofproto *);

void ofproto_set_flow_removed_cb(struct ofproto *, ofproto_flow_removed_cb *,
                                 void *aux);
void ofproto_set_outputs_to_cb(struct ofproto *, ofproto_outputs_to_cb *);

void ofproto_flow_mod_init(struct ofproto_flow_mod *,
                           enum ofproto_fm_command);
enum ofproto_error ofproto_flow_mod(struct ofproto *,
                                    const struct ofproto_flow_mod *,
                                    long long now);
enum ofproto_error ofproto_add_flow(struct ofproto *, uint8_t table_id,
                                    const struct match *, int priority,
                                    const void *ofpacts, size_t ofpacts_len,
                                    long long now);
const char *ofproto_error_to_string(enum ofproto_error);
void ofproto_flush(struct ofproto *, long long now);
void ofproto_set_fail_open(struct ofproto *, bool fail_open, long long now);
bool ofproto_is_fail_open(const struct ofproto *);

void ofproto_run(struct ofproto *, long long now);
long long ofproto_next_wakeup(const struct ofproto *);

uint64_t ofproto_version(const struct ofproto *);
bool ofproto_set_frag_handling(struct ofproto *, enum ofproto_frag_handling);
enum ofproto_frag_handling ofproto_get_frag_handling(const struct ofproto *);
size_t ofproto_n_rules(const struct ofproto *, uint8_t table_id);
size_t ofproto_n_rules_total(const struct ofproto *);

/* Lookups, from any thread (see "Threads"). */
void ofproto_rdlock(struct ofproto *);
void ofproto_unlock(struct ofproto *);
struct ofproto_rule *ofproto_lookup(const struct ofproto *, uint8_t table_id,
                                    const struct match_flow *,
                                    struct match_flow *wc);

/* Flow and aggregate statistics: the rules of 'table_id' (or all tables)
 * that loosely match 'match' ('strict': exactly, with 'priority'), whose
 * cookie agrees under 'cookie_mask' and which output to 'out_port' and
 * 'out_group' (the ANY values: no filter), in table order.  Main thread. */
struct ofproto_flow_query {
    uint8_t table_id;
    struct match match;
    bool strict;
    int priority;
    uint64_t cookie;
    uint64_t cookie_mask;
    uint32_t out_port;
    uint32_t out_group;
};
void ofproto_flow_query_init(struct ofproto_flow_query *);
size_t ofproto_collect(const struct ofproto *,
                       const struct ofproto_flow_query *,
                       struct ofproto_rule ***rulesp);

/* Appends to 'ds' every rule of 'ofproto', the hidden fail-open rule too,
 * as Open vSwitch's "ovs-appctl bridge/dump-flows" prints them: table by
 * table, one line each ("table_id=N, " unless table 0, then duration,
 * n_packets, n_bytes, with 'offload_stats' n_offload_packets and
 * n_offload_bytes (always 0 here), the match with its priority and the
 * actions).  'now' is time_msec(). */
struct ds;
void ofproto_format_flows(const struct ofproto *, bool offload_stats,
                          long long now, struct ds *);

/* Groups (OpenFlow 1.1+ group table, Open vSwitch's semantics):
 *
 *   add      OFPGMFC_GROUP_EXISTS if 'group_id' is taken,
 *            OFPGMFC_INVALID_GROUP past OFPG_MAX.
 *   modify   replaces the type and buckets (the counters start again);
 *            OFPGMFC_UNKNOWN_GROUP if there is no such group.
 *   add_or_mod (Open vSwitch's extension) either.
 *   delete   removes the group (OFPG_ALL: every group) and the rules whose
 *            actions name it, reported with OFPROTO_RR_GROUP_DELETE; a
 *            group that does not exist is no error.
 *   insert_bucket, remove_bucket (OpenFlow 1.5) insert buckets where
 *            command_bucket_id says, or remove the one it names
 *            (ofputil_group_edit_buckets(): its errors, and
 *            OFPGMFC_UNKNOWN_GROUP); the counters start again.
 * A select group keeps the selection method it was given (and prints it
 * back); translation selects as it always does.
 *
 * A rule's group action must name a group that exists
 * (OFPBAC_BAD_OUT_GROUP; the caller checks with ofproto_group_exists()); a
 * bucket's need not, as in Open vSwitch (translation skips it).  Every change increases ofproto_version().  Groups
 * are read like rules: under ofproto_rdlock() from any thread, without it
 * on the main thread. */
struct ofproto_group {
    uint32_t group_id;
    uint8_t type;               /* OFPGT11_*. */
    struct ofputil_bucket *buckets;
    size_t n_buckets;
    long long created;          /* time_msec() when added or modified. */
    uint64_t packet_count, byte_count;
    uint64_t *bucket_packets, *bucket_bytes;    /* Per bucket. */
    struct ofputil_group_props props;   /* Selection method, if any. */
};

struct ofputil_group_mod;
enum ofperr ofproto_group_mod(struct ofproto *, const struct ofputil_group_mod *,
                              long long now);
struct ofproto_group *ofproto_group_find(const struct ofproto *,
                                         uint32_t group_id);
bool ofproto_group_exists(const struct ofproto *, uint32_t group_id);
size_t ofproto_groups(const struct ofproto *,
                      const struct ofproto_group ***groupsp);
void ofproto_group_credit(struct ofproto_group *, size_t bucket,
                          uint64_t n_packets, uint64_t n_bytes);

/* Transactions, for OpenFlow bundles: ofproto_txn_begin() takes the write
 * lock and remembers the tables and groups as they are; until
 * ofproto_txn_commit() or ofproto_txn_abort(), ofproto_flow_mod() and
 * ofproto_group_mod() change them without taking the lock again (no other
 * thread sees the changes half done) and rules removed with
 * OFPROTO_FF_SEND_FLOW_REM are reported only at the commit.
 * ofproto_txn_abort() puts the tables and groups back as they were (the
 * rules and groups are copies: their counters are those of the beginning)
 * and reports nothing.  Both release the lock.  Main thread; one
 * transaction at a time. */
void ofproto_txn_begin(struct ofproto *);
void ofproto_txn_commit(struct ofproto *);
void ofproto_txn_abort(struct ofproto *);

/* Datapath statistics flowing back: 'n_packets' more packets and 'n_bytes'
 * more bytes hit 'rule', the last at 'used'.  Main thread. */
void ofproto_rule_credit(struct ofproto_rule *, uint64_t n_packets,
                         uint64_t n_bytes, long long used);

#endif /* ofproto.h */
