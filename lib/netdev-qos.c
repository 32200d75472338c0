/* netdev-qos: egress and ingress policers on rte_meter.  See netdev-qos.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "netdev-qos.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <rte_cycles.h>
#include <rte_meter.h>
#include <rte_spinlock.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "packets.h"
#include "smap.h"
#include "util.h"

/* The egress QoS types, in the order qos/show-types lists them. */
enum qos_type {
    QOS_EGRESS_POLICER,
    QOS_TRTCM_POLICER,
};

static const char *const qos_type_names[] = {
    [QOS_EGRESS_POLICER] = "egress-policer",
    [QOS_TRTCM_POLICER] = "trtcm-policer",
};

/* The four parameters a QoS or Queue row's other_config may give. */
struct qos_params {
    uint64_t cir, cbs, eir, ebs;
};

/* One queue of a trtcm-policer, with Open vSwitch's per-queue counters:
 * packets and bytes its meter passed, packets it marked red. */
struct qos_queue {
    uint32_t queue_id;
    struct qos_params params;
    struct rte_meter_trtcm_rfc4115_profile profile;
    struct rte_meter_trtcm_rfc4115 meter;
    uint64_t tx_packets, tx_bytes, tx_errors;
};

/* One egress configuration, replaced whole. */
struct qos_egress {
    enum qos_type type;
    struct qos_params params;

    /* egress-policer. */
    struct rte_meter_srtcm_profile sr_profile;
    struct rte_meter_srtcm sr_meter;

    /* trtcm-policer: the port's meter and the queues, by queue_id. */
    struct rte_meter_trtcm_rfc4115_profile tr_profile;
    struct rte_meter_trtcm_rfc4115 tr_meter;
    struct qos_queue *queues;
    size_t n_queues;
};

/* A single-rate meter with no excess bucket: a token bucket. */
struct qos_bucket {
    struct rte_meter_srtcm_profile profile;
    struct rte_meter_srtcm meter;
};

/* One ingress configuration, replaced whole.  The packet meter counts one
 * "byte" per packet. */
struct qos_ingress {
    uint32_t kbits_rate, kbits_burst, kpkts_rate, kpkts_burst;
    struct qos_bucket *bytes;           /* NULL if kbits_rate is 0. */
    struct qos_bucket *packets;         /* NULL if kpkts_rate is 0. */
};

struct netdev_qos {
    struct netdev_qos_flags flags;      /* First: see netdev-qos.h. */

    rte_spinlock_t egress_lock;         /* Guards 'egress' and its meters. */
    struct qos_egress *egress;
    rte_spinlock_t ingress_lock;        /* Guards 'ingress' and meters. */
    struct qos_ingress *ingress;

    uint64_t tx_drops;                  /* Atomic: ovs_tx_qos_drops. */
    uint64_t rx_drops;                  /* Atomic: ovs_rx_qos_drops. */
};

/* Default bursts when the Interface gives 0, as Open vSwitch documents. */
#define QOS_DEFAULT_KBITS_BURST 8000
#define QOS_DEFAULT_KPKTS_BURST 16

static int qos_params_parse(const struct smap *, bool with_excess,
                            struct qos_params *);
static bool qos_params_equal(const struct qos_params *,
                             const struct qos_params *);
static struct qos_egress *qos_egress_create(enum qos_type,
                                            const struct qos_params *,
                                            const struct netdev_qos_queue *,
                                            size_t n_queues, int *errorp);
static void qos_egress_destroy(struct qos_egress *);
static bool qos_egress_same(const struct qos_egress *, enum qos_type,
                            const struct qos_params *,
                            const struct netdev_qos_queue *, size_t n);
static int qos_queue_init(struct qos_queue *, uint32_t queue_id,
                          const struct qos_params *);
static const struct qos_queue *qos_find_queue(const struct qos_egress *,
                                              uint32_t queue_id);
static int compare_queues(const void *a_, const void *b_);
static void qos_format_params(const struct qos_params *, bool with_excess,
                              const char *indent, struct ds *);
