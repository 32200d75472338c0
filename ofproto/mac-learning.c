/* MAC learning table.
 *
 * A chained hash table on (VLAN, address), plus two lists: dynamic entries
 * in the order they were last seen (least recently seen first), so expiry
 * and eviction only ever look at the head; and static entries.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "mac-learning.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"

struct mac_learning_node {
    struct mac_learning_node *hash_next;
    struct mac_learning_node *prev;         /* In 'lru' or 'statics'. */
    struct mac_learning_node *next;
    long long last_seen;                    /* Milliseconds. */
    uint32_t port;
    uint16_t vlan;
    struct eth_addr mac;
    bool is_static;
};

struct mac_learning {
    struct mac_learning_node **buckets;
    size_t n_buckets;                       /* A power of 2. */
    size_t n_entries;                       /* Dynamic and static. */
    struct mac_learning_node lru;           /* List head: dynamic entries. */
    struct mac_learning_node statics;       /* List head: static entries. */
    unsigned int idle_time;                 /* Seconds. */
    size_t max_entries;
    uint64_t seqno;
    struct mac_learning_stats stats;
    mac_learning_change_cb *change_cb;
    void *change_aux;
};

static void mac_learning_evict_excess(struct mac_learning *);
static void mac_learning_remove(struct mac_learning *,
                                struct mac_learning_node *,
                                enum mac_learning_change);
static struct mac_learning_node *mac_learning_insert(struct mac_learning *,
                                                     uint16_t vlan,
                                                     const struct eth_addr *,
                                                     uint32_t port);
static struct mac_learning_node *mac_learning_find(
    const struct mac_learning *, uint16_t vlan, const struct eth_addr *);
static void mac_learning_changed(struct mac_learning *,
                                 enum mac_learning_change,
                                 const struct mac_learning_node *,
                                 uint32_t old_port, uint32_t new_port);
static size_t mac_learning_flush_matching(struct mac_learning *, int vlan,
                                          uint32_t port);
static void mac_learning_grow(struct mac_learning *);
static size_t mac_learning_bucket(const struct mac_learning *, uint16_t vlan,
                                  const struct eth_addr *);
static long long mac_learning_age(const struct mac_learning_node *,
                                  long long now);
static void list_init(struct mac_learning_node *head);
static void list_remove(struct mac_learning_node *);
static void list_push_back(struct mac_learning_node *head,
                           struct mac_learning_node *);

/* Creates an empty table whose entries age out after 'idle_time' seconds
 * and which holds at most 'max_entries'; each value is forced into its
 * range, and 0 means the default. */
struct mac_learning *
mac_learning_create(unsigned int idle_time, size_t max_entries)
{
    struct mac_learning *ml = xzalloc(sizeof *ml);

    ml->n_buckets = 64;
    ml->buckets = xcalloc(ml->n_buckets, sizeof *ml->buckets);
    list_init(&ml->lru);
    list_init(&ml->statics);
    mac_learning_set_idle_time(ml, idle_time);
    mac_learning_set_max_entries(ml, max_entries);
    return ml;
}

/* Frees 'ml' and its entries, reporting nothing to the change callback.
 * 'ml' may be NULL. */
void
mac_learning_destroy(struct mac_learning *ml)
{
    if (!ml) {
        return;
    }
    for (size_t i = 0; i < ml->n_buckets; i++) {
        struct mac_learning_node *node = ml->buckets[i];

        while (node) {
            struct mac_learning_node *next = node->hash_next;

            free(node);
            node = next;
        }
    }
    free(ml->buckets);
    free(ml);
}

/* Sets the aging time to 'idle_time' seconds (0: the default; otherwise
 * forced into MAC_LEARNING_MIN_IDLE_TIME..MAC_LEARNING_MAX_IDLE_TIME).  It
 * applies to existing entries at the next mac_learning_run(). */
void
mac_learning_set_idle_time(struct mac_learning *ml, unsigned int idle_time)
{
    if (!idle_time) {
        idle_time = MAC_LEARNING_DEFAULT_IDLE_TIME;
    }
    ml->idle_time = MIN(MAX(idle_time, MAC_LEARNING_MIN_IDLE_TIME),
                        MAC_LEARNING_MAX_IDLE_TIME);
}

/* Returns the aging time in seconds. */
unsigned int
mac_learning_get_idle_time(const struct mac_learning *ml)
{
    return ml->idle_time;
}

/* Sets the table's capacity to 'max_entries' (0: the default; otherwise
 * forced into MAC_LEARNING_MIN_MAX_ENTRIES..MAC_LEARNING_MAX_MAX_ENTRIES),
 * evicting the least recently seen dynamic entries at once if the table
 * holds more. */
