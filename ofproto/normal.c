/* NORMAL switching.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "normal.h"
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bond.h"
#include "dynamic-string.h"
#include "util.h"

#define NORMAL_VLAN_BITMAP_SIZE ((NORMAL_MAX_VLAN + 1) / 8)

struct normal_port {
    uint32_t ofport;
    uint32_t dp_port;
    enum normal_vlan_mode vlan_mode;
    uint16_t tag;
    bool all_trunks;                    /* 'trunks' was empty. */
    enum normal_priority_tags priority_tags;
    struct bond *bond;                  /* NULL if not a bond. */
    bool mirror_output;
    uint8_t trunks[NORMAL_VLAN_BITMAP_SIZE];
};

struct normal_bridge {
    pthread_mutex_t mutex;
    struct normal_port *ports;          /* In flood order. */
    size_t n_ports;
    size_t *by_dp_port;                 /* Indexes into 'ports', sorted. */
    size_t *by_ofport;                  /* Indexes into 'ports', sorted. */
    uint8_t flood_vlans[NORMAL_VLAN_BITMAP_SIZE];
    bool forward_bpdu;
    struct mac_learning *ml;
    uint64_t config_seqno;
};

/* The input port of packets from no port (NORMAL_DP_PORT_NONE). */
static const struct normal_port normal_none_port = {
    .ofport = 0xffff,
    .dp_port = NORMAL_DP_PORT_NONE,
    .vlan_mode = NORMAL_VLAN_TRUNK,
    .all_trunks = true,
};

/* The outer tag as normal_xlate() sees it. */
struct normal_vlan_state {
    bool tagged;
    dps_be16 tci;                       /* With VLAN_CFI if tagged. */
};

static void normal_flood(const struct normal_bridge *,
                         const struct normal_port *in, uint16_t vlan,
                         const struct flow *, struct normal_xlate_out *);
static void normal_output(const struct normal_port *, uint16_t vlan,
                          const struct flow *, struct normal_vlan_state *,
                          struct normal_xlate_out *);
static dps_be16 normal_port_tci(const struct normal_port *, uint16_t vlan,
                                const struct flow *, bool *pcp_read);
static bool normal_vlan_state_is(const struct normal_vlan_state *,
                                 dps_be16 tci);
static bool normal_input_vlan(const struct normal_port *, const struct flow *,
                              struct flow *mask, uint16_t *vlan);
static bool normal_port_carries(const struct normal_port *, uint16_t vlan);
static bool normal_bond_refuses(struct normal_bridge *,
                                const struct normal_port *in, uint16_t vlan,
                                const struct flow *, struct flow *mask);
static const struct normal_port *normal_find_by_dp_port(
    const struct normal_bridge *, uint32_t dp_port);
static const struct normal_port *normal_find_by_ofport(
    const struct normal_bridge *, uint32_t ofport);
static const struct normal_port *normal_find(const struct normal_bridge *,
                                             const size_t *index,
                                             bool by_dp_port, uint32_t key);
static void normal_sort_index(struct normal_bridge *, size_t *index,
                              bool by_dp_port);
static bool normal_port_vlans_equal(const struct normal_port *,
                                    const struct normal_port *);
static bool bitmap_get(const uint8_t *, uint16_t);
static void bitmap_set(uint8_t *, uint16_t);

/* Creates a bridge with no ports and a MAC table with default settings. */
struct normal_bridge *
normal_bridge_create(void)
{
    struct normal_bridge *nb = xzalloc(sizeof *nb);

    pthread_mutex_init(&nb->mutex, NULL);
    nb->ml = mac_learning_create(0, 0);
    return nb;
}

/* Frees 'nb' (which may be NULL). */
void
normal_bridge_destroy(struct normal_bridge *nb)
{
    if (nb) {
        mac_learning_destroy(nb->ml);
        free(nb->ports);
        free(nb->by_dp_port);
        free(nb->by_ofport);
        pthread_mutex_destroy(&nb->mutex);
        free(nb);
    }
}

/* Replaces the bridge's configuration with 'cfg'.  An access port's trunks
 * are ignored.  MAC entries learned on a port that is gone, or whose VLAN
 * settings or datapath port changed, are flushed.  Returns 0, or EINVAL
 * (and changes nothing) if two ports share an OpenFlow or datapath port
 * number, an OpenFlow port number is MAC_LEARNING_PORT_NONE, a mode is not
 * one of the enums' values, or a tag, trunk or flood VLAN is over
 * NORMAL_MAX_VLAN. */
