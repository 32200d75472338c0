/* The OpenFlow classifier (see classifier.h).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "classifier.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

/* Staged lookup, as Open vSwitch's classifier does it: a subtable's mask is
 * looked at in stages, the metadata (in_port, metadata, registers) first,
 * then with the Ethernet header, then with the L3 fields, and last whole.
 * Each stage but the last keeps the hashes of its rules' flows masked to
 * the stage; a lookup whose flow's hash is not among them has no match in
 * the subtable, and the megaflow needs only the bits of the stages so far.
 * (A hash that is there may be a collision: the lookup just goes on.) */
#define CLS_N_STAGES 3

struct cls_stage {
    struct match_flow mask;     /* The subtable's mask up to this stage. */
    uint64_t map;               /* Its nonzero words. */
    struct cls_stage_slot {
        uint32_t hash;
        uint32_t count;         /* Entries with this hash; 0: empty slot. */
    } *slots;
    size_t n_slots;             /* A power of 2. */
    size_t n_used;
};

/* One mask's rules: a hash table of the masked flows, each bucket a chain
 * of entries ('hash_next'), each entry the head of a list of rules with the
 * same match in decreasing priority ('same_next'). */
struct cls_subtable {
    struct match_flow mask;
    uint64_t map;               /* Bit i: word i of 'mask' is not zero. */
    struct cls_rule **buckets;
    size_t n_buckets;           /* A power of 2. */
    size_t n_entries;           /* Distinct matches. */
    size_t n_rules;
    int max_priority;
    struct cls_stage stages[CLS_N_STAGES];
    int n_stages;               /* The stages that narrow the mask. */
};

static uint32_t hash_masked(const struct match_flow *,
                            const struct cls_subtable *);
static uint32_t hash_words(const struct match_flow *,
                           const struct match_flow *mask, uint64_t map);
static void stages_init(struct cls_subtable *);
static void stages_destroy(struct cls_subtable *);
static void stages_add(struct cls_subtable *, const struct match_flow *);
static void stages_remove(struct cls_subtable *, const struct match_flow *);
static bool stage_has(const struct cls_stage *, uint32_t hash);
static bool equal_masked(const struct match_flow *, const struct match_flow *,
                         const struct cls_subtable *);
static struct cls_subtable *find_subtable(const struct classifier *,
                                          const struct match_flow *mask);
static struct cls_subtable *create_subtable(struct classifier *,
                                            const struct match_flow *mask);
static void destroy_subtable(struct classifier *, struct cls_subtable *);
static void sort_subtables(struct classifier *);
static struct cls_rule **find_entry(const struct cls_subtable *,
                                    const struct match_flow *, uint32_t hash);
static void subtable_expand(struct cls_subtable *);
static void subtable_update_max_priority(struct cls_subtable *);

/* Initializes an empty classifier. */
void
classifier_init(struct classifier *cls)
{
    memset(cls, 0, sizeof *cls);
}

/* Frees 'cls''s own memory.  The rules still in it are the owner's. */
void
classifier_destroy(struct classifier *cls)
{
    for (size_t i = 0; i < cls->n_subtables; i++) {
        stages_destroy(cls->subtables[i]);
        free(cls->subtables[i]->buckets);
        free(cls->subtables[i]);
    }
    free(cls->subtables);
    memset(cls, 0, sizeof *cls);
}

/* Returns the number of rules in 'cls'. */
size_t
classifier_count(const struct classifier *cls)
{
    return cls->n_rules;
}

bool
classifier_is_empty(const struct classifier *cls)
{
    return !cls->n_rules;
}

/* Initializes 'rule' with a copy of 'match' (normalized) and 'priority'. */
void
cls_rule_init(struct cls_rule *rule, const struct match *match, int priority)
{
    memset(rule, 0, sizeof *rule);
    rule->match = *match;
    match_normalize(&rule->match);
    rule->priority = priority;
}

