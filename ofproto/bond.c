/* Bonds.  See bond.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "bond.h"
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "lacp.h"
#include "murmur.h"
#include "smap.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(bond);

/* other_config:bond-rebalance-interval: the default, and the least a
 * nonzero value is raised to. */
#define BOND_REBALANCE_DEFAULT 10000
#define BOND_REBALANCE_MIN 1000

struct bond_member {
    char *name;
    uint32_t ofport;
    uint32_t dp_port;
    struct eth_addr mac;
    bool enabled;               /* Carries traffic. */
    uint64_t load;              /* Rebalancing: its buckets' bytes. */
    bool link_up;               /* Its link is up. */
    bool may_enable;            /* Its link is up and LACP, if configured,
                                 * allows it. */
    long long int delay_expires;        /* When 'enabled' follows
                                         * 'may_enable', LLONG_MAX if no
                                         * change is pending. */
};

struct bond {
    pthread_mutex_t mutex;
    char *name;
    struct bond_settings settings;
    struct bond_member *members;        /* In configuration order. */
    size_t n_members;
    struct bond_member *active;         /* NULL if none. */
    uint32_t recirc_id;                 /* As bond/list shows it. */
    long long int next_rebalance;       /* LLONG_MAX if none. */
    size_t next_rr;                     /* Round robin for new buckets. */
    struct bond_member *buckets[BOND_N_BUCKETS];
    uint64_t bucket_bytes[BOND_N_BUCKETS];  /* Load: bytes sent, halved at
                                             * each rebalancing. */
    bool changed;                       /* Decisions may differ. */
    bool send_learning_packets;
    struct lacp *lacp;                  /* NULL unless LACP is configured. */
    bool lacp_negotiated;               /* As bond_run() last saw it. */
};

/* What bond_lacp_send() needs to send a member's LACPDU. */
struct bond_lacp_send_aux {
    struct bond *bond;
    bond_send_cb *send;
    void *aux;
};

/* Every bond, in creation order (main thread only): for the commands. */
static struct bond **all_bonds;
static size_t n_all_bonds;
static uint32_t next_recirc_id = 1;

static void bond_update_link(struct bond *, struct bond_member *,
                             long long int now);
static void bond_enable_member(struct bond *, struct bond_member *,
                               bool enable);
static void bond_choose_active(struct bond *);
static struct bond_member *bond_best_member(struct bond *);
static void bond_set_active(struct bond *, struct bond_member *);
static enum bond_mode bond_effective_mode(const struct bond *);
static struct bond_member *bond_next_enabled(struct bond *);
static struct bond_member *bond_find_member(struct bond *,
                                            uint32_t dp_port);
static struct bond_member *bond_find_member_by_name(struct bond *,
                                                    const char *);
static uint32_t bond_hash_src(const struct eth_addr *, uint16_t vlan,
                              uint32_t basis);
static uint32_t bond_hash_tcp(const struct flow *, uint16_t vlan,
                              uint32_t basis, struct flow *mask);
static bool bond_carries_nothing(const struct bond *);
static bool bond_is_balanced(const struct bond *);
static void bond_rebalance(struct bond *);
static struct bond_member *bond_choose_bucket(struct bond *,
                                              uint32_t bucket,
                                              struct bond_hits *);
static const char *bond_mode_to_string(enum bond_mode);
static struct bond *bond_find(const char *name);
static void bond_show(struct bond *, struct ds *);
static bool bond_lookup_for_command(struct unixctl_conn *,
                                    const char *port, const char *member,
                                    struct bond **, struct bond_member **);
static void bond_list_cmd(struct unixctl_conn *, int argc,
                          const char *argv[], void *aux);
static void bond_show_cmd(struct unixctl_conn *, int argc,
                          const char *argv[], void *aux);
static void bond_set_active_cmd(struct unixctl_conn *, int argc,
                                const char *argv[], void *aux);
static void bond_enable_cmd(struct unixctl_conn *, int argc,
                            const char *argv[], void *aux);
static void bond_hash_cmd(struct unixctl_conn *, int argc,
                          const char *argv[], void *aux);
static void bond_migrate_cmd(struct unixctl_conn *, int argc,
                             const char *argv[], void *aux);

static bool bond_parse_mac(const char *s, struct eth_addr *ea);
static void
bond_lacp_send(void *aux_, uint32_t dp_port, const uint8_t pdu[LACP_PDU_LEN]);

/* Reads a bonded Port's settings into 'bs': 'bond_mode' (NULL if empty),
 * bond_updelay 'updelay', bond_downdelay 'downdelay', 'lacp' (NULL if
 * empty) and the bond keys of 'other_config'.  Values that cannot be used
 * are replaced by their defaults.  Returns NULL, or a message (which the
 * caller frees) for the log, naming 'port_name', that says what was
 * replaced.  The default bond_mode is logged apart, as Open vSwitch logs
 * it. */