int
normal_bridge_reconfigure(struct normal_bridge *nb,
                          const struct normal_bridge_config *cfg)
{
    struct normal_port *ports = xcalloc(MAX(cfg->n_ports, 1), sizeof *ports);

    for (size_t i = 0; i < cfg->n_ports; i++) {
        const struct normal_port_config *pc = &cfg->ports[i];
        struct normal_port *p = &ports[i];

        if (pc->tag > NORMAL_MAX_VLAN
            || pc->ofport == MAC_LEARNING_PORT_NONE
            || pc->vlan_mode > NORMAL_VLAN_NATIVE_UNTAGGED
            || pc->priority_tags > NORMAL_PRIORITY_TAGS_ALWAYS) {
            goto error;
        }
        for (size_t j = 0; j < i; j++) {
            if (ports[j].ofport == pc->ofport
                || ports[j].dp_port == pc->dp_port) {
                goto error;
            }
        }
        p->ofport = pc->ofport;
        p->dp_port = pc->dp_port;
        p->vlan_mode = pc->vlan_mode;
        p->tag = pc->vlan_mode == NORMAL_VLAN_TRUNK ? 0 : pc->tag;
        p->priority_tags = pc->priority_tags;
        p->bond = pc->bond;
        p->mirror_output = pc->mirror_output;
        p->all_trunks = (pc->vlan_mode != NORMAL_VLAN_ACCESS
                         && !pc->n_trunks);
        if (pc->vlan_mode != NORMAL_VLAN_ACCESS) {
            for (size_t j = 0; j < pc->n_trunks; j++) {
                if (pc->trunks[j] > NORMAL_MAX_VLAN) {
                    goto error;
                }
                bitmap_set(p->trunks, pc->trunks[j]);
            }
        }
    }

    uint8_t flood_vlans[NORMAL_VLAN_BITMAP_SIZE] = { 0 };
    for (size_t i = 0; i < cfg->n_flood_vlans; i++) {
        if (cfg->flood_vlans[i] > NORMAL_MAX_VLAN) {
            goto error;
        }
        bitmap_set(flood_vlans, cfg->flood_vlans[i]);
    }

    pthread_mutex_lock(&nb->mutex);
    for (size_t i = 0; i < nb->n_ports; i++) {
        const struct normal_port *old = &nb->ports[i];
        const struct normal_port *new = NULL;

        for (size_t j = 0; j < cfg->n_ports; j++) {
            if (ports[j].ofport == old->ofport) {
                new = &ports[j];
                break;
            }
        }
        if (!new || new->dp_port != old->dp_port || new->bond != old->bond
            || !normal_port_vlans_equal(old, new)) {
            mac_learning_flush_port(nb->ml, old->ofport);
        }
    }
    free(nb->ports);
    nb->ports = ports;
    nb->n_ports = cfg->n_ports;
    free(nb->by_dp_port);
    free(nb->by_ofport);
    nb->by_dp_port = xcalloc(MAX(nb->n_ports, 1), sizeof *nb->by_dp_port);
    nb->by_ofport = xcalloc(MAX(nb->n_ports, 1), sizeof *nb->by_ofport);
    normal_sort_index(nb, nb->by_dp_port, true);
    normal_sort_index(nb, nb->by_ofport, false);
    memcpy(nb->flood_vlans, flood_vlans, sizeof flood_vlans);
    nb->forward_bpdu = cfg->forward_bpdu;
    mac_learning_set_idle_time(nb->ml, cfg->mac_aging_time);
    mac_learning_set_max_entries(nb->ml, cfg->mac_table_size);
    nb->config_seqno++;
    pthread_mutex_unlock(&nb->mutex);
    return 0;

error:
    free(ports);
    return EINVAL;
}

/* Returns a number that increases whenever a decision normal_xlate() made
 * before may now be different: after reconfiguration and every MAC table
 * change.  Megaflows installed under an older value need revalidation. */
uint64_t
normal_bridge_seqno(struct normal_bridge *nb)
{
    pthread_mutex_lock(&nb->mutex);
    uint64_t seqno = nb->config_seqno + mac_learning_seqno(nb->ml);
    pthread_mutex_unlock(&nb->mutex);
    return seqno;
}

/* Sets the MAC table's change callback (see mac-learning.h); it is called
 * with the bridge's mutex held. */
void
normal_bridge_set_change_cb(struct normal_bridge *nb,
                            mac_learning_change_cb *cb, void *aux)
{
    pthread_mutex_lock(&nb->mutex);
    mac_learning_set_change_cb(nb->ml, cb, aux);
    pthread_mutex_unlock(&nb->mutex);
}

/* Initialises 'out' for normal_xlate(); it may be reused for several
 * calls. */
void
normal_xlate_out_init(struct normal_xlate_out *out)
{
    memset(out, 0, sizeof *out);
    dp_actions_init(&out->actions);
}

/* Frees what 'out' owns. */
void
normal_xlate_out_destroy(struct normal_xlate_out *out)
{
    dp_actions_destroy(&out->actions);
}

/* Decides what bridge 'nb' does with a packet whose flow key is 'flow', at
 * time 'now' (milliseconds), learning its source as a side effect.  Stores
 * the actions, the megaflow mask and the reason in 'out' (initialised with
 * normal_xlate_out_init()). */
