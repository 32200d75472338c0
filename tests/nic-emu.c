/* nic-emu: a NIC emulator for rte_flow MARK, test and benchmark equipment.
 *
 * No software DPDK device supports RTE_FLOW_ACTION_TYPE_MARK.  This shared
 * library, preloaded into ovs-vswitchd (LD_PRELOAD), takes the place of
 * DPDK's rte_flow_validate(), rte_flow_create(), rte_flow_destroy(),
 * rte_flow_flush() and rte_flow_query(): it interprets the very item and
 * action arrays the switch's provider builds (ETH, VLAN, IPV4, IPV6, TCP,
 * UDP, SCTP, ICMP, ICMP6 with spec and mask; MARK with RSS or QUEUE) and,
 * from an ethdev RX callback on every rx queue of the port, stamps the
 * rule's mark on each matching received mbuf as a NIC does
 * (hash.fdir.hi, RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID).  It is never
 * part of the production fast path: without the preload, DPDK's own
 * functions run.
 *
 * Rules are kept as a NIC keeps them in its classifier: grouped by shape
 * (the same items with the same masks), each shape a hash table of the
 * rules' masked values (CRC32-C), so that a packet costs one look-up per
 * shape however many rules there are (a TCAM's constant cost, in
 * software).  In front of them sits a small exact-match cache, as NICs
 * have: a frame of up to EMU_EMC_KEY bytes, byte for byte, with its port,
 * gives the rule it matched last time (or none), as long as no rule was
 * created or destroyed since (a generation count); a classification
 * depends only on those bytes and the rules, so the cache never changes a
 * result, only what a frame costs the emulator.
 *
 * NIC mode (DPS_NICEMU_WIRE set): the emulator is a whole device whose
 * receive work and classification run on a core of their own, as a NIC's
 * do.  After rte_eal_init() it creates a ring-backed ethdev
 * (rte_eth_from_rings(): "net_ring_" followed by DPS_NICEMU_NAME, default
 * net_ring_nicemu0) that the switch attaches as a "dpdk" port with that
 * name as devargs;
 * a "NIC" thread pinned to DPS_NICEMU_CPU (default 0) replays the frames
 * of the pcap file DPS_NICEMU_WIRE forever: it takes empty mbufs posted to
 * it, copies each frame in, stamps the mark of the rule it matches and
 * enqueues the burst on the port's rx ring, so the switch's PMD only
 * dequeues.  The empty mbufs are posted as a NIC driver posts receive
 * descriptors: NIC_RX_DESCS of them at first (allocated from the pool the
 * switch gives the port's rx queue), then, from an RX callback that runs
 * in the switch's rte_eth_rx_burst() on the port, one fresh mbuf for each
 * one received, allocated in the polling thread, so that mbufs cycle
 * through that thread's mempool cache as with a real device (allocated by
 * the NIC thread, they would cycle through the whole pool, every one of
 * their cache lines cold).  What the switch sends on the port is freed by
 * the NIC thread.  A full rx ring, or no posted mbuf, makes the thread
 * yield (back-pressure, no drops), so that the switch's other threads on
 * that CPU keep running.  Since its wire is a fixed list of frames, the
 * thread's exact-match cache is the wire itself: for each frame it keeps
 * the rule the frame matched and the generation of the rules it matched
 * under, so a frame is classified (the rules' items interpreted) once after
 * each rule change, however many distinct frames the wire has, and a NIC
 * classification that costs the host nothing does not make the emulator's
 * core the bottleneck (an 8192-entry cache missed on every frame of a
 * 256k-flow wire).
 *
 * Environment:
 *   DPS_NICEMU_NO_RSS=1   refuse RSS actions (to exercise the switch's
 *                         MARK + QUEUE fallback).
 *   DPS_NICEMU_LOG=FILE   append one line per rule created or destroyed,
 *                         and in NIC mode one per rule's first marked
 *                         packet ("first-mark port P mark M after US us",
 *                         the time since the rule was created) and once a
 *                         second the switch PMD's fastest window ("pmd-best
 *                         t T cycles C": C TSC cycles per packet over
 *                         NIC_WINDOW_BURSTS full bursts in a row, T the
 *                         CLOCK_MONOTONIC seconds), a figure a busy machine
 *                         disturbs far less than an average.
 *   DPS_NICEMU_WIRE=PCAP  NIC mode, replaying PCAP (classic pcap format).
 *   DPS_NICEMU_NAME=NAME  NIC mode: the ethdev is net_ring_NAME (nicemu0).
 *   DPS_NICEMU_CPU=N      NIC mode: the NIC thread's CPU (0).
 *   DPS_NICEMU_POST=0     NIC mode: the NIC thread allocates its mbufs
 *                         itself instead of taking those posted by the
 *                         switch's polling thread (to compare the two).
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_hash_crc.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#define EMU_MAX_ITEMS 8
#define EMU_MAX_PORTS 64
#define EMU_HDR_MAX 40                  /* A multiple of 8. */

struct emu_item {
    enum rte_flow_item_type type;
    uint8_t spec[EMU_HDR_MAX];
    uint8_t mask[EMU_HDR_MAX];
    bool has_flag_spec, has_flag_mask;  /* ETH has_vlan, IPv6 frag ext. */
};

struct emu_shape;

struct rte_flow {
    struct rte_flow *next;      /* In emu_rules. */
    struct rte_flow *hnext;     /* In its shape's bucket. */
    struct emu_shape *shape;
    uint32_t hash;              /* Of its masked values. */
    uint16_t port_id;
    uint32_t mark;
    struct emu_item items[EMU_MAX_ITEMS];
    int n_items;
    uint64_t hits;
    uint64_t created_ns;        /* CLOCK_MONOTONIC. */
};

