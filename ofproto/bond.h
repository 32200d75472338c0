/* Bonds: one bridge port made of several interfaces ("members"), as Open
 * vSwitch 3.1's bonding (ovs-vswitchd.conf.db(5), "Bonding
 * Configuration").
 *
 * Modes (Port bond_mode):
 *   active-backup  (the default) One enabled member, the active one, sends
 *                  everything; packets received on any other member are
 *                  dropped, so that a copy the upstream switch floods back
 *                  on a backup link never loops.  other_config:bond-primary
 *                  names the member to prefer whenever it is enabled.
 *   balance-slb    Traffic is spread by source MAC and VLAN: the hash picks
 *                  one of BOND_N_BUCKETS buckets, and a bucket that has no
 *                  enabled member gets the next enabled member in turn.
 *                  Broadcast and multicast are accepted only on the active
 *                  member (unless other_config:all-members-active), and a
 *                  packet whose source was learned on another port of the
 *                  bridge is dropped (bond_admit() says so with
 *                  BOND_DROP_IF_MOVED): it is the upstream switch sending
 *                  back what we sent it.
 *   balance-tcp    Spreads by L2, L3 and L4 fields (Ethernet addresses,
 *                  VLAN, IP addresses and protocol, ports) over hash
 *                  buckets like balance-slb's, but only over LACP that has
 *                  negotiated; without LACP, or until it negotiates, the
 *                  bond sends and accepts nothing, as Open vSwitch's does,
 *                  unless other_config:lacp-fallback-ab makes it
 *                  active-backup.
 *
 * LACP (lacp=active|passive, ofproto/lacp.h).  A member "may be enabled"
 * only while its link is up and LACP allows it (attached, partner in
 * sync), in every mode; while LACP has not negotiated, the bond carries
 * nothing unless lacp-fallback-ab makes it active-backup over the members
 * whose link is up.
 *
 * Link state.  A member "may be enabled" while its link is up (the caller
 * reports it with bond_member_set_may_enable()).  bond_run() enables a
 * member whose link has stayed up bond_updelay ms (at once if no member is
 * enabled), disables one whose link has stayed down bond_downdelay ms, and
 * chooses a new active member when the active one is disabled, logging
 * each step as Open vSwitch does.  bond/disable-member disables a member
 * whose link is up, which then comes back after bond_updelay, as in Open
 * vSwitch.
 *
 * Threads.  Each bond has a mutex.  Configuration, bond_run() and the
 * unixctl commands run on the main thread; bond_has_member(),
 * bond_admit() and bond_choose_output() are called by translation from any
 * thread.  A bond must not be destroyed while translation may still use
 * it: the caller first takes it out of every NORMAL configuration.
 *
 * Revalidation: bond_run() returns true when a decision translation made
 * may now differ, whatever changed it (links, reconfiguration, the
 * commands).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef BOND_H
#define BOND_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compiler.h"
#include "flow.h"
#include "packets.h"

struct bond;
struct smap;

/* bond_choose_output()'s answer when no member may send. */
#define BOND_NO_MEMBER UINT32_MAX

/* Hash buckets of a balanced bond. */
#define BOND_N_BUCKETS 256

enum bond_mode {
    BOND_ACTIVE_BACKUP,
    BOND_BALANCE_SLB,
    BOND_BALANCE_TCP,
};

/* A bond's Port settings. */
struct bond_settings {
    enum bond_mode mode;
    long long int updelay;              /* bond_updelay, ms. */
    long long int downdelay;            /* bond_downdelay, ms. */
    char *primary;                      /* other_config:bond-primary, or
                                         * NULL.  Owned. */
    uint32_t hash_basis;                /* other_config:bond-hash-basis. */
    long long int rebalance_interval;   /* ms, 0: no rebalancing. */
    bool all_members_active;            /* other_config:all-members-active.
                                         */
    bool lacp;                          /* lacp is active or passive. */
    bool lacp_fallback_ab;              /* other_config:lacp-fallback-ab. */
    bool lacp_active;                   /* lacp=active. */
    bool lacp_fast;                     /* other_config:lacp-time=fast. */
    bool lacp_has_sys_id;               /* other_config:lacp-system-id is
                                         * set. */
    struct eth_addr lacp_sys_id;        /* It, or the bridge's address
                                         * (which the caller fills in). */
    uint16_t lacp_sys_priority;         /* other_config:lacp-system-priority
                                         * (65534). */
};