char *
bond_settings_from_db(struct bond_settings *bs, const char *port_name,
                      const char *bond_mode, int64_t updelay,
                      int64_t downdelay, const char *lacp,
                      const struct smap *other_config)
{
    struct ds msg = DS_EMPTY_INITIALIZER;
    char *err;

    memset(bs, 0, sizeof *bs);
    if (!bond_mode || !*bond_mode || !strcmp(bond_mode, "active-backup")) {
        bs->mode = BOND_ACTIVE_BACKUP;
    } else if (!strcmp(bond_mode, "balance-slb")) {
        bs->mode = BOND_BALANCE_SLB;
    } else if (!strcmp(bond_mode, "balance-tcp")) {
        bs->mode = BOND_BALANCE_TCP;
    } else {
        ds_put_format(&msg, "unknown bond_mode %s, defaulting to "
                      "active-backup; ", bond_mode);
        bs->mode = BOND_ACTIVE_BACKUP;
    }
    bs->updelay = updelay < 0 ? 0 : MIN(updelay, INT_MAX);
    bs->downdelay = downdelay < 0 ? 0 : MIN(downdelay, INT_MAX);

    bs->lacp = lacp && (!strcmp(lacp, "active") || !strcmp(lacp, "passive"));
    if (lacp && *lacp && !bs->lacp && strcmp(lacp, "off")) {
        ds_put_format(&msg, "unknown lacp mode %s; ", lacp);
    }

    long long int value = 0;
    err = smap_parse_int(other_config, "bond-hash-basis", 0, UINT32_MAX,
                         &value);
    bs->hash_basis = value;
    value = BOND_REBALANCE_DEFAULT;
    if (!err) {
        err = smap_parse_int(other_config, "bond-rebalance-interval", 0,
                             INT_MAX, &value);
    }
    bs->rebalance_interval = value ? MAX(value, BOND_REBALANCE_MIN) : 0;
    if (!err) {
        err = smap_parse_bool(other_config, "all-members-active",
                              &bs->all_members_active);
    }
    if (!err) {
        err = smap_parse_bool(other_config, "lacp-fallback-ab",
                              &bs->lacp_fallback_ab);
    }
    value = 65534;
    if (!err) {
        err = smap_parse_int(other_config, "lacp-system-priority", 1,
                             UINT16_MAX, &value);
    }
    bs->lacp_sys_priority = err ? 65534 : value;
    if (err) {
        ds_put_format(&msg, "%s; ", err);
        free(err);
    }

    bs->lacp_active = bs->lacp && !strcmp(lacp, "active");
    const char *time = smap_get(other_config, "lacp-time");
    bs->lacp_fast = time && !strcmp(time, "fast");
    if (time && !bs->lacp_fast && strcmp(time, "slow")) {
        ds_put_format(&msg, "unknown lacp-time %s, using slow; ", time);
    }
    const char *sys_id = smap_get(other_config, "lacp-system-id");
    if (sys_id) {
        struct eth_addr ea;

        if (bond_parse_mac(sys_id, &ea) && (ea.ea[0] | ea.ea[1] | ea.ea[2]
                                            | ea.ea[3] | ea.ea[4]
                                            | ea.ea[5])) {
            bs->lacp_has_sys_id = true;
            bs->lacp_sys_id = ea;
        } else {
            ds_put_format(&msg, "lacp-system-id %s is not a nonzero "
                          "Ethernet address; ", sys_id);
        }
    }

    /* Open vSwitch reads bond-primary only where active-backup can happen.
     */
    const char *primary = smap_get(other_config, "bond-primary");
    if (primary && (bs->mode == BOND_ACTIVE_BACKUP || bs->lacp_fallback_ab)) {
        bs->primary = xstrdup(primary);
    }

    if (!msg.length) {
        ds_destroy(&msg);
        return NULL;
    }
    ds_truncate(&msg, msg.length - 2);
    char *full = xasprintf("port %s: %s", port_name, ds_cstr(&msg));
    ds_destroy(&msg);
    return full;
}

/* Frees what 'bs' owns. */
void
bond_settings_destroy(struct bond_settings *bs)
{
    free(bs->primary);
    bs->primary = NULL;
}

/* Reads a member's LACP settings from its Interface 'other_config' into
 * 'ms' (whose 'ofport' is set): lacp-port-id, lacp-port-priority and
 * lacp-aggregation-key, each 1 to 65535.  A value that cannot be used is
 * replaced by its default; returns NULL, or a message for the log (which
 * the caller frees). */
char *
bond_member_lacp_from_db(struct bond_member_settings *ms,
                         const struct smap *other_config)
{
    static const char *const keys[] = {
        "lacp-port-id", "lacp-port-priority", "lacp-aggregation-key",
    };
    long long int values[] = { MIN(ms->ofport, UINT16_MAX), 65535, 0 };
    struct ds msg = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        long long int value = values[i];
        char *err = smap_parse_int(other_config, keys[i], 1, UINT16_MAX,
                                   &value);
        if (err) {
            ds_put_format(&msg, "%s%s", msg.length ? "; " : "", err);
            free(err);
        } else {
            values[i] = value;
        }
    }
    ms->lacp_port_id = values[0];
    ms->lacp_port_priority = values[1];
    ms->lacp_key = values[2];
    if (!msg.length) {
        ds_destroy(&msg);
        return NULL;
    }
    char *full = xasprintf("interface %s: %s", ms->name, ds_cstr(&msg));
    ds_destroy(&msg);
    return full;
}

/* Creates a bond named 'name' (the Port's name) with no members, in
 * active-backup mode.  Main thread. */
struct bond *
bond_create(const char *name)
{
    struct bond *bond = xzalloc(sizeof *bond);

    pthread_mutex_init(&bond->mutex, NULL);
    bond->name = xstrdup(name);
    bond->next_rebalance = LLONG_MAX;
    all_bonds = xrealloc(all_bonds, (n_all_bonds + 1) * sizeof *all_bonds);
    all_bonds[n_all_bonds++] = bond;
    return bond;
}

/* Frees 'bond' (which may be NULL).  No translation may be using it. */
void
bond_destroy(struct bond *bond)
{
    if (!bond) {
        return;
    }
    for (size_t i = 0; i < n_all_bonds; i++) {
        if (all_bonds[i] == bond) {
            memmove(&all_bonds[i], &all_bonds[i + 1],
                    (n_all_bonds - i - 1) * sizeof *all_bonds);
            n_all_bonds--;
            break;
        }
    }
    for (size_t i = 0; i < bond->n_members; i++) {
        free(bond->members[i].name);
    }
    free(bond->members);
    lacp_destroy(bond->lacp);
    bond_settings_destroy(&bond->settings);
    pthread_mutex_destroy(&bond->mutex);
    free(bond->name);
    free(bond);
}

/* Returns the bond's name. */
const char *
bond_name(const struct bond *bond)
{
    return bond->name;
}

/* Gives 'bond' the settings 's' (copied) and the 'n' members 'ms'.  A
 * member that was there before (same name) keeps its state; a new one is
 * enabled at once if its link is up ('may_enable'), without updelay, as
 * Open vSwitch does.  Returns true if anything translation depends on
 * changed.  Main thread. */