/* Rules of one port with the same items, masks and flags: a hash table of
 * their masked values. */
struct emu_shape {
    struct emu_shape *next;
    uint16_t port_id;
    struct emu_item items[EMU_MAX_ITEMS];   /* Specs unused. */
    int n_items;
    struct rte_flow **buckets;
    uint32_t n_buckets;         /* A power of 2. */
    uint32_t n_rules;
};

static pthread_mutex_t emu_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rte_flow *emu_rules;     /* Newest first. */
static struct emu_shape *emu_shapes;   /* Newest first. */
static unsigned int emu_n_rules;        /* Atomic: for the RX callback. */
static bool emu_cb_installed[EMU_MAX_PORTS][RTE_MAX_QUEUES_PER_PORT];

/* The exact-match cache in front of the classifier (see the top of the
 * file).  Used under emu_mutex. */
#define EMU_EMC_KEY 128                 /* Longer frames are not cached. */
#define EMU_EMC_SIZE 8192               /* Entries, a power of 2. */

struct emu_emc_entry {
    uint64_t gen;                       /* emu_gen when filled, 0: empty. */
    uint32_t hash;
    uint16_t len;
    uint16_t port_id;
    struct rte_flow *rule;              /* NULL: the frame matched none. */
    uint8_t frame[EMU_EMC_KEY];
};

static struct emu_emc_entry *emu_emc;   /* EMU_EMC_SIZE, or NULL. */
static uint64_t emu_gen = 1;            /* Bumped by every rule change. */

/* NIC mode. */
struct nic_memo {
    uint64_t gen;                       /* emu_gen of 'rule', 0: none yet. */
    struct rte_flow *rule;              /* NULL: the frame matched none. */
};

static struct {
    bool active;
    uint16_t port_id;
    struct rte_ring *rx, *tx;
    struct rte_ring *posted;    /* Empty mbufs for the NIC thread. */
    unsigned int owed;          /* Atomic: mbufs the RX callback could not
                                 * post, for the NIC thread to allocate. */
    bool cb_installed;          /* The posting RX callback (queue 0). */
    bool post;                  /* False: the NIC thread allocates. */

    /* The switch's PMD timed by the RX callback: TSC cycles from one full
     * burst to the next over windows of NIC_WINDOW_BURSTS full bursts in a
     * row; 'best' is the fastest window since the NIC thread last logged
     * it (once a second: "pmd-best t T cycles C", C per packet). */
    uint64_t window_tsc;
    unsigned int window_bursts;
    uint64_t best;              /* Atomic; UINT64_MAX: none. */
    struct rte_mempool *mp;     /* Atomic: the switch's rx queue pool. */
    uint8_t *frames;            /* Each frame's bytes, one after another. */
    uint32_t *ofs;              /* Frame i at frames + ofs[i], ... */
    uint16_t *len;              /* ... of len[i] bytes. */
    size_t n_frames;
    struct nic_memo *memos;     /* One per frame; under emu_mutex. */
    int cpu;
} nic;

static uint64_t
now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void
emu_logf(const char *fmt, ...)
{
    const char *file = getenv("DPS_NICEMU_LOG");
    FILE *f = file ? fopen(file, "a") : NULL;

    if (f) {
        va_list args;

        va_start(args, fmt);
        vfprintf(f, fmt, args);
        va_end(args);
        fputc('\n', f);
        fclose(f);
    }
}

static void
emu_log(const char *fmt, uint16_t port, uint32_t mark)
{
    emu_logf(fmt, port, mark);
}

static int
emu_error(struct rte_flow_error *error, int code, int type, const char *msg)
{
    return rte_flow_error_set(error, code, type, NULL, msg);
}

static size_t
item_hdr_size(enum rte_flow_item_type type)
{
    switch (type) {
    case RTE_FLOW_ITEM_TYPE_ETH: return sizeof(struct rte_ether_hdr);
    case RTE_FLOW_ITEM_TYPE_VLAN: return sizeof(struct rte_vlan_hdr);
    case RTE_FLOW_ITEM_TYPE_IPV4: return sizeof(struct rte_ipv4_hdr);
    case RTE_FLOW_ITEM_TYPE_IPV6: return sizeof(struct rte_ipv6_hdr);
    case RTE_FLOW_ITEM_TYPE_TCP: return sizeof(struct rte_tcp_hdr);
    case RTE_FLOW_ITEM_TYPE_UDP: return sizeof(struct rte_udp_hdr);
    case RTE_FLOW_ITEM_TYPE_SCTP: return sizeof(struct rte_sctp_hdr);
    case RTE_FLOW_ITEM_TYPE_ICMP: return sizeof(struct rte_icmp_hdr);
    case RTE_FLOW_ITEM_TYPE_ICMP6: return 4;
    default: return 0;
    }
}

/* Checks 'attr', 'pattern' and 'actions'; fills 'rule' if nonnull. */
static int
emu_parse(uint16_t port_id, const struct rte_flow_attr *attr,
          const struct rte_flow_item pattern[],
          const struct rte_flow_action actions[], struct rte_flow *rule,
          struct rte_flow_error *error)
{
    struct rte_flow r;

