/* dpcls: the datapath's megaflow classifier, a tuple-space search.
 *
 * A rule is a masked key.  Rules with the same mask share a subtable, a hash
 * table on the masked key, so finding a key in a subtable costs one hash and
 * one or two bucket probes however many rules it holds.  A lookup tries the
 * subtables in order and stops at the first match; dpcls_sort_subtables()
 * puts the subtables that matched most often since the last sort first.
 * Megaflows installed by the slow path do not overlap, so the first match is
 * the only one and the order changes cost, never results.
 *
 * Threads.  Any number of readers may call dpcls_lookup() at once, without
 * locks, from threads registered with the classifier's dp_rcu domain (in the
 * datapath, the PMD thread that owns this classifier).  Writes —
 * dpcls_insert(), dpcls_remove(), dpcls_sort_subtables(), dpcls_destroy() —
 * must be serialized by the caller (the datapath holds the PMD's flow mutex:
 * the PMD itself after an upcall or for the periodic sort, the main thread
 * for flow deletion).  A write never blocks readers: it publishes new
 * subtable vectors and hash tables and hands the old ones to dp_rcu.  A
 * removed rule may still be returned by a lookup that started before the
 * removal, so the rule's memory must stay valid for a grace period after
 * dpcls_remove().
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DPCLS_H
#define DPCLS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"

struct dp_rcu;
struct dpcls_subtable;
struct dpcls_vector;

/* Most keys one dpcls_lookup() takes: a batch. */
#define DPCLS_MAX_BATCH 32

/* A rule, embedded in the caller's object (struct dp_flow), which gets it
 * back from a lookup with CONTAINER_OF.  dpcls_insert() fills it in; the
 * caller never writes it. */
struct dpcls_rule {
    struct dpcls_subtable *subtable;    /* Where it is; NULL once removed.
                                         * Atomic: dpcls_rule_matches(). */
    uint32_t hash;                      /* Masked hash, in that subtable. */
    unsigned int n_words;               /* Words in the subtable's mask. */
    uint64_t words[FLOW_N_WORDS];       /* Key & mask, word by mask word. */
};

/* A classifier.  Opaque: use the functions below. */
struct dpcls {
    struct dpcls_vector *vector;        /* Subtables in lookup order. */
    struct dp_rcu *rcu;
    size_t n_rules;
};

void dpcls_init(struct dpcls *, struct dp_rcu *);
void dpcls_destroy(struct dpcls *);

int dpcls_insert(struct dpcls *, struct dpcls_rule *,
                 const struct flow_key *key, const struct flow_key *mask);
void dpcls_remove(struct dpcls *, struct dpcls_rule *);
void dpcls_sort_subtables(struct dpcls *);

bool dpcls_lookup(const struct dpcls *, const struct flow_key *const keys[],
                  size_t n_keys, struct dpcls_rule *rules[],
                  unsigned int *n_subtable_lookups);
bool dpcls_rule_matches(const struct dpcls_rule *, const struct flow_key *);

size_t dpcls_n_rules(const struct dpcls *);
size_t dpcls_n_subtables(const struct dpcls *);
size_t dpcls_get_subtables(const struct dpcls *, struct flow_key masks[],
                           uint64_t hits[], size_t max);

#endif /* dpcls.h */