bool
bond_reconfigure(struct bond *bond, const struct bond_settings *s,
                 const struct bond_member_settings *ms, size_t n)
{
    struct bond_member *members = xcalloc(MAX(n, 1), sizeof *members);
    const char *active_name = NULL;
    bool changed = false;

    pthread_mutex_lock(&bond->mutex);
    /* Where each old member went, for the buckets. */
    struct bond_member **moved = xcalloc(MAX(bond->n_members, 1),
                                         sizeof *moved);
    if (bond->active) {
        active_name = bond->active->name;
    }
    size_t n_old_ports = bond->n_members;
    uint32_t *old_ports = xmalloc(MAX(n_old_ports, 1) * sizeof *old_ports);
    for (size_t i = 0; i < n_old_ports; i++) {
        old_ports[i] = bond->members[i].dp_port;
    }
    for (size_t i = 0; i < n; i++) {
        struct bond_member *m = &members[i];
        const struct bond_member *old = NULL;

        for (size_t j = 0; j < bond->n_members; j++) {
            if (!strcmp(bond->members[j].name, ms[i].name)) {
                old = &bond->members[j];
                break;
            }
        }
        if (old) {
            moved[old - bond->members] = m;
            *m = *old;
            m->name = xstrdup(old->name);
            changed |= m->dp_port != ms[i].dp_port;
        } else {
            m->name = xstrdup(ms[i].name);
            m->delay_expires = LLONG_MAX;
            m->link_up = ms[i].may_enable;
            /* With LACP, the member waits for it. */
            m->may_enable = m->link_up && !s->lacp;
            if (m->may_enable) {
                bond_enable_member(bond, m, true);
            }
            changed = true;
        }
        m->ofport = ms[i].ofport;
        m->dp_port = ms[i].dp_port;
        m->mac = ms[i].mac;
    }
    changed |= n != bond->n_members;

    struct bond_member *active = NULL;
    for (size_t i = 0; active_name && i < n; i++) {
        if (!strcmp(members[i].name, active_name)) {
            active = &members[i];
        }
    }
    /* Buckets keep their member, as long as the hash stays the same. */
    const struct bond_settings *old = &bond->settings;
    bool same_hash = (old->mode == s->mode
                      && old->hash_basis == s->hash_basis);
    for (size_t i = 0; i < BOND_N_BUCKETS; i++) {
        struct bond_member *b = bond->buckets[i];
        bond->buckets[i] = b && same_hash ? moved[b - bond->members] : NULL;
        if (!same_hash) {
            bond->bucket_bytes[i] = 0;
        }
    }
    if (n != bond->n_members) {
        bond->next_rr = 0;
    }
    free(moved);

    for (size_t i = 0; i < bond->n_members; i++) {
        free(bond->members[i].name);
    }
    free(bond->members);
    bond->members = members;
    bond->n_members = n;
    bond->active = active;

    if (old->mode != s->mode || old->hash_basis != s->hash_basis
        || old->all_members_active != s->all_members_active
        || old->lacp != s->lacp
        || old->lacp_fallback_ab != s->lacp_fallback_ab
        || (old->primary == NULL) != (s->primary == NULL)
        || (old->primary && strcmp(old->primary, s->primary))) {
        changed = true;
    }
    if (s->mode != BOND_ACTIVE_BACKUP && !bond->recirc_id) {
        bond->recirc_id = next_recirc_id++;
    }
    if (s->mode == BOND_ACTIVE_BACKUP || !s->rebalance_interval) {
        bond->next_rebalance = LLONG_MAX;
    } else if (s->rebalance_interval != old->rebalance_interval
               || old->mode == BOND_ACTIVE_BACKUP
               || bond->next_rebalance == LLONG_MAX) {
        bond->next_rebalance = time_msec() + s->rebalance_interval;
    }
    bond_settings_destroy(&bond->settings);
    bond->settings = *s;
    bond->settings.primary = s->primary ? xstrdup(s->primary) : NULL;

    if (s->lacp) {
        struct lacp_settings ls = {
            .sys_id = s->lacp_sys_id,
            .sys_priority = s->lacp_sys_priority,
            .active = s->lacp_active,
            .fast = s->lacp_fast,
            .fallback_ab = s->lacp_fallback_ab,
        };
        if (!bond->lacp) {
            bond->lacp = lacp_create(bond->name);
        }
        lacp_configure(bond->lacp, &ls);
        for (size_t i = 0; i < n; i++) {
            struct lacp_member_settings lms = {
                .name = ms[i].name,
                .port_id = ms[i].lacp_port_id,
                .port_priority = ms[i].lacp_port_priority,
                .key = ms[i].lacp_key,
            };
            lacp_member_register(bond->lacp, ms[i].dp_port, &lms);
        }
        for (size_t i = 0; i < n_old_ports; i++) {
            bool kept = false;
            for (size_t j = 0; j < n; j++) {
                kept |= ms[j].dp_port == old_ports[i];
            }
            if (!kept) {
                lacp_member_unregister(bond->lacp, old_ports[i]);
            }
        }
    } else if (bond->lacp) {
        lacp_destroy(bond->lacp);
        bond->lacp = NULL;
        bond->lacp_negotiated = false;
        for (size_t i = 0; i < n; i++) {
            members[i].may_enable = members[i].link_up;
        }
    }
    free(old_ports);

    bond_choose_active(bond);
    changed |= bond->changed;
    bond->changed |= changed;
    pthread_mutex_unlock(&bond->mutex);
    return changed;
}

/* Reports whether the link of the member with datapath port 'dp_port' is
 * up.  bond_run() acts on it.  Main thread. */
void
bond_member_set_may_enable(struct bond *bond, uint32_t dp_port,
                           bool may_enable)
{
    pthread_mutex_lock(&bond->mutex);
    struct bond_member *m = bond_find_member(bond, dp_port);
    if (m) {
        m->link_up = may_enable;
        if (!bond->lacp) {
            m->may_enable = may_enable;
        }
    }
    pthread_mutex_unlock(&bond->mutex);
}

/* Applies link changes and delays at time 'now' (see "Link state" in
 * bond.h) and the rebalancing timer.  Returns true if a decision of
 * translation may have changed since the last call, for any reason
 * (including the commands and reconfiguration).  Main thread. */
bool
bond_run(struct bond *bond, long long int now)
{
    pthread_mutex_lock(&bond->mutex);
    if (bond->lacp) {
        bool negotiated = lacp_negotiated(bond->lacp);

        if (negotiated != bond->lacp_negotiated) {
            bond->lacp_negotiated = negotiated;
            bond->changed = true;
        }
        for (size_t i = 0; i < bond->n_members; i++) {
            struct bond_member *m = &bond->members[i];

            m->may_enable = (m->link_up
                             && lacp_member_may_enable(bond->lacp,
                                                       m->dp_port));
        }
    }
    for (size_t i = 0; i < bond->n_members; i++) {
        bond_update_link(bond, &bond->members[i], now);
    }
    bond_choose_active(bond);
    if (now >= bond->next_rebalance) {
        bond->next_rebalance = now + bond->settings.rebalance_interval;
        if (bond_is_balanced(bond)) {
            bond_rebalance(bond);
        }
    }
    bool changed = bond->changed;
    bond->changed = false;
    pthread_mutex_unlock(&bond->mutex);
    return changed;
}

/* See bond.h.  Main thread. */
void
bond_lacp_run(struct bond *bond, long long int now, bond_send_cb *send,
              void *aux)
{
    pthread_mutex_lock(&bond->mutex);
    if (bond->lacp) {
        struct bond_lacp_send_aux sa = { bond, send, aux };

        for (size_t i = 0; i < bond->n_members; i++) {
            lacp_member_set_carrier(bond->lacp, bond->members[i].dp_port,
                                    bond->members[i].link_up);
        }
        lacp_run(bond->lacp, now, bond_lacp_send, &sa);
    }
    pthread_mutex_unlock(&bond->mutex);
}

/* See bond.h. */
bool
bond_is_lacp_pdu(const struct flow *flow)
{
    return (flow->dl_type == htons(LACP_ETH_TYPE)
            && !memcmp(&flow->dl_dst, &lacp_dst, sizeof lacp_dst));
}

/* Returns 1 if member 'dp_port' of 'bond' hears its LACP partner, 0 if
 * not, -1 if the bond has no LACP or no such member (for
 * Interface:lacp_current).  Main thread. */
