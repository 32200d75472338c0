/* ofproto: a bridge's OpenFlow flow tables (see ofproto.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "ofproto/ofproto.h"

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dynamic-string.h"
#include "latch.h"
#include "ofp-actions.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-match.h"
#include "ofp-group.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

struct ofproto {
    char *name;
    struct classifier tables[OFPROTO_N_TABLES];
    uint64_t version;
    enum ofproto_frag_handling frag;    /* Atomic. */
    size_t n_timed;             /* Rules with an idle or hard timeout. */
    pthread_rwlock_t rwlock;
    ofproto_flow_removed_cb *removed_cb;
    void *removed_aux;
    ofproto_outputs_to_cb *outputs_to;
    struct ofproto_group **groups;      /* By group id. */
    size_t n_groups, allocated_groups;
    struct ofproto_rule *fail_open;     /* Hidden, see ofproto_set_fail_open(). */

    /* Packet-ins on their way to the main thread. */
    pthread_mutex_t pin_mutex;
    struct ofproto_packet_in **pins;    /* Under 'pin_mutex'. */
    size_t n_pins, allocated_pins;
    struct latch pin_latch;             /* Set when 'pins' is not empty. */
    bool miss_to_controller;            /* Atomic. */
    struct ofproto_txn *txn;            /* Open transaction, or NULL. */
};

/* A transaction's memory of the tables and groups at its beginning, and
 * the removals it will report at its commit. */
struct ofproto_txn {
    struct ofproto_rule **rules;        /* Copies, not in any table. */
    size_t n_rules;
    struct ofproto_group **groups;      /* Copies, by group id. */
    size_t n_groups;
    size_t n_timed;
    struct txn_removal {
        struct ofproto_rule *rule;      /* Out of its table, not freed. */
        enum ofproto_removed_reason reason;
        long long now;
    } *removals;
    size_t n_removals;
};

static enum ofproto_error add_flow(struct ofproto *,
                                   const struct ofproto_flow_mod *,
                                   long long now);
static enum ofproto_error modify_flows(struct ofproto *,
                                       const struct ofproto_flow_mod *,
                                       long long now);
static void delete_flows(struct ofproto *, const struct ofproto_flow_mod *,
                         enum ofproto_removed_reason, long long now);
static void remove_rule(struct ofproto *, struct ofproto_rule *,
                        enum ofproto_removed_reason, long long now,
                        bool report);
static size_t collect_for_flow_mod(const struct ofproto *,
                                   const struct ofproto_flow_mod *,
                                   struct ofproto_rule ***rulesp);
static bool rule_is_timed(const struct ofproto_rule *);
static void rule_free(struct ofproto *, struct ofproto_rule *);
static void set_actions(struct ofproto_rule *, const void *ofpacts,
                        size_t ofpacts_len);
static bool cookie_matches(const struct ofproto_rule *, uint64_t cookie,
                           uint64_t cookie_mask);
static struct ofproto_rule *rule_from_cls(const struct cls_rule *);
static void wrlock(struct ofproto *);
static size_t group_index(const struct ofproto *, uint32_t group_id,
                          bool *found);
static void group_set(struct ofproto_group *,
                      const struct ofputil_group_mod *, long long now);
static enum ofperr group_edit_buckets(struct ofproto_group *,
                                      const struct ofputil_group_mod *,
                                      long long now);
static void group_free(struct ofproto_group *);
static void delete_group(struct ofproto *, size_t index, long long now);
static void format_rule(const struct ofproto_rule *, bool offload_stats,
                        long long now, struct ds *);
static void change_begin(struct ofproto *);
static void change_end(struct ofproto *);
static struct ofproto_rule *rule_clone(const struct ofproto_rule *);
static void rule_destroy(struct ofproto_rule *);
static struct ofproto_group *group_clone(const struct ofproto_group *);
static void txn_free(struct ofproto_txn *);

VLOG_DEFINE_THIS_MODULE(ofproto);

/* The frozen packet-ins of every ofproto, by id - 1, and an index of them
 * by content (open addressing; 'index' holds id, 0 for free slots). */
struct frozen_key {
    struct ofproto *ofproto;            /* NULL once destroyed. */
    uint64_t cookie;
    uint64_t metadata;
    uint32_t regs[MATCH_N_REGS];
    uint32_t in_port;
    uint16_t controller_id;
    uint16_t max_len;
    uint8_t reason;
    uint8_t table_id;
    uint8_t miss;
    uint8_t pad[5];
    size_t userdata_len;
};

struct frozen {
    struct frozen_key key;
    uint8_t *userdata;
    uint32_t hash;
};

static pthread_mutex_t frozen_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct frozen *frozens;          /* Under 'frozen_mutex'. */
static size_t n_frozens, allocated_frozens;
static uint32_t *frozen_index;
static size_t frozen_index_size;        /* A power of 2, or 0. */

static void frozen_key_init(struct frozen_key *, struct ofproto *,
                            const struct ofproto_packet_in *);
static uint32_t frozen_hash(const struct frozen_key *, const void *userdata);
static void frozen_index_insert(uint32_t id);

COVERAGE_DEFINE(ofproto_packet_in_overflow);

/* Creates a bridge's flow tables, all empty, named 'name' (for logs). */
struct ofproto *
ofproto_create(const char *name)
{
    struct ofproto *ofproto = xzalloc(sizeof *ofproto);

    ofproto->name = xstrdup(name);
    for (size_t i = 0; i < OFPROTO_N_TABLES; i++) {
        classifier_init(&ofproto->tables[i]);
    }
    pthread_rwlock_init(&ofproto->rwlock, NULL);
    pthread_mutex_init(&ofproto->pin_mutex, NULL);
    latch_init(&ofproto->pin_latch);
    return ofproto;
}