void
normal_xlate(struct normal_bridge *nb, const struct flow *flow,
             long long now, struct normal_xlate_out *out)
{
    struct flow *mask = &out->mask;

    dp_actions_clear(&out->actions);
    memset(mask, 0, sizeof *mask);
    out->vlan = -1;
    out->learn = MAC_LEARNING_REFUSED;

    /* What every datapath flow matches, whatever the decision. */
    mask->in_port = UINT32_MAX;
    mask->recirc_id = UINT32_MAX;
    mask->dl_type = UINT16_MAX;
    mask->vlan_tci[0] = htons(VLAN_CFI);
    if (flow->dl_type == htons(ETH_TYPE_IP)
        || flow->dl_type == htons(ETH_TYPE_IPV6)) {
        /* Open vSwitch's datapath flows always say whether an IP packet
         * is a fragment ("ipv4(frag=no)"). */
        mask->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    }

    pthread_mutex_lock(&nb->mutex);

    const struct normal_port *in = (flow->in_port == NORMAL_DP_PORT_NONE
                                    ? &normal_none_port
                                    : normal_find_by_dp_port(nb,
                                                             flow->in_port));
    if (!in) {
        out->reason = NORMAL_DROP_NO_PORT;
        goto out;
    }
    if (in->mirror_output) {
        out->reason = NORMAL_DROP_MIRROR_INPUT;
        goto out;
    }

    uint16_t vlan = 0;
    if (!normal_input_vlan(in, flow, mask, &vlan)) {
        out->reason = NORMAL_DROP_VLAN;
        out->in_vlan = vlan;
        out->access_vlan = in->vlan_mode == NORMAL_VLAN_ACCESS ? in->tag : -1;
        goto out;
    }
    out->vlan = vlan;

    memset(&mask->dl_dst, 0xff, sizeof mask->dl_dst);
    if (!nb->forward_bpdu && normal_is_reserved(&flow->dl_dst)) {
        out->reason = NORMAL_DROP_RESERVED;
        goto out;
    }
    if (in->bond && normal_bond_refuses(nb, in, vlan, flow, mask)) {
        out->reason = NORMAL_DROP_BOND;
        goto out;
    }

    if (bitmap_get(nb->flood_vlans, vlan)) {
        out->reason = NORMAL_FLOOD_VLAN;
        normal_flood(nb, in, vlan, flow, out);
        goto out;
    }

    /* A learning VLAN: the flow must match the source, so that packets from
     * a source not yet learned here (or moved here) come to us. */
    memset(&mask->dl_src, 0xff, sizeof mask->dl_src);
    if (in != &normal_none_port && !out->peek) {
        out->learn = mac_learning_learn(nb->ml, vlan, &flow->dl_src,
                                        in->ofport, now);
    }

    if (flow->dl_dst.ea[0] & 1) {
        out->reason = NORMAL_FLOOD_MULTICAST;
        normal_flood(nb, in, vlan, flow, out);
        goto out;
    }

    uint32_t ofport = mac_learning_lookup(nb->ml, vlan, &flow->dl_dst);
    if (ofport == in->ofport) {
        out->reason = NORMAL_DROP_SAME_PORT;
        goto out;
    }

    const struct normal_port *dst = (ofport == MAC_LEARNING_PORT_NONE ? NULL
                                     : normal_find_by_ofport(nb, ofport));
    if (dst && dst->mirror_output) {
        out->reason = NORMAL_DROP_MIRROR_LEARNED;
    } else if (dst && normal_port_carries(dst, vlan)) {
        struct normal_vlan_state state = {
            .tagged = (flow->vlan_tci[0] & htons(VLAN_CFI)) != 0,
            .tci = flow->vlan_tci[0],
        };

        out->reason = NORMAL_FORWARD;
        normal_output(dst, vlan, flow, &state, out);
    } else {
        out->reason = NORMAL_FLOOD_UNKNOWN;
        normal_flood(nb, in, vlan, flow, out);
    }

out:
    pthread_mutex_unlock(&nb->mutex);
}

/* Returns a short English text for 'reason'. */
const char *
normal_reason_to_string(enum normal_reason reason)
{
    switch (reason) {
#define NORMAL_REASON(ENUM, TEXT) case NORMAL_##ENUM: return TEXT;
        NORMAL_REASONS
#undef NORMAL_REASON
    }
    return "unknown";
}

/* Finds the VLAN that port 'dp_port' of 'nb' gives a packet whose outer
 * tag is 'tci' (with VLAN_CFI if present; 0 for none), as NORMAL's input
 * does, into '*vlan'.  Returns false if the bridge has no such port or
 * the port does not carry that VLAN. */