/* Adds 'rule' to 'cls'.  If a rule with the same match and priority was
 * there, it is removed and returned (the caller owns it again); otherwise
 * returns NULL. */
struct cls_rule *
classifier_insert(struct classifier *cls, struct cls_rule *rule)
{
    struct cls_subtable *st = find_subtable(cls, &rule->match.mask);
    if (!st) {
        st = create_subtable(cls, &rule->match.mask);
    }

    uint32_t hash = hash_masked(&rule->match.flow, st);
    struct cls_rule **entryp = find_entry(st, &rule->match.flow, hash);
    struct cls_rule *displaced = NULL;

    rule->subtable = st;
    rule->hash = hash;
    rule->same_next = NULL;
    if (!*entryp) {
        /* A new match: a new entry at the head of its bucket. */
        size_t b = hash & (st->n_buckets - 1);
        rule->hash_next = st->buckets[b];
        st->buckets[b] = rule;
        st->n_entries++;
        stages_add(st, &rule->match.flow);
    } else {
        /* Find the place in the priority list. */
        struct cls_rule **pp = entryp;
        while (*pp && (*pp)->priority > rule->priority) {
            pp = &(*pp)->same_next;
        }
        if (*pp && (*pp)->priority == rule->priority) {
            displaced = *pp;
            rule->same_next = displaced->same_next;
        } else {
            rule->same_next = *pp;
        }
        if (pp == entryp) {
            /* The new head takes the old head's place in the chain. */
            rule->hash_next = (*entryp)->hash_next;
        } else {
            rule->hash_next = NULL;
        }
        *pp = rule;
        if (displaced) {
            displaced->subtable = NULL;
        }
    }

    if (!displaced) {
        st->n_rules++;
        cls->n_rules++;
        if (st->n_entries > st->n_buckets) {
            subtable_expand(st);
        }
    }
    if (rule->priority > st->max_priority || st->n_rules == 1) {
        st->max_priority = rule->priority;
        sort_subtables(cls);
    }
    return displaced;
}

/* Removes 'rule', which must be in 'cls'. */
void
classifier_remove(struct classifier *cls, struct cls_rule *rule)
{
    struct cls_subtable *st = rule->subtable;
    util_assert(st);

    struct cls_rule **entryp = find_entry(st, &rule->match.flow, rule->hash);
    util_assert(*entryp);
    if (*entryp == rule) {
        if (rule->same_next) {
            rule->same_next->hash_next = rule->hash_next;
            *entryp = rule->same_next;
        } else {
            *entryp = rule->hash_next;
            st->n_entries--;
            stages_remove(st, &rule->match.flow);
        }
    } else {
        struct cls_rule **pp = &(*entryp)->same_next;
        while (*pp != rule) {
            util_assert(*pp);
            pp = &(*pp)->same_next;
        }
        *pp = rule->same_next;
    }
    rule->subtable = NULL;
    rule->hash_next = rule->same_next = NULL;
    st->n_rules--;
    cls->n_rules--;

    if (!st->n_rules) {
        destroy_subtable(cls, st);
    } else if (rule->priority == st->max_priority) {
        subtable_update_max_priority(st);
        sort_subtables(cls);
    }
}

/* Returns the highest-priority rule in 'cls' that 'flow' matches, or NULL.
 * If 'wc' is nonnull, ORs into it the bits the lookup consulted. */
struct cls_rule *
classifier_lookup(const struct classifier *cls, const struct match_flow *flow,
                  struct match_flow *wc)
{
    struct cls_rule *best = NULL;