    memset(&r, 0, sizeof r);
    r.port_id = port_id;
    if (!rte_eth_dev_is_valid_port(port_id) || port_id >= EMU_MAX_PORTS) {
        return emu_error(error, ENODEV, RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
                         "no such port");
    }
    if (!attr || !attr->ingress || attr->egress || attr->transfer
        || attr->group) {
        return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ATTR,
                         "only ingress rules in group 0");
    }
    for (const struct rte_flow_item *it = pattern;
         it->type != RTE_FLOW_ITEM_TYPE_END; it++) {
        size_t size = item_hdr_size(it->type);

        if (!size || r.n_items >= EMU_MAX_ITEMS) {
            return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM,
                             "item not supported");
        }
        if (it->last) {
            return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ITEM_LAST,
                             "ranges not supported");
        }
        struct emu_item *ei = &r.items[r.n_items++];
        ei->type = it->type;
        if (it->spec) {
            memcpy(ei->spec, it->spec, size);
        }
        if (it->mask) {
            memcpy(ei->mask, it->mask, size);
        } else if (it->spec) {
            memset(ei->mask, 0xff, size);
        }
        if (it->type == RTE_FLOW_ITEM_TYPE_ETH) {
            const struct rte_flow_item_eth *s = it->spec, *m = it->mask;
            ei->has_flag_spec = s && s->has_vlan;
            ei->has_flag_mask = m && m->has_vlan;
        } else if (it->type == RTE_FLOW_ITEM_TYPE_IPV6) {
            const struct rte_flow_item_ipv6 *s = it->spec, *m = it->mask;
            ei->has_flag_spec = s && s->has_frag_ext;
            ei->has_flag_mask = m && m->has_frag_ext;
        }
    }

    bool mark = false, fate = false;
    for (const struct rte_flow_action *a = actions;
         a->type != RTE_FLOW_ACTION_TYPE_END; a++) {
        if (a->type == RTE_FLOW_ACTION_TYPE_MARK) {
            r.mark = ((const struct rte_flow_action_mark *) a->conf)->id;
            mark = true;
        } else if (a->type == RTE_FLOW_ACTION_TYPE_RSS) {
            const struct rte_flow_action_rss *rss = a->conf;
            const char *no_rss = getenv("DPS_NICEMU_NO_RSS");

            if (no_rss && !strcmp(no_rss, "1")) {
                return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                                 "RSS action refused (DPS_NICEMU_NO_RSS)");
            }
            struct rte_eth_dev_info info;
            if (rte_eth_dev_info_get(port_id, &info)) {
                return emu_error(error, ENODEV,
                                 RTE_FLOW_ERROR_TYPE_UNSPECIFIED, "no info");
            }
            for (uint32_t i = 0; i < rss->queue_num; i++) {
                if (rss->queue[i] >= info.nb_rx_queues) {
                    return emu_error(error, EINVAL,
                                     RTE_FLOW_ERROR_TYPE_ACTION_CONF,
                                     "RSS queue out of range");
                }
            }
            fate = true;
        } else if (a->type == RTE_FLOW_ACTION_TYPE_QUEUE) {
            fate = true;
        } else {
            return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                             "action not supported");
        }
    }
    if (!mark || !fate) {
        return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                         "MARK with RSS or QUEUE expected");
    }
    if (rule) {
        *rule = r;
    }
    return 0;
}

static inline uint64_t
load64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof v);
    return v;
}

/* Compares in 8-byte words: a header's last word may reach up to 7 bytes
 * past it, into the mbuf's room, where the (zero-padded) mask is 0. */
static bool
masked_equal(const uint8_t *pkt, const struct emu_item *ei, size_t size)
{
    for (size_t i = 0; i < size; i += 8) {
        if ((load64(pkt + i) ^ load64(ei->spec + i)) & load64(ei->mask + i)) {
            return false;
        }
    }
    return true;
}

/* Walks the packet at 'data' ('len' bytes) along 'items' (their types and
 * flags, not their values): true if the packet has each item's header, in
 * order, with '*hdrs' then pointing to each. */
