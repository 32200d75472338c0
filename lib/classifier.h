/* The OpenFlow classifier: priority-ordered lookup among wildcarded rules.
 *
 * A classifier holds rules, each a 'struct match' (lib/match.h) and a
 * priority.  A lookup finds, for a flow, the highest-priority rule whose
 * match it satisfies.  Among rules of equal priority that both match, which
 * one wins is unspecified (as in OpenFlow); the classifier never holds two
 * rules with the same match and priority.
 *
 * Tuple space search: the rules are grouped in subtables, one per distinct
 * mask, each a hash table keyed by the masked flow.  A lookup probes the
 * subtables in order of the highest priority they hold and stops as soon as
 * no remaining subtable can hold a rule above the best one found.  Rules
 * with the same match and different priorities share one hash table entry,
 * a list in priority order.
 *
 * Un-wildcarding.  A lookup given 'wc' ORs into it the bits of every
 * subtable it probed that it consulted.  Every flow that agrees with the
 * looked-up flow on the bits of 'wc' finds the same rule, so 'wc' is a
 * correct megaflow mask for the decision.  Staged lookup, as in Open
 * vSwitch: a subtable is probed first on its metadata bits (in_port,
 * metadata, registers), then with the Ethernet header's, then with the L3
 * fields', and last whole; when no rule of the subtable agrees with the
 * flow at a stage, only the bits up to that stage go into 'wc', so that a
 * rule for another in_port does not make the megaflow match its L3 and L4
 * fields.  (Prefix tracking of IP addresses is not done yet.)
 *
 * Threads.  A classifier is not thread-safe: its owner serializes every
 * call, lookups included (ofproto takes a read-write lock).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef CLASSIFIER_H
#define CLASSIFIER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match.h"

struct cls_subtable;

/* A rule.  The owner embeds it in its own structure and keeps 'match' and
 * 'priority' fixed while the rule is in a classifier. */
struct cls_rule {
    struct match match;
    int priority;

    /* Classifier's use only. */
    struct cls_subtable *subtable;
    struct cls_rule *hash_next;         /* Next entry in the bucket. */
    struct cls_rule *same_next;         /* Same match, lower priority. */
    uint32_t hash;
};

struct classifier {
    struct cls_subtable **subtables;    /* Highest max_priority first. */
    size_t n_subtables;
    size_t allocated_subtables;
    size_t n_rules;
};

void classifier_init(struct classifier *);
void classifier_destroy(struct classifier *);
size_t classifier_count(const struct classifier *);
bool classifier_is_empty(const struct classifier *);

void cls_rule_init(struct cls_rule *, const struct match *, int priority);

struct cls_rule *classifier_insert(struct classifier *, struct cls_rule *);
void classifier_remove(struct classifier *, struct cls_rule *);

struct cls_rule *classifier_lookup(const struct classifier *,
                                   const struct match_flow *,
                                   struct match_flow *wc);

struct cls_rule *classifier_find_exactly(const struct classifier *,
                                         const struct match *, int priority);
bool classifier_overlaps(const struct classifier *, const struct match *,
                         int priority);
size_t classifier_collect(const struct classifier *, const struct match *,
                          struct cls_rule ***rulesp);

bool cls_rule_is_loose_match(const struct cls_rule *,
                             const struct match *target);

#endif /* classifier.h */
