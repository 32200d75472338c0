/* Packets: DPDK mbufs, possibly chains of segments, with dpswitch metadata
 * in the mbuf private area.  See dp-packet.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-packet.h"
#include <errno.h>
#include <string.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include "util.h"
#include "vlog.h"
#if DP_PACKET_ASAN
#include <sanitizer/asan_interface.h>
#endif

VLOG_DEFINE_THIS_MODULE(dp_packet);

/* The metadata must fit the private area DPDK places right after the mbuf,
 * and that area must start where 'md' does. */
_Static_assert(offsetof(struct dp_packet, md) == sizeof(struct rte_mbuf),
               "dp_packet_md must directly follow struct rte_mbuf");
_Static_assert(sizeof(struct dp_packet_md) <= 64,
               "dp_packet_md should fit in one cache line");

static struct rte_mbuf *seg_alloc(struct rte_mempool *);
static void seg_unlink_next(struct rte_mbuf *head, struct rte_mbuf *prev);
static void offsets_shift(struct dp_packet *, long int delta);
static struct rte_mbuf *last_seg(struct rte_mbuf *);
static void *push__(struct dp_packet *, size_t size);
static int pull__(struct dp_packet *, size_t size);
static int put__(struct dp_packet *, const void *data, size_t size);
static void *put_uninit__(struct dp_packet *, size_t size);
static int trim__(struct dp_packet *, size_t size);
static void *make_contiguous__(struct dp_packet *, size_t size);
static void copy_packet_state(struct dp_packet *, const struct dp_packet *);
static int copy_range(struct rte_mbuf *, size_t offset, size_t size,
                      void *buf, bool out);

/* Creates a pool named 'name' of 'n_packets' segments, each with a buffer of
 * 'data_room' bytes (headroom included, as DPDK counts it: use
 * RTE_MBUF_DEFAULT_BUF_SIZE for standard 2 KB segments) and the private area
 * struct dp_packet_md needs.  The memory comes from the EAL heap, which is
 * ordinary process memory when EAL runs with --no-huge.  Returns the pool, or
 * NULL (logged) on failure.  Must be called after EAL is initialised. */
struct rte_mempool *
dp_packet_pool_create(const char *name, unsigned int n_packets,
                      uint16_t data_room)
{
    unsigned int cache = MIN(64u, n_packets / 8u);
    struct rte_mempool *pool;

    pool = rte_pktmbuf_pool_create(name, n_packets, cache,
                                   DP_PACKET_PRIV_SIZE, data_room,
                                   (int) rte_socket_id());
    if (!pool) {
        VLOG_ERR("%s: cannot create pool of %u packets with %u-byte data "
                 "room (%s)", name, n_packets, data_room,
                 rte_strerror(rte_errno));
    }
    return pool;
}

/* Frees 'pool', which must have every packet back.  NULL is a no-op. */
void
dp_packet_pool_destroy(struct rte_mempool *pool)
{
    rte_mempool_free(pool);
}

/* Returns the buffer size, headroom included, of the segments of 'pool'. */
uint16_t
dp_packet_pool_data_room(const struct rte_mempool *pool)
{
    return rte_pktmbuf_data_room_size((struct rte_mempool *) pool);
}

/* Allocates an empty single-segment packet from 'pool' with the default
 * headroom and reset metadata.  Returns NULL if the pool is empty. */
struct dp_packet *
dp_packet_alloc(struct rte_mempool *pool)
{
    struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

    if (!m) {
        return NULL;
    }
    struct dp_packet *p = dp_packet_cast__(m);
    dp_packet_unpoison(p);
    dp_packet_md_reset(p);
    return p;
}

/* Allocates a packet from 'pool' holding a copy of the 'size' bytes at
 * 'data', in as many segments as it takes.  Returns NULL if the pool runs
 * out. */
struct dp_packet *
dp_packet_alloc_data(struct rte_mempool *pool, const void *data, size_t size)
{
    struct dp_packet *p = dp_packet_alloc(pool);

    if (p && dp_packet_put(p, data, size)) {
        dp_packet_free(p);
        p = NULL;
    }
    return p;
}