static struct qos_bucket *qos_bucket_create(uint64_t rate, uint64_t burst,
                                            int *errorp);
static inline uint32_t qos_packet_size(const struct dp_packet *);
static size_t qos_batch_filter(struct dp_packet_batch *, const bool *pass,
                               uint64_t *n_drops);

/* Returns a netdev's QoS state, with nothing configured. */
struct netdev_qos *
netdev_qos_create(void)
{
    struct netdev_qos *qos = xzalloc(sizeof *qos);

    rte_spinlock_init(&qos->egress_lock);
    rte_spinlock_init(&qos->ingress_lock);
    return qos;
}

/* Frees 'qos' (NULL is allowed).  No thread may run its policers. */
void
netdev_qos_destroy(struct netdev_qos *qos)
{
    if (qos) {
        qos_egress_destroy(qos->egress);
        if (qos->ingress) {
            free(qos->ingress->bytes);
            free(qos->ingress->packets);
            free(qos->ingress);
        }
        free(qos);
    }
}

/* Appends "QoS type: TYPE\n" for each egress QoS type, as Open vSwitch's
 * qos/show-types prints them. */
void
netdev_qos_format_types(struct ds *ds)
{
    for (size_t i = 0; i < ARRAY_SIZE(qos_type_names); i++) {
        ds_put_format(ds, "QoS type: %s\n", qos_type_names[i]);
    }
}

/* True if 'type' names an egress QoS type of this module. */
bool
netdev_qos_is_type(const char *type)
{
    for (size_t i = 0; i < ARRAY_SIZE(qos_type_names); i++) {
        if (!strcmp(type, qos_type_names[i])) {
            return true;
        }
    }
    return false;
}

/* Sets the egress QoS of 'qos': 'type' ("" or NULL: none) with the QoS
 * row's other_config 'details' and the 'n_queues' Queue rows 'queues' (for
 * trtcm-policer; queue 0 is added with the port's values if absent).  A
 * configuration equal to the one running is left alone, meters and
 * counters included.  Returns 0, EOPNOTSUPP for an unknown type or EINVAL
 * for values rte_meter refuses (or that are not decimal integers); on
 * error the port is left without egress QoS, as in Open vSwitch. */
int
netdev_qos_set(struct netdev_qos *qos, const char *type,
               const struct smap *details,
               const struct netdev_qos_queue *queues, size_t n_queues)
{
    struct qos_egress *new = NULL;
    struct qos_params params;
    enum qos_type t = QOS_EGRESS_POLICER;
    int error = 0;

    if (type && type[0]) {
        if (!strcmp(type, qos_type_names[QOS_EGRESS_POLICER])) {
            t = QOS_EGRESS_POLICER;
        } else if (!strcmp(type, qos_type_names[QOS_TRTCM_POLICER])) {
            t = QOS_TRTCM_POLICER;
        } else {
            error = EOPNOTSUPP;
        }
        if (!error) {
            error = qos_params_parse(details, t == QOS_TRTCM_POLICER,
                                     &params);
        }
        if (!error) {
            if (qos->egress && qos_egress_same(qos->egress, t, &params,
                                               queues, n_queues)) {
                return 0;
            }
            new = qos_egress_create(t, &params, queues, n_queues, &error);
        }
    }
    if (!new && !qos->egress) {
        return error;
    }

    rte_spinlock_lock(&qos->egress_lock);
    struct qos_egress *old = qos->egress;
    qos->egress = new;
    __atomic_store_n(&qos->flags.egress_on, new != NULL, __ATOMIC_RELAXED);
    rte_spinlock_unlock(&qos->egress_lock);

    qos_egress_destroy(old);
    return error;
}

/* Appends what Open vSwitch's qos/show prints for a configured port to
 * 'ds': "QoS: IFACE TYPE", the parameters, then for a trtcm-policer each
 * queue with its parameters and counters; or "QoS not configured on
 * IFACE". */
void
netdev_qos_format(const struct netdev_qos *qos_, const char *iface_name,
                  struct ds *ds)
{
    struct netdev_qos *qos = (struct netdev_qos *) qos_;

