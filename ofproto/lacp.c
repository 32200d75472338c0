/* LACP.  See lacp.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "lacp.h"
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(lacp);

/* Transmission periods, ms, and the receive timeout in periods. */
#define LACP_FAST_TX 1000
#define LACP_SLOW_TX 30000
#define LACP_RX_MULTIPLIER 3

/* TLV types and lengths. */
#define LACP_TLV_ACTOR 1
#define LACP_TLV_PARTNER 2
#define LACP_TLV_COLLECTOR 3
#define LACP_INFO_TLV_LEN 20
#define LACP_COLLECTOR_TLV_LEN 16

const struct eth_addr lacp_dst = { { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x02 } };

enum lacp_member_status {
    LACP_CURRENT,               /* LACPDUs arrive. */
    LACP_EXPIRED,               /* They stopped, for a short while. */
    LACP_DEFAULTED,             /* No partner. */
};

struct lacp_member {
    char *name;
    uint32_t handle;
    uint16_t port_id;
    uint16_t port_priority;
    uint16_t key;
    enum lacp_member_status status;
    bool carrier;
    bool attached;
    struct lacp_info partner;   /* What the partner last said of itself. */
    struct lacp_info sent;      /* The actor information last sent. */
    bool sent_valid;
    long long int rx_expires;   /* LLONG_MAX: no timer. */
    long long int tx_next;      /* 0: send at once. */

    /* lacp/show-stats. */
    unsigned long long int n_tx, n_rx, n_rx_bad, n_rx_marker;
    unsigned long long int n_expired, n_defaulted, n_carrier_changes;
};

struct lacp {
    pthread_mutex_t mutex;
    char *name;
    struct lacp_settings settings;
    struct lacp_member *members;
    size_t n_members;
    bool negotiated;
    bool update;                /* The attachments need a new look. */
    bool changed;               /* lacp_run() should say so. */
};

/* Every lacp, in creation order (main thread only): for the commands. */
static struct lacp **all_lacps;
static size_t n_all_lacps;

static struct lacp_member *lacp_find(struct lacp *, uint32_t handle);
static void lacp_update_attached(struct lacp *);
static void lacp_set_expired(struct lacp_member *, long long int now);
static void lacp_set_defaulted(struct lacp *, struct lacp_member *);
static void lacp_actor(const struct lacp *, const struct lacp_member *,
                       struct lacp_info *);
static bool lacp_may_enable__(const struct lacp *,
                              const struct lacp_member *);
static bool lacp_may_tx(const struct lacp *, const struct lacp_member *);
static void lacp_show(struct lacp *, struct ds *);
static void lacp_show_stats(struct lacp *, struct ds *);

static void put_be16(uint8_t *p, uint16_t x);
static void put_info(uint8_t *p, uint8_t type, const struct lacp_info *info);
static void get_info(const uint8_t *p, struct lacp_info *info);
static void
lacp_show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux);

/* See lacp.h. */
void
lacp_pdu_encode(const struct lacp_info *actor,
                const struct lacp_info *partner, uint8_t pdu[LACP_PDU_LEN])
{
    memset(pdu, 0, LACP_PDU_LEN);
    pdu[0] = LACP_SUBTYPE;
    pdu[1] = 1;                 /* Version. */
    put_info(&pdu[2], LACP_TLV_ACTOR, actor);
    put_info(&pdu[22], LACP_TLV_PARTNER, partner);
    pdu[42] = LACP_TLV_COLLECTOR;
    pdu[43] = LACP_COLLECTOR_TLV_LEN;
    /* Collector max delay 0; then the terminator TLV (type 0, length 0)
     * and the reserved bytes, all zero. */
}

/* See lacp.h. */
bool
lacp_pdu_decode(const void *pdu_, size_t size, struct lacp_info *actor,
                struct lacp_info *partner)
{
    const uint8_t *pdu = pdu_;

    if (size < 2 + 2 * LACP_INFO_TLV_LEN || pdu[0] != LACP_SUBTYPE
        || pdu[1] < 1
        || pdu[2] != LACP_TLV_ACTOR || pdu[3] != LACP_INFO_TLV_LEN
        || pdu[22] != LACP_TLV_PARTNER || pdu[23] != LACP_INFO_TLV_LEN) {
        return false;
    }
    get_info(&pdu[2], actor);
    get_info(&pdu[22], partner);
    return true;
}