    for (size_t i = 0; i < cls->n_subtables; i++) {
        const struct cls_subtable *st = cls->subtables[i];

        if (best && st->max_priority <= best->priority) {
            break;              /* Nothing further can beat 'best'. */
        }

        const struct cls_stage *miss = NULL;
        for (int k = 0; k < st->n_stages && !miss; k++) {
            const struct cls_stage *stage = &st->stages[k];
            if (!stage_has(stage, hash_words(flow, &stage->mask,
                                             stage->map))) {
                miss = stage;
            }
        }
        if (miss) {
            /* No rule here agrees with 'flow' up to this stage. */
            if (wc) {
                uint64_t *w = match_flow_words_rw(wc);
                const uint64_t *m = match_flow_words(&miss->mask);
                for (uint64_t map = miss->map; map; map &= map - 1) {
                    unsigned int k = __builtin_ctzll(map);
                    w[k] |= m[k];
                }
            }
            continue;
        }
        if (wc) {
            uint64_t *w = match_flow_words_rw(wc);
            const uint64_t *m = match_flow_words(&st->mask);
            for (uint64_t map = st->map; map; map &= map - 1) {
                unsigned int k = __builtin_ctzll(map);
                w[k] |= m[k];
            }
        }
        uint32_t hash = hash_masked(flow, st);
        struct cls_rule *const *entryp = find_entry(st, flow, hash);
        if (*entryp && (!best || (*entryp)->priority > best->priority)) {
            best = *entryp;
        }
    }
    return best;
}

/* Returns the rule with exactly 'match' and 'priority' (flow_mod's strict
 * semantics), or NULL. */
struct cls_rule *
classifier_find_exactly(const struct classifier *cls,
                        const struct match *match, int priority)
{
    const struct cls_subtable *st = find_subtable(cls, &match->mask);
    if (!st) {
        return NULL;
    }

    struct match m = *match;
    match_normalize(&m);
    struct cls_rule *r = *find_entry(st, &m.flow, hash_masked(&m.flow, st));
    while (r && r->priority > priority) {
        r = r->same_next;
    }
    return r && r->priority == priority ? r : NULL;
}

/* Returns true if some rule in 'cls' with 'priority' could match a packet
 * that 'match' also matches (OpenFlow's check_overlap). */
bool
classifier_overlaps(const struct classifier *cls, const struct match *match,
                    int priority)
{
    struct cls_rule **rules;
    size_t n = classifier_collect(cls, NULL, &rules);
    bool overlap = false;

    for (size_t i = 0; i < n && !overlap; i++) {
        const struct cls_rule *r = rules[i];
        if (r->priority != priority) {
            continue;
        }
        const uint64_t *af = match_flow_words(&r->match.flow);
        const uint64_t *am = match_flow_words(&r->match.mask);
        const uint64_t *bf = match_flow_words(&match->flow);
        const uint64_t *bm = match_flow_words(&match->mask);
        overlap = true;
        for (size_t k = 0; k < MATCH_FLOW_N_WORDS; k++) {
            if ((af[k] ^ bf[k]) & am[k] & bm[k]) {
                overlap = false;
                break;
            }
        }
    }
    free(rules);
    return overlap;
}

/* Stores in '*rulesp' a newly allocated array of the rules of 'cls' that
 * loosely match 'target' (all of them if 'target' is NULL) and returns how
 * many there are.  The array is a snapshot: the caller may remove rules
 * while it walks it.  The caller frees it. */
size_t
classifier_collect(const struct classifier *cls, const struct match *target,
                   struct cls_rule ***rulesp)
{
    struct cls_rule **rules = xmalloc(MAX(cls->n_rules, 1) * sizeof *rules);
    size_t n = 0;

    for (size_t i = 0; i < cls->n_subtables; i++) {
        const struct cls_subtable *st = cls->subtables[i];
        if (target && !match_mask_is_subset(&target->mask, &st->mask)) {
            continue;
        }
        for (size_t b = 0; b < st->n_buckets; b++) {
            for (struct cls_rule *e = st->buckets[b]; e; e = e->hash_next) {
                for (struct cls_rule *r = e; r; r = r->same_next) {
                    if (!target || cls_rule_is_loose_match(r, target)) {
                        rules[n++] = r;
                    }
                }
            }
        }
    }
    *rulesp = rules;
    return n;
}