bool
normal_port_vlan(struct normal_bridge *nb, uint32_t dp_port, dps_be16 tci,
                 uint16_t *vlan)
{
    struct flow flow, mask;

    memset(&flow, 0, sizeof flow);
    flow.vlan_tci[0] = tci;
    pthread_mutex_lock(&nb->mutex);
    const struct normal_port *p = normal_find_by_dp_port(nb, dp_port);
    bool ok = p && normal_input_vlan(p, &flow, &mask, vlan);
    pthread_mutex_unlock(&nb->mutex);
    return ok;
}

/* Stores in '*out_tci' the outer tag (with VLAN_CFI; 0 for none) with which
 * port 'dp_port' of 'nb' sends a packet of 'vlan' with key 'flow' whose
 * outer tag is now 'tci' (the source of the priority), as NORMAL's output
 * does, and in '*out_port' the datapath port it goes out of ('dp_port', or
 * the member its bond picks; what the pick read goes into 'mask').
 * Returns false if the bridge has no such port or its bond no member to
 * send on. */
bool
normal_port_encode(struct normal_bridge *nb, uint32_t dp_port, uint16_t vlan,
                   const struct flow *flow, dps_be16 tci, struct flow *mask,
                   dps_be16 *out_tci, uint32_t *out_port)
{
    struct flow now = *flow;
    bool pcp_read;

    now.vlan_tci[0] = tci;
    pthread_mutex_lock(&nb->mutex);
    const struct normal_port *p = normal_find_by_dp_port(nb, dp_port);
    bool ok = p != NULL;
    if (p) {
        *out_tci = normal_port_tci(p, vlan, &now, &pcp_read);
        *out_port = p->dp_port;
        if (p->bond) {
            *out_port = bond_choose_output(p->bond, &now, vlan, mask,
                                           NULL);
            ok = *out_port != BOND_NO_MEMBER;
        }
    }
    pthread_mutex_unlock(&nb->mutex);
    return ok;
}

/* Returns true if port 'dp_port' of 'nb' carries packets of 'vlan'. */
bool
normal_port_carries_vlan(struct normal_bridge *nb, uint32_t dp_port,
                         uint16_t vlan)
{
    pthread_mutex_lock(&nb->mutex);
    const struct normal_port *p = normal_find_by_dp_port(nb, dp_port);
    bool carries = p && vlan <= NORMAL_MAX_VLAN && normal_port_carries(p,
                                                                        vlan);
    pthread_mutex_unlock(&nb->mutex);
    return carries;
}

/* Returns true if 'ea' is one of the control-protocol destinations that
 * other_config:forward-bpdu governs (ovs-vswitchd.conf.db(5)):
 * 01:80:c2:00:00:0x (IEEE 802.1 reserved), 00:e0:2b:00:00:00/04/06
 * (Extreme EDP, EAPS), 01:00:0c:cc:cc:cc and ..:cd, 01:00:0c:cd:cd:cd,
 * 01:00:0c:00:00:00, 01:00:0c:cc:cc:cx (Cisco). */
bool
normal_is_reserved(const struct eth_addr *mac)
{
    static const uint8_t ieee[5] = { 0x01, 0x80, 0xc2, 0x00, 0x00 };
    static const uint8_t extreme[5] = { 0x00, 0xe0, 0x2b, 0x00, 0x00 };
    static const uint8_t cisco[3] = { 0x01, 0x00, 0x0c };
    const uint8_t *ea = mac->ea;

    if (!memcmp(ea, ieee, 5)) {
        return ea[5] <= 0x0f;
    }
    if (!memcmp(ea, extreme, 5)) {
        return ea[5] == 0x00 || ea[5] == 0x04 || ea[5] == 0x06;
    }
    if (!memcmp(ea, cisco, 3)) {
        uint32_t low = ((uint32_t) ea[3] << 16) | (ea[4] << 8) | ea[5];

        return (low == 0xcdcdcd || low == 0x000000
                || (low & 0xfffff0) == 0xccccc0);
    }
    return false;
}

/* Expires MAC entries idle at time 'now'.  The daemon calls it from its
 * main loop, and wakes for normal_next_wakeup(). */
void
normal_run(struct normal_bridge *nb, long long now)
{
    pthread_mutex_lock(&nb->mutex);
    mac_learning_run(nb->ml, now);
    pthread_mutex_unlock(&nb->mutex);
}

/* Returns when (milliseconds) normal_run() next has work, or LLONG_MAX. */
long long
normal_next_wakeup(struct normal_bridge *nb)
{
    pthread_mutex_lock(&nb->mutex);
    long long when = mac_learning_next_expiry(nb->ml);
    pthread_mutex_unlock(&nb->mutex);
    return when;
}

/* Appends to 'ds' the reply of "ovs-appctl fdb/show BRIDGE" at time 'now',
 * in Open vSwitch 3.1's layout: a header line, then one line per entry
 * with the OpenFlow port number (or "LOCAL"), the VLAN, the address and
 * the age in seconds ("static" for static entries), least recently seen
 * first. */