static bool
emu_walk(const struct emu_item *items, int n_items, const uint8_t *data,
         uint32_t len, const uint8_t *hdrs[])
{
    uint32_t ofs = 0;
    uint16_t type = 0;
    uint8_t proto = 0;
    bool is_vlan_outer = false;

    if (len < sizeof(struct rte_ether_hdr)) {
        return false;
    }
    type = (data[12] << 8) | data[13];
    is_vlan_outer = type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ;
    for (int i = 0; i < n_items; i++) {
        const struct emu_item *ei = &items[i];
        size_t size = item_hdr_size(ei->type);

        switch (ei->type) {
        case RTE_FLOW_ITEM_TYPE_ETH:
            if (ei->has_flag_mask && is_vlan_outer != ei->has_flag_spec) {
                return false;
            }
            hdrs[i] = data;
            ofs = sizeof(struct rte_ether_hdr);
            continue;
        case RTE_FLOW_ITEM_TYPE_VLAN:
            if (type != RTE_ETHER_TYPE_VLAN && type != RTE_ETHER_TYPE_QINQ) {
                return false;
            }
            if (ofs + size > len) {
                return false;
            }
            hdrs[i] = data + ofs;
            type = (data[ofs + 2] << 8) | data[ofs + 3];
            ofs += size;
            continue;
        default:
            break;
        }

        /* L3 and L4 items: past any tag the rule did not name. */
        while ((type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ)
               && ofs + 4 <= len) {
            type = (data[ofs + 2] << 8) | data[ofs + 3];
            ofs += 4;
        }
        if (ofs + size > len) {
            return false;
        }
        const uint8_t *h = data + ofs;
        hdrs[i] = h;
        switch (ei->type) {
        case RTE_FLOW_ITEM_TYPE_IPV4:
            if (type != RTE_ETHER_TYPE_IPV4 || (h[0] >> 4) != 4) {
                return false;
            }
            proto = h[9];
            ofs += (h[0] & 0xf) * 4;
            type = 0;
            break;
        case RTE_FLOW_ITEM_TYPE_IPV6:
            if (type != RTE_ETHER_TYPE_IPV6 || (h[0] >> 4) != 6
                || (ei->has_flag_mask
                    && (h[6] == IPPROTO_FRAGMENT) != ei->has_flag_spec)) {
                return false;
            }
            proto = h[6];
            ofs += size;
            type = 0;
            break;
        case RTE_FLOW_ITEM_TYPE_TCP:
        case RTE_FLOW_ITEM_TYPE_UDP:
        case RTE_FLOW_ITEM_TYPE_SCTP:
        case RTE_FLOW_ITEM_TYPE_ICMP:
        case RTE_FLOW_ITEM_TYPE_ICMP6: {
            static const uint8_t protos[] = {
                [RTE_FLOW_ITEM_TYPE_TCP] = IPPROTO_TCP,
                [RTE_FLOW_ITEM_TYPE_UDP] = IPPROTO_UDP,
                [RTE_FLOW_ITEM_TYPE_SCTP] = IPPROTO_SCTP,
                [RTE_FLOW_ITEM_TYPE_ICMP] = IPPROTO_ICMP,
                [RTE_FLOW_ITEM_TYPE_ICMP6] = IPPROTO_ICMPV6,
            };
            if (proto != protos[ei->type]) {
                return false;
            }
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

/* True if the packet at 'data' ('len' bytes) matches 'r'. */
static bool
emu_match(const struct rte_flow *r, const uint8_t *data, uint32_t len)
{
    const uint8_t *hdrs[EMU_MAX_ITEMS];

    if (!emu_walk(r->items, r->n_items, data, len, hdrs)) {
        return false;
    }
    for (int i = 0; i < r->n_items; i++) {
        if (!masked_equal(hdrs[i], &r->items[i],
                          item_hdr_size(r->items[i].type))) {
            return false;
        }
    }
    return true;
}

/* CRC32-C of the headers 'hdrs' (a packet's, or the rule's specs if
 * null) under the masks of 'items', in 8-byte words as masked_equal(). */
static uint32_t
emu_hash(const struct emu_item *items, int n_items, const uint8_t *hdrs[])
{
    uint32_t h = 0;

    for (int i = 0; i < n_items; i++) {
        const uint8_t *v = hdrs ? hdrs[i] : items[i].spec;
        size_t size = item_hdr_size(items[i].type);

        for (size_t b = 0; b < size; b += 8) {
            uint64_t m = load64(items[i].mask + b);
            if (m) {
                h = rte_hash_crc_8byte(load64(v + b) & m, h);
            }
        }
    }
    return h;
}

static bool
emu_same_shape(const struct emu_shape *s, const struct rte_flow *r)
{
    if (s->port_id != r->port_id || s->n_items != r->n_items) {
        return false;
    }
    for (int i = 0; i < r->n_items; i++) {
        const struct emu_item *a = &s->items[i], *b = &r->items[i];

        if (a->type != b->type || a->has_flag_mask != b->has_flag_mask
            || a->has_flag_spec != b->has_flag_spec
            || memcmp(a->mask, b->mask, item_hdr_size(a->type))) {
            return false;
        }
    }
    return true;
}

static void
emu_shape_rehash(struct emu_shape *s, uint32_t n_buckets)
{
    struct rte_flow **b = calloc(n_buckets, sizeof *b);

    if (!b) {
        return;                 /* Keeps the old table: slower, correct. */
    }
    for (uint32_t i = 0; i < s->n_buckets; i++) {
        for (struct rte_flow *r = s->buckets[i], *next; r; r = next) {
            next = r->hnext;
            r->hnext = b[r->hash & (n_buckets - 1)];
            b[r->hash & (n_buckets - 1)] = r;
        }
    }
    free(s->buckets);
    s->buckets = b;
    s->n_buckets = n_buckets;
}

/* Adds 'r' to the classifier.  Caller holds emu_mutex.  False if out of
 * memory. */
static bool
emu_classifier_insert(struct rte_flow *r)
{
    struct emu_shape *s;

    for (s = emu_shapes; s; s = s->next) {
        if (emu_same_shape(s, r)) {
            break;
        }
    }
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || !(s->buckets = calloc(16, sizeof *s->buckets))) {
            free(s);
            return false;
        }
        s->n_buckets = 16;
        s->port_id = r->port_id;
        s->n_items = r->n_items;
        memcpy(s->items, r->items, sizeof s->items);
        s->next = emu_shapes;
        emu_shapes = s;
    }
    if (s->n_rules >= s->n_buckets) {
        emu_shape_rehash(s, s->n_buckets * 2);
    }
    emu_gen++;
    r->shape = s;
    r->hash = emu_hash(r->items, r->n_items, NULL);
    r->hnext = s->buckets[r->hash & (s->n_buckets - 1)];
    s->buckets[r->hash & (s->n_buckets - 1)] = r;
    s->n_rules++;
    return true;
}

/* Takes 'r' out of the classifier (and frees its shape once empty).
 * Caller holds emu_mutex. */
static void
emu_classifier_remove(struct rte_flow *r)
{
    struct emu_shape *s = r->shape;

    emu_gen++;
    for (struct rte_flow **p = &s->buckets[r->hash & (s->n_buckets - 1)];
         *p; p = &(*p)->hnext) {
        if (*p == r) {
            *p = r->hnext;
            break;
        }
    }
    if (!--s->n_rules) {
        for (struct emu_shape **p = &emu_shapes; *p; p = &(*p)->next) {
            if (*p == s) {
                *p = s->next;
                break;
            }
        }
        free(s->buckets);
        free(s);
    }
}

/* The rule of 'port_id' that the packet at 'data' ('len' bytes) matches,
 * or NULL.  Caller holds emu_mutex. */
static struct rte_flow *
emu_classify(uint16_t port_id, const uint8_t *data, uint32_t len)
{
    for (struct emu_shape *s = emu_shapes; s; s = s->next) {
        const uint8_t *hdrs[EMU_MAX_ITEMS];

        if (s->port_id != port_id
            || !emu_walk(s->items, s->n_items, data, len, hdrs)) {
            continue;
        }
        uint32_t hash = emu_hash(s->items, s->n_items, hdrs);
        for (struct rte_flow *r = s->buckets[hash & (s->n_buckets - 1)]; r;
             r = r->hnext) {
            if (r->hash == hash && emu_match(r, data, len)) {
                return r;
            }
        }
    }
    return NULL;
}

/* The exact-match cache's hash of a frame: CRC32-C of its bytes. */
static uint32_t
emu_frame_hash(const uint8_t *data, uint32_t len)
{
    uint32_t h = len;
    uint32_t i = 0;

    for (; i + 8 <= len; i += 8) {
        h = rte_hash_crc_8byte(load64(data + i), h);
    }
    if (i < len) {
        uint64_t tail = 0;

        memcpy(&tail, data + i, len - i);
        h = rte_hash_crc_8byte(tail, h);
    }
    return h;
}

/* The cache entry for a frame of 'len' bytes whose hash is 'hash', or
 * NULL if such a frame is not cached at all (too long, no memory). */
static inline struct emu_emc_entry *
emu_emc_slot(uint32_t len, uint32_t hash)
{
    return (emu_emc && len <= EMU_EMC_KEY
            ? &emu_emc[hash & (EMU_EMC_SIZE - 1)] : NULL);
}

/* emu_classify() through the exact-match cache; 'hash' is
 * emu_frame_hash() of the frame.  Caller holds emu_mutex. */
static struct rte_flow *
emu_classify_cached(uint16_t port_id, const uint8_t *data, uint32_t len,
                    uint32_t hash)
{
    if (!emu_emc && !(emu_emc = calloc(EMU_EMC_SIZE, sizeof *emu_emc))) {
        return emu_classify(port_id, data, len);
    }

    struct emu_emc_entry *e = emu_emc_slot(len, hash);
    if (!e) {
        return emu_classify(port_id, data, len);
    }
    if (e->gen == emu_gen && e->hash == hash && e->len == len
        && e->port_id == port_id && !memcmp(e->frame, data, len)) {
        return e->rule;
    }

    struct rte_flow *r = emu_classify(port_id, data, len);
    e->gen = emu_gen;
    e->hash = hash;
    e->len = len;
    e->port_id = port_id;
    e->rule = r;
    memcpy(e->frame, data, len);
    return r;
}

/* Stamps the mark of 'r' (if nonnull), the rule 'm' matches, on 'm'.
 * Returns 'r' if this was its first packet, otherwise NULL.  Caller holds
 * emu_mutex. */
static inline struct rte_flow *
emu_stamp_rule(struct rte_mbuf *m, struct rte_flow *r)
{
    if (!r) {
        return NULL;
    }
    m->hash.fdir.hi = r->mark;
    m->ol_flags |= RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
    return r->hits++ ? NULL : r;
}

/* Stamps the mark of the rule 'm' matches on 'm', whose frame's
 * emu_frame_hash() is 'hash'.  Returns the rule if this was its first
 * packet, otherwise NULL.  Caller holds emu_mutex. */
static struct rte_flow *
emu_stamp(uint16_t port_id, struct rte_mbuf *m, uint32_t hash)
{
    return emu_stamp_rule(m, emu_classify_cached(
                                 port_id, rte_pktmbuf_mtod(m, const uint8_t *),
                                 m->data_len, hash));
}

static uint16_t
emu_rx_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf *pkts[],
          uint16_t nb_pkts, uint16_t max_pkts, void *aux)
{
    (void) queue;
    (void) max_pkts;
    (void) aux;
    if (!nb_pkts || !__atomic_load_n(&emu_n_rules, __ATOMIC_ACQUIRE)) {
        return nb_pkts;
    }
    pthread_mutex_lock(&emu_mutex);
    for (uint16_t i = 0; i < nb_pkts; i++) {
        struct rte_mbuf *m = pkts[i];

        emu_stamp(port_id, m,
                  emu_frame_hash(rte_pktmbuf_mtod(m, const uint8_t *),
                                 m->data_len));
    }
    pthread_mutex_unlock(&emu_mutex);
    return nb_pkts;
}

/* Installs the RX callback on every rx queue of 'port_id' that does not
 * have it yet (not on the NIC-mode port: its NIC thread marks).  Caller
 * holds emu_mutex. */
static void
emu_install_callbacks(uint16_t port_id)
{
    struct rte_eth_dev_info info;

    if ((nic.active && port_id == nic.port_id)
        || rte_eth_dev_info_get(port_id, &info)) {
        return;
    }
    for (uint16_t q = 0; q < info.nb_rx_queues
                         && q < RTE_MAX_QUEUES_PER_PORT; q++) {
        if (!emu_cb_installed[port_id][q]
            && rte_eth_add_rx_callback(port_id, q, emu_rx_cb, NULL)) {
            emu_cb_installed[port_id][q] = true;
        }
    }
}

int
rte_flow_validate(uint16_t port_id, const struct rte_flow_attr *attr,
                  const struct rte_flow_item pattern[],
                  const struct rte_flow_action actions[],
                  struct rte_flow_error *error)
{
    return emu_parse(port_id, attr, pattern, actions, NULL, error);
}

struct rte_flow *
rte_flow_create(uint16_t port_id, const struct rte_flow_attr *attr,
                const struct rte_flow_item pattern[],
                const struct rte_flow_action actions[],
                struct rte_flow_error *error)
{
    struct rte_flow *r = calloc(1, sizeof *r);

    if (!r) {
        emu_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, "no memory");
        return NULL;
    }
    if (emu_parse(port_id, attr, pattern, actions, r, error)) {
        free(r);
        return NULL;
    }
    r->created_ns = now_ns();
    pthread_mutex_lock(&emu_mutex);
    if (!emu_classifier_insert(r)) {
        pthread_mutex_unlock(&emu_mutex);
        free(r);
        emu_error(error, ENOMEM, RTE_FLOW_ERROR_TYPE_HANDLE, "no memory");
        return NULL;
    }
    emu_install_callbacks(port_id);
    r->next = emu_rules;
    emu_rules = r;
    __atomic_add_fetch(&emu_n_rules, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&emu_mutex);
    emu_logf("create port %u mark %"PRIu32" t %.6f", port_id, r->mark,
             r->created_ns / 1e9);
    return r;
}

