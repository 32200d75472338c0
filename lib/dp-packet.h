/* Packets: DPDK mbufs, possibly chains of segments, with dpswitch metadata
 * in the mbuf private area.
 *
 * A 'struct dp_packet' is an rte_mbuf (the first segment of a chain) followed
 * by 'struct dp_packet_md' in the private area of the mbuf.  Pools made by
 * dp_packet_pool_create() reserve that private area.  There is one packet
 * type: packets built by tools and tests come from heap-backed pools (EAL with
 * --no-huge), exactly like those a device receives.
 *
 * Segments.  A packet is a chain of one or more segments.  Every operation
 * here works on chains unless its name or comment says it needs a linear
 * packet.  The headers used for classification and rewriting are expected to
 * be in the first segment; dp_packet_make_contiguous() pulls bytes forward
 * when they are not.
 *
 * Offsets.  'l2_ofs', 'l3_ofs' and 'l4_ofs' count bytes from the start of the
 * packet data; DP_PACKET_OFS_NONE means "absent".  Head push/pull keep them
 * pointing at the same bytes.
 *
 * Checksum state.  Each of the IP and L4 checksums is in one of four states
 * (enum dp_csum): unknown, good, bad, partial.  "Partial" is also the tx
 * offload request: dp_packet_tx_prepare() (lib/csum.h) completes in software
 * what the egress port cannot offload and turns the rest into mbuf tx flags.
 *
 * Threads.  A packet belongs to one thread at a time; nothing here locks.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#ifndef DP_PACKET_H
#define DP_PACKET_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include "compiler.h"

/* DP_PACKET_ASAN is 1 in AddressSanitizer builds (configure
 * --enable-sanitizers), where the headroom and tailroom of received packets
 * are poisoned; see dp_packet_poison(). */
#if defined(__SANITIZE_ADDRESS__)
#define DP_PACKET_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DP_PACKET_ASAN 1
#endif
#endif
#ifndef DP_PACKET_ASAN
#define DP_PACKET_ASAN 0
#endif

/* The state of one checksum.  The values double as bit masks: GOOD and BAD
 * together mean PARTIAL (the header was verified or written by us and the
 * checksum field is not filled in yet). */
enum dp_csum {
    DP_CSUM_UNKNOWN = 0,        /* Nothing known (or no checksum, IPv6). */
    DP_CSUM_GOOD = 1,           /* Present and correct. */
    DP_CSUM_BAD = 2,            /* Present and wrong: forwarded wrong. */
    DP_CSUM_PARTIAL = 3,        /* To be filled in before transmission. */
};

/* Offsets into the packet that are not set. */
#define DP_PACKET_OFS_NONE UINT16_MAX

/* Bits in dp_packet_md.flags. */
#define DP_PACKET_F_RSS_VALID   0x01    /* 'rss_hash' is valid. */
#define DP_PACKET_F_MARK_VALID  0x02    /* 'flow_mark' is valid. */
#define DP_PACKET_F_FRAG        0x04    /* An IP fragment: the L4 checksum
                                         * covers more than this packet. */

/* Per-packet metadata, in the mbuf private area.  Keep it within one cache
 * line: the datapath touches it for every packet. */
struct dp_packet_md {
    uint32_t in_port;           /* Datapath port number of the input port. */
    uint32_t recirc_id;         /* Recirculation id, 0 on first pass. */
    uint32_t rss_hash;          /* Valid if DP_PACKET_F_RSS_VALID. */
    uint32_t flow_mark;         /* Valid if DP_PACKET_F_MARK_VALID. */
    uint16_t l2_ofs;            /* Ethernet header, or DP_PACKET_OFS_NONE. */
    uint16_t l3_ofs;            /* IPv4, IPv6 or ARP header, or NONE. */
    uint16_t l4_ofs;            /* TCP/UDP/SCTP/ICMP header, or ..._NONE. */
    uint8_t flags;              /* DP_PACKET_F_*. */
    uint8_t ip_csum;            /* enum dp_csum, IPv4 header checksum. */
    uint8_t l4_csum;            /* enum dp_csum, L4 checksum at 'l4_ofs'. */
    uint8_t l4_proto;           /* IP protocol of the header at 'l4_ofs'. */
    uint16_t tso_segsz;         /* A TCP segment to be cut into segments
                                 * of this many payload bytes at egress
                                 * (userspace TSO), or 0.  Its L4 checksum
                                 * is partial. */
};