void
normal_fdb_show(struct normal_bridge *nb, long long now, struct ds *ds)
{
    struct mac_learning_entry *entries;

    pthread_mutex_lock(&nb->mutex);
    size_t n = mac_learning_get_entries(nb->ml, now, &entries);
    pthread_mutex_unlock(&nb->mutex);

    ds_put_cstr(ds, " port  VLAN  MAC                Age\n");
    for (size_t i = 0; i < n; i++) {
        const struct mac_learning_entry *e = &entries[i];
        const uint8_t *ea = e->mac.ea;
        char port[16];

        if (e->port == NORMAL_OFPORT_LOCAL) {
            snprintf(port, sizeof port, "LOCAL");
        } else {
            snprintf(port, sizeof port, "%"PRIu32, e->port);
        }
        ds_put_format(ds, "%5s  %4d  %02x:%02x:%02x:%02x:%02x:%02x  ",
                      port, e->vlan, ea[0], ea[1], ea[2], ea[3], ea[4],
                      ea[5]);
        if (e->is_static) {
            ds_put_cstr(ds, "static\n");
        } else {
            ds_put_format(ds, "%3u\n", e->age);
        }
    }
    free(entries);
}

/* Empties the bridge's MAC table, static entries too ("fdb/flush"; the
 * reply is NORMAL_FDB_FLUSH_REPLY). */
void
normal_fdb_flush(struct normal_bridge *nb)
{
    pthread_mutex_lock(&nb->mutex);
    mac_learning_flush(nb->ml);
    pthread_mutex_unlock(&nb->mutex);
}

/* Stores in '*entries' (which the caller frees) the MAC table's entries at
 * time 'now', least recently seen first, and returns how many there are
 * (for a bond's learning packets). */
size_t
normal_fdb_get_entries(struct normal_bridge *nb, long long now,
                       struct mac_learning_entry **entries)
{
    pthread_mutex_lock(&nb->mutex);
    size_t n = mac_learning_get_entries(nb->ml, now, entries);
    pthread_mutex_unlock(&nb->mutex);
    return n;
}

/* Adds a static entry ("fdb/add"): 'mac' in 'vlan' on OpenFlow port
 * 'ofport'.  Returns 0, ENOENT if the bridge has no such port, EINVAL for
 * a VLAN over NORMAL_MAX_VLAN or a multicast address, ENOSPC if the table
 * is full of static entries. */
int
normal_fdb_add(struct normal_bridge *nb, uint32_t ofport, uint16_t vlan,
               const struct eth_addr *mac)
{
    int error;

    if (vlan > NORMAL_MAX_VLAN) {
        return EINVAL;
    }
    pthread_mutex_lock(&nb->mutex);
    error = (normal_find_by_ofport(nb, ofport)
             ? mac_learning_add_static(nb->ml, vlan, mac, ofport)
             : ENOENT);
    pthread_mutex_unlock(&nb->mutex);
    return error;
}

/* Deletes the entry for 'mac' in 'vlan' ("fdb/del").  Returns true if there
 * was one. */
bool
normal_fdb_del(struct normal_bridge *nb, uint16_t vlan,
               const struct eth_addr *mac)
{
    pthread_mutex_lock(&nb->mutex);
    bool found = mac_learning_delete(nb->ml, vlan, mac);
    pthread_mutex_unlock(&nb->mutex);
    return found;
}

/* Stores the MAC table's counters, current size and capacity (for
 * "fdb/stats-show"). */
void
normal_fdb_get_stats(struct normal_bridge *nb,
                     struct mac_learning_stats *stats, size_t *n_entries,
                     size_t *max_entries)
{
    pthread_mutex_lock(&nb->mutex);
    mac_learning_get_stats(nb->ml, stats);
    *n_entries = mac_learning_count(nb->ml);
    *max_entries = mac_learning_get_max_entries(nb->ml);
    pthread_mutex_unlock(&nb->mutex);
}

/* Zeroes the MAC table's counters ("fdb/stats-clear"). */
void
normal_fdb_clear_stats(struct normal_bridge *nb)
{
    pthread_mutex_lock(&nb->mutex);
    mac_learning_clear_stats(nb->ml);
    pthread_mutex_unlock(&nb->mutex);
}

/* Sets the VLAN fields of 'pc' (vlan_mode, tag, trunks, priority_tags)
 * from a Port row's columns: 'vlan_mode' (NULL if empty), 'tag' (NULL if
 * empty), the 'n_trunks' values of 'trunks', and other_config:priority-tags
 * 'priority_tags' (NULL if absent).  'pc->trunks' will point into
 * 'trunks_buf', which must have room for 'n_trunks' values and live as long
 * as 'pc'.  Leaves the port numbers alone.
 *
 * Returns NULL if the columns were used as they are, otherwise a message
 * (which the caller frees) for the log and Interface:error saying what was
 * ignored or replaced: a tag or trunks that the mode does not use, values
 * out of range, an unsupported mode (treated as access, the closest) or an
 * unknown priority-tags value (treated as "never").  In every case 'pc'
 * ends up usable. */