/* Returns true if 'rule' matches only packets that 'target' matches too:
 * its mask covers 'target''s and the two agree on 'target''s bits (flow_mod
 * modify and delete without _strict). */
bool
cls_rule_is_loose_match(const struct cls_rule *rule,
                        const struct match *target)
{
    const uint64_t *rf = match_flow_words(&rule->match.flow);
    const uint64_t *rm = match_flow_words(&rule->match.mask);
    const uint64_t *tf = match_flow_words(&target->flow);
    const uint64_t *tm = match_flow_words(&target->mask);

    for (size_t k = 0; k < MATCH_FLOW_N_WORDS; k++) {
        if ((tm[k] & ~rm[k]) || ((rf[k] ^ tf[k]) & tm[k])) {
            return false;
        }
    }
    return true;
}

/* Hashes the words of 'flow' that 'st''s mask uses, masked. */
static uint32_t
hash_masked(const struct match_flow *flow, const struct cls_subtable *st)
{
    return hash_words(flow, &st->mask, st->map);
}

/* Hashes the words of 'flow' that 'map' names, masked by 'mask'. */
static uint32_t
hash_words(const struct match_flow *flow, const struct match_flow *mask,
           uint64_t map)
{
    const uint64_t *f = match_flow_words(flow);
    const uint64_t *m = match_flow_words(mask);
    uint64_t h = 0x9e3779b97f4a7c15ULL;

    for (; map; map &= map - 1) {
        unsigned int k = __builtin_ctzll(map);
        h = (h ^ (f[k] & m[k])) * 0xff51afd7ed558ccdULL;
        h ^= h >> 29;
    }
    h *= 0xc4ceb9fe1a85ec53ULL;
    return (uint32_t) (h ^ (h >> 32));
}

/* Whether 'a' masked by 'st''s mask equals 'b' (already masked). */
static bool
equal_masked(const struct match_flow *a, const struct match_flow *b,
             const struct cls_subtable *st)
{
    const uint64_t *wa = match_flow_words(a);
    const uint64_t *wb = match_flow_words(b);
    const uint64_t *m = match_flow_words(&st->mask);

    for (uint64_t map = st->map; map; map &= map - 1) {
        unsigned int k = __builtin_ctzll(map);
        if ((wa[k] & m[k]) != wb[k]) {
            return false;
        }
    }
    return true;
}

/* Returns where the entry for 'flow' (hashed 'hash') is or would be linked:
 * a pointer to the bucket's or the previous entry's link. */
static struct cls_rule **
find_entry(const struct cls_subtable *st, const struct match_flow *flow,
           uint32_t hash)
{
    struct cls_rule **pp = &st->buckets[hash & (st->n_buckets - 1)];
    while (*pp && ((*pp)->hash != hash
                   || !equal_masked(flow, &(*pp)->match.flow, st))) {
        pp = &(*pp)->hash_next;
    }
    return pp;
}

static struct cls_subtable *
find_subtable(const struct classifier *cls, const struct match_flow *mask)
{
    for (size_t i = 0; i < cls->n_subtables; i++) {
        if (!memcmp(&cls->subtables[i]->mask, mask, sizeof *mask)) {
            return cls->subtables[i];
        }
    }
    return NULL;
}

static struct cls_subtable *
create_subtable(struct classifier *cls, const struct match_flow *mask)
{
    struct cls_subtable *st = xzalloc(sizeof *st);
    const uint64_t *m = match_flow_words(mask);

    st->mask = *mask;
    for (size_t k = 0; k < MATCH_FLOW_N_WORDS; k++) {
        if (m[k]) {
            st->map |= UINT64_C(1) << k;
        }
    }
    st->n_buckets = 8;
    st->buckets = xcalloc(st->n_buckets, sizeof *st->buckets);
    st->max_priority = INT_MIN;
    stages_init(st);

    if (cls->n_subtables >= cls->allocated_subtables) {
        cls->allocated_subtables = MAX(8, 2 * cls->allocated_subtables);
        cls->subtables = xrealloc(cls->subtables, cls->allocated_subtables
                                                  * sizeof *cls->subtables);
    }
    cls->subtables[cls->n_subtables++] = st;
    return st;
}