int
rte_flow_destroy(uint16_t port_id, struct rte_flow *flow,
                 struct rte_flow_error *error)
{
    pthread_mutex_lock(&emu_mutex);
    for (struct rte_flow **p = &emu_rules; *p; p = &(*p)->next) {
        if (*p == flow && flow->port_id == port_id) {
            *p = flow->next;
            emu_classifier_remove(flow);
            __atomic_sub_fetch(&emu_n_rules, 1, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&emu_mutex);
            emu_log("destroy port %u mark %u", port_id, flow->mark);
            free(flow);
            return 0;
        }
    }
    pthread_mutex_unlock(&emu_mutex);
    return emu_error(error, ENOENT, RTE_FLOW_ERROR_TYPE_HANDLE,
                     "no such rule");
}

int
rte_flow_flush(uint16_t port_id, struct rte_flow_error *error)
{
    (void) error;
    pthread_mutex_lock(&emu_mutex);
    for (struct rte_flow **p = &emu_rules; *p; ) {
        struct rte_flow *r = *p;

        if (r->port_id == port_id) {
            *p = r->next;
            emu_classifier_remove(r);
            __atomic_sub_fetch(&emu_n_rules, 1, __ATOMIC_RELEASE);
            free(r);
        } else {
            p = &r->next;
        }
    }
    pthread_mutex_unlock(&emu_mutex);
    return 0;
}