/* See lacp.h. */
void
lacp_frame_compose(const struct eth_addr *src,
                   const uint8_t pdu[LACP_PDU_LEN],
                   uint8_t frame[LACP_FRAME_LEN])
{
    memcpy(frame, lacp_dst.ea, ETH_ADDR_LEN);
    memcpy(&frame[ETH_ADDR_LEN], src->ea, ETH_ADDR_LEN);
    put_be16(&frame[2 * ETH_ADDR_LEN], LACP_ETH_TYPE);
    memcpy(&frame[ETH_HEADER_LEN], pdu, LACP_PDU_LEN);
}

/* Life cycle and configuration. */

/* Creates the LACP of the bond named 'name', with no members.  Main
 * thread. */
struct lacp *
lacp_create(const char *name)
{
    struct lacp *lacp = xzalloc(sizeof *lacp);

    pthread_mutex_init(&lacp->mutex, NULL);
    lacp->name = xstrdup(name);
    lacp->settings.sys_priority = 65534;
    lacp->settings.active = true;
    all_lacps = xrealloc(all_lacps, (n_all_lacps + 1) * sizeof *all_lacps);
    all_lacps[n_all_lacps++] = lacp;
    return lacp;
}

/* Frees 'lacp' (which may be NULL).  Main thread; no other thread may be
 * using it. */
void
lacp_destroy(struct lacp *lacp)
{
    if (!lacp) {
        return;
    }
    for (size_t i = 0; i < n_all_lacps; i++) {
        if (all_lacps[i] == lacp) {
            memmove(&all_lacps[i], &all_lacps[i + 1],
                    (n_all_lacps - i - 1) * sizeof *all_lacps);
            n_all_lacps--;
            break;
        }
    }
    for (size_t i = 0; i < lacp->n_members; i++) {
        free(lacp->members[i].name);
    }
    free(lacp->members);
    pthread_mutex_destroy(&lacp->mutex);
    free(lacp->name);
    free(lacp);
}

/* Applies 's'.  A change of what the actor says is sent at once. */
void
lacp_configure(struct lacp *lacp, const struct lacp_settings *s)
{
    pthread_mutex_lock(&lacp->mutex);
    if (memcmp(&lacp->settings, s, sizeof *s)) {
        if (lacp->settings.fallback_ab != s->fallback_ab) {
            lacp->update = true;
        }
        lacp->settings = *s;
        lacp->changed = true;
    }
    pthread_mutex_unlock(&lacp->mutex);
}

/* Adds member 'handle' with settings 's', or updates it.  A new member of
 * an active bond starts expired, of a passive one defaulted.  The carrier
 * is taken as up until lacp_member_set_carrier() says otherwise. */
void
lacp_member_register(struct lacp *lacp, uint32_t handle,
                     const struct lacp_member_settings *s)
{
    pthread_mutex_lock(&lacp->mutex);
    struct lacp_member *m = lacp_find(lacp, handle);
    if (!m) {
        lacp->members = xrealloc(lacp->members, (lacp->n_members + 1)
                                 * sizeof *lacp->members);
        m = &lacp->members[lacp->n_members++];
        memset(m, 0, sizeof *m);
        m->handle = handle;
        m->name = xstrdup(s->name);
        m->carrier = true;
        m->rx_expires = LLONG_MAX;
        lacp_set_defaulted(lacp, m);
        if (lacp->settings.active) {
            lacp_set_expired(m, time_msec());
        }
    } else if (strcmp(m->name, s->name)) {
        free(m->name);
        m->name = xstrdup(s->name);
    }
    if (m->port_id != s->port_id || m->port_priority != s->port_priority
        || m->key != s->key) {
        m->port_id = s->port_id;
        m->port_priority = s->port_priority;
        m->key = s->key;
        lacp->update = true;
    }
    lacp->changed = true;
    pthread_mutex_unlock(&lacp->mutex);
}