int
bond_member_lacp_current(struct bond *bond, uint32_t dp_port)
{
    pthread_mutex_lock(&bond->mutex);
    int current = (bond->lacp && bond_find_member(bond, dp_port)
                   ? lacp_member_is_current(bond->lacp, dp_port) : -1);
    pthread_mutex_unlock(&bond->mutex);
    return current;
}

/* See bond.h. */
bool
bond_lacp_process(struct bond *bond, uint32_t dp_port, const void *frame,
                  size_t size, bool *changed)
{
    bool taken = false;

    *changed = false;
    pthread_mutex_lock(&bond->mutex);
    if (bond->lacp && bond_find_member(bond, dp_port)
        && size >= ETH_HEADER_LEN) {
        *changed = lacp_process_packet(bond->lacp, dp_port,
                                       (const uint8_t *) frame
                                       + ETH_HEADER_LEN,
                                       size - ETH_HEADER_LEN, time_msec());
        taken = true;
    }
    pthread_mutex_unlock(&bond->mutex);
    return taken;
}

/* Returns when bond_run() next has work to do, or LLONG_MAX. */
long long int
bond_next_wakeup(struct bond *bond)
{
    long long int when = LLONG_MAX;

    pthread_mutex_lock(&bond->mutex);
    for (size_t i = 0; i < bond->n_members; i++) {
        when = MIN(when, bond->members[i].delay_expires);
    }
    when = MIN(when, bond->next_rebalance);
    if (bond->lacp) {
        when = MIN(when, lacp_next_wakeup(bond->lacp));
    }
    pthread_mutex_unlock(&bond->mutex);
    return when;
}

/* Returns true once after the active member changed to a member: the
 * bridge should then send a learning packet for each address it knows on
 * its other ports, so that the upstream switch learns the new path. */
bool
bond_take_learning_packets(struct bond *bond)
{
    pthread_mutex_lock(&bond->mutex);
    bool send = bond->send_learning_packets && bond->active;
    bond->send_learning_packets = false;
    pthread_mutex_unlock(&bond->mutex);
    return send;
}

/* Stores the active member's Ethernet address in '*mac' and returns true,
 * or returns false if there is no active member (for bond_active_slave). */
bool
bond_get_active_mac(struct bond *bond, struct eth_addr *mac)
{
    pthread_mutex_lock(&bond->mutex);
    bool found = bond->active != NULL;
    if (found) {
        *mac = bond->active->mac;
    }
    pthread_mutex_unlock(&bond->mutex);
    return found;
}

/* Returns true if datapath port 'dp_port' is one of the bond's members. */
bool
bond_has_member(struct bond *bond, uint32_t dp_port)
{
    pthread_mutex_lock(&bond->mutex);
    bool found = bond_find_member(bond, dp_port) != NULL;
    pthread_mutex_unlock(&bond->mutex);
    return found;
}

/* Decides whether the bond takes a packet with key 'flow' received on its
 * member 'dp_port' (see the modes in bond.h).  The verdict depends on the
 * input port and on whether dl_dst is multicast, which NORMAL's megaflows
 * match anyway. */
enum bond_verdict
bond_admit(struct bond *bond, uint32_t dp_port, const struct flow *flow)
{
    enum bond_verdict verdict = BOND_DROP;

    pthread_mutex_lock(&bond->mutex);
    struct bond_member *m = bond_find_member(bond, dp_port);
    if (!m || !m->enabled) {
        goto out;
    }
    if (bond_carries_nothing(bond)) {
        goto out;
    }
    if (bond->settings.lacp && bond->lacp_negotiated) {
        /* The partner knows the bond: an enabled member takes anything,
         * as in Open vSwitch. */
        verdict = BOND_ACCEPT;
        goto out;
    }
    if ((flow->dl_dst.ea[0] & 1) && m != bond->active
        && !(bond->settings.all_members_active
             && bond->settings.mode == BOND_BALANCE_SLB)) {
        goto out;
    }
    switch (bond_effective_mode(bond)) {
    case BOND_ACTIVE_BACKUP:
        verdict = m == bond->active ? BOND_ACCEPT : BOND_DROP;
        break;
    case BOND_BALANCE_SLB:
        verdict = BOND_DROP_IF_MOVED;
        break;
    case BOND_BALANCE_TCP:
        /* Negotiated (else nothing reaches here): every member takes. */
        verdict = BOND_ACCEPT;
        break;
    }

out:
    pthread_mutex_unlock(&bond->mutex);
    return verdict;
}

/* Returns the datapath port of the member that sends a packet with key
 * 'flow' in 'vlan', or BOND_NO_MEMBER.  Adds the fields the choice hashed
 * to 'mask' and, for a balanced bond, the bucket to 'hits' (if nonnull). */
uint32_t
bond_choose_output(struct bond *bond, const struct flow *flow,
                   uint16_t vlan, struct flow *mask, struct bond_hits *hits)
{
    struct bond_member *m = NULL;

    pthread_mutex_lock(&bond->mutex);
    enum bond_mode mode = bond_effective_mode(bond);
    if (bond_carries_nothing(bond)) {
        /* balance-tcp without LACP, or LACP not negotiated (without
         * lacp-fallback-ab): nothing is sent. */
    } else if (mode == BOND_ACTIVE_BACKUP) {
        m = bond->active;
    } else if (mode == BOND_BALANCE_SLB) {
        uint32_t hash = bond_hash_src(&flow->dl_src, vlan,
                                      bond->settings.hash_basis);

        memset(&mask->dl_src, 0xff, sizeof mask->dl_src);
        m = bond_choose_bucket(bond, hash % BOND_N_BUCKETS, hits);
    } else if (mode == BOND_BALANCE_TCP) {
        uint32_t hash = bond_hash_tcp(flow, vlan, bond->settings.hash_basis,
                                      mask);

        m = bond_choose_bucket(bond, hash % BOND_N_BUCKETS, hits);
    }
    uint32_t dp_port = m && m->enabled ? m->dp_port : BOND_NO_MEMBER;
    pthread_mutex_unlock(&bond->mutex);
    return dp_port;
}

/* Adds the hits of 'from' to 'to' (as many as fit). */
void
bond_hits_merge(struct bond_hits *to, const struct bond_hits *from)
{
    for (size_t i = 0; i < from->n && to->n < BOND_MAX_HITS; i++) {
        to->hits[to->n++] = from->hits[i];
    }
}

/* See bond.h. */
void
bond_hits_credit(const struct bond_hits *hits, uint64_t n_bytes)
{
    for (size_t i = 0; i < hits->n; i++) {
        struct bond *bond = hits->hits[i].bond;

        pthread_mutex_lock(&bond->mutex);
        if (bond_is_balanced(bond)) {
            bond->bucket_bytes[hits->hits[i].bucket] += n_bytes;
        }
        pthread_mutex_unlock(&bond->mutex);
    }
}