int
rte_flow_query(uint16_t port_id, struct rte_flow *flow,
               const struct rte_flow_action *action, void *data,
               struct rte_flow_error *error)
{
    (void) port_id;
    if (action->type == RTE_FLOW_ACTION_TYPE_COUNT && data) {
        struct rte_flow_query_count *c = data;

        pthread_mutex_lock(&emu_mutex);
        c->hits_set = 1;
        c->hits = flow->hits;
        c->bytes_set = 0;
        pthread_mutex_unlock(&emu_mutex);
        return 0;
    }
    return emu_error(error, ENOTSUP, RTE_FLOW_ERROR_TYPE_ACTION,
                     "only COUNT queries");
}

/* NIC mode. */

/* Reads the frames of the classic pcap file 'path' into 'nic'.  Returns
 * false with a message on stderr on failure. */
static bool
nic_load_pcap(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint32_t ghdr[6];
    size_t room = 0, used = 0, cap = 0;

    if (!f || fread(ghdr, sizeof ghdr, 1, f) != 1
        || (ghdr[0] != 0xa1b2c3d4 && ghdr[0] != 0xa1b23c4d)) {
        fprintf(stderr, "nicemu: %s: not a pcap file\n", path);
        if (f) {
            fclose(f);
        }
        return false;
    }
    for (;;) {
        uint32_t rec[4];

        if (fread(rec, sizeof rec, 1, f) != 1) {
            break;
        }
        uint32_t caplen = rec[2];
        if (caplen > 2048) {
            fprintf(stderr, "nicemu: %s: frame of %u bytes\n", path, caplen);
            fclose(f);
            return false;
        }
        if (nic.n_frames == cap) {
            cap = cap ? cap * 2 : 1024;
            nic.ofs = realloc(nic.ofs, cap * sizeof *nic.ofs);
            nic.len = realloc(nic.len, cap * sizeof *nic.len);
        }
        if (used + caplen > room) {
            room = room ? room * 2 : 1 << 20;
            nic.frames = realloc(nic.frames, room);
        }
        if (!nic.ofs || !nic.len || !nic.frames
            || fread(nic.frames + used, 1, caplen, f) != caplen) {
            break;
        }
        nic.ofs[nic.n_frames] = used;
        nic.len[nic.n_frames] = caplen;
        nic.n_frames++;
        used += caplen;
    }
    fclose(f);
    if (!nic.n_frames) {
        fprintf(stderr, "nicemu: %s: no frames\n", path);
        return false;
    }
    return true;
}

#define NIC_BURST 32
#define NIC_RX_DESCS 2048               /* Receive buffers posted at first. */
#define NIC_WINDOW_BURSTS 128           /* Full bursts per PMD timing window. */

/* Times the switch's PMD (see 'nic.best'), from the RX callback. */
static inline void
nic_time_pmd(uint16_t nb_pkts, uint16_t max_pkts)
{
    uint64_t now = rte_rdtsc();

    if (!nb_pkts || nb_pkts < max_pkts) {
        /* Not saturated: the PMD waited for the NIC. */
        nic.window_bursts = 0;
        nic.window_tsc = now;
    } else if (++nic.window_bursts >= NIC_WINDOW_BURSTS) {
        uint64_t cycles = now - nic.window_tsc;

        if (cycles < __atomic_load_n(&nic.best, __ATOMIC_RELAXED)) {
            __atomic_store_n(&nic.best, cycles, __ATOMIC_RELAXED);
        }
        nic.window_bursts = 0;
        nic.window_tsc = now;
    }
}

/* RX callback of the NIC-mode port, in the switch's polling thread: posts
 * one fresh mbuf for each one received, as a NIC driver's receive refills
 * the descriptors it harvested. */