/* Removes member 'handle', if it is one. */
void
lacp_member_unregister(struct lacp *lacp, uint32_t handle)
{
    pthread_mutex_lock(&lacp->mutex);
    struct lacp_member *m = lacp_find(lacp, handle);
    if (m) {
        free(m->name);
        *m = lacp->members[--lacp->n_members];
        lacp->update = true;
        lacp->changed = true;
    }
    pthread_mutex_unlock(&lacp->mutex);
}

/* Tells whether member 'handle''s link is up.  A member without carrier
 * sends nothing and may not be enabled. */
void
lacp_member_set_carrier(struct lacp *lacp, uint32_t handle, bool up)
{
    pthread_mutex_lock(&lacp->mutex);
    struct lacp_member *m = lacp_find(lacp, handle);
    if (m && m->carrier != up) {
        m->carrier = up;
        m->n_carrier_changes++;
        lacp->update = true;
        lacp->changed = true;
    }
    pthread_mutex_unlock(&lacp->mutex);
}

/* Running. */

/* Takes the slow protocols payload 'pdu' ('size' bytes, after the Ethernet
 * header) received on member 'handle' at time 'now'.  Returns true if the
 * caller should run the lacp soon (something changed).  Any thread. */
bool
lacp_process_packet(struct lacp *lacp, uint32_t handle, const void *pdu,
                    size_t size, long long int now)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    struct lacp_info actor, partner;
    bool changed = false;

    pthread_mutex_lock(&lacp->mutex);
    struct lacp_member *m = lacp_find(lacp, handle);
    if (!m) {
        goto out;
    }
    if (size >= 1 && ((const uint8_t *) pdu)[0] == LACP_MARKER_SUBTYPE) {
        /* Open vSwitch 3.1 counts a marker PDU and logs it, and sends no
         * marker response (tests/lacp.at checks that against Debian's). */
        m->n_rx_marker++;
        VLOG_DBG("%s: received a LACP marker PDU.", lacp->name);
        goto out;
    }
    if (!lacp_pdu_decode(pdu, size, &actor, &partner)) {
        VLOG_WARN_RL(&rl, "member %s: received an unparsable LACP PDU",
                     m->name);
        m->n_rx_bad++;
        goto out;
    }
    m->n_rx++;

    long long int period = lacp->settings.fast ? LACP_FAST_TX : LACP_SLOW_TX;
    m->rx_expires = now + LACP_RX_MULTIPLIER * period;
    if (m->status != LACP_CURRENT
        || memcmp(&m->partner, &actor, sizeof actor)) {
        m->status = LACP_CURRENT;
        m->partner = actor;
        lacp->update = true;
        changed = true;
    }

    /* The partner's idea of us must be what we say, or we say it again. */
    struct lacp_info mine;
    lacp_actor(lacp, m, &mine);
    if (memcmp(&mine, &partner, sizeof mine)) {
        m->tx_next = 0;
        changed = true;
    }
    lacp->changed |= changed;

out:
    pthread_mutex_unlock(&lacp->mutex);
    return changed;
}

/* Runs the timers at 'now', attaches members and sends the LACPDUs due
 * through 'send' (called with the lacp's mutex held: it must not call back
 * in).  Returns true if lacp_negotiated() or lacp_member_may_enable() may
 * have changed since the last call.  Main thread. */