/* Registers the bond/ commands.  Main thread, once. */
void
bond_register_commands(void)
{
    lacp_register_commands();
    unixctl_command_register("bond/list", "", 0, 0, bond_list_cmd, NULL);
    unixctl_command_register("bond/show", "[port]", 0, 1, bond_show_cmd,
                             NULL);
    unixctl_command_register("bond/set-active-member", "port member", 2, 2,
                             bond_set_active_cmd, NULL);
    unixctl_command_register("bond/enable-member", "port member", 2, 2,
                             bond_enable_cmd, (void *) "enable");
    unixctl_command_register("bond/disable-member", "port member", 2, 2,
                             bond_enable_cmd, NULL);
    unixctl_command_register("bond/hash", "mac [vlan] [basis]", 1, 3,
                             bond_hash_cmd, NULL);
    unixctl_command_register("bond/migrate", "port hash member", 3, 3,
                             bond_migrate_cmd, NULL);

    /* Open vSwitch's older names, which it still takes but does not
     * list. */
    unixctl_command_register("bond/set-active-slave", NULL, 2, 2,
                             bond_set_active_cmd, NULL);
    unixctl_command_register("bond/enable-slave", NULL, 2, 2,
                             bond_enable_cmd, (void *) "enable");
    unixctl_command_register("bond/disable-slave", NULL, 2, 2,
                             bond_enable_cmd, NULL);
}

/* Parses "xx:xx:xx:xx:xx:xx" into '*ea'.  (ofproto/ links nothing of the
 * packet library, which has eth_addr_parse().) */
static bool
bond_parse_mac(const char *s, struct eth_addr *ea)
{
    unsigned int b[ETH_ADDR_LEN];
    char extra;

    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
               &b[4], &b[5], &extra) != ETH_ADDR_LEN) {
        return false;
    }
    for (size_t i = 0; i < ETH_ADDR_LEN; i++) {
        ea->ea[i] = b[i];
    }
    return true;
}

/* lacp_run()'s sender: the PDU in a frame from the member's address. */
static void
bond_lacp_send(void *aux_, uint32_t dp_port, const uint8_t pdu[LACP_PDU_LEN])
{
    struct bond_lacp_send_aux *aux = aux_;
    struct bond_member *m = bond_find_member(aux->bond, dp_port);
    uint8_t frame[LACP_FRAME_LEN];

    if (m) {
        lacp_frame_compose(&m->mac, pdu, frame);
        aux->send(aux->aux, dp_port, frame, sizeof frame);
    }
}

/* Follows one member's link state at time 'now'. */
static void
bond_update_link(struct bond *bond, struct bond_member *m, long long int now)
{
    if (m->enabled == m->may_enable) {
        /* The link came back before the delay ran out. */
        m->delay_expires = LLONG_MAX;
        return;
    }

    if (m->delay_expires == LLONG_MAX) {
        VLOG_INFO("member %s: link state %s", m->name,
                  m->may_enable ? "up" : "down");
        long long int delay = (m->may_enable ? bond->settings.updelay
                               : bond->settings.downdelay);
        if (delay) {
            VLOG_INFO("member %s: will be %s if it stays %s for %lld ms",
                      m->name, m->may_enable ? "enabled" : "disabled",
                      m->may_enable ? "up" : "down", delay);
        }
        m->delay_expires = now + delay;
    }
    if (now >= m->delay_expires) {
        m->delay_expires = LLONG_MAX;
        bond_enable_member(bond, m, m->may_enable);
    }
}

/* Enables or disables 'm'.  The caller then chooses the active member. */
static void
bond_enable_member(struct bond *bond, struct bond_member *m, bool enable)
{
    if (m->enabled == enable) {
        return;
    }
    m->enabled = enable;
    VLOG_INFO("member %s: %s", m->name, enable ? "enabled" : "disabled");
    bond->changed = true;
    if (!enable) {
        for (size_t i = 0; i < BOND_N_BUCKETS; i++) {
            if (bond->buckets[i] == m) {
                bond->buckets[i] = NULL;
            }
        }
    }
}

/* Keeps the active member, unless it is disabled or the enabled primary
 * is another. */
static void
bond_choose_active(struct bond *bond)
{
    struct bond_member *best = bond_best_member(bond);

    if (!best) {
        /* No member is enabled: the first to come up need not wait for its
         * updelay. */
        struct bond_member *soonest = NULL;
        for (size_t i = 0; i < bond->n_members; i++) {
            struct bond_member *m = &bond->members[i];
            if (!m->enabled && m->may_enable
                && (!soonest || m->delay_expires < soonest->delay_expires)) {
                soonest = m;
            }
        }
        if (soonest) {
            long long int left = (soonest->delay_expires == LLONG_MAX ? 0
                                  : soonest->delay_expires - time_msec());
            VLOG_INFO("bond %s: active member is now %s, skipping remaining "
                      "%lld ms updelay (since no member was enabled)",
                      bond->name, soonest->name, MAX(left, 0));
            soonest->delay_expires = LLONG_MAX;
            bond->active = soonest;
            bond->send_learning_packets = true;
            bond_enable_member(bond, soonest, true);
            return;
        }
    }

    if (best != bond->active
        && (!bond->active || !bond->active->enabled
            || (best && bond->settings.primary
                && !strcmp(best->name, bond->settings.primary)))) {
        bond_set_active(bond, best);
    }
}

/* The member that should be active: the primary if it is enabled, else
 * the current active member if enabled, else the first enabled one. */
static struct bond_member *
bond_best_member(struct bond *bond)
{
    struct bond_member *first = NULL;

    for (size_t i = 0; i < bond->n_members; i++) {
        struct bond_member *m = &bond->members[i];

        if (!m->enabled) {
            continue;
        }
        if (bond->settings.primary && !strcmp(m->name,
                                              bond->settings.primary)) {
            return m;
        }
        if (!first) {
            first = m;
        }
    }
    if (bond->active && bond->active->enabled) {
        return bond->active;
    }
    return first;
}

static void
bond_set_active(struct bond *bond, struct bond_member *m)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

    if (m == bond->active) {
        return;
    }
    bond->active = m;
    bond->changed = true;
    if (m) {
        VLOG_INFO("bond %s: active member is now %s", bond->name, m->name);
        bond->send_learning_packets = true;
    } else {
        VLOG_INFO_RL(&rl, "bond %s: all members disabled", bond->name);
    }
}

/* The mode the bond works in now: with LACP configured and
 * lacp-fallback-ab, active-backup while LACP has not negotiated. */
static enum bond_mode
bond_effective_mode(const struct bond *bond)
{
    if (bond->settings.lacp && bond->settings.lacp_fallback_ab
        && !bond->lacp_negotiated) {
        return BOND_ACTIVE_BACKUP;
    }
    return bond->settings.mode;
}