static uint16_t
nic_post_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf *pkts[],
            uint16_t nb_pkts, uint16_t max_pkts, void *aux)
{
    struct rte_mempool *mp = __atomic_load_n(&nic.mp, __ATOMIC_ACQUIRE);

    (void) port_id;
    (void) queue;
    (void) pkts;
    (void) aux;
    nic_time_pmd(nb_pkts, max_pkts);
    for (uint16_t done = 0; nic.post && done < nb_pkts; ) {
        struct rte_mbuf *fresh[NIC_BURST];
        unsigned int n = RTE_MIN(nb_pkts - done, NIC_BURST);
        unsigned int posted = 0;

        if (mp && !rte_pktmbuf_alloc_bulk(mp, fresh, n)) {
            posted = rte_ring_sp_enqueue_burst(nic.posted, (void **) fresh,
                                               n, NULL);
            if (posted < n) {
                rte_pktmbuf_free_bulk(fresh + posted, n - posted);
            }
        }
        if (posted < n) {
            __atomic_add_fetch(&nic.owed, n - posted, __ATOMIC_RELAXED);
        }
        done += n;
    }
    return nb_pkts;
}

/* Fills 'pkts', which holds '*n' empty mbufs, up to NIC_BURST: with posted
 * ones, else from 'mp' the first NIC_RX_DESCS ('*n_primed' so far) and
 * those the RX callback owes.  NIC thread. */
static void
nic_take_mbufs(struct rte_mempool *mp, struct rte_mbuf *pkts[],
               unsigned int *n, unsigned int *n_primed)
{
    if (!nic.post) {
        if (!rte_pktmbuf_alloc_bulk(mp, pkts + *n, NIC_BURST - *n)) {
            *n = NIC_BURST;
        }
        return;
    }
    *n += rte_ring_sc_dequeue_burst(nic.posted, (void **) (pkts + *n),
                                    NIC_BURST - *n, NULL);
    if (*n < NIC_BURST) {
        unsigned int want = NIC_BURST - *n;
        unsigned int prime = RTE_MIN(want, NIC_RX_DESCS - *n_primed);
        unsigned int owed = __atomic_load_n(&nic.owed, __ATOMIC_RELAXED);
        unsigned int k = prime + RTE_MIN(want - prime, owed);

        if (k && !rte_pktmbuf_alloc_bulk(mp, pkts + *n, k)) {
            *n_primed += prime;
            __atomic_sub_fetch(&nic.owed, k - prime, __ATOMIC_RELAXED);
            *n += k;
        }
    }
}

/* The NIC thread: the device's receive work and classification. */
static void *
nic_main(void *arg)
{
    struct rte_mbuf *pkts[NIC_BURST];
    void *sent[64];
    size_t pos = 0;
    unsigned int n_primed = 0;
    unsigned int n_pkts = 0;            /* Empty mbufs held in 'pkts'. */
    uint64_t next_log_ns = now_ns() + 1000000000;
    unsigned int iter = 0;
    cpu_set_t cpus;

    (void) arg;
    CPU_ZERO(&cpus);
    CPU_SET(nic.cpu, &cpus);
    pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
    rte_thread_register();      /* A mempool cache, if an lcore is free. */
    for (;;) {
        uint64_t t = !(++iter % 256) ? now_ns() : 0;
        if (t >= next_log_ns) {
            uint64_t best = __atomic_exchange_n(&nic.best, UINT64_MAX,
                                                __ATOMIC_RELAXED);
            if (best != UINT64_MAX) {
                emu_logf("pmd-best t %.3f cycles %.1f", t / 1e9,
                         (double) best / (NIC_WINDOW_BURSTS * NIC_BURST));
            }
            next_log_ns = t + 1000000000;
        }

        struct rte_mempool *mp = __atomic_load_n(&nic.mp, __ATOMIC_ACQUIRE);
        if (!mp) {
            usleep(1000);
            continue;
        }

        unsigned int n = rte_ring_sc_dequeue_burst(nic.tx, sent,
                                                   RTE_DIM(sent), NULL);
        if (n) {
            rte_pktmbuf_free_bulk((struct rte_mbuf **) sent, n);
        }
        if (rte_ring_free_count(nic.rx) < NIC_BURST) {
            sched_yield();
            continue;
        }
        /* Whole bursts only: mbufs taken wait in 'pkts' for the rest. */
        nic_take_mbufs(mp, pkts, &n_pkts, &n_primed);
        if (n_pkts < NIC_BURST) {
            sched_yield();
            continue;
        }
        n_pkts = 0;

        struct rte_flow *first[NIC_BURST];
        uint64_t first_ns[NIC_BURST];
        size_t frames[NIC_BURST];
        int n_first = 0;
        bool classify = __atomic_load_n(&emu_n_rules, __ATOMIC_ACQUIRE);

        /* The device's DMA: the frames into the mbufs, the misses on the
         * mbufs' data (and on the frames' memos) started for the whole
         * burst first. */
        for (int i = 0; i < NIC_BURST; i++) {
            __builtin_prefetch(rte_pktmbuf_mtod(pkts[i], void *), 1, 3);
            if (classify) {
                rte_prefetch0(&nic.memos[pos]);
            }
            frames[i] = pos;
            pos = pos + 1 < nic.n_frames ? pos + 1 : 0;
        }
        for (int i = 0; i < NIC_BURST; i++) {
            struct rte_mbuf *m = pkts[i];
            uint16_t len = nic.len[frames[i]];

            rte_memcpy(rte_pktmbuf_mtod(m, void *),
                       nic.frames + nic.ofs[frames[i]], len);
            m->data_len = m->pkt_len = len;
            m->port = nic.port_id;
        }

        /* Its classifier: each frame's rule under the current rules, from
         * its memo or classified afresh. */
        if (classify) {
            pthread_mutex_lock(&emu_mutex);
            for (int i = 0; i < NIC_BURST; i++) {
                struct nic_memo *memo = &nic.memos[frames[i]];

                if (memo->gen != emu_gen) {
                    /* From the mbuf, whose room covers the word-wide
                     * reads past a header's end. */
                    memo->rule = emu_classify(
                        nic.port_id, rte_pktmbuf_mtod(pkts[i], uint8_t *),
                        pkts[i]->data_len);
                    memo->gen = emu_gen;
                }

                struct rte_flow *r = emu_stamp_rule(pkts[i], memo->rule);
                if (r) {
                    first_ns[n_first] = now_ns() - r->created_ns;
                    first[n_first++] = r;
                }
            }
        }
        uint32_t marks[NIC_BURST];
        for (int i = 0; i < n_first; i++) {
            marks[i] = first[i]->mark;  /* Logged after the unlock. */
        }
        if (classify) {
            pthread_mutex_unlock(&emu_mutex);
        }
        for (int i = 0; i < n_first; i++) {
            emu_logf("first-mark port %u mark %"PRIu32" after %.1f us",
                     nic.port_id, marks[i], first_ns[i] / 1e3);
        }

        n = rte_ring_sp_enqueue_burst(nic.rx, (void **) pkts, NIC_BURST,
                                      NULL);
        if (n < NIC_BURST) {
            rte_pktmbuf_free_bulk(pkts + n, NIC_BURST - n);
            __atomic_add_fetch(&nic.owed, NIC_BURST - n, __ATOMIC_RELAXED);
        }
    }
    return NULL;
}