bool
lacp_run(struct lacp *lacp, long long int now, lacp_send_cb *send,
         void *aux)
{
    pthread_mutex_lock(&lacp->mutex);
    for (size_t i = 0; i < lacp->n_members; i++) {
        struct lacp_member *m = &lacp->members[i];

        if (now >= m->rx_expires) {
            if (m->status == LACP_CURRENT) {
                lacp_set_expired(m, now);
                m->n_expired++;
                VLOG_INFO("member %s: LACP link expired", m->name);
            } else if (m->status == LACP_EXPIRED) {
                lacp_set_defaulted(lacp, m);
                m->n_defaulted++;
                VLOG_INFO("member %s: LACP link defaulted", m->name);
            }
            lacp->update = true;
        }
    }
    if (lacp->update) {
        bool was = lacp->negotiated;

        lacp_update_attached(lacp);
        if (was != lacp->negotiated) {
            VLOG_INFO("bond %s: LACP %s", lacp->name,
                      lacp->negotiated ? "negotiated" : "not negotiated");
        }
        lacp->changed = true;
    }

    for (size_t i = 0; i < lacp->n_members; i++) {
        struct lacp_member *m = &lacp->members[i];
        struct lacp_info actor;

        if (!lacp_may_tx(lacp, m)) {
            continue;
        }
        lacp_actor(lacp, m, &actor);
        if (now >= m->tx_next || !m->sent_valid
            || memcmp(&actor, &m->sent, sizeof actor)) {
            uint8_t pdu[LACP_PDU_LEN];

            lacp_pdu_encode(&actor, &m->partner, pdu);
            send(aux, m->handle, pdu);
            m->n_tx++;
            m->sent = actor;
            m->sent_valid = true;
            m->tx_next = now + (m->partner.state & LACP_STATE_TIMEOUT
                                ? LACP_FAST_TX : LACP_SLOW_TX);
        }
    }
    bool changed = lacp->changed;
    lacp->changed = false;
    pthread_mutex_unlock(&lacp->mutex);
    return changed;
}

/* When lacp_run() next has a timer to serve, or LLONG_MAX. */
long long int
lacp_next_wakeup(struct lacp *lacp)
{
    long long int when = LLONG_MAX;

    pthread_mutex_lock(&lacp->mutex);
    for (size_t i = 0; i < lacp->n_members; i++) {
        const struct lacp_member *m = &lacp->members[i];

        when = MIN(when, m->rx_expires);
        if (lacp_may_tx(lacp, m)) {
            when = MIN(when, m->tx_next);
        }
    }
    if (lacp->update || lacp->changed) {
        when = 0;
    }
    pthread_mutex_unlock(&lacp->mutex);
    return when;
}

/* True if some member is attached to a partner. */
bool
lacp_negotiated(struct lacp *lacp)
{
    pthread_mutex_lock(&lacp->mutex);
    bool negotiated = lacp->negotiated;
    pthread_mutex_unlock(&lacp->mutex);
    return negotiated;
}

/* True if member 'handle' hears its partner (status "current"), for
 * Interface:lacp_current. */
bool
lacp_member_is_current(struct lacp *lacp, uint32_t handle)
{
    pthread_mutex_lock(&lacp->mutex);
    const struct lacp_member *m = lacp_find(lacp, handle);
    bool current = m && m->status == LACP_CURRENT;
    pthread_mutex_unlock(&lacp->mutex);
    return current;
}

/* True if member 'handle' may carry traffic as far as LACP is concerned. */
bool
lacp_member_may_enable(struct lacp *lacp, uint32_t handle)
{
    pthread_mutex_lock(&lacp->mutex);
    const struct lacp_member *m = lacp_find(lacp, handle);
    bool may = m && lacp_may_enable__(lacp, m);
    pthread_mutex_unlock(&lacp->mutex);
    return may;
}

/* Registers lacp/show and lacp/show-stats.  Main thread, once. */
void
lacp_register_commands(void)
{
    unixctl_command_register("lacp/show", "[port]", 0, 1, lacp_show_cmd,
                             NULL);
    unixctl_command_register("lacp/show-stats", "[port]", 0, 1,
                             lacp_show_cmd, (void *) "stats");
}

/* Codec. */

static void
put_be16(uint8_t *p, uint16_t x)
{
    p[0] = x >> 8;
    p[1] = x & 0xff;
}

static uint16_t
get_be16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

static void
put_info(uint8_t *p, uint8_t type, const struct lacp_info *info)
{
    p[0] = type;
    p[1] = LACP_INFO_TLV_LEN;
    put_be16(&p[2], info->sys_priority);
    memcpy(&p[4], info->sys_id.ea, ETH_ADDR_LEN);
    put_be16(&p[10], info->key);
    put_be16(&p[12], info->port_priority);
    put_be16(&p[14], info->port_id);
    p[16] = info->state;
    /* p[17..19] reserved, zero. */
}

static void
get_info(const uint8_t *p, struct lacp_info *info)
{
    info->sys_priority = get_be16(&p[2]);
    memcpy(info->sys_id.ea, &p[4], ETH_ADDR_LEN);
    info->key = get_be16(&p[10]);
    info->port_priority = get_be16(&p[12]);
    info->port_id = get_be16(&p[14]);
    info->state = p[16];
}