/* A packet.  The mbuf is the first segment; 'md' is its private area, which
 * DPDK places immediately after struct rte_mbuf. */
struct dp_packet {
    struct rte_mbuf mbuf;
    struct dp_packet_md md;
};

/* Size of the private area that pools for packets must have. */
#define DP_PACKET_PRIV_SIZE \
    RTE_ALIGN(sizeof(struct dp_packet_md), RTE_MBUF_PRIV_ALIGN)

/* Default headroom of a fresh packet, room to push encapsulations. */
#define DP_PACKET_HEADROOM RTE_PKTMBUF_HEADROOM

/* Pools. */
struct rte_mempool *dp_packet_pool_create(const char *name,
                                          unsigned int n_packets,
                                          uint16_t data_room);
void dp_packet_pool_destroy(struct rte_mempool *);
uint16_t dp_packet_pool_data_room(const struct rte_mempool *);

/* Allocation. */
struct dp_packet *dp_packet_alloc(struct rte_mempool *);
struct dp_packet *dp_packet_alloc_data(struct rte_mempool *,
                                       const void *data, size_t size);
void dp_packet_free(struct dp_packet *);
struct dp_packet *dp_packet_from_mbuf(struct rte_mbuf *);
void dp_packet_md_reset(struct dp_packet *);

/* AddressSanitizer guard zones.  Mempool memory is invisible to ASan, so in
 * sanitizer builds dp_packet_poison() marks the bytes of every segment's
 * buffer outside the packet data (headroom and tailroom) unaddressable: a
 * read or write one byte beyond the packet is reported.  netdev_rxq_recv()
 * poisons every packet any port class receives; the functions here that
 * grow, shrink or copy a packet unpoison it for their work and poison the
 * result; dp_packet_free(), the allocators and netdev_send() (the hand-over
 * to a class, which may give the mbufs to DPDK) unpoison.  Code that writes
 * into the headroom or tailroom by other means must call
 * dp_packet_unpoison() first.  No-ops in other builds. */
#if DP_PACKET_ASAN
void dp_packet_poison(const struct dp_packet *);
void dp_packet_unpoison(const struct dp_packet *);
#else
static inline void dp_packet_poison(const struct dp_packet *p DPS_UNUSED) {}
static inline void dp_packet_unpoison(const struct dp_packet *p DPS_UNUSED) {}
#endif

/* Size and room. */
static inline uint32_t dp_packet_size(const struct dp_packet *);
static inline uint16_t dp_packet_n_segs(const struct dp_packet *);
static inline bool dp_packet_is_linear(const struct dp_packet *);
static inline void *dp_packet_data(const struct dp_packet *);
static inline uint16_t dp_packet_head_size(const struct dp_packet *);
static inline uint16_t dp_packet_headroom(const struct dp_packet *);
uint16_t dp_packet_tailroom(const struct dp_packet *);

/* Head and tail.  Each may allocate segments from the packet's own pool. */
void *dp_packet_push(struct dp_packet *, size_t size);
int dp_packet_pull(struct dp_packet *, size_t size);
int dp_packet_put(struct dp_packet *, const void *data, size_t size);
void *dp_packet_put_uninit(struct dp_packet *, size_t size);
int dp_packet_trim(struct dp_packet *, size_t size);

/* Access at any offset. */
int dp_packet_copy_out(const struct dp_packet *, size_t offset, size_t size,
                       void *dst);
int dp_packet_copy_in(struct dp_packet *, size_t offset, size_t size,
                      const void *src);
const void *dp_packet_read(const struct dp_packet *, size_t offset,
                           size_t size, void *buf);
void *dp_packet_make_contiguous(struct dp_packet *, size_t size);
int dp_packet_linearize(struct dp_packet *);

/* Copies. */
struct dp_packet *dp_packet_clone(const struct dp_packet *);
struct dp_packet *dp_packet_copy_to_pool(const struct dp_packet *,
                                         struct rte_mempool *);
struct dp_packet *dp_packet_copy_linear(const struct dp_packet *,
                                        struct rte_mempool *);

/* Metadata. */
static inline void dp_packet_set_rss_hash(struct dp_packet *, uint32_t);
static inline bool dp_packet_rss_hash(const struct dp_packet *, uint32_t *);
static inline void dp_packet_set_flow_mark(struct dp_packet *, uint32_t);
static inline bool dp_packet_flow_mark(const struct dp_packet *, uint32_t *);
static inline void *dp_packet_l3(const struct dp_packet *);
static inline void *dp_packet_l4(const struct dp_packet *);
void dp_packet_csum_from_rx_flags(struct dp_packet *);