    if (!qos) {
        ds_put_format(ds, "QoS not configured on %s\n", iface_name);
        return;
    }

    rte_spinlock_lock(&qos->egress_lock);
    const struct qos_egress *eg = qos->egress;
    if (!eg) {
        ds_put_format(ds, "QoS not configured on %s\n", iface_name);
    } else {
        bool trtcm = eg->type == QOS_TRTCM_POLICER;

        ds_put_format(ds, "QoS: %s %s\n", iface_name,
                      qos_type_names[eg->type]);
        qos_format_params(&eg->params, trtcm, "", ds);
        for (size_t i = 0; i < eg->n_queues; i++) {
            const struct qos_queue *q = &eg->queues[i];

            if (q->queue_id) {
                ds_put_format(ds, "\nQueue %"PRIu32":\n", q->queue_id);
            } else {
                ds_put_cstr(ds, "\nDefault:\n");
            }
            qos_format_params(&q->params, true, "  ", ds);
            ds_put_format(ds, "  tx_packets: %"PRIu64"\n"
                          "  tx_bytes: %"PRIu64"\n"
                          "  tx_errors: %"PRIu64"\n",
                          q->tx_packets, q->tx_bytes, q->tx_errors);
        }
    }
    rte_spinlock_unlock(&qos->egress_lock);
}

/* Sets the ingress policer of 'qos' from Interface:ingress_policing_rate
 * (kbit/s), _burst (kbit), _kpkts_rate (kpkts/s) and _kpkts_burst (kpkts);
 * a rate of 0 turns its meter off, a burst of 0 takes the default.  An
 * unchanged setting keeps its meters.  Returns 0 or EINVAL (values
 * rte_meter refuses), in which case ingress policing is off. */
int
netdev_qos_set_policing(struct netdev_qos *qos, uint32_t kbits_rate,
                        uint32_t kbits_burst, uint32_t kpkts_rate,
                        uint32_t kpkts_burst)
{
    struct qos_ingress *new = NULL;
    int error = 0;

    kbits_burst = (!kbits_rate ? 0
                   : kbits_burst ? kbits_burst : QOS_DEFAULT_KBITS_BURST);
    kpkts_burst = (!kpkts_rate ? 0
                   : kpkts_burst ? kpkts_burst : QOS_DEFAULT_KPKTS_BURST);

    const struct qos_ingress *cur = qos->ingress;
    if (cur && cur->kbits_rate == kbits_rate
        && cur->kbits_burst == kbits_burst && cur->kpkts_rate == kpkts_rate
        && cur->kpkts_burst == kpkts_burst) {
        return 0;
    }

    if (kbits_rate || kpkts_rate) {
        new = xzalloc(sizeof *new);
        new->kbits_rate = kbits_rate;
        new->kbits_burst = kbits_burst;
        new->kpkts_rate = kpkts_rate;
        new->kpkts_burst = kpkts_burst;
        if (kbits_rate) {
            /* rte_meter counts bytes: kbit is 1000 bits. */
            new->bytes = qos_bucket_create(kbits_rate * 1000ULL / 8,
                                           kbits_burst * 1000ULL / 8,
                                           &error);
        }
        if (kpkts_rate && !error) {
            new->packets = qos_bucket_create(kpkts_rate * 1000ULL,
                                             kpkts_burst * 1000ULL, &error);
        }
        if (error) {
            free(new->bytes);
            free(new->packets);
            free(new);
            new = NULL;
        }
    }
    if (!new && !qos->ingress) {
        return error;
    }

    rte_spinlock_lock(&qos->ingress_lock);
    struct qos_ingress *old = qos->ingress;
    qos->ingress = new;
    __atomic_store_n(&qos->flags.ingress_on, new != NULL, __ATOMIC_RELAXED);
    rte_spinlock_unlock(&qos->ingress_lock);

    if (old) {
        free(old->bytes);
        free(old->packets);
        free(old);
    }
    return error;
}

/* Runs the egress policer of 'qos' on 'batch': frees the packets it drops,
 * keeps the others in order, counts the drops (ovs_tx_qos_drops) and
 * returns their number.  Any thread. */