/* Frees 'p' and every segment of it.  NULL is a no-op. */
void
dp_packet_free(struct dp_packet *p)
{
    if (p) {
        dp_packet_unpoison(p);
        rte_pktmbuf_free(&p->mbuf);
    }
}

/* Returns the packet whose first segment is 'm', which must come from a pool
 * made by dp_packet_pool_create().  The metadata is not touched. */
struct dp_packet *
dp_packet_from_mbuf(struct rte_mbuf *m)
{
    return dp_packet_cast__(m);
}

/* Resets the metadata of 'p' to that of a packet that just arrived on no
 * port: nothing known. */
void
dp_packet_md_reset(struct dp_packet *p)
{
    memset(&p->md, 0, sizeof p->md);
    p->md.l2_ofs = DP_PACKET_OFS_NONE;
    p->md.l3_ofs = DP_PACKET_OFS_NONE;
    p->md.l4_ofs = DP_PACKET_OFS_NONE;
}

#if DP_PACKET_ASAN
/* Poisons the headroom and tailroom of every segment of 'p' whose buffer
 * belongs to it alone (a direct mbuf not shared by a clone), and unpoisons
 * its data. */
void
dp_packet_poison(const struct dp_packet *p)
{
    for (const struct rte_mbuf *m = &p->mbuf; m; m = m->next) {
        if (RTE_MBUF_DIRECT(m) && rte_mbuf_refcnt_read(m) == 1) {
            char *buf = m->buf_addr;
            size_t end = (size_t) m->data_off + m->data_len;

            ASAN_UNPOISON_MEMORY_REGION(buf, m->buf_len);
            ASAN_POISON_MEMORY_REGION(buf, m->data_off);
            ASAN_POISON_MEMORY_REGION(buf + end, m->buf_len - end);
        }
    }
}

/* Makes the whole buffer of every segment of 'p' addressable again. */
void
dp_packet_unpoison(const struct dp_packet *p)
{
    for (const struct rte_mbuf *m = &p->mbuf; m; m = m->next) {
        if (RTE_MBUF_DIRECT(m)) {
            ASAN_UNPOISON_MEMORY_REGION(m->buf_addr, m->buf_len);
        }
    }
}
#endif

/* Returns the bytes free after the data of the last segment of 'p'. */
uint16_t
dp_packet_tailroom(const struct dp_packet *p)
{
    const struct rte_mbuf *m = last_seg((struct rte_mbuf *) &p->mbuf);

    return m->buf_len - m->data_off - m->data_len;
}

/* Prepends 'size' bytes to 'p' and returns a pointer to them, contiguous in
 * the first segment, uninitialised.  Uses the headroom if it is large enough,
 * else slides the first segment's data, else moves that data into a new
 * second segment.  Returns NULL, leaving 'p' unchanged, if 'size' exceeds
 * the data room or no segment can be allocated. */
void *
dp_packet_push(struct dp_packet *p, size_t size)
{
    dp_packet_unpoison(p);
    void *r = push__(p, size);
    dp_packet_poison(p);
    return r;
}

/* Removes the first 'size' bytes of 'p', across segments, freeing segments
 * that become empty.  If the first segment empties, bytes from the next
 * segments are pulled forward into it.  Returns 0, or EINVAL if 'p' is
 * shorter than 'size' (nothing removed). */
int
dp_packet_pull(struct dp_packet *p, size_t size)
{
    dp_packet_unpoison(p);
    int r = pull__(p, size);
    dp_packet_poison(p);
    return r;
}

/* Appends a copy of the 'size' bytes at 'data' to 'p', filling the last
 * segment and then new segments from the packet's pool.  Returns 0, or
 * ENOMEM (with 'p' unchanged) if the pool runs out. */
int
dp_packet_put(struct dp_packet *p, const void *data, size_t size)
{
    dp_packet_unpoison(p);
    int r = put__(p, data, size);
    dp_packet_poison(p);
    return r;
}

/* Appends 'size' uninitialised bytes to 'p', contiguous in one segment (the
 * last one, or a new one from the packet's pool), and returns a pointer to
 * them.  Returns NULL, with 'p' unchanged, if 'size' exceeds a segment's data
 * room or the pool runs out. */
void *
dp_packet_put_uninit(struct dp_packet *p, size_t size)
{
    dp_packet_unpoison(p);
    void *r = put_uninit__(p, size);
    dp_packet_poison(p);
    return r;
}