/* True while the bond may neither send nor receive: LACP configured and
 * not negotiated without lacp-fallback-ab, or balance-tcp without LACP. */
static bool
bond_carries_nothing(const struct bond *bond)
{
    const struct bond_settings *s = &bond->settings;

    if (s->lacp) {
        return !bond->lacp_negotiated && !s->lacp_fallback_ab;
    }
    return s->mode == BOND_BALANCE_TCP;
}

/* True while load-based rebalancing applies: a nonzero interval, and the
 * bond balances now (balance-slb, or balance-tcp over negotiated LACP;
 * not while lacp-fallback-ab makes it active-backup). */
static bool
bond_is_balanced(const struct bond *bond)
{
    return (bond->settings.rebalance_interval
            && bond_effective_mode(bond) != BOND_ACTIVE_BACKUP
            && !bond_carries_nothing(bond));
}

/* The member of bucket 'bucket', given the next enabled member in turn if
 * it has none that is enabled; records the bucket in 'hits'. */
static struct bond_member *
bond_choose_bucket(struct bond *bond, uint32_t bucket,
                   struct bond_hits *hits)
{
    struct bond_member **m = &bond->buckets[bucket];

    if (!*m || !(*m)->enabled) {
        *m = bond_next_enabled(bond);
    }
    if (hits && *m && hits->n < BOND_MAX_HITS) {
        hits->hits[hits->n].bond = bond;
        hits->hits[hits->n].bucket = bucket;
        hits->n++;
    }
    return *m;
}

/* The enabled member of 'bond' with the most (or, with 'least', the least)
 * load, among those 'skip' does not mark; the first in configuration order
 * on a tie. */
static struct bond_member *
bond_extreme_member(struct bond *bond, const bool *skip, bool least)
{
    struct bond_member *best = NULL;

    for (size_t i = 0; i < bond->n_members; i++) {
        struct bond_member *m = &bond->members[i];

        if (m->enabled && !skip[i]
            && (!best || (least ? m->load < best->load
                          : m->load > best->load))) {
            best = m;
        }
    }
    return best;
}

/* The bucket of 'from' worth moving to 'to' in this rebalancing (not one
 * 'moved' marks): the first, in bucket order, whose move brings the ratio
 * of their loads nearer 1 and lowers it by more than 0.1 (any bucket, if
 * 'to' carries nothing), and only if 'from' has more than one bucket with
 * load (moving its only one would just move the imbalance).  -1 if none.
 * (Open vSwitch 3.1 takes the same kind of bucket, but when several
 * qualify it may take another of them.) */
static int
bond_bucket_to_move(const struct bond *bond, const struct bond_member *from,
                    const struct bond_member *to, const bool *moved)
{
    size_t n_loaded = 0;
    int best = -1;

    for (int i = 0; i < BOND_N_BUCKETS; i++) {
        uint64_t bytes = bond->bucket_bytes[i];

        if (bond->buckets[i] != from || !bytes) {
            continue;
        }
        n_loaded++;
        if (best >= 0 || moved[i]) {
            continue;
        }
        if (!to->load) {
            best = i;
            continue;
        }
        double old_ratio = (double) from->load / to->load;
        double new_ratio = ((double) (from->load - bytes)
                            / (to->load + bytes));
        if (old_ratio - new_ratio > 0.1
            && fabs(new_ratio - 1.0) < fabs(old_ratio - 1.0)) {
            best = i;
        }
    }
    return n_loaded > 1 ? best : -1;
}

/* One rebalancing of 'bond' (see bond.h): while the most loaded enabled
 * member carries at least 100,000 bytes, and 1/32 of the least loaded's
 * load, more than the least loaded one, moves to the latter a bucket that
 * evens them out (bond_bucket_to_move(); a bucket moves at most once per
 * rebalancing); a member with no such bucket is left out.  Then every
 * bucket's load is halved. */
static void
bond_rebalance(struct bond *bond)
{
    bool *skip = xcalloc(MAX(bond->n_members, 1), sizeof *skip);
    bool moved[BOND_N_BUCKETS] = { false };

    for (size_t i = 0; i < bond->n_members; i++) {
        bond->members[i].load = 0;
    }
    for (size_t i = 0; i < BOND_N_BUCKETS; i++) {
        if (bond->buckets[i]) {
            bond->buckets[i]->load += bond->bucket_bytes[i];
        }
    }
    for (;;) {
        struct bond_member *from = bond_extreme_member(bond, skip, false);
        struct bond_member *to = bond_extreme_member(bond, skip, true);
        if (!from || !to || from == to) {
            break;
        }
        uint64_t overload = from->load - to->load;
        if (overload < to->load >> 5 || overload < 100000) {
            break;
        }
        int bucket = bond_bucket_to_move(bond, from, to, moved);
        if (bucket < 0) {
            skip[from - bond->members] = true;
            continue;
        }
        uint64_t bytes = bond->bucket_bytes[bucket];
        from->load -= bytes;
        to->load += bytes;
        bond->buckets[bucket] = to;
        moved[bucket] = true;
        bond->changed = true;
        VLOG_INFO("bond %s: shift %"PRIu64"kB of load (with hash %d) from "
                  "%s to %s (now carrying %"PRIu64"kB and %"PRIu64"kB load, "
                  "respectively)", bond->name, bytes / 1024, bucket,
                  from->name, to->name, from->load / 1024, to->load / 1024);
    }
    free(skip);
    for (size_t i = 0; i < BOND_N_BUCKETS; i++) {
        bond->bucket_bytes[i] /= 2;
    }
}

/* The next enabled member in turn, for a bucket that has none. */
static struct bond_member *
bond_next_enabled(struct bond *bond)
{
    for (size_t i = 0; i < bond->n_members; i++) {
        struct bond_member *m
            = &bond->members[(bond->next_rr + i) % bond->n_members];

        if (m->enabled) {
            bond->next_rr = (bond->next_rr + i + 1) % bond->n_members;
            return m;
        }
    }
    return NULL;
}

static struct bond_member *
bond_find_member(struct bond *bond, uint32_t dp_port)
{
    for (size_t i = 0; i < bond->n_members; i++) {
        if (bond->members[i].dp_port == dp_port) {
            return &bond->members[i];
        }
    }
    return NULL;
}

static struct bond_member *
bond_find_member_by_name(struct bond *bond, const char *name)
{
    for (size_t i = 0; i < bond->n_members; i++) {
        if (!strcmp(bond->members[i].name, name)) {
            return &bond->members[i];
        }
    }
    return NULL;
}

/* Hashes a source address and VLAN with 'basis' as Open vSwitch 3.1 does
 * for balance-slb and bond/hash: the VLAN in the top 16 bits of a 64-bit
 * word above the address (its first byte most significant), the word's low
 * then high half mixed into 'basis', finished as 8 bytes.  (Checked
 * against Debian's bond/hash on random addresses, VLANs and bases.) */