static struct lacp *
lacp_find_by_name(const char *name)
{
    for (size_t i = 0; i < n_all_lacps; i++) {
        if (!strcmp(all_lacps[i]->name, name)) {
            return all_lacps[i];
        }
    }
    return NULL;
}

/* lacp/show [PORT] and lacp/show-stats [PORT] ('aux' non-NULL). */
static void
lacp_show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux)
{
    void (*show)(struct lacp *, struct ds *) = (aux ? lacp_show_stats
                                                : lacp_show);
    struct ds ds = DS_EMPTY_INITIALIZER;

    if (argc > 1) {
        struct lacp *lacp = lacp_find_by_name(argv[1]);
        if (!lacp) {
            unixctl_command_reply_error(conn, "no such lacp object");
            return;
        }
        show(lacp, &ds);
    } else {
        for (size_t i = 0; i < n_all_lacps; i++) {
            show(all_lacps[i], &ds);
        }
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

/* Helpers. */

static struct lacp_member *
lacp_find(struct lacp *lacp, uint32_t handle)
{
    for (size_t i = 0; i < lacp->n_members; i++) {
        if (lacp->members[i].handle == handle) {
            return &lacp->members[i];
        }
    }
    return NULL;
}

/* The partner stopped talking: assume it times out fast and is out of
 * sync, and give it one more short timeout. */
static void
lacp_set_expired(struct lacp_member *m, long long int now)
{
    m->status = LACP_EXPIRED;
    m->partner.state |= LACP_STATE_TIMEOUT;
    m->partner.state &= ~LACP_STATE_SYNC;
    m->rx_expires = now + LACP_RX_MULTIPLIER * LACP_FAST_TX;
}

static void
lacp_set_defaulted(struct lacp *lacp, struct lacp_member *m)
{
    memset(&m->partner, 0, sizeof m->partner);
    m->status = LACP_DEFAULTED;
    m->rx_expires = LLONG_MAX;
    lacp->update = true;
}

/* Compares the priorities of two members' partners, as 802.1AX selects
 * an aggregator: system priority, system ID, port priority, port number,
 * the lower the better. */
static int
lacp_compare_partners(const struct lacp_member *a,
                      const struct lacp_member *b)
{
    const struct lacp_info *x = &a->partner, *y = &b->partner;
    int cmp;

    if (x->sys_priority != y->sys_priority) {
        return x->sys_priority < y->sys_priority ? -1 : 1;
    }
    cmp = memcmp(&x->sys_id, &y->sys_id, sizeof x->sys_id);
    if (cmp) {
        return cmp;
    }
    if (x->port_priority != y->port_priority) {
        return x->port_priority < y->port_priority ? -1 : 1;
    }
    return x->port_id < y->port_id ? -1 : x->port_id > y->port_id;
}

static bool
eth_addr_equal(const struct eth_addr *a, const struct eth_addr *b)
{
    return !memcmp(a, b, sizeof *a);
}

/* Chooses the lead member, the one whose partner ranks best among those
 * that may carry traffic (or, failing any, among the others), and
 * attaches every member whose partner is the lead's system with the lead's
 * key.  A member that hears its own system is connected to itself and is
 * never attached. */
static void
lacp_update_attached(struct lacp *lacp)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 10);
    struct lacp_member *lead = NULL;
    bool lead_enable = false;

    lacp->update = false;
    for (size_t i = 0; i < lacp->n_members; i++) {
        struct lacp_member *m = &lacp->members[i];

        m->attached = false;
        if (m->status != LACP_DEFAULTED
            && eth_addr_equal(&m->partner.sys_id, &lacp->settings.sys_id)) {
            VLOG_WARN_RL(&rl, "member %s: Loopback detected. Interface is "
                         "connected to its own bond", m->name);
            continue;
        }
        if (m->status == LACP_DEFAULTED) {
            m->attached = lacp->settings.fallback_ab;
            continue;
        }
        m->attached = true;

        bool enable = lacp_may_enable__(lacp, m);
        if (!lead || (enable && !lead_enable)
            || (enable == lead_enable && lacp_compare_partners(m, lead) < 0)) {
            lead = m;
            lead_enable = enable;
        }
    }

    lacp->negotiated = lead != NULL;
    for (size_t i = 0; lead && i < lacp->n_members; i++) {
        struct lacp_member *m = &lacp->members[i];

        if (m->status == LACP_DEFAULTED
            || m->partner.key != lead->partner.key
            || !eth_addr_equal(&m->partner.sys_id, &lead->partner.sys_id)) {
            /* Fallback does not apply once a partner is there. */
            m->attached = false;
        }
    }
}