static void
destroy_subtable(struct classifier *cls, struct cls_subtable *st)
{
    for (size_t i = 0; i < cls->n_subtables; i++) {
        if (cls->subtables[i] == st) {
            memmove(&cls->subtables[i], &cls->subtables[i + 1],
                    (cls->n_subtables - i - 1) * sizeof *cls->subtables);
            cls->n_subtables--;
            break;
        }
    }
    stages_destroy(st);
    free(st->buckets);
    free(st);
}

/* Sets the bytes of 'region' that stage 'k' (0: metadata, 1: Ethernet,
 * 2: L3, as Open vSwitch divides a flow) and the stages before it cover. */
static void
stage_region(int k, struct match_flow *region)
{
#define COVER(MEMBER) \
    memset(&region->MEMBER, 0xff, sizeof region->MEMBER)
    memset(region, 0, sizeof *region);
    COVER(in_port);
    COVER(metadata);
    COVER(regs);
    COVER(dp.in_port);
    COVER(dp.recirc_id);
    if (k >= 1) {
        COVER(dp.dl_dst);
        COVER(dp.dl_src);
        COVER(dp.dl_type);
        COVER(dp.vlan_tpid);
        COVER(dp.vlan_tci);
    }
    if (k >= 2) {
        COVER(dp.nw_src);
        COVER(dp.nw_dst);
        COVER(dp.ipv6_src);
        COVER(dp.ipv6_dst);
        COVER(dp.ipv6_label);
        COVER(dp.nw_proto);
        COVER(dp.nw_tos);
        COVER(dp.nw_ttl);
        COVER(dp.nw_frag);
        COVER(dp.nd_target);
        COVER(dp.arp_sha);
        COVER(dp.arp_tha);
        COVER(dp.arp_op);
        COVER(dp.tcp_flags);
    }
#undef COVER
}

/* Sets up the stages of 'st' whose masks add bits to the stage before and
 * are not yet the whole mask. */
static void
stages_init(struct cls_subtable *st)
{
    const uint64_t *m = match_flow_words(&st->mask);
    struct match_flow prev;

    memset(&prev, 0, sizeof prev);
    st->n_stages = 0;
    for (int k = 0; k < CLS_N_STAGES; k++) {
        struct match_flow region, mask;
        stage_region(k, &region);
        const uint64_t *r = match_flow_words(&region);
        uint64_t *w = match_flow_words_rw(&mask);
        uint64_t map = 0;
        for (size_t i = 0; i < MATCH_FLOW_N_WORDS; i++) {
            w[i] = m[i] & r[i];
            if (w[i]) {
                map |= UINT64_C(1) << i;
            }
        }
        if (!map || !memcmp(&mask, &prev, sizeof mask)
            || !memcmp(&mask, &st->mask, sizeof mask)) {
            continue;
        }
        struct cls_stage *stage = &st->stages[st->n_stages++];
        stage->mask = mask;
        stage->map = map;
        stage->n_slots = 8;
        stage->slots = xcalloc(stage->n_slots, sizeof *stage->slots);
        stage->n_used = 0;
        prev = mask;
    }
}

static void
stages_destroy(struct cls_subtable *st)
{
    for (int k = 0; k < st->n_stages; k++) {
        free(st->stages[k].slots);
    }
    st->n_stages = 0;
}

/* The slot of 'hash' in 'stage', or of the empty slot where it would go. */
static size_t
stage_slot(const struct cls_stage *stage, uint32_t hash)
{
    size_t mask = stage->n_slots - 1;
    size_t i = hash & mask;

    while (stage->slots[i].count && stage->slots[i].hash != hash) {
        i = (i + 1) & mask;
    }
    return i;
}

