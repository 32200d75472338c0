/* Helpers shared by the datapath tests.  See dp-test.h.
 *
 * Licensed under the Apache License, Version 2.0 (see LICENSE). */

#include <config.h>
#include "dp-test.h"
#include <stdlib.h>
#include <string.h>
#include "dpdk-eal.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

struct dp_test_pools dp_test_pools;

#define STD_N 1024
#define TINY_N 4096
#define JUMBO_N 16

/* Initialises EAL (heap memory, own file prefix derived from 'name') and
 * the pools in 'dp_test_pools'.  Aborts on failure: no test can run. */
void
dp_test_init(const char *name)
{
    if (dpdk_eal_init_light(name, 64)) {
        util_fatal(0, "%s: cannot initialise EAL", name);
    }
    dp_test_pools.std = dp_packet_pool_create("test-std", STD_N,
                                              RTE_MBUF_DEFAULT_BUF_SIZE);
    dp_test_pools.tiny = dp_packet_pool_create("test-tiny", TINY_N,
                                               RTE_PKTMBUF_HEADROOM + 64);
    dp_test_pools.jumbo = dp_packet_pool_create("test-jumbo", JUMBO_N,
                                                RTE_PKTMBUF_HEADROOM + 9216);
    if (!dp_test_pools.std || !dp_test_pools.tiny || !dp_test_pools.jumbo) {
        util_fatal(0, "%s: cannot create pools", name);
    }
}

/* Frees the pools and releases EAL. */
void
dp_test_fini(void)
{
    dp_packet_pool_destroy(dp_test_pools.std);
    dp_packet_pool_destroy(dp_test_pools.tiny);
    dp_packet_pool_destroy(dp_test_pools.jumbo);
    memset(&dp_test_pools, 0, sizeof dp_test_pools);
    dpdk_eal_fini();
}

/* Returns true if every segment of every test pool is back in its pool: no
 * test leaked or double-freed one. */
bool
dp_test_pools_full(void)
{
    return (rte_mempool_avail_count(dp_test_pools.std) == STD_N
            && rte_mempool_avail_count(dp_test_pools.tiny) == TINY_N
            && rte_mempool_avail_count(dp_test_pools.jumbo) == JUMBO_N);
}

/* Group teardown for cmocka: frees the pools and releases EAL. */
int
dp_test_teardown_group(void **state DPS_UNUSED)
{
    dp_test_fini();
    return 0;
}

/* Per-test teardown for cmocka: fails if a segment is missing from a pool. */
int
dp_test_check_no_leak(void **state DPS_UNUSED)
{
    return dp_test_pools_full() ? 0 : -1;
}

/* Returns a packet from 'pool' of 'size' bytes (at most 9100) filled with
 * 'fill' behind an Ethernet header to the broadcast address from
 * 02:00:00:00:00:01 with type 0x88b5 (local experimental, so that nothing
 * parses further), or NULL if 'size' is too large or the pool is empty. */
struct dp_packet *
dp_test_eth_packet(struct rte_mempool *pool, size_t size, uint8_t fill)
{
    uint8_t data[9100];

    if (size > sizeof data) {
        return NULL;
    }
    memset(data, fill, size);
    memset(data, 0xff, 6);
    memcpy(data + 6, "\x02\x00\x00\x00\x00\x01", 6);
    data[12] = 0x88;
    data[13] = 0xb5;
    return dp_packet_alloc_data(pool, data, size);
}

/* Returns a packet from 'pool' holding the 'size' bytes at 'data', with
 * 'first' bytes in its first segment (after the default headroom) and
 * 'rest' bytes (or what is left) in each following one.  'first' may be 0
 * only if 'size' is 0; 'rest' must not be 0.  Returns NULL if the pool runs
 * out or a segment cannot hold what is asked. */