/* The aggregation key every member says: that of the member with the
 * lowest port number among those with lacp-aggregation-key, else the
 * lowest port number. */
static uint16_t
lacp_key(const struct lacp *lacp)
{
    const struct lacp_member *keyed = NULL, *lowest = NULL;

    for (size_t i = 0; i < lacp->n_members; i++) {
        const struct lacp_member *m = &lacp->members[i];

        if (m->key && (!keyed || m->port_id < keyed->port_id)) {
            keyed = m;
        }
        if (!lowest || m->port_id < lowest->port_id) {
            lowest = m;
        }
    }
    return keyed ? keyed->key : lowest ? lowest->port_id : 0;
}

/* What member 'm' says of itself. */
static void
lacp_actor(const struct lacp *lacp, const struct lacp_member *m,
           struct lacp_info *actor)
{
    uint8_t state = 0;

    if (lacp->settings.active) {
        state |= LACP_STATE_ACTIVITY;
    }
    if (lacp->settings.fast) {
        state |= LACP_STATE_TIMEOUT;
    }
    if (m->attached) {
        state |= LACP_STATE_SYNC;
    }
    if (m->status == LACP_DEFAULTED) {
        state |= LACP_STATE_DEFAULTED;
    }
    if (m->status == LACP_EXPIRED) {
        state |= LACP_STATE_EXPIRED;
    }
    if (lacp->n_members > 1) {
        state |= LACP_STATE_AGGREGATION;
    }
    /* Open vSwitch collects and distributes on an attached member, and on
     * every member while nothing is negotiated. */
    if (m->attached || !lacp->negotiated) {
        state |= LACP_STATE_COLLECTING | LACP_STATE_DISTRIBUTING;
    }

    memset(actor, 0, sizeof *actor);
    actor->sys_priority = lacp->settings.sys_priority;
    actor->sys_id = lacp->settings.sys_id;
    actor->key = lacp_key(lacp);
    actor->port_priority = m->port_priority;
    actor->port_id = m->port_id;
    actor->state = state;
}

static bool
lacp_may_enable__(const struct lacp *lacp, const struct lacp_member *m)
{
    return m->carrier && m->attached
           && ((m->partner.state & LACP_STATE_SYNC)
               || (lacp->settings.fallback_ab
                   && m->status == LACP_DEFAULTED));
}

static bool
lacp_may_tx(const struct lacp *lacp, const struct lacp_member *m)
{
    return m->carrier && (lacp->settings.active
                          || m->status != LACP_DEFAULTED);
}

/* Showing. */

static void
put_mac(struct ds *ds, const struct eth_addr *mac)
{
    const uint8_t *ea = mac->ea;

    ds_put_format(ds, "%02x:%02x:%02x:%02x:%02x:%02x",
                  ea[0], ea[1], ea[2], ea[3], ea[4], ea[5]);
}

static void
put_state(struct ds *ds, uint8_t state)
{
    static const char *const names[] = {
        "activity", "timeout", "aggregation", "synchronized", "collecting",
        "distributing", "defaulted", "expired",
    };

    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        if (state & (1u << i)) {
            ds_put_format(ds, " %s", names[i]);
        }
    }
}

static void
put_info_lines(struct ds *ds, const char *who, const struct lacp_info *info)
{
    ds_put_format(ds, "  %s sys_id: ", who);
    put_mac(ds, &info->sys_id);
    ds_put_format(ds, "\n  %s sys_priority: %u\n", who, info->sys_priority);
    ds_put_format(ds, "  %s port_id: %u\n", who, info->port_id);
    ds_put_format(ds, "  %s port_priority: %u\n", who, info->port_priority);
    ds_put_format(ds, "  %s key: %u\n", who, info->key);
    ds_put_format(ds, "  %s state:", who);
    put_state(ds, info->state);
    ds_put_char(ds, '\n');
}

