/* MAC learning table: which port a (VLAN, Ethernet address) pair was last
 * seen on, for one bridge.
 *
 * Entries are learned from packets' source addresses and age out after
 * 'idle_time' seconds without a packet (Bridge other_config:mac-aging-time,
 * default 300).  The table holds at most 'max_entries' (other_config:
 * mac-table-size, default 8192 as in Open vSwitch 3.1); learning into a full
 * table evicts the least recently seen dynamic entry.  Static entries
 * ("ovs-appctl fdb/add") neither age nor get evicted nor move.
 *
 * Time is explicit: every function that needs it takes 'now' in
 * milliseconds (time_msec() in the daemon, a fake clock in tests), and
 * nothing expires until mac_learning_run() is called.  Ages count whole
 * seconds, as Open vSwitch's do: the difference of the two times, each
 * truncated to seconds.  An entry expires when its age reaches the aging
 * time.
 *
 * Ports are opaque 32-bit handles chosen by the caller (NORMAL switching
 * uses OpenFlow port numbers); MAC_LEARNING_PORT_NONE is reserved.
 *
 * Revalidation contract.  A datapath that caches forwarding decisions
 * (megaflows) must revalidate them when the table changes in a way that
 * could change a decision.  Two ways to know:
 *
 *   - mac_learning_seqno() increases on every such change: an entry added,
 *     moved to another port, or removed (expiry, eviction, flush, delete).
 *     Refreshing an entry's age does not change it.  A caller that records
 *     the seqno when it installs a flow and revalidates every flow when the
 *     seqno moved is always correct.
 *
 *   - A change callback (mac_learning_set_change_cb()) reports each such
 *     change with its VLAN, address, old and new port.  Every decision that
 *     depended on that entry was made for a packet whose destination address
 *     was that address, and the flow installed for it matches the
 *     destination address exactly; revalidating the flows whose dl_dst
 *     equals the address (in any VLAN, if the VLAN is hard to tell from the
 *     flow) is enough.
 *
 * Thread safety: none inside.  A table belongs to one bridge; its owner
 * serialises every call (ofproto/normal.c holds its bridge mutex around
 * them).  The change callback runs in the caller's thread, inside the call
 * that made the change, and must not call back into the table.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef MAC_LEARNING_H
#define MAC_LEARNING_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"

struct mac_learning;

/* Aging time in seconds: default and the range a configured value is forced
 * into (as Open vSwitch documents for other_config:mac-aging-time). */
#define MAC_LEARNING_DEFAULT_IDLE_TIME 300
#define MAC_LEARNING_MIN_IDLE_TIME 15
#define MAC_LEARNING_MAX_IDLE_TIME 3600

/* Table size: default and range (other_config:mac-table-size). */
#define MAC_LEARNING_DEFAULT_MAX_ENTRIES 8192
#define MAC_LEARNING_MIN_MAX_ENTRIES 10
#define MAC_LEARNING_MAX_MAX_ENTRIES 1000000

#define MAC_LEARNING_PORT_NONE UINT32_MAX

/* What mac_learning_learn() did. */
enum mac_learning_result {
    MAC_LEARNING_REFRESHED,     /* Known on this port; age reset. */
    MAC_LEARNING_ADDED,         /* New entry (maybe after an eviction). */
    MAC_LEARNING_MOVED,         /* Known on another port; now on this one. */
    MAC_LEARNING_REFUSED,       /* Multicast source, bad port, static entry
                                 * on another port, or table full of static
                                 * entries. */
};

/* Why an entry changed, for the change callback. */
enum mac_learning_change {
    MAC_LEARNING_CHANGE_ADDED,
    MAC_LEARNING_CHANGE_MOVED,
    MAC_LEARNING_CHANGE_EXPIRED,
    MAC_LEARNING_CHANGE_EVICTED,
    MAC_LEARNING_CHANGE_REMOVED,    /* Flush or delete. */
};

/* Called for each change, with the entry's port before and after
 * (MAC_LEARNING_PORT_NONE for "none"). */
typedef void mac_learning_change_cb(void *aux, enum mac_learning_change,
                                    uint16_t vlan, const struct eth_addr *,
                                    uint32_t old_port, uint32_t new_port);

/* One entry, as mac_learning_get_entries() reports it. */
struct mac_learning_entry {
    uint16_t vlan;
    struct eth_addr mac;
    uint32_t port;
    bool is_static;
    unsigned int age;           /* Seconds since last seen; 0 if static. */
};

/* Counters since creation or mac_learning_clear_stats(). */
struct mac_learning_stats {
    uint64_t n_learned;         /* Entries added by learning. */
    uint64_t n_expired;
    uint64_t n_evicted;
    uint64_t n_moved;
};

struct mac_learning *mac_learning_create(unsigned int idle_time,
                                         size_t max_entries);
void mac_learning_destroy(struct mac_learning *);

void mac_learning_set_idle_time(struct mac_learning *, unsigned int);
unsigned int mac_learning_get_idle_time(const struct mac_learning *);
void mac_learning_set_max_entries(struct mac_learning *, size_t);
size_t mac_learning_get_max_entries(const struct mac_learning *);
void mac_learning_set_change_cb(struct mac_learning *,
                                mac_learning_change_cb *, void *aux);

enum mac_learning_result mac_learning_learn(struct mac_learning *,
                                            uint16_t vlan,
                                            const struct eth_addr *,
                                            uint32_t port, long long now);
uint32_t mac_learning_lookup(const struct mac_learning *, uint16_t vlan,
                             const struct eth_addr *);
int mac_learning_add_static(struct mac_learning *, uint16_t vlan,
                            const struct eth_addr *, uint32_t port);
bool mac_learning_delete(struct mac_learning *, uint16_t vlan,
                         const struct eth_addr *);

size_t mac_learning_run(struct mac_learning *, long long now);
long long mac_learning_next_expiry(const struct mac_learning *);

size_t mac_learning_flush(struct mac_learning *);
size_t mac_learning_flush_vlan(struct mac_learning *, uint16_t vlan);
size_t mac_learning_flush_port(struct mac_learning *, uint32_t port);

size_t mac_learning_count(const struct mac_learning *);
uint64_t mac_learning_seqno(const struct mac_learning *);
size_t mac_learning_get_entries(const struct mac_learning *, long long now,
                                struct mac_learning_entry **);
void mac_learning_get_stats(const struct mac_learning *,
                            struct mac_learning_stats *);
void mac_learning_clear_stats(struct mac_learning *);

#endif /* mac-learning.h */