/* Frees 'ofproto' and its rules, reporting none as removed. */
void
ofproto_destroy(struct ofproto *ofproto)
{
    if (!ofproto) {
        return;
    }
    for (size_t i = 0; i < OFPROTO_N_TABLES; i++) {
        struct cls_rule **rules;
        size_t n = classifier_collect(&ofproto->tables[i], NULL, &rules);
        for (size_t j = 0; j < n; j++) {
            classifier_remove(&ofproto->tables[i], rules[j]);
            rule_free(ofproto, rule_from_cls(rules[j]));
        }
        free(rules);
        classifier_destroy(&ofproto->tables[i]);
    }
    for (size_t i = 0; i < ofproto->n_groups; i++) {
        group_free(ofproto->groups[i]);
    }
    free(ofproto->groups);
    if (ofproto->fail_open) {
        rule_free(ofproto, ofproto->fail_open);
    }
    pthread_rwlock_destroy(&ofproto->rwlock);
    pthread_mutex_lock(&frozen_mutex);
    for (size_t i = 0; i < n_frozens; i++) {
        if (frozens[i].key.ofproto == ofproto) {
            frozens[i].key.ofproto = NULL;
        }
    }
    pthread_mutex_unlock(&frozen_mutex);
    for (size_t i = 0; i < ofproto->n_pins; i++) {
        ofproto_packet_in_destroy(ofproto->pins[i]);
    }
    free(ofproto->pins);
    pthread_mutex_destroy(&ofproto->pin_mutex);
    latch_destroy(&ofproto->pin_latch);
    free(ofproto->name);
    free(ofproto);
}

const char *
ofproto_name(const struct ofproto *ofproto)
{
    return ofproto->name;
}

/* Queues 'pin' (which it takes over) for the main thread.  Any thread. */
void
ofproto_send_packet_in(struct ofproto *ofproto, struct ofproto_packet_in *pin)
{
    bool queued = false;

    pthread_mutex_lock(&ofproto->pin_mutex);
    if (ofproto->n_pins < OFPROTO_MAX_PACKET_INS) {
        if (ofproto->n_pins >= ofproto->allocated_pins) {
            ofproto->allocated_pins = MAX(16, 2 * ofproto->allocated_pins);
            ofproto->pins = xrealloc(ofproto->pins,
                                     (ofproto->allocated_pins
                                      * sizeof *ofproto->pins));
        }
        ofproto->pins[ofproto->n_pins++] = pin;
        queued = true;
    }
    pthread_mutex_unlock(&ofproto->pin_mutex);
    if (queued) {
        latch_set(&ofproto->pin_latch);
    } else {
        COVERAGE_INC(ofproto_packet_in_overflow);
        ofproto_packet_in_destroy(pin);
    }
}


/* Returns the id of the state of packet-in 'pin' (all but its packet) of
 * 'ofproto', frozen now if it was not already; 0 if too many are.  Any
 * thread. */
uint32_t
ofproto_freeze_packet_in(struct ofproto *ofproto,
                         const struct ofproto_packet_in *pin)
{
    struct frozen_key key;
    uint32_t id = 0;

    frozen_key_init(&key, ofproto, pin);
    uint32_t hash = frozen_hash(&key, pin->userdata);

    pthread_mutex_lock(&frozen_mutex);
    if (frozen_index_size) {
        for (size_t i = hash & (frozen_index_size - 1); frozen_index[i];
             i = (i + 1) & (frozen_index_size - 1)) {
            const struct frozen *f = &frozens[frozen_index[i] - 1];
            if (f->hash == hash && !memcmp(&f->key, &key, sizeof key)
                && (!key.userdata_len
                    || !memcmp(f->userdata, pin->userdata,
                               key.userdata_len))) {
                id = frozen_index[i];
                break;
            }
        }
    }
    if (!id && n_frozens < OFPROTO_MAX_FROZEN) {
        if (n_frozens >= allocated_frozens) {
            allocated_frozens = MAX(64, 2 * allocated_frozens);
            frozens = xrealloc(frozens,
                               allocated_frozens * sizeof *frozens);
        }
        struct frozen *f = &frozens[n_frozens++];
        f->key = key;
        f->userdata = (key.userdata_len
                       ? xmemdup(pin->userdata, key.userdata_len) : NULL);
        f->hash = hash;
        id = n_frozens;
        frozen_index_insert(id);
    }
    pthread_mutex_unlock(&frozen_mutex);

    if (!id) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        VLOG_WARN_RL(&rl, "%s: more than %d controller action states, "
                     "packet-in not sent", ofproto->name, OFPROTO_MAX_FROZEN);
    }
    return id;
}

/* Queues the packet-in that frozen state 'recirc_id' describes, with
 * 'packet' (malloc()ed, taken over), for its ofproto's connections.  Any
 * thread. */
void
ofproto_thaw_packet_in(uint32_t recirc_id, uint8_t *packet,
                       size_t packet_len)
{
    struct ofproto_packet_in *pin = NULL;
    struct ofproto *ofproto = NULL;

    pthread_mutex_lock(&frozen_mutex);
    if (recirc_id && recirc_id <= n_frozens
        && frozens[recirc_id - 1].key.ofproto) {
        const struct frozen *f = &frozens[recirc_id - 1];

        ofproto = f->key.ofproto;
        pin = xzalloc(sizeof *pin);
        pin->packet = packet;
        pin->packet_len = packet_len;
        pin->flow.in_port = f->key.in_port;
        pin->flow.metadata = f->key.metadata;
        memcpy(pin->flow.regs, f->key.regs, sizeof pin->flow.regs);
        pin->reason = f->key.reason;
        pin->table_id = f->key.table_id;
        pin->miss = f->key.miss;
        pin->cookie = f->key.cookie;
        pin->max_len = f->key.max_len;
        pin->controller_id = f->key.controller_id;
        if (f->key.userdata_len) {
            pin->userdata = xmemdup(f->userdata, f->key.userdata_len);
            pin->userdata_len = f->key.userdata_len;
        }
        /* Queued under the mutex: ofproto_destroy() cannot free 'ofproto'
         * meanwhile. */
        ofproto_send_packet_in(ofproto, pin);
    }
    pthread_mutex_unlock(&frozen_mutex);
    if (!pin) {
        free(packet);
    }
}

/* Stores the queued packet-ins, oldest first, in a malloc()ed array in
 * '*pinsp' (the caller frees them and it) and returns how many.  Main
 * thread. */
size_t
ofproto_take_packet_ins(struct ofproto *ofproto,
                        struct ofproto_packet_in ***pinsp)
{
    latch_poll(&ofproto->pin_latch);
    pthread_mutex_lock(&ofproto->pin_mutex);
    size_t n = ofproto->n_pins;
    *pinsp = ofproto->pins;
    ofproto->pins = NULL;
    ofproto->n_pins = ofproto->allocated_pins = 0;
    pthread_mutex_unlock(&ofproto->pin_mutex);
    return n;
}