static uint32_t
bond_hash_src(const struct eth_addr *mac, uint16_t vlan, uint32_t basis)
{
    uint64_t x = vlan;

    for (size_t i = 0; i < 6; i++) {
        x = (x << 8) | mac->ea[i];
    }
    uint32_t hash = murmur_add(basis, (uint32_t) x);
    hash = murmur_add(hash, (uint32_t) (x >> 32));
    return murmur_finish(hash, 8);
}

static void
hash_add_bytes(uint64_t *h, const void *p_, size_t n)
{
    const uint8_t *p = p_;

    for (size_t i = 0; i < n; i++) {
        *h = (*h ^ p[i]) * UINT64_C(0x100000001b3);
    }
}

/* balance-tcp's hash of 'flow' in 'vlan': the Ethernet addresses, the
 * VLAN and, for IPv4 and IPv6, the addresses, the protocol and the TCP,
 * UDP or SCTP ports, mixed with 'basis'.  Sets the bits it read in
 * 'mask'. */
static uint32_t
bond_hash_tcp(const struct flow *flow, uint16_t vlan, uint32_t basis,
              struct flow *mask)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ basis;

    hash_add_bytes(&h, &flow->dl_src, sizeof flow->dl_src);
    hash_add_bytes(&h, &flow->dl_dst, sizeof flow->dl_dst);
    hash_add_bytes(&h, &vlan, sizeof vlan);
    hash_add_bytes(&h, &flow->dl_type, sizeof flow->dl_type);
    memset(&mask->dl_src, 0xff, sizeof mask->dl_src);
    memset(&mask->dl_dst, 0xff, sizeof mask->dl_dst);
    mask->dl_type = 0xffff;

    bool ip4 = flow->dl_type == htons(ETH_TYPE_IP);
    bool ip6 = flow->dl_type == htons(0x86dd);
    if (ip4 || ip6) {
        if (ip4) {
            hash_add_bytes(&h, &flow->nw_src, sizeof flow->nw_src);
            hash_add_bytes(&h, &flow->nw_dst, sizeof flow->nw_dst);
            mask->nw_src = mask->nw_dst = UINT32_MAX;
        } else {
            hash_add_bytes(&h, &flow->ipv6_src, sizeof flow->ipv6_src);
            hash_add_bytes(&h, &flow->ipv6_dst, sizeof flow->ipv6_dst);
            memset(&mask->ipv6_src, 0xff, sizeof mask->ipv6_src);
            memset(&mask->ipv6_dst, 0xff, sizeof mask->ipv6_dst);
        }
        hash_add_bytes(&h, &flow->nw_proto, sizeof flow->nw_proto);
        mask->nw_proto = 0xff;
        if (flow->nw_proto == 6 || flow->nw_proto == 17
            || flow->nw_proto == 132) {
            hash_add_bytes(&h, &flow->tp_src, sizeof flow->tp_src);
            hash_add_bytes(&h, &flow->tp_dst, sizeof flow->tp_dst);
            mask->tp_src = mask->tp_dst = 0xffff;
        }
    }
    h ^= h >> 29;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 32;
    return (uint32_t) h;
}

static const char *
bond_mode_to_string(enum bond_mode mode)
{
    switch (mode) {
    case BOND_ACTIVE_BACKUP:
        return "active-backup";
    case BOND_BALANCE_SLB:
        return "balance-slb";
    case BOND_BALANCE_TCP:
        return "balance-tcp";
    }
    return "unknown";
}

static struct bond *
bond_find(const char *name)
{
    for (size_t i = 0; i < n_all_bonds; i++) {
        if (!strcmp(all_bonds[i]->name, name)) {
            return all_bonds[i];
        }
    }
    return NULL;
}