void
mac_learning_set_max_entries(struct mac_learning *ml, size_t max_entries)
{
    if (!max_entries) {
        max_entries = MAC_LEARNING_DEFAULT_MAX_ENTRIES;
    }
    ml->max_entries = MIN(MAX(max_entries, MAC_LEARNING_MIN_MAX_ENTRIES),
                          MAC_LEARNING_MAX_MAX_ENTRIES);
    mac_learning_evict_excess(ml);
}

/* Returns the table's capacity. */
size_t
mac_learning_get_max_entries(const struct mac_learning *ml)
{
    return ml->max_entries;
}

/* Makes 'cb' (NULL: none) the change callback, called with 'aux'. */
void
mac_learning_set_change_cb(struct mac_learning *ml,
                           mac_learning_change_cb *cb, void *aux)
{
    ml->change_cb = cb;
    ml->change_aux = aux;
}

/* Records that a packet with source address 'mac' arrived in 'vlan' on
 * 'port' at time 'now'.  Learns a new entry (evicting the least recently
 * seen dynamic entry if the table is full), moves a known one, or refreshes
 * its age; says which.  Never learns a multicast address or a static entry
 * on another port. */
enum mac_learning_result
mac_learning_learn(struct mac_learning *ml, uint16_t vlan,
                   const struct eth_addr *mac, uint32_t port, long long now)
{
    if ((mac->ea[0] & 1) || port == MAC_LEARNING_PORT_NONE) {
        return MAC_LEARNING_REFUSED;
    }

    struct mac_learning_node *node = mac_learning_find(ml, vlan, mac);
    if (node) {
        if (node->is_static) {
            return (node->port == port ? MAC_LEARNING_REFRESHED
                    : MAC_LEARNING_REFUSED);
        }
        node->last_seen = now;
        list_remove(node);
        list_push_back(&ml->lru, node);
        if (node->port == port) {
            return MAC_LEARNING_REFRESHED;
        }

        uint32_t old_port = node->port;
        node->port = port;
        ml->stats.n_moved++;
        mac_learning_changed(ml, MAC_LEARNING_CHANGE_MOVED, node, old_port,
                             port);
        return MAC_LEARNING_MOVED;
    }

    if (ml->n_entries >= ml->max_entries) {
        if (ml->lru.next == &ml->lru) {
            return MAC_LEARNING_REFUSED;        /* All static. */
        }
        ml->stats.n_evicted++;
        mac_learning_remove(ml, ml->lru.next, MAC_LEARNING_CHANGE_EVICTED);
    }
    node = mac_learning_insert(ml, vlan, mac, port);
    node->last_seen = now;
    list_push_back(&ml->lru, node);
    ml->stats.n_learned++;
    mac_learning_changed(ml, MAC_LEARNING_CHANGE_ADDED, node,
                         MAC_LEARNING_PORT_NONE, port);
    return MAC_LEARNING_ADDED;
}

/* Returns the port on which 'mac' was learned in 'vlan', or
 * MAC_LEARNING_PORT_NONE.  Does not refresh the entry: only traffic from an
 * address keeps it alive. */
uint32_t
mac_learning_lookup(const struct mac_learning *ml, uint16_t vlan,
                    const struct eth_addr *mac)
{
    const struct mac_learning_node *node = mac_learning_find(ml, vlan, mac);

    return node ? node->port : MAC_LEARNING_PORT_NONE;
}

/* Adds a static entry for 'mac' in 'vlan' on 'port', replacing a dynamic or
 * static entry for the same pair.  Returns 0, EINVAL for a multicast
 * address or MAC_LEARNING_PORT_NONE, or ENOSPC if the table is full of
 * static entries. */
int
mac_learning_add_static(struct mac_learning *ml, uint16_t vlan,
                        const struct eth_addr *mac, uint32_t port)
{
    if ((mac->ea[0] & 1) || port == MAC_LEARNING_PORT_NONE) {
        return EINVAL;
    }

    struct mac_learning_node *node = mac_learning_find(ml, vlan, mac);
    if (node) {
        uint32_t old_port = node->port;

        list_remove(node);
        node->is_static = true;
        node->port = port;
        list_push_back(&ml->statics, node);
        if (old_port != port) {
            mac_learning_changed(ml, MAC_LEARNING_CHANGE_MOVED, node,
                                 old_port, port);
        }
        return 0;
    }

    if (ml->n_entries >= ml->max_entries) {
        if (ml->lru.next == &ml->lru) {
            return ENOSPC;
        }
        ml->stats.n_evicted++;
        mac_learning_remove(ml, ml->lru.next, MAC_LEARNING_CHANGE_EVICTED);
    }
    node = mac_learning_insert(ml, vlan, mac, port);
    node->is_static = true;
    list_push_back(&ml->statics, node);
    mac_learning_changed(ml, MAC_LEARNING_CHANGE_ADDED, node,
                         MAC_LEARNING_PORT_NONE, port);
    return 0;
}