/* A member, as the caller configures it. */
struct bond_member_settings {
    const char *name;                   /* Interface name. */
    uint32_t ofport;                    /* OpenFlow port number. */
    uint32_t dp_port;                   /* Datapath port number. */
    struct eth_addr mac;                /* For bond_active_slave. */
    bool may_enable;                    /* Its link is up. */
    /* LACP, from the Interface's other_config (bond_member_lacp_from_db()):
     * lacp-port-id (default the OpenFlow port number), lacp-port-priority
     * (65535), lacp-aggregation-key (0: none). */
    uint16_t lacp_port_id;
    uint16_t lacp_port_priority;
    uint16_t lacp_key;
};

/* bond_admit()'s verdict on a received packet. */
enum bond_verdict {
    BOND_ACCEPT,
    BOND_DROP,
    BOND_DROP_IF_MOVED,     /* balance-slb: drop unless the source was
                             * learned on the bond (or is not learned). */
};

char *bond_settings_from_db(struct bond_settings *, const char *port_name,
                            const char *bond_mode, int64_t updelay,
                            int64_t downdelay, const char *lacp,
                            const struct smap *other_config)
    DPS_WARN_UNUSED_RESULT;
void bond_settings_destroy(struct bond_settings *);
char *bond_member_lacp_from_db(struct bond_member_settings *,
                               const struct smap *other_config)
    DPS_WARN_UNUSED_RESULT;

struct bond *bond_create(const char *name);
void bond_destroy(struct bond *);
const char *bond_name(const struct bond *);
bool bond_reconfigure(struct bond *, const struct bond_settings *,
                      const struct bond_member_settings *, size_t n_members);
void bond_member_set_may_enable(struct bond *, uint32_t dp_port,
                                bool may_enable);
bool bond_run(struct bond *, long long int now);

/* LACP.  bond_lacp_run() runs the bond's LACP (if configured) and sends the
 * LACPDUs due through 'send' (a whole frame of 'size' bytes, on datapath
 * port 'dp_port'), with the bond's mutex held; the caller then calls
 * bond_run(), which enables the members LACP allows.  bond_is_lacp_pdu()
 * says whether a packet with key 'flow' is a LACPDU (slow protocols
 * destination and ethertype) and bond_lacp_process() hands its frame to the
 * bond: true if the bond's LACP took it (the caller drops the packet) and,
 * in '*changed', whether the main thread should run the bond soon.  Any
 * thread. */
typedef void bond_send_cb(void *aux, uint32_t dp_port, const void *frame,
                          size_t size);
void bond_lacp_run(struct bond *, long long int now, bond_send_cb *,
                   void *aux);
bool bond_is_lacp_pdu(const struct flow *);
int bond_member_lacp_current(struct bond *, uint32_t dp_port);
bool bond_lacp_process(struct bond *, uint32_t dp_port, const void *frame,
                       size_t size, bool *changed);
long long int bond_next_wakeup(struct bond *);
bool bond_take_learning_packets(struct bond *);
bool bond_get_active_mac(struct bond *, struct eth_addr *);

/* The buckets of balanced bonds that one translation sent through, for
 * crediting them with the bytes the resulting flow carries (load-based
 * rebalancing).  A translation that sends through more than BOND_MAX_HITS
 * buckets credits only the first. */
#define BOND_MAX_HITS 8
struct bond_hits {
    struct {
        struct bond *bond;
        uint32_t bucket;
    } hits[BOND_MAX_HITS];
    size_t n;
};

/* Translation, from any thread. */
bool bond_has_member(struct bond *, uint32_t dp_port);
enum bond_verdict bond_admit(struct bond *, uint32_t dp_port,
                             const struct flow *);
uint32_t bond_choose_output(struct bond *, const struct flow *,
                            uint16_t vlan, struct flow *mask,
                            struct bond_hits *);
void bond_hits_merge(struct bond_hits *, const struct bond_hits *);

/* Rebalancing (balance-slb, and balance-tcp once LACP has negotiated, with
 * a nonzero other_config:bond-rebalance-interval).  bond_hits_credit()
 * adds 'n_bytes' to the load of each bucket in 'hits' whose bond balances
 * now (the bonds must still exist: main thread, right after the
 * translation; Open vSwitch too counts nothing with an interval of 0);
 * every interval
 * bond_run() moves buckets from the most to the least loaded enabled
 * member while that brings their loads closer, logging each move as Open
 * vSwitch does, and then halves every bucket's load, so that old traffic
 * counts less and less.  bond/show lists each member's buckets that carry
 * at least 1 kB ("hash N: X kB load"). */
void bond_hits_credit(const struct bond_hits *, uint64_t n_bytes);

void bond_register_commands(void);

#endif /* bond.h */