/* Removes the last 'size' bytes of 'p', across segments, freeing segments
 * that become empty (the first segment is always kept).  Returns 0, or
 * EINVAL if 'p' is shorter than 'size'. */
int
dp_packet_trim(struct dp_packet *p, size_t size)
{
    dp_packet_unpoison(p);
    int r = trim__(p, size);
    dp_packet_poison(p);
    return r;
}

/* Copies 'size' bytes of 'p' starting at byte 'offset' to 'dst', across
 * segments.  Returns 0, or EINVAL if the range is not within the packet. */
int
dp_packet_copy_out(const struct dp_packet *p, size_t offset, size_t size,
                   void *dst)
{
    return copy_range((struct rte_mbuf *) &p->mbuf, offset, size, dst, true);
}

/* Copies the 'size' bytes at 'src' into 'p' starting at byte 'offset',
 * across segments, overwriting what is there.  Returns 0, or EINVAL if the
 * range is not within the packet (the packet never grows here). */
int
dp_packet_copy_in(struct dp_packet *p, size_t offset, size_t size,
                  const void *src)
{
    return copy_range(&p->mbuf, offset, size, (void *) src, false);
}

/* Returns a pointer to 'size' bytes of 'p' at 'offset': into the segment
 * that holds them if they are contiguous, else into 'buf' (at least 'size'
 * bytes) after copying them there.  Returns NULL if the range is not within
 * the packet. */
const void *
dp_packet_read(const struct dp_packet *p, size_t offset, size_t size,
               void *buf)
{
    const struct rte_mbuf *seg = &p->mbuf;

    if (offset > seg->pkt_len || size > seg->pkt_len - offset) {
        return NULL;
    }
    if (offset + size <= seg->data_len) {
        return rte_pktmbuf_mtod_offset(seg, char *, offset);
    }

    size_t seg_offset = offset;
    while (seg_offset >= seg->data_len && seg->next) {
        seg_offset -= seg->data_len;
        seg = seg->next;
    }
    if (seg_offset + size <= seg->data_len) {
        return rte_pktmbuf_mtod_offset(seg, char *, seg_offset);
    }
    dp_packet_copy_out(p, offset, size, buf);
    return buf;
}

/* Makes the first 'size' bytes of 'p' contiguous in its first segment,
 * moving bytes from the following segments forward (and, if needed, the
 * first segment's data toward the start of its buffer, reducing headroom);
 * segments that empty are freed.  Returns a pointer to the data, or NULL
 * (nothing changed) if 'p' is shorter than 'size' or 'size' exceeds the
 * first segment's buffer. */
void *
dp_packet_make_contiguous(struct dp_packet *p, size_t size)
{
    dp_packet_unpoison(p);
    void *r = make_contiguous__(p, size);
    dp_packet_poison(p);
    return r;
}

/* Makes 'p' a single segment.  Returns 0, or ENOBUFS (nothing changed) if
 * 'p' does not fit in one segment of its pool; dp_packet_copy_to_pool() into
 * a pool with a larger data room is then the way. */
int
dp_packet_linearize(struct dp_packet *p)
{
    if (dp_packet_is_linear(p)) {
        return 0;
    }
    return dp_packet_make_contiguous(p, p->mbuf.pkt_len) ? 0 : ENOBUFS;
}

/* Returns a copy of 'p' (data, segments' worth of bytes, metadata) from the
 * pool of 'p', or NULL if the pool runs out.  The copy shares nothing with
 * 'p': either may be modified freely. */
struct dp_packet *
dp_packet_clone(const struct dp_packet *p)
{
    return dp_packet_copy_to_pool(p, p->mbuf.pool);
}

/* Returns a copy of 'p' made of segments from 'pool', whose data room may
 * differ from that of 'p' (a 9000-byte frame in one segment becomes a chain
 * of 2 KB segments, and back).  The headroom of 'p' is kept if it fits.  The
 * metadata and the receive state of the mbuf (offload flags, hash, packet
 * type) are copied.  Returns NULL if 'pool' runs out. */