/* Batches.
 *
 * A batch holds up to DP_PACKET_BATCH_SIZE packets.  Ownership: putting a
 * packet into a batch hands it to the batch; a function that takes a batch
 * either passes every packet on (to another batch or a device, which then
 * owns it) or frees it, and leaves the batch empty unless its comment says
 * otherwise.  dp_packet_batch_free() frees every packet still in a batch.
 *
 * Egress summary.  'n_clean' says that the first 'n_clean' packets have no
 * work waiting for netdev_send() (dp_packet_tx_pending() is false for each:
 * no partial checksum, no TSO, one segment), so that it tests one word for
 * them instead of each packet.  It is a promise made by whoever knows,
 * never a guess: dp_packet_batch_init() makes it 0, dp_packet_batch_add()
 * leaves it (the packet added is not covered), a receive path that tested
 * each packet as it set its state sets it (dp_packet_batch_set_clean()),
 * dp_packet_batch_append() carries it over.  Code that changes a packet in
 * a batch in a way that may leave work (rewriting a checksummed field,
 * adding a segment) or moves packets within a batch must make it 0
 * (dp_packet_batch_unclean()) unless it keeps the promise itself. */
#define DP_PACKET_BATCH_SIZE 32

struct dp_packet_batch {
    uint32_t count;
    uint32_t n_clean;           /* Leading packets with no egress work. */
    struct dp_packet *packets[DP_PACKET_BATCH_SIZE];
};

static inline void dp_packet_batch_init(struct dp_packet_batch *);
static inline bool dp_packet_batch_is_full(const struct dp_packet_batch *);
static inline bool dp_packet_batch_add(struct dp_packet_batch *,
                                       struct dp_packet *);
static inline size_t dp_packet_batch_append(struct dp_packet_batch *dst,
                                            const struct dp_packet_batch *src,
                                            size_t from);
static inline bool dp_packet_tx_pending(const struct dp_packet *);
static inline void dp_packet_batch_set_clean(struct dp_packet_batch *,
                                             bool clean);
static inline void dp_packet_batch_unclean(struct dp_packet_batch *);
void dp_packet_batch_free(struct dp_packet_batch *);
size_t dp_packet_batch_alloc(struct rte_mempool *, struct dp_packet_batch *,
                             size_t n);

/* Iterates over the packets of 'BATCH' with index 'I' and packet 'P'. */
#define DP_PACKET_BATCH_FOR_EACH(I, P, BATCH)                       \
    for (size_t I = 0;                                              \
         I < (BATCH)->count && ((P) = (BATCH)->packets[I], true);   \
         I++)

/* Inline implementations. */

static inline struct dp_packet *
dp_packet_cast__(struct rte_mbuf *m)
{
    return (struct dp_packet *) (void *) m;
}

/* Returns the number of bytes of packet data in all segments of 'p'. */
static inline uint32_t
dp_packet_size(const struct dp_packet *p)
{
    return p->mbuf.pkt_len;
}

/* Returns the number of segments of 'p'. */
static inline uint16_t
dp_packet_n_segs(const struct dp_packet *p)
{
    return p->mbuf.nb_segs;
}

/* Returns true if 'p' is a single segment. */
static inline bool
dp_packet_is_linear(const struct dp_packet *p)
{
    return p->mbuf.next == NULL;
}

/* Returns the start of the packet data in the first segment.  Only
 * dp_packet_head_size() bytes are contiguous there. */
static inline void *
dp_packet_data(const struct dp_packet *p)
{
    return (char *) p->mbuf.buf_addr + p->mbuf.data_off;
}

/* Returns the number of data bytes in the first segment. */
static inline uint16_t
dp_packet_head_size(const struct dp_packet *p)
{
    return p->mbuf.data_len;
}

/* Returns the bytes free before the data in the first segment. */
static inline uint16_t
dp_packet_headroom(const struct dp_packet *p)
{
    return p->mbuf.data_off;
}

/* Records RSS hash 'hash' for 'p'. */
static inline void
dp_packet_set_rss_hash(struct dp_packet *p, uint32_t hash)
{
    p->md.rss_hash = hash;
    p->md.flags |= DP_PACKET_F_RSS_VALID;
}