/* Makes poll_block() wake when a packet-in is queued. */
void
ofproto_packet_in_wait(struct ofproto *ofproto)
{
    latch_wait(&ofproto->pin_latch);
}

/* Frees 'pin' and what it owns. */
void
ofproto_packet_in_destroy(struct ofproto_packet_in *pin)
{
    if (pin) {
        free(pin->packet);
        free(pin->userdata);
        free(pin);
    }
}

/* See ofproto.h. */
void
ofproto_set_miss_to_controller(struct ofproto *ofproto, bool on)
{
    if (ofproto_get_miss_to_controller(ofproto) != on) {
        __atomic_store_n(&ofproto->miss_to_controller, on, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    }
}

bool
ofproto_get_miss_to_controller(const struct ofproto *ofproto)
{
    return __atomic_load_n(&ofproto->miss_to_controller, __ATOMIC_RELAXED);
}

/* Sets the function told about removed rules (NULL: none). */
void
ofproto_set_flow_removed_cb(struct ofproto *ofproto,
                            ofproto_flow_removed_cb *cb, void *aux)
{
    ofproto->removed_cb = cb;
    ofproto->removed_aux = aux;
}

/* Sets the function that decides the out_port/out_group filters of delete
 * and of statistics requests.  Without one, a filter other than ANY
 * matches no rule. */
void
ofproto_set_outputs_to_cb(struct ofproto *ofproto, ofproto_outputs_to_cb *cb)
{
    ofproto->outputs_to = cb;
}

/* Initializes 'fm' for 'command' with OpenFlow's defaults: table 0, a
 * catch-all match, priority 0x8000, no cookie filter, no out_port or
 * out_group filter, no actions. */
void
ofproto_flow_mod_init(struct ofproto_flow_mod *fm,
                      enum ofproto_fm_command command)
{
    memset(fm, 0, sizeof *fm);
    fm->command = command;
    match_init_catchall(&fm->match);
    fm->priority = 0x8000;
    fm->out_port = OFPROTO_OFPP_ANY;
    fm->out_group = OFPROTO_OFPG_ANY;
}

/* Carries out 'fm' (see ofproto.h for the semantics).  Returns
 * OFPROTO_OK or why it failed, having changed nothing. */
enum ofproto_error
ofproto_flow_mod(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
                 long long now)
{
    enum ofproto_error error = OFPROTO_OK;

    change_begin(ofproto);
    switch (fm->command) {
    case OFPROTO_FC_ADD:
        error = add_flow(ofproto, fm, now);
        break;
    case OFPROTO_FC_MODIFY:
    case OFPROTO_FC_MODIFY_STRICT:
        error = modify_flows(ofproto, fm, now);
        break;
    case OFPROTO_FC_DELETE:
    case OFPROTO_FC_DELETE_STRICT:
        delete_flows(ofproto, fm, OFPROTO_RR_DELETE, now);
        break;
    default:
        error = OFPROTO_ERR_BAD_COMMAND;
        break;
    }
    change_end(ofproto);
    return error;
}

/* Adds (or replaces) the rule 'match', 'priority' with 'ofpacts' in
 * 'table_id', with no cookie, timeouts or flags: the default flows. */
enum ofproto_error
ofproto_add_flow(struct ofproto *ofproto, uint8_t table_id,
                 const struct match *match, int priority,
                 const void *ofpacts, size_t ofpacts_len, long long now)
{
    struct ofproto_flow_mod fm;

    ofproto_flow_mod_init(&fm, OFPROTO_FC_ADD);
    fm.table_id = table_id;
    fm.match = *match;
    fm.priority = priority;
    fm.ofpacts = ofpacts;
    fm.ofpacts_len = ofpacts_len;
    return ofproto_flow_mod(ofproto, &fm, now);
}

const char *
ofproto_error_to_string(enum ofproto_error error)
{
    switch (error) {
    case OFPROTO_OK:
        return "success";
    case OFPROTO_ERR_OVERLAP:
        return "overlapping flow with the same priority";
    case OFPROTO_ERR_BAD_COMMAND:
        return "bad flow_mod command";
    }
    return "unknown error";
}

/* Deletes every rule of every table, reporting each with reason
 * OFPROTO_RR_DELETE, as Open vSwitch's flush when the bridge gains its
 * first controller, loses its last one, changes fail mode without
 * controllers or fails open.  The fail-open rule is not touched. */
void
ofproto_flush(struct ofproto *ofproto, long long now)
{
    struct ofproto_flow_mod fm;

    ofproto_flow_mod_init(&fm, OFPROTO_FC_DELETE);
    fm.table_id = OFPROTO_TABLE_ALL;
    ofproto_flow_mod(ofproto, &fm, now);
}

/* Turns the fail-open rule on or off: while it is on, every lookup in
 * table 0 finds it first, whatever the packet, and it sends the packet to
 * NORMAL.  It is Open vSwitch's hidden "priority=15790320 actions=NORMAL"
 * rule: no flow_mod reaches it and no flow statistics request lists it. */
void
ofproto_set_fail_open(struct ofproto *ofproto, bool fail_open, long long now)
{
    if (fail_open == (ofproto->fail_open != NULL)) {
        return;
    }
    wrlock(ofproto);
    if (fail_open) {
        struct ofproto_rule *rule = xzalloc(sizeof *rule);
        struct ofpbuf ofpacts;
        struct match match;

        match_init_catchall(&match);
        cls_rule_init(&rule->cr, &match, OFPROTO_FAIL_OPEN_PRIORITY);
        ofpbuf_init(&ofpacts, 0);
        ofpact_put_OUTPUT(&ofpacts)->port = OFPP_NORMAL;
        set_actions(rule, ofpacts.data, ofpacts.size);
        ofpbuf_uninit(&ofpacts);
        rule->created = rule->modified = rule->used = now;
        ofproto->fail_open = rule;
    } else {
        rule_free(ofproto, ofproto->fail_open);
        ofproto->fail_open = NULL;
    }
    __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    ofproto_unlock(ofproto);
}

/* Whether the fail-open rule is on. */
bool
ofproto_is_fail_open(const struct ofproto *ofproto)
{
    return ofproto->fail_open != NULL;
}

/* Removes the rules whose idle or hard timeout has passed at 'now'. */
void
ofproto_run(struct ofproto *ofproto, long long now)
{
    if (now >= ofproto_next_wakeup(ofproto)) {
        wrlock(ofproto);
        for (size_t t = 0; t < OFPROTO_N_TABLES; t++) {
            struct classifier *cls = &ofproto->tables[t];
            struct cls_rule **rules;
            size_t n = cls->n_rules ? classifier_collect(cls, NULL, &rules)
                                    : 0;

            for (size_t i = 0; i < n; i++) {
                struct ofproto_rule *rule = rule_from_cls(rules[i]);
                if (rule->hard_timeout
                    && now >= rule->modified + rule->hard_timeout * 1000LL) {
                    remove_rule(ofproto, rule, OFPROTO_RR_HARD_TIMEOUT, now,
                                true);
                } else if (rule->idle_timeout
                           && now >= (rule->used
                                      + rule->idle_timeout * 1000LL)) {
                    remove_rule(ofproto, rule, OFPROTO_RR_IDLE_TIMEOUT, now,
                                true);
                }
            }
            if (n) {
                free(rules);
            }
        }
        ofproto_unlock(ofproto);
    }
}

/* Returns when ofproto_run() next has a rule to expire (LLONG_MAX: never). */
long long
ofproto_next_wakeup(const struct ofproto *ofproto)
{
    long long next = LLONG_MAX;

    if (!ofproto->n_timed) {
        return next;
    }
    for (size_t t = 0; t < OFPROTO_N_TABLES; t++) {
        const struct classifier *cls = &ofproto->tables[t];
        struct cls_rule **rules;

        if (!cls->n_rules) {
            continue;
        }
        size_t n = classifier_collect(cls, NULL, &rules);
        for (size_t i = 0; i < n; i++) {
            const struct ofproto_rule *rule = rule_from_cls(rules[i]);
            if (rule->hard_timeout) {
                next = MIN(next, rule->modified + rule->hard_timeout * 1000LL);
            }
            if (rule->idle_timeout) {
                next = MIN(next, rule->used + rule->idle_timeout * 1000LL);
            }
        }
        free(rules);
    }
    return next;
}

/* Returns the change generation (see ofproto.h, "Versions"). */
uint64_t
ofproto_version(const struct ofproto *ofproto)
{
    return __atomic_load_n(&ofproto->version, __ATOMIC_ACQUIRE);
}

/* Sets how IP fragments are handled (see ofproto.h).  Returns false, and
 * changes nothing, for OFPROTO_FRAG_REASSEMBLE or an unknown mode.  A
 * change counts as a table change (ofproto_version()), so that the
 * datapath's flows are revalidated. */
bool
ofproto_set_frag_handling(struct ofproto *ofproto,
                          enum ofproto_frag_handling frag)
{
    if (frag != OFPROTO_FRAG_NORMAL && frag != OFPROTO_FRAG_DROP
        && frag != OFPROTO_FRAG_NX_MATCH) {
        return false;
    }
    if (frag != ofproto_get_frag_handling(ofproto)) {
        __atomic_store_n(&ofproto->frag, frag, __ATOMIC_RELAXED);
        __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    }
    return true;
}

/* Returns how IP fragments are handled.  Any thread. */
enum ofproto_frag_handling
ofproto_get_frag_handling(const struct ofproto *ofproto)
{
    return __atomic_load_n(&ofproto->frag, __ATOMIC_RELAXED);
}

size_t
ofproto_n_rules(const struct ofproto *ofproto, uint8_t table_id)
{
    return (table_id < OFPROTO_N_TABLES
            ? classifier_count(&ofproto->tables[table_id]) : 0);
}

size_t
ofproto_n_rules_total(const struct ofproto *ofproto)
{
    size_t n = 0;
    for (size_t t = 0; t < OFPROTO_N_TABLES; t++) {
        n += classifier_count(&ofproto->tables[t]);
    }
    return n;
}

/* Takes the read lock, for lookups from threads other than the main one. */
void
ofproto_rdlock(struct ofproto *ofproto)
{
    pthread_rwlock_rdlock(&ofproto->rwlock);
}

/* Releases the read or write lock. */
void
ofproto_unlock(struct ofproto *ofproto)
{
    pthread_rwlock_unlock(&ofproto->rwlock);
}

/* Returns the highest-priority rule of table 'table_id' that 'flow'
 * matches, or NULL; ORs the bits consulted into 'wc' if it is nonnull. */
struct ofproto_rule *
ofproto_lookup(const struct ofproto *ofproto, uint8_t table_id,
               const struct match_flow *flow, struct match_flow *wc)
{
    if (table_id >= OFPROTO_N_TABLES) {
        return NULL;
    }
    if (!table_id && ofproto->fail_open) {
        return ofproto->fail_open;
    }
    struct cls_rule *cr = classifier_lookup(&ofproto->tables[table_id], flow,
                                            wc);
    return cr ? rule_from_cls(cr) : NULL;
}

/* Initializes 'q' to select every rule of every table. */
void
ofproto_flow_query_init(struct ofproto_flow_query *q)
{
    memset(q, 0, sizeof *q);
    q->table_id = OFPROTO_TABLE_ALL;
    match_init_catchall(&q->match);
    q->out_port = OFPROTO_OFPP_ANY;
    q->out_group = OFPROTO_OFPG_ANY;
}

/* Stores in '*rulesp' a new array of the rules 'q' selects and returns
 * their number.  The caller frees the array (not the rules). */
size_t
ofproto_collect(const struct ofproto *ofproto,
                const struct ofproto_flow_query *q,
                struct ofproto_rule ***rulesp)
{
    struct ofproto_rule **out = NULL;
    size_t n_out = 0;
    size_t first = q->table_id == OFPROTO_TABLE_ALL ? 0 : q->table_id;
    size_t last = (q->table_id == OFPROTO_TABLE_ALL ? OFPROTO_N_TABLES - 1
                   : q->table_id);
    bool filter_out = (q->out_port != OFPROTO_OFPP_ANY
                       || q->out_group != OFPROTO_OFPG_ANY);

    for (size_t t = first; t <= last && t < OFPROTO_N_TABLES; t++) {
        const struct classifier *cls = &ofproto->tables[t];
        struct cls_rule **rules;
        size_t n;

        if (!cls->n_rules) {
            continue;
        }
        if (q->strict) {
            struct cls_rule *cr = classifier_find_exactly(cls, &q->match,
                                                          q->priority);
            rules = xmalloc(sizeof *rules);
            n = 0;
            if (cr) {
                rules[n++] = cr;
            }
        } else {
            n = classifier_collect(cls, &q->match, &rules);
        }
        out = xrealloc(out, (n_out + n + 1) * sizeof *out);
        for (size_t i = 0; i < n; i++) {
            struct ofproto_rule *rule = rule_from_cls(rules[i]);
            if (!cookie_matches(rule, q->cookie, q->cookie_mask)) {
                continue;
            }
            if (filter_out
                && (!ofproto->outputs_to
                    || !ofproto->outputs_to(rule, q->out_port,
                                            q->out_group))) {
                continue;
            }
            out[n_out++] = rule;
        }
        free(rules);
    }
    *rulesp = out ? out : xmalloc(sizeof *out);
    return n_out;
}

/* Formats every rule for bridge/dump-flows.  See ofproto.h. */
void
ofproto_format_flows(const struct ofproto *ofproto, bool offload_stats,
                     long long now, struct ds *ds)
{
    struct ofproto_flow_query q;
    struct ofproto_rule **rules;

    /* The fail-open rule is the first of table 0: no rule has a higher
     * priority (Open vSwitch's classifier order is its own; a reader sorts
     * anyway). */
    if (ofproto->fail_open) {
        format_rule(ofproto->fail_open, offload_stats, now, ds);
    }
    ofproto_flow_query_init(&q);
    size_t n = ofproto_collect(ofproto, &q, &rules);
    for (size_t i = 0; i < n; i++) {
        format_rule(rules[i], offload_stats, now, ds);
    }
    free(rules);
}

/* Carries out group_mod 'gm' (see "Groups" in ofproto.h).  Returns 0 or
 * the OpenFlow error, having changed nothing. */
enum ofperr
ofproto_group_mod(struct ofproto *ofproto, const struct ofputil_group_mod *gm,
                  long long now)
{
    enum ofperr error = 0;
    bool found;

    change_begin(ofproto);
    size_t i = group_index(ofproto, gm->group_id, &found);
    switch (gm->command) {
    case OFPGC11_ADD:
    case OFPGC11_MODIFY:
    case OFPGC11_ADD_OR_MOD:
        if (gm->group_id > OFPG_MAX) {
            error = OFPERR_OFPGMFC_INVALID_GROUP;
        } else if (gm->command == OFPGC11_ADD && found) {
            error = OFPERR_OFPGMFC_GROUP_EXISTS;
        } else if (gm->command == OFPGC11_MODIFY && !found) {
            error = OFPERR_OFPGMFC_UNKNOWN_GROUP;
        }
        if (error) {
            break;
        }
        if (found) {
            group_set(ofproto->groups[i], gm, now);
            break;
        }
        if (ofproto->n_groups >= ofproto->allocated_groups) {
            ofproto->allocated_groups = MAX(8, 2 * ofproto->allocated_groups);
            ofproto->groups = xrealloc(ofproto->groups,
                                       (ofproto->allocated_groups
                                        * sizeof *ofproto->groups));
        }
        memmove(&ofproto->groups[i + 1], &ofproto->groups[i],
                (ofproto->n_groups - i) * sizeof *ofproto->groups);
        ofproto->n_groups++;
        ofproto->groups[i] = xzalloc(sizeof *ofproto->groups[i]);
        ofproto->groups[i]->group_id = gm->group_id;
        group_set(ofproto->groups[i], gm, now);
        break;
    case OFPGC15_INSERT_BUCKET:
    case OFPGC15_REMOVE_BUCKET:
        if (!found) {
            error = OFPERR_OFPGMFC_UNKNOWN_GROUP;
        } else {
            error = group_edit_buckets(ofproto->groups[i], gm, now);
        }
        break;
    case OFPGC11_DELETE:
        if (gm->group_id == OFPG_ALL) {
            while (ofproto->n_groups) {
                delete_group(ofproto, ofproto->n_groups - 1, now);
            }
        } else if (found) {
            delete_group(ofproto, i, now);
        }
        break;
    default:
        error = OFPERR_OFPGMFC_BAD_COMMAND;
        break;
    }
    if (!error) {
        __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    }
    change_end(ofproto);
    return error;
}

/* Returns group 'group_id', or NULL (see "Groups" for the locking). */
struct ofproto_group *
ofproto_group_find(const struct ofproto *ofproto, uint32_t group_id)
{
    bool found;
    size_t i = group_index(ofproto, group_id, &found);

    return found ? ofproto->groups[i] : NULL;
}

bool
ofproto_group_exists(const struct ofproto *ofproto, uint32_t group_id)
{
    return ofproto_group_find(ofproto, group_id) != NULL;
}

/* Stores the groups, by group id, in '*groupsp' (an array the caller
 * frees; valid until the groups change) and returns how many. */
size_t
ofproto_groups(const struct ofproto *ofproto,
               const struct ofproto_group ***groupsp)
{
    size_t n = ofproto->n_groups;

    *groupsp = xmemdup(ofproto->groups,
                       MAX(n, 1) * sizeof *ofproto->groups);
    return n;
}

/* Counts 'n_packets' and 'n_bytes' against 'group''s 'bucket'th bucket,
 * or (SIZE_MAX) against the group itself.  Main thread. */
void
ofproto_group_credit(struct ofproto_group *group, size_t bucket,
                     uint64_t n_packets, uint64_t n_bytes)
{
    if (bucket == SIZE_MAX) {
        group->packet_count += n_packets;
        group->byte_count += n_bytes;
    } else if (bucket < group->n_buckets) {
        group->bucket_packets[bucket] += n_packets;
        group->bucket_bytes[bucket] += n_bytes;
    }
}

/* Begins a transaction (see ofproto.h). */
void
ofproto_txn_begin(struct ofproto *ofproto)
{
    struct ofproto_txn *txn = xzalloc(sizeof *txn);

    util_assert(!ofproto->txn);
    wrlock(ofproto);
    for (size_t t = 0; t < OFPROTO_N_TABLES; t++) {
        struct cls_rule **rules;

        if (!ofproto->tables[t].n_rules) {
            continue;
        }
        size_t n = classifier_collect(&ofproto->tables[t], NULL, &rules);
        txn->rules = xrealloc(txn->rules,
                              (txn->n_rules + n) * sizeof *txn->rules);
        for (size_t i = 0; i < n; i++) {
            txn->rules[txn->n_rules++] = rule_clone(rule_from_cls(rules[i]));
        }
        free(rules);
    }
    txn->groups = xmalloc(MAX(ofproto->n_groups, 1) * sizeof *txn->groups);
    for (size_t i = 0; i < ofproto->n_groups; i++) {
        txn->groups[i] = group_clone(ofproto->groups[i]);
    }
    txn->n_groups = ofproto->n_groups;
    txn->n_timed = ofproto->n_timed;
    ofproto->txn = txn;
}

/* Ends the transaction, keeping its changes and reporting its removals. */
void
ofproto_txn_commit(struct ofproto *ofproto)
{
    struct ofproto_txn *txn = ofproto->txn;

    ofproto->txn = NULL;
    for (size_t i = 0; i < txn->n_removals; i++) {
        struct txn_removal *r = &txn->removals[i];
        if (ofproto->removed_cb) {
            ofproto->removed_cb(ofproto->removed_aux, r->rule, r->reason,
                                r->now);
        }
    }
    __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    ofproto_unlock(ofproto);
    txn_free(txn);
}

/* Ends the transaction, putting back the tables and groups of its
 * beginning. */
void
ofproto_txn_abort(struct ofproto *ofproto)
{
    struct ofproto_txn *txn = ofproto->txn;

    ofproto->txn = NULL;
    for (size_t t = 0; t < OFPROTO_N_TABLES; t++) {
        struct classifier *cls = &ofproto->tables[t];
        struct cls_rule **rules;

        if (!cls->n_rules) {
            continue;
        }
        size_t n = classifier_collect(cls, NULL, &rules);
        for (size_t i = 0; i < n; i++) {
            classifier_remove(cls, rules[i]);
            rule_destroy(rule_from_cls(rules[i]));
        }
        free(rules);
    }
    for (size_t i = 0; i < txn->n_rules; i++) {
        struct ofproto_rule *rule = txn->rules[i];
        classifier_insert(&ofproto->tables[rule->table_id], &rule->cr);
    }
    txn->n_rules = 0;
    for (size_t i = 0; i < ofproto->n_groups; i++) {
        group_free(ofproto->groups[i]);
    }
    free(ofproto->groups);
    ofproto->groups = txn->groups;
    ofproto->n_groups = ofproto->allocated_groups = txn->n_groups;
    txn->groups = NULL;
    txn->n_groups = 0;
    ofproto->n_timed = txn->n_timed;
    __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    ofproto_unlock(ofproto);
    txn_free(txn);
}

/* Adds datapath statistics to 'rule' (see ofproto.h). */
void
ofproto_rule_credit(struct ofproto_rule *rule, uint64_t n_packets,
                    uint64_t n_bytes, long long used)
{
    rule->n_packets += n_packets;
    rule->n_bytes += n_bytes;
    if (n_packets && used > rule->used) {
        rule->used = used;
    }
}

static enum ofproto_error
add_flow(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
         long long now)
{
    /* OpenFlow 1.0 has no table in a flow_mod: OFPTT_ALL adds to 0. */
    uint8_t table_id = fm->table_id == OFPROTO_TABLE_ALL ? 0 : fm->table_id;
    struct classifier *cls = &ofproto->tables[table_id];
    struct match match = fm->match;

    match_normalize(&match);
    struct cls_rule *old_cr = classifier_find_exactly(cls, &match,
                                                      fm->priority);
    if ((fm->flags & OFPROTO_FF_CHECK_OVERLAP)
        && classifier_overlaps(cls, &match, fm->priority)) {
        return OFPROTO_ERR_OVERLAP;
    }

    struct ofproto_rule *rule = xzalloc(sizeof *rule);
    cls_rule_init(&rule->cr, &match, fm->priority);
    rule->table_id = table_id;
    rule->cookie = fm->cookie;
    rule->idle_timeout = fm->idle_timeout;
    rule->hard_timeout = fm->hard_timeout;
    rule->importance = fm->importance;
    rule->flags = fm->flags;    /* All kept, as Open vSwitch reports them. */
    rule->created = rule->modified = rule->used = now;
    set_actions(rule, fm->ofpacts, fm->ofpacts_len);

    if (old_cr && !(fm->flags & OFPROTO_FF_RESET_COUNTS)) {
        const struct ofproto_rule *old = rule_from_cls(old_cr);
        rule->n_packets = old->n_packets;
        rule->n_bytes = old->n_bytes;
    }

    struct cls_rule *displaced = classifier_insert(cls, &rule->cr);
    util_assert(displaced == old_cr);
    if (displaced) {
        rule_free(ofproto, rule_from_cls(displaced));
    }
    ofproto->n_timed += rule_is_timed(rule);
    __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    return OFPROTO_OK;
}

static enum ofproto_error
modify_flows(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
             long long now)
{
    struct ofproto_rule **rules;
    size_t n = collect_for_flow_mod(ofproto, fm, &rules);

    for (size_t i = 0; i < n; i++) {
        struct ofproto_rule *rule = rules[i];
        set_actions(rule, fm->ofpacts, fm->ofpacts_len);
        if (fm->modify_cookie) {
            rule->cookie = fm->new_cookie;
        }
        if (fm->flags & OFPROTO_FF_RESET_COUNTS) {
            rule->n_packets = rule->n_bytes = 0;
        }
        rule->modified = now;
    }
    free(rules);

    if (n) {
        __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
        return OFPROTO_OK;
    }
    if (fm->cookie_mask || !fm->modify_cookie) {
        return OFPROTO_OK;
    }

    /* Nothing to modify: add, as Open vSwitch does. */
    struct ofproto_flow_mod add = *fm;
    add.command = OFPROTO_FC_ADD;
    add.cookie = fm->new_cookie;
    return add_flow(ofproto, &add, now);
}

static void
delete_flows(struct ofproto *ofproto, const struct ofproto_flow_mod *fm,
             enum ofproto_removed_reason reason, long long now)
{
    struct ofproto_rule **rules;
    size_t n = collect_for_flow_mod(ofproto, fm, &rules);

    for (size_t i = 0; i < n; i++) {
        remove_rule(ofproto, rules[i], reason, now, true);
    }
    free(rules);
}

/* The rules a modify or delete 'fm' selects (modify ignores out_port and
 * out_group, as OpenFlow says). */
static size_t
collect_for_flow_mod(const struct ofproto *ofproto,
                     const struct ofproto_flow_mod *fm,
                     struct ofproto_rule ***rulesp)
{
    bool delete = (fm->command == OFPROTO_FC_DELETE
                   || fm->command == OFPROTO_FC_DELETE_STRICT);
    struct ofproto_flow_query q;

    ofproto_flow_query_init(&q);
    q.table_id = fm->table_id;
    q.match = fm->match;
    match_normalize(&q.match);
    q.strict = (fm->command == OFPROTO_FC_MODIFY_STRICT
                || fm->command == OFPROTO_FC_DELETE_STRICT);
    q.priority = fm->priority;
    q.cookie = fm->cookie;
    q.cookie_mask = fm->cookie_mask;
    if (delete) {
        q.out_port = fm->out_port;
        q.out_group = fm->out_group;
    }
    return ofproto_collect(ofproto, &q, rulesp);
}

/* Takes 'rule' out of its table, reports it if it asked to be, frees it. */
static void
remove_rule(struct ofproto *ofproto, struct ofproto_rule *rule,
            enum ofproto_removed_reason reason, long long now, bool report)
{
    classifier_remove(&ofproto->tables[rule->table_id], &rule->cr);
    __atomic_add_fetch(&ofproto->version, 1, __ATOMIC_RELEASE);
    if (report && (rule->flags & OFPROTO_FF_SEND_FLOW_REM) && ofproto->txn) {
        /* Reported if the transaction commits. */
        struct ofproto_txn *txn = ofproto->txn;
        txn->removals = xrealloc(txn->removals, (txn->n_removals + 1)
                                 * sizeof *txn->removals);
        txn->removals[txn->n_removals++] = (struct txn_removal) {
            rule, reason, now
        };
        ofproto->n_timed -= rule_is_timed(rule);
        return;
    }
    if (report && (rule->flags & OFPROTO_FF_SEND_FLOW_REM)
        && ofproto->removed_cb) {
        ofproto->removed_cb(ofproto->removed_aux, rule, reason, now);
    }
    rule_free(ofproto, rule);
}

static bool
rule_is_timed(const struct ofproto_rule *rule)
{
    return rule->idle_timeout || rule->hard_timeout;
}

static void
rule_free(struct ofproto *ofproto, struct ofproto_rule *rule)
{
    ofproto->n_timed -= rule_is_timed(rule);
    rule_destroy(rule);
}

/* Frees 'rule' without accounting for it. */
static void
rule_destroy(struct ofproto_rule *rule)
{
    free(rule->ofpacts);
    free(rule);
}

/* Returns a copy of 'rule', in no table. */
static struct ofproto_rule *
rule_clone(const struct ofproto_rule *rule)
{
    struct ofproto_rule *copy = xmemdup(rule, sizeof *rule);

    cls_rule_init(&copy->cr, &rule->cr.match, rule->cr.priority);
    copy->ofpacts = (rule->ofpacts_len
                     ? xmemdup(rule->ofpacts, rule->ofpacts_len) : NULL);
    return copy;
}

static void
set_actions(struct ofproto_rule *rule, const void *ofpacts,
            size_t ofpacts_len)
{
    free(rule->ofpacts);
    rule->ofpacts = ofpacts_len ? xmemdup(ofpacts, ofpacts_len) : NULL;
    rule->ofpacts_len = ofpacts_len;
}

static bool
cookie_matches(const struct ofproto_rule *rule, uint64_t cookie,
               uint64_t cookie_mask)
{
    return !((rule->cookie ^ cookie) & cookie_mask);
}

static struct ofproto_rule *
rule_from_cls(const struct cls_rule *cr)
{
    return CONTAINER_OF(cr, struct ofproto_rule, cr);
}

static void
wrlock(struct ofproto *ofproto)
{
    pthread_rwlock_wrlock(&ofproto->rwlock);
}

/* Takes the write lock for a change, unless a transaction holds it. */
static void
change_begin(struct ofproto *ofproto)
{
    if (!ofproto->txn) {
        wrlock(ofproto);
    }
}

static void
change_end(struct ofproto *ofproto)
{
    if (!ofproto->txn) {
        ofproto_unlock(ofproto);
    }
}

/* The index of group 'group_id' in 'ofproto->groups' ('*found'), or where
 * it would go. */
static size_t
group_index(const struct ofproto *ofproto, uint32_t group_id, bool *found)
{
    size_t lo = 0, hi = ofproto->n_groups;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t id = ofproto->groups[mid]->group_id;
        if (id == group_id) {
            *found = true;
            return mid;
        } else if (id < group_id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = false;
    return lo;
}

/* Gives 'group' the type and buckets of 'gm', with fresh counters. */
static void
group_set(struct ofproto_group *group, const struct ofputil_group_mod *gm,
          long long now)
{
    struct ofputil_group_props props = gm->props;

    /* 'gm' may hold 'group''s own properties (group_edit_buckets()). */
    props.fields = (gm->props.fields_len
                    ? xmemdup(gm->props.fields, gm->props.fields_len) : NULL);
    free(group->props.fields);
    group->props = props;
    ofputil_buckets_free(group->buckets, group->n_buckets);
    free(group->bucket_packets);
    free(group->bucket_bytes);
    group->type = gm->type;
    group->buckets = ofputil_buckets_clone(gm->buckets, gm->n_buckets);
    group->n_buckets = gm->n_buckets;
    group->bucket_packets = xzalloc(MAX(gm->n_buckets, 1) * sizeof(uint64_t));
    group->bucket_bytes = xzalloc(MAX(gm->n_buckets, 1) * sizeof(uint64_t));
    group->packet_count = group->byte_count = 0;
    group->created = now;
}

/* Inserts or removes buckets of 'group' as 'gm' says; the group's counters
 * start again, as a modify's do. */
static enum ofperr
group_edit_buckets(struct ofproto_group *group,
                   const struct ofputil_group_mod *gm, long long now)
{
    struct ofputil_group_mod edited;
    enum ofperr error;

    memset(&edited, 0, sizeof edited);
    edited.type = group->type;
    edited.props = group->props;
    error = ofputil_group_edit_buckets(gm, group->type, group->buckets,
                                       group->n_buckets, &edited.buckets,
                                       &edited.n_buckets);
    if (!error) {
        group_set(group, &edited, now);
        ofputil_buckets_free(edited.buckets, edited.n_buckets);
    }
    return error;
}

static void
group_free(struct ofproto_group *group)
{
    if (group) {
        free(group->props.fields);
        ofputil_buckets_free(group->buckets, group->n_buckets);
        free(group->bucket_packets);
        free(group->bucket_bytes);
        free(group);
    }
}

/* Returns a copy of 'group', with its counters. */
static struct ofproto_group *
group_clone(const struct ofproto_group *group)
{
    struct ofproto_group *copy = xmemdup(group, sizeof *group);
    size_t n = MAX(group->n_buckets, 1);

    copy->buckets = ofputil_buckets_clone(group->buckets, group->n_buckets);
    copy->bucket_packets = xmemdup(group->bucket_packets,
                                   n * sizeof *group->bucket_packets);
    copy->bucket_bytes = xmemdup(group->bucket_bytes,
                                 n * sizeof *group->bucket_bytes);
    copy->props.fields = (group->props.fields
                          ? xmemdup(group->props.fields,
                                    group->props.fields_len)
                          : NULL);
    return copy;
}

static void
txn_free(struct ofproto_txn *txn)
{
    for (size_t i = 0; i < txn->n_rules; i++) {
        rule_destroy(txn->rules[i]);
    }
    free(txn->rules);
    for (size_t i = 0; i < txn->n_groups; i++) {
        group_free(txn->groups[i]);
    }
    free(txn->groups);
    for (size_t i = 0; i < txn->n_removals; i++) {
        rule_destroy(txn->removals[i].rule);
    }
    free(txn->removals);
    free(txn);
}

/* Removes the group at 'index' and the rules that send to it. */
static void
delete_group(struct ofproto *ofproto, size_t index, long long now)
{
    struct ofproto_group *group = ofproto->groups[index];
    struct ofproto_flow_mod fm;

    ofproto_flow_mod_init(&fm, OFPROTO_FC_DELETE);
    fm.table_id = OFPROTO_TABLE_ALL;
    fm.out_group = group->group_id;
    delete_flows(ofproto, &fm, OFPROTO_RR_GROUP_DELETE, now);

    memmove(&ofproto->groups[index], &ofproto->groups[index + 1],
            (ofproto->n_groups - index - 1) * sizeof *ofproto->groups);
    ofproto->n_groups--;
    group_free(group);
}

/* Appends one line of bridge/dump-flows for 'rule' to 'ds'. */
static void
format_rule(const struct ofproto_rule *rule, bool offload_stats,
            long long now, struct ds *ds)
{
    if (rule->table_id) {
        ds_put_format(ds, "table_id=%"PRIu8", ", rule->table_id);
    }
    ds_put_format(ds, "duration=%llds, n_packets=%"PRIu64", "
                  "n_bytes=%"PRIu64", ", (now - rule->created) / 1000,
                  rule->n_packets, rule->n_bytes);
    if (offload_stats) {
        ds_put_cstr(ds, "n_offload_packets=0, n_offload_bytes=0, ");
    }
    match_format(&rule->cr.match, NULL, ds, rule->cr.priority,
                 OFP_DEFAULT_PRIORITY);
    /* A catch-all at the default priority prints nothing: no comma. */
    if (ds->length && ds->string[ds->length - 1] != ' ') {
        ds_put_char(ds, ',');
    }
    ds_put_cstr(ds, "actions=");
    ofpacts_format(rule->ofpacts, rule->ofpacts_len, NULL, ds);
    ds_put_char(ds, '\n');
}

static void
frozen_key_init(struct frozen_key *key, struct ofproto *ofproto,
                const struct ofproto_packet_in *pin)
{
    memset(key, 0, sizeof *key);
    key->ofproto = ofproto;
    key->cookie = pin->cookie;
    key->metadata = pin->flow.metadata;
    memcpy(key->regs, pin->flow.regs, sizeof key->regs);
    key->in_port = pin->flow.in_port;
    key->controller_id = pin->controller_id;
    key->max_len = pin->max_len;
    key->reason = pin->reason;
    key->table_id = pin->table_id;
    key->miss = pin->miss;
    key->userdata_len = pin->userdata_len;
}

/* FNV-1a over 'key' and the userdata. */
static uint32_t
frozen_hash(const struct frozen_key *key, const void *userdata)
{
    const uint8_t *p = (const uint8_t *) key;
    uint32_t hash = 2166136261u;

    for (size_t i = 0; i < sizeof *key; i++) {
        hash = (hash ^ p[i]) * 16777619u;
    }
    p = userdata;
    for (size_t i = 0; i < key->userdata_len; i++) {
        hash = (hash ^ p[i]) * 16777619u;
    }
    return hash;
}

/* Adds frozen state 'id' to the index, growing it to keep it at most half
 * full.  Caller holds 'frozen_mutex'. */
static void
frozen_index_insert(uint32_t id)
{
    if (2 * n_frozens > frozen_index_size) {
        free(frozen_index);
        frozen_index_size = MAX(128, 2 * frozen_index_size);
        frozen_index = xzalloc(frozen_index_size * sizeof *frozen_index);
        for (uint32_t i = 1; i <= n_frozens; i++) {
            if (i != id) {
                frozen_index_insert(i);
            }
        }
    }
    size_t i = frozens[id - 1].hash & (frozen_index_size - 1);
    while (frozen_index[i]) {
        i = (i + 1) & (frozen_index_size - 1);
    }
    frozen_index[i] = id;
}