struct dp_packet *
dp_packet_copy_to_pool(const struct dp_packet *p, struct rte_mempool *pool)
{
    struct dp_packet *copy = dp_packet_alloc(pool);

    if (!copy) {
        return NULL;
    }
    copy->mbuf.data_off = MIN(p->mbuf.data_off, copy->mbuf.buf_len);
    for (const struct rte_mbuf *seg = &p->mbuf; seg; seg = seg->next) {
        if (dp_packet_put(copy, rte_pktmbuf_mtod(seg, char *),
                          seg->data_len)) {
            dp_packet_free(copy);
            return NULL;
        }
    }
    copy_packet_state(copy, p);
    return copy;
}

/* Returns a copy of 'p' (as dp_packet_copy_to_pool()) in a single segment
 * of 'pool', with as much of the headroom of 'p' as fits, or NULL if 'pool'
 * runs out or 'p' does not fit in one of its segments.  This is how a chain
 * leaves on a port that cannot send chains. */
struct dp_packet *
dp_packet_copy_linear(const struct dp_packet *p, struct rte_mempool *pool)
{
    uint32_t size = p->mbuf.pkt_len;

    if (size > dp_packet_pool_data_room(pool)) {
        return NULL;
    }

    struct dp_packet *copy = dp_packet_alloc(pool);
    if (!copy) {
        return NULL;
    }
    struct rte_mbuf *m = &copy->mbuf;
    m->data_off = MIN(p->mbuf.data_off, (uint16_t) (m->buf_len - size));
    copy_range((struct rte_mbuf *) &p->mbuf, 0, size,
               rte_pktmbuf_mtod(m, char *), true);
    m->data_len = size;
    m->pkt_len = size;
    copy_packet_state(copy, p);
    return copy;
}

/* Sets the checksum states, RSS hash and flow mark of 'p', just received by
 * a DPDK device, from the mbuf's receive flags. */
void
dp_packet_csum_from_rx_flags(struct dp_packet *p)
{
    uint64_t flags = p->mbuf.ol_flags;

    /* GOOD and BAD map bit for bit, and both together (DPDK's "NONE") are
     * our PARTIAL. */
    p->md.ip_csum = (((flags & RTE_MBUF_F_RX_IP_CKSUM_GOOD) ? DP_CSUM_GOOD : 0)
                     | ((flags & RTE_MBUF_F_RX_IP_CKSUM_BAD)
                        ? DP_CSUM_BAD : 0));
    p->md.l4_csum = (((flags & RTE_MBUF_F_RX_L4_CKSUM_GOOD) ? DP_CSUM_GOOD : 0)
                     | ((flags & RTE_MBUF_F_RX_L4_CKSUM_BAD)
                        ? DP_CSUM_BAD : 0));
    if (flags & RTE_MBUF_F_RX_RSS_HASH) {
        dp_packet_set_rss_hash(p, p->mbuf.hash.rss);
    }
    if (flags & RTE_MBUF_F_RX_FDIR_ID) {
        dp_packet_set_flow_mark(p, p->mbuf.hash.fdir.hi);
    }
}

/* Frees every packet in 'batch' and empties it. */
void
dp_packet_batch_free(struct dp_packet_batch *batch)
{
    for (uint32_t i = 0; i < batch->count; i++) {
        dp_packet_free(batch->packets[i]);
    }
    dp_packet_batch_init(batch);
}

/* Appends up to 'n' fresh packets from 'pool' to 'batch', as many as fit,
 * all or none.  Returns the number added. */
size_t
dp_packet_batch_alloc(struct rte_mempool *pool, struct dp_packet_batch *batch,
                      size_t n)
{
    struct rte_mbuf *mbufs[DP_PACKET_BATCH_SIZE];

    n = MIN(n, (size_t) (DP_PACKET_BATCH_SIZE - batch->count));
    if (!n || rte_pktmbuf_alloc_bulk(pool, mbufs, n)) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_cast__(mbufs[i]);

        dp_packet_unpoison(p);
        dp_packet_md_reset(p);
        batch->packets[batch->count++] = p;
    }
    return n;
}