char *
normal_port_config_from_db(struct normal_port_config *pc,
                           const char *vlan_mode, const int64_t *tag,
                           const int64_t *trunks, size_t n_trunks,
                           uint16_t *trunks_buf, const char *priority_tags)
{
    struct ds msg = DS_EMPTY_INITIALIZER;
    bool has_tag = tag && *tag >= 0 && *tag <= NORMAL_MAX_VLAN;

    if (tag && !has_tag) {
        ds_put_format(&msg, "tag %lld is not a VLAN (0 to 4095), ignored; ",
                      (long long) *tag);
    }
    if (!normal_vlan_mode_from_string(vlan_mode, has_tag, &pc->vlan_mode)) {
        ds_put_format(&msg, "vlan_mode %s is not supported, the port is an "
                      "access port; ", vlan_mode);
        pc->vlan_mode = NORMAL_VLAN_ACCESS;
    }

    pc->tag = 0;
    if (pc->vlan_mode == NORMAL_VLAN_TRUNK) {
        if (has_tag) {
            ds_put_cstr(&msg, "a trunk port has no tag, tag ignored; ");
        }
    } else if (has_tag) {
        pc->tag = *tag;
    }

    pc->trunks = trunks_buf;
    pc->n_trunks = 0;
    if (pc->vlan_mode == NORMAL_VLAN_ACCESS) {
        if (n_trunks) {
            ds_put_cstr(&msg, "an access port carries only its tag, trunks "
                        "ignored; ");
        }
    } else {
        for (size_t i = 0; i < n_trunks; i++) {
            if (trunks[i] >= 0 && trunks[i] <= NORMAL_MAX_VLAN) {
                trunks_buf[pc->n_trunks++] = trunks[i];
            } else {
                ds_put_format(&msg, "trunk %lld is not a VLAN, ignored; ",
                              (long long) trunks[i]);
            }
        }
    }

    if (!normal_priority_tags_from_string(priority_tags,
                                          &pc->priority_tags)) {
        ds_put_format(&msg, "other_config:priority-tags %s is not never, "
                      "if-nonzero or always, using never; ", priority_tags);
        pc->priority_tags = NORMAL_PRIORITY_TAGS_NEVER;
    }

    if (!msg.length) {
        return NULL;
    }
    ds_truncate(&msg, msg.length - 2);
    return ds_steal_cstr(&msg);
}

/* Parses Port vlan_mode 's' into '*mode'.  NULL or empty selects the
 * default: access if the port has a tag ('has_tag'), otherwise trunk.
 * Returns false for anything else, including "dot1q-tunnel", which is not
 * supported yet. */
bool
normal_vlan_mode_from_string(const char *s, bool has_tag,
                             enum normal_vlan_mode *mode)
{
    if (!s || !*s) {
        *mode = has_tag ? NORMAL_VLAN_ACCESS : NORMAL_VLAN_TRUNK;
    } else if (!strcmp(s, "access")) {
        *mode = NORMAL_VLAN_ACCESS;
    } else if (!strcmp(s, "trunk")) {
        *mode = NORMAL_VLAN_TRUNK;
    } else if (!strcmp(s, "native-tagged")) {
        *mode = NORMAL_VLAN_NATIVE_TAGGED;
    } else if (!strcmp(s, "native-untagged")) {
        *mode = NORMAL_VLAN_NATIVE_UNTAGGED;
    } else {
        return false;
    }
    return true;
}

/* Parses Port other_config:priority-tags 's' ("never", "if-nonzero",
 * "always"; NULL or empty means "never") into '*pt'.  Open vSwitch also
 * reads "false" and "true" as "never" and "if-nonzero" (the key was
 * boolean before). */
bool
normal_priority_tags_from_string(const char *s, enum normal_priority_tags *pt)
{
    if (!s || !*s || !strcmp(s, "never") || !strcmp(s, "false")) {
        *pt = NORMAL_PRIORITY_TAGS_NEVER;
    } else if (!strcmp(s, "if-nonzero") || !strcmp(s, "true")) {
        *pt = NORMAL_PRIORITY_TAGS_IF_NONZERO;
    } else if (!strcmp(s, "always")) {
        *pt = NORMAL_PRIORITY_TAGS_ALWAYS;
    } else {
        return false;
    }
    return true;
}

/* Outputs to every port but 'in' that carries 'vlan', in flood order (the
 * order of the bridge's ports, as Open vSwitch does), changing the outer
 * tag between outputs as each port needs. */
static void
normal_flood(const struct normal_bridge *nb, const struct normal_port *in,
             uint16_t vlan, const struct flow *flow,
             struct normal_xlate_out *out)
{
    struct normal_vlan_state state = {
        .tagged = (flow->vlan_tci[0] & htons(VLAN_CFI)) != 0,
        .tci = flow->vlan_tci[0],
    };