static int
compare_members_by_name(const void *a_, const void *b_)
{
    const struct bond_member *const *a = a_;
    const struct bond_member *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

/* Appends the bond/show text of 'bond' to 'ds', in Open vSwitch 3.1's
 * layout. */
static void
bond_show(struct bond *bond, struct ds *ds)
{
    long long int now = time_msec();

    pthread_mutex_lock(&bond->mutex);
    const struct bond_settings *s = &bond->settings;
    bool balanced = s->mode != BOND_ACTIVE_BACKUP;
    bool recirc = s->mode == BOND_BALANCE_TCP;

    ds_put_format(ds, "---- %s ----\n", bond->name);
    ds_put_format(ds, "bond_mode: %s\n", bond_mode_to_string(s->mode));
    ds_put_format(ds, "bond may use recirculation: %s, Recirc-ID : %d\n",
                  recirc ? "yes" : "no",
                  recirc ? (int) bond->recirc_id : -1);
    ds_put_format(ds, "bond-hash-basis: %"PRIu32"\n", s->hash_basis);
    ds_put_cstr(ds, "lb_output action: disabled, bond-id: -1\n");
    if (s->mode == BOND_BALANCE_SLB) {
        ds_put_format(ds, "all members active: %s\n",
                      s->all_members_active ? "true" : "false");
    }
    ds_put_format(ds, "updelay: %lld ms\n", s->updelay);
    ds_put_format(ds, "downdelay: %lld ms\n", s->downdelay);
    if (balanced && bond->next_rebalance != LLONG_MAX) {
        ds_put_format(ds, "next rebalance: %lld ms\n",
                      bond->next_rebalance - now);
    }
    ds_put_format(ds, "lacp_status: %s\n",
                  !s->lacp ? "off"
                  : bond->lacp_negotiated ? "negotiated" : "configured");
    ds_put_format(ds, "lacp_fallback_ab: %s\n",
                  s->lacp_fallback_ab ? "true" : "false");
    ds_put_format(ds, "active-backup primary: %s\n",
                  s->primary ? s->primary : "<none>");
    if (bond->active) {
        const uint8_t *ea = bond->active->mac.ea;
        ds_put_format(ds, "active member mac: %02x:%02x:%02x:%02x:%02x:%02x"
                      "(%s)\n", ea[0], ea[1], ea[2], ea[3], ea[4], ea[5],
                      bond->active->name);
    } else {
        ds_put_cstr(ds, "active member mac: 00:00:00:00:00:00(none)\n");
    }
    ds_put_char(ds, '\n');

    struct bond_member **sorted = xmalloc(MAX(bond->n_members, 1)
                                          * sizeof *sorted);
    for (size_t i = 0; i < bond->n_members; i++) {
        sorted[i] = &bond->members[i];
    }
    qsort(sorted, bond->n_members, sizeof *sorted, compare_members_by_name);
    for (size_t i = 0; i < bond->n_members; i++) {
        const struct bond_member *m = sorted[i];

        ds_put_format(ds, "member %s: %s\n", m->name,
                      m->enabled ? "enabled" : "disabled");
        if (m == bond->active) {
            ds_put_cstr(ds, "  active member\n");
        }
        if (m->delay_expires != LLONG_MAX) {
            ds_put_format(ds, "  %s expires in %lld ms\n",
                          m->enabled ? "downdelay" : "updelay",
                          m->delay_expires - now);
        }
        ds_put_format(ds, "  may_enable: %s\n",
                      m->may_enable ? "true" : "false");
        for (int j = 0; balanced && j < BOND_N_BUCKETS; j++) {
            uint64_t kb = bond->bucket_bytes[j] / 1024;

            if (bond->buckets[j] == m && kb) {
                ds_put_format(ds, "  hash %d: %"PRIu64" kB load\n", j, kb);
            }
        }
        ds_put_char(ds, '\n');
    }
    free(sorted);
    pthread_mutex_unlock(&bond->mutex);
}

/* Finds 'port' and its member 'member' for a command, or replies with
 * Open vSwitch's error. */
static bool
bond_lookup_for_command(struct unixctl_conn *conn, const char *port,
                        const char *member, struct bond **bondp,
                        struct bond_member **memberp)
{
    struct bond *bond = bond_find(port);
    if (!bond) {
        unixctl_command_reply_error(conn, "no such bond");
        return false;
    }
    struct bond_member *m = bond_find_member_by_name(bond, member);
    if (!m) {
        unixctl_command_reply_error(conn, "no such member");
        return false;
    }
    *bondp = bond;
    *memberp = m;
    return true;
}

/* bond/list: one line per bond, its mode, recirculation ID and members. */
static void
bond_list_cmd(struct unixctl_conn *conn, int argc DPS_UNUSED,
              const char *argv[] DPS_UNUSED, void *aux DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&ds, "bond\ttype\trecircID\tmembers\n");
    for (size_t i = 0; i < n_all_bonds; i++) {
        struct bond *bond = all_bonds[i];

        pthread_mutex_lock(&bond->mutex);
        ds_put_format(&ds, "%s\t%s\t%"PRIu32"\t", bond->name,
                      bond_mode_to_string(bond->settings.mode),
                      bond->recirc_id);
        for (size_t j = 0; j < bond->n_members; j++) {
            ds_put_format(&ds, "%s%s", j ? ", " : "",
                          bond->members[j].name);
        }
        ds_put_char(&ds, '\n');
        pthread_mutex_unlock(&bond->mutex);
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* bond/show [port]. */
static void
bond_show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux DPS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (argc > 1) {
        struct bond *bond = bond_find(argv[1]);
        if (!bond) {
            unixctl_command_reply_error(conn, "no such bond");
            return;
        }
        bond_show(bond, &ds);
    } else {
        for (size_t i = 0; i < n_all_bonds; i++) {
            bond_show(all_bonds[i], &ds);
        }
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* bond/set-active-member port member. */
static void
bond_set_active_cmd(struct unixctl_conn *conn, int argc DPS_UNUSED,
                    const char *argv[], void *aux DPS_UNUSED)
{
    struct bond *bond;
    struct bond_member *m;

    if (!bond_lookup_for_command(conn, argv[1], argv[2], &bond, &m)) {
        return;
    }
    pthread_mutex_lock(&bond->mutex);
    if (!m->enabled) {
        pthread_mutex_unlock(&bond->mutex);
        unixctl_command_reply_error(conn,
                                    "cannot make disabled member active");
        return;
    }
    bool change = bond->active != m;
    if (change) {
        bond_set_active(bond, m);
    }
    pthread_mutex_unlock(&bond->mutex);
    unixctl_command_reply(conn, change ? "done" : "no change");
}

/* bond/enable-member and bond/disable-member port member ('aux' non-NULL
 * for enable). */
static void
bond_enable_cmd(struct unixctl_conn *conn, int argc DPS_UNUSED,
                const char *argv[], void *aux)
{
    struct bond *bond;
    struct bond_member *m;
    bool enable = aux != NULL;

    if (!bond_lookup_for_command(conn, argv[1], argv[2], &bond, &m)) {
        return;
    }
    pthread_mutex_lock(&bond->mutex);
    bond_enable_member(bond, m, enable);
    pthread_mutex_unlock(&bond->mutex);
    unixctl_command_reply(conn, enable ? "enabled" : "disabled");
}

/* Parses 's' as Open vSwitch's bond commands read a number: digits, or a
 * '-' and digits taken modulo 2**32. */
static bool
bond_parse_u32(const char *s, uint32_t *value)
{
    unsigned int x;
    char extra;

    if (sscanf(s, "%u%c", &x, &extra) != 1) {
        return false;
    }
    *value = x;
    return true;
}

/* bond/hash mac [vlan] [basis]: the balance-slb bucket of an address. */
static void
bond_hash_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux DPS_UNUSED)
{
    struct eth_addr mac;
    uint32_t vlan = 0, basis = 0;

    if (!bond_parse_mac(argv[1], &mac)) {
        unixctl_command_reply_error(conn, "invalid mac");
        return;
    }
    if (argc > 2 && !bond_parse_u32(argv[2], &vlan)) {
        unixctl_command_reply_error(conn, "invalid vlan");
        return;
    }
    if (argc > 3 && !bond_parse_u32(argv[3], &basis)) {
        unixctl_command_reply_error(conn, "invalid basis");
        return;
    }

    char *reply = xasprintf("%"PRIu32,
                            bond_hash_src(&mac, vlan, basis) % BOND_N_BUCKETS);
    unixctl_command_reply(conn, reply);
    free(reply);
}

/* bond/migrate port hash member: gives bucket 'hash' (modulo the number of
 * buckets) of a balanced bond to an enabled member. */
static void
bond_migrate_cmd(struct unixctl_conn *conn, int argc DPS_UNUSED,
                 const char *argv[], void *aux DPS_UNUSED)
{
    struct bond *bond = bond_find(argv[1]);
    const char *error = NULL;

    if (!bond) {
        unixctl_command_reply_error(conn, "no such bond");
        return;
    }
    pthread_mutex_lock(&bond->mutex);
    struct bond_member *m = bond_find_member_by_name(bond, argv[3]);
    size_t digits = strspn(argv[2], "0123456789");
    if (bond->settings.mode == BOND_ACTIVE_BACKUP) {
        error = "not an SLB bond";
    } else if (!argv[2][0] || argv[2][digits]) {
        error = "bad hash";
    } else if (!m) {
        error = "no such member";
    } else if (!m->enabled) {
        error = "cannot migrate to disabled member";
    } else {
        bond->buckets[strtoul(argv[2], NULL, 10) % BOND_N_BUCKETS] = m;
        bond->changed = true;
    }
    pthread_mutex_unlock(&bond->mutex);
    if (error) {
        unixctl_command_reply_error(conn, error);
    } else {
        unixctl_command_reply(conn, "migrated");
    }
}