struct dp_packet *
dp_test_chain(struct rte_mempool *pool, const void *data_, size_t size,
              size_t first, size_t rest)
{
    const uint8_t *data = data_;
    struct dp_packet *p = dp_packet_alloc(pool);

    if (!p) {
        return NULL;
    }
    first = MIN(first, size);
    if (first > rte_pktmbuf_tailroom(&p->mbuf)) {
        goto error;
    }
    memcpy(rte_pktmbuf_append(&p->mbuf, first), data, first);

    for (size_t ofs = first; ofs < size; ofs += rest) {
        size_t n = MIN(rest, size - ofs);
        struct rte_mbuf *seg = rte_pktmbuf_alloc(pool);

        if (!seg) {
            goto error;
        }
        seg->data_off = 0;
        if (n > rte_pktmbuf_tailroom(seg)) {
            rte_pktmbuf_free(seg);
            goto error;
        }
        memcpy(rte_pktmbuf_append(seg, n), data + ofs, n);
        if (rte_pktmbuf_chain(&p->mbuf, seg)) {
            rte_pktmbuf_free(seg);
            goto error;
        }
    }
    return p;

error:
    dp_packet_free(p);
    return NULL;
}

/* Returns true if the chain of 'p' is consistent: DPDK's own check passes,
 * the segment lengths add up to the packet length and the segment count is
 * right. */
bool
dp_test_chain_ok(const struct dp_packet *p)
{
    const char *reason;
    uint32_t total = 0;
    uint16_t n = 0;

    if (rte_mbuf_check(&p->mbuf, 1, &reason)) {
        return false;
    }
    for (const struct rte_mbuf *m = &p->mbuf; m; m = m->next) {
        if (m->data_off + m->data_len > m->buf_len) {
            return false;
        }
        total += m->data_len;
        n++;
    }
    return total == p->mbuf.pkt_len && n == p->mbuf.nb_segs;
}

/* See dp-test.h. */
struct dp_packet *
dp_test_shaped_packet(const struct flow *f, enum dp_test_shape shape)
{
    struct dp_packet *p = flow_compose(dp_test_pools.std, f, 20);

    if (!p) {
        return NULL;
    }
    if (shape == DP_TEST_SHAPE_CUT && dp_packet_size(p) > 30
        && dp_packet_trim(p, dp_packet_size(p) - 30)) {
        dp_packet_free(p);
        return NULL;
    }
    if (shape == DP_TEST_SHAPE_CHAIN) {
        uint8_t buf[2048];
        size_t size = dp_packet_size(p);

        dp_packet_copy_out(p, 0, size, buf);
        dp_packet_free(p);
        p = dp_test_chain(dp_test_pools.tiny, buf, size, 20, 16);
    }
    return p;
}


/* Returns true if 'p' holds exactly the 'size' bytes at 'data'. */
bool
dp_test_equal(const struct dp_packet *p, const void *data, size_t size)
{
    if (dp_packet_size(p) != size || !dp_test_chain_ok(p)) {
        return false;
    }

    uint8_t *buf = xmalloc(size + 1);
    bool equal = (!dp_packet_copy_out(p, 0, size, buf)
                  && !memcmp(buf, data, size));
    free(buf);
    return equal;
}

const struct eth_addr dp_test_mac1 = {
    { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55 } };
const struct eth_addr dp_test_mac2 = {
    { 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb } };
const struct ipv6_addr dp_test_v6a = {
    { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 } };
const struct ipv6_addr dp_test_v6b = {
    { 0xfe, 0x80, [14] = 0xab, 0xcd } };

/* Helpers that fill in test flows. */
void
dp_test_base_flow(struct flow *f, uint16_t dl_type)
{
    memset(f, 0, sizeof *f);
    f->in_port = 3;
    f->dl_src = dp_test_mac1;
    f->dl_dst = dp_test_mac2;
    f->dl_type = htons(dl_type);
}

void
dp_test_ipv4_flow(struct flow *f, uint8_t proto)
{
    dp_test_base_flow(f, ETH_TYPE_IP);
    f->nw_src = htonl(0x0a000001);
    f->nw_dst = htonl(0xc0a80102);
    f->nw_proto = proto;
    f->nw_tos = 0x2e;
    f->nw_ttl = 64;
}

void
dp_test_ipv6_flow(struct flow *f, uint8_t proto)
{
    dp_test_base_flow(f, ETH_TYPE_IPV6);
    f->ipv6_src = dp_test_v6a;
    f->ipv6_dst = dp_test_v6b;
    f->ipv6_label = htonl(0x12345);
    f->nw_proto = proto;
    f->nw_tos = 0x71;
    f->nw_ttl = 255;
}