/* Deletes the entry, static or dynamic, for 'mac' in 'vlan'.  Returns true
 * if there was one. */
bool
mac_learning_delete(struct mac_learning *ml, uint16_t vlan,
                    const struct eth_addr *mac)
{
    struct mac_learning_node *node = mac_learning_find(ml, vlan, mac);

    if (node) {
        mac_learning_remove(ml, node, MAC_LEARNING_CHANGE_REMOVED);
    }
    return node != NULL;
}

/* Removes the dynamic entries not seen for the aging time or longer at time
 * 'now'.  Returns how many it removed. */
size_t
mac_learning_run(struct mac_learning *ml, long long now)
{
    size_t n = 0;

    while (ml->lru.next != &ml->lru
           && mac_learning_age(ml->lru.next, now) >= ml->idle_time) {
        ml->stats.n_expired++;
        mac_learning_remove(ml, ml->lru.next, MAC_LEARNING_CHANGE_EXPIRED);
        n++;
    }
    return n;
}

/* Returns the time (milliseconds) at which mac_learning_run() will next
 * have an entry to expire, or LLONG_MAX if no entry ages. */
long long
mac_learning_next_expiry(const struct mac_learning *ml)
{
    return (ml->lru.next == &ml->lru ? LLONG_MAX
            : (ml->lru.next->last_seen / 1000 + ml->idle_time) * 1000);
}

/* Removes every entry, static ones too.  Returns how many. */
size_t
mac_learning_flush(struct mac_learning *ml)
{
    return mac_learning_flush_matching(ml, -1, MAC_LEARNING_PORT_NONE);
}

/* Removes every entry in 'vlan'.  Returns how many. */
size_t
mac_learning_flush_vlan(struct mac_learning *ml, uint16_t vlan)
{
    return mac_learning_flush_matching(ml, vlan, MAC_LEARNING_PORT_NONE);
}

/* Removes every entry on 'port'.  Returns how many. */
size_t
mac_learning_flush_port(struct mac_learning *ml, uint32_t port)
{
    return (port == MAC_LEARNING_PORT_NONE ? 0
            : mac_learning_flush_matching(ml, -1, port));
}

/* Returns the number of entries, dynamic and static. */
size_t
mac_learning_count(const struct mac_learning *ml)
{
    return ml->n_entries;
}

/* Returns a number that increases whenever an entry is added, moved or
 * removed (see the revalidation contract in mac-learning.h). */
uint64_t
mac_learning_seqno(const struct mac_learning *ml)
{
    return ml->seqno;
}

/* Stores in '*entriesp' a new array, which the caller frees, of every entry
 * with its age at time 'now': dynamic entries least recently seen first,
 * then static ones.  Returns the number of entries. */
size_t
mac_learning_get_entries(const struct mac_learning *ml, long long now,
                         struct mac_learning_entry **entriesp)
{
    struct mac_learning_entry *entries = xcalloc(MAX(ml->n_entries, 1),
                                                 sizeof *entries);
    const struct mac_learning_node *heads[2] = { &ml->lru, &ml->statics };
    size_t n = 0;

    for (int i = 0; i < 2; i++) {
        for (const struct mac_learning_node *node = heads[i]->next;
             node != heads[i]; node = node->next) {
            struct mac_learning_entry *e = &entries[n++];
            long long age = mac_learning_age(node, now);

            e->vlan = node->vlan;
            e->mac = node->mac;
            e->port = node->port;
            e->is_static = node->is_static;
            e->age = (node->is_static || age < 0 ? 0
                      : age > UINT_MAX ? UINT_MAX : (unsigned int) age);
        }
    }
    *entriesp = entries;
    return n;
}

/* Stores the table's counters in '*stats'. */
void
mac_learning_get_stats(const struct mac_learning *ml,
                       struct mac_learning_stats *stats)
{
    *stats = ml->stats;
}

/* Zeroes the table's counters. */
void
mac_learning_clear_stats(struct mac_learning *ml)
{
    memset(&ml->stats, 0, sizeof ml->stats);
}

/* Evicts least recently seen dynamic entries until the table fits. */
static void
mac_learning_evict_excess(struct mac_learning *ml)
{
    while (ml->n_entries > ml->max_entries && ml->lru.next != &ml->lru) {
        ml->stats.n_evicted++;
        mac_learning_remove(ml, ml->lru.next, MAC_LEARNING_CHANGE_EVICTED);
    }
}

/* Removes entries in 'vlan' (any if negative) on 'port' (any if
 * MAC_LEARNING_PORT_NONE). */