    for (size_t i = 0; i < nb->n_ports; i++) {
        const struct normal_port *p = &nb->ports[i];

        if (p != in && !p->mirror_output && normal_port_carries(p, vlan)) {
            normal_output(p, vlan, flow, &state, out);
        }
    }
}

/* Appends the VLAN actions that make the packet, now in 'state', look as
 * 'port' sends packets of 'vlan', then the output to 'port'. */
static void
normal_output(const struct normal_port *port, uint16_t vlan,
              const struct flow *flow, struct normal_vlan_state *state,
              struct normal_xlate_out *out)
{
    bool in_tagged = (flow->vlan_tci[0] & htons(VLAN_CFI)) != 0;
    uint32_t dp_port = port->dp_port;
    bool pcp_read;

    if (port->bond) {
        dp_port = bond_choose_output(port->bond, flow, vlan, &out->mask,
                                     &out->bonds);
        if (dp_port == BOND_NO_MEMBER) {
            return;
        }
    }

    dps_be16 tci = normal_port_tci(port, vlan, flow, &pcp_read);

    if (!normal_vlan_state_is(state, tci)) {
        if (state->tagged) {
            dp_actions_put_pop_vlan(&out->actions);
        }
        if (tci) {
            dp_actions_put_push_vlan(&out->actions, htons(ETH_TYPE_VLAN),
                                     tci);
            pcp_read |= in_tagged;
        }
        state->tagged = tci != 0;
        state->tci = tci;
    }
    if (pcp_read) {
        out->mask.vlan_tci[0] |= htons(VLAN_PCP_MASK);
    }
    dp_actions_put_output(&out->actions, dp_port);
}

/* Returns the outer tag (with VLAN_CFI) with which 'port' sends a packet
 * of 'vlan' received with key 'flow', or 0 for none.  Sets '*pcp_read' if
 * the answer depended on the received priority. */
static dps_be16
normal_port_tci(const struct normal_port *port, uint16_t vlan,
                const struct flow *flow, bool *pcp_read)
{
    dps_be16 in_tci = flow->vlan_tci[0];
    bool in_tagged = (in_tci & htons(VLAN_CFI)) != 0;
    uint16_t pcp = in_tagged ? ntohs(in_tci) & VLAN_PCP_MASK : 0;
    uint16_t vid;

    *pcp_read = false;
    if (port->vlan_mode == NORMAL_VLAN_ACCESS
        || (port->vlan_mode == NORMAL_VLAN_NATIVE_UNTAGGED
            && vlan == port->tag)) {
        vid = 0;
    } else {
        vid = vlan;
    }

    bool tagged;
    if (vid) {
        tagged = true;
    } else if (port->priority_tags == NORMAL_PRIORITY_TAGS_ALWAYS) {
        tagged = true;
    } else if (port->priority_tags == NORMAL_PRIORITY_TAGS_IF_NONZERO) {
        tagged = pcp != 0;
        *pcp_read = in_tagged;
    } else {
        tagged = false;
    }
    return tagged ? htons(vid | pcp | VLAN_CFI) : 0;
}

/* Returns true if the packet in 'state' has outer tag 'tci' (0: none). */
static bool
normal_vlan_state_is(const struct normal_vlan_state *state, dps_be16 tci)
{
    const dps_be16 mask = htons(VLAN_VID_MASK | VLAN_PCP_MASK | VLAN_CFI);

    return (tci ? state->tagged && (state->tci & mask) == (tci & mask)
            : !state->tagged);
}

/* Finds the VLAN of a packet with key 'flow' received on 'in'; adds the
 * bits it reads to 'mask'.  Returns false if 'in' does not accept it. */
static bool
normal_input_vlan(const struct normal_port *in, const struct flow *flow,
                  struct flow *mask, uint16_t *vlan)
{
    uint16_t tci = ntohs(flow->vlan_tci[0]);
    uint16_t vid = tci & VLAN_VID_MASK;

    *vlan = 0;
    if (tci & VLAN_CFI) {
        /* As Open vSwitch: a tagged frame's flow matches its whole outer
         * tag, TPID and TCI. */
        mask->vlan_tpid[0] = htons(UINT16_MAX);
        mask->vlan_tci[0] = htons(UINT16_MAX);
    } else {
        vid = 0;
    }

    switch (in->vlan_mode) {
    case NORMAL_VLAN_ACCESS:
        if (vid) {
            return false;
        }
        *vlan = in->tag;
        return true;
    case NORMAL_VLAN_TRUNK:
        *vlan = vid;
        break;
    case NORMAL_VLAN_NATIVE_TAGGED:
    case NORMAL_VLAN_NATIVE_UNTAGGED:
        *vlan = vid ? vid : in->tag;
        break;
    }
    return normal_port_carries(in, *vlan);
}