void
dp_test_ports(struct flow *f, uint16_t src, uint16_t dst)
{
    f->tp_src = htons(src);
    f->tp_dst = htons(dst);
}

/* Stores in 'flows' (room for DP_TEST_MAX_FLOWS) a sample of flows of
 * every protocol extraction knows and returns how many. */
size_t
dp_test_sample_flows(struct flow *flows)
{
    struct flow *f = flows;

    dp_test_base_flow(f++, 0x88cc);             /* LLDP: L2 only. */
    dp_test_base_flow(f, 0x88cc);
    f->vlan_tpid[0] = htons(ETH_TYPE_VLAN);
    f->vlan_tci[0] = htons(VLAN_CFI | 0xa00a);
    f++;
    dp_test_ipv4_flow(f, IPPROTO_TCP_);
    dp_test_ports(f, 1234, 80);
    f->tcp_flags = htons(TCP_SYN | TCP_ACK);
    f->vlan_tpid[0] = htons(ETH_TYPE_VLAN_8021AD);
    f->vlan_tci[0] = htons(VLAN_CFI | 100);
    f->vlan_tpid[1] = htons(ETH_TYPE_VLAN);
    f->vlan_tci[1] = htons(VLAN_CFI | 0x6000 | 200);
    f++;
    dp_test_ipv4_flow(f, IPPROTO_TCP_);
    dp_test_ports(f, 65535, 1);
    f->tcp_flags = htons(0xfff);
    f++;
    dp_test_ipv4_flow(f, IPPROTO_UDP_);
    dp_test_ports(f, 53, 5353);
    f++;
    dp_test_ipv4_flow(f, IPPROTO_SCTP_);
    dp_test_ports(f, 38412, 36412);
    f++;
    dp_test_ipv4_flow(f, IPPROTO_ICMP_);
    dp_test_ports(f, 8, 0);
    f++;
    dp_test_ipv4_flow(f, IPPROTO_UDP_);
    dp_test_ports(f, 4789, 4789);
    f->nw_frag = FLOW_NW_FRAG_ANY;
    f++;
    dp_test_ipv4_flow(f, IPPROTO_UDP_);
    f->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    f++;
    dp_test_ipv4_flow(f, 47);                   /* GRE: no L4 here. */
    f++;
    dp_test_ipv6_flow(f, IPPROTO_TCP_);
    dp_test_ports(f, 22, 40000);
    f->tcp_flags = htons(TCP_FIN);
    f++;
    dp_test_ipv6_flow(f, IPPROTO_UDP_);
    dp_test_ports(f, 546, 547);
    f++;
    dp_test_ipv6_flow(f, IPPROTO_SCTP_);
    dp_test_ports(f, 1, 2);
    f++;
    dp_test_ipv6_flow(f, IPPROTO_ICMPV6_);
    dp_test_ports(f, 128, 0);
    f++;
    dp_test_ipv6_flow(f, IPPROTO_UDP_);
    dp_test_ports(f, 7, 9);
    f->nw_frag = FLOW_NW_FRAG_ANY;
    f++;
    dp_test_ipv6_flow(f, IPPROTO_TCP_);
    f->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    f++;
    dp_test_ipv6_flow(f, IPPROTO_ICMPV6_);
    dp_test_ports(f, ND_NEIGHBOR_SOLICIT, 0);
    f->nd_target = dp_test_v6b;
    f->arp_sha = dp_test_mac1;
    f++;
    dp_test_ipv6_flow(f, IPPROTO_ICMPV6_);
    dp_test_ports(f, ND_NEIGHBOR_ADVERT, 0);
    f->nd_target = dp_test_v6a;
    f->arp_tha = dp_test_mac2;
    f++;
    dp_test_ipv6_flow(f, IPPROTO_ICMPV6_);
    dp_test_ports(f, ND_NEIGHBOR_ADVERT, 0);
    f->nd_target = dp_test_v6a;
    f->arp_sha = dp_test_mac2;
    f->arp_tha = dp_test_mac1;
    f++;
    dp_test_base_flow(f, ETH_TYPE_ARP);
    f->arp_op = htons(ARP_OP_REQUEST);
    f->nw_src = htonl(0x0a000001);
    f->nw_dst = htonl(0x0a0000fe);
    f->arp_sha = dp_test_mac1;
    f++;
    return f - flows;
}