static size_t
mac_learning_flush_matching(struct mac_learning *ml, int vlan, uint32_t port)
{
    struct mac_learning_node *heads[2] = { &ml->lru, &ml->statics };
    size_t n = 0;

    for (int i = 0; i < 2; i++) {
        struct mac_learning_node *node = heads[i]->next;

        while (node != heads[i]) {
            struct mac_learning_node *next = node->next;

            if ((vlan < 0 || node->vlan == vlan)
                && (port == MAC_LEARNING_PORT_NONE || node->port == port)) {
                mac_learning_remove(ml, node, MAC_LEARNING_CHANGE_REMOVED);
                n++;
            }
            node = next;
        }
    }
    return n;
}

/* Unlinks 'node' from its list and its bucket, reports 'why', frees it. */
static void
mac_learning_remove(struct mac_learning *ml, struct mac_learning_node *node,
                    enum mac_learning_change why)
{
    struct mac_learning_node **pp;

    pp = &ml->buckets[mac_learning_bucket(ml, node->vlan, &node->mac)];
    while (*pp != node) {
        pp = &(*pp)->hash_next;
    }
    *pp = node->hash_next;
    list_remove(node);
    ml->n_entries--;
    mac_learning_changed(ml, why, node, node->port, MAC_LEARNING_PORT_NONE);
    free(node);
}

/* Adds a node for ('vlan', 'mac') on 'port' to the hash table, in no list
 * yet. */
static struct mac_learning_node *
mac_learning_insert(struct mac_learning *ml, uint16_t vlan,
                    const struct eth_addr *mac, uint32_t port)
{
    struct mac_learning_node *node = xzalloc(sizeof *node);

    if (ml->n_entries >= ml->n_buckets) {
        mac_learning_grow(ml);
    }
    node->vlan = vlan;
    node->mac = *mac;
    node->port = port;

    size_t b = mac_learning_bucket(ml, vlan, mac);
    node->hash_next = ml->buckets[b];
    ml->buckets[b] = node;
    ml->n_entries++;
    return node;
}

static struct mac_learning_node *
mac_learning_find(const struct mac_learning *ml, uint16_t vlan,
                  const struct eth_addr *mac)
{
    struct mac_learning_node *node;

    for (node = ml->buckets[mac_learning_bucket(ml, vlan, mac)]; node;
         node = node->hash_next) {
        if (node->vlan == vlan && !memcmp(&node->mac, mac, sizeof *mac)) {
            return node;
        }
    }
    return NULL;
}

/* Bumps the seqno and tells the callback. */
static void
mac_learning_changed(struct mac_learning *ml, enum mac_learning_change why,
                     const struct mac_learning_node *node,
                     uint32_t old_port, uint32_t new_port)
{
    ml->seqno++;
    if (ml->change_cb) {
        ml->change_cb(ml->change_aux, why, node->vlan, &node->mac, old_port,
                      new_port);
    }
}

/* Doubles the number of buckets. */
static void
mac_learning_grow(struct mac_learning *ml)
{
    struct mac_learning_node **old = ml->buckets;
    size_t n_old = ml->n_buckets;

    ml->n_buckets *= 2;
    ml->buckets = xcalloc(ml->n_buckets, sizeof *ml->buckets);
    for (size_t i = 0; i < n_old; i++) {
        struct mac_learning_node *node = old[i];

        while (node) {
            struct mac_learning_node *next = node->hash_next;
            size_t b = mac_learning_bucket(ml, node->vlan, &node->mac);

            node->hash_next = ml->buckets[b];
            ml->buckets[b] = node;
            node = next;
        }
    }
    free(old);
}

/* A 64-bit multiplicative mix of the VLAN and the address; the top bits
 * pick the bucket. */
static size_t
mac_learning_bucket(const struct mac_learning *ml, uint16_t vlan,
                    const struct eth_addr *mac)
{
    uint64_t x = vlan;

    for (int i = 0; i < ETH_ADDR_LEN; i++) {
        x = (x << 8) | mac->ea[i];
    }
    x ^= x >> 29;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 32;
    return x & (ml->n_buckets - 1);
}

/* Returns the age of 'node' at 'now' in whole seconds, counted as Open
 * vSwitch counts it: the difference of the two times truncated to seconds,
 * so an address seen at 0.9 s is 1 s old at 1.1 s. */
static long long
mac_learning_age(const struct mac_learning_node *node, long long now)
{
    return now / 1000 - node->last_seen / 1000;
}

static void
list_init(struct mac_learning_node *head)
{
    head->prev = head->next = head;
}

static void
list_remove(struct mac_learning_node *node)
{
    node->prev->next = node->next;
    node->next->prev = node->prev;
    node->prev = node->next = node;
}

static void
list_push_back(struct mac_learning_node *head, struct mac_learning_node *node)
{
    node->prev = head->prev;
    node->next = head;
    head->prev->next = node;
    head->prev = node;
}