size_t
netdev_qos_egress(struct netdev_qos *qos, struct dp_packet_batch *batch)
{
    bool pass[DP_PACKET_BATCH_SIZE];
    uint64_t now = rte_rdtsc();
    size_t n = batch->count;

    rte_spinlock_lock(&qos->egress_lock);
    struct qos_egress *eg = qos->egress;
    if (!eg) {
        rte_spinlock_unlock(&qos->egress_lock);
        return 0;
    }
    if (eg->type == QOS_EGRESS_POLICER) {
        for (size_t i = 0; i < n; i++) {
            uint32_t size = qos_packet_size(batch->packets[i]);

            pass[i] = (rte_meter_srtcm_color_blind_check(&eg->sr_meter,
                                                         &eg->sr_profile,
                                                         now, size)
                       == RTE_COLOR_GREEN);
        }
    } else {
        /* Every packet goes to the default queue: the datapath has no
         * set_queue action yet to pick another. */
        struct qos_queue *q = &eg->queues[0];

        for (size_t i = 0; i < n; i++) {
            uint32_t size = qos_packet_size(batch->packets[i]);
            enum rte_color color;

            color = rte_meter_trtcm_rfc4115_color_blind_check(
                &q->meter, &q->profile, now, size);
            if (color == RTE_COLOR_RED) {
                q->tx_errors++;
            } else {
                q->tx_packets++;
                q->tx_bytes += size;
            }
            color = rte_meter_trtcm_rfc4115_color_aware_check(
                &eg->tr_meter, &eg->tr_profile, now, size, color);
            pass[i] = color != RTE_COLOR_RED;
        }
    }
    rte_spinlock_unlock(&qos->egress_lock);

    return qos_batch_filter(batch, pass, &qos->tx_drops);
}

/* Runs the ingress policer of 'qos' on 'batch', as netdev_qos_egress()
 * does, counting the drops in ovs_rx_qos_drops.  Any thread. */
size_t
netdev_qos_ingress(struct netdev_qos *qos, struct dp_packet_batch *batch)
{
    bool pass[DP_PACKET_BATCH_SIZE];
    uint64_t now = rte_rdtsc();
    size_t n = batch->count;

    rte_spinlock_lock(&qos->ingress_lock);
    struct qos_ingress *in = qos->ingress;
    if (!in) {
        rte_spinlock_unlock(&qos->ingress_lock);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        bool ok = true;

        if (in->packets) {
            ok = (rte_meter_srtcm_color_blind_check(&in->packets->meter,
                                                    &in->packets->profile,
                                                    now, 1)
                  == RTE_COLOR_GREEN);
        }
        if (ok && in->bytes) {
            uint32_t size = qos_packet_size(batch->packets[i]);

            ok = (rte_meter_srtcm_color_blind_check(&in->bytes->meter,
                                                    &in->bytes->profile,
                                                    now, size)
                  == RTE_COLOR_GREEN);
        }
        pass[i] = ok;
    }
    rte_spinlock_unlock(&qos->ingress_lock);

    return qos_batch_filter(batch, pass, &qos->rx_drops);
}

/* Stores the packets the policers of 'qos' dropped, egress in '*tx_drops'
 * and ingress in '*rx_drops'.  Any thread. */
void
netdev_qos_get_drops(const struct netdev_qos *qos, uint64_t *tx_drops,
                     uint64_t *rx_drops)
{
    *tx_drops = __atomic_load_n(&qos->tx_drops, __ATOMIC_RELAXED);
    *rx_drops = __atomic_load_n(&qos->rx_drops, __ATOMIC_RELAXED);
}

/* Configuration helpers. */

/* Reads "cir" and "cbs" (and, if 'with_excess', "eir" and "ebs") of
 * 'details' into '*params'; absent keys are 0.  EINVAL if one is not a
 * decimal integer (Open vSwitch would take it as 0, which rte_meter then
 * refuses in most cases; here it is refused in all). */
