/* netdev-offload-dummy: the "dummy" flow API of dummy and dummy-pmd ports.
 *
 * The port plays the NIC: its rules are megaflows (match and mask) with a
 * mark, and its receive function (netdev_dummy_rxq_recv()) calls
 * netdev_offload_dummy_mark() on every burst, which puts the mark of the
 * first matching rule on each packet and, as a NIC does, leaves the
 * packet's header offsets unset.  Marks are stamped in the receiving
 * thread's polling iteration, so once 'flow_del' returns no packet can get
 * the mark, and the datapath's RCU grace period covers those that have it.
 *
 * One mutex per port guards its rules; the receive path takes it only when
 * the port has rules.  This is test equipment, not a fast path.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-offload.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dp-packet.h"
#include "netdev-dummy.h"
#include "netdev-provider.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_offload_dummy);

struct dummy_rule {
    struct dp_ufid ufid;
    uint64_t key[FLOW_N_WORDS];         /* Masked. */
    uint64_t mask[FLOW_N_WORDS];
    uint32_t mark;
    uint64_t n_packets, n_bytes;
};

struct netdev_offload_dummy_port {
    pthread_mutex_t mutex;
    struct dummy_rule *rules;
    size_t n_rules;                     /* Atomic for the receive path. */
    size_t allocated;
};

static int dummy_flow_flush(struct netdev *);

/* Test knobs (lib/netdev-offload.h), atomic. */
static unsigned int mark_delay_us;
static unsigned int put_delay_us;

static void sleep_us(unsigned int usec);

/* Puts the mark of the first matching rule of 'port' (if any) on each
 * packet of 'batch', just received.  Called by the receiving thread. */
void
netdev_offload_dummy_mark(struct netdev_offload_dummy_port *port,
                          struct dp_packet_batch *batch)
{
    bool marked = false;

    if (!port || !__atomic_load_n(&port->n_rules, __ATOMIC_ACQUIRE)) {
        return;
    }

    pthread_mutex_lock(&port->mutex);
    for (size_t i = 0; i < batch->count; i++) {
        struct dp_packet *p = batch->packets[i];
        uint64_t words[FLOW_N_WORDS];
        struct flow flow;

        flow_extract(p, &flow);
        memcpy(words, &flow, sizeof words);
        for (size_t r = 0; r < port->n_rules; r++) {
            struct dummy_rule *rule = &port->rules[r];
            bool match = true;

            for (size_t w = 1; w < FLOW_N_WORDS && match; w++) {
                match = (words[w] & rule->mask[w]) == rule->key[w];
            }
            if (match) {
                dp_packet_set_flow_mark(p, rule->mark);
                marked = true;
                rule->n_packets++;
                rule->n_bytes += dp_packet_size(p);
                break;
            }
        }
        /* As delivered by a device: no header offsets yet. */
        p->md.l2_ofs = p->md.l3_ofs = p->md.l4_ofs = DP_PACKET_OFS_NONE;
        p->md.l4_proto = 0;
        p->md.flags &= ~DP_PACKET_F_FRAG;
    }
    pthread_mutex_unlock(&port->mutex);

    if (marked) {
        sleep_us(__atomic_load_n(&mark_delay_us, __ATOMIC_RELAXED));
    }
}

void
netdev_offload_dummy_set_mark_delay(unsigned int usec)
{
    __atomic_store_n(&mark_delay_us, usec, __ATOMIC_RELAXED);
}

void
netdev_offload_dummy_set_put_delay(unsigned int usec)
{
    __atomic_store_n(&put_delay_us, usec, __ATOMIC_RELAXED);
}

static void
sleep_us(unsigned int usec)
{
    if (usec) {
        struct timespec ts = { .tv_sec = usec / 1000000,
                               .tv_nsec = usec % 1000000 * 1000L };
        nanosleep(&ts, NULL);
    }
}

static struct netdev_offload_dummy_port *
dummy_port(const struct netdev *netdev)
{
    return netdev_dummy_get_offload_port(netdev);
}

static int
dummy_init_flow_api(struct netdev *netdev)
{
    if (!netdev_dummy_offload_allowed(netdev)) {
        return EOPNOTSUPP;
    }
    if (!dummy_port(netdev)) {
        struct netdev_offload_dummy_port *port = xzalloc(sizeof *port);

        pthread_mutex_init(&port->mutex, NULL);
        netdev_dummy_set_offload_port(netdev, port);
    } else {
        dummy_flow_flush(netdev);
    }
    return 0;
}

static void
dummy_uninit_flow_api(struct netdev *netdev)
{
    struct netdev_offload_dummy_port *port = dummy_port(netdev);

    if (port) {
        netdev_dummy_set_offload_port(netdev, NULL);
        pthread_mutex_destroy(&port->mutex);
        free(port->rules);
        free(port);
    }
}