/* Returns true if 'port' carries packets of 'vlan'. */
static bool
normal_port_carries(const struct normal_port *port, uint16_t vlan)
{
    switch (port->vlan_mode) {
    case NORMAL_VLAN_ACCESS:
        return vlan == port->tag;
    case NORMAL_VLAN_NATIVE_TAGGED:
    case NORMAL_VLAN_NATIVE_UNTAGGED:
        if (vlan == port->tag) {
            return true;
        }
        if (!vlan) {
            /* As Open vSwitch: a native port of a VLAN other than 0 never
             * trunks VLAN 0, whatever its trunks say. */
            return false;
        }
        /* Fall through. */
    case NORMAL_VLAN_TRUNK:
        return port->all_trunks || bitmap_get(port->trunks, vlan);
    }
    return false;
}

/* Whether 'in''s bond refuses a packet with key 'flow' in 'vlan' (see
 * bond_admit()); adds what it read to 'mask'.  A balance-slb bond refuses
 * a source learned on another port, unless the packet is a gratuitous ARP
 * (the host moved). */
static bool
normal_bond_refuses(struct normal_bridge *nb, const struct normal_port *in,
                    uint16_t vlan, const struct flow *flow, struct flow *mask)
{
    enum bond_verdict verdict = bond_admit(in->bond, flow->in_port, flow);

    if (verdict != BOND_DROP_IF_MOVED) {
        return verdict == BOND_DROP;
    }

    memset(&mask->dl_src, 0xff, sizeof mask->dl_src);
    uint32_t learned = mac_learning_lookup(nb->ml, vlan, &flow->dl_src);
    if (learned == MAC_LEARNING_PORT_NONE || learned == in->ofport) {
        return false;
    }

    static const struct eth_addr bcast = { { 0xff, 0xff, 0xff, 0xff, 0xff,
                                             0xff } };
    if (flow->dl_type != htons(ETH_TYPE_ARP)
        || memcmp(&flow->dl_dst, &bcast, sizeof bcast)) {
        return true;
    }
    mask->arp_op = htons(UINT16_MAX);
    if (flow->arp_op == htons(ARP_OP_REPLY)) {
        return false;
    }
    mask->nw_src = mask->nw_dst = htonl(UINT32_MAX);
    return !(flow->arp_op == htons(ARP_OP_REQUEST)
             && flow->nw_src == flow->nw_dst);
}

/* Finds the port that receives on datapath port 'dp_port': its own, or a
 * member of its bond. */
static const struct normal_port *
normal_find_by_dp_port(const struct normal_bridge *nb, uint32_t dp_port)
{
    const struct normal_port *port = normal_find(nb, nb->by_dp_port, true,
                                                 dp_port);
    for (size_t i = 0; !port && i < nb->n_ports; i++) {
        if (nb->ports[i].bond && bond_has_member(nb->ports[i].bond,
                                                 dp_port)) {
            port = &nb->ports[i];
        }
    }
    return port;
}

static const struct normal_port *
normal_find_by_ofport(const struct normal_bridge *nb, uint32_t ofport)
{
    return normal_find(nb, nb->by_ofport, false, ofport);
}

/* Binary search of 'index' (sorted by datapath port number if
 * 'by_dp_port', else by OpenFlow port number) for 'key'. */
static const struct normal_port *
normal_find(const struct normal_bridge *nb, const size_t *index,
            bool by_dp_port, uint32_t key)
{
    size_t lo = 0, hi = nb->n_ports;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct normal_port *p = &nb->ports[index[mid]];
        uint32_t value = by_dp_port ? p->dp_port : p->ofport;

        if (value == key) {
            return p;
        } else if (value < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

/* Fills 'index' with 0...n_ports-1 sorted by datapath or OpenFlow port
 * number (an insertion sort: reconfiguration is rare and ports few). */
static void
normal_sort_index(struct normal_bridge *nb, size_t *index, bool by_dp_port)
{
    for (size_t i = 0; i < nb->n_ports; i++) {
        const struct normal_port *p = &nb->ports[i];
        uint32_t key = by_dp_port ? p->dp_port : p->ofport;
        size_t j = i;

        while (j > 0) {
            const struct normal_port *q = &nb->ports[index[j - 1]];

            if ((by_dp_port ? q->dp_port : q->ofport) < key) {
                break;
            }
            index[j] = index[j - 1];
            j--;
        }
        index[j] = i;
    }
}

static bool
normal_port_vlans_equal(const struct normal_port *a,
                        const struct normal_port *b)
{
    return (a->vlan_mode == b->vlan_mode && a->tag == b->tag
            && a->all_trunks == b->all_trunks
            && !memcmp(a->trunks, b->trunks, sizeof a->trunks));
}

static bool
bitmap_get(const uint8_t *bitmap, uint16_t vlan)
{
    return (bitmap[vlan / 8] >> (vlan % 8)) & 1;
}

static void
bitmap_set(uint8_t *bitmap, uint16_t vlan)
{
    bitmap[vlan / 8] |= 1u << (vlan % 8);
}