static int
compare_members_by_name(const void *a_, const void *b_)
{
    const struct lacp_member *const *a = a_;
    const struct lacp_member *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

/* 'lacp''s members sorted by name, in a new array. */
static struct lacp_member **
lacp_sorted_members(struct lacp *lacp)
{
    struct lacp_member **sorted = xmalloc(MAX(lacp->n_members, 1)
                                          * sizeof *sorted);

    for (size_t i = 0; i < lacp->n_members; i++) {
        sorted[i] = &lacp->members[i];
    }
    qsort(sorted, lacp->n_members, sizeof *sorted, compare_members_by_name);
    return sorted;
}

/* lacp/show's text for 'lacp', in Open vSwitch 3.1's layout. */
static void
lacp_show(struct lacp *lacp, struct ds *ds)
{
    static const char *const statuses[] = {
        [LACP_CURRENT] = "current",
        [LACP_EXPIRED] = "expired",
        [LACP_DEFAULTED] = "defaulted",
    };

    pthread_mutex_lock(&lacp->mutex);
    const struct lacp_settings *s = &lacp->settings;
    ds_put_format(ds, "---- %s ----\n", lacp->name);
    ds_put_format(ds, "  status: %s%s\n", s->active ? "active" : "passive",
                  lacp->negotiated ? " negotiated" : "");
    ds_put_cstr(ds, "  sys_id: ");
    put_mac(ds, &s->sys_id);
    ds_put_format(ds, "\n  sys_priority: %u\n", s->sys_priority);
    ds_put_format(ds, "  aggregation key: %u\n", lacp_key(lacp));
    ds_put_format(ds, "  lacp_time: %s\n", s->fast ? "fast" : "slow");

    struct lacp_member **sorted = lacp_sorted_members(lacp);
    for (size_t i = 0; i < lacp->n_members; i++) {
        const struct lacp_member *m = sorted[i];
        struct lacp_info actor;

        ds_put_format(ds, "\nmember: %s: %s %s\n", m->name,
                      statuses[m->status],
                      m->attached ? "attached" : "detached");
        ds_put_format(ds, "  port_id: %u\n", m->port_id);
        ds_put_format(ds, "  port_priority: %u\n", m->port_priority);
        ds_put_format(ds, "  may_enable: %s\n",
                      lacp_may_enable__(lacp, m) ? "true" : "false");
        ds_put_char(ds, '\n');
        lacp_actor(lacp, m, &actor);
        put_info_lines(ds, "actor", &actor);
        ds_put_char(ds, '\n');
        put_info_lines(ds, "partner", &m->partner);
    }
    free(sorted);
    pthread_mutex_unlock(&lacp->mutex);
}

/* lacp/show-stats's text for 'lacp', in Open vSwitch 3.1's layout. */
static void
lacp_show_stats(struct lacp *lacp, struct ds *ds)
{
    pthread_mutex_lock(&lacp->mutex);
    ds_put_format(ds, "---- %s statistics ----\n", lacp->name);

    struct lacp_member **sorted = lacp_sorted_members(lacp);
    for (size_t i = 0; i < lacp->n_members; i++) {
        const struct lacp_member *m = sorted[i];

        ds_put_format(ds, "\nmember: %s:\n", m->name);
        ds_put_format(ds, "  TX PDUs: %llu\n", m->n_tx);
        ds_put_format(ds, "  RX PDUs: %llu\n", m->n_rx);
        ds_put_format(ds, "  RX Bad PDUs: %llu\n", m->n_rx_bad);
        ds_put_format(ds, "  RX Marker Request PDUs: %llu\n",
                      m->n_rx_marker);
        ds_put_format(ds, "  Link Expired: %llu\n", m->n_expired);
        ds_put_format(ds, "  Link Defaulted: %llu\n", m->n_defaulted);
        ds_put_format(ds, "  Carrier Status Changed: %llu\n",
                      m->n_carrier_changes);
    }
    free(sorted);
    pthread_mutex_unlock(&lacp->mutex);
}