static int
qos_params_parse(const struct smap *details, bool with_excess,
                 struct qos_params *params)
{
    static const char *const keys[] = { "cir", "cbs", "eir", "ebs" };
    uint64_t *values[] = { &params->cir, &params->cbs,
                           &params->eir, &params->ebs };

    memset(params, 0, sizeof *params);
    for (size_t i = 0; i < (with_excess ? 4 : 2); i++) {
        const char *s = details ? smap_get(details, keys[i]) : NULL;

        if (s) {
            unsigned long long int v = smap_get_ullong(details, keys[i],
                                                       ULLONG_MAX);
            if (v == ULLONG_MAX) {
                return EINVAL;
            }
            *values[i] = v;
        }
    }
    return 0;
}

static bool
qos_params_equal(const struct qos_params *a, const struct qos_params *b)
{
    return (a->cir == b->cir && a->cbs == b->cbs && a->eir == b->eir
            && a->ebs == b->ebs);
}

/* Builds an egress configuration, or returns NULL with EINVAL in
 * '*errorp' if rte_meter refuses a value. */
static struct qos_egress *
qos_egress_create(enum qos_type type, const struct qos_params *params,
                  const struct netdev_qos_queue *queues, size_t n_queues,
                  int *errorp)
{
    struct qos_egress *eg = xzalloc(sizeof *eg);
    int error;

    eg->type = type;
    eg->params = *params;
    if (type == QOS_EGRESS_POLICER) {
        struct rte_meter_srtcm_params sp = {
            .cir = params->cir, .cbs = params->cbs, .ebs = 0,
        };
        error = -rte_meter_srtcm_profile_config(&eg->sr_profile, &sp);
        if (!error) {
            error = -rte_meter_srtcm_config(&eg->sr_meter, &eg->sr_profile);
        }
    } else {
        struct rte_meter_trtcm_rfc4115_params tp = {
            .cir = params->cir, .eir = params->eir,
            .cbs = params->cbs, .ebs = params->ebs,
        };
        bool has_default = false;

        error = -rte_meter_trtcm_rfc4115_profile_config(&eg->tr_profile,
                                                        &tp);
        if (!error) {
            error = -rte_meter_trtcm_rfc4115_config(&eg->tr_meter,
                                                    &eg->tr_profile);
        }
        eg->queues = xcalloc(n_queues + 1, sizeof *eg->queues);
        for (size_t i = 0; !error && i < n_queues; i++) {
            struct qos_params qp;
            uint32_t id = queues[i].queue_id;

            error = qos_params_parse(queues[i].details, true, &qp);
            if (!id && smap_is_empty(queues[i].details)) {
                /* A default queue with nothing set takes the port's. */
                qp = *params;
            }
            if (!error) {
                error = qos_queue_init(&eg->queues[eg->n_queues++], id, &qp);
            }
            has_default |= !id;
        }
        if (!error && !has_default) {
            error = qos_queue_init(&eg->queues[eg->n_queues++], 0, params);
        }
        qsort(eg->queues, eg->n_queues, sizeof *eg->queues, compare_queues);
    }
    if (error) {
        qos_egress_destroy(eg);
        *errorp = error;
        return NULL;
    }
    return eg;
}

static void
qos_egress_destroy(struct qos_egress *eg)
{
    if (eg) {
        free(eg->queues);
        free(eg);
    }
}

/* True if 'eg' runs what 'type', 'params' and the 'n' 'queues' ask. */
static bool
qos_egress_same(const struct qos_egress *eg, enum qos_type type,
                const struct qos_params *params,
                const struct netdev_qos_queue *queues, size_t n)
{
    if (eg->type != type || !qos_params_equal(&eg->params, params)) {
        return false;
    }
    if (type != QOS_TRTCM_POLICER) {
        return true;
    }

    size_t n_wanted = n;
    bool has_default = false;
    for (size_t i = 0; i < n; i++) {
        const struct qos_queue *q = qos_find_queue(eg, queues[i].queue_id);
        struct qos_params qp;

        if (!q || qos_params_parse(queues[i].details, true, &qp)) {
            return false;
        }
        if (!queues[i].queue_id) {
            has_default = true;
            if (smap_is_empty(queues[i].details)) {
                qp = *params;
            }
        }
        if (!qos_params_equal(&q->params, &qp)) {
            return false;
        }
    }
    if (!has_default) {
        const struct qos_queue *q = qos_find_queue(eg, 0);
        if (!q || !qos_params_equal(&q->params, params)) {
            return false;
        }
        n_wanted++;
    }
    return eg->n_queues == n_wanted;
}