static void *
push__(struct dp_packet *p, size_t size)
{
    struct rte_mbuf *head = &p->mbuf;
    char *base = head->buf_addr;

    if (size <= head->data_off) {
        head->data_off -= size;
    } else if (size + head->data_len <= head->buf_len) {
        memmove(base + size, base + head->data_off, head->data_len);
        head->data_off = 0;
    } else {
        if (size > head->buf_len) {
            return NULL;
        }
        struct rte_mbuf *seg = seg_alloc(head->pool);
        if (!seg) {
            return NULL;
        }
        memcpy(rte_pktmbuf_mtod(seg, char *), base + head->data_off,
               head->data_len);
        seg->data_len = head->data_len;
        seg->next = head->next;
        head->next = seg;
        head->nb_segs++;
        head->data_len = 0;
        head->data_off = head->buf_len - size;
    }
    head->data_len += size;
    head->pkt_len += size;
    offsets_shift(p, (long int) size);
    return base + head->data_off;
}

static int
pull__(struct dp_packet *p, size_t size)
{
    struct rte_mbuf *head = &p->mbuf;

    if (size > head->pkt_len) {
        return EINVAL;
    }
    if (size <= head->data_len) {
        head->data_off += size;
        head->data_len -= size;
    } else {
        size_t left = size - head->data_len;

        head->data_off += head->data_len;
        head->data_len = 0;
        while (left) {
            struct rte_mbuf *seg = head->next;

            if (left >= seg->data_len) {
                left -= seg->data_len;
                seg_unlink_next(head, head);
            } else {
                seg->data_off += left;
                seg->data_len -= left;
                left = 0;
            }
        }
    }
    head->pkt_len -= size;
    if (!head->data_len && head->next) {
        head->data_off = MIN(DP_PACKET_HEADROOM, head->buf_len / 2);
        dp_packet_make_contiguous(p, MIN(head->pkt_len,
                                         (uint32_t) head->buf_len
                                         - head->data_off));
    }
    offsets_shift(p, -(long int) size);
    return 0;
}

static int
put__(struct dp_packet *p, const void *data, size_t size)
{
    struct rte_mbuf *head = &p->mbuf;
    struct rte_mbuf *tail = last_seg(head);
    uint32_t old_len = head->pkt_len;
    const char *src = data;

    if (size > UINT32_MAX - old_len) {
        return ENOMEM;
    }
    while (size) {
        size_t room = tail->buf_len - tail->data_off - tail->data_len;

        if (!room) {
            struct rte_mbuf *seg = seg_alloc(head->pool);
            if (!seg || head->nb_segs == RTE_MBUF_MAX_NB_SEGS) {
                rte_pktmbuf_free(seg);
                dp_packet_trim(p, head->pkt_len - old_len);
                return ENOMEM;
            }
            tail->next = seg;
            tail = seg;
            head->nb_segs++;
            continue;
        }

        size_t n = MIN(room, size);
        memcpy(rte_pktmbuf_mtod_offset(tail, char *, tail->data_len), src, n);
        tail->data_len += n;
        head->pkt_len += n;
        src += n;
        size -= n;
    }
    return 0;
}

static void *
put_uninit__(struct dp_packet *p, size_t size)
{
    struct rte_mbuf *head = &p->mbuf;
    struct rte_mbuf *tail = last_seg(head);

    if (size > (size_t) tail->buf_len - tail->data_off - tail->data_len) {
        if (size > head->buf_len || head->nb_segs == RTE_MBUF_MAX_NB_SEGS) {
            return NULL;
        }
        struct rte_mbuf *seg = seg_alloc(head->pool);
        if (!seg) {
            return NULL;
        }
        tail->next = seg;
        tail = seg;
        head->nb_segs++;
    }

    char *dst = rte_pktmbuf_mtod_offset(tail, char *, tail->data_len);
    tail->data_len += size;
    head->pkt_len += size;
    return dst;
}

static int
trim__(struct dp_packet *p, size_t size)
{
    struct rte_mbuf *head = &p->mbuf;
    struct rte_mbuf *seg = head;

    if (size > head->pkt_len) {
        return EINVAL;
    }

    uint32_t left = head->pkt_len - size;
    uint16_t n_segs = 1;
    while (left > seg->data_len) {
        left -= seg->data_len;
        seg = seg->next;
        n_segs++;
    }
    seg->data_len = left;
    rte_pktmbuf_free(seg->next);
    seg->next = NULL;
    head->nb_segs = n_segs;
    head->pkt_len -= size;
    return 0;
}