static struct dummy_rule *
find_rule(struct netdev_offload_dummy_port *port, const struct dp_ufid *ufid)
{
    for (size_t i = 0; i < port->n_rules; i++) {
        if (dp_flow_ufid_equal(&port->rules[i].ufid, ufid)) {
            return &port->rules[i];
        }
    }
    return NULL;
}

static int
dummy_flow_put(struct netdev *netdev, const struct netdev_offload_match *m,
               const struct dp_ufid *ufid,
               const struct netdev_offload_info *info)
{
    struct netdev_offload_dummy_port *port = dummy_port(netdev);

    sleep_us(__atomic_load_n(&put_delay_us, __ATOMIC_RELAXED));
    if (!port) {
        return ENODEV;
    }
    if (m->key.recirc_id) {
        VLOG_DBG("%s: not offloaded: recirc_id %"PRIu32" is not matched by "
                 "the device", netdev_get_name(netdev), m->key.recirc_id);
        return EOPNOTSUPP;
    }

    struct dummy_rule r;
    memset(&r, 0, sizeof r);
    r.ufid = *ufid;
    r.mark = info->mark;
    memcpy(r.key, &m->key, sizeof r.key);
    memcpy(r.mask, &m->mask, sizeof r.mask);
    /* The rule is the port's own: in_port and recirc_id (word 0) are not
     * compared. */
    r.key[0] = r.mask[0] = 0;
    for (size_t i = 0; i < FLOW_N_WORDS; i++) {
        r.key[i] &= r.mask[i];
    }

    pthread_mutex_lock(&port->mutex);
    struct dummy_rule *old = find_rule(port, ufid);
    if (old) {
        r.n_packets = old->n_packets;
        r.n_bytes = old->n_bytes;
        *old = r;
    } else {
        if (port->n_rules >= port->allocated) {
            port->allocated = port->allocated ? 2 * port->allocated : 8;
            port->rules = xrealloc(port->rules,
                                   port->allocated * sizeof *port->rules);
        }
        port->rules[port->n_rules] = r;
        __atomic_store_n(&port->n_rules, port->n_rules + 1,
                         __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&port->mutex);
    VLOG_DBG("%s: flow put[%s]: mark %"PRIu32, netdev_get_name(netdev),
             old ? "modify" : "create", info->mark);
    return 0;
}

/* Calls 'cb' on the rule of 'ufid' on 'netdev', with the port's mutex
 * held.  Returns ENODEV without a port, ENOENT without the rule, else 0. */
static int
with_rule(struct netdev *netdev, const struct dp_ufid *ufid,
          void (*cb)(struct netdev_offload_dummy_port *, struct dummy_rule *,
                     void *aux),
          void *aux)
{
    struct netdev_offload_dummy_port *port = dummy_port(netdev);

    if (!port) {
        return ENODEV;
    }
    pthread_mutex_lock(&port->mutex);
    struct dummy_rule *r = find_rule(port, ufid);
    if (r) {
        cb(port, r, aux);
    }
    pthread_mutex_unlock(&port->mutex);
    return r ? 0 : ENOENT;
}

static void
rule_remove(struct netdev_offload_dummy_port *port, struct dummy_rule *r,
            void *aux DPS_UNUSED)
{
    *r = port->rules[port->n_rules - 1];
    __atomic_store_n(&port->n_rules, port->n_rules - 1, __ATOMIC_RELEASE);
}

static int
dummy_flow_del(struct netdev *netdev, const struct dp_ufid *ufid)
{
    return with_rule(netdev, ufid, rule_remove, NULL);
}

static void
rule_get_state(struct netdev_offload_dummy_port *port DPS_UNUSED,
               struct dummy_rule *r, void *state_)
{
    struct netdev_offload_flow_state *state = state_;

    state->offloaded = true;
    state->n_packets = r->n_packets;
    state->n_bytes = r->n_bytes;
}

static int
dummy_flow_get(struct netdev *netdev, const struct dp_ufid *ufid,
               struct netdev_offload_flow_state *state)
{
    return with_rule(netdev, ufid, rule_get_state, state);
}

static int
dummy_flow_flush(struct netdev *netdev)
{
    struct netdev_offload_dummy_port *port = dummy_port(netdev);

    if (port) {
        pthread_mutex_lock(&port->mutex);
        __atomic_store_n(&port->n_rules, 0, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&port->mutex);
    }
    return 0;
}

const struct netdev_flow_api netdev_offload_dummy = {
    .type = "dummy",
    .init_flow_api = dummy_init_flow_api,
    .uninit_flow_api = dummy_uninit_flow_api,
    .flow_put = dummy_flow_put,
    .flow_del = dummy_flow_del,
    .flow_get = dummy_flow_get,
    .flow_flush = dummy_flow_flush,
};