/* Creates the NIC-mode device and its thread; exits the process on
 * failure (test equipment that does not work must not look as if it
 * did). */
static void
nic_create(const char *wire)
{
    const char *name = getenv("DPS_NICEMU_NAME");
    const char *cpu = getenv("DPS_NICEMU_CPU");
    struct rte_ring *txs[8];
    pthread_t thread;
    int port;

    name = name && *name ? name : "nicemu0";
    nic.cpu = cpu ? atoi(cpu) : 0;
    if (!nic_load_pcap(wire)) {
        exit(1);
    }
    nic.memos = calloc(nic.n_frames, sizeof *nic.memos);
    if (!nic.memos) {
        fprintf(stderr, "nicemu: out of memory\n");
        exit(1);
    }
    nic.rx = rte_ring_create("nicemu_rx", 2048, SOCKET_ID_ANY,
                             RING_F_SP_ENQ | RING_F_SC_DEQ);
    nic.tx = rte_ring_create("nicemu_tx", 2048, SOCKET_ID_ANY, RING_F_SC_DEQ);
    nic.posted = rte_ring_create("nicemu_posted", 2 * NIC_RX_DESCS,
                                 SOCKET_ID_ANY,
                                 RING_F_SP_ENQ | RING_F_SC_DEQ);
    for (size_t i = 0; i < RTE_DIM(txs); i++) {
        txs[i] = nic.tx;
    }
    port = (nic.rx && nic.tx && nic.posted
            ? rte_eth_from_rings(name, &nic.rx, 1, txs, RTE_DIM(txs),
                                 SOCKET_ID_ANY)
            : -1);
    if (port < 0) {
        fprintf(stderr, "nicemu: cannot create %s: %s\n", name,
                rte_strerror(rte_errno));
        exit(1);
    }
    nic.port_id = port;
    nic.best = UINT64_MAX;
    const char *post = getenv("DPS_NICEMU_POST");
    nic.post = !post || strcmp(post, "0");
    nic.active = true;
    if (pthread_create(&thread, NULL, nic_main, NULL)) {
        fprintf(stderr, "nicemu: cannot start the NIC thread\n");
        exit(1);
    }
    pthread_setname_np(thread, "nicemu");
    emu_logf("nic net_ring_%s port %u cpu %d frames %zu", name, nic.port_id,
             nic.cpu,
             nic.n_frames);
}

int
rte_eal_init(int argc, char **argv)
{
    int (*real)(int, char **) = (int (*)(int, char **))
                                dlsym(RTLD_NEXT, "rte_eal_init");
    const char *wire = getenv("DPS_NICEMU_WIRE");
    int retval = real ? real(argc, argv) : -1;

    if (retval >= 0 && wire && *wire) {
        nic_create(wire);
    }
    return retval;
}

int
rte_eth_rx_queue_setup(uint16_t port_id, uint16_t rx_queue_id,
                       uint16_t nb_rx_desc, unsigned int socket_id,
                       const struct rte_eth_rxconf *rx_conf,
                       struct rte_mempool *mb_pool)
{
    int (*real)(uint16_t, uint16_t, uint16_t, unsigned int,
                const struct rte_eth_rxconf *, struct rte_mempool *)
        = (int (*)(uint16_t, uint16_t, uint16_t, unsigned int,
                   const struct rte_eth_rxconf *, struct rte_mempool *))
          dlsym(RTLD_NEXT, "rte_eth_rx_queue_setup");
    int retval = real ? real(port_id, rx_queue_id, nb_rx_desc, socket_id,
                             rx_conf, mb_pool) : -ENOSYS;

    if (!retval && nic.active && port_id == nic.port_id) {
        __atomic_store_n(&nic.mp, mb_pool, __ATOMIC_RELEASE);
        if (rx_queue_id == 0 && !nic.cb_installed) {
            nic.cb_installed = rte_eth_add_rx_callback(port_id, 0,
                                                       nic_post_cb,
                                                       NULL) != NULL;
        }
    }
    return retval;
}