static void *
make_contiguous__(struct dp_packet *p, size_t size)
{
    struct rte_mbuf *head = &p->mbuf;
    char *base = head->buf_addr;

    if (likely(size <= head->data_len)) {
        return base + head->data_off;
    }
    if (size > head->pkt_len || size > head->buf_len) {
        return NULL;
    }
    if (head->data_off + size > head->buf_len) {
        uint16_t new_off = head->buf_len - size;

        memmove(base + new_off, base + head->data_off, head->data_len);
        head->data_off = new_off;
    }

    size_t need = size - head->data_len;
    while (need) {
        struct rte_mbuf *seg = head->next;
        size_t n = MIN(need, seg->data_len);

        memcpy(base + head->data_off + head->data_len,
               rte_pktmbuf_mtod(seg, char *), n);
        head->data_len += n;
        seg->data_off += n;
        seg->data_len -= n;
        need -= n;
        if (!seg->data_len) {
            seg_unlink_next(head, head);
        }
    }
    return base + head->data_off;
}

/* Copies the metadata and the receive state of the mbuf (offload flags,
 * hash, packet type, input port) of 'p' to 'copy'. */
static void
copy_packet_state(struct dp_packet *copy, const struct dp_packet *p)
{
    copy->md = p->md;
    copy->mbuf.ol_flags = p->mbuf.ol_flags;
    copy->mbuf.hash = p->mbuf.hash;
    copy->mbuf.packet_type = p->mbuf.packet_type;
    copy->mbuf.port = p->mbuf.port;
}

/* Allocates a segment to extend a chain: no headroom, since nothing is ever
 * pushed in front of a non-first segment. */
static struct rte_mbuf *
seg_alloc(struct rte_mempool *pool)
{
    struct rte_mbuf *seg = rte_pktmbuf_alloc(pool);

    if (seg) {
        dp_packet_unpoison(dp_packet_cast__(seg));
        seg->data_off = 0;
    }
    return seg;
}

/* Unlinks and frees the segment after 'prev' in the chain of 'head'. */
static void
seg_unlink_next(struct rte_mbuf *head, struct rte_mbuf *prev)
{
    struct rte_mbuf *seg = prev->next;

    prev->next = seg->next;
    seg->next = NULL;
    seg->nb_segs = 1;
    rte_pktmbuf_free_seg(seg);
    head->nb_segs--;
}

/* Moves the layer offsets of 'p' by 'delta' bytes, forgetting those that
 * leave the packet. */
static void
offsets_shift(struct dp_packet *p, long int delta)
{
    uint16_t *ofs[] = { &p->md.l2_ofs, &p->md.l3_ofs, &p->md.l4_ofs };

    for (size_t i = 0; i < ARRAY_SIZE(ofs); i++) {
        if (*ofs[i] != DP_PACKET_OFS_NONE) {
            long int v = *ofs[i] + delta;

            *ofs[i] = (v < 0 || v >= DP_PACKET_OFS_NONE
                       ? DP_PACKET_OFS_NONE : (uint16_t) v);
        }
    }
}

/* Copies 'size' bytes at 'offset' of the chain that starts at 'seg' into
 * 'buf' if 'out', else from 'buf' into the chain.  Returns 0, or EINVAL if
 * the range is not within the packet. */
static int
copy_range(struct rte_mbuf *seg, size_t offset, size_t size, void *buf_,
           bool out)
{
    char *buf = buf_;

    if (offset > seg->pkt_len || size > seg->pkt_len - offset) {
        return EINVAL;
    }
    while (offset >= seg->data_len && size) {
        offset -= seg->data_len;
        seg = seg->next;
    }
    while (size) {
        size_t n = MIN(size, seg->data_len - offset);
        char *data = rte_pktmbuf_mtod_offset(seg, char *, offset);

        if (out) {
            memcpy(buf, data, n);
        } else {
            memcpy(data, buf, n);
        }
        buf += n;
        size -= n;
        offset = 0;
        seg = seg->next;
    }
    return 0;
}

static struct rte_mbuf *
last_seg(struct rte_mbuf *m)
{
    while (m->next) {
        m = m->next;
    }
    return m;
}