/* Stores the RSS hash of 'p' in '*hash' and returns true if it has one. */
static inline bool
dp_packet_rss_hash(const struct dp_packet *p, uint32_t *hash)
{
    *hash = p->md.rss_hash;
    return (p->md.flags & DP_PACKET_F_RSS_VALID) != 0;
}

/* Records flow mark 'mark' for 'p'. */
static inline void
dp_packet_set_flow_mark(struct dp_packet *p, uint32_t mark)
{
    p->md.flow_mark = mark;
    p->md.flags |= DP_PACKET_F_MARK_VALID;
}

/* Stores the flow mark of 'p' in '*mark' and returns true if it has one. */
static inline bool
dp_packet_flow_mark(const struct dp_packet *p, uint32_t *mark)
{
    *mark = p->md.flow_mark;
    return (p->md.flags & DP_PACKET_F_MARK_VALID) != 0;
}

/* Returns the L3 header of 'p', or NULL if it is unknown or not in the first
 * segment. */
static inline void *
dp_packet_l3(const struct dp_packet *p)
{
    return (p->md.l3_ofs < p->mbuf.data_len
            ? (char *) dp_packet_data(p) + p->md.l3_ofs : NULL);
}

/* Returns the L4 header of 'p', or NULL if it is unknown or not in the first
 * segment. */
static inline void *
dp_packet_l4(const struct dp_packet *p)
{
    return (p->md.l4_ofs < p->mbuf.data_len
            ? (char *) dp_packet_data(p) + p->md.l4_ofs : NULL);
}

/* Empties 'batch'. */
static inline void
dp_packet_batch_init(struct dp_packet_batch *batch)
{
    batch->count = 0;
    batch->n_clean = 0;
}

/* Returns true if 'batch' has no room for another packet. */
static inline bool
dp_packet_batch_is_full(const struct dp_packet_batch *batch)
{
    return batch->count >= DP_PACKET_BATCH_SIZE;
}

/* Appends 'p' to 'batch', which takes ownership of it, and returns true.  If
 * 'batch' is full, returns false and the caller keeps 'p'. */
static inline bool
dp_packet_batch_add(struct dp_packet_batch *batch, struct dp_packet *p)
{
    if (dp_packet_batch_is_full(batch)) {
        return false;
    }
    batch->packets[batch->count++] = p;
    return true;
}

/* Appends the packets of 'src' from index 'from' on to 'dst', as many as
 * fit, and returns how many; they stay in 'src' too (the caller empties
 * it).  If every packet 'dst' held and every one appended were covered by
 * the batches' egress summaries, so is all of 'dst'. */
static inline size_t
dp_packet_batch_append(struct dp_packet_batch *dst,
                       const struct dp_packet_batch *src, size_t from)
{
    size_t n = src->count - from;
    size_t room = DP_PACKET_BATCH_SIZE - dst->count;

    if (n > room) {
        n = room;
    }
    bool clean = dst->n_clean == dst->count && src->n_clean >= from + n;

    memcpy(&dst->packets[dst->count], &src->packets[from],
           n * sizeof src->packets[0]);
    dst->count += n;
    if (clean) {
        dst->n_clean = dst->count;
    }
    return n;
}

/* Returns true if 'p' has work waiting for netdev_send(), for some port:
 * a partial checksum (DP_CSUM_PARTIAL: both bits of one of its two state
 * bytes), TSO (always with a partial L4 checksum; its segment size is
 * tested too) or more than one segment. */
static inline bool
dp_packet_tx_pending(const struct dp_packet *p)
{
    return ((p->md.ip_csum & (p->md.ip_csum >> 1))
            | (p->md.l4_csum & (p->md.l4_csum >> 1))
            | p->md.tso_segsz | (p->mbuf.nb_segs - 1)) != 0;
}

/* Records that every packet of 'batch' lacks egress work if 'clean' (the
 * caller tested each with dp_packet_tx_pending()), that none is known to
 * if not. */
static inline void
dp_packet_batch_set_clean(struct dp_packet_batch *batch, bool clean)
{
    batch->n_clean = clean ? batch->count : 0;
}

/* Withdraws the egress summary of 'batch', whose packets are about to
 * change. */
static inline void
dp_packet_batch_unclean(struct dp_packet_batch *batch)
{
    batch->n_clean = 0;
}

#endif /* dp-packet.h */