static int
qos_queue_init(struct qos_queue *q, uint32_t queue_id,
               const struct qos_params *params)
{
    struct rte_meter_trtcm_rfc4115_params tp = {
        .cir = params->cir, .eir = params->eir,
        .cbs = params->cbs, .ebs = params->ebs,
    };
    int error;

    memset(q, 0, sizeof *q);
    q->queue_id = queue_id;
    q->params = *params;
    error = -rte_meter_trtcm_rfc4115_profile_config(&q->profile, &tp);
    if (!error) {
        error = -rte_meter_trtcm_rfc4115_config(&q->meter, &q->profile);
    }
    return error;
}

static const struct qos_queue *
qos_find_queue(const struct qos_egress *eg, uint32_t queue_id)
{
    for (size_t i = 0; i < eg->n_queues; i++) {
        if (eg->queues[i].queue_id == queue_id) {
            return &eg->queues[i];
        }
    }
    return NULL;
}

static int
compare_queues(const void *a_, const void *b_)
{
    const struct qos_queue *a = a_, *b = b_;
    return a->queue_id < b->queue_id ? -1 : a->queue_id > b->queue_id;
}

/* Appends "cir: N" ... lines, each after 'indent', in the order Open
 * vSwitch 3.1's qos/show prints them (its hash order, which is fixed for
 * these keys): cir, cbs; or cir, eir, ebs, cbs. */
static void
qos_format_params(const struct qos_params *p, bool with_excess,
                  const char *indent, struct ds *ds)
{
    ds_put_format(ds, "%scir: %"PRIu64"\n", indent, p->cir);
    if (with_excess) {
        ds_put_format(ds, "%seir: %"PRIu64"\n", indent, p->eir);
        ds_put_format(ds, "%sebs: %"PRIu64"\n", indent, p->ebs);
    }
    ds_put_format(ds, "%scbs: %"PRIu64"\n", indent, p->cbs);
}

/* A token bucket of 'burst' tokens filled at 'rate' tokens a second, or
 * NULL with EINVAL in '*errorp'. */
static struct qos_bucket *
qos_bucket_create(uint64_t rate, uint64_t burst, int *errorp)
{
    struct qos_bucket *b = xzalloc(sizeof *b);
    struct rte_meter_srtcm_params sp = { .cir = rate, .cbs = burst };
    int error = -rte_meter_srtcm_profile_config(&b->profile, &sp);

    if (!error) {
        error = -rte_meter_srtcm_config(&b->meter, &b->profile);
    }
    if (error) {
        free(b);
        *errorp = error;
        return NULL;
    }
    return b;
}

/* Fast-path helpers. */

/* The size a meter charges for 'p': without the Ethernet header, as Open
 * vSwitch's policers count. */
static inline uint32_t
qos_packet_size(const struct dp_packet *p)
{
    uint32_t size = dp_packet_size(p);
    return size > ETH_HEADER_LEN ? size - ETH_HEADER_LEN : 0;
}

/* Frees the packets of 'batch' whose 'pass' is false, keeping the others
 * in order; adds how many it freed to '*n_drops' (atomically) and returns
 * that number. */
static size_t
qos_batch_filter(struct dp_packet_batch *batch, const bool *pass,
                 uint64_t *n_drops)
{
    size_t n = 0;
    size_t count = batch->count;

    for (size_t i = 0; i < count; i++) {
        if (pass[i]) {
            batch->packets[n++] = batch->packets[i];
        } else {
            dp_packet_free(batch->packets[i]);
        }
    }
    batch->count = n;
    if (count > n) {
        __atomic_fetch_add(n_drops, count - n, __ATOMIC_RELAXED);
    }
    return count - n;
}