static bool
stage_has(const struct cls_stage *stage, uint32_t hash)
{
    return stage->slots[stage_slot(stage, hash)].count != 0;
}

static void
stage_grow(struct cls_stage *stage)
{
    struct cls_stage_slot *old = stage->slots;
    size_t n_old = stage->n_slots;

    stage->n_slots *= 2;
    stage->slots = xcalloc(stage->n_slots, sizeof *stage->slots);
    for (size_t i = 0; i < n_old; i++) {
        if (old[i].count) {
            stage->slots[stage_slot(stage, old[i].hash)] = old[i];
        }
    }
    free(old);
}

/* Counts a new entry of 'st', whose flow is 'flow', in each stage. */
static void
stages_add(struct cls_subtable *st, const struct match_flow *flow)
{
    for (int k = 0; k < st->n_stages; k++) {
        struct cls_stage *stage = &st->stages[k];
        uint32_t hash = hash_words(flow, &stage->mask, stage->map);
        size_t i = stage_slot(stage, hash);

        if (!stage->slots[i].count) {
            stage->slots[i].hash = hash;
            stage->n_used++;
        }
        stage->slots[i].count++;
        if (2 * stage->n_used > stage->n_slots) {
            stage_grow(stage);
        }
    }
}

/* Uncounts an entry of 'st' that goes (see stages_add()).  An emptied slot
 * is filled from the slots after it that belong before it (linear probing's
 * deletion), so that every lookup still finds its hash. */
static void
stages_remove(struct cls_subtable *st, const struct match_flow *flow)
{
    for (int k = 0; k < st->n_stages; k++) {
        struct cls_stage *stage = &st->stages[k];
        uint32_t hash = hash_words(flow, &stage->mask, stage->map);
        size_t mask = stage->n_slots - 1;
        size_t i = stage_slot(stage, hash);

        util_assert(stage->slots[i].count);
        if (--stage->slots[i].count) {
            continue;
        }
        stage->n_used--;
        for (size_t j = (i + 1) & mask; stage->slots[j].count;
             j = (j + 1) & mask) {
            size_t home = stage->slots[j].hash & mask;
            /* Slot j may move to i if its home is not in (i, j]. */
            bool between = (i <= j ? home > i && home <= j
                                   : home > i || home <= j);
            if (!between) {
                stage->slots[i] = stage->slots[j];
                stage->slots[j].count = 0;
                i = j;
            }
        }
    }
}

/* Keeps the subtables in decreasing max_priority (insertion sort: only one
 * subtable moves at a time). */
static void
sort_subtables(struct classifier *cls)
{
    for (size_t i = 1; i < cls->n_subtables; i++) {
        struct cls_subtable *st = cls->subtables[i];
        size_t j = i;
        while (j > 0 && cls->subtables[j - 1]->max_priority
                        < st->max_priority) {
            cls->subtables[j] = cls->subtables[j - 1];
            j--;
        }
        cls->subtables[j] = st;
    }
}

static void
subtable_expand(struct cls_subtable *st)
{
    size_t n = st->n_buckets * 2;
    struct cls_rule **buckets = xcalloc(n, sizeof *buckets);

    for (size_t b = 0; b < st->n_buckets; b++) {
        struct cls_rule *e = st->buckets[b];
        while (e) {
            struct cls_rule *next = e->hash_next;
            size_t nb = e->hash & (n - 1);
            e->hash_next = buckets[nb];
            buckets[nb] = e;
            e = next;
        }
    }
    free(st->buckets);
    st->buckets = buckets;
    st->n_buckets = n;
}

static void
subtable_update_max_priority(struct cls_subtable *st)
{
    st->max_priority = INT_MIN;
    for (size_t b = 0; b < st->n_buckets; b++) {
        for (const struct cls_rule *e = st->buckets[b]; e; e = e->hash_next) {
            /* An entry's head has its highest priority. */
            st->max_priority = MAX(st->max_priority, e->priority);
        }
    }
}
